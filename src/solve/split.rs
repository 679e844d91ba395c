//! A proof split into independent sub-proofs, and their values combined:
//! the positions a few plies below a start (each symmetry class once, by
//! [`Position::exact_key`]) are solved anywhere, on other machines too
//! (`tools/cluster`), and the start's exact value follows from theirs by
//! minimax over the plies above them. Exact values satisfy the minimax
//! equations whatever the game's cycles, so the combined value is the
//! start's exact value, its distance included.

use super::Value;
use crate::game::prelude::*;
use crate::game::Outcome;
use crate::games::AnyPosition;
use crate::quote::quoted;
use std::collections::HashMap;

/// The largest split depth: the tree above the sub-proofs is walked whole.
pub const MAX_SPLIT_PLIES: u32 = 6;

/// How positions are told apart: the exact (for Quarto, symmetric) key, or
/// the text where the position has none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LeafKey {
    /// [`Position::exact_key`].
    Exact(u128),
    /// The position text, where the position has no exact key.
    Text(String),
}

/// The key of a position.
pub fn leaf_key<G: Notation>(position: &G) -> LeafKey {
    position.exact_key().map_or_else(|| LeafKey::Text(position.to_text()), LeafKey::Exact)
}

/// The value of a finished game for the player to move.
fn ended_value<G: Game>(position: &G) -> Option<Value> {
    match position.outcome()? {
        Outcome::Win(w) if w == position.side_to_move() => Some(Value::Win(0)),
        Outcome::Win(_) => Some(Value::Loss(0)),
        Outcome::Draw => Some(Value::Draw),
    }
}

/// The sub-proofs of `start` at `plies` below it: every unfinished
/// position there, one of each key, in the order first met. A game that
/// ends sooner needs no sub-proof on that branch.
pub fn sub_positions<G: Game + Notation>(start: &G, plies: u32) -> Vec<G> {
    let mut seen = HashMap::new();
    let mut found = Vec::new();
    walk(start, plies, &mut |leaf| {
        if seen.insert(leaf_key(leaf), ()).is_none() {
            found.push(leaf.clone());
        }
    });
    found
}

fn walk<G: Game>(position: &G, plies: u32, leaf: &mut dyn FnMut(&G)) {
    if position.outcome().is_some() {
        return;
    }
    if plies == 0 {
        return leaf(position);
    }
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.make_move(mv);
        walk(&child, plies - 1, leaf);
    }
}

/// A sub-proof the combination needed and was not given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingLeaf(pub String);

/// The value of `start` and a line of best play from it to the sub-proof
/// it reaches, from the values of its sub-proofs at `plies` below it.
pub fn combine<G: Game + Notation>(
    start: &G,
    plies: u32,
    values: &HashMap<LeafKey, Value>,
) -> Result<(Value, Vec<String>), MissingLeaf> {
    if let Some(value) = ended_value(start) {
        return Ok((value, Vec::new()));
    }
    if plies == 0 {
        let value = values.get(&leaf_key(start)).ok_or_else(|| MissingLeaf(start.to_text()))?;
        return Ok((*value, Vec::new()));
    }
    let mut moves = MoveList::default();
    start.generate_moves(&mut moves);
    let mut best: Option<(Value, Vec<String>)> = None;
    for &mv in moves.iter() {
        let mut child = start.clone();
        child.make_move(mv);
        let (value, line) = combine(&child, plies - 1, values)?;
        let value = value.seen_from_parent();
        if best.as_ref().is_none_or(|(b, _)| value.rank() > b.rank()) {
            let mut full = vec![start.format_move(mv)];
            full.extend(line);
            best = Some((value, full));
        }
    }
    // A position without moves is a finished game (handled above).
    Ok(best.unwrap_or((Value::Draw, Vec::new())))
}

/// The sub-proofs of any position, as position texts.
pub fn sub_position_texts(start: &AnyPosition, plies: u32) -> Vec<String> {
    crate::with_game!(start, g => sub_positions(g, plies).iter().map(|p| p.to_text()).collect())
}

/// One line of a leaves file: the words of a `result:` line (`first
/// plies=7`, `second plies=4`, `draw`; more `key=value` words may follow),
/// a tab, and the position text. Returns the value and the text.
pub fn parse_leaf_line(line: &str) -> Result<(Value, &str), String> {
    let (result, text) = line.split_once('\t').ok_or("no tab between the result and the position")?;
    let words: Vec<&str> = result.split_whitespace().skip_while(|w| *w == "result:").collect();
    let plies = || -> Result<u32, String> {
        let n = words.iter().find_map(|w| w.strip_prefix("plies=")).ok_or("a win without plies=N")?;
        n.parse().map_err(|_| format!("plies: '{}' is not a number", quoted(n)))
    };
    let value = match words.first() {
        Some(&"first") => Value::Win(plies()?),
        Some(&"second") => Value::Loss(plies()?),
        Some(&"draw") => Value::Draw,
        other => return Err(format!("'{}' is not first, second or draw", quoted(other.unwrap_or(&"")))),
    };
    Ok((value, text.trim()))
}

