//! The command line, cutechess-cli style: `-engine key=value ...` groups,
//! `-each` for what every engine shares, `-variant`, and match settings.
//! `--long` spellings are accepted for every flag.

use crate::engine::EngineSpec;
use crate::setup::{GameVariant, Limit};
use crate::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use tabula::games::quarto::Rules;
use tabula::games::quoridor::Variant;

/// One `-engine` group (or `-each`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    pub spec: EngineSpec,
    pub limit: Option<Limit>,
    pub margin: Option<Duration>,
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    StartPosition,
    File { path: PathBuf, random_order: bool },
    Random { plies: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub engines: Vec<EngineConfig>,
    pub variant: GameVariant,
    pub games: usize,
    pub rounds: usize,
    pub repeat: bool,
    pub concurrency: usize,
    pub force_concurrency: bool,
    pub openings: OpeningSource,
    pub sprt: Option<Sprt>,
    pub max_plies: Option<usize>,
    pub recover: bool,
    pub pgn_out: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub seed: u64,
    pub rating_interval: usize,
    /// `-pair K`: play only the K-th pair (1-based) of the full schedule.
    pub pair: Option<usize>,
    /// `-results FILE`: a JSON line per finished game.
    pub results: Option<PathBuf>,
    /// `-schedule`: print the games (JSON lines) instead of playing them.
    pub schedule_only: bool,
}

/// Why the command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    UnknownFlag(String),
    UnknownKey { flag: &'static str, key: String },
    BadValue { what: String, value: String },
    Missing(&'static str),
    EngineCount(usize),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::UnknownFlag(s) => write!(f, "unknown flag '{s}'"),
            CliError::UnknownKey { flag, key } => write!(f, "{flag}: unknown setting '{key}'"),
            CliError::BadValue { what, value } => write!(f, "{what}: bad value '{value}'"),
            CliError::Missing(s) => write!(f, "missing {s}"),
            CliError::EngineCount(n) => {
                write!(f, "{n} engines: a match needs 2 or more (exactly 4 for four players)")
            }
        }
    }
}

fn bad(what: &str, value: &str) -> CliError {
    CliError::BadValue { what: what.to_string(), value: value.to_string() }
}

fn number<T: std::str::FromStr>(what: &str, value: &str) -> Result<T, CliError> {
    value.parse().map_err(|_| bad(what, value))
}

