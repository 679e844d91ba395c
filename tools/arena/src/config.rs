//! What a match is asked to be: the engines and their settings
//! ([`EngineConfig`]), the tournament, the openings, the statistics and the
//! files to write ([`Config`]). The command line ([`crate::cli`]) and a saved
//! match state ([`crate::state`]) fill it; the schedule and the tournament
//! read it.

use crate::adjudicate::Adjudication;
use crate::engine::EngineSpec;
use crate::setup::{GameVariant, Limit};
use crate::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;

/// One `-engine` group (or `-each`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    pub spec: EngineSpec,
    pub limit: Option<Limit>,
    pub margin: Option<Duration>,
    /// `tc=inf` (`Some(true)`): no clock, so the engine must be node- or
    /// depth-limited, and arena waits for its move as long as it takes.
    /// `Some(false)`: a clock was given in the same group, which overrides
    /// an `-each tc=inf`.
    pub infinite: Option<bool>,
    /// Whether `proto=` was given in this group (an engine's own overrides `-each`).
    pub protocol_given: bool,
    /// `restart=on|off|auto`: whether the engine process starts anew for
    /// every game (`None`: not given; arena's default is `on`).
    pub restart: Option<Restart>,
}

/// `restart=`: whether an engine's process is started anew for each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Restart {
    /// A new process for every game (arena's default: every game starts
    /// from the same engine state, so node-limited games repeat exactly).
    #[default]
    On,
    /// The process plays game after game (`ucinewgame` between them); it
    /// is started anew only after it failed.
    Off,
    /// As cutechess-cli's `auto`, which leaves it to the engine: for the
    /// protocols arena speaks, the same as `off`.
    Auto,
}

impl Restart {
    /// `on`, `off` or `auto`.
    pub fn parse(text: &str) -> Option<Restart> {
        match text {
            "on" => Some(Restart::On),
            "off" => Some(Restart::Off),
            "auto" => Some(Restart::Auto),
            _ => None,
        }
    }
}

/// `-openings policy=`: when the next opening is taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningPolicy {
    /// After each opening's repetitions (`-repeat`); every encounter plays
    /// the same sequence of openings.
    #[default]
    Default,
    /// One opening for all the games of an encounter (a pair of engines).
    Encounter,
    /// One opening for all the games of a round.
    Round,
}

impl OpeningPolicy {
    /// `default`, `encounter` or `round`.
    pub fn parse(text: &str) -> Option<OpeningPolicy> {
        match text {
            "default" => Some(OpeningPolicy::Default),
            "encounter" => Some(OpeningPolicy::Encounter),
            "round" => Some(OpeningPolicy::Round),
            _ => None,
        }
    }
}

/// `-output format=`: how results are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// cutechess-cli's `Score of`, `Elo difference` and ranking lines.
    #[default]
    Cutechess,
    /// fastchess's `Results of ... Elo: ..., nElo: ...` blocks.
    Fastchess,
}

