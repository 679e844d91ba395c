//! Machine-readable results: one JSON object a line per finished game
//! (`-results FILE`), everything the standings and the record of that game
//! need, and `arena merge FILES...`, which reads such files back (from runs
//! of single pairs, `-pair K`, on many machines) and reports them as one run
//! over the same games would: standings, Elo, pentanomial, SPRT, records.

use crate::engine::SearchStats;
use crate::record::append;
use crate::referee::{Fault, GameRecord, PlayedMove};
use crate::setup::Job;
use crate::setup::Opening;
use crate::stats::Sprt;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The longest line read back from a results file (a game of 9x9
/// Quoridor with its times and scores takes a few KiB).
pub(crate) const MAX_LINE: usize = 1 << 20;

/// One finished game as a results line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// 1-based game number in the whole match.
    pub game: usize,
    /// 1-based pair (or rotation) number: the games played from one opening.
    pub pair: usize,
    /// Every engine's name, in command-line order.
    pub engines: Vec<String>,
    /// Engine index in each seat.
    pub seats: Vec<usize>,
    pub players: usize,
    /// Whether openings were repeated with seats exchanged (`-repeat`).
    pub repeat: bool,
    pub variant: String,
    pub time_control: String,
    pub date: String,
    pub opening_fen: Option<String>,
    pub opening_moves: Vec<String>,
    /// The winning seat (0-based), or none for a draw.
    pub winner: Option<usize>,
    pub result: String,
    pub termination: String,
    pub moves: Vec<MoveLine>,
    /// Faults per seat: `time`, `illegal` or `crash`.
    pub faults: Vec<(usize, String)>,
    /// The run's SPRT, if it had one.
    pub sprt: Option<SprtLine>,
    /// The records' `Event` and `Site` tags (`-event`, `-site`); absent
    /// from lines written before 2026-11-26.
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub site: Option<String>,
}

/// One move of a results line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveLine {
    pub seat: usize,
    #[serde(rename = "move")]
    pub text: String,
    pub ms: u64,
    pub score: Option<String>,
    /// The depth reported with the score; absent from lines written before
    /// 2026-11-26.
    #[serde(default)]
    pub depth: Option<u32>,
    /// The nodes, selective depth and speed reported; absent from lines
    /// written before 2026-11-28.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
}

/// A run's SPRT bounds, as on its command line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtLine {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The Elo model (`-sprt model=`); absent from lines written before
    /// 2026-11-28, which were logistic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// What a match knows beyond the game itself.
pub struct RunFacts<'a> {
    pub names: &'a [String],
    pub repeat: bool,
    pub variant: &'a str,
    pub time_control: &'a str,
    pub date: &'a str,
    pub sprt: Option<&'a Sprt>,
    pub event: &'a str,
    pub site: &'a str,
}

fn fault_name(fault: Fault) -> &'static str {
    match fault {
        Fault::TimeLoss => "time",
        Fault::Illegal => "illegal",
        Fault::Crash => "crash",
    }
}

fn fault_of(name: &str) -> Option<Fault> {
    match name {
        "time" => Some(Fault::TimeLoss),
        "illegal" => Some(Fault::Illegal),
        "crash" => Some(Fault::Crash),
        _ => None,
    }
}

impl GameLine {
    pub fn new(job: &Job, record: &GameRecord, facts: &RunFacts) -> GameLine {
        GameLine {
            game: job.number,
            pair: job.group + 1,
            engines: facts.names.to_vec(),
            seats: job.seats.clone(),
            players: job.seats.len(),
            repeat: facts.repeat,
            variant: facts.variant.to_string(),
            time_control: facts.time_control.to_string(),
            date: facts.date.to_string(),
            opening_fen: job.opening.fen.clone(),
            opening_moves: job.opening.moves.clone(),
            winner: record.winner,
            result: crate::record::result_token(record, job.seats.len()),
            termination: record.termination.clone(),
            moves: record
                .moves
                .iter()
                .map(|m| MoveLine {
                    seat: m.seat,
                    text: m.text.clone(),
                    ms: m.millis,
                    score: m.score.clone(),
                    depth: m.depth,
                    nodes: m.stats.nodes,
                    seldepth: m.stats.seldepth,
                    nps: m.stats.nps,
                })
                .collect(),
            faults: record.faults.iter().map(|&(s, f)| (s, fault_name(f).to_string())).collect(),
            sprt: facts.sprt.map(|s| SprtLine {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                model: Some(s.model.name().to_string()),
            }),
            event: Some(facts.event.to_string()),
            site: Some(facts.site.to_string()),
        }
    }

