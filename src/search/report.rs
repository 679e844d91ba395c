//! What the main search thread tells its caller while it runs: a line per
//! finished iteration; in searches over a second also each aspiration
//! window that fails (with the bound it proved) and the root move in hand;
//! and a last line when the search ends inside an iteration, so that every
//! answer comes after a report of the line and the counts it rests on.

use super::searcher::Searcher;
use super::{Score, ScoreBound, SearchInfo, MATE};
use crate::game::{Position, Strategy};

/// Searches shorter than this (in milliseconds) report finished iterations
/// and their last line only; a GUI has no use for more in a blink.
pub(super) const CHATTY_AFTER_MS: u64 = 1000;

impl<G: Position + Strategy> Searcher<'_, G> {
    /// The report of line `multipv` of an iteration of `depth` plies.
    pub(super) fn info(
        &self,
        depth: u32,
        score: i32,
        line: &[G::Move],
        exact: bool,
        multipv: u32,
    ) -> SearchInfo<G::Move> {
        let seldepth = self.seldepth as u32;
        SearchInfo {
            // An iteration that searched every game to its end reached no
            // deeper than the games went, whatever depth it was given.
            depth: if exact { depth.min(seldepth.max(1)) } else { depth },
            seldepth: seldepth.max(1),
            score: Score::from_internal(score, self.score_players()),
            nodes: self.total_nodes(),
            elapsed_ms: self.elapsed_ms(),
            hashfull: self.tt.hashfull(),
            pv: line.to_vec(),
            exact,
            multipv,
            bound: ScoreBound::Exact,
            currmovenumber: 0,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.control.started().elapsed().as_millis() as u64
    }

    /// Whether this search reports within iterations: the main thread, once
    /// it has run for [`CHATTY_AFTER_MS`].
    pub(super) fn chatty(&self) -> bool {
        !self.helper && self.elapsed_ms() >= CHATTY_AFTER_MS
    }

    /// `info depth D currmove M currmovenumber N`.
    pub(super) fn report_currmove(
        &self,
        depth: u32,
        mv: G::Move,
        number: u32,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) {
        let mut info = self.info(depth, 0, &[mv], false, 1);
        info.bound = ScoreBound::Unscored;
        info.currmovenumber = number;
        report(info);
    }

    /// A window that failed: `score` bounds the value of line `multipv`.
    pub(super) fn report_bound(
        &self,
        depth: u32,
        score: i32,
        bound: ScoreBound,
        line: &[G::Move],
        multipv: u32,
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) {
        let mut info = self.info(depth, score, line, false, multipv);
        info.bound = bound;
        report(info);
    }

    /// The last line of a search stopped inside an iteration of `depth`
    /// plies. `completed` is the report of the last finished iteration's
    /// best line. When the unfinished iteration found a better move
    /// (`changed`), its score there, `partial`, is a lower bound of the
    /// value at `depth`; otherwise the finished iteration's line stands,
    /// with the counts brought up to date.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn report_last(
        &self,
        depth: u32,
        completed: Option<&SearchInfo<G::Move>>,
        changed: bool,
        partial: Option<i32>,
        line: &[G::Move],
        report: &mut dyn FnMut(SearchInfo<G::Move>),
    ) {
        let info = match (changed, partial, completed) {
            (true, Some(score), _) if score.abs() <= MATE => {
                let mut info = self.info(depth, score, line, false, 1);
                info.bound = ScoreBound::Lower;
                info
            }
            (false, _, Some(done)) => {
                let mut info = self.info(done.depth, 0, &done.pv, done.exact, 1);
                info.depth = done.depth;
                info.score = done.score;
                info
            }
            _ => {
                let mut info = self.info(depth.saturating_sub(1).max(1), 0, line, false, 1);
                info.bound = ScoreBound::Unscored;
                info
            }
        };
        report(info);
    }
}
