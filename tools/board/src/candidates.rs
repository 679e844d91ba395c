//! What analysis mode shows, read from its engine: the request (lines and
//! ply), each candidate move (`info ... multipv K score ... pv ...`), and a
//! small Quarto position's value from `go solve`, kept with the table and
//! drawn by the page; and that `go solve` within a time cap, which the
//! review asks too.

use arena::engine::{EngineError, EngineProcess};
use std::time::{Duration, Instant};

/// How long a stopped search may take to answer `bestmove`.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// What to analyse: the position after the first `ply` moves of the game
/// (`None`: the latest, following the game as it goes on), with `lines`
/// candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub lines: usize,
    pub ply: Option<usize>,
}

/// One candidate move: its rank (1 the best), the depth it was searched
/// to, its score as the engine gives it (`cp 31`, `mate 3`), and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub rank: usize,
    pub depth: u32,
    pub score: Option<String>,
    pub pv: Vec<String>,
}

/// Analysis as it stands: what was asked, the position it stands for, and
/// what the engine found so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub request: Request,
    /// The ply analysed and its `position ...` command.
    pub ply: usize,
    pub command: String,
    /// Counts the positions and line counts asked for, so that lines of an
    /// older one are not shown.
    pub serial: u64,
    pub candidates: Vec<Candidate>,
    /// The solver's value of a small Quarto position: who wins (`first`,
    /// the player to move; `second`; `draw`), in how many plies, and the
    /// first move of its line.
    pub proven: Option<ProvenValue>,
}

/// `go solve`'s answer for the position analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenValue {
    pub winner: String,
    pub plies: Option<u32>,
    pub best: Option<String>,
}

/// `go solve` within `cap` (then stopped): the value found, if any.
pub fn solve_within(engine: &mut EngineProcess, cap: Duration) -> Result<Option<ProvenValue>, EngineError> {
    engine.send("go solve")?;
    let cap = Instant::now() + cap;
    let mut found = None;
    let mut stopped = false;
    loop {
        let deadline = if stopped { Instant::now() + STOP_GRACE } else { cap };
        match engine.read_line(deadline, "bestmove") {
            Ok(line) if line.starts_with("bestmove") => return Ok(found),
            Ok(line) => found = read_solve_result(&line).or(found),
            Err(EngineError::Timeout(_)) if !stopped => {
                engine.send("stop")?;
                stopped = true;
            }
            Err(e) => return Err(e),
        }
    }
}

/// `info string solve result: first plies=7 positions=P time T pv c1b ...`.
pub fn read_solve_result(line: &str) -> Option<ProvenValue> {
    let rest = line.strip_prefix("info string solve result: ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let winner = (*words.first()?).to_string();
    let plies = words.iter().find_map(|w| w.strip_prefix("plies=")?.parse().ok());
    let best = words.iter().position(|&w| w == "pv").and_then(|i| words.get(i + 1)).map(|m| m.to_string());
    Some(ProvenValue { winner, plies, best })
}

/// Puts `candidate` in its rank's slot of `found` and returns whether it
/// fitted. A move shown at another rank is taken off there: the lines of
/// a deeper iteration arrive one rank at a time, and until the others
/// come, the old lines may still hold the move that has just risen.
pub fn place(found: &mut [Option<Candidate>], candidate: Candidate) -> bool {
    let Some(index) = candidate.rank.checked_sub(1).filter(|&i| i < found.len()) else {
        return false;
    };
    let first = candidate.pv.first();
    for slot in found.iter_mut() {
        if slot.as_ref().is_some_and(|c| c.pv.first() == first) {
            *slot = None;
        }
    }
    found[index] = Some(candidate);
    true
}

/// A line of `MultiPV` analysis (`info depth D ... multipv K score ... pv
/// ...`); `None` for other lines.
pub fn read_candidate(line: &str) -> Option<Candidate> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|&w| w == key).map(|i| i + 1);
    if words.first() != Some(&"info") || after("currmove").is_some() || after("string").is_some() {
        return None;
    }
    let depth = words.get(after("depth")?)?.parse().ok()?;
    let rank = after("multipv").and_then(|i| words.get(i)?.parse().ok()).unwrap_or(1);
    let pv: Vec<String> = words[after("pv")?..].iter().map(|w| w.to_string()).collect();
    if rank == 0 || pv.is_empty() {
        return None;
    }
    let score = after("score").and_then(|i| {
        let (kind, value) = (words.get(i)?, words.get(i + 1)?);
        let bound = words.get(i + 2).filter(|w| matches!(**w, "lowerbound" | "upperbound"));
        Some(match bound {
            Some(bound) => format!("{kind} {value} {bound}"),
            None => format!("{kind} {value}"),
        })
    });
    Some(Candidate { rank, depth, score, pv })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_changes_rank_is_shown_once() {
        let line = |text: &str| read_candidate(text).expect("a candidate");
        let mut found = vec![None; 3];
        assert!(place(&mut found, line("info depth 9 multipv 1 score cp 20 pv c6h e7")));
        assert!(place(&mut found, line("info depth 9 multipv 2 score cp 10 pv c7h e7")));
        assert!(place(&mut found, line("info depth 9 multipv 3 score cp 5 pv e4")));
        // Depth 10's best is depth 9's second: shown once, at rank 1.
        assert!(place(&mut found, line("info depth 10 multipv 1 score cp 15 pv c7h e7")));
        let moves: Vec<Option<&str>> = found.iter().map(|c| c.as_ref().map(|c| c.pv[0].as_str())).collect();
        assert_eq!(moves, [Some("c7h"), None, Some("e4")]);
        assert!(!place(&mut found, line("info depth 10 multipv 4 score cp 1 pv e2")));
    }

    #[test]
    fn multipv_lines_are_read_as_candidates() {
        let c = read_candidate("info depth 9 seldepth 12 multipv 2 score cp -31 nodes 5 pv e2 e8 d3h")
            .expect("a candidate");
        assert_eq!((c.rank, c.depth, c.score.as_deref()), (2, 9, Some("cp -31")));
        assert_eq!(c.pv, ["e2", "e8", "d3h"]);
        let single =
            read_candidate("info depth 4 score mate 3 lowerbound pv e2").expect("no multipv: rank 1");
        assert_eq!((single.rank, single.score.as_deref()), (1, Some("mate 3 lowerbound")));
        for other in [
            "info string proven draw",
            "info depth 9 currmove e2 currmovenumber 1",
            "info depth 9 multipv 0 score cp 1 pv e2",
            "info depth 9 score cp 1",
            "bestmove e2",
        ] {
            assert_eq!(read_candidate(other), None, "{other}");
        }
    }

    #[test]
    fn solve_results_are_read_with_their_best_move() {
        let v =
            read_solve_result("info string solve result: first plies=7 positions=120 time 3 pv c1b a2 b3")
                .expect("a result");
        assert_eq!(v, ProvenValue { winner: "first".into(), plies: Some(7), best: Some("c1b".into()) });
        let draw =
            read_solve_result("info string solve result: draw positions=5 time 1 pv a1").expect("a draw");
        assert_eq!((draw.winner.as_str(), draw.plies), ("draw", None));
        assert_eq!(read_solve_result("info string solve: stopped before the end; no result"), None);
    }
}
