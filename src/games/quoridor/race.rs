//! The pawn race: once neither of two players has a wall left, the walls on
//! the board never change again and the game is a race of two pawns, jumps and
//! side steps included. Its every state (both pawns, side to move) is solved
//! by retrograde analysis (about 0.1 ms on 9x9, 0.6 ms on 15x15; see
//! [`super::race_solve`]), and the search
//! scores every such node exactly instead of expanding it. The solved tables
//! belong to the search thread (a [`RaceCache`] in its
//! [`super::QuoridorTables`]), made afresh for every search, so a search's
//! result never depends on what earlier searches met.

use super::bitboard::BitBoard;
use super::board::Quoridor;
use super::movegen::DIRECTIONS;
use crate::game::Solved;

/// One solved layout: for every state, 0 for a draw, `n` for a win in `n`
/// plies, `-n` for a loss in `n` plies (side to move's view).
pub struct RaceTable {
    key: u64,
    values: Vec<i16>,
}

/// Layouts a search thread keeps solved at once.
const CACHED_LAYOUTS: usize = 64;
/// A layout met below the root is solved only with this many plies still
/// to search there (a millisecond is worth a few thousand nodes), and at
/// most this many times per search.
const SOLVE_MIN_DEPTH: u32 = 3;
const SOLVES_PER_SEARCH: u32 = 256;

/// The race tables of one search: the root's layout, and layouts met in
/// the tree (the oldest replaced first).
#[derive(Default)]
pub struct RaceCache {
    tables: Vec<RaceTable>,
    next: usize,
    solved: u32,
}

impl RaceCache {
    fn find(&self, key: u64) -> Option<&RaceTable> {
        self.tables.iter().find(|t| t.key == key)
    }

    fn insert(&mut self, table: RaceTable) {
        if self.tables.len() < CACHED_LAYOUTS {
            self.tables.push(table);
        } else {
            self.tables[self.next] = table;
            self.next = (self.next + 1) % CACHED_LAYOUTS;
        }
    }
}

impl Quoridor {
    /// Readies `cache` for a search from this position: empty, but for the
    /// root's own layout when neither player has a wall left.
    pub fn prepare_race(&self, cache: &mut RaceCache) {
        *cache = RaceCache::default();
        if self.race_possible() {
            cache.insert(RaceTable { key: self.layout_key(), values: self.solve_layout() });
        }
    }

    fn race_possible(&self) -> bool {
        self.players == 2 && self.hand[0] == 0 && self.hand[1] == 0 && self.winner.is_none()
    }

    /// The exact value of a two-player position in which neither player has a
    /// wall left, when `cache` holds its layout, or solving it is worth it
    /// with `depth` plies to search; `None` otherwise.
    pub fn solve_race(&self, cache: &mut RaceCache, depth: u32) -> Option<Solved> {
        if !self.race_possible() {
            return None;
        }
        let key = self.layout_key();
        if cache.find(key).is_none() {
            if depth < SOLVE_MIN_DEPTH || cache.solved >= SOLVES_PER_SEARCH {
                return None;
            }
            cache.solved += 1;
            cache.insert(RaceTable { key, values: self.solve_layout() });
        }
        let table = cache.find(key)?;
        let state = self.race_state(self.pawns[0] as usize, self.pawns[1] as usize, self.side as usize);
        Some(match table.values[state] {
            0 => Solved::Draw,
            n if n > 0 => Solved::WinIn(n as u32),
            n => Solved::LossIn(n.unsigned_abs() as u32),
        })
    }

