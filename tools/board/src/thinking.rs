//! What an engine says while it thinks: its `info` lines read into
//! [`Thinking`] (depth, score, nodes, principal variation), and the score
//! turned round to P1's point of view for the page's evaluation bar
//! ([`Eval`]).

/// What an engine said while thinking (its last `info` line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thinking {
    pub seat: usize,
    pub depth: Option<u32>,
    pub score: Option<String>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

/// An engine's last score from P1's point of view (two-player games).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// Centipawns: 100 is about one step of shortest-path advantage.
    Cp(i64),
    /// A forced win for P1 in N moves (negative: a forced loss).
    Mate(i64),
}

/// Depth, score, nodes and principal variation from an `info` line; `None`
/// for lines that carry none of them (`info string ...`).
pub fn read_info(line: &str, seat: usize) -> Option<Thinking> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|&w| w == key).map(|i| i + 1);
    // `currmove` lines name the move in hand, not a line of play.
    if words.get(1) == Some(&"string") || after("depth").is_none() || after("currmove").is_some() {
        return None;
    }
    let number = |key: &str| after(key).and_then(|i| words.get(i)?.parse::<u64>().ok());
    Some(Thinking {
        seat,
        depth: number("depth").and_then(|d| u32::try_from(d).ok()),
        score: after("score").and_then(|i| Some(format!("{} {}", words.get(i)?, words.get(i + 1)?))),
        nodes: number("nodes"),
        pv: after("pv").map_or(Vec::new(), |i| words[i..].iter().map(|w| w.to_string()).collect()),
    })
}

impl Thinking {
    /// The score from P1's point of view: the engine scores for the seat it
    /// plays (the side to move). `None` without a score, or with more than
    /// two players, where one number cannot say who is ahead.
    pub fn eval(&self, players: usize) -> Option<Eval> {
        if players != 2 {
            return None;
        }
        let mut words = self.score.as_deref()?.split_whitespace();
        let kind = words.next()?;
        let value: i64 = words.next()?.parse().ok()?;
        let value = if self.seat == 0 { value } else { value.checked_neg()? };
        match kind {
            "cp" => Some(Eval::Cp(value)),
            "mate" => Some(Eval::Mate(value)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read() {
        let t = read_info("info depth 7 seldepth 9 score cp -31 nodes 1234 nps 5 time 3 pv e2 e8 d3h", 1)
            .expect("a search line");
        assert_eq!((t.seat, t.depth, t.nodes), (1, Some(7), Some(1234)));
        assert_eq!(t.score.as_deref(), Some("cp -31"));
        assert_eq!(t.pv, ["e2", "e8", "d3h"]);
        assert!(read_info("info string depth of nothing", 0).is_none());
        assert!(read_info("info nodes 5", 0).is_none());
        assert!(read_info("info depth 9 currmove e2 currmovenumber 1", 0).is_none());
    }

    #[test]
    fn scores_are_seen_from_p1() {
        let said = |line: &str, seat: usize| read_info(line, seat).and_then(|t| t.eval(2));
        assert_eq!(said("info depth 3 score cp 40 pv e2", 0), Some(Eval::Cp(40)));
        assert_eq!(said("info depth 3 score cp 40 pv e8", 1), Some(Eval::Cp(-40)), "P2 ahead");
        assert_eq!(said("info depth 3 score cp -25 lowerbound pv e8", 1), Some(Eval::Cp(25)));
        assert_eq!(said("info depth 9 score mate 3 pv e8", 1), Some(Eval::Mate(-3)), "P2 mates");
        assert_eq!(said("info depth 9 score mate -2 pv e2", 0), Some(Eval::Mate(-2)));
        assert_eq!(said("info depth 0 nodes 0 pv e2", 0), None, "no score");
        assert_eq!(said("info depth 3 score cp x pv e2", 0), None);
        let four = read_info("info depth 3 score cp 40 pv e2", 0).expect("a line");
        assert_eq!(four.eval(4), None);
    }
}
