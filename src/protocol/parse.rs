//! The grammar of input lines (nom), turning text into [`Command`]s. Nothing
//! here knows the game: moves and position texts stay text until the session
//! checks them against the rules.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::{digit1, multispace0, multispace1};
use nom::combinator::{all_consuming, map, map_res, opt, recognize};
use nom::multi::many0;
use nom::sequence::{pair, preceded};
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
}

/// One input line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    SetOption { name: String, value: Option<String> },
    UciNewGame,
    Position { base: PositionBase, moves: Vec<String> },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    Display,
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
            ParseError::UnknownCommand(word) => write!(f, "unknown command '{word}'"),
            ParseError::Malformed { command, detail } => {
                write!(f, "malformed '{command}': {detail}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a line; `Ok(None)` for a blank line.
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
            Err(malformed(name, format!("unexpected '{rest}'")))
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
        "go" => parse_go(rest).map(Some),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

fn malformed(command: &'static str, detail: String) -> ParseError {
    ParseError::Malformed { command, detail }
}

fn word(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(char::is_whitespace))(input)
}

fn keyword<'a>(name: &'static str) -> impl FnMut(&'a str) -> IResult<&'a str, &'a str> {
    move |input: &'a str| {
        let (rest, w) = word(input)?;
        if w == name {
            Ok((rest, w))
        } else {
            Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Tag)))
        }
    }
}

/// `name <words> [value <words>]`; names may hold spaces, as in UCI.
fn parse_setoption(rest: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
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
    let (before_moves, moves) = match rest.split_once(" moves") {
        Some((head, tail)) if tail.is_empty() || tail.starts_with(char::is_whitespace) => {
            (head.trim(), tail.split_whitespace().map(String::from).collect())
        }
        _ if rest == "moves" || rest.starts_with("moves ") => ("", Vec::new()),
        _ => (rest, Vec::new()),
    };
    let base = if before_moves == "startpos" {
        PositionBase::StartPos
    } else if let Some(text) = before_moves.strip_prefix("fen") {
        let text = text.trim();
        if text.is_empty() || !before_moves[3..].starts_with(char::is_whitespace) {
            return Err(malformed("position", "'fen' needs a position text".into()));
        }
        PositionBase::Fen(text.to_string())
    } else {
        return Err(malformed("position", "expected 'startpos' or 'fen <text>', then 'moves ...'".into()));
    };
    Ok(Command::Position { base, moves })
}

/// One `go` parameter, applied to `params`.
enum GoToken<'a> {
    Number(&'a str, i64),
    Flag(&'a str),
}

fn signed_number(input: &str) -> IResult<&str, i64> {
    map_res(preceded(multispace1, recognize(pair(opt(tag("-")), digit1))), str::parse::<i64>)(input)
}

fn go_token(input: &str) -> IResult<&str, GoToken<'_>> {
    let numeric = alt((
        alt((
            keyword("wtime"),
            keyword("btime"),
            keyword("winc"),
            keyword("binc"),
            keyword("movestogo"),
            keyword("depth"),
            keyword("nodes"),
            keyword("movetime"),
            keyword("perft"),
        )),
        alt((
            keyword("p1time"),
            keyword("p2time"),
            keyword("p3time"),
            keyword("p4time"),
            keyword("p1inc"),
            keyword("p2inc"),
            keyword("p3inc"),
            keyword("p4inc"),
        )),
    ));
    alt((
        map(pair(numeric, signed_number), |(k, n)| GoToken::Number(k, n)),
        map(alt((keyword("infinite"), keyword("ponder"))), GoToken::Flag),
    ))(input)
}

fn parse_go(rest: &str) -> Result<Command, ParseError> {
    let tokens = all_consuming(nom::sequence::terminated(many0(go_token), multispace0))(rest);
    let tokens = match tokens {
        Ok((_, tokens)) => tokens,
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let at = e.input.split_whitespace().next().unwrap_or("");
            return Err(malformed("go", format!("unexpected '{at}'")));
        }
        Err(nom::Err::Incomplete(_)) => return Err(malformed("go", "incomplete".into())),
    };
    let mut params = GoParams::default();
    for token in tokens {
        match token {
            GoToken::Flag("infinite") => params.infinite = true,
            GoToken::Flag(_) => params.ponder = true,
            GoToken::Number(key, n) => apply_number(&mut params, key, n)?,
        }
    }
    Ok(Command::Go(params))
}

fn apply_number(params: &mut GoParams, key: &str, n: i64) -> Result<(), ParseError> {
    // Clocks may arrive negative from a GUI whose clock ran out: read as zero.
    let millis = Duration::from_millis(n.max(0) as u64);
    let positive = |what: &str| {
        if n > 0 {
            Ok(n)
        } else {
            Err(malformed("go", format!("'{what}' needs a positive number, not {n}")))
        }
    };
    match key {
        "wtime" | "p1time" => params.time[0] = Some(millis),
        "btime" | "p2time" => params.time[1] = Some(millis),
        "p3time" => params.time[2] = Some(millis),
        "p4time" => params.time[3] = Some(millis),
        "winc" | "p1inc" => params.increment[0] = Some(millis),
        "binc" | "p2inc" => params.increment[1] = Some(millis),
        "p3inc" => params.increment[2] = Some(millis),
        "p4inc" => params.increment[3] = Some(millis),
        "movestogo" => params.moves_to_go = Some(positive(key)?.min(u32::MAX as i64) as u32),
        "depth" => params.depth = Some(positive(key)?.min(u32::MAX as i64) as u32),
        "nodes" => params.nodes = Some(positive(key)? as u64),
        "movetime" => params.move_time = Some(Duration::from_millis(positive(key)? as u64)),
        _ => params.perft = Some(positive(key)?.min(64) as u32),
    }
    Ok(())
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
        assert!(parse_line("go depth").is_err());
        assert!(parse_line("go depth x").is_err());
        assert!(parse_line("go depth 0").is_err());
        assert!(parse_line("go sideways").is_err());
        assert_eq!(parse_line("go"), Ok(Some(Command::Go(GoParams::default()))));
    }
}
