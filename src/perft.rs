//! Move-path enumeration (perft) for any game, with bulk counting at the last
//! ply. Perft ignores repetition, as chess perft does.

use crate::game::{Game, MoveList};

/// The number of move sequences of length `depth`.
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_moves();
    }
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.make_move(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft that gives up (returning `None`) once `stopped` says so; it asks
/// at every node above the last ply.
pub fn perft_until<G: Game>(position: &G, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(position, depth));
    }
    if stopped() {
        return None;
    }
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.make_move(mv);
        total += perft_until(&child, depth - 1, stopped)?;
    }
    Some(total)
}

/// Perft split by root move: each legal move with the count below it.
pub fn perft_divide<G: Game>(position: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.make_move(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
