//! The exact solvers checked against each other and against the rules.
//!
//! - Quoridor, every board up to area 15 (3x3, 3x4, 3x5, 5x3) with 0 to 10
//!   walls each: the graph method (the library's move generator, every
//!   reachable position) and the layered method (its own copy of the
//!   rules) give the same value, distance included; on the smaller cells
//!   they agree on every reachable position, not only the start. The
//!   proof search (`method=proof`) gives the same value and distance from
//!   the start, and its line ends the game as it claims.
//! - Even widths the same way (2x3 to 2x6, 4x3, 4x4), the pawns starting
//!   on the column just left of the centre; the cells of the published
//!   table among them (2x3, 4x3, 2x5: "Solving Quoridor", G. Slatton)
//!   come out as published.
//! - Every proved win is replayed through the library's rules: the
//!   winner's moves come from the table, and at every step *each* of the
//!   loser's moves is tried; all must still lose, sooner. On the smallest
//!   boards the whole strategy tree is walked to the ends of the game.
//! - Quarto: alpha-beta and the graph agree on 3x3 openings and on 4x4
//!   positions of every rule level with ten pieces placed.

use crate::common::strategy::{check_win, children, replay_line};
use std::collections::HashSet;
use tabula::game::prelude::*;
use tabula::games::quarto::{Quarto, Rules};
use tabula::games::quoridor::{Quoridor, Variant};
use tabula::games::AnyPosition;
use tabula::rng::Rng;
use tabula::solve::graph::solve_graph;
use tabula::solve::layers::solve_layers;
use tabula::solve::{solve_position, Method, SolveLimits, Value};

fn limits() -> SolveLimits<'static> {
    SolveLimits { max_bytes: 4 << 30, stop: None, threads: 1 }
}

fn quoridor(width: usize, height: usize, walls: usize) -> Quoridor {
    Quoridor::new(&Variant { width, height, walls, ..Variant::default() }).expect("a variant")
}

/// Both methods on one cell; the start values must agree, and with
/// `every_position` so must the values of every reachable position.
fn cross_check(width: usize, height: usize, walls: usize, every_position: bool) -> Value {
    let start = quoridor(width, height, walls);
    let graph = solve_graph(&start, &limits(), &mut |_| {}).expect("small");
    let tables = solve_layers(&start, &limits(), &mut |_| {}).expect("small");
    let cell = format!("{width}x{height} walls={walls}");
    let value = tables.value(&start).expect("the start is valued");
    assert_eq!(graph.value(&start), Some(value), "{cell}: the methods disagree at the start");
    let any = AnyPosition::Quoridor(start.clone());
    let proved = solve_position(&any, Some(Method::Proof), &limits(), &mut |_| {}).expect("small");
    assert_eq!(proved.value, value, "{cell}: the proof search disagrees");
    replay_line(&start, &proved);
    if every_position {
        let mut seen = HashSet::new();
        let mut pending = vec![start.clone()];
        while let Some(p) = pending.pop() {
            if !seen.insert(p.exact_key().expect("packs")) {
                continue;
            }
            assert_eq!(graph.value(&p), tables.value(&p), "{cell}: {}", p.to_text());
            if p.outcome().is_none() {
                pending.extend(children(&p));
            }
        }
    }
    if value != Value::Draw {
        // A win for either side: its strategy against every defence.
        let whole_tree = width * height <= 12;
        if let Some(problem) = check_win(&start, &mut |p| tables.value(p), whole_tree, &mut HashSet::new()) {
            panic!("{cell}: {problem}");
        }
    }
    value
}

#[test]
fn quoridor_3x3_and_3x4_agree_everywhere_and_every_win_is_proved_to_the_end() {
    for walls in 0..=10 {
        assert!(matches!(cross_check(3, 3, walls, true), Value::Loss(_)), "3x3 is a second-player win");
        assert!(matches!(cross_check(3, 4, walls, true), Value::Win(_)), "3x4 is a first-player win");
    }
}

#[test]
fn quoridor_3x5_agrees_on_every_cell() {
    for walls in 0..=10 {
        cross_check(3, 5, walls, walls <= 2);
    }
}

#[test]
fn quoridor_5x3_agrees_on_every_cell() {
    for walls in 0..=10 {
        cross_check(5, 3, walls, walls <= 2);
    }
}

/// Who wins the start: 1 the player who moves first, 2 the other, 0 nobody.
fn winner(value: Value) -> u8 {
    match value {
        Value::Win(_) => 1,
        Value::Loss(_) => 2,
        Value::Draw => 0,
    }
}

#[test]
fn quoridor_two_columns_agree_on_every_cell() {
    // The published rows for 2x3 and 2x5, walls 0 to 10.
    let published_2x3 = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let published_2x5 = [2; 11];
    for walls in 0..=10 {
        assert_eq!(winner(cross_check(2, 3, walls, true)), published_2x3[walls], "2x3 walls={walls}");
        cross_check(2, 4, walls, true);
        assert_eq!(winner(cross_check(2, 5, walls, walls <= 4)), published_2x5[walls], "2x5 walls={walls}");
        cross_check(2, 6, walls, walls <= 2);
    }
}

#[test]
fn quoridor_4x3_and_4x4_agree() {
    let published_4x3 = [2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1];
    for (walls, published) in published_4x3.into_iter().enumerate() {
        assert_eq!(winner(cross_check(4, 3, walls, walls <= 2)), published, "4x3 walls={walls}");
    }
    for walls in 0..=2 {
        cross_check(4, 4, walls, walls <= 1);
    }
}

#[test]
fn quarto_alphabeta_and_graph_agree() {
    let mut rng = Rng::new(17);
    let mut checked = 0;
    for (side, level, placed) in
        [(3, 1, 1), (3, 1, 2), (3, 1, 3), (4, 1, 10), (4, 2, 10), (4, 3, 10), (4, 4, 10)]
    {
        for _ in 0..4 {
            let Some(position) = random_quarto(Rules { side, level }, placed, &mut rng) else { continue };
            let any = AnyPosition::Quarto(position.clone());
            let by_graph = solve_position(&any, Some(Method::Graph), &limits(), &mut |_| {}).expect("small");
            let by_search =
                solve_position(&any, Some(Method::AlphaBeta), &limits(), &mut |_| {}).expect("small");
            assert_eq!(by_graph.value, by_search.value, "{}", position.to_text());
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} positions");
}

/// A random Quarto position with `placed` pieces on the board and the game
/// still on, if the dice find one.
fn random_quarto(rules: Rules, placed: usize, rng: &mut Rng) -> Option<Quarto> {
    'attempt: for _ in 0..50 {
        let mut position = Quarto::new(rules).expect("rules");
        // The first move only gives a piece; each later one places one.
        for _ in 0..=placed {
            let mut moves = MoveList::default();
            position.generate_moves(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                continue 'attempt;
            }
            let mv = *rng.pick(moves.as_slice());
            position.make_move(mv);
        }
        if position.outcome().is_none() && position.pieces_that_win_now() >> position.hand()? & 1 == 0 {
            return Some(position);
        }
    }
    None
}
