//! `UCI_LimitStrength` and `UCI_Elo`: the playing levels' measured Elo, and
//! the level that plays at a requested Elo.
//!
//! The Elo of each level is the sum of the steps measured between
//! neighbouring levels on 9x9 Quoridor (docs/strength.md, "Quoridor
//! levels": 400 games a pairing, seats swapped), anchored so that level 1,
//! the random mover, is 0. Level 2 won all its 400 games against level 1;
//! with half a point given back (399.5 of 400) that step is +1161. The
//! same levels play every game; their Elo is measured on 9x9 Quoridor only.

/// The Elo of levels 1 to 10.
pub const LEVEL_ELO: [u32; 10] = [0, 1161, 2081, 2216, 2335, 2464, 2589, 2775, 2965, 3192];

/// The lowest and highest `UCI_Elo`.
pub const MIN_ELO: u32 = LEVEL_ELO[0];
/// The highest `UCI_Elo`: full strength.
pub const MAX_ELO: u32 = LEVEL_ELO[9];

/// The level (1 to 10) whose measured Elo is nearest to `elo` (the lower
/// of two as near).
pub fn level_for_elo(elo: u32) -> u32 {
    let nearest = (0..LEVEL_ELO.len()).min_by_key(|&i| LEVEL_ELO[i].abs_diff(elo)).unwrap_or(0);
    nearest as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_is_reached_at_its_own_elo_and_the_ends_clamp() {
        for (i, &elo) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(level_for_elo(elo), i as u32 + 1);
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(level_for_elo(MIN_ELO), 1);
        assert_eq!(level_for_elo(580), 1);
        assert_eq!(level_for_elo(581), 2);
        assert_eq!(level_for_elo(1500), 2);
        assert_eq!(level_for_elo(2000), 3);
        assert_eq!(level_for_elo(2400), 6);
        assert_eq!(level_for_elo(MAX_ELO), 10);
        assert_eq!(level_for_elo(u32::MAX), 10);
    }
}
