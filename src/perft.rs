//! Move-path enumeration (perft) for any game, with bulk counting at the last
//! ply, and optionally a table of counts already made: a position reached
//! again by moves in another order (walls commute) is counted once. Perft
//! ignores repetition, as chess perft does.

use crate::game::prelude::*;

/// The number of move sequences of length `depth`.
pub fn perft<G: Position>(position: &G, depth: u32) -> u64 {
    count_paths(&mut position.clone(), depth, &mut G::Tables::default())
}

/// Perft with the game's tables at hand; generation may teach `position`
/// what its children inherit.
fn count_paths<G: Position>(position: &mut G, depth: u32, tables: &mut G::Tables) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_moves();
    }
    let mut moves = MoveList::default();
    position.generate_moves_remembering(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.make_move_with(mv, tables);
        total += count_paths(&mut child, depth - 1, tables);
    }
    total
}

/// Where perft keeps its counts: numbered slots of two words (a key, and
/// a count with its depth), four to a bucket; a slot whose second word is
/// 0 is empty.
pub trait CountSlots {
    /// How many slots there are.
    fn slot_count(&self) -> usize;
    /// The words of slot `i`.
    fn get(&self, i: usize) -> [u64; 2];
    /// Writes slot `i`.
    fn set(&mut self, i: usize, words: [u64; 2]);
}

impl CountSlots for Vec<[u64; 2]> {
    fn slot_count(&self) -> usize {
        self.len()
    }

    fn get(&self, i: usize) -> [u64; 2] {
        self[i]
    }

    fn set(&mut self, i: usize, words: [u64; 2]) {
        self[i] = words;
    }
}

/// The transposition table's memory, lent to perft (see
/// [`crate::search::tt::TranspositionTable::lend`]).
impl CountSlots for crate::search::tt::LentSlots<'_> {
    fn slot_count(&self) -> usize {
        self.len()
    }

    fn get(&self, i: usize) -> [u64; 2] {
        self.words(i)
    }

    fn set(&mut self, i: usize, words: [u64; 2]) {
        self.set_words(i, words);
    }
}

/// Counts already made, by position and depth: buckets of four entries of
/// a full 64-bit key and the count with its depth in the top six bits. A
/// full bucket loses its shallowest entry, which saves the least work.
pub struct PerftTable<S = Vec<[u64; 2]>> {
    slots: S,
}

const BUCKET: usize = 4;
const DEPTH_SHIFT: u32 = 58;
const COUNT_MASK: u64 = (1 << DEPTH_SHIFT) - 1;

impl PerftTable {
    /// A table of its own of about `megabytes` MiB, or `None` when the
    /// memory cannot be had. Its pages are taken from the system only as
    /// counts land on them.
    pub fn new(megabytes: usize) -> Option<PerftTable> {
        let buckets = (megabytes.max(1).checked_mul(1 << 20)? / (16 * BUCKET)).max(1);
        let mut slots = Vec::new();
        slots.try_reserve_exact(buckets * BUCKET).ok()?;
        slots.resize(buckets * BUCKET, [0, 0]);
        Some(PerftTable { slots })
    }
}

impl<S: CountSlots> PerftTable<S> {
    /// A table in `slots`, which must be empty (all words 0) and hold at
    /// least one bucket.
    pub fn in_slots(slots: S) -> PerftTable<S> {
        PerftTable { slots }
    }

    /// The key of a position at a depth: the same position counted to
    /// another depth is another entry.
    fn key(hash: u64, depth: u32) -> u64 {
        hash ^ crate::rng::Rng::new(u64::from(depth)).next_u64()
    }

    /// The first slot of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        (key as usize % (self.slots.slot_count() / BUCKET).max(1)) * BUCKET
    }

    fn probe(&self, key: u64) -> Option<u64> {
        let start = self.bucket(key);
        (start..start + BUCKET)
            .map(|i| self.slots.get(i))
            .find(|e| e[0] == key && e[1] != 0)
            .map(|e| e[1] & COUNT_MASK)
    }

    fn store(&mut self, key: u64, depth: u32, count: u64) {
        let packed = u64::from(depth) << DEPTH_SHIFT | (count & COUNT_MASK);
        let start = self.bucket(key);
        let slots: [[u64; 2]; BUCKET] = std::array::from_fn(|i| self.slots.get(start + i));
        let slot = match slots.iter().position(|e| e[0] == key || e[1] == 0) {
            Some(free) => free,
            None => (0..BUCKET).min_by_key(|&i| slots[i][1] >> DEPTH_SHIFT).unwrap_or(0),
        };
        self.slots.set(start + slot, [key, packed]);
    }
}

