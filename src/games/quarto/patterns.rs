//! Winning patterns of Quarto: the lines of the 3x3 and 4x4 games and the
//! extra shapes of rule levels 2-4 on 4x4. A pattern is a mask of squares
//! (`row * side + column`, row 0 in the south).

/// Board side and rule level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Rules {
    /// 3 or 4.
    pub side: usize,
    /// 1..=4 (only 1 on 3x3).
    pub level: usize,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { side: 4, level: 1 }
    }
}

impl Rules {
    /// Squares on the board: 9 or 16.
    pub fn squares(&self) -> usize {
        self.side * self.side
    }

    /// Pieces are numbered `0..pieces()`; 3x3 has three attributes, 4x4 four.
    pub fn pieces(&self) -> usize {
        1 << self.side
    }

    /// Attributes of a piece: 3 on the 3x3 board, 4 on the 4x4.
    pub fn attributes(&self) -> usize {
        self.side
    }
}

fn mask(side: usize, cells: &[(usize, usize)]) -> u16 {
    cells.iter().fold(0, |m, &(row, col)| m | 1 << (row * side + col))
}

/// Rows, columns and the two diagonals.
fn lines(side: usize) -> Vec<u16> {
    let mut all = Vec::new();
    for i in 0..side {
        all.push(mask(side, &(0..side).map(|c| (i, c)).collect::<Vec<_>>()));
        all.push(mask(side, &(0..side).map(|r| (r, i)).collect::<Vec<_>>()));
    }
    all.push(mask(side, &(0..side).map(|i| (i, i)).collect::<Vec<_>>()));
    all.push(mask(side, &(0..side).map(|i| (i, side - 1 - i)).collect::<Vec<_>>()));
    all
}

/// Every 2x2 square of the 4x4 board.
fn small_squares() -> Vec<u16> {
    let mut all = Vec::new();
    for r in 0..3 {
        for c in 0..3 {
            all.push(mask(4, &[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]));
        }
    }
    all
}

/// The corners of every 3x3 square of the 4x4 board.
fn large_square_corners() -> Vec<u16> {
    let mut all = Vec::new();
    for r in 0..2 {
        for c in 0..2 {
            all.push(mask(4, &[(r, c), (r, c + 2), (r + 2, c), (r + 2, c + 2)]));
        }
    }
    all
}

/// Diamonds around a centre, and the two tilted squares.
fn diamonds() -> Vec<u16> {
    let mut all = Vec::new();
    for r in 0..2 {
        for c in 0..2 {
            all.push(mask(4, &[(r, c + 1), (r + 1, c), (r + 1, c + 2), (r + 2, c + 1)]));
        }
    }
    // {b1, d2, c4, a3} and {c1, a2, b4, d3}; (row, column) from a1 = (0, 0).
    all.push(mask(4, &[(0, 1), (1, 3), (3, 2), (2, 0)]));
    all.push(mask(4, &[(0, 2), (1, 0), (3, 1), (2, 3)]));
    all
}

/// The winning patterns of a rule set.
pub fn patterns(rules: Rules) -> Vec<u16> {
    let mut all = lines(rules.side);
    if rules.side == 4 {
        if rules.level >= 2 {
            all.extend(small_squares());
        }
        if rules.level >= 3 {
            all.extend(large_square_corners());
        }
        if rules.level >= 4 {
            all.extend(diamonds());
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_counts_per_level() {
        let count = |side, level| patterns(Rules { side, level }).len();
        assert_eq!([count(4, 1), count(4, 2), count(4, 3), count(4, 4)], [10, 19, 23, 29]);
        assert_eq!(count(3, 1), 8);
    }

    #[test]
    fn every_pattern_has_side_many_distinct_squares() {
        for (side, level) in [(4, 4), (3, 1)] {
            let all = patterns(Rules { side, level });
            assert!(all.iter().all(|p| p.count_ones() as usize == side));
            for (i, p) in all.iter().enumerate() {
                assert!(!all[..i].contains(p), "pattern {p:#06x} twice");
            }
        }
    }

    #[test]
    fn families_hold_the_documented_shapes() {
        // a1-d1 row, b1-b4 column, a1-d4 diagonal.
        let level1 = patterns(Rules { side: 4, level: 1 });
        assert!(level1.contains(&0x000F) && level1.contains(&0x2222) && level1.contains(&0x8421));
        // a1 b1 a2 b2 square; a1 c1 a3 c3 corners; b1 a2 c2 b3 diamond.
        assert!(small_squares().contains(&0x0033));
        assert!(large_square_corners().contains(&0x0505));
        assert!(diamonds().contains(&(1 << 1 | 1 << 4 | 1 << 6 | 1 << 9)));
        // b1 d2 c4 a3 tilted square.
        assert!(diamonds().contains(&(1 << 1 | 1 << 7 | 1 << 14 | 1 << 8)));
    }
}
