//! `tabula bench`: a fixed set of positions searched to fixed depths. The
//! total node count is deterministic and serves as the search's signature.

use crate::game::Game;
use crate::games::quoridor::Quoridor;
use crate::search::tt::TranspositionTable;
use crate::search::{search, Control, Limits};
use std::time::{Duration, Instant};

/// Position texts and the depth each is searched to.
pub const BENCH_POSITIONS: &[(&str, u32)] = &[
    ("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1", 4),
    ("quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1", 4),
    ("quoridor 9x9 pawns=f4,c6 hand=4,5 walls=b2h,g3v,b4v,c4h,e4h,b5h,d5h,f5h,g5v,h6h,e7h turn=1", 4),
    ("quoridor 9x9 pawns=e5,d5 hand=0,0 walls=c4h,e4h,d6h,f6h turn=2", 10),
    ("quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1", 6),
    ("quoridor 3x9 pawns=b1,b9 hand=2,2 walls=- turn=1", 8),
    ("quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1", 3),
    ("quoridor 15x15 pawns=h1,h15 hand=10,10 walls=- turn=1", 3),
];

/// What one bench run measured.
pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Position text, nodes, best move of each position.
    pub positions: Vec<(String, u64, String)>,
}

/// Searches every bench position with a fresh 16 MiB table.
pub fn run_bench() -> BenchReport {
    let started = Instant::now();
    let mut nodes = 0;
    let mut positions = Vec::new();
    for &(text, depth) in BENCH_POSITIONS {
        let Ok(position) = Quoridor::from_text(text) else {
            unreachable!("bench position '{text}' is valid");
        };
        let mut tt = TranspositionTable::new(16);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let control = Control::new(false);
        let result = search(&position, &[], &limits, Duration::ZERO, &mut tt, &control, &mut |_| {});
        nodes += result.nodes;
        let best = result.best.map_or("(none)".to_string(), |m| position.format_move(m));
        positions.push((text.to_string(), result.nodes, best));
    }
    BenchReport { nodes, elapsed: started.elapsed(), positions }
}
