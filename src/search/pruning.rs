//! Forward pruning and extensions: what the node search decides about a
//! node before it searches its moves. Reverse futility pruning and null
//! moves take a value to hold without searching the moves; the singular
//! test finds a table move that is the only good one, to search it a ply
//! deeper (singular extensions, as the best chess engines have them).

use super::searcher::Searcher;
use super::tt::Bound;
use super::{MATE_BOUND, MAX_PLY, UNPROVEN_BOUND};
use crate::game::{Position, Strategy};

/// Reverse futility pruning (see [`Strategy::futility_margin`]) only this close
/// to the leaves.
const FUTILITY_MAX_DEPTH: u32 = 3;
/// Null-move pruning (see [`Strategy::null_move`]) from this many plies to go,
/// the pass searched [`null_reduction`] plies shallower than a move.
const NULL_MIN_DEPTH: u32 = 3;
const NULL_REDUCTION: u32 = 2;
/// One more ply of null-move reduction for every this many plies to go.
const NULL_REDUCTION_DEPTH_STEP: u32 = 6;
/// Singular extensions from this many plies to go, for a table move whose
/// entry was searched at most [`SINGULAR_ENTRY_SLACK`] plies shallower and
/// holds at least its value (a lower bound or exact) ...
const SINGULAR_MIN_DEPTH: u32 = 6;
const SINGULAR_ENTRY_SLACK: u32 = 3;
/// ... when the other moves, searched half as deep, stay below the table's
/// value by this much per ply to go. Self-play at 150,000 nodes a move
/// against the search without: 226 - 174 over 400 games
/// (docs/strength.md).
const SINGULAR_MARGIN: i32 = 4;

/// What the singular test decides for a node.
pub(super) enum Singular {
    /// Search the table move one ply deeper.
    Extend,
    /// Even without the table move the node beats beta: return this.
    Cut(i32),
}

impl<G: Position + Strategy> Searcher<'_, G> {
    /// Forward pruning of a null-window node away from the root: a value
    /// taken to hold without searching the moves, from the static value
    /// (reverse futility) or a shallower search after a pass (null move).
    /// Such nodes only have to show which side of beta they are on, and a
    /// mistake here costs a re-search higher up.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        exact: bool,
        stand: Option<i32>,
    ) -> Option<i32> {
        let prunable = beta - alpha == 1 && ply > 0 && beta.abs() < MATE_BOUND && !self.best_reply && !exact;
        if !prunable {
            return None;
        }
        // Reverse futility: near the leaves, a static value that beats beta
        // by a margin per ply left is taken to hold there.
        if depth <= FUTILITY_MAX_DEPTH {
            if let Some(margin) = pos.futility_margin() {
                let stand = stand.unwrap_or_else(|| self.evaluate(pos));
                if stand - margin * depth as i32 >= beta {
                    return Some(stand);
                }
            }
        }
        // Null move: when even a pass keeps the side to move above beta in a
        // shallower search, a real move would too.
        if depth < NULL_MIN_DEPTH || self.passed[ply] {
            return None;
        }
        let mut passed = pos.null_move()?;
        if stand.unwrap_or_else(|| self.evaluate(pos)) < beta {
            return None;
        }
        self.passed[ply + 1] = true;
        // A pass is irreversible for repetitions: no position before it may
        // count as repeated after it.
        let floor_after = self.path.len();
        let reduced = (depth - 1).saturating_sub(null_reduction(depth));
        let score = self.child_score(pos, &mut passed, reduced, ply + 1, alpha, beta, floor_after);
        self.passed[ply + 1] = false;
        if self.aborted {
            return Some(0);
        }
        (score >= beta && score < MATE_BOUND).then_some(score)
    }

    /// Singular extensions: when the table says the table move is good
    /// (a lower bound or exact value from a search nearly as deep) and a
    /// shallower search of every other move stays below that value by a
    /// margin, the table move is the only good one and is searched a ply
    /// deeper. When even the other moves beat beta, the node is cut.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: usize,
        beta: i32,
        floor: usize,
        tt_move: Option<u16>,
        tt_entry: Option<(i32, u32, Bound)>,
    ) -> Option<Singular> {
        let (score, entry_depth, bound) = tt_entry?;
        let code = tt_move?;
        if depth < SINGULAR_MIN_DEPTH
            || self.best_reply
            || ply >= 2 * self.root_depth as usize
            || entry_depth + SINGULAR_ENTRY_SLACK < depth
            || bound == Bound::Upper
            || score.abs() >= UNPROVEN_BOUND - MAX_PLY as i32
        {
            return None;
        }
        let singular_beta = score - SINGULAR_MARGIN * depth as i32;
        self.excluded[ply] = Some(code);
        let value = self.node(pos, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, floor);
        self.excluded[ply] = None;
        self.pv[ply].clear();
        if self.aborted {
            return None;
        }
        if value < singular_beta {
            Some(Singular::Extend)
        } else if singular_beta >= beta {
            Some(Singular::Cut(singular_beta))
        } else {
            None
        }
    }
}

/// Plies by which the pass of null-move pruning is searched shallower than
/// a move with `depth` plies to go: more the deeper the node, as in the best
/// chess engines (a pass that holds at a much shallower depth rarely fails
/// at full depth, and the saving grows with depth). Against a fixed two
/// plies, self-play at 50,000 nodes a move scored 216 - 179 - 5 over 400
/// games (docs/strength.md).
fn null_reduction(depth: u32) -> u32 {
    NULL_REDUCTION + depth / NULL_REDUCTION_DEPTH_STEP
}

#[cfg(test)]
mod tests {
    use super::super::alphabeta::INFINITY;
    use super::super::threads::SharedCounters;
    use super::super::tt::TranspositionTable;
    use super::super::{Control, Limits, SearchSettings};
    use super::*;
    use crate::games::quoridor::Quoridor;

    /// Searches `pos` at ply 1 (the singular test never runs at the root)
    /// with `excluded` left out: its best move and value, and whether the
    /// table kept an entry for the node itself.
    fn search_without(pos: &Quoridor, depth: u32, excluded: Option<u16>) -> (u16, i32, bool) {
        let tt = TranspositionTable::new(4);
        let control = Control::new(false);
        let shared = SharedCounters::new(1);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let settings = SearchSettings::default();
        let mut searcher = Searcher::new(pos, &[], &limits, &settings, &tt, &control, &shared);
        searcher.root_depth = depth;
        searcher.excluded[1] = excluded;
        let floor = searcher.path.len();
        let value = searcher.node(&mut pos.clone(), depth, 1, -INFINITY, INFINITY, floor);
        let best = Quoridor::move_code(searcher.pv[1][0]);
        (best, value, tt.probe(pos.table_key(depth)).is_some())
    }

    #[test]
    fn a_search_without_a_move_never_plays_it_nor_stores_its_value() {
        let pos = Quoridor::from_text("quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1").unwrap();
        let (best, value, stored) = search_without(&pos, 6, None);
        assert!(stored, "a full search keeps its value");
        let (other, other_value, stored) = search_without(&pos, 6, Some(best));
        assert_ne!(other, best);
        assert!(other_value <= value + 100, "{other_value} against {value}");
        assert!(!stored, "the value without a move is not the node's");
    }
}
