//! Exact game values by retrograde analysis over the whole graph of
//! positions reachable from a start: every legal move is followed, nothing
//! is pruned, and positions are told apart by their full position text (not
//! a hash), so the value is a proof for the rules as implemented. Cycles are
//! handled exactly: a position neither side can force a win from is a draw
//! (so a game that can go round for ever is a draw, as repetition is).
//!
//! Two players only. Memory grows with the number of positions; the caller
//! bounds it with [`SolveLimits::max_positions`] and can stop a run.

use crate::game::{Game, MoveList, Outcome};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exact value of a position for the player to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The player to move wins; the game ends after this many plies at most
    /// against any defence (the winner's quickest forced win).
    Win(u32),
    /// The player to move loses after this many plies (the longest defence).
    Loss(u32),
    Draw,
}

/// How far a run may go.
pub struct SolveLimits<'a> {
    /// Refuse to go on past this many distinct positions.
    pub max_positions: usize,
    /// Set from outside (Ctrl-C, `stop`) to end the run early.
    pub stop: Option<&'a AtomicBool>,
}

/// What a run has done so far, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The phase: 1 finds the positions, 2 propagates the values.
    pub phase: u8,
    pub positions: usize,
    /// Positions expanded (phase 1) or valued (phase 2).
    pub done: usize,
    /// Time since this phase began.
    pub phase_time: std::time::Duration,
}

impl Progress {
    /// One progress line: `phase 1 positions N found M time MS rate R/s`
    /// (`elapsed` since the run began, the rate within the phase), and in
    /// phase 2 a bound on the time left (positions never valued are
    /// draws and need no time, so the bound may be generous).
    pub fn describe(&self, elapsed: std::time::Duration) -> String {
        let what = if self.phase == 1 { "found" } else { "valued" };
        let seconds = self.phase_time.as_secs_f64().max(1e-3);
        let rate = self.done as f64 / seconds;
        let mut line = format!(
            "phase {} positions {} {what} {} time {} rate {:.0}/s",
            self.phase,
            self.positions,
            self.done,
            elapsed.as_millis(),
            rate
        );
        if self.phase == 2 {
            let left = self.positions.saturating_sub(self.done) as f64 / rate.max(1.0);
            line.push_str(&format!(" left at most {left:.0} s"));
        }
        line
    }
}

/// Why no value came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// More positions than the limit allows.
    TooManyPositions(usize),
    Stopped,
    /// Only two-player games are solved.
    Players(usize),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::TooManyPositions(n) => write!(f, "more than {n} positions: over the limit"),
            SolveError::Stopped => write!(f, "stopped before the end"),
            SolveError::Players(n) => write!(f, "{n} players: only two-player games are solved"),
        }
    }
}

/// The solved start and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub value: Value,
    /// A line of best play from the start (to the end for a win; a stretch
    /// of the draw otherwise), in the game's notation.
    pub line: Vec<String>,
    /// Distinct positions in the graph.
    pub positions: usize,
    /// How many positions are wins, losses and draws for the player to move.
    pub counts: [usize; 3],
}

/// How often progress is reported, in positions.
const REPORT_EVERY: usize = 1 << 16;
/// The longest drawing line shown.
const DRAW_LINE: usize = 12;

/// The position graph: children of each node, by index.
struct Graph<G: Game> {
    start: G,
    children: Vec<Vec<u32>>,
    /// Terminal value for the player to move, for positions the rules end.
    terminal: Vec<Option<Value>>,
}

/// Solves `start` exactly, reporting progress now and then.
pub fn solve<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solution, SolveError> {
    if start.player_count() != 2 {
        return Err(SolveError::Players(start.player_count()));
    }
    let graph = explore(start, limits, progress)?;
    let values = propagate(&graph, limits, progress)?;
    let counts = [
        values.iter().filter(|v| matches!(v, Value::Win(_))).count(),
        values.iter().filter(|v| matches!(v, Value::Loss(_))).count(),
        values.iter().filter(|v| **v == Value::Draw).count(),
    ];
    Ok(Solution { value: values[0], line: best_line(&graph, &values), positions: values.len(), counts })
}

