//! Static evaluation of Quoridor positions: the race of shortest paths, walls
//! in hand, and the tempo of the side to move.

use super::board::Quoridor;

/// Value of one step of shortest-path advantage.
pub const STEP: i32 = 100;
/// Value of a wall in hand.
const WALL_IN_HAND: i32 = 75;
/// Moving first in a race is worth about half a step.
const TEMPO: i32 = 50;

impl Quoridor {
    /// Heuristic value for `seat`, positive when `seat` is ahead. Against
    /// several opponents it compares with the most dangerous one.
    pub fn evaluate_for(&self, seat: usize) -> i32 {
        let distance = |s: usize| self.distance_to_goal(s).unwrap_or(u32::MAX / 4) as i32;
        let mine = distance(seat);
        let mut nearest_rival = i32::MAX;
        let mut rival_walls = 0;
        for other in (0..self.players()).filter(|&s| s != seat) {
            nearest_rival = nearest_rival.min(distance(other));
            rival_walls = rival_walls.max(self.walls_in_hand(other) as i32);
        }
        let walls = self.walls_in_hand(seat) as i32 - rival_walls;
        let tempo = if self.side() == seat { TEMPO } else { -TEMPO / 2 };
        STEP * (nearest_rival - mine) + WALL_IN_HAND * walls + tempo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Variant;

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        let p = Quoridor::new(&Variant::default()).unwrap();
        assert_eq!(p.evaluate_for(0), TEMPO);
        assert_eq!(p.evaluate_for(1), -TEMPO / 2);
    }

    #[test]
    fn a_shorter_path_scores_higher() {
        let p = Quoridor::from_text("quoridor 9x9 pawns=e5,e9 hand=10,10 walls=- turn=2").unwrap();
        assert!(p.evaluate_for(0) > 300);
        assert!(p.evaluate_for(1) < -300);
    }
}
