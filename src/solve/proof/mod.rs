//! Exact values of two-player Quoridor by proof search: the value of one
//! position is proved without valuing every position reachable from it.
//!
//! Two questions, each answered exactly with yes or no: "can the player to
//! move force a win?", then if not, "can the other player?"; neither is a
//! draw (as the retrograde methods count it: nobody can force a win, the
//! game may go on for ever). `wins` answers them layer by layer (a layer
//! is a wall set with the walls in hand; walls never leave the board, so a
//! cycle never leaves its layer), with the answers of wall moves asked of
//! the deeper layers first and a local fixed point within the layer; its
//! documentation gives the argument that no answer depends on the path
//! that led to it. Once the winner is known, `distance` finds how fast it
//! wins by asking "within n plies?" for growing n, a finite question with
//! no cycles to mind. The line shown follows the distances: the winner's
//! quickest win against the longest defence.
//!
//! Everything goes into one [`table`] keyed by the full position (its
//! mirror image shares the entry), bounded by the memory limit, where a
//! full table replaces entries rather than failing. Pawn races (no wall in
//! hand on either side) are searched like any layer: valuing each race
//! layout whole with the engine's race solver (exact under the same rules)
//! was measured slower, 42 s against 29 s on 9x3 with 4 walls, and took
//! more memory.

mod distance;
mod layouts;
mod notation;
mod rules;
pub mod table;
mod wins;

use super::{Method, Progress, Solution, SolveError, SolveLimits, Value, Winner, DRAW_LINE};
use crate::game::prelude::*;
use crate::game::Outcome;
use crate::games::quoridor::Quoridor;
use layouts::Layouts;
use rules::{Move, Shape};
use std::time::Instant;
use table::Table;

/// How often progress is reported, in nodes searched.
const REPORT_EVERY: u64 = 1 << 16;

/// Whether the proof search can solve this position: two players, at most
/// 64 squares and 50 wall centres (positions pack into 128-bit keys: 5x5
/// to 8x8, 3x11, 4x15), fewer than 32 walls in hand.
pub fn applies(position: &Quoridor) -> bool {
    Shape::of(position).is_some()
}

/// A proof search and what it has proved so far.
pub struct ProofSearch<'a> {
    shape: Shape,
    table: Table,
    layouts: Layouts,
    limits: &'a SolveLimits<'a>,
    progress: &'a mut dyn FnMut(Progress),
    nodes: u64,
    /// The phase reported: 3 while proving who wins, 4 while finding how
    /// fast; when it began and the nodes before it.
    phase: u8,
    phase_began: Instant,
    phase_nodes: u64,
    /// Who wins, once phase 3 has proved it, and the fewest plies it can
    /// take (raised as phase 4 refutes quicker wins).
    winner: Option<(Winner, u32)>,
    /// Layer searches' memory, for reuse (one per layer being searched).
    locals: Vec<wins::Local>,
    move_buffer: Vec<Move>,
    /// The children of the positions `distance` is searching, one list a
    /// ply deep, for reuse.
    children_buffers: Vec<Vec<distance::Child>>,
}

