//! The transposition table: buckets of four 16-byte entries, sized in MiB,
//! shared without locks by the threads of one search.

use super::learned::Learned;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The stored score is the node's value.
    Exact,
    /// The true value is at least the score (a cutoff happened).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// One slot: the packed data, and the key xor the data. A torn write by two
/// threads at once leaves a pair that does not verify, so a probe sees a
/// miss, never another position's data (the classic lockless scheme).
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The fields packed in an entry's data word.
#[derive(Clone, Copy, Default)]
struct Fields {
    mv: u16,
    score: i16,
    depth: u8,
    /// Generation (6 bits) and bound (2 bits); 0 means empty.
    meta: u8,
}

impl Fields {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.meta) << 40
    }

    fn unpack(data: u64) -> Fields {
        Fields {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            meta: (data >> 40) as u8,
        }
    }
}

impl Entry {
    /// The entry's key and fields, as one consistent read or an empty slot.
    #[inline]
    fn load(&self) -> (u64, Fields) {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data, Fields::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, fields: Fields) {
        let data = fields.pack();
        self.check.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

const BUCKET: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The move found best, as its code.
    pub mv: Option<u16>,
    /// The score, mate scores relative to the node.
    pub score: i32,
    /// The depth the node was searched to.
    pub depth: u32,
    /// What the score says of the value.
    pub bound: Bound,
}

/// The memory for a table could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge(pub usize);

impl std::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MiB hash table", self.0)
    }
}

impl std::error::Error for TableTooLarge {}

/// The transposition table shared by the search threads: buckets of entries written without locks
/// (each checked by its key on reading). It also keeps what the last search
/// learnt besides its entries (the histories of `search/learned.rs`) and forgets it with them.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
    pub(super) learned: Option<Learned>,
}

impl TranspositionTable {
    /// A table of `megabytes` MiB.
    ///
    /// # Panics
    /// When the memory cannot be had; use [`TranspositionTable::try_new`] for
    /// sizes that come from outside.
    pub fn new(megabytes: usize) -> TranspositionTable {
        match TranspositionTable::try_new(megabytes) {
            Ok(table) => table,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of `megabytes` MiB, or an error when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableTooLarge> {
        let count = ((megabytes.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = crate::huge_pages::try_filled_with(count, Bucket::default)
            .map_err(|_| TableTooLarge(megabytes))?;
        Ok(TranspositionTable { buckets, generation: 1, learned: None })
    }

    /// The table's size in MiB.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 1;
        self.learned = None;
    }

    /// Lends the memory of about `entries` entries (whole buckets, at least
    /// one, at most the whole table) as plain slots of two words, all 0:
    /// perft keeps its counts there rather than in a table of its own. What
    /// the table held there is forgotten, and the slots are emptied again
    /// when the loan ends.
    pub fn lend(&mut self, entries: usize) -> LentSlots<'_> {
        let buckets = entries.div_ceil(BUCKET).clamp(1, self.buckets.len());
        let lent = &mut self.buckets[..buckets];
        lent.iter_mut().for_each(|b| *b = Bucket::default());
        LentSlots { buckets: lent }
    }

    /// Marks the start of a new search, so old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation % 63 + 1;
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts fetching the bucket of `key` into the cache, for a probe soon
    /// after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.buckets[self.bucket_index(key)]);
    }

    /// The entry stored for `key`, if one is.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets[self.bucket_index(key)];
        let entry = bucket.0.iter().map(Entry::load).find(|(k, e)| e.meta != 0 && *k == key)?.1;
        Some(Hit {
            mv: (entry.mv != u16::MAX).then_some(entry.mv),
            score: entry.score as i32,
            depth: entry.depth as u32,
            bound: match entry.meta & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    /// Stores a node's result, replacing the least useful entry of its bucket.
    pub fn store(&self, key: u64, mv: Option<u16>, score: i32, depth: u32, bound: Bound) {
        let generation = self.generation;
        let bucket = &self.buckets[self.bucket_index(key)];
        let slots = [bucket.0[0].load(), bucket.0[1].load(), bucket.0[2].load(), bucket.0[3].load()];
        // Same position, else an empty slot, else the shallowest of the oldest.
        let slot = match slots.iter().position(|(k, e)| e.meta != 0 && *k == key) {
            Some(i) => i,
            None => (0..BUCKET)
                .min_by_key(|&i| {
                    let e = slots[i].1;
                    let stale = e.meta == 0 || e.meta >> 2 != generation;
                    (!stale, e.meta != 0, e.depth)
                })
                .unwrap_or(0),
        };
        let (old_key, old) = slots[slot];
        let keep_move = old.meta != 0 && old_key == key && mv.is_none();
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let fields = Fields {
            mv: if keep_move { old.mv } else { mv.unwrap_or(u16::MAX) },
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.min(255) as u8,
            meta: (generation << 2) | bound_bits,
        };
        bucket.0[slot].save(key, fields);
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter().map(|e| e.load().1))
            .filter(|e| e.meta != 0 && e.meta >> 2 == self.generation)
            .count();
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

/// Part of the table lent out as slots of two plain words (see
/// [`TranspositionTable::lend`]); emptied when dropped.
pub struct LentSlots<'a> {
    buckets: &'a mut [Bucket],
}

impl LentSlots<'_> {
    /// How many slots there are.
    pub fn len(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    /// Whether there are none (never: at least one bucket is lent).
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// The two words of slot `i`.
    pub fn words(&self, i: usize) -> [u64; 2] {
        let entry = &self.buckets[i / BUCKET].0[i % BUCKET];
        [entry.check.load(Relaxed), entry.data.load(Relaxed)]
    }

    /// Writes slot `i`.
    pub fn set_words(&mut self, i: usize, words: [u64; 2]) {
        let entry = &mut self.buckets[i / BUCKET].0[i % BUCKET];
        *entry.check.get_mut() = words[0];
        *entry.data.get_mut() = words[1];
    }
}

impl Drop for LentSlots<'_> {
    fn drop(&mut self) {
        // Words that mean nothing to the table: empty again.
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, Some(7), -120, 5, Bound::Lower);
        let hit = tt.probe(42).expect("stored entry");
        assert_eq!((hit.mv, hit.score, hit.depth, hit.bound), (Some(7), -120, 5, Bound::Lower));
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn a_bucket_keeps_four_positions() {
        let tt = TranspositionTable::new(1);
        // Keys that differ only in low bits land in the same bucket.
        for k in 0..4u64 {
            tt.store(k, None, k as i32, 1, Bound::Exact);
        }
        assert!((0..4u64).all(|k| tt.probe(k).is_some()));
    }
}

#[cfg(test)]
mod sharing_tests {
    use super::*;

    #[test]
    fn threads_writing_at_once_never_read_a_mixed_entry() {
        // Every thread stores entries whose score is a function of the key;
        // any hit must carry the score of its own key.
        let tt = TranspositionTable::new(1);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = ((i * 4 + t) % 4096) | (1 << 40);
                        tt.store(key, Some(key as u16), (key % 1000) as i32, 3, Bound::Exact);
                        if let Some(hit) = tt.probe(key ^ 4) {
                            assert_eq!(hit.score, ((key ^ 4) % 1000) as i32);
                            assert_eq!(hit.mv, Some((key ^ 4) as u16));
                        }
                    }
                });
            }
        });
    }
}
