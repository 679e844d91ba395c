//! `tabula solve ...` on the command line: the exact value of a position,
//! progress on standard error, and a last line pinned for scripts:
//! `result: first|second|draw [plies=N] ...`. Ctrl-C stops the run and says
//! where it was; nothing is written anywhere, so nothing can be corrupted.
//! A closed standard output (`| head`) ends the run quietly with exit code
//! 141, as SIGPIPE ends a C program.
//! `split=P` lists sub-proofs, and `split=P leaves=FILE` combines them
//! ([`crate::solve::split`]). `stage=plan|values|combine dir=DIR` runs one
//! stage of a layered solve spread over several runs
//! ([`crate::solve::layers::stages`]); the combine stage ends as a whole
//! run does.

use super::solve_request::{parse_request, Stage};
use crate::games::AnyPosition;
use crate::solve::layers::stages::{stage_combine, stage_level, stage_plan, StageError, PLAN_FILE};
use crate::solve::split::{combine_texts, sub_position_texts};
use crate::solve::{layered_solution, solve_position, Progress, Solution, SolveLimits};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code when standard output is closed under the run (`| head`):
/// what a shell reports for a program that SIGPIPE ended.
pub const OUTPUT_CLOSED: i32 = 141;

/// `println!` that ends the run quietly with [`OUTPUT_CLOSED`] when no one
/// reads standard output any more, where `println!` would panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(OUTPUT_CLOSED);
        }
    }};
}

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
    if let Some(plies) = request.split {
        return split(&request.position, plies, request.leaves.as_deref());
    }
    let position = &request.position;
    let limits =
        SolveLimits { max_bytes: request.max_bytes, stop: Some(&INTERRUPTED), threads: request.threads };
    let combine = match &request.stage {
        Some((Stage::Combine, dir)) => Some(dir.as_path()),
        Some((stage, dir)) => return run_stage(position, *stage, dir, &limits).unwrap_or(2),
        None => None,
    };
    say!("solving {}", position.to_text());
    let began = Instant::now();
    let mut last = None;
    let mut report = |p: Progress| {
        eprintln!("info {}", p.describe(began.elapsed()));
        last = Some(p);
    };
    let solved = match combine {
        Some(dir) => combined(position, dir, &limits),
        None => solve_position(position, request.method, &limits, &mut report).map_err(StageError::Solve),
    };
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
        Some([wins, losses, draws]) => say!(
            "positions {} (for the player to move: {wins} won, {losses} lost, {draws} drawn), {seconds:.2} s, method {}",
            solution.positions,
            solution.method.name()
        ),
        None => say!("positions {} in the table, {seconds:.2} s, method {}", solution.positions, solution.method.name()),
    }
    say!("line: {}", solution.line.join(" "));
    say!("{memory}");
    say!("result: {} positions={} time={seconds:.2}", solution.value.result_words(), solution.positions);
    0
}

/// The solution from the levels a staged run left in `dir`.
fn combined(position: &AnyPosition, dir: &Path, limits: &SolveLimits) -> Result<Solution, StageError> {
    let AnyPosition::Quoridor(start) = position else {
        return Err(StageError::Mismatch("stages are for Quoridor".into()));
    };
    let tables = stage_combine(start, limits, dir)?;
    Ok(layered_solution(start, &tables)?)
}

/// `stage=plan` and `stage=values`: one line saying what was written, and
/// the exit code; `None` for the combine stage, which ends as a whole
/// run does.
fn run_stage(position: &AnyPosition, stage: Stage, dir: &Path, limits: &SolveLimits) -> Option<i32> {
    let AnyPosition::Quoridor(start) = position else {
        eprintln!("tabula solve: stages are for Quoridor");
        return Some(2);
    };
    let began = Instant::now();
    let done = match stage {
        Stage::Plan { replace } => stage_plan(start, limits, dir, replace).map(|layers| {
            let list: Vec<String> = layers.iter().map(|n| n.to_string()).collect();
            let file = dir.join(PLAN_FILE);
            format!("plan levels={} layers={} file={}", layers.len(), list.join(","), file.display())
        }),
        Stage::Values { added, part, parts } => {
            stage_level(start, limits, dir, added, (part, parts)).map(|d| {
                format!(
                    "values added={added} part={part}/{parts} first={} layers={} valid={} file={}",
                    d.first,
                    d.count,
                    d.valid,
                    d.path.display()
                )
            })
        }
        Stage::Combine => return None,
    };
    Some(match done {
        Ok(line) => {
            say!("{line} time={:.2}", began.elapsed().as_secs_f64());
            0
        }
        Err(e) => {
            eprintln!("tabula solve: {e}");
            if INTERRUPTED.load(Ordering::SeqCst) {
                130
            } else if matches!(e, StageError::Solve(_)) {
                1
            } else {
                2
            }
        }
    })
}

/// The largest leaves file read.
const MAX_LEAVES_BYTES: u64 = 256 << 20;

/// `split=P`: the sub-proofs P plies down, one `position=TEXT` line each;
/// with `leaves=FILE`, their values combined into the position's
/// `result:` line.
fn split(position: &AnyPosition, plies: u32, leaves: Option<&std::path::Path>) -> i32 {
    let Some(path) = leaves else {
        use std::io::Write;
        let texts = sub_position_texts(position, plies);
        let mut out = std::io::stdout().lock();
        // A reader that stops early (`| head`) ends the listing, not the process.
        let _ = writeln!(out, "sub-proofs {} at {plies} plies below {}", texts.len(), position.to_text())
            .and_then(|_| texts.iter().try_for_each(|text| writeln!(out, "position={text}")));
        return 0;
    };
    let began = Instant::now();
    let lines = match read_bounded(path, MAX_LEAVES_BYTES) {
        Ok(lines) => lines,
        Err(e) => {
            eprintln!("tabula solve: leaves {}: {e}", path.display());
            return 2;
        }
    };
    match combine_texts(position, plies, &lines) {
        Ok((value, line)) => {
            let seconds = began.elapsed().as_secs_f64();
            say!("combined from the sub-proofs at {plies} plies in {}", path.display());
            say!("line: {}", line.join(" "));
            say!("result: {} time={seconds:.2}", value.result_words());
            0
        }
        Err(e) => {
            eprintln!("tabula solve: leaves {}: {e}", path.display());
            2
        }
    }
}

/// A file's text, refused when longer than `limit` bytes.
fn read_bounded(path: &std::path::Path, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut text = String::new();
    file.take(limit + 1).read_to_string(&mut text).map_err(|e| e.to_string())?;
    if text.len() as u64 > limit {
        return Err(format!("longer than {} MiB", limit >> 20));
    }
    Ok(text)
}

/// `memory: peak N MiB resident (VmHWM), limit L MiB`: what the run held
/// at most, as the system counts it, against its limit.
fn peak_memory(max_bytes: usize) -> String {
    let peak = crate::solve::memory::peak_resident_bytes()
        .map_or_else(|| "unknown".to_string(), |bytes| format!("{} MiB", bytes.div_ceil(1 << 20)));
    format!("memory: peak {peak} resident (VmHWM), limit {} MiB", max_bytes >> 20)
}
