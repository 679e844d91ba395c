//! Adjudication from the engines' scores, as cutechess-cli defines it, for
//! two-player games: `-draw` ends a game as a draw once both engines have
//! called it even for long enough, `-resign` ends it as a loss for an engine
//! that has called itself lost for long enough. Scores are the engines' last
//! `info ... score` before each `bestmove`, from the mover's side.

/// `-draw movenumber=N movecount=N score=N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Only moves made after this many full moves of the game (opening
    /// included) count.
    pub move_number: usize,
    /// Consecutive moves of each engine, so twice as many plies.
    pub move_count: usize,
    /// Centipawns (for Quoridor, hundredths of a step) from zero, either way.
    pub score: i64,
}

/// `-resign movecount=N score=N [twosided=true]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing engine.
    pub move_count: usize,
    /// The losing engine's score is at most minus this.
    pub score: i64,
    /// The winner must also have scored at least plus `score` on each of
    /// its last `move_count` moves.
    pub two_sided: bool,
}

/// The rules in force; none by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// `-adjudicate race`: a two-player Quoridor game without walls in hand
    /// is decided by the race solver (see `race.rs`), not by scores.
    pub race: bool,
}

/// What adjudication decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw(String),
    /// The seat that loses, and why.
    Loss(usize, String),
}

/// A score as a number: `cp N` is N; a mate is beyond any centipawn
/// threshold (`mate 3` winning, `mate -3` and `mate 0` lost).
pub fn score_value(score: &str) -> Option<i64> {
    const MATE: i64 = 1 << 40;
    let (kind, value) = score.split_once(' ')?;
    let value: i64 = value.trim().parse().ok()?;
    match kind {
        "cp" => Some(value),
        "mate" if value > 0 => Some(MATE),
        "mate" => Some(-MATE),
        _ => None,
    }
}

