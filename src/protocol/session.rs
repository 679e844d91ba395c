//! The protocol session: the current options and position, the search in
//! flight, and what each command and each worker report does to them.
//!
//! Every command either succeeds completely or leaves the state as it was and
//! answers `info string error: ...`.

use super::emit::{bestmove_line, info_lines, perft_summary, Output};
use super::options::{Changed, Options};
use super::parse::{parse_line, quoted, Command, GoParams, PositionBase};
use crate::engine::{Engine, Request, SearchJob, WorkerEvent};
use crate::games::quarto::Quarto;
use crate::games::quoridor::Quoridor;
use crate::games::AnyPosition;
use crate::search::{Clocks, Control, Limits};
use crossbeam_channel::Sender;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A `go` that has not yet answered.
struct RunningGo {
    control: Arc<Control>,
    perft: bool,
    /// `go infinite` or `go ponder`: `bestmove` waits for `stop`/`ponderhit`.
    hold: bool,
    /// A result that arrived while held.
    held: Option<(Option<String>, Option<String>)>,
    /// Only `stop` ends it (`infinite`, `ponder`, or no limit at all): the
    /// end of input stops it too.
    unbounded: bool,
}

/// A `go` that arrived while an earlier one was still running: it starts
/// when every `go` before it has answered.
struct QueuedGo {
    position: AnyPosition,
    history: Vec<u64>,
    params: GoParams,
    /// `stop` arrived before it could start: it answers at once when it does.
    stopped: bool,
}

pub struct Session<W: Write> {
    out: Output<W>,
    options: Options,
    position: AnyPosition,
    /// Hashes of the positions before `position` since the last irreversible move.
    history: Vec<u64>,
    engine: Engine,
    running: Option<RunningGo>,
    queued: VecDeque<QueuedGo>,
    /// `isready`s passed to the worker and not yet answered.
    readies_owed: usize,
}

const ENGINE_NAME: &str = concat!("Tabula ", env!("CARGO_PKG_VERSION"));

impl<W: Write> Session<W> {
    pub fn new(writer: W, worker_events: Sender<WorkerEvent>) -> Session<W> {
        let options = Options::default();
        let position = match start_position(&options) {
            Ok(position) => position,
            Err(e) => unreachable!("the default options describe a playable game: {e}"),
        };
        Session {
            out: Output::new(writer),
            engine: Engine::start(options.hash, worker_events),
            options,
            position,
            history: Vec::new(),
            running: None,
            queued: VecDeque::new(),
            readies_owed: 0,
        }
    }

    /// Whether a `go` is still waiting for its answer.
    pub fn is_busy(&self) -> bool {
        self.running.is_some() || !self.queued.is_empty()
    }

