//! Quoridor on boards from 3x3 to 15x15, for two or four players, with single
//! or multiple jumps.

pub mod bitboard;
mod board;
pub mod eval;
pub mod geometry;
mod levels;
mod movegen;
mod moves;
pub mod nnue;
pub mod notation;
mod path_cache;
mod paths;
mod play;
mod position_text;
pub mod qtp;
mod race;
mod race_solve;
mod seat_paths;
mod selective;
mod shut;
pub mod terms;
mod tracked;
mod walls;

pub use board::{Quoridor, Variant, VariantError};
pub use movegen::{Direction, DIRECTIONS};
pub use moves::{MoveKind, QuoridorMove};
pub use position_text::PositionError;

use crate::game::{Handicap, MoveList, Outcome, Position, Selection, Solved, Strategy};
use path_cache::PathCache;
use race::RaceCache;
use shut::Found;

/// What a search or perft thread keeps for Quoridor (see
/// [`Position::Tables`]): the cache of traced paths, and the pawn races
/// solved in this search (layouts without walls in hand).
#[derive(Default)]
pub struct QuoridorTables {
    paths: PathCache,
    race: RaceCache,
}

impl Position for Quoridor {
    type Move = QuoridorMove;
    type Tables = QuoridorTables;

    fn player_count(&self) -> usize {
        self.players as usize
    }

    fn side_to_move(&self) -> usize {
        self.side as usize
    }

    fn generate_moves(&self, moves: &mut MoveList<QuoridorMove>) {
        self.all_moves(moves, &mut Found::default());
    }

    fn generate_moves_remembering(&mut self, moves: &mut MoveList<QuoridorMove>) {
        let mut found = Found::default();
        self.all_moves(moves, &mut found);
        self.shut.add(&found);
    }

    fn count_moves(&self) -> u64 {
        self.legal_move_count()
    }

    fn make_move(&mut self, mv: QuoridorMove) {
        self.play_with(mv, None);
    }

    fn make_move_with(&mut self, mv: QuoridorMove, tables: &mut QuoridorTables) {
        self.play_with(mv, Some(&mut tables.paths));
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|seat| Outcome::Win(seat as usize))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn is_irreversible(&self, mv: QuoridorMove) -> bool {
        mv.is_wall()
    }

    fn move_code(mv: QuoridorMove) -> u16 {
        mv.code()
    }

    fn exact_key(&self) -> Option<u128> {
        self.packed_key()
    }
}

impl Strategy for Quoridor {
    fn evaluate(&self, player: usize) -> i32 {
        self.evaluate_for(player)
    }

    fn generate_selective_moves(
        &mut self,
        moves: &mut MoveList<QuoridorMove>,
        _depth: u32,
        vouched: Option<&[u16]>,
    ) -> Selection {
        let mut found = Found::default();
        let primary = self.selective_moves(moves, vouched, &mut found);
        self.shut.add(&found);
        // Only walls can be left out, and only when some were asked for.
        let complete = vouched.is_none() || self.hand[self.side as usize] == 0;
        Selection { primary, complete }
    }

    fn table_key_after(&self, mv: QuoridorMove, _depth: u32) -> Option<u64> {
        Some(self.hash_after(mv))
    }

    fn prefetch_for(&self, mv: QuoridorMove, tables: &QuoridorTables) {
        tables.paths.prefetch_for(self, mv);
    }

    fn prepare_search(&self, tables: &mut QuoridorTables) {
        self.prepare_race(&mut tables.race);
    }

    fn solve_small(&self, tables: &mut QuoridorTables, depth: u32) -> Option<Solved> {
        self.solve_race(&mut tables.race, depth)
    }

    fn give_turn_to(&mut self, seat: usize) {
        self.set_side(seat);
    }

