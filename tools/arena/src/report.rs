//! What a match prints and writes as games start and end: the `Started` and
//! `Finished` lines, progress, results every `-ratinginterval` games (in
//! cutechess-cli's or fastchess's form), the records (`-pgnout`), the last
//! positions (`-epdout`), results lines (`-results`), and whether a game
//! ends the match (SPRT decided, a crash without `-recover`).

use crate::config::{Config, EngineConfig, OpeningSource, OutputFormat};
use crate::record::{append, result_token, today, write_record, RecordInfo};
use crate::referee::{Fault, GameRecord, SKIPPED};
use crate::results::{append_line, GameLine, RunFacts};
use crate::setup::{opening_position, Job};
use crate::standings::Standings;
use crate::stats::fastchess::Heading;
use std::io::{IsTerminal, Write};

/// How a run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    Completed,
    SprtDecided,
    StoppedAfterCrash(String),
    Interrupted,
}

/// The printing and writing side of a match.
pub struct MatchReport<'a> {
    config: &'a Config,
    pub standings: Standings,
    names: Vec<String>,
    /// The games to play (for a knockout, as many as known so far).
    pub total: usize,
    pub ending: Ending,
    time_control: String,
    date: String,
    /// The `Variant` tag.
    variant: String,
    /// A progress bar only on a terminal.
    terminal: bool,
    out: &'a mut dyn Write,
}

