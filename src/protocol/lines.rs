//! Reading text lines on a thread of their own, so that whoever waits for
//! them can wait on a channel with a deadline (the protocol loop, arena's
//! engine processes, the tests' engine processes) instead of in a blocking
//! read.
//!
//! Two readers: [`spawn_line_reader`] keeps every line whole and queues
//! without limit (the engine's own input: it answers an over-long command
//! with an error instead of dying), and [`spawn_bounded_line_reader`] holds
//! at most a given number of lines of at most a given length (tools that
//! read engines they do not trust: a flood of output cannot take their
//! memory, and the engine waits while the queue is full).

use crossbeam_channel::{bounded, unbounded, Receiver};
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

/// How much a bounded reader holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineBounds {
    /// Lines waiting in the channel; the reader stops reading (and the
    /// writer of `input` waits) while it is full.
    pub queue: usize,
    /// The longest line, in bytes without its end; a longer one arrives as
    /// [`LineTooLong`] and only its first bytes are ever held.
    pub line_bytes: usize,
}

/// A line longer than [`LineBounds::line_bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineTooLong {
    /// How long it was, in bytes without its end (counted, never held).
    pub bytes: usize,
}

/// As [`spawn_line_reader`], within `bounds`: each line reaches `wrap` as
/// `Ok(text)`, or as `Err` when it was longer than `bounds.line_bytes`.
pub fn spawn_bounded_line_reader<R, T, F>(
    input: R,
    name: String,
    bounds: LineBounds,
    wrap: F,
) -> std::io::Result<Receiver<T>>
where
    R: Read + Send + 'static,
    T: Send + 'static,
    F: Fn(Result<String, LineTooLong>) -> T + Send + 'static,
{
    let (sender, receiver) = bounded(bounds.queue.max(1));
    std::thread::Builder::new().name(name).spawn(move || {
        let mut input = BufReader::new(input);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            let line = match read_capped_line(&mut input, &mut buffer, bounds.line_bytes) {
                Ok(None) | Err(_) => break,
                Ok(Some(bytes)) if bytes > bounds.line_bytes => Err(LineTooLong { bytes }),
                Ok(Some(_)) => Ok(String::from_utf8_lossy(&buffer).into_owned()),
            };
            if sender.send(wrap(line)).is_err() {
                break;
            }
        }
    })?;
    Ok(receiver)
}

/// Reads one line, keeping in `buffer` at most `max` bytes of it without
/// its end; returns its length without the end (counting stops a little
/// past `max`), or `None` at the end of input.
fn read_capped_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    let mut length = 0usize;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], true),
            None => (available, false),
        };
        // One byte past `max` is kept, in case it is the `\r` of `\r\n`.
        let room = (max + 1).saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        length = length.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(ended);
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if buffer.last() == Some(&b'\r') && length == buffer.len() {
        buffer.pop();
        length -= 1;
    }
    Ok(Some(length))
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

    #[test]
    fn a_bounded_reader_cuts_no_line_that_fits_and_flags_longer_ones() {
        let long = "y".repeat(100_000);
        let input = format!("uci\r\n12345678\r\n123456789\n{long}\nis\u{fffd}ready\n\nlast").into_bytes();
        let bounds = LineBounds { queue: 2, line_bytes: 8 };
        let lines =
            spawn_bounded_line_reader(std::io::Cursor::new(input), "test".into(), bounds, |l| l).unwrap();
        let got: Vec<Result<String, LineTooLong>> = lines.iter().collect();
        let text = |s: &str| Ok(s.to_string());
        assert_eq!(got[..3], [text("uci"), text("12345678"), Err(LineTooLong { bytes: 9 })]);
        assert_eq!(got[3], Err(LineTooLong { bytes: 100_000 }));
        assert_eq!(got[4..], [Err(LineTooLong { bytes: 10 }), text(""), text("last")]);
    }

    #[test]
    fn a_full_queue_stops_the_reading() {
        // An endless flood of lines: the reader thread must wait, not fill memory.
        let flood = std::io::repeat(b'\n').take(u64::MAX);
        let bounds = LineBounds { queue: 4, line_bytes: 16 };
        let lines = spawn_bounded_line_reader(flood, "test".into(), bounds, |l| l).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(lines.len(), 4, "the queue holds its bound and no more");
    }
}
