//! Runs a match: worker threads (one per concurrent game) play the games
//! of the schedule, or of a knockout as it goes ([`crate::knockout`]); the
//! calling thread alone prints and writes ([`crate::report`]), keeps the
//! standings, saves the match state ([`crate::state`]) and decides when to
//! stop (all games played, SPRT decided, an engine crashed without
//! `-recover`, or an interrupt). A resumed match counts the games of its
//! saved state first and plays the rest.

use crate::config::{Config, Tournament};
use crate::knockout::{openings_of, Knockout};
use crate::play::{Pool, Worker};
use crate::referee::GameRecord;
pub use crate::report::Ending;
use crate::report::MatchReport;
use crate::results::GameLine;
use crate::schedule::schedule;
use crate::setup::Job;
use crate::state::{save, MatchState};
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

enum Event {
    Started(Job),
    /// The sender is dropped once the game is judged, and with it any
    /// decision to stop, so the worker takes no job the match no longer wants.
    Finished(Job, GameRecord, Sender<()>),
    Warning(String),
}

/// Plays the match, printing to `out`.
pub fn run(config: &Config, interrupted: Arc<AtomicBool>, out: &mut dyn Write) -> Result<Ending, String> {
    run_resumed(config, Vec::new(), interrupted, out)
}

/// Where the games come from.
enum Games {
    Scheduled,
    Knockout(Box<Knockout>),
}

