//! The proof search's table: what is known of each position, keyed by the
//! position's full 128-bit key (compared whole, never a hash of it), in
//! buckets of a few entries. It grows up to the memory limit and then
//! replaces: a full bucket gives up the entry that cost the least work to
//! find. Nothing in it is ever wrong, so losing an entry only costs the
//! time to find it again.

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

/// One position's entry: 24 bytes.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The key; `[0, 0]` marks an empty slot (no position has that key).
    key: [u64; 2],
    /// Two bits per seat: 0 unknown, 1 wins, 2 fails.
    verdicts: u8,
    /// About log2 of the nodes it took to find: what replacement keeps.
    work: u8,
    /// Bounds on the plies each seat needs to win here: it cannot win in
    /// fewer than `lower`, it can within `upper` ([`UNKNOWN`]: not known
    /// to).
    lower: [u8; 2],
    upper: [u8; 2],
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

const SLOTS_PER_BUCKET: usize = 4;
/// The table's first size, in slots.
const FIRST_SLOTS: usize = 1 << 14;
/// Bytes a slot takes.
pub const BYTES_PER_SLOT: usize = std::mem::size_of::<Entry>();

/// The table (see the module documentation).
pub struct Table {
    slots: Vec<Entry>,
    /// Entries in use.
    len: usize,
    /// The most slots the memory limit allows.
    max_slots: usize,
    /// Entries given up for others.
    replaced: u64,
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

/// A 64-bit finaliser (splitmix64's): every input bit moves every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where a key's two buckets start (the mix only spreads keys; it is
/// never compared). A key goes into the emptier of the two, which keeps
/// buckets from overflowing long before the table is full.
fn buckets_of(key: [u64; 2], buckets: usize) -> [usize; 2] {
    let h = mix(key[0] ^ mix(key[1]));
    [(h as usize & (buckets - 1)), ((h >> 32) as usize & (buckets - 1))].map(|b| b * SLOTS_PER_BUCKET)
}

fn split(key: u128) -> [u64; 2] {
    assert!(key != 0, "no position has the key 0");
    [key as u64, (key >> 64) as u64]
}

impl Table {
    /// An empty table that grows within `max_bytes`, counting the moment
    /// it doubles (the old slots and the new, half again as many).
    pub fn new(max_bytes: usize) -> Table {
        let most = (max_bytes / 3 * 2 / BYTES_PER_SLOT).max(SLOTS_PER_BUCKET);
        // A power of two of buckets.
        let max_slots = (most / SLOTS_PER_BUCKET + 1).next_power_of_two() / 2 * SLOTS_PER_BUCKET;
        let first = FIRST_SLOTS.min(max_slots);
        Table { slots: vec![Entry::default(); first], len: 0, max_slots, replaced: 0 }
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is in use.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the slots take.
    pub fn bytes(&self) -> usize {
        self.slots.len() * BYTES_PER_SLOT
    }

    /// Entries given up to make room.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    fn find(&self, key: [u64; 2]) -> Option<&Entry> {
        let [first, second] = buckets_of(key, self.slots.len() / SLOTS_PER_BUCKET);
        let bucket = |start: usize| self.slots[start..start + SLOTS_PER_BUCKET].iter();
        bucket(first).chain(bucket(second)).find(|e| e.key == key)
    }

    /// What is known of the position with this key.
    pub fn get(&self, key: u128) -> Known {
        match self.find(split(key)) {
            Some(e) => Known {
                verdicts: [verdict_of(e.verdicts), verdict_of(e.verdicts >> 2)],
                lower: e.lower.map(u32::from),
                upper: e.upper.map(|u| if u == UNKNOWN { u32::MAX } else { u32::from(u) }),
            },
            None => Known::NOTHING,
        }
    }

    /// Records a seat's verdict (never `Unknown`); `work` is the nodes it
    /// took. A seat that wins means the other seat fails, and is recorded
    /// so.
    pub fn set_verdict(&mut self, key: u128, seat: usize, verdict: Verdict, work: u64) {
        let other = match verdict {
            Verdict::Wins => Verdict::Fails,
            _ => Verdict::Unknown,
        };
        let entry = self.entry(split(key), work);
        let mut bits = [entry.verdicts & 3, entry.verdicts >> 2 & 3];
        bits[seat] = verdict_bits(verdict);
        if other != Verdict::Unknown {
            bits[1 - seat] = verdict_bits(other);
        }
        entry.verdicts = bits[0] | bits[1] << 2;
    }

