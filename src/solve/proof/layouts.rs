//! The layouts the proof search has made, by wall set, kept within a
//! memory budget.

use super::rules::{Layout, Shape};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// A quick hasher for wall sets: the map compares the sets whole, so the
/// hash only spreads them.
#[derive(Default)]
struct WallsHasher(u64);

impl Hasher for WallsHasher {
    fn finish(&self) -> u64 {
        let z = (self.0 ^ (self.0 >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z ^ (z >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
}

type WallsMap<V> = HashMap<[u64; 2], V, BuildHasherDefault<WallsHasher>>;

/// Layouts by wall set, made when first needed and kept within a memory
/// budget; past it the half least recently used go.
pub struct Layouts {
    layouts: Kept<Rc<Layout>>,
    /// The layouts last asked for, by a few bits of their hash: a search
    /// asks for the same few wall sets again and again (every pawn move
    /// keeps its parent's), and the map is large.
    recent: [Option<([u64; 2], Rc<Layout>)>; RECENT],
}

/// How many layouts `recent` holds.
const RECENT: usize = 64;

/// Values by wall set with when each was last used, within a budget.
struct Kept<V> {
    map: WallsMap<(u64, usize, V)>,
    clock: u64,
    bytes: usize,
    budget: usize,
}

/// What a map entry costs besides its value's own memory.
const ENTRY_BYTES: usize = 64;

impl<V: Clone> Kept<V> {
    fn new(budget: usize) -> Kept<V> {
        Kept { map: WallsMap::default(), clock: 0, bytes: 0, budget }
    }

    fn get(&mut self, walls: &[u64; 2]) -> Option<V> {
        self.clock += 1;
        let (used, _, value) = self.map.get_mut(walls)?;
        *used = self.clock;
        Some(value.clone())
    }

    /// Keeps `value`, which takes `bytes`, first dropping the older half
    /// when over the budget.
    fn insert(&mut self, walls: [u64; 2], value: V, bytes: usize) {
        let bytes = bytes + ENTRY_BYTES;
        if self.bytes + bytes > self.budget && !self.map.is_empty() {
            let mut stamps: Vec<u64> = self.map.values().map(|(used, _, _)| *used).collect();
            let middle = stamps.len() / 2;
            let (_, &mut cut, _) = stamps.select_nth_unstable(middle);
            self.map.retain(|_, (used, _, _)| *used > cut);
            self.bytes = self.map.values().map(|(_, b, _)| b).sum();
        }
        self.bytes += bytes;
        self.map.insert(walls, (self.clock, bytes, value));
    }
}

impl Layouts {
    /// Layouts in about `max_bytes`.
    pub fn new(max_bytes: usize) -> Layouts {
        Layouts { layouts: Kept::new(max_bytes), recent: std::array::from_fn(|_| None) }
    }

    /// The layout of a wall set.
    pub fn get(&mut self, shape: &Shape, walls: [u64; 2]) -> Rc<Layout> {
        let mut hasher = WallsHasher::default();
        hasher.write_u64(walls[0]);
        hasher.write_u64(walls[1]);
        let slot = hasher.finish() as usize % RECENT;
        if let Some((held, layout)) = &self.recent[slot] {
            if *held == walls {
                return layout.clone();
            }
        }
        let layout = match self.layouts.get(&walls) {
            Some(layout) => layout,
            None => {
                let layout = Rc::new(shape.layout(walls));
                self.layouts.insert(walls, layout.clone(), layout.bytes());
                layout
            }
        };
        self.recent[slot] = Some((walls, layout.clone()));
        layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Quoridor;

    #[test]
    fn layouts_are_kept_within_their_budget() {
        let p = Quoridor::from_text("quoridor 5x5 pawns=c2,c4 hand=3,3 walls=- turn=1").expect("a position");
        let shape = Shape::of(&p).expect("fits");
        let mut layouts = Layouts::new(20_000);
        let first = layouts.get(&shape, [0, 0]);
        assert!(Rc::ptr_eq(&first, &layouts.get(&shape, [0, 0])), "kept");
        for slot in 0..16 {
            layouts.get(&shape, [1 << slot, 0]);
        }
        assert!(layouts.layouts.bytes <= 20_000 && layouts.layouts.map.len() < 17);
        assert_eq!(layouts.get(&shape, [0, 0]).mirrored, first.mirrored);
    }
}
