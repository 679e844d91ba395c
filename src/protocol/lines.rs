//! Reading text lines on a thread of their own, so that whoever waits for
//! them can wait on a channel with a deadline (the protocol loop, arena's
//! engine processes, the tests' engine processes) instead of in a blocking
//! read.

use crossbeam_channel::{unbounded, Receiver};
use std::io::{BufRead, BufReader, Read};

/// Reads `input` line by line on a thread named `name`, sending each line
/// through `wrap` (which may stamp or log it); the channel closes at the end
/// of input or on a read error. Line ends (`\n`, `\r\n`) are cut, and bytes
/// that are not UTF-8 become U+FFFD, so they reach the reader's parser (and
/// its error message) instead of ending the stream.
pub fn spawn_line_reader<R, T, F>(input: R, name: String, wrap: F) -> std::io::Result<Receiver<T>>
where
    R: Read + Send + 'static,
    T: Send + 'static,
    F: Fn(String) -> T + Send + 'static,
{
    let (sender, receiver) = unbounded();
    std::thread::Builder::new().name(name).spawn(move || {
        let mut input = BufReader::new(input);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer);
                    if sender.send(wrap(line.trim_end_matches(['\n', '\r']).to_string())).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    Ok(receiver)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_arrive_without_their_ends_and_bad_bytes_survive() {
        let input: &[u8] = b"uci\r\nis\xffready\n\nlast";
        let lines = spawn_line_reader(input, "test".into(), |line| line).unwrap();
        let got: Vec<String> = lines.iter().collect();
        assert_eq!(got, ["uci", "is\u{fffd}ready", "", "last"]);
    }
}
