//! What bounds a search and how it runs: [`Limits`] (what `go` says),
//! [`SearchSettings`] (what the options and the playing level say), and the
//! time budget derived from the clocks by pure functions.

use std::time::Duration;

/// The clock of every player, as `go` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Time left on each seat's clock (`wtime`/`btime` are seats 1 and 2, `p1time`..`p4time`).
    pub time: [Option<Duration>; 4],
    /// Each seat's increment per move.
    pub increment: [Option<Duration>; 4],
    /// Moves until the next time control (`movestogo`).
    pub moves_to_go: Option<u32>,
}

/// When a search must end: what `go` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `go depth N`: no iteration deeper than N plies.
    pub depth: Option<u32>,
    /// `go nodes N`: stop after about N nodes (all threads together).
    pub nodes: Option<u64>,
    /// `go movetime MS`: this long, less the move overhead.
    pub move_time: Option<Duration>,
    /// The players' clocks (`wtime`, `p3inc`, `movestogo` ...).
    pub clocks: Clocks,
    /// Run until `stop` (also with `ponder` until `ponderhit`).
    pub infinite: bool,
    /// `go mate N`: a search without forward pruning (so that a win it finds
    /// is proven), as deep as a win in N of the mover's own moves needs,
    /// ending as soon as it proves one.
    pub mate: Option<u32>,
}

impl Limits {
    /// Whether the clocks are this search's only limit and none of them is
    /// `side`'s: the budget ([`time_budget`]) would find no time for the
    /// mover, and the search would never end by itself.
    pub fn only_other_clocks(&self, side: usize) -> bool {
        let clocks = self.clocks.time;
        let other_limit = self.infinite
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.move_time.is_some()
            || self.mate.is_some();
        clocks.iter().any(Option::is_some) && clocks.get(side).copied().flatten().is_none() && !other_limit
    }
}

/// How a search runs, apart from when it ends: what the options, the
/// playing level and `searchmoves` say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// Threads searching together (`Threads`); 0 and 1 both mean one.
    pub threads: usize,
    /// With more than two players, best-reply search instead of paranoid.
    pub best_reply: bool,
    /// How many best lines to report (`MultiPV`); 0 and 1 both mean one.
    pub multi_pv: usize,
    /// Time kept back from every budget for the GUI's side (`MoveOverhead`).
    pub move_overhead: Duration,
    /// A playing level's deliberate mistakes; none at full strength.
    pub noise: Noise,
    /// `go searchmoves`: the codes ([`crate::game::Position::move_code`]) of
    /// the only root moves to search; empty for all.
    pub search_moves: Vec<u16>,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            threads: 1,
            best_reply: false,
            multi_pv: 1,
            move_overhead: Duration::ZERO,
            noise: Noise::default(),
            search_moves: Vec::new(),
        }
    }
}

/// Pseudo-random offsets a playing level adds to values, fixed per position
/// and seed so that a level plays the same game twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Noise {
    /// Largest offset added to leaf values, 0 for none.
    pub leaf: i32,
    /// Largest bonus added to a root move's value, 0 for none.
    pub root: i32,
    /// Picks the offsets: the same seed gives the same offsets.
    pub seed: u64,
}

/// `limits` and `settings` held back further by a playing level's handicap.
pub fn with_handicap(
    mut limits: Limits,
    mut settings: SearchSettings,
    handicap: crate::game::Handicap,
    seed: u64,
) -> (Limits, SearchSettings) {
    limits.depth = Some(limits.depth.map_or(handicap.depth, |d| d.min(handicap.depth)));
    limits.nodes = Some(limits.nodes.map_or(handicap.nodes, |n| n.min(handicap.nodes)));
    settings.noise = Noise { leaf: handicap.noise, root: handicap.root_noise, seed };
    // Helper threads would make a level stronger than its table says,
    // and its moves no longer reproducible.
    settings.threads = 1;
    (limits, settings)
}

