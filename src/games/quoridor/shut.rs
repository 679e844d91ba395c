//! Walls already proven to cut a player off its goal, remembered from a
//! position to the positions after it.
//!
//! In a maze-like middlegame the same few walls close a pocket around a pawn
//! at node after node, and each costs a flood fill to reject. Such a wall
//! stays illegal while that pawn stays in its pocket: more walls only cut the
//! board further, and other pawns do not matter. So a position passes what
//! it proved to its children (a copy-make search clones the parent after
//! generating its moves), and a pawn move forgets only the walls of its own
//! seat that it may have slipped past.
//!
//! The set is part of the position, written only through `&mut` (the
//! generation that remembers, [`crate::game::Position::generate_moves_remembering`]);
//! generation through `&self` reads it and proves nothing new into it.

use super::bitboard::{BitBoard, STRIDE};

const STRIDE_PLUS_1: usize = STRIDE + 1;

/// Walls remembered at most: a maze has a handful shut at a time, and a
/// small cache keeps the copy of every child cheap.
const SLOTS: usize = 8;
const SLOTS_PER_WORD: usize = 4;
const WORDS: usize = SLOTS / SLOTS_PER_WORD;
/// A slot holds a wall's centre (never 0, a corner of the border), this bit
/// for a vertical wall, and the seat it shuts in above it; 0 is an empty slot.
const VERTICAL: u64 = 0x100;
const SEAT_SHIFT: u32 = 9;
const SLOT_MASK: u64 = 0xffff;

/// Walls just proven to cut a seat off, gathered by one legality check.
#[derive(Default)]
pub(super) struct Found {
    codes: [u16; SLOTS],
    len: usize,
}

impl Found {
    pub(super) fn push(&mut self, centre: usize, vertical: bool, seat: usize) {
        if self.len < SLOTS {
            let code = centre as u64 | if vertical { VERTICAL } else { 0 } | (seat as u64) << SEAT_SHIFT;
            self.codes[self.len] = code as u16;
            self.len += 1;
        }
    }
}

/// Up to [`SLOTS`] walls, 16 bits each.
#[derive(Clone, Copy, Debug)]
pub(super) struct ShutWalls([u64; WORDS]);

impl ShutWalls {
    pub(super) fn none() -> ShutWalls {
        ShutWalls([0; WORDS])
    }

    fn words(&self) -> [u64; WORDS] {
        self.0
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.words().iter().all(|&word| word == 0)
    }

    /// Horizontal and vertical centres known to cut someone off.
    #[inline]
    pub(super) fn get(&self) -> (BitBoard, BitBoard) {
        let (mut h, mut v) = (BitBoard::EMPTY, BitBoard::EMPTY);
        for mut word in self.words() {
            while word != 0 {
                let slot = word & SLOT_MASK;
                word >>= 16;
                let centre = (slot & 0xff) as usize;
                match slot {
                    0 => {}
                    s if s & VERTICAL != 0 => v.insert(centre),
                    _ => h.insert(centre),
                }
            }
        }
        (h, v)
    }

    /// Adds walls just proven to cut someone off, as many as there are
    /// free slots.
    #[inline]
    pub(super) fn add(&mut self, found: &Found) {
        if found.len == 0 {
            return;
        }
        let mut words = self.words();
        let mut codes = found.codes[..found.len].iter();
        'fill: for word in &mut words {
            for shift in (0..SLOTS_PER_WORD).map(|slot| 16 * slot) {
                if (*word >> shift) & SLOT_MASK == 0 {
                    match codes.next() {
                        Some(&code) => *word |= u64::from(code) << shift,
                        None => break 'fill,
                    }
                }
            }
        }
        self.0 = words;
    }

    /// `seat`'s pawn moved from `from` to `to`. A wall that shut it in still
    /// does unless it blocks an edge the pawn crossed: with that edge open
    /// the pawn stayed in its pocket. A step or a single jump crosses only
    /// edges of its first or last square, which a wall blocks only when its
    /// centre is a corner of that square; a multi-jump may cross others, so
    /// it forgets every wall of the seat. Walls that shut in another pawn
    /// still do.
    #[inline]
    pub(super) fn forget_after_step(&mut self, seat: usize, from: usize, to: usize, multi_jump: bool) {
        let corner_of = |square: usize, centre: usize| {
            matches!(centre.wrapping_sub(square), 0 | 1 | STRIDE | STRIDE_PLUS_1)
        };
        for word in &mut self.0 {
            if *word == 0 {
                continue;
            }
            for shift in (0..SLOTS_PER_WORD).map(|slot| 16 * slot) {
                let slot = (*word >> shift) & SLOT_MASK;
                let centre = (slot & 0xff) as usize;
                if slot != 0
                    && (slot >> SEAT_SHIFT) as usize == seat
                    && (multi_jump || corner_of(from, centre) || corner_of(to, centre))
                {
                    *word &= !(SLOT_MASK << shift);
                }
            }
        }
    }
}

/// A cache, not part of the position: two positions are equal whatever their
/// caches hold.
impl PartialEq for ShutWalls {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ShutWalls {}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(h: &[usize], v: &[usize]) -> (BitBoard, BitBoard) {
        let (mut hb, mut vb) = (BitBoard::EMPTY, BitBoard::EMPTY);
        h.iter().for_each(|&c| hb.insert(c));
        v.iter().for_each(|&c| vb.insert(c));
        (hb, vb)
    }

    #[test]
    fn a_wall_is_forgotten_only_when_the_pawn_it_shut_in_crosses_its_edges() {
        let mut shut = ShutWalls::none();
        let mut found = Found::default();
        // Horizontal at lattice point b2 (17) shutting seat 0 in; vertical
        // at e5 (68) shutting seat 1 in.
        found.push(17, false, 0);
        found.push(68, true, 1);
        shut.add(&found);
        assert_eq!(shut.get(), walls(&[17], &[68]));
        // Seat 1 steps far from its wall, seat 0 from a3 to a4: nothing.
        shut.forget_after_step(1, 20, 21, false);
        shut.forget_after_step(0, 32, 48, false);
        assert_eq!(shut.get(), walls(&[17], &[68]));
        // Seat 0 steps off a1, a square the wall at b2 borders.
        shut.forget_after_step(0, 0, 16, false);
        assert_eq!(shut.get(), walls(&[], &[68]));
        // A jump from a1 over a2 to a3 crosses the edges a1-a2 and a2-a3:
        // the walls on them (centres b2 and b3) have a corner on a1 or a3.
        let mut jump = Found::default();
        jump.push(17, false, 2);
        jump.push(33, false, 2);
        jump.push(65, false, 2);
        shut.add(&jump);
        shut.forget_after_step(2, 0, 32, false);
        assert_eq!(shut.get(), walls(&[65], &[68]));
        shut.forget_after_step(2, 64, 49, false);
        assert_eq!(shut.get(), walls(&[], &[68]));
        // With multi-jumps any move of the seat forgets its walls.
        shut.forget_after_step(1, 20, 21, true);
        assert_eq!(shut.get(), walls(&[], &[]));
    }

    #[test]
    fn walls_beyond_the_slots_are_dropped_never_mangled() {
        let mut shut = ShutWalls::none();
        let mut many = Found::default();
        let mut pushed = BitBoard::EMPTY;
        for centre in 33..33 + 2 * SLOTS {
            many.push(centre, false, 2);
            pushed.insert(centre);
        }
        shut.add(&many);
        shut.add(&many);
        let (kept, kept_v) = shut.get();
        assert_eq!(kept.count() as usize, SLOTS);
        assert!(kept_v.is_empty() && (kept & !pushed).is_empty());
    }
}
