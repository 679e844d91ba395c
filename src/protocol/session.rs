//! The protocol session: the current options and position, the search in
//! flight, and what each command and each worker report does to them.
//!
//! Every command either succeeds completely or leaves the state as it was and
//! answers `info string error: ...`.

mod go;

use super::emit::{bestmove_line, info_lines, perft_summary, Output};
use super::options::{machine_threads, Changed, GameKind, Options};
use super::parse::{parse_line, Command, PositionBase};
use crate::engine::{Engine, EngineEvent};
use crate::games::quarto::Quarto;
use crate::games::quoridor::Quoridor;
use crate::games::{AnyMove, AnyPosition};
use crossbeam_channel::Sender;
use go::{QueuedGo, RunningGo};
use std::collections::VecDeque;
use std::io::Write;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: answer what is owed, then end.
    Quit,
}

/// The state a protocol conversation changes, and the engine it drives.
pub struct Session<W: Write> {
    out: Output<W>,
    options: Options,
    position: AnyPosition,
    /// Hashes of the positions before `position` since the last irreversible move.
    history: Vec<u64>,
    engine: Engine,
    running: Option<RunningGo>,
    queued: VecDeque<QueuedGo>,
    /// `isready`s passed to the engine and not yet answered.
    readies_owed: usize,
    /// Nodes of every search answered so far (what `bench` adds up).
    nodes_searched: u64,
}

const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));

impl<W: Write> Session<W> {
    /// A session with the default options, writing to `writer`; the
    /// engine's reports go to `engine_events`, for the caller to hand back
    /// through [`Session::handle_event`].
    pub fn new(writer: W, engine_events: Sender<EngineEvent>) -> Session<W> {
        Session::with_options(writer, engine_events, Options::default())
    }

    /// As [`Session::new`], starting from `options` (the command line's seed).
    pub fn with_options(writer: W, engine_events: Sender<EngineEvent>, options: Options) -> Session<W> {
        let position = match start_position(&options) {
            Ok(position) => position,
            Err(e) => unreachable!("the default options describe a playable game: {e}"),
        };
        Session {
            out: Output::new(writer),
            engine: Engine::start(options.hash, engine_events),
            options,
            position,
            history: Vec::new(),
            running: None,
            queued: VecDeque::new(),
            readies_owed: 0,
            nodes_searched: 0,
        }
    }

    /// Nodes of every search answered so far.
    pub fn nodes_searched(&self) -> u64 {
        self.nodes_searched
    }

