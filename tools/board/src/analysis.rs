//! Analysis mode: one engine process for the whole board, whoever asks,
//! analysing the position a page shows without end (`go infinite` with
//! `MultiPV`), its candidate moves published with the view. A change of the
//! position or of the number of lines stops the search and starts the next;
//! turning analysis off, or no page watching (no event stream open), quits
//! the engine, so that its CPU stops. A Quarto position small enough to
//! solve quickly (the 3x3 game, or 4x4 with [`SOLVE_MIN_PLACED`] pieces
//! down) is first given to `go solve` for at most [`SOLVE_CAP`]: its exact
//! value and best move are shown with the candidates.

use crate::candidates::{place, read_candidate, solve_within, Analysis, Candidate, Request, STOP_GRACE};
use crate::driver::start_engine;
use crate::shared::Shared;
use crate::table::Table;
use arena::engine::{EngineError, EngineProcess};
use arena::record::replay;
use arena::setup::Opening;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most lines a page may ask for.
pub const MAX_LINES: usize = 8;
/// How often the engine's lines reach the pages at most.
const SHOWN_EVERY: Duration = Duration::from_millis(100);
/// How often the thread looks whether its search is still wanted.
const POLL: Duration = Duration::from_millis(100);
/// A 4x4 Quarto position with this many pieces down is solved first...
pub const SOLVE_MIN_PLACED: usize = 5;
/// ...for at most this long.
pub const SOLVE_CAP: Duration = Duration::from_secs(2);

/// The analysis a posted form asks for: `off` turns it off (`None`);
/// otherwise `lines` (1 to [`MAX_LINES`], 3 unless given) and `ply` (0 to
/// the moves played; without it, the latest position as the game goes on).
pub fn request_from_fields(table: &Table, fields: &[(String, String)]) -> Result<Option<Request>, String> {
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim());
    if field("off").is_some() {
        return Ok(None);
    }
    let lines = match field("lines") {
        None => 3,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=MAX_LINES).contains(&n) => n,
            _ => return Err(format!("analysis: lines takes 1 to {MAX_LINES}")),
        },
    };
    let known = table.line().len();
    let ply = match field("ply") {
        None | Some("") => None,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if n <= known => Some(n),
            _ => return Err(format!("analysis: ply takes 0 to {known}, the game's moves")),
        },
    };
    Ok(Some(Request { lines, ply }))
}

impl Table {
    /// Turns analysis on with `request`, or off (`None`).
    pub fn set_analysis(&mut self, request: Option<Request>) -> Result<(), String> {
        match request {
            Some(request) => {
                self.help_allowed("analysis")?;
                let serial = self.analysis.as_ref().map_or(0, |a| a.serial);
                let candidates = self.analysis.take().map(|a| a.candidates).unwrap_or_default();
                self.analysis = Some(Analysis {
                    request,
                    ply: 0,
                    command: String::new(),
                    serial,
                    candidates,
                    proven: None,
                });
                self.follow_analysis()?;
            }
            None => self.analysis = None,
        }
        self.touch(false);
        Ok(())
    }

    /// Points the analysis at the position it asks for now (the latest one
    /// as the game goes on; a ply of the game's line, moves taken back
    /// included; one past the line's end becomes the latest): a new
    /// serial and no candidates when that position or the line count
    /// changed.
    pub fn follow_analysis(&mut self) -> Result<(), String> {
        let played = self.moves.len();
        let line = self.line();
        let Some(analysis) = self.analysis.as_ref() else { return Ok(()) };
        let ply = analysis.request.ply.filter(|&p| p <= line.len()).unwrap_or(played);
        let opening = Opening { fen: self.start.clone(), moves: line[..ply].to_vec() };
        let (position, _) = replay(&opening, &self.variant).map_err(|e| format!("analysis: {e}"))?;
        let command = format!("position fen {}", position.to_text());
        let lines = analysis.request.lines;
        if let Some(analysis) = self.analysis.as_mut() {
            if analysis.command != command || analysis.candidates.len() > lines || analysis.serial == 0 {
                analysis.serial += 1;
                analysis.candidates.clear();
                analysis.proven = None;
            }
            analysis.ply = ply;
            analysis.command = command;
        }
        Ok(())
    }
}

/// One search the thread runs: the request's serial, the position
/// command, the lines, the engine's options, and whether the position is
/// one to solve first.
struct Job {
    serial: u64,
    lines: usize,
    command: String,
    options: Vec<(String, String)>,
    solve_first: bool,
}

/// The engine running for analysis, and the options it was started with.
struct Running {
    options: Vec<(String, String)>,
    process: EngineProcess,
}

/// Runs until the board quits.
pub fn analyse(shared: Arc<Shared>) {
    let mut engine: Option<Running> = None;
    loop {
        let Some(job) = wanted(&shared, &mut engine) else { return };
        if engine.as_ref().is_none_or(|r| r.options != job.options) {
            if let Some(old) = engine.take() {
                old.process.quit();
            }
            match start_engine(&shared, &job.options) {
                Ok(process) => engine = Some(Running { options: job.options.clone(), process }),
                Err(e) => {
                    fail(&shared, job.serial, &e.to_string());
                    continue;
                }
            }
        }
        let Some(running) = engine.as_mut() else { continue };
        if let Err(e) = search(&shared, &mut running.process, &job) {
            if let Some(broken) = engine.take() {
                broken.process.quit();
            }
            fail(&shared, job.serial, &e.to_string());
        }
    }
}

