//! Iterative deepening negamax alpha-beta over any [`Game`].
//!
//! With more than two players the search is paranoid: the root player plays
//! against a coalition of all the others. Scores are kept from the point of
//! view of the side to move's team, so a move to a team-mate keeps the window
//! and the sign, and a move to the other team negates both, as in negamax.

use super::limits::{time_budget, Limits, TimeBudget};
use super::ordering::Ordering;
use super::tt::{Bound, TranspositionTable};
use super::{Control, Score, SearchInfo, SearchResult, MATE, MATE_BOUND, MAX_PLY};
use crate::game::{Game, MoveList, Outcome, Solved};
use std::time::Duration;

const INFINITY: i32 = MATE + 1;
/// Half-width of the first window of an iteration: half a step in Quoridor;
/// any window around 0 separates Quarto's wins, draws and losses.
const ASPIRATION_WINDOW: i32 = 50;
/// Iterations never go deeper than this.
const MAX_DEPTH: u32 = 64;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;

/// Searches `root` within `limits` and returns the best move found.
///
/// `history` holds the hashes of the game's earlier positions since the last
/// irreversible move, oldest first, without the root.
pub fn search<G: Game>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    move_overhead: Duration,
    tt: &mut TranspositionTable,
    control: &Control,
    report: &mut dyn FnMut(SearchInfo),
) -> SearchResult<G::Move> {
    let mut moves = MoveList::default();
    root.generate_search_moves(&mut moves, limits.depth.unwrap_or(MAX_DEPTH));
    let repetitions = history.iter().filter(|&&h| h == root.hash()).count();
    if root.outcome().is_some() || moves.is_empty() || repetitions >= 2 {
        return SearchResult { best: None, ponder: None, nodes: 0, depth: 0 };
    }
    tt.new_search();
    let players = root.player_count();
    let mut searcher = Searcher {
        root_side: root.side_to_move(),
        players,
        key_salt: if players > 2 {
            0x51A7_0000_0000_0001u64.wrapping_mul(root.side_to_move() as u64 + 1)
        } else {
            0
        },
        tt,
        control,
        ordering: Ordering::new(),
        nodes: 0,
        seldepth: 0,
        node_limit: limits.nodes,
        budget: time_budget(limits, root.side_to_move(), move_overhead),
        path: history.to_vec(),
        pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
        aborted: false,
    };
    searcher.path.reserve(MAX_PLY + 1);
    searcher.iterate(root, moves, limits, report)
}

struct Searcher<'a, G: Game> {
    root_side: usize,
    players: usize,
    key_salt: u64,
    tt: &'a mut TranspositionTable,
    control: &'a Control,
    ordering: Ordering,
    nodes: u64,
    seldepth: usize,
    node_limit: Option<u64>,
    budget: Option<TimeBudget>,
    /// Hashes of the game history and the current search path.
    path: Vec<u64>,
    pv: Vec<Vec<G::Move>>,
    aborted: bool,
}

