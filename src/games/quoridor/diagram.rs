//! The text picture of a Quoridor board printed by the `d` command.

use super::bitboard::STRIDE;
use super::board::Quoridor;

impl Quoridor {
    /// Rows from north to south; pawns as their seat number, walls as `|`
    /// and `-`, wall centres as `+`.
    pub fn board_picture(&self) -> String {
        let (width, height) = (self.width(), self.height());
        let walls = self.horizontal_walls() | self.vertical_walls();
        let mut out = String::new();
        for row in (0..height).rev() {
            out.push_str(&format!("{:>2} ", row + 1));
            for col in 0..width {
                let square = row * STRIDE + col;
                let pawn = (0..self.players()).find(|&s| self.pawn(s) == square);
                out.push(pawn.map_or('.', |s| (b'1' + s as u8) as char));
                if col + 1 < width {
                    out.push(if self.block_east.contains(square) { '|' } else { ' ' });
                }
            }
            out.push('\n');
            if row > 0 {
                out.push_str("   ");
                for col in 0..width {
                    let below = (row - 1) * STRIDE + col;
                    out.push(if self.block_north.contains(below) { '-' } else { ' ' });
                    if col + 1 < width {
                        let centre = row * STRIDE + col + 1;
                        out.push(if walls.contains(centre) { '+' } else { ' ' });
                    }
                }
                out.truncate(out.trim_end_matches(' ').len());
                out.push('\n');
            }
        }
        out.push_str("   ");
        for col in 0..width {
            out.push((b'a' + col as u8) as char);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out
    }
}
