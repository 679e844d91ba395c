//! `tabula solve ...` on the command line: the exact value of a position,
//! progress on standard error, and a last line pinned for scripts:
//! `result: first|second|draw [plies=N] ...`. Ctrl-C stops the run and says
//! where it was; nothing is written anywhere, so nothing can be corrupted.

use crate::solve::{solve_position, Progress, SolveLimits, Value};
use crate::solve_request::parse_request;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs the command; returns the process's exit code (0 solved, 1 not
/// solved, 2 bad arguments, 130 interrupted).
pub fn run(args: &[String]) -> i32 {
    let request = match parse_request(args) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("tabula solve: {e}");
            return 2;
        }
    };
    // A second Ctrl-C ends the process at once.
    let handler = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = handler {
        eprintln!("tabula solve: Ctrl-C will not report ({e})");
    }
    let position = &request.position;
    println!("solving {}", position.to_text());
    let began = Instant::now();
    let limits =
        SolveLimits { max_bytes: request.max_bytes, stop: Some(&INTERRUPTED), threads: request.threads };
    let mut last = None;
    let mut report = |p: Progress| {
        eprintln!("info {}", p.describe(began.elapsed()));
        last = Some(p);
    };
    let solved = solve_position(position, request.method, &limits, &mut report);
    let memory = peak_memory(request.max_bytes);
    let solution = match solved {
        Ok(solution) => solution,
        Err(e) => {
            let seconds = began.elapsed().as_secs_f64();
            eprintln!("tabula solve: {e} after {seconds:.1} s; no result");
            eprintln!("tabula solve: {memory}");
            if INTERRUPTED.load(Ordering::SeqCst) {
                if let Some(p) = last {
                    eprintln!("tabula solve: the last progress was: {}", p.describe(began.elapsed()));
                }
                return 130;
            }
            return 1;
        }
    };
    let seconds = began.elapsed().as_secs_f64();
    match solution.counts {
        Some([wins, losses, draws]) => println!(
            "positions {} (for the player to move: {wins} won, {losses} lost, {draws} drawn), {seconds:.2} s, method {}",
            solution.positions,
            solution.method.name()
        ),
        None => println!("positions {} in the table, {seconds:.2} s, method {}", solution.positions, solution.method.name()),
    }
    println!("line: {}", solution.line.join(" "));
    println!("{memory}");
    let result = match solution.value {
        Value::Win(plies) => format!("first plies={plies}"),
        Value::Loss(plies) => format!("second plies={plies}"),
        Value::Draw => "draw".to_string(),
    };
    println!("result: {result} positions={} time={seconds:.2}", solution.positions);
    0
}

/// `memory: peak N MiB resident (VmHWM), limit L MiB`: what the run held
/// at most, as the system counts it, against its limit.
fn peak_memory(max_bytes: usize) -> String {
    let peak = crate::solve::memory::peak_resident_bytes()
        .map_or_else(|| "unknown".to_string(), |bytes| format!("{} MiB", bytes.div_ceil(1 << 20)));
    format!("memory: peak {peak} resident (VmHWM), limit {} MiB", max_bytes >> 20)
}
