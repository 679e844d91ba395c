//! Quarto solving benchmark: `cargo run --release --example quarto_solve -- [PLACED...] [--count N]`.
//!
//! For each number of pieces already placed (default 8, 6, 4), plays seeded
//! random games on the 4x4 level-1 board (never handing over a piece that
//! wins at once, so the games stay undecided), then solves each position
//! exactly and prints the value, node count and time. `TT_MB` sets the table
//! size in MiB (default 256).

use std::time::Instant;
use tabula::game::prelude::*;
use tabula::games::quarto::QuartoMove;
use tabula::games::quarto::{Quarto, Rules};
use tabula::search::tt::TranspositionTable;
use tabula::search::{search, Control, Limits, SearchInfo, SearchSettings};

fn random_position(placed: usize, seed: &mut u64) -> Option<Quarto> {
    let mut position = Quarto::new(Rules { side: 4, level: 1 }).ok()?;
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    // The first give, then one placement per turn.
    for _ in 0..=placed {
        let mut moves = MoveList::default();
        position.generate_search_moves(&mut moves, 0);
        let choice = *moves.as_slice().get(next() as usize % moves.len().max(1))?;
        position.make_move(choice);
        if position.outcome().is_some() {
            return None;
        }
    }
    Some(position)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count =
        args.iter().position(|a| a == "--count").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(5);
    let mut levels: Vec<usize> =
        args.iter().take_while(|a| !a.starts_with("--")).filter_map(|a| a.parse().ok()).collect();
    if levels.is_empty() {
        levels = vec![8, 6, 4];
    }
    for placed in levels {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ placed as u64;
        let mut times = Vec::new();
        while times.len() < count {
            let Some(position) = random_position(placed, &mut seed) else { continue };
            let mut tt = TranspositionTable::new(
                std::env::var("TT_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
            );
            let control = Control::new(false);
            let limits = Limits { depth: Some(17), ..Limits::default() };
            let mut last: Option<SearchInfo<QuartoMove>> = None;
            let started = Instant::now();
            let result =
                search(&position, &[], &limits, &SearchSettings::default(), &mut tt, &control, &mut |i| {
                    last = Some(i)
                });
            let took = started.elapsed();
            let info = last.expect("at least one iteration");
            println!(
                "{placed} placed  {:>8.3} s  {:>11} nodes  {:?}{}  {}",
                took.as_secs_f64(),
                result.nodes,
                info.score,
                if info.exact { " exact" } else { "" },
                position.to_text()
            );
            times.push(took);
        }
        times.sort();
        println!(
            "{placed} placed: median {:.3} s, max {:.3} s",
            times[times.len() / 2].as_secs_f64(),
            times[times.len() - 1].as_secs_f64()
        );
    }
}
