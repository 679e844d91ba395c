//! The Quoridor move: a pawn step, a wall, or a pass, packed in 16 bits.

/// What a move does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// The mover's pawn goes to this square (steps and jumps alike).
    Step {
        /// Square index, row * 16 + column.
        square: usize,
    },
    /// A wall centred on this lattice point, horizontal or vertical.
    Wall {
        /// The lattice point at its middle.
        centre: usize,
        /// Whether it runs north-south.
        vertical: bool,
    },
    /// Only when no other move exists.
    Pass,
}

/// A move packed as `kind << 8 | index`.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct QuoridorMove(u16);

const STEP: u16 = 0;
const HORIZONTAL: u16 = 1;
const VERTICAL: u16 = 2;
const PASS: u16 = 3;

impl QuoridorMove {
    #[inline]
    /// The pawn to move goes to `square`.
    pub fn step(square: usize) -> QuoridorMove {
        QuoridorMove((STEP << 8) | square as u16)
    }

    #[inline]
    /// A wall centred on `centre`.
    pub fn wall(centre: usize, vertical: bool) -> QuoridorMove {
        let kind = if vertical { VERTICAL } else { HORIZONTAL };
        QuoridorMove((kind << 8) | centre as u16)
    }

    #[inline]
    /// No move: only when the side to move has none.
    pub fn pass() -> QuoridorMove {
        QuoridorMove(PASS << 8)
    }

    #[inline]
    /// What the move does.
    pub fn kind(self) -> MoveKind {
        let index = (self.0 & 0xFF) as usize;
        match self.0 >> 8 {
            STEP => MoveKind::Step { square: index },
            HORIZONTAL => MoveKind::Wall { centre: index, vertical: false },
            VERTICAL => MoveKind::Wall { centre: index, vertical: true },
            _ => MoveKind::Pass,
        }
    }

    #[inline]
    /// Whether the move places a wall.
    pub fn is_wall(self) -> bool {
        matches!(self.0 >> 8, HORIZONTAL | VERTICAL)
    }

    #[inline]
    /// Whether the move is a pass.
    pub fn is_pass(self) -> bool {
        self.0 >> 8 == PASS
    }

    #[inline]
    /// A 16-bit code, unique among a position's moves.
    pub fn code(self) -> u16 {
        self.0
    }

    /// The move whose [`QuoridorMove::code`] this is; any code is some move
    /// (unknown kinds read as a pass), legal or not.
    #[inline]
    pub fn from_code(code: u16) -> QuoridorMove {
        QuoridorMove(code)
    }
}

impl std::fmt::Debug for QuoridorMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.kind())
    }
}
