//! How fast the winner wins: the exact distance, once the winner is known.
//! "Can X force a win within `n` plies?" is a question about a finite game
//! (every line of it ends after `n` plies), so a depth-first search answers
//! it exactly whatever the path, cycles included: a position that repeats
//! has only fewer plies left. The answers go into the table as bounds on
//! the position's distance (won within `n`: at most `n`; not within `n`:
//! more than `n`), which hold for every path. Asking for 1, 3, 5, ...
//! plies (or 2, 4, ... when X moves second) from the start, the first yes
//! is the exact distance: the winner's quickest win against the longest
//! defence, as the retrograde methods count it.
//!
//! What the win search proved prunes it: a position where X cannot win at
//! all is not won within any number of plies, and is an escape for the
//! other player wherever it is a move away; children are looked up before
//! any is searched. X's pawn cannot reach its goal in fewer moves than its
//! shortest path less the jumps it can make (a jump covers two squares and
//! needs the pawns side by side); a move after which X cannot arrive in
//! time is decided from the parent's layout, before the table is asked.

use super::rules::Pos;
use super::table::{Verdict, MAX_PLIES};
use super::ProofSearch;
use crate::solve::SolveError;

impl ProofSearch<'_> {
    /// The exact number of plies in which `x`, known to win from `start`,
    /// wins with best play on both sides.
    pub(super) fn distance(&mut self, start: &Pos, x: usize) -> Result<u32, SolveError> {
        let mut plies = if start.side as usize == x { 1 } else { 2 };
        loop {
            // Every quicker win was refuted: progress reports say so.
            if let Some((_, fewest)) = self.winner.as_mut() {
                *fewest = plies;
            }
            if self.within(start, x, plies)? {
                return Ok(plies);
            }
            plies += 2;
            if plies > MAX_PLIES {
                return Err(SolveError::Distance(MAX_PLIES));
            }
        }
    }

    /// Whether `x` can force a win within `plies` plies from `pos`.
    pub(super) fn within(&mut self, pos: &Pos, x: usize, plies: u32) -> Result<bool, SolveError> {
        let mover = pos.side as usize;
        if self.shape.on_goal(1 - mover, pos.pawns[1 - mover]) {
            // The game is over: the player who just moved won.
            return Ok(x != mover);
        }
        if plies == 0 || (mover != x && plies == 1) {
            return Ok(false);
        }
        let layout = self.layouts.get(&self.shape, pos.walls);
        if self.shape.wins_at_once(pos, &layout) {
            return Ok(mover == x);
        }
        if self.shape.least_plies_to_win(pos, &layout, x) > plies {
            return Ok(false);
        }
        let key = self.shape.key(pos, layout.mirrored);
        let known = self.table.get(key);
        if known.verdicts[x] == Verdict::Fails || plies < known.lower[x] {
            return Ok(false);
        }
        if known.upper[x] <= plies {
            return Ok(true);
        }
        let nodes_before = self.count_node()?;
        let mut moves = std::mem::take(&mut self.move_buffer);
        self.shape.ordered_moves(pos, &layout, &mut moves);
        let x_to_move = mover == x;
        let mut children = self.children_buffers.pop().unwrap_or_default();
        children.clear();
        // The bound, read from this layout, decides some children before
        // the table is asked: X's moves after which it cannot arrive in
        // time are skipped, and one such move of the other player is an
        // escape. Every other child's bucket is fetched before any is read.
        let mut decided = None;
        for &mv in &moves {
            let bound = self.shape.least_plies_after(pos, &layout, mv, x);
            if bound > plies - 1 {
                if x_to_move {
                    continue;
                }
                decided = Some(false);
                break;
            }
            let (pos, mirrored) = self.shape.play(pos, &layout, mv);
            let key = self.shape.key(&pos, mirrored);
            self.table.prefetch(key);
            children.push(Child { pos, key, bound });
        }
        self.move_buffer = moves;
        // What the table knows of the children decides some nodes at once
        // (a child won soon enough for X, an escape for the other player).
        // X tries the rest by the bound, fewest plies first (its pawn's
        // progress before walls; the table's verdicts from the win search
        // ordered worse, as did any order for the other player but the
        // generated one: 4x7 with 3 walls, 6.6 million nodes against 10.4).
        if decided.is_none() {
            let mut open = 0;
            for i in 0..children.len() {
                let known = self.table.get(children[i].key);
                let cannot = known.verdicts[x] == Verdict::Fails || plies - 1 < known.lower[x];
                let can = known.upper[x] < plies;
                match (x_to_move, can, cannot) {
                    (true, true, _) | (false, _, true) => {
                        decided = Some(x_to_move);
                        break;
                    }
                    (true, _, true) | (false, true, _) => continue,
                    _ => {
                        children[open] = children[i];
                        open += 1;
                    }
                }
            }
            children.truncate(open);
        }
        let won = match decided {
            Some(won) => won,
            None => {
                if x_to_move {
                    children.sort_by_key(|child| child.bound);
                }
                let mut won = !x_to_move;
                for child in &children {
                    if self.within(&child.pos, x, plies - 1)? == x_to_move {
                        won = x_to_move;
                        break;
                    }
                }
                won
            }
        };
        self.children_buffers.push(children);
        let work = self.nodes - nodes_before;
        if won {
            self.table.set_bounds(key, x, 0, Some(plies), work);
        } else {
            self.table.set_bounds(key, x, plies + 1, None, work);
        }
        Ok(won)
    }
}

/// A position a move leads to, with its key and X's least plies to win
/// from it.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pos: Pos,
    key: u128,
    bound: u32,
}
