//! The proof search (`method=proof`) checked against the layered solver
//! and against the rules.
//!
//! - Every board of area 20 or less (2x3 to 2x10, 3x3 to 3x6, 4x3 to 4x5,
//!   5x3, 5x4, 6x3) with 0 to 10 walls: the same value and distance from
//!   the start as the layered solver gave (`tests/data/quoridor.solved`,
//!   written by `tools/layered_values.sh`), and a line that ends the game
//!   as claimed; the boards of area 16 to 20 with 0 to 2 walls also against
//!   a layered solve made in the test.
//! - Random positions reached by random moves on small boards, draws and
//!   both kinds of win among them: the same values and distances as the
//!   layered solver's table, from one search that keeps its table from one
//!   position to the next (so a result kept from one path is reused on
//!   another).
//! - Every proved win replayed through the engine's rules with each of the
//!   loser's moves tried at every step (the whole strategy tree on boards
//!   of area 12 and less).
//! - The published draw (8x3 with 3 walls, "Solving Quoridor", G.
//!   Slatton): a draw, and every position of its drawing line a draw too.

use crate::common::strategy::{check_win, children, replay_line};
use std::collections::HashSet;
use tabula::game::prelude::*;
use tabula::games::quoridor::{Quoridor, Variant};
use tabula::games::AnyPosition;
use tabula::rng::Rng;
use tabula::solve::layers::solve_layers;
use tabula::solve::proof::ProofSearch;
use tabula::solve::split::parse_leaf_line;
use tabula::solve::{solve_position, Method, Solution, SolveLimits, Value};

fn limits() -> SolveLimits<'static> {
    SolveLimits { max_bytes: 1 << 30, stop: None, threads: 1 }
}

fn quoridor(width: usize, height: usize, walls: usize) -> Quoridor {
    Quoridor::new(&Variant { width, height, walls, ..Variant::default() }).expect("a variant")
}

fn proved(start: &Quoridor) -> Solution {
    let any = AnyPosition::Quoridor(start.clone());
    solve_position(&any, Some(Method::Proof), &limits(), &mut |_| {}).expect("small enough")
}

#[test]
fn proof_agrees_with_layers_on_boards_of_area_16_to_20() {
    // Smaller boards: in `solve_crosscheck`, beside the graph and the layers.
    for walls in 0..=2 {
        for (width, height) in [(4, 4), (2, 8), (3, 6), (6, 3), (2, 10), (4, 5), (5, 4)] {
            let start = quoridor(width, height, walls);
            let tables = solve_layers(&start, &limits(), &mut |_| {}).expect("small");
            let solution = proved(&start);
            assert_eq!(Some(solution.value), tables.value(&start), "{width}x{height} walls={walls}");
            replay_line(&start, &solution);
        }
    }
}

