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

/// Counts already made, by position and depth: buckets of four entries of
/// a full 64-bit key and the count with its depth in the top six bits. A
/// full bucket loses its shallowest entry, which saves the least work.
pub struct PerftTable {
    entries: Vec<[u64; 2]>,
}

const BUCKET: usize = 4;
const DEPTH_SHIFT: u32 = 58;
const COUNT_MASK: u64 = (1 << DEPTH_SHIFT) - 1;

impl PerftTable {
    /// A table of about `megabytes` MiB, or `None` when the memory cannot
    /// be had.
    pub fn new(megabytes: usize) -> Option<PerftTable> {
        let buckets = ((megabytes.max(1) << 20) / (16 * BUCKET)).max(1);
        let mut entries = Vec::new();
        entries.try_reserve_exact(buckets * BUCKET).ok()?;
        entries.resize(buckets * BUCKET, [0, 0]);
        Some(PerftTable { entries })
    }

    /// The key of a position at a depth: the same position counted to
    /// another depth is another entry.
    fn key(hash: u64, depth: u32) -> u64 {
        hash ^ crate::rng::Rng::new(u64::from(depth)).next_u64()
    }

    fn bucket(&mut self, key: u64) -> &mut [[u64; 2]] {
        let start = (key as usize % (self.entries.len() / BUCKET)) * BUCKET;
        &mut self.entries[start..start + BUCKET]
    }

    fn probe(&mut self, key: u64) -> Option<u64> {
        self.bucket(key).iter().find(|e| e[0] == key && e[1] != 0).map(|e| e[1] & COUNT_MASK)
    }

    fn store(&mut self, key: u64, depth: u32, count: u64) {
        let packed = u64::from(depth) << DEPTH_SHIFT | (count & COUNT_MASK);
        let bucket = self.bucket(key);
        let slot = match bucket.iter().position(|e| e[0] == key || e[1] == 0) {
            Some(free) => free,
            None => (0..BUCKET).min_by_key(|&i| bucket[i][1] >> DEPTH_SHIFT).unwrap_or(0),
        };
        bucket[slot] = [key, packed];
    }
}

/// Perft that gives up (returning `None`) once `stopped` says so; it asks
/// at every node above the last ply. With a table, counts of positions met
/// before (to the same depth) are looked up instead of made again; where
/// the game tells a child's key without playing the move, a child found in
/// the table is not even played.
pub fn perft_until<G: Position + Strategy>(
    position: &G,
    depth: u32,
    table: Option<&mut PerftTable>,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    let mut tables = G::Tables::default();
    count_paths_until(&mut position.clone(), depth, table, &mut tables, stopped)
}

fn count_paths_until<G: Position + Strategy>(
    position: &mut G,
    depth: u32,
    mut table: Option<&mut PerftTable>,
    tables: &mut G::Tables,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= 1 {
        return Some(count_paths(position, depth, tables));
    }
    if stopped() {
        return None;
    }
    let key = PerftTable::key(position.table_key(0), depth);
    if let Some(count) = table.as_deref_mut().and_then(|t| t.probe(key)) {
        return Some(count);
    }
    let mut moves = MoveList::default();
    position.generate_moves_remembering(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        if let Some(table) = table.as_deref_mut() {
            let known =
                position.table_key_after(mv, 0).and_then(|k| table.probe(PerftTable::key(k, depth - 1)));
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
                table.store(PerftTable::key(child.table_key(0), 1), 1, count);
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
                t.entries.truncate(64);
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
        assert_eq!(perft_until(&position, 3, None, &|| true), None);
    }
}