    /// Whether a `go` is still waiting for its answer.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || !self.queued.is_empty()
    }

    /// Whether a `go` or an `isready` is still waiting for its answer.
    pub fn owes_answers(&self) -> bool {
        self.is_busy() || self.readies_owed > 0
    }

    /// Whether an `isready` waits for the worker: its `readyok` comes
    /// before the answer to anything sent after it, so input waits too.
    pub fn awaits_ready(&self) -> bool {
        self.readies_owed > 0
    }

    /// Says `readyok` for every `isready` owed if the worker has gone and
    /// can no longer answer.
    pub fn answer_readies_if_worker_gone(&mut self) {
        if self.readies_owed > 0 && !self.engine.is_alive() {
            for _ in 0..std::mem::take(&mut self.readies_owed) {
                self.out.line("readyok");
            }
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("<< {line}");
        match parse_line(line) {
            Ok(Some(command)) => self.handle_command(command),
            Ok(None) => Flow::Continue,
            Err(e) => {
                self.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    fn handle_command(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::IsReady => self.ready(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { base, moves } => self.set_position(base, &moves),
            Command::Go(params) => self.go(*params),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Display => self.display(),
            Command::Ignored => {}
            Command::Quit => {
                // Every `go` still owed answers, at once.
                self.stop();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// `readyok` at once during a search; otherwise once the worker has
    /// done what came before (a new table for `Hash`, clearing it for
    /// `ucinewgame`), so that a GUI which waits for it starts its clock on
    /// an engine that is ready.
    fn ready(&mut self) {
        // Without a worker nothing would ever answer: say ready at once.
        if self.is_busy() || !self.engine.ready() {
            self.out.line("readyok");
        } else {
            self.readies_owed += 1;
        }
    }

    fn identify(&mut self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line("id author the Tabula developers");
        for line in self.options.declarations() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut options = self.options.clone();
        match options.set(name, value) {
            Err(e) => self.out.error(&e.to_string()),
            Ok(Changed::Variant) => {
                // The new rules take effect at once when they make a playable
                // game; a combination still being set up (say 4 players before
                // the board is square) waits, and `position startpos` says why.
                if let Ok(position) = start_position(&options) {
                    self.position = position;
                    self.history.clear();
                }
                self.options = options;
            }
            Ok(Changed::Hash) => {
                self.engine.resize_hash(options.hash);
                self.options = options;
            }
            Ok(Changed::ClearHash) => {
                self.engine.clear_hash();
            }
            Ok(Changed::Other) => {
                let machine = machine_threads();
                if options.threads > machine && options.threads != self.options.threads {
                    // More threads than cores only take turns on them, and
                    // the thread that watches the clock waits its turn too.
                    self.out.warning(&format!(
                        "Threads {}: this machine runs {machine} at once; searches use {machine}",
                        options.threads
                    ));
                }
                self.options = options;
            }
        }
    }

    fn new_game(&mut self) {
        self.engine.clear_hash();
        match start_position(&self.options) {
            Ok(position) => {
                self.position = position;
                self.history.clear();
            }
            Err(e) => self.out.error(&e),
        }
    }

    fn set_position(&mut self, base: PositionBase, moves: &[String]) {
        let start = match base {
            PositionBase::StartPos => start_position(&self.options),
            PositionBase::Fen(text) => position_from_text(&text),
        };
        let mut position = match start {
            Ok(position) => position,
            Err(e) => return self.out.error(&e),
        };
        let mut history = Vec::new();
        for (index, text) in moves.iter().enumerate() {
            let hash = position.hash();
            if is_threefold(&history, hash) {
                let number = index + 1;
                let detail =
                    format!("position: move {number} ({text}): the game is over (threefold repetition)");
                return self.out.error(&detail);
            }
            match position.play_text(text) {
                Ok(true) => history.clear(),
                Ok(false) => history.push(hash),
                Err(e) => {
                    return self.out.error(&format!("position: move {} ({text}): {e}", index + 1));
                }
            }
        }
        self.position = position;
        self.history = history;
    }

    fn display(&mut self) {
        let position = &self.position;
        let mut lines: Vec<String> = position.diagram().lines().map(String::from).collect();
        lines.push(format!("Position: {}", position.to_text()));
        lines.push(format!("Turn: player {}", position.side_to_move() + 1));
        lines.extend(position.details());
        let over = match position.outcome() {
            Some(crate::game::Outcome::Win(seat)) => Some(format!("player {} won", seat + 1)),
            Some(crate::game::Outcome::Draw) => Some("draw".into()),
            None if is_threefold(&self.history, position.hash()) => {
                Some("draw by threefold repetition".into())
            }
            None => None,
        };
        match over {
            // As `go` (bestmove (none)) and `go perft` (0) see it.
            Some(result) => {
                lines.push(format!("Result: {result}"));
                lines.push("Legal moves: 0 (the game is over)".into());
            }
            None => lines.push(format!("Legal moves: {}", position.legal_move_names().len())),
        }
        lines.push(format!("Key: {:016x}", position.hash()));
        for line in lines {
            self.out.line(&line);
        }
    }

    /// Handles a report from the engine.
    pub fn handle_event(&mut self, event: EngineEvent) {
        match event {
            EngineEvent::Info(info) => {
                let Some(running) = &self.running else { return };
                let pv = running.position.format_line(&info.pv);
                for line in info_lines(&info, &pv) {
                    self.out.line(&line);
                }
            }
            EngineEvent::BestMove { best, ponder, nodes } => {
                self.nodes_searched += nodes;
                match &mut self.running {
                    Some(running) if running.hold => running.held = Some((best, ponder)),
                    _ => self.print_bestmove(best, ponder),
                }
            }
            EngineEvent::Error(e) => self.out.error(&e.to_string()),
            EngineEvent::Note(text) => self.out.line(&format!("info string {text}")),
            EngineEvent::Ready => {
                self.readies_owed = self.readies_owed.saturating_sub(1);
                self.out.line("readyok");
            }
            EngineEvent::PerftMove { mv, nodes } => {
                let Some(running) = &self.running else { return };
                let name = running.position.format_move(mv).unwrap_or_default();
                self.out.line(&format!("{name}: {nodes}"));
            }
            EngineEvent::PerftDone { nodes, elapsed, complete } => {
                // A count `stop` cut short has no total to give.
                if complete {
                    for line in perft_summary(nodes, elapsed) {
                        self.out.line(&line);
                    }
                }
                self.finish_running();
            }
        }
    }

    /// Answers the running `go` with its move, written in its position's
    /// notation, and starts the next.
    fn print_bestmove(&mut self, best: Option<AnyMove>, ponder: Option<AnyMove>) {
        let line = self.running.as_ref().map_or_else(Vec::new, |running| {
            let line: Vec<AnyMove> = best.into_iter().chain(ponder).collect();
            running.position.format_line(&line)
        });
        self.out.line(&bestmove_line(line.first().map(String::as_str), line.get(1).map(String::as_str)));
        self.finish_running();
    }
}

impl Session<Vec<u8>> {
    /// What the session wrote since the last call (a session that writes
    /// to memory, as `bench` drives one).
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(self.out.writer_mut())
    }
}

/// Whether a position occurs for the third time, counting `history`.
fn is_threefold(history: &[u64], hash: u64) -> bool {
    history.iter().filter(|&&h| h == hash).count() >= 2
}

/// The start position of the game the options describe.
fn start_position(options: &Options) -> Result<AnyPosition, String> {
    let position = match options.game {
        GameKind::Quarto => {
            Quarto::new(options.quarto_rules()).map(AnyPosition::Quarto).map_err(|e| e.to_string())
        }
        GameKind::Quoridor => {
            Quoridor::new(&options.quoridor_variant()).map(AnyPosition::Quoridor).map_err(|e| e.to_string())
        }
    };
    position.map_err(|e| format!("cannot set up the game: {e}"))
}

/// A position from its text; the first word names the game.
fn position_from_text(text: &str) -> Result<AnyPosition, String> {
    AnyPosition::from_text(text).map_err(|e| format!("position fen: {e}"))
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
