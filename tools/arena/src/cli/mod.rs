//! The command line, cutechess-cli style: `-engine key=value ...` groups,
//! `-each` for what every engine shares, `-variant`, and match settings.
//! `--long` spellings are accepted for every flag.

use crate::adjudicate::Adjudication;
use crate::config::{Config, EngineConfig, OpeningFormat, OpeningSource, Tournament};
use crate::engine::Protocol;
use crate::setup::{GameVariant, Limit};
use std::path::PathBuf;

/// Why the command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    UnknownFlag(String),
    UnknownKey {
        flag: &'static str,
        key: String,
    },
    BadValue {
        what: String,
        value: String,
    },
    Missing(&'static str),
    EngineCount(usize),
    /// Settings that cannot go together.
    Conflict(String),
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
            CliError::Conflict(why) => write!(f, "{why}"),
        }
    }
}

#[cfg(test)]
mod tests;
mod values;

use values::{bad, draw_rule, engine_setting, number, openings, positive, resign_rule, tag_value, variant};
pub use values::{pgn_out, pgn_out_first, sprt};

/// Reads the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Config, CliError> {
    let mut config = Config {
        engines: Vec::new(),
        tournament: Tournament::default(),
        variant: GameVariant::default(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        force_concurrency: false,
        openings: OpeningSource::StartPosition,
        sprt: None,
        max_plies: None,
        max_moves: None,
        adjudication: Adjudication::default(),
        recover: false,
        pgn_out: None,
        pgn_min: false,
        log: None,
        seed: 1,
        rating_interval: 10,
        pair: None,
        results: None,
        schedule_only: false,
        event: crate::record::DEFAULT_EVENT.to_string(),
        site: crate::record::host_name(),
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
            "tournament" => {
                let value = single(&mut i, "-tournament round-robin|gauntlet")?;
                config.tournament = Tournament::parse(&value).ok_or_else(|| bad("-tournament", &value))?;
            }
            "games" => config.games = number("-games", &single(&mut i, "-games N")?)?,
            "rounds" => config.rounds = number("-rounds", &single(&mut i, "-rounds N")?)?,
            "repeat" => config.repeat = true,
            "recover" => config.recover = true,
            "force-concurrency" => config.force_concurrency = true,
            "concurrency" => config.concurrency = number("-concurrency", &single(&mut i, "-concurrency N")?)?,
            "maxmoves" => config.max_moves = Some(positive("-maxmoves", &single(&mut i, "-maxmoves N")?)?),
            "maxplies" => config.max_plies = Some(number("-maxplies", &single(&mut i, "-maxplies N")?)?),
            // `-srand` is cutechess-cli's name for it.
            "seed" => config.seed = number("-seed", &single(&mut i, "-seed N")?)?,
            "srand" => config.seed = number("-srand", &single(&mut i, "-srand N")?)?,
            "event" => config.event = tag_value("-event", single(&mut i, "-event NAME")?)?,
            "site" => config.site = tag_value("-site", single(&mut i, "-site NAME")?)?,
            "ratinginterval" => {
                config.rating_interval = number("-ratinginterval", &single(&mut i, "-ratinginterval N")?)?
            }
            "pgnout" => {
                let mut pairs = vec![pgn_out_first(&single(&mut i, "-pgnout FILE")?)];
                pairs.extend(values(&mut i));
                let (path, minimal) = pgn_out(&pairs)?;
                config.pgn_out = Some(path);
                config.pgn_min = minimal;
            }
            "log" => config.log = Some(PathBuf::from(single(&mut i, "-log FILE")?)),
            "pair" => config.pair = Some(positive("-pair", &single(&mut i, "-pair K")?)?),
            "results" => config.results = Some(PathBuf::from(single(&mut i, "-results FILE")?)),
            "schedule" => config.schedule_only = true,
            "openings" => config.openings = openings(&values(&mut i))?,
            "sprt" => config.sprt = Some(sprt(&values(&mut i))?),
            "draw" => config.adjudication.draw = Some(draw_rule(&values(&mut i))?),
            "resign" => config.adjudication.resign = Some(resign_rule(&values(&mut i))?),
            "adjudicate" => match single(&mut i, "-adjudicate race")?.as_str() {
                "race" => config.adjudication.race = true,
                other => return Err(bad("-adjudicate", other)),
            },
            _ => return Err(CliError::UnknownFlag(args[i].clone())),
        }
        i += 1;
    }
    finish(&mut config, &each)?;
    Ok(config)
}

/// What a QTP engine can play: two-player Quoridor on a square board with
/// single jumps, from the start position, under a clock or a time a move
/// (QTP has no node or depth limit).
fn check_qtp(engine: &EngineConfig, variant: &GameVariant, openings: &OpeningSource) -> Result<(), CliError> {
    let name = &engine.spec.name;
    let playable = match variant {
        GameVariant::Quoridor(v) => v.players == 2 && v.width == v.height && !v.multi_jump,
        GameVariant::Quarto(_) => false,
    };
    if !playable {
        return Err(CliError::Conflict(format!(
            "{name} speaks QTP, which plays two-player Quoridor on a square board with single jumps"
        )));
    }
    if engine.infinite == Some(true) || matches!(engine.limit, Some(Limit::Nodes(_) | Limit::Depth(_))) {
        return Err(CliError::Conflict(format!(
            "{name} speaks QTP, which has no node or depth limit: give it tc= or st="
        )));
    }
    if let OpeningSource::File { format: OpeningFormat::Epd, .. } = openings {
        return Err(CliError::Conflict(format!(
            "{name} speaks QTP, which starts every game from the start position: \
             an EPD opening (a position) cannot be played; give the openings as moves"
        )));
    }
    Ok(())
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
        engine.infinite = engine.infinite.or(each.infinite);
        let searched = matches!(engine.limit, Some(Limit::Nodes(_) | Limit::Depth(_)));
        if engine.infinite == Some(true) && !searched {
            return Err(CliError::Conflict(format!(
                "{}: tc=inf needs nodes=N or depth=N (a search without a limit never ends)",
                engine.spec.name
            )));
        }
        engine.spec.handshake = engine.spec.handshake.or(each.spec.handshake);
        if !engine.protocol_given {
            engine.spec.protocol = each.spec.protocol;
        }
        if engine.spec.protocol == Protocol::Qtp {
            check_qtp(engine, &config.variant, &config.openings)?;
        }
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
    if config.tournament == Tournament::Gauntlet && players != 2 {
        return Err(CliError::Conflict(
            "-tournament gauntlet: four-player games seat all four engines".into(),
        ));
    }
    let quoridor = matches!(config.variant, GameVariant::Quoridor(_));
    if config.adjudication.race && (players != 2 || !quoridor) {
        return Err(CliError::Conflict(
            "-adjudicate race: only two-player Quoridor has a pawn race to solve".into(),
        ));
    }
    let adjudicated = config.adjudication.draw.is_some() || config.adjudication.resign.is_some();
    if adjudicated && players != 2 {
        return Err(CliError::Conflict("-draw and -resign adjudicate two-player games only".into()));
    }
    if config.sprt.is_some() && n != 2 {
        return Err(bad("-sprt", "needs exactly two engines"));
    }
    Ok(())
}
