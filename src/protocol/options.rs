//! The engine's options: their declarations for `uci`, their current values,
//! and the checking of `setoption`.

pub use super::choices::{Choice, FourPlayerSearch, GameKind, PlayerCount, QuartoBoard, SolveMethod};
use super::parse::quoted;
use crate::engine::strength::{level_for_elo, MAX_ELO, MIN_ELO};
use crate::games::quoridor::Variant;
use crate::search::SearchSettings;
use std::fmt;

/// Current values of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Game`.
    pub game: GameKind,
    /// `BoardWidth`: Quoridor columns (on an even board the pawns start just
    /// left of the centre).
    pub board_width: usize,
    /// `BoardHeight`: Quoridor rows.
    pub board_height: usize,
    /// `Walls`: walls each Quoridor player starts with.
    pub walls: usize,
    /// `Players`.
    pub players: PlayerCount,
    /// `MultiJump`: jump a whole line of pawns.
    pub multi_jump: bool,
    /// `Level`: 1 (random) to 10 (full strength).
    pub level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of at `Level`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for, on the levels' measured scale.
    pub uci_elo: u32,
    /// `Threads`.
    pub threads: usize,
    /// `FourPlayerSearch`.
    pub four_player_search: FourPlayerSearch,
    /// `Hash`, in MiB.
    pub hash: usize,
    /// `MoveOverhead`, in milliseconds.
    pub move_overhead: u64,
    /// `Seed`: makes the levels' choices reproducible.
    pub seed: u64,
    /// `Ponder`: declared for GUIs; pondering is asked by `go ponder`.
    pub ponder: bool,
    /// `QuartoLevel`: 1 lines, 2 squares too, 3 corners, 4 diamonds.
    pub quarto_level: usize,
    /// `QuartoBoard`.
    pub quarto_board: QuartoBoard,
    /// `MultiPV`: best lines reported.
    pub multi_pv: usize,
    /// `SolveMethod`: how `go solve` values the position.
    pub solve_method: SolveMethod,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            game: GameKind::Quoridor,
            board_width: 9,
            board_height: 9,
            walls: 10,
            players: PlayerCount::Two,
            multi_jump: false,
            level: 10,
            limit_strength: false,
            uci_elo: 1500,
            threads: 1,
            four_player_search: FourPlayerSearch::BestReply,
            hash: 16,
            move_overhead: 10,
            seed: 0,
            ponder: false,
            quarto_level: 1,
            quarto_board: QuartoBoard::FourByFour,
            multi_pv: 1,
            solve_method: SolveMethod::Auto,
        }
    }
}

/// Every option, by the name `uci` declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OptionId {
    Game,
    BoardWidth,
    BoardHeight,
    Walls,
    Players,
    MultiJump,
    Level,
    LimitStrength,
    UciElo,
    Threads,
    FourPlayerSearch,
    Hash,
    MoveOverhead,
    Seed,
    Ponder,
    QuartoLevel,
    QuartoBoard,
    MultiPv,
    SolveMethod,
    ClearHash,
}

/// How an option is typed, with its bounds.
enum Kind {
    Spin {
        min: i64,
        max: i64,
    },
    Check,
    /// One of a [`Choice`]'s names.
    Combo(fn() -> Vec<&'static str>),
    /// An action, without a value.
    Button,
}

struct Declaration {
    id: OptionId,
    name: &'static str,
    kind: Kind,
    /// Whether changing it changes the game being played.
    defines_variant: bool,
}

const fn spin(id: OptionId, name: &'static str, min: i64, max: i64, defines_variant: bool) -> Declaration {
    Declaration { id, name, kind: Kind::Spin { min, max }, defines_variant }
}

const fn check(id: OptionId, name: &'static str, defines_variant: bool) -> Declaration {
    Declaration { id, name, kind: Kind::Check, defines_variant }
}

const fn combo<C: Choice>(id: OptionId, name: &'static str, defines_variant: bool) -> Declaration {
    Declaration { id, name, kind: Kind::Combo(names::<C>), defines_variant }
}

/// The names of every value of a combo, in order.
fn names<C: Choice>() -> Vec<&'static str> {
    C::ALL.iter().map(|c| c.name()).collect()
}

