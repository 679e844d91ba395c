//! The grammar of input lines, turning text into typed [`Command`]s: a line
//! is split into words at any run of blanks, and each command reads its
//! words (the one approach for the whole grammar; UCI has no quoting or
//! nesting that would need more). Nothing here knows the game: moves and
//! position texts stay text until the session checks them against the rules.

use crate::search::Limits;
use std::fmt;
use std::time::Duration;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// `startpos`: the start of the game the options describe.
    StartPos,
    /// `fen <text>`: a position text, whose first word names the game.
    Fen(String),
}

/// What a `go` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GoTask {
    /// A search for the best move (`bestmove`).
    #[default]
    Search,
    /// `perft N`: count the move paths of length N, by root move.
    Perft(u32),
    /// `solve`: the exact value by retrograde analysis (`tabula solve`).
    Solve,
}

/// The parameters of `go`, typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// What to do.
    pub task: GoTask,
    /// When a search must end (clocks of each seat: `wtime`/`btime` are
    /// seats 1 and 2, `p1time`..`p4time` any seat).
    pub limits: Limits,
    /// `ponder`: search on the opponent's time until `ponderhit`.
    pub ponder: bool,
    /// `searchmoves ...`: only these root moves (as written; the session
    /// checks them against the position).
    pub search_moves: Vec<String>,
    /// What could not be used as written, in order.
    pub problems: Vec<GoProblem>,
}

impl GoParams {
    /// Whether a value could not be used: the search is then the shortest.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(GoProblem::is_error)
    }

    /// Whether nothing but `stop` (or the end of input) ends this search.
    pub fn is_unbounded(&self) -> bool {
        let limits = &self.limits;
        let bounded = limits.clocks.time.iter().any(Option::is_some)
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.move_time.is_some()
            || limits.mate.is_some()
            || self.task != GoTask::Search
            || self.has_errors();
        limits.infinite || self.ponder || !bounded
    }
}

/// One input line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify, declare the options, `uciok`.
    Uci,
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `setoption name <id> [value <x>]`; names may hold spaces.
    SetOption {
        /// The option's name, as written.
        name: String,
        /// Its value, as written; `None` for a button.
        value: Option<String>,
    },
    /// `ucinewgame`: a new game; the table is cleared.
    UciNewGame,
    /// `position startpos|fen <text> [moves ...]`.
    Position {
        /// Where the moves start.
        base: PositionBase,
        /// The moves, as written.
        moves: Vec<String>,
    },
    /// `go ...` (boxed: the limits make it the largest command by far).
    Go(Box<GoParams>),
    /// `stop`: answer now.
    Stop,
    /// `ponderhit`: the pondered move was played.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the position.
    Display,
    /// `debug on|off` and `register ...`: accepted, and nothing changes.
    Ignored,
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is no command.
    UnknownCommand(String),
    /// A command whose words do not fit its form.
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        detail: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(word) => write!(f, "unknown command '{}'", quoted(word)),
            ParseError::Malformed { command, detail } => {
                write!(f, "malformed '{command}': {detail}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a line; `Ok(None)` for a blank line. Any run of blanks (spaces,
/// tabs, ...) separates words.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    let Some(first) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let rest = line[first.len()..].trim();
    let simple = |command: Command, name: &'static str| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(malformed(name, format!("unexpected '{}'", quoted(rest))))
        }
    };
    match first {
        "uci" => simple(Command::Uci, "uci"),
        "isready" => simple(Command::IsReady, "isready"),
        "ucinewgame" => simple(Command::UciNewGame, "ucinewgame"),
        "stop" => simple(Command::Stop, "stop"),
        "ponderhit" => simple(Command::PonderHit, "ponderhit"),
        "quit" => simple(Command::Quit, "quit"),
        "d" => simple(Command::Display, "d"),
        "setoption" => parse_setoption(rest).map(Some),
        "position" => parse_position(rest).map(Some),
        "go" => Ok(Some(Command::Go(Box::new(parse_go(rest))))),
        "debug" if matches!(rest, "" | "on" | "off") => Ok(Some(Command::Ignored)),
        "debug" => Err(malformed("debug", format!("expected 'on' or 'off', not '{}'", quoted(rest)))),
        "register" => Ok(Some(Command::Ignored)),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

fn malformed(command: &'static str, detail: String) -> ParseError {
    ParseError::Malformed { command, detail }
}

/// The words of a line: runs of anything but blanks.
fn words(input: &str) -> Vec<&str> {
    input.split_whitespace().collect()
}

/// `name <words> [value <words>]`; names may hold spaces, as in UCI.
fn parse_setoption(rest: &str) -> Result<Command, ParseError> {
    let words = words(rest);
    if words.first() != Some(&"name") {
        return Err(malformed("setoption", "expected 'name <id> [value <x>]'".into()));
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(malformed("setoption", "the option name is missing".into()));
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(malformed("setoption", "the value is missing".into()));
    }
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

/// `startpos | fen <text>` then optionally `moves <m>...`.
fn parse_position(rest: &str) -> Result<Command, ParseError> {
    let words = words(rest);
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(at) => (&words[..at], words[at + 1..].iter().map(|w| w.to_string()).collect()),
        None => (&words[..], Vec::new()),
    };
    let base = match head {
        ["startpos"] => PositionBase::StartPos,
        ["fen"] => return Err(malformed("position", "'fen' needs a position text".into())),
        ["fen", text @ ..] => PositionBase::Fen(text.join(" ")),
        _ => {
            return Err(malformed("position", "expected 'startpos' or 'fen <text>', then 'moves ...'".into()))
        }
    };
    Ok(Command::Position { base, moves })
}

/// Something in a `go` line that was not used as written. The `go` is still
/// answered: unknown words are skipped (as UCI says), and a value that
/// cannot be used makes the search the shortest one that still gives a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoProblem {
    /// A word that is no `go` parameter: ignored, with a warning.
    Unknown(String),
    /// A parameter without its value.
    MissingValue(&'static str),
    /// A value that is no number, out of range, or not positive.
    BadValue {
        /// The parameter.
        key: &'static str,
        /// Its value, as written.
        value: String,
    },
}

impl GoProblem {
    /// Unknown words are only warned about; the others are errors.
    pub fn is_error(&self) -> bool {
        !matches!(self, GoProblem::Unknown(_))
    }
}

impl fmt::Display for GoProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoProblem::Unknown(word) => write!(f, "go: ignored unknown parameter '{}'", quoted(word)),
            GoProblem::MissingValue(key) => write!(f, "go: '{key}' needs a value; searching as briefly as possible"),
            GoProblem::BadValue { key, value } => write!(
                f,
                "go: '{key} {}' cannot be used (a positive whole number is needed); searching as briefly as possible",
                quoted(value)
            ),
        }
    }
}

