//! Plays the engine seats: one engine process per seat, started when the
//! seat first has to move and kept while its settings stay the same (told
//! `ucinewgame` before its first move of each new game), and quit as soon as
//! no seat uses it. It searches for its time per move (`go movetime`) or,
//! with clocks, on its clock (`go wtime ...`, see [`crate::clock`]); its
//! scores feed the evaluation bar. Each answer is checked with the library before it is
//! played; an engine that crashes, hangs or plays an illegal move is
//! reported on the page, its seat becomes human and the game is kept.

use crate::shared::Shared;
use crate::table::Seat;
use crate::thinking::{read_info, Thinking};
use arena::engine::{EngineError, EngineProcess, EngineSpec};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long past its time per move (or its clock, which [`crate::clock`]
/// flags first) an engine may take before it counts as hung.
const GRACE: Duration = Duration::from_secs(3);
/// The shortest time between two updates of what an engine is thinking.
const THINKING_SHOWN: Duration = Duration::from_millis(50);
/// How often a thinking engine's seat is checked for a take-back.
const POLL: Duration = Duration::from_millis(100);

/// A move to find: everything the engine needs, taken under the lock.
struct Turn {
    generation: u64,
    /// The game (see `Table::game`).
    game: u64,
    seat: usize,
    settings: Settings,
    /// How long the engine may think: its time per move, or its clock.
    limit: Duration,
    /// `go movetime ...`, or `go wtime ...` with clocks.
    go: String,
    position: String,
}

/// What an engine process was started with; a change needs a new process.
#[derive(Clone, PartialEq)]
struct Settings {
    options: Vec<(String, String)>,
}

struct Running {
    settings: Settings,
    process: EngineProcess,
    /// The game it last played.
    game: u64,
}

/// What the driver is to do next.
enum Next {
    Turn(Turn),
    /// Quit the engines of the seats that no longer want them: the settings
    /// each seat wants now (`None`: no engine).
    Tidy(Vec<Option<Settings>>),
}

/// Why no move came.
enum Failure {
    /// The game moved on (a take-back, a new game): the answer is not wanted.
    Stale,
    Fault(String),
}

/// Runs until the board quits.
pub fn drive(shared: Arc<Shared>) {
    let mut engines: Vec<Option<Running>> = Vec::new();
    let mut tried = None;
    loop {
        let running: Vec<Option<Settings>> =
            engines.iter().map(|slot| slot.as_ref().map(|r| r.settings.clone())).collect();
        let turn = match next(&shared, tried, &running) {
            None => return,
            Some(Next::Tidy(wanted)) => {
                for (seat, slot) in engines.iter_mut().enumerate() {
                    if slot
                        .as_ref()
                        .is_some_and(|r| wanted.get(seat).cloned().flatten() != Some(r.settings.clone()))
                    {
                        if let Some(idle) = slot.take() {
                            idle.process.quit();
                        }
                    }
                }
                continue;
            }
            Some(Next::Turn(turn)) => turn,
        };
        tried = Some(turn.generation);
        engines.resize_with(engines.len().max(turn.seat + 1), || None);
        let slot = &mut engines[turn.seat];
        let answer = think(&shared, slot, &turn);
        shared.update(|table| {
            // An answer after the engine's clock fell loses on time.
            if table.generation != turn.generation || table.flag(Instant::now()) {
                return;
            }
            let fault = match answer {
                Ok(text) => match table.play(&text) {
                    Ok(()) => return,
                    Err(e) => {
                        format!("played an illegal move '{}' ({e})", tabula::protocol::parse::quoted(&text))
                    }
                },
                Err(Failure::Fault(why)) => why,
                Err(Failure::Stale) => return,
            };
            *slot = None;
            table.seats[turn.seat] = Seat::Human;
            table.notice =
                Some(format!("The engine in seat P{} {fault}; the seat is now human.", turn.seat + 1));
            table.touch(true);
        });
    }
}

/// The settings of the engine each seat wants now (`None`: a person's seat).
fn wanted(table: &crate::table::Table) -> Vec<Option<Settings>> {
    let settings = |level: Option<u32>| {
        let mut options = table.variant.engine_options();
        options.push(("Level".into(), level.unwrap_or(10).to_string()));
        Settings { options }
    };
    table
        .seats
        .iter()
        .map(|seat| match seat {
            Seat::Engine { level, .. } => Some(settings(*level)),
            Seat::Human => None,
        })
        .collect()
}

/// Waits for an engine seat to be on move in a generation not yet tried,
/// or for an engine of `running` that no seat wants any more.
fn next(shared: &Shared, tried: Option<u64>, running: &[Option<Settings>]) -> Option<Next> {
    let mut table = shared.lock();
    loop {
        if shared.quitting.load(Ordering::Relaxed) {
            return None;
        }
        let wanted = wanted(&table);
        let idle = running
            .iter()
            .enumerate()
            .any(|(seat, r)| r.is_some() && wanted.get(seat).cloned().flatten() != *r);
        if idle {
            return Some(Next::Tidy(wanted));
        }
        if tried != Some(table.generation) {
            if let Some(seat) = table.seat_to_move() {
                if let (Seat::Engine { movetime_ms, .. }, Some(settings)) =
                    (&table.seats[seat], &wanted[seat])
                {
                    let now = Instant::now();
                    let (limit, go) = match &table.clock {
                        Some(clocks) => (clocks.left(seat, now), clocks.go_command(seat, now)),
                        None => (Duration::from_millis(*movetime_ms), format!("go movetime {movetime_ms}")),
                    };
                    return Some(Next::Turn(Turn {
                        generation: table.generation,
                        game: table.game,
                        seat,
                        settings: settings.clone(),
                        limit,
                        go,
                        position: table.position_command(),
                    }));
                }
            }
        }
        table = shared.wait(table, Duration::from_millis(500));
    }
}

/// Asks the seat's engine for a move, showing its `info` as it comes.
fn think(shared: &Shared, slot: &mut Option<Running>, turn: &Turn) -> Result<String, Failure> {
    if slot.as_ref().is_none_or(|r| r.settings != turn.settings) {
        *slot = None;
        *slot = Some(start(shared, &turn.settings).map_err(|e| Failure::Fault(e.to_string()))?);
    }
    let Some(running) = slot.as_mut() else { return Err(Failure::Stale) };
    if running.game != turn.game {
        // The same engine, another game: it forgets the last one first.
        let fresh = running.process.send("ucinewgame").and_then(|()| running.process.sync(GRACE));
        if let Err(e) = fresh {
            *slot = None;
            return Err(Failure::Fault(e.to_string()));
        }
        running.game = turn.game;
    }
    let answer = search(shared, &mut running.process, turn);
    if matches!(answer, Err(Failure::Fault(_))) {
        *slot = None;
    }
    answer
}

fn start(shared: &Shared, settings: &Settings) -> Result<Running, EngineError> {
    let process = start_engine(shared, &settings.options)?;
    // `ucinewgame` comes with its first game (see `think`).
    Ok(Running { settings: settings.clone(), process, game: u64::MAX })
}

/// Starts the board's engine command with `options` set, ready for a
/// command (the seats' engines and the analysis engine alike).
pub fn start_engine(shared: &Shared, options: &[(String, String)]) -> Result<EngineProcess, EngineError> {
    let spec = EngineSpec {
        name: shared.engine.command.display().to_string(),
        command: shared.engine.command.clone(),
        args: shared.engine.args.clone(),
        ..EngineSpec::default()
    };
    let mut process = EngineProcess::start(&spec)?;
    for (name, value) in options {
        if let Some(refused) = process.set_option(name, value)? {
            log::info!("{refused}");
        }
    }
    process.sync(spec.handshake_timeout())?;
    Ok(process)
}

fn search(shared: &Shared, engine: &mut EngineProcess, turn: &Turn) -> Result<String, Failure> {
    let fault = |e: EngineError| Failure::Fault(e.to_string());
    engine.send(&turn.position).map_err(fault)?;
    engine.send(&turn.go).map_err(fault)?;
    let deadline = Instant::now() + turn.limit + GRACE;
    let mut stopped = false;
    // At most one update of the page per THINKING_SHOWN (an engine may print
    // far more lines than a page can draw); the latest line held back is
    // shown once that time has passed, so the page ends on the engine's
    // latest word and not on whichever line happened to be due.
    let mut shown: Option<Instant> = None;
    let mut held: Option<Thinking> = None;
    let mut show_due = |held: &mut Option<Thinking>| {
        if shown.is_none_or(|at| at.elapsed() >= THINKING_SHOWN) {
            if let Some(thinking) = held.take() {
                shown = Some(Instant::now());
                show(shared, turn, thinking);
            }
        }
    };
    loop {
        let line = match engine.read_line(deadline.min(Instant::now() + POLL), "bestmove") {
            Ok(line) => line,
            Err(EngineError::Timeout(what)) => {
                show_due(&mut held);
                if Instant::now() >= deadline {
                    return Err(Failure::Fault(format!("sent no {what} in time")));
                }
                if !stopped && shared.lock().generation != turn.generation {
                    // Taken back while thinking: stop, and drain the answer.
                    engine.send("stop").map_err(fault)?;
                    stopped = true;
                }
                continue;
            }
            Err(e) => return Err(fault(e)),
        };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") if stopped => return Err(Failure::Stale),
            Some("bestmove") => return Ok(words.next().unwrap_or("").to_string()),
            Some("info") => {
                if let Some(thinking) = read_info(&line, turn.seat) {
                    held = Some(thinking);
                }
                show_due(&mut held);
            }
            _ => {}
        }
    }
}

/// Shows what an engine is thinking on the page, unless the game moved on.
fn show(shared: &Shared, turn: &Turn, thinking: Thinking) {
    shared.update(|table| {
        if table.generation == turn.generation {
            if let Some(eval) = thinking.eval(table.variant.players()) {
                table.eval = Some(eval);
            }
            table.thinking = Some(thinking);
            table.touch(false);
        }
    });
}
