//! Iterative deepening: the entry point of a search, the loop over depths
//! with aspiration windows, the root move loop, and progress reports. The
//! node search itself is in `alphabeta`.

use super::alphabeta::{ASPIRATION_WINDOW, INFINITY, MAX_DEPTH};
use super::learned::Learned;
use super::limits::{Limits, Progress, SearchSettings};
use super::searcher::Searcher;
use super::threads::{HelpersStop, SharedCounters, HELPER_STACK};
use super::tt::TranspositionTable;
use super::{Control, Score, ScoreBound, SearchInfo, SearchResult, MATE, MATE_BOUND};
use crate::game::{MoveList, Position, Strategy};
use std::sync::atomic::Ordering as AtomicOrdering;

/// Searches `root` within `limits` and returns the best move found.
///
/// `history` holds the hashes of the game's earlier positions since the last
/// irreversible move, oldest first, without the root. With `settings.threads`
/// above 1 the other threads search the same tree and share the table (Lazy
/// SMP): they fill it with results the main thread then finds, and at the
/// root each thread puts off the moves another is searching (see
/// `RootClaims`); the main thread alone reports and answers, with a
/// helper's move and line when that helper finished a deeper iteration.
/// A full-strength search starts from the move-ordering and correction
/// histories the last one left in `tt`, and leaves its own there (see
/// `learned`).
pub fn search<G: Position + Strategy>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    settings: &SearchSettings,
    tt: &mut TranspositionTable,
    control: &Control,
    report: &mut dyn FnMut(SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let mut moves = MoveList::default();
    let root = &{
        // Generating may teach the root what its children inherit.
        let mut root = root.clone();
        root.generate_search_moves(&mut moves, limits.depth.unwrap_or(MAX_DEPTH));
        root
    };
    if !settings.search_moves.is_empty() {
        // `searchmoves` names legal moves; a move the game's own list folded
        // away as a symmetric twin of one kept is searched all the same.
        let mut all = MoveList::default();
        root.generate_moves(&mut all);
        moves.clear();
        for &mv in all.iter().filter(|&&m| settings.search_moves.contains(&G::move_code(m))) {
            moves.push(mv);
        }
    }
    let repetitions = history.iter().filter(|&&h| h == root.hash()).count();
    if root.outcome().is_some() || moves.is_empty() || repetitions >= 2 {
        return SearchResult { best: None, ponder: None, nodes: 0, depth: 0 };
    }
    tt.new_search();
    let carried = Learned::carried(limits, settings);
    let learned = if carried { Learned::take(tt) } else { None };
    let table: &TranspositionTable = tt;
    let shared = SharedCounters::new(settings.threads);
    let (result, learned) = std::thread::scope(|scope| {
        let tt = table;
        let mut helpers = Vec::new();
        for id in 1..settings.threads.max(1) {
            let (moves, shared) = (moves.clone(), &shared);
            let helper =
                std::thread::Builder::new().stack_size(HELPER_STACK).spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(root, history, limits, settings, tt, control, shared);
                    // Helpers run until the main thread is done; odd ones start a
                    // ply deeper so the threads do not move in step.
                    searcher.budget = None;
                    searcher.helper = true;
                    searcher.multi_pv = 1;
                    // A helper reports only its finished iterations; the last
                    // one is kept, in case it got further than the main thread.
                    let mut last = None;
                    let done = searcher.iterate(root, moves, limits, 1 + id as u32 % 2, &mut |info| {
                        if info.bound == ScoreBound::Exact && info.currmovenumber == 0 && info.multipv == 1 {
                            last = Some(info);
                        }
                    });
                    searcher.publish_nodes();
                    last.map(|info| (done.depth, info))
                });
            match helper {
                Ok(handle) => helpers.push(handle),
                Err(e) => log::warn!("could not start search thread {id}: {e}"),
            }
        }
        // Set even if the main search unwinds, so that the helpers end.
        let _helpers_stop = HelpersStop(&shared.done);
        let mut searcher = Searcher::new(root, history, limits, settings, tt, control, &shared);
        if let Some(learned) = learned {
            learned.lend(&mut searcher);
        }
        let mut result = searcher.iterate(root, moves.clone(), limits, 1, report);
        shared.done.store(true, AtomicOrdering::Relaxed);
        let deepest = helpers
            .into_iter()
            .filter_map(|helper| helper.join().ok().flatten())
            .filter(|(depth, info)| *depth > result.depth && !info.pv.is_empty())
            .max_by_key(|(depth, _)| *depth);
        if let Some((depth, mut info)) = deepest {
            // A helper finished a deeper iteration: its move has seen more,
            // and its line is the last one reported, so that the answer and
            // the expected reply are the line's first two moves.
            result.best = info.pv.first().copied();
            result.ponder = info.pv.get(1).copied();
            result.depth = depth;
            result.nodes = searcher.total_nodes();
            info.nodes = result.nodes;
            info.elapsed_ms = control.started().elapsed().as_millis() as u64;
            report(info);
        }
        (result, carried.then(|| Learned::of(searcher)))
    });
    if carried {
        Learned::keep(tt, learned);
    }
    result
}

