//! Runs a match: worker threads (one per concurrent game) start the engines
//! of a game, configure them and let the referee play it; the calling thread
//! alone prints, records, keeps the standings and decides when to stop
//! (all games played, SPRT decided, an engine crashed without `-recover`,
//! or an interrupt).

use crate::config::{Config, EngineConfig};
use crate::engine::{EngineError, EngineProcess, Protocol};
use crate::record::{append, result_token, today, write_record, RecordInfo};
use crate::referee::{play_game, Fault, GameRecord, GameSetup};
use crate::results::{append_line, GameLine, RunFacts};
use crate::schedule::schedule;
use crate::setup::Job;
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
    let mut jobs = schedule(config)?;
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
    for (flag, path) in [("-pgnout", &config.pgn_out), ("-results", &config.results)] {
        if let Some(path) = path {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {flag} {}: {e}", path.display()))?;
        }
    }
    let total = jobs.len();
    let stop = Arc::new(AtomicBool::new(false));
    let (reports, workers) = start_workers(config, jobs, &stop, &interrupted);
    let names: Vec<String> = config.engines.iter().map(|e| e.spec.name.clone()).collect();
    let mut match_report = MatchReport {
        config,
        standings: Standings::new(names.clone(), config.variant.players()),
        names,
        total,
        ending: Ending::Completed,
        time_control: describe_limits(config),
        date: today(),
        terminal: std::io::stdout().is_terminal(),
        out,
    };
    for event in reports {
        match event {
            Event::Warning(text) => match_report.say(&format!("Warning: {text}")),
            Event::Started(job) => match_report.started(&job),
            Event::Finished(job, record, _judged) => {
                if !record.interrupted && match_report.finished(&job, &record) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if interrupted.load(Ordering::Relaxed) {
        match_report.ending = Ending::Interrupted;
        match_report.say("Interrupted: results so far");
    }
    match_report.say("Final results:");
    for line in match_report.standings.report(config.sprt.as_ref()) {
        match_report.say(&line);
    }
    Ok(match_report.ending)
}

/// Starts `config.concurrency` threads that play the jobs in turn; each
/// game's events arrive on the channel returned, which closes when all are
/// done (or `stop` or `interrupted` is set).
fn start_workers(
    config: &Config,
    jobs: Vec<Job>,
    stop: &Arc<AtomicBool>,
    interrupted: &Arc<AtomicBool>,
) -> (crossbeam_channel::Receiver<Event>, Vec<std::thread::JoinHandle<()>>) {
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
    (reports, workers)
}

/// What the match prints as games start and end, and the standings.
struct MatchReport<'a> {
    config: &'a Config,
    standings: Standings,
    names: Vec<String>,
    total: usize,
    ending: Ending,
    time_control: String,
    date: String,
    /// A progress bar only on a terminal.
    terminal: bool,
    out: &'a mut dyn Write,
}

impl MatchReport<'_> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
    }

    fn who(&self, job: &Job) -> String {
        job.seats.iter().map(|&e| self.names[e].as_str()).collect::<Vec<_>>().join(" vs ")
    }

    fn started(&mut self, job: &Job) {
        let line = format!("Started game {} of {} ({})", job.number, self.total, self.who(job));
        self.say(&line);
    }

    /// Counts a finished game, writes its record and the progress; true
    /// when the match should stop (SPRT decided, or a crash without
    /// `-recover`).
    fn finished(&mut self, job: &Job, record: &GameRecord) -> bool {
        let result = result_token(record, self.config.variant.players());
        let line =
            format!("Finished game {} ({}): {result} {{{}}}", job.number, self.who(job), record.termination);
        self.say(&line);
        self.standings.record(job, record, self.config.repeat);
        if let Some(path) = &self.config.pgn_out {
            let variant = self.config.variant.describe();
            let info = RecordInfo {
                names: &self.names,
                variant: &variant,
                time_control: &self.time_control,
                date: &self.date,
                event: &self.config.event,
                site: &self.config.site,
                minimal: self.config.pgn_min,
            };
            let text = write_record(job, record, &info);
            if let Err(e) = append(path, &text) {
                self.say(&format!("Warning: cannot write {}: {e}", path.display()));
            }
        }
        if let Some(path) = &self.config.results {
            let variant = self.config.variant.describe();
            let facts = RunFacts {
                names: &self.names,
                repeat: self.config.repeat,
                variant: &variant,
                time_control: &self.time_control,
                date: &self.date,
                sprt: self.config.sprt.as_ref(),
                event: &self.config.event,
                site: &self.config.site,
            };
            if let Err(e) = append_line(path, &GameLine::new(job, record, &facts)) {
                self.say(&format!("Warning: {e}"));
            }
        }
        let progress = self.standings.progress(self.total);
        let done = self.standings.games as usize;
        let line = if self.terminal { format!("{} {progress}", bar(done, self.total)) } else { progress };
        self.say(&line);
        if done.is_multiple_of(self.config.rating_interval.max(1)) && done < self.total {
            for line in self.standings.report(self.config.sprt.as_ref()) {
                self.say(&line);
            }
        }
        self.judge_stop(job, record)
    }

    /// Whether this game ends the match early.
    fn judge_stop(&mut self, job: &Job, record: &GameRecord) -> bool {
        if self.ending != Ending::Completed {
            return false;
        }
        if let Some(sprt) = &self.config.sprt {
            if self.standings.sprt(sprt).1.is_some() {
                self.ending = Ending::SprtDecided;
                return true;
            }
        }
        let crashed = record.faults.iter().find(|(_, f)| *f == Fault::Crash);
        if let (Some(&(seat, _)), false) = (crashed, self.config.recover) {
            let name = self.names[job.seats[seat]].clone();
            self.say(&format!("{name} crashed or failed to start; stopping (use -recover to go on)"));
            self.ending = Ending::StoppedAfterCrash(name);
            return true;
        }
        false
    }
}

