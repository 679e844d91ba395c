//! Exact values of two-player Quoridor, layer by layer. A wall never leaves
//! the board, so every position belongs to a *layer*: its wall set and the
//! walls each player holds. Within a layer only the pawns move (and the
//! side to move changes); a wall move leads to a layer with one wall more.
//! Layers are valued from the most walls down: each one by retrograde
//! analysis over its pawn placements (at most `2 * area^2` positions), with
//! the values of its wall moves read from the layers already done.
//!
//! The rules are written here again from the rulebook on small bitsets,
//! not taken from the move generator the search uses, so that the solver
//! and [`super::graph`] are two independent methods; the tests compare them,
//! and replay every line through the library's rules.

use super::{Progress, SolveError, SolveLimits, Value};
use crate::game::Position;
use crate::games::quoridor::bitboard::STRIDE;
use crate::games::quoridor::Quoridor;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The largest board the layers handle: squares and wall centres each fit
/// in 64 bits.
pub const MAX_AREA: usize = 64;

/// The four directions as (column, row) steps: north, east, south, west.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Walls on the board and walls in hand: what a layer shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LayerKey {
    /// Wall centres as bits `(y - 1) * (width - 1) + (x - 1)`.
    pub(super) horizontal: u64,
    pub(super) vertical: u64,
    pub(super) hand: [u8; 2],
}

/// The board's shape and goal rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Board {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) area: usize,
    /// Player 1 goes north (top row), player 2 south (bottom row).
    north_row: u64,
    south_row: u64,
}

/// The blocked edges of a wall set: a bit per square whose north / east
/// side is walled.
#[derive(Clone, Copy)]
struct Edges {
    north: u64,
    east: u64,
}

impl Board {
    pub(super) fn new(width: usize, height: usize) -> Board {
        let row = (1u64 << width) - 1;
        Board {
            width,
            height,
            area: width * height,
            north_row: row << (width * (height - 1)),
            south_row: row,
        }
    }

    fn centres(&self) -> usize {
        (self.width - 1) * (self.height - 1)
    }

    fn edges(&self, horizontal: u64, vertical: u64) -> Edges {
        let mut edges = Edges { north: 0, east: 0 };
        let span = self.width - 1;
        for slot in bits(horizontal) {
            // Centre (x, y) closes the north side of squares (x-1, y-1), (x, y-1).
            let (x, y) = (slot % span + 1, slot / span + 1);
            let square = (y - 1) * self.width + x - 1;
            edges.north |= 0b11 << square;
        }
        for slot in bits(vertical) {
            // Centre (x, y) closes the east side of squares (x-1, y-1), (x-1, y).
            let (x, y) = (slot % span + 1, slot / span + 1);
            let square = (y - 1) * self.width + x - 1;
            edges.east |= 1 << square | 1 << (square + self.width);
        }
        edges
    }

    /// The square one step away, if it is on the board and no wall is between.
    fn step(&self, edges: Edges, square: usize, (dx, dy): (isize, isize)) -> Option<usize> {
        let (x, y) = (square % self.width, square / self.width);
        let open = match (dx, dy) {
            (0, 1) => y + 1 < self.height && edges.north >> square & 1 == 0,
            (0, -1) => y > 0 && edges.north >> (square - self.width) & 1 == 0,
            (1, 0) => x + 1 < self.width && edges.east >> square & 1 == 0,
            _ => x > 0 && edges.east >> (square - 1) & 1 == 0,
        };
        open.then(|| (square as isize + dx + dy * self.width as isize) as usize)
    }

    /// Squares from which `goal` can be reached, walls permitting.
    fn reach(&self, edges: Edges, goal: u64) -> u64 {
        let mut found = goal;
        let mut frontier = goal;
        while frontier != 0 {
            let mut next = 0;
            for square in bits(frontier) {
                for dir in DIRECTIONS {
                    if let Some(s) = self.step(edges, square, dir) {
                        next |= 1 << s;
                    }
                }
            }
            frontier = next & !found;
            found |= frontier;
        }
        found
    }

    /// Whether a wall at `slot` would overlap or cross one already there.
    fn overlaps(&self, key: &LayerKey, slot: usize, vertical: bool) -> bool {
        let span = self.width - 1;
        let (x, y) = (slot % span + 1, slot / span + 1);
        let has = |set: u64, s: usize| set >> s & 1 == 1;
        if has(key.horizontal, slot) || has(key.vertical, slot) {
            return true;
        }
        if vertical {
            (y > 1 && has(key.vertical, slot - span))
                || (y < self.height - 1 && has(key.vertical, slot + span))
        } else {
            (x > 1 && has(key.horizontal, slot - 1)) || (x < span && has(key.horizontal, slot + 1))
        }
    }

    /// The layer's wall set with each wall that fits added (walls in hand
    /// unchanged).
    fn wall_sets_after<'a>(&'a self, key: &'a LayerKey) -> impl Iterator<Item = LayerKey> + 'a {
        (0..self.centres())
            .flat_map(|slot| [(slot, false), (slot, true)])
            .filter(|&(slot, vertical)| !self.overlaps(key, slot, vertical))
            .map(|(slot, vertical)| {
                let mut wider = *key;
                if vertical {
                    wider.vertical |= 1 << slot;
                } else {
                    wider.horizontal |= 1 << slot;
                }
                wider
            })
    }