/// At most this many characters of the input are quoted back in a message.
pub const QUOTED_CHARS: usize = 80;

/// `text` cut to [`QUOTED_CHARS`] characters, marked when cut.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// `go` parameters that take a number.
const NUMERIC_KEYS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "perft",
    "mate",
    "p1time",
    "p2time",
    "p3time",
    "p4time",
    "p1inc",
    "p2inc",
    "p3inc",
    "p4inc",
];

/// Every word that starts a `go` parameter (and so ends `searchmoves`).
fn is_go_keyword(word: &str) -> bool {
    NUMERIC_KEYS.contains(&word) || matches!(word, "infinite" | "ponder" | "searchmoves" | "solve")
}

/// Reads `go`'s parameters, word by word. It never fails: what cannot be
/// used is listed in [`GoParams::problems`].
fn parse_go(rest: &str) -> GoParams {
    let mut params = GoParams::default();
    let mut words = words(rest).into_iter().peekable();
    while let Some(word) = words.next() {
        match word {
            "infinite" => params.limits.infinite = true,
            "ponder" => params.ponder = true,
            // Perft, when asked for too, goes first (as it always has).
            "solve" if !matches!(params.task, GoTask::Perft(_)) => params.task = GoTask::Solve,
            "solve" => {}
            "searchmoves" => {
                while let Some(mv) = words.next_if(|w| !is_go_keyword(w)) {
                    params.search_moves.push(mv.to_string());
                }
            }
            _ => match NUMERIC_KEYS.iter().find(|&&k| k == word) {
                Some(&key) => match words.next_if(|w| !is_go_keyword(w)) {
                    Some(value) => apply_number(&mut params, key, value),
                    None => {
                        params.problems.push(GoProblem::MissingValue(key));
                    }
                },
                None => params.problems.push(GoProblem::Unknown(word.to_string())),
            },
        }
    }
    params
}

fn apply_number(params: &mut GoParams, key: &'static str, text: &str) {
    let bad = GoProblem::BadValue { key, value: text.to_string() };
    let Ok(n) = text.parse::<i64>() else {
        return params.problems.push(bad);
    };
    // Clocks may arrive negative from a GUI whose clock ran out: read as zero.
    let millis = Duration::from_millis(n.max(0) as u64);
    if !key.contains("time") && !key.contains("inc") || key == "movetime" {
        // Every other parameter needs a positive number that fits.
        if n <= 0 || (key != "nodes" && n > u32::MAX as i64) {
            return params.problems.push(bad);
        }
    }
    let limits = &mut params.limits;
    let clocks = &mut limits.clocks;
    match key {
        "wtime" | "p1time" => clocks.time[0] = Some(millis),
        "btime" | "p2time" => clocks.time[1] = Some(millis),
        "p3time" => clocks.time[2] = Some(millis),
        "p4time" => clocks.time[3] = Some(millis),
        "winc" | "p1inc" => clocks.increment[0] = Some(millis),
        "binc" | "p2inc" => clocks.increment[1] = Some(millis),
        "p3inc" => clocks.increment[2] = Some(millis),
        "p4inc" => clocks.increment[3] = Some(millis),
        "movestogo" => clocks.moves_to_go = Some(n as u32),
        "depth" => limits.depth = Some(n as u32),
        "nodes" => limits.nodes = Some(n as u64),
        "movetime" => limits.move_time = Some(millis),
        "mate" => limits.mate = Some(n as u32),
        _ => params.task = GoTask::Perft((n as u32).min(64)),
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
