//! QTP's time. The protocol sends no clock, so the engine keeps one of its
//! own for each colour and turns it into the [`Limits`] of each `genmove`.
//!
//! By default it fits the limits of the department's referee with room to
//! spare: a game of 20 seconds for each row of the board (180 s on 9x9),
//! at most 30 s a move. The search is shown a clock that runs out while
//! the true one still holds a reserve. GTP's `time_settings` and `time_left` replace those
//! defaults, with GTP's meaning: a main time, then byo-yomi periods of
//! `byo_yomi_time` seconds for `byo_yomi_stones` moves; no byo-yomi time
//! means sudden death, byo-yomi time with no stones means no limit (then
//! the referee's pace is kept).

use crate::search::{Clocks, Limits};
use std::time::Duration;

/// The referee's game time for each row of the board.
const REFEREE_GAME_PER_ROW: Duration = Duration::from_secs(20);
/// The referee's limit for one move.
const REFEREE_MOVE: Duration = Duration::from_secs(30);

/// How the time of a game is ruled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    /// No `time_settings` yet: the referee's defaults for the board.
    Referee,
    /// `time_settings main byo stones`.
    Gtp { main: Duration, byo: Duration, stones: u32 },
}

/// Each colour's time, as the engine counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QtpClock {
    rules: Rules,
    /// The board's side (the referee's game time grows with it).
    size: usize,
    /// Time each colour's `genmove`s took this game.
    used: [Duration; 2],
    /// `time_left` for each colour's next `genmove`: time and stones.
    told: [Option<(Duration, u32)>; 2],
}

impl QtpClock {
    /// The referee's defaults for a board of side `size`.
    pub fn new(size: usize) -> QtpClock {
        QtpClock { rules: Rules::Referee, size, used: [Duration::ZERO; 2], told: [None; 2] }
    }

    /// A new game (`clear_board`, `boardsize`): nothing used yet.
    pub fn new_game(&mut self, size: usize) {
        self.size = size;
        self.used = [Duration::ZERO; 2];
        self.told = [None; 2];
    }

    /// `time_settings`: the rules from now on, for a game that starts now.
    pub fn settings(&mut self, main: Duration, byo: Duration, stones: u32) {
        self.rules = Rules::Gtp { main, byo, stones };
        self.used = [Duration::ZERO; 2];
        self.told = [None; 2];
    }

    /// `time_left`: what the controller's clock shows for `seat`.
    pub fn left(&mut self, seat: usize, time: Duration, stones: u32) {
        self.told[seat] = Some((time, stones));
    }

    /// A `genmove` of `seat` took `elapsed`.
    pub fn charge(&mut self, seat: usize, elapsed: Duration) {
        self.used[seat] += elapsed;
        // What the controller said held before this move.
        self.told[seat] = None;
    }

    /// The limits of `seat`'s next move.
    pub fn limits(&self, seat: usize) -> Limits {
        let (time, increment, moves_to_go) = match self.rules {
            Rules::Gtp { byo, stones: 0, .. } if !byo.is_zero() => self.referee(seat),
            Rules::Referee => self.referee(seat),
            Rules::Gtp { main, byo, stones } => match self.told[seat] {
                // In a byo-yomi period: its time for its stones.
                Some((time, left)) if left > 0 => (reserve(time, byo), Duration::ZERO, Some(left)),
                Some((time, _)) => (reserve(time, main), byo_share(byo, stones), None),
                None => match main.checked_sub(self.used[seat]).filter(|m| !m.is_zero()) {
                    Some(main_left) => (reserve(main_left, main), byo_share(byo, stones), None),
                    None if !byo.is_zero() => (reserve(byo, byo), Duration::ZERO, Some(stones.max(1))),
                    // Sudden death with nothing left: as quick as it gets.
                    None => (Duration::from_millis(1), Duration::ZERO, None),
                },
            },
        };
        let mut clocks = Clocks { moves_to_go, ..Clocks::default() };
        clocks.time[seat] = Some(time.max(Duration::from_millis(1)));
        clocks.increment[seat] = Some(increment);
        Limits { clocks, ..Limits::default() }
    }