/// Deadlines measured from the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after this, when the search runs as
    /// expected (see [`TimeBudget::soft_limit`]).
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
    /// `go movetime`: the whole time is the mover's to use, no more and
    /// no less.
    pub fixed: bool,
}

/// What the iterations so far say about how much more time is worth
/// spending: more when the best move keeps changing, when the score is
/// falling or the position is bad; less when the answer has been the same
/// for a while.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Changes of the best move, recent ones counting most (each
    /// iteration halves the count, and a change adds 1).
    pub instability: f64,
    /// How far the score fell since the first iterations (never negative).
    pub fall: i32,
    /// The latest score, from the mover's side.
    pub score: i32,
    /// Iterations in a row that kept the best move.
    pub stable_iterations: u32,
}

/// A score below this is a position worth more time.
const BAD_SCORE: i32 = -100;

impl TimeBudget {
    /// When to start no further iteration, given how the search went: the
    /// soft deadline stretched (up to 3 times) by instability, a falling
    /// score and a bad position, or cut (to half) after a long run of the
    /// same answer; never past four fifths of the hard one. A fixed move
    /// time is used whole.
    pub fn soft_limit(&self, progress: &Progress) -> Duration {
        if self.fixed {
            return self.soft;
        }
        let mut factor = 1.0 + 0.5 * progress.instability.min(3.0);
        factor *= 1.0 + f64::from(progress.fall.clamp(0, 200)) / 250.0;
        if progress.score < BAD_SCORE {
            factor *= 1.25;
        }
        if progress.stable_iterations >= 6 && progress.instability < 0.1 {
            factor *= 0.5;
        }
        let stretched = self.soft.mul_f64(factor.min(3.0));
        stretched.min(self.hard.mul_f64(0.8))
    }
}

impl Progress {
    /// After an iteration whose best move is `changed` from the last one's
    /// and whose score is `score`, the first iterations having given
    /// `reference`.
    pub fn update(&mut self, changed: bool, score: i32, reference: i32) {
        self.instability = self.instability * 0.5 + if changed { 1.0 } else { 0.0 };
        self.stable_iterations = if changed { 0 } else { self.stable_iterations + 1 };
        self.fall = (reference - score).max(0);
        self.score = score;
    }
}

