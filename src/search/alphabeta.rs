//! The node search: negamax principal variation search over any game's
//! [`Position`] and [`Strategy`].
//!
//! With more than two players the root player plays against a coalition of
//! all the others: either each of them in turn (paranoid), or only the one
//! whose reply hurts the root player most, the others passing (best-reply
//! search, Schadd and Winands 2011). Scores are kept from the point of view
//! of the side to move's team, so a move to a team-mate keeps the window and
//! the sign, and a move to the other team negates both, as in negamax.

use super::ordering::TRIED_KEPT;
use super::pruning::Singular;
use super::searcher::{score_from_tt, score_to_tt, Searcher};
use super::tt::Bound;
use super::{MATE, MATE_BOUND, MAX_PLY, UNPROVEN_BOUND};
use crate::game::{MoveList, Outcome, Position, Solved, Strategy};
use std::sync::OnceLock;

pub(super) const INFINITY: i32 = MATE + 1;
/// Half-width of the first window of an iteration: half a step in Quoridor;
/// any window around 0 separates Quarto's wins, draws and losses.
pub(super) const ASPIRATION_WINDOW: i32 = 50;
/// Iterations never go deeper than this.
pub(super) const MAX_DEPTH: u32 = 64;
/// Late-move reductions: from this many plies to go, moves after the first
/// few that no table entry or killer vouches for are first searched
/// shallower, by more the later the move and the deeper the search (see
/// [`lmr_table`]).
const LMR_MIN_DEPTH: u32 = 3;
const LMR_AFTER_MOVES: usize = 3;
/// The reduction of the move at index i with d plies to go is
/// `LMR_BASE + ln(d) ln(i) / LMR_DIVISOR` plies, rounded down.
const LMR_BASE: f64 = 0.5;
const LMR_DIVISOR: f64 = 2.5;
/// Ordering keys at or above this are the table move and killers.
const KILLER_KEY: i32 = i32::MAX - 2;
/// Secondary moves (see [`Strategy::generate_selective_moves`]) are
/// searched at every node, after every primary move (their ordering keys
/// are lowered by this much, more than any history score reaches), and
/// this many plies shallower than a primary move in their place ...
const SECONDARY_REDUCTION: u32 = 1;
/// ... except with this many plies to go or fewer, away from the principal
/// variation, where only those the table or a killer vouches for are
/// searched: a wall that lengthens no path at once rarely shows its worth
/// so close to the leaves. A node that left moves out proves no loss.
const SECONDARY_PRUNE_DEPTH: u32 = 2;
const SECONDARY_KEY_OFFSET: i32 = 1 << 26;
/// The ordering key of a move not to be searched: below every other.
const SKIPPED_KEY: i32 = i32::MIN;
/// What the transposition table says of a node.
enum Probe {
    /// A value deep and bounded enough to return at once.
    Cutoff(i32),
    /// The move stored, to be tried first, and what the entry says of the
    /// node (its value, depth and bound).
    Move(Option<u16>, i32, u32, Bound),
}

