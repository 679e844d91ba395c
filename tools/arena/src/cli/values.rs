//! The values of flags: numbers and durations, `-engine`/`-each` settings,
//! and the `key=value` groups of `-variant`, `-openings`, `-sprt`, `-pgnout`,
//! `-draw` and `-resign`.

use super::{CliError, EngineConfig, OpeningSource};
use crate::adjudicate::{DrawRule, ResignRule};
use crate::config::OpeningFormat;
use crate::engine::Protocol;
use crate::setup::{GameVariant, Limit};
use crate::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use tabula::games::quarto::Rules;
use tabula::games::quoridor::Variant;

pub(super) fn bad(what: &str, value: &str) -> CliError {
    CliError::BadValue { what: what.to_string(), value: value.to_string() }
}

pub(super) fn number<T: std::str::FromStr>(what: &str, value: &str) -> Result<T, CliError> {
    value.parse().map_err(|_| bad(what, value))
}

/// A record tag's value (`-event`, `-site`): one line of printable text,
/// since a tag pair is one line of the record.
pub(super) fn tag_value(what: &str, value: String) -> Result<String, CliError> {
    if value.chars().any(char::is_control) {
        return Err(bad(what, &value.escape_debug().to_string()));
    }
    Ok(value)
}

/// A count that must be 1 or more (`nodes=0` would ask for no search at all).
pub(super) fn positive<T: std::str::FromStr + PartialOrd + Default>(
    what: &str,
    value: &str,
) -> Result<T, CliError> {
    let n: T = number(what, value)?;
    if n <= T::default() {
        return Err(bad(what, value));
    }
    Ok(n)
}

fn millis(what: &str, value: &str) -> Result<Duration, CliError> {
    Ok(Duration::from_millis(number(what, value)?))
}

fn seconds(what: &str, value: &str) -> Result<Duration, CliError> {
    let s: f64 = number(what, value)?;
    if s <= 0.0 {
        return Err(bad(what, value));
    }
    // Refuses what no Duration holds (infinite, NaN, 1e30 s) instead of panicking.
    Duration::try_from_secs_f64(s).map_err(|_| bad(what, value))
}

/// Applies one `key=value` of an engine group.
pub(super) fn engine_setting(
    config: &mut EngineConfig,
    flag: &'static str,
    key: &str,
    value: &str,
) -> Result<(), CliError> {
    match key {
        "cmd" => config.spec.command = PathBuf::from(value),
        "proto" => {
            config.spec.protocol = Protocol::parse(value).ok_or_else(|| {
                CliError::Conflict(format!(
                    "{flag}: proto={value}: arena speaks uci (Tabula's UCI-style protocol) and qtp \
                     (the Quoridor Text Protocol)"
                ))
            })?;
            config.protocol_given = true;
        }
        "name" => config.spec.name = value.to_string(),
        "arg" => config.spec.args.push(value.to_string()),
        "dir" => config.spec.dir = Some(PathBuf::from(value)),
        "tc" if value == "inf" => {
            config.infinite = Some(true);
            if matches!(config.limit, Some(Limit::Clock { .. })) {
                config.limit = None;
            }
        }
        "tc" => {
            config.limit = Some(Limit::parse_clock(value).map_err(|_| bad("tc", value))?);
            config.infinite = Some(false);
        }
        "st" => config.limit = Some(Limit::MoveTime(seconds("st", value)?)),
        "nodes" => config.limit = Some(Limit::Nodes(positive("nodes", value)?)),
        "depth" => config.limit = Some(Limit::Depth(positive("depth", value)?)),
        "timemargin" => config.margin = Some(millis("timemargin", value)?),
        "handshake" => config.spec.handshake = Some(seconds("handshake", value)?),
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => config.spec.options.push((name.to_string(), value.to_string())),
            _ => return Err(CliError::UnknownKey { flag, key: key.to_string() }),
        },
    }
    Ok(())
}

pub(super) fn variant(pairs: &[(String, String)]) -> Result<GameVariant, CliError> {
    let game = pairs.iter().find(|(k, _)| k == "game").map_or("quoridor", |(_, v)| v.as_str());
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let allowed: &[&str] = match game {
        "quoridor" => &["game", "width", "height", "walls", "players", "multijump"],
        "quarto" => &["game", "board", "level"],
        other => return Err(bad("-variant game", other)),
    };
    if let Some((key, _)) = pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        return Err(CliError::UnknownKey { flag: "-variant", key: key.clone() });
    }
    let chosen = if game == "quoridor" {
        let d = Variant::default();
        let v = Variant {
            width: get("width").map_or(Ok(d.width), |v| number("width", v))?,
            height: get("height").map_or(Ok(d.height), |v| number("height", v))?,
            walls: get("walls").map_or(Ok(d.walls), |v| number("walls", v))?,
            players: get("players").map_or(Ok(d.players), |v| number("players", v))?,
            multi_jump: get("multijump").map_or(Ok(false), |v| number("multijump", v))?,
        };
        v.validate().map_err(|e| bad("-variant", &e.to_string()))?;
        GameVariant::Quoridor(v)
    } else {
        let side = match get("board").unwrap_or("4x4") {
            "4x4" => 4,
            "3x3" => 3,
            other => return Err(bad("board", other)),
        };
        let r = Rules { side, level: get("level").map_or(Ok(1), |v| number("level", v))? };
        r.validate().map_err(|e| bad("-variant", &e.to_string()))?;
        GameVariant::Quarto(r)
    };
    Ok(chosen)
}

