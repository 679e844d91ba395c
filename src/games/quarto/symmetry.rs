//! Symmetries of Quarto positions: the square permutations that map a rule
//! set's winning patterns onto themselves (computed from the patterns, not
//! assumed), combined with the relabellings of pieces (attribute
//! permutations and complements), and a canonical key that is equal for
//! exactly the positions related by them.

use super::patterns::{patterns, Rules};
use std::collections::HashSet;
use std::sync::OnceLock;

/// A permutation of squares: `image[s]` is where square `s` goes.
pub type SquarePermutation = [u8; 16];

/// Every square permutation that maps the pattern set onto itself.
pub fn automorphisms(squares: usize, pattern_list: &[u16]) -> Vec<SquarePermutation> {
    let set: HashSet<u16> = pattern_list.iter().copied().collect();
    // How many patterns hold both squares; a symmetry must keep these counts.
    let mut together = [[0u8; 16]; 16];
    for &p in pattern_list {
        let members: Vec<usize> = (0..squares).filter(|&s| p >> s & 1 == 1).collect();
        for &a in &members {
            for &b in &members {
                together[a][b] += 1;
            }
        }
    }
    let mut found = Vec::new();
    let mut image = [0u8; 16];
    let mut used = [false; 16];
    extend(0, squares, &set, &together, &mut image, &mut used, &mut found);
    found
}

fn extend(
    next: usize,
    squares: usize,
    set: &HashSet<u16>,
    together: &[[u8; 16]; 16],
    image: &mut SquarePermutation,
    used: &mut [bool; 16],
    found: &mut Vec<SquarePermutation>,
) {
    if next == squares {
        let maps_onto = set.iter().all(|&p| {
            let mapped = (0..squares).filter(|&s| p >> s & 1 == 1).fold(0u16, |m, s| m | 1 << image[s]);
            set.contains(&mapped)
        });
        if maps_onto {
            let mut full = *image;
            (squares..16).for_each(|s| full[s] = s as u8);
            found.push(full);
        }
        return;
    }
    for target in 0..squares {
        if used[target] {
            continue;
        }
        let consistent =
            (0..=next).all(|a| together[a][next] == together[image_or(a, next, target, image)][target]);
        if !consistent {
            continue;
        }
        image[next] = target as u8;
        used[target] = true;
        extend(next + 1, squares, set, together, image, used, found);
        used[target] = false;
    }
}

/// The image of `a`, where `next` is about to map to `target`.
fn image_or(a: usize, next: usize, target: usize, image: &SquarePermutation) -> usize {
    if a == next {
        target
    } else {
        image[a] as usize
    }
}

/// For each symmetry, the squares read in the order of their images, so that
/// reading a board in this order gives the transformed board; and tables that
/// map an occupancy mask to the occupancy of that reading.
pub struct SymmetryTable {
    /// Per symmetry, the squares in the order of their images.
    pub reading_orders: Vec<[u8; 16]>,
    /// Per symmetry: occupancy of squares 0-7 and 8-15 (by byte) to a mask
    /// whose bit `15 - i` says whether the `i`-th square read is occupied.
    occupancy: Vec<[[u16; 256]; 2]>,
}

impl SymmetryTable {
    /// The occupancy of the board as read by symmetry `g`, first square read
    /// in the highest bit, so that a larger value means occupied squares come
    /// earlier in the reading.
    #[inline]
    fn read_occupancy(&self, g: usize, occupied: u16) -> u16 {
        let table = &self.occupancy[g];
        table[0][(occupied & 0xFF) as usize] | table[1][(occupied >> 8) as usize]
    }
}

/// The symmetry table of a rule set, computed once per process.
pub fn symmetry_table(rules: Rules) -> &'static SymmetryTable {
    static TABLES: OnceLock<Vec<(Rules, SymmetryTable)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut all = vec![(Rules { side: 3, level: 1 }, build(Rules { side: 3, level: 1 }))];
        for level in 1..=4 {
            let rules = Rules { side: 4, level };
            all.push((rules, build(rules)));
        }
        all
    });
    match tables.iter().find(|(r, _)| *r == rules) {
        Some((_, table)) => table,
        None => &tables[1].1,
    }
}

