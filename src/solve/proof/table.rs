//! The proof search's table: what is known of each position, keyed by the
//! position's full key (compared whole, never a hash of it: 64 bits where
//! the board's keys fit, as on 5x5 and 9x3, else 128). Buckets of four
//! entries fill one or two cache lines; a key goes into its bucket, or the
//! next one with room when its own is full, so most look-ups read one
//! line. The table grows up to the memory limit and then replaces: a full
//! chain of buckets gives up the entry that cost the least work to find. Nothing in
//! it is ever wrong, so losing an entry only costs the time to find it
//! again.

/// Who wins a position, for one player: not known yet, that player can
/// force a win, or cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not proved either way.
    Unknown,
    /// The player can force a win.
    Wins,
    /// The player cannot force a win (the other wins, or nobody does).
    Fails,
}

/// An upper bound not known.
const UNKNOWN: u8 = u8::MAX;

/// The longest win the bounds hold, in plies.
pub const MAX_PLIES: u32 = UNKNOWN as u32 - 1;

/// What the table holds for a position (see [`Table::get`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The verdict for each seat.
    pub verdicts: [Verdict; 2],
    /// Each seat cannot win in fewer plies than this.
    pub lower: [u32; 2],
    /// Each seat wins within this many plies (`u32::MAX`: not known to).
    pub upper: [u32; 2],
}

impl Known {
    /// Nothing known.
    pub const NOTHING: Known = Known { verdicts: [Verdict::Unknown; 2], lower: [0; 2], upper: [u32::MAX; 2] };
}

/// A key as a slot holds it; the default value marks an empty slot (no
/// position has the key 0).
trait KeyWord: Copy + Default + Eq {
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

/// One position's entry: 16 bytes with a 64-bit key, 24 with 128.
#[derive(Clone, Copy, Default)]
struct Entry<K> {
    key: K,
    /// Two bits per seat: 0 unknown, 1 wins, 2 fails.
    verdicts: u8,
    /// About log2 of the nodes it took to find: what replacement keeps.
    work: u8,
    /// Bounds on the plies each seat needs to win here: it cannot win in
    /// fewer than `lower`, it can within `upper` ([`UNKNOWN`]: not known).
    lower: [u8; 2],
    upper: [u8; 2],
}

const SLOTS_PER_BUCKET: usize = 4;
/// Buckets a key may overflow to, its own included.
const PROBED: usize = 4;

/// Four entries on their own cache line(s).
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket<K> {
    slots: [Entry<K>; SLOTS_PER_BUCKET],
}

/// The buckets of one key width.
struct Buckets<K> {
    buckets: Vec<Bucket<K>>,
    len: usize,
    most: usize,
    replaced: u64,
}

/// Where a slot is: bucket and place in it.
type Place = (usize, usize);

impl<K: KeyWord> Buckets<K> {
    fn new(max_bytes: usize) -> Buckets<K> {
        let bytes = std::mem::size_of::<Bucket<K>>();
        // The old buckets and the new, half again as many, while doubling.
        let fit = (max_bytes / 3 * 2 / bytes).max(2);
        let most = (fit / 2 + 1).next_power_of_two();
        Buckets { buckets: vec![Bucket::default(); most.min(1 << 12)], len: 0, most, replaced: 0 }
    }

    fn home(&self, key: K) -> usize {
        key.spread() as usize & (self.buckets.len() - 1)
    }