    /// Identifies the board size and every wall.
    fn layout_key(&self) -> u64 {
        let words = self.horizontal.0.iter().chain(self.vertical.0.iter());
        let mut key = (self.width as u64) << 8 | self.height as u64;
        for &w in words {
            key = (key ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        key
    }

    fn race_state(&self, first: usize, second: usize, side: usize) -> usize {
        let squares = self.width as usize * self.height as usize;
        (self.square_index(first) * squares + self.square_index(second)) * 2 + side
    }

    fn square_index(&self, square: usize) -> usize {
        let stride = super::bitboard::STRIDE;
        (square / stride) * self.width as usize + square % stride
    }

    /// Where a pawn on `from` can go with the other pawn on `other`.
    pub(super) fn race_targets(&self, from: usize, other: usize) -> BitBoard {
        let mut targets = BitBoard::EMPTY;
        for dir in DIRECTIONS {
            let Some(next) = self.open_step(from, dir) else { continue };
            if next != other {
                targets.insert(next);
            } else if let Some(behind) = self.open_step(next, dir) {
                targets.insert(behind);
            } else {
                for side in dir.sides() {
                    if let Some(beside) = self.open_step(next, side) {
                        targets.insert(beside);
                    }
                }
            }
        }
        targets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;

    /// The analysis as first written, on an explicit graph of states and
    /// their predecessors: the reference the layered bitboards must match.
    /// Retrograde analysis of every state of this wall layout: lost states
    /// are those where the opponent has just reached its goal; a state is won
    /// in n+1 when some move reaches a state lost in n, and lost in n+1 when
    /// every move reaches a won state, the longest of them n. Processing the
    /// states in order of distance makes those the shortest wins and longest
    /// losses; what is never settled is a draw by endless play.
    fn graph_values(p: &Quoridor) -> Vec<i16> {
        const MOST_TARGETS: usize = 5;
        let squares: Vec<usize> = p.geometry().board.iter().collect();
        let n = squares.len();
        let count = n * n * 2;
        let state = |a: usize, b: usize, side: usize| (a * n + b) * 2 + side;
        // Forward moves of every state (indices into `squares`); `u8::MAX`
        // marks a finished game.
        let mut index_of = [0usize; 256];
        for (i, &square) in squares.iter().enumerate() {
            index_of[square] = i;
        }
        let mut forward = vec![0u32; count * MOST_TARGETS];
        let mut moves_left = vec![0u8; count];
        let mut incoming = vec![0u32; count + 1];
        let mut queue: Vec<u32> = Vec::with_capacity(count);
        let mut settled = vec![false; count];
        for (ia, &a) in squares.iter().enumerate() {
            for (ib, &b) in squares.iter().enumerate() {
                if a == b {
                    continue;
                }
                for side in 0..2 {
                    let here = state(ia, ib, side);
                    let (mover, other) = if side == 0 { (a, b) } else { (b, a) };
                    if p.goal(1 - side).contains(other) || p.goal(side).contains(mover) {
                        // The game is over: the player who just moved won
                        // (a mover already home cannot arise; scored alike).
                        settled[here] = true;
                        queue.push(here as u32);
                        continue;
                    }
                    let mut next = 0;
                    for target in p.race_targets(mover, other).iter() {
                        let t = index_of[target];
                        forward[here * MOST_TARGETS + next] =
                            if side == 0 { state(t, ib, 1) } else { state(ia, t, 0) } as u32;
                        next += 1;
                    }
                    if next == 0 {
                        // No move: the player passes.
                        forward[here * MOST_TARGETS] = state(ia, ib, 1 - side) as u32;
                        next = 1;
                    }
                    moves_left[here] = next as u8;
                    for k in 0..next {
                        incoming[forward[here * MOST_TARGETS + k] as usize + 1] += 1;
                    }
                }
            }
        }
        // Predecessor lists in compressed rows.
        for i in 0..count {
            incoming[i + 1] += incoming[i];
        }
        let mut fill = incoming.clone();
        let mut predecessors = vec![0u32; incoming[count] as usize];
        for here in 0..count {
            for k in 0..moves_left[here] as usize {
                let to = forward[here * MOST_TARGETS + k] as usize;
                predecessors[fill[to] as usize] = here as u32;
                fill[to] += 1;
            }
        }
        let mut values = vec![0i16; count];
        let mut head = 0;
        while head < queue.len() {
            let here = queue[head] as usize;
            head += 1;
            let value = values[here];
            for &from in &predecessors[incoming[here] as usize..incoming[here + 1] as usize] {
                let from = from as usize;
                if settled[from] {
                    continue;
                }
                if value <= 0 {
                    // A move into a lost state wins.
                    values[from] = 1 - value;
                    settled[from] = true;
                    queue.push(from as u32);
                } else {
                    moves_left[from] -= 1;
                    if moves_left[from] == 0 {
                        values[from] = -(value + 1);
                        settled[from] = true;
                        queue.push(from as u32);
                    }
                }
            }
        }
        values
    }

    fn solve(text: &str) -> Solved {
        let p = Quoridor::from_text(text).unwrap();
        let mut cache = RaceCache::default();
        p.prepare_race(&mut cache);
        p.solve_race(&mut cache, 0).unwrap()
    }

    #[test]
    fn only_without_walls_in_hand_and_with_two_players() {
        let walls_left = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=1,0 walls=- turn=1").unwrap();
        let mut cache = RaceCache::default();
        walls_left.prepare_race(&mut cache);
        assert!(cache.tables.is_empty() && walls_left.solve_race(&mut cache, 10).is_none());
        let four = super::super::Variant { players: 4, walls: 0, ..Default::default() };
        let four = Quoridor::new(&four).unwrap();
        four.prepare_race(&mut cache);
        assert!(cache.tables.is_empty() && four.solve_race(&mut cache, 10).is_none());
    }

    #[test]
    fn the_nearer_pawn_wins_on_an_open_board() {
        // Each pawn needs 7 steps: the first to move wins with its 7th move,
        // the 13th ply.
        assert_eq!(solve("quoridor 9x9 pawns=a2,i8 hand=0,0 walls=- turn=1"), Solved::WinIn(13));
        assert_eq!(solve("quoridor 9x9 pawns=a2,i8 hand=0,0 walls=- turn=2"), Solved::WinIn(13));
        // One step behind, even when to move: loses after the other's 7th.
        assert_eq!(solve("quoridor 9x9 pawns=a1,i8 hand=0,0 walls=- turn=1"), Solved::LossIn(14));
    }

    /// Memoised minimax over every legal move to a depth, for comparison:
    /// win in n plies scores 100 - n, loss in n scores n - 100.
    fn plain_value(p: &Quoridor, depth: u32) -> Solved {
        fn value(p: &Quoridor, depth: u32, memo: &mut std::collections::HashMap<(u64, u32), i32>) -> i32 {
            if p.outcome().is_some() {
                return -100;
            }
            if depth == 0 {
                return 0;
            }
            if let Some(&v) = memo.get(&(p.hash(), depth)) {
                return v;
            }
            let mut moves = crate::game::MoveList::default();
            p.generate_moves(&mut moves);
            let mut best = -1000;
            for &mv in moves.iter() {
                let mut next = p.clone();
                next.make_move(mv);
                let w = -value(&next, depth - 1, memo);
                best = best.max(w - w.signum());
            }
            memo.insert((p.hash(), depth), best);
            best
        }
        match value(p, depth, &mut Default::default()) {
            0 => Solved::Draw,
            v if v > 0 => Solved::WinIn((100 - v) as u32),
            v => Solved::LossIn((100 + v) as u32),
        }
    }

    #[test]
    fn agrees_with_plain_search_on_small_boards() {
        let mut rng = crate::rng::Rng::new(7);
        let walls = ["-", "b2h", "a1v,b3h", "c2v,a3h", "b1v,b3v,c2h"];
        let mut checked = 0;
        while checked < 200 {
            let (a, b) = (rng.below(25) as usize, rng.below(25) as usize);
            let name = |s: usize| format!("{}{}", (b'a' + (s % 5) as u8) as char, s / 5 + 1);
            let text = format!(
                "quoridor 5x5 pawns={},{} hand=0,0 walls={} turn={}",
                name(a),
                name(b),
                walls[rng.below(walls.len() as u64) as usize],
                1 + rng.below(2)
            );
            let Ok(p) = Quoridor::from_text(&text) else { continue };
            if p.outcome().is_some() {
                continue;
            }
            checked += 1;
            // Every decided value fits in 16 plies on 5x5 with these walls; a
            // deeper plain search agrees with each.
            let exact = p.solve_race(&mut RaceCache::default(), SOLVE_MIN_DEPTH).unwrap();
            assert_eq!(exact, plain_value(&p, 18), "{text}");
        }
    }

    #[test]
    fn facing_pawns_race_with_the_jump() {
        // c2 and c4 face each other on 5x5: the first to move steps to c3
        // and is jumped, so it loses the race.
        let p = Quoridor::from_text("quoridor 5x5 pawns=c2,c4 hand=0,0 walls=- turn=1").unwrap();
        let mut cache = RaceCache::default();
        p.prepare_race(&mut cache);
        assert_eq!(p.solve_race(&mut cache, 0), Some(plain_value(&p, 18)));
    }

    #[test]
    fn other_layouts_are_solved_only_with_depth_to_spare_and_then_kept() {
        let a = Quoridor::from_text("quoridor 5x5 pawns=c1,c5 hand=0,0 walls=- turn=1").unwrap();
        let b = Quoridor::from_text("quoridor 5x5 pawns=c1,c5 hand=0,0 walls=b2h turn=1").unwrap();
        let mut cache = RaceCache::default();
        a.prepare_race(&mut cache);
        assert!(a.solve_race(&mut cache, 0).is_some());
        assert!(b.solve_race(&mut cache, SOLVE_MIN_DEPTH - 1).is_none());
        assert_eq!(b.solve_race(&mut cache, SOLVE_MIN_DEPTH), Some(plain_value(&b, 18)));
        assert_eq!(b.solve_race(&mut cache, 0), Some(plain_value(&b, 18)));
        // A new search forgets what the last one solved.
        let walls_left = Quoridor::from_text("quoridor 5x5 pawns=c1,c5 hand=1,0 walls=- turn=1").unwrap();
        walls_left.prepare_race(&mut cache);
        assert!(a.solve_race(&mut cache, 0).is_none());
    }

    #[test]
    fn the_cache_keeps_the_latest_layouts() {
        let mut cache = RaceCache::default();
        // Distinct layouts: one wall, or two, anywhere they fit.
        let walls: Vec<String> = (0..4)
            .flat_map(|c| {
                (1..5).flat_map(move |r| ['h', 'v'].map(|o| format!("{}{r}{o}", (b'a' + c) as char)))
            })
            .collect();
        let mut layouts = Vec::new();
        for (i, first) in walls.iter().enumerate() {
            for second in walls.iter().skip(i) {
                let set = if first == second { first.clone() } else { format!("{first},{second}") };
                if let Ok(p) =
                    Quoridor::from_text(&format!("quoridor 5x5 pawns=c1,c5 hand=0,0 walls={set} turn=1"))
                {
                    layouts.push(p);
                }
            }
            if layouts.len() > CACHED_LAYOUTS + 8 {
                break;
            }
        }
        for p in &layouts {
            assert!(p.solve_race(&mut cache, SOLVE_MIN_DEPTH).is_some());
        }
        assert_eq!(cache.tables.len(), CACHED_LAYOUTS);
        assert!(layouts.last().unwrap().solve_race(&mut cache, 0).is_some());
    }

    /// The layered bitboard analysis values every state as the graph does,
    /// on the wall layouts of random games (walls in hand, so that the
    /// layouts vary; the pawns' squares and the side to move range over
    /// every state of each layout).
    #[test]
    fn layered_values_equal_the_graphs_on_random_layouts() {
        let mut rng = crate::rng::Rng::new(11);
        for (text, games, every) in [
            ("quoridor 5x5 pawns=c1,c5 hand=6,6 walls=- turn=1", 30, 1),
            ("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1", 12, 3),
            ("quoridor 6x8 pawns=c1,d8 hand=8,8 walls=- turn=1", 8, 3),
            ("quoridor 15x15 pawns=h1,h15 hand=20,20 walls=- turn=1", 1, 12),
        ] {
            for _ in 0..games {
                let mut played = 0;
                crate::games::quoridor::random_game(
                    text,
                    &mut rng,
                    |p| p.hand[0] + p.hand[1] > 0,
                    |p| {
                        played += 1;
                        if played % every == 0 {
                            assert!(p.solve_layout() == graph_values(p), "{}", p.to_text());
                        }
                    },
                );
            }
        }
    }
}