/// Plays the match after counting `done`, the finished games of a saved
/// state (as its lines, kept as they are for the next save).
pub fn run_resumed(
    config: &Config,
    done: Vec<GameLine>,
    interrupted: Arc<AtomicBool>,
    out: &mut dyn Write,
) -> Result<Ending, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if config.concurrency > cores && !config.force_concurrency {
        return Err(format!(
            "-concurrency {} exceeds the {cores} cores of this machine (add -force-concurrency to insist)",
            config.concurrency
        ));
    }
    let (mut games, mut jobs) = if config.tournament == Tournament::Knockout {
        if config.pair.is_some() || config.schedule_only {
            return Err(
                "-tournament knockout: its games depend on results; -pair and -schedule cannot list them"
                    .into(),
            );
        }
        (Games::Knockout(Box::new(Knockout::new(config, openings_of(config)?))), Vec::new())
    } else {
        (Games::Scheduled, schedule(config)?)
    };
    if let Some(k) = config.pair {
        let pairs = jobs.iter().map(|j| j.group + 1).max().unwrap_or(0);
        jobs.retain(|j| j.group + 1 == k);
        if jobs.is_empty() {
            return Err(format!("-pair {k}: the match has {pairs} pairs"));
        }
    }
    if config.schedule_only {
        for job in &jobs {
            let seats: Vec<String> = job.seats.iter().map(|s| s.to_string()).collect();
            let line = format!(
                "{{\"game\":{},\"pair\":{},\"seats\":[{}]}}",
                job.number,
                job.group + 1,
                seats.join(",")
            );
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        return Ok(Ending::Completed);
    }
    // Refused before the first game rather than warned about after each.
    for (flag, path) in
        [("-pgnout", &config.pgn_out), ("-results", &config.results), ("-epdout", &config.epd_out)]
    {
        if let Some(path) = path {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {flag} {}: {e}", path.display()))?;
        }
    }
    let total = match &games {
        Games::Scheduled => jobs.len(),
        Games::Knockout(k) => k.least_games(),
    };
    let mut report = MatchReport::new(config, total, out);
    let mut saved = Saved { lines: Vec::new(), since: 0, keeps: config.pair.is_none() };
    let pending = recount(&mut report, &mut games, &mut jobs, done, &mut saved)?;
    let (job_sender, job_receiver) = unbounded::<Job>();
    for job in pending.into_iter().chain(jobs) {
        let _ = job_sender.send(job);
    }
    let mut job_sender = Some(job_sender);
    if matches!(games, Games::Scheduled) || report.ending != Ending::Completed {
        job_sender = None;
    }
    let stop = Arc::new(AtomicBool::new(report.ending != Ending::Completed));
    let (reports, workers) = start_workers(config, job_receiver, &stop, &interrupted);
    for event in reports {
        match event {
            Event::Warning(text) => report.say(&format!("Warning: {text}")),
            Event::Started(job) => report.started(&job),
            Event::Finished(job, record, _judged) => {
                if !record.interrupted {
                    if report.finished(&job, &record) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    saved.lines.push(report.line_of(&job, &record));
                    saved.since += 1;
                    if config.autosave > 0 && saved.since >= config.autosave {
                        saved.write(config, &mut report);
                    }
                }
                if let Games::Knockout(knockout) = &mut games {
                    knockout.record(&job, &record);
                    let more = knockout.jobs();
                    report.total = report.total.max(knockout.issued());
                    for job in more {
                        if let Some(sender) = &job_sender {
                            let _ = sender.send(job);
                        }
                    }
                    let stopping = stop.load(Ordering::Relaxed) || interrupted.load(Ordering::Relaxed);
                    if knockout.champion().is_some() || stopping {
                        job_sender = None;
                    }
                }
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if interrupted.load(Ordering::Relaxed) {
        report.ending = Ending::Interrupted;
        report.say("Interrupted: results so far");
    }
    report.say("Final results:");
    report.results();
    if let Games::Knockout(knockout) = &games {
        let names: Vec<String> = config.engines.iter().map(|e| e.spec.name.clone()).collect();
        for line in knockout.lines(&names) {
            report.say(&line);
        }
    }
    saved.write(config, &mut report);
    Ok(std::mem::replace(&mut report.ending, Ending::Completed))
}

/// The games kept for the saved state, and how many finished since the last save.
struct Saved {
    lines: Vec<GameLine>,
    since: usize,
    /// Whether this run saves its state (a `-pair` run is a part of a
    /// larger match, which tools/cluster keeps).
    keeps: bool,
}

impl Saved {
    fn write(&mut self, config: &Config, report: &mut MatchReport) {
        self.since = 0;
        if !self.keeps {
            return;
        }
        let state = MatchState { args: config.args.clone(), games: self.lines.clone() };
        if let Err(e) = save(&config.state_out, &state) {
            report.say(&format!("Warning: {e}"));
        }
    }
}

/// Counts the games of a saved state and takes them out of what is left
/// to play; for a knockout, plays its bracket forward through them. The
/// knockout's games to play (started, not saved) are returned.
fn recount(
    report: &mut MatchReport,
    games: &mut Games,
    jobs: &mut Vec<Job>,
    done: Vec<GameLine>,
    saved: &mut Saved,
) -> Result<Vec<Job>, String> {
    if done.is_empty() {
        if let Games::Knockout(knockout) = games {
            return Ok(knockout.jobs());
        }
        return Ok(Vec::new());
    }
    let count = done.len();
    let mut finished: HashMap<usize, (Job, GameRecord)> = HashMap::new();
    for line in &done {
        let (job, record) = line.parts()?;
        report.recount(&job, &record);
        finished.insert(job.number, (job, record));
    }
    saved.lines = done;
    report.say(&format!("Resumed: {count} finished games counted"));
    match games {
        Games::Scheduled => {
            jobs.retain(|j| !finished.contains_key(&j.number));
            Ok(Vec::new())
        }
        Games::Knockout(knockout) => {
            // A knockout's games are known by encounter, opening and seats
            // (their numbers follow the order results came in).
            let mut by_game: HashMap<(usize, Vec<usize>), Vec<GameRecord>> = HashMap::new();
            let last = finished.keys().copied().max().unwrap_or(0);
            for (job, record) in finished.into_values() {
                by_game.entry((job.group, job.seats)).or_default().push(record);
            }
            let mut pending = Vec::new();
            loop {
                let mut progressed = false;
                for job in knockout.jobs() {
                    match by_game.get_mut(&(job.group, job.seats.clone())).and_then(Vec::pop) {
                        Some(record) => {
                            knockout.record(&job, &record);
                            progressed = true;
                        }
                        None => pending.push(job),
                    }
                }
                if !progressed {
                    break;
                }
            }
            for (at, job) in pending.iter_mut().enumerate() {
                job.number = last + 1 + at;
            }
            knockout.continue_numbers_after(last + pending.len());
            Ok(pending)
        }
    }
}

/// Starts `config.concurrency` threads that play the jobs of `jobs` in
/// turn; each game's events arrive on the channel returned, which closes
/// when all are done (the job channel closed and empty, or `stop` or
/// `interrupted` set).
fn start_workers(
    config: &Config,
    jobs: Receiver<Job>,
    stop: &Arc<AtomicBool>,
    interrupted: &Arc<AtomicBool>,
) -> (Receiver<Event>, Vec<std::thread::JoinHandle<()>>) {
    let (events, reports) = unbounded::<Event>();
    let mut workers = Vec::new();
    for index in 0..config.concurrency {
        let (jobs, events) = (jobs.clone(), events.clone());
        let (stop, interrupted, config) = (stop.clone(), interrupted.clone(), config.clone());
        workers.push(std::thread::spawn(move || {
            let warnings = events.clone();
            let warn = move |text: String| {
                let _ = warnings.send(Event::Warning(text));
            };
            let worker = Worker { config: &config, index, interrupted: &interrupted, warn: &warn };
            let mut pool = Pool::default();
            let mut first = true;
            for job in jobs {
                if stop.load(Ordering::Relaxed) || interrupted.load(Ordering::Relaxed) {
                    break;
                }
                if !first && !pause(config.wait, &interrupted) {
                    break;
                }
                first = false;
                let _ = events.send(Event::Started(job.clone()));
                let record = worker.play(&job, &mut pool);
                let (judged, wait_judged) = crossbeam_channel::bounded::<()>(0);
                let _ = events.send(Event::Finished(job, record, judged));
                let _ = wait_judged.recv();
            }
            pool.close();
        }));
    }
    (reports, workers)
}

/// `-wait MS` between games; false when interrupted meanwhile.
fn pause(wait: Duration, interrupted: &AtomicBool) -> bool {
    let end = std::time::Instant::now() + wait;
    while std::time::Instant::now() < end {
        if interrupted.load(Ordering::Relaxed) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20).min(end - std::time::Instant::now()));
    }
    !interrupted.load(Ordering::Relaxed)
}