/// What the root keeps from one iteration to the next.
struct RootState<M> {
    /// The root moves, the best first (and with `MultiPV` the next best
    /// after it).
    moves: Vec<M>,
    /// The best move so far and its line.
    best: M,
    best_line: Vec<M>,
    /// Each line's score at the last depth, for its aspiration window.
    previous_scores: Vec<Option<i32>>,
}

impl<G: Position + Strategy> Searcher<'_, G> {
    /// Deepens from `start_depth` until a limit, a proof or the clock ends
    /// the search, reporting each completed iteration.
    fn iterate(
        &mut self,
        root: &G,
        moves: MoveList<G::Move>,
        limits: &Limits,
        start_depth: u32,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let original_order = moves.as_slice();
        let first = original_order[0];
        let mut state = RootState {
            moves: original_order.to_vec(),
            best: first,
            best_line: vec![first],
            previous_scores: Vec::new(),
        };
        let (first_depth, max_depth, mut previous_score) = self.depth_range(root, limits, start_depth);
        let mut completed = 0;
        let mut progress = Progress::default();
        let mut mean_score: Option<i32> = None;
        let mut completed_report: Option<SearchInfo<G::Move>> = None;
        for depth in first_depth..=max_depth {
            let best_before = state.best;
            let found = self.search_lines(root, &mut state, depth, &mut previous_score, report);
            if self.aborted {
                if !self.helper {
                    let changed = state.best != best_before;
                    let line = state.best_line.clone();
                    self.report_last(
                        depth,
                        completed_report.as_ref(),
                        changed,
                        previous_score,
                        &line,
                        report,
                    );
                }
                break;
            }
            let score = found[0].0.clamp(-2_000, 2_000);
            progress.update(completed > 0 && state.best != best_before, score, mean_score.unwrap_or(score));
            mean_score = Some(mean_score.map_or(score, |mean| (7 * mean + 3 * score) / 10));
            completed = depth;
            let exact = root.plies_left_bound().is_some_and(|plies| depth >= plies);
            for (k, (score, line)) in found.iter().enumerate() {
                let info = self.info(depth, *score, line, exact, k as u32 + 1);
                if k == 0 {
                    completed_report = Some(info.clone());
                }
                report(info);
            }
            // A search that saw every game to its end is exact. A mate score
            // is proven (a node that left a move out reports no forced loss),
            // and a win proven as deep as it reaches is not searched further.
            let best_score = found[0].0;
            let won = best_score >= MATE_BOUND && depth >= (MATE - best_score) as u32;
            let proven = exact || won;
            let mate_found = limits.mate.is_some_and(|n| {
                matches!(Score::from_internal(found[0].0, self.score_players()), Score::Mate(m) if m > 0 && m as u32 <= n)
            });
            let single_reply = state.moves.len() == 1 && self.budget.is_some();
            if proven || mate_found || single_reply || self.soft_time_is_up(&progress) {
                break;
            }
        }
        SearchResult {
            best: Some(state.best),
            ponder: state.best_line.get(1).copied(),
            nodes: self.total_nodes(),
            depth: completed,
        }
    }

    /// The first and last depth to search, and the score the first
    /// iteration's window is centred on.
    fn depth_range(&self, root: &G, limits: &Limits, start_depth: u32) -> (u32, u32, Option<i32>) {
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(own_moves) = limits.mate {
            max_depth = max_depth.min(mate_depth(own_moves, self.score_players()));
        }
        // When the game says its tree is small enough, or the caller asked for
        // a depth that reaches the end, shallow iterations teach the move
        // ordering nothing worth their cost: solve at once.
        match root.plies_left_bound() {
            Some(plies) if plies <= root.exact_search_plies() || limits.depth.is_some_and(|d| d >= plies) => {
                // Most such positions are draws, which a window around 0
                // proves far more cheaply than an open one.
                (plies.min(max_depth), max_depth, Some(0))
            }
            _ => (start_depth.min(max_depth), max_depth, None),
        }
    }

    /// One depth: the best line, and with `MultiPV` the next best ones, each
    /// with its score. Line k is the best of the moves not in lines 0..k; its
    /// move then goes to place k, so each search leaves out the others.
    fn search_lines(
        &mut self,
        root: &G,
        state: &mut RootState<G::Move>,
        depth: u32,
        previous_score: &mut Option<i32>,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) -> Vec<(i32, Vec<G::Move>)> {
        // The game's earlier positions count for repetitions too: a move back
        // into one of them is scored as a draw.
        let floor = 0;
        let lines = self.multi_pv.clamp(1, state.moves.len());
        state.previous_scores.resize(lines, None);
        state.previous_scores[0] = *previous_score;
        let mut found = Vec::with_capacity(lines);
        for k in 0..lines {
            let (score, line_best) = self.aspiration(
                root,
                &mut state.moves[k..],
                depth,
                floor,
                state.previous_scores[k],
                k as u32 + 1,
                report,
            );
            if self.aborted && k > 0 {
                break;
            }
            state.previous_scores[k] = Some(score);
            if k == 0 {
                *previous_score = Some(score);
                if let Some(mv) = line_best {
                    if mv != state.best || !self.aborted {
                        state.best = mv;
                        // Stopped in the re-search of a move that failed high,
                        // the root may have no line yet, or another move's.
                        state.best_line =
                            if self.pv[0].first() == Some(&mv) { self.pv[0].clone() } else { vec![mv] };
                        if self.best_reply {
                            // The replies in a best-reply line are not in turn
                            // order; only the root move is a real continuation.
                            state.best_line.truncate(1);
                        } else {
                            self.complete_line(root, &mut state.best_line, depth as usize);
                        }
                    }
                }
                if self.aborted {
                    break;
                }
            }
            let mv = if k == 0 { state.best } else { line_best.unwrap_or(state.moves[k]) };
            if let Some(i) = state.moves[k..].iter().position(|&m| m == mv) {
                state.moves[k..=k + i].rotate_right(1);
            }
            let line = if k == 0 {
                state.best_line.clone()
            } else if self.pv[0].first() == Some(&mv) {
                self.pv[0].clone()
            } else {
                vec![mv]
            };
            found.push((score, line));
        }
        if found.len() > 1 && !self.aborted {
            // Each line had its own window and table contents: a later
            // line may come out better than an earlier one. Report them
            // best first, as the root's move order and answer.
            found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            for (k, (score, line)) in found.iter().enumerate() {
                state.moves[k] = line[0];
                state.previous_scores[k] = Some(*score);
            }
            state.best = found[0].1[0];
            state.best_line = found[0].1.clone();
            *previous_score = Some(found[0].0);
        }
        found
    }

    /// One iteration, first in a narrow window around the previous score
    /// (cheap to prove when the score holds), widened on failure. The move
    /// returned, if any, is proven better than every move searched before it.
    /// A failed window is reported (as line `multipv`) in long searches.
    #[allow(clippy::too_many_arguments)]
    fn aspiration(
        &mut self,
        root: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        floor: usize,
        previous: Option<i32>,
        multipv: u32,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) -> (i32, Option<G::Move>) {
        let (mut low, mut high) = match previous {
            Some(score) if score.abs() < MATE_BOUND => (score - ASPIRATION_WINDOW, score + ASPIRATION_WINDOW),
            _ => (-INFINITY, INFINITY),
        };
        // A move that failed high is proven better than the previous best; it
        // stays the answer unless the re-search finds a better one.
        let mut fail_high: Option<G::Move> = None;
        loop {
            let (score, best) = self.search_root(root, root_moves, depth, floor, low, high, report);
            if self.aborted {
                // The fail-high move is searched first in a re-search, so any
                // other move returned has beaten it.
                return (score, best.or(fail_high));
            }
            let failed = if score <= low && low > -INFINITY {
                Some(ScoreBound::Upper)
            } else if score >= high && high < INFINITY {
                Some(ScoreBound::Lower)
            } else {
                None
            };
            if let (Some(bound), true) = (failed, self.chatty()) {
                let line = if self.pv[0].is_empty() { root_moves[..1].to_vec() } else { self.pv[0].clone() };
                self.report_bound(depth, score, bound, &line, multipv, report);
            }
            if score <= low && low > -INFINITY {
                low = -INFINITY;
            } else if score >= high && high < INFINITY {
                // Search the move that failed high first in the re-search.
                if let Some(mv) = best {
                    fail_high = Some(mv);
                    if let Some(i) = root_moves.iter().position(|&m| m == mv) {
                        root_moves[..=i].rotate_right(1);
                    }
                }
                high = INFINITY;
            } else {
                return (score, best);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn search_root(
        &mut self,
        root: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        floor: usize,
        low: i32,
        high: i32,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) -> (i32, Option<G::Move>) {
        self.root_depth = depth;
        let mut alpha = low;
        let mut started = 0;
        let mut best = None;
        self.path.push(root.hash());
        self.pv[0].clear();
        // With other threads, a move one of them is searching is put off to
        // the end (once); its result is then usually in the table.
        let claims = &self.shared.root_claims;
        let mut order: Vec<usize> = (0..root_moves.len()).collect();
        let mut next = 0;
        while next < order.len() {
            let (i, put_off_before) = (order[next], next >= root_moves.len());
            next += 1;
            let mv = root_moves[i];
            let mut child = root.clone();
            child.make_move_with(mv, &mut self.tables);
            let claim = claims.shared().then(|| child.hash());
            if let Some(hash) = claim {
                if i > 0 && !put_off_before && claims.is_claimed(hash) {
                    order.push(i);
                    continue;
                }
                claims.claim(hash);
            }
            started += 1;
            if self.chatty() {
                self.report_currmove(depth, mv, started, report);
            }
            let child_floor = if root.is_irreversible(mv) { self.path.len() } else { floor };
            let bonus = self.root_bonus(&child);
            let mut score = self.principal_variation(
                root,
                &mut child,
                depth - 1,
                1,
                alpha - bonus,
                high - bonus,
                child_floor,
                i == 0,
            );
            if score.abs() < MATE_BOUND {
                score += bonus;
            }
            if let Some(hash) = claim {
                claims.release(hash);
            }
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

    /// A playing level's bonus for the root move leading to `child`, the same
    /// in every iteration and for every `Seed`-equal search.
    fn root_bonus(&self, child: &G) -> i32 {
        if self.noise.root <= 0 {
            return 0;
        }
        let draw = crate::rng::Rng::new(child.hash() ^ self.noise.seed.rotate_left(17)).next_u64();
        (draw % (self.noise.root as u64 + 1)) as i32
    }

    /// Whether to start no further iteration: stopped, or past the soft
    /// deadline as the search's progress sets it.
    fn soft_time_is_up(&self, progress: &Progress) -> bool {
        if self.control.stopped() {
            return true;
        }
        match self.budget {
            Some(budget) if !self.control.pondering() => {
                self.control.started().elapsed() >= budget.soft_limit(progress)
            }
            _ => false,
        }
    }

    /// Plies per round of play, as mate scores count them: a best-reply
    /// round is two plies, the root player's and one reply.
    pub(super) fn score_players(&self) -> usize {
        if self.best_reply {
            2
        } else {
            self.players
        }
    }
}

/// The plies a win in `own_moves` of the mover's own moves needs at most
/// (`players` plies a round), as deep as the search goes at most: counts
/// beyond that search as deep as it goes.
fn mate_depth(own_moves: u32, players: usize) -> u32 {
    let plies = u64::from(own_moves.saturating_sub(1)) * players as u64 + 1;
    plies.min(u64::from(MAX_DEPTH)) as u32
}

#[cfg(test)]
mod mate_depth_tests {
    use super::*;

    #[test]
    fn mate_counts_saturate_at_the_deepest_search() {
        assert_eq!(mate_depth(1, 2), 1);
        assert_eq!(mate_depth(3, 2), 5);
        assert_eq!(mate_depth(2, 4), 5);
        assert_eq!(mate_depth(0, 2), 1);
        for huge in [2_147_483_649, u32::MAX] {
            assert_eq!(mate_depth(huge, 2), MAX_DEPTH);
            assert_eq!(mate_depth(huge, 4), MAX_DEPTH);
        }
    }
}

#[cfg(test)]
#[path = "root_claims_tests.rs"]
mod root_claims_tests;
