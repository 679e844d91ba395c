//! What one search leaves the next search of the same game besides the
//! table's entries: the move-ordering history and the correction history.
//!
//! The next search starts two plies further on, where most of what these
//! taught still holds; at a fast time control learning them again is a good
//! part of the search (self-play at 0.1 s a move: +60 Elo, see
//! docs/strength.md). The table ([`TranspositionTable`]) keeps them and
//! forgets them with its entries (`ucinewgame`, `Clear Hash`, a new `Hash`).
//! The killers are dropped: they belong to plies counted from the old root.
//!
//! Only the main thread takes them and leaves them; helper threads start
//! empty. A playing level's search neither takes nor leaves anything, so
//! that a level plays a game the same way whatever came before, and
//! neither does `go mate`, whose search has no correction and orders its
//! moves for proofs.

use super::correction::Correction;
use super::limits::{Limits, Noise, SearchSettings};
use super::ordering::Ordering;
use super::searcher::Searcher;
use super::tt::TranspositionTable;
use crate::game::{Position, Strategy};

/// The histories a search learnt (see the module documentation).
pub struct Learned {
    ordering: Ordering,
    /// `None` where the search corrected nothing (four players).
    correction: Option<Correction>,
}

impl Learned {
    /// Whether a search with these limits and settings takes what the last
    /// one learnt and leaves its own.
    pub(super) fn carried(limits: &Limits, settings: &SearchSettings) -> bool {
        settings.noise == Noise::default() && limits.mate.is_none()
    }

    /// What `tt` holds from the last search, taken out of it.
    pub(super) fn take(tt: &mut TranspositionTable) -> Option<Learned> {
        tt.learned.take()
    }

    /// Hands the histories to the main thread's searcher.
    pub(super) fn lend<G: Position + Strategy>(self, searcher: &mut Searcher<'_, G>) {
        let Learned { mut ordering, correction } = self;
        ordering.forget_killers();
        searcher.ordering = ordering;
        if let (Some(mine), Some(kept)) = (searcher.correction.as_mut(), correction) {
            *mine = kept;
        }
    }

    /// What `searcher` learnt, for the next search.
    pub(super) fn of<G: Position + Strategy>(searcher: Searcher<'_, G>) -> Learned {
        Learned { ordering: searcher.ordering, correction: searcher.correction }
    }

    /// Leaves `learned` in `tt` for the next search.
    pub(super) fn keep(tt: &mut TranspositionTable, learned: Option<Learned>) {
        tt.learned = learned;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Quoridor;
    use crate::search::{search, Control};

    fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    /// A search of `position` in `tt`, its node count returned.
    fn run(
        position: &Quoridor,
        tt: &mut TranspositionTable,
        limits: &Limits,
        settings: &SearchSettings,
    ) -> u64 {
        search(position, &[], limits, settings, tt, &Control::new(false), &mut |_| {}).nodes
    }

    /// Nodes of a depth-8 search two plies after a depth-8 search of the
    /// start, with the table's entries emptied in between; `forget`
    /// empties what the first search learnt too.
    fn second_search_nodes(forget: bool) -> u64 {
        let start = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
        let later = Quoridor::from_text("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1").unwrap();
        let settings = SearchSettings::default();
        let mut tt = TranspositionTable::new(4);
        search(&start, &[], &depth(8), &settings, &mut tt, &Control::new(false), &mut |_| {});
        let learned = Learned::take(&mut tt);
        assert!(learned.is_some(), "a full-strength search leaves what it learnt");
        tt.clear();
        if !forget {
            Learned::keep(&mut tt, learned);
        }
        search(&later, &[], &depth(8), &settings, &mut tt, &Control::new(false), &mut |_| {}).nodes
    }

    #[test]
    fn the_next_search_starts_from_what_the_last_one_learnt() {
        assert_ne!(second_search_nodes(false), second_search_nodes(true));
        // Without the histories it is the search of an empty table.
        let later = Quoridor::from_text("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1").unwrap();
        let mut tt = TranspositionTable::new(4);
        let fresh = run(&later, &mut tt, &depth(8), &SearchSettings::default());
        assert_eq!(fresh, second_search_nodes(true));
    }

    #[test]
    fn the_main_searcher_gets_both_histories_and_no_killers() {
        use super::super::threads::SharedCounters;
        let start = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
        let later = Quoridor::from_text("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=d7h turn=1").unwrap();
        let settings = SearchSettings::default();
        let control = Control::new(false);
        let mut tt = TranspositionTable::new(1);
        search(&start, &[], &depth(6), &settings, &mut tt, &control, &mut |_| {});
        let learned = Learned::take(&mut tt).unwrap();
        let histories =
            |o: &Ordering| (0..1024u16).map(|code| o.score(code, None, 40, 0)).collect::<Vec<_>>();
        let taught = histories(&learned.ordering);
        assert!(taught.iter().any(|&h| h != 0));
        let keys = later.correction_keys().unwrap();
        let corrected = learned.correction.as_ref().unwrap().of(keys, 0);
        assert_ne!(corrected, 0, "the search corrected positions with these walls");
        let shared = SharedCounters::new(1);
        let tt = TranspositionTable::new(1);
        let mut searcher = Searcher::new(&later, &[], &depth(6), &settings, &tt, &control, &shared);
        learned.lend(&mut searcher);
        assert_eq!(histories(&searcher.ordering), taught);
        assert_eq!(searcher.ordering.killers(1), [u16::MAX; 2]);
        assert_eq!(searcher.correction.as_ref().unwrap().of(keys, 0), corrected);
    }

    #[test]
    fn levels_and_mate_searches_neither_take_nor_leave_histories() {
        let start = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
        let mut tt = TranspositionTable::new(1);
        let control = Control::new(false);
        let noisy =
            SearchSettings { noise: Noise { leaf: 10, root: 40, seed: 3 }, ..SearchSettings::default() };
        search(&start, &[], &depth(4), &noisy, &mut tt, &control, &mut |_| {});
        assert!(Learned::take(&mut tt).is_none());
        let mate = Limits { mate: Some(2), ..Limits::default() };
        search(&start, &[], &mate, &SearchSettings::default(), &mut tt, &control, &mut |_| {});
        assert!(Learned::take(&mut tt).is_none());
        // A full-strength search leaves them, and a level's search leaves
        // them where they were.
        search(&start, &[], &depth(4), &SearchSettings::default(), &mut tt, &control, &mut |_| {});
        search(&start, &[], &depth(4), &noisy, &mut tt, &control, &mut |_| {});
        assert!(Learned::take(&mut tt).is_some());
    }

    #[test]
    fn a_cleared_table_forgets_what_searches_learnt() {
        let start = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
        let mut tt = TranspositionTable::new(1);
        run(&start, &mut tt, &depth(4), &SearchSettings::default());
        tt.clear();
        assert!(Learned::take(&mut tt).is_none());
    }
}
