//! The grammar of input lines (nom), turning text into [`Command`]s. Nothing
//! here knows the game: moves and position texts stay text until the session
//! checks them against the rules.

use nom::bytes::complete::take_till1;
use nom::character::complete::multispace0;
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::IResult;
use std::fmt;
use std::time::Duration;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    Fen(String),
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Clock of each seat (`wtime`/`btime` are seats 1 and 2, `p1time`..).
    pub time: [Option<Duration>; 4],
    pub increment: [Option<Duration>; 4],
    pub moves_to_go: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    pub perft: Option<u32>,
    /// `solve`: the exact value by retrograde analysis (`tabula solve`).
    pub solve: bool,
    /// `mate N`: look for a win in at most N of the mover's own moves.
    pub mate: Option<u32>,
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
        let clocks = self.time.iter().any(Option::is_some);
        let bounded = clocks
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.move_time.is_some()
            || self.mate.is_some()
            || self.perft.is_some()
            || self.solve
            || self.has_errors();
        self.infinite || self.ponder || !bounded
    }
}

/// One input line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    Display,
    /// `debug on|off` and `register ...`: accepted, and nothing changes.
    Ignored,
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    UnknownCommand(String),
    Malformed { command: &'static str, detail: String },
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
        "go" => Ok(Some(Command::Go(parse_go(rest)))),
        "debug" if matches!(rest, "" | "on" | "off") => Ok(Some(Command::Ignored)),
        "debug" => Err(malformed("debug", format!("expected 'on' or 'off', not '{}'", quoted(rest)))),
        "register" => Ok(Some(Command::Ignored)),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

fn malformed(command: &'static str, detail: String) -> ParseError {
    ParseError::Malformed { command, detail }
}

fn word(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(char::is_whitespace))(input)
}

/// The words of a line: runs of anything but blanks.
fn words(input: &str) -> Vec<&str> {
    match terminated(many0(word), multispace0)(input) {
        Ok((_, words)) => words,
        // `word` fails only where no word is left, which many0 absorbs.
        Err(_) => Vec::new(),
    }
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
    BadValue { key: &'static str, value: String },
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
            "infinite" => params.infinite = true,
            "ponder" => params.ponder = true,
            "solve" => params.solve = true,
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
    match key {
        "wtime" | "p1time" => params.time[0] = Some(millis),
        "btime" | "p2time" => params.time[1] = Some(millis),
        "p3time" => params.time[2] = Some(millis),
        "p4time" => params.time[3] = Some(millis),
        "winc" | "p1inc" => params.increment[0] = Some(millis),
        "binc" | "p2inc" => params.increment[1] = Some(millis),
        "p3inc" => params.increment[2] = Some(millis),
        "p4inc" => params.increment[3] = Some(millis),
        "movestogo" => params.moves_to_go = Some(n as u32),
        "depth" => params.depth = Some(n as u32),
        "nodes" => params.nodes = Some(n as u64),
        "movetime" => params.move_time = Some(millis),
        "mate" => params.mate = Some(n as u32),
        _ => params.perft = Some((n as u32).min(64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse_line("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse_line("  isready  "), Ok(Some(Command::IsReady)));
        assert_eq!(parse_line(""), Ok(None));
        assert!(matches!(parse_line("uci now"), Err(ParseError::Malformed { .. })));
        assert!(matches!(parse_line("hello"), Err(ParseError::UnknownCommand(_))));
    }

    #[test]
    fn setoption_names_may_hold_spaces() {
        assert_eq!(
            parse_line("setoption name Move Overhead value 30"),
            Ok(Some(Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) }))
        );
        assert!(parse_line("setoption value 3").is_err());
        assert!(parse_line("setoption name Hash value").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse_line("position startpos moves e2 e8"),
            Ok(Some(Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["e2".into(), "e8".into()]
            }))
        );
        let fen = "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1";
        assert_eq!(
            parse_line(&format!("position fen {fen} moves e2")),
            Ok(Some(Command::Position { base: PositionBase::Fen(fen.into()), moves: vec!["e2".into()] }))
        );
        assert!(parse_line("position").is_err());
        assert!(parse_line("position fen").is_err());
        assert!(parse_line("position somewhere").is_err());
    }

    #[test]
    fn go_parameters() {
        let Ok(Some(Command::Go(p))) =
            parse_line("go wtime 1000 btime -5 winc 10 p3time 7 movestogo 5 ponder")
        else {
            panic!("go did not parse");
        };
        assert_eq!(p.time[0], Some(Duration::from_millis(1000)));
        assert_eq!(p.time[1], Some(Duration::ZERO));
        assert_eq!(p.time[2], Some(Duration::from_millis(7)));
        assert_eq!(p.increment[0], Some(Duration::from_millis(10)));
        assert_eq!(p.moves_to_go, Some(5));
        assert!(p.ponder && !p.infinite);
        assert!(p.problems.is_empty());
        assert_eq!(parse_line("go"), Ok(Some(Command::Go(GoParams::default()))));
    }

    fn go(line: &str) -> GoParams {
        match parse_line(line) {
            Ok(Some(Command::Go(params))) => params,
            other => panic!("'{line}' gave {other:?}"),
        }
    }

    #[test]
    fn go_never_fails_and_names_what_it_could_not_use() {
        assert_eq!(go("go depth").problems, [GoProblem::MissingValue("depth")]);
        assert_eq!(go("go depth infinite").problems, [GoProblem::MissingValue("depth")]);
        let solve = go("go solve searchmoves e2 solve");
        assert!(solve.solve && !solve.is_unbounded() && solve.problems.is_empty());
        assert_eq!(solve.search_moves, ["e2"], "solve ends a searchmoves list");
        assert!(go("go depth infinite").infinite);
        for bad in
            ["go depth x", "go depth 0", "go movetime -5", "go nodes 99999999999999999999", "go mate 0"]
        {
            let params = go(bad);
            assert!(params.has_errors(), "{bad}");
            assert!(!params.is_unbounded(), "{bad}");
        }
        let params = go("go sideways depth 3");
        assert_eq!(params.problems, [GoProblem::Unknown("sideways".into())]);
        assert!(!params.has_errors());
        assert_eq!(params.depth, Some(3));
        assert!(go("go").is_unbounded() && go("go ponder wtime 5").is_unbounded());
        assert!(!go("go wtime 5").is_unbounded());
    }

    #[test]
    fn searchmoves_takes_the_words_up_to_the_next_parameter() {
        let params = go("go\tsearchmoves e2  d1h\tmate 3");
        assert_eq!(params.search_moves, ["e2", "d1h"]);
        assert_eq!(params.mate, Some(3));
        assert!(params.problems.is_empty());
    }

    #[test]
    fn any_blank_separates_words_and_quotes_are_cut() {
        assert_eq!(
            parse_line("position\tstartpos\tmoves\te2 \t e8"),
            Ok(Some(Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["e2".into(), "e8".into()]
            }))
        );
        assert_eq!(parse_line("debug on"), Ok(Some(Command::Ignored)));
        assert_eq!(parse_line("register later"), Ok(Some(Command::Ignored)));
        let long = "x".repeat(10_000);
        let message = parse_line(&long).unwrap_err().to_string();
        assert!(message.len() < QUOTED_CHARS + 40, "{message}");
    }
}