/// Waits until analysis is on and a page watches, quitting the engine
/// meanwhile; then what to analyse: the serial, the request and the
/// engine's options. `None` when the board quits.
fn wanted(shared: &Shared, engine: &mut Option<Running>) -> Option<Job> {
    let mut table = shared.lock();
    loop {
        if shared.quitting.load(Ordering::Relaxed) {
            drop(table);
            if let Some(running) = engine.take() {
                running.process.quit();
            }
            return None;
        }
        let watched = shared.streams.load(Ordering::SeqCst) > 0;
        if let (Some(analysis), true) = (&table.analysis, watched) {
            let mut options = table.variant.engine_options();
            options.push(("MultiPV".into(), analysis.request.lines.to_string()));
            return Some(Job {
                serial: analysis.serial,
                lines: analysis.request.lines,
                command: analysis.command.clone(),
                options,
                solve_first: analysis.proven.is_none() && small_quarto(&analysis.command),
            });
        }
        if engine.is_some() {
            drop(table);
            if let Some(running) = engine.take() {
                running.process.quit();
            }
            table = shared.lock();
            continue;
        }
        table = shared.wait(table, Duration::from_millis(500));
    }
}

/// Whether the search for `serial` is still wanted.
fn still_wanted(shared: &Shared, serial: u64) -> bool {
    let table = shared.lock();
    !shared.quitting.load(Ordering::Relaxed)
        && shared.streams.load(Ordering::SeqCst) > 0
        && table.analysis.as_ref().is_some_and(|a| a.serial == serial)
}

/// Analyses until the request is no longer wanted, then stops the engine
/// and reads its `bestmove`.
fn search(shared: &Shared, engine: &mut EngineProcess, job: &Job) -> Result<(), EngineError> {
    let serial = job.serial;
    engine.send(&job.command)?;
    if job.solve_first {
        if let Some(proven) = solve_within(engine, SOLVE_CAP)? {
            shared.update(|table| {
                if let Some(analysis) = table.analysis.as_mut().filter(|a| a.serial == serial) {
                    analysis.proven = Some(proven);
                    table.touch(false);
                }
            });
        }
        if !still_wanted(shared, serial) {
            return Ok(());
        }
    }
    engine.send("go infinite")?;
    let mut found: Vec<Option<Candidate>> = vec![None; job.lines];
    let mut shown = Instant::now() - SHOWN_EVERY;
    let mut fresh = false;
    loop {
        match engine.read_line(Instant::now() + POLL, "analysis") {
            Ok(line) => {
                if let Some(candidate) = read_candidate(&line) {
                    fresh |= place(&mut found, candidate);
                }
            }
            Err(EngineError::Timeout(_)) => {}
            Err(e) => return Err(e),
        }
        if fresh && shown.elapsed() >= SHOWN_EVERY {
            publish(shared, serial, &found);
            shown = Instant::now();
            fresh = false;
        }
        if !still_wanted(shared, serial) {
            break;
        }
    }
    engine.send("stop")?;
    let deadline = Instant::now() + STOP_GRACE;
    while !engine.read_line(deadline, "bestmove")?.starts_with("bestmove") {}
    Ok(())
}

/// Whether `command` sets up a Quarto position small enough to solve
/// first.
fn small_quarto(command: &str) -> bool {
    let Some(text) = command.strip_prefix("position fen ") else { return false };
    match tabula::games::quarto::Quarto::from_text(text) {
        Ok(q) => q.rules().side == 3 || 16 - q.placements_left() as usize >= SOLVE_MIN_PLACED,
        Err(_) => false,
    }
}

/// Shows the candidates found so far, best first, if the request is still
/// the latest.
fn publish(shared: &Shared, serial: u64, found: &[Option<Candidate>]) {
    shared.update(|table| {
        if let Some(analysis) = table.analysis.as_mut().filter(|a| a.serial == serial) {
            analysis.candidates = found.iter().flatten().cloned().collect();
            table.touch(false);
        }
    });
}

/// Turns analysis off with the reason on the page.
fn fail(shared: &Shared, serial: u64, why: &str) {
    shared.update(|table| {
        if table.analysis.as_ref().is_some_and(|a| a.serial == serial) {
            table.analysis = None;
            table.notice = Some(format!("The analysis engine {why}; analysis is off."));
            table.touch(false);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_quarto_positions_are_solved_first() {
        assert!(small_quarto("position fen quarto 3x3 level=1 board=.../.../... hand=- turn=1"));
        assert!(!small_quarto("position fen quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1"));
        assert!(small_quarto("position fen quarto 4x4 level=2 board=0f../...3/5a../.... hand=6 turn=1"));
        assert!(!small_quarto("position fen quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1"));
    }
}
