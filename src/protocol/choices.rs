//! The typed values of the combo options (`Game`, `Players`,
//! `FourPlayerSearch`, `QuartoBoard`, `SolveMethod`): an enum each, with
//! the names `uci` declares and `setoption` accepts.

/// A combo option's values: an enum with a name for each.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value, in the order `uci` lists them.
    const ALL: &'static [Self];
    /// The value as `setoption` and `uci` spell it.
    fn name(self) -> &'static str;

    /// The value named `text` (any case).
    fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name().eq_ignore_ascii_case(text))
    }
}

/// Declares a combo option's enum with the name of each value.
macro_rules! choice {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl Choice for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }
    };
}

choice! {
    /// `Game`: which game is played.
    GameKind {
        /// Quoridor, in the variant the board options describe.
        Quoridor = "quoridor",
        /// Quarto, on the board and at the level the Quarto options describe.
        Quarto = "quarto",
    }
}

choice! {
    /// `Players`: Quoridor with two or four players.
    PlayerCount {
        /// Two players, from opposite edges.
        Two = "2",
        /// Four players, one from each edge.
        Four = "4",
    }
}

choice! {
    /// `FourPlayerSearch`: how a four-player search treats the opponents.
    FourPlayerSearch {
        /// Best-reply search: only the most harmful opponent moves.
        BestReply = "brs",
        /// Paranoid: every opponent moves in turn, all against the mover.
        Paranoid = "paranoid",
    }
}

choice! {
    /// `QuartoBoard`: the 4x4 game or the 3x3 game with eight pieces.
    QuartoBoard {
        /// 16 squares, 16 pieces of four attributes.
        FourByFour = "4x4",
        /// 9 squares, 8 pieces of three attributes.
        ThreeByThree = "3x3",
    }
}

choice! {
    /// `SolveMethod`: how `go solve` values the position.
    SolveMethod {
        /// The quickest method that applies (as `tabula solve` without `method=`).
        Auto = "auto",
        /// Retrograde analysis by wall-set layers (two-player Quoridor).
        Layers = "layers",
        /// Retrograde analysis over every reachable position (any game).
        Graph = "graph",
        /// Alpha-beta with an exact table (Quarto).
        AlphaBeta = "alphabeta",
        /// Proof search (two-player Quoridor).
        Proof = "proof",
    }
}

impl SolveMethod {
    /// The method asked for; `None` for the default.
    pub fn method(self) -> Option<crate::solve::Method> {
        use crate::solve::Method;
        match self {
            SolveMethod::Auto => None,
            SolveMethod::Layers => Some(Method::Layers),
            SolveMethod::Graph => Some(Method::Graph),
            SolveMethod::AlphaBeta => Some(Method::AlphaBeta),
            SolveMethod::Proof => Some(Method::Proof),
        }
    }
}

impl PlayerCount {
    /// 2 or 4.
    pub fn count(self) -> usize {
        match self {
            PlayerCount::Two => 2,
            PlayerCount::Four => 4,
        }
    }
}

impl QuartoBoard {
    /// Squares on a side: 4 or 3.
    pub fn side(self) -> usize {
        match self {
            QuartoBoard::FourByFour => 4,
            QuartoBoard::ThreeByThree => 3,
        }
    }
}
