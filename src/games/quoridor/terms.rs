//! The terms of the hand-made Quoridor evaluation, their names and their
//! fitted weights: what the evaluation ([`super::eval`]) sums, what the
//! network's linear part ([`super::nnue`]) weighs again, and what
//! `tools/tune` fits.

/// The terms, in the order of [`WEIGHTS`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(usize)]
pub enum Term {
    /// Opponent's distance to goal minus mine.
    PathLead,
    /// +1 on my turn, -1 on the opponent's.
    Tempo,
    /// Lead times the walls both sides still hold: walls in hand make a
    /// lead less certain.
    LeadTimesWallsLeft,
    /// Wall lead times the distances still to go: walls are worth more
    /// while there is a long way to go.
    WallLeadTimesDistance,
    /// The opponent is out of walls and I am not (or the reverse, negated).
    OnlyIHoldWalls,
    /// Lead counted again for a side whose opponent holds no wall: nothing
    /// can take that lead away from it.
    LeadAgainstNoWalls,
    /// Against an opponent without walls I arrive first (or the reverse).
    WinningRaceAgainstNoWalls,
    /// Places where one wall cuts every shortest path: the opponent's while
    /// I hold walls, minus mine while the opponent does.
    NarrowPlaces,
    /// Walls in hand beyond ten, mine minus the opponent's.
    WallsBeyondTen,
    /// Holding exactly k walls (k = 1..=10), mine minus the opponent's: the
    /// value of a hand by size, the first of ten terms.
    HoldingWalls1,
}

/// How many terms there are: the named ones and nine more hand sizes.
pub const TERMS: usize = Term::HoldingWalls1 as usize + 10;

/// The terms' names, for the tuner's report.
pub const TERM_NAMES: [&str; TERMS] = [
    "PathLead",
    "Tempo",
    "LeadTimesWallsLeft",
    "WallLeadTimesDistance",
    "OnlyIHoldWalls",
    "LeadAgainstNoWalls",
    "WinningRaceAgainstNoWalls",
    "NarrowPlaces",
    "WallsBeyondTen",
    "HoldingWalls1",
    "HoldingWalls2",
    "HoldingWalls3",
    "HoldingWalls4",
    "HoldingWalls5",
    "HoldingWalls6",
    "HoldingWalls7",
    "HoldingWalls8",
    "HoldingWalls9",
    "HoldingWalls10",
];

/// Weights of the terms in centi-steps (the hand-size terms: the value of
/// holding that many walls against holding none). Fitted by `tools/tune`
/// to 600 games of titanium-quoridor against itself at 0.1 s per move
/// (about 27,000 positions): walls in hand count for much less than the
/// hand-made table before (150 for one wall rising to 1,900 for ten), which
/// made Tabula hoard walls that a race no longer needed. Against titanium
/// at 0.1 s per move, on the same openings: with the search that looked at
/// path-cutting walls only, the fitted weights scored 67 - 133 and the old
/// ones 78 - 122; once the search also looks at every wall in the
/// opponent's reply, the fitted weights scored 90 - 109 - 1 and the old
/// ones 48 - 94 (after 142 games). The old values only paid while the
/// search could not see what walls would do.
pub const WEIGHTS: [i32; TERMS] = [
    100,  // PathLead
    34,   // Tempo
    0,    // LeadTimesWallsLeft
    8,    // WallLeadTimesDistance
    -268, // OnlyIHoldWalls
    -27,  // LeadAgainstNoWalls
    920,  // WinningRaceAgainstNoWalls
    32,   // NarrowPlaces
    80,   // WallsBeyondTen
    113, 88, 50, -43, -75, -83, -99, -148, -221, -221, // HoldingWalls1..=10
];
