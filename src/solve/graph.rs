//! Exact values by retrograde analysis over the whole graph of positions
//! reachable from a start, for any two-player game: every legal move is
//! followed, nothing is pruned, and positions are told apart by their
//! game's exact key, or their full position text where there is none
//! (never by a hash). Values propagate from the ends in order of
//! distance, so a win is the quickest one and a loss the longest defence;
//! a position neither side can force a win from is a draw, which handles
//! cycles exactly.
//!
//! Memory is what the containers hold, measured from their capacities
//! (see [`super::memory`]), and checked against the limit before any of
//! them grows: the children of every position in one list, the parents
//! in another once the children are known.

use super::memory::{
    filled_vec, heap_block, map_bytes, map_growth, reserve_map, reserve_vec, vec_bytes, vec_growth,
};
use super::{Progress, SolveError, SolveLimits, Value};
use crate::game::{Game, MoveList, Outcome};
use std::collections::{HashMap, VecDeque};
use std::mem::size_of;

/// What tells positions apart.
#[derive(Hash, PartialEq, Eq)]
enum Key {
    Packed(u128),
    Text(String),
}

fn key_of<G: Game>(position: &G) -> Key {
    position.exact_key().map_or_else(|| Key::Text(position.to_text()), Key::Packed)
}

/// The node of each position, by its key: packed keys as two words (24
/// bytes an entry where a `u128` would be aligned to 32, and an enum of
/// both kinds to 48), texts by themselves.
#[derive(Default)]
struct Index {
    packed: HashMap<[u64; 2], u32>,
    text: HashMap<String, u32>,
}

fn words(key: u128) -> [u64; 2] {
    [key as u64, (key >> 64) as u64]
}

impl Index {
    fn len(&self) -> usize {
        self.packed.len() + self.text.len()
    }

    fn get(&self, key: &Key) -> Option<u32> {
        match key {
            Key::Packed(key) => self.packed.get(&words(*key)).copied(),
            Key::Text(text) => self.text.get(text).copied(),
        }
    }

    /// The node of `key`, `next` when it is new.
    fn insert(&mut self, key: Key, next: u32) -> u32 {
        match key {
            Key::Packed(key) => *self.packed.entry(words(key)).or_insert(next),
            Key::Text(text) => *self.text.entry(text).or_insert(next),
        }
    }

    fn bytes(&self) -> usize {
        map_bytes(&self.packed) + map_bytes(&self.text)
    }

    /// What taking `more` keys of either kind would add (see
    /// [`map_growth`]). Both maps make room, so that keys of any kind fit
    /// as foreseen; the one a game does not use stays at the size of one
    /// position's children, and is counted like the other.
    fn growth(&self, more: usize) -> usize {
        map_growth(&self.packed, more) + map_growth(&self.text, more)
    }

    /// Makes room for `more` keys of either kind.
    fn reserve(&mut self, more: usize, limit: usize) -> Result<(), SolveError> {
        reserve_map(&mut self.packed, more, limit)?;
        reserve_map(&mut self.text, more, limit)
    }
}

/// How often progress is reported, in positions.
const REPORT_EVERY: usize = 1 << 16;

/// How the game stands at a node: going on, or ended (for the player to
/// move there).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ended {
    No,
    Won,
    Lost,
    Drawn,
}

/// The position graph: the children of each node, by index.
#[derive(Default)]
struct Graph {
    /// The node of each position.
    index: Index,
    /// Where each node's children start in `edges`, and how many they are.
    first: Vec<u64>,
    count: Vec<u16>,
    edges: Vec<u32>,
    ended: Vec<Ended>,
    /// What the text keys hold on the heap, and the largest one (to
    /// foresee the next ones).
    text_bytes: usize,
    largest_text: usize,
}

impl Graph {
    /// Bytes held.
    fn held(&self) -> usize {
        self.index.bytes()
            + self.text_bytes
            + vec_bytes(&self.first)
            + vec_bytes(&self.count)
            + vec_bytes(&self.edges)
            + vec_bytes(&self.ended)
    }

    /// Makes room for `more` children of a node (as many new positions at
    /// most), unless what is held and the buffers that must grow (held
    /// together with the old ones while they move) would pass the limit.
    fn reserve<P>(
        &mut self,
        pending: &mut Vec<P>,
        more: usize,
        limits: &SolveLimits,
    ) -> Result<(), SolveError> {
        let growth = self.index.growth(more)
            + more * self.largest_text
            + vec_growth(&self.first, more)
            + vec_growth(&self.count, more)
            + vec_growth(&self.edges, more)
            + vec_growth(&self.ended, more)
            + vec_growth(pending, more);
        limits.check_bytes(self.held() + vec_bytes(pending) + growth)?;
        let limit = limits.max_bytes;
        self.index.reserve(more, limit)?;
        reserve_vec(&mut self.first, more, limit)?;
        reserve_vec(&mut self.count, more, limit)?;
        reserve_vec(&mut self.edges, more, limit)?;
        reserve_vec(&mut self.ended, more, limit)?;
        reserve_vec(pending, more, limit)
    }

