//! A slow reference implementation of Quarto, written from the rule text
//! alone (not from the engine's bitboards) to cross-check it.
//!
//! Everything is plain data: the board is an array of `Option<u8>` indexed
//! `[row][column]` (row 0 in the south), winning patterns are lists of
//! `(row, column)` cells, and every pattern is checked from scratch after
//! each placement. The solver is a plain minimax over exact positions with a
//! memo of exact values. Clarity over speed.

// Each test crate uses its own subset of the helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

/// The shape families of winning patterns.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Family {
    Row,
    Column,
    Diagonal,
    /// Every 2x2 square (level 2).
    SmallSquare,
    /// The corners of every 3x3 square (level 3).
    CornerSquare,
    /// The four neighbours of a centre square (level 4).
    Diamond,
    /// `{b1,d2,c4,a3}` and `{c1,a2,b4,d3}` (level 4).
    Tilted,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::Row,
        Family::Column,
        Family::Diagonal,
        Family::SmallSquare,
        Family::CornerSquare,
        Family::Diamond,
        Family::Tilted,
    ];

    /// The lowest rule level that counts this family.
    pub fn level(self) -> usize {
        match self {
            Family::Row | Family::Column | Family::Diagonal => 1,
            Family::SmallSquare => 2,
            Family::CornerSquare => 3,
            Family::Diamond | Family::Tilted => 4,
        }
    }
}

/// A winning pattern: `side` cells as `(row, column)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pattern {
    pub family: Family,
    pub cells: Vec<(usize, usize)>,
}

/// `a1` -> `(0, 0)`: (row, column).
pub fn cell(name: &str) -> (usize, usize) {
    let b = name.as_bytes();
    ((b[1] - b'1') as usize, (b[0] - b'a') as usize)
}

pub fn cell_name(cell: (usize, usize)) -> String {
    format!("{}{}", (b'a' + cell.1 as u8) as char, cell.0 + 1)
}

/// Every pattern of every family on a board of `side` (3x3: lines only).
pub fn all_patterns(side: usize) -> Vec<Pattern> {
    let mut all = Vec::new();
    let mut add = |family, cells: Vec<(usize, usize)>| all.push(Pattern { family, cells });
    for i in 0..side {
        add(Family::Row, (0..side).map(|c| (i, c)).collect());
        add(Family::Column, (0..side).map(|r| (r, i)).collect());
    }
    add(Family::Diagonal, (0..side).map(|i| (i, i)).collect());
    add(Family::Diagonal, (0..side).map(|i| (i, side - 1 - i)).collect());
    if side == 4 {
        for r in 0..3 {
            for c in 0..3 {
                add(Family::SmallSquare, vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]);
            }
        }
        for r in 0..2 {
            for c in 0..2 {
                add(Family::CornerSquare, vec![(r, c), (r, c + 2), (r + 2, c), (r + 2, c + 2)]);
            }
        }
        for r in 0..2 {
            for c in 0..2 {
                add(Family::Diamond, vec![(r, c + 1), (r + 1, c), (r + 1, c + 2), (r + 2, c + 1)]);
            }
        }
        add(Family::Tilted, ["b1", "d2", "c4", "a3"].iter().map(|n| cell(n)).collect());
        add(Family::Tilted, ["c1", "a2", "b4", "d3"].iter().map(|n| cell(n)).collect());
    }
    all
}

/// The patterns that win under a rule level (built once per rule set).
pub fn patterns(side: usize, level: usize) -> &'static [Pattern] {
    static TABLES: OnceLock<Vec<Vec<Pattern>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut all: Vec<Vec<Pattern>> = (1..=4)
            .map(|l| all_patterns(4).into_iter().filter(|p| p.family.level() <= l).collect())
            .collect();
        all.push(all_patterns(3));
        all
    });
    if side == 3 {
        &tables[4]
    } else {
        &tables[level - 1]
    }
}

/// Whether the pieces share a value of one of the first `attributes` bits.
pub fn share_an_attribute(pieces: &[u8], attributes: usize) -> bool {
    (0..attributes)
        .any(|a| pieces.iter().all(|&p| p >> a & 1 == 1) || pieces.iter().all(|&p| p >> a & 1 == 0))
}