/// Starts and configures the engines of a game, then plays it.
fn play_job(
    config: &Config,
    job: &Job,
    interrupted: &Arc<AtomicBool>,
    events: &crossbeam_channel::Sender<Event>,
) -> GameRecord {
    let players = job.seats.len();
    let mut engines = Vec::new();
    let mut failed = Vec::new();
    for (seat, &index) in job.seats.iter().enumerate() {
        match start_engine(config, index, interrupted, events) {
            Ok(engine) => engines.push(Some(engine)),
            Err(e) => {
                engines.push(None);
                failed.push((seat, e));
            }
        }
    }
    // Interrupted while engines started: the game does not count.
    if interrupted.load(Ordering::Relaxed) {
        return GameRecord {
            winner: None,
            termination: "interrupted".into(),
            moves: Vec::new(),
            faults: Vec::new(),
            interrupted: true,
            comment: None,
        };
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
            comment: None,
        };
    }
    let setup = GameSetup {
        variant: &config.variant,
        opening: &job.opening,
        limits: job.seats.iter().map(|&e| config.engines[e].limit.clone().unwrap_or_default()).collect(),
        margins: job.seats.iter().map(|&e| config.engines[e].margin.unwrap_or(DEFAULT_MARGIN)).collect(),
        unclocked: job.seats.iter().map(|&e| config.engines[e].infinite == Some(true)).collect(),
        max_plies: config.max_plies.unwrap_or_else(|| config.variant.default_max_plies()),
        max_moves: config.max_moves,
        adjudication: config.adjudication,
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
    interrupted: &Arc<AtomicBool>,
    events: &crossbeam_channel::Sender<Event>,
) -> Result<EngineProcess, EngineError> {
    let spec = &config.engines[index].spec;
    let mut engine = EngineProcess::start_interruptible(spec, Some(interrupted.clone()))?;
    // A QTP engine hears the game from `boardsize` and `walls`.
    let qtp = spec.protocol == Protocol::Qtp;
    let mut settings = if qtp { Vec::new() } else { config.variant.engine_options() };
    settings.extend(spec.options.iter().cloned());
    for (name, value) in settings {
        let refusal = if qtp {
            crate::qtp::set_option(&mut engine, &name, &value)?
        } else {
            engine.set_option(&name, &value)?
        };
        if let Some(refusal) = refusal {
            let _ = events.send(Event::Warning(refusal));
        }
    }
    engine.sync(spec.handshake_timeout())?;
    Ok(engine)
}

fn describe_limits(config: &Config) -> String {
    let describe = |e: &EngineConfig| {
        let limit = e.limit.clone().unwrap_or_default().describe();
        if e.infinite == Some(true) {
            format!("inf {limit}")
        } else {
            limit
        }
    };
    let all: Vec<String> = config.engines.iter().map(describe).collect();
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
