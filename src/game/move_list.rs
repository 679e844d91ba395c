//! The fixed-capacity move list every game generates into: moves of one
//! position on the stack, so that generation allocates nothing.

/// The most moves any position of any game can have (15x15 Quoridor: 392 walls
/// plus a handful of pawn moves).
pub const MAX_MOVES: usize = 512;

/// Moves of one position, on the stack: generation allocates nothing.
#[derive(Clone)]
pub struct MoveList<M: Copy + Default> {
    moves: [M; MAX_MOVES],
    len: usize,
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        MoveList { moves: [M::default(); MAX_MOVES], len: 0 }
    }
}

impl<M: Copy + Default> MoveList<M> {
    #[inline]
    /// Appends a move; the list must have room (at most [`MAX_MOVES`]).
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    #[inline]
    /// How many moves the list holds.
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    /// Whether the list holds no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    /// The moves, in order.
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    #[inline]
    /// The moves, in order, to reorder in place.
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// The moves, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}
