//! The exact solvers' table of what is known of each position: keyed by
//! the position's full key (compared whole, never a hash of it: 64 bits
//! where the keys fit, else 128), with whatever a solver keeps per position
//! as its payload. A bucket fills one cache line with four entries (64-bit
//! keys) or two with five (128-bit keys, the solvers' 24-byte entries); a
//! key goes into its bucket, or the next one with room when its own is
//! full, so most look-ups read one line. The table grows up to its memory
//! limit and then replaces: a full chain of buckets gives up the entry
//! that cost the least work to find. Nothing in it is ever wrong, so
//! losing an entry only costs the time to find it again.

/// A key as a slot holds it; the default value marks an empty slot (no
/// position has the key 0).
pub trait KeyWord: Copy + Default + Eq {
    /// The key of a position, as this width holds it.
    fn of(key: u128) -> Self;
    /// Spreads the key over the buckets (never compared).
    fn spread(self) -> u64;
}

/// A 64-bit finaliser (splitmix64's): every input bit moves every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl KeyWord for u64 {
    fn of(key: u128) -> u64 {
        debug_assert!(key >> 64 == 0, "a narrow table's keys fit in 64 bits");
        key as u64
    }
    fn spread(self) -> u64 {
        mix(self)
    }
}

impl KeyWord for [u64; 2] {
    fn of(key: u128) -> [u64; 2] {
        [key as u64, (key >> 64) as u64]
    }
    fn spread(self) -> u64 {
        mix(self[0] ^ mix(self[1]))
    }
}

/// One position's entry: its key, the work it took and the payload.
#[derive(Clone, Copy, Default)]
struct Entry<K, P> {
    key: K,
    /// About log2 of the nodes it took to find: what replacement keeps.
    work: u8,
    payload: P,
}

/// Buckets a key may overflow to, its own included.
const PROBED: usize = 4;
/// Buckets a table starts with, when its limit allows.
const FIRST_BUCKETS: usize = 1 << 12;

/// `S` entries on their own cache line(s): four of 16 bytes fill one line,
/// five of 24 bytes (wide keys) two.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket<K, P, const S: usize = 4> {
    slots: [Entry<K, P>; S],
}

impl<K: Copy + Default, P: Copy + Default, const S: usize> Default for Bucket<K, P, S> {
    fn default() -> Self {
        Bucket { slots: [Entry::default(); S] }
    }
}

/// The table for keys of one width, `S` entries a bucket.
pub struct Buckets<K, P, const S: usize = 4> {
    buckets: Vec<Bucket<K, P, S>>,
    len: usize,
    /// The memory limit, in buckets.
    budget: usize,
    replaced: u64,
}

/// `n` empty buckets, in huge pages where the system gives them (a table
/// of gigabytes probed at random otherwise misses the processor's address
/// cache at almost every probe; see [`crate::huge_pages`]).
fn empty_buckets<K: Copy + Default, P: Copy + Default, const S: usize>(n: usize) -> Vec<Bucket<K, P, S>> {
    let mut buckets = Vec::with_capacity(n);
    crate::huge_pages::advise(buckets.spare_capacity_mut());
    buckets.resize(n, Bucket::default());
    buckets
}

/// Where a slot is: bucket and place in it.
type Place = (usize, usize);

/// About log2 of a count, for replacement.
pub fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

impl<K: KeyWord, P: Copy + Default, const S: usize> Buckets<K, P, S> {
    /// An empty table that grows within `max_bytes`.
    pub fn new(max_bytes: usize) -> Buckets<K, P, S> {
        let bytes = std::mem::size_of::<Bucket<K, P, S>>();
        let budget = (max_bytes / bytes).max(3);
        // Growing holds the old buckets and the new: start within two thirds.
        let first = FIRST_BUCKETS.min(budget / 3 * 2);
        Buckets { buckets: empty_buckets(first), len: 0, budget, replaced: 0 }
    }

    /// The bucket count the table grows to next: twice its own while it
    /// could double again after that (the old and the new fit in the limit
    /// together), else at once all that is left beside the old (past the
    /// double when the limit is more than three times the table); no more
    /// than it has when that is all. The last table takes a half to three
    /// quarters of the limit.
    fn next_size(&self) -> usize {
        let n = self.buckets.len();
        if self.budget.saturating_sub(2 * n) >= 2 * n {
            2 * n
        } else {
            self.budget.saturating_sub(n).max(n)
        }
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is in use.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the buckets take.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket<K, P, S>>()
    }