/// One turn: place the piece in hand on `square` (if any), then give `give`
/// (if any).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct RefMove {
    pub square: Option<(usize, usize)>,
    pub give: Option<u8>,
}

impl RefMove {
    pub fn name(self) -> String {
        let mut name = self.square.map_or(String::new(), cell_name);
        if let Some(p) = self.give {
            name.push(char::from_digit(p as u32, 16).unwrap());
        }
        name
    }
}

/// The game-theoretic value for the side to move, counted in the mover's own
/// moves (`Loss(0)`: the game is over and the mover lost).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    Win(u32),
    Draw,
    Loss(u32),
}

impl Value {
    /// The value for the player who moved into a position of value `self`.
    pub fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct RefPos {
    pub side: usize,
    pub level: usize,
    /// `board[row][column]`, row 0 in the south.
    pub board: [[Option<u8>; 4]; 4],
    /// The piece the side to move must place.
    pub hand: Option<u8>,
    /// 0 for player 1, 1 for player 2.
    pub turn: usize,
    pub winner: Option<usize>,
}

impl RefPos {
    pub fn new(side: usize, level: usize) -> RefPos {
        assert!(side == 4 && (1..=4).contains(&level) || side == 3 && level == 1);
        RefPos { side, level, board: [[None; 4]; 4], hand: None, turn: 0, winner: None }
    }

    pub fn piece_count(&self) -> usize {
        1 << self.side
    }

    pub fn attributes(&self) -> usize {
        self.side
    }

    pub fn cells(&self) -> Vec<(usize, usize)> {
        (0..self.side).flat_map(|r| (0..self.side).map(move |c| (r, c))).collect()
    }

    pub fn empty_cells(&self) -> Vec<(usize, usize)> {
        self.cells().into_iter().filter(|&(r, c)| self.board[r][c].is_none()).collect()
    }

    pub fn placed(&self) -> usize {
        self.cells().len() - self.empty_cells().len()
    }

    /// Pieces neither on the board nor in hand.
    pub fn available(&self) -> Vec<u8> {
        (0..self.piece_count() as u8)
            .filter(|&p| {
                self.hand != Some(p) && self.cells().iter().all(|&(r, c)| self.board[r][c] != Some(p))
            })
            .collect()
    }

    /// Whether some pattern of the level is full and shares an attribute.
    pub fn has_win(&self) -> bool {
        self.winning_patterns().next().is_some()
    }

    /// Every full pattern of the level whose pieces share an attribute.
    pub fn winning_patterns(&self) -> impl Iterator<Item = &'static Pattern> + '_ {
        patterns(self.side, self.level).iter().filter(|p| {
            let pieces: Vec<u8> = p.cells.iter().filter_map(|&(r, c)| self.board[r][c]).collect();
            pieces.len() == self.side && share_an_attribute(&pieces, self.attributes())
        })
    }

    /// The game ends with a win or when no piece is left to place.
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || (self.hand.is_none() && self.placed() > 0 && self.available().is_empty())
    }

    /// `Some(Some(player))` for a win, `Some(None)` for a draw.
    pub fn result(&self) -> Option<Option<usize>> {
        self.is_over().then_some(self.winner)
    }