    /// The buckets a key may be in: its own and the next few, in order.
    fn chain(&self, key: K) -> impl Iterator<Item = usize> {
        let (home, mask) = (self.home(key), self.buckets.len() - 1);
        (0..PROBED).map(move |i| (home + i) & mask)
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

    fn find(&self, key: K) -> Option<&Entry<K>> {
        self.place(key).ok().map(|(b, i)| &self.buckets[b].slots[i])
    }

    fn entry(&mut self, key: K, work: u8) -> &mut Entry<K> {
        let mut place = self.place(key);
        // Grow at three quarters full, or at half when a chain is full.
        let slots = |b: &Self| b.buckets.len() * SLOTS_PER_BUCKET;
        while place.is_err()
            && self.buckets.len() < self.most
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
                let places: Vec<Place> =
                    self.chain(key).flat_map(|b| (0..SLOTS_PER_BUCKET).map(move |i| (b, i))).collect();
                places.into_iter().min_by_key(|&(b, i)| self.buckets[b].slots[i].work).unwrap_or((0, 0))
            }
        };
        let entry = &mut self.buckets[b].slots[i];
        if entry.key != key {
            *entry = Entry { key, verdicts: 0, work: 0, lower: [0; 2], upper: [UNKNOWN; 2] };
        }
        entry.work = entry.work.max(work);
        entry
    }

    /// Twice the buckets, every entry moved over.
    fn grow(&mut self) {
        let doubled = vec![Bucket::default(); self.buckets.len() * 2];
        let old = std::mem::replace(&mut self.buckets, doubled);
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

/// The table (see the module documentation).
pub struct Table(Width);

enum Width {
    Narrow(Buckets<u64>),
    Wide(Buckets<[u64; 2]>),
}

/// Runs `$body` on the table's buckets, whatever their key width.
macro_rules! with_buckets {
    ($table:expr, $b:ident => $body:expr) => {
        match $table {
            Width::Narrow($b) => $body,
            Width::Wide($b) => $body,
        }
    };
}

fn verdict_bits(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Unknown => 0,
        Verdict::Wins => 1,
        Verdict::Fails => 2,
    }
}

fn verdict_of(bits: u8) -> Verdict {
    match bits & 3 {
        1 => Verdict::Wins,
        2 => Verdict::Fails,
        _ => Verdict::Unknown,
    }
}

fn known<K>(entry: Option<&Entry<K>>) -> Known {
    match entry {
        Some(e) => Known {
            verdicts: [verdict_of(e.verdicts), verdict_of(e.verdicts >> 2)],
            lower: e.lower.map(u32::from),
            upper: e.upper.map(|u| if u == UNKNOWN { u32::MAX } else { u32::from(u) }),
        },
        None => Known::NOTHING,
    }
}

/// About log2 of a count, for replacement.
fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

impl Table {
    /// An empty table for keys of `key_bits` bits that grows within
    /// `max_bytes`.
    pub fn new(key_bits: usize, max_bytes: usize) -> Table {
        Table(if key_bits <= 64 {
            Width::Narrow(Buckets::new(max_bytes))
        } else {
            Width::Wide(Buckets::new(max_bytes))
        })
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        with_buckets!(&self.0, b => b.len)
    }

    /// Whether no entry is in use.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the buckets take.
    pub fn bytes(&self) -> usize {
        with_buckets!(&self.0, b => b.buckets.len() * std::mem::size_of_val(&b.buckets[0]))
    }

    /// Entries given up to make room.
    pub fn replaced(&self) -> u64 {
        with_buckets!(&self.0, b => b.replaced)
    }

    /// What is known of the position with this key (never 0).
    pub fn get(&self, key: u128) -> Known {
        match &self.0 {
            Width::Narrow(b) => known(b.find(u64::of(key))),
            Width::Wide(b) => known(b.find(<[u64; 2]>::of(key))),
        }
    }

    /// Starts loading the bucket a [`Table::get`] of `key` reads first, so
    /// that looking up many children costs one wait for memory, not one
    /// each.
    pub fn prefetch(&self, key: u128) {
        match &self.0 {
            Width::Narrow(b) => crate::prefetch::prefetch(&b.buckets[b.home(u64::of(key))]),
            Width::Wide(b) => crate::prefetch::prefetch(&b.buckets[b.home(<[u64; 2]>::of(key))]),
        }
    }

