//! A QTP controller written from the protocol's specification, for the
//! tests: a client that sends one command and reads its reply (`=` or `?`,
//! up to the empty line), and Quoridor's rules in QTP's own coordinates,
//! slow and plain, owing nothing to the engine's rules or to the
//! department's referee.
//!
//! Coordinates: columns `A`.. from the left (0..), rows `1`.. from the
//! bottom. Black starts in the middle of the top row and moves first,
//! racing to row 1; white starts in the middle of row 1, racing to the top
//! (the middle is column `N/2` from 0 on every size). A wall is named by
//! the square at the top left of the four it separates: `C4 horizontal`
//! lies under C4 and D4, `C4 vertical` right of C4 and C3.

use super::engine_process::{EngineProcess, QUICK};
use std::collections::{HashSet, VecDeque};
use std::time::Duration;

/// A reply: whether it was `=`, and its text (lines after the first joined
/// with `\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub ok: bool,
    pub text: String,
}

/// An engine spoken to in QTP.
pub struct QtpClient {
    pub engine: EngineProcess,
}

impl QtpClient {
    pub fn new(engine: EngineProcess) -> QtpClient {
        QtpClient { engine }
    }

    /// Sends `line` and reads its reply within `timeout`: the first line
    /// must be `=...` or `?...` (nothing else may come before it), and the
    /// reply ends with an empty line.
    pub fn ask_within(&mut self, line: &str, timeout: Duration) -> Reply {
        self.engine.send(line);
        let first = match self.engine.next_line(timeout) {
            Some(first) => first,
            None => panic!("no reply to '{line}' within {timeout:?}\n{}", self.engine.dump()),
        };
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("'{line}' was answered by '{first}', not '=' or '?'\n{}", self.engine.dump()),
        };
        let mut text = first[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        loop {
            match self.engine.next_line(QUICK) {
                Some(line) if line.is_empty() => break,
                Some(more) => {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&more);
                }
                None => panic!("the reply to '{line}' has no empty line after it\n{}", self.engine.dump()),
            }
        }
        Reply { ok, text }
    }

    /// [`QtpClient::ask_within`] for a command answered at once.
    pub fn ask(&mut self, line: &str) -> Reply {
        self.ask_within(line, QUICK)
    }

    /// Asks `line` and expects `=` with `text`.
    pub fn expect(&mut self, line: &str, text: &str) {
        let reply = self.ask(line);
        assert!(
            reply.ok && reply.text == text,
            "'{line}' got {reply:?}, not '= {text}'\n{}",
            self.engine.dump()
        );
    }

    /// Asks `line` and expects `?` whose message starts with `start`.
    pub fn refused(&mut self, line: &str, start: &str) {
        let reply = self.ask(line);
        assert!(
            !reply.ok && reply.text.starts_with(start),
            "'{line}' got {reply:?}, not '? {start}...'\n{}",
            self.engine.dump()
        );
    }
}

/// A square: column from 0, row from 1.
pub type Square = (i32, i32);

/// A QTP move, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pawn(Square),
    /// The top-left square and whether the wall is vertical.
    Wall(Square, bool),
}

impl Move {
    /// `E8`, `A3 horizontal`, `a3 v`.
    pub fn parse(text: &str) -> Option<Move> {
        let mut words = text.split_whitespace();
        let vertex = words.next()?.to_ascii_uppercase();
        let mut chars = vertex.chars();
        let col = chars.next()? as i32 - 'A' as i32;
        let row: i32 = chars.as_str().parse().ok()?;
        let mv = match words.next().map(|w| w.to_ascii_lowercase()) {
            None => Move::Pawn((col, row)),
            Some(o) if o == "h" || o == "horizontal" => Move::Wall((col, row), false),
            Some(o) if o == "v" || o == "vertical" => Move::Wall((col, row), true),
            Some(_) => return None,
        };
        words.next().is_none().then_some(mv)
    }

    /// The text QTP commands take after the colour.
    pub fn text(self) -> String {
        let vertex = |(c, r): Square| format!("{}{r}", (b'A' + c as u8) as char);
        match self {
            Move::Pawn(s) => vertex(s),
            Move::Wall(s, v) => format!("{} {}", vertex(s), if v { "vertical" } else { "horizontal" }),
        }
    }
}