/// Refuses any key of `pairs` not in `allowed`.
fn known_keys(flag: &'static str, pairs: &[(String, String)], allowed: &[&str]) -> Result<(), CliError> {
    match pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((key, _)) => Err(CliError::UnknownKey { flag, key: key.clone() }),
        None => Ok(()),
    }
}

/// `-pgnout FILE [min]` or, as fastchess writes it, `-pgnout file=FILE
/// [min=true]`, from its words as `key=value` pairs (the first word without
/// `=` is the file); `min` asks for minimal records: no comments. The
/// path and whether records are minimal.
pub fn pgn_out(pairs: &[(String, String)]) -> Result<(PathBuf, bool), CliError> {
    known_keys("-pgnout", pairs, &["file", "min"])?;
    let path = match pairs.iter().rev().find(|(k, _)| k == "file") {
        Some((_, path)) if !path.is_empty() => PathBuf::from(path),
        _ => return Err(CliError::Missing("-pgnout FILE")),
    };
    let minimal = match pairs.iter().rev().find(|(k, _)| k == "min").map(|(_, v)| v.as_str()) {
        None | Some("false") => false,
        Some("" | "true") => true,
        Some(other) => return Err(bad("-pgnout min", other)),
    };
    Ok((path, minimal))
}

/// The first word after `-pgnout` as a `key=value` pair: a bare word is the file.
pub fn pgn_out_first(word: &str) -> (String, String) {
    match word.split_once('=') {
        Some((key, value)) => (key.to_string(), value.to_string()),
        None => ("file".to_string(), word.to_string()),
    }
}

pub(super) fn openings(pairs: &[(String, String)]) -> Result<OpeningSource, CliError> {
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    if pairs.iter().any(|(k, _)| k == "random") {
        known_keys("-openings random", pairs, &["random", "plies"])?;
        let plies = get("plies").map_or(Ok(4), |v| number("plies", v))?;
        return Ok(OpeningSource::Random { plies });
    }
    known_keys("-openings", pairs, &["file", "order", "format", "plies"])?;
    let path = get("file").ok_or(CliError::Missing("file= or random in -openings"))?;
    let random_order = match get("order").unwrap_or("sequential") {
        "random" => true,
        "sequential" => false,
        other => return Err(bad("order", other)),
    };
    let format = match get("format").unwrap_or("lines") {
        "lines" => OpeningFormat::Lines,
        "epd" => OpeningFormat::Epd,
        "pgn" => {
            let plies = get("plies").ok_or(CliError::Missing("plies= in -openings format=pgn"))?;
            OpeningFormat::Pgn { plies: number("-openings plies", plies)? }
        }
        other => return Err(bad("-openings format", other)),
    };
    if get("plies").is_some() && !matches!(format, OpeningFormat::Pgn { .. }) {
        return Err(CliError::Conflict("-openings: setting 'plies' goes with random or format=pgn".into()));
    }
    Ok(OpeningSource::File { path: PathBuf::from(path), random_order, format })
}

/// `-sprt elo0=.. elo1=.. alpha=.. beta=..`, from its `key=value` words.
pub fn sprt(pairs: &[(String, String)]) -> Result<Sprt, CliError> {
    known_keys("-sprt", pairs, &["elo0", "elo1", "alpha", "beta"])?;
    let get = |key: &str, default: f64| -> Result<f64, CliError> {
        pairs.iter().find(|(k, _)| k == key).map_or(Ok(default), |(_, v)| number(key, v))
    };
    Sprt::new(get("elo0", 0.0)?, get("elo1", 5.0)?, get("alpha", 0.05)?, get("beta", 0.05)?)
        .map_err(|e| bad("-sprt", &e))
}

/// The value of `key` among `pairs` (the last given), read with `read`;
/// `default` when absent, or an error naming the flag when required.
fn setting<T>(
    flag: &'static str,
    pairs: &[(String, String)],
    key: &str,
    default: Option<T>,
    read: impl Fn(&str, &str) -> Result<T, CliError>,
) -> Result<T, CliError> {
    match pairs.iter().rev().find(|(k, _)| k == key) {
        Some((_, value)) => read(&format!("{flag} {key}"), value),
        None => default.ok_or(CliError::Missing(match flag {
            "-draw" => "movecount= and score= in -draw",
            _ => "movecount= and score= in -resign",
        })),
    }
}

/// A score threshold in centipawns: 0 or more.
fn threshold(what: &str, value: &str) -> Result<i64, CliError> {
    let n: i64 = number(what, value)?;
    if n < 0 {
        return Err(bad(what, value));
    }
    Ok(n)
}

/// `-draw movenumber=N movecount=N score=N` (movenumber 0 when not given).
pub(super) fn draw_rule(pairs: &[(String, String)]) -> Result<DrawRule, CliError> {
    known_keys("-draw", pairs, &["movenumber", "movecount", "score"])?;
    Ok(DrawRule {
        move_number: setting("-draw", pairs, "movenumber", Some(0), number)?,
        move_count: setting("-draw", pairs, "movecount", None, positive)?,
        score: setting("-draw", pairs, "score", None, threshold)?,
    })
}

/// `-resign movecount=N score=N [twosided=true|false]`.
pub(super) fn resign_rule(pairs: &[(String, String)]) -> Result<ResignRule, CliError> {
    known_keys("-resign", pairs, &["movecount", "score", "twosided"])?;
    let two_sided = |what: &str, value: &str| match value {
        "true" | "" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(what, value)),
    };
    Ok(ResignRule {
        move_count: setting("-resign", pairs, "movecount", None, positive)?,
        score: setting("-resign", pairs, "score", None, threshold)?,
        two_sided: setting("-resign", pairs, "twosided", Some(false), two_sided)?,
    })
}
