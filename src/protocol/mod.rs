//! The line protocol: one loop that receives input lines (from a reader
//! thread) and worker reports over channels and hands them to the session.
//! This module tree is the only code that writes output.

pub mod emit;
pub mod options;
pub mod parse;
pub mod session;

use crate::engine::WorkerEvent;
use crossbeam_channel::{select, unbounded, Receiver};
use session::{Flow, Session};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How long `quit` waits for a stopped search to hand in its move.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Serves the protocol until `quit` or the end of input.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = spawn_reader(input);
    let (worker_events, reports) = unbounded();
    let mut session = Session::new(output, worker_events);
    loop {
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    if session.handle_line(&line) == Flow::Quit {
                        break;
                    }
                }
                // End of input is `quit`.
                Err(_) => {
                    session.handle_line("quit");
                    break;
                }
            },
            recv(reports) -> event => {
                if let Ok(event) = event {
                    session.handle_event(event);
                }
            }
        }
    }
    finish(&mut session, &reports);
}

/// Lets a stopped search print its `bestmove`, and the worker answer an
/// `isready`, before the process ends.
fn finish<W: Write>(session: &mut Session<W>, reports: &Receiver<WorkerEvent>) {
    let deadline = std::time::Instant::now() + QUIT_GRACE;
    while session.owes_answers() {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match reports.recv_timeout(left) {
            Ok(event) => session.handle_event(event),
            Err(_) => break,
        }
    }
}

/// Reads lines on their own thread; the channel closes at end of input.
/// Bytes that are not UTF-8 become U+FFFD, so they reach the parser (and
/// its error message) instead of ending the session.
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> Receiver<String> {
    let (sender, receiver) = unbounded();
    let spawned = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer);
                    if sender.send(line.trim_end_matches(['\n', '\r']).to_string()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
    receiver
}