/// Combines the values of a leaves file's lines into `start`'s value and
/// line; an error names the line that cannot be used or the sub-proof
/// missing.
pub fn combine_texts(start: &AnyPosition, plies: u32, lines: &str) -> Result<(Value, Vec<String>), String> {
    let mut values = HashMap::new();
    for (number, line) in lines.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let problem = |why: String| format!("line {}: {why}", number + 1);
        let (value, text) = parse_leaf_line(line).map_err(problem)?;
        let leaf = AnyPosition::from_text(text).map_err(problem)?;
        let key = match (start, &leaf) {
            (AnyPosition::Quoridor(_), AnyPosition::Quoridor(q)) => leaf_key(q),
            (AnyPosition::Quarto(_), AnyPosition::Quarto(q)) => leaf_key(q),
            _ => return Err(problem(format!("not a {} position", start.game_name()))),
        };
        values.insert(key, value);
    }
    crate::with_game!(start, g => combine(g, plies, &values))
        .map_err(|missing| format!("no value for the sub-proof '{}'", quoted(&missing.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quarto::{Quarto, Rules};
    use crate::games::quoridor::{Quoridor, Variant};
    use crate::solve::{solve_by_graph, SolveLimits};

    fn exact<G: Game + Notation>(position: &G) -> Value {
        let limits = SolveLimits { max_bytes: 1 << 30, stop: None, threads: 1 };
        solve_by_graph(position, &limits, &mut |_| {}).expect("small").value
    }

    fn split_and_combine<G: Game + Notation>(start: &G, plies: u32) -> (Value, usize) {
        let leaves = sub_positions(start, plies);
        let values: HashMap<LeafKey, Value> = leaves.iter().map(|l| (leaf_key(l), exact(l))).collect();
        (combine(start, plies, &values).expect("every leaf given").0, leaves.len())
    }

    #[test]
    fn combined_values_equal_the_whole_proof() {
        let quoridor = Quoridor::new(&Variant { width: 3, height: 4, walls: 2, ..Variant::default() })
            .expect("a variant");
        let whole = exact(&quoridor);
        for plies in 0..=3 {
            assert_eq!(split_and_combine(&quoridor, plies).0, whole, "quoridor, {plies} plies");
        }
        let quarto = Quarto::new(Rules { side: 3, level: 1 }).expect("3x3 Quarto");
        let whole = exact(&quarto);
        for plies in 1..=3 {
            assert_eq!(split_and_combine(&quarto, plies).0, whole, "quarto, {plies} plies");
        }
    }

    #[test]
    fn symmetric_sub_positions_are_proved_once() {
        let quarto = Quarto::new(Rules { side: 4, level: 1 }).expect("4x4 Quarto");
        // The first player hands over one of 16 pieces: all alike.
        assert_eq!(sub_positions(&quarto, 1).len(), 1);
        let mut moves = MoveList::default();
        quarto.generate_moves(&mut moves);
        assert_eq!(moves.len(), 16);
    }

    #[test]
    fn leaves_files_are_read_and_combined() {
        assert_eq!(
            parse_leaf_line("result: first plies=7 positions=3\tquoridor x"),
            Ok((Value::Win(7), "quoridor x"))
        );
        assert_eq!(parse_leaf_line("second plies=2\tq"), Ok((Value::Loss(2), "q")));
        assert_eq!(parse_leaf_line("draw\tq"), Ok((Value::Draw, "q")));
        assert!(parse_leaf_line("first\tq").is_err() && parse_leaf_line("won\tq").is_err());
        assert!(parse_leaf_line("draw q").is_err());
        let start = AnyPosition::Quoridor(
            Quoridor::new(&Variant { width: 3, height: 4, walls: 1, ..Variant::default() })
                .expect("a variant"),
        );
        let AnyPosition::Quoridor(q) = &start else { unreachable!() };
        let lines: String = sub_positions(q, 2)
            .iter()
            .map(|leaf| format!("result: {}\t{}\n", exact(leaf).result_words(), leaf.to_text()))
            .collect();
        let (value, line) = combine_texts(&start, 2, &lines).expect("every sub-proof");
        assert_eq!(value, exact(q));
        assert_eq!(line.len(), 2);
        let short: String = lines.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(combine_texts(&start, 2, &short).is_err());
        assert!(combine_texts(&start, 2, "draw\tquarto nonsense").is_err());
    }

    #[test]
    fn a_missing_sub_proof_is_named() {
        let quoridor = Quoridor::new(&Variant { width: 3, height: 3, walls: 0, ..Variant::default() })
            .expect("a variant");
        let missing = combine(&quoridor, 1, &HashMap::new()).expect_err("nothing given");
        assert!(missing.0.starts_with("quoridor"), "{missing:?}");
    }
}
