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
    pub repeat: bool,
    pub concurrency: usize,
    pub force_concurrency: bool,
    pub openings: OpeningSource,
    pub sprt: Option<Sprt>,
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
    pub log: Option<PathBuf>,
    pub seed: u64,
    pub rating_interval: usize,
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

/// `-tournament`: who plays whom in two-player games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other (the default).
    #[default]
    RoundRobin,
    /// The first engine against every other; the others not against each other.
    Gauntlet,
}

impl Tournament {
    /// Reads `round-robin` or `gauntlet` (cutechess-cli's names).
    pub fn parse(text: &str) -> Option<Tournament> {
        match text {
            "round-robin" => Some(Tournament::RoundRobin),
            "gauntlet" => Some(Tournament::Gauntlet),
            _ => None,
        }
    }

    /// The pairings of `engines` engines (lower index first), in the order played.
    pub fn pairings(self, engines: usize) -> Vec<Vec<usize>> {
        let mut pairs = Vec::new();
        for a in 0..engines {
            for b in a + 1..engines {
                if a == 0 || self == Tournament::RoundRobin {
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
