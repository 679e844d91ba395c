//! Game records in PGN: the seven-tag roster and arena's own tags, then the
//! movetext: `;` comment lines with the opening length, move times and scores
//! as records before 2026-11-26 had them, then the moves with move numbers,
//! each engine move that came with a score followed by a cutechess-style
//! `{score/depth time}` comment. Writing is in
//! `record/write.rs`, reading (of old and new records alike) in
//! `record/read.rs`; this module owns what both share.

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{play_recorded, read_records, replay, ReadRecord};
pub use write::{move_comment, write_record};

use crate::referee::GameRecord;
use crate::setup::Job;
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

/// The records' `Event` tag unless `-event` says otherwise.
pub const DEFAULT_EVENT: &str = "arena match";

/// What a record tells besides the game: the run's names and settings.
#[derive(Clone, Copy, Debug)]
pub struct RecordInfo<'a> {
    /// Every engine's name, by engine index.
    pub names: &'a [String],
    /// The `Variant` tag, as [`crate::setup::GameVariant::describe`] writes it.
    pub variant: &'a str,
    pub time_control: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    pub event: &'a str,
    pub site: &'a str,
    /// `-pgnout FILE min`: tags and moves only, no comments.
    pub minimal: bool,
    /// `-pgnout ... nodes=true seldepth=true nps=true`: added to each comment.
    pub extras: crate::config::PgnExtras,
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
    let info = RecordInfo {
        names,
        variant,
        time_control,
        date,
        event: DEFAULT_EVENT,
        site: "?",
        minimal: false,
        extras: Default::default(),
    };
    write_record(job, record, &info)
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
