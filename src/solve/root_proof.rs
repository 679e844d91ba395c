//! What the exact solver can prove about a Quarto position within a move's
//! time, one question at a time, each cheaper than the full value: is
//! there a winning move (quick to answer when there is one), which move is
//! the quickest win, which move holds at least a draw (quick, where proving
//! that no win exists is not), which loss is the slowest. Every answer is a
//! move of the position with a proven bound on its value; a question that
//! runs out of time answers nothing, and what it proved stays in the
//! solver's table for the next.

use super::alphabeta::{to_value, value_moves, AlphaBeta, ProofTable, WIN};
use super::{SolveError, SolveLimits, Value};
use crate::game::Position;
use crate::games::quarto::{Quarto, QuartoMove};
use std::time::Instant;

/// A move and what is proven about it: its score as the solver counts
/// (a win in `d` plies is `WIN - d`), and whether that is its exact value
/// or only a bound in the move's favour (a win in at most `d` plies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The move.
    pub mv: QuartoMove,
    /// Its score from the mover's side.
    pub score: i32,
    /// Whether `score` is the value; otherwise the value is at least it.
    pub exact: bool,
}

impl Proven {
    /// The value the score stands for (for a bound: the least it is).
    pub fn value(&self) -> Value {
        to_value(self.score)
    }
}

/// The solver and its table, kept across the questions about one root.
pub struct RootProver<'a> {
    solver: AlphaBeta<'a>,
    root: Quarto,
    moves: Vec<QuartoMove>,
    /// Moves proven to lose so far.
    losing: Vec<QuartoMove>,
}

