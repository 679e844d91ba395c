//! `arena merge FILES...`: results files read back as a referee reads them.
//! Every game is replayed through the rules from its opening (an illegal
//! move, or a winner the moves do not give, refuses the file, naming it and
//! the line); two copies of a game that disagree are refused with both
//! places, two that agree count once; a last line cut off (a run stopped
//! while writing) is skipped with a warning, every complete game counting;
//! games of another variant or time control than the first are refused,
//! naming which. Then the standings, Elo, pentanomial, SPRT and records, as
//! one run over the same games prints them.

use super::{GameLine, MAX_LINE};
use crate::record::{append, write_record, RecordInfo, DEFAULT_EVENT};
use crate::referee::{skip_turn, SKIPPED};
use crate::setup::{opening_position, GameVariant};
use crate::standings::Standings;
use crate::stats::{Sprt, SprtModel};
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use tabula::game::Outcome;

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

/// A game as read, with where it was read.
struct Found {
    game: GameLine,
    place: String,
}

/// Whether two copies of one game say the same: the same game of the
/// schedule, the same moves and the same end (times and scores may differ).
fn agree(a: &GameLine, b: &GameLine) -> bool {
    let moves = |g: &GameLine| g.moves.iter().map(|m| (m.seat, m.text.clone())).collect::<Vec<_>>();
    a.same_game(b)
        && (a.winner, &a.result, &a.termination) == (b.winner, &b.result, &b.termination)
        && moves(a) == moves(b)
}

/// Replays a game from its opening: every move legal, and a game the rules
/// end ending with the winner the line names.
fn replay(game: &GameLine) -> Result<(), String> {
    let variant = GameVariant::from_description(&game.variant)?;
    let (job, record) = game.parts()?;
    let (mut position, _) = opening_position(&job.opening, &variant)?;
    for (ply, played) in record.moves.iter().enumerate() {
        if played.text == SKIPPED {
            position = skip_turn(&position).ok_or_else(|| format!("move {}: no turn to skip", ply + 1))?;
            continue;
        }
        if position.side_to_move() != played.seat {
            return Err(format!(
                "move {} ({}) is P{}'s, but P{} is to move",
                ply + 1,
                played.text,
                played.seat + 1,
                position.side_to_move() + 1
            ));
        }
        position.play_text(&played.text).map_err(|e| format!("move {}: {e}", ply + 1))?;
    }
    if let Some(Outcome::Win(seat)) = position.outcome() {
        if game.winner != Some(seat) {
            return Err(format!("the moves end with P{} winning, the line says {}", seat + 1, game.result));
        }
    }
    Ok(())
}

/// Every game of the files, each game number once, in game order; the
/// warnings (agreeing copies, cut-off last lines) come with them.
pub fn read_games(files: &[PathBuf]) -> Result<(Vec<GameLine>, Vec<String>), String> {
    let mut games: BTreeMap<usize, Found> = BTreeMap::new();
    let mut warnings = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = std::io::BufReader::new(file);
        let mut number = 0;
        loop {
            number += 1;
            let place = format!("{}:{number}", path.display());
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
                return Err(format!("{place}: a line over {MAX_LINE} bytes"));
            }
            let complete = line.ends_with(b"\n");
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            let game: GameLine = match serde_json::from_str(text.trim()) {
                Ok(game) => game,
                // The last line of a file, without its end: a run stopped while writing it.
                Err(_) if !complete => {
                    warnings.push(format!(
                        "{place}: the last line is cut off (a run stopped while writing it); skipped"
                    ));
                    break;
                }
                Err(e) => return Err(format!("{place}: {}", crate::referee::capped(&e.to_string()))),
            };
            replay(&game)
                .map_err(|e| format!("{place}: game {}: {}", game.game, crate::referee::capped(&e)))?;
            match games.get(&game.game) {
                Some(seen) if agree(&seen.game, &game) => warnings.push(format!(
                    "game {} appears twice ({} and {place}), the same both times; counted once",
                    game.game, seen.place
                )),
                Some(seen) => {
                    return Err(format!(
                        "game {} appears twice and the copies disagree: {} and {place}",
                        game.game, seen.place
                    ))
                }
                None => {
                    games.insert(game.game, Found { game, place });
                }
            }
        }
    }
    let all: Vec<Found> = games.into_values().collect();
    if let Some(first) = all.first() {
        for other in &all {
            let (a, b) = (&first.game, &other.game);
            let differs = if a.variant != b.variant {
                Some(format!("variant {} against {}", b.variant, a.variant))
            } else if a.time_control != b.time_control {
                Some(format!("time control {} against {}", b.time_control, a.time_control))
            } else if (&a.engines, a.players, a.repeat) != (&b.engines, b.players, b.repeat) {
                Some("other engines or pairing".to_string())
            } else {
                None
            };
            if let Some(why) = differs {
                return Err(format!(
                    "game {} ({}) is from another match than game {} ({}): {why}",
                    b.game, other.place, a.game, first.place
                ));
            }
        }
    }
    Ok((all.into_iter().map(|f| f.game).collect(), warnings))
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
    let sprt = match (args.sprt, &first.sprt) {
        (Some(s), _) => Some(s),
        (None, Some(s)) => {
            let model = s.model.as_deref().and_then(SprtModel::parse).unwrap_or_default();
            Some(Sprt::new(s.elo0, s.elo1, s.alpha, s.beta)?.with_model(model))
        }
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
