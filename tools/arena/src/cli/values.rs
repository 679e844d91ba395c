//! The values of flags: numbers and durations, and the `key=value` groups of
//! `-variant`, `-openings`, `-sprt`, `-pgnout`, `-epdout`, `-output`,
//! `-report`, `-config`, `-draw` and `-resign`.

use super::CliError;
use crate::adjudicate::{DrawRule, ResignRule};
use crate::config::{Config, OpeningFormat, OpeningPolicy, OpeningSource, OutputFormat, PgnExtras};
use crate::setup::GameVariant;
use crate::stats::{Sprt, SprtModel};
use std::path::PathBuf;
use std::time::Duration;

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

pub(super) fn millis(what: &str, value: &str) -> Result<Duration, CliError> {
    Ok(Duration::from_millis(number(what, value)?))
}

pub(super) fn seconds(what: &str, value: &str) -> Result<Duration, CliError> {
    let s: f64 = number(what, value)?;
    if s <= 0.0 {
        return Err(bad(what, value));
    }
    // Refuses what no Duration holds (infinite, NaN, 1e30 s) instead of panicking.
    Duration::try_from_secs_f64(s).map_err(|_| bad(what, value))
}

/// `-variant key=value ...`, read by the engine library's one reader of
/// variants (the same keys, values and refusals as `tabula solve`).
pub(super) fn variant(pairs: &[(String, String)]) -> Result<GameVariant, CliError> {
    GameVariant::from_keys(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| CliError::Conflict(format!("-variant: {e}")))
}

/// Refuses any key of `pairs` not in `allowed`.
pub(super) fn known_keys(
    flag: &'static str,
    pairs: &[(String, String)],
    allowed: &[&str],
) -> Result<(), CliError> {
    match pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((key, _)) => Err(CliError::UnknownKey { flag, key: key.clone() }),
        None => Ok(()),
    }
}

/// What `-pgnout` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnOut {
    pub path: PathBuf,
    /// `min`: records without comments.
    pub minimal: bool,
    pub extras: PgnExtras,
}

/// A `true|false` value (a bare key is `true`), `what` naming it.
fn flag_value(what: &str, value: &str) -> Result<bool, CliError> {
    match value {
        "" | "true" => Ok(true),
        "false" => Ok(false),
        other => Err(bad(what, other)),
    }
}

/// The last value of `key` among `pairs`.
fn last<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// `-pgnout FILE [min] [fi]` (cutechess-cli) or `-pgnout file=FILE
/// [notation=san|lan|uci] [append=true] [min=true] [nodes=true]
/// [seldepth=true] [nps=true]` (fastchess), from its words as `key=value`
/// pairs (a word without `=` is the file). `fi` (only finished games) is
/// what arena always writes, and `append=true` what it always does;
/// every notation is the game's one notation.
pub fn pgn_out(pairs: &[(String, String)]) -> Result<PgnOut, CliError> {
    let keys = ["file", "min", "fi", "notation", "append", "nodes", "seldepth", "nps"];
    known_keys("-pgnout", pairs, &keys)?;
    let path = match last(pairs, "file") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => return Err(CliError::Missing("-pgnout FILE")),
    };
    if let Some(notation) = last(pairs, "notation").filter(|n| !["san", "lan", "uci"].contains(n)) {
        return Err(bad("-pgnout notation", notation));
    }
    if last(pairs, "append").is_some_and(|a| a != "true") {
        return Err(CliError::Conflict(
            "-pgnout append=false: arena always appends to the file (remove it first to start anew)".into(),
        ));
    }
    let read = |key: &str| last(pairs, key).map_or(Ok(false), |v| flag_value(&format!("-pgnout {key}"), v));
    let fi = read("fi")?;
    if last(pairs, "fi").is_some() && !fi {
        return Err(bad("-pgnout fi", "false"));
    }
    Ok(PgnOut {
        path,
        minimal: read("min")?,
        extras: PgnExtras { nodes: read("nodes")?, seldepth: read("seldepth")?, nps: read("nps")? },
    })
}

/// The first word after `-pgnout` or `-epdout` as a `key=value` pair: a
/// bare word is the file (`min` and `fi` after it are flags).
pub fn pgn_out_first(word: &str) -> (String, String) {
    match word.split_once('=') {
        Some((key, value)) => (key.to_string(), value.to_string()),
        None => ("file".to_string(), word.to_string()),
    }
}

/// `-epdout FILE` (cutechess-cli) or `-epdout file=FILE [append=true]`
/// (fastchess).
pub(super) fn epd_out(pairs: &[(String, String)]) -> Result<PathBuf, CliError> {
    known_keys("-epdout", pairs, &["file", "append"])?;
    if last(pairs, "append").is_some_and(|a| a != "true") {
        return Err(CliError::Conflict("-epdout append=false: arena always appends to the file".into()));
    }
    match last(pairs, "file") {
        Some(path) if !path.is_empty() => Ok(PathBuf::from(path)),
        _ => Err(CliError::Missing("-epdout FILE")),
    }
}

/// `-output format=cutechess|fastchess`.
pub(super) fn output_format(pairs: &[(String, String)]) -> Result<OutputFormat, CliError> {
    known_keys("-output", pairs, &["format"])?;
    match last(pairs, "format") {
        Some("cutechess") => Ok(OutputFormat::Cutechess),
        Some("fastchess") => Ok(OutputFormat::Fastchess),
        Some(other) => Err(bad("-output format", other)),
        None => Err(CliError::Missing("format=cutechess|fastchess in -output")),
    }
}

