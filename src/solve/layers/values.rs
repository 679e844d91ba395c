//! Valuing one level of layers: each layer by retrograde analysis over its
//! pawn placements, on several threads, with the values of its wall moves
//! read from the level below (one wall more). Values are kept in 16 bits
//! while a layer is worked on and stored in 8.

use super::board::{Board, LayerKey, Level};
use crate::bits::bits;
use crate::solve::{SolveError, SolveLimits, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The longest win or loss a stored value holds, in plies.
pub const MAX_DISTANCE: u32 = 126;

/// A value as stored, in 8 bits: 0 a draw (or never reached), `1 + d` a win
/// in `d` plies, `128 + d` a loss in `d`.
fn store(code: u16) -> Option<u8> {
    match unpack(code) {
        Value::Draw => Some(0),
        Value::Win(d) if d <= MAX_DISTANCE => Some(1 + d as u8),
        Value::Loss(d) if d <= MAX_DISTANCE => Some(128 + d as u8),
        _ => None,
    }
}

pub(super) fn load(stored: u8) -> Value {
    match stored {
        0 => Value::Draw,
        1..=127 => Value::Win(u32::from(stored) - 1),
        _ => Value::Loss(u32::from(stored) - 128),
    }
}

/// A value while a layer is worked on, in 16 bits: 0 a draw (or never
/// reached), `2d + 1` a win in `d` plies, `2d + 2` a loss in `d`.
fn pack(value: Value) -> u16 {
    match value {
        Value::Draw => 0,
        Value::Win(d) => (2 * d + 1) as u16,
        Value::Loss(d) => (2 * d + 2) as u16,
    }
}

fn unpack(code: u16) -> Value {
    match code {
        0 => Value::Draw,
        c if c % 2 == 1 => Value::Win(u32::from(c - 1) / 2),
        c => Value::Loss(u32::from(c - 2) / 2),
    }
}

/// A layer's values and how many of its pawn placements can occur.
pub(super) type ValuedLayer = (Box<[u8]>, usize);

/// How often a long level reports how far it got.
const REPORT_INTERVAL: Duration = Duration::from_secs(2);

/// Values the layers `keys` of a level, on `limits.threads` threads, given
/// the values of the level below (one wall more); `report` hears now and
/// then how many layers are done.
pub(super) fn value_layers(
    board: &Board,
    keys: &[LayerKey],
    below: Option<&Level>,
    limits: &SolveLimits,
    report: &mut dyn FnMut(usize),
) -> Result<Vec<ValuedLayer>, SolveError> {
    let next_layer = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let threads = limits.threads.clamp(1, 64);
    let mut results: Vec<Option<Result<ValuedLayer, SolveError>>> = (0..keys.len()).map(|_| None).collect();
    let parts: Vec<Vec<(usize, Result<ValuedLayer, SolveError>)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next_layer.fetch_add(1, Ordering::Relaxed);
                        if i >= keys.len() || limits.stopped() {
                            return mine;
                        }
                        mine.push((i, value_layer(board, keys[i], below)));
                        finished.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        // This thread only reports, from where the callback lives.
        let mut last = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(20));
            if last.elapsed() >= REPORT_INTERVAL {
                report(finished.load(Ordering::Relaxed));
                last = Instant::now();
            }
        }
        workers.into_iter().map(|w| w.join().unwrap_or_default()).collect()
    });
    for (i, result) in parts.into_iter().flatten() {
        results[i] = Some(result);
    }
    results.into_iter().map(|r| r.unwrap_or(Err(SolveError::Stopped))).collect()
}

