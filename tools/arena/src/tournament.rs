//! Runs a match: worker threads (one per concurrent game) start the engines
//! of a game, configure them and let the referee play it; the calling thread
//! alone prints, records, keeps the standings and decides when to stop
//! (all games played, SPRT decided, an engine crashed without `-recover`,
//! or an interrupt).

use crate::cli::Config;
use crate::engine::{EngineError, EngineProcess};
use crate::record::{append, format_record, result_token, today};
use crate::referee::{play_game, Fault, GameRecord, GameSetup};
use crate::schedule::{schedule, Job};
use crate::standings::Standings;
use crossbeam_channel::unbounded;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default extra time beyond the clock before a move counts as late.
const DEFAULT_MARGIN: Duration = Duration::from_millis(100);

enum Event {
    Started(Job),
    /// The sender is dropped once the game is judged, and with it any
    /// decision to stop, so the worker takes no job the match no longer wants.
    Finished(Job, GameRecord, crossbeam_channel::Sender<()>),
    Warning(String),
}

/// How a run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    Completed,
    SprtDecided,
    StoppedAfterCrash(String),
    Interrupted,
}

/// Plays the match, printing to `out`.
pub fn run(config: &Config, interrupted: Arc<AtomicBool>, out: &mut dyn Write) -> Result<Ending, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if config.concurrency > cores && !config.force_concurrency {
        return Err(format!(
            "-concurrency {} exceeds the {cores} cores of this machine (add -force-concurrency to insist)",
            config.concurrency
        ));
    }
    let jobs = schedule(config)?;
    let total = jobs.len();
    let names: Vec<String> = config.engines.iter().map(|e| e.spec.name.clone()).collect();
    let players = config.variant.players();
    let stop = Arc::new(AtomicBool::new(false));
    let (job_sender, job_receiver) = unbounded::<Job>();
    jobs.into_iter().for_each(|j| {
        let _ = job_sender.send(j);
    });
    drop(job_sender);
    let (events, reports) = unbounded::<Event>();
    let mut workers = Vec::new();
    for _ in 0..config.concurrency {
        let (jobs, events) = (job_receiver.clone(), events.clone());
        let (stop, interrupted, config) = (stop.clone(), interrupted.clone(), config.clone());
        workers.push(std::thread::spawn(move || {
            for job in jobs {
                if stop.load(Ordering::Relaxed) || interrupted.load(Ordering::Relaxed) {
                    break;
                }
                let _ = events.send(Event::Started(job.clone()));
                let record = play_job(&config, &job, &interrupted, &events);
                let (judged, wait_judged) = crossbeam_channel::bounded::<()>(0);
                let _ = events.send(Event::Finished(job, record, judged));
                let _ = wait_judged.recv();
            }
        }));
    }
    drop(events);
    let mut standings = Standings::new(names.clone(), players);
    let mut ending = Ending::Completed;
    let time_control = describe_limits(config);
    let date = today();
    let terminal = std::io::stdout().is_terminal();
    let say = |out: &mut dyn Write, line: &str| {
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    };
    for event in reports {
        match event {
            Event::Warning(text) => say(out, &format!("Warning: {text}")),
            Event::Started(job) => {
                let who: Vec<&str> = job.seats.iter().map(|&e| names[e].as_str()).collect();
                say(out, &format!("Started game {} of {total} ({})", job.number, who.join(" vs ")));
            }
            Event::Finished(job, record, _judged) => {
                if record.interrupted {
                    continue;
                }
                let who: Vec<&str> = job.seats.iter().map(|&e| names[e].as_str()).collect();
                let result = result_token(&record, players);
                say(
                    out,
                    &format!(
                        "Finished game {} ({}): {result} {{{}}}",
                        job.number,
                        who.join(" vs "),
                        record.termination
                    ),
                );
                standings.record(&job, &record, config.repeat);
                if let Some(path) = &config.pgn_out {
                    let text = format_record(
                        &job,
                        &record,
                        &names,
                        &config.variant.describe(),
                        &time_control,
                        &date,
                    );
                    if let Err(e) = append(path, &text) {
                        say(out, &format!("Warning: cannot write {}: {e}", path.display()));
                    }
                }
                let progress = standings.progress(total);
                say(
                    out,
                    &if terminal {
                        format!("{} {progress}", bar(standings.games as usize, total))
                    } else {
                        progress
                    },
                );
                let done = standings.games as usize;
                if done.is_multiple_of(config.rating_interval.max(1)) && done < total {
                    standings.report(config.sprt.as_ref()).iter().for_each(|l| say(out, l));
                }
                if let Some(sprt) = &config.sprt {
                    if standings.sprt(sprt).1.is_some() && ending == Ending::Completed {
                        ending = Ending::SprtDecided;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                let crashed = record.faults.iter().find(|(_, f)| *f == Fault::Crash);
                if let (Some(&(seat, _)), false) = (crashed, config.recover) {
                    if ending == Ending::Completed {
                        let name = &names[job.seats[seat]];
                        say(
                            out,
                            &format!("{name} crashed or failed to start; stopping (use -recover to go on)"),
                        );
                        ending = Ending::StoppedAfterCrash(name.clone());
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if interrupted.load(Ordering::Relaxed) {
        ending = Ending::Interrupted;
        say(out, "Interrupted: results so far");
    }
    say(out, "Final results:");
    standings.report(config.sprt.as_ref()).iter().for_each(|l| say(out, l));
    Ok(ending)
}

/// Starts and configures the engines of a game, then plays it.
fn play_job(
    config: &Config,
    job: &Job,
    interrupted: &AtomicBool,
    events: &crossbeam_channel::Sender<Event>,
) -> GameRecord {
    let players = job.seats.len();
    let mut engines = Vec::new();
    let mut failed = Vec::new();
    for (seat, &index) in job.seats.iter().enumerate() {
        match start_engine(config, index, events) {
            Ok(engine) => engines.push(Some(engine)),
            Err(e) => {
                engines.push(None);
                failed.push((seat, e));
            }
        }
    }
    // Two players: the game is lost before it starts. Four players: the
    // engine is out, as if it had crashed at its first turn.
    if !failed.is_empty() && (players == 2 || failed.len() >= players - 1) {
        let (seat, e) = &failed[0];
        let others: Vec<usize> = (0..players).filter(|s| !failed.iter().any(|(f, _)| f == s)).collect();
        return GameRecord {
            winner: if others.len() == 1 { others.first().copied() } else { None },
            termination: crate::referee::capped(&format!("P{} fails to start: {e}", seat + 1)),
            moves: Vec::new(),
            faults: failed.iter().map(|(s, _)| (*s, Fault::Crash)).collect(),
            interrupted: false,
        };
    }
    let setup = GameSetup {
        variant: &config.variant,
        opening: &job.opening,
        limits: job.seats.iter().map(|&e| config.engines[e].limit.clone().unwrap_or_default()).collect(),
        margins: job.seats.iter().map(|&e| config.engines[e].margin.unwrap_or(DEFAULT_MARGIN)).collect(),
        max_plies: config.max_plies.unwrap_or_else(|| config.variant.default_max_plies()),
        interrupted,
    };
    let mut record = play_game(&setup, &mut engines);
    let mut faults: Vec<(usize, Fault)> = failed.iter().map(|(s, _)| (*s, Fault::Crash)).collect();
    faults.append(&mut record.faults);
    record.faults = faults;
    for engine in engines.into_iter().flatten() {
        engine.quit();
    }
    record
}

fn start_engine(
    config: &Config,
    index: usize,
    events: &crossbeam_channel::Sender<Event>,
) -> Result<EngineProcess, EngineError> {
    let spec = &config.engines[index].spec;
    let mut engine = EngineProcess::start(spec)?;
    let mut settings = config.variant.engine_options();
    settings.extend(spec.options.iter().cloned());
    for (name, value) in settings {
        if let Some(refusal) = engine.set_option(&name, &value)? {
            let _ = events.send(Event::Warning(refusal));
        }
    }
    engine.sync(spec.handshake_timeout())?;
    Ok(engine)
}

fn describe_limits(config: &Config) -> String {
    let all: Vec<String> =
        config.engines.iter().map(|e| e.limit.clone().unwrap_or_default().describe()).collect();
    if all.iter().all(|l| *l == all[0]) {
        all[0].clone()
    } else {
        all.join(" | ")
    }
}

fn bar(done: usize, total: usize) -> String {
    let width = 20;
    let filled = done * width / total.max(1);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}
