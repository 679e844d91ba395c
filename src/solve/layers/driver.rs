//! The layered solver in one process: phase 1 finds the layers reachable
//! from the start, level by level ([`plan_layers`]); phase 2 values them
//! from the most walls down ([`solve_layers`]), and [`LayerTables`] answers
//! the value of any position among them.

use super::board::{Board, LayerKey, Level};
use super::values::{load, value_layers};
use crate::game::Position;
use crate::games::quoridor::bitboard::STRIDE;
use crate::games::quoridor::Quoridor;
use crate::solve::{Progress, SolveError, SolveLimits, Value};
use std::collections::HashSet;
use std::time::Instant;

/// The largest board the layers handle: squares and wall centres each fit
/// in 64 bits.
pub const MAX_AREA: usize = 64;

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
/// valued: what [`super::stages`] hands out as tasks.
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
