//! Engines that speak the Quoridor Text Protocol (QTP, `proto=qtp`): the
//! handshake (`name`, `list_commands`), a command and its reply, a new
//! game (`boardsize`, `clear_board`, `walls`, and GTP's `time_settings`
//! where the engine lists it), the moves an engine has not heard yet
//! (`playmove`/`playwall`), and `genmove`.
//!
//! arena keeps its own clock and referee: a QTP engine is told its time
//! only through `time_settings` and `time_left`, when it lists them. Moves
//! are translated between QTP's coordinates and Tabula's notation by
//! [`tabula::games::quoridor::qtp`].

use super::process::{EngineError, EngineProcess};
use crate::setup::Limit;
use std::time::{Duration, Instant};
use tabula::games::quoridor::qtp::{Color, QtpMove};

/// How long a command other than `genmove` may take to be answered.
pub const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Lines of a reply of several lines (`list_commands`) that are read.
const REPLY_LINES: usize = 200;

/// A reply of several lines also ends when no line came for this long:
/// some engines end `list_commands` without the empty line.
const REPLY_QUIET: Duration = Duration::from_millis(500);

/// `name` answered, then `list_commands` (its list is kept: arena sends
/// `time_settings`, `time_left` and `tabula-setoption` only to engines that
/// list them).
pub fn handshake(engine: &mut EngineProcess, deadline: Instant) -> Result<(), EngineError> {
    command(engine, "name", deadline)?;
    engine.send("list_commands")?;
    let listed = match reply(engine, deadline, true)? {
        Ok(text) => text
            .lines()
            .map(|l| l.trim().trim_start_matches('-').to_ascii_lowercase())
            .filter(|l| !l.is_empty())
            .collect(),
        Err(_) => Vec::new(),
    };
    engine.commands = listed;
    Ok(())
}

/// Sends `line` and waits for its reply: the result of `=`, or
/// [`EngineError::Refused`] for `?`.
pub fn command(engine: &mut EngineProcess, line: &str, deadline: Instant) -> Result<String, EngineError> {
    engine.send(line)?;
    reply(engine, deadline, false)?.map_err(|message| EngineError::Refused(line.to_string(), message))
}

/// The next reply: `Ok(result)` for `=`, `Err(message)` for `?`. Empty
/// lines and `#` comments before it are skipped, and so is anything else
/// an engine writes out of turn (the referee calls it unexpected output).
/// With `several`, the lines after the first, up to an empty line (or a
/// pause of [`REPLY_QUIET`]), belong to it.
fn reply(
    engine: &mut EngineProcess,
    deadline: Instant,
    several: bool,
) -> Result<Result<String, String>, EngineError> {
    let first = loop {
        let line = engine.read_line(deadline, "QTP reply")?;
        let line = line.trim();
        if line.starts_with('=') || line.starts_with('?') {
            break line.to_string();
        }
        if !line.is_empty() && !line.starts_with('#') {
            log::debug!("{}: unexpected output '{}'", engine.name, tabula::quote::quoted(line));
        }
    };
    // `=12 result`: an id may follow the mark.
    let body = first[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
    let mut text = body;
    if several {
        for _ in 0..REPLY_LINES {
            let quiet = deadline.min(Instant::now() + REPLY_QUIET);
            let line = match engine.read_line(quiet, "the rest of a QTP reply") {
                Ok(line) => line,
                Err(EngineError::Timeout(_)) => {
                    log::debug!("{}: a reply of several lines not ended by an empty line", engine.name);
                    break;
                }
                Err(e) => return Err(e),
            };
            if line.trim().is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line.trim());
        }
    }
    Ok(if first.starts_with('=') { Ok(text) } else { Err(text) })
}

/// Whether the engine listed `name` in `list_commands`.
pub fn knows(engine: &EngineProcess, name: &str) -> bool {
    engine.commands.iter().any(|c| c == name)
}