    /// Records that `seat` cannot win in fewer than `lower` plies, and
    /// wins within `upper` (at most [`MAX_PLIES`]) when given.
    pub fn set_bounds(&mut self, key: u128, seat: usize, lower: u32, upper: Option<u32>, work: u64) {
        let entry = self.entry(split(key), work);
        entry.lower[seat] = entry.lower[seat].max(lower.min(MAX_PLIES) as u8);
        if let Some(upper) = upper.filter(|&u| u <= MAX_PLIES) {
            entry.upper[seat] = entry.upper[seat].min(upper as u8);
        }
    }

    /// The entry of `key`, made when missing (growing the table or giving
    /// up another entry).
    fn entry(&mut self, key: [u64; 2], work: u64) -> &mut Entry {
        let work = (64 - work.leading_zeros()) as u8;
        if self.find(key).is_none()
            && self.len * 4 >= self.slots.len() * 3
            && self.slots.len() < self.max_slots
        {
            self.grow();
        }
        let index = match self.slot_of(key) {
            Ok(index) => index,
            Err(index) => {
                if self.slots[index].key == [0, 0] {
                    self.len += 1;
                } else {
                    self.replaced += 1;
                }
                self.slots[index] = Entry { key, verdicts: 0, work: 0, lower: [0; 2], upper: [UNKNOWN; 2] };
                index
            }
        };
        let entry = &mut self.slots[index];
        entry.work = entry.work.max(work);
        entry
    }

    /// The slot holding `key` (`Ok`), or the one it should go to (`Err`):
    /// an empty slot in the emptier bucket, or else the one of the two
    /// buckets that cost the least work.
    fn slot_of(&self, key: [u64; 2]) -> Result<usize, usize> {
        let buckets = buckets_of(key, self.slots.len() / SLOTS_PER_BUCKET);
        let slots = || buckets.iter().flat_map(|&start| start..start + SLOTS_PER_BUCKET);
        if let Some(found) = slots().find(|&i| self.slots[i].key == key) {
            return Ok(found);
        }
        let used = |start: usize| {
            self.slots[start..start + SLOTS_PER_BUCKET].iter().filter(|e| e.key != [0, 0]).count()
        };
        let emptier = if used(buckets[1]) < used(buckets[0]) { buckets[1] } else { buckets[0] };
        let empty = (emptier..emptier + SLOTS_PER_BUCKET).find(|&i| self.slots[i].key == [0, 0]);
        Err(empty.unwrap_or_else(|| slots().min_by_key(|&i| self.slots[i].work).unwrap_or(emptier)))
    }

    /// Twice the slots, every entry moved over.
    fn grow(&mut self) {
        let doubled = vec![Entry::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.len = 0;
        for entry in old.into_iter().filter(|e| e.key != [0, 0]) {
            match self.slot_of(entry.key) {
                Err(index) if self.slots[index].key == [0, 0] => {
                    self.slots[index] = entry;
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
    fn verdicts_and_bounds_are_kept_per_key() {
        let mut table = Table::new(1 << 20);
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
        // A key that differs only in its upper half is another position.
        assert_eq!(table.get(9 | 1 << 100), Known::NOTHING);
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn the_table_grows_to_its_limit_and_then_replaces() {
        let limit = 6144 * BYTES_PER_SLOT;
        let mut table = Table::new(limit);
        for key in 1..=100_000u128 {
            table.set_verdict(key * 0x1_0000_0001, 1, Verdict::Fails, key as u64);
        }
        // At the limit, counting the old slots while it doubled.
        assert_eq!(table.bytes(), 4096 * BYTES_PER_SLOT);
        assert!(table.bytes() * 3 / 2 <= limit);
        assert!(table.len() <= 4096 && table.len() > 3800, "{}", table.len());
        assert!(table.replaced() > 90_000);
        // What is there is right.
        let kept =
            (1..=100_000u128).filter(|&k| table.get(k * 0x1_0000_0001).verdicts[1] == Verdict::Fails).count();
        assert_eq!(kept, table.len());
    }
}