    /// Whether placing `piece` on the empty `cell` wins.
    pub fn placement_wins(&self, cell: (usize, usize), piece: u8) -> bool {
        let mut after = self.clone();
        after.board[cell.0][cell.1] = Some(piece);
        after.has_win()
    }

    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.is_over() {
            return Vec::new();
        }
        let available = self.available();
        let Some(hand) = self.hand else {
            return available.into_iter().map(|p| RefMove { square: None, give: Some(p) }).collect();
        };
        let mut moves = Vec::new();
        for cell in self.empty_cells() {
            if available.is_empty() || self.placement_wins(cell, hand) {
                moves.push(RefMove { square: Some(cell), give: None });
            } else {
                moves.extend(available.iter().map(|&p| RefMove { square: Some(cell), give: Some(p) }));
            }
        }
        moves
    }

    pub fn play(&mut self, mv: RefMove) {
        if let Some((r, c)) = mv.square {
            assert!(self.board[r][c].is_none(), "square taken");
            self.board[r][c] = Some(self.hand.take().expect("a piece in hand"));
            if self.has_win() {
                self.winner = Some(self.turn);
            }
        }
        if let Some(p) = mv.give {
            assert!(self.available().contains(&p), "piece not available");
            self.hand = Some(p);
        }
        self.turn ^= 1;
    }

    pub fn after(&self, mv: RefMove) -> RefPos {
        let mut next = self.clone();
        next.play(mv);
        next
    }

    /// The legal move with this name.
    pub fn parse_move(&self, text: &str) -> Option<RefMove> {
        self.legal_moves().into_iter().find(|m| m.name() == text)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.into_iter().map(|m| self.after(m).perft(depth - 1)).sum()
    }

    pub fn text(&self) -> String {
        let hex = |p: Option<u8>| p.map_or('.', |p| char::from_digit(p as u32, 16).unwrap());
        let rows: Vec<String> =
            (0..self.side).rev().map(|r| (0..self.side).map(|c| hex(self.board[r][c])).collect()).collect();
        let hand = self.hand.map_or("-".to_string(), |p| hex(Some(p)).to_string());
        format!(
            "quarto {0}x{0} level={1} board={2} hand={hand} turn={3}",
            self.side,
            self.level,
            rows.join("/"),
            self.turn + 1
        )
    }

    /// Parses a position text; `None` for anything malformed or impossible.
    pub fn from_text(text: &str) -> Option<RefPos> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 6 || words[0] != "quarto" {
            return None;
        }
        let side = match words[1] {
            "3x3" => 3,
            "4x4" => 4,
            _ => return None,
        };
        let mut fields = HashMap::new();
        for word in &words[2..] {
            let (key, value) = word.split_once('=')?;
            if !["level", "board", "hand", "turn"].contains(&key) || fields.insert(key, value).is_some() {
                return None;
            }
        }
        let level: usize = match fields["level"] {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            _ => return None,
        };
        if side == 3 && level != 1 {
            return None;
        }
        let mut pos = RefPos::new(side, level);
        let pieces = pos.piece_count();
        let piece = |c: char| c.to_digit(16).filter(|&d| (d as usize) < pieces).map(|d| d as u8);
        let rows: Vec<&str> = fields["board"].split('/').collect();
        if rows.len() != side {
            return None;
        }
        let mut seen = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != side {
                return None;
            }
            for (c, &ch) in chars.iter().enumerate() {
                if ch != '.' {
                    let p = piece(ch)?;
                    seen.push(p);
                    pos.board[side - 1 - i][c] = Some(p);
                }
            }
        }
        let hand_text = fields["hand"];
        if hand_text != "-" {
            let mut chars = hand_text.chars();
            let p = piece(chars.next()?)?;
            if chars.next().is_some() {
                return None;
            }
            seen.push(p);
            pos.hand = Some(p);
        }
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != seen.len() {
            return None;
        }
        pos.turn = match fields["turn"] {
            "1" => 0,
            "2" => 1,
            _ => return None,
        };
        // Player 1 gives first, so player 2 places pieces 1, 3, 5, ...
        let placed = pos.placed();
        let expected = if placed == 0 && pos.hand.is_none() { 0 } else { 1 - placed % 2 };
        if pos.turn != expected {
            return None;
        }
        let won = pos.has_win();
        if won {
            if pos.hand.is_some() {
                return None;
            }
            pos.winner = Some(1 - pos.turn);
        } else if pos.hand.is_none() && placed > 0 && !pos.available().is_empty() {
            return None;
        }
        Some(pos)
    }

    /// The exact game value for the side to move (plain minimax with a memo
    /// of exact values keyed by the whole position).
    pub fn solve(&self) -> Value {
        let mut memo = HashMap::new();
        to_value(minimax(self, &mut memo))
    }

    /// Whether the side to move can force a win with at most `own_moves` of
    /// its own moves (plain AND-OR search, no memo: for short horizons).
    pub fn wins_within(&self, own_moves: u32) -> bool {
        if own_moves == 0 || self.is_over() {
            return false;
        }
        self.legal_moves().into_iter().any(|m| {
            let after = self.after(m);
            if after.winner.is_some() {
                return true;
            }
            if after.is_over() || own_moves == 1 {
                return false;
            }
            after.legal_moves().into_iter().all(|reply| {
                let next = after.after(reply);
                !next.is_over() && next.wins_within(own_moves - 1)
            })
        })
    }

    /// This position with every square moved by `map` (`map[row][col]` is
    /// the new cell) and every piece relabelled by `relabel`.
    pub fn transformed(&self, map: &CellMap, relabel: impl Fn(u8) -> u8) -> RefPos {
        let mut image = self.clone();
        image.board = [[None; 4]; 4];
        for (r, c) in self.cells() {
            let (nr, nc) = map[r][c];
            image.board[nr][nc] = self.board[r][c].map(&relabel);
        }
        image.hand = self.hand.map(&relabel);
        image
    }
}