/// A count that must be 1 or more (`nodes=0` would ask for no search at all).
fn positive<T: std::str::FromStr + PartialOrd + Default>(what: &str, value: &str) -> Result<T, CliError> {
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
fn engine_setting(
    config: &mut EngineConfig,
    flag: &'static str,
    key: &str,
    value: &str,
) -> Result<(), CliError> {
    match key {
        "cmd" => config.spec.command = PathBuf::from(value),
        "name" => config.spec.name = value.to_string(),
        "arg" => config.spec.args.push(value.to_string()),
        "dir" => config.spec.dir = Some(PathBuf::from(value)),
        "tc" => config.limit = Some(Limit::parse_clock(value).map_err(|_| bad("tc", value))?),
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

fn variant(pairs: &[(String, String)]) -> Result<GameVariant, CliError> {
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

/// Reads the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Config, CliError> {
    let mut config = Config {
        engines: Vec::new(),
        variant: GameVariant::default(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        force_concurrency: false,
        openings: OpeningSource::StartPosition,
        sprt: None,
        max_plies: None,
        recover: false,
        pgn_out: None,
        log: None,
        seed: 1,
        rating_interval: 10,
        pair: None,
        results: None,
        schedule_only: false,
    };
    let mut each = EngineConfig::default();
    let mut i = 0;
    // The `key=value` words after a flag.
    let values = |i: &mut usize| -> Vec<(String, String)> {
        let mut found = Vec::new();
        while let Some(word) = args.get(*i + 1).filter(|w| !w.starts_with('-')) {
            let (k, v) = word.split_once('=').unwrap_or((word, ""));
            found.push((k.to_string(), v.to_string()));
            *i += 1;
        }
        found
    };
    let single = |i: &mut usize, what: &'static str| -> Result<String, CliError> {
        *i += 1;
        args.get(*i).cloned().ok_or(CliError::Missing(what))
    };
    while i < args.len() {
        let flag = args[i].strip_prefix('-').map(|f| f.strip_prefix('-').unwrap_or(f)).unwrap_or("");
        match flag {
            "engine" => {
                let mut engine = EngineConfig::default();
                for (k, v) in values(&mut i) {
                    engine_setting(&mut engine, "-engine", &k, &v)?;
                }
                if engine.spec.command.as_os_str().is_empty() {
                    return Err(CliError::Missing("cmd= in -engine"));
                }
                config.engines.push(engine);
            }
            "each" => {
                for (k, v) in values(&mut i) {
                    engine_setting(&mut each, "-each", &k, &v)?;
                }
            }
            "variant" => config.variant = variant(&values(&mut i))?,
            "games" => config.games = number("-games", &single(&mut i, "-games N")?)?,
            "rounds" => config.rounds = number("-rounds", &single(&mut i, "-rounds N")?)?,
            "repeat" => config.repeat = true,
            "recover" => config.recover = true,
            "force-concurrency" => config.force_concurrency = true,
            "concurrency" => config.concurrency = number("-concurrency", &single(&mut i, "-concurrency N")?)?,
            "maxplies" => config.max_plies = Some(number("-maxplies", &single(&mut i, "-maxplies N")?)?),
            "seed" => config.seed = number("-seed", &single(&mut i, "-seed N")?)?,
            "ratinginterval" => {
                config.rating_interval = number("-ratinginterval", &single(&mut i, "-ratinginterval N")?)?
            }
            "pgnout" => {
                let first = single(&mut i, "-pgnout FILE")?;
                let mut pairs = match first.split_once('=') {
                    Some((key, value)) => vec![(key.to_string(), value.to_string())],
                    None => vec![("file".to_string(), first)],
                };
                pairs.extend(values(&mut i));
                config.pgn_out = Some(pgn_out(&pairs)?);
            }
            "log" => config.log = Some(PathBuf::from(single(&mut i, "-log FILE")?)),
            "pair" => config.pair = Some(positive("-pair", &single(&mut i, "-pair K")?)?),
            "results" => config.results = Some(PathBuf::from(single(&mut i, "-results FILE")?)),
            "schedule" => config.schedule_only = true,
            "openings" => config.openings = openings(&values(&mut i))?,
            "sprt" => config.sprt = Some(sprt(&values(&mut i))?),
            _ => return Err(CliError::UnknownFlag(args[i].clone())),
        }
        i += 1;
    }
    finish(&mut config, &each)?;
    Ok(config)
}

/// Refuses any key of `pairs` not in `allowed`.
fn known_keys(flag: &'static str, pairs: &[(String, String)], allowed: &[&str]) -> Result<(), CliError> {
    match pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((key, _)) => Err(CliError::UnknownKey { flag, key: key.clone() }),
        None => Ok(()),
    }
}

/// `-pgnout FILE` or, as fastchess writes it, `-pgnout file=FILE`.
fn pgn_out(pairs: &[(String, String)]) -> Result<PathBuf, CliError> {
    known_keys("-pgnout", pairs, &["file"])?;
    match pairs.iter().rev().find(|(k, _)| k == "file") {
        Some((_, path)) if !path.is_empty() => Ok(PathBuf::from(path)),
        _ => Err(CliError::Missing("-pgnout FILE")),
    }
}

fn openings(pairs: &[(String, String)]) -> Result<OpeningSource, CliError> {
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    if pairs.iter().any(|(k, _)| k == "random") {
        known_keys("-openings random", pairs, &["random", "plies"])?;
        let plies = get("plies").map_or(Ok(4), |v| number("plies", v))?;
        return Ok(OpeningSource::Random { plies });
    }
    known_keys("-openings", pairs, &["file", "order"])?;
    let path = get("file").ok_or(CliError::Missing("file= or random in -openings"))?;
    let random_order = match get("order").unwrap_or("sequential") {
        "random" => true,
        "sequential" => false,
        other => return Err(bad("order", other)),
    };
    Ok(OpeningSource::File { path: PathBuf::from(path), random_order })
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

/// Fills engine settings from `-each` and checks the whole.
fn finish(config: &mut Config, each: &EngineConfig) -> Result<(), CliError> {
    for (index, engine) in config.engines.iter_mut().enumerate() {
        if engine.spec.name.is_empty() {
            engine.spec.name = format!("engine{}", index + 1);
        }
        let mut options = each.spec.options.clone();
        options.append(&mut engine.spec.options);
        engine.spec.options = options;
        let mut args = each.spec.args.clone();
        args.append(&mut engine.spec.args);
        engine.spec.args = args;
        engine.limit = engine.limit.clone().or_else(|| each.limit.clone());
        engine.margin = engine.margin.or(each.margin);
        engine.spec.handshake = engine.spec.handshake.or(each.spec.handshake);
        if engine.spec.dir.is_none() {
            engine.spec.dir = each.spec.dir.clone();
        }
    }
    let n = config.engines.len();
    let players = config.variant.players();
    if n < 2 || (players == 4 && n != 4) {
        return Err(CliError::EngineCount(n));
    }
    if config.games == 0 || config.rounds == 0 || config.concurrency == 0 {
        return Err(bad("-games/-rounds/-concurrency", "0"));
    }
    if config.sprt.is_some() && n != 2 {
        return Err(bad("-sprt", "needs exactly two engines"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_full_command_line() {
        let c = parse(&args(
            "-engine cmd=./a name=A option.Hash=32 -engine cmd=./b tc=10+0.1 --each st=0.2 option.Threads=1 \
             -variant game=quoridor width=7 height=7 walls=6 -games 2 -rounds 3 -repeat -concurrency 2 \
             -openings random plies=4 -sprt elo0=0 elo1=10 -maxplies 100 -recover -seed 7",
        ))
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].spec.name, "A");
        assert_eq!(c.engines[1].spec.name, "engine2");
        assert_eq!(c.engines[0].limit, Some(Limit::MoveTime(Duration::from_millis(200))));
        assert!(matches!(c.engines[1].limit, Some(Limit::Clock { .. })));
        assert_eq!(c.engines[0].spec.options, [("Threads".into(), "1".into()), ("Hash".into(), "32".into())]);
        assert!(matches!(c.variant, GameVariant::Quoridor(Variant { width: 7, .. })));
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, true, 2));
        assert_eq!(c.openings, OpeningSource::Random { plies: 4 });
        assert_eq!(c.sprt.map(|s| s.elo1), Some(10.0));
        assert_eq!((c.max_plies, c.recover, c.seed), (Some(100), true, 7));
    }

    #[test]
    fn the_handshake_limit_is_set_per_engine_or_for_each() {
        let c = parse(&args("-engine cmd=a handshake=2.5 -engine cmd=b -engine cmd=c -each handshake=90"))
            .expect("a valid command line");
        let limits: Vec<Duration> = c.engines.iter().map(|e| e.spec.handshake_timeout()).collect();
        assert_eq!(limits, [Duration::from_millis(2500), Duration::from_secs(90), Duration::from_secs(90)]);
        let c = parse(&args("-engine cmd=a -engine cmd=b")).expect("a valid command line");
        assert_eq!(c.engines[0].spec.handshake_timeout(), crate::engine::DEFAULT_HANDSHAKE);
        for bad in ["0", "-1", "soon", "1e30", "inf", "NaN"] {
            assert!(parse(&args(&format!("-engine cmd=a handshake={bad} -engine cmd=b"))).is_err(), "{bad}");
        }
    }

    #[test]
    fn mistakes_are_refused() {
        assert!(parse(&args("-engine cmd=a")).is_err());
        assert!(parse(&args("-engine cmd=a -engine cmd=b -variant game=chess")).is_err());
        assert!(parse(&args("-engine cmd=a -engine cmd=b -variant players=4")).is_err());
        assert!(parse(&args("-engine cmd=a -engine cmd=b -bogus")).is_err());
        assert!(parse(&args("-engine name=x -engine cmd=b")).is_err());
        assert!(parse(&args("-engine cmd=a -engine cmd=b -variant game=quarto board=3x3 level=2")).is_err());
        assert!(parse(&args("-engine cmd=a tc=fast -engine cmd=b")).is_err());
        let four_on_even = parse(&args("-engine cmd=a -engine cmd=b -variant width=6 height=6 players=4"));
        assert!(four_on_even.err().is_some_and(|e| e.to_string().contains("odd sides")));
    }

    #[test]
    fn even_widths_are_played_by_two() {
        let c = parse(&args("-engine cmd=a -engine cmd=b -variant width=4 height=7 walls=5"))
            .expect("a 4x7 variant");
        assert!(matches!(c.variant, GameVariant::Quoridor(Variant { width: 4, height: 7, walls: 5, .. })));
        let start = c.variant.start().expect("its start").to_text();
        assert!(start.starts_with("quoridor 4x7 pawns=b1,b7 "), "{start}");
        let described = GameVariant::from_description(&c.variant.describe()).expect("read back");
        assert_eq!(described.describe(), "quoridor 4x7 walls=5 players=2");
    }

    #[test]
    fn settings_are_checked_key_by_key() {
        let two = "-engine cmd=a -engine cmd=b";
        let refusal = |extra: &str| parse(&args(&format!("{two} {extra}"))).err().map(|e| e.to_string());
        for zero in ["-each nodes=0", "-each depth=0", "-each depth=-1"] {
            assert!(refusal(zero).is_some_and(|e| e.contains("bad value")), "{zero}");
        }
        assert_eq!(refusal("-sprt elo0=0 elo1=5 alpah=0.1"), Some("-sprt: unknown setting 'alpah'".into()));
        assert_eq!(
            refusal("-openings file=x orders=random"),
            Some("-openings: unknown setting 'orders'".into())
        );
        assert_eq!(
            refusal("-pgnout file=x.pgn append=true"),
            Some("-pgnout: unknown setting 'append'".into())
        );
        assert!(refusal("-pgnout file=").is_some());
        for line in ["-pgnout x.pgn", "-pgnout file=x.pgn", "--pgnout file=x.pgn -games 2"] {
            let c = parse(&args(&format!("{two} {line}"))).expect("a valid -pgnout");
            assert_eq!(c.pgn_out, Some(PathBuf::from("x.pgn")), "{line}");
        }
        let c = parse(&args(&format!("{two} -each nodes=1000 -openings file=o.txt order=random")));
        assert!(c.is_ok(), "{c:?}");
        assert!(refusal("-openings file=o.txt plies=2").is_some_and(|e| e.contains("'plies'")));
        assert!(refusal("-openings random plies=2 order=random").is_some_and(|e| e.contains("'order'")));
    }
}
