//! The command line: cutechess-cli's and fastchess's flags, as either
//! writes them (`-engine key=value ...` groups, `-each` for what every
//! engine shares, `-variant`, match settings); `--long` spellings are
//! accepted for every flag. Flags of chess alone (tablebases, Polyglot
//! books) are refused with the reason.

use crate::adjudicate::Adjudication;
use crate::config::{
    Config, EngineConfig, OpeningPolicy, OpeningSource, OutputFormat, PgnExtras, Tournament,
};
use crate::setup::GameVariant;
use std::path::PathBuf;
use std::time::Duration;

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
    /// A flag of cutechess-cli or fastchess that cannot apply to these games.
    NotForTheseGames {
        flag: String,
        why: &'static str,
    },
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
            CliError::NotForTheseGames { flag, why } => write!(f, "{flag}: {why}"),
        }
    }
}

mod engines;
#[cfg(test)]
mod tests;
mod values;

use engines::{engine_setting, finish_engines};
use values::{
    affinity, bad, config_flag, draw_rule, epd_out, number, openings, output_format, positive, report,
    resign_rule, tag_value, variant,
};
pub use values::{pgn_out, pgn_out_first, sprt};

/// The chess flags arena refuses, and why.
const CHESS_ONLY: [(&str, &str); 6] = [
    ("tb", TABLEBASES),
    ("tbpieces", TABLEBASES),
    ("tbignore50", TABLEBASES),
    ("tbadjudicate", TABLEBASES),
    ("bookmode", "arena reads no Polyglot opening books (a chess format); give openings with -openings"),
    ("pgnin", "arena takes openings from -openings file=F format=pgn"),
];
const TABLEBASES: &str = "Syzygy tablebases are for chess endgames; these games have none \
                          (two-player Quoridor's pawn races are solved exactly by -adjudicate race)";

/// Where `-config file=F` points, if anywhere: a saved match to resume
/// (see [`crate::state`]); the other words of `-config` are returned too.
pub fn resumed_file(args: &[String]) -> Option<PathBuf> {
    let at = args.iter().position(|a| a == "-config" || a == "--config")?;
    args[at + 1..]
        .iter()
        .take_while(|w| !w.starts_with('-'))
        .find_map(|w| w.strip_prefix("file="))
        .map(PathBuf::from)
}

/// The defaults of every setting.
fn defaults(args: &[String]) -> Config {
    Config {
        engines: Vec::new(),
        tournament: Tournament::default(),
        variant: GameVariant::default(),
        games: 1,
        rounds: 1,
        repeat: 1,
        noswap: false,
        reverse: false,
        wait: Duration::ZERO,
        seeds: 1,
        concurrency: 1,
        force_concurrency: false,
        openings: OpeningSource::StartPosition,
        opening_policy: OpeningPolicy::Default,
        sprt: None,
        report_penta: true,
        max_plies: None,
        max_moves: None,
        adjudication: Adjudication::default(),
        recover: false,
        pgn_out: None,
        pgn_min: false,
        pgn_extras: PgnExtras::default(),
        epd_out: None,
        output: OutputFormat::Cutechess,
        log: None,
        debug: false,
        seed: 1,
        rating_interval: 10,
        affinity: None,
        autosave: 20,
        state_out: PathBuf::from("config.json"),
        args: args.to_vec(),
        pair: None,
        results: None,
        schedule_only: false,
        event: crate::record::DEFAULT_EVENT.to_string(),
        site: crate::record::host_name(),
    }
}

