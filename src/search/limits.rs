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
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
}

/// The budget for the side to move, or `None` when time does not limit.
pub fn time_budget(limits: &Limits, side: usize, overhead: Duration) -> Option<TimeBudget> {
    if limits.infinite {
        return None;
    }
    if let Some(fixed) = limits.move_time {
        let hard = fixed.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some(TimeBudget { soft: hard, hard });
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
    Some(TimeBudget { soft, hard })
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

    #[test]
    fn movestogo_spreads_time_over_the_remaining_moves() {
        let mut limits = Limits::default();
        limits.clocks.time[0] = Some(ms(10_000));
        limits.clocks.moves_to_go = Some(40);
        let b = time_budget(&limits, 0, ms(0)).unwrap();
        assert!(b.hard <= ms(800) && b.soft >= ms(100), "{b:?}");
    }
}
