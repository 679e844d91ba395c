//! A game and its rules ([`GameVariant`]), and the one reader of the
//! `key=value` words that name one: `tabula solve`, arena's `-variant`, the
//! board's form and QTP's `boardsize`/`walls` read them with the same
//! accepted values and the same refusals ([`GameVariant::from_keys`]):
//!
//! - `game=quoridor` (the default) with `width=`, `height=`, `walls=`,
//!   `players=` (whole numbers) and `multijump=true|false`;
//! - `game=quarto` with `board=4x4|3x3` and `level=` (a whole number).
//!
//! Also the one-line description game records carry (`quoridor 9x9
//! walls=10 players=2`, `quarto 4x4 level=1`), and the options of Tabula's
//! protocol that select the game.

use crate::games::quarto::{Quarto, Rules};
use crate::games::quoridor::{Quoridor, Variant};
use crate::games::AnyPosition;
use crate::quote::quoted;
use std::fmt;

/// Every key of a variant, both games'.
pub const KEYS: [&str; 8] = ["game", "width", "height", "walls", "players", "multijump", "board", "level"];

/// The keys of Quoridor, and of Quarto (besides `game`).
const QUORIDOR_KEYS: [&str; 5] = ["width", "height", "walls", "players", "multijump"];
const QUARTO_KEYS: [&str; 2] = ["board", "level"];

/// The game and its rules.
#[derive(Clone, Debug, PartialEq)]
pub enum GameVariant {
    /// Quoridor under these rules.
    Quoridor(Variant),
    /// Quarto under these rules.
    Quarto(Rules),
}

impl Default for GameVariant {
    fn default() -> Self {
        GameVariant::Quoridor(Variant::default())
    }
}

/// Why `key=value` words name no variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantKeyError {
    /// A key no variant has.
    Unknown(String),
    /// A key given twice.
    Twice(String),
    /// A `game=` other than `quoridor` or `quarto`.
    Game(String),
    /// A key of the other game (`walls=` with `game=quarto`).
    OtherGame {
        /// The key.
        key: String,
        /// The game asked for.
        game: &'static str,
    },
    /// A value that is not what its key takes, and what it takes.
    Value {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the key takes (`a whole number`, `true or false`, ...).
        wanted: &'static str,
    },
    /// Values of the right kind that make no playable game (the rules' own words).
    Rules(String),
}

impl fmt::Display for VariantKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantKeyError::Unknown(key) => write!(f, "unknown key '{}'", quoted(key)),
            VariantKeyError::Twice(key) => write!(f, "{key}= is given twice"),
            VariantKeyError::Game(game) => write!(f, "game: '{}' is not quoridor or quarto", quoted(game)),
            VariantKeyError::OtherGame { key, game } => {
                let other = if *game == "quarto" { "Quoridor" } else { "Quarto (game=quarto)" };
                write!(f, "{key}= is a key of {other}, not of {game}")
            }
            VariantKeyError::Value { key, value, wanted } => {
                write!(f, "{key}: '{}' is not {wanted}", quoted(value))
            }
            VariantKeyError::Rules(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for VariantKeyError {}

fn whole(key: &str, value: &str) -> Result<usize, VariantKeyError> {
    let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| value.parse().ok()).flatten().ok_or_else(|| VariantKeyError::Value {
        key: key.into(),
        value: value.into(),
        wanted: "a whole number",
    })
}

impl GameVariant {
    /// The variant `key=value` words name: unknown keys, a key given twice,
    /// a key of the other game, a value of the wrong kind and rules that make
    /// no playable game are refused, each in its own words.
    pub fn from_keys<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<GameVariant, VariantKeyError> {
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        for (at, (key, _)) in pairs.iter().enumerate() {
            if !KEYS.contains(key) {
                return Err(VariantKeyError::Unknown(key.to_string()));
            }
            if pairs[..at].iter().any(|(k, _)| k == key) {
                return Err(VariantKeyError::Twice(key.to_string()));
            }
        }
        let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let (game, foreign): (&'static str, &[&str]) = match get("game").unwrap_or("quoridor") {
            "quoridor" => ("quoridor", &QUARTO_KEYS),
            "quarto" => ("quarto", &QUORIDOR_KEYS),
            other => return Err(VariantKeyError::Game(other.to_string())),
        };
        if let Some((key, _)) = pairs.iter().find(|(k, _)| foreign.contains(k)) {
            return Err(VariantKeyError::OtherGame { key: key.to_string(), game });
        }
        let number = |key: &str, default: usize| get(key).map_or(Ok(default), |v| whole(key, v));
        let variant = if game == "quoridor" {
            let d = Variant::default();
            let multi_jump = match get("multijump") {
                None | Some("false") => false,
                Some("true") => true,
                Some(other) => {
                    return Err(VariantKeyError::Value {
                        key: "multijump".into(),
                        value: other.into(),
                        wanted: "true or false",
                    })
                }
            };
            GameVariant::Quoridor(Variant {
                width: number("width", d.width)?,
                height: number("height", d.height)?,
                walls: number("walls", d.walls)?,
                players: number("players", d.players)?,
                multi_jump,
            })
        } else {
            let side = match get("board").unwrap_or("4x4") {
                "4x4" => 4,
                "3x3" => 3,
                other => {
                    return Err(VariantKeyError::Value {
                        key: "board".into(),
                        value: other.into(),
                        wanted: "4x4 or 3x3",
                    })
                }
            };
            GameVariant::Quarto(Rules { side, level: number("level", 1)? })
        };
        variant.start().map_err(VariantKeyError::Rules)?;
        Ok(variant)
    }

