//! A 256-bit set of board points laid out in rows of 16 bits.
//!
//! Both the squares of a board (up to 15x15) and the lattice points between them
//! (up to 16x16) fit in this layout. Index = `row * 16 + column`. Because a board
//! is at most 15 squares wide, column 15 of the square layout is always padding,
//! so a shift east or west never wraps onto a real square of the next row once the
//! result is masked with the board.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Bits per row in the layout.
pub const STRIDE: usize = 16;

/// A set of up to 256 points.
#[derive(Clone, Copy, Eq, Default, Debug)]
pub struct BitBoard(pub [u64; 4]);

impl PartialEq for BitBoard {
    /// Word by word in registers: the derived comparison of the arrays goes
    /// through memory, and a flood fill that just computed one side in
    /// registers then stalls on store forwarding at every step.
    #[inline]
    fn eq(&self, other: &BitBoard) -> bool {
        let (a, b) = (self.0, other.0);
        ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0
    }
}

impl BitBoard {
    pub const EMPTY: BitBoard = BitBoard([0; 4]);

    /// The set holding one point.
    #[inline]
    pub fn single(index: usize) -> BitBoard {
        let mut b = BitBoard::EMPTY;
        b.0[index >> 6] = 1u64 << (index & 63);
        b
    }

    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        (self.0[index >> 6] >> (index & 63)) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, index: usize) {
        self.0[index >> 6] |= 1u64 << (index & 63);
    }

    #[inline]
    pub fn remove(&mut self, index: usize) {
        self.0[index >> 6] &= !(1u64 << (index & 63));
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    #[inline]
    pub fn intersects(&self, other: &BitBoard) -> bool {
        !(*self & *other).is_empty()
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Every point moved `n` places up the index order (n < 64).
    #[inline]
    pub fn shift_up(self, n: u32) -> BitBoard {
        let w = self.0;
        if n == 0 {
            return self;
        }
        BitBoard([
            w[0] << n,
            (w[1] << n) | (w[0] >> (64 - n)),
            (w[2] << n) | (w[1] >> (64 - n)),
            (w[3] << n) | (w[2] >> (64 - n)),
        ])
    }

    /// Every point moved `n` places down the index order (n < 64).
    #[inline]
    pub fn shift_down(self, n: u32) -> BitBoard {
        let w = self.0;
        if n == 0 {
            return self;
        }
        BitBoard([
            (w[0] >> n) | (w[1] << (64 - n)),
            (w[1] >> n) | (w[2] << (64 - n)),
            (w[2] >> n) | (w[3] << (64 - n)),
            w[3] >> n,
        ])
    }

    /// One row north (towards higher rows).
    #[inline]
    pub fn north(self) -> BitBoard {
        self.shift_up(STRIDE as u32)
    }

    #[inline]
    pub fn south(self) -> BitBoard {
        self.shift_down(STRIDE as u32)
    }

    #[inline]
    pub fn east(self) -> BitBoard {
        self.shift_up(1)
    }

    #[inline]
    pub fn west(self) -> BitBoard {
        self.shift_down(1)
    }

    /// The points in increasing index order.
    pub fn iter(self) -> BitIter {
        BitIter { bits: self, word: 0 }
    }

    /// The rectangle of columns `0..width` and rows `0..height`.
    pub fn rectangle(width: usize, height: usize) -> BitBoard {
        let mut b = BitBoard::EMPTY;
        for row in 0..height {
            for col in 0..width {
                b.insert(row * STRIDE + col);
            }
        }
        b
    }

    /// One whole row `0..width`.
    pub fn row(row: usize, width: usize) -> BitBoard {
        let mut b = BitBoard::EMPTY;
        for col in 0..width {
            b.insert(row * STRIDE + col);
        }
        b
    }

    /// One whole column `0..height`.
    pub fn column(col: usize, height: usize) -> BitBoard {
        let mut b = BitBoard::EMPTY;
        for row in 0..height {
            b.insert(row * STRIDE + col);
        }
        b
    }
}

/// Iterator over the set points of a [`BitBoard`].
pub struct BitIter {
    bits: BitBoard,
    word: usize,
}

impl Iterator for BitIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
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
        impl $trait for BitBoard {
            type Output = BitBoard;
            #[inline]
            fn $method(self, rhs: BitBoard) -> BitBoard {
                let (a, b) = (self.0, rhs.0);
                BitBoard([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
    };
}

bitwise!(BitAnd, bitand, &);
bitwise!(BitOr, bitor, |);
bitwise!(BitXor, bitxor, ^);

impl BitAndAssign for BitBoard {
    #[inline]
    fn bitand_assign(&mut self, rhs: BitBoard) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for BitBoard {
    #[inline]
    fn bitor_assign(&mut self, rhs: BitBoard) {
        *self = *self | rhs;
    }
}

impl Not for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn not(self) -> BitBoard {
        let a = self.0;
        BitBoard([!a[0], !a[1], !a[2], !a[3]])
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
    fn iteration_and_count_agree() {
        let r = BitBoard::rectangle(15, 15);
        assert_eq!(r.count(), 225);
        assert_eq!(r.iter().count(), 225);
        assert!(!r.contains(15));
        assert!(r.contains(14 * 16 + 14));
    }
}