    /// Records a seat's verdict (never `Unknown`); `work` is the nodes it
    /// took. A seat that wins means the other seat fails, and is recorded
    /// so.
    pub fn set_verdict(&mut self, key: u128, seat: usize, verdict: Verdict, work: u64) {
        let set = |verdicts: &mut u8| {
            let mut bits = [*verdicts & 3, *verdicts >> 2 & 3];
            bits[seat] = verdict_bits(verdict);
            if verdict == Verdict::Wins {
                bits[1 - seat] = verdict_bits(Verdict::Fails);
            }
            *verdicts = bits[0] | bits[1] << 2;
        };
        match &mut self.0 {
            Width::Narrow(b) => set(&mut b.entry(u64::of(key), work_of(work)).verdicts),
            Width::Wide(b) => set(&mut b.entry(<[u64; 2]>::of(key), work_of(work)).verdicts),
        }
    }

    /// Records that `seat` cannot win in fewer than `lower` plies, and
    /// wins within `upper` (at most [`MAX_PLIES`]) when given.
    pub fn set_bounds(&mut self, key: u128, seat: usize, lower: u32, upper: Option<u32>, work: u64) {
        let set = |low: &mut [u8; 2], up: &mut [u8; 2]| {
            low[seat] = low[seat].max(lower.min(MAX_PLIES) as u8);
            if let Some(upper) = upper.filter(|&u| u <= MAX_PLIES) {
                up[seat] = up[seat].min(upper as u8);
            }
        };
        match &mut self.0 {
            Width::Narrow(b) => {
                let e = b.entry(u64::of(key), work_of(work));
                set(&mut e.lower, &mut e.upper)
            }
            Width::Wide(b) => {
                let e = b.entry(<[u64; 2]>::of(key), work_of(work));
                set(&mut e.lower, &mut e.upper)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_bounds_are_kept_per_key() {
        for key_bits in [64, 128] {
            let mut table = Table::new(key_bits, 1 << 20);
            assert_eq!(table.get(7), Known::NOTHING);
            table.set_verdict(7, 0, Verdict::Wins, 100);
            assert_eq!(table.get(7).verdicts, [Verdict::Wins, Verdict::Fails]);
            table.set_verdict(9, 1, Verdict::Fails, 1);
            assert_eq!(table.get(9).verdicts, [Verdict::Unknown, Verdict::Fails]);
            table.set_bounds(9, 0, 3, Some(11), 1);
            table.set_bounds(9, 0, 5, Some(20), 1);
            table.set_bounds(9, 1, 2, None, 1);
            let known = table.get(9);
            assert_eq!((known.lower, known.upper), ([5, 2], [11, u32::MAX]));
            assert_eq!(table.len(), 2);
        }
        // Keys that differ only in their upper half are other positions.
        let mut wide = Table::new(128, 1 << 20);
        wide.set_verdict(9, 1, Verdict::Fails, 1);
        assert_eq!(wide.get(9 | 1 << 100), Known::NOTHING);
        assert_eq!(std::mem::size_of::<Bucket<u64>>(), 64);
    }

    #[test]
    fn the_table_grows_to_its_limit_and_then_replaces() {
        for key_bits in [64, 128] {
            let limit = 96 << 10;
            let mut table = Table::new(key_bits, limit);
            for key in 1..=100_000u128 {
                table.set_verdict(key * 0x1_0001, 1, Verdict::Fails, key as u64);
            }
            // At the limit, counting the old buckets while it doubled.
            assert!(table.bytes() * 3 / 2 <= limit && table.bytes() * 3 > limit, "{}", table.bytes());
            let slots = table.bytes() / std::mem::size_of::<Bucket<u64>>() * SLOTS_PER_BUCKET
                / if key_bits == 64 { 1 } else { 2 };
            assert!(table.len() <= slots && table.len() > slots * 9 / 10, "{} of {slots}", table.len());
            assert!(table.replaced() > 90_000);
            // What is there is right.
            let kept =
                (1..=100_000u128).filter(|&k| table.get(k * 0x1_0001).verdicts[1] == Verdict::Fails).count();
            assert_eq!(kept, table.len());
        }
    }
}
