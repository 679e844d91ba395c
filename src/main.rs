//! The `tabula` binary: logging to stderr, command-line one-shots, then the
//! protocol loop on stdin/stdout.

use std::io::{self, BufReader};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => tabula::protocol::run(BufReader::new(io::stdin()), io::stdout()),
        Some("bench") => bench(),
        Some("solve") => solve(&args[1..]),
        Some("--help" | "-h" | "help") => usage(),
        Some(other) => {
            eprintln!("tabula: unknown argument '{other}'");
            usage();
            std::process::exit(2);
        }
    }
}

fn bench() {
    let report = tabula::bench::run_bench();
    for (text, nodes, best) in &report.positions {
        println!("{nodes:>10}  {best:<6} {text}");
    }
    let ms = report.elapsed.as_millis().max(1) as u64;
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {}", report.nodes);
    println!("Nodes/second    : {}", report.nodes * 1000 / ms);
    println!("Bench: {}", report.nodes);
}

/// `tabula solve ...`: the exact value of a start position, with progress on
/// standard error. The last line is pinned for scripts:
/// `result: first|second|draw [plies=N] ...`.
fn solve(args: &[String]) {
    use tabula::solve::{solve, Progress, SolveLimits, Value};
    let start = match tabula::solve_request::start_position(args) {
        Ok(start) => start,
        Err(e) => {
            eprintln!("tabula solve: {e}");
            std::process::exit(2);
        }
    };
    println!("solving {}", start.to_text());
    let began = std::time::Instant::now();
    let limits = SolveLimits { max_positions: 200_000_000, stop: None };
    let mut report = |p: Progress| eprintln!("info {}", p.describe(began.elapsed()));
    let solved = tabula::with_game!(&start, g => solve(g, &limits, &mut report));
    let solution = match solved {
        Ok(solution) => solution,
        Err(e) => {
            eprintln!("tabula solve: {e}");
            std::process::exit(1);
        }
    };
    let [wins, losses, draws] = solution.counts;
    println!(
        "positions {} (for the player to move: {wins} won, {losses} lost, {draws} drawn), {:.2} s",
        solution.positions,
        began.elapsed().as_secs_f64()
    );
    println!("line: {}", solution.line.join(" "));
    let result = match solution.value {
        Value::Win(plies) => format!("first plies={plies}"),
        Value::Loss(plies) => format!("second plies={plies}"),
        Value::Draw => "draw".to_string(),
    };
    println!("result: {result} positions={}", solution.positions);
}

fn usage() {
    println!("usage: tabula          speak the protocol on stdin/stdout (see protocol.md)");
    println!("       tabula bench    search the benchmark positions; prints 'Bench: <nodes>'");
    println!("       tabula solve [game=quoridor|quarto] [width=W height=H walls=N] [board=4x4|3x3 level=L] [moves M...]");
    println!("                       the exact value by retrograde analysis; last line 'result: first|second|draw [plies=N]'");
}