/// Follows one game's scores move by move.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Consecutive counting plies with both scores within the draw score.
    draw_plies: usize,
    /// Per seat: consecutive own moves scored at most -score, at least +score.
    low: [usize; 2],
    high: [usize; 2],
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, ..Adjudicator::default() }
    }

    /// Counts the move `seat` just made with `score` (none when the engine
    /// reported none), `before` plies into the game (opening included);
    /// says whether that ends the game.
    pub fn record(&mut self, seat: usize, before: usize, score: Option<&str>) -> Option<Verdict> {
        let seat = seat.min(1);
        let value = score.and_then(score_value);
        if let Some(rule) = self.rules.draw {
            let counts = before / 2 >= rule.move_number && value.is_some_and(|v| v.abs() <= rule.score);
            self.draw_plies = if counts { self.draw_plies + 1 } else { 0 };
            if self.draw_plies >= 2 * rule.move_count {
                return Some(Verdict::Draw(format!(
                    "draw by adjudication: scores within {} for {} moves each",
                    rule.score, rule.move_count
                )));
            }
        }
        let rule = self.rules.resign?;
        self.low[seat] = if value.is_some_and(|v| v <= -rule.score) { self.low[seat] + 1 } else { 0 };
        self.high[seat] = if value.is_some_and(|v| v >= rule.score) { self.high[seat] + 1 } else { 0 };
        let other = 1 - seat;
        let agreed = |loser: usize| {
            self.low[loser] >= rule.move_count && (!rule.two_sided || self.high[1 - loser] >= rule.move_count)
        };
        // The mover's own admission, or (two-sided) the opponent's, which
        // the mover's confident score has just completed.
        let loser = [seat, other].into_iter().find(|&s| agreed(s))?;
        Some(Verdict::Loss(
            loser,
            format!(
                "P{} loses by adjudication: score -{} or lower for {} moves{}",
                loser + 1,
                rule.score,
                rule.move_count,
                if rule.two_sided { ", the opponent's +score or higher" } else { "" }
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(move_number: usize, move_count: usize, score: i64) -> Adjudicator {
        Adjudicator::new(Adjudication {
            draw: Some(DrawRule { move_number, move_count, score }),
            resign: None,
            race: false,
        })
    }

    fn resign(move_count: usize, score: i64, two_sided: bool) -> Adjudicator {
        Adjudicator::new(Adjudication {
            draw: None,
            resign: Some(ResignRule { move_count, score, two_sided }),
            race: false,
        })
    }

    /// Feeds `scores` alternately from seat 0, starting `opening` plies in;
    /// the ply (1-based) of the verdict, and the verdict.
    fn run(mut a: Adjudicator, opening: usize, scores: &[Option<&str>]) -> Option<(usize, Verdict)> {
        scores.iter().enumerate().find_map(|(i, s)| a.record(i % 2, opening + i, *s).map(|v| (i + 1, v)))
    }

    #[test]
    fn scores_are_numbers() {
        assert_eq!(score_value("cp -35"), Some(-35));
        assert!(score_value("mate 2").is_some_and(|v| v > 1_000_000));
        assert!(score_value("mate -1").is_some_and(|v| v < -1_000_000));
        assert!(score_value("mate 0").is_some_and(|v| v < 0));
        assert_eq!(score_value("lowerbound 3"), None);
        assert_eq!(score_value("cp"), None);
    }

    #[test]
    fn a_draw_needs_both_engines_within_the_score_for_the_move_count() {
        let even = [Some("cp 10"), Some("cp -5"), Some("cp 0"), Some("cp 20")];
        let (ply, verdict) = run(draw(0, 2, 20), 0, &even).expect("a draw");
        assert_eq!(ply, 4);
        assert!(matches!(verdict, Verdict::Draw(ref why) if why.contains("within 20 for 2 moves")));
        assert_eq!(run(draw(0, 2, 19), 0, &even), None, "20 is outside 19");
        let broken = [Some("cp 10"), Some("cp -5"), Some("cp 300"), Some("cp 0"), Some("cp 0"), Some("cp 0")];
        assert_eq!(run(draw(0, 2, 20), 0, &broken).map(|(p, _)| p), None, "the streak starts again");
        let missing = [Some("cp 1"), None, Some("cp 1"), Some("cp 1"), Some("mate 4"), Some("cp 1")];
        assert_eq!(run(draw(0, 2, 20), 0, &missing), None, "no score or a mate breaks it");
        // movenumber=3: moves count from ply 7 (3 full moves played), so a
        // game from the start is drawn at ply 10, and after a 4-ply opening
        // at the engines' 6th ply (the game's 10th).
        let level = [Some("cp 0"); 12];
        assert_eq!(run(draw(3, 2, 20), 0, &level).map(|(p, _)| p), Some(10));
        assert_eq!(run(draw(3, 2, 20), 4, &level).map(|(p, _)| p), Some(6));
    }

    #[test]
    fn an_engine_that_calls_itself_lost_resigns() {
        let scores = [Some("cp 100"), Some("cp -700"), Some("cp 650"), Some("cp -600"), Some("cp 10")];
        let (ply, verdict) = run(resign(2, 600, false), 0, &scores).expect("seat 2 resigns");
        assert_eq!(ply, 4);
        assert!(matches!(verdict, Verdict::Loss(1, ref why) if why.starts_with("P2 loses by adjudication")));
        assert_eq!(run(resign(2, 601, false), 0, &scores), None);
        assert_eq!(run(resign(3, 600, false), 0, &scores), None);
        let mated = [Some("mate -2"), Some("cp 0")];
        assert_eq!(run(resign(1, 5000, false), 0, &mated).map(|(p, _)| p), Some(1));
    }

    #[test]
    fn two_sided_resignation_needs_the_winner_to_agree() {
        // Seat 1 calls itself lost twice, but seat 0 claims +650 only once.
        let scores = [Some("cp 100"), Some("cp -700"), Some("cp 650"), Some("cp -600"), Some("cp 500")];
        assert_eq!(run(resign(2, 600, true), 0, &scores), None);
        let agreed = [Some("cp 600"), Some("cp -700"), Some("cp 650"), Some("cp -600")];
        assert_eq!(run(resign(2, 600, true), 0, &agreed).map(|(p, _)| p), Some(4));
        // The winner's second confident score completes the agreement.
        let late = [Some("cp 0"), Some("cp -700"), Some("cp 650"), Some("cp -600"), Some("cp 700")];
        let (ply, verdict) = run(resign(2, 600, true), 0, &late).expect("agreed at ply 5");
        assert_eq!((ply, matches!(verdict, Verdict::Loss(1, _))), (5, true));
    }
}