    /// The node of `key`, and whether it is new.
    fn node(&mut self, key: Key, limits: &SolveLimits) -> Result<(u32, bool), SolveError> {
        let text = match &key {
            Key::Text(text) => heap_block(text.capacity()),
            Key::Packed(_) => 0,
        };
        let next = u32::try_from(self.index.len()).map_err(|_| SolveError::OverMemory(limits.max_bytes))?;
        let node = self.index.insert(key, next);
        if node == next {
            self.first.push(0);
            self.count.push(0);
            self.ended.push(Ended::No);
            self.text_bytes += text;
            self.largest_text = self.largest_text.max(text);
        }
        Ok((node, node == next))
    }
}

/// Every position reachable from a start, valued.
pub struct GraphValues {
    index: Index,
    values: Vec<Value>,
}

impl GraphValues {
    /// The value of a position reachable from the start.
    pub fn value<G: Game>(&self, position: &G) -> Option<Value> {
        self.index.get(&key_of(position)).map(|i| self.values[i as usize])
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
    propagate(graph, limits, progress)
}

/// Every position reachable from the start (index 0), with its children.
fn explore<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Graph, SolveError> {
    let began = std::time::Instant::now();
    let mut graph = Graph::default();
    // Positions found and not yet expanded (most recent first).
    let mut pending: Vec<(u32, G)> = Vec::new();
    graph.reserve(&mut pending, 1, limits)?;
    graph.node(key_of(start), limits)?;
    pending.push((0, start.clone()));
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
                winner: None,
            });
        }
        if let Some(outcome) = position.outcome() {
            graph.ended[node as usize] = match outcome {
                Outcome::Win(seat) if seat == position.side_to_move() => Ended::Won,
                Outcome::Win(_) => Ended::Lost,
                Outcome::Draw => Ended::Drawn,
            };
            continue;
        }
        moves.clear();
        position.generate_moves(&mut moves);
        graph.reserve(&mut pending, moves.len(), limits)?;
        graph.first[node as usize] = graph.edges.len() as u64;
        graph.count[node as usize] = moves.len() as u16;
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.make_move(mv);
            let (child_node, new) = graph.node(key_of(&child), limits)?;
            if new {
                pending.push((child_node, child));
            }
            graph.edges.push(child_node);
        }
    }
    Ok(graph)
}

/// The parents of every node as one list: node `c`'s are
/// `edges[first[c]..first[c + 1]]`.
struct Parents {
    first: Vec<u64>,
    edges: Vec<u32>,
}

impl Parents {
    fn of(&self, node: usize) -> &[u32] {
        &self.edges[self.first[node] as usize..self.first[node + 1] as usize]
    }
}

/// The parents of every node, from the children; the children are let go.
fn parents(graph: &mut Graph, limits: &SolveLimits) -> Result<Parents, SolveError> {
    let n = graph.count.len();
    let edges = graph.edges.len();
    limits.check_bytes(graph.held() + (n + 1) * size_of::<u64>() + edges * size_of::<u32>())?;
    // The number of parents of each node, summed: where each one's list ends.
    let mut first = filled_vec(n + 1, 0u64, limits.max_bytes)?;
    for &child in &graph.edges {
        first[child as usize] += 1;
    }
    for i in 1..=n {
        first[i] += first[i - 1];
    }
    // Filled from the ends down, so that `first` ends at the starts.
    let mut parents = filled_vec(edges, 0u32, limits.max_bytes)?;
    for parent in 0..n {
        let start = graph.first[parent] as usize;
        for &child in &graph.edges[start..start + usize::from(graph.count[parent])] {
            first[child as usize] -= 1;
            parents[first[child as usize] as usize] = parent as u32;
        }
    }
    graph.edges = Vec::new();
    graph.first = Vec::new();
    Ok(Parents { first, edges: parents })
}

/// Values by retrograde analysis: from the ends of the game backwards, in
/// order of distance, so a win takes its quickest line and a loss its
/// longest; what is never reached is a draw.
fn propagate(
    mut graph: Graph,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<GraphValues, SolveError> {
    let began = std::time::Instant::now();
    let n = graph.count.len();
    let parents = parents(&mut graph, limits)?;
    let held = graph.held() + vec_bytes(&parents.first) + vec_bytes(&parents.edges);
    limits.check_bytes(held + n * (size_of::<Option<Value>>() + size_of::<u32>()))?;
    // Children not yet known to be wins for their mover; at zero the
    // parent has only losing moves.
    let open = &mut graph.count;
    let mut value: Vec<Option<Value>> = filled_vec(n, None, limits.max_bytes)?;
    let mut queue = VecDeque::new();
    queue.try_reserve_exact(n).map_err(|_| SolveError::OverMemory(limits.max_bytes))?;
    for (node, ended) in graph.ended.iter().enumerate() {
        value[node] = match ended {
            Ended::No => continue,
            Ended::Won => Some(Value::Win(0)),
            Ended::Lost => Some(Value::Loss(0)),
            Ended::Drawn => Some(Value::Draw),
        };
        if *ended != Ended::Drawn {
            queue.push_back(node as u32);
        }
    }
    let mut valued = 0;
    while let Some(node) = queue.pop_front() {
        valued += 1;
        if valued % REPORT_EVERY == 0 {
            if limits.stopped() {
                return Err(SolveError::Stopped);
            }
            progress(Progress {
                phase: 2,
                positions: n,
                done: valued,
                phase_time: began.elapsed(),
                winner: None,
            });
        }
        let Some(known) = value[node as usize] else { continue };
        for &parent in parents.of(node as usize) {
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
    let values = value.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect();
    Ok(GraphValues { index: graph.index, values })
}
