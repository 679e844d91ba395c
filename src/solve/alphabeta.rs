//! Exact values of Quarto by depth-first minimax with alpha-beta. Quarto
//! has no cycles (every move places a piece), so a depth-first search is
//! exact; alpha-beta only skips moves that cannot change the value, and
//! the table that remembers bounds is keyed by the position's full
//! canonical key (equal for exactly the positions related by a symmetry of
//! the rules; near the end by its cells as they stand), never by a hash. Scores count plies, so the value carries
//! the distance: the quickest win, the longest defence.
//!
//! The search asks who wins first (a window around the draw, where any win
//! cuts), then how fast (a window that leaves out what the first pass
//! proved). It searches the moves that keep the value (a win at once when
//! there is one, never a piece that wins at once for the opponent while a
//! safe one exists, one move of each symmetric group while few pieces are
//! down), the table's best move first, then the moves that leave the
//! opponent the fewest safe replies, and the last four placements by the
//! game's own small recursion. The table is bounded by the memory
//! limit; full, it replaces the entries that took the least work, so a run
//! never stops for memory, it only searches more.

use super::buckets::{work_of, Buckets, KeyWord};
use super::{line_by_values, Progress, SolveError, SolveLimits, Value};
use crate::game::Position;
use crate::game::{MoveList, Outcome, Solved};
use crate::games::quarto::{Quarto, QuartoMove};
use std::cell::RefCell;
use std::time::Instant;

/// A win at ply `p` from the root scores `WIN - p` for the winner.
pub const WIN: i32 = 1_000;
/// How often progress is reported, in nodes.
const REPORT_EVERY: u64 = 1 << 18;
/// With this many placements left or fewer, positions are keyed by their
/// cells as they stand, not by their canonical form: symmetric
/// transpositions are rare so late, and the canonical form is costly.
const RAW_KEY_MAX_LEFT: u32 = 8;
/// How often the deadline is looked at, in nodes (a few microseconds).
const CLOCK_EVERY: u64 = 1 << 10;
/// With this many placements left or more, the moves are ordered by the
/// opponent's safe replies, fewest first (docs/solver.md: 9.4 times faster
/// on twelve positions with 3 and 4 pieces placed; from 5, 6 or 7 left
/// alike, from 9 left 5.7 times, from 11 left 1.9 times).
const ORDER_MIN_LEFT: u32 = 6;

/// Bounds on a position's score, relative to the position (a win in `d`
/// plies from it is `WIN - d`).
#[derive(Clone, Copy)]
struct Bounds {
    lower: i16,
    upper: i16,
    /// The code of the move that last raised the lower bound (0: none):
    /// tried first when the position is searched again.
    best: u16,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { lower: -WIN as i16, upper: WIN as i16, best: 0 }
    }
}

/// A solver and the table it has filled.
pub struct AlphaBeta<'a> {
    limits: &'a SolveLimits<'a>,
    /// Bounds by canonical key, within the memory limit (full, it
    /// replaces the entries that took the least work); five entries of
    /// 24 bytes a bucket of two cache lines.
    table: Buckets<[u64; 2], Bounds, 5>,
    nodes: u64,
    began: Instant,
    /// Give up (as if stopped) at this time: the engine's move time.
    deadline: Option<Instant>,
}

/// A solver's table on its own, to be given to another solver of the same
/// rules: what it holds are exact bounds, true for every later search.
pub struct ProofTable(Buckets<[u64; 2], Bounds, 5>);

impl ProofTable {
    /// An empty table that grows within `max_bytes`.
    pub fn new(max_bytes: usize) -> ProofTable {
        ProofTable(Buckets::new(max_bytes))
    }

    /// Positions in the table.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why a search gave up: stopped or over the limit.
type Cut = SolveError;

impl<'a> AlphaBeta<'a> {
    /// A solver that goes on with `table` (of a solver of the same rules).
    pub fn with_table(limits: &'a SolveLimits<'a>, table: ProofTable) -> AlphaBeta<'a> {
        AlphaBeta { limits, table: table.0, nodes: 0, began: Instant::now(), deadline: None }
    }