fn stopped(limits: &SolveLimits) -> bool {
    limits.stop.is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Every position reachable from the start (index 0), with its children.
fn explore<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Graph<G>, SolveError> {
    let began = std::time::Instant::now();
    let mut index: HashMap<String, u32> = HashMap::new();
    index.insert(start.to_text(), 0);
    let mut graph = Graph { start: start.clone(), children: vec![Vec::new()], terminal: vec![None] };
    let mut pending = vec![(0u32, start.clone())];
    let mut expanded = 0;
    let mut moves = MoveList::default();
    while let Some((node, position)) = pending.pop() {
        expanded += 1;
        if expanded % REPORT_EVERY == 0 {
            if stopped(limits) {
                return Err(SolveError::Stopped);
            }
            progress(Progress {
                phase: 1,
                positions: index.len(),
                done: expanded,
                phase_time: began.elapsed(),
            });
        }
        if let Some(outcome) = position.outcome() {
            graph.terminal[node as usize] = Some(match outcome {
                Outcome::Win(seat) if seat == position.side_to_move() => Value::Win(0),
                Outcome::Win(_) => Value::Loss(0),
                Outcome::Draw => Value::Draw,
            });
            continue;
        }
        moves.clear();
        position.generate_moves(&mut moves);
        let mut children = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.make_move(mv);
            let next = index.len() as u32;
            let child_index = *index.entry(child.to_text()).or_insert(next);
            if child_index == next {
                if index.len() > limits.max_positions {
                    return Err(SolveError::TooManyPositions(limits.max_positions));
                }
                graph.children.push(Vec::new());
                graph.terminal.push(None);
                pending.push((child_index, child));
            }
            children.push(child_index);
        }
        graph.children[node as usize] = children;
    }
    Ok(graph)
}