/// `option.NAME=VALUE` for a QTP engine: sent as `tabula-setoption` where
/// the engine lists it; otherwise why it was not sent.
pub fn set_option(
    engine: &mut EngineProcess,
    name: &str,
    value: &str,
) -> Result<Option<String>, EngineError> {
    if !knows(engine, "tabula-setoption") {
        return Ok(Some(format!("{} speaks QTP and has no options: option.{name} is not sent", engine.name)));
    }
    let line = format!("tabula-setoption {name} {value}");
    match command(engine, &line, Instant::now() + ANSWER_WAIT) {
        Ok(_) => Ok(None),
        Err(EngineError::Refused(_, message)) => {
            Ok(Some(format!("{}: option.{name}={value}: {message}", engine.name)))
        }
        Err(e) => Err(e),
    }
}

/// A new game on a board of side `size` with `walls` each, and the time
/// the engine will have, for engines that list `time_settings`.
pub fn new_game(
    engine: &mut EngineProcess,
    size: usize,
    walls: usize,
    limit: &Limit,
) -> Result<(), EngineError> {
    let deadline = Instant::now() + ANSWER_WAIT;
    command(engine, &format!("boardsize {size}"), deadline)?;
    command(engine, "clear_board", deadline)?;
    command(engine, &format!("walls {walls}"), deadline)?;
    if knows(engine, "time_settings") {
        let settings = match limit {
            Limit::Clock { base, .. } => Some(format!("time_settings {} 0 0", seconds(*base))),
            Limit::MoveTime(t) => Some(format!("time_settings 0 {} 1", seconds(*t))),
            Limit::Nodes(_) | Limit::Depth(_) => None,
        };
        if let Some(line) = settings {
            command(engine, &line, deadline)?;
        }
    }
    Ok(())
}

/// Tells the engine the moves it has not heard: `moves[heard..]`, given in
/// Tabula's notation, the first of the game by black.
pub fn tell(
    engine: &mut EngineProcess,
    moves: &[String],
    heard: usize,
    size: usize,
) -> Result<(), EngineError> {
    let deadline = Instant::now() + ANSWER_WAIT;
    for (ply, text) in moves.iter().enumerate().skip(heard) {
        let color = Color::of_seat(ply % 2).name();
        let Some(mv) = QtpMove::from_tabula(text, size) else {
            return Err(EngineError::Refused(format!("a move QTP cannot write ({text})"), String::new()));
        };
        let line = match mv.wall {
            None => format!("playmove {color} {mv}"),
            Some(_) => format!("playwall {color} {mv}"),
        };
        command(engine, &line, deadline)?;
    }
    Ok(())
}

/// `time_left` for the engine's colour, where it lists the command.
pub fn time_left(
    engine: &mut EngineProcess,
    seat: usize,
    left: Duration,
    stones: u32,
) -> Result<(), EngineError> {
    if !knows(engine, "time_left") {
        return Ok(());
    }
    let line = format!("time_left {} {} {stones}", Color::of_seat(seat).name(), seconds(left));
    command(engine, &line, Instant::now() + ANSWER_WAIT).map(drop)
}

/// `genmove` for `seat` by `deadline`: the move in Tabula's notation, or
/// the engine's own text when it is no QTP move (the referee then judges
/// it illegal).
pub fn genmove(
    engine: &mut EngineProcess,
    seat: usize,
    size: usize,
    deadline: Instant,
) -> Result<String, EngineError> {
    let answer = command(engine, &format!("genmove {}", Color::of_seat(seat).name()), deadline)?;
    let words: Vec<&str> = answer.split_whitespace().collect();
    Ok(match QtpMove::parse(&words, size) {
        Ok(mv) => mv.to_tabula(size),
        Err(_) => format!("'{}' (no QTP move)", tabula::quote::quoted(&answer)),
    })
}

/// Seconds as QTP writes them: whole, or with three decimals.
fn seconds(time: Duration) -> String {
    if time.subsec_millis() == 0 {
        time.as_secs().to_string()
    } else {
        format!("{:.3}", time.as_secs_f64())
    }
}
