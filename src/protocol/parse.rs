//! The grammar of input lines, turning text into typed [`Command`]s, written
//! with `nom` parser combinators: a word is a run of anything but blanks,
//! and each command is a rule over words (`setoption name <words> [value
//! <words>]`, `position startpos|fen <words> [moves <words>]`, `go` and its
//! parameters). An error names what was expected and the word found instead,
//! with its number and column. Nothing here knows the game: moves and
//! position texts stay text until the session checks them against the rules.

/// Quoting input back in messages (kept in a leaf module the rules share).
pub use crate::quote::{quoted, QUOTED_CHARS};
use crate::search::Limits;
use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::multispace0;
use nom::combinator::{cut, eof, map, opt, value, verify};
use nom::error::{Error as NomError, ErrorKind};
use nom::multi::{many0, many1};
use nom::sequence::{pair, preceded, terminated};
use nom::IResult;
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
        /// What is wrong, naming the offending word and where it is.
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

/// What every rule of the grammar returns.
type Parsed<'a, T> = IResult<&'a str, T>;

/// A word: a run of anything but blanks, after any blanks.
fn word(input: &str) -> Parsed<'_, &str> {
    preceded(multispace0, take_till1(char::is_whitespace))(input)
}

/// The word `expected` and no other.
fn keyword<'a>(expected: &'static str) -> impl FnMut(&'a str) -> Parsed<'a, &'a str> {
    verify(word, move |w: &str| w == expected)
}

/// Any word but `stop`.
fn word_before<'a>(stop: &'static str) -> impl FnMut(&'a str) -> Parsed<'a, &'a str> {
    verify(word, move |w: &str| w != stop)
}

/// Blanks to the end of the line.
fn end_of_line(input: &str) -> Parsed<'_, &str> {
    preceded(multispace0, eof)(input)
}

/// Where the rest of `line` that a rule stopped at begins: the word found
/// there (or the end of the line), its number among the line's words and
/// its column, both from 1.
fn located(line: &str, rest: &str) -> String {
    let at = line.len() - rest.len();
    let blanks = rest.len() - rest.trim_start().len();
    let start = at + blanks;
    let column = line[..start].chars().count() + 1;
    let number = line[..start].split_whitespace().count() + 1;
    match rest.split_whitespace().next() {
        Some(w) => format!("'{}' (word {number}, column {column})", quoted(w)),
        None => format!("the end of the line (column {column})"),
    }
}

/// The error of a rule that failed on `line`: what was expected, and the
/// word it found instead.
fn failed(line: &str, command: &'static str, expected: &str, error: nom::Err<NomError<&str>>) -> ParseError {
    let rest = match error {
        nom::Err::Error(e) | nom::Err::Failure(e) => e.input,
        nom::Err::Incomplete(_) => "",
    };
    malformed(command, format!("expected {expected}, found {}", located(line, rest)))
}