    /// The start position.
    pub fn start(&self) -> Result<AnyPosition, String> {
        match self {
            GameVariant::Quoridor(v) => {
                Quoridor::new(v).map(AnyPosition::Quoridor).map_err(|e| e.to_string())
            }
            GameVariant::Quarto(r) => Quarto::new(*r).map(AnyPosition::Quarto).map_err(|e| e.to_string()),
        }
    }

    /// How many players take turns.
    pub fn players(&self) -> usize {
        match self {
            GameVariant::Quoridor(v) => v.players,
            GameVariant::Quarto(_) => 2,
        }
    }

    /// The default ply cap: 4 x width x height for Quoridor; Quarto ends by itself.
    pub fn default_max_plies(&self) -> usize {
        match self {
            GameVariant::Quoridor(v) => 4 * v.width * v.height,
            GameVariant::Quarto(r) => r.squares() + 1,
        }
    }

    /// The options of Tabula's protocol that select this game, in the order
    /// to send them.
    pub fn engine_options(&self) -> Vec<(String, String)> {
        let pairs: Vec<(&str, String)> = match self {
            GameVariant::Quoridor(v) => vec![
                ("Game", "quoridor".into()),
                ("BoardWidth", v.width.to_string()),
                ("BoardHeight", v.height.to_string()),
                ("Walls", v.walls.to_string()),
                ("Players", v.players.to_string()),
                ("MultiJump", v.multi_jump.to_string()),
            ],
            GameVariant::Quarto(r) => vec![
                ("Game", "quarto".into()),
                ("QuartoLevel", "1".into()),
                ("QuartoBoard", format!("{0}x{0}", r.side)),
                ("QuartoLevel", r.level.to_string()),
            ],
        };
        pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    /// Reads a description as [`GameVariant::describe`] writes it (a record's
    /// `Variant` tag): `quoridor 9x9 walls=10 players=2 [multijump]` or
    /// `quarto 4x4 level=1`.
    pub fn from_description(text: &str) -> Result<GameVariant, String> {
        let bad = || format!("'{}' is not a variant description", quoted(text));
        let mut words = text.split_whitespace();
        let game = words.next().ok_or_else(bad)?;
        let (width, height) = words.next().and_then(|s| s.split_once('x')).ok_or_else(bad)?;
        let number = |s: &str| s.parse::<usize>().map_err(|_| bad());
        let variant = match game {
            "quoridor" => {
                let mut v = Variant { width: number(width)?, height: number(height)?, ..Variant::default() };
                for word in words {
                    match word.split_once('=').unwrap_or((word, "true")) {
                        ("walls", n) => v.walls = number(n)?,
                        ("players", n) => v.players = number(n)?,
                        ("multijump", b) => v.multi_jump = b == "true",
                        _ => return Err(bad()),
                    }
                }
                GameVariant::Quoridor(v)
            }
            "quarto" if width == height => {
                let mut rules = Rules { side: number(width)?, level: 1 };
                for word in words {
                    match word.split_once('=') {
                        Some(("level", n)) => rules.level = number(n)?,
                        _ => return Err(bad()),
                    }
                }
                GameVariant::Quarto(rules)
            }
            _ => return Err(bad()),
        };
        variant.start()?;
        Ok(variant)
    }

    /// A one-line description for records.
    pub fn describe(&self) -> String {
        match self {
            GameVariant::Quoridor(v) => format!(
                "quoridor {}x{} walls={} players={}{}",
                v.width,
                v.height,
                v.walls,
                v.players,
                if v.multi_jump { " multijump" } else { "" }
            ),
            GameVariant::Quarto(r) => format!("quarto {0}x{0} level={1}", r.side, r.level),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<GameVariant, String> {
        let pairs: Vec<(&str, &str)> =
            text.split_whitespace().map(|w| w.split_once('=').unwrap_or((w, ""))).collect();
        GameVariant::from_keys(pairs).map_err(|e| e.to_string())
    }

    #[test]
    fn keys_name_variants() {
        assert_eq!(read(""), Ok(GameVariant::default()));
        let v = read("width=4 height=7 walls=5 multijump=false").expect("4x7");
        assert_eq!(v.describe(), "quoridor 4x7 walls=5 players=2");
        assert_eq!(read("game=quarto board=3x3").map(|v| v.describe()), Ok("quarto 3x3 level=1".into()));
        assert_eq!(read("players=4 walls=5").map(|v| v.players()), Ok(4));
        assert_eq!(GameVariant::from_description(&v.describe()), Ok(v));
    }

    #[test]
    fn each_refusal_in_its_own_words() {
        for (text, said) in [
            ("multijump=yes", "multijump: 'yes' is not true or false"),
            ("multijump=1", "multijump: '1' is not true or false"),
            ("width=x", "width: 'x' is not a whole number"),
            ("walls=-1", "walls: '-1' is not a whole number"),
            ("width=+5", "width: '+5' is not a whole number"),
            ("width=5 width=7", "width= is given twice"),
            ("colour=red", "unknown key 'colour'"),
            ("game=chess", "game: 'chess' is not quoridor or quarto"),
            ("game=quarto walls=3", "walls= is a key of Quoridor, not of quarto"),
            ("level=2", "level= is a key of Quarto (game=quarto), not of quoridor"),
            ("game=quarto board=5x5", "board: '5x5' is not 4x4 or 3x3"),
        ] {
            assert_eq!(read(text), Err(said.to_string()), "{text}");
        }
        assert!(read("width=99").is_err_and(|e| e.contains("2..=15")));
        assert!(read("width=6 height=6 players=4").is_err_and(|e| e.contains("odd sides")));
    }
}
