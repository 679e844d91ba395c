//! The game as a QTP controller sees it: a square board, the walls each
//! player starts with, the position, and every position before it (for
//! `undo`). Moves arrive in QTP's coordinates and name their colour, which
//! need not be the side to move; the rules are Tabula's, on the board
//! turned half round (see [`crate::games::quoridor::qtp`]).

use crate::game::prelude::*;
use crate::game::Outcome;
use crate::games::quoridor::bitboard::STRIDE;
use crate::games::quoridor::notation::square_name;
use crate::games::quoridor::qtp::{Color, QtpMove};
use crate::games::quoridor::Quoridor;
use crate::games::variant::GameVariant;
use crate::games::AnyPosition;
use std::fmt;

/// Why a QTP command could not change the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A board side Tabula does not play.
    Size(String),
    /// More walls than a player can hold.
    Walls(String),
    /// A move the rules forbid, and why.
    Illegal(String),
    /// Fewer moves played than `undo` asked to take back.
    CannotUndo,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Size(why) => write!(f, "unacceptable size: {why}"),
            GameError::Walls(why) => write!(f, "unacceptable number of walls: {why}"),
            GameError::Illegal(why) => write!(f, "illegal move: {why}"),
            GameError::CannotUndo => write!(f, "cannot undo"),
        }
    }
}

/// The board, the position and the positions before it.
pub struct QtpGame {
    size: usize,
    walls: usize,
    position: Quoridor,
    before: Vec<Quoridor>,
}

impl QtpGame {
    /// A new game on a board of side `size` with `walls` walls each, read
    /// by the one reader of variants (as `width=`, `height=`, `walls=`).
    pub fn new(size: usize, walls: usize) -> Result<QtpGame, GameError> {
        let (side, hand) = (size.to_string(), walls.to_string());
        let board = [("width", side.as_str()), ("height", side.as_str())];
        GameVariant::from_keys(board).map_err(|e| GameError::Size(e.to_string()))?;
        let variant = GameVariant::from_keys(board.into_iter().chain([("walls", hand.as_str())]))
            .map_err(|e| GameError::Walls(e.to_string()))?;
        let Ok(AnyPosition::Quoridor(position)) = variant.start() else {
            return Err(GameError::Size(format!("{size}x{size}: not a Quoridor board")));
        };
        Ok(QtpGame { size, walls, position, before: Vec::new() })
    }

    /// The board's side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The walls each player starts with.
    pub fn walls(&self) -> usize {
        self.walls
    }

    /// `walls N`: each player now holds `walls`; the pawns and the walls on
    /// the board stay (at the start of a game, as controllers send it, this
    /// is the start position with `walls` each).
    pub fn set_walls(&mut self, walls: usize) -> Result<(), GameError> {
        let fresh = QtpGame::new(self.size, walls)?;
        if self.before.is_empty() && self.position == QtpGame::new(self.size, self.walls)?.position {
            *self = fresh;
            return Ok(());
        }
        let mut text = self.position.to_text();
        let hand = format!("hand={},{}", self.position.walls_in_hand(0), self.position.walls_in_hand(1));
        text = text.replacen(&hand, &format!("hand={walls},{walls}"), 1);
        self.position = Quoridor::from_text(&text).map_err(|e| GameError::Walls(e.to_string()))?;
        self.walls = walls;
        Ok(())
    }

    /// The position with `color` to move, as `genmove` searches it.
    pub fn position_for(&self, color: Color) -> Result<Quoridor, GameError> {
        self.position.with_turn(color.seat()).ok_or_else(|| GameError::Illegal("the game is over".into()))
    }

    /// Plays `color`'s move, given in QTP's coordinates.
    pub fn play(&mut self, color: Color, mv: QtpMove) -> Result<(), GameError> {
        self.play_text(color, &mv.to_tabula(self.size))
    }

    /// Plays `color`'s move, given in Tabula's notation.
    pub fn play_text(&mut self, color: Color, text: &str) -> Result<(), GameError> {
        let mut next = self.position_for(color)?;
        let mv = next.parse_move(text).map_err(|e| match e {
            crate::game::MoveError::Illegal { reason, .. } => GameError::Illegal(reason.to_string()),
            other => GameError::Illegal(other.to_string()),
        })?;
        next.make_move(mv);
        self.before.push(std::mem::replace(&mut self.position, next));
        Ok(())
    }

    /// Takes back the last `moves` moves.
    pub fn undo(&mut self, moves: usize) -> Result<(), GameError> {
        if moves > self.before.len() {
            return Err(GameError::CannotUndo);
        }
        let keep = self.before.len() - moves;
        if moves > 0 {
            self.position = self.before[keep].clone();
        }
        self.before.truncate(keep);
        Ok(())
    }

    /// The colour whose pawn reached its goal, if any.
    pub fn winner(&self) -> Option<Color> {
        match self.position.outcome() {
            Some(Outcome::Win(seat)) => Some(Color::of_seat(seat)),
            _ => None,
        }
    }