    /// The pawn squares the mover can go to (steps, jumps, side steps).
    fn pawn_targets(&self, edges: Edges, mover: usize, other: usize) -> u64 {
        let mut targets = 0;
        for dir in DIRECTIONS {
            let Some(next) = self.step(edges, mover, dir) else { continue };
            if next != other {
                targets |= 1 << next;
            } else if let Some(behind) = self.step(edges, other, dir) {
                targets |= 1 << behind;
            } else {
                // A wall or the edge behind the other pawn: step beside it.
                for side in [(dir.1, dir.0), (-dir.1, -dir.0)] {
                    if let Some(beside) = self.step(edges, other, side) {
                        targets |= 1 << beside;
                    }
                }
            }
        }
        targets
    }

    /// The index of a pawn placement with a side to move.
    fn config(&self, pawns: [usize; 2], side: usize) -> usize {
        (pawns[0] * self.area + pawns[1]) * 2 + side
    }

    /// The index of a placement in a layer stored as its mirror image.
    fn config_seen(&self, pawns: [usize; 2], side: usize, mirrored: bool) -> usize {
        if mirrored {
            self.config(pawns.map(|p| p - p % self.width + (self.width - 1 - p % self.width)), side)
        } else {
            self.config(pawns, side)
        }
    }

    /// The layer as stored: of a wall set and its mirror image (left and
    /// right swapped, which changes no value), the smaller; and whether it
    /// was mirrored.
    fn canonical(&self, key: LayerKey) -> (LayerKey, bool) {
        let span = self.width - 1;
        let mirror = |set: u64| {
            bits(set).fold(0u64, |m, slot| m | 1 << (slot - slot % span + (span - 1 - slot % span)))
        };
        let image =
            LayerKey { horizontal: mirror(key.horizontal), vertical: mirror(key.vertical), hand: key.hand };
        if (image.horizontal, image.vertical) < (key.horizontal, key.vertical) {
            (image, true)
        } else {
            (key, false)
        }
    }
}

/// The set bits of a word, lowest first.
fn bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

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