    /// Whether a `go` or an `isready` is still waiting for its answer.
    pub fn owes_answers(&self) -> bool {
        self.is_busy() || self.readies_owed > 0
    }

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
            Command::Go(params) => self.go(params),
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
        if self.is_busy() || !self.engine.submit(Request::Ready) {
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
                self.engine.submit(Request::ResizeHash(options.hash));
                self.options = options;
            }
            Ok(Changed::ClearHash) => {
                self.engine.submit(Request::ClearHash);
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
        self.engine.submit(Request::ClearHash);
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

    /// Every `go` is answered once: what cannot be used is reported and the
    /// search made the shortest; a `go` while another runs waits its turn
    /// (behind `go infinite`, until `stop`).
    fn go(&mut self, mut params: GoParams) {
        for problem in &params.problems {
            if problem.is_error() {
                self.out.error(&problem.to_string());
            } else {
                self.out.warning(&problem.to_string());
            }
        }
        if params.has_errors() {
            params = shortest_search(params);
        }
        let mut search_moves = Vec::new();
        for text in std::mem::take(&mut params.search_moves) {
            match self.position.parse_move_text(&text) {
                Ok(name) if !search_moves.contains(&name) => search_moves.push(name),
                Ok(_) => {}
                Err(e) => self.out.error(&format!("go searchmoves: '{}': {e}; left out", quoted(&text))),
            }
        }
        params.search_moves = search_moves;
        let queued = QueuedGo {
            position: self.position.clone(),
            history: self.history.clone(),
            params,
            stopped: false,
        };
        if self.running.is_none() {
            self.start(queued);
        } else {
            self.queued.push_back(queued);
        }
    }

    /// The end of input: searches that only `stop` would end are stopped,
    /// bounded ones run on; every `go` is answered before the process ends.
    pub fn end_of_input(&mut self) {
        for queued in &mut self.queued {
            if queued.params.is_unbounded() {
                queued.stopped = true;
            }
        }
        if let Some(running) = &mut self.running {
            if running.unbounded {
                running.control.stop();
                running.hold = false;
                self.release_held();
            }
        }
    }

    fn start(&mut self, go: QueuedGo) {
        let QueuedGo { position, history, params, stopped } = go;
        let control = Arc::new(Control::new(params.ponder && !stopped));
        if stopped {
            control.stop();
        }
        if let Some(depth) = params.perft {
            if is_threefold(&history, position.hash()) {
                // As `go` and `d` see it: no move is left to count.
                self.out.line("info string the game is over (threefold repetition)");
                for line in perft_summary(0, Duration::ZERO) {
                    self.out.line(&line);
                }
                return self.finish_running();
            }
            self.engine.submit(Request::Perft { position, depth, control: control.clone() });
            self.running =
                Some(RunningGo { control, perft: true, hold: false, held: None, unbounded: false });
            return;
        }
        let limits = Limits {
            depth: params.depth,
            nodes: params.nodes,
            move_time: params.move_time,
            clocks: Clocks {
                time: params.time,
                increment: params.increment,
                moves_to_go: params.moves_to_go,
            },
            infinite: params.infinite,
            mate: params.mate,
            multi_pv: self.options.multi_pv,
            threads: self.options.threads.min(machine_threads()),
            best_reply: self.options.four_player_search == "brs",
            ..Limits::default()
        };
        self.engine.submit(Request::Search(Box::new(SearchJob {
            position,
            history,
            limits,
            move_overhead: Duration::from_millis(self.options.move_overhead),
            control: control.clone(),
            level: self.options.level,
            seed: self.options.seed,
            search_moves: params.search_moves.clone(),
        })));
        self.running = Some(RunningGo {
            control,
            perft: false,
            hold: (params.infinite || params.ponder) && !stopped,
            held: None,
            unbounded: params.is_unbounded(),
        });
    }

    fn stop(&mut self) {
        for queued in &mut self.queued {
            queued.stopped = true;
        }
        if let Some(running) = &mut self.running {
            running.control.stop();
            running.hold = false;
            self.release_held();
        }
    }

    fn ponderhit(&mut self) {
        // A ponder search still waiting its turn starts as a normal one.
        if let Some(queued) = self.queued.iter_mut().find(|q| q.params.ponder) {
            queued.params.ponder = false;
            return;
        }
        if let Some(running) = &mut self.running {
            if running.control.pondering() {
                running.control.ponderhit();
                running.hold = false;
                self.release_held();
            }
        }
    }

    /// Prints a result that waited for `stop` or `ponderhit`.
    fn release_held(&mut self) {
        if let Some(running) = &mut self.running {
            if let Some((best, ponder)) = running.held.take() {
                self.out.line(&bestmove_line(best.as_deref(), ponder.as_deref()));
                self.finish_running();
            }
        }
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

    /// Handles a report from the search worker.
    pub fn handle_event(&mut self, event: WorkerEvent) {
        match event {
            WorkerEvent::Info(info) => {
                for line in info_lines(&info) {
                    self.out.line(&line);
                }
            }
            WorkerEvent::BestMove { best, ponder } => match &mut self.running {
                Some(running) if running.hold => running.held = Some((best, ponder)),
                _ => {
                    self.out.line(&bestmove_line(best.as_deref(), ponder.as_deref()));
                    self.finish_running();
                }
            },
            WorkerEvent::Error(detail) => self.out.error(&detail),
            WorkerEvent::Note(text) => self.out.line(&format!("info string {text}")),
            WorkerEvent::Ready => {
                self.readies_owed = self.readies_owed.saturating_sub(1);
                self.out.line("readyok");
            }
            WorkerEvent::PerftMove { mv, nodes } => self.out.line(&format!("{mv}: {nodes}")),
            WorkerEvent::PerftDone { nodes, elapsed } => {
                for line in perft_summary(nodes, elapsed) {
                    self.out.line(&line);
                }
                self.finish_running();
            }
        }
    }

    /// The running `go` has answered: start the queued one, if any.
    fn finish_running(&mut self) {
        self.running = None;
        if let Some(next) = self.queued.pop_front() {
            self.start(next);
        }
    }

    /// Whether the running `go` is a perft (which answers without `bestmove`).
    pub fn running_perft(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.perft)
    }
}

/// How many threads this machine runs at once.
fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A `go` whose values could not all be used: the shortest search that
/// still answers (a one-ply search, or perft 1 when perft was asked for).
fn shortest_search(params: GoParams) -> GoParams {
    use super::parse::GoProblem;
    let wanted_perft = params.perft.is_some()
        || params.problems.iter().any(|p| {
            matches!(p, GoProblem::MissingValue("perft") | GoProblem::BadValue { key: "perft", .. })
        });
    GoParams {
        depth: (!wanted_perft).then_some(1),
        perft: wanted_perft.then_some(1),
        search_moves: params.search_moves,
        problems: params.problems,
        ..GoParams::default()
    }
}

/// Whether a position occurs for the third time, counting `history`.
fn is_threefold(history: &[u64], hash: u64) -> bool {
    history.iter().filter(|&&h| h == hash).count() >= 2
}

/// The start position of the game the options describe.
fn start_position(options: &Options) -> Result<AnyPosition, String> {
    let position = match options.game.as_str() {
        "quarto" => Quarto::new(options.quarto_rules()).map(AnyPosition::Quarto).map_err(|e| e.to_string()),
        _ => Quoridor::new(&options.quoridor_variant()).map(AnyPosition::Quoridor).map_err(|e| e.to_string()),
    };
    position.map_err(|e| format!("cannot set up the game: {e}"))
}

/// A position from its text; the first word names the game.
fn position_from_text(text: &str) -> Result<AnyPosition, String> {
    match text.split_whitespace().next() {
        Some("quoridor") => {
            Quoridor::from_text(text).map(AnyPosition::Quoridor).map_err(|e| format!("position fen: {e}"))
        }
        Some("quarto") => {
            Quarto::from_text(text).map(AnyPosition::Quarto).map_err(|e| format!("position fen: {e}"))
        }
        Some(game) => Err(format!("position fen: unknown game '{game}'")),
        None => Err("position fen: empty position text".into()),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
