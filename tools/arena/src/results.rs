//! Machine-readable results: one JSON object a line per finished game
//! (`-results FILE`), everything the standings and the record of that game
//! need, and `arena merge FILES...`, which reads such files back (from runs
//! of single pairs, `-pair K`, on many machines) and reports them as one run
//! over the same games would: standings, Elo, pentanomial, SPRT, records.

use crate::engine::SearchStats;
use crate::record::{append, write_record, RecordInfo, DEFAULT_EVENT};
use crate::referee::{Fault, GameRecord, PlayedMove};
use crate::setup::Job;
use crate::setup::Opening;
use crate::standings::Standings;
use crate::stats::Sprt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// The longest line read back from a results file (a game of 9x9
/// Quoridor with its times and scores takes a few KiB).
const MAX_LINE: usize = 1 << 20;

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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtLine {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
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
            sprt: facts.sprt.map(|s| SprtLine { elo0: s.elo0, elo1: s.elo1, alpha: s.alpha, beta: s.beta }),
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

/// The options of `arena merge`.
#[derive(Debug, Default, PartialEq)]
pub struct MergeArgs {
    pub files: Vec<PathBuf>,
    pub pgn_out: Option<PathBuf>,
    /// `-pgnout FILE min`: records without comments.
    pub pgn_min: bool,
    pub sprt: Option<Sprt>,
}

/// Reads `arena merge FILES... [-pgnout FILE [min]] [-sprt elo0=.. elo1=.. alpha=.. beta=..]`
/// (`min` or `min=...` right after the file is taken as its setting, never as a file).
pub fn parse_merge(args: &[String]) -> Result<MergeArgs, String> {
    let mut merge = MergeArgs::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].as_str();
        match word.trim_start_matches('-') {
            "pgnout" if word.starts_with('-') => {
                i += 1;
                let first = args.get(i).ok_or("missing -pgnout FILE")?;
                let mut pairs = vec![crate::cli::pgn_out_first(first)];
                while let Some(next) = args.get(i + 1).filter(|w| *w == "min" || w.starts_with("min=")) {
                    let (key, value) = next.split_once('=').unwrap_or((next, ""));
                    pairs.push((key.to_string(), value.to_string()));
                    i += 1;
                }
                let pgn = crate::cli::pgn_out(&pairs).map_err(|e| e.to_string())?;
                (merge.pgn_out, merge.pgn_min) = (Some(pgn.path), pgn.minimal);
            }
            "sprt" if word.starts_with('-') => {
                let mut pairs = Vec::new();
                while let Some(next) = args.get(i + 1).filter(|w| !w.starts_with('-')) {
                    let (key, value) = next.split_once('=').unwrap_or((next, ""));
                    pairs.push((key.to_string(), value.to_string()));
                    i += 1;
                }
                merge.sprt = Some(crate::cli::sprt(&pairs).map_err(|e| e.to_string())?);
            }
            _ if word.starts_with('-') => {
                return Err(format!("unknown flag '{}'", crate::referee::capped(word)))
            }
            _ => merge.files.push(PathBuf::from(word)),
        }
        i += 1;
    }
    if merge.files.is_empty() {
        return Err("merge needs one or more results files".into());
    }
    Ok(merge)
}

/// Every game of the files, each game number once, in game order; a game
/// found twice counts once, the first found (a warning is returned for
/// each), and two different games under one number are an error.
pub fn read_games(files: &[PathBuf]) -> Result<(Vec<GameLine>, Vec<String>), String> {
    let mut games: BTreeMap<usize, GameLine> = BTreeMap::new();
    let mut warnings = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = std::io::BufReader::new(file);
        let mut number = 0;
        loop {
            number += 1;
            let mut line = Vec::new();
            let read = reader
                .by_ref()
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if read == 0 {
                break;
            }
            if line.len() > MAX_LINE {
                return Err(format!("{}:{number}: a line over {MAX_LINE} bytes", path.display()));
            }
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            let game: GameLine = serde_json::from_str(text.trim()).map_err(|e| {
                format!("{}:{number}: {}", path.display(), crate::referee::capped(&e.to_string()))
            })?;
            game.parts().map_err(|e| format!("{}:{number}: {e}", path.display()))?;
            match games.get(&game.game) {
                // Played twice (a task retried after its node died): the
                // first counts.
                Some(seen) if seen.same_game(&game) => {
                    warnings.push(format!("game {} appears twice; counted once", game.game))
                }
                Some(_) => {
                    return Err(format!(
                        "{}:{number}: game {} has other seats or another opening than before",
                        path.display(),
                        game.game
                    ))
                }
                None => {
                    games.insert(game.game, game);
                }
            }
        }
    }
    let all: Vec<GameLine> = games.into_values().collect();
    if let Some(first) = all.first() {
        let same_run = |g: &GameLine| {
            g.engines == first.engines
                && g.players == first.players
                && g.repeat == first.repeat
                && g.variant == first.variant
        };
        if let Some(other) = all.iter().find(|g| !same_run(g)) {
            return Err(format!("game {} is from another match than game {}", other.game, first.game));
        }
    }
    Ok((all, warnings))
}

/// `arena merge`: the standings of the merged games, as one run prints
/// them, and their records when `-pgnout` is given.
pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<(), String> {
    let (games, warnings) = read_games(&args.files)?;
    let mut say = |line: &str| writeln!(out, "{line}").map_err(|e| e.to_string());
    for warning in &warnings {
        say(&format!("Warning: {warning}"))?;
    }
    let Some(first) = games.first() else {
        return Err("the results files hold no game".into());
    };
    if let Some(path) = &args.pgn_out {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write -pgnout {}: {e}", path.display()))?;
    }
    let sprt = match (args.sprt, first.sprt) {
        (Some(s), _) => Some(s),
        (None, Some(s)) => Some(Sprt::new(s.elo0, s.elo1, s.alpha, s.beta)?),
        (None, None) => None,
    };
    let mut standings = Standings::new(first.engines.clone(), first.players);
    for game in &games {
        let (job, record) = game.parts()?;
        let who: Vec<&str> = job.seats.iter().map(|&e| first.engines[e].as_str()).collect();
        say(&format!(
            "Finished game {} ({}): {} {{{}}}",
            game.game,
            who.join(" vs "),
            game.result,
            game.termination
        ))?;
        standings.record(&job, &record, game.repeat);
        if let Some(path) = &args.pgn_out {
            let info = RecordInfo {
                names: &first.engines,
                variant: &game.variant,
                time_control: &game.time_control,
                date: &game.date,
                event: game.event.as_deref().unwrap_or(DEFAULT_EVENT),
                site: game.site.as_deref().unwrap_or("?"),
                minimal: args.pgn_min,
                extras: Default::default(),
            };
            let text = write_record(&job, &record, &info);
            append(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    say("Final results:")?;
    for line in standings.report(sprt.as_ref()) {
        say(&line)?;
    }
    Ok(())
}

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
