//! The evaluation network of two-player 9x9 Quoridor: what it reads (the
//! features), its weights (embedded, integers), and the value it gives.
//!
//! Everything is seen from the side to move, the board turned so that its
//! goal is the far row. The inputs are sparse: each wall on the board (one
//! of 128 slots) in one of 9 buckets by the region of the mover's own pawn,
//! both pawns' squares, both hands, and both shortest-path lengths. They
//! feed one hidden layer of clipped ReLU units; the output adds to it a
//! linear part over the hand-made evaluation terms ([`super::terms::Term`]),
//! so that the network learns what the terms miss. The wall and pawn part
//! of the hidden layer is kept in [`Accumulator`]s, one per side, updated
//! as moves are played (a pawn changing region makes its side's accumulator
//! start again from the walls). Weights come from `tools/nnue` (see
//! docs/evaluation-network.md); a position the network does not cover keeps the hand-made
//! evaluation.

use super::board::Quoridor;
use super::terms::TERMS;
use std::sync::OnceLock;

/// Board side the network is for.
pub const SIDE: usize = 9;
/// Wall slots: 64 horizontal centres, then 64 vertical ones.
const SLOTS: usize = 2 * (SIDE - 1) * (SIDE - 1);
/// Pawn regions the wall features are bucketed by (3 x 3).
const BUCKETS: usize = 9;
const SQUARES: usize = SIDE * SIDE;
/// Hands are counted up to 10, distances up to 24.
const HANDS: usize = 11;
const DISTANCES: usize = 25;

/// Where each group of inputs starts.
const OWN_PAWN: usize = BUCKETS * SLOTS;
const RIVAL_PAWN: usize = OWN_PAWN + SQUARES;
const OWN_HAND: usize = RIVAL_PAWN + SQUARES;
const RIVAL_HAND: usize = OWN_HAND + HANDS;
const OWN_DISTANCE: usize = RIVAL_HAND + HANDS;
const RIVAL_DISTANCE: usize = OWN_DISTANCE + DISTANCES;
/// Every input of the network.
pub const INPUTS: usize = RIVAL_DISTANCE + DISTANCES;
/// Hidden units.
pub const HIDDEN: usize = 32;
/// Most inputs on at once: 20 walls on a 9x9 board, 2 pawns, 2 hands, 2
/// distances (the walls of every hand together; at most 40 in a position
/// text that gives more).
pub const MAX_ACTIVE: usize = 46;

/// Fixed point: a hidden unit's full activation, and the scale of the
/// output weights.
const ACTIVATION_ONE: i32 = 256;
const OUTPUT_SCALE: i32 = 32;

/// The weights, as `tools/nnue/train.py` writes them (little-endian):
/// magic, input and hidden counts, term count, then the first layer
/// (i16 per input and unit), its bias (i32 per unit), the output weights
/// (i32 per unit), the output bias and the term weights (i32).
pub struct Network {
    input_weights: Vec<[i16; HIDDEN]>,
    hidden_bias: [i32; HIDDEN],
    output_weights: [i32; HIDDEN],
    output_bias: i32,
    term_weights: [i32; TERMS],
}

