//! Game records in a PGN-like shape: tags, an empty line, the moves on one
//! line exactly as engines read them after `position ... moves`, the result
//! on the next line, and per-move times and scores as `;` comment lines.

use crate::referee::GameRecord;
use crate::schedule::Job;
use std::io::Write;
use std::path::Path;

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

/// The record text of one finished game.
pub fn format_record(
    job: &Job,
    record: &GameRecord,
    names: &[String],
    variant: &str,
    time_control: &str,
    date: &str,
) -> String {
    let players = job.seats.len();
    let mut text = String::new();
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
    if !record.moves.is_empty() {
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
    }
}
