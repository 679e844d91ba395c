//! Game records in a PGN-like shape: tags, an empty line, the moves on one
//! line exactly as engines read them after `position ... moves`, the result
//! on the next line, and per-move times and scores as `;` comment lines.

use crate::referee::{skip_turn, GameRecord, SKIPPED};
use crate::schedule::Job;
use crate::setup::{shortened, GameVariant, Opening};
use std::io::Write;
use std::path::Path;
use tabula::game::Position;
use tabula::games::AnyPosition;

/// The result token of a game for the record, from seat 1's point of view
/// for two players (`1-0`, `0-1`, `1/2-1/2`); for four players `P3` etc.
pub fn result_token(record: &GameRecord, players: usize) -> String {
    match (record.winner, players) {
        (None, _) => "1/2-1/2".into(),
        (Some(0), 2) => "1-0".into(),
        (Some(_), 2) => "0-1".into(),
        (Some(seat), _) => format!("P{}", seat + 1),
    }
}

/// The records' `Event` tag unless `-event` says otherwise.
pub const DEFAULT_EVENT: &str = "arena match";

/// What a record tells besides the game: the run's names and settings.
#[derive(Clone, Copy, Debug)]
pub struct RecordInfo<'a> {
    /// Every engine's name, by engine index.
    pub names: &'a [String],
    /// The `Variant` tag, as [`GameVariant::describe`] writes it.
    pub variant: &'a str,
    pub time_control: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    /// `-pgnout FILE min`: tags and moves only, no comments.
    pub minimal: bool,
}

/// The record text of one finished game, with the default `Event` and an
/// unknown (`?`) `Site`.
pub fn format_record(
    job: &Job,
    record: &GameRecord,
    names: &[String],
    variant: &str,
    time_control: &str,
    date: &str,
) -> String {
    let info =
        RecordInfo { names, variant, time_control, date, event: DEFAULT_EVENT, site: "?", minimal: false };
    write_record(job, record, &info)
}

/// The record text of one finished game.
pub fn write_record(job: &Job, record: &GameRecord, info: &RecordInfo) -> String {
    let (names, variant, time_control, date) = (info.names, info.variant, info.time_control, info.date);
    let players = job.seats.len();
    let mut text = String::new();
    text.push_str(&format!("[Event \"{}\"]\n", escape(info.event)));
    text.push_str(&format!("[Site \"{}\"]\n", escape(info.site)));
    text.push_str(&format!("[Game \"{}\"]\n", job.number));
    text.push_str(&format!("[Variant \"{variant}\"]\n"));
    for (seat, &engine) in job.seats.iter().enumerate() {
        text.push_str(&format!("[P{} \"{}\"]\n", seat + 1, escape(&names[engine])));
    }
    if let Some(fen) = &job.opening.fen {
        text.push_str(&format!("[FEN \"{fen}\"]\n"));
    }
    text.push_str(&format!("[Result \"{}\"]\n", result_token(record, players)));
    text.push_str(&format!("[Termination \"{}\"]\n", escape(&record.termination)));
    text.push_str(&format!("[TimeControl \"{time_control}\"]\n"));
    text.push_str(&format!("[Date \"{date}\"]\n"));
    text.push_str(&format!("[Plies \"{}\"]\n\n", job.opening.moves.len() + record.moves.len()));
    let mut moves: Vec<&str> = job.opening.moves.iter().map(String::as_str).collect();
    moves.extend(record.moves.iter().map(|m| m.text.as_str()));
    text.push_str(&moves.join(" "));
    text.push('\n');
    text.push_str(&result_token(record, players));
    text.push('\n');
    if !record.moves.is_empty() && !info.minimal {
        let times: Vec<String> = record.moves.iter().map(|m| m.millis.to_string()).collect();
        text.push_str(&format!(
            "; opening plies {}; move times (ms): {}\n",
            job.opening.moves.len(),
            times.join(" ")
        ));
        let scores: Vec<String> = record
            .moves
            .iter()
            .map(|m| m.score.clone().unwrap_or_else(|| "-".into()).replace(' ', ""))
            .collect();
        text.push_str(&format!("; scores: {}\n", scores.join(" ")));
    }
    text.push('\n');
    text
}

