//! The line protocol: one loop that receives input lines (from a reader
//! thread) and worker reports over channels and hands them to the session.
//! This module tree is the only code that writes output.

pub mod bench;
pub mod choices;
pub mod emit;
pub mod lines;
pub mod options;
pub mod parse;
pub mod session;
pub mod solve_command;

use crate::engine::EngineEvent;
use crossbeam_channel::{select, unbounded, Receiver};
use session::{Flow, Session};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How often a wait for `readyok` checks that the worker is still there.
const READY_POLL: Duration = Duration::from_millis(100);

/// How long `quit` waits for stopped searches to hand in their moves.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Serves the protocol until `quit` or the end of input. At the end of
/// input, as when a script pipes in its commands, every `go` still owed is
/// answered first: bounded searches run to their end, and those only `stop`
/// would end (`infinite`, `ponder`, a bare `go`) are stopped.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = spawn_reader(input);
    let (engine_events, reports) = unbounded();
    let mut session = Session::new(output, engine_events);
    let grace = loop {
        if session.awaits_ready() {
            // `readyok` comes before the answer to any line after `isready`.
            match reports.recv_timeout(READY_POLL) {
                Ok(event) => session.handle_event(event),
                Err(_) => session.answer_readies_if_worker_gone(),
            }
            continue;
        }
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    if session.handle_line(&line) == Flow::Quit {
                        break Some(QUIT_GRACE);
                    }
                }
                Err(_) => {
                    session.end_of_input();
                    break None;
                }
            },
            recv(reports) -> event => {
                if let Ok(event) = event {
                    session.handle_event(event);
                }
            }
        }
    };
    finish(&mut session, &reports, grace);
}

/// Lets the searches still owed print their `bestmove`, and the worker
/// answer an `isready`, before the process ends; after `quit` for at most
/// `grace`.
fn finish<W: Write>(session: &mut Session<W>, reports: &Receiver<EngineEvent>, grace: Option<Duration>) {
    let deadline = grace.map(|grace| std::time::Instant::now() + grace);
    while session.owes_answers() {
        let event = match deadline {
            Some(deadline) => reports.recv_deadline(deadline).ok(),
            // The worker's channel closes if it ever goes away.
            None => reports.recv().ok(),
        };
        match event {
            Some(event) => session.handle_event(event),
            None => break,
        }
    }
}

/// The input lines; the channel closes at end of input. Without a thread
/// to read them there is no input: the channel is closed at once.
fn spawn_reader<R: BufRead + Send + 'static>(input: R) -> Receiver<String> {
    lines::spawn_line_reader(input, "stdin".into(), |line| line).unwrap_or_else(|e| {
        log::error!("cannot start the input thread: {e}");
        unbounded().1
    })
}
