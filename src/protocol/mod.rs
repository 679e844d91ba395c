//! The line protocols: the UCI-style one, a loop that receives input lines
//! (from a reader thread) and worker reports over channels and hands them to
//! the session, and QTP ([`qtp`]). The first command chooses between them,
//! as engines that speak both UCI and xboard do. This module tree is the
//! only code that writes output.

pub mod bench;
pub mod choices;
pub mod emit;
pub mod lines;
pub mod options;
pub mod parse;
pub mod qtp;
pub mod session;
pub mod solve_command;
pub mod solve_request;

use crate::engine::EngineEvent;
use crossbeam_channel::{select, unbounded, Receiver};
use session::{Flow, Session};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How often a wait for `readyok` checks that the worker is still there.
const READY_POLL: Duration = Duration::from_millis(100);

/// How long `quit` waits for stopped searches to hand in their moves.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// What the command line sets before the protocol starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Startup {
    /// `-seed N` (as QTP's referee starts its engines): the `Seed` option.
    pub seed: Option<u64>,
}

/// Serves the protocol until `quit` or the end of input, with the defaults.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    run_with(input, output, &Startup::default());
}

/// Serves the protocol the first command chooses until `quit` or the end
/// of input: QTP for a QTP command ([`qtp::COMMANDS`]), the UCI-style
/// protocol for anything else. Blank lines and `#` comments before it
/// wait for that command. At the end of input, as when a script pipes in
/// its commands, every `go` still owed is answered first: bounded searches
/// run to their end, and those only `stop` would end (`infinite`, `ponder`,
/// a bare `go`) are stopped.
pub fn run_with<R, W>(input: R, output: W, startup: &Startup)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = spawn_reader(input);
    let mut options = options::Options::default();
    if let Some(seed) = startup.seed {
        options.seed = seed;
    }
    let mut waiting = Vec::new();
    let first = loop {
        match lines.recv() {
            Ok(line) if line.trim().is_empty() || line.trim_start().starts_with('#') => waiting.push(line),
            Ok(line) => break Some(line),
            Err(_) => break None,
        }
    };
    if first.as_deref().is_some_and(qtp::is_qtp_command) {
        // The QTP referee reads the engine's standard error as its output.
        if std::env::var_os("RUST_LOG").is_none() {
            log::set_max_level(log::LevelFilter::Off);
        }
        waiting.extend(first);
        return qtp::serve(waiting, lines, output, options);
    }
    let (engine_events, reports) = unbounded();
    let mut session = Session::with_options(output, engine_events, options);
    for line in waiting.iter().chain(first.iter()) {
        if session.handle_line(line) == Flow::Quit {
            return finish(&mut session, &reports, Some(QUIT_GRACE));
        }
    }
    if first.is_none() {
        session.end_of_input();
        return finish(&mut session, &reports, None);
    }
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