impl<G: Position + Strategy> Searcher<'_, G> {
    /// Principal variation search: the first move gets the whole window; the
    /// others only have to show they are no better (a null window), and are
    /// searched again with the whole window when they are.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn principal_variation(
        &mut self,
        parent: &G,
        child: &mut G,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        floor: usize,
        first: bool,
    ) -> i32 {
        if first || beta - alpha <= 1 {
            return self.child_score(parent, child, depth, ply, alpha, beta, floor);
        }
        let score = self.child_score(parent, child, depth, ply, alpha, alpha + 1, floor);
        if score > alpha && score < beta && !self.aborted {
            self.child_score(parent, child, depth, ply, alpha, beta, floor)
        } else {
            score
        }
    }

    /// The value of `child` from `parent`'s side-to-move team's point of view.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn child_score(
        &mut self,
        parent: &G,
        child: &mut G,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        floor: usize,
    ) -> i32 {
        if self.same_team(parent.side_to_move(), child.side_to_move()) {
            self.node(child, depth, ply, alpha, beta, floor)
        } else {
            -self.node(child, depth, ply, -beta, -alpha, floor)
        }
    }

    #[inline]
    fn same_team(&self, a: usize, b: usize) -> bool {
        (a == self.root_side) == (b == self.root_side)
    }

    /// The value of `pos` with `depth` plies to search, from its side to
    /// move's team's point of view, within the window `alpha`..`beta`.
    pub(super) fn node(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        floor: usize,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply].clear();
        if self.should_abort() {
            return 0;
        }
        // Always the real hash: descendants compare against it for
        // repetitions (positions since the last irreversible move).
        let hash = pos.hash();
        if let Some(score) = self.known_value(pos, depth, ply, hash, floor) {
            return score;
        }
        // Some games' keys are costly: shallow nodes may skip the table.
        // A search without one move (the singular test) neither reads nor
        // writes the table: its value is not the node's.
        let excluded = self.excluded[ply];
        let use_table = excluded.is_none() && depth >= pos.table_min_depth();
        let key = if use_table { pos.table_key(depth) ^ self.key_salt } else { 0 };
        let (tt_move, tt_entry) = match use_table.then(|| self.probe(key, depth, ply, alpha, beta)).flatten()
        {
            Some(Probe::Cutoff(score)) => return score,
            Some(Probe::Move(mv, score, d, bound)) => (mv, Some((score, d, bound))),
            None => (None, None),
        };
        // A subtree that reaches the end of every game is searched in full:
        // its value is exact, and a reduction would make it a guess.
        let exact = self.exhaustive || pos.plies_left_bound().is_some_and(|plies| depth >= plies);
        // The static value, corrected; a subtree searched in full needs none.
        let (stand, keys) = if exact { (None, None) } else { self.stand(pos) };
        if excluded.is_none() {
            if let Some(score) = self.prune(pos, depth, ply, alpha, beta, exact, stand) {
                return score;
            }
        }
        let mut extension = 0;
        if !exact && excluded.is_none() {
            match self.singular(pos, depth, ply, beta, floor, tt_move, tt_entry) {
                Some(Singular::Cut(score)) => return score,
                Some(Singular::Extend) => extension = 1,
                None => {}
            }
        }
        self.path.push(hash);
        let searched = self.search_moves(pos, depth, ply, (alpha, beta), floor, tt_move, exact, extension);
        self.path.pop();
        let Some((best_score, best_move)) = searched else {
            // Without the move left out there is nothing to play: that move
            // is as singular as a move can be.
            return if self.aborted {
                0
            } else if excluded.is_some() {
                -INFINITY
            } else {
                self.evaluate(pos)
            };
        };
        if excluded.is_some() {
            return best_score;
        }
        if let (Some(stand), Some(keys)) = (stand, keys) {
            self.learn_correction(pos, keys, stand, depth, (alpha, beta), best_score);
        }
        if use_table {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let code = best_move.map(G::move_code);
            self.tt.store(key, code, score_to_tt(best_score, ply), depth, bound);
        }
        best_score
    }

    /// The value when it is known without searching the moves: a finished
    /// game, a repetition, a win at once, a position the game solves
    /// itself, or a leaf.
    #[inline]
    fn known_value(&mut self, pos: &G, depth: u32, ply: usize, hash: u64, floor: usize) -> Option<i32> {
        let side = pos.side_to_move();
        match pos.outcome() {
            Some(Outcome::Win(winner)) => {
                let value = MATE - ply as i32;
                return Some(if self.same_team(winner, side) { value } else { -value });
            }
            Some(Outcome::Draw) => return Some(0),
            None => {}
        }
        if self.path[floor..].iter().rev().any(|&h| h == hash) {
            return Some(0);
        }
        if pos.wins_at_once() {
            self.seldepth = self.seldepth.max(ply + 1);
            return Some(MATE - (ply as i32 + 1));
        }
        if let Some(solved) = pos.solve_small(&mut self.tables, depth) {
            self.check_clock();
            return Some(match solved {
                Solved::WinIn(plies) => MATE - (ply as i32 + plies as i32),
                Solved::LossIn(plies) => -(MATE - (ply as i32 + plies as i32)),
                Solved::Draw => 0,
            });
        }
        if depth == 0 || ply >= MAX_PLY {
            return Some(self.corrected(pos).0);
        }
        None
    }

    /// The static value of an interior node as pruning sees it, corrected,
    /// and the structure keys to learn from its searched value when there
    /// is something to learn: `(None, None)` where the game has no
    /// corrections, so pruning evaluates only when it needs to.
    #[inline]
    fn stand(&self, pos: &G) -> (Option<i32>, Option<[u64; 2]>) {
        let Some(keys) = self.correction_keys(pos) else {
            return (None, None);
        };
        let (value, keys) = self.corrected_by(pos, Some(keys));
        (Some(value), keys)
    }

    /// What the table knows of this node: a value that settles it, or the
    /// move to try first.
    #[inline]
    fn probe(&self, key: u64, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<Probe> {
        let hit = self.tt.probe(key)?;
        let score = score_from_tt(hit.score, ply);
        if hit.depth >= depth {
            let cutoff = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cutoff {
                return Some(Probe::Cutoff(score));
            }
        }
        Some(Probe::Move(hit.mv, score, hit.depth, hit.bound))
    }

    /// Searches the moves of `pos` (with best-reply search at the opponents'
    /// turn, every opponent's): the best value and move, or `None` when no
    /// move was searched (none to search, or the search was aborted).
    ///
    /// A loss is only proven when every legal move was searched: where
    /// moves were left out (secondary walls near the leaves, or the other
    /// opponents' moves in best-reply search), a forced loss becomes an
    /// [`unproven`] one.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: usize,
        (mut alpha, beta): (i32, i32),
        floor: usize,
        tt_move: Option<u16>,
        exact: bool,
        extension: u32,
    ) -> Option<(i32, Option<G::Move>)> {
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let pv_node = beta - alpha > 1;
        // Best-reply search: at the opponents' turn every opponent may move,
        // the others pass, and then it is the root player's turn again.
        let best_reply = self.best_reply && pos.side_to_move() != self.root_side;
        let excluded = self.excluded[ply];
        let mut complete = !best_reply && excluded.is_none();
        for k in 0..if best_reply { self.players } else { 1 } {
            let mut handed;
            let mover = if best_reply {
                let seat = (pos.side_to_move() + k) % self.players;
                if seat == self.root_side {
                    continue;
                }
                handed = pos.clone();
                handed.give_turn_to(seat);
                &mut handed
            } else {
                &mut *pos
            };
            let mut moves = MoveList::default();
            let mut keys = [0i32; crate::game::MAX_MOVES];
            let mut secondary = [false; crate::game::MAX_MOVES];
            let narrow = !exact && !pv_node && depth <= SECONDARY_PRUNE_DEPTH;
            let listed = self.order_moves(mover, ply, narrow, tt_move, &mut moves, &mut keys, &mut secondary);
            complete &= listed;
            let count = moves.len();
            let list = moves.as_mut_slice();
            let side = mover.side_to_move();
            let mut tried = [0u16; TRIED_KEPT];
            for i in 0..count {
                // Selection sort: most moves are never reached after a cutoff.
                let pick = (i..count).max_by_key(|&j| keys[j]).unwrap_or(i);
                list.swap(i, pick);
                keys.swap(i, pick);
                secondary.swap(i, pick);
                if keys[i] == SKIPPED_KEY {
                    complete = false;
                    break;
                }
                let mv = list[i];
                let code = G::move_code(mv);
                if Some(code) == excluded {
                    continue;
                }
                let extended = if Some(code) == tt_move { extension } else { 0 };
                let late = searched >= LMR_AFTER_MOVES && keys[i] < KILLER_KEY && !exact;
                let first = searched == 0;
                let reduction = self.reduction(depth, late, searched, secondary[i], pv_node);
                let score = self.search_move(
                    mover,
                    mv,
                    best_reply,
                    depth + extended,
                    ply,
                    (alpha, beta),
                    floor,
                    reduction,
                    first,
                );
                if self.aborted {
                    return None;
                }
                if score > best_score {
                    best_score = score;
                    best_move = Some(mv);
                    if score > alpha {
                        alpha = score;
                        self.update_pv(ply, mv);
                        if alpha >= beta {
                            let before = &tried[..searched.min(TRIED_KEPT)];
                            self.ordering.record_cutoff(G::move_code(mv), ply, depth, side, before);
                            return Some((best_score, best_move));
                        }
                    }
                }
                if searched < TRIED_KEPT {
                    tried[searched] = G::move_code(mv);
                }
                searched += 1;
            }
        }
        if !complete && best_score <= -MATE_BOUND {
            best_score = unproven(best_score);
        }
        (searched > 0).then_some((best_score, best_move))
    }

    /// Generates `mover`'s moves with an ordering key each; secondary moves
    /// (see [`Strategy::generate_selective_moves`]) are marked and put after
    /// the primary ones. With `narrow`, only the secondary moves the table
    /// or a killer vouches for are listed (they count as primary). Returns
    /// whether every legal move is listed.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn order_moves(
        &self,
        mover: &mut G,
        ply: usize,
        narrow: bool,
        tt_move: Option<u16>,
        moves: &mut MoveList<G::Move>,
        keys: &mut [i32; crate::game::MAX_MOVES],
        secondary: &mut [bool; crate::game::MAX_MOVES],
    ) -> bool {
        let side = mover.side_to_move();
        let [first_killer, second_killer] = self.ordering.killers(ply);
        let vouched = [tt_move.unwrap_or(u16::MAX), first_killer, second_killer];
        let selection = mover.generate_selective_moves(moves, 0, narrow.then_some(&vouched[..]));
        for (i, &mv) in moves.iter().enumerate() {
            keys[i] = self.ordering.score(G::move_code(mv), tt_move, ply, side);
            if i >= selection.primary && keys[i] < KILLER_KEY {
                secondary[i] = true;
                keys[i] -= SECONDARY_KEY_OFFSET;
            }
        }
        selection.complete
    }

    /// Plies by which a move is first searched shallower: late moves that
    /// no table entry or killer vouches for (late-move reductions, less on
    /// the principal variation), and secondary moves more. A move is always
    /// searched at least one ply deep after it is played.
    #[inline]
    fn reduction(&self, depth: u32, late: bool, searched: usize, secondary: bool, pv_node: bool) -> u32 {
        if self.exhaustive {
            return 0;
        }
        let mut reduction = if depth >= LMR_MIN_DEPTH && late {
            u32::from(lmr_table()[depth.min(63) as usize][searched.min(63)])
                .saturating_sub(u32::from(pv_node))
        } else {
            0
        };
        if secondary {
            reduction += SECONDARY_REDUCTION;
        }
        reduction.min(depth.saturating_sub(2))
    }

    /// Plays `mv` and searches the position after it: first `reduction`
    /// plies shallower with a null window when reduced, then in full
    /// (principal variation search) when it beats alpha there.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move(
        &mut self,
        mover: &G,
        mv: G::Move,
        best_reply: bool,
        depth: u32,
        ply: usize,
        (alpha, beta): (i32, i32),
        floor: usize,
        reduction: u32,
        first: bool,
    ) -> i32 {
        if !best_reply && depth > mover.table_min_depth() {
            if let Some(key) = mover.table_key_after(mv, depth - 1) {
                self.tt.prefetch(key ^ self.key_salt);
            }
        }
        mover.prefetch_for(mv, &self.tables);
        let mut child = mover.clone();
        child.make_move_with(mv, &mut self.tables);
        if best_reply {
            child.give_turn_to(self.root_side);
        }
        let child_floor = if mover.is_irreversible(mv) { self.path.len() } else { floor };
        let mut score = alpha + 1;
        if reduction > 0 {
            let reduced = depth - 1 - reduction;
            score = self.child_score(mover, &mut child, reduced, ply + 1, alpha, alpha + 1, child_floor);
        }
        if score > alpha && !self.aborted {
            score = self.principal_variation(
                mover,
                &mut child,
                depth - 1,
                ply + 1,
                alpha,
                beta,
                child_floor,
                first,
            );
        }
        score
    }
}

/// Late-move reductions by plies to go and move index (see [`LMR_BASE`]).
fn lmr_table() -> &'static [[u8; 64]; 64] {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                let r = LMR_BASE + (depth as f64).ln() * (index as f64).ln() / LMR_DIVISOR;
                *cell = r.max(0.0) as u8;
            }
        }
        table
    })
}

/// A forced loss the search found where it left moves out: a large
/// negative value, but not a mate score, so that nothing takes it as
/// proven (the side to move may have a defence among the moves left out).
/// Nearer losses stay worse.
pub(super) fn unproven(score: i32) -> i32 {
    let plies = MATE - score.abs();
    -(UNPROVEN_BOUND - plies)
}