/// The file's first bytes.
const MAGIC: &[u8; 4] = b"TQN1";

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a network file, or one for other inputs.
    Shape(String),
    /// The file ends early or runs on.
    Length {
        /// Bytes the header promises.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Shape(what) => write!(f, "not a network for these inputs: {what}"),
            NetworkError::Length { expected, found } => {
                write!(f, "network file of {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

impl Network {
    /// Reads a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let header = 4 + 3 * 4;
        if bytes.len() < header || &bytes[..4] != MAGIC {
            return Err(NetworkError::Shape("no TQN1 header".into()));
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as usize;
        let (inputs, hidden, terms) = (word(4), word(8), word(12));
        if (inputs, hidden, terms) != (INPUTS, HIDDEN, TERMS) {
            return Err(NetworkError::Shape(format!(
                "{inputs} inputs, {hidden} hidden, {terms} terms (this build: {INPUTS}, {HIDDEN}, {TERMS})"
            )));
        }
        let expected = header + inputs * hidden * 2 + hidden * 4 * 2 + 4 + terms * 4;
        if bytes.len() != expected {
            return Err(NetworkError::Length { expected, found: bytes.len() });
        }
        let mut r = Reader { bytes, at: header };
        let mut input_weights = vec![[0i16; HIDDEN]; INPUTS];
        for row in input_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        let mut hidden_bias = [0; HIDDEN];
        hidden_bias.iter_mut().for_each(|b| *b = r.i32());
        let mut output_weights = [0; HIDDEN];
        output_weights.iter_mut().for_each(|w| *w = r.i32());
        let output_bias = r.i32();
        let mut term_weights = [0; TERMS];
        term_weights.iter_mut().for_each(|w| *w = r.i32());
        Ok(Network { input_weights, hidden_bias, output_weights, output_bias, term_weights })
    }

    /// The value for the side to move, in centi-steps, from the hidden
    /// layer's wall and pawn part (`accumulator`), the other inputs, and
    /// the evaluation terms.
    #[inline]
    pub fn evaluate(&self, accumulator: &[i32; HIDDEN], dense: [usize; 4], terms: &[i32; TERMS]) -> i32 {
        let mut hidden = *accumulator;
        for &input in &dense {
            self.add(&mut hidden, input);
        }
        let sum: i32 = hidden
            .iter()
            .zip(self.output_weights.iter())
            .map(|(&value, &weight)| value.clamp(0, ACTIVATION_ONE) * weight)
            .sum();
        let linear: i32 = terms.iter().zip(self.term_weights.iter()).map(|(t, w)| t * w).sum();
        sum / (ACTIVATION_ONE * OUTPUT_SCALE) + self.output_bias + linear
    }

    /// The hidden layer's wall and pawn part from scratch.
    pub fn accumulate(&self, inputs: &[usize]) -> [i32; HIDDEN] {
        let mut acc = self.hidden_bias;
        for &input in inputs {
            self.add(&mut acc, input);
        }
        acc
    }

    #[inline]
    fn add(&self, acc: &mut [i32; HIDDEN], input: usize) {
        for (a, &w) in acc.iter_mut().zip(self.input_weights[input].iter()) {
            *a += i32::from(w);
        }
    }

    #[inline]
    fn sub(&self, acc: &mut [i32; HIDDEN], input: usize) {
        for (a, &w) in acc.iter_mut().zip(self.input_weights[input].iter()) {
            *a -= i32::from(w);
        }
    }
}

/// The embedded network.
static WEIGHTS: &[u8] = include_bytes!("quoridor9x9.nnue");

/// The embedded network, read once; `None` (and the hand-made evaluation
/// everywhere) if the file does not fit this build.
pub fn network() -> Option<&'static Network> {
    static NETWORK: OnceLock<Option<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| match Network::from_bytes(WEIGHTS) {
            Ok(n) => Some(n),
            Err(e) => {
                log::warn!("evaluation network not used: {e}");
                None
            }
        })
        .as_ref()
}

/// A square (column, row from the seat's own side) seen by `seat`: seat 0
/// races north and sees the board as it is; seat 1 sees it upside down.
#[inline]
fn square_seen(square: usize, seat: usize) -> usize {
    let (col, row) = (square % super::bitboard::STRIDE, square / super::bitboard::STRIDE);
    let row = if seat == 0 { row } else { SIDE - 1 - row };
    row * SIDE + col
}

/// A wall slot seen by `seat` (see [`SLOTS`]).
#[inline]
fn slot_seen(centre: usize, vertical: bool, seat: usize) -> usize {
    let (x, y) = (centre % super::bitboard::STRIDE, centre / super::bitboard::STRIDE);
    let y = if seat == 0 { y } else { SIDE - y };
    (x - 1) + (SIDE - 1) * (y - 1) + if vertical { SLOTS / 2 } else { 0 }
}

/// The region of the board (3 x 3) a seen square lies in.
#[inline]
fn bucket(seen_square: usize) -> usize {
    (seen_square % SIDE) / 3 + 3 * ((seen_square / SIDE) / 3)
}

/// The hidden layer's incrementally kept part for both seats of a
/// two-player 9x9 position: bias, walls (in the seat's pawn bucket) and
/// both pawns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accumulator {
    values: [[i32; HIDDEN]; 2],
    buckets: [u8; 2],
}

