//! Game review: one engine (a process of its own, beside the seats' and the
//! analysis one) goes over every position of the game at a chosen effort
//! (nodes or time a position) and, on request, asks `go solve` for the
//! exact value of each within a time cap. The values found are published
//! with the view as they come (progress, the evaluation graph's points and
//! the marks, see `review_marks`); a review can be cancelled, and pauses
//! while no page watches, so that its CPU stops.

use crate::candidates::{solve_within, STOP_GRACE};
use crate::driver::start_engine;
use crate::review_marks::{Effort, PlyEval, Proven, Review};
use crate::shared::Shared;
use crate::table::Table;
use crate::thinking::read_info;
use arena::engine::{EngineError, EngineProcess};
use arena::record::replay;
use arena::setup::Opening;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::game::Outcome;

/// Bounds on the effort a page may ask for.
pub const NODES: std::ops::RangeInclusive<u64> = 1_000..=100_000_000;
pub const MOVETIME_MS: std::ops::RangeInclusive<u64> = 10..=60_000;
pub const SOLVE_MS: std::ops::RangeInclusive<u64> = 0..=60_000;
/// Proofs (`go solve`) are asked for on Quoridor boards of at most this
/// many squares (where the engine's proof search applies; larger boards
/// would take its graph method, which needs more memory than a machine
/// has) and on Quarto.
pub const PROOF_SQUARES: usize = 64;
/// How long a search by nodes may take before the engine counts as stuck.
const NODES_LIMIT: Duration = Duration::from_secs(120);

/// What a posted form asks: `cancel` ends the review under way; otherwise
/// `nodes=N` or `movetime=MS` a position (100,000 nodes unless given) and
/// `solve=MS` (0, no proofs, unless given).
pub fn request_from_fields(fields: &[(String, String)]) -> Result<Option<(Effort, u64)>, String> {
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim());
    if field("cancel").is_some() {
        return Ok(None);
    }
    let number = |name: &str, range: &std::ops::RangeInclusive<u64>| -> Result<Option<u64>, String> {
        match field(name) {
            None | Some("") => Ok(None),
            Some(text) => match text.parse::<u64>() {
                Ok(n) if range.contains(&n) => Ok(Some(n)),
                _ => Err(format!("review: {name} takes {} to {}", range.start(), range.end())),
            },
        }
    };
    let effort = match (number("nodes", &NODES)?, number("movetime", &MOVETIME_MS)?) {
        (Some(_), Some(_)) => return Err("review: nodes= or movetime=, not both".into()),
        (_, Some(ms)) => Effort::Millis(ms),
        (nodes, None) => Effort::Nodes(nodes.unwrap_or(100_000)),
    };
    Ok(Some((effort, number("solve", &SOLVE_MS)?.unwrap_or(0))))
}

impl Table {
    /// The whole game as known: the moves played, then those taken back
    /// (a loaded record's moves not yet stepped through).
    pub fn line(&self) -> Vec<String> {
        self.moves.iter().chain(self.redo.iter().rev()).cloned().collect()
    }

    /// Starts a review of the whole game (`Some`), or cancels the one under
    /// way (`None`). Two-player games only: four players have no single
    /// number that says who is ahead.
    pub fn set_review(&mut self, request: Option<(Effort, u64)>) -> Result<(), String> {
        match request {
            Some((effort, solve_ms)) => {
                self.help_allowed("review")?;
                if self.variant.players() != 2 {
                    return Err(
                        "review: two-player games only (four players get candidates, not a graph)".into()
                    );
                }
                if solve_ms > 0 && !solvable(&self.variant) {
                    return Err(format!("review: proofs only on boards of at most {PROOF_SQUARES} squares"));
                }
                let line = self.line();
                let serial = self.review.as_ref().map_or(0, |r| r.serial) + 1;
                self.review = Some(Review {
                    effort: Some(effort),
                    solve_ms,
                    start: self.start.clone(),
                    evals: vec![None; line.len() + 1],
                    line,
                    running: true,
                    cancelled: false,
                    error: None,
                    serial,
                });
            }
            None => match self.review.as_mut().filter(|r| r.running) {
                Some(review) => {
                    review.running = false;
                    review.cancelled = true;
                }
                None => return Err("review: no review under way".into()),
            },
        }
        self.touch(false);
        Ok(())
    }
}

/// Whether `go solve` may be asked of this variant's positions.
pub fn solvable(variant: &arena::setup::GameVariant) -> bool {
    match variant {
        arena::setup::GameVariant::Quoridor(v) => v.width * v.height <= PROOF_SQUARES,
        arena::setup::GameVariant::Quarto(_) => true,
    }
}

/// One position to look at.
struct Job {
    serial: u64,
    ply: usize,
    command: String,
    mover: usize,
    outcome: Option<Outcome>,
    effort: Effort,
    solve_ms: u64,
    options: Vec<(String, String)>,
}

/// The review engine, and the options it was started with.
type Engine = Option<(Vec<(String, String)>, EngineProcess)>;

/// Runs until the board quits.
pub fn run(shared: Arc<Shared>) {
    let mut engine: Engine = None;
    loop {
        let job = match next_job(&shared, &mut engine) {
            Some(Ok(job)) => job,
            Some(Err((serial, why))) => {
                fail(&shared, serial, &why);
                continue;
            }
            None => return,
        };
        let eval = match job.outcome {
            // A finished game needs no engine.
            Some(outcome) => Ok(PlyEval::over(job.mover, outcome)),
            None => evaluate(&shared, &mut engine, &job),
        };
        match eval {
            Ok(eval) => store(&shared, job.serial, job.ply, eval),
            Err(e) => {
                if let Some((_, broken)) = engine.take() {
                    broken.quit();
                }
                fail(&shared, job.serial, &format!("the review engine {e}"));
            }
        }
    }
}

