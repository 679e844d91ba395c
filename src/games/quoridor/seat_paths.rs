//! One seat's shortest paths to its goal as a position keeps them: the
//! distance, how many single walls cut every shortest path, and the wall
//! centres that cut an edge of one.

use super::bitboard::BitBoard;

/// One seat's shortest paths to its goal, pawns ignored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeatPaths {
    /// Distance to the goal and the number of places where one wall cuts
    /// every shortest path; `None` when walled off.
    pub profile: Option<(u32, u32)>,
    /// Horizontal and vertical wall centres that cut an edge lying on some
    /// shortest path.
    pub cut_h: BitBoard,
    pub cut_v: BitBoard,
}

impl Default for SeatPaths {
    fn default() -> Self {
        SeatPaths::WALLED_OFF
    }
}

impl SeatPaths {
    /// No path: no wall can change that.
    pub const WALLED_OFF: SeatPaths =
        SeatPaths { profile: None, cut_h: BitBoard::EMPTY, cut_v: BitBoard::EMPTY };

    /// From the shortest-path edges, given as the squares whose north (resp.
    /// east) edge they cross.
    pub fn from_edges(profile: Option<(u32, u32)>, north: BitBoard, east: BitBoard) -> SeatPaths {
        // Centre c cuts the north edges of squares c-17 and c-16 and the
        // east edges of squares c-17 and c-1.
        let cut_h = north.north().east() | north.north();
        let cut_v = east.north().east() | east.east();
        SeatPaths { profile, cut_h, cut_v }
    }

    /// Whether a wall at `centre` cuts a shortest path.
    #[inline]
    pub fn cut_by(&self, centre: usize, vertical: bool) -> bool {
        if vertical {
            self.cut_v.contains(centre)
        } else {
            self.cut_h.contains(centre)
        }
    }
}