/// The layered solver's values of every board of area 20 or less with 0
/// to 10 walls: `tests/data/quoridor.solved` (`tools/layered_values.sh`
/// writes it), a leaves file read as `split=P leaves=FILE` reads one.
fn layered_values() -> Vec<(Quoridor, Value)> {
    let text = include_str!("../data/quoridor.solved");
    let lines = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .map(|line| {
            let (value, text) = parse_leaf_line(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            (Quoridor::from_text(text).unwrap_or_else(|e| panic!("{e}: {line}")), value)
        })
        .collect()
}

#[test]
fn proof_agrees_with_the_layered_values_of_every_cell_up_to_area_20() {
    let cells = layered_values();
    // 2x3 to 2x10, 3x3 to 3x6, 4x3 to 4x5, 5x3, 5x4, 6x3: 18 boards.
    assert_eq!(cells.len(), 18 * 11, "every board of area 20 or less, 0 to 10 walls");
    for (start, value) in cells {
        let solution = proved(&start);
        assert_eq!(solution.value, value, "{}", start.to_text());
        replay_line(&start, &solution);
    }
}

#[test]
fn proof_agrees_with_layers_on_random_positions() {
    let mut rng = Rng::new(29);
    // Positions checked: wins and losses for the player to move.
    let mut checked = [0; 2];
    for (width, height, walls) in
        [(3, 4, 2), (3, 5, 3), (4, 3, 3), (4, 4, 2), (5, 3, 4), (2, 5, 3), (3, 3, 3), (2, 6, 4)]
    {
        let start = quoridor(width, height, walls);
        let tables = solve_layers(&start, &limits(), &mut |_| {}).expect("small");
        let limits = limits();
        let mut quiet = |_| {};
        let mut search = ProofSearch::new(&start, &limits, &mut quiet).expect("the proof search applies");
        for _ in 0..8 {
            let mut position = start.clone();
            let mut moves = MoveList::default();
            while position.outcome().is_none() {
                if rng.below(3) == 0 {
                    let expected = tables.value(&position).expect("reachable positions are valued");
                    assert_eq!(search.value(&position), Ok(expected), "{}", position.to_text());
                    checked[matches!(expected, Value::Loss(_)) as usize] += 1;
                }
                position.generate_moves(&mut moves);
                position.make_move(*rng.pick(moves.as_slice()));
            }
        }
    }
    assert!(checked.iter().all(|&n| n >= 50), "wins, losses checked: {checked:?}");
}

/// Calls `visit` on every position reachable from `start`.
fn for_each_reachable(start: &Quoridor, visit: &mut dyn FnMut(&Quoridor)) {
    let mut seen = HashSet::new();
    let mut pending = vec![start.clone()];
    while let Some(position) = pending.pop() {
        if !seen.insert(position.exact_key().expect("small boards pack")) {
            continue;
        }
        visit(&position);
        if position.outcome().is_none() {
            pending.extend(children(&position));
        }
    }
}

#[test]
fn proof_finds_every_draw_of_small_cells_and_what_surrounds_it() {
    // Draws are rare on small boards (none from the start): 32 positions
    // of 3x5 with 2 walls, 28 with 3, all with walls in hand, so the
    // cycles of pawn moves that keep them drawn run through the layer
    // search, not the race solver.
    let mut draws = 0;
    for walls in [2, 3] {
        let start = quoridor(3, 5, walls);
        let tables = solve_layers(&start, &limits(), &mut |_| {}).expect("small");
        let limits = limits();
        let mut quiet = |_| {};
        let mut search = ProofSearch::new(&start, &limits, &mut quiet).expect("the proof search applies");
        for_each_reachable(&start, &mut |position| {
            if tables.value(position) != Some(Value::Draw) {
                return;
            }
            draws += 1;
            assert_eq!(search.value(position), Ok(Value::Draw), "{}", position.to_text());
            for child in children(position) {
                assert_eq!(search.value(&child).ok(), tables.value(&child), "{}", child.to_text());
            }
        });
    }
    assert_eq!(draws, 60);
}

#[test]
fn every_proved_win_holds_against_every_defence() {
    for (width, height, walls) in
        [(3, 3, 2), (3, 4, 3), (2, 5, 3), (4, 3, 3), (2, 6, 2), (3, 5, 3), (5, 3, 4), (4, 4, 2)]
    {
        let start = quoridor(width, height, walls);
        let limits = limits();
        let mut quiet = |_| {};
        let mut search = ProofSearch::new(&start, &limits, &mut quiet).expect("the proof search applies");
        let whole_tree = width * height <= 12;
        let mut value_of = |p: &Quoridor| search.value(p).ok();
        if let Some(problem) = check_win(&start, &mut value_of, whole_tree, &mut HashSet::new()) {
            panic!("{width}x{height} walls={walls}: {problem}");
        }
    }
}

#[test]
fn the_published_draw_is_a_draw_and_its_line_keeps_it() {
    let start = quoridor(8, 3, 3);
    let solution = proved(&start);
    assert_eq!(solution.value, Value::Draw);
    assert_eq!(solution.line.len(), 12, "{:?}", solution.line);
    let limits = limits();
    let mut quiet = |_| {};
    let mut search = ProofSearch::new(&start, &limits, &mut quiet).expect("the proof search applies");
    let mut position = start.clone();
    for text in &solution.line {
        position.make_move(position.parse_move(text).expect("legal"));
        assert_eq!(search.value(&position), Ok(Value::Draw), "after {text}: {}", position.to_text());
    }
}
