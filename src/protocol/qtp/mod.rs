//! The Quoridor Text Protocol (QTP), the GTP-style protocol of the
//! University of Athens' Quoridor referee and engines: one command a line
//! (`[id] command [arguments]`), answered in order by `=[id] result` or
//! `?[id] message` and an empty line; nothing else is written. The session
//! keeps the game in QTP's coordinates (`game`), its own clock
//! (`clock`), and searches with the same engine and options as the
//! UCI-style protocol.

mod clock;
mod game;

use super::emit::Output;
use super::options::{Changed, Options};
use crate::engine::{Engine, EngineEvent, SearchRequest};
use crate::game::Notation;
use crate::games::quoridor::qtp::{Color, QtpMove};
use crate::games::AnyPosition;
use crate::quote::quoted;
use clock::QtpClock;
use crossbeam_channel::{unbounded, Receiver};
use game::QtpGame;
use std::io::Write;
use std::time::{Duration, Instant};

/// The commands, as `list_commands` gives them.
pub const COMMANDS: [&str; 19] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "walls",
    "playmove",
    "playwall",
    "play",
    "genmove",
    "undo",
    "winner",
    "showboard",
    "time_settings",
    "time_left",
    "tabula-setoption",
];

/// Whether `line` is a QTP command (the first command chooses the protocol).
pub fn is_qtp_command(line: &str) -> bool {
    let mut words = clean(line).split_whitespace().map(str::to_string).collect::<Vec<_>>().into_iter();
    let first = words.next();
    let name = match first {
        Some(id) if id.bytes().all(|b| b.is_ascii_digit()) => words.next(),
        other => other,
    };
    name.is_some_and(|name| COMMANDS.contains(&name.to_ascii_lowercase().as_str()))
}

/// Serves QTP until `quit` or the end of input; `first` holds the lines
/// read before the protocol was known.
pub fn serve<W: Write>(first: Vec<String>, lines: Receiver<String>, output: W, options: Options) {
    let mut session = QtpSession::new(output, options);
    for line in first.into_iter().chain(lines.iter()) {
        if !session.handle_line(&line) {
            break;
        }
    }
}

/// A command's answer: its result, or why it failed.
type Answer = Result<String, String>;

/// The game, the options and the engine of a QTP conversation.
struct QtpSession<W: Write> {
    out: Output<W>,
    options: Options,
    engine: Engine,
    reports: Receiver<EngineEvent>,
    game: QtpGame,
    clock: QtpClock,
}

/// The board the referee plays by default, and its walls.
const DEFAULT_SIZE: usize = 9;
const DEFAULT_WALLS: usize = 10;

impl<W: Write> QtpSession<W> {
    fn new(output: W, options: Options) -> QtpSession<W> {
        let (events, reports) = unbounded();
        let game = match QtpGame::new(DEFAULT_SIZE, DEFAULT_WALLS) {
            Ok(game) => game,
            Err(e) => unreachable!("the standard game is playable: {e}"),
        };
        QtpSession {
            out: Output::new(output),
            engine: Engine::start(options.hash, events),
            options,
            reports,
            game,
            clock: QtpClock::new(DEFAULT_SIZE),
        }
    }

