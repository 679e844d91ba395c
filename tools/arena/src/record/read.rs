//! Reads game records back: every record of a text, old (one line of moves,
//! then the result) or PGN (move numbers, `{...}` comments, `;` comments, a
//! `$N` glyph, moves wrapped over lines), each checked by replaying its
//! moves with the Tabula library.

use crate::referee::{skip_turn, SKIPPED};
use crate::setup::{shortened, GameVariant, Opening};
use tabula::game::Position;
use tabula::games::AnyPosition;

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
    /// The `;` comments, without the `;` (move times, scores, opening plies).
    pub comments: Vec<String>,
    /// The `{...}` comments, without the braces, each with the number of
    /// moves before it: `(1, "+0.35/12 0.31s")` follows the first move.
    pub move_comments: Vec<(usize, String)>,
}

impl ReadRecord {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Reads every record of a text [`super::write_record`] wrote, now or in
/// arena's first layout (records follow one another; a `[` line after
/// moves starts the next). A record that cannot be read gives its error,
/// and the rest are still read.
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
    let mut body = String::new();
    for &line in lines {
        if line.starts_with('[') && body.trim().is_empty() {
            tags.push(tag_pair(line)?);
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    let tag = |name: &str| tags.iter().find(|(n, _): &&(String, String)| n == name).map(|(_, v)| v.as_str());
    let variant = GameVariant::from_description(tag("Variant").ok_or("no Variant tag")?)?;
    let Movetext { mut moves, comments, move_comments } = movetext(&body)?;
    let is_result = |w: &str| matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") || w.starts_with('P');
    let result = match moves.last() {
        Some(last) if is_result(last) => moves.pop().unwrap_or_default(),
        _ => "*".to_string(),
    };
    let game = Opening { fen: tag("FEN").map(String::from), moves };
    // Every move must be legal; unlike an opening, a record may end the game.
    replay(&game, &variant)?;
    Ok(ReadRecord { tags, variant, game, result, comments, move_comments })
}

/// `[Name "value"]`, the value unescaped (`\"` and `\\`).
fn tag_pair(line: &str) -> Result<(String, String), String> {
    let inner = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
    let inner = inner.ok_or_else(|| format!("tag line '{}'", quoted(line)))?;
    let (name, value) = inner.split_once(' ').ok_or_else(|| format!("tag line '{}'", quoted(line)))?;
    let value = value.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"'));
    let value = value.ok_or_else(|| format!("tag value in '{}' is not quoted", quoted(line)))?;
    let mut unescaped = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        unescaped.push(if c == '\\' { chars.next().unwrap_or('\\') } else { c });
    }
    Ok((name.to_string(), unescaped))
}

/// What a movetext holds: its words (moves and the result, without move
/// numbers or glyphs) and its comments.
struct Movetext {
    moves: Vec<String>,
    comments: Vec<String>,
    move_comments: Vec<(usize, String)>,
}

/// Splits a movetext into moves and comments. Move numbers (`12.`,
/// `12...`, also written against the move: `12.e2`) and glyphs (`$1`) are
/// left out; a variation (`(...)`) is refused.
fn movetext(body: &str) -> Result<Movetext, String> {
    let mut found = Movetext { moves: Vec::new(), comments: Vec::new(), move_comments: Vec::new() };
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        match c {
            _ if c.is_whitespace() => rest = &rest[c.len_utf8()..],
            '{' => {
                let end = rest.find('}').ok_or("a '{' comment without its '}'")?;
                found.move_comments.push((found.moves.len(), rest[1..end].trim().to_string()));
                rest = &rest[end + 1..];
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                found.comments.push(rest[1..end].trim().to_string());
                rest = &rest[end..];
            }
            '(' | ')' => return Err("variations ('(...)') are not read".into()),
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || "{;()".contains(c)).unwrap_or(rest.len());
                let word = &rest[..end];
                rest = &rest[end..];
                let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
                let glyph = word
                    .strip_prefix('$')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                let after_number = (digits.len() < word.len() && digits.starts_with('.'))
                    .then(|| digits.trim_start_matches('.'));
                match after_number {
                    Some(mv) if !mv.is_empty() => found.moves.push(mv.to_string()),
                    Some(_) => {}
                    None if glyph => {}
                    None => found.moves.push(word.to_string()),
                }
            }
        }
    }
    Ok(found)
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
