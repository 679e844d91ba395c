//! The Quarto position: pieces on squares with one bitboard per attribute,
//! the piece in hand, the pieces still to give, and win detection.

use super::patterns::{patterns, Rules};
use super::symmetry::{canonical_key, EMPTY};
use std::sync::OnceLock;

/// Why rules cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// A board side other than 3 or 4.
    Side(usize),
    /// A rule level outside 1..=4.
    Level(usize),
    /// A level above 1 on the 3x3 board, which has lines only.
    LevelOnSmallBoard(usize),
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::Side(s) => write!(f, "Quarto boards are 3x3 or 4x4, not {s}x{s}"),
            RulesError::Level(l) => write!(f, "Quarto level {l} does not exist (1..=4)"),
            RulesError::LevelOnSmallBoard(l) => {
                write!(f, "the 3x3 board has only level 1, not level {l}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Checks that the side and level make a game.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.side != 3 && self.side != 4 {
            return Err(RulesError::Side(self.side));
        }
        if !(1..=4).contains(&self.level) {
            return Err(RulesError::Level(self.level));
        }
        if self.side == 3 && self.level != 1 {
            return Err(RulesError::LevelOnSmallBoard(self.level));
        }
        Ok(())
    }
}

/// The patterns through each square, per rule set.
pub(super) struct PatternTable {
    pub all: Vec<u16>,
    pub through: [Vec<u16>; 16],
}

pub(super) fn pattern_table(rules: Rules) -> &'static PatternTable {
    static TABLES: OnceLock<Vec<(Rules, PatternTable)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut sets = vec![Rules { side: 3, level: 1 }];
        sets.extend((1..=4).map(|level| Rules { side: 4, level }));
        sets.into_iter()
            .map(|rules| {
                let all = patterns(rules);
                let through =
                    std::array::from_fn(|s| all.iter().copied().filter(|p| p >> s & 1 == 1).collect());
                (rules, PatternTable { all, through })
            })
            .collect()
    });
    match tables.iter().find(|(r, _)| *r == rules) {
        Some((_, table)) => table,
        None => &tables[1].1,
    }
}

/// A Quarto position.
#[derive(Clone, PartialEq, Eq)]
pub struct Quarto {
    pub(super) rules: Rules,
    /// Piece on each square, or [`EMPTY`].
    pub(super) board: [u8; 16],
    pub(super) occupied: u16,
    /// Squares whose piece has each attribute bit set.
    pub(super) attribute: [u16; 4],
    /// Pieces neither on the board nor in hand.
    pub(super) available: u16,
    /// The piece the side to move must place (none before the first give).
    pub(super) hand: Option<u8>,
    pub(super) side: u8,
    pub(super) winner: Option<u8>,
}

impl Quarto {
    /// The empty board, player 1 to give the first piece.
    pub fn new(rules: Rules) -> Result<Quarto, RulesError> {
        rules.validate()?;
        Ok(Quarto {
            rules,
            board: [EMPTY; 16],
            occupied: 0,
            attribute: [0; 4],
            available: ((1u32 << rules.pieces()) - 1) as u16,
            hand: None,
            side: 0,
            winner: None,
        })
    }

