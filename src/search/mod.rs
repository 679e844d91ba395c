//! Search generic over [`Game`]: iterative deepening alpha-beta with a
//! transposition table, reporting through a callback, stoppable from another
//! thread.

mod alphabeta;
mod iterate;
pub mod limits;
mod ordering;
#[cfg(test)]
mod tests;
mod threads;
pub mod tt;

pub use iterate::search;
pub use limits::{time_budget, Clocks, Limits, TimeBudget};

use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Scores at or beyond this magnitude mean a forced result.
pub const MATE: i32 = 30_000;
/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

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

    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// When the clock of this search started (reset by `ponderhit`).
    pub fn started(&self) -> Instant {
        *self.started.lock()
    }
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub hashfull: u32,
    /// The principal variation in the game's notation.
    pub pv: Vec<String>,
    /// The whole game tree below the root was searched: the score is the
    /// game-theoretic value (a draw when it is 0).
    pub exact: bool,
    /// With `MultiPV` above 1, which line this is (1 is the best); 0 when
    /// the search reports one line only.
    pub multipv: u32,
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` when the game is already over.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    pub nodes: u64,
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
