//! Quoridor move notation: squares `a1`.. (column letter from the west, row
//! number from the south), walls as the square south-west of their centre plus
//! `h` or `v`, and `pass`; read by `nom` rules (see [`crate::games::fields`]).

use super::bitboard::STRIDE;
use super::board::Quoridor;
use super::moves::{MoveKind, QuoridorMove};
use crate::game::Notation;
use crate::game::Position;
use crate::game::{MoveError, MoveList};
use crate::games::fields::{square, whole, Parsed, Square};
use nom::branch::alt;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::one_of;
use nom::combinator::{map, opt, value};
use nom::sequence::pair;

/// `a1`-style name of a square index.
pub fn square_name(square: usize) -> String {
    let col = (b'a' + (square % STRIDE) as u8) as char;
    format!("{col}{}", square / STRIDE + 1)
}

/// Reads a square name, checking it lies on a `width` x `height` board.
/// Notation is read in either case (`E2` is `e2`), as everywhere.
pub fn parse_square(text: &str, width: usize, height: usize) -> Option<usize> {
    let (col, row) = whole(text, square)?;
    (col < width && row < height).then_some(row * STRIDE + col)
}

/// What a move text says, before the rules are consulted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// A square, by index.
    Step(usize),
    /// A wall.
    Wall {
        /// Its centre lattice point.
        centre: usize,
        /// Whether it runs north-south.
        vertical: bool,
    },
    /// `pass`.
    Pass,
}

/// A move text as written: `pass`, or a square with `h` or `v` for a wall.
fn move_text(input: &str) -> Parsed<'_, Option<(Square, Option<bool>)>> {
    let wall = map(one_of("hvHV"), |c| c.eq_ignore_ascii_case(&'v'));
    alt((value(None, tag_no_case("pass")), map(pair(square, opt(wall)), Some)))(input)
}

/// Reads a move text on a board of the given size; `None` if it is not one.
pub fn parse_move_text(text: &str, width: usize, height: usize) -> Option<MoveText> {
    let Some(((col, row), vertical)) = whole(text, move_text)? else {
        return Some(MoveText::Pass);
    };
    if col >= width || row >= height {
        return None;
    }
    let square = row * STRIDE + col;
    match vertical {
        None => Some(MoveText::Step(square)),
        // The named square is south-west of the centre, so the centre must
        // stay inside the board: not on the east column or north row.
        Some(vertical) => (col + 1 < width && row + 1 < height)
            .then_some(MoveText::Wall { centre: square + STRIDE + 1, vertical }),
    }
}

impl Quoridor {
    fn why_illegal(&self, parsed: MoveText) -> &'static str {
        if self.winner.is_some() {
            return "the game is over";
        }
        match parsed {
            MoveText::Pass => "pass is only allowed when no other move exists",
            MoveText::Step(_) => "the pawn cannot reach that square",
            MoveText::Wall { centre, vertical } => {
                if self.hand[self.side as usize] == 0 {
                    "no walls left in hand"
                } else if !self.wall_fits(centre, vertical) {
                    "overlaps or crosses a wall"
                } else {
                    "it would cut a player off its goal"
                }
            }
        }
    }
}

/// Moves and positions as text; reading a position text is in
/// `position_text`.
impl Notation for Quoridor {
    /// The notation of a move.
    fn format_move(&self, mv: QuoridorMove) -> String {
        match mv.kind() {
            MoveKind::Step { square } => square_name(square),
            MoveKind::Wall { centre, vertical } => {
                let suffix = if vertical { 'v' } else { 'h' };
                format!("{}{suffix}", square_name(centre - STRIDE - 1))
            }
            MoveKind::Pass => "pass".to_string(),
        }
    }

    /// The legal move a text names, or why there is none.
    fn parse_move(&self, text: &str) -> Result<QuoridorMove, MoveError> {
        let parsed = parse_move_text(text, self.width(), self.height())
            .ok_or_else(|| MoveError::Malformed(text.to_string()))?;
        let mv = match parsed {
            MoveText::Step(square) => QuoridorMove::step(square),
            MoveText::Wall { centre, vertical } => QuoridorMove::wall(centre, vertical),
            MoveText::Pass => QuoridorMove::pass(),
        };
        let mut legal = MoveList::default();
        self.generate_moves(&mut legal);
        if legal.iter().any(|&m| m == mv) {
            return Ok(mv);
        }
        let illegal = |reason| MoveError::Illegal { text: text.to_string(), reason };
        Err(illegal(self.why_illegal(parsed)))
    }

