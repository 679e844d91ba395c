//! Root moves held by other threads: put off, never skipped, and the
//! first move never.

use super::*;
use crate::game::Notation;
use crate::games::quoridor::Quoridor;
use crate::search::{Control, SearchSettings, MATE};

/// The root value at `depth` and the best move, with the root moves whose
/// index passes `claimed` held by a (pretend) other thread; also the
/// moves in generation order.
fn root_search(text: &str, depth: u32, claimed: impl Fn(usize) -> bool) -> (i32, String, Vec<String>) {
    root_search_with(text, depth, claimed, false)
}

/// [`root_search`], with every move searched in full when `in_full`: no
/// pruning or reduction, whose bounds depend on the order moves come in.
fn root_search_with(
    text: &str,
    depth: u32,
    claimed: impl Fn(usize) -> bool,
    in_full: bool,
) -> (i32, String, Vec<String>) {
    let mut root = Quoridor::from_text(text).expect("test position");
    let mut moves = MoveList::default();
    root.generate_search_moves(&mut moves, depth);
    let shared = SharedCounters::new(2);
    for (_, &mv) in moves.iter().enumerate().filter(|&(i, _)| claimed(i)) {
        let mut child = root.clone();
        child.make_move(mv);
        shared.root_claims.claim(child.hash());
    }
    let (tt, control) = (TranspositionTable::new(1), Control::new(false));
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let settings = SearchSettings::default();
    let mut searcher = Searcher::new(&root, &[], &limits, &settings, &tt, &control, &shared);
    searcher.exhaustive = in_full;
    let mut root_moves = moves.as_slice().to_vec();
    let (score, best) =
        searcher.search_root(&root, &mut root_moves, depth, 0, -INFINITY, INFINITY, &mut |_| {});
    let names = moves.iter().map(|&mv| root.format_move(mv)).collect();
    (score, root.format_move(best.expect("a best move")), names)
}

#[test]
fn moves_another_thread_holds_are_searched_last_not_skipped() {
    // The only winning move is claimed: it is put off, and still found.
    let text = "quoridor 9x9 pawns=c8,g2 hand=0,3 walls=- turn=1";
    let (score, best, _) = root_search(text, 2, |i| i > 0);
    assert_eq!((score, best.as_str()), (MATE - 1, "c9"));
}

#[test]
fn of_two_equal_moves_the_one_not_held_comes_first() {
    // The pawn ahead blocks the jump: side steps to b9 and d9 both win at
    // once, and the first one searched is kept.
    let text = "quoridor 9x9 pawns=c8,c9 hand=0,3 walls=- turn=1";
    let (score, first, names) = root_search(text, 1, |_| false);
    assert_eq!(score, MATE - 1);
    let held = names.iter().position(|m| *m == first).expect("best is a root move");
    assert!(held > 0, "the test needs the first winner after the first move: {names:?}");
    let (score, best, _) = root_search(text, 1, |i| i == held);
    assert_eq!(score, MATE - 1);
    assert!(best != first && (best == "b9" || best == "d9"), "{first} held, {best} played");
}

#[test]
fn the_first_move_is_never_put_off() {
    // Player 2's pawn meets player 1's on the way to row 1: the side steps
    // to b1 and d1, first in the list, both win at once.
    let text = "quoridor 9x9 pawns=c1,c2 hand=3,0 walls=- turn=2";
    let (score, first, names) = root_search(text, 1, |_| false);
    assert_eq!((score, first.as_str()), (MATE - 1, names[0].as_str()));
    assert!(names[1] == "b1" || names[1] == "d1", "{names:?}");
    assert_eq!(root_search(text, 1, |i| i == 0).1, first);
}

#[test]
fn claims_change_the_order_of_the_root_moves_not_the_value() {
    for text in [
        "quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1",
        "quoridor 9x9 pawns=f4,c6 hand=4,5 walls=b2h,g3v,b4v,c4h,e4h,b5h,d5h,f5h,g5v,h6h,e7h turn=1",
    ] {
        // In full: with pruning, a fail-soft bound may depend on the order.
        let value = |claimed: fn(usize) -> bool| root_search_with(text, 2, claimed, true).0;
        assert_eq!(value(|i| i % 2 == 1), value(|_| false), "{text}");
    }
}
