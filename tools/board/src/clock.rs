//! Game clocks: a time control in arena's `tc=` forms
//! (`[moves/]seconds[+increment]`, read by arena's own parser) or `inf` for
//! none. The clock of the side to move runs; a move adds the increment (and,
//! every `moves` moves of that seat, the base again); a clock that reaches
//! zero loses on time. The clocks at the start of every ply are kept, so
//! that a take-back gives the player the time they had then
//! ([`crate::shared::watch_clocks`] flags a fallen clock when nobody
//! moves), and [`Clocks::go_command`] is what
//! an engine seat hears (`go wtime ... btime ... winc ... binc ...`).

use arena::setup::Limit;
use std::time::{Duration, Instant};

/// The shortest base time that can be played: a tenth of a second (the
/// first move comes before any increment).
const MIN_BASE: Duration = Duration::from_millis(100);
/// The longest base time the page offers (a day) and increment (an hour).
const MAX_BASE: Duration = Duration::from_secs(24 * 3600);
const MAX_INCREMENT: Duration = Duration::from_secs(3600);
/// How often [`crate::shared::watch_clocks`] looks at the clocks at least.
pub const WATCH: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period (`40/...`): the base is added again after each period.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// `inf` (or nothing) is no clock; otherwise arena's `tc=` forms.
    pub fn parse(text: &str) -> Result<Option<TimeControl>, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("inf") {
            return Ok(None);
        }
        let bad = || {
            format!(
                "tc: '{}' is not inf or [moves/]seconds[+increment] (at most 24 h + 1 h)",
                tabula::protocol::parse::quoted(text)
            )
        };
        // arena's parser panics on seconds no Duration holds (1e30): such
        // numbers are refused here first.
        let sane = text.split(['/', '+']).all(|n| n.parse::<f64>().is_ok_and(|v| v.is_finite() && v < 1e9));
        if !sane {
            return Err(bad());
        }
        match Limit::parse_clock(text) {
            Ok(Limit::Clock { base, .. }) if base < MIN_BASE => Err(format!(
                "tc: '{}': a base under a tenth of a second cannot be played (the first move would lose on time)",
                tabula::protocol::parse::quoted(text)
            )),
            Ok(Limit::Clock { moves, base, increment }) if base <= MAX_BASE && increment <= MAX_INCREMENT => {
                Ok(Some(TimeControl { moves, base, increment }))
            }
            _ => Err(bad()),
        }
    }

    /// The form arena writes: `300+2`, `40/60+0`.
    pub fn describe(&self) -> String {
        let moves = self.moves.map_or(String::new(), |m| format!("{m}/"));
        format!("{moves}{}+{}", self.base.as_secs_f64(), self.increment.as_secs_f64())
    }
}

/// The clocks at one moment: time left and moves made, by seat.
#[derive(Clone, Debug, PartialEq)]
struct Reading {
    left: Vec<Duration>,
    made: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Clocks {
    pub control: TimeControl,
    /// The clocks at the start of each ply, ply 0 first; the last one is
    /// the current ply's.
    readings: Vec<Reading>,
    /// Time used in the current ply while the clocks ran before, by seat
    /// (a resignation stops them, its take-back starts them again).
    spent: Vec<Duration>,
    /// The seat whose clock runs, and since when.
    running: Option<(usize, Instant)>,
}

impl Clocks {
    pub fn new(control: TimeControl, players: usize) -> Clocks {
        let start = Reading { left: vec![control.base; players], made: vec![0; players] };
        Clocks { control, readings: vec![start], spent: vec![Duration::ZERO; players], running: None }
    }

    fn now_reading(&self) -> &Reading {
        self.readings.last().expect("there is always a reading")
    }

    /// The time `seat` has left at `now`.
    pub fn left(&self, seat: usize, now: Instant) -> Duration {
        let left = self.now_reading().left.get(seat).copied().unwrap_or_default();
        let left = left.saturating_sub(self.spent.get(seat).copied().unwrap_or_default());
        match self.running {
            Some((s, since)) if s == seat => left.saturating_sub(now.saturating_duration_since(since)),
            _ => left,
        }
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(seat, _)| seat)
    }

    /// The seat whose clock has reached zero at `now`.
    pub fn fallen(&self, now: Instant) -> Option<usize> {
        self.running().filter(|&seat| self.left(seat, now).is_zero())
    }

    /// How long until the running clock falls (`None`: none runs).
    pub fn due(&self, now: Instant) -> Option<Duration> {
        self.running().map(|seat| self.left(seat, now))
    }

    /// Starts `seat`'s clock at `now`, unless it runs already.
    pub fn run(&mut self, seat: usize, now: Instant) {
        if self.running() != Some(seat) {
            self.stop(now);
            self.running = Some((seat, now));
        }
    }