/// What `-pgnout` adds to each move's comment besides score, depth and time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PgnExtras {
    /// `nodes=true`: the nodes the engine reported.
    pub nodes: bool,
    /// `seldepth=true`: its selective depth.
    pub seldepth: bool,
    /// `nps=true`: its nodes per second.
    pub nps: bool,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    StartPosition,
    /// `-openings file=PATH [order=...] [format=lines|pgn|epd [plies=N]]`.
    File {
        path: PathBuf,
        random_order: bool,
        format: OpeningFormat,
        /// `start=N`: the first opening played is the N-th (from 1).
        start: usize,
    },
    Random {
        plies: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub engines: Vec<EngineConfig>,
    /// `-tournament round-robin|gauntlet` (two players).
    pub tournament: Tournament,
    pub variant: GameVariant,
    pub games: usize,
    pub rounds: usize,
    /// Games played from each opening: 1 without `-repeat`; `-repeat` is
    /// one per seat order (2, or 4 for four players), `-repeat N` is N.
    pub repeat: usize,
    /// `-noswap`: an encounter keeps its seats from game to game.
    pub noswap: bool,
    /// `-reverse`: every encounter starts with its seats reversed.
    pub reverse: bool,
    /// `-wait MS`: a pause before each game.
    pub wait: Duration,
    /// `-seeds N`: the first N engines play the gauntlet, or are seeded in a knockout.
    pub seeds: usize,
    pub concurrency: usize,
    pub force_concurrency: bool,
    pub openings: OpeningSource,
    /// `-openings ... policy=`.
    pub opening_policy: OpeningPolicy,
    pub sprt: Option<Sprt>,
    /// `-report penta=true|false`: pentanomial statistics (and the SPRT
    /// on pairs) where openings are played in pairs; on by default.
    pub report_penta: bool,
    pub max_plies: Option<usize>,
    /// `-maxmoves N`: a draw after N moves of every player (N x players plies).
    pub max_moves: Option<usize>,
    /// `-draw ...` and `-resign ...`: adjudication by the engines' scores;
    /// `-adjudicate race`: by the race solver.
    pub adjudication: Adjudication,
    pub recover: bool,
    pub pgn_out: Option<PathBuf>,
    /// `-pgnout FILE min`: records without comments.
    pub pgn_min: bool,
    /// `-pgnout ... nodes=true seldepth=true nps=true`.
    pub pgn_extras: PgnExtras,
    /// `-epdout FILE`: the last position of each game, a line each.
    pub epd_out: Option<PathBuf>,
    /// `-output format=`.
    pub output: OutputFormat,
    pub log: Option<PathBuf>,
    /// `-debug`: every line to and from the engines, on standard error
    /// (or in `-log`).
    pub debug: bool,
    pub seed: u64,
    /// Results every this many games; 0: only at the end.
    pub rating_interval: usize,
    /// `-use-affinity [CPUS]`: the CPUs engines are bound to (all of the
    /// machine's when none are named), one game's engines to one CPU.
    pub affinity: Option<Vec<usize>>,
    /// `-autosaveinterval N`: the match state is saved every N games (and
    /// on an interrupt and at the end); 0: only on an interrupt and at the end.
    pub autosave: usize,
    /// `-config outname=F`: where the match state is saved (`config.json`).
    pub state_out: PathBuf,
    /// The arguments as given: saved with the state, and read again on resume.
    pub args: Vec<String>,
    /// `-pair K`: play only the K-th pair (1-based) of the full schedule.
    pub pair: Option<usize>,
    /// `-results FILE`: a JSON line per finished game.
    pub results: Option<PathBuf>,
    /// `-schedule`: print the games (JSON lines) instead of playing them.
    pub schedule_only: bool,
    /// `-event NAME`: the records' `Event` tag.
    pub event: String,
    /// `-site NAME`: the records' `Site` tag (this machine's host name by default).
    pub site: String,
}

impl Config {
    /// Whether games are counted in pairs too (pentanomial statistics): two
    /// players, each opening played twice with seats exchanged, and
    /// `-report penta` not turned off.
    pub fn pairs_counted(&self) -> bool {
        self.variant.players() == 2 && self.repeat == 2 && !self.noswap && self.report_penta
    }
}

/// `-tournament`: who plays whom in two-player games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other (the default).
    #[default]
    RoundRobin,
    /// The first engines (`-seeds`, 1 by default) against every other; the
    /// others not against each other.
    Gauntlet,
    /// Single elimination: encounters of `-games` games (more while tied),
    /// the winner going on to the next round (see [`crate::knockout`]).
    Knockout,
}

impl Tournament {
    /// Reads `round-robin` or `gauntlet` (cutechess-cli's names; fastchess's
    /// `roundrobin` too) or `knockout`.
    pub fn parse(text: &str) -> Option<Tournament> {
        match text {
            "round-robin" | "roundrobin" => Some(Tournament::RoundRobin),
            "gauntlet" => Some(Tournament::Gauntlet),
            "knockout" => Some(Tournament::Knockout),
            _ => None,
        }
    }

    /// The pairings of `engines` engines (lower index first), in the order
    /// played, `seeds` engines playing the gauntlet (a knockout pairs its
    /// engines as it goes).
    pub fn pairings(self, engines: usize, seeds: usize) -> Vec<Vec<usize>> {
        let mut pairs = Vec::new();
        for a in 0..engines {
            for b in a + 1..engines {
                if a < seeds.max(1) || self == Tournament::RoundRobin {
                    pairs.push(vec![a, b]);
                }
            }
        }
        pairs
    }
}

/// How an openings file is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningFormat {
    /// arena's lines: a position text or a move list each (the default).
    #[default]
    Lines,
    /// Game records; the first `plies` plies of each game.
    Pgn { plies: usize },
    /// A position text a line, or a `position fen|startpos [moves ...]` command.
    Epd,
}
