//! Quarto's graded playing levels 4-9: from how far before the end each
//! one plays perfectly, and how much it may search, and how much its
//! judgement wavers, before that.
//!
//! Every searching level takes a win at once, never hands over a winning
//! piece while a safe one exists, and plays the last four placements
//! perfectly (the endgame solver does not depend on depth). Before it starts
//! solving exactly, level 4 looks one ply ahead through heavy noise; levels
//! 5 and 6 search as deep as a few hundred nodes take them (a node budget
//! grades them more finely than whole plies, which at this size are steps
//! of 150-250 Elo); levels 7-9 search 3, 4 and 6 plies. The spacing was
//! measured with `arena` on the squares rules (rule level 2), where most
//! games are decided; under the lines-only rules most games between
//! searching levels are drawn (docs/strength.md).

use super::Quarto;
use crate::game::Handicap;
use crate::game::Strategy;

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
    Grade { exact_from: 4, depth: 1, nodes: 1_000, noise: 350 },
    Grade { exact_from: 5, depth: UNLIMITED, nodes: 150, noise: 160 },
    Grade { exact_from: 6, depth: UNLIMITED, nodes: 450, noise: 30 },
    Grade { exact_from: 7, depth: 3, nodes: 60_000, noise: 30 },
    Grade { exact_from: 8, depth: 4, nodes: 150_000, noise: 10 },
    Grade { exact_from: 9, depth: 6, nodes: 300_000, noise: 2 },
];

/// The depth of a level bounded by nodes alone (it is held below the plies
/// left, see `level_handicap`).
const UNLIMITED: u32 = 16;

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
            // Short of the end: a depth reaching it would make the search
            // try to solve at once, and run out of nodes doing so.
            Handicap {
                depth: grade.depth.min(plies - 1),
                nodes: grade.nodes,
                noise: grade.noise,
                root_noise: 0,
            }
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
            assert!(pair[1].noise <= pair[0].noise);
        }
        // Levels 5 and 6 are held by nodes, 7-9 by plies that grow.
        assert!(GRADES[1].nodes < GRADES[2].nodes);
        for pair in GRADES[3..].windows(2) {
            assert!(pair[1].depth > pair[0].depth && pair[1].nodes > pair[0].nodes);
        }
        // Level 9 solves one ply later than full strength.
        assert_eq!(GRADES[5].exact_from + 1, crate::game::Strategy::exact_search_plies(&start));
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
        // A level bounded by nodes stops short of the end.
        assert_eq!(q.level_handicap(5).unwrap().depth, 8);
    }
}
