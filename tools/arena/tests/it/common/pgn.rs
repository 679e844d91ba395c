//! A strict reader of PGN export format (the PGN standard, section 8), written
//! apart from arena's own reader so that the tests check records against
//! the standard rather than against arena:
//!
//! * games follow one another: tag pairs, one empty line, the movetext, one
//!   empty line;
//! * a tag pair is `[Name "value"]` on its own line: the name a letter then
//!   letters, digits and `_`; the value printing characters only, with `\"`
//!   and `\\` the only escapes, at most 255 characters; no name twice;
//! * the seven-tag roster comes first and in order (Event, Site, Date, Round,
//!   White, Black, Result), the date as `YYYY.MM.DD` (`?` for unknown
//!   digits), `SetUp "1"` exactly when there is a `FEN`;
//! * movetext tokens are move number indications (an integer and periods),
//!   symbols (a letter or digit, then letters, digits and `_+#=:-`), `{...}`
//!   comments (not nested), `;` comments to the end of the line, `$N`
//!   glyphs, and one game termination marker, last, equal to the `Result`
//!   tag; no tab; lines of at most 79 characters (arena's `;` lines, its own
//!   summaries kept whole for older tools, are the documented exception);
//! * numbering as export format has it: every round of moves starts with
//!   `N.`; another seat's move has `N...` exactly when it follows a comment
//!   or opens the game;
//! * `PlyCount` is the number of moves.
//!
//! Four-player records cannot be standard PGN (their results are `P1`..`P4`
//! and a skipped turn is `-`); for them, and only them, those two tokens are
//! allowed and White and Black may be `?`.

/// One game as the strict reader found it.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
    /// The `;` comments, `;` included.
    pub line_comments: Vec<String>,
    /// The `{...}` comments without braces, each with the moves before it.
    pub move_comments: Vec<(usize, String)>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
const LINE_CHARS: usize = 79;

/// Reads every game of `text`, or says which rule a line breaks.
pub fn read_strict(text: &str) -> Result<Vec<PgnGame>, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    if !text.is_empty() && !text.ends_with('\n') {
        return Err("the text does not end with a line break".into());
    }
    let mut games = Vec::new();
    let mut at = 0;
    // The last element after the final '\n' is empty.
    while at + 1 < lines.len() {
        let mut tags: Vec<(String, String)> = Vec::new();
        while let Some(line) = lines.get(at).filter(|l| l.starts_with('[')) {
            let (name, value) = tag_pair(line).map_err(|e| format!("line {}: {e}: {line:?}", at + 1))?;
            if tags.iter().any(|(n, _)| *n == name) {
                return Err(format!("line {}: tag {name} twice", at + 1));
            }
            tags.push((name, value));
            at += 1;
        }
        if tags.is_empty() {
            return Err(format!("line {}: a game must open with tag pairs: {:?}", at + 1, lines[at]));
        }
        if lines.get(at) != Some(&"") {
            return Err(format!("line {}: no empty line after the tag pairs", at + 1));
        }
        at += 1;
        let start = at;
        while lines.get(at).is_some_and(|l| !l.is_empty()) {
            at += 1;
        }
        if at == start || lines.get(at) != Some(&"") {
            return Err(format!("line {}: a movetext, then an empty line, must follow the tags", start + 1));
        }
        let game = movetext(tags, &lines[start..at]).map_err(|e| format!("game from line {}: {e}", start))?;
        games.push(game);
        at += 1;
    }
    Ok(games)
}

fn tag_pair(line: &str) -> Result<(String, String), String> {
    let inner = line.strip_prefix('[').ok_or("no '['")?;
    let (name, rest) = inner.split_once(" \"").ok_or("not '[Name \"'")?;
    let mut chars = name.chars();
    let name_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !name_ok {
        return Err(format!("tag name {name:?}"));
    }
    let mut value = String::new();
    let mut chars = rest.chars();
    loop {
        match chars.next().ok_or("unterminated string")? {
            '\\' => match chars.next() {
                Some(c @ ('"' | '\\')) => value.push(c),
                other => return Err(format!("escape '\\{other:?}'")),
            },
            '"' => break,
            c if c.is_control() => return Err(format!("control character {c:?} in a string")),
            c => value.push(c),
        }
    }
    if chars.as_str() != "]" {
        return Err(format!("{:?} after the string", chars.as_str()));
    }
    if value.chars().count() > 255 {
        return Err("a string over 255 characters".into());
    }
    Ok((name.to_string(), value))
}

