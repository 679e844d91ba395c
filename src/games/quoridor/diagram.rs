//! The text picture of a Quoridor board printed by the `d` command.

use super::bitboard::STRIDE;
use super::board::Quoridor;

impl Quoridor {
    /// Rows from north to south inside a frame; pawns as their seat number,
    /// walls as `|` and `-`, wall centres as `+`.
    pub fn board_picture(&self) -> String {
        let (width, height) = (self.width(), self.height());
        let walls = self.horizontal_walls() | self.vertical_walls();
        let edge = format!("   +{}+", "-".repeat(2 * width + 1));
        let mut lines = vec![edge.clone()];
        for row in (0..height).rev() {
            let mut line = format!("{:>2} | ", row + 1);
            for col in 0..width {
                let square = row * STRIDE + col;
                let pawn = (0..self.players()).find(|&s| self.pawn(s) == square);
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
    pub fn details(&self) -> Vec<String> {
        let hands: Vec<String> = (0..self.players()).map(|s| self.walls_in_hand(s).to_string()).collect();
        vec![format!("Walls in hand: {}", hands.join(" "))]
    }
}