impl<'a> RootProver<'a> {
    /// A prover for `root` within `limits` (its memory and stop flag),
    /// going on with `table` (of the same rules) when there is one.
    pub fn new(limits: &'a SolveLimits<'a>, root: &Quarto, table: Option<ProofTable>) -> RootProver<'a> {
        let solver = match table {
            Some(table) => AlphaBeta::with_table(limits, table),
            None => AlphaBeta::new(limits),
        };
        RootProver {
            solver,
            root: root.clone(),
            moves: value_moves(root).as_slice().to_vec(),
            losing: Vec::new(),
        }
    }

    /// The solver's table, for the next root of the same rules.
    pub fn into_table(self) -> ProofTable {
        self.solver.into_table()
    }

    /// Positions the solver searched so far.
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    /// The root's moves that keep its value, in the solver's order.
    pub fn moves(&self) -> &[QuartoMove] {
        &self.moves
    }

    /// The score of `mv` within `(alpha, beta)`.
    fn score(&mut self, mv: QuartoMove, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        let mut child = self.root.clone();
        child.make_move(mv);
        self.solver.child_score(&child, alpha, beta)
    }

    /// A winning move (with a bound on how fast it wins), or `None` when
    /// the root has none, by `deadline`.
    pub fn find_win(&mut self, deadline: Instant) -> Result<Option<Proven>, SolveError> {
        self.solver.set_deadline(deadline);
        for mv in self.moves.clone() {
            let score = self.score(mv, 0, 1)?;
            if score > 0 {
                return Ok(Some(Proven { mv, score, exact: false }));
            }
        }
        Ok(None)
    }

    /// The quickest win, given a winning move, by `deadline`.
    pub fn quickest_win(&mut self, known: Proven, deadline: Instant) -> Result<Proven, SolveError> {
        self.best_within(known.mv, 0, WIN, deadline)
    }

    /// The slowest loss of a root where every move loses, by `deadline`.
    pub fn slowest_loss(&mut self, deadline: Instant) -> Result<Proven, SolveError> {
        let first = self.moves.first().copied().ok_or(SolveError::Stopped)?;
        self.best_within(first, -WIN, 0, deadline)
    }

    /// The best move and its exact score, the root's value known to lie in
    /// `(floor, ceiling]`; `first` is searched first.
    fn best_within(
        &mut self,
        first: QuartoMove,
        floor: i32,
        ceiling: i32,
        deadline: Instant,
    ) -> Result<Proven, SolveError> {
        self.solver.set_deadline(deadline);
        let mut order = self.moves.clone();
        if let Some(i) = order.iter().position(|&m| m == first) {
            order[..=i].rotate_right(1);
        }
        let (mut best, mut alpha) = (first, floor);
        for mv in order {
            let score = self.score(mv, alpha, ceiling)?;
            if score > alpha {
                (best, alpha) = (mv, score);
            }
        }
        Ok(Proven { mv: best, score: alpha, exact: true })
    }

    /// The first of `preferred` (then of the solver's moves) proven to hold
    /// at least a draw, or `None` when every move is proven to lose, by
    /// `deadline`. (Proving the moves in rounds of growing node budgets
    /// found the cheapest proof but cost 3 to 20 times more in all: where
    /// every move holds, every proof is long.)
    pub fn holding_move(
        &mut self,
        preferred: &[QuartoMove],
        deadline: Instant,
    ) -> Result<Option<Proven>, SolveError> {
        let mut order: Vec<QuartoMove> =
            preferred.iter().copied().filter(|m| self.moves.contains(m)).collect();
        order.extend(self.moves.iter().copied().filter(|m| !preferred.contains(m)));
        for mv in order {
            let score = self.hold_score(mv, deadline)?;
            if score >= 0 {
                return Ok(Some(Proven { mv, score, exact: false }));
            }
        }
        Ok(None)
    }

    /// Whether `mv` holds at least a draw, by `deadline`.
    pub fn holds(&mut self, mv: QuartoMove, deadline: Instant) -> Result<bool, SolveError> {
        Ok(self.hold_score(mv, deadline)? >= 0)
    }

    /// A bound on `mv`'s score around the draw: at least 0 when it holds
    /// (above 0: it wins), below 0 when it loses.
    fn hold_score(&mut self, mv: QuartoMove, deadline: Instant) -> Result<i32, SolveError> {
        if self.losing.contains(&mv) {
            return Ok(-1);
        }
        self.solver.set_deadline(deadline);
        let score = self.score(mv, -1, 0)?;
        if score < 0 {
            self.losing.push(mv);
        }
        Ok(score)
    }

    /// The moves proven so far to lose.
    pub fn losing(&self) -> &[QuartoMove] {
        &self.losing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use std::time::Duration;

    fn limits() -> SolveLimits<'static> {
        SolveLimits { max_bytes: 64 << 20, stop: None, threads: 1 }
    }

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(600)
    }

    /// The value of `position` by the whole solver.
    fn value(position: &Quarto) -> Value {
        let limits = limits();
        AlphaBeta::new(&limits).solve(position, &mut |_| {}).expect("solved")
    }

    fn after(position: &Quarto, mv: QuartoMove) -> Quarto {
        let mut child = position.clone();
        child.make_move(mv);
        child
    }

    #[test]
    fn each_answer_keeps_the_value_the_whole_solver_finds() {
        for text in [
            // A level-2 win in 11 plies (issue 51's seed 1001).
            "quarto 4x4 level=2 board=4.../...5/3.../...e hand=6 turn=2",
            "quarto 4x4 level=1 board=..3./.5../.ca./0..f hand=7 turn=2",
            "quarto 4x4 level=2 board=..../.5../.ca./0..f hand=3 turn=1",
            "quarto 4x4 level=4 board=..../.5../..a./0..f hand=3 turn=2",
            "quarto 4x4 level=3 board=.1../5..a/4.../.... hand=d turn=2",
        ] {
            let root = Quarto::from_text(text).expect("a position");
            let whole = value(&root);
            let limits = limits();
            let mut prover = RootProver::new(&limits, &root, None);
            let win = prover.find_win(later()).expect("in time");
            match whole {
                Value::Win(plies) => {
                    let found = win.expect("a win");
                    let quickest = prover.quickest_win(found, later()).expect("in time");
                    assert_eq!(quickest.value(), whole, "{text}");
                    assert_eq!(value(&after(&root, quickest.mv)), Value::Loss(plies - 1), "{text}");
                }
                _ => assert_eq!(win, None, "{text}"),
            }
            match prover.holding_move(&[], later()).expect("in time") {
                Some(hold) => {
                    assert!(!matches!(whole, Value::Loss(_)), "{text}");
                    let reply = value(&after(&root, hold.mv));
                    assert!(
                        !matches!(reply, Value::Win(_)),
                        "{text}: {} lets the opponent win",
                        root.format_move(hold.mv)
                    );
                }
                None => {
                    let Value::Loss(plies) = whole else { panic!("{text}: no move holds a {whole:?}") };
                    assert_eq!(prover.slowest_loss(later()).expect("in time").value(), Value::Loss(plies));
                }
            }
        }
    }

    #[test]
    fn a_table_kept_from_the_last_root_proves_the_next_in_fewer_nodes() {
        let root = Quarto::from_text("quarto 4x4 level=2 board=..../.5../.ca./0..f hand=3 turn=1")
            .expect("a position");
        let limits = limits();
        let mut first = RootProver::new(&limits, &root, None);
        let hold = first.holding_move(&[], later()).expect("in time").expect("a holding move");
        let table = first.into_table();
        assert!(!table.is_empty());
        // The game goes on with the move proven; the opponent replies.
        let mut next = after(&root, hold.mv);
        let reply = value_moves(&next).as_slice()[0];
        next.make_move(reply);
        let nodes = |table: Option<ProofTable>| {
            let mut prover = RootProver::new(&limits, &next, table);
            let answer = prover.holding_move(&[], later()).expect("in time").map(|p| p.mv);
            (answer.is_some(), prover.nodes())
        };
        let (fresh_found, fresh) = nodes(None);
        let (kept_found, kept) = nodes(Some(table));
        assert_eq!(fresh_found, kept_found);
        assert!(kept < fresh, "with the kept table {kept} nodes, without {fresh}");
    }

    #[test]
    fn a_question_out_of_time_answers_nothing() {
        let root = Quarto::from_text("quarto 4x4 level=1 board=.1../5..a/..../.... hand=4 turn=1")
            .expect("a position");
        let limits = limits();
        let mut prover = RootProver::new(&limits, &root, None);
        assert_eq!(prover.find_win(Instant::now()), Err(SolveError::Stopped));
    }

    #[test]
    fn a_preferred_move_that_holds_is_the_one_answered() {
        // A draw at level 1: the first preferred move proven to hold is kept.
        let root = Quarto::from_text("quarto 4x4 level=1 board=..3./.5../.ca./0..f hand=7 turn=2")
            .expect("a position");
        let limits = limits();
        let mut prover = RootProver::new(&limits, &root, None);
        let holds: Vec<QuartoMove> = prover
            .moves()
            .to_vec()
            .into_iter()
            .filter(|&mv| !matches!(value(&after(&root, mv)), Value::Win(_)))
            .collect();
        let last = *holds.last().expect("a holding move");
        assert_eq!(prover.holding_move(&[last], later()).expect("in time").map(|p| p.mv), Some(last));
    }
}
