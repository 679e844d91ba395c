//! Quoridor on boards from 3x3 to 15x15, for two or four players, with single
//! or multiple jumps.

pub mod bitboard;
mod board;
mod diagram;
pub mod eval;
pub mod geometry;
mod levels;
mod movegen;
mod moves;
pub mod notation;
mod path_cache;
mod paths;
mod position_text;
mod race;
mod selective;
mod shut;
mod tracked;
mod walls;

pub use board::{Quoridor, Variant, VariantError};
pub use movegen::{Direction, DIRECTIONS};
pub use moves::{MoveKind, QuoridorMove};
pub use position_text::PositionError;

use crate::game::{Game, MoveError, MoveList, Outcome};

impl Game for Quoridor {
    type Move = QuoridorMove;

    fn player_count(&self) -> usize {
        self.players()
    }

    fn side_to_move(&self) -> usize {
        self.side()
    }

    fn generate_moves(&self, moves: &mut MoveList<QuoridorMove>) {
        self.legal_moves(moves);
    }

    fn generate_selective_moves(
        &self,
        moves: &mut MoveList<QuoridorMove>,
        _depth: u32,
        vouched: Option<&[u16]>,
    ) -> usize {
        self.selective_moves(moves, vouched)
    }

    fn give_turn_to(&mut self, seat: usize) {
        self.set_side(seat);
    }

    fn futility_margin(&self) -> Option<i32> {
        // 0.9 step per ply: scored 110 - 90 against titanium-quoridor at
        // 0.1 s per move where the same search without it scored 90 - 109.
        // Two players only: the search's teams make a static value less
        // telling with more.
        (self.players() == 2).then_some(90)
    }

    fn null_move(&self) -> Option<Self> {
        // Two players only, as for futility. A pass is never forced in
        // Quoridor, and a step towards the goal is almost always there to
        // take, so a side that is fine after passing is fine.
        (self.players() == 2).then(|| {
            let mut passed = self.clone();
            passed.set_side(1 - self.side());
            passed
        })
    }

    fn prepare_search(&self) {
        self.prepare_race();
    }

    fn solve_small(&self) -> Option<crate::game::Solved> {
        self.solve_race()
    }

    fn count_moves(&self) -> u64 {
        self.legal_move_count()
    }

    fn make_move(&mut self, mv: QuoridorMove) {
        self.play(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    fn hash(&self) -> u64 {
        Quoridor::hash(self)
    }

    fn table_key_after(&self, mv: QuoridorMove, _depth: u32) -> Option<u64> {
        Some(self.hash_after(mv))
    }

    fn prefetch_for(&self, mv: QuoridorMove) {
        self.prefetch_traces_for(mv);
    }

    fn is_irreversible(&self, mv: QuoridorMove) -> bool {
        mv.is_wall()
    }

    fn evaluate(&self, player: usize) -> i32 {
        self.evaluate_for(player)
    }

    fn format_move(&self, mv: QuoridorMove) -> String {
        self.move_name(mv)
    }

    fn parse_move(&self, text: &str) -> Result<QuoridorMove, MoveError> {
        self.parse_legal_move(text)
    }

    fn to_text(&self) -> String {
        self.text()
    }

    fn exact_key(&self) -> Option<u128> {
        self.packed_key()
    }

    fn diagram(&self) -> String {
        self.board_picture()
    }

    fn details(&self) -> Vec<String> {
        Quoridor::details(self)
    }

    fn scripted_move(&self, level: u32, rng: &mut crate::rng::Rng) -> Option<QuoridorMove> {
        if self.winner().is_some() {
            return None;
        }
        match level {
            1 => Some(self.random_move(rng)),
            2 => Some(self.easy_move(rng)),
            3 => Some(self.hard_move(rng)),
            _ => None,
        }
    }

    fn handicap(&self, level: u32) -> Option<crate::game::Handicap> {
        levels::handicap(level)
    }

    fn move_code(mv: QuoridorMove) -> u16 {
        mv.code()
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
    while position.winner().is_none() && before_move(&position) {
        position.generate_moves(&mut moves);
        position.play(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        after_move(&position);
    }
}