    /// The rules the position is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, square: usize) -> Option<u8> {
        (self.board[square] != EMPTY).then_some(self.board[square])
    }

    /// The piece the side to move must place; `None` before the first give.
    pub fn hand(&self) -> Option<u8> {
        self.hand
    }

    /// The pieces neither on the board nor in hand, one bit each.
    pub fn available(&self) -> u16 {
        self.available
    }

    pub(super) fn side(&self) -> usize {
        self.side as usize
    }

    pub(super) fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// One bit for each square of the board.
    pub fn full_mask(&self) -> u16 {
        ((1u32 << self.rules.squares()) - 1) as u16
    }

    /// Whether every square holds a piece.
    pub fn is_full(&self) -> bool {
        self.occupied == self.full_mask()
    }

    /// Every piece has been placed (the 3x3 game has 8 pieces for 9 squares,
    /// so there this comes before a full board).
    pub fn pieces_run_out(&self) -> bool {
        self.hand.is_none() && self.available == 0
    }

    /// A win, or no piece left to play.
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.pieces_run_out()
    }

    /// Placements still to come: the pieces not yet on the board.
    pub fn placements_left(&self) -> u32 {
        self.available.count_ones() + u32::from(self.hand.is_some())
    }

    /// The empty squares, one bit each.
    pub fn empty_squares(&self) -> u16 {
        self.full_mask() & !self.occupied
    }

    /// Whether a full pattern shares an attribute value.
    #[inline]
    pub(super) fn pattern_wins(&self, pattern: u16) -> bool {
        if pattern & !self.occupied != 0 {
            return false;
        }
        self.attribute[..self.rules.attributes()].iter().any(|&a| a & pattern == pattern || a & pattern == 0)
    }

    /// Whether placing `piece` on the empty `square` completes a pattern.
    #[inline]
    pub fn placement_wins(&self, square: usize, piece: u8) -> bool {
        let occupied = self.occupied | 1 << square;
        let attributes = self.rules.attributes();
        pattern_table(self.rules).through[square].iter().any(|&pattern| {
            pattern & !occupied == 0
                && (0..attributes).any(|a| {
                    let with_piece = u16::from(piece >> a & 1) << square;
                    let set = (self.attribute[a] | with_piece) & pattern;
                    set == pattern || set == 0
                })
        })
    }

    pub(super) fn put(&mut self, square: usize, piece: u8) {
        self.board[square] = piece;
        self.occupied |= 1 << square;
        for (a, mask) in self.attribute.iter_mut().enumerate() {
            if piece >> a & 1 == 1 {
                *mask |= 1 << square;
            }
        }
    }

    /// Places the piece in hand (if `square`), then gives `piece` (if any).
    pub(super) fn play_parts(&mut self, square: Option<usize>, piece: Option<u8>) {
        if let (Some(square), Some(placed)) = (square, self.hand) {
            self.put(square, placed);
            self.hand = None;
            if pattern_table(self.rules).through[square].iter().any(|&p| self.pattern_wins(p)) {
                self.winner = Some(self.side);
            }
        }
        if let Some(given) = piece {
            self.available &= !(1 << given);
            self.hand = Some(given);
        }
        self.side ^= 1;
    }

    /// Squares where some pattern lacks only one piece, with the attribute
    /// values a piece must share there to win, as a mask of winning pieces.
    pub fn pieces_that_win_now(&self) -> u16 {
        let table = pattern_table(self.rules);
        let attributes = self.rules.attributes();
        let mut winning = 0u16;
        for &p in &table.all {
            let filled = p & self.occupied;
            // Exactly one square of the pattern empty (a power of two; no
            // popcount, which is not in the baseline instruction set).
            let empty = p & !self.occupied;
            if empty == 0 || empty & (empty - 1) != 0 {
                continue;
            }
            for (a, &mask) in self.attribute[..attributes].iter().enumerate() {
                if mask & filled == filled {
                    winning |= pieces_with(a, true);
                } else if mask & filled == 0 {
                    winning |= pieces_with(a, false);
                }
            }
        }
        winning
    }

    /// An exact key of the cells and the hand as they stand, never equal to
    /// a [`Quarto::canonical`] key (its top bit is set).
    pub fn cells_key(&self) -> u128 {
        let cells = self.board[..self.rules.squares()]
            .iter()
            .fold(self.hand.map_or(31u128, u128::from), |k, &c| k << 5 | u128::from(c));
        cells | 1 << 127
    }

    /// The key shared by all positions equivalent under symmetry.
    pub fn canonical(&self) -> u128 {
        canonical_key(self.rules, &self.board, self.hand)
    }
}

/// Pieces (as a 16-bit mask over piece numbers) whose attribute `a` is `value`.
#[inline]
pub fn pieces_with(attribute: usize, value: bool) -> u16 {
    const SET: [u16; 4] = [0xAAAA, 0xCCCC, 0xF0F0, 0xFF00];
    if value {
        SET[attribute]
    } else {
        !SET[attribute]
    }
}