const WIN_SCORE: i32 = 1000;

/// Score for the side to move: `WIN_SCORE - plies` for a win `plies` plies
/// ahead, the negation for a loss, 0 for a draw.
fn minimax(pos: &RefPos, memo: &mut HashMap<RefPos, i32>) -> i32 {
    if pos.is_over() {
        // The player who just moved won, or nobody did.
        return if pos.winner.is_some() { -WIN_SCORE } else { 0 };
    }
    if let Some(&score) = memo.get(pos) {
        return score;
    }
    let mut best = i32::MIN;
    for mv in pos.legal_moves() {
        let child = -minimax(&pos.after(mv), memo);
        // One ply further from the end.
        let score = child - child.signum();
        best = best.max(score);
    }
    memo.insert(pos.clone(), best);
    best
}

fn to_value(score: i32) -> Value {
    let plies = (WIN_SCORE - score.abs()) as u32;
    match score.signum() {
        1 => Value::Win(plies.div_ceil(2)),
        -1 => Value::Loss(plies / 2),
        _ => Value::Draw,
    }
}

/// `map[row][col]`: where a cell goes.
pub type CellMap = [[(usize, usize); 4]; 4];

fn cell_map(side: usize, f: impl Fn(usize, usize) -> (usize, usize)) -> CellMap {
    let mut map = [[(0, 0); 4]; 4];
    for (r, row) in map.iter_mut().enumerate().take(side) {
        for (c, target) in row.iter_mut().enumerate().take(side) {
            *target = f(r, c);
        }
    }
    map
}

/// The 8 rotations and reflections of the square (index 0 is the identity).
pub fn dihedral(side: usize, index: usize) -> CellMap {
    let n = side - 1;
    cell_map(side, |r, c| {
        let (r, c) = if index & 4 != 0 { (c, r) } else { (r, c) };
        let r = if index & 1 != 0 { n - r } else { r };
        let c = if index & 2 != 0 { n - c } else { c };
        (r, c)
    })
}

/// The same index permutation applied to rows and to columns.
pub fn axis_permutation(side: usize, perm: [usize; 4]) -> CellMap {
    cell_map(side, |r, c| (perm[r], perm[c]))
}

/// `a` after `b`.
pub fn compose(side: usize, a: &CellMap, b: &CellMap) -> CellMap {
    cell_map(side, |r, c| {
        let (r, c) = b[r][c];
        a[r][c]
    })
}

/// Whether `map` sends the level's patterns onto themselves.
pub fn preserves_patterns(map: &CellMap, side: usize, level: usize) -> bool {
    let sets: Vec<Vec<(usize, usize)>> = patterns(side, level)
        .iter()
        .map(|p| {
            let mut cells = p.cells.clone();
            cells.sort();
            cells
        })
        .collect();
    sets.iter().all(|cells| {
        let mut image: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| map[r][c]).collect();
        image.sort();
        sets.contains(&image)
    })
}

/// A piece relabelling: attribute `a` of the new piece is attribute
/// `perm[a]` of the old one, then `complement` flips bits.
pub fn relabel(piece: u8, perm: &[usize], complement: u8) -> u8 {
    let mut out = 0;
    for (a, &from) in perm.iter().enumerate() {
        out |= (piece >> from & 1) << a;
    }
    out ^ complement
}