/// The rules, kept as plainly as they are stated.
#[derive(Clone, Debug)]
pub struct Rules {
    pub size: i32,
    /// Black's pawn and white's.
    pub pawns: [Square; 2],
    pub hands: [u32; 2],
    /// Walls by top-left square and orientation (true: vertical).
    pub walls: HashSet<(Square, bool)>,
}

impl Rules {
    pub fn new(size: i32, walls: u32) -> Rules {
        Rules { size, pawns: [(size / 2, size), (size / 2, 1)], hands: [walls; 2], walls: HashSet::new() }
    }

    fn on_board(&self, (c, r): Square) -> bool {
        (0..self.size).contains(&c) && (1..=self.size).contains(&r)
    }

    /// Whether a wall stands between two neighbouring squares.
    fn blocked(&self, a: Square, b: Square) -> bool {
        if a.0 == b.0 {
            // Up or down: a horizontal wall under the upper square, named
            // by it or by the square left of it.
            let top = a.1.max(b.1);
            self.walls.contains(&((a.0, top), false)) || self.walls.contains(&((a.0 - 1, top), false))
        } else {
            // Left or right: a vertical wall right of the left square, named
            // by it or by the square above it.
            let left = a.0.min(b.0);
            self.walls.contains(&((left, a.1), true)) || self.walls.contains(&((left, a.1 + 1), true))
        }
    }

    fn steps(&self, from: Square) -> Vec<Square> {
        [(0, 1), (0, -1), (1, 0), (-1, 0)]
            .iter()
            .map(|(dc, dr)| (from.0 + dc, from.1 + dr))
            .filter(|&to| self.on_board(to) && !self.blocked(from, to))
            .collect()
    }

    /// Where the pawn of `seat` may go: a free neighbour; over the other
    /// pawn when it is a neighbour and nothing is behind it; beside it
    /// when a wall or the edge is behind it.
    pub fn pawn_moves(&self, seat: usize) -> Vec<Square> {
        let (me, other) = (self.pawns[seat], self.pawns[1 - seat]);
        let mut moves = Vec::new();
        for next in self.steps(me) {
            if next != other {
                moves.push(next);
                continue;
            }
            let behind = (2 * other.0 - me.0, 2 * other.1 - me.1);
            if self.on_board(behind) && !self.blocked(other, behind) {
                moves.push(behind);
            } else {
                moves.extend(self.steps(other).into_iter().filter(|&s| s != me && s != behind));
            }
        }
        moves
    }

    fn goal(&self, seat: usize) -> i32 {
        if seat == 0 {
            1
        } else {
            self.size
        }
    }

    /// Whether the pawn of `seat` can still reach its goal row.
    fn has_path(&self, seat: usize) -> bool {
        let mut seen = HashSet::from([self.pawns[seat]]);
        let mut queue = VecDeque::from([self.pawns[seat]]);
        while let Some(square) = queue.pop_front() {
            if square.1 == self.goal(seat) {
                return true;
            }
            for next in self.steps(square) {
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        false
    }

    /// Whether `seat` may place this wall now.
    pub fn wall_fits(&self, seat: usize, (c, r): Square, vertical: bool) -> bool {
        if self.hands[seat] == 0 || !(0..self.size - 1).contains(&c) || !(2..=self.size).contains(&r) {
            return false;
        }
        let overlap = if vertical {
            [((c, r + 1), true), ((c, r - 1), true)]
        } else {
            [((c - 1, r), false), ((c + 1, r), false)]
        };
        if self.walls.contains(&((c, r), true))
            || self.walls.contains(&((c, r), false))
            || overlap.iter().any(|w| self.walls.contains(w))
        {
            return false;
        }
        let mut after = self.clone();
        after.walls.insert(((c, r), vertical));
        after.has_path(0) && after.has_path(1)
    }

    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&seat| self.pawns[seat].1 == self.goal(seat))
    }

    /// Plays `mv` for `seat` if the rules allow it.
    pub fn play(&mut self, seat: usize, mv: Move) -> Result<(), String> {
        if self.winner().is_some() {
            return Err("the game is over".into());
        }
        match mv {
            Move::Pawn(to) if self.pawn_moves(seat).contains(&to) => self.pawns[seat] = to,
            Move::Wall(at, vertical) if self.wall_fits(seat, at, vertical) => {
                self.walls.insert((at, vertical));
                self.hands[seat] -= 1;
            }
            _ => return Err(format!("{} is illegal for {}", mv.text(), ["black", "white"][seat])),
        }
        Ok(())
    }
}
