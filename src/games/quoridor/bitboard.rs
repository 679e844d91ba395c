//! A set of board points laid out in rows of 16 bits, 256 bits in all.
//!
//! Both the squares of a board (up to 15x15) and the lattice points between them
//! (up to 16x16) fit in this layout. Index = `row * 16 + column`. Because a board
//! is at most 15 squares wide, column 15 of the square layout is always padding,
//! so a shift east or west never wraps onto a real square of the next row once the
//! result is masked with the board.
//!
//! The flood fills that dominate the search's time run on the first `W` words
//! only ([`Bits`]), as many as the board's rows need: three for 9x9.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Bits per row in the layout.
pub const STRIDE: usize = 16;

/// A set of points in the first `W` words (`16 * W / 4` rows) of the layout.
#[derive(Clone, Copy, Eq, Debug)]
pub struct Bits<const W: usize>(pub [u64; W]);

/// A set of up to 256 points: any board.
pub type BitBoard = Bits<4>;

/// How many words hold a board of `height` rows.
pub fn words_for_rows(height: usize) -> usize {
    (height * STRIDE).div_ceil(64)
}

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> PartialEq for Bits<W> {
    /// Word by word in registers: the derived comparison of the arrays goes
    /// through memory, and a flood fill that just computed one side in
    /// registers then stalls on store forwarding at every step.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0;
        for i in 0..W {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const W: usize> Bits<W> {
    /// No bit set.
    pub const EMPTY: Self = Bits([0; W]);

    /// The set holding one point.
    #[inline]
    pub fn single(index: usize) -> Self {
        let mut b = Self::EMPTY;
        b.0[index >> 6] = 1u64 << (index & 63);
        b
    }

    #[inline]
    /// Whether bit `index` is set.
    pub fn contains(&self, index: usize) -> bool {
        (self.0[index >> 6] >> (index & 63)) & 1 != 0
    }

    #[inline]
    /// Sets bit `index`.
    pub fn insert(&mut self, index: usize) {
        self.0[index >> 6] |= 1u64 << (index & 63);
    }

    #[inline]
    /// Clears bit `index`.
    pub fn remove(&mut self, index: usize) {
        self.0[index >> 6] &= !(1u64 << (index & 63));
    }

    #[inline]
    /// Whether no bit is set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    #[inline]
    /// Whether the two share a set bit.
    pub fn intersects(&self, other: &Self) -> bool {
        !(*self & *other).is_empty()
    }

    #[inline]
    /// How many bits are set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The set holding only the lowest point of this one (empty if empty).
    #[inline]
    pub fn lowest(self) -> Self {
        let mut out = Self::EMPTY;
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out.0[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        out
    }

    /// The first `V` words of the set; points beyond them are dropped.
    #[inline]
    pub fn narrow<const V: usize>(self) -> Bits<V> {
        let mut out = Bits::<V>::EMPTY;
        out.0.copy_from_slice(&self.0[..V]);
        out
    }

    /// The set in a layout of `V >= W` words.
    #[inline]
    pub fn widen<const V: usize>(self) -> Bits<V> {
        let mut out = Bits::<V>::EMPTY;
        out.0[..W].copy_from_slice(&self.0);
        out
    }

    /// Every point moved `n` places up the index order (0 < n < 64).
    #[inline]
    pub fn shift_up(self, n: u32) -> Self {
        let w = self.0;
        let mut out = [0; W];
        out[0] = w[0] << n;
        for i in 1..W {
            out[i] = (w[i] << n) | (w[i - 1] >> (64 - n));
        }
        Bits(out)
    }

    /// Every point moved `n` places down the index order (0 < n < 64).
    #[inline]
    pub fn shift_down(self, n: u32) -> Self {
        let w = self.0;
        let mut out = [0; W];
        for i in 0..W - 1 {
            out[i] = (w[i] >> n) | (w[i + 1] << (64 - n));
        }
        out[W - 1] = w[W - 1] >> n;
        Bits(out)
    }

    /// One row north (towards higher rows).
    #[inline]
    pub fn north(self) -> Self {
        self.shift_up(STRIDE as u32)
    }

    #[inline]
    /// Every bit moved one row down (to lower indices).
    pub fn south(self) -> Self {
        self.shift_down(STRIDE as u32)
    }

    #[inline]
    /// Every bit moved one column to the east (higher index).
    pub fn east(self) -> Self {
        self.shift_up(1)
    }

    #[inline]
    /// Every bit moved one column to the west (lower index).
    pub fn west(self) -> Self {
        self.shift_down(1)
    }

    /// The points in increasing index order.
    pub fn iter(self) -> BitIter<W> {
        BitIter { bits: self, word: 0 }
    }

    /// The rectangle of columns `0..width` and rows `0..height`.
    pub fn rectangle(width: usize, height: usize) -> Self {
        let mut b = Self::EMPTY;
        for row in 0..height {
            for col in 0..width {
                b.insert(row * STRIDE + col);
            }
        }
        b
    }

    /// One whole row `0..width`.
    pub fn row(row: usize, width: usize) -> Self {
        let mut b = Self::EMPTY;
        for col in 0..width {
            b.insert(row * STRIDE + col);
        }
        b
    }

    /// One whole column `0..height`.
    pub fn column(col: usize, height: usize) -> Self {
        let mut b = Self::EMPTY;
        for row in 0..height {
            b.insert(row * STRIDE + col);
        }
        b
    }
}

/// Iterator over the set points of a [`Bits`].
pub struct BitIter<const W: usize> {
    bits: Bits<W>,
    word: usize,
}

impl<const W: usize> Iterator for BitIter<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = self.bits.0[self.word];
            if w != 0 {
                self.bits.0[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! bitwise {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const W: usize> $trait for Bits<W> {
            type Output = Self;
            #[inline]
            fn $method(self, rhs: Self) -> Self {
                let mut out = [0; W];
                for i in 0..W {
                    out[i] = self.0[i] $op rhs.0[i];
                }
                Bits(out)
            }
        }
    };
}

bitwise!(BitAnd, bitand, &);
bitwise!(BitOr, bitor, |);
bitwise!(BitXor, bitxor, ^);

impl<const W: usize> BitAndAssign for Bits<W> {
    #[inline]
    fn bitand_assign(&mut self, rhs: Self) {
        *self = *self & rhs;
    }
}

impl<const W: usize> BitOrAssign for Bits<W> {
    #[inline]
    fn bitor_assign(&mut self, rhs: Self) {
        *self = *self | rhs;
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let mut out = self.0;
        for w in &mut out {
            *w = !*w;
        }
        Bits(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_word_boundaries() {
        let b = BitBoard::single(60);
        assert_eq!(b.north().iter().collect::<Vec<_>>(), vec![76]);
        assert_eq!(b.north().south(), b);
        let top = BitBoard::single(250);
        assert!(top.north().is_empty());
        assert_eq!(BitBoard::single(64).west().iter().next(), Some(63));
    }

    #[test]
    fn narrow_sets_shift_like_wide_ones() {
        let b = BitBoard::single(60) | BitBoard::single(130);
        let n: Bits<3> = b.narrow();
        assert_eq!(n.north().widen::<4>(), b.north());
        assert_eq!(n.south().west().widen::<4>(), b.south().west());
        assert_eq!(words_for_rows(9), 3);
        assert_eq!(words_for_rows(4), 1);
        assert_eq!(words_for_rows(15), 4);
    }

    #[test]
    fn lowest_finds_the_first_point_in_any_word() {
        let b = BitBoard::single(200) | BitBoard::single(130);
        assert_eq!(b.lowest(), BitBoard::single(130));
        assert_eq!(BitBoard::EMPTY.lowest(), BitBoard::EMPTY);
    }

    #[test]
    fn iteration_and_count_agree() {
        let r = BitBoard::rectangle(15, 15);
        assert_eq!(r.count(), 225);
        assert_eq!(r.iter().count(), 225);
        assert!(!r.contains(15));
        assert!(r.contains(14 * 16 + 14));
    }
}