/// How many counts a perft of `depth` from `position` (divided by root
/// move, as `go perft` counts) can keep: twice the positions 1 to
/// `depth - 1` plies below it, the first two plies counted and the deeper
/// ones foreseen at the growth from the first to the second. None below
/// depth 3: counts are kept from two plies before the leaves.
pub fn table_entries<G: Position>(position: &G, depth: u32) -> usize {
    if depth < 3 {
        return 0;
    }
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    let first = moves.len() as f64;
    let second: f64 = moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.make_move(mv);
            child.count_moves() as f64
        })
        .sum();
    let growth = second / first.max(1.0);
    let (mut positions, mut ply) = (first + second, second);
    for _ in 3..depth {
        ply *= growth;
        positions += ply;
    }
    // Beyond what any memory holds: as large as allowed.
    (2.0 * positions).min(usize::MAX as f64 / 2.0) as usize
}

/// Perft that gives up (returning `None`) once `stopped` says so; it asks
/// at every node above the last ply. With a table, counts of positions met
/// before (to the same depth) are looked up instead of made again; where
/// the game tells a child's key without playing the move, a child found in
/// the table is not even played.
pub fn perft_until<G: Position + Strategy, S: CountSlots>(
    position: &G,
    depth: u32,
    table: Option<&mut PerftTable<S>>,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    let mut tables = G::Tables::default();
    count_paths_until(&mut position.clone(), depth, table, &mut tables, stopped)
}

fn count_paths_until<G: Position + Strategy, S: CountSlots>(
    position: &mut G,
    depth: u32,
    mut table: Option<&mut PerftTable<S>>,
    tables: &mut G::Tables,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= 1 {
        return Some(count_paths(position, depth, tables));
    }
    if stopped() {
        return None;
    }
    let key = PerftTable::<S>::key(position.table_key(0), depth);
    if let Some(count) = table.as_deref_mut().and_then(|t| t.probe(key)) {
        return Some(count);
    }
    let mut moves = MoveList::default();
    position.generate_moves_remembering(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        if let Some(table) = table.as_deref_mut() {
            let known =
                position.table_key_after(mv, 0).and_then(|k| table.probe(PerftTable::<S>::key(k, depth - 1)));
            if let Some(count) = known {
                total += count;
                continue;
            }
        }
        let mut child = position.clone();
        child.make_move_with(mv, tables);
        total += if depth == 2 {
            // The last ply is counted in bulk; the count is kept all the same.
            let count = child.count_moves();
            if let Some(table) = table.as_deref_mut() {
                table.store(PerftTable::<S>::key(child.table_key(0), 1), 1, count);
            }
            count
        } else {
            count_paths_until(&mut child, depth - 1, table.as_deref_mut(), tables, stopped)?
        };
    }
    if let Some(table) = table {
        table.store(key, depth, total);
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Quoridor;

    #[test]
    fn the_table_changes_no_count() {
        for text in [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            "quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1",
            "quoridor 9x9 pawns=e4,e6 hand=2,3 walls=c3h,e5v,f6h turn=2",
        ] {
            let Ok(position) = Quoridor::from_text(text) else { panic!("{text}") };
            // A tiny table, so that entries are replaced all the time.
            let mut table = PerftTable::new(0).map(|mut t| {
                t.slots.truncate(64);
                t
            });
            for depth in 1..=3 {
                let plain = perft(&position, depth);
                assert_eq!(perft_until(&position, depth, table.as_mut(), &|| false), Some(plain), "{text}");
                assert_eq!(perft_until(&position, depth, table.as_mut(), &|| false), Some(plain), "{text}");
            }
        }
    }

    #[test]
    fn a_stopped_perft_gives_up() {
        let Ok(position) = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1") else {
            panic!("start position")
        };
        assert_eq!(perft_until::<_, Vec<[u64; 2]>>(&position, 3, None, &|| true), None);
    }

    #[test]
    fn counts_kept_in_the_search_table_are_the_same_and_leave_it_empty() {
        use crate::search::tt::{Bound, TranspositionTable};
        let Ok(position) = Quoridor::from_text("quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1") else {
            panic!("5x5")
        };
        let mut tt = TranspositionTable::new(1);
        tt.store(7, Some(1), 10, 3, Bound::Exact);
        for depth in 3..=4 {
            let entries = table_entries(&position, depth);
            let mut table = PerftTable::in_slots(tt.lend(entries));
            assert_eq!(
                perft_until(&position, depth, Some(&mut table), &|| false),
                Some(perft(&position, depth))
            );
        }
        assert!(tt.probe(7).is_none(), "a lent table comes back empty");
        tt.store(7, Some(1), 10, 3, Bound::Exact);
        assert!(tt.probe(7).is_some(), "and serves searches again");
    }

    #[test]
    fn the_table_is_sized_to_the_depth() {
        let Ok(start) = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1") else {
            panic!("start position")
        };
        assert_eq!(table_entries(&start, 1), 0);
        assert_eq!(table_entries(&start, 2), 0);
        // 131 + 16,677 positions one and two plies down.
        assert_eq!(table_entries(&start, 3), 2 * (131 + 16_677));
        let four = table_entries(&start, 4);
        assert!((4_000_000..5_000_000).contains(&four), "{four}");
        assert!(table_entries(&start, 64) > 1 << 60);
    }
}
