//! The traits a game implements, split by concern: [`Position`] (the
//! rules: moves, results, hashes), [`Notation`] (moves and positions as
//! text) and [`Strategy`] (evaluation, search hints and playing levels).
//! [`Game`] is all three: perft needs [`Position`] alone, the search
//! [`Position`] and [`Strategy`], the protocol everything.

mod move_list;

pub use move_list::{MoveList, MAX_MOVES};

/// The game traits and the move list, for code that calls game methods on
/// concrete positions: `use tabula::game::prelude::*;`.
pub mod prelude {
    pub use super::{Game, MoveList, Notation, Position, Strategy};
}

use std::fmt;

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The player with this index (0-based, in turn order) won.
    Win(usize),
    /// Nobody won.
    Draw,
}

/// The exact value of a position for the side to move, known without a
/// search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Solved {
    /// The side to move wins with its move this many plies from now (1: at once).
    WinIn(u32),
    /// The side to move loses; the winning move comes this many plies from now.
    LossIn(u32),
    /// Nobody won: the game ended without a winner.
    Draw,
}

/// What [`Strategy::generate_selective_moves`] listed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Selection {
    /// How many of the moves, from the first, are primary.
    pub primary: usize,
    /// Whether every legal move is in the list (none left out because the
    /// caller vouched only for some secondary moves): only then can a
    /// search prove that every move of the side to move loses.
    pub complete: bool,
}

