//! What one worker does for one game: it takes the game's engines from its
//! pool (`restart=off|auto`) or starts them, bound to the worker's CPU with
//! `-use-affinity`, sets their options, lets the referee play, and keeps
//! the engines that may play on for its next game.

use crate::config::{Config, Restart};
use crate::engine::{EngineError, EngineProcess, Protocol};
use crate::referee::{play_game, Fault, GameRecord, GameSetup};
use crate::setup::Job;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default extra time beyond the clock before a move counts as late.
const DEFAULT_MARGIN: Duration = Duration::from_millis(100);

/// The engines a worker keeps between games, by engine index.
#[derive(Default)]
pub struct Pool {
    engines: HashMap<usize, EngineProcess>,
}

impl Pool {
    /// Asks every engine kept to quit.
    pub fn close(self) {
        for (_, engine) in self.engines {
            engine.quit();
        }
    }
}

/// One worker's place: its number, for `-use-affinity`.
pub struct Worker<'a> {
    pub config: &'a Config,
    pub index: usize,
    pub interrupted: &'a Arc<AtomicBool>,
    /// Warnings (an option an engine does not have) go here.
    pub warn: &'a dyn Fn(String),
}

impl Worker<'_> {
    /// The CPUs this worker's engines run on (`-use-affinity`): one of the
    /// listed CPUs, or of all the machine's, by worker number.
    fn cpus(&self) -> Vec<usize> {
        match &self.config.affinity {
            None => Vec::new(),
            Some(list) if !list.is_empty() => vec![list[self.index % list.len()]],
            Some(_) => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                vec![self.index % cores]
            }
        }
    }

    /// Plays `job` with the engines of `pool` or new ones.
    pub fn play(&self, job: &Job, pool: &mut Pool) -> GameRecord {
        let config = self.config;
        let players = job.seats.len();
        let mut engines = Vec::new();
        let mut failed = Vec::new();
        for (seat, &index) in job.seats.iter().enumerate() {
            let kept = pool.engines.remove(&index).filter(|_| restart(config, index) != Restart::On);
            let engine = match kept {
                Some(mut engine) => {
                    if engine.alive() {
                        Ok(engine)
                    } else {
                        self.start_engine(index)
                    }
                }
                None => self.start_engine(index),
            };
            match engine {
                Ok(engine) => engines.push(Some(engine)),
                Err(e) => {
                    engines.push(None);
                    failed.push((seat, e));
                }
            }
        }
        // Interrupted while engines started: the game does not count.
        if self.interrupted.load(Ordering::Relaxed) {
            return GameRecord::interrupted();
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
            interrupted: self.interrupted,
        };
        let mut record = play_game(&setup, &mut engines);
        let mut faults: Vec<(usize, Fault)> = failed.iter().map(|(s, _)| (*s, Fault::Crash)).collect();
        faults.append(&mut record.faults);
        record.faults = faults;
        for (seat, engine) in engines.into_iter().enumerate() {
            let Some(engine) = engine else { continue };
            let index = job.seats[seat];
            // An engine that failed, or a game cut short, starts anew.
            let faulty = record.interrupted || record.faults.iter().any(|&(s, _)| s == seat);
            if restart(config, index) == Restart::On || faulty {
                engine.quit();
            } else {
                pool.engines.insert(index, engine);
            }
        }
        record
    }

    /// Starts engine `index` and sets its options.
    fn start_engine(&self, index: usize) -> Result<EngineProcess, EngineError> {
        let config = self.config;
        let mut spec = config.engines[index].spec.clone();
        spec.cpus = self.cpus();
        let mut engine = EngineProcess::start_interruptible(&spec, Some(self.interrupted.clone()))?;
        // A QTP engine hears the game from `boardsize` and `walls`.
        let qtp = spec.protocol == Protocol::Qtp;
        let mut settings = if qtp { Vec::new() } else { config.variant.engine_options() };
        settings.extend(spec.options.iter().cloned());
        for (name, value) in settings {
            let refusal = if qtp {
                crate::engine::qtp::set_option(&mut engine, &name, &value)?
            } else {
                engine.set_option(&name, &value)?
            };
            if let Some(refusal) = refusal {
                (self.warn)(refusal);
            }
        }
        engine.sync(spec.handshake_timeout())?;
        Ok(engine)
    }
}

/// The restart mode of engine `index`: `on` unless set.
fn restart(config: &Config, index: usize) -> Restart {
    config.engines[index].restart.unwrap_or_default()
}
