//! What a review found ([`Review`]: one value a position), and how the
//! page and the record show it: each
//! position's value from P1's point of view for the evaluation graph
//! (moves of advantage, a forced or proven result clamped to
//! [`CLAMP`]), each move's loss marked as an inaccuracy, a mistake or a
//! blunder by the thresholds below, and a move that changed a proven result
//! marked as such. How a review travels in the game record: `review_record`.

use crate::json::Json;
use tabula::game::Outcome;

/// A forced or proven result counts as this much advantage (hundredths of
/// a move: 10 moves), and no score counts for more.
pub const CLAMP: i64 = 1000;
/// A move that gives away this much advantage (hundredths of a move) or
/// more is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: i64 = 50;
pub const MISTAKE: i64 = 100;
pub const BLUNDER: i64 = 200;

/// How hard the engine looks at each position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Effort {
    Nodes(u64),
    Millis(u64),
}

impl Effort {
    pub fn describe(self) -> String {
        match self {
            Effort::Nodes(n) => format!("nodes={n}"),
            Effort::Millis(ms) => format!("movetime={ms}"),
        }
    }
}

/// A review: the game's moves as they were when it began, one value a
/// position (the start and after every move) as far as it went.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub effort: Option<Effort>,
    /// The cap on `go solve` a position, in milliseconds (0: no proofs).
    pub solve_ms: u64,
    pub start: Option<String>,
    pub line: Vec<String>,
    pub evals: Vec<Option<PlyEval>>,
    /// Still going (not finished, cancelled or failed).
    pub running: bool,
    pub cancelled: bool,
    pub error: Option<String>,
    /// Counts the reviews, so that an old one's values are not taken.
    pub serial: u64,
}

/// An exact value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proven {
    Win,
    Draw,
    Loss,
}

impl Proven {
    /// `info string solve result: first|second|draw ...` (`go solve`), as
    /// the review reads it (through [`crate::candidates::solve_within`]).
    #[cfg(test)]
    pub fn from_solve_result(line: &str) -> Option<Proven> {
        Proven::from_winner(&crate::candidates::read_solve_result(line)?.winner)
    }

    /// `go solve`'s winner: `first` (the player to move), `second`, `draw`.
    pub fn from_winner(winner: &str) -> Option<Proven> {
        match winner {
            "first" => Some(Proven::Win),
            "second" => Some(Proven::Loss),
            "draw" => Some(Proven::Draw),
            _ => None,
        }
    }

    /// Tabula's note on a proven Quarto move (`info string proven by solve:
    /// c1b wins in 13 plies`, `draw; ...`, `every move loses; ...`); a move
    /// that only holds at least a draw proves no exact value.
    pub fn from_engine_note(line: &str) -> Option<Proven> {
        let note = line.strip_prefix("info string proven by solve: ")?;
        if note.starts_with("draw;") {
            Some(Proven::Draw)
        } else if note.starts_with("every move loses") {
            Some(Proven::Loss)
        } else if note.contains(" wins in ") && !note.contains("or fewer") {
            Some(Proven::Win)
        } else {
            None
        }
    }

    pub fn letter(self) -> char {
        match self {
            Proven::Win => 'W',
            Proven::Draw => 'D',
            Proven::Loss => 'L',
        }
    }

    pub fn from_letter(c: char) -> Option<Proven> {
        match c {
            'W' => Some(Proven::Win),
            'D' => Some(Proven::Draw),
            'L' => Some(Proven::Loss),
            _ => None,
        }
    }

    /// The same result seen by the other player.
    fn flip(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Draw => Proven::Draw,
            Proven::Loss => Proven::Win,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Draw => "draw",
            Proven::Loss => "loss",
        }
    }

    fn value(self) -> i64 {
        match self {
            Proven::Win => CLAMP,
            Proven::Draw => 0,
            Proven::Loss => -CLAMP,
        }
    }
}

/// One position's value as the review found it, for the side to move there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlyEval {
    /// The seat to move in the position.
    pub mover: usize,
    /// The engine's score (`cp 31`, `mate -3`).
    pub score: Option<String>,
    pub depth: Option<u32>,
    pub best: Option<String>,
    pub proven: Option<Proven>,
}

impl PlyEval {
    /// A position where the game is over: its result, proven.
    pub fn over(mover: usize, outcome: Outcome) -> PlyEval {
        let proven = match outcome {
            Outcome::Win(seat) if seat == mover => Proven::Win,
            Outcome::Win(_) => Proven::Loss,
            Outcome::Draw => Proven::Draw,
        };
        PlyEval { mover, proven: Some(proven), ..PlyEval::default() }
    }

