//! Static evaluation of Quoridor positions: the race of shortest paths, walls
//! in hand, and the tempo of the side to move.

use super::board::Quoridor;

/// Value of one step of shortest-path advantage.
pub const STEP: i32 = 100;
/// Value of the walls in hand, by count. Walls work in groups: one wall
/// forces a detour of a step or two, a few together close a corridor, so
/// from the third wall on each is worth about two steps. That is what a
/// logistic regression of the winner on path lead and walls in hand found
/// in 1,650 games against level 3 (`tools/wall_values.py`: 42, 166, 399,
/// 579, 787, 1101, 1234, 1411, 1584 for one to nine walls); the first two
/// are kept higher here, since the fit rests there on few positions. The
/// concave table this replaced (290 for one wall, 1360 for ten) let the
/// search trade walls for steps too cheaply: against level 3 it lost 14 of
/// 200 games at 0.2 s a move, this table none (README, Playing strength).
const WALLS_IN_HAND: [i32; 11] = [0, 150, 350, 600, 800, 1000, 1280, 1410, 1580, 1750, 1900];
/// Each wall beyond ten adds this much, the last step of the table.
const WALL_BEYOND_TEN: i32 = 150;

fn walls_value(walls: usize) -> i32 {
    match WALLS_IN_HAND.get(walls) {
        Some(&value) => value,
        None => WALLS_IN_HAND[10] + WALL_BEYOND_TEN * (walls as i32 - 10),
    }
}
/// Moving first in a race is worth about half a step.
const TEMPO: i32 = 50;
/// A pawn race with no walls left in either hand is all but decided by
/// counting (the search solves it exactly from its root; deeper, jumps are
/// left out): the winner gets this much on top.
const RACE_DECIDED: i32 = 2_000;
/// A path that one wall can lengthen, against an opponent with walls: per
/// such narrow place, up to two.
const NARROW_PLACE: i32 = 40;

impl Quoridor {
    /// Heuristic value for `seat`, positive when `seat` is ahead. Against
    /// several opponents it compares with the most dangerous one.
    pub fn evaluate_for(&self, seat: usize) -> i32 {
        let profile = |s: usize| {
            let (distance, narrow) = self.path_profile(s).unwrap_or((u32::MAX / 4, 0));
            (distance as i32, narrow.min(2) as i32)
        };
        let (mine, my_narrow) = profile(seat);
        let mut nearest_rival = i32::MAX;
        let mut rival_narrow = 0;
        let mut rival_walls = 0;
        for other in (0..self.players()).filter(|&s| s != seat) {
            let (distance, narrow) = profile(other);
            if distance < nearest_rival {
                (nearest_rival, rival_narrow) = (distance, narrow);
            }
            rival_walls = rival_walls.max(self.walls_in_hand(other));
        }
        let my_walls = self.walls_in_hand(seat);
        if self.players() == 2 && my_walls == 0 && rival_walls == 0 {
            // The side to move wins a tie: it arrives first.
            let my_turn = self.side() == seat;
            let wins = if my_turn { mine <= nearest_rival } else { mine < nearest_rival };
            let lead = STEP * (nearest_rival - mine);
            return if wins { RACE_DECIDED + lead } else { lead - RACE_DECIDED };
        }
        let tempo = if self.side() == seat { TEMPO } else { -TEMPO / 2 };
        let fragility =
            NARROW_PLACE * (rival_narrow * i32::from(my_walls > 0) - my_narrow * i32::from(rival_walls > 0));
        STEP * (nearest_rival - mine) + walls_value(my_walls) - walls_value(rival_walls) + tempo + fragility
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

    #[test]
    fn a_race_without_walls_goes_to_whoever_arrives_first() {
        // Both 8 steps away: the side to move arrives first.
        let even = Quoridor::from_text("quoridor 9x9 pawns=a1,i9 hand=0,0 walls=- turn=1").unwrap();
        assert!(even.evaluate_for(0) >= RACE_DECIDED);
        assert!(even.evaluate_for(1) <= -RACE_DECIDED);
        let behind = Quoridor::from_text("quoridor 9x9 pawns=a1,i8 hand=0,0 walls=- turn=1").unwrap();
        assert!(behind.evaluate_for(0) <= -RACE_DECIDED);
    }
}