/// Reads the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Config, CliError> {
    let mut config = defaults(args);
    let mut each = EngineConfig::default();
    let mut repeat_given = None;
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
    // An optional word after a flag: the next one, unless it is a flag.
    let optional = |i: &mut usize| -> Option<String> {
        let word = args.get(*i + 1).filter(|w| !w.starts_with('-'))?;
        *i += 1;
        Some(word.clone())
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
                    return Err(CliError::Missing("cmd= (or conf=) in -engine"));
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
                let value = single(&mut i, "-tournament round-robin|gauntlet|knockout")?;
                config.tournament = Tournament::parse(&value).ok_or_else(|| bad("-tournament", &value))?;
            }
            "seeds" => config.seeds = number("-seeds", &single(&mut i, "-seeds N")?)?,
            "games" => config.games = number("-games", &single(&mut i, "-games N")?)?,
            "rounds" => config.rounds = number("-rounds", &single(&mut i, "-rounds N")?)?,
            "repeat" => {
                repeat_given = Some(match optional(&mut i) {
                    Some(n) => Some(positive::<usize>("-repeat", &n)?),
                    None => None,
                })
            }
            "noswap" => config.noswap = true,
            "reverse" => config.reverse = true,
            "wait" => config.wait = Duration::from_millis(number("-wait", &single(&mut i, "-wait MS")?)?),
            "recover" => config.recover = true,
            "force-concurrency" => config.force_concurrency = true,
            "concurrency" => config.concurrency = number("-concurrency", &single(&mut i, "-concurrency N")?)?,
            "use-affinity" => config.affinity = Some(affinity(optional(&mut i).as_deref())?),
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
            "autosaveinterval" => {
                config.autosave = number("-autosaveinterval", &single(&mut i, "-autosaveinterval N")?)?
            }
            "config" => config_flag(&mut config, &values(&mut i))?,
            "pgnout" => {
                let mut pairs = vec![pgn_out_first(&single(&mut i, "-pgnout FILE")?)];
                pairs.extend(values(&mut i));
                let pgn = pgn_out(&pairs)?;
                (config.pgn_out, config.pgn_min, config.pgn_extras) =
                    (Some(pgn.path), pgn.minimal, pgn.extras);
            }
            "epdout" => {
                let mut pairs = vec![pgn_out_first(&single(&mut i, "-epdout FILE")?)];
                pairs.extend(values(&mut i));
                config.epd_out = Some(epd_out(&pairs)?);
            }
            "output" => config.output = output_format(&values(&mut i))?,
            "report" => config.report_penta = report(&values(&mut i))?,
            "log" => config.log = Some(PathBuf::from(single(&mut i, "-log FILE")?)),
            "debug" => config.debug = true,
            "pair" => config.pair = Some(positive("-pair", &single(&mut i, "-pair K")?)?),
            "results" => config.results = Some(PathBuf::from(single(&mut i, "-results FILE")?)),
            "schedule" => config.schedule_only = true,
            "openings" => (config.openings, config.opening_policy) = openings(&values(&mut i))?,
            "sprt" => config.sprt = Some(sprt(&values(&mut i))?),
            "draw" => config.adjudication.draw = Some(draw_rule(&values(&mut i))?),
            "resign" => config.adjudication.resign = Some(resign_rule(&values(&mut i))?),
            "adjudicate" => match single(&mut i, "-adjudicate race")?.as_str() {
                "race" => config.adjudication.race = true,
                other => return Err(bad("-adjudicate", other)),
            },
            other => {
                if let Some((_, why)) = CHESS_ONLY.iter().find(|(name, _)| *name == other) {
                    return Err(CliError::NotForTheseGames { flag: args[i].clone(), why });
                }
                return Err(CliError::UnknownFlag(args[i].clone()));
            }
        }
        i += 1;
    }
    config.repeat = match repeat_given {
        None => 1,
        Some(None) => config.variant.players(),
        Some(Some(n)) => n,
    };
    finish_engines(&mut config, &each)?;
    check(&config)?;
    Ok(config)
}

/// Checks the match as a whole.
fn check(config: &Config) -> Result<(), CliError> {
    let n = config.engines.len();
    let players = config.variant.players();
    if n < 2 || (players == 4 && n != 4) {
        return Err(CliError::EngineCount(n));
    }
    if config.games == 0 || config.rounds == 0 || config.concurrency == 0 {
        return Err(bad("-games/-rounds/-concurrency", "0"));
    }
    if config.tournament != Tournament::RoundRobin && players != 2 {
        return Err(CliError::Conflict(
            "-tournament gauntlet|knockout: four-player games seat all four engines".into(),
        ));
    }
    if config.tournament == Tournament::Knockout && config.rounds > 1 {
        return Err(CliError::Conflict(
            "-tournament knockout: -rounds cannot be set (an encounter plays -games games, more while tied)"
                .into(),
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
