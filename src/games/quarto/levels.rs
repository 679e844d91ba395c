//! Quarto's graded playing levels 4-9: from how far before the end each
//! one plays perfectly, and how far it looks, and how much its judgement
//! wavers, before that.
//!
//! Every searching level takes a win at once, never hands over a winning
//! piece while a safe one exists, and plays the last four placements
//! perfectly (the endgame solver does not depend on depth). Decisive games
//! between strong players come from a slip just before the tree becomes
//! tractable, found by the side that solves first; so the main step between
//! levels is the number of plies left at which a level starts solving
//! exactly (full strength: 10). Before that a level searches a few plies
//! with its evaluation (values of a few tens, see `eval`) blurred by noise.

use super::Quarto;
use crate::game::{Game, Handicap};

/// One graded level.
struct Grade {
    /// With at most this many plies left, search to the end.
    exact_from: u32,
    /// Before that: plies, nodes and leaf noise.
    depth: u32,
    nodes: u64,
    noise: i32,
}

/// Levels 4..=9.
const GRADES: [Grade; 6] = [
    Grade { exact_from: 4, depth: 1, nodes: 1_000, noise: 200 },
    Grade { exact_from: 5, depth: 1, nodes: 2_000, noise: 40 },
    Grade { exact_from: 6, depth: 2, nodes: 10_000, noise: 30 },
    Grade { exact_from: 7, depth: 2, nodes: 40_000, noise: 10 },
    Grade { exact_from: 8, depth: 3, nodes: 150_000, noise: 5 },
    Grade { exact_from: 9, depth: 4, nodes: 500_000, noise: 2 },
];

/// Nodes allowed to an exact search (a 10-ply solve takes well under this).
const EXACT_NODES: u64 = 20_000_000;

impl Quarto {
    /// The handicap of a searching level below full strength in this
    /// position, `None` for the scripted levels 1-3 and for level 10.
    pub fn level_handicap(&self, level: u32) -> Option<Handicap> {
        let grade = &GRADES[level.checked_sub(4).filter(|&i| i < 6)? as usize];
        let plies = self.plies_left_bound().unwrap_or(u32::MAX);
        Some(if plies <= grade.exact_from {
            // A depth reaching the end makes the search exact at once.
            Handicap { depth: plies.max(1), nodes: EXACT_NODES, noise: 0, root_noise: 0 }
        } else {
            Handicap { depth: grade.depth, nodes: grade.nodes, noise: grade.noise, root_noise: 0 }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quarto::Rules;

    #[test]
    fn higher_levels_solve_sooner_and_look_further_before() {
        let start = Quarto::new(Rules::default()).unwrap();
        assert_eq!(start.level_handicap(3), None);
        assert_eq!(start.level_handicap(10), None);
        for pair in GRADES.windows(2) {
            assert!(pair[1].exact_from > pair[0].exact_from);
            assert!(pair[1].depth >= pair[0].depth);
            assert!(pair[1].nodes > pair[0].nodes);
            assert!(pair[1].noise < pair[0].noise);
        }
        // Level 9 solves one ply later than full strength.
        assert_eq!(GRADES[5].exact_from + 1, crate::game::Game::exact_search_plies(&start));
    }

    #[test]
    fn a_level_searches_to_the_end_once_it_solves() {
        // Seven pieces placed, one in hand: nine placements, nine plies left.
        let q = Quarto::from_text("quarto 4x4 level=1 board=9.../.13./.c../5.be hand=2 turn=1").unwrap();
        assert_eq!(q.plies_left_bound(), Some(9));
        let level9 = q.level_handicap(9).unwrap();
        assert_eq!((level9.depth, level9.noise), (9, 0));
        let level8 = q.level_handicap(8).unwrap();
        assert_eq!(level8.depth, GRADES[4].depth);
    }
}
