//! `go` and what ends it: the search running and those queued behind it,
//! `stop`, `ponderhit`, the end of input, and the limits a `go` line turns
//! into. Every `go` is answered exactly once.

use super::{is_threefold, Session};
use crate::engine::{SearchHandle, SearchRequest};
use crate::games::{AnyMove, AnyPosition};
use crate::protocol::emit::perft_summary;
use crate::protocol::options::Options;
use crate::protocol::parse::{quoted, GoParams, GoTask};
use std::io::Write;
use std::time::Duration;

/// A `go` that has not yet answered.
pub(super) struct RunningGo {
    pub(super) handle: SearchHandle,
    /// The position searched: its moves are written in its notation.
    pub(super) position: AnyPosition,
    /// `go infinite` or `go ponder`: `bestmove` waits for `stop`/`ponderhit`.
    pub(super) hold: bool,
    /// A result that arrived while held.
    pub(super) held: Option<(Option<AnyMove>, Option<AnyMove>)>,
    /// Only `stop` ends it (`infinite`, `ponder`, or no limit at all): the
    /// end of input stops it too.
    pub(super) unbounded: bool,
}

/// A `go` that arrived while an earlier one was still running: it starts
/// when every `go` before it has answered.
pub(super) struct QueuedGo {
    position: AnyPosition,
    history: Vec<u64>,
    params: GoParams,
    /// The `searchmoves` that are legal, each once.
    search_moves: Vec<AnyMove>,
    /// The options when it arrived: a `setoption` after it (while an
    /// earlier `go` runs) is for the `go`s that follow, not for this one.
    options: Options,
    /// `stop` arrived before it could start: it answers at once when it does.
    stopped: bool,
}

impl<W: Write> Session<W> {
    /// Every `go` is answered once: what cannot be used is reported and the
    /// search made the shortest; a `go` while another runs waits its turn
    /// (behind `go infinite`, until `stop`).
    pub(super) fn go(&mut self, mut params: GoParams) {
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
        let mover = self.position.side_to_move();
        if params.task == GoTask::Search && params.limits.only_other_clocks(mover) {
            // The budget counts the mover's clock only: with none, the
            // search would never end by itself.
            self.out.warning(&format!(
                "go: no clock for player {}, the side to move ({}); searching as briefly as possible",
                mover + 1,
                CLOCK_NAMES.get(mover).copied().unwrap_or("its clock")
            ));
            params.limits.depth = Some(1);
        }
        let mut search_moves = Vec::new();
        for text in std::mem::take(&mut params.search_moves) {
            match self.position.parse_move(&text) {
                Ok(mv) if !search_moves.contains(&mv) => search_moves.push(mv),
                Ok(_) => {}
                Err(e) => self.out.error(&format!("go searchmoves: '{}': {e}; left out", quoted(&text))),
            }
        }
        let queued = QueuedGo {
            position: self.position.clone(),
            history: self.history.clone(),
            params,
            search_moves,
            options: self.options.clone(),
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
                running.handle.stop();
                running.hold = false;
                self.release_held();
            }
        }
    }

    pub(super) fn start(&mut self, go: QueuedGo) {
        let QueuedGo { position, history, params, search_moves, options, stopped } = go;
        let unbounded = params.is_unbounded();
        let searching = params.task == GoTask::Search;
        let hold = searching && (params.limits.infinite || params.ponder) && !stopped;
        let handle = match params.task {
            GoTask::Perft(_) if is_threefold(&history, position.hash()) => {
                // As `go` and `d` see it: no move is left to count.
                self.out.line("info string the game is over (threefold repetition)");
                for line in perft_summary(0, Duration::ZERO) {
                    self.out.line(&line);
                }
                return self.finish_running();
            }
            GoTask::Solve if is_threefold(&history, position.hash()) => {
                // As `go` and `d` see it: the game is over, a draw.
                self.out.line("info string the game is over (threefold repetition)");
                return self.print_bestmove(None, None);
            }
            GoTask::Perft(depth) => self.engine.perft(position.clone(), depth),
            GoTask::Solve => {
                self.engine.solve(position.clone(), options.threads, options.solve_method.method())
            }
            GoTask::Search => {
                let settings = options.search_settings();
                self.engine.go(SearchRequest {
                    position: position.clone(),
                    history,
                    limits: params.limits,
                    settings,
                    search_moves,
                    level: options.playing_level(),
                    seed: options.seed,
                    ponder: params.ponder && !stopped,
                })
            }
        };
        if stopped {
            handle.stop();
        }
        self.running =
            Some(RunningGo { handle, position, hold, held: None, unbounded: searching && unbounded });
    }

    pub(super) fn stop(&mut self) {
        for queued in &mut self.queued {
            queued.stopped = true;
        }
        if let Some(running) = &mut self.running {
            running.handle.stop();
            running.hold = false;
            self.release_held();
        }
    }

    pub(super) fn ponderhit(&mut self) {
        // A ponder search still waiting its turn starts as a normal one.
        if let Some(queued) = self.queued.iter_mut().find(|q| q.params.ponder) {
            queued.params.ponder = false;
            return;
        }
        if let Some(running) = &mut self.running {
            if running.handle.is_pondering() {
                running.handle.ponderhit();
                running.hold = false;
                self.release_held();
            }
        }
    }

    /// Prints a result that waited for `stop` or `ponderhit`.
    pub(super) fn release_held(&mut self) {
        if let Some(running) = &mut self.running {
            if let Some((best, ponder)) = running.held.take() {
                self.print_bestmove(best, ponder);
            }
        }
    }

    /// The running `go` has answered: start the queued one, if any.
    pub(super) fn finish_running(&mut self) {
        self.running = None;
        if let Some(next) = self.queued.pop_front() {
            self.start(next);
        }
    }
}

/// The parameters that give each seat's clock.
const CLOCK_NAMES: [&str; 4] = ["wtime or p1time", "btime or p2time", "p3time", "p4time"];

/// A `go` whose values could not all be used: the shortest search that
/// still answers (a one-ply search, or perft 1 when perft was asked for).
fn shortest_search(params: GoParams) -> GoParams {
    use crate::protocol::parse::GoProblem;
    let wanted_perft = matches!(params.task, GoTask::Perft(_))
        || params.problems.iter().any(|p| {
            matches!(p, GoProblem::MissingValue("perft") | GoProblem::BadValue { key: "perft", .. })
        });
    let mut shortest =
        GoParams { search_moves: params.search_moves, problems: params.problems, ..GoParams::default() };
    if wanted_perft {
        shortest.task = GoTask::Perft(1);
    } else {
        shortest.limits.depth = Some(1);
    }
    shortest
}
