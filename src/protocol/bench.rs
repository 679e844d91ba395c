//! `tabula bench`: fixed positions of both games searched to fixed depths
//! through the protocol session, as a GUI's `go` would be (`ucinewgame`,
//! `position fen`, `go depth N`, default options). The total node count is
//! deterministic and is the search's signature: `.ci/bench` holds the
//! number of the last commit that changed the search, and CI checks it.

use super::session::Session;
use crossbeam_channel::unbounded;
use std::io::Write;
use std::time::Instant;

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
    ("quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1", 3),
    ("quarto 4x4 level=1 board=0.../.5../..a./...f hand=3 turn=2", 4),
    ("quarto 4x4 level=4 board=1..8/.c../..2./6..d hand=b turn=2", 5),
    ("quarto 3x3 level=1 board=.../.3./... hand=5 turn=1", 12),
];

/// One bench position's result.
pub struct BenchLine {
    /// The position text.
    pub position: String,
    /// Nodes its search visited.
    pub nodes: u64,
    /// The `bestmove` line it answered.
    pub answer: String,
}

/// What one bench run measured.
pub struct BenchReport {
    /// Every position's result, in order.
    pub lines: Vec<BenchLine>,
    /// Nodes of all positions: the `Bench:` number.
    pub nodes: u64,
    /// Wall time of the whole run.
    pub elapsed: std::time::Duration,
}

/// Runs every bench position through a fresh session; an error names a
/// position the session refused (it would have benched another).
pub fn run_bench() -> Result<BenchReport, String> {
    let started = Instant::now();
    let (events, reports) = unbounded();
    let mut session = Session::new(Vec::new(), events);
    let mut lines = Vec::new();
    for &(text, depth) in BENCH_POSITIONS {
        let before = session.nodes_searched();
        for command in ["ucinewgame".to_string(), format!("position fen {text}"), format!("go depth {depth}")]
        {
            session.handle_line(&command);
        }
        while session.owes_answers() {
            match reports.recv() {
                Ok(event) => session.handle_event(event),
                Err(_) => break,
            }
        }
        let output = String::from_utf8_lossy(&session.take_output()).into_owned();
        if let Some(error) = output.lines().find(|l| l.starts_with("info string error")) {
            return Err(format!("bench position '{text}': {error}"));
        }
        let answer = output.lines().rev().find(|l| l.starts_with("bestmove")).unwrap_or("(no answer)");
        let nodes = session.nodes_searched() - before;
        lines.push(BenchLine { position: text.to_string(), nodes, answer: answer.to_string() });
    }
    Ok(BenchReport { nodes: session.nodes_searched(), elapsed: started.elapsed(), lines })
}

/// Runs the bench and writes its report: a line per position, then the
/// totals, last `Bench: <nodes>`.
pub fn print_bench(out: &mut impl Write) -> std::io::Result<()> {
    let report = run_bench().map_err(std::io::Error::other)?;
    for line in &report.lines {
        writeln!(out, "{:>10}  {:<22} {}", line.nodes, line.answer, line.position)?;
    }
    let ms = report.elapsed.as_millis().max(1) as u64;
    writeln!(out, "Total time (ms) : {ms}")?;
    writeln!(out, "Nodes searched  : {}", report.nodes)?;
    writeln!(out, "Nodes/second    : {}", report.nodes * 1000 / ms)?;
    writeln!(out, "Bench: {}", report.nodes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_searched_and_answered() {
        let report = super::run_bench().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.lines.len(), super::BENCH_POSITIONS.len());
        for line in &report.lines {
            assert!(line.nodes > 0 && line.answer.starts_with("bestmove "), "{}", line.position);
        }
    }
}