fn check_tags(tags: &[(String, String)], four: bool) -> Result<(), String> {
    let names: Vec<&str> = tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
    if names != ROSTER {
        return Err(format!("the seven-tag roster is not first and in order: {names:?}"));
    }
    let date = &tags[2].1;
    let date_ok = date.len() == 10
        && date
            .char_indices()
            .all(|(i, c)| if i == 4 || i == 7 { c == '.' } else { c.is_ascii_digit() || c == '?' });
    if !date_ok {
        return Err(format!("Date {date:?}"));
    }
    let result = &tags[6].1;
    if !is_result(result, four) {
        return Err(format!("Result {result:?}"));
    }
    let has = |name: &str| tags.iter().any(|(n, _)| n == name);
    if has("FEN") != tags.iter().any(|(n, v)| n == "SetUp" && v == "1") {
        return Err("SetUp \"1\" and FEN go together".into());
    }
    Ok(())
}

fn is_result(token: &str, four: bool) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
        || (four
            && token.len() == 2
            && token.starts_with('P')
            && matches!(&token[1..], "1" | "2" | "3" | "4"))
}

fn is_symbol(token: &str, four: bool) -> bool {
    let mut chars = token.chars();
    (chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(c)))
        || (four && token == "-")
}

/// Reads a game's movetext lines against the game's tags.
fn movetext(tags: Vec<(String, String)>, lines: &[&str]) -> Result<PgnGame, String> {
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let variant = tag("Variant").unwrap_or("");
    let four = variant.contains("players=4");
    check_tags(&tags, four)?;
    let players = if four { 4 } else { 2 };
    let first = tag("FEN")
        .and_then(|f| f.split_whitespace().find_map(|w| w.strip_prefix("turn=")?.parse::<usize>().ok()))
        .map_or(0, |t| t - 1);
    let mut game = PgnGame {
        tags: tags.clone(),
        moves: Vec::new(),
        result: String::new(),
        line_comments: Vec::new(),
        move_comments: Vec::new(),
    };
    let text = lines.join("\n");
    for line in lines {
        if line.contains('\t') {
            return Err(format!("a tab in {line:?}"));
        }
        if !line.starts_with(';') && line.chars().count() > LINE_CHARS {
            return Err(format!("a line over {LINE_CHARS} characters: {line:?}"));
        }
    }
    // What numbering the next move needs: Some(indication) when one is due.
    let mut after_comment = true;
    let mut number: Option<String> = None;
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        if !game.result.is_empty() && !c.is_whitespace() {
            return Err(format!("{:?} after the game termination marker", rest));
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c == ';' {
            let end = rest.find('\n').unwrap_or(rest.len());
            game.line_comments.push(rest[..end].to_string());
            rest = &rest[end..];
            after_comment = true;
        } else if c == '{' {
            let end = rest.find('}').ok_or("an unterminated '{' comment")?;
            game.move_comments.push((game.moves.len(), rest[1..end].to_string()));
            rest = &rest[end + 1..];
            after_comment = true;
        } else {
            let end = rest.find(|c: char| c.is_whitespace() || c == '{' || c == ';').unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            let digits = token.trim_end_matches('.');
            if digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            {
                if number.is_some() {
                    return Err(format!("two move numbers in a row at {token:?}"));
                }
                number = Some(token.to_string());
                continue;
            }
            if let Some(glyph) = token.strip_prefix('$') {
                if glyph.is_empty() || !glyph.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("glyph {token:?}"));
                }
                continue;
            }
            if is_result(token, four) && rest.trim().is_empty() {
                if number.is_some() {
                    return Err("a move number before the result".into());
                }
                game.result = token.to_string();
                continue;
            }
            if !is_symbol(token, four) {
                return Err(format!("{token:?} is no PGN token"));
            }
            let turn = first + game.moves.len();
            let full = turn / players + 1;
            let expected = if turn.is_multiple_of(players) {
                Some(format!("{full}."))
            } else if after_comment {
                Some(format!("{full}..."))
            } else {
                None
            };
            if number != expected {
                return Err(format!(
                    "move {token:?} (ply {}) has number {number:?}, not {expected:?}",
                    game.moves.len() + 1
                ));
            }
            game.moves.push(token.to_string());
            number = None;
            after_comment = false;
        }
    }
    if game.result.is_empty() {
        return Err("no game termination marker at the end".into());
    }
    if tag("Result") != Some(game.result.as_str()) {
        return Err(format!("the marker {} is not the Result tag", game.result));
    }
    if let Some(count) = tag("PlyCount") {
        if count != game.moves.len().to_string() {
            return Err(format!("PlyCount {count} for {} moves", game.moves.len()));
        }
    }
    Ok(game)
}
