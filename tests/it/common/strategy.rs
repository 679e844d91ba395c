//! Replaying solved values through the library's rules: a claimed win is
//! checked against every defence, a solution's line played to its end.

use std::collections::HashSet;
use tabula::game::prelude::*;
use tabula::game::Outcome;
use tabula::games::quoridor::Quoridor;
use tabula::solve::{Solution, Value};

/// The positions after each legal move.
pub fn children<G: Game>(position: &G) -> Vec<G> {
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.make_move(mv);
            child
        })
        .collect()
}

/// Checks the win `value_of` claims at `start` against every defence,
/// through the rules: the winner plays a move the values say wins in one
/// ply fewer; every move of the loser must lead to a win for the winner in
/// fewer plies. `whole_tree` walks every defence to the end, otherwise only
/// the line of best play is followed (each alternative still checked). A
/// position on the way without a value (the solver failed) is a problem.
pub fn check_win(
    start: &Quoridor,
    value_of: &mut dyn FnMut(&Quoridor) -> Option<Value>,
    whole_tree: bool,
    seen: &mut HashSet<u128>,
) -> Option<String> {
    let mut pending = vec![start.clone()];
    while let Some(position) = pending.pop() {
        let key = position.exact_key().expect("small boards pack");
        if !seen.insert(key) {
            continue;
        }
        let Some(value) = value_of(&position) else {
            return Some(format!("{} has no value", position.to_text()));
        };
        match (value, position.outcome()) {
            (Value::Loss(0), Some(Outcome::Win(w))) if w != position.side_to_move() => continue,
            (_, Some(_)) | (Value::Loss(0) | Value::Win(0), None) => {
                return Some(format!("{} ends wrongly as {value:?}", position.to_text()))
            }
            (Value::Draw, None) => return Some(format!("{} is a draw in a win", position.to_text())),
            (Value::Win(d), None) => {
                let winning =
                    children(&position).into_iter().find(|c| value_of(c) == Some(Value::Loss(d - 1)));
                let Some(next) = winning else {
                    return Some(format!("{}: no move keeps the win in {d}", position.to_text()));
                };
                pending.push(next);
            }
            (Value::Loss(d), None) => {
                let mut slowest = None;
                for child in children(&position) {
                    match value_of(&child) {
                        Some(Value::Win(e)) if e < d => {
                            if slowest.as_ref().is_none_or(|(best, _)| e > *best) {
                                slowest = Some((e, child.clone()));
                            }
                            if whole_tree {
                                pending.push(child);
                            }
                        }
                        other => {
                            return Some(format!(
                                "{}: a defence escapes to {other:?} from a loss in {d}",
                                position.to_text()
                            ))
                        }
                    }
                }
                if let (false, Some((_, child))) = (whole_tree, slowest) {
                    pending.push(child);
                }
            }
        }
    }
    None
}

/// Plays a solution's line from `start`: a win ends the game after as many
/// plies as claimed, with the right winner.
pub fn replay_line(start: &Quoridor, solution: &Solution) -> Quoridor {
    let mut position = start.clone();
    for text in &solution.line {
        let mv = position.parse_move(text).expect("the line is legal");
        position.make_move(mv);
    }
    let mover = start.side_to_move();
    let expected = match solution.value {
        Value::Win(plies) => Some((Outcome::Win(mover), plies)),
        Value::Loss(plies) => Some((Outcome::Win(1 - mover), plies)),
        Value::Draw => None,
    };
    if let Some((outcome, plies)) = expected {
        assert_eq!(position.outcome(), Some(outcome), "{}", start.to_text());
        assert_eq!(solution.line.len(), plies as usize, "{}", start.to_text());
    }
    position
}