    /// The value for the side to move in hundredths of a move, clamped.
    fn value(&self) -> Option<i64> {
        if let Some(proven) = self.proven {
            return Some(proven.value());
        }
        let (kind, n) = self.score.as_deref()?.split_once(' ')?;
        let n: i64 = n.split_whitespace().next()?.parse().ok()?;
        match kind {
            "cp" => Some(n.clamp(-CLAMP, CLAMP)),
            "mate" => Some(if n > 0 { CLAMP } else { -CLAMP }),
            _ => None,
        }
    }

    /// The value for `seat` (two players).
    fn value_for(&self, seat: usize) -> Option<i64> {
        self.value().map(|v| if seat == self.mover { v } else { -v })
    }

    fn proven_for(&self, seat: usize) -> Option<Proven> {
        self.proven.map(|p| if seat == self.mover { p } else { p.flip() })
    }
}

/// A move marked by the review: its number (1 the first), how bad, the
/// advantage it gave away, and whether it changed a proven result.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub ply: usize,
    pub kind: &'static str,
    pub loss: i64,
    pub proven: bool,
    pub text: String,
}

/// The marks of the moves whose positions before and after were both
/// valued: a proven result made worse is a blunder whatever the scores
/// say; a move between two proven values that keeps the result is never
/// marked, nor is the reviewer's own best move; otherwise the advantage the
/// mover gave away decides.
pub fn marks(evals: &[Option<PlyEval>], line: &[String]) -> Vec<Mark> {
    let mut found = Vec::new();
    for (k, pair) in evals.windows(2).enumerate() {
        let (Some(before), Some(after)) = (&pair[0], &pair[1]) else { continue };
        let mover = before.mover;
        let text = line.get(k).map_or("", String::as_str);
        if let (Some(was), Some(now)) = (before.proven, after.proven_for(mover)) {
            if now != was && now.value() < was.value() {
                found.push(Mark {
                    ply: k + 1,
                    kind: "blunder",
                    loss: was.value() - now.value(),
                    proven: true,
                    text: format!("{text} turned a proven {} into a {}", was.word(), now.word()),
                });
            }
            continue;
        }
        // The reviewer's own choice is never a mistake (a deeper look at the
        // next position may only see more).
        if before.best.as_deref() == Some(text) {
            continue;
        }
        let (Some(was), Some(now)) = (before.value(), after.value_for(mover)) else { continue };
        let loss = was - now;
        let kind = match loss {
            l if l >= BLUNDER => "blunder",
            l if l >= MISTAKE => "mistake",
            l if l >= INACCURACY => "inaccuracy",
            _ => continue,
        };
        let best = before.best.as_deref().map_or(String::new(), |b| format!("; best was {b}"));
        found.push(Mark {
            ply: k + 1,
            kind,
            loss,
            proven: false,
            text: format!("{text} gave away {:.2} moves of advantage{best}", loss as f64 / 100.0),
        });
    }
    found
}

/// The review as the page draws it: `{effort, solve, total, done, running,
/// cancelled, error, points: [{ply, value, label, proven} | null], marks:
/// [{ply, kind, loss, proven, text}], thresholds: {inaccuracy, mistake,
/// blunder}}`, values from P1's point of view in hundredths of a move.
pub fn review_view(review: &Review) -> Json {
    let points = review.evals.iter().enumerate().map(|(ply, eval)| {
        Json::option(eval.as_ref(), |e| {
            let value = e.value_for(0).unwrap_or(0);
            Json::Object(vec![
                ("ply", Json::Number(ply as i64)),
                ("value", Json::Number(value)),
                ("label", Json::text(label(e))),
                ("proven", Json::Bool(e.proven.is_some())),
                ("valued", Json::Bool(e.value().is_some())),
            ])
        })
    });
    let marks = marks(&review.evals, &review.line).into_iter().map(|m| {
        Json::Object(vec![
            ("ply", Json::Number(m.ply as i64)),
            ("kind", Json::text(m.kind)),
            ("loss", Json::Number(m.loss)),
            ("proven", Json::Bool(m.proven)),
            ("text", Json::text(m.text)),
        ])
    });
    let number = |n: i64| Json::Number(n);
    Json::Object(vec![
        ("effort", Json::text(review.effort.map_or("from the record".into(), Effort::describe))),
        ("solve", Json::Number(review.solve_ms as i64)),
        ("total", Json::Number(review.evals.len() as i64)),
        ("done", Json::Number(review.evals.iter().flatten().count() as i64)),
        ("running", Json::Bool(review.running)),
        ("cancelled", Json::Bool(review.cancelled)),
        ("error", Json::option(review.error.as_ref(), Json::text)),
        ("points", Json::List(points.collect())),
        ("marks", Json::List(marks.collect())),
        (
            "thresholds",
            Json::Object(vec![
                ("inaccuracy", number(INACCURACY)),
                ("mistake", number(MISTAKE)),
                ("blunder", number(BLUNDER)),
            ]),
        ),
    ])
}

