//! The node search: negamax principal variation search over any [`Game`].
//!
//! With more than two players the root player plays against a coalition of
//! all the others: either each of them in turn (paranoid), or only the one
//! whose reply hurts the root player most, the others passing (best-reply
//! search, Schadd and Winands 2011). Scores are kept from the point of view
//! of the side to move's team, so a move to a team-mate keeps the window and
//! the sign, and a move to the other team negates both, as in negamax.

use super::limits::TimeBudget;
use super::ordering::Ordering;
use super::threads::SharedCounters;
use super::tt::{Bound, TranspositionTable};
use super::{Control, MATE, MATE_BOUND, MAX_PLY};
use crate::game::{Game, MoveList, Outcome, Solved};
use std::sync::atomic::Ordering as AtomicOrdering;

pub(super) const INFINITY: i32 = MATE + 1;
/// Half-width of the first window of an iteration: half a step in Quoridor;
/// any window around 0 separates Quarto's wins, draws and losses.
pub(super) const ASPIRATION_WINDOW: i32 = 50;
/// Iterations never go deeper than this.
pub(super) const MAX_DEPTH: u32 = 64;
/// Late-move reductions: from this many plies to go, moves after the first
/// few are searched one ply shallower first (two plies after many more).
const LMR_MIN_DEPTH: u32 = 3;
const LMR_AFTER_MOVES: usize = 3;
const LMR_DEEPER_AFTER: usize = 10;
/// Ordering keys at or above this are the table move and killers.
const KILLER_KEY: i32 = i32::MAX - 2;
/// Secondary moves (see [`Game::generate_selective_moves`]) are searched
/// only this close to the root: at the opponent's reply to a root move,
/// where a wall that lengthens no path at once (a defence, a preparation)
/// is what most often refuted Tabula's plans against titanium-quoridor.
/// Wider (two plies) scored no better against it and cost depth.
const SECONDARY_MAX_PLY: usize = 1;
/// ... and with at least this many plies to go,
const SECONDARY_MIN_DEPTH: u32 = 3;
/// ... this many plies shallower than their primary siblings (one ply
/// scored 39 % against titanium where two scored 45 %),
const SECONDARY_REDUCTION: u32 = 2;
/// ... and after every primary move: their ordering keys are lowered by
/// this much, more than any history score reaches.
const SECONDARY_KEY_OFFSET: i32 = 1 << 26;
/// The ordering key of a move not to be searched: below every other.
const SKIPPED_KEY: i32 = i32::MIN;
/// Reverse futility pruning (see [`Game::futility_margin`]) only this close
/// to the leaves.
const FUTILITY_MAX_DEPTH: u32 = 3;
/// Null-move pruning (see [`Game::null_move`]) from this many plies to go,
/// the pass searched this many plies shallower than a move.
const NULL_MIN_DEPTH: u32 = 3;
const NULL_REDUCTION: u32 = 2;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;

pub(super) struct Searcher<'a, G: Game> {
    pub(super) root_side: usize,
    pub(super) players: usize,
    pub(super) key_salt: u64,
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a Control,
    pub(super) shared: &'a SharedCounters,
    /// A helper thread of a Lazy SMP search: stops when the main one is done.
    pub(super) helper: bool,
    pub(super) ordering: Ordering,
    pub(super) nodes: u64,
    /// Of `nodes`, those already added to the shared count.
    pub(super) published: u64,
    pub(super) seldepth: usize,
    pub(super) node_limit: Option<u64>,
    pub(super) budget: Option<TimeBudget>,
    /// Hashes of the game history and the current search path.
    pub(super) path: Vec<u64>,
    pub(super) pv: Vec<Vec<G::Move>>,
    pub(super) aborted: bool,
    /// With more than two players: best-reply search instead of paranoid.
    pub(super) best_reply: bool,
    /// `go mate`: every move searched to full depth, nothing pruned, so
    /// that a forced win found is proven.
    pub(super) exhaustive: bool,
    /// Best lines the root reports (`MultiPV`), at least 1.
    pub(super) multi_pv: usize,
    /// Playing levels: the largest leaf offset, and the seed that picks them.
    pub(super) noise: i32,
    pub(super) noise_seed: u64,
    /// Playing levels: the largest bonus a root move gets.
    pub(super) root_noise: i32,
    /// By ply: whether the node there was reached by a pass (no two passes
    /// in a row: the second would prove nothing).
    pub(super) passed: Vec<bool>,
}