    /// Stops the running clock, keeping the time it used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((seat, since)) = self.running.take() {
            self.spent[seat] += now.saturating_duration_since(since);
        }
    }

    /// The running seat has moved at `now`: its time used is charged, the
    /// increment added, and the clocks of the next ply start from there.
    pub fn moved(&mut self, now: Instant) {
        let Some((seat, _)) = self.running else {
            // A move while no clock ran (a redo after the game ended): no time passes.
            self.readings.push(self.now_reading().clone());
            self.spent.fill(Duration::ZERO);
            return;
        };
        let mut next = self.now_reading().clone();
        next.left[seat] = self.left(seat, now) + self.control.increment;
        self.spent.fill(Duration::ZERO);
        next.made[seat] += 1;
        if self.control.moves.is_some_and(|m| next.made[seat].is_multiple_of(m)) {
            next.left[seat] += self.control.base;
        }
        self.readings.push(next);
        self.running = None;
    }

    /// Back to the clocks at the start of ply `ply` (a take-back), stopped.
    pub fn back_to(&mut self, ply: usize) {
        self.readings.truncate(ply + 1);
        self.spent.fill(Duration::ZERO);
        self.running = None;
    }

    /// The `go` command for `seat`, every seat's clock and increment given
    /// (`wtime`/`btime` with two players, `p1time`.. with four).
    pub fn go_command(&self, seat: usize, now: Instant) -> String {
        let players = self.now_reading().left.len();
        let increment = self.control.increment.as_millis();
        let mut line = "go".to_string();
        for s in 0..players {
            let (time, inc) = if players == 2 {
                (["wtime", "btime"][s].to_string(), ["winc", "binc"][s].to_string())
            } else {
                (format!("p{}time", s + 1), format!("p{}inc", s + 1))
            };
            line.push_str(&format!(" {time} {} {inc} {increment}", self.left(s, now).as_millis()));
        }
        if let Some(m) = self.control.moves {
            line.push_str(&format!(" movestogo {}", m - self.now_reading().made[seat] % m));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_are_read_in_arenas_forms() {
        assert_eq!(TimeControl::parse("inf"), Ok(None));
        assert_eq!(TimeControl::parse(""), Ok(None));
        let tc = TimeControl::parse("300+2").expect("a clock").expect("not inf");
        assert_eq!((tc.moves, tc.base, tc.increment), (None, ms(300_000), ms(2000)));
        assert_eq!(tc.describe(), "300+2");
        assert_eq!(
            TimeControl::parse("40/60").expect("a clock").map(|t| t.describe()).as_deref(),
            Some("40/60+0")
        );
        assert_eq!(TimeControl::parse("0.5+0.1").expect("a clock").map(|t| t.base), Some(ms(500)));
        for bad in ["0", "-1+0", "soon", "1e30", "100000+0", "10+7200", "0/10"] {
            let refused = TimeControl::parse(bad).expect_err(bad);
            assert!(refused.starts_with("tc: '"), "{refused}");
        }
        assert!(TimeControl::parse(&"9".repeat(1000)).expect_err("long").len() < 200);
        // What cannot be played: a base under a tenth of a second, as the
        // hostile test's 1e-9+0, which lost on time at once.
        for unplayable in ["1e-9+0", "0.05+0", "0.09+5", "40/0.01"] {
            let refused = TimeControl::parse(unplayable).expect_err(unplayable);
            assert!(refused.contains("cannot be played"), "{unplayable}: {refused}");
        }
        assert!(TimeControl::parse("0.1+0").is_ok());
    }

    #[test]
    fn the_running_clock_is_charged_with_increment_and_taken_back() {
        let tc = TimeControl { moves: Some(2), base: ms(10_000), increment: ms(1000) };
        let mut clocks = Clocks::new(tc, 2);
        let t0 = Instant::now();
        clocks.run(0, t0);
        assert_eq!(clocks.left(0, t0 + ms(3000)), ms(7000));
        assert_eq!(clocks.left(1, t0 + ms(3000)), ms(10_000), "only the mover's clock runs");
        clocks.moved(t0 + ms(3000));
        assert_eq!(clocks.left(0, t0 + ms(9000)), ms(8000), "3 s used, 1 s added");
        clocks.run(1, t0 + ms(3000));
        assert_eq!(
            clocks.go_command(1, t0 + ms(4000)),
            "go wtime 8000 winc 1000 btime 9000 binc 1000 movestogo 2"
        );
        clocks.moved(t0 + ms(4000));
        clocks.run(0, t0 + ms(4000));
        clocks.moved(t0 + ms(5000));
        assert_eq!(clocks.left(0, t0 + ms(5000)), ms(18_000), "the second move of a period adds the base");
        clocks.back_to(1);
        assert_eq!((clocks.left(0, t0), clocks.left(1, t0), clocks.running()), (ms(8000), ms(10_000), None));
        clocks.run(1, t0);
        assert_eq!(clocks.fallen(t0 + ms(9999)), None);
        assert_eq!(clocks.fallen(t0 + ms(10_000)), Some(1));
        assert_eq!(clocks.due(t0 + ms(20_000)), Some(Duration::ZERO));
        clocks.stop(t0 + ms(2000));
        assert_eq!((clocks.left(1, t0 + ms(9000)), clocks.running()), (ms(8000), None), "stopped");
        clocks.run(1, t0 + ms(9000));
        assert_eq!(clocks.left(1, t0 + ms(10_000)), ms(7000), "going on from there");
        clocks.back_to(1);
        assert_eq!(clocks.left(1, t0), ms(10_000), "a take-back gives the time at the start of the ply");
    }

    #[test]
    fn four_players_hear_every_clock_by_seat() {
        let tc = TimeControl { moves: None, base: ms(5000), increment: ms(0) };
        let clocks = Clocks::new(tc, 4);
        assert_eq!(
            clocks.go_command(2, Instant::now()),
            "go p1time 5000 p1inc 0 p2time 5000 p2inc 0 p3time 5000 p3inc 0 p4time 5000 p4inc 0"
        );
    }
}
