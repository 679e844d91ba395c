//! A slow reference implementation of the Quoridor rules, written from the
//! rule text alone (not from the engine's move generator) to cross-check it.
//!
//! Everything here is plain data: pawns as `(column, row)` pairs, walls as an
//! explicit sorted list, reachability by breadth-first search over a grid of
//! blocked edges. Clarity over speed.

use std::collections::{BTreeSet, VecDeque};

/// A wall named by the square south-west of its centre (0-based).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Wall {
    pub col: usize,
    pub row: usize,
    pub vertical: bool,
}

/// How a pawn move was found; only for statistics, not part of the move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PawnKind {
    /// One square to an empty neighbour.
    Step,
    /// Straight over one pawn.
    Jump,
    /// Straight over two or more pawns in a line (multi-jump variant).
    MultiJump,
    /// Beside a jumped pawn because the straight jump was blocked.
    Side,
}

/// One pawn destination of the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PawnTarget {
    pub square: (usize, usize),
    /// How the square was first found.
    pub kind: PawnKind,
    /// In how many ways it can be reached.
    pub ways: usize,
}

/// A move of the reference implementation.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum RefMove {
    Pawn { col: usize, row: usize },
    Wall(Wall),
    Pass,
}

/// A Quoridor position of the reference implementation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub width: usize,
    pub height: usize,
    pub multi_jump: bool,
    /// Seat order; `pawns.len()` is the number of players.
    pub pawns: Vec<(usize, usize)>,
    pub hand: Vec<usize>,
    /// Kept sorted and free of duplicates so that equal positions compare equal.
    pub walls: BTreeSet<Wall>,
    /// 0-based seat to move.
    pub turn: usize,
}