/// A wall the layer's positions may place, with what it leaves reachable
/// and the values of the two layers it leads to (by who placed it).
struct WallChoice<'a> {
    north: u64,
    south: u64,
    after: [Option<(&'a [u8], bool)>; 2],
}

/// Retrograde analysis of one layer; returns its values and how many of
/// its pawn placements can occur.
fn value_layer(board: &Board, key: LayerKey, below: Option<&Level>) -> Result<ValuedLayer, SolveError> {
    let edges = board.edges(key.horizontal, key.vertical);
    let north = board.reach(edges, board.north_row);
    let south = board.reach(edges, board.south_row);
    let mut walls = Vec::new();
    for wider in board.wall_sets_after(&key) {
        let e = board.edges(wider.horizontal, wider.vertical);
        let after = [0, 1].map(|mover| {
            let mut child = wider;
            if child.hand[mover] == 0 {
                return None;
            }
            child.hand[mover] -= 1;
            let (child, mirrored) = board.canonical(child);
            let level = below?;
            level.index.get(&child).and_then(|&i| level.values.get(i)).map(|t| (&t[..], mirrored))
        });
        walls.push(WallChoice {
            north: board.reach(e, board.north_row),
            south: board.reach(e, board.south_row),
            after,
        });
    }

    let n = 2 * board.area * board.area;
    let mut value = vec![0u16; n];
    let mut known = vec![false; n];
    let mut open = vec![0u16; n];
    // Distance buckets of events: a position valued (its parents learn of
    // it), or a wall move's value arriving from the layer below.
    let mut buckets: Vec<Vec<Event>> = vec![Vec::new()];
    let mut edges_in: Vec<(u32, u32)> = Vec::new();
    let mut valid = 0;
    for p0 in bits(north) {
        for p1 in bits(south) {
            if p0 == p1 {
                continue;
            }
            let pawns = [p0, p1];
            for side in 0..2 {
                let goal = [board.north_row, board.south_row];
                if goal[side] >> pawns[side] & 1 == 1 {
                    continue; // the mover cannot stand on its goal
                }
                valid += 1;
                let node = board.config(pawns, side);
                if goal[1 - side] >> pawns[1 - side] & 1 == 1 {
                    known[node] = true;
                    value[node] = pack(Value::Loss(0));
                    buckets[0].push(Event::Valued(node as u32));
                    continue;
                }
                let mut children = 0u16;
                for target in bits(board.pawn_targets(edges, pawns[side], pawns[1 - side])) {
                    let mut moved = pawns;
                    moved[side] = target;
                    edges_in.push((board.config(moved, 1 - side) as u32, node as u32));
                    children += 1;
                }
                if key.hand[side] > 0 {
                    for wall in &walls {
                        if wall.north >> p0 & 1 == 0 || wall.south >> p1 & 1 == 0 {
                            continue;
                        }
                        children += 1;
                        let stored = wall.after[side]
                            .map_or(0, |(t, mirrored)| t[board.config_seen(pawns, 1 - side, mirrored)]);
                        let (distance, child_wins) = match load(stored) {
                            Value::Win(d) => (d, true),
                            Value::Loss(d) => (d, false),
                            Value::Draw => continue,
                        };
                        push(&mut buckets, distance, Event::Wall { parent: node as u32, child_wins });
                    }
                }
                if children == 0 {
                    // Nothing else to do: the rules let the player pass.
                    edges_in.push((board.config(pawns, 1 - side) as u32, node as u32));
                    children = 1;
                }
                open[node] = children;
            }
        }
    }
    // Parents of each position inside the layer, as one sorted list.
    edges_in.sort_unstable();
    let mut first = vec![0u32; n + 1];
    for &(child, _) in &edges_in {
        first[child as usize + 1] += 1;
    }
    for i in 0..n {
        first[i + 1] += first[i];
    }
    let parents =
        |child: usize| edges_in[first[child] as usize..first[child + 1] as usize].iter().map(|e| e.1);

    let mut state = Retrograde { value, known, open, buckets };
    let mut distance = 0;
    while distance < state.buckets.len() {
        for event in std::mem::take(&mut state.buckets[distance]) {
            match event {
                Event::Wall { parent, child_wins } => state.learn(parent as usize, child_wins, distance),
                Event::Valued(node) => {
                    let child_wins = matches!(unpack(state.value[node as usize]), Value::Win(_));
                    for parent in parents(node as usize) {
                        state.learn(parent as usize, child_wins, distance);
                    }
                }
            }
        }
        distance += 1;
    }
    let stored: Option<Box<[u8]>> = state.value.iter().map(|&code| store(code)).collect();
    Ok((stored.ok_or(SolveError::Distance(MAX_DISTANCE))?, valid))
}

/// The values of a layer while they are found.
struct Retrograde {
    value: Vec<u16>,
    known: Vec<bool>,
    /// Moves not yet known to lead to a win for the opponent.
    open: Vec<u16>,
    buckets: Vec<Vec<Event>>,
}

impl Retrograde {
    /// `parent` has a move into a position won (or lost) for its mover in
    /// `distance` plies.
    fn learn(&mut self, parent: usize, child_wins: bool, distance: usize) {
        if self.known[parent] {
            return;
        }
        let found = if !child_wins {
            // A move into a position lost for its mover wins.
            Value::Win(distance as u32 + 1)
        } else {
            self.open[parent] -= 1;
            if self.open[parent] > 0 {
                return;
            }
            // Events come by distance: this was its slowest loss.
            Value::Loss(distance as u32 + 1)
        };
        self.known[parent] = true;
        self.value[parent] = pack(found);
        push(&mut self.buckets, distance as u32 + 1, Event::Valued(parent as u32));
    }
}

/// Something learned at a distance: a position of the layer was valued, or
/// a wall move from `parent` leads to a position won or lost for its mover.
#[derive(Clone, Copy)]
enum Event {
    Valued(u32),
    Wall { parent: u32, child_wins: bool },
}

fn push(buckets: &mut Vec<Vec<Event>>, distance: u32, event: Event) {
    let d = distance as usize;
    if buckets.len() <= d {
        buckets.resize_with(d + 1, Vec::new);
    }
    buckets[d].push(event);
}
