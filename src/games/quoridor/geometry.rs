//! Per-board-size constants of Quoridor: masks of the board, goal edges, wall
//! centres and border, start squares; and the Zobrist keys shared by all sizes.
//!
//! Tables are built once per process and looked up by size, so a position
//! carries only its width and height.

use super::bitboard::{words_for_rows, BitBoard, STRIDE};
use std::sync::OnceLock;

/// The fewest columns: two, with one line of wall centres between them.
pub const MIN_WIDTH: usize = 2;
/// The fewest rows.
pub const MIN_HEIGHT: usize = 3;
/// The largest board side, columns or rows.
pub const MAX_SIDE: usize = 15;
/// Most walls one player may hold.
pub const MAX_WALLS_IN_HAND: usize = 30;

/// Masks for one board size.
pub struct Geometry {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// Every square of the board.
    pub board: BitBoard,
    /// How many words of a [`BitBoard`] the board's rows use.
    pub words: usize,
    /// The goal edge of each seat, for two players (index 0, 1) and four (all).
    pub goals_two: [BitBoard; 2],
    /// The goal edge of each seat with four players.
    pub goals_four: [BitBoard; 4],
    /// Lattice points that can be the centre of a wall.
    pub wall_centres: BitBoard,
    /// Lattice points on the board's outline.
    pub border: BitBoard,
}

impl Geometry {
    fn new(width: usize, height: usize) -> Geometry {
        let mut border = BitBoard::EMPTY;
        for y in 0..=height {
            for x in 0..=width {
                if x == 0 || y == 0 || x == width || y == height {
                    border.insert(y * STRIDE + x);
                }
            }
        }
        let mut wall_centres = BitBoard::EMPTY;
        for y in 1..height {
            for x in 1..width {
                wall_centres.insert(y * STRIDE + x);
            }
        }
        let north = BitBoard::row(height - 1, width);
        let south = BitBoard::row(0, width);
        let east = BitBoard::column(width - 1, height);
        let west = BitBoard::column(0, height);
        Geometry {
            width,
            height,
            board: BitBoard::rectangle(width, height),
            words: words_for_rows(height),
            goals_two: [north, south],
            goals_four: [north, east, south, west],
            wall_centres,
            border,
        }
    }

    /// The start square of each seat. Two players face each other on the
    /// middle column, or on an even board on the column just left of the
    /// centre (`b` on 4 columns); four players need odd square boards.
    pub fn start(&self, players: usize, seat: usize) -> usize {
        let (w, h) = (self.width, self.height);
        let middle = (w - 1) / 2;
        let (col, row) = match (players, seat) {
            (_, 0) => (middle, 0),
            (2, _) => (middle, h - 1),
            (_, 1) => (0, h / 2),
            (_, 2) => (middle, h - 1),
            _ => (w - 1, h / 2),
        };
        row * STRIDE + col
    }

    /// The goal edge of a seat.
    #[inline]
    pub fn goal(&self, players: usize, seat: usize) -> &BitBoard {
        if players == 2 {
            &self.goals_two[seat]
        } else {
            &self.goals_four[seat]
        }
    }
}

/// The geometry of a board size: `MIN_WIDTH..=MAX_SIDE` columns by
/// `MIN_HEIGHT..=MAX_SIDE` rows.
pub fn geometry(width: usize, height: usize) -> &'static Geometry {
    static TABLE: OnceLock<Vec<Geometry>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut all = Vec::new();
        for h in MIN_HEIGHT..=MAX_SIDE {
            for w in MIN_WIDTH..=MAX_SIDE {
                all.push(Geometry::new(w, h));
            }
        }
        all
    });
    let widths = MAX_SIDE - MIN_WIDTH + 1;
    &table[(height - MIN_HEIGHT) * widths + (width - MIN_WIDTH)]
}

/// Random keys for incremental hashing.
pub struct Zobrist {
    /// A key per seat and pawn square.
    pub pawn: [[u64; 256]; 4],
    /// A key per horizontal wall centre.
    pub horizontal_wall: [u64; 256],
    /// A key per vertical wall centre.
    pub vertical_wall: [u64; 256],
    /// A key per seat and number of walls in hand.
    pub hand: [[u64; MAX_WALLS_IN_HAND + 1]; 4],
    /// A key per seat to move.
    pub side: [u64; 4],
}

/// The process-wide Zobrist keys (fixed seed, so hashes are reproducible).
pub fn zobrist() -> &'static Zobrist {
    static KEYS: OnceLock<Box<Zobrist>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x7AB0_1A5E_ED00_0001u64;
        let mut next = move || {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut keys = Box::new(Zobrist {
            pawn: [[0; 256]; 4],
            horizontal_wall: [0; 256],
            vertical_wall: [0; 256],
            hand: [[0; MAX_WALLS_IN_HAND + 1]; 4],
            side: [0; 4],
        });
        for seat in keys.pawn.iter_mut() {
            seat.iter_mut().for_each(|k| *k = next());
        }
        keys.horizontal_wall.iter_mut().for_each(|k| *k = next());
        keys.vertical_wall.iter_mut().for_each(|k| *k = next());
        for seat in keys.hand.iter_mut() {
            seat.iter_mut().for_each(|k| *k = next());
        }
        keys.side.iter_mut().for_each(|k| *k = next());
        keys
    })
}