/// Why a move text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    Malformed(String),
    /// The text names a move that the rules forbid here.
    Illegal {
        /// The move as written.
        text: String,
        /// Which rule forbids it.
        reason: &'static str,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(text) => write!(f, "'{text}' is not a move"),
            MoveError::Illegal { text, reason } => write!(f, "illegal move '{text}': {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// How a playing level below full strength limits the search: the search
/// stops at `depth` or `nodes`, whichever comes first, and every leaf value
/// gets a pseudo-random offset of at most `noise` either way, fixed per
/// position and `Seed` so that a level plays the same game twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// The deepest iteration the level searches.
    pub depth: u32,
    /// The most nodes a search of the level visits.
    pub nodes: u64,
    /// Largest offset added to leaf values.
    pub noise: i32,
    /// Largest bonus added to each root move's value: the level now and then
    /// plays a move up to this much worse than its best. Unlike leaf noise,
    /// which deeper searches average away, it weakens every depth alike.
    pub root_noise: i32,
}

impl Handicap {
    /// Levels 4..=9 for a game without its own table: one more ply, more
    /// nodes and less noise per level.
    pub fn generic(level: u32) -> Option<Handicap> {
        let step = level.checked_sub(4).filter(|&s| s < 6)? as usize;
        const NOISE: [i32; 6] = [150, 100, 60, 35, 20, 10];
        Some(Handicap {
            depth: step as u32 + 1,
            nodes: 2_000 << (2 * step),
            noise: NOISE[step],
            root_noise: 0,
        })
    }
}

/// The rules of a game: a position, its moves and its result.
///
/// Positions are copy-made: a caller clones a position and plays a move on
/// the copy, so there is no undo.
pub trait Position: Clone + Send + Sync + 'static {
    /// One turn, small and copyable.
    type Move: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;

    /// What a game keeps for one thread that plays many moves (a search,
    /// perft): caches that make playing a move cheaper, tables prepared for
    /// a search. Owned by that thread and handed in, so that what a
    /// position answers never depends on what another caller did before.
    type Tables: Default + Send;

    /// How many players take turns (2 or 4).
    fn player_count(&self) -> usize;

    /// Index of the player to move, 0-based in turn order.
    fn side_to_move(&self) -> usize;

    /// Every legal move; none when the game is over (repetition aside).
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The same moves as [`Position::generate_moves`]; a game may also
    /// remember in the position what it proved on the way, for the
    /// positions cloned from it afterwards (Quoridor: walls that shut a
    /// pawn in).
    fn generate_moves_remembering(&mut self, moves: &mut MoveList<Self::Move>) {
        self.generate_moves(moves);
    }

    /// The number of legal moves; games may count faster than they generate.
    fn count_moves(&self) -> u64 {
        let mut moves = MoveList::default();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// Plays a move known to be legal.
    fn make_move(&mut self, mv: Self::Move);

    /// Plays a move known to be legal with the caller's tables at hand.
    fn make_move_with(&mut self, mv: Self::Move, tables: &mut Self::Tables) {
        let _ = tables;
        self.make_move(mv);
    }

    /// The result if the rules end the game here (repetition is judged by the
    /// caller, who knows the history).
    fn outcome(&self) -> Option<Outcome>;

    /// Zobrist key of everything that makes two positions the same.
    fn hash(&self) -> u64;

    /// True when no later position can repeat one from before this move.
    fn is_irreversible(&self, mv: Self::Move) -> bool;

    /// A 16-bit code of a move, unique among a position's moves: what the
    /// transposition table and `searchmoves` keep.
    fn move_code(mv: Self::Move) -> u16;

    /// A 128-bit key that is equal for two positions only when they are the
    /// same (or, where the game says so, related by a symmetry that keeps
    /// the value): what the exact solvers tell positions apart by. `None`
    /// when the position does not fit; the solvers then use the text.
    fn exact_key(&self) -> Option<u128> {
        None
    }
}

/// Moves and positions as text, as the protocol reads and writes them.
pub trait Notation: Position {
    /// The move in the game's notation.
    fn format_move(&self, mv: Self::Move) -> String;

    /// A legal move from its notation.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The one-line position text that `position fen` accepts.
    fn to_text(&self) -> String;

    /// A picture of the board for the `d` command.
    fn diagram(&self) -> String;

    /// Game-specific status lines for the `d` command (walls in hand, ...).
    fn details(&self) -> Vec<String> {
        Vec::new()
    }
}

/// How to play a game well, or on purpose less well: the evaluation, what
/// the search may take from the game to search less, and the playing levels.
pub trait Strategy: Position {
    /// Heuristic value for `player` in centipawn-like units, positive when good.
    fn evaluate(&self, player: usize) -> i32;

    /// The moves the search needs to look at with `depth` plies to go: legal
    /// moves, possibly fewer, without changing the game value (for example
    /// dropping moves that are symmetric to one kept).
    fn generate_search_moves(&mut self, moves: &mut MoveList<Self::Move>, depth: u32) {
        let _ = depth;
        self.generate_moves_remembering(moves);
    }

    /// The moves searched below the root: by default those of
    /// [`Strategy::generate_search_moves`], all primary. A game may mark
    /// moves that are rarely good as secondary and list them after the
    /// primary ones: the search then searches them shallower, and near the
    /// leaves only when the table or a killer move vouches for them. With
    /// `vouched` given, a game may list only the secondary moves whose codes
    /// (see [`Position::move_code`]) it holds, and says in the returned
    /// [`Selection`] whether it left any legal move out.
    fn generate_selective_moves(
        &mut self,
        moves: &mut MoveList<Self::Move>,
        depth: u32,
        vouched: Option<&[u16]>,
    ) -> Selection {
        let _ = vouched;
        self.generate_search_moves(moves, depth);
        Selection { primary: moves.len(), complete: true }
    }

    /// The transposition-table key of a node with `depth` plies to search.
    /// Games may key deep nodes by a costlier, symmetry-aware hash.
    fn table_key(&self, depth: u32) -> u64 {
        let _ = depth;
        self.hash()
    }

    /// The table key (see [`Strategy::table_key`]) of the position after
    /// `mv` with `depth` plies to search, when cheap to tell without playing
    /// the move: the search then fetches the table entry while it plays the
    /// move.
    fn table_key_after(&self, mv: Self::Move, depth: u32) -> Option<u64> {
        let _ = (mv, depth);
        None
    }

    /// Starts fetching into the processor's caches what playing `mv` will
    /// look up in `tables`.
    fn prefetch_for(&self, mv: Self::Move, tables: &Self::Tables) {
        let _ = (mv, tables);
    }

    /// Nodes with fewer plies than this to search skip the transposition
    /// table (worth it when the hash is costly to compute).
    fn table_min_depth(&self) -> u32 {
        1
    }

    /// An upper bound on the plies left in the game, when the game has one; a
    /// search this deep sees only finished games and is exact.
    fn plies_left_bound(&self) -> Option<u32> {
        None
    }

    /// With at most this many plies left (see
    /// [`Strategy::plies_left_bound`]) the search starts at full depth
    /// instead of deepening step by step.
    fn exact_search_plies(&self) -> u32 {
        0
    }

    /// True when the side to move has a move that wins the game at once. A
    /// game whose rules make this cheap to see answers it without generating
    /// moves; the search then scores the node as won without expanding it.
    fn wins_at_once(&self) -> bool {
        false
    }

    /// Readies a search thread's `tables` for a search from this root: a
    /// game may precompute what [`Strategy::solve_small`] answers from.
    fn prepare_search(&self, tables: &mut Self::Tables) {
        let _ = tables;
    }

    /// The exact value when the game can tell it cheaply (say, with one or
    /// two turns left, or from what [`Strategy::prepare_search`] put in
    /// `tables`, or what it may compute there with `depth` plies still to
    /// search); the search then does not expand the node.
    fn solve_small(&self, tables: &mut Self::Tables, depth: u32) -> Option<Solved> {
        let _ = (tables, depth);
        None
    }

    /// Makes it `seat`'s turn (best-reply search lets any opponent move and
    /// then gives the turn back). Only games with more than two players need
    /// it; the default does nothing.
    fn give_turn_to(&mut self, seat: usize) {
        let _ = seat;
    }

    /// Reverse futility pruning: the margin, per ply still to search, by
    /// which a position's static value must beat what the search needs for
    /// the search to trust it without looking further. `None` (the
    /// default): never.
    fn futility_margin(&self) -> Option<i32> {
        None
    }

    /// Keys of the position's slowly changing structures, by which the
    /// search learns the static value's errors (correction history).
    /// `None` (the default): none.
    fn correction_keys(&self) -> Option<[u64; 2]> {
        None
    }

    /// Null-move pruning: this position with the side to move passing,
    /// where a pass tells fairly whether that side is doing well (a game
    /// with few positions in which any move hurts). The search lets the
    /// other side move twice in a row, shallower, and a node whose value
    /// still beats what it needs is taken to hold. `None` (the default):
    /// never.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// The move of a scripted playing level (1: random, 2: easy, 3: hard),
    /// or `None` when the level plays by searching. `rng` makes the choice
    /// reproducible.
    fn scripted_move(&self, level: u32, rng: &mut crate::rng::Rng) -> Option<Self::Move> {
        let _ = (level, rng);
        None
    }

    /// How a graded level between the scripted ones and full strength holds
    /// the search back, or `None` at full strength (level 10) and for the
    /// scripted levels.
    fn handicap(&self, level: u32) -> Option<Handicap> {
        Handicap::generic(level)
    }
}

/// A game the whole engine can play: its rules, its notation and its
/// strategy.
pub trait Game: Position + Notation + Strategy {}

impl<G: Position + Notation + Strategy> Game for G {}