const DECLARATIONS: &[Declaration] = &[
    combo::<GameKind>(OptionId::Game, "Game", true),
    spin(OptionId::BoardWidth, "BoardWidth", 2, 15, true),
    spin(OptionId::BoardHeight, "BoardHeight", 3, 15, true),
    spin(OptionId::Walls, "Walls", 0, 30, true),
    combo::<PlayerCount>(OptionId::Players, "Players", true),
    check(OptionId::MultiJump, "MultiJump", true),
    spin(OptionId::Level, "Level", 1, 10, false),
    check(OptionId::LimitStrength, "UCI_LimitStrength", false),
    spin(OptionId::UciElo, "UCI_Elo", MIN_ELO as i64, MAX_ELO as i64, false),
    spin(OptionId::Threads, "Threads", 1, 256, false),
    combo::<FourPlayerSearch>(OptionId::FourPlayerSearch, "FourPlayerSearch", false),
    spin(OptionId::Hash, "Hash", 1, 16384, false),
    spin(OptionId::MoveOverhead, "MoveOverhead", 0, 5000, false),
    spin(OptionId::Seed, "Seed", 0, 2_147_483_647, false),
    check(OptionId::Ponder, "Ponder", false),
    spin(OptionId::QuartoLevel, "QuartoLevel", 1, 4, true),
    combo::<QuartoBoard>(OptionId::QuartoBoard, "QuartoBoard", true),
    spin(OptionId::MultiPv, "MultiPV", 1, MAX_MULTI_PV, false),
    combo::<SolveMethod>(OptionId::SolveMethod, "SolveMethod", false),
    Declaration { id: OptionId::ClearHash, name: "Clear Hash", kind: Kind::Button, defines_variant: false },
];

/// The most lines `MultiPV` asks for: more than any position has moves
/// (the search then reports every move).
const MAX_MULTI_PV: i64 = 500;

