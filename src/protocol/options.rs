//! The engine's options: their declarations for `uci`, their current values,
//! and the checking of `setoption`.

use super::parse::quoted;
use crate::games::quoridor::Variant;
use std::fmt;

/// Current values of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub game: String,
    pub board_width: usize,
    pub board_height: usize,
    pub walls: usize,
    pub players: usize,
    pub multi_jump: bool,
    pub level: u32,
    pub threads: usize,
    /// "paranoid" or "brs" (best-reply search).
    pub four_player_search: String,
    pub hash: usize,
    pub move_overhead: u64,
    pub seed: u64,
    pub ponder: bool,
    pub quarto_level: usize,
    /// 3 or 4.
    pub quarto_side: usize,
    /// Best lines reported (`MultiPV`).
    pub multi_pv: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            game: "quoridor".into(),
            board_width: 9,
            board_height: 9,
            walls: 10,
            players: 2,
            multi_jump: false,
            level: 10,
            threads: 1,
            four_player_search: "brs".into(),
            hash: 16,
            move_overhead: 10,
            seed: 0,
            ponder: false,
            quarto_level: 1,
            quarto_side: 4,
            multi_pv: 1,
        }
    }
}

/// How an option is typed, with its bounds.
enum Kind {
    Spin {
        min: i64,
        max: i64,
    },
    Check,
    Combo(&'static [&'static str]),
    /// An action, without a value.
    Button,
}

struct Declaration {
    name: &'static str,
    kind: Kind,
    /// Whether changing it changes the game being played.
    defines_variant: bool,
}

const fn spin(name: &'static str, min: i64, max: i64, defines_variant: bool) -> Declaration {
    Declaration { name, kind: Kind::Spin { min, max }, defines_variant }
}

const fn check(name: &'static str, defines_variant: bool) -> Declaration {
    Declaration { name, kind: Kind::Check, defines_variant }
}