fn build(rules: Rules) -> SymmetryTable {
    let n = rules.squares();
    let reading_orders: Vec<[u8; 16]> = automorphisms(n, &patterns(rules))
        .into_iter()
        .map(|image| {
            let mut order = [0u8; 16];
            for s in 0..n {
                order[image[s] as usize] = s as u8;
            }
            order
        })
        .collect();
    let occupancy = reading_orders
        .iter()
        .map(|order| {
            let mut tables = [[0u16; 256]; 2];
            for (half, table) in tables.iter_mut().enumerate() {
                for (byte, entry) in table.iter_mut().enumerate() {
                    let occupied = (byte as u16) << (8 * half);
                    *entry = (0..n)
                        .filter(|&i| occupied >> order[i] & 1 == 1)
                        .fold(0u16, |mask, i| mask | 1 << (15 - i));
                }
            }
            tables
        })
        .collect();
    SymmetryTable { reading_orders, occupancy }
}

/// Marks an empty square in a canonical sequence (above every piece number).
pub const EMPTY: u8 = 31;

/// The canonical key of a position, equal for exactly the positions related
/// by a board symmetry and a piece relabelling. Among the readings of the
/// board under every symmetry, those whose occupied squares come earliest
/// are kept (occupancy does not change under relabelling); of these, the
/// key is the smallest sequence (piece in hand, then the squares) under the
/// best relabelling, five bits per entry, with the occupancy on top.
pub fn canonical_key(rules: Rules, board: &[u8; 16], hand: Option<u8>) -> u128 {
    let table = symmetry_table(rules);
    let n = rules.squares();
    let occupied = (0..n).filter(|&s| board[s] != EMPTY).fold(0u16, |m, s| m | 1 << s);
    let readings = table.reading_orders.len();
    let best_occupancy = (0..readings).map(|g| table.read_occupancy(g, occupied)).max().unwrap_or(0);
    // Entry 0 is the hand, then the squares. A reading is abandoned as soon as
    // it exceeds the best so far: most are, after an entry or two.
    let mut best = [u8::MAX; 17];
    let mut entries = [0u8; 17];
    for (g, order) in table.reading_orders.iter().enumerate() {
        if table.read_occupancy(g, occupied) != best_occupancy {
            continue;
        }
        let mut relabel = Relabelling::new(rules.attributes());
        let mut smaller = false;
        let mut abandoned = false;
        for i in 0..=n {
            let piece = if i == 0 { hand.unwrap_or(EMPTY) } else { board[order[i - 1] as usize] };
            entries[i] = relabel.image(piece);
            if !smaller {
                if entries[i] > best[i] {
                    abandoned = true;
                    break;
                }
                smaller = entries[i] < best[i];
            }
        }
        if !abandoned && smaller {
            best[..=n].copy_from_slice(&entries[..=n]);
        }
    }
    let values = best[..=n].iter().fold(0u128, |key, &e| key << 5 | e as u128);
    values | (best_occupancy as u128) << 100
}

/// The lexicographically smallest relabelling of a sequence of pieces, built
/// greedily: the first piece fixes the complement, and each later piece
/// refines an ordered partition of the attribute bits (bits it has first).
struct Relabelling {
    complement: Option<u8>,
    /// Attribute bits in the order of the positions they will take.
    bits: [u8; 4],
    /// Where each cell of the partition ends in `bits`.
    cell_ends: [u8; 4],
    cells: usize,
}

impl Relabelling {
    fn new(attributes: usize) -> Relabelling {
        Relabelling { complement: None, bits: [0, 1, 2, 3], cell_ends: [attributes as u8, 0, 0, 0], cells: 1 }
    }

