//! The retrograde analysis of a pawn race (see [`super::race`]): every
//! state of one wall layout (both pawns, side to move) valued by layers of
//! bitboards instead of a graph of states.
//!
//! For each side and each square of the pawn that is not moving, the states
//! are a set of squares of the mover. Layer 0 holds the finished games (the
//! mover has lost); layer `k` odd adds the wins in `k` plies, the states with
//! a move into a state lost in fewer; layer `k` even the losses in `k` plies,
//! the states whose every move reaches a state won in fewer. Away from the
//! other pawn a move is a step over an open edge, and "some move reaches the
//! set" is one flood-fill step of the set; the few squares next to the other
//! pawn (jumps, side steps, a pawn with no move that passes) are checked one
//! by one against their moves, listed once per layout. A side is looked at
//! again only where the sets it reads grew in the layer before, so the work
//! follows the states being settled. What two empty layers in a row leave
//! unsettled is a draw by endless play.

use super::bitboard::{Bits, STRIDE};
use super::board::Quoridor;
use super::paths::{with_words, Maze};

/// A square of the mover next to the other pawn (or with no open edge),
/// with the mover's squares after each of its moves (its own square when it
/// has none and passes).
#[derive(Clone, Copy)]
struct Special<const W: usize> {
    square: usize,
    targets: Bits<W>,
}

/// One side to move: its states and what changed in the last layer.
struct Side<const W: usize> {
    /// By the other pawn's square: the mover's squares whose state is settled.
    settled: Vec<Bits<W>>,
    /// By the mover's square: the other pawn's squares where the mover has
    /// lost (has won), settled so far.
    lost: Vec<Bits<W>>,
    won: Vec<Bits<W>>,
    /// By the mover's square: whether `lost` (`won`) grew in the last layer.
    lost_grew: Vec<bool>,
    won_grew: Vec<bool>,
}

impl<const W: usize> Side<W> {
    fn new(slots: usize) -> Self {
        Side {
            settled: vec![Bits::EMPTY; slots],
            lost: vec![Bits::EMPTY; slots],
            won: vec![Bits::EMPTY; slots],
            lost_grew: vec![false; slots],
            won_grew: vec![false; slots],
        }
    }
}

/// The layout being solved and the values found so far.
struct Solver<'a, const W: usize> {
    position: &'a Quoridor,
    board: Bits<W>,
    maze: Maze<W>,
    squares: Vec<usize>,
    /// The index of each square in `squares`, by square.
    index_of: Vec<usize>,
    /// By the other pawn's square: the mover's squares checked one by one,
    /// as a set and as a list with their moves.
    special_set: Vec<Bits<W>>,
    special: Vec<Vec<Special<W>>>,
    sides: [Side<W>; 2],
    values: Vec<i16>,
}

impl Quoridor {
    /// Every state of this layout with both pawns' squares and the side to
    /// move: 0 for a draw (or a finished game), `n` for a win in `n` plies,
    /// `-n` for a loss in `n` plies, from the mover's view; indexed as
    /// `(first * squares + second) * 2 + side` with squares numbered row by
    /// row.
    pub(super) fn solve_layout(&self) -> Vec<i16> {
        with_words!(self.geometry().words, W => Solver::<W>::new(self).solve())
    }
}

impl<'a, const W: usize> Solver<'a, W> {
    fn new(position: &'a Quoridor) -> Self {
        let geometry = position.geometry();
        let board: Bits<W> = geometry.board.narrow();
        let maze = Maze::<W>::new(geometry.board, position.block_north, position.block_east);
        let squares: Vec<usize> = board.iter().collect();
        let slots = position.height as usize * STRIDE;
        let mut index_of = vec![0; slots];
        for (i, &square) in squares.iter().enumerate() {
            index_of[square] = i;
        }
        let no_edge = board & !maze.neighbours(board);
        let mut special_set = vec![Bits::EMPTY; slots];
        let mut special = vec![Vec::new(); slots];
        for &other in &squares {
            let set = (maze.neighbours(Bits::single(other)) | no_edge) & !Bits::single(other);
            special_set[other] = set;
            special[other] = set
                .iter()
                .map(|square| {
                    let targets: Bits<W> = position.race_targets(square, other).narrow();
                    let targets = if targets.is_empty() { Bits::single(square) } else { targets };
                    Special { square, targets }
                })
                .collect();
        }
        let count = squares.len() * squares.len() * 2;
        Solver {
            position,
            board,
            maze,
            squares,
            index_of,
            special_set,
            special,
            sides: [Side::new(slots), Side::new(slots)],
            values: vec![0; count],
        }
    }

    /// Records that the states of `side` with the other pawn on `other` and
    /// the mover on any of `movers` are won or lost in `plies`.
    fn settle(&mut self, side: usize, other: usize, movers: Bits<W>, plies: i16, won: bool) {
        let n = self.squares.len();
        let value = if won { plies } else { -plies };
        let s = &mut self.sides[side];
        s.settled[other] |= movers;
        let (by_mover, grew) =
            if won { (&mut s.won, &mut s.won_grew) } else { (&mut s.lost, &mut s.lost_grew) };
        for mover in movers.iter() {
            let (first, second) = if side == 0 { (mover, other) } else { (other, mover) };
            self.values[(self.index_of[first] * n + self.index_of[second]) * 2 + side] = value;
            by_mover[mover].insert(other);
            grew[mover] = true;
        }
    }

    fn solve(mut self) -> Vec<i16> {
        let position = self.position;
        // Layer 0: the player who just moved has reached its goal.
        for side in 0..2 {
            let goal = position.goal(side).narrow::<W>();
            for i in 0..self.squares.len() {
                let other = self.squares[i];
                let movers = if position.goal(1 - side).contains(other) { self.board } else { goal };
                self.settle(side, other, movers & !Bits::single(other), 0, false);
            }
        }
        let mut idle = 0;
        let mut plies: i16 = 1;
        while idle < 2 {
            let wins = plies % 2 == 1;
            let mut grew = false;
            for side in 0..2 {
                for i in 0..self.squares.len() {
                    grew |= self.layer_at(side, self.squares[i], plies, wins);
                }
            }
            idle = if grew { 0 } else { idle + 1 };
            plies += 1;
        }
        self.values
    }

    /// Settles the states of `side` with the other pawn on `other` that are
    /// won (`wins`) or lost in `plies`; whether any were.
    fn layer_at(&mut self, side: usize, other: usize, plies: i16, wins: bool) -> bool {
        // The other side's states after a move of ours, by its pawn (here
        // `other`): the squares of our pawn where it has lost (won).
        let them = &mut self.sides[1 - side];
        let grew = if wins { &mut them.lost_grew[other] } else { &mut them.won_grew[other] };
        if !std::mem::take(grew) {
            return false;
        }
        let reached = if wins { them.lost[other] } else { them.won[other] };
        let open = self.board & !self.sides[side].settled[other];
        let plain = open & !self.special_set[other] & !Bits::single(other);
        let mut found = if wins {
            self.maze.neighbours(reached) & plain
        } else {
            plain & !self.maze.neighbours(self.board & !reached)
        };
        for special in &self.special[other] {
            if !open.contains(special.square) {
                continue;
            }
            let hit = if wins {
                special.targets.intersects(&reached)
            } else {
                (special.targets & !reached).is_empty()
            };
            if hit {
                found.insert(special.square);
            }
        }
        self.settle(side, other, found, plies, wins);
        !found.is_empty()
    }
}