    fn wins_at_once(&self) -> bool {
        // One move takes a pawn at most `players` squares (a jump over every
        // other pawn and a step aside), so only a pawn that near its goal,
        // walls counted and pawns not, may reach it at once.
        let side = self.side as usize;
        match self.paths[side].profile {
            Some((distance, _)) if distance <= u32::from(self.players) => {
                self.pawn_targets().intersects(self.goal(side))
            }
            _ => false,
        }
    }

    fn futility_margin(&self) -> Option<i32> {
        // 0.9 step per ply: scored 110 - 90 against titanium-quoridor at
        // 0.1 s per move where the same search without it scored 90 - 109.
        // Two players only: the search's teams make a static value less
        // telling with more.
        (self.players == 2).then_some(90)
    }

    fn correction_keys(&self) -> Option<[u64; 2]> {
        // The walls on the board with those in hand, and the pawns' squares.
        // Two players only: with more, the search's teams mix seats.
        if self.players != 2 {
            return None;
        }
        let keys = geometry::zobrist();
        let mut walls = self.walls_hash;
        let mut pawns = 0;
        for seat in 0..self.players as usize {
            walls ^= keys.hand[seat][self.hand[seat] as usize];
            pawns ^= keys.pawn[seat][self.pawns[seat] as usize];
        }
        Some([walls, pawns])
    }

    fn null_move(&self) -> Option<Self> {
        // Two players only, as for futility. A pass is never forced in
        // Quoridor, and a step towards the goal is almost always there to
        // take, so a side that is fine after passing is fine.
        (self.players == 2).then(|| {
            let mut passed = self.clone();
            passed.set_side(1 - self.side as usize);
            passed
        })
    }

    fn scripted_move(&self, level: u32, rng: &mut crate::rng::Rng) -> Option<QuoridorMove> {
        if self.winner.is_some() {
            return None;
        }
        match level {
            1 => Some(self.random_move(rng)),
            2 => Some(self.easy_move(rng)),
            3 => Some(self.hard_move(rng)),
            _ => None,
        }
    }

    fn handicap(&self, level: u32) -> Option<Handicap> {
        levels::handicap(level)
    }
}

/// Random games for the tests that check a kept or shortcut result against
/// a slow one at every position.
#[cfg(test)]
pub(crate) fn random_game(
    text: &str,
    rng: &mut crate::rng::Rng,
    mut before_move: impl FnMut(&Quoridor) -> bool,
    mut after_move: impl FnMut(&Quoridor),
) {
    let Ok(mut position) = Quoridor::from_text(text) else {
        panic!("test position '{text}' is valid");
    };
    let mut moves = MoveList::default();
    // `before_move` decides whether the game goes on.
    while position.outcome().is_none() && before_move(&position) {
        position.generate_moves(&mut moves);
        position.make_move(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        after_move(&position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::rng::Rng;

    /// `wins_at_once` against its definition: some legal move ends the game
    /// with the side to move the winner.
    #[test]
    fn wins_at_once_is_a_legal_move_onto_the_goal() {
        let mut rng = Rng::new(11);
        let mut wins = 0;
        for text in [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            "quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1",
            "quoridor 7x7 pawns=d1,a4,d7,g4 hand=3,3,3,3 walls=- turn=1",
            "quoridor 6x5 pawns=c1,c5 hand=2,2 walls=- turn=1",
        ] {
            for _ in 0..40 {
                random_game(
                    text,
                    &mut rng,
                    |_| true,
                    |p| {
                        if p.outcome().is_some() {
                            return;
                        }
                        let mut moves = MoveList::default();
                        p.generate_moves(&mut moves);
                        let side = p.side_to_move();
                        let by_moves = moves.iter().any(|&mv| {
                            let mut after = p.clone();
                            after.make_move(mv);
                            after.outcome() == Some(Outcome::Win(side))
                        });
                        assert_eq!(p.wins_at_once(), by_moves, "{}", p.to_text());
                        wins += usize::from(by_moves);
                    },
                );
            }
        }
        assert!(wins > 50, "only {wins} positions with a win at once");
    }
}
