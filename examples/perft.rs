//! Perft speed benchmark:
//! `cargo run --release --example perft -- DEPTH [MOVES] [--fen TEXT] [--hash MB]`.
//! Counts 1..=DEPTH from the 9x9 start (or TEXT) after MOVES, with timings.
//! `--hash MB` keeps a table of counts already made (positions reached again
//! by moves in another order are counted once); without it every path is
//! walked.

use tabula::game::prelude::*;
use tabula::games::quoridor::Quoridor;
use tabula::perft::{perft_until, PerftTable};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(4);
    let fen = flag("--fen").unwrap_or_else(|| "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1".into());
    let hash: Option<usize> = flag("--hash").and_then(|mb| mb.parse().ok());
    let mut position = match Quoridor::from_text(&fen) {
        Ok(p) => p,
        Err(e) => return eprintln!("bad position: {e}"),
    };
    let moves = args.get(1).filter(|m| !m.starts_with("--")).cloned().unwrap_or_default();
    for text in moves.split_whitespace() {
        match position.parse_move(text) {
            Ok(mv) => position.make_move(mv),
            Err(e) => return eprintln!("{e}"),
        }
    }
    println!("{}", position.to_text());
    for d in 1..=depth {
        // A fresh table for every depth, so that each count is timed alone.
        let mut table = hash.and_then(PerftTable::new);
        let started = std::time::Instant::now();
        let count = perft_until(&position, d, table.as_mut(), &|| false).unwrap_or(0);
        let seconds = started.elapsed().as_secs_f64();
        println!("perft {d}: {count} in {seconds:.3} s ({:.1} M leaves/s)", count as f64 / seconds / 1e6);
    }
}
