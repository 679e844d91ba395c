//! Search generic over a game's [`crate::game::Position`] and
//! [`crate::game::Strategy`]: iterative deepening alpha-beta with a
//! transposition table, reporting through a callback, stoppable from another
//! thread.

mod alphabeta;
mod correction;
mod iterate;
mod learned;
pub mod limits;
mod ordering;
mod pruning;
mod report;
mod searcher;
#[cfg(test)]
mod tests;
mod threads;
pub mod tt;

pub use iterate::search;
pub use limits::{time_budget, with_handicap, Clocks, Limits, Noise, Progress, SearchSettings, TimeBudget};

use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Scores at or beyond this magnitude mean a forced result.
pub const MATE: i32 = 30_000;
/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Forced results the search found but did not prove (a move of the losing
/// side was left out) score up to this magnitude, just under every mate
/// score: `UNPROVEN_BOUND - plies`. They show as large centipawn values.
const UNPROVEN_BOUND: i32 = MATE_BOUND - 1;

/// A search score as the protocol shows it, from the mover's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Heuristic value in centipawn-like units.
    Centi(i32),
    /// Forced win in this many of the mover's own moves (negative: forced loss
    /// after this many of the mover's moves).
    Mate(i32),
}

impl Score {
    /// Converts an internal score; `players` counts plies per round.
    pub fn from_internal(value: i32, players: usize) -> Score {
        if value.abs() < MATE_BOUND {
            return Score::Centi(value);
        }
        let plies = (MATE - value.abs()) as usize;
        let own_moves = plies.div_ceil(players.max(1)).max(1) as i32;
        Score::Mate(if value > 0 { own_moves } else { -own_moves })
    }
}

/// Shared switches by which the protocol steers a running search.
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: Mutex<Instant>,
}

impl Control {
    /// Switches for a new search, pondering (the clock stopped) or not.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            started: Mutex::new(Instant::now()),
        }
    }

    /// Asks the search to finish as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Control::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag [`Control::stop`] sets, for work that polls it itself (the
    /// exact solver).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The opponent played the expected move: from now on the clock counts.
    pub fn ponderhit(&self) {
        *self.started.lock() = Instant::now();
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search still waits for `ponderhit`.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// When the clock of this search started (reset by `ponderhit`).
    pub fn started(&self) -> Instant {
        *self.started.lock()
    }
}

/// One line of search progress; the moves are the game's, for the caller
/// to write in its notation.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply a line reached.
    pub seldepth: u32,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Nodes searched so far, by every thread.
    pub nodes: u64,
    /// Milliseconds since the search (or its clock, after `ponderhit`) started.
    pub elapsed_ms: u64,
    /// Per mille of the table in use by this search.
    pub hashfull: u32,
    /// The principal variation, from the root.
    pub pv: Vec<M>,
    /// The whole game tree below the root was searched: the score is the
    /// game-theoretic value (a draw when it is 0).
    pub exact: bool,
    /// Which line this is, 1 the best (with `MultiPV` above 1 there are more).
    pub multipv: u32,
    /// How `score` bounds the value: exact for a finished iteration, a bound
    /// when an aspiration window failed, none when nothing was scored yet.
    pub bound: ScoreBound,
    /// Above 0, this report names the root move being searched (the first of
    /// `pv`) and its place in the iteration's order, 1 the first.
    pub currmovenumber: u32,
}

/// How a reported score relates to the value of the position at its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The value (as exact as the search's depth makes it).
    Exact,
    /// The value is at least the score (the window failed high).
    Lower,
    /// The value is at most the score (the window failed low).
    Upper,
    /// No move was scored yet: the report has no score.
    Unscored,
}

impl<M> SearchInfo<M> {
    /// The same report with its moves converted (say, into a type that
    /// holds the moves of any game).
    pub fn map_moves<N>(self, convert: impl Fn(M) -> N) -> SearchInfo<N> {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            elapsed_ms: self.elapsed_ms,
            hashfull: self.hashfull,
            pv: self.pv.into_iter().map(convert).collect(),
            exact: self.exact,
            multipv: self.multipv,
            bound: self.bound,
            currmovenumber: self.currmovenumber,
        }
    }
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` when the game is already over.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    /// Nodes searched, by every thread.
    pub nodes: u64,
    /// The deepest iteration completed.
    pub depth: u32,
}

#[cfg(test)]
mod score_tests {
    use super::*;

    #[test]
    fn mate_scores_count_the_movers_own_moves() {
        assert_eq!(Score::from_internal(MATE - 1, 2), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3, 2), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2), 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(MATE - 5, 4), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 3), 4), Score::Mate(-1));
        assert_eq!(Score::from_internal(120, 2), Score::Centi(120));
    }
}
