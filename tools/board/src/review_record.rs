//! A review in the game record: each move's comment is the reviewer's
//! score of the position it was played in, from the mover's side, as arena
//! writes an engine's (`{+0.35/12 0s}`), and one game comment holds the
//! rest (`{review nodes=100000 solve=0; proven WD-L...; last +0.12/9; best
//! e2 e8 - ...}`: the effort, each position's proven value for its mover,
//! the last position's score, each position's best move). Load reads it
//! back.

use crate::review_marks::{Effort, PlyEval, Proven, Review};
use arena::record::move_comment;
use arena::referee::PlayedMove;

/// The record's comment after each move (the score of the position it was
/// played in, the mover's side) as a played move carries it.
pub fn played_score(review: &Review, ply: usize) -> (Option<String>, Option<u32>) {
    match review.evals.get(ply).and_then(Option::as_ref) {
        Some(e) => (e.score.clone(), e.depth),
        None => (None, None),
    }
}

/// The game comment that carries the rest of a review.
pub fn game_comment(review: &Review) -> String {
    let proven: String =
        review.evals.iter().map(|e| e.as_ref().and_then(|e| e.proven).map_or('-', Proven::letter)).collect();
    let last = review.evals.last().and_then(Option::as_ref).and_then(|e| {
        let played = PlayedMove {
            seat: e.mover,
            text: String::new(),
            millis: 0,
            score: e.score.clone(),
            depth: e.depth,
            stats: Default::default(),
        };
        move_comment(&played)
    });
    let effort = review.effort.map_or("loaded".into(), Effort::describe);
    let best: Vec<&str> =
        review.evals.iter().map(|e| e.as_ref().and_then(|e| e.best.as_deref()).unwrap_or("-")).collect();
    format!(
        "review {effort} solve={}; proven {proven}; last {}; best {}",
        review.solve_ms,
        last.as_deref().unwrap_or("-"),
        best.join(" ")
    )
}

/// A review read back from a record's comments (`(moves before it, text)`
/// each) for the game `line` whose positions have `movers` to move; `None`
/// when the record holds no review.
pub fn review_from_comments(
    comments: &[(usize, String)],
    start: Option<String>,
    line: Vec<String>,
    movers: &[usize],
) -> Option<Review> {
    let game = comments.iter().rev().find(|(_, c)| c.starts_with("review "))?;
    let mut evals: Vec<Option<PlyEval>> = vec![None; line.len() + 1];
    for (after, text) in comments.iter().filter(|(_, c)| !c.starts_with("review ")) {
        if let (Some(ply), Some((score, depth))) = (after.checked_sub(1), read_score(text)) {
            if let Some(e) = eval_at(&mut evals, movers, ply) {
                (e.score, e.depth) = (Some(score), depth);
            }
        }
    }
    let mut effort = None;
    let mut solve_ms = 0;
    for part in game.1.trim_start_matches("review ").split(';').map(str::trim) {
        if let Some(letters) = part.strip_prefix("proven ") {
            for (ply, c) in letters.chars().enumerate() {
                let Some(p) = Proven::from_letter(c) else { continue };
                if let Some(e) = eval_at(&mut evals, movers, ply) {
                    e.proven = Some(p);
                }
            }
        } else if let Some(moves) = part.strip_prefix("best ") {
            for (ply, mv) in moves.split_whitespace().enumerate().filter(|(_, m)| *m != "-") {
                if let Some(e) = eval_at(&mut evals, movers, ply) {
                    e.best = Some(mv.to_string());
                }
            }
        } else if let Some(last) = part.strip_prefix("last ") {
            if let Some((score, depth)) = read_score(last) {
                if let Some(e) = eval_at(&mut evals, movers, line.len()) {
                    (e.score, e.depth) = (Some(score), depth);
                }
            }
        } else {
            for word in part.split_whitespace() {
                match word.split_once('=') {
                    Some(("nodes", n)) => effort = n.parse().ok().map(Effort::Nodes),
                    Some(("movetime", n)) => effort = n.parse().ok().map(Effort::Millis),
                    Some(("solve", n)) => solve_ms = n.parse().unwrap_or(0),
                    _ => {}
                }
            }
        }
    }
    Some(Review {
        effort,
        solve_ms,
        start,
        line,
        evals,
        running: false,
        cancelled: false,
        error: None,
        serial: 0,
    })
}

/// The value of position `ply`, made (for its mover) if not there yet.
fn eval_at<'a>(evals: &'a mut [Option<PlyEval>], movers: &[usize], ply: usize) -> Option<&'a mut PlyEval> {
    let mover = *movers.get(ply)?;
    evals.get_mut(ply).map(|slot| slot.get_or_insert_with(|| PlyEval { mover, ..PlyEval::default() }))
}

/// An arena move comment's score and depth (`+0.35/12 0.31s`, `-M3/20 1s`,
/// `+1.00 0s`) as an engine says them (`cp 35`, `mate -3`).
fn read_score(text: &str) -> Option<(String, Option<u32>)> {
    let first = text.split([' ', ',']).next()?;
    let (score, depth) = match first.split_once('/') {
        Some((score, depth)) => (score, depth.parse().ok()),
        None => (first, None),
    };
    let (sign, rest) = match score.split_at_checked(1)? {
        ("+", rest) => (1, rest),
        ("-", rest) => (-1, rest),
        _ => return None,
    };
    let score = match rest.strip_prefix('M') {
        Some(n) => format!("mate {}", sign * n.parse::<i64>().ok()?),
        None => format!("cp {}", (sign as f64 * rest.parse::<f64>().ok()? * 100.0).round() as i64),
    };
    Some((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review_marks::samples::{at, line, proven};

    #[test]
    fn a_review_travels_through_its_comments() {
        let review = Review {
            effort: Some(Effort::Nodes(5000)),
            solve_ms: 300,
            start: None,
            line: line(3),
            evals: vec![
                Some(PlyEval { best: Some("a1".into()), ..at(0, "cp 35").expect("a value") }),
                at(1, "mate -3"),
                None,
                proven(1, Proven::Win),
            ],
            running: false,
            cancelled: false,
            error: None,
            serial: 4,
        };
        let mut comments: Vec<(usize, String)> = Vec::new();
        for ply in 0..3 {
            let (score, depth) = played_score(&review, ply);
            let played =
                PlayedMove { seat: 0, text: "x".into(), millis: 0, score, depth, stats: Default::default() };
            if let Some(c) = move_comment(&played) {
                comments.push((ply + 1, c));
            }
        }
        comments.push((3, game_comment(&review)));
        assert_eq!(comments[0].1, "+0.35/5 0s");
        assert_eq!(comments[2].1, "review nodes=5000 solve=300; proven ---W; last -; best a1 - - -");
        let back = review_from_comments(&comments, None, line(3), &[0, 1, 0, 1]).expect("a review");
        assert_eq!(back.evals, review.evals);
        assert_eq!((back.effort, back.solve_ms), (review.effort, 300));
        assert_eq!(read_score("-1.25/9 0.3s, n=5"), Some(("cp -125".into(), Some(9))));
        assert_eq!(read_score("+M7 1s"), Some(("mate 7".into(), None)));
        assert_eq!(read_score("book"), None);
    }
}