impl<'a> ProofSearch<'a> {
    /// A search for positions of `start`'s board within `limits`: three
    /// quarters of the memory for the table, an eighth for layouts, and an
    /// eighth left for what is not counted (layer searches, the maps'
    /// spare room, the allocator's): 4x7 with 8 walls held 1.2 GiB of it.
    pub fn new(
        start: &Quoridor,
        limits: &'a SolveLimits<'a>,
        progress: &'a mut dyn FnMut(Progress),
    ) -> Result<ProofSearch<'a>, SolveError> {
        let shape = Shape::of(start).ok_or(SolveError::Method(Method::Proof))?;
        let layouts = Layouts::new(limits.max_bytes / 8);
        let table = Table::new(shape.key_bits(), limits.max_bytes / 4 * 3);
        Ok(ProofSearch {
            shape,
            table,
            layouts,
            limits,
            progress,
            nodes: 0,
            phase: 3,
            phase_began: Instant::now(),
            phase_nodes: 0,
            winner: None,
            locals: Vec::new(),
            move_buffer: Vec::new(),
            children_buffers: Vec::new(),
        })
    }

    /// The exact value of `start` for the player to move.
    pub fn value(&mut self, start: &Quoridor) -> Result<Value, SolveError> {
        let mover = start.side_to_move();
        // A run stopped before it began does not start (the flag is
        // otherwise read every REPORT_EVERY nodes).
        if self.limits.stopped() {
            return Err(SolveError::Stopped);
        }
        if let Some(Outcome::Win(w)) = start.outcome() {
            return Ok(if w == mover { Value::Win(0) } else { Value::Loss(0) });
        }
        let pos = self.shape.pos_of(start);
        self.begin_phase(3);
        let winner = if self.wins(&pos, mover)? {
            Some(mover)
        } else if self.wins(&pos, 1 - mover)? {
            Some(1 - mover)
        } else {
            None
        };
        self.winner = winner.map(|x| if x == mover { (Winner::First, 1) } else { (Winner::Second, 2) });
        self.begin_phase(4);
        Ok(match winner {
            Some(x) if x == mover => Value::Win(self.distance(&pos, x)?),
            Some(x) => Value::Loss(self.distance(&pos, x)?),
            None => Value::Draw,
        })
    }

    /// A line of best play from `start`, whose value is `value`: the
    /// winner's quickest win against the longest defence, or moves that
    /// keep the draw.
    pub fn line(&mut self, start: &Quoridor, value: Value) -> Result<Vec<String>, SolveError> {
        let mover = start.side_to_move();
        let (winner, mut left) = match value {
            Value::Win(d) => (Some(mover), d),
            Value::Loss(d) => (Some(1 - mover), d),
            Value::Draw => (None, DRAW_LINE as u32),
        };
        let mut line = Vec::new();
        let mut pos = self.shape.pos_of(start);
        let mut moves = Vec::new();
        while left > 0 && start.outcome().is_none() {
            let side = pos.side as usize;
            let layout = self.layouts.get(&self.shape, pos.walls);
            self.shape.ordered_moves(&pos, &layout, &mut moves);
            let mut chosen = None;
            for &mv in &moves {
                let (child, _) = self.shape.play(&pos, &layout, mv);
                let ends = matches!(mv, Move::Step(s) if self.shape.on_goal(side, s));
                let keeps = match winner {
                    // The winner wins one ply sooner after its move; the
                    // loser's longest defence is one ply shorter.
                    Some(x) if x == side => ends || self.within(&child, x, left - 1)?,
                    Some(x) => !ends && !self.within(&child, x, left.saturating_sub(2))?,
                    // A draw: a move after which the other cannot win.
                    None => !ends && !self.wins(&child, 1 - side)?,
                };
                if keeps {
                    chosen = Some((mv, child, ends));
                    break;
                }
            }
            let Some((mv, child, ends)) = chosen else { break };
            line.push(self.shape.move_text(&layout, mv));
            if ends {
                break;
            }
            pos = child;
            left -= 1;
        }
        Ok(line)
    }

    /// Positions in the table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// Reports the phase that ends (when it searched anything) and starts
    /// the next.
    fn begin_phase(&mut self, phase: u8) {
        if self.nodes > self.phase_nodes {
            self.report();
        }
        (self.phase, self.phase_began, self.phase_nodes) = (phase, Instant::now(), self.nodes);
    }

    fn report(&mut self) {
        (self.progress)(Progress {
            phase: self.phase,
            positions: self.table.len(),
            done: (self.nodes - self.phase_nodes) as usize,
            phase_time: self.phase_began.elapsed(),
            winner: self.winner,
        });
    }

    /// Counts a node searched; reports progress and heeds the stop flag
    /// now and then. Returns the count before this node.
    fn count_node(&mut self) -> Result<u64, SolveError> {
        let before = self.nodes;
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            if self.limits.stopped() {
                return Err(SolveError::Stopped);
            }
            self.report();
        }
        Ok(before)
    }
}