/// The four orthogonal directions as (column delta, row delta).
const DIRECTIONS: [(i64, i64); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

pub fn square_name(col: usize, row: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

pub fn wall_name(wall: Wall) -> String {
    let suffix = if wall.vertical { 'v' } else { 'h' };
    format!("{}{suffix}", square_name(wall.col, wall.row))
}

/// Reads `e3` (column letter, 1-based row without leading zero) on any board
/// up to 26 columns; the caller checks it is on its board.
fn parse_square_name(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let digits = &text[1..];
    if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    Some(((bytes[0] - b'a') as usize, row - 1))
}

/// Blocked edges of the board for one set of walls: `north[c][r]` is true when
/// the edge between (c, r) and (c, r + 1) is walled, `east[c][r]` likewise
/// between (c, r) and (c + 1, r).
#[derive(Clone)]
struct Edges {
    north: Vec<Vec<bool>>,
    east: Vec<Vec<bool>>,
}

impl Edges {
    fn new(width: usize, height: usize) -> Edges {
        Edges { north: vec![vec![false; height]; width], east: vec![vec![false; height]; width] }
    }

    fn add(&mut self, wall: Wall) {
        if wall.vertical {
            // Separates columns col and col + 1 across rows row and row + 1.
            self.east[wall.col][wall.row] = true;
            self.east[wall.col][wall.row + 1] = true;
        } else {
            // Separates rows row and row + 1 across columns col and col + 1.
            self.north[wall.col][wall.row] = true;
            self.north[wall.col + 1][wall.row] = true;
        }
    }

    /// Whether a wall lies between two orthogonally adjacent squares.
    fn blocked(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        if a.0 == b.0 {
            let low = a.1.min(b.1);
            assert_eq!(a.1.max(b.1), low + 1, "squares not adjacent");
            self.north[a.0][low]
        } else {
            assert_eq!(a.1, b.1, "squares not adjacent");
            let low = a.0.min(b.0);
            assert_eq!(a.0.max(b.0), low + 1, "squares not adjacent");
            self.east[low][a.1]
        }
    }
}

impl RefPos {
    /// The start position: two players on any allowed board (2 to 15
    /// columns, 3 to 15 rows), four players on odd square boards. Two pawns
    /// face each other on the middle column; with an even number of columns
    /// there is no middle column, and they take the one just left of the
    /// centre (`b` of `a b | c d`).
    pub fn start(width: usize, height: usize, players: usize, walls: usize, multi_jump: bool) -> RefPos {
        assert!((2..=15).contains(&width) && (3..=15).contains(&height));
        let column = if width % 2 == 1 {
            // Columns 0..m-1 on the left, m in the middle, m+1.. on the right.
            width / 2
        } else {
            // Columns 0..w/2-1 on the left half: its last one.
            width / 2 - 1
        };
        let pawns = match players {
            2 => vec![(column, 0), (column, height - 1)],
            4 => {
                assert!(width == height && width % 2 == 1, "four players need an odd square board");
                let m = width / 2;
                vec![(m, 0), (0, m), (m, height - 1), (width - 1, m)]
            }
            _ => panic!("{players} players"),
        };
        RefPos {
            width,
            height,
            multi_jump,
            pawns,
            hand: vec![walls; players],
            walls: BTreeSet::new(),
            turn: 0,
        }
    }

    pub fn players(&self) -> usize {
        self.pawns.len()
    }

    /// Whether `seat`'s pawn would have reached its goal on square `sq`.
    pub fn is_goal(&self, seat: usize, sq: (usize, usize)) -> bool {
        match (self.players(), seat) {
            (2, 0) | (4, 0) => sq.1 == self.height - 1,
            (2, 1) | (4, 2) => sq.1 == 0,
            (4, 1) => sq.0 == self.width - 1,
            (4, 3) => sq.0 == 0,
            _ => unreachable!(),
        }
    }

    /// The seat whose pawn stands on its goal, if any.
    pub fn winner(&self) -> Option<usize> {
        (0..self.players()).find(|&s| self.is_goal(s, self.pawns[s]))
    }

    fn on_board(&self, col: i64, row: i64) -> Option<(usize, usize)> {
        let inside = col >= 0 && row >= 0 && col < self.width as i64 && row < self.height as i64;
        inside.then_some((col as usize, row as usize))
    }

    fn neighbour(&self, sq: (usize, usize), dir: (i64, i64)) -> Option<(usize, usize)> {
        self.on_board(sq.0 as i64 + dir.0, sq.1 as i64 + dir.1)
    }

    fn occupied(&self, sq: (usize, usize)) -> bool {
        self.pawns.contains(&sq)
    }

    fn edges(&self, walls: &BTreeSet<Wall>) -> Edges {
        let mut edges = Edges::new(self.width, self.height);
        for &w in walls {
            edges.add(w);
        }
        edges
    }

    /// Whether `seat` can walk to its goal (pawns ignored) with these edges.
    fn has_path(&self, edges: &Edges, seat: usize) -> bool {
        let mut seen = vec![vec![false; self.height]; self.width];
        let mut queue = VecDeque::new();
        let start = self.pawns[seat];
        seen[start.0][start.1] = true;
        queue.push_back(start);
        while let Some(sq) = queue.pop_front() {
            if self.is_goal(seat, sq) {
                return true;
            }
            for dir in DIRECTIONS {
                if let Some(next) = self.neighbour(sq, dir) {
                    if !edges.blocked(sq, next) && !seen[next.0][next.1] {
                        seen[next.0][next.1] = true;
                        queue.push_back(next);
                    }
                }
            }
        }
        false
    }

    /// Shortest walking distance to the goal, pawns ignored.
    pub fn distance_to_goal(&self, seat: usize) -> Option<usize> {
        let edges = self.edges(&self.walls);
        let mut dist = vec![vec![usize::MAX; self.height]; self.width];
        let mut queue = VecDeque::new();
        let start = self.pawns[seat];
        dist[start.0][start.1] = 0;
        queue.push_back(start);
        while let Some(sq) = queue.pop_front() {
            if self.is_goal(seat, sq) {
                return Some(dist[sq.0][sq.1]);
            }
            for dir in DIRECTIONS {
                if let Some(next) = self.neighbour(sq, dir) {
                    if !edges.blocked(sq, next) && dist[next.0][next.1] == usize::MAX {
                        dist[next.0][next.1] = dist[sq.0][sq.1] + 1;
                        queue.push_back(next);
                    }
                }
            }
        }
        None
    }

    /// Whether `wall` neither overlaps nor crosses a wall already placed.
    pub fn wall_fits(&self, wall: Wall) -> bool {
        if wall.col + 1 >= self.width || wall.row + 1 >= self.height {
            return false;
        }
        for &other in &self.walls {
            // Same centre: overlap (same orientation) or cross (other one).
            if other.col == wall.col && other.row == wall.row {
                return false;
            }
            if other.vertical == wall.vertical {
                let shares_half = if wall.vertical {
                    other.col == wall.col && other.row.abs_diff(wall.row) == 1
                } else {
                    other.row == wall.row && other.col.abs_diff(wall.col) == 1
                };
                if shares_half {
                    return false;
                }
            }
        }
        true
    }

    /// Legal walls for the player to move (ignoring the game-over check).
    fn legal_walls(&self) -> Vec<Wall> {
        let mut result = Vec::new();
        if self.hand[self.turn] == 0 {
            return result;
        }
        let base = self.edges(&self.walls);
        for col in 0..self.width - 1 {
            for row in 0..self.height - 1 {
                for vertical in [false, true] {
                    let wall = Wall { col, row, vertical };
                    if !self.wall_fits(wall) {
                        continue;
                    }
                    let mut edges = base.clone();
                    edges.add(wall);
                    if (0..self.players()).all(|s| self.has_path(&edges, s)) {
                        result.push(wall);
                    }
                }
            }
        }
        result
    }

    /// Pawn destinations of the player to move, with how each was first
    /// found and in how many ways (a square reachable two ways is one move).
    pub fn pawn_moves(&self) -> Vec<PawnTarget> {
        let edges = self.edges(&self.walls);
        let me = self.pawns[self.turn];
        let mut result: Vec<PawnTarget> = Vec::new();
        let mut add =
            |square: (usize, usize), kind: PawnKind| match result.iter_mut().find(|t| t.square == square) {
                Some(target) => target.ways += 1,
                None => result.push(PawnTarget { square, kind, ways: 1 }),
            };
        for dir in DIRECTIONS {
            let Some(first) = self.neighbour(me, dir) else {
                continue;
            };
            if edges.blocked(me, first) {
                continue;
            }
            if !self.occupied(first) {
                add(first, PawnKind::Step);
                continue;
            }
            // `jumped` is the pawn being jumped; with multi-jump it moves on
            // along the line of pawns while the square behind holds a pawn.
            let mut jumped = first;
            let mut pawns_jumped = 1;
            loop {
                let behind = self.neighbour(jumped, dir).filter(|&b| !edges.blocked(jumped, b));
                match behind {
                    Some(b) if !self.occupied(b) => {
                        let kind = if pawns_jumped == 1 { PawnKind::Jump } else { PawnKind::MultiJump };
                        add(b, kind);
                        break;
                    }
                    Some(b) if self.multi_jump => {
                        jumped = b;
                        pawns_jumped += 1;
                    }
                    _ => {
                        // Blocked by edge, wall or (single jump) a pawn: side steps.
                        let sides = [(dir.1, dir.0), (-dir.1, -dir.0)];
                        for side in sides {
                            if let Some(s) = self.neighbour(jumped, side) {
                                if !edges.blocked(jumped, s) && !self.occupied(s) {
                                    add(s, PawnKind::Side);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        result
    }

    /// Every legal move; empty once a pawn has reached its goal.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.winner().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<RefMove> = self
            .pawn_moves()
            .into_iter()
            .map(|t| RefMove::Pawn { col: t.square.0, row: t.square.1 })
            .collect();
        moves.extend(self.legal_walls().into_iter().map(RefMove::Wall));
        if moves.is_empty() {
            moves.push(RefMove::Pass);
        }
        moves
    }

    pub fn move_name(&self, mv: RefMove) -> String {
        match mv {
            RefMove::Pawn { col, row } => square_name(col, row),
            RefMove::Wall(w) => wall_name(w),
            RefMove::Pass => "pass".to_string(),
        }
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: RefMove) {
        match mv {
            RefMove::Pawn { col, row } => self.pawns[self.turn] = (col, row),
            RefMove::Wall(w) => {
                assert!(self.hand[self.turn] > 0);
                self.hand[self.turn] -= 1;
                assert!(self.walls.insert(w));
            }
            RefMove::Pass => {}
        }
        self.turn = (self.turn + 1) % self.players();
    }

    /// Reads a move name in this position's board, without legality checks.
    pub fn parse_move_name(&self, text: &str) -> Option<RefMove> {
        if text == "pass" {
            return Some(RefMove::Pass);
        }
        if let Some(body) = text.strip_suffix('h').or_else(|| text.strip_suffix('v')) {
            let (col, row) = parse_square_name(body)?;
            let wall = Wall { col, row, vertical: text.ends_with('v') };
            return (col + 1 < self.width && row + 1 < self.height).then_some(RefMove::Wall(wall));
        }
        let (col, row) = parse_square_name(text)?;
        (col < self.width && row < self.height).then_some(RefMove::Pawn { col, row })
    }

    /// The position text, in the engine's format.
    pub fn text(&self) -> String {
        let pawns: Vec<String> = self.pawns.iter().map(|&(c, r)| square_name(c, r)).collect();
        let hand: Vec<String> = self.hand.iter().map(|h| h.to_string()).collect();
        let walls: Vec<String> = self.walls.iter().map(|&w| wall_name(w)).collect();
        format!(
            "quoridor {}x{} pawns={} hand={} walls={} turn={} jumps={}",
            self.width,
            self.height,
            pawns.join(","),
            hand.join(","),
            if walls.is_empty() { "-".to_string() } else { walls.join(",") },
            self.turn + 1,
            if self.multi_jump { "multi" } else { "single" }
        )
    }

    /// Reads a position text (trusting it to be valid apart from syntax).
    pub fn from_text(text: &str) -> Option<RefPos> {
        let mut tokens = text.split_whitespace();
        if tokens.next()? != "quoridor" {
            return None;
        }
        let (w, h) = tokens.next()?.split_once('x')?;
        let (width, height) = (w.parse().ok()?, h.parse().ok()?);
        let mut pos = RefPos {
            width,
            height,
            multi_jump: false,
            pawns: Vec::new(),
            hand: Vec::new(),
            walls: BTreeSet::new(),
            turn: 0,
        };
        for token in tokens {
            let (key, value) = token.split_once('=')?;
            match key {
                "pawns" => {
                    for s in value.split(',') {
                        let sq = parse_square_name(s)?;
                        if sq.0 >= width || sq.1 >= height {
                            return None;
                        }
                        pos.pawns.push(sq);
                    }
                }
                "hand" => {
                    for s in value.split(',') {
                        pos.hand.push(s.parse().ok()?);
                    }
                }
                "walls" if value == "-" => {}
                "walls" => {
                    for s in value.split(',') {
                        match pos.parse_move_name(s)? {
                            RefMove::Wall(w) => {
                                if !pos.wall_fits(w) {
                                    return None;
                                }
                                pos.walls.insert(w);
                            }
                            _ => return None,
                        }
                    }
                }
                "turn" => pos.turn = value.parse::<usize>().ok()?.checked_sub(1)?,
                "jumps" => {
                    pos.multi_jump = match value {
                        "single" => false,
                        "multi" => true,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        let n = pos.pawns.len();
        if (n != 2 && n != 4) || pos.hand.len() != n || pos.turn >= n {
            return None;
        }
        Some(pos)
    }

    /// Number of move sequences of length `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}