/// Waits until a review is under way with a position left to look at and a
/// page watching (quitting the engine meanwhile), and returns that
/// position; `None` when the board quits.
fn next_job(shared: &Shared, engine: &mut Engine) -> Option<Result<Job, (u64, String)>> {
    let mut table = shared.lock();
    loop {
        if shared.quitting.load(Ordering::Relaxed) {
            drop(table);
            if let Some((_, process)) = engine.take() {
                process.quit();
            }
            return None;
        }
        let watched = shared.streams.load(Ordering::SeqCst) > 0;
        let variant = table.variant.clone();
        if let Some(review) = table.review.as_ref().filter(|r| r.running && watched) {
            let serial = review.serial;
            match review.evals.iter().position(Option::is_none) {
                Some(ply) => return Some(job(review, ply, &variant).map_err(|e| (serial, e))),
                None => {
                    // Every position valued: done, and the pages told.
                    drop(table);
                    shared.update(|t| {
                        if let Some(done) = t.review.as_mut().filter(|r| r.serial == serial) {
                            done.running = false;
                            t.touch(false);
                        }
                    });
                    table = shared.lock();
                    continue;
                }
            }
        }
        if engine.is_some() {
            drop(table);
            if let Some((_, process)) = engine.take() {
                process.quit();
            }
            table = shared.lock();
            continue;
        }
        table = shared.wait(table, Duration::from_millis(500));
    }
}

fn job(review: &Review, ply: usize, variant: &arena::setup::GameVariant) -> Result<Job, String> {
    let opening = Opening { fen: review.start.clone(), moves: review.line[..ply].to_vec() };
    let (position, _) = replay(&opening, variant).map_err(|e| format!("review: {e}"))?;
    Ok(Job {
        serial: review.serial,
        ply,
        command: format!("position fen {}", position.to_text()),
        mover: position.side_to_move(),
        outcome: position.outcome(),
        effort: review.effort.unwrap_or(Effort::Nodes(100_000)),
        solve_ms: review.solve_ms,
        options: variant.engine_options(),
    })
}

/// The engine's value of one position, and its proof when asked for.
fn evaluate(shared: &Shared, engine: &mut Engine, job: &Job) -> Result<PlyEval, EngineError> {
    if engine.as_ref().is_none_or(|(options, _)| *options != job.options) {
        if let Some((_, old)) = engine.take() {
            old.quit();
        }
        let mut process = start_engine(shared, &job.options)?;
        process.send("ucinewgame")?;
        *engine = Some((job.options.clone(), process));
    }
    let Some((_, process)) = engine.as_mut() else { return Err(EngineError::Died) };
    process.send(&job.command)?;
    let (go, limit) = match job.effort {
        Effort::Nodes(n) => (format!("go nodes {n}"), NODES_LIMIT),
        Effort::Millis(ms) => (format!("go movetime {ms}"), Duration::from_millis(ms) + STOP_GRACE),
    };
    process.send(&go)?;
    let deadline = Instant::now() + limit;
    let mut eval = PlyEval { mover: job.mover, ..PlyEval::default() };
    loop {
        let line = process.read_line(deadline, "bestmove")?;
        if let Some(best) = line.strip_prefix("bestmove") {
            eval.best = best.split_whitespace().next().filter(|m| *m != "(none)").map(String::from);
            break;
        }
        if let Some(info) = read_info(&line, job.mover).filter(|i| i.score.is_some()) {
            eval.score = info.score;
            eval.depth = info.depth;
        }
        if let Some(proven) = Proven::from_engine_note(&line) {
            eval.proven = Some(proven);
        }
    }
    if job.solve_ms > 0 {
        let solved = solve_within(process, Duration::from_millis(job.solve_ms))?;
        if let Some(proven) = solved.and_then(|v| Proven::from_winner(&v.winner)) {
            eval.proven = Some(proven);
        }
    }
    Ok(eval)
}

fn store(shared: &Shared, serial: u64, ply: usize, eval: PlyEval) {
    shared.update(|table| {
        if let Some(review) = table.review.as_mut().filter(|r| r.serial == serial && r.running) {
            if let Some(slot) = review.evals.get_mut(ply) {
                *slot = Some(eval);
            }
            table.touch(false);
        }
    });
}

/// Ends the review with the reason on the page.
fn fail(shared: &Shared, serial: u64, why: &str) {
    shared.update(|table| {
        if let Some(review) = table.review.as_mut().filter(|r| r.serial == serial && r.running) {
            review.running = false;
            review.error = Some(why.to_string());
            table.notice = Some(format!("Review stopped: {why}."));
            table.touch(false);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_form_asks_for_an_effort_within_bounds() {
        assert_eq!(request_from_fields(&fields(&[])), Ok(Some((Effort::Nodes(100_000), 0))));
        assert_eq!(
            request_from_fields(&fields(&[("movetime", "250"), ("solve", "1000")])),
            Ok(Some((Effort::Millis(250), 1000)))
        );
        assert_eq!(request_from_fields(&fields(&[("cancel", "1")])), Ok(None));
        for bad in [
            vec![("nodes", "999")],
            vec![("nodes", "100000001")],
            vec![("movetime", "9")],
            vec![("nodes", "5000"), ("movetime", "100")],
            vec![("solve", "60001")],
            vec![("nodes", "x")],
        ] {
            assert!(request_from_fields(&fields(&bad)).is_err(), "{bad:?}");
        }
    }
}