    /// The board as QTP draws it, black's start row on top: pawns `B` and
    /// `W`, horizontal walls `=`, vertical walls `H`; no empty line, so
    /// that it fits in one reply.
    pub fn diagram(&self) -> String {
        let n = self.size;
        let mut walls = std::collections::HashSet::new();
        let placed = [(self.position.horizontal_walls(), 'h'), (self.position.vertical_walls(), 'v')];
        for (set, suffix) in placed {
            for centre in set.iter() {
                let name = format!("{}{suffix}", square_name(centre - STRIDE - 1));
                if let Some(QtpMove { col, row, wall: Some(vertical) }) = QtpMove::from_tabula(&name, n) {
                    walls.insert((col, row, vertical));
                }
            }
        }
        // Whether a wall is named by column `c`, row `r`.
        let horizontal = |c: usize, r: usize| walls.contains(&(c, r, false));
        let vertical = |c: usize, r: usize| walls.contains(&(c, r, true));
        let pawn = |seat: usize| QtpMove::from_tabula(&square_name(self.position.pawn(seat)), n);
        let pawns = [pawn(0), pawn(1)];
        let letters: String = (0..n).map(|c| format!("  {} ", (b'A' + c as u8) as char)).collect();
        let mut lines = vec![format!("   {letters}")];
        // The line between rows `k + 1` and `k` (`n`: the top edge, 0: the
        // bottom edge): walls named by a square of row `k + 1` lie on it.
        let separator = |k: usize| {
            let r = k + 1;
            let mut line = String::from("   +");
            for c in 0..n {
                let under = k > 0 && (horizontal(c, r) || (c > 0 && horizontal(c - 1, r)));
                line.push_str(if under { "===" } else { "---" });
                let joint = if k == 0 || k == n || c + 1 == n {
                    '+'
                } else if horizontal(c, r) {
                    '='
                } else if vertical(c, r) {
                    'H'
                } else {
                    '+'
                };
                line.push(joint);
            }
            line
        };
        lines.push(separator(n));
        for row in (1..=n).rev() {
            let mut line = format!("{row:2} |");
            for c in 0..n {
                let here = |p: &Option<QtpMove>| p.is_some_and(|p| p.col == c && p.row == row);
                line.push_str(if here(&pawns[0]) {
                    " B "
                } else if here(&pawns[1]) {
                    " W "
                } else {
                    "   "
                });
                let walled = c + 1 < n && (vertical(c, row) || vertical(c, row + 1));
                line.push(if walled { 'H' } else { '|' });
            }
            line.push_str(&format!(" {row}"));
            if row == n {
                line.push_str(&format!("  black walls: {}", self.position.walls_in_hand(0)));
            } else if row + 1 == n {
                line.push_str(&format!("  white walls: {}", self.position.walls_in_hand(1)));
            }
            lines.push(line);
            lines.push(separator(row - 1));
        }
        lines.push(format!("   {letters}"));
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str, size: usize) -> QtpMove {
        let words: Vec<&str> = text.split_whitespace().collect();
        QtpMove::parse(&words, size).expect("a move")
    }

    #[test]
    fn moves_name_their_colour_and_undo_takes_them_back() {
        let mut game = QtpGame::new(5, 3).unwrap();
        game.play(Color::Black, mv("C4", 5)).unwrap();
        // Black again: QTP names the colour, the turn follows it.
        game.play(Color::Black, mv("C3", 5)).unwrap();
        game.play(Color::White, mv("C2", 5)).unwrap();
        // White jumps over black from C2 to C4.
        let err = game.play(Color::White, mv("C5", 5)).unwrap_err();
        assert!(matches!(err, GameError::Illegal(_)), "{err}");
        game.play(Color::White, mv("C4", 5)).unwrap();
        assert_eq!(game.undo(5), Err(GameError::CannotUndo));
        game.undo(2).unwrap();
        game.play(Color::White, mv("A4 h", 5)).unwrap();
        assert_eq!(game.position.walls_in_hand(1), 2);
        assert_eq!(game.winner(), None);
    }

    #[test]
    fn the_diagram_shows_pawns_and_walls_in_qtp_orientation() {
        let mut game = QtpGame::new(5, 2).unwrap();
        game.play(Color::Black, mv("B5 h", 5)).unwrap();
        game.play(Color::White, mv("C2 v", 5)).unwrap();
        let diagram = game.diagram();
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines[0], "     A   B   C   D   E ");
        assert_eq!(lines[2], " 5 |   |   | B |   |   | 5  black walls: 1", "{diagram}");
        assert_eq!(lines[3], "   +---+=======+---+---+", "{diagram}");
        assert_eq!(lines[8], " 2 |   |   |   H   |   | 2", "{diagram}");
        assert_eq!(lines[9], "   +---+---+---H---+---+", "{diagram}");
        assert_eq!(lines[10], " 1 |   |   | W H   |   | 1", "{diagram}");
        assert!(lines.iter().all(|l| !l.trim().is_empty()), "{diagram}");
    }

    #[test]
    fn walls_set_each_hand() {
        let mut game = QtpGame::new(9, 10).unwrap();
        game.set_walls(4).unwrap();
        assert_eq!(game.walls(), 4);
        assert_eq!(game.position.walls_in_hand(0), 4);
        game.play(Color::Black, mv("E8", 9)).unwrap();
        game.set_walls(7).unwrap();
        assert_eq!((game.position.walls_in_hand(0), game.position.walls_in_hand(1)), (7, 7));
        assert!(matches!(game.set_walls(31), Err(GameError::Walls(_))));
        assert!(matches!(QtpGame::new(16, 10), Err(GameError::Size(_))));
    }
}