/// A tag value as PGN quotes it: `\` and `"` escaped with a backslash (an
/// engine's illegal move, quoted in the termination, may hold either).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Appends a record and flushes, so an interrupted run keeps every finished game.
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// This machine's host name for the records' `Site` tag, or `?` (PGN's
/// unknown) when it cannot be read or is not printable text.
pub fn host_name() -> String {
    let read = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .unwrap_or_default();
    let name = read.trim();
    if name.is_empty() || name.chars().any(|c| c.is_control() || c == '"' || c == '\\') {
        "?".to_string()
    } else {
        name.to_string()
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((seconds / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A record read back from text: its tags in order, the variant, where the
/// game started and every move played.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRecord {
    pub tags: Vec<(String, String)>,
    pub variant: GameVariant,
    /// The start (`FEN` tag) and all the moves, opening included.
    pub game: Opening,
    /// `1-0`, `0-1`, `1/2-1/2`, `P3`..., or `*` when the record has none.
    pub result: String,
    /// The `;` comment lines, without the `;` (move times, scores, opening plies).
    pub comments: Vec<String>,
}

impl ReadRecord {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Reads every record of a text [`format_record`] wrote (records follow one
/// another; `;` lines are comments). A record that cannot be read gives its
/// error, and the rest are still read.
pub fn read_records(text: &str) -> Vec<Result<ReadRecord, String>> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut in_body = true;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            if in_body {
                blocks.push(Vec::new());
                in_body = false;
            }
        } else if !line.is_empty() && !line.starts_with(';') {
            in_body = true;
        }
        if let Some(block) = blocks.last_mut() {
            block.push(line);
        }
    }
    blocks.iter().map(|lines| read_record(lines)).collect()
}

fn read_record(lines: &[&str]) -> Result<ReadRecord, String> {
    let mut tags = Vec::new();
    let mut body = Vec::new();
    let mut comments = Vec::new();
    for &line in lines {
        if let Some(comment) = line.strip_prefix(';') {
            comments.push(comment.trim().to_string());
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) =
                inner.split_once(' ').ok_or_else(|| format!("tag line '{}'", quoted(line)))?;
            let value = value.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"'));
            let value = value.ok_or_else(|| format!("tag value in '{}' is not quoted", quoted(line)))?;
            tags.push((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
        } else if !line.is_empty() {
            body.extend(line.split_whitespace());
        }
    }
    let tag = |name: &str| tags.iter().find(|(n, _): &&(String, String)| n == name).map(|(_, v)| v.as_str());
    let variant = GameVariant::from_description(tag("Variant").ok_or("no Variant tag")?)?;
    let is_result = |w: &str| matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") || w.starts_with('P');
    let result = match body.last() {
        Some(&last) if is_result(last) => {
            body.pop();
            last.to_string()
        }
        _ => "*".to_string(),
    };
    let game =
        Opening { fen: tag("FEN").map(String::from), moves: body.into_iter().map(String::from).collect() };
    // Every move must be legal; unlike an opening, a record may end the game.
    replay(&game, &variant)?;
    Ok(ReadRecord { tags, variant, game, result, comments })
}

/// Plays one move of a record: a move as engines write it, or [`SKIPPED`],
/// the turn of a seat that is out passed on (four-player Quoridor). True
/// when the move cannot be undone (a wall, a skipped turn).
pub fn play_recorded(position: &mut AnyPosition, text: &str) -> Result<bool, String> {
    if text == SKIPPED {
        let four = matches!(position, AnyPosition::Quoridor(q) if q.player_count() == 4);
        let passed = skip_turn(position).filter(|_| four);
        *position = passed.ok_or("a turn is skipped ('-') only in four-player Quoridor")?;
        return Ok(true);
    }
    position.play_text(text).map_err(|e| shortened(&e.to_string()))
}

/// The position a game (a record's start and moves, `-` included) leads to,
/// with the hashes of the positions since the last irreversible move; the
/// game may be over.
pub fn replay(game: &Opening, variant: &GameVariant) -> Result<(AnyPosition, Vec<u64>), String> {
    let start = Opening { fen: game.fen.clone(), moves: Vec::new() };
    let (mut position, mut history) = crate::setup::opening_position(&start, variant)?;
    for (ply, text) in game.moves.iter().enumerate() {
        let hash = position.hash();
        if play_recorded(&mut position, text).map_err(|e| format!("move {}: {e}", ply + 1))? {
            history.clear();
        } else {
            history.push(hash);
        }
    }
    Ok((position, history))
}

fn quoted(text: &str) -> String {
    tabula::protocol::parse::quoted(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::PlayedMove;
    use crate::setup::Opening;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn a_record_holds_replayable_moves() {
        let job = Job {
            number: 3,
            seats: vec![1, 0],
            opening: Opening { fen: None, moves: vec!["e2".into()] },
            group: 0,
        };
        let record = GameRecord {
            winner: Some(1),
            termination: "P2 reaches the goal".into(),
            moves: vec![PlayedMove { seat: 1, text: "e8".into(), millis: 12, score: Some("cp 50".into()) }],
            faults: Vec::new(),
            interrupted: false,
        };
        let names = vec!["A".to_string(), "B".to_string()];
        let text = format_record(&job, &record, &names, "quoridor 9x9", "st=0.1", "2026.11.21");
        assert!(text.contains("[P1 \"B\"]\n[P2 \"A\"]\n"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("\n\ne2 e8\n0-1\n"));
        assert!(text.contains("; scores: cp50"));
        let read = read_records(&text);
        assert_eq!(read.len(), 1);
        let read = read[0].as_ref().expect("the record reads back");
        assert_eq!(read.game, Opening { fen: None, moves: vec!["e2".into(), "e8".into()] });
        assert_eq!((read.result.as_str(), read.tag("P1")), ("0-1", Some("B")));
        assert_eq!(read.comments, ["opening plies 1; move times (ms): 12", "scores: cp50"]);
    }

    #[test]
    fn a_minimal_record_has_no_comments() {
        let job =
            Job { number: 1, seats: vec![0, 1], opening: Opening { fen: None, moves: vec![] }, group: 0 };
        let record = GameRecord {
            winner: None,
            termination: "ply limit 2 reached".into(),
            moves: vec![
                PlayedMove { seat: 0, text: "e2".into(), millis: 12, score: Some("cp 50".into()) },
                PlayedMove { seat: 1, text: "e8".into(), millis: 7, score: Some("mate -3".into()) },
            ],
            faults: Vec::new(),
            interrupted: false,
        };
        let names = vec!["A".to_string(), "B".to_string()];
        let info = RecordInfo {
            names: &names,
            variant: "quoridor 9x9 walls=10 players=2",
            time_control: "st=0.1",
            date: "2026.11.26",
            event: "e",
            site: "s",
            minimal: true,
        };
        let minimal = write_record(&job, &record, &info);
        assert!(!minimal.contains(';') && !minimal.contains('{'), "{minimal}");
        let full = write_record(&job, &record, &RecordInfo { minimal: false, ..info });
        assert!(full.contains("; scores: cp50 mate-3"), "{full}");
        let (minimal, full) = (read_records(&minimal), read_records(&full));
        let (minimal, full) = (minimal[0].as_ref().expect("minimal"), full[0].as_ref().expect("full"));
        assert_eq!((&minimal.game, &minimal.tags, &minimal.result), (&full.game, &full.tags, &full.result));
        assert!(minimal.comments.is_empty());
    }

    #[test]
    fn records_follow_one_another_and_bad_ones_are_named() {
        let text = "[Game \"1\"]\n[Variant \"quarto 3x3 level=1\"]\n[Termination \"P2 says \\\"hi\\\"\"]\n\n0 a11\n*\n\n\
            [Game \"2\"]\n[Variant \"quoridor 5x5 walls=3 players=2\"]\n\nc2 c9\n1-0\n; times\n\n\
            [Game \"3\"]\n[Variant \"quoridor 5x5 walls=3 players=4\"]\n[FEN \"quoridor 5x5 pawns=c1,c5,a3,e3 hand=3,3,3,3 walls=- turn=2\"]\n\nc4\nP2\n\n\
            [Game \"4\"]\n[Variant \"quoridor 3x3 walls=0 players=2\"]\n\nb2 b1\n0-1\n";
        let read = read_records(text);
        assert_eq!(read.len(), 4);
        assert!(read[3].is_ok(), "a record ends the game: {:?}", read[3]);
        let first = read[0].as_ref().expect("record 1");
        assert_eq!(first.tag("Termination"), Some("P2 says \"hi\""));
        assert_eq!(first.game.moves, vec!["0", "a11"]);
        assert!(read[1].as_ref().is_err_and(|e| e.contains("c9")), "{:?}", read[1]);
        let third = read[2].as_ref().expect("record 3");
        assert_eq!((third.result.as_str(), third.game.moves.len()), ("P2", 1));
        assert!(third.game.fen.is_some());
    }

    /// A four-player record where P2 is out: its turns show as `-`.
    #[test]
    fn skipped_turns_read_back() {
        let text = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=3 players=4\"]\n\n\
                    c2 - c4 d3 c3 - b4 d2\nP3\n";
        let read = read_records(text);
        let record = read[0].as_ref().expect("a record with skipped turns reads");
        assert_eq!(record.game.moves[1], SKIPPED);
        let (position, _) = replay(&record.game, &record.variant).expect("it replays");
        assert_eq!(
            position.to_text(),
            "quoridor 5x5 pawns=c3,a3,b4,d2 hand=3,3,3,3 walls=- turn=1 jumps=single"
        );
        let two = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=3 players=2\"]\n\nc2 - c4\n*\n";
        assert!(read_records(two)[0].as_ref().is_err_and(|e| e.contains("four-player")));
    }
}
