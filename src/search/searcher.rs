//! The searcher of one thread: what it was asked (limits, window salt,
//! noise), what it owns (move ordering, the game's tables, the principal
//! variations, the path for repetitions), and its bookkeeping (node counts,
//! the clock and stop checks, the static value as the search sees it).
//! The node search itself is in `alphabeta`, the iterations in `iterate`.

use super::correction::Correction;
use super::limits::{time_budget, Limits, Noise, SearchSettings, TimeBudget};
use super::ordering::Ordering;
use super::threads::SharedCounters;
use super::tt::TranspositionTable;
use super::{Control, MATE_BOUND, MAX_PLY};
use crate::game::{MoveList, Position, Strategy};
use std::sync::atomic::Ordering as AtomicOrdering;

/// Static values are corrected, and searched values teach corrections,
/// only below this magnitude: far from every forced result, so that a
/// corrected value never reaches one (corrections stay within 512).
const CORRECTED_BELOW: i32 = MATE_BOUND - 2_000;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;

/// One search thread's state (see the module documentation).
pub(super) struct Searcher<'a, G: Position + Strategy> {
    pub(super) root_side: usize,
    pub(super) players: usize,
    pub(super) key_salt: u64,
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a Control,
    pub(super) shared: &'a SharedCounters,
    /// A helper thread of a Lazy SMP search: stops when the main one is done.
    pub(super) helper: bool,
    pub(super) ordering: Ordering,
    /// What this search learnt of the static value's errors; `None` where
    /// the static value is left as it is (a playing level's search, whose
    /// strength is measured without it, or one with every move searched).
    pub(super) correction: Option<Correction>,
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
    /// Playing levels: the offsets added to leaf values and root moves.
    pub(super) noise: Noise,
    /// By ply: whether the node there was reached by a pass (no two passes
    /// in a row: the second would prove nothing).
    pub(super) passed: Vec<bool>,
    /// By ply: the move a singular test leaves out there.
    pub(super) excluded: Vec<Option<u16>>,
    /// The depth of the current iteration.
    pub(super) root_depth: u32,
    /// The game's tables for this thread (see [`Position::Tables`]).
    pub(super) tables: G::Tables,
}

impl<'a, G: Position + Strategy> Searcher<'a, G> {
    /// A searcher for `root` (reached through `history`) within `limits`.
    pub(super) fn new(
        root: &G,
        history: &[u64],
        limits: &Limits,
        settings: &SearchSettings,
        tt: &'a TranspositionTable,
        control: &'a Control,
        shared: &'a SharedCounters,
    ) -> Searcher<'a, G> {
        let mut tables = G::Tables::default();
        root.prepare_search(&mut tables);
        let players = root.player_count();
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 1);
        path.extend_from_slice(history);
        Searcher {
            root_side: root.side_to_move(),
            players,
            // Paranoid values depend on the root player, and noisy ones on the
            // seed: neither may meet entries of another kind.
            key_salt: if players > 2 {
                0x51A7_0000_0000_0001u64
                    .wrapping_mul(root.side_to_move() as u64 + 1 + 4 * u64::from(settings.best_reply))
            } else {
                0
            } ^ if settings.noise.leaf > 0 {
                crate::rng::Rng::new(settings.noise.seed).next_u64() | 1
            } else {
                0
            },
            tt,
            control,
            shared,
            helper: false,
            ordering: Ordering::new(),
            correction: (settings.noise.leaf == 0 && settings.noise.root == 0 && limits.mate.is_none())
                .then(Correction::new),
            nodes: 0,
            published: 0,
            seldepth: 0,
            node_limit: limits.nodes,
            budget: time_budget(limits, root.side_to_move(), settings.move_overhead),
            path,
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            aborted: false,
            best_reply: settings.best_reply && players > 2,
            exhaustive: limits.mate.is_some(),
            multi_pv: settings.multi_pv.max(1),
            noise: settings.noise,
            passed: vec![false; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            root_depth: 1,
            tables,
        }
    }
}