    /// Entries given up to make room.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// The key's own bucket: its spread scaled to the bucket count (a
    /// multiply and a shift; the count need not be a power of two).
    fn home(&self, key: K) -> usize {
        ((u128::from(key.spread()) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts loading the bucket a look-up of `key` reads first.
    pub fn prefetch(&self, key: K) {
        crate::prefetch::prefetch(&self.buckets[self.home(key)]);
    }

    /// The buckets a key may be in: its own and the next few, in order.
    fn chain(&self, key: K) -> impl Iterator<Item = usize> {
        let (home, n) = (self.home(key), self.buckets.len());
        (0..PROBED).map(move |i| if home + i < n { home + i } else { (home + i) % n })
    }

    /// The slot holding `key` (`Ok`), or where it would go (`Err`, `None`
    /// when its bucket and the next ones are full).
    fn place(&self, key: K) -> Result<Place, Option<Place>> {
        for bucket in self.chain(key) {
            let slots = &self.buckets[bucket].slots;
            if let Some(i) = slots.iter().position(|e| e.key == key) {
                return Ok((bucket, i));
            }
            // A key overflows to the next bucket only from a full one.
            if let Some(i) = slots.iter().position(|e| e.key == K::default()) {
                return Err(Some((bucket, i)));
            }
        }
        Err(None)
    }

    /// The payload kept for `key`, if any.
    pub fn find(&self, key: K) -> Option<&P> {
        self.place(key).ok().map(|(b, i)| &self.buckets[b].slots[i].payload)
    }

    /// The payload for `key`, made (as `P::default()`) when missing, with
    /// its work raised to at least `work`.
    pub fn entry(&mut self, key: K, work: u8) -> &mut P {
        let mut place = self.place(key);
        // Grow at three quarters full, or at half when a chain is full.
        let slots = |b: &Self| b.buckets.len() * S;
        while place.is_err()
            && self.next_size() > self.buckets.len()
            && (self.len * 4 >= slots(self) * 3 || (place == Err(None) && self.len * 2 >= slots(self)))
        {
            self.grow();
            place = self.place(key);
        }
        let (b, i) = match place {
            Ok(found) => found,
            Err(Some(empty)) => {
                self.len += 1;
                empty
            }
            Err(None) => {
                // Full: the entry of the chain that cost the least.
                self.replaced += 1;
                let places: Vec<Place> = self.chain(key).flat_map(|b| (0..S).map(move |i| (b, i))).collect();
                places.into_iter().min_by_key(|&(b, i)| self.buckets[b].slots[i].work).unwrap_or((0, 0))
            }
        };
        let entry = &mut self.buckets[b].slots[i];
        if entry.key != key {
            *entry = Entry { key, work: 0, payload: P::default() };
        }
        entry.work = entry.work.max(work);
        &mut entry.payload
    }

    /// More buckets ([`Self::next_size`]), every entry moved over.
    fn grow(&mut self) {
        let wider = empty_buckets(self.next_size());
        let old = std::mem::replace(&mut self.buckets, wider);
        self.len = 0;
        for entry in old.iter().flat_map(|b| b.slots.iter()).filter(|e| e.key != K::default()) {
            match self.place(entry.key) {
                Err(Some((b, i))) => {
                    self.buckets[b].slots[i] = *entry;
                    self.len += 1;
                }
                _ => self.replaced += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_kept_per_key_and_made_on_first_use() {
        let mut narrow: Buckets<u64, u32> = Buckets::new(1 << 20);
        assert!(narrow.find(7).is_none());
        *narrow.entry(7, 1) = 70;
        *narrow.entry(9, 1) += 9;
        assert_eq!((narrow.find(7), narrow.find(9), narrow.len()), (Some(&70), Some(&9), 2));
        // Keys that differ only in their upper half are other positions.
        let mut wide: Buckets<[u64; 2], u32> = Buckets::new(1 << 20);
        *wide.entry([9, 0], 1) = 1;
        assert!(wide.find([9, 1]).is_none());
        assert_eq!(std::mem::size_of::<Bucket<u64, [u8; 6]>>(), 64);
        // Wide keys: five entries in two lines, for the payloads the
        // solvers keep (5 bytes for the proof search, 6 for alpha-beta).
        assert_eq!(std::mem::size_of::<Bucket<[u64; 2], [u8; 5], 5>>(), 128);
        assert_eq!(std::mem::size_of::<Bucket<[u64; 2], [u16; 3], 5>>(), 128);
    }

    #[test]
    fn the_table_grows_to_its_limit_and_then_replaces_the_cheapest() {
        let limit = 96 << 10;
        let mut table: Buckets<[u64; 2], u32> = Buckets::new(limit);
        for key in 1..=100_000u64 {
            *table.entry([key * 0x1_0001, 3], work_of(key)) = key as u32;
        }
        // At the limit, counting the old buckets while it doubled: within a
        // bucket of two thirds of it.
        let bucket = std::mem::size_of::<Bucket<[u64; 2], u32>>();
        assert!(
            table.bytes() * 3 / 2 <= limit && table.bytes() + bucket > limit * 2 / 3,
            "{}",
            table.bytes()
        );
        assert!(table.replaced() > 90_000);
        // What is there is right, and the costly entries stayed.
        let kept: Vec<u64> =
            (1..=100_000u64).filter(|&k| table.find([k * 0x1_0001, 3]) == Some(&(k as u32))).collect();
        assert_eq!(kept.len(), table.len());
        assert!(kept.iter().filter(|&&k| k > 50_000).count() > kept.len() / 2);
    }

    /// A table limited to `buckets` buckets after 100,000 keys, each of
    /// what it kept right.
    fn filled(buckets: usize) -> Buckets<u64, u32> {
        let mut table: Buckets<u64, u32> = Buckets::new(buckets * std::mem::size_of::<Bucket<u64, u32>>());
        assert_eq!(table.buckets.len(), 4_096);
        for key in 1..=100_000u64 {
            *table.entry(key, 1) = key as u32;
        }
        let kept = (1..=100_000u64).filter(|&k| table.find(k) == Some(&(k as u32))).count();
        assert_eq!(kept, table.len());
        table
    }

    #[test]
    fn a_growth_after_which_none_fits_takes_all_that_is_left() {
        // A limit of 14,336 buckets: 4,096, then at once 10,240 (beside the
        // 4,096 being moved), not 8,192 on which no growth would fit.
        assert_eq!(filled(14_336).buckets.len(), 10_240);
    }

    #[test]
    fn the_last_growth_takes_what_is_left_beside_the_old_buckets() {
        // A limit of 20,480 buckets: 4,096, then 8,192, then 12,288 (16,384
        // would not fit beside the 8,192 being moved), not the 8,192 that
        // doubling alone would end on.
        let table = filled(20_480);
        assert_eq!(table.buckets.len(), 12_288);
        assert!(table.len() > 12_288 * 4 * 9 / 10 && table.replaced() > 0);
    }
}
