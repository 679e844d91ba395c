//! Static evaluation of Quoridor positions: a weighted sum of terms (the race
//! of shortest paths, walls in hand and how they interact, tempo, fragile
//! paths), with weights fitted to game results by `tools/tune`.
//!
//! Every term is antisymmetric between two players: the value for one seat
//! is minus the value for the other, so a negamax search sees one number.
//! Against several opponents a seat is compared with the most dangerous one.

use super::board::Quoridor;
pub use super::terms::{Term, TERMS, TERM_NAMES, WEIGHTS};
use crate::game::Position;

/// Value of one step of shortest-path advantage, the unit of the scale.
pub const STEP: i32 = 100;

/// A pawn race with no walls left in either hand is all but decided by
/// counting (the search solves it exactly from its root; deeper, jumps are
/// left out): the winner gets this much on top.
const RACE_DECIDED: i32 = 2_000;

/// The numbers the terms are computed from, for one seat and its rival.
#[derive(Clone, Copy, Debug)]
struct Sides {
    my_distance: i32,
    rival_distance: i32,
    my_walls: i32,
    rival_walls: i32,
    my_narrow: i32,
    rival_narrow: i32,
    my_turn: bool,
}

impl Quoridor {
    /// Heuristic value for `seat`, positive when `seat` is ahead.
    pub(super) fn evaluate_for(&self, seat: usize) -> i32 {
        let sides = self.sides(seat);
        if self.player_count() == 2 && sides.my_walls == 0 && sides.rival_walls == 0 {
            // The side to move wins a tie: it arrives first.
            let wins = if sides.my_turn {
                sides.my_distance <= sides.rival_distance
            } else {
                sides.my_distance < sides.rival_distance
            };
            let lead = STEP * (sides.rival_distance - sides.my_distance);
            return if wins { RACE_DECIDED + lead } else { lead - RACE_DECIDED };
        }
        if self.accumulator.is_some() {
            // The network values the side to move's view.
            let side = self.side_to_move();
            let terms = if side == seat { sides.terms() } else { self.sides(side).terms() };
            if let Some(value) = self.network_value(&terms) {
                return if side == seat { value } else { -value };
            }
        }
        let terms = sides.terms();
        terms.iter().zip(WEIGHTS.iter()).map(|(t, w)| t * w).sum()
    }

    /// The terms of the evaluation for `seat`, for fitting the weights.
    /// `None` where the evaluation does not use them (a race with no walls
    /// in either hand).
    pub fn evaluation_terms(&self, seat: usize) -> Option<[i32; TERMS]> {
        let sides = self.sides(seat);
        (self.player_count() != 2 || sides.my_walls > 0 || sides.rival_walls > 0).then(|| sides.terms())
    }

    fn sides(&self, seat: usize) -> Sides {
        let profile = |s: usize| {
            let (distance, narrow) = self.path_profile(s).unwrap_or((u32::MAX / 4, 0));
            (distance as i32, narrow.min(2) as i32)
        };
        let (my_distance, my_narrow) = profile(seat);
        let (mut rival_distance, mut rival_narrow, mut rival_walls) = (i32::MAX, 0, 0);
        for other in (0..self.player_count()).filter(|&s| s != seat) {
            let (distance, narrow) = profile(other);
            if distance < rival_distance {
                (rival_distance, rival_narrow) = (distance, narrow);
            }
            rival_walls = rival_walls.max(self.walls_in_hand(other) as i32);
        }
        Sides {
            my_distance,
            rival_distance,
            my_walls: self.walls_in_hand(seat) as i32,
            rival_walls,
            my_narrow,
            rival_narrow,
            my_turn: self.side_to_move() == seat,
        }
    }
}

impl Sides {
    fn terms(&self) -> [i32; TERMS] {
        let (me, them) = (self.my_distance, self.rival_distance);
        let (mine, theirs) = (self.my_walls, self.rival_walls);
        let lead = them - me;
        let flag = |b: bool| i32::from(b);
        let mut t = [0; TERMS];
        t[Term::PathLead as usize] = lead;
        t[Term::Tempo as usize] = if self.my_turn { 1 } else { -1 };
        t[Term::LeadTimesWallsLeft as usize] = lead * (mine + theirs);
        t[Term::WallLeadTimesDistance as usize] = (mine - theirs) * (me + them);
        t[Term::OnlyIHoldWalls as usize] = flag(theirs == 0 && mine > 0) - flag(mine == 0 && theirs > 0);
        t[Term::LeadAgainstNoWalls as usize] = lead * (flag(theirs == 0) + flag(mine == 0));
        let i_arrive_first = me < them || (me == them && self.my_turn);
        t[Term::WinningRaceAgainstNoWalls as usize] =
            flag(theirs == 0 && i_arrive_first) - flag(mine == 0 && !i_arrive_first);
        t[Term::NarrowPlaces as usize] =
            self.rival_narrow * flag(mine > 0) - self.my_narrow * flag(theirs > 0);
        t[Term::WallsBeyondTen as usize] = (mine - 10).max(0) - (theirs - 10).max(0);
        let first = Term::HoldingWalls1 as usize;
        for (hand, sign) in [(mine, 1), (theirs, -1)] {
            if hand > 0 {
                t[first + hand.min(10) as usize - 1] += sign;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::quoridor::Variant;

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        // 7x7: the hand-made evaluation (9x9 has the network).
        let p = Quoridor::new(&Variant { width: 7, height: 7, walls: 8, ..Variant::default() }).unwrap();
        let tempo = WEIGHTS[Term::Tempo as usize];
        assert_eq!(p.evaluate_for(0), tempo);
        assert_eq!(p.evaluate_for(1), -tempo);
    }

    #[test]
    fn two_player_values_are_antisymmetric() {
        let mut rng = crate::rng::Rng::new(3);
        crate::games::quoridor::random_game(
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            &mut rng,
            |_| true,
            |p| assert_eq!(p.evaluate_for(0), -p.evaluate_for(1), "{}", p.to_text()),
        );
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
        assert!(behind.evaluate_for(0).checked_neg().is_some());
        assert_eq!(behind.evaluation_terms(0), None);
    }

    #[test]
    fn hand_sizes_count_once_per_side() {
        let p = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=3,12 walls=- turn=1").unwrap();
        let Some(t) = p.evaluation_terms(0) else { panic!("walls are held") };
        let first = Term::HoldingWalls1 as usize;
        assert_eq!(t[first + 2], 1);
        assert_eq!(t[first + 9], -1);
        assert_eq!(t[Term::WallsBeyondTen as usize], -2);
    }
}