/// `-report penta=true|false`.
pub(super) fn report(pairs: &[(String, String)]) -> Result<bool, CliError> {
    known_keys("-report", pairs, &["penta"])?;
    match last(pairs, "penta") {
        Some(value) => flag_value("-report penta", value),
        None => Err(CliError::Missing("penta=true|false in -report")),
    }
}

/// `-config outname=F` (where the match state is saved). `file=F` resumes
/// a saved match and is read before the rest (see [`super::resumed_file`]).
pub(super) fn config_flag(config: &mut Config, pairs: &[(String, String)]) -> Result<(), CliError> {
    known_keys("-config", pairs, &["file", "outname"])?;
    if let Some(name) = last(pairs, "outname") {
        if name.is_empty() {
            return Err(CliError::Missing("a file name in -config outname="));
        }
        config.state_out = PathBuf::from(name);
    }
    Ok(())
}

/// `-use-affinity [CPUS]`: CPUs as `3,5,7-11`, or none for all of them.
pub(super) fn affinity(list: Option<&str>) -> Result<Vec<usize>, CliError> {
    let Some(list) = list else { return Ok(Vec::new()) };
    let mut cpus = Vec::new();
    for item in list.split(',') {
        let range = match item.split_once('-') {
            Some((a, b)) => number::<usize>("-use-affinity", a)?..=number::<usize>("-use-affinity", b)?,
            None => {
                let n = number("-use-affinity", item)?;
                n..=n
            }
        };
        if range.is_empty() || *range.end() >= 1024 {
            return Err(bad("-use-affinity", item));
        }
        cpus.extend(range);
    }
    Ok(cpus)
}

/// `-openings file=PATH [format=lines|epd|pgn] [order=sequential|random]
/// [plies=N] [start=N] [policy=default|encounter|round]` or `-openings
/// random [plies=N]`.
pub(super) fn openings(pairs: &[(String, String)]) -> Result<(OpeningSource, OpeningPolicy), CliError> {
    let get = |key: &str| last(pairs, key);
    let policy = match get("policy") {
        None => OpeningPolicy::Default,
        Some(p) => OpeningPolicy::parse(p).ok_or_else(|| bad("-openings policy", p))?,
    };
    if pairs.iter().any(|(k, _)| k == "random") {
        known_keys("-openings random", pairs, &["random", "plies", "policy"])?;
        let plies = get("plies").map_or(Ok(4), |v| number("plies", v))?;
        return Ok((OpeningSource::Random { plies }, policy));
    }
    known_keys("-openings", pairs, &["file", "order", "format", "plies", "start", "policy"])?;
    let path = get("file").ok_or(CliError::Missing("file= or random in -openings"))?;
    let random_order = match get("order").unwrap_or("sequential") {
        "random" => true,
        "sequential" => false,
        other => return Err(bad("order", other)),
    };
    let format = match get("format").unwrap_or("lines") {
        "lines" => OpeningFormat::Lines,
        "epd" => OpeningFormat::Epd,
        // As in cutechess-cli and fastchess, all of each game without plies=.
        "pgn" => OpeningFormat::Pgn {
            plies: get("plies").map_or(Ok(usize::MAX), |p| number("-openings plies", p))?,
        },
        other => return Err(bad("-openings format", other)),
    };
    if get("plies").is_some() && !matches!(format, OpeningFormat::Pgn { .. }) {
        return Err(CliError::Conflict("-openings: setting 'plies' goes with random or format=pgn".into()));
    }
    let start = get("start").map_or(Ok(1), |s| positive("-openings start", s))?;
    Ok((OpeningSource::File { path: PathBuf::from(path), random_order, format, start }, policy))
}

/// `-sprt elo0=.. elo1=.. alpha=.. beta=.. [model=logistic|normalized|bayesian]`,
/// from its `key=value` words.
pub fn sprt(pairs: &[(String, String)]) -> Result<Sprt, CliError> {
    known_keys("-sprt", pairs, &["elo0", "elo1", "alpha", "beta", "model"])?;
    let get = |key: &str, default: f64| -> Result<f64, CliError> {
        last(pairs, key).map_or(Ok(default), |v| number(key, v))
    };
    let model = match last(pairs, "model") {
        None => SprtModel::Logistic,
        Some(m) => SprtModel::parse(m).ok_or_else(|| bad("-sprt model", m))?,
    };
    Sprt::new(get("elo0", 0.0)?, get("elo1", 5.0)?, get("alpha", 0.05)?, get("beta", 0.05)?)
        .map(|s| s.with_model(model))
        .map_err(|e| bad("-sprt", &e))
}

/// The value of `key` among `pairs` (the last given), read with `read`;
/// `default` when absent, or an error naming the missing key and flag.
fn setting<T>(
    flag: &'static str,
    pairs: &[(String, String)],
    key: &str,
    default: Option<T>,
    read: impl Fn(&str, &str) -> Result<T, CliError>,
) -> Result<T, CliError> {
    match last(pairs, key) {
        Some(value) => read(&format!("{flag} {key}"), value),
        None => default.ok_or(CliError::Missing(match (flag, key) {
            ("-draw", "movecount") => "movecount= in -draw",
            ("-draw", _) => "score= in -draw",
            ("-resign", "movecount") => "movecount= in -resign",
            _ => "score= in -resign",
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
    Ok(ResignRule {
        move_count: setting("-resign", pairs, "movecount", None, positive)?,
        score: setting("-resign", pairs, "score", None, threshold)?,
        two_sided: setting("-resign", pairs, "twosided", Some(false), flag_value)?,
    })
}