const fn combo(name: &'static str, choices: &'static [&'static str], defines_variant: bool) -> Declaration {
    Declaration { name, kind: Kind::Combo(choices), defines_variant }
}

const DECLARATIONS: &[Declaration] = &[
    combo("Game", &["quoridor", "quarto"], true),
    spin("BoardWidth", 3, 15, true),
    spin("BoardHeight", 3, 15, true),
    spin("Walls", 0, 30, true),
    combo("Players", &["2", "4"], true),
    check("MultiJump", true),
    spin("Level", 1, 10, false),
    spin("Threads", 1, 256, false),
    combo("FourPlayerSearch", &["brs", "paranoid"], false),
    spin("Hash", 1, 16384, false),
    spin("MoveOverhead", 0, 5000, false),
    spin("Seed", 0, 2_147_483_647, false),
    check("Ponder", false),
    spin("QuartoLevel", 1, 4, true),
    combo("QuartoBoard", &["4x4", "3x3"], true),
    spin("MultiPV", 1, MAX_MULTI_PV, false),
    Declaration { name: "Clear Hash", kind: Kind::Button, defines_variant: false },
];

/// The most lines `MultiPV` asks for: more than any position has moves
/// (the search then reports every move).
const MAX_MULTI_PV: i64 = 500;

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    UnknownName(String),
    MissingValue(&'static str),
    NotANumber { name: &'static str, value: String },
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
    NotABoolean { name: &'static str, value: String },
    NotAChoice { name: &'static str, value: String, choices: String },
    EvenWidth(i64),
    SmallQuartoHasOneLevel,
    ButtonTakesNoValue { name: &'static str, value: String },
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
            OptionError::EvenWidth(w) => {
                write!(f, "option BoardWidth: {w} is even; pawns start centred, so it must be odd")
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
    Hash,
    /// The `Clear Hash` button.
    ClearHash,
    Other,
}

impl Options {
    /// The `option ...` lines for `uci`.
    pub fn declarations(&self) -> Vec<String> {
        DECLARATIONS
            .iter()
            .map(|d| {
                let default = Options::default().value_text(d.name);
                match &d.kind {
                    Kind::Spin { min, max } => {
                        format!("option name {} type spin default {default} min {min} max {max}", d.name)
                    }
                    Kind::Check => format!("option name {} type check default {default}", d.name),
                    Kind::Button => format!("option name {} type button", d.name),
                    Kind::Combo(choices) => {
                        let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                        format!("option name {} type combo default {default} {}", d.name, vars.join(" "))
                    }
                }
            })
            .collect()
    }

    fn value_text(&self, name: &str) -> String {
        match name {
            "Game" => self.game.clone(),
            "BoardWidth" => self.board_width.to_string(),
            "BoardHeight" => self.board_height.to_string(),
            "Walls" => self.walls.to_string(),
            "Players" => self.players.to_string(),
            "MultiJump" => self.multi_jump.to_string(),
            "Level" => self.level.to_string(),
            "Threads" => self.threads.to_string(),
            "FourPlayerSearch" => self.four_player_search.clone(),
            "Hash" => self.hash.to_string(),
            "MoveOverhead" => self.move_overhead.to_string(),
            "Seed" => self.seed.to_string(),
            "QuartoLevel" => self.quarto_level.to_string(),
            "QuartoBoard" => format!("{0}x{0}", self.quarto_side),
            "MultiPV" => self.multi_pv.to_string(),
            _ => self.ponder.to_string(),
        }
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let declaration = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::UnknownName(name.to_string()))?;
        let name = declaration.name;
        if matches!(declaration.kind, Kind::Button) {
            return match value {
                None => Ok(Changed::ClearHash),
                Some(value) => Err(OptionError::ButtonTakesNoValue { name, value: value.to_string() }),
            };
        }
        let value = value.ok_or(OptionError::MissingValue(name))?.trim();
        let mut number = 0i64;
        let mut flag = false;
        let mut choice = String::new();
        match &declaration.kind {
            Kind::Spin { min, max } => {
                number =
                    value.parse().map_err(|_| OptionError::NotANumber { name, value: value.to_string() })?;
                if number < *min || number > *max {
                    return Err(OptionError::OutOfRange { name, value: number, min: *min, max: *max });
                }
            }
            Kind::Check => {
                flag = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(OptionError::NotABoolean { name, value: value.to_string() }),
                };
            }
            Kind::Button => {}
            Kind::Combo(choices) => {
                choice = choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(value))
                    .ok_or_else(|| OptionError::NotAChoice {
                        name,
                        value: value.to_string(),
                        choices: choices.join(", "),
                    })?
                    .to_string();
            }
        }
        match name {
            "Game" => self.game = choice,
            "BoardWidth" if number % 2 == 0 => return Err(OptionError::EvenWidth(number)),
            "BoardWidth" => self.board_width = number as usize,
            "BoardHeight" => self.board_height = number as usize,
            "Walls" => self.walls = number as usize,
            "Players" => self.players = if choice == "4" { 4 } else { 2 },
            "MultiJump" => self.multi_jump = flag,
            "Level" => self.level = number as u32,
            "Threads" => self.threads = number as usize,
            "FourPlayerSearch" => self.four_player_search = choice,
            "Hash" => self.hash = number as usize,
            "MoveOverhead" => self.move_overhead = number as u64,
            "Seed" => self.seed = number as u64,
            "QuartoLevel" if number > 1 && self.quarto_side == 3 => {
                return Err(OptionError::SmallQuartoHasOneLevel)
            }
            "QuartoLevel" => self.quarto_level = number as usize,
            "QuartoBoard" if choice == "3x3" && self.quarto_level > 1 => {
                return Err(OptionError::SmallQuartoHasOneLevel)
            }
            "QuartoBoard" => self.quarto_side = if choice == "3x3" { 3 } else { 4 },
            "MultiPV" => self.multi_pv = number as usize,
            _ => self.ponder = flag,
        }
        Ok(match (declaration.defines_variant, name) {
            (true, _) => Changed::Variant,
            (false, "Hash") => Changed::Hash,
            _ => Changed::Other,
        })
    }

    /// The Quarto rules these options describe.
    pub fn quarto_rules(&self) -> crate::games::quarto::Rules {
        crate::games::quarto::Rules { side: self.quarto_side, level: self.quarto_level }
    }

    /// The Quoridor rules these options describe.
    pub fn quoridor_variant(&self) -> Variant {
        Variant {
            width: self.board_width,
            height: self.board_height,
            players: self.players,
            walls: self.walls,
            multi_jump: self.multi_jump,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_bad_values_change_nothing() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Changed::Hash));
        assert_eq!(o.hash, 64);
        let before = o.clone();
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("BoardWidth", Some("8")).is_err());
        assert!(o.set("Players", Some("3")).is_err());
        assert!(o.set("MultiJump", Some("yes")).is_err());
        assert!(o.set("Colour", Some("red")).is_err());
        assert!(o.set("Walls", None).is_err());
        assert_eq!(o, before);
        assert_eq!(o.set("multijump", Some("TRUE")), Ok(Changed::Variant));
        assert!(o.multi_jump);
        assert_eq!(o.set("QuartoLevel", Some("3")), Ok(Changed::Variant));
        assert!(o.set("QuartoBoard", Some("3x3")).is_err());
        assert_eq!(o.set("QuartoLevel", Some("1")), Ok(Changed::Variant));
        assert_eq!(o.set("QuartoBoard", Some("3x3")), Ok(Changed::Variant));
        assert!(o.set("QuartoLevel", Some("2")).is_err());
        assert_eq!(o.quarto_rules(), crate::games::quarto::Rules { side: 3, level: 1 });
    }

    #[test]
    fn every_option_is_declared_with_its_default() {
        let lines = Options::default().declarations();
        assert_eq!(lines.len(), DECLARATIONS.len());
        assert!(lines
            .contains(&"option name Game type combo default quoridor var quoridor var quarto".to_string()));
        assert!(lines.contains(&"option name Level type spin default 10 min 1 max 10".to_string()));
    }
}
