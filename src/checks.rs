//! Invariants that must hold for any input whatever, written once and run
//! two ways: by the fuzz targets in `tools/fuzz` (cargo fuzz, coverage
//! guided, nightly Rust) and by `tests/it/fuzz_inputs.rs` on stable Rust over
//! seeded random and mutated inputs, so that every test run checks them.
//!
//! Each check panics when an invariant fails; a fuzzer reports the panic
//! with the input that caused it. None of them may panic otherwise.

use crate::game::prelude::*;
use crate::games::quarto::Quarto;
use crate::games::quoridor::Quoridor;
use crate::protocol::options::Options;
use crate::protocol::parse::{parse_line, Command};

/// Any line is a command, a blank, or a typed error; never a panic. A
/// `setoption` it names is applied to a fresh set of options, which either
/// changes as asked or stays as it was.
pub fn protocol_line(bytes: &[u8]) {
    let line = String::from_utf8_lossy(bytes);
    if let Ok(Some(Command::SetOption { name, value })) = parse_line(&line) {
        let mut options = Options::default();
        if options.set(&name, value.as_deref()).is_err() {
            assert_eq!(options, Options::default(), "a refused setoption changed the options: {line:?}");
        }
    }
}

/// A Quoridor position text either fails to parse or prints a text that
/// parses back to the same position (same text, same hash).
pub fn quoridor_text(bytes: &[u8]) {
    text_round_trips(bytes, Quoridor::from_text);
}

/// As [`quoridor_text`], for Quarto.
pub fn quarto_text(bytes: &[u8]) {
    text_round_trips(bytes, Quarto::from_text);
}

fn text_round_trips<G: Game, E: std::fmt::Display>(bytes: &[u8], parse: impl Fn(&str) -> Result<G, E>) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(position) = parse(&text) {
        let printed = position.to_text();
        let again = parse(&printed)
            .unwrap_or_else(|e| panic!("'{printed}' (from {text:?}) does not parse back: {e}"));
        assert_eq!(again.to_text(), printed, "from {text:?}");
        assert_eq!(again.hash(), position.hash(), "'{printed}' from {text:?}");
    }
}

/// Move notation in a position reached by moves the input picks: a text
/// that parses names a legal move whose printed name parses back to it,
/// in either case; so does every legal move's name.
///
/// Input: the first byte picks the game and board, the bytes up to the
/// first `\n` pick moves (each byte an index into the legal moves), and
/// the rest is the move text.
pub fn move_notation(bytes: &[u8]) {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let (picks, text) = match rest.iter().position(|&b| b == b'\n') {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let start = match selector % 8 {
        0 => "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
        1 => "quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1",
        2 => "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1",
        3 => "quoridor 11x3 pawns=f1,f3 hand=4,4 walls=- turn=1 jumps=multi",
        4 => "quarto 4x4 level=4 board=..../..../..../.... hand=- turn=1",
        6 => "quoridor 8x6 pawns=d1,d6 hand=6,6 walls=- turn=1",
        7 => "quoridor 2x9 pawns=a1,a9 hand=3,3 walls=- turn=1 jumps=multi",
        _ => "quarto 3x3 level=1 board=.../.../... hand=- turn=1",
    };
    if start.starts_with("quarto") {
        if let Ok(position) = Quarto::from_text(start) {
            notation_after(position, picks, &text);
        }
    } else if let Ok(position) = Quoridor::from_text(start) {
        notation_after(position, picks, &text);
    }
}

fn notation_after<G: Game>(mut position: G, picks: &[u8], text: &str) {
    let mut moves = MoveList::default();
    // Long enough for any position a game reaches in practice, short enough
    // to keep a fuzzer's runs fast.
    for &pick in picks.iter().take(80) {
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        position.make_move(moves.as_slice()[pick as usize % moves.len()]);
    }
    position.generate_moves(&mut moves);
    for &mv in moves.iter() {
        let name = position.format_move(mv);
        assert_eq!(position.parse_move(&name), Ok(mv), "'{name}' in {}", position.to_text());
        let shouted = name.to_ascii_uppercase();
        assert_eq!(position.parse_move(&shouted), Ok(mv), "'{shouted}' in {}", position.to_text());
    }
    if let Ok(mv) = position.parse_move(text) {
        assert!(
            moves.as_slice().contains(&mv),
            "{text:?} parsed to an illegal move in {}",
            position.to_text()
        );
        let name = position.format_move(mv);
        assert_eq!(
            position.parse_move(&name),
            Ok(mv),
            "{text:?} printed as '{name}' in {}",
            position.to_text()
        );
    }
}