    /// The referee's game time less what was used, kept so that no move
    /// can reach the referee's limit for one move: the search gives a move
    /// at most a fifth of the clock it is shown.
    fn referee(&self, seat: usize) -> (Duration, Duration, Option<u32>) {
        let game = REFEREE_GAME_PER_ROW * self.size as u32;
        let left = match self.told[seat] {
            Some((time, _)) => time,
            None => game.saturating_sub(self.used[seat]),
        };
        // A tenth of the game and half a second are never touched: what the
        // search does not count (starting and stopping, the pipes, a loaded
        // machine) over a hundred moves fits in it.
        let usable = left.saturating_sub(game / 10 + Duration::from_millis(500));
        let per_move_ceiling = REFEREE_MOVE.mul_f64(0.75) * 5;
        (usable.min(per_move_ceiling), Duration::ZERO, None)
    }
}

/// A clock `left` of a game (or period) of `whole` less a reserve for what
/// the engine does not count (starting and stopping each search, the
/// pipes, a loaded machine): a tenth of the whole, or half of what is left
/// when that is less, and half a second more. What is shown to the search
/// therefore runs out while the true clock still holds the reserve.
fn reserve(left: Duration, whole: Duration) -> Duration {
    let kept = (whole / 10).min(left / 2) + Duration::from_millis(500);
    left.saturating_sub(kept)
}

/// Byo-yomi after the main time, spread over the moves of a period as if it
/// were an increment (a little less, to keep the period's end safe).
fn byo_share(byo: Duration, stones: u32) -> Duration {
    if stones == 0 {
        return Duration::ZERO;
    }
    (byo / stones).mul_f64(0.8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time_budget;

    fn budget(clock: &QtpClock, seat: usize) -> Duration {
        let limits = clock.limits(seat);
        time_budget(&limits, seat, Duration::ZERO).map(|b| b.hard).expect("a clock limits the move")
    }

    #[test]
    fn the_referees_defaults_are_kept_with_room() {
        let mut clock = QtpClock::new(9);
        // 180 s a game: no move may come near 30 s.
        assert!(budget(&clock, 0) <= Duration::from_secs(23), "{:?}", budget(&clock, 0));
        // A whole game of moves at the hard limit never uses the game's time.
        let mut spent = Duration::ZERO;
        for _ in 0..200 {
            let hard = budget(&clock, 1);
            clock.charge(1, hard);
            spent += hard;
        }
        assert!(spent < Duration::from_secs(163), "{spent:?}");
        // A new game starts with its whole time again; a 5x5 game has 100 s.
        clock.new_game(5);
        let limits = clock.limits(0);
        assert!(limits.clocks.time[0].unwrap() < Duration::from_secs(90));
    }

    #[test]
    fn time_settings_and_time_left_replace_the_defaults() {
        let mut clock = QtpClock::new(9);
        clock.settings(Duration::from_secs(600), Duration::ZERO, 0);
        assert_eq!(clock.limits(0).clocks.time[0], Some(Duration::from_millis(539_500)));
        clock.charge(0, Duration::from_secs(100));
        assert_eq!(clock.limits(0).clocks.time[0], Some(Duration::from_millis(439_500)));
        clock.left(0, Duration::from_secs(10), 0);
        assert_eq!(clock.limits(0).clocks.time[0], Some(Duration::from_millis(4_500)));
        // Byo-yomi: 30 s for 5 moves.
        clock.settings(Duration::ZERO, Duration::from_secs(30), 5);
        let limits = clock.limits(1);
        assert_eq!(limits.clocks.moves_to_go, Some(5));
        clock.left(1, Duration::from_secs(12), 2);
        let limits = clock.limits(1);
        assert_eq!(
            (limits.clocks.time[1], limits.clocks.moves_to_go),
            (Some(Duration::from_millis(8_500)), Some(2))
        );
        // Byo-yomi time without stones: no limit, so the referee's pace.
        clock.settings(Duration::ZERO, Duration::from_secs(1), 0);
        assert!(budget(&clock, 0) <= Duration::from_secs(23));
    }
}
