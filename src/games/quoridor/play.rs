//! Playing a move on a Quoridor position: the pawn or the wall, the hash,
//! the walls in hand, the turn, and the shortest paths every position keeps
//! (traced again through the caller's cache when it has one).

use super::board::Quoridor;
use super::geometry::zobrist;
use super::moves::{MoveKind, QuoridorMove};
use super::path_cache::PathCache;

impl Quoridor {
    /// Plays a move known to be legal, tracing the paths it changes
    /// through `cache` when there is one.
    pub(super) fn play_with(&mut self, mv: QuoridorMove, mut cache: Option<&mut PathCache>) {
        let keys = zobrist();
        let side = self.side as usize;
        match mv.kind() {
            MoveKind::Step { square } => {
                let from = self.pawns[side] as usize;
                self.shut.forget_after_step(side, from, square, self.multi_jump);
                self.hash ^= keys.pawn[side][from] ^ keys.pawn[side][square];
                self.pawns[side] = square as u8;
                if let Some(mut accumulator) = self.accumulator {
                    accumulator.after_step(self, side, from, square);
                    self.accumulator = Some(accumulator);
                }
                if self.goal(side).contains(square) {
                    self.winner = Some(side as u8);
                }
                self.retrace_after_step(side, cache.as_deref_mut());
            }
            MoveKind::Wall { centre, vertical } => {
                self.put_wall(centre, vertical);
                if let Some(accumulator) = &mut self.accumulator {
                    accumulator.after_wall(centre, vertical);
                }
                self.retrace_after_wall(centre, vertical, cache);
                let before = self.hand[side] as usize;
                self.hash ^= keys.hand[side][before] ^ keys.hand[side][before - 1];
                self.hand[side] -= 1;
            }
            MoveKind::Pass => {}
        }
        let next = (side + 1) % self.players as usize;
        self.hash ^= keys.side[side] ^ keys.side[next];
        self.side = next as u8;
    }
}