/// Values by retrograde analysis: from the ends of the game backwards, in
/// order of distance, so a win takes its quickest line and a loss its
/// longest; what is never reached is a draw.
fn propagate<G: Game>(
    graph: &Graph<G>,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Value>, SolveError> {
    let began = std::time::Instant::now();
    let n = graph.children.len();
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (parent, children) in graph.children.iter().enumerate() {
        for &child in children {
            parents[child as usize].push(parent as u32);
        }
    }
    // Children not yet known to be wins for their mover; at zero the
    // parent has only losing moves.
    let mut open: Vec<u32> = graph.children.iter().map(|c| c.len() as u32).collect();
    let mut value: Vec<Option<Value>> = vec![None; n];
    let mut queue = VecDeque::new();
    for (node, terminal) in graph.terminal.iter().enumerate() {
        if let Some(v) = terminal {
            value[node] = Some(*v);
            if *v != Value::Draw {
                queue.push_back(node as u32);
            }
        }
    }
    let mut valued = 0;
    while let Some(node) = queue.pop_front() {
        valued += 1;
        if valued % REPORT_EVERY == 0 {
            if stopped(limits) {
                return Err(SolveError::Stopped);
            }
            progress(Progress { phase: 2, positions: n, done: valued, phase_time: began.elapsed() });
        }
        let Some(known) = value[node as usize] else { continue };
        for &parent in &parents[node as usize] {
            let p = parent as usize;
            if value[p].is_some() {
                continue;
            }
            match known {
                // A move into a position lost for its mover wins.
                Value::Loss(d) => {
                    value[p] = Some(Value::Win(d + 1));
                    queue.push_back(parent);
                }
                Value::Win(d) => {
                    open[p] -= 1;
                    if open[p] == 0 {
                        // Queue order makes this the slowest of its wins.
                        value[p] = Some(Value::Loss(d + 1));
                        queue.push_back(parent);
                    }
                }
                Value::Draw => {}
            }
        }
    }
    Ok(value.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect())
}

/// Best play from the start: the winner's quickest win, the loser's longest
/// defence, or a stretch of moves that keep the draw.
fn best_line<G: Game>(graph: &Graph<G>, values: &[Value]) -> Vec<String> {
    let mut line = Vec::new();
    let mut position = graph.start.clone();
    let mut node = 0usize;
    let mut moves = MoveList::default();
    loop {
        let wanted = match values[node] {
            Value::Win(0) | Value::Loss(0) => return line,
            Value::Win(d) => Value::Loss(d - 1),
            Value::Loss(d) => Value::Win(d - 1),
            Value::Draw if line.len() >= DRAW_LINE || graph.terminal[node].is_some() => return line,
            Value::Draw => Value::Draw,
        };
        moves.clear();
        position.generate_moves(&mut moves);
        let Some((mv, child)) =
            moves.iter().zip(&graph.children[node]).find(|(_, &c)| values[c as usize] == wanted)
        else {
            return line;
        };
        line.push(position.format_move(*mv));
        position.make_move(*mv);
        node = *child as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quarto::{Quarto, Rules};
    use crate::games::quoridor::{Quoridor, Variant};

    fn unlimited() -> SolveLimits<'static> {
        SolveLimits { max_positions: 10_000_000, stop: None }
    }

    fn solve_quietly<G: Game>(start: &G) -> Solution {
        solve(start, &unlimited(), &mut |_| {}).expect("small enough")
    }

    /// Replays a line and checks every position along it has the value
    /// the solution claims, counted down ply by ply.
    fn replay_line<G: Game>(start: &G, solution: &Solution) -> G {
        let mut position = start.clone();
        for text in &solution.line {
            let mv = position.parse_move(text).expect("the line is legal");
            position.make_move(mv);
        }
        position
    }

    #[test]
    fn the_3x3_board_without_walls_is_a_second_player_win() {
        // Whatever P1 does, P2 reaches row 1 on its second move (a jump or a
        // side step over P1 when it comes to b2).
        let start = Quoridor::new(&Variant { width: 3, height: 3, walls: 0, ..Variant::default() })
            .expect("3x3 without walls");
        let solution = solve_quietly(&start);
        assert_eq!(solution.value, Value::Loss(4), "{solution:?}");
        assert_eq!(solution.line.len(), 4);
        let end = replay_line(&start, &solution);
        assert_eq!(end.outcome(), Some(Outcome::Win(1)));
        assert_eq!(solution.counts.iter().sum::<usize>(), solution.positions);
    }

    #[test]
    fn a_3x3_quarto_opening_is_solved_and_its_line_wins() {
        // The whole 3x3 game (6.4 million positions, about 30 s) is a win
        // for the player who places first, as the search's `mate -3` from
        // the empty board says; from two turns in it is quick.
        let mut start = Quarto::new(Rules { side: 3, level: 1 }).expect("3x3 Quarto");
        for text in ["0", "a11"] {
            let mv = start.parse_move(text).expect("legal");
            start.make_move(mv);
        }
        let solution = solve_quietly(&start);
        assert_eq!(solution.value, Value::Win(5), "{solution:?}");
        let end = replay_line(&start, &solution);
        assert_eq!(end.outcome(), Some(Outcome::Win(start.side_to_move())));
    }

    #[test]
    fn progress_lines_give_rate_and_time_left() {
        let second = std::time::Duration::from_secs(1);
        let p = Progress { phase: 2, positions: 3000, done: 1000, phase_time: 2 * second };
        assert_eq!(
            p.describe(3 * second),
            "phase 2 positions 3000 valued 1000 time 3000 rate 500/s left at most 4 s"
        );
        let p = Progress { phase: 1, positions: 10, done: 5, phase_time: std::time::Duration::ZERO };
        assert!(p
            .describe(std::time::Duration::ZERO)
            .starts_with("phase 1 positions 10 found 5 time 0 rate"));
    }

    #[test]
    fn limits_and_stops_are_honoured() {
        let start =
            Quoridor::new(&Variant { width: 3, height: 3, walls: 1, ..Variant::default() }).expect("3x3");
        let tight = SolveLimits { max_positions: 10, stop: None };
        assert_eq!(solve(&start, &tight, &mut |_| {}), Err(SolveError::TooManyPositions(10)));
        let four =
            Quoridor::new(&Variant { width: 5, height: 5, players: 4, ..Variant::default() }).expect("4p");
        assert_eq!(solve(&four, &unlimited(), &mut |_| {}), Err(SolveError::Players(4)));
    }
}
