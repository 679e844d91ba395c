//! Writes a game record in the PGN export layout: the seven-tag roster
//! (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`) first,
//! then arena's tags, a blank line, and the movetext: `;` lines with the
//! opening length, move times and scores (kept from arena's first record
//! layout), then the moves with move numbers (`1. e2 e8 2. e3`), each engine
//! move that came with a score followed by a `{+0.35/12 0.31s}` comment, and
//! the result, in lines of at most [`LINE_CHARS`] characters; a blank line
//! ends the record.

use super::{result_token, RecordInfo};
use crate::config::PgnExtras;
use crate::referee::{GameRecord, PlayedMove, SKIPPED};
use crate::setup::Job;

/// The longest movetext line: PGN export format keeps lines under 80 columns.
pub const LINE_CHARS: usize = 79;

/// The record text of one finished game.
pub fn write_record(job: &Job, record: &GameRecord, info: &RecordInfo) -> String {
    let players = job.seats.len();
    let result = result_token(record, players);
    let plies = job.opening.moves.len() + record.moves.len();
    let name = |seat: usize| info.names.get(job.seats[seat]).cloned().unwrap_or_else(|| "?".into());
    // White is the first mover; four players have no White or Black.
    let (white, black) = if players == 2 { (name(0), name(1)) } else { ("?".into(), "?".into()) };
    let mut tags: Vec<(String, String)> = [
        ("Event", info.event.to_string()),
        ("Site", info.site.to_string()),
        ("Date", info.date.to_string()),
        ("Round", job.number.to_string()),
        ("White", white),
        ("Black", black),
        ("Result", result.clone()),
        ("Game", job.number.to_string()),
        ("Variant", info.variant.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    tags.extend((0..players).map(|seat| (format!("P{}", seat + 1), name(seat))));
    if let Some(fen) = &job.opening.fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen.clone()));
    }
    tags.push(("Termination".into(), record.termination.clone()));
    tags.push(("TimeControl".into(), info.time_control.to_string()));
    tags.push(("Plies".into(), plies.to_string()));
    tags.push(("PlyCount".into(), plies.to_string()));
    let mut text = String::new();
    for (key, value) in &tags {
        text.push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    }
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
    for line in wrap(&movetext(job, record, info, &result)) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push('\n');
    text
}

/// The movetext tokens: move numbers, moves, comments, the result. Every
/// round of moves (one move of each player) starts with `N.`; a move of
/// another seat gets `N...` when it opens the game or follows a comment, as
/// PGN export format has it for Black.
fn movetext(job: &Job, record: &GameRecord, info: &RecordInfo, result: &str) -> Vec<String> {
    let minimal = info.minimal;
    let players = job.seats.len().max(1);
    let first = first_seat(job.opening.fen.as_deref(), players);
    let opening = job.opening.moves.iter().map(|text| (text.as_str(), None));
    let played = record.moves.iter().map(|m| (m.text.as_str(), Some(m)));
    let mut tokens = Vec::new();
    let mut after_comment = true;
    for (ply, (text, played)) in opening.chain(played).enumerate() {
        let turn = first + ply;
        let number = turn / players + 1;
        if turn.is_multiple_of(players) {
            tokens.push(format!("{number}."));
        } else if after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(text.to_string());
        let comment = played.filter(|_| !minimal).and_then(|m| move_comment_with(m, info.extras));
        after_comment = comment.is_some();
        if let Some(comment) = comment {
            tokens.push(format!("{{{comment}}}"));
        }
    }
    if let Some(comment) = record.comment.as_ref().filter(|_| !minimal) {
        // Braces would end the comment early.
        tokens.push(format!("{{{}}}", comment.replace(['{', '}'], "")));
    }
    tokens.push(result.to_string());
    tokens
}

/// The seat to move first: the `turn=N` of the start position text, or seat 1.
fn first_seat(fen: Option<&str>, players: usize) -> usize {
    let turn = fen.and_then(|f| f.split_whitespace().find_map(|w| w.strip_prefix("turn=")?.parse().ok()));
    match turn {
        Some(n @ 1..) if n <= players => n - 1,
        _ => 0,
    }
}

/// The comment after an engine's move, as cutechess-cli writes it: the
/// score in hundredths from the mover's side (`+0.35`, a mate `+M5` or
/// `-M3`), `/depth` when reported, and the time taken (`{+0.35/12 0.31s}`).
/// None when the engine reported no score (a person's move on the board, an
/// engine that sends no `info ... score`, a skipped turn): the `;` line of
/// move times still has the time.
pub fn move_comment(played: &PlayedMove) -> Option<String> {
    move_comment_with(played, PgnExtras::default())
}

/// [`move_comment`] followed by what `-pgnout nodes=true seldepth=true
/// nps=true` asks for, as fastchess writes it: `{+0.35/12 0.31s, n=24601,
/// sd=18, nps=512000}`.
pub fn move_comment_with(played: &PlayedMove, extras: PgnExtras) -> Option<String> {
    let mut comment = move_score_time(played)?;
    let stats = played.stats;
    let parts = [
        (extras.nodes, stats.nodes.map(|n| format!("n={n}"))),
        (extras.seldepth, stats.seldepth.map(|n| format!("sd={n}"))),
        (extras.nps, stats.nps.map(|n| format!("nps={n}"))),
    ];
    for (wanted, part) in parts {
        if let (true, Some(part)) = (wanted, part) {
            comment.push_str(", ");
            comment.push_str(&part);
        }
    }
    Some(comment)
}

/// The score, depth and time of [`move_comment`].
fn move_score_time(played: &PlayedMove) -> Option<String> {
    if played.text == SKIPPED {
        return None;
    }
    let (kind, value) = played.score.as_deref()?.split_once(' ')?;
    let value: i64 = value.trim().parse().ok()?;
    let score = match kind {
        "cp" => format!("{:+.2}", value as f64 / 100.0),
        "mate" if value < 0 => format!("-M{}", value.unsigned_abs()),
        "mate" => format!("+M{value}"),
        _ => return None,
    };
    let time = seconds(played.millis);
    Some(match played.depth {
        Some(depth) => format!("{score}/{depth} {time}s"),
        None => format!("{score} {time}s"),
    })
}

/// Milliseconds as seconds without trailing zeros: `0.31`, `1.2`, `0.007`, `3`.
fn seconds(millis: u64) -> String {
    let text = format!("{}.{:03}", millis / 1000, millis % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Tokens joined by spaces in lines of at most [`LINE_CHARS`] characters
/// (a longer token stands alone); a token is never split.
fn wrap(tokens: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.chars().count() + 1 + token.chars().count() > LINE_CHARS {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A tag value as PGN quotes it: `\` and `"` escaped with a backslash (an
/// engine's illegal move, quoted in the termination, may hold either), and
/// control characters, which no PGN string holds, as `?`.
fn escape(value: &str) -> String {
    let printable: String = value.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    printable.replace('\\', "\\\\").replace('"', "\\\"")
}