    /// The position text.
    fn to_text(&self) -> String {
        let seats = 0..self.player_count();
        let pawns: Vec<String> = seats.clone().map(|s| square_name(self.pawn(s))).collect();
        let hand: Vec<String> = seats.map(|s| self.walls_in_hand(s).to_string()).collect();
        let mut walls: Vec<(usize, String)> = Vec::new();
        for (set, suffix) in [(self.horizontal, 'h'), (self.vertical, 'v')] {
            for centre in set.iter() {
                walls.push((centre, format!("{}{suffix}", square_name(centre - STRIDE - 1))));
            }
        }
        walls.sort();
        let walls: Vec<String> = walls.into_iter().map(|(_, name)| name).collect();
        format!(
            "quoridor {}x{} pawns={} hand={} walls={} turn={} jumps={}",
            self.width(),
            self.height(),
            pawns.join(","),
            hand.join(","),
            if walls.is_empty() { "-".to_string() } else { walls.join(",") },
            self.side_to_move() + 1,
            if self.multi_jump() { "multi" } else { "single" }
        )
    }

    /// Rows from north to south inside a frame; pawns as their seat number,
    /// walls as `|` and `-`, wall centres as `+`.
    fn diagram(&self) -> String {
        let (width, height) = (self.width(), self.height());
        let walls = self.horizontal_walls() | self.vertical_walls();
        let edge = format!("   +{}+", "-".repeat(2 * width + 1));
        let mut lines = vec![edge.clone()];
        for row in (0..height).rev() {
            let mut line = format!("{:>2} | ", row + 1);
            for col in 0..width {
                let square = row * STRIDE + col;
                let pawn = (0..self.player_count()).find(|&s| self.pawn(s) == square);
                line.push(pawn.map_or('.', |s| (b'1' + s as u8) as char));
                let walled = col + 1 < width && self.block_east.contains(square);
                line.push(if walled { '|' } else { ' ' });
            }
            line.push('|');
            lines.push(line);
            if row > 0 {
                let mut line = "   | ".to_string();
                for col in 0..width {
                    let below = (row - 1) * STRIDE + col;
                    line.push(if self.block_north.contains(below) { '-' } else { ' ' });
                    let centre = row * STRIDE + col + 1;
                    line.push(if col + 1 < width && walls.contains(centre) { '+' } else { ' ' });
                }
                line.push('|');
                lines.push(line);
            }
        }
        lines.push(edge);
        let letters: Vec<String> = (0..width).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
        lines.push(format!("     {}", letters.join(" ")));
        lines.join("\n")
    }

    /// Lines for `d` beyond the picture and the position text.
    fn details(&self) -> Vec<String> {
        let hands: Vec<String> =
            (0..self.player_count()).map(|s| self.walls_in_hand(s).to_string()).collect();
        vec![format!("Walls in hand: {}", hands.join(" "))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(parse_square("e1", 9, 9), Some(4));
        assert_eq!(parse_square("o15", 15, 15), Some(14 * 16 + 14));
        assert_eq!(parse_square("j1", 9, 9), None);
        assert_eq!(parse_square("a10", 9, 9), None);
        assert_eq!(parse_square("a01", 9, 9), None);
    }

    #[test]
    fn wall_names_use_the_south_west_square() {
        // e3h separates rows 3 and 4 across columns e and f: centre at lattice (5, 3).
        assert_eq!(
            parse_move_text("e3h", 9, 9),
            Some(MoveText::Wall { centre: 3 * 16 + 5, vertical: false })
        );
        assert_eq!(parse_move_text("i3h", 9, 9), None);
        assert_eq!(parse_move_text("a9v", 9, 9), None);
        assert!(parse_move_text("h8v", 9, 9).is_some());
    }
}