impl<'a> MatchReport<'a> {
    pub fn new(config: &'a Config, total: usize, out: &'a mut dyn Write) -> MatchReport<'a> {
        let names: Vec<String> = config.engines.iter().map(|e| e.spec.name.clone()).collect();
        MatchReport {
            config,
            standings: Standings::new(names.clone(), config.variant.players()),
            names,
            total,
            ending: Ending::Completed,
            time_control: describe_limits(config),
            date: today(),
            variant: config.variant.describe(),
            terminal: std::io::stdout().is_terminal(),
            out,
        }
    }

    pub fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}").and_then(|_| self.out.flush());
    }

    fn who(&self, job: &Job) -> String {
        job.seats.iter().map(|&e| self.names[e].as_str()).collect::<Vec<_>>().join(" vs ")
    }

    pub fn started(&mut self, job: &Job) {
        let line = format!("Started game {} of {} ({})", job.number, self.total, self.who(job));
        self.say(&line);
    }

    /// A game finished in an earlier run of a resumed match: counted, not
    /// printed or written again.
    pub fn recount(&mut self, job: &Job, record: &GameRecord) {
        self.standings.record(job, record, self.config.pairs_counted());
        if self.config.sprt.is_some() && self.ending == Ending::Completed && self.sprt_decided() {
            self.ending = Ending::SprtDecided;
        }
    }

    /// Counts a finished game, writes what is asked of it and the progress;
    /// true when the match should stop (SPRT decided, or a crash without
    /// `-recover`).
    pub fn finished(&mut self, job: &Job, record: &GameRecord) -> bool {
        let result = result_token(record, self.config.variant.players());
        let line =
            format!("Finished game {} ({}): {result} {{{}}}", job.number, self.who(job), record.termination);
        self.say(&line);
        self.standings.record(job, record, self.config.pairs_counted());
        self.write_files(job, record);
        let done = self.standings.games as usize;
        self.total = self.total.max(done);
        let progress = self.standings.progress(self.total);
        let line = if self.terminal { format!("{} {progress}", bar(done, self.total)) } else { progress };
        self.say(&line);
        let interval = self.config.rating_interval;
        if interval > 0 && done.is_multiple_of(interval) && done < self.total {
            self.results();
        }
        self.judge_stop(job, record)
    }

    /// The results so far, in the form `-output` asks for.
    pub fn results(&mut self) {
        let lines = match self.config.output {
            OutputFormat::Cutechess => self.standings.report(self.config.sprt.as_ref()),
            OutputFormat::Fastchess => {
                let heading = heading(self.config);
                let heading = Heading {
                    time_control: &heading.0,
                    threads: &heading.1,
                    hash: &heading.2,
                    book: heading.3.as_deref(),
                };
                self.standings.report_fastchess(self.config.sprt.as_ref(), &heading)
            }
        };
        for line in lines {
            self.say(&line);
        }
    }

    /// `-pgnout`, `-epdout` and `-results` for one game.
    fn write_files(&mut self, job: &Job, record: &GameRecord) {
        if let Some(path) = &self.config.pgn_out {
            let info = RecordInfo {
                names: &self.names,
                variant: &self.variant,
                time_control: &self.time_control,
                date: &self.date,
                event: &self.config.event,
                site: &self.config.site,
                minimal: self.config.pgn_min,
                extras: self.config.pgn_extras,
            };
            let text = write_record(job, record, &info);
            if let Err(e) = append(path, &text) {
                self.say(&format!("Warning: cannot write {}: {e}", path.display()));
            }
        }
        if let Some(path) = &self.config.epd_out {
            let written = last_position(self.config, job, record).and_then(|text| {
                append(path, &format!("{text}\n")).map_err(|e| format!("{}: {e}", path.display()))
            });
            if let Err(e) = written {
                self.say(&format!("Warning: -epdout: game {}: {e}", job.number));
            }
        }
        if let Some(path) = &self.config.results {
            if let Err(e) = append_line(path, &self.line_of(job, record)) {
                self.say(&format!("Warning: {e}"));
            }
        }
    }

    /// The results line of a game, as `-results` and the saved state write it.
    pub fn line_of(&self, job: &Job, record: &GameRecord) -> GameLine {
        let facts = RunFacts {
            names: &self.names,
            repeat: self.config.pairs_counted(),
            variant: &self.variant,
            time_control: &self.time_control,
            date: &self.date,
            sprt: self.config.sprt.as_ref(),
            event: &self.config.event,
            site: &self.config.site,
        };
        GameLine::new(job, record, &facts)
    }

    fn sprt_decided(&self) -> bool {
        self.config.sprt.as_ref().is_some_and(|sprt| self.standings.sprt(sprt).1.is_some())
    }

    /// Whether this game ends the match early.
    fn judge_stop(&mut self, job: &Job, record: &GameRecord) -> bool {
        if self.ending != Ending::Completed {
            return false;
        }
        if self.sprt_decided() {
            self.ending = Ending::SprtDecided;
            return true;
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

/// The position a game ended in, as a position text (`-epdout`).
fn last_position(config: &Config, job: &Job, record: &GameRecord) -> Result<String, String> {
    let (mut position, _) = opening_position(&job.opening, &config.variant)?;
    for played in record.moves.iter().filter(|m| m.text != SKIPPED) {
        position.play_text(&played.text).map_err(|e| e.to_string())?;
    }
    Ok(position.to_text())
}

/// The time control of every engine, or of each when they differ.
pub fn describe_limits(config: &Config) -> String {
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

/// fastchess's heading: time control, threads, hash (as set with
/// `option.Threads` and `option.Hash`, else `NULL`) and the openings file.
fn heading(config: &Config) -> (String, String, String, Option<String>) {
    let option = |name: &str, suffix: &str| {
        let values: Vec<String> = config
            .engines
            .iter()
            .map(|e| {
                let value = e.spec.options.iter().rev().find(|(n, _)| n.eq_ignore_ascii_case(name));
                value.map_or("NULL".to_string(), |(_, v)| format!("{v}{suffix}"))
            })
            .collect();
        if values.iter().all(|v| *v == values[0]) {
            values[0].clone()
        } else {
            values.join(" - ")
        }
    };
    let book = match &config.openings {
        OpeningSource::File { path, .. } => path.file_name().map(|n| n.to_string_lossy().into_owned()),
        _ => None,
    };
    (describe_limits(config), option("Threads", "t"), option("Hash", "MB"), book)
}

fn bar(done: usize, total: usize) -> String {
    let width = 20;
    let filled = (done * width / total.max(1)).min(width);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}