    /// The table, for a later solver of the same rules.
    pub fn into_table(self) -> ProofTable {
        ProofTable(self.table)
    }

    /// A solver within `limits`, with an empty table.
    pub fn new(limits: &'a SolveLimits<'a>) -> AlphaBeta<'a> {
        AlphaBeta::with_table(limits, ProofTable::new(limits.max_bytes))
    }

    /// From now on, searches give up ([`SolveError::Stopped`]) at `deadline`;
    /// what they proved stays in the table.
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = Some(deadline);
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The score of the root's move that led to `child` (a win in `d`
    /// plies from the root is `WIN - d`), exact when it falls inside
    /// `(alpha, beta)`, otherwise the bound it passed.
    pub fn child_score(&mut self, child: &Quarto, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        Ok(-self.search(child, 1, -beta, -alpha, false, &mut |_| {})?)
    }

    /// Positions in the table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// The exact value of a position for the player to move.
    pub fn solve(
        &mut self,
        position: &Quarto,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Value, SolveError> {
        // Who wins first (a window around the draw: any win cuts), then
        // how fast, in a window that excludes what is already known: the
        // first pass's bounds in the table prune the second.
        let sign = self.search(position, 0, -1, 1, false, progress)?;
        let score = match sign {
            s if s > 0 => self.search(position, 0, 0, WIN, false, progress)?,
            s if s < 0 => self.search(position, 0, -WIN, 0, false, progress)?,
            _ => 0,
        };
        Ok(to_value(score))
    }

    /// The score of `position` within `(alpha, beta)` (plies to the end
    /// counted from it: a win in `d` is `1000 - d`); outside the window
    /// only a bound.
    pub fn bound(&mut self, position: &Quarto, alpha: i32, beta: i32) -> Result<i32, SolveError> {
        self.search(position, 0, alpha, beta, false, &mut |_| {})
    }

    /// A line of best play from `start` (already solved), each step checked
    /// by solving the children exactly.
    pub fn line(&mut self, start: &Quarto) -> Vec<String> {
        let me = RefCell::new(self);
        let value_of = |p: &Quarto| {
            let mut solver = me.borrow_mut();
            solver.search(p, 0, -WIN, WIN, false, &mut |_| {}).ok().map(to_value)
        };
        line_by_values(start, &value_of).map(|(_, line)| line).unwrap_or_default()
    }

    /// Negamax over `(alpha, beta)`, scores from the root (`ply` plies up);
    /// `hand_safe`: the piece in hand is known to win nowhere (the parent
    /// gave it as such).
    fn search(
        &mut self,
        position: &Quarto,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        hand_safe: bool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<i32, Cut> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && (self.limits.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(SolveError::Stopped);
        }
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            if self.limits.stopped() {
                return Err(SolveError::Stopped);
            }
            progress(Progress {
                phase: 3,
                positions: self.table.len(),
                done: self.nodes as usize,
                phase_time: self.began.elapsed(),
                winner: None,
            });
        }
        match position.outcome() {
            Some(Outcome::Win(seat)) if seat == position.side_to_move() => return Ok(WIN - ply),
            Some(Outcome::Win(_)) => return Ok(ply - WIN),
            Some(Outcome::Draw) => return Ok(0),
            None => {}
        }
        if let Some(piece) = position.hand().filter(|_| !hand_safe) {
            if position.pieces_that_win_now() >> piece & 1 == 1 {
                return Ok(WIN - ply - 1);
            }
        }
        if let Some(solved) = position.solve_endgame_knowing(hand_safe) {
            return Ok(match solved {
                Solved::WinIn(k) => WIN - ply - k as i32,
                Solved::LossIn(k) => ply + k as i32 - WIN,
                Solved::Draw => 0,
            });
        }
        let key = <[u64; 2]>::of(if position.placements_left() > RAW_KEY_MAX_LEFT {
            position.canonical()
        } else {
            position.cells_key()
        });
        let mut table_move = 0;
        if let Some(b) = self.table.find(key) {
            table_move = b.best;
            let (lower, upper) = (from_table(b.lower, ply), from_table(b.upper, ply));
            if lower >= beta || lower == upper {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let nodes_before = self.nodes;
        // The moves that keep the value (no piece handed over that wins at
        // once while a safe one exists; one of each symmetric group while
        // few pieces are down), the table's move first.
        // (As the engine's search lists them; the solver goes to the end,
        // so every node counts as far from the leaves.)
        let mut moves = MoveList::default();
        let safe = list_value_moves(position, &mut moves);
        if let Some(i) = moves.iter().position(|&m| Quarto::move_code(m) == table_move) {
            moves.as_mut_slice()[..=i].rotate_right(1);
        }
        let mut best = -WIN;
        let mut best_move = 0;
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.make_move(mv);
            let score = -self.search(&child, ply + 1, -beta, -alpha, safe, progress)?;
            if score > best {
                best = score;
                if best > alpha {
                    alpha = best;
                    best_move = Quarto::move_code(mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let entry = self.table.entry(key, work_of(self.nodes - nodes_before));
        if best > alpha_in {
            entry.lower = entry.lower.max(to_table(best, ply));
            entry.best = best_move;
        }
        if best < beta_in {
            entry.upper = entry.upper.min(to_table(best, ply));
        }
        Ok(best)
    }
}

/// The moves the solver searches, in its order: the ones that keep the
/// value (see the module's doc), the likeliest wins first.
pub fn value_moves(position: &Quarto) -> MoveList<QuartoMove> {
    let mut moves = MoveList::default();
    list_value_moves(position, &mut moves);
    moves
}

/// [`value_moves`] into `moves`, and whether no move listed gives a piece
/// that wins at once for the opponent.
fn list_value_moves(position: &Quarto, moves: &mut MoveList<QuartoMove>) -> bool {
    if position.placements_left() >= ORDER_MIN_LEFT {
        position.ordered_search_moves(moves)
    } else {
        position.unordered_search_moves(moves)
    }
}

/// A root-relative score as stored: relative to the position `ply` plies up.
fn to_table(score: i32, ply: i32) -> i16 {
    let relative = match score {
        s if s > 0 => s + ply,
        s if s < 0 => s - ply,
        _ => 0,
    };
    relative as i16
}

fn from_table(stored: i16, ply: i32) -> i32 {
    match i32::from(stored) {
        s if s >= WIN || s <= -WIN => s,
        s if s > 0 => s - ply,
        s if s < 0 => s + ply,
        _ => 0,
    }
}

/// The value a root-relative score stands for.
pub fn to_value(score: i32) -> Value {
    match score {
        s if s > 0 => Value::Win((WIN - s) as u32),
        s if s < 0 => Value::Loss((WIN + s) as u32),
        _ => Value::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(text: &str, max_bytes: usize) -> (Value, u64) {
        let limits = SolveLimits { max_bytes, stop: None, threads: 1 };
        let mut solver = AlphaBeta::new(&limits);
        let position = Quarto::from_text(text).expect("a position");
        let value = solver.solve(&position, &mut |_| {}).expect("solved");
        assert!(solver.table.bytes() <= max_bytes);
        (value, solver.table.replaced())
    }

    #[test]
    fn a_table_far_too_small_replaces_entries_and_gives_the_same_values() {
        // Thousands of positions each, for a table of a few hundred.
        for text in [
            "quarto 4x4 level=1 board=..3./.5../.ca./0..f hand=7 turn=2",
            "quarto 4x4 level=2 board=..../.5../.ca./0..f hand=3 turn=1",
            "quarto 4x4 level=4 board=..../.5../..a./0..f hand=3 turn=2",
        ] {
            let (roomy, _) = solve(text, 1 << 28);
            let (tiny, replaced) = solve(text, 64 << 10);
            assert_eq!(tiny, roomy, "{text}");
            assert!(replaced > 1000, "{text}: {replaced} replaced");
        }
    }
}