/// A checked `setoption` value.
enum Value<'a> {
    Number(i64),
    Flag(bool),
    Choice(&'a str),
    Press,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    UnknownName(String),
    /// An option that needs a value got none.
    MissingValue(&'static str),
    /// A spin value that is no whole number.
    NotANumber {
        /// The option.
        name: &'static str,
        /// The value as written.
        value: String,
    },
    /// A spin value outside its bounds.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A check value other than `true` or `false`.
    NotABoolean {
        /// The option.
        name: &'static str,
        /// The value as written.
        value: String,
    },
    /// A combo value that is none of its choices.
    NotAChoice {
        /// The option.
        name: &'static str,
        /// The value as written.
        value: String,
        /// The allowed values, listed.
        choices: String,
    },
    /// A `QuartoLevel` above 1 with the 3x3 board, or the 3x3 board above level 1.
    SmallQuartoHasOneLevel,
    /// A value given to a button.
    ButtonTakesNoValue {
        /// The option.
        name: &'static str,
        /// The value as written.
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownName(n) => write!(f, "no option named '{}'", quoted(n)),
            OptionError::MissingValue(n) => write!(f, "option {n} needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(f, "option {name}: '{}' is not a number", quoted(value))
            }
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "option {name}: {value} is outside {min}..={max}")
            }
            OptionError::NotABoolean { name, value } => {
                write!(f, "option {name}: '{}' is not true or false", quoted(value))
            }
            OptionError::NotAChoice { name, value, choices } => {
                write!(f, "option {name}: '{}' is not one of {choices}", quoted(value))
            }
            OptionError::ButtonTakesNoValue { name, value } => {
                write!(f, "option {name} is a button and takes no value, not '{}'", quoted(value))
            }
            OptionError::SmallQuartoHasOneLevel => {
                write!(f, "the 3x3 Quarto board has only level 1; set QuartoLevel to 1 first")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// What a successful `setoption` changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The game or its rules: the start position changes.
    Variant,
    /// `Hash`: the table takes its new size.
    Hash,
    /// The `Clear Hash` button.
    ClearHash,
    /// Anything else: takes effect with the next `go`.
    Other,
}

impl Options {
    /// The `option ...` lines for `uci`.
    pub fn declarations(&self) -> Vec<String> {
        let defaults = Options::default();
        DECLARATIONS
            .iter()
            .map(|d| {
                let default = defaults.value_text(d.id);
                match &d.kind {
                    Kind::Spin { min, max } => {
                        format!("option name {} type spin default {default} min {min} max {max}", d.name)
                    }
                    Kind::Check => format!("option name {} type check default {default}", d.name),
                    Kind::Button => format!("option name {} type button", d.name),
                    Kind::Combo(choices) => {
                        let vars: Vec<String> = choices().iter().map(|c| format!("var {c}")).collect();
                        format!("option name {} type combo default {default} {}", d.name, vars.join(" "))
                    }
                }
            })
            .collect()
    }

    fn value_text(&self, id: OptionId) -> String {
        match id {
            OptionId::Game => self.game.name().to_string(),
            OptionId::BoardWidth => self.board_width.to_string(),
            OptionId::BoardHeight => self.board_height.to_string(),
            OptionId::Walls => self.walls.to_string(),
            OptionId::Players => self.players.name().to_string(),
            OptionId::MultiJump => self.multi_jump.to_string(),
            OptionId::Level => self.level.to_string(),
            OptionId::LimitStrength => self.limit_strength.to_string(),
            OptionId::UciElo => self.uci_elo.to_string(),
            OptionId::Threads => self.threads.to_string(),
            OptionId::FourPlayerSearch => self.four_player_search.name().to_string(),
            OptionId::Hash => self.hash.to_string(),
            OptionId::MoveOverhead => self.move_overhead.to_string(),
            OptionId::Seed => self.seed.to_string(),
            OptionId::Ponder => self.ponder.to_string(),
            OptionId::QuartoLevel => self.quarto_level.to_string(),
            OptionId::QuartoBoard => self.quarto_board.name().to_string(),
            OptionId::MultiPv => self.multi_pv.to_string(),
            OptionId::SolveMethod => self.solve_method.name().to_string(),
            OptionId::ClearHash => String::new(),
        }
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let declaration = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::UnknownName(name.to_string()))?;
        let value = checked_value(declaration, value)?;
        let name = declaration.name;
        let number = |value: &Value| if let Value::Number(n) = value { *n } else { 0 };
        let flag = matches!(value, Value::Flag(true));
        let choice = |value: &Value| if let Value::Choice(c) = value { c.to_string() } else { String::new() };
        let n = number(&value);
        match declaration.id {
            OptionId::Game => self.game = parse_choice(name, &choice(&value))?,
            OptionId::BoardWidth => self.board_width = n as usize,
            OptionId::BoardHeight => self.board_height = n as usize,
            OptionId::Walls => self.walls = n as usize,
            OptionId::Players => self.players = parse_choice(name, &choice(&value))?,
            OptionId::MultiJump => self.multi_jump = flag,
            OptionId::Level => self.level = n as u32,
            OptionId::LimitStrength => self.limit_strength = flag,
            OptionId::UciElo => self.uci_elo = n as u32,
            OptionId::Threads => self.threads = n as usize,
            OptionId::FourPlayerSearch => self.four_player_search = parse_choice(name, &choice(&value))?,
            OptionId::Hash => self.hash = n as usize,
            OptionId::MoveOverhead => self.move_overhead = n as u64,
            OptionId::Seed => self.seed = n as u64,
            OptionId::Ponder => self.ponder = flag,
            OptionId::QuartoLevel if n > 1 && self.quarto_board == QuartoBoard::ThreeByThree => {
                return Err(OptionError::SmallQuartoHasOneLevel)
            }
            OptionId::QuartoLevel => self.quarto_level = n as usize,
            OptionId::QuartoBoard => {
                let board: QuartoBoard = parse_choice(name, &choice(&value))?;
                if board == QuartoBoard::ThreeByThree && self.quarto_level > 1 {
                    return Err(OptionError::SmallQuartoHasOneLevel);
                }
                self.quarto_board = board;
            }
            OptionId::MultiPv => self.multi_pv = n as usize,
            OptionId::SolveMethod => self.solve_method = parse_choice(name, &choice(&value))?,
            OptionId::ClearHash => return Ok(Changed::ClearHash),
        }
        Ok(match (declaration.defines_variant, declaration.id) {
            (true, _) => Changed::Variant,
            (false, OptionId::Hash) => Changed::Hash,
            _ => Changed::Other,
        })
    }

    /// The level that plays: `Level`, or with `UCI_LimitStrength` the level
    /// nearest to `UCI_Elo` ([`level_for_elo`]).
    pub fn playing_level(&self) -> u32 {
        if self.limit_strength {
            level_for_elo(self.uci_elo)
        } else {
            self.level
        }
    }

    /// How a search runs under these options (its limits come from `go`):
    /// at most as many threads as the machine runs at once.
    pub fn search_settings(&self) -> SearchSettings {
        SearchSettings {
            threads: self.threads.min(machine_threads()),
            best_reply: self.four_player_search == FourPlayerSearch::BestReply,
            multi_pv: self.multi_pv,
            move_overhead: std::time::Duration::from_millis(self.move_overhead),
            ..SearchSettings::default()
        }
    }

    /// The Quarto rules these options describe.
    pub fn quarto_rules(&self) -> crate::games::quarto::Rules {
        crate::games::quarto::Rules { side: self.quarto_board.side(), level: self.quarto_level }
    }

    /// The Quoridor rules these options describe.
    pub fn quoridor_variant(&self) -> Variant {
        Variant {
            width: self.board_width,
            height: self.board_height,
            players: self.players.count(),
            walls: self.walls,
            multi_jump: self.multi_jump,
        }
    }
}