/// Solves a two-player Quoridor position by proof search.
pub fn solve_proof(
    start: &Quoridor,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solution, SolveError> {
    let mut search = ProofSearch::new(start, limits, progress)?;
    let value = search.value(start)?;
    let line = search.line(start, value)?;
    search.begin_phase(4);
    Ok(Solution { value, line, positions: search.positions(), counts: None, method: Method::Proof })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Variant;
    use std::sync::atomic::AtomicBool;

    fn quoridor(width: usize, height: usize, walls: usize) -> Quoridor {
        Quoridor::new(&Variant { width, height, walls, ..Variant::default() }).expect("a variant")
    }

    fn limits(max_bytes: usize) -> SolveLimits<'static> {
        SolveLimits { max_bytes, stop: None, threads: 1 }
    }

    #[test]
    fn small_boards_are_solved_and_their_lines_end_the_game() {
        for (width, height, walls, value) in [
            (3, 3, 0, Value::Loss(4)),
            (3, 3, 1, Value::Loss(8)),
            (3, 4, 2, Value::Win(13)),
            (2, 3, 1, Value::Win(3)),
            (4, 3, 3, Value::Win(13)),
        ] {
            let start = quoridor(width, height, walls);
            let solution = solve_proof(&start, &limits(1 << 26), &mut |_| {}).expect("small");
            assert_eq!(solution.value, value, "{width}x{height} walls={walls}");
            let mut end = start.clone();
            for text in &solution.line {
                end.make_move(end.parse_move(text).expect("legal"));
            }
            let winner = if matches!(value, Value::Win(_)) { 0 } else { 1 };
            assert_eq!(end.outcome(), Some(Outcome::Win(winner)));
            assert_eq!(
                solution.line.len(),
                match value {
                    Value::Win(d) | Value::Loss(d) => d as usize,
                    _ => 0,
                }
            );
        }
    }

    #[test]
    fn a_tiny_memory_replaces_entries_and_still_proves() {
        let start = quoridor(4, 4, 2);
        let roomy = solve_proof(&start, &limits(1 << 28), &mut |_| {}).expect("small");
        let tiny = limits(64 << 10);
        let mut quiet = |_| {};
        let mut search = ProofSearch::new(&start, &tiny, &mut quiet).expect("applies");
        assert_eq!(search.value(&start), Ok(roomy.value));
        assert!(search.table.replaced() > 0 && search.table.bytes() <= 64 << 10);
    }

    #[test]
    fn the_stop_flag_ends_a_search_and_progress_is_reported() {
        let stop = AtomicBool::new(true);
        let stopped = SolveLimits { max_bytes: 1 << 30, stop: Some(&stop), threads: 1 };
        let mut reports = 0;
        let result = solve_proof(&quoridor(5, 5, 3), &stopped, &mut |_| reports += 1);
        assert_eq!(result, Err(SolveError::Stopped));
        let mut seen = Vec::new();
        solve_proof(&quoridor(4, 5, 3), &limits(1 << 30), &mut |p| seen.push(p)).expect("small");
        // Who wins, then how fast, each ending with a report; phase 4 names
        // the winner (4x5 with 3 walls: the second player), and the fewest
        // plies its win can take grows to the distance, 28.
        assert_eq!(seen.iter().map(|p| p.phase).collect::<std::collections::BTreeSet<_>>(), [3, 4].into());
        let fast: Vec<(Winner, u32)> =
            seen.iter().filter(|p| p.phase == 4).filter_map(|p| p.winner).collect();
        assert!(!fast.is_empty() && fast.iter().all(|&(w, _)| w == Winner::Second), "{seen:?}");
        assert!(
            fast.windows(2).all(|w| w[0].1 <= w[1].1) && fast.last().map(|w| w.1) == Some(28),
            "{fast:?}"
        );
        assert!(seen.iter().all(|p| p.positions > 0), "{seen:?}");
        assert_eq!(reports, 0);
    }

    #[test]
    fn only_two_players_on_boards_whose_keys_fit() {
        let four =
            Quoridor::new(&Variant { width: 5, height: 5, players: 4, ..Variant::default() }).expect("4p");
        assert!(!applies(&four) && !applies(&quoridor(9, 9, 10)) && applies(&quoridor(8, 8, 10)));
        assert_eq!(
            solve_proof(&four, &limits(1 << 20), &mut |_| {}).err(),
            Some(SolveError::Method(Method::Proof))
        );
    }
}
