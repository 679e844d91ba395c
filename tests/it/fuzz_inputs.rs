//! The fuzz targets' invariants (`tabula::checks`, run coverage-guided by
//! `tools/fuzz`) on stable Rust: each check over its seed inputs and over
//! seeded mutations of them (bytes flipped, inserted, deleted, inputs
//! spliced), so every test run covers them without a fuzzer.

use crate::common::rng;

use rng::Rng;
use tabula::checks;

/// Inputs tried per check, seeds included.
const CASES: usize = 20_000;

/// Bytes the position texts and commands are made of, for insertions.
const ALPHABET: &[u8] = b" =,/x-0123456789abcdefghijklmnopqrstuvwxyzHV\t\n";

/// One mutation of `input`, drawing from `others` for splices.
fn mutate(rng: &mut Rng, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = if bytes.is_empty() { 0 } else { rng.below(bytes.len() + 1) };
        match rng.below(6) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 => bytes.insert(at, rng.next() as u8),
            2 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            3 if at < bytes.len() => {
                bytes.remove(at);
            }
            4 => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len() + 1);
                bytes.truncate(at);
                bytes.extend_from_slice(&other[from..]);
            }
            _ if at < bytes.len() => bytes[at] = bytes[rng.below(bytes.len())],
            _ => {}
        }
    }
    bytes
}

/// Runs `check` on the seeds and on [`CASES`] mutations of them.
fn campaign(seeds: &[&str], seed: u64, check: fn(&[u8])) {
    let seeds: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    for input in &seeds {
        check(input);
    }
    let mut rng = Rng::new(seed);
    let mut input = seeds[0].clone();
    for _ in 0..CASES {
        // Mostly mutate further, now and then start again from a seed.
        if rng.chance(20) || input.len() > 400 {
            input = seeds[rng.below(seeds.len())].clone();
        }
        input = mutate(&mut rng, &input, &seeds);
        check(&input);
    }
}

#[test]
fn protocol_lines_never_panic() {
    let seeds = [
        "uci",
        "setoption name Hash value 64",
        "setoption name Clear Hash",
        "setoption name BoardWidth value 7",
        "setoption name BoardWidth value 8",
        "position startpos moves e2 e8 e3h",
        "position fen quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 moves e2",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
        "go depth 5 searchmoves e2 d1h mate 3 nodes 100",
        "go perft 3",
        "debug on",
    ];
    campaign(&seeds, 1, checks::protocol_line);
}

#[test]
fn quoridor_texts_round_trip() {
    let seeds = [
        "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
        "quoridor 9x9 pawns=e4,e6 hand=5,5 walls=c3h,e5v,f6h turn=2 jumps=single",
        "quoridor 5x7 pawns=c1,c7 hand=5,5 walls=- turn=1",
        "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=d4h turn=3",
        "quoridor 3x11 pawns=b1,b11 hand=2,2 walls=a5h turn=1 jumps=multi",
        "quoridor 4x4 pawns=b1,b4 hand=2,2 walls=- turn=1",
        "quoridor 2x7 pawns=a3,b3 hand=1,2 walls=a5v turn=2 jumps=multi",
    ];
    campaign(&seeds, 2, checks::quoridor_text);
}

#[test]
fn quarto_texts_round_trip() {
    let seeds = [
        "quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1",
        "quarto 4x4 level=3 board=.9.c/..d8/37.4/..b. hand=5 turn=2",
        "quarto 3x3 level=1 board=.../.1./... hand=4 turn=2",
        "quarto 4x4 level=4 board=0123/4567/89ab/cdef hand=- turn=1",
    ];
    campaign(&seeds, 3, checks::quarto_text);
}

#[test]
fn move_notation_round_trips() {
    let seeds = [
        "\x00\x05\x07\x09\ne2",
        "\x01\x03\x70\nb2h",
        "\x02\x10\x20\x30\npass",
        "\x03\x01\nf2",
        "\x04\x05\x09\na1e",
        "\x05\x02\nB2",
        "\x06\x04\x11\nc2h",
        "\x07\x01\x02\nb1",
    ];
    campaign(&seeds, 4, checks::move_notation);
}
