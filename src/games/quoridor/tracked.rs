//! Shortest-path facts every position keeps per seat and updates move by
//! move, so that neither the evaluation nor the selective move generation
//! has to trace paths at every node.
//!
//! A seat's facts depend only on its pawn and the walls. A pawn move changes
//! the mover's alone. A wall changes a seat's only when it cuts an edge of
//! that seat's shortest-path graph: otherwise every shortest path survives,
//! none is added (walls only remove edges), and so the graph, the distance
//! and the narrow places stay exactly as they were. One trace per move
//! replaces the two per leaf the evaluation used to make.

use super::board::Quoridor;
use super::path_cache::PathCache;

impl Quoridor {
    /// Traces every seat from scratch (a new or rebuilt position).
    pub(super) fn retrace_all(&mut self) {
        for seat in 0..self.players as usize {
            self.paths[seat] = self.trace_paths(seat);
        }
    }

    /// A seat's paths, from the cache when there is one.
    #[inline]
    fn retrace(&self, seat: usize, cache: Option<&mut PathCache>) -> super::seat_paths::SeatPaths {
        match cache {
            Some(cache) => cache.trace(self, seat),
            None => self.trace_paths(seat),
        }
    }

    /// After `seat`'s pawn moved.
    #[inline]
    pub(super) fn retrace_after_step(&mut self, seat: usize, cache: Option<&mut PathCache>) {
        self.paths[seat] = self.retrace(seat, cache);
    }

    /// After a wall went up at `centre`: only the seats whose paths it cuts.
    #[inline]
    pub(super) fn retrace_after_wall(
        &mut self,
        centre: usize,
        vertical: bool,
        mut cache: Option<&mut PathCache>,
    ) {
        for seat in 0..self.players as usize {
            if self.paths[seat].cut_by(centre, vertical) {
                self.paths[seat] = self.retrace(seat, cache.as_deref_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::prelude::*;
    use crate::games::quoridor::{random_game, Quoridor};
    use crate::rng::Rng;

    /// Random games: after every move the kept facts equal a fresh trace.
    fn kept_equals_traced(text: &str, games: usize, seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..games {
            let mut played = 0;
            let sixty_moves = |_: &Quoridor| {
                played += 1;
                played <= 60
            };
            random_game(text, &mut rng, sixty_moves, |p| {
                for seat in 0..p.player_count() {
                    assert_eq!(p.paths[seat], p.trace_paths(seat), "{} seat {seat}", p.to_text());
                }
            });
        }
    }

    #[test]
    fn kept_paths_match_a_fresh_trace_two_players() {
        kept_equals_traced("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1", 40, 1);
        kept_equals_traced("quoridor 5x5 pawns=c1,c5 hand=6,6 walls=- turn=1", 40, 2);
    }

    #[test]
    fn kept_paths_match_a_fresh_trace_four_players() {
        kept_equals_traced("quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1", 30, 3);
    }

    #[test]
    fn kept_paths_match_a_fresh_trace_on_a_large_board() {
        kept_equals_traced("quoridor 15x15 pawns=h1,h15 hand=30,30 walls=- turn=1", 10, 4);
    }
}
