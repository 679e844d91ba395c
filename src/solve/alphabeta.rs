//! Exact values of Quarto by depth-first minimax with alpha-beta. Quarto
//! has no cycles (every move places a piece), so a depth-first search is
//! exact; alpha-beta only skips moves that cannot change the value, and
//! the table that remembers bounds is keyed by the position's full
//! canonical key (equal for exactly the positions related by a symmetry of
//! the rules), never by a hash. Scores count plies, so the value carries
//! the distance: the quickest win, the longest defence.

use super::memory::{map_bytes, map_growth, reserve_map};
use super::{line_by_values, Progress, SolveError, SolveLimits, Value};
use crate::game::Position;
use crate::game::{MoveList, Outcome};
use crate::games::quarto::Quarto;
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Instant;

/// A win at ply `p` from the root scores `WIN - p` for the winner.
const WIN: i32 = 1_000;
/// How often progress is reported, in nodes.
const REPORT_EVERY: u64 = 1 << 18;

/// Bounds on a position's score, relative to the position (a win in `d`
/// plies from it is `WIN - d`).
#[derive(Clone, Copy)]
struct Bounds {
    lower: i16,
    upper: i16,
}

/// A solver and the table it has filled.
pub struct AlphaBeta<'a> {
    limits: &'a SolveLimits<'a>,
    table: HashMap<u128, Bounds>,
    nodes: u64,
    began: Instant,
}

/// Why a search gave up: stopped or over the limit.
type Cut = SolveError;

impl<'a> AlphaBeta<'a> {
    /// A solver within `limits`, with an empty table.
    pub fn new(limits: &'a SolveLimits<'a>) -> AlphaBeta<'a> {
        AlphaBeta { limits, table: HashMap::new(), nodes: 0, began: Instant::now() }
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
        let score = self.search(position, 0, -WIN, WIN, progress)?;
        Ok(to_value(score))
    }

    /// A line of best play from `start` (already solved), each step checked
    /// by solving the children exactly.
    pub fn line(&mut self, start: &Quarto) -> Vec<String> {
        let me = RefCell::new(self);
        let value_of = |p: &Quarto| {
            let mut solver = me.borrow_mut();
            solver.search(p, 0, -WIN, WIN, &mut |_| {}).ok().map(to_value)
        };
        line_by_values(start, &value_of).map(|(_, line)| line).unwrap_or_default()
    }

    /// Negamax over `(alpha, beta)`, scores from the root (`ply` plies up).
    fn search(
        &mut self,
        position: &Quarto,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<i32, Cut> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            if self.limits.stopped() {
                return Err(SolveError::Stopped);
            }
            progress(Progress {
                phase: 3,
                positions: self.table.len(),
                done: self.nodes as usize,
                phase_time: self.began.elapsed(),
            });
        }
        match position.outcome() {
            Some(Outcome::Win(seat)) if seat == position.side_to_move() => return Ok(WIN - ply),
            Some(Outcome::Win(_)) => return Ok(ply - WIN),
            Some(Outcome::Draw) => return Ok(0),
            None => {}
        }
        if let Some(piece) = position.hand() {
            if position.pieces_that_win_now() >> piece & 1 == 1 {
                return Ok(WIN - ply - 1);
            }
        }
        let key = position.canonical();
        if let Some(b) = self.table.get(&key) {
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
        let mut moves = MoveList::default();
        position.generate_moves(&mut moves);
        let mut best = -WIN;
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.make_move(mv);
            let score = -self.search(&child, ply + 1, -beta, -alpha, progress)?;
            if score > best {
                best = score;
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if !self.table.contains_key(&key) {
            // The table grows by doubling: the old and the new one are held at once.
            self.limits.check_bytes(map_bytes(&self.table) + map_growth(&self.table, 1))?;
            reserve_map(&mut self.table, 1, self.limits.max_bytes)?;
        }
        let entry = self.table.entry(key).or_insert(Bounds { lower: -WIN as i16, upper: WIN as i16 });
        if best > alpha_in {
            entry.lower = entry.lower.max(to_table(best, ply));
        }
        if best < beta_in {
            entry.upper = entry.upper.min(to_table(best, ply));
        }
        Ok(best)
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

fn to_value(score: i32) -> Value {
    match score {
        s if s > 0 => Value::Win((WIN - s) as u32),
        s if s < 0 => Value::Loss((WIN + s) as u32),
        _ => Value::Draw,
    }
}
