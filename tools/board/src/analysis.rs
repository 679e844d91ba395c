//! Analysis mode: one engine process for the whole board, whoever asks,
//! analysing the position a page shows without end (`go infinite` with
//! `MultiPV`), its candidate moves published with the view. A change of the
//! position or of the number of lines stops the search and starts the next;
//! turning analysis off, or no page watching (no event stream open), quits
//! the engine, so that its CPU stops. A Quarto position small enough to
//! solve quickly (the 3x3 game, or 4x4 with [`SOLVE_MIN_PLACED`] pieces
//! down) is first given to `go solve` for at most [`SOLVE_CAP`]: its exact
//! value and best move are shown with the candidates.

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
/// How long a stopped search may take to answer `bestmove`.
const GRACE: Duration = Duration::from_secs(5);
/// A 4x4 Quarto position with this many pieces down is solved first...
pub const SOLVE_MIN_PLACED: usize = 5;
/// ...for at most this long.
pub const SOLVE_CAP: Duration = Duration::from_secs(2);

/// What to analyse: the position after the first `ply` moves of the game
/// (`None`: the latest, following the game as it goes on), with `lines`
/// candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub lines: usize,
    pub ply: Option<usize>,
}

/// One candidate move: its rank (1 the best), the depth it was searched
/// to, its score as the engine gives it (`cp 31`, `mate 3`), and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub rank: usize,
    pub depth: u32,
    pub score: Option<String>,
    pub pv: Vec<String>,
}

/// Analysis as it stands: what was asked, the position it stands for, and
/// what the engine found so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub request: Request,
    /// The ply analysed and its `position ...` command.
    pub ply: usize,
    pub command: String,
    /// Counts the positions and line counts asked for, so that lines of an
    /// older one are not shown.
    pub serial: u64,
    pub candidates: Vec<Candidate>,
    /// The solver's value of a small Quarto position: who wins (`first`,
    /// the player to move; `second`; `draw`), in how many plies, and the
    /// first move of its line.
    pub proven: Option<ProvenValue>,
}

/// `go solve`'s answer for the position analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenValue {
    pub winner: String,
    pub plies: Option<u32>,
    pub best: Option<String>,
}

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
        if let Some(proven) = solve(engine)? {
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
                    if let Some(slot) = found.get_mut(candidate.rank - 1) {
                        *slot = Some(candidate);
                        fresh = true;
                    }
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
    let deadline = Instant::now() + GRACE;
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

/// `go solve` within [`SOLVE_CAP`] (then stopped): the value found, if any.
fn solve(engine: &mut EngineProcess) -> Result<Option<ProvenValue>, EngineError> {
    engine.send("go solve")?;
    let cap = Instant::now() + SOLVE_CAP;
    let mut found = None;
    let mut stopped = false;
    loop {
        let deadline = if stopped { Instant::now() + GRACE } else { cap };
        match engine.read_line(deadline, "bestmove") {
            Ok(line) if line.starts_with("bestmove") => return Ok(found),
            Ok(line) => found = read_solve_result(&line).or(found),
            Err(EngineError::Timeout(_)) if !stopped => {
                engine.send("stop")?;
                stopped = true;
            }
            Err(e) => return Err(e),
        }
    }
}

/// `info string solve result: first plies=7 positions=P time T pv c1b ...`.
fn read_solve_result(line: &str) -> Option<ProvenValue> {
    let rest = line.strip_prefix("info string solve result: ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let winner = (*words.first()?).to_string();
    let plies = words.iter().find_map(|w| w.strip_prefix("plies=")?.parse().ok());
    let best = words.iter().position(|&w| w == "pv").and_then(|i| words.get(i + 1)).map(|m| m.to_string());
    Some(ProvenValue { winner, plies, best })
}

/// A line of `MultiPV` analysis (`info depth D ... multipv K score ... pv
/// ...`); `None` for other lines.
fn read_candidate(line: &str) -> Option<Candidate> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|&w| w == key).map(|i| i + 1);
    if words.first() != Some(&"info") || after("currmove").is_some() || after("string").is_some() {
        return None;
    }
    let depth = words.get(after("depth")?)?.parse().ok()?;
    let rank = after("multipv").and_then(|i| words.get(i)?.parse().ok()).unwrap_or(1);
    let pv: Vec<String> = words[after("pv")?..].iter().map(|w| w.to_string()).collect();
    if rank == 0 || pv.is_empty() {
        return None;
    }
    let score = after("score").and_then(|i| {
        let (kind, value) = (words.get(i)?, words.get(i + 1)?);
        let bound = words.get(i + 2).filter(|w| matches!(**w, "lowerbound" | "upperbound"));
        Some(match bound {
            Some(bound) => format!("{kind} {value} {bound}"),
            None => format!("{kind} {value}"),
        })
    });
    Some(Candidate { rank, depth, score, pv })
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
    fn multipv_lines_are_read_as_candidates() {
        let c = read_candidate("info depth 9 seldepth 12 multipv 2 score cp -31 nodes 5 pv e2 e8 d3h")
            .expect("a candidate");
        assert_eq!((c.rank, c.depth, c.score.as_deref()), (2, 9, Some("cp -31")));
        assert_eq!(c.pv, ["e2", "e8", "d3h"]);
        let single =
            read_candidate("info depth 4 score mate 3 lowerbound pv e2").expect("no multipv: rank 1");
        assert_eq!((single.rank, single.score.as_deref()), (1, Some("mate 3 lowerbound")));
        for other in [
            "info string proven draw",
            "info depth 9 currmove e2 currmovenumber 1",
            "info depth 9 multipv 0 score cp 1 pv e2",
            "info depth 9 score cp 1",
            "bestmove e2",
        ] {
            assert_eq!(read_candidate(other), None, "{other}");
        }
    }

    #[test]
    fn solve_results_are_read_with_their_best_move() {
        let v =
            read_solve_result("info string solve result: first plies=7 positions=120 time 3 pv c1b a2 b3")
                .expect("a result");
        assert_eq!(v, ProvenValue { winner: "first".into(), plies: Some(7), best: Some("c1b".into()) });
        let draw =
            read_solve_result("info string solve result: draw positions=5 time 1 pv a1").expect("a draw");
        assert_eq!((draw.winner.as_str(), draw.plies), ("draw", None));
        assert_eq!(read_solve_result("info string solve: stopped before the end; no result"), None);
        assert!(small_quarto("position fen quarto 3x3 level=1 board=.../.../... hand=- turn=1"));
        assert!(!small_quarto("position fen quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1"));
        assert!(small_quarto("position fen quarto 4x4 level=2 board=0f../...3/5a../.... hand=6 turn=1"));
        assert!(!small_quarto("position fen quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1"));
    }
}