impl<G: Game> Searcher<'_, G> {
    fn iterate(
        &mut self,
        root: &G,
        moves: MoveList<G::Move>,
        limits: &Limits,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult<G::Move> {
        let mut root_moves: Vec<G::Move> = moves.as_slice().to_vec();
        let mut best = root_moves[0];
        let mut best_line: Vec<G::Move> = vec![best];
        let mut completed = 0;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let floor = self.path.len();
        let mut previous_score = None;
        // When the game says its tree is small enough, or the caller asked for
        // a depth that reaches the end, shallow iterations teach the move
        // ordering nothing worth their cost: solve at once.
        let first_depth = match root.plies_left_bound() {
            Some(plies) if plies <= root.exact_search_plies() || limits.depth.is_some_and(|d| d >= plies) => {
                // Most such positions are draws, which a window around 0
                // proves far more cheaply than an open one.
                previous_score = Some(0);
                plies.min(max_depth)
            }
            _ => 1,
        };
        for depth in first_depth..=max_depth {
            let (score, iteration_best) =
                self.aspiration(root, &mut root_moves, depth, floor, previous_score);
            previous_score = Some(score);
            if let Some(mv) = iteration_best {
                if mv != best || !self.aborted {
                    best = mv;
                    best_line = self.pv[0].clone();
                }
            }
            if self.aborted {
                break;
            }
            completed = depth;
            // Keep the best move first for the next iteration.
            if let Some(i) = root_moves.iter().position(|&m| m == best) {
                root_moves[..=i].rotate_right(1);
            }
            let exact = root.plies_left_bound().is_some_and(|plies| depth >= plies);
            report(self.info(root, depth, score, &best_line, exact));
            let proven = exact || (score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth);
            let single_reply = root_moves.len() == 1 && self.budget.is_some();
            if proven || single_reply || self.soft_time_is_up() {
                break;
            }
        }
        SearchResult {
            best: Some(best),
            ponder: best_line.get(1).copied(),
            nodes: self.nodes,
            depth: completed,
        }
    }

    /// One iteration, first in a narrow window around the previous score
    /// (cheap to prove when the score holds), widened on failure. The move
    /// returned, if any, is proven better than every move searched before it.
    fn aspiration(
        &mut self,
        root: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        floor: usize,
        previous: Option<i32>,
    ) -> (i32, Option<G::Move>) {
        let (mut low, mut high) = match previous {
            Some(score) if score.abs() < MATE_BOUND => (score - ASPIRATION_WINDOW, score + ASPIRATION_WINDOW),
            _ => (-INFINITY, INFINITY),
        };
        let mut candidate = None;
        loop {
            let (score, best) = self.search_root(root, root_moves, depth, floor, low, high);
            candidate = best.or(candidate);
            if self.aborted {
                return (score, candidate);
            }
            if score <= low && low > -INFINITY {
                low = -INFINITY;
            } else if score >= high && high < INFINITY {
                high = INFINITY;
            } else {
                return (score, best);
            }
        }
    }

    fn search_root(
        &mut self,
        root: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        floor: usize,
        low: i32,
        high: i32,
    ) -> (i32, Option<G::Move>) {
        let mut alpha = low;
        let mut best = None;
        self.path.push(root.hash());
        self.pv[0].clear();
        for (i, &mv) in root_moves.iter().enumerate() {
            let mut child = root.clone();
            child.make_move(mv);
            let child_floor = if root.is_irreversible(mv) { self.path.len() } else { floor };
            let score =
                self.principal_variation(root, &child, depth - 1, 1, alpha, high, child_floor, i == 0);
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(mv);
                self.update_pv(0, mv);
                if alpha >= high {
                    break;
                }
            }
        }
        self.path.pop();
        (alpha, best)
    }

    /// Principal variation search: the first move gets the whole window; the
    /// others only have to show they are no better (a null window), and are
    /// searched again with the whole window when they are.
    #[allow(clippy::too_many_arguments)]
    fn principal_variation(
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
        let hash = if floor < self.path.len() { pos.hash() } else { 0 };
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
        let mut moves = MoveList::default();
        pos.generate_search_moves(&mut moves, depth);
        if moves.is_empty() {
            return self.evaluate(pos);
        }
        let mut keys = [0i32; crate::game::MAX_MOVES];
        for (i, &mv) in moves.iter().enumerate() {
            keys[i] = self.ordering.score(G::move_code(mv), tt_move, ply);
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        self.path.push(hash);
        let count = moves.len();
        let list = moves.as_mut_slice();
        for i in 0..count {
            // Selection sort: most moves are never reached after a cutoff.
            let pick = (i..count).max_by_key(|&j| keys[j]).unwrap_or(i);
            list.swap(i, pick);
            keys.swap(i, pick);
            let mv = list[i];
            let mut child = pos.clone();
            child.make_move(mv);
            let child_floor = if pos.is_irreversible(mv) { self.path.len() } else { floor };
            let score =
                self.principal_variation(pos, &child, depth - 1, ply + 1, alpha, beta, child_floor, i == 0);
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
                        break;
                    }
                }
            }
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
        let value = pos.evaluate(self.root_side);
        if pos.side_to_move() == self.root_side {
            value
        } else {
            -value
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            let out_of_time = match self.budget {
                Some(budget) if !self.control.pondering() => self.control.started().elapsed() >= budget.hard,
                _ => false,
            };
            self.aborted = out_of_time || self.control.stopped();
        }
        self.aborted
    }

    fn soft_time_is_up(&self) -> bool {
        if self.control.stopped() {
            return true;
        }
        match self.budget {
            Some(budget) if !self.control.pondering() => self.control.started().elapsed() >= budget.soft,
            _ => false,
        }
    }

    fn info(&self, root: &G, depth: u32, score: i32, line: &[G::Move], exact: bool) -> SearchInfo {
        let mut position = root.clone();
        let mut pv = Vec::with_capacity(line.len());
        for &mv in line {
            pv.push(position.format_move(mv));
            position.make_move(mv);
        }
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(score, self.players),
            nodes: self.nodes,
            elapsed_ms: self.control.started().elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
            pv,
            exact,
        }
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