impl<G: Position + Strategy> Searcher<'_, G> {
    #[inline]
    pub(super) fn evaluate(&self, pos: &G) -> i32 {
        let mut value = pos.evaluate(self.root_side);
        if self.noise.leaf > 0 {
            // Keyed by the position, so a transposition gets the same offset.
            let draw = crate::rng::Rng::new(pos.hash() ^ self.noise.seed).next_u64();
            value += (draw % (2 * self.noise.leaf as u64 + 1)) as i32 - self.noise.leaf;
        }
        if pos.side_to_move() == self.root_side {
            value
        } else {
            -value
        }
    }

    /// The static value corrected by what the search learnt of positions
    /// with the same structures (see [`Correction`]), with the structures'
    /// keys when it can be corrected.
    #[inline]
    pub(super) fn corrected(&self, pos: &G) -> (i32, Option<[u64; 2]>) {
        self.corrected_by(pos, self.correction_keys(pos))
    }

    /// The structure keys of `pos` when this search corrects its values
    /// (and only then are they worked out).
    #[inline]
    pub(super) fn correction_keys(&self, pos: &G) -> Option<[u64; 2]> {
        self.correction.as_ref().and_then(|_| pos.correction_keys())
    }

    /// [`Searcher::corrected`] with the keys already worked out.
    #[inline]
    pub(super) fn corrected_by(&self, pos: &G, keys: Option<[u64; 2]>) -> (i32, Option<[u64; 2]>) {
        let value = self.evaluate(pos);
        match (&self.correction, keys) {
            (Some(correction), Some(keys)) if value.abs() < CORRECTED_BELOW => {
                (value + correction.of(keys, pos.side_to_move()), Some(keys))
            }
            _ => (value, None),
        }
    }

    /// Learns from a node searched `depth` plies deep whose static value
    /// was `stand` (with its structure keys), within `alpha`..`beta`, that
    /// came out at `searched`: not from bounds on the side of the static
    /// value, which say nothing of its error, nor from forced results.
    pub(super) fn learn_correction(
        &mut self,
        pos: &G,
        keys: [u64; 2],
        stand: i32,
        depth: u32,
        window: (i32, i32),
        searched: i32,
    ) {
        let (alpha, beta) = window;
        let says_nothing =
            (searched >= beta && searched <= stand) || (searched <= alpha && searched >= stand);
        if let Some(correction) = &mut self.correction {
            if !self.aborted && !says_nothing && searched.abs() < CORRECTED_BELOW {
                correction.learn(keys, pos.side_to_move(), depth, searched, stand);
            }
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

    /// Completes a principal variation cut short by table cutoffs (the
    /// search takes them on the principal variation too) with the moves the
    /// table keeps for the positions that follow, up to `length` moves: each
    /// must be legal there, and the line stops at the end of the game or
    /// where it would repeat a position. Only reads the table.
    pub(super) fn complete_line(&self, root: &G, line: &mut Vec<G::Move>, length: usize) {
        let mut pos = root.clone();
        let mut seen = vec![pos.hash()];
        for &mv in line.iter() {
            pos.make_move(mv);
            seen.push(pos.hash());
        }
        while line.len() < length && pos.outcome().is_none() {
            let Some(code) = self.tt.probe(pos.hash() ^ self.key_salt).and_then(|hit| hit.mv) else {
                break;
            };
            let mut moves = MoveList::default();
            pos.generate_moves(&mut moves);
            let Some(&mv) = moves.iter().find(|&&m| G::move_code(m) == code) else {
                break;
            };
            pos.make_move(mv);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            line.push(mv);
        }
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
            self.check_clock();
        }
        self.aborted
    }

    /// Aborts the search when its time is up or it was stopped. Called every
    /// [`CHECK_EVERY`] nodes, and after a node the game solved itself, which
    /// may have cost as much as thousands of nodes (a pawn race's table:
    /// about a millisecond on 9x9): at a few milliseconds a move, checking
    /// only by node counts lost games on time.
    pub(super) fn check_clock(&mut self) {
        let out_of_time = match self.budget {
            Some(budget) if !self.control.pondering() => self.control.started().elapsed() >= budget.hard,
            _ => false,
        };
        self.aborted |= out_of_time || self.control.stopped();
    }
}

/// Mate scores are stored relative to the node, not the root.
pub(super) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