impl Quoridor {
    /// Whether the embedded network evaluates this position's variant.
    #[inline]
    pub(super) fn network_applies(&self) -> bool {
        self.players == 2 && self.width as usize == SIDE && self.height as usize == SIDE
    }

    /// The accumulated inputs of `seat`: every wall, in its pawn's bucket,
    /// then both pawns.
    pub(super) fn accumulated_inputs(&self, seat: usize, out: &mut Vec<usize>) {
        let own = square_seen(self.pawns[seat] as usize, seat);
        let base = bucket(own) * SLOTS;
        for centre in self.horizontal.iter() {
            out.push(base + slot_seen(centre, false, seat));
        }
        for centre in self.vertical.iter() {
            out.push(base + slot_seen(centre, true, seat));
        }
        out.push(OWN_PAWN + own);
        out.push(RIVAL_PAWN + square_seen(self.pawns[1 - seat] as usize, seat));
    }

    /// The inputs not kept in the accumulator: hands and path lengths.
    fn dense_inputs(&self, seat: usize) -> [usize; 4] {
        let distance =
            |s: usize| self.path_profile(s).map_or(DISTANCES - 1, |(d, _)| (d as usize).min(DISTANCES - 1));
        let hand = |s: usize| (self.hand[s] as usize).min(HANDS - 1);
        [
            OWN_HAND + hand(seat),
            RIVAL_HAND + hand(1 - seat),
            OWN_DISTANCE + distance(seat),
            RIVAL_DISTANCE + distance(1 - seat),
        ]
    }

    /// Every input of `seat`'s view, for the trainer.
    pub fn network_inputs(&self, seat: usize) -> Vec<usize> {
        let mut inputs = Vec::with_capacity(MAX_ACTIVE);
        self.accumulated_inputs(seat, &mut inputs);
        inputs.extend_from_slice(&self.dense_inputs(seat));
        inputs
    }

    /// Sets up the accumulators from scratch (a new or rebuilt position).
    pub(super) fn refresh_accumulator(&mut self) {
        self.accumulator = match network() {
            Some(network) if self.network_applies() => Some(self.fresh_accumulator(network)),
            _ => None,
        };
    }

    /// Both seats' accumulators from scratch.
    pub(super) fn fresh_accumulator(&self, network: &Network) -> Accumulator {
        let mut inputs = Vec::with_capacity(MAX_ACTIVE);
        let mut values = [[0; HIDDEN]; 2];
        let mut buckets = [0; 2];
        for seat in 0..2 {
            inputs.clear();
            self.accumulated_inputs(seat, &mut inputs);
            values[seat] = network.accumulate(&inputs);
            buckets[seat] = bucket(square_seen(self.pawns[seat] as usize, seat)) as u8;
        }
        Accumulator { values, buckets }
    }

    /// The network's value for the side to move, or `None` where it does
    /// not apply (other variants, or no network in this build).
    pub(super) fn network_value(&self, terms: &[i32; TERMS]) -> Option<i32> {
        let network = network()?;
        let accumulator = self.accumulator.as_ref()?;
        let side = self.side as usize;
        Some(network.evaluate(&accumulator.values[side], self.dense_inputs(side), terms))
    }
}