    /// Answers one line; false after `quit`.
    fn handle_line(&mut self, line: &str) -> bool {
        log::debug!("<< {line}");
        let cleaned = clean(line);
        let mut words: Vec<&str> = cleaned.split_whitespace().collect();
        if words.is_empty() {
            return true;
        }
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) { words.remove(0) } else { "" };
        let Some((&name, args)) = words.split_first() else {
            self.reply(id, Err("syntax error: a command is needed after the id".into()));
            return true;
        };
        let name = name.to_ascii_lowercase();
        let answer = self.command(&name, args);
        self.reply(id, answer);
        name != "quit"
    }

    fn reply(&mut self, id: &str, answer: Answer) {
        let (mark, text) = match answer {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        // A reply of several lines starts on the line after the mark.
        let text = if text.is_empty() || text.starts_with('\n') { text } else { format!(" {text}") };
        self.out.line(&format!("{mark}{id}{text}"));
        self.out.line("");
    }

    fn command(&mut self, name: &str, args: &[&str]) -> Answer {
        match (name, args) {
            ("protocol_version", []) => Ok("2".into()),
            ("name", []) => Ok("Tabula".into()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [command]) => Ok(COMMANDS.contains(command).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("quit", []) => Ok(String::new()),
            ("boardsize", [size]) => self.boardsize(size),
            ("clear_board", []) => {
                self.new_game(self.game.size(), self.game.walls());
                Ok(String::new())
            }
            ("walls", [walls]) => {
                let walls = number(walls, "walls")?;
                self.game.set_walls(walls).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            ("playmove", [color, vertex]) => self.play(color, &[vertex], Some(false)),
            ("playwall", [color, vertex, orientation]) => {
                self.play(color, &[vertex, orientation], Some(true))
            }
            ("play", [color, rest @ ..]) if !rest.is_empty() => self.play(color, rest, None),
            ("genmove", [color]) => self.genmove(color),
            ("undo", []) => self.game.undo(1).map(|_| String::new()).map_err(|e| e.to_string()),
            ("undo", [moves]) => {
                let moves = number(moves, "undo")?;
                self.game.undo(moves).map(|_| String::new()).map_err(|e| e.to_string())
            }
            ("winner", []) => Ok(match self.game.winner() {
                Some(color) => format!("true {}", color.name()),
                None => "false".into(),
            }),
            ("showboard", []) => Ok(format!("\n{}", self.game.diagram())),
            ("time_settings", [main, byo, stones]) => {
                let (main, byo) = (seconds(main)?, seconds(byo)?);
                self.clock.settings(main, byo, number(stones, "byo-yomi stones")? as u32);
                Ok(String::new())
            }
            ("time_left", [color, time, stones]) => {
                let color = color_of(color)?;
                self.clock.left(color.seat(), seconds(time)?, number(stones, "stones")? as u32);
                Ok(String::new())
            }
            ("tabula-setoption", [_, ..]) => self.set_option(args),
            (command, _) if COMMANDS.contains(&command) => Err(format!("syntax error: {}", usage(command))),
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self, size: usize, walls: usize) {
        if let Ok(game) = QtpGame::new(size, walls) {
            self.game = game;
        }
        self.clock.new_game(size);
        self.engine.clear_hash();
    }

    fn boardsize(&mut self, size: &str) -> Answer {
        let size = number(size, "boardsize")?;
        // Checked before anything changes: a refused size keeps the game.
        QtpGame::new(size, self.game.walls()).map_err(|e| e.to_string())?;
        self.new_game(size, self.game.walls());
        Ok(String::new())
    }

    /// `playmove`, `playwall` (`wall` says which) and `play` (either).
    fn play(&mut self, color: &str, words: &[&str], wall: Option<bool>) -> Answer {
        let color = color_of(color)?;
        let mv = QtpMove::parse(words, self.game.size()).map_err(|e| format!("syntax error: {e}"))?;
        match (wall, mv.wall.is_some()) {
            (Some(false), true) => Err("syntax error: playmove takes a square; walls are playwall's".into()),
            (Some(true), false) => Err("syntax error: playwall takes a square and an orientation".into()),
            _ => self.game.play(color, mv).map(|_| String::new()).map_err(|e| e.to_string()),
        }
    }

    /// Searches `color`'s move within the clock, plays it and names it.
    fn genmove(&mut self, color: &str) -> Answer {
        let color = color_of(color)?;
        let position = self.game.position_for(color).map_err(|e| e.to_string())?;
        let started = Instant::now();
        self.engine.go(SearchRequest {
            position: AnyPosition::Quoridor(position.clone()),
            history: Vec::new(),
            limits: self.clock.limits(color.seat()),
            settings: self.options.search_settings(),
            search_moves: Vec::new(),
            level: self.options.playing_level(),
            seed: self.options.seed,
            ponder: false,
        });
        let best = loop {
            match self.reports.recv() {
                Ok(EngineEvent::BestMove { best, .. }) => break best,
                Ok(_) => {}
                Err(_) => return Err("the search has stopped working".into()),
            }
        };
        self.clock.charge(color.seat(), started.elapsed());
        let Some(crate::games::AnyMove::Quoridor(best)) = best else {
            return Err("illegal move: no move is left".into());
        };
        let text = position.format_move(best);
        self.game.play_text(color, &text).map_err(|e| e.to_string())?;
        Ok(QtpMove::from_tabula(&text, self.game.size()).map_or(text, |mv| mv.to_string()))
    }

    /// `tabula-setoption NAME [VALUE]`: any option of the UCI-style
    /// protocol (names may hold spaces) but those that choose the game,
    /// which QTP sets with `boardsize` and `walls`.
    fn set_option(&mut self, words: &[&str]) -> Answer {
        let whole_name = words.join(" ");
        let (name, value) = match words.split_last() {
            Some((value, name)) if !name.is_empty() => (name.join(" "), Some(*value)),
            _ => (whole_name.clone(), None),
        };
        let mut options = self.options.clone();
        // A button (`Clear Hash`) is all name.
        let changed = options.set(&whole_name, None).or_else(|_| options.set(&name, value));
        match changed.map_err(|e| e.to_string())? {
            Changed::Variant => Err(format!(
                "'{}' chooses the game; QTP plays Quoridor set by boardsize and walls",
                quoted(&name)
            )),
            Changed::ClearHash => {
                self.engine.clear_hash();
                Ok(String::new())
            }
            Changed::Hash => {
                self.engine.resize_hash(options.hash);
                self.engine.wait();
                if let Some(EngineEvent::Error(e)) =
                    self.reports.try_iter().find(|e| matches!(e, EngineEvent::Error(_)))
                {
                    return Err(e.to_string());
                }
                self.options = options;
                Ok(String::new())
            }
            Changed::Other => {
                self.options = options;
                Ok(String::new())
            }
        }
    }
}

/// A line as QTP reads it: control characters dropped (tabs become
/// spaces), and a comment (`#` to the end) cut off.
fn clean(line: &str) -> String {
    let text: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    match text.find('#') {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn color_of(text: &str) -> Result<Color, String> {
    Color::parse(text).ok_or_else(|| format!("syntax error: '{}' is not black or white", quoted(text)))
}

fn number(text: &str, what: &str) -> Result<usize, String> {
    text.parse().map_err(|_| format!("syntax error: {what} needs a whole number, not '{}'", quoted(text)))
}

/// Seconds as GTP gives them: a whole number, or with a fraction.
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("syntax error: '{}' is not a number of seconds", quoted(text)))
}

/// The arguments a command takes, for its syntax error.
fn usage(command: &str) -> &'static str {
    match command {
        "known_command" => "known_command <command>",
        "boardsize" => "boardsize <size>",
        "walls" => "walls <number>",
        "playmove" => "playmove <color> <vertex>",
        "playwall" => "playwall <color> <vertex> <orientation>",
        "play" => "play <color> <vertex> [<orientation>]",
        "genmove" => "genmove <color>",
        "undo" => "undo [<moves>]",
        "time_settings" => "time_settings <main time> <byo-yomi time> <byo-yomi stones>",
        "time_left" => "time_left <color> <time> <stones>",
        "tabula-setoption" => "tabula-setoption <name> [<value>]",
        _ => "this command takes no arguments",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qtp_is_chosen_by_its_commands() {
        for line in ["name", "1 name", "boardsize 9", "  genmove black", "PLAYMOVE white e2", "quit"] {
            assert!(is_qtp_command(line), "{line}");
        }
        for line in ["uci", "isready", "position startpos", "go", "d", "3 uci", "", "# name"] {
            assert!(!is_qtp_command(line), "{line}");
        }
    }

    #[test]
    fn lines_are_cleaned_as_the_spec_says() {
        assert_eq!(clean("play\tblack e2 # a comment"), "play black e2 ");
        assert_eq!(clean("na\u{7}me\r"), "name");
    }
}
