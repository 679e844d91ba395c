//! Perft speed benchmark: `cargo run --release --example perft -- DEPTH [MOVES] [--fen TEXT]`.
//! Counts 1..=DEPTH from the 9x9 start (or TEXT) after MOVES, with timings.

use tabula::game::Game;
use tabula::games::quoridor::Quoridor;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(4);
    let fen = args
        .iter()
        .position(|a| a == "--fen")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1".into());
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
    println!("{}", position.text());
    for d in 1..=depth {
        let started = std::time::Instant::now();
        let count = tabula::perft::perft(&position, d);
        let seconds = started.elapsed().as_secs_f64();
        println!("perft {d}: {count} in {seconds:.3} s ({:.1} M leaves/s)", count as f64 / seconds / 1e6);
    }
}