fn load(stored: u8) -> Value {
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

/// The layers of one level (a number of walls added since the start), with
/// their values once known.
#[derive(Default)]
pub(super) struct Level {
    pub(super) index: HashMap<LayerKey, usize>,
    pub(super) keys: Vec<LayerKey>,
    pub(super) values: Vec<Box<[u8]>>,
}

impl Level {
    /// A level of these layers, not yet valued.
    pub(super) fn of_keys(keys: Vec<LayerKey>) -> Level {
        let index = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        Level { index, keys, values: Vec::new() }
    }
}

/// Every layer's values, level by level from the start's.
pub struct LayerTables {
    board: Board,
    start_walls: usize,
    levels: Vec<Level>,
    /// Pawn placements that can occur (both pawns have a path), over all
    /// layers, and how many of them are wins / losses / draws.
    pub positions: usize,
    /// Positions won, lost and drawn for the side to move.
    pub counts: [usize; 3],
}

impl LayerTables {
    /// The value of a position of the solved variant with the start's walls
    /// and more, if its layer was valued.
    pub fn value(&self, position: &Quoridor) -> Option<Value> {
        let (key, pawns) = key_of(position);
        let (key, mirrored) = self.board.canonical(key);
        let walls = (key.horizontal.count_ones() + key.vertical.count_ones()) as usize;
        let level = self.levels.get(walls.checked_sub(self.start_walls)?)?;
        let layer = *level.index.get(&key)?;
        let table = level.values.get(layer)?;
        Some(load(table[self.board.config_seen(pawns, position.side_to_move(), mirrored)]))
    }
}

/// The layer key and pawn squares (as `row * width + column`) of a position.
fn key_of(position: &Quoridor) -> (LayerKey, [usize; 2]) {
    let width = position.width();
    let slot = |centre: usize| (centre / STRIDE - 1) * (width - 1) + centre % STRIDE - 1;
    let set =
        |walls: crate::games::quoridor::bitboard::BitBoard| walls.iter().fold(0u64, |s, c| s | 1 << slot(c));
    let square = |seat: usize| {
        let p = position.pawn(seat);
        (p / STRIDE) * width + p % STRIDE
    };
    let key = LayerKey {
        horizontal: set(position.horizontal_walls()),
        vertical: set(position.vertical_walls()),
        hand: [position.walls_in_hand(0) as u8, position.walls_in_hand(1) as u8],
    };
    (key, [square(0), square(1)])
}

/// Whether the layers can solve this position: two players, a board of at
/// most [`MAX_AREA`] squares, at most 255 walls in hand.
pub fn applies(position: &Quoridor) -> bool {
    position.player_count() == 2
        && position.width() * position.height() <= MAX_AREA
        && (0..2).all(|s| position.walls_in_hand(s) < 256)
}

/// Values every layer reachable from `start` (see [`applies`]).
pub fn solve_layers(
    start: &Quoridor,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<LayerTables, SolveError> {
    let mut plan = plan_layers(start, limits, progress)?;
    let per_layer = plan.per_layer();
    let total: usize = plan.levels.iter().map(|l| l.keys.len()).sum::<usize>() * per_layer;
    let began = Instant::now();
    let mut done = 0;
    let mut valid = 0;
    for depth in (0..plan.levels.len()).rev() {
        let (this, below) = plan.levels.split_at_mut(depth + 1);
        let level = &mut this[depth];
        let mut report = |layers: usize| {
            let done = done + layers * per_layer;
            progress(Progress { phase: 2, positions: total, done, phase_time: began.elapsed(), winner: None })
        };
        let results = value_layers(&plan.board, &level.keys, below.first(), limits, &mut report)?;
        valid += results.iter().map(|(_, v)| v).sum::<usize>();
        level.values = results.into_iter().map(|(t, _)| t).collect();
        done += level.keys.len() * per_layer;
        progress(Progress { phase: 2, positions: total, done, phase_time: began.elapsed(), winner: None });
    }
    Ok(LayerTables::assemble(plan, valid))
}

/// The layers reachable from a start, level by level, before any is
/// valued: what [`super::layer_stages`] hands out as tasks.
pub struct LayerPlan {
    pub(super) board: Board,
    pub(super) start_key: LayerKey,
    pub(super) levels: Vec<Level>,
}

impl LayerPlan {
    /// Pawn placements (with a side to move) of one layer's table.
    pub(super) fn per_layer(&self) -> usize {
        2 * self.board.area * self.board.area
    }

    /// How many layers each level has, from the start's.
    pub fn layers_per_level(&self) -> Vec<usize> {
        self.levels.iter().map(|l| l.keys.len()).collect()
    }
}

/// The layer of `start` as stored (of it and its mirror image, the smaller).
pub(super) fn start_key(start: &Quoridor) -> LayerKey {
    Board::new(start.width(), start.height()).canonical(key_of(start).0).0
}

/// Phase 1 alone: the layers reachable from `start` (see [`applies`]).
pub fn plan_layers(
    start: &Quoridor,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<LayerPlan, SolveError> {
    let board = Board::new(start.width(), start.height());
    let start_key = start_key(start);
    let levels = find_layers(&board, start_key, 2 * board.area * board.area, limits, progress)?;
    Ok(LayerPlan { board, start_key, levels })
}

impl LayerTables {
    /// The tables of a plan whose every level is valued, with `valid`
    /// placements that can occur among them.
    pub(super) fn assemble(plan: LayerPlan, valid: usize) -> LayerTables {
        let mut counts = [0; 3];
        let mut total = 0;
        for table in plan.levels.iter().flat_map(|l| l.values.iter()) {
            total += table.len();
            for &code in table.iter() {
                let slot = match code {
                    0 => 2,
                    1..=127 => 0,
                    _ => 1,
                };
                counts[slot] += 1;
            }
        }
        // Impossible placements count as draws in the tables; take them out.
        counts[2] -= total - valid;
        let start_walls =
            (plan.start_key.horizontal.count_ones() + plan.start_key.vertical.count_ones()) as usize;
        LayerTables { board: plan.board, start_walls, levels: plan.levels, positions: valid, counts }
    }
}

/// Phase 1: the layers reachable from the start's, by number of walls
/// added. A layer is kept when some pawn placement in it lets both players
/// reach their goals (more than can really occur, never fewer).
fn find_layers(
    board: &Board,
    start: LayerKey,
    per_layer: usize,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Level>, SolveError> {
    let began = Instant::now();
    let mut levels = vec![Level::of_keys(vec![start])];
    let mut found = 1;
    loop {
        let mut next: HashSet<LayerKey> = HashSet::new();
        let current = levels.last().map(|l| l.keys.as_slice()).unwrap_or(&[]);
        for key in current {
            if limits.stopped() {
                return Err(SolveError::Stopped);
            }
            for wider in board.wall_sets_after(key) {
                let edges = board.edges(wider.horizontal, wider.vertical);
                let north = board.reach(edges, board.north_row);
                let south = board.reach(edges, board.south_row);
                let placeable = north != 0 && south != 0 && !(north == south && north.count_ones() == 1);
                if !placeable {
                    continue;
                }
                for mover in 0..2 {
                    if key.hand[mover] > 0 {
                        let mut child = wider;
                        child.hand[mover] -= 1;
                        next.insert(board.canonical(child).0);
                    }
                }
            }
        }
        if next.is_empty() {
            return Ok(levels);
        }
        found += next.len();
        // Two bytes a placement, for every layer's table.
        limits.check_memory(found.saturating_mul(per_layer), 2)?;
        progress(Progress {
            phase: 1,
            positions: found * per_layer,
            done: found * per_layer,
            phase_time: began.elapsed(),
            winner: None,
        });
        let mut keys: Vec<LayerKey> = next.into_iter().collect();
        keys.sort_by_key(|k| (k.horizontal, k.vertical, k.hand));
        levels.push(Level::of_keys(keys));
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