impl<G: Game> Searcher<'_, G> {
    /// Principal variation search: the first move gets the whole window; the
    /// others only have to show they are no better (a null window), and are
    /// searched again with the whole window when they are.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn principal_variation(
        &mut self,
        parent: &G,
        child: &G,
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
    fn child_score(
        &mut self,
        parent: &G,
        child: &G,
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

    fn node(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: i32, beta: i32, floor: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply].clear();
        if self.should_abort() {
            return 0;
        }
        let side = pos.side_to_move();
        match pos.outcome() {
            Some(Outcome::Win(winner)) => {
                let value = MATE - ply as i32;
                return if self.same_team(winner, side) { value } else { -value };
            }
            Some(Outcome::Draw) => return 0,
            None => {}
        }
        // The hash is needed to spot a repetition (positions since the last
        // irreversible move) and for the table; some games' hashes are costly.
        let use_table = depth >= pos.table_min_depth();
        // Always the real hash: descendants compare against it.
        let hash = pos.hash();
        if self.path[floor..].iter().rev().any(|&h| h == hash) {
            return 0;
        }
        if pos.wins_at_once() {
            self.seldepth = self.seldepth.max(ply + 1);
            return MATE - (ply as i32 + 1);
        }
        if let Some(solved) = pos.solve_small() {
            return match solved {
                Solved::WinIn(plies) => MATE - (ply as i32 + plies as i32),
                Solved::LossIn(plies) => -(MATE - (ply as i32 + plies as i32)),
                Solved::Draw => 0,
            };
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let key = if use_table { pos.table_key(depth) ^ self.key_salt } else { 0 };
        let mut tt_move = None;
        if let Some(hit) = use_table.then(|| self.tt.probe(key)).flatten() {
            tt_move = hit.mv;
            let score = score_from_tt(hit.score, ply);
            if hit.depth >= depth {
                let cutoff = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff {
                    return score;
                }
            }
        }
        // A subtree that reaches the end of every game is searched in full:
        // its value is exact, and a reduction would make it a guess.
        let exact = self.exhaustive || pos.plies_left_bound().is_some_and(|plies| depth >= plies);
        // Null-window nodes away from the root may be cut short by what the
        // static value says: they only have to show which side of beta they
        // are on, and a mistake here costs a re-search higher up.
        let prunable = beta - alpha == 1 && ply > 0 && beta.abs() < MATE_BOUND && !self.best_reply && !exact;
        // Reverse futility: near the leaves, a static value that beats beta
        // by a margin per ply left is taken to hold there.
        if prunable && depth <= FUTILITY_MAX_DEPTH {
            if let Some(margin) = pos.futility_margin() {
                let stand = self.evaluate(pos);
                if stand - margin * depth as i32 >= beta {
                    return stand;
                }
            }
        }
        // Null move: when even a pass keeps the side to move above beta in a
        // shallower search, a real move would too.
        if prunable && depth >= NULL_MIN_DEPTH && !self.passed[ply] {
            if let Some(passed) = pos.null_move() {
                if self.evaluate(pos) >= beta {
                    self.passed[ply + 1] = true;
                    // A pass is irreversible for repetitions: no position
                    // before it may count as repeated after it.
                    let floor_after = self.path.len();
                    let reduced = depth - 1 - NULL_REDUCTION;
                    let score = self.child_score(pos, &passed, reduced, ply + 1, alpha, beta, floor_after);
                    self.passed[ply + 1] = false;
                    if self.aborted {
                        return 0;
                    }
                    if score >= beta && score < MATE_BOUND {
                        return score;
                    }
                }
            }
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        self.path.push(hash);
        // Best-reply search: at the opponents' turn every opponent may move,
        // the others pass, and then it is the root player's turn again.
        let best_reply = self.best_reply && pos.side_to_move() != self.root_side;
        'movers: for k in 0..if best_reply { self.players } else { 1 } {
            let handed;
            let mover = if best_reply {
                let seat = (pos.side_to_move() + k) % self.players;
                if seat == self.root_side {
                    continue;
                }
                let mut turn = pos.clone();
                turn.give_turn_to(seat);
                handed = turn;
                &handed
            } else {
                pos
            };
            let mut moves = MoveList::default();
            let wide = self.exhaustive || (ply <= SECONDARY_MAX_PLY && depth >= SECONDARY_MIN_DEPTH);
            // Away from the root only the secondary moves these vouch for
            // are searched, so only they need to be generated.
            let [first_killer, second_killer] = self.ordering.killers(ply);
            let vouched = [tt_move.unwrap_or(u16::MAX), first_killer, second_killer];
            let primary = mover.generate_selective_moves(&mut moves, depth, (!wide).then_some(&vouched[..]));
            let mut keys = [0i32; crate::game::MAX_MOVES];
            let mut secondary = [false; crate::game::MAX_MOVES];
            for (i, &mv) in moves.iter().enumerate() {
                keys[i] = self.ordering.score(G::move_code(mv), tt_move, ply);
                if i >= primary && keys[i] < KILLER_KEY {
                    // Secondary moves come after the primary ones, and
                    // away from the root not at all, unless the table or a
                    // killer vouches for them (then they count as primary).
                    secondary[i] = true;
                    keys[i] = if wide { keys[i] - SECONDARY_KEY_OFFSET } else { SKIPPED_KEY };
                }
            }
            let count = moves.len();
            let list = moves.as_mut_slice();
            for i in 0..count {
                // Selection sort: most moves are never reached after a cutoff.
                let pick = (i..count).max_by_key(|&j| keys[j]).unwrap_or(i);
                list.swap(i, pick);
                keys.swap(i, pick);
                secondary.swap(i, pick);
                if keys[i] == SKIPPED_KEY {
                    break;
                }
                let mv = list[i];
                if !best_reply && depth > pos.table_min_depth() {
                    if let Some(key) = mover.table_key_after(mv, depth - 1) {
                        self.tt.prefetch(key ^ self.key_salt);
                    }
                }
                mover.prefetch_for(mv);
                let mut child = mover.clone();
                child.make_move(mv);
                if best_reply {
                    child.give_turn_to(self.root_side);
                }
                let child_floor = if mover.is_irreversible(mv) { self.path.len() } else { floor };
                // Late moves that no table entry or killer vouches for are
                // first searched shallower with a null window, and again at
                // full depth only if they beat alpha there.
                let late = searched >= LMR_AFTER_MOVES && keys[i] < KILLER_KEY && !exact;
                let mut reduction = if depth >= LMR_MIN_DEPTH && late {
                    1 + u32::from(searched >= LMR_DEEPER_AFTER && depth > LMR_MIN_DEPTH)
                } else {
                    0
                };
                if secondary[i] && !self.exhaustive {
                    reduction = (reduction + SECONDARY_REDUCTION).min(depth.saturating_sub(2));
                }
                let mut score = alpha + 1;
                if reduction > 0 {
                    let reduced = depth - 1 - reduction;
                    score = self.child_score(mover, &child, reduced, ply + 1, alpha, alpha + 1, child_floor);
                }
                if score > alpha && !self.aborted {
                    let first = searched == 0;
                    score = self.principal_variation(
                        mover,
                        &child,
                        depth - 1,
                        ply + 1,
                        alpha,
                        beta,
                        child_floor,
                        first,
                    );
                }
                searched += 1;
                if self.aborted {
                    self.path.pop();
                    return 0;
                }
                if score > best_score {
                    best_score = score;
                    best_move = Some(mv);
                    if score > alpha {
                        alpha = score;
                        self.update_pv(ply, mv);
                        if alpha >= beta {
                            self.ordering.record_cutoff(G::move_code(mv), ply, depth);
                            break 'movers;
                        }
                    }
                }
            }
        }
        if searched == 0 {
            self.path.pop();
            return self.evaluate(pos);
        }
        self.path.pop();
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_table {
            let code = best_move.map(G::move_code);
            self.tt.store(key, code, score_to_tt(best_score, ply), depth, bound);
        }
        best_score
    }

    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
        let mut value = pos.evaluate(self.root_side);
        if self.noise > 0 {
            // Keyed by the position, so a transposition gets the same offset.
            let draw = crate::rng::Rng::new(pos.hash() ^ self.noise_seed).next_u64();
            value += (draw % (2 * self.noise as u64 + 1)) as i32 - self.noise;
        }
        if pos.side_to_move() == self.root_side {
            value
        } else {
            -value
        }
    }

    /// Adds this thread's nodes since the last call to the shared count.
    pub(super) fn publish_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.published, AtomicOrdering::Relaxed);
        self.published = self.nodes;
    }

    /// Nodes searched by every thread so far (this one's exactly, the
    /// others' as last published).
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(AtomicOrdering::Relaxed) + self.nodes - self.published
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub(super) fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|limit| self.total_nodes() >= limit) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.publish_nodes();
            if self.helper && self.shared.done.load(AtomicOrdering::Relaxed) {
                self.aborted = true;
                return true;
            }
            let out_of_time = match self.budget {
                Some(budget) if !self.control.pondering() => self.control.started().elapsed() >= budget.hard,
                _ => false,
            };
            self.aborted = out_of_time || self.control.stopped();
        }
        self.aborted
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