    /// The image of a piece, refining the relabelling as needed.
    fn image(&mut self, piece: u8) -> u8 {
        if piece == EMPTY {
            return EMPTY;
        }
        let complement = *self.complement.get_or_insert(piece);
        let value = piece ^ complement;
        // Split every cell into its bits set in `value`, then the others;
        // the set bits take the lowest positions of the cell.
        let mut start = 0usize;
        let mut new_bits = [0u8; 4];
        let mut new_ends = [0u8; 4];
        let mut new_cells = 0;
        let mut image = 0u8;
        for cell in 0..self.cells {
            let end = self.cell_ends[cell] as usize;
            let mut at = start;
            for want in [1, 0] {
                for i in start..end {
                    let bit = self.bits[i];
                    if value >> bit & 1 == want {
                        new_bits[at] = bit;
                        at += 1;
                    }
                }
                if want == 1 {
                    let set_end = at;
                    image |= ((1u8 << (set_end - start)) - 1) << start;
                    if set_end > start {
                        new_ends[new_cells] = set_end as u8;
                        new_cells += 1;
                    }
                }
            }
            if new_cells == 0 || (new_ends[new_cells - 1] as usize) < end {
                new_ends[new_cells] = end as u8;
                new_cells += 1;
            }
            start = end;
        }
        self.bits = new_bits;
        self.cell_ends = new_ends;
        self.cells = new_cells;
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group_size(side: usize, level: usize) -> usize {
        symmetry_table(Rules { side, level }).reading_orders.len()
    }

    #[test]
    fn groups_computed_from_the_patterns() {
        // Level 1 keeps rows, columns and diagonals: the 8 rotations and
        // reflections times the inner/outer and middle swaps; the extra
        // shapes of levels 2-4 leave only the 8 rotations and reflections.
        assert_eq!(group_size(4, 1), 32);
        assert_eq!(group_size(4, 2), 8);
        assert_eq!(group_size(4, 3), 8);
        assert_eq!(group_size(4, 4), 8);
        assert_eq!(group_size(3, 1), 8);
    }

    #[test]
    fn every_symmetry_maps_patterns_onto_patterns() {
        for (side, level) in [(4, 1), (4, 2), (4, 3), (4, 4), (3, 1)] {
            let rules = Rules { side, level };
            let all = patterns(rules);
            for image in automorphisms(rules.squares(), &all) {
                for &p in &all {
                    let mapped = (0..16).filter(|&s| p >> s & 1 == 1).fold(0u16, |m, s| m | 1 << image[s]);
                    assert!(all.contains(&mapped));
                }
            }
        }
    }

    #[test]
    fn relabelled_and_moved_positions_share_a_key() {
        let rules = Rules { side: 4, level: 1 };
        let mut board = [EMPTY; 16];
        board[0] = 3;
        board[5] = 12;
        board[6] = 9;
        board[15] = 0;
        let key = canonical_key(rules, &board, Some(7));
        // Complement every piece and swap attributes 0 and 3.
        let relabel = |p: u8| {
            let c = p ^ 0b1111;
            (c & 0b0110) | (c >> 3 & 1) | (c & 1) << 3
        };
        let relabelled: [u8; 16] =
            std::array::from_fn(|s| if board[s] == EMPTY { EMPTY } else { relabel(board[s]) });
        assert_eq!(canonical_key(rules, &relabelled, Some(relabel(7))), key);
        // Rotate the board a quarter turn: (row, col) -> (col, 3 - row).
        let mut rotated = [EMPTY; 16];
        for s in 0..16 {
            rotated[(s % 4) * 4 + (3 - s / 4)] = board[s];
        }
        assert_eq!(canonical_key(rules, &rotated, Some(7)), key);
        // A different position gets a different key.
        let mut other = board;
        other[1] = 5;
        assert_ne!(canonical_key(rules, &other, Some(7)), key);
    }
}