impl Accumulator {
    /// After `seat`'s pawn moved from `from` to `to` (board squares) in
    /// `position` (already moved): the other seat's view changes by one
    /// rival pawn input, `seat`'s by its own pawn, or from scratch when
    /// the pawn changed region.
    pub(super) fn after_step(&mut self, position: &Quoridor, seat: usize, from: usize, to: usize) {
        let Some(network) = network() else { return };
        let other = 1 - seat;
        network.sub(&mut self.values[other], RIVAL_PAWN + square_seen(from, other));
        network.add(&mut self.values[other], RIVAL_PAWN + square_seen(to, other));
        let (old, new) = (square_seen(from, seat), square_seen(to, seat));
        if bucket(new) as u8 != self.buckets[seat] {
            let mut inputs = Vec::with_capacity(MAX_ACTIVE);
            position.accumulated_inputs(seat, &mut inputs);
            self.values[seat] = network.accumulate(&inputs);
            self.buckets[seat] = bucket(new) as u8;
        } else {
            network.sub(&mut self.values[seat], OWN_PAWN + old);
            network.add(&mut self.values[seat], OWN_PAWN + new);
        }
    }

    /// After a wall: one input more in each view.
    pub(super) fn after_wall(&mut self, centre: usize, vertical: bool) {
        let Some(network) = network() else { return };
        for seat in 0..2 {
            let input = self.buckets[seat] as usize * SLOTS + slot_seen(centre, vertical, seat);
            network.add(&mut self.values[seat], input);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;

    #[test]
    fn the_embedded_network_fits_this_build() {
        assert!(network().is_some());
    }

    #[test]
    fn inputs_are_distinct_and_in_range() {
        let mut rng = crate::rng::Rng::new(17);
        crate::games::quoridor::random_game(
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            &mut rng,
            |_| true,
            |p| {
                for seat in 0..2 {
                    let mut inputs = p.network_inputs(seat);
                    assert!(inputs.len() <= MAX_ACTIVE && inputs.iter().all(|&i| i < INPUTS));
                    let n = inputs.len();
                    inputs.sort_unstable();
                    inputs.dedup();
                    assert_eq!(inputs.len(), n, "{}", p.to_text());
                }
            },
        );
    }

    #[test]
    fn the_kept_accumulator_equals_one_built_from_scratch() {
        let Some(network) = network() else { panic!("no network") };
        let mut rng = crate::rng::Rng::new(29);
        let mut checked = 0;
        for _ in 0..20 {
            crate::games::quoridor::random_game(
                "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
                &mut rng,
                |_| true,
                |p| {
                    assert_eq!(p.accumulator, Some(p.fresh_accumulator(network)), "{}", p.to_text());
                    let again = Quoridor::from_text(&p.to_text()).unwrap();
                    assert_eq!(again.evaluate(0), p.evaluate(0));
                    checked += 1;
                },
            );
        }
        assert!(checked > 500);
    }

    #[test]
    fn other_variants_keep_the_hand_made_evaluation() {
        for text in [
            "quoridor 7x7 pawns=d1,d7 hand=6,6 walls=- turn=1",
            "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1",
        ] {
            assert!(Quoridor::from_text(text).unwrap().accumulator.is_none());
        }
    }

    #[test]
    fn seat_two_sees_the_mirror_image_of_seat_one() {
        let a = Quoridor::from_text("quoridor 9x9 pawns=c3,f6 hand=7,9 walls=b2h,d6v turn=1").unwrap();
        // Turned upside down: rows r -> 10 - r, wall rows r -> 9 - r, seats swapped.
        let b = Quoridor::from_text("quoridor 9x9 pawns=f4,c7 hand=9,7 walls=b7h,d3v turn=2").unwrap();
        let mut x = a.network_inputs(0);
        let mut y = b.network_inputs(1);
        x.sort_unstable();
        y.sort_unstable();
        assert_eq!(x, y);
    }
}