    /// Whether two lines are of the same scheduled game (its result may
    /// differ, when it was played twice).
    pub fn same_game(&self, other: &GameLine) -> bool {
        (self.game, self.pair, &self.engines, &self.seats, &self.opening_fen, &self.opening_moves)
            == (
                other.game,
                other.pair,
                &other.engines,
                &other.seats,
                &other.opening_fen,
                &other.opening_moves,
            )
    }

    /// The job and record again; an error names what does not fit.
    pub fn parts(&self) -> Result<(Job, GameRecord), String> {
        let engines = self.engines.len();
        if self.game == 0 || self.pair == 0 {
            return Err("game and pair numbers start at 1".into());
        }
        if self.players != self.seats.len() || !(self.players == 2 || self.players == 4) {
            return Err(format!("{} seats for {} players", self.seats.len(), self.players));
        }
        if self.seats.iter().any(|&e| e >= engines) {
            return Err(format!(
                "a seat names engine {} of {engines}",
                self.seats.iter().max().unwrap_or(&0)
            ));
        }
        let seat_ok = |s: usize| s < self.players;
        if self.winner.is_some_and(|w| !seat_ok(w)) || self.moves.iter().any(|m| !seat_ok(m.seat)) {
            return Err("a seat number beyond the players".into());
        }
        let mut faults = Vec::new();
        for (seat, name) in &self.faults {
            let fault =
                fault_of(name).ok_or_else(|| format!("unknown fault '{}'", crate::referee::capped(name)))?;
            if !seat_ok(*seat) {
                return Err("a fault of a seat beyond the players".into());
            }
            faults.push((*seat, fault));
        }
        let job = Job {
            number: self.game,
            seats: self.seats.clone(),
            opening: Opening { fen: self.opening_fen.clone(), moves: self.opening_moves.clone() },
            group: self.pair - 1,
        };
        let record = GameRecord {
            winner: self.winner,
            termination: self.termination.clone(),
            moves: self
                .moves
                .iter()
                .map(|m| PlayedMove {
                    seat: m.seat,
                    text: m.text.clone(),
                    millis: m.ms,
                    score: m.score.clone(),
                    depth: m.depth,
                    stats: SearchStats { nodes: m.nodes, seldepth: m.seldepth, nps: m.nps },
                })
                .collect(),
            faults,
            interrupted: false,
            comment: None,
        };
        Ok((job, record))
    }
}

/// Appends one game's line to a results file.
pub fn append_line(path: &Path, line: &GameLine) -> Result<(), String> {
    let text = serde_json::to_string(line).map_err(|e| e.to_string())?;
    append(path, &format!("{text}\n")).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

mod merge;
pub use merge::{merge, parse_merge, read_games, MergeArgs};

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines written before `event`, `site` and `depth` existed still read.
    #[test]
    fn older_lines_read() {
        let job =
            Job { number: 1, seats: vec![0, 1], opening: Opening { fen: None, moves: vec![] }, group: 0 };
        let moves = vec![PlayedMove {
            seat: 0,
            text: "e2".into(),
            millis: 5,
            score: None,
            depth: Some(4),
            stats: SearchStats::default(),
        }];
        let record = GameRecord {
            winner: None,
            termination: "t".into(),
            moves,
            faults: vec![],
            interrupted: false,
            comment: None,
        };
        let names = ["A".to_string(), "B".to_string()];
        let facts = RunFacts {
            names: &names,
            repeat: false,
            variant: "quoridor 9x9 walls=10 players=2",
            time_control: "st=0.1",
            date: "2026.11.26",
            sprt: None,
            event: "e",
            site: "s",
        };
        let line = GameLine::new(&job, &record, &facts);
        let mut value = serde_json::to_value(&line).expect("a line as JSON");
        let object = value.as_object_mut().expect("an object");
        object.remove("event");
        object.remove("site");
        object["moves"][0].as_object_mut().expect("a move").remove("depth");
        let old: GameLine = serde_json::from_value(value).expect("an older line reads");
        assert_eq!((&old.event, &old.site, old.moves[0].depth), (&None, &None, None));
        assert_eq!(old.parts().map(|(_, r)| r.moves[0].text.clone()), Ok("e2".to_string()));
    }
}
