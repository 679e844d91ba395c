//! Exact values by retrograde analysis over the whole graph of positions
//! reachable from a start, for any two-player game: every legal move is
//! followed, nothing is pruned, and positions are told apart by their
//! game's exact key, or their full position text where there is none
//! (never by a hash). Values propagate from the ends in order of
//! distance, so a win is the quickest one and a loss the longest defence;
//! a position neither side can force a win from is a draw, which handles
//! cycles exactly.

use super::{Progress, SolveError, SolveLimits, Value};
use crate::game::{Game, MoveList, Outcome};
use std::collections::{HashMap, VecDeque};

/// What a position costs: its key and index entry, its children, its
/// parents and value (measured with text keys: 6.4 million 3x3 Quarto
/// positions, 1.1 GB; packed keys take less).
pub const BYTES_PER_POSITION: usize = 170;

/// What tells positions apart.
#[derive(Hash, PartialEq, Eq)]
enum Key {
    Packed(u128),
    Text(String),
}

fn key_of<G: Game>(position: &G) -> Key {
    position.exact_key().map_or_else(|| Key::Text(position.to_text()), Key::Packed)
}
/// How often progress is reported, in positions.
const REPORT_EVERY: usize = 1 << 16;

/// The position graph: children of each node, by index.
struct Graph {
    /// The node of each position, by its text.
    index: HashMap<Key, u32>,
    children: Vec<Vec<u32>>,
    /// Terminal value for the player to move, for positions the rules end.
    terminal: Vec<Option<Value>>,
}

/// Every position reachable from a start, valued.
pub struct GraphValues {
    index: HashMap<Key, u32>,
    values: Vec<Value>,
}

impl GraphValues {
    /// The value of a position reachable from the start.
    pub fn value<G: Game>(&self, position: &G) -> Option<Value> {
        self.index.get(&key_of(position)).map(|&i| self.values[i as usize])
    }

    /// The value of every position, by index.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
}

/// Values every position reachable from `start` (index 0).
pub fn solve_graph<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<GraphValues, SolveError> {
    let graph = explore(start, limits, progress)?;
    let values = propagate(&graph, limits, progress)?;
    Ok(GraphValues { index: graph.index, values })
}

/// Every position reachable from the start (index 0), with its children.
fn explore<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Graph, SolveError> {
    let began = std::time::Instant::now();
    let mut graph = Graph {
        index: HashMap::from([(key_of(start), 0)]),
        children: vec![Vec::new()],
        terminal: vec![None],
    };
    let mut pending = vec![(0u32, start.clone())];
    let mut expanded = 0;
    let mut moves = MoveList::default();
    while let Some((node, position)) = pending.pop() {
        expanded += 1;
        if expanded % REPORT_EVERY == 0 {
            if limits.stopped() {
                return Err(SolveError::Stopped);
            }
            progress(Progress {
                phase: 1,
                positions: graph.index.len(),
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
            let next = graph.index.len() as u32;
            let child_index = *graph.index.entry(key_of(&child)).or_insert(next);
            if child_index == next {
                limits.check_memory(graph.index.len(), BYTES_PER_POSITION)?;
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
fn propagate(
    graph: &Graph,
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
            if limits.stopped() {
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