/// How many threads this machine runs at once.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The value of a `setoption`, checked against the option's kind.
fn checked_value<'a>(declaration: &Declaration, value: Option<&'a str>) -> Result<Value<'a>, OptionError> {
    let name = declaration.name;
    if let Kind::Button = declaration.kind {
        return match value {
            None => Ok(Value::Press),
            Some(value) => Err(OptionError::ButtonTakesNoValue { name, value: value.to_string() }),
        };
    }
    let value = value.ok_or(OptionError::MissingValue(name))?.trim();
    match &declaration.kind {
        Kind::Spin { min, max } => {
            let number: i64 =
                value.parse().map_err(|_| OptionError::NotANumber { name, value: value.to_string() })?;
            if number < *min || number > *max {
                return Err(OptionError::OutOfRange { name, value: number, min: *min, max: *max });
            }
            Ok(Value::Number(number))
        }
        Kind::Check => match value.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Flag(true)),
            "false" => Ok(Value::Flag(false)),
            _ => Err(OptionError::NotABoolean { name, value: value.to_string() }),
        },
        Kind::Combo(choices) => {
            let choices = choices();
            match choices.iter().find(|c| c.eq_ignore_ascii_case(value)) {
                Some(&choice) => Ok(Value::Choice(choice)),
                None => Err(OptionError::NotAChoice {
                    name,
                    value: value.to_string(),
                    choices: choices.join(", "),
                }),
            }
        }
        Kind::Button => Ok(Value::Press),
    }
}

/// A combo's typed value; the declaration already checked the name.
fn parse_choice<C: Choice>(name: &'static str, text: &str) -> Result<C, OptionError> {
    C::parse(text).ok_or_else(|| OptionError::NotAChoice {
        name,
        value: text.to_string(),
        choices: C::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "),
    })
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