/// Parses a line; `Ok(None)` for a blank line. Any run of blanks (spaces,
/// tabs, ...) separates words.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let Ok((rest, first)) = word(line) else {
        return Ok(None);
    };
    let simple = |command: Command, name: &'static str| match end_of_line(rest) {
        Ok(_) => Ok(Some(command)),
        Err(e) => Err(failed(line, name, "nothing more", e)),
    };
    match first {
        "uci" => simple(Command::Uci, "uci"),
        "isready" => simple(Command::IsReady, "isready"),
        "ucinewgame" => simple(Command::UciNewGame, "ucinewgame"),
        "stop" => simple(Command::Stop, "stop"),
        "ponderhit" => simple(Command::PonderHit, "ponderhit"),
        "quit" => simple(Command::Quit, "quit"),
        "d" => simple(Command::Display, "d"),
        "setoption" => parse_setoption(line, rest).map(Some),
        "position" => parse_position(line, rest).map(Some),
        "go" => Ok(Some(Command::Go(Box::new(parse_go(rest))))),
        "debug" => match terminated(opt(alt((keyword("on"), keyword("off")))), end_of_line)(rest) {
            Ok(_) => Ok(Some(Command::Ignored)),
            Err(e) => Err(failed(line, "debug", "'on' or 'off'", e)),
        },
        "register" => Ok(Some(Command::Ignored)),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

fn malformed(command: &'static str, detail: String) -> ParseError {
    ParseError::Malformed { command, detail }
}

/// `name <words> [value <words>]`; names may hold spaces, as in UCI.
fn parse_setoption(line: &str, rest: &str) -> Result<Command, ParseError> {
    let expected = "'name <id> [value <x>]'";
    let (rest, _) = keyword("name")(rest).map_err(|e| failed(line, "setoption", expected, e))?;
    let (rest, name) =
        many1(word_before("value"))(rest).map_err(|e| failed(line, "setoption", "the option's name", e))?;
    let value_words = preceded(keyword("value"), cut(many1(word)));
    let (_, value) = terminated(opt(value_words), end_of_line)(rest)
        .map_err(|e| failed(line, "setoption", "the value after 'value'", e))?;
    Ok(Command::SetOption { name: name.join(" "), value: value.map(|words| words.join(" ")) })
}

/// `startpos | fen <text>` then optionally `moves <m>...`.
fn parse_position(line: &str, rest: &str) -> Result<Command, ParseError> {
    let fen_text = preceded(keyword("fen"), cut(many1(word_before("moves"))));
    let base = alt((
        value(PositionBase::StartPos, keyword("startpos")),
        map(fen_text, |words| PositionBase::Fen(words.join(" "))),
    ));
    let moves = opt(preceded(keyword("moves"), many0(word)));
    let (_, (base, moves)) = terminated(pair(base, moves), end_of_line)(rest)
        .map_err(|e| failed(line, "position", "'startpos' or 'fen <text>', then 'moves ...'", e))?;
    let moves = moves.unwrap_or_default().into_iter().map(str::to_string).collect();
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

/// One parameter of `go`, as written.
#[derive(Clone)]
enum GoWord<'a> {
    Infinite,
    Ponder,
    Solve,
    SearchMoves(Vec<&'a str>),
    /// A numeric parameter and its value, if one follows.
    Number(&'static str, Option<&'a str>),
    Unknown(&'a str),
}

/// A word that is not a `go` parameter's name: a value or a move.
fn go_value(input: &str) -> Parsed<'_, &str> {
    verify(word, |w: &str| !is_go_keyword(w))(input)
}

/// A numeric parameter's name.
fn numeric_key(input: &str) -> Parsed<'_, &'static str> {
    let (rest, w) = word(input)?;
    match NUMERIC_KEYS.iter().find(|&&k| k == w) {
        Some(&key) => Ok((rest, key)),
        None => Err(nom::Err::Error(NomError::new(input, ErrorKind::Tag))),
    }
}

/// One parameter of `go`; any word is one (an unknown one at worst).
fn go_word(input: &str) -> Parsed<'_, GoWord<'_>> {
    alt((
        value(GoWord::Infinite, keyword("infinite")),
        value(GoWord::Ponder, keyword("ponder")),
        value(GoWord::Solve, keyword("solve")),
        map(preceded(keyword("searchmoves"), many0(go_value)), GoWord::SearchMoves),
        map(pair(numeric_key, opt(go_value)), |(key, value)| GoWord::Number(key, value)),
        map(word, GoWord::Unknown),
    ))(input)
}

/// Reads `go`'s parameters. It never fails: what cannot be used is listed
/// in [`GoParams::problems`].
fn parse_go(rest: &str) -> GoParams {
    let mut params = GoParams::default();
    let words = many0(go_word)(rest).map_or_else(|_| Vec::new(), |(_, words)| words);
    for word in words {
        match word {
            GoWord::Infinite => params.limits.infinite = true,
            GoWord::Ponder => params.ponder = true,
            // Perft, when asked for too, goes first (as it always has).
            GoWord::Solve if !matches!(params.task, GoTask::Perft(_)) => params.task = GoTask::Solve,
            GoWord::Solve => {}
            GoWord::SearchMoves(moves) => params.search_moves.extend(moves.into_iter().map(str::to_string)),
            GoWord::Number(key, Some(value)) => apply_number(&mut params, key, value),
            GoWord::Number(key, None) => params.problems.push(GoProblem::MissingValue(key)),
            GoWord::Unknown(word) => params.problems.push(GoProblem::Unknown(word.to_string())),
        }
    }
    params
}

/// A `go` parameter's value. A whole number too large to hold is as large
/// as it gets (`go depth 4294967296`: as deep as the search goes); clocks
/// below zero (a GUI whose clock ran out) read as zero; every count must be
/// positive, but `perft 0` (which counts the position itself, 1).
fn apply_number(params: &mut GoParams, key: &'static str, text: &str) {
    let bad = GoProblem::BadValue { key, value: text.to_string() };
    let digits = text.strip_prefix('+').unwrap_or(text);
    let n: i128 = match text.parse::<i128>() {
        Ok(n) => n,
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => i128::MAX,
        Err(_) => return params.problems.push(bad),
    };
    let millis = Duration::from_millis(n.clamp(0, i128::from(u64::MAX)) as u64);
    let clock = key.contains("time") || key.contains("inc");
    let least = if key == "perft" { 0 } else { 1 };
    if (!clock || key == "movetime") && n < least {
        return params.problems.push(bad);
    }
    let count32 = n.min(i128::from(u32::MAX)) as u32;
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
        "movestogo" => clocks.moves_to_go = Some(count32),
        "depth" => limits.depth = Some(count32),
        "nodes" => limits.nodes = Some(n.min(i128::from(u64::MAX)) as u64),
        "movetime" => limits.move_time = Some(millis),
        "mate" => limits.mate = Some(count32),
        _ => params.task = GoTask::Perft(count32.min(64)),
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