/// A position's value in words, from P1's point of view.
fn label(e: &PlyEval) -> String {
    if let Some(p) = e.proven_for(0) {
        return match p {
            Proven::Win => "P1 wins (proven)".into(),
            Proven::Draw => "draw (proven)".into(),
            Proven::Loss => "P2 wins (proven)".into(),
        };
    }
    let Some((kind, n)) = e.score.as_deref().and_then(|s| s.split_once(' ')) else { return "-".into() };
    let n: i64 = n.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let n = if e.mover == 0 { n } else { -n };
    match kind {
        "mate" if n > 0 => format!("P1 wins in {n}"),
        "mate" => format!("P2 wins in {}", -n),
        _ => format!("{:+.2}", n as f64 / 100.0),
    }
}

/// Values and lines for the review's tests.
#[cfg(test)]
pub(crate) mod samples {
    use super::{PlyEval, Proven};

    /// A position valued by the engine at depth 5.
    pub fn at(mover: usize, score: &str) -> Option<PlyEval> {
        Some(PlyEval { mover, score: Some(score.into()), depth: Some(5), ..PlyEval::default() })
    }

    /// A position whose value is proven.
    pub fn proven(mover: usize, p: Proven) -> Option<PlyEval> {
        Some(PlyEval { mover, proven: Some(p), ..PlyEval::default() })
    }

    /// `n` moves named m0, m1, ...
    pub fn line(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("m{i}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::samples::{at, line, proven};
    use super::*;

    #[test]
    fn a_moves_loss_is_marked_by_the_thresholds() {
        // P1 +0.40; after P1's move P2 stands at +0.20 (P1 -0.20): 0.60 lost.
        let evals = [at(0, "cp 40"), at(1, "cp 20"), at(0, "cp -10"), at(1, "mate 3"), at(0, "cp 0")];
        let found = marks(&evals, &line(4));
        let kinds: Vec<(usize, &str, i64)> = found.iter().map(|m| (m.ply, m.kind, m.loss)).collect();
        // Move 2 (P2): +0.20 -> +0.10 for P2, 0.10 lost: no mark. Move 3 (P1): -0.10 -> lost to a mate (-10):
        // 9.90 lost. Move 4 (P2): a mate thrown away for 0.00: 10 lost.
        assert_eq!(kinds, [(1, "inaccuracy", 60), (3, "blunder", 990), (4, "blunder", 1000)]);
        let small = [at(0, "cp 40"), at(1, "cp 70")];
        assert_eq!(marks(&small, &line(1))[0].kind, "mistake", "1.10 lost");
    }

    #[test]
    fn a_proven_result_made_worse_is_a_blunder_and_one_kept_is_no_mistake() {
        let evals = [
            proven(0, Proven::Win),
            // P2 to move, lost for P2: P1 kept the win (its score fell, no mark).
            Some(PlyEval {
                mover: 1,
                proven: Some(Proven::Loss),
                score: Some("cp -50".into()),
                ..PlyEval::default()
            }),
            // P2 moved; now a draw: P2 improved, impossible with best play but no mark either way for P2.
            proven(0, Proven::Draw),
            proven(1, Proven::Win),
        ];
        let found = marks(&evals, &line(3));
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].ply, found[0].kind, found[0].proven), (3, "blunder", true));
        assert_eq!(found[0].text, "m2 turned a proven draw into a loss");
    }

    #[test]
    fn engine_notes_and_solve_results_read_as_exact_values() {
        assert_eq!(
            Proven::from_solve_result("info string solve result: second plies=26 positions=5 time 3"),
            Some(Proven::Loss)
        );
        assert_eq!(
            Proven::from_solve_result("info string solve result: draw positions=5"),
            Some(Proven::Draw)
        );
        assert_eq!(Proven::from_solve_result("info string solve phase 4 positions 5"), None);
        assert_eq!(
            Proven::from_engine_note("info string proven by solve: c1b wins in 13 plies"),
            Some(Proven::Win)
        );
        assert_eq!(
            Proven::from_engine_note("info string proven by solve: c1b wins in 13 plies or fewer"),
            None
        );
        assert_eq!(Proven::from_engine_note("info string proven by solve: b17 holds at least a draw"), None);
        assert_eq!(
            Proven::from_engine_note("info string proven by solve: draw; b17 holds it"),
            Some(Proven::Draw)
        );
        assert_eq!(
            Proven::from_engine_note("info string proven by solve: every move loses; a1 lasts longest"),
            Some(Proven::Loss)
        );
    }
}
