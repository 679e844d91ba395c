//! The proof search's table: for each position (by its full key, see
//! [`crate::solve::buckets`]) the verdict of each seat and bounds on the
//! plies it needs to win.

use crate::solve::buckets::{work_of, Buckets, KeyWord};

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

/// What a position's entry holds (see [`Buckets`]).
#[derive(Clone, Copy)]
struct Data {
    /// Two bits per seat: 0 unknown, 1 wins, 2 fails.
    verdicts: u8,
    /// Bounds on the plies each seat needs to win here: it cannot win in
    /// fewer than `lower`, it can within `upper` ([`UNKNOWN`]: not known).
    lower: [u8; 2],
    upper: [u8; 2],
}

impl Default for Data {
    fn default() -> Self {
        Data { verdicts: 0, lower: [0; 2], upper: [UNKNOWN; 2] }
    }
}

/// The table (see the module documentation).
pub struct Table(Width);

enum Width {
    Narrow(Buckets<u64, Data>),
    /// Five entries of 24 bytes a bucket of two cache lines.
    Wide(Buckets<[u64; 2], Data, 5>),
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

fn known(entry: Option<&Data>) -> Known {
    match entry {
        Some(e) => Known {
            verdicts: [verdict_of(e.verdicts), verdict_of(e.verdicts >> 2)],
            lower: e.lower.map(u32::from),
            upper: e.upper.map(|u| if u == UNKNOWN { u32::MAX } else { u32::from(u) }),
        },
        None => Known::NOTHING,
    }
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
        with_buckets!(&self.0, b => b.len())
    }

    /// Whether no entry is in use.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the buckets take.
    pub fn bytes(&self) -> usize {
        with_buckets!(&self.0, b => b.bytes())
    }

    /// Entries given up to make room.
    pub fn replaced(&self) -> u64 {
        with_buckets!(&self.0, b => b.replaced())
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
            Width::Narrow(b) => b.prefetch(u64::of(key)),
            Width::Wide(b) => b.prefetch(<[u64; 2]>::of(key)),
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
    }

    #[test]
    fn the_table_grows_to_its_limit_and_then_replaces() {
        for key_bits in [64, 128] {
            let limit = 96 << 10;
            let mut table = Table::new(key_bits, limit);
            for key in 1..=100_000u128 {
                table.set_verdict(key * 0x1_0001, 1, Verdict::Fails, key as u64);
            }
            // At the limit, counting the old buckets while it grew.
            assert!(table.bytes() * 3 / 2 <= limit && table.bytes() * 3 > limit, "{}", table.bytes());
            // Four entries a bucket of one cache line, five of two with wide keys.
            let slots = if key_bits == 64 { table.bytes() / 64 * 4 } else { table.bytes() / 128 * 5 };
            assert!(table.len() <= slots && table.len() > slots * 9 / 10, "{} of {slots}", table.len());
            assert!(table.replaced() > 90_000);
            // What is there is right.
            let kept =
                (1..=100_000u128).filter(|&k| table.get(k * 0x1_0001).verdicts[1] == Verdict::Fails).count();
            assert_eq!(kept, table.len());
        }
    }
}