/// The budget for the side to move, or `None` when time does not limit.
pub fn time_budget(limits: &Limits, side: usize, overhead: Duration) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
    if let Some(fixed) = limits.move_time {
        let hard = fixed.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(TimeBudget { soft: hard, hard, fixed: true });
    }
    let left = limits.clocks.time.get(side).copied().flatten()?;
    let increment = limits.clocks.increment.get(side).copied().flatten().unwrap_or_default();
    // Leave the overhead untouched, plan for the moves still to come (30 when
    // the clock does not say), and keep a reserve unless this is the last move
    // before the time control.
    let usable = left.saturating_sub(overhead);
    let moves = limits.clocks.moves_to_go.unwrap_or(30).max(1);
    let share = usable / moves + increment * 3 / 4;
    let ceiling = if moves == 1 { usable * 4 / 5 } else { usable / 5 } + increment / 2;
    let hard = (share * 3).min(ceiling).min(usable).max(Duration::from_millis(1));
    let soft = (share / 2).min(hard);
    Some(TimeBudget { soft, hard, fixed: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_used_minus_overhead() {
        let limits = Limits { move_time: Some(ms(1000)), ..Limits::default() };
        let b = time_budget(&limits, 0, ms(10)).unwrap();
        assert_eq!(b.hard, ms(990));
    }

    #[test]
    fn clock_budget_stays_well_inside_the_clock() {
        let mut limits = Limits::default();
        limits.clocks.time[1] = Some(ms(1000));
        limits.clocks.increment[1] = Some(ms(10));
        let b = time_budget(&limits, 1, ms(10)).unwrap();
        assert!(b.hard <= ms(210), "{b:?}");
        assert!(b.soft <= b.hard && b.soft >= ms(10), "{b:?}");
        // The other side's clock is not ours.
        assert!(time_budget(&limits, 0, ms(10)).is_none());
    }

    #[test]
    fn only_the_other_sides_clock_is_no_limit_for_the_mover() {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(5000));
        assert!(limits.only_other_clocks(1) && !limits.only_other_clocks(0));
        assert!(limits.only_other_clocks(3), "four seats: the fourth has no clock");
        for bounded in [
            Limits { depth: Some(3), ..limits.clone() },
            Limits { nodes: Some(100), ..limits.clone() },
            Limits { move_time: Some(ms(10)), ..limits.clone() },
            Limits { mate: Some(2), ..limits.clone() },
            Limits { infinite: true, ..limits.clone() },
        ] {
            assert!(!bounded.only_other_clocks(1), "{bounded:?}");
        }
        assert!(!Limits::default().only_other_clocks(0), "no clock at all is another matter");
    }

    #[test]
    fn almost_no_time_still_gives_a_positive_budget() {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(5));
        let b = time_budget(&limits, 0, ms(10)).unwrap();
        assert_eq!(b.hard, ms(1));
    }

    #[test]
    fn a_fifth_of_the_clock_at_most_unless_it_is_the_last_move() {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(10_000));
        limits.clocks.moves_to_go = Some(2);
        assert!(time_budget(&limits, 0, ms(0)).unwrap().hard <= ms(2_000));
        limits.clocks.moves_to_go = Some(1);
        assert!(time_budget(&limits, 0, ms(0)).unwrap().hard <= ms(8_000));
    }

    fn clock_budget() -> TimeBudget {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(60_000));
        time_budget(&limits, 0, ms(0)).unwrap()
    }

    #[test]
    fn an_unstable_or_falling_search_gets_more_time_and_a_stable_one_less() {
        let budget = clock_budget();
        let calm = Progress { instability: 0.0, fall: 0, score: 0, stable_iterations: 2 };
        let base = budget.soft_limit(&calm);
        assert_eq!(base, budget.soft);
        let unstable = Progress { instability: 2.0, ..calm };
        assert!(budget.soft_limit(&unstable) >= base * 2, "{:?}", budget.soft_limit(&unstable));
        let falling = Progress { fall: 150, ..calm };
        assert!(budget.soft_limit(&falling) > base * 3 / 2);
        let losing = Progress { score: -400, ..calm };
        assert!(budget.soft_limit(&losing) > base);
        let settled = Progress { stable_iterations: 8, ..calm };
        assert!(budget.soft_limit(&settled) < base);
        let chaos = Progress { instability: 9.0, fall: 900, score: -900, stable_iterations: 0 };
        assert!(budget.soft_limit(&chaos) <= budget.hard * 4 / 5);
    }

    #[test]
    fn a_fixed_move_time_is_used_whole() {
        let limits = Limits { move_time: Some(ms(1000)), ..Limits::default() };
        let budget = time_budget(&limits, 0, ms(0)).unwrap();
        let settled = Progress { stable_iterations: 20, ..Progress::default() };
        assert_eq!(budget.soft_limit(&settled), ms(1000));
    }

    #[test]
    fn progress_counts_recent_changes_most() {
        let mut p = Progress::default();
        p.update(true, 50, 50);
        p.update(true, 20, 50);
        assert!((p.instability - 1.5).abs() < 1e-9 && p.fall == 30 && p.stable_iterations == 0);
        p.update(false, 60, 50);
        p.update(false, 60, 50);
        assert!(p.instability < 0.4 && p.fall == 0 && p.stable_iterations == 2);
    }

    #[test]
    fn movestogo_spreads_time_over_the_remaining_moves() {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(10_000));
        limits.clocks.moves_to_go = Some(40);
        let b = time_budget(&limits, 0, ms(0)).unwrap();
        assert!(b.hard <= ms(800) && b.soft >= ms(100), "{b:?}");
    }
}
