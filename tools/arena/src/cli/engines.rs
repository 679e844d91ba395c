//! The keys of an `-engine` or `-each` group, as cutechess-cli and
//! fastchess write them; `conf=NAME` from cutechess-cli's `engines.json`;
//! and what each engine takes from `-each`.

use super::values::{bad, millis, positive, seconds};
use super::CliError;
use crate::config::{Config, EngineConfig, OpeningFormat, OpeningSource, Restart};
use crate::engine::Protocol;
use crate::setup::{GameVariant, Limit};
use std::path::{Path, PathBuf};

/// cutechess-cli's engine configuration file, read from the working
/// directory by `conf=NAME`.
pub const ENGINES_JSON: &str = "engines.json";

/// The most of `engines.json` that is read.
const ENGINES_JSON_BYTES: u64 = 4 << 20;

/// Applies one `key=value` of an engine group.
pub(super) fn engine_setting(
    config: &mut EngineConfig,
    flag: &'static str,
    key: &str,
    value: &str,
) -> Result<(), CliError> {
    match key {
        "cmd" => config.spec.command = PathBuf::from(value),
        "conf" => configured(config, Path::new(ENGINES_JSON), value)?,
        "proto" => set_protocol(config, flag, value)?,
        "name" => config.spec.name = value.to_string(),
        "arg" => config.spec.args.push(value.to_string()),
        // fastchess: several arguments in one value.
        "args" => config.spec.args.extend(value.split_whitespace().map(String::from)),
        "dir" => config.spec.dir = Some(PathBuf::from(value)),
        "stderr" => config.spec.stderr = Some(PathBuf::from(value)),
        "initstr" => config.spec.init.push(value.to_string()),
        "restart" => config.restart = Some(Restart::parse(value).ok_or_else(|| bad("restart", value))?),
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
        // fastchess calls a depth limit `plies`.
        "depth" | "plies" => config.limit = Some(Limit::Depth(positive(key, value)?)),
        "timemargin" => config.margin = Some(millis("timemargin", value)?),
        "handshake" => config.spec.handshake = Some(seconds("handshake", value)?),
        "book" | "bookdepth" => {
            return Err(CliError::NotForTheseGames {
                flag: format!("{flag} {key}="),
                why: "arena reads no Polyglot opening books (a chess format); give openings with -openings",
            })
        }
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => config.spec.options.push((name.to_string(), value.to_string())),
            _ => return Err(CliError::UnknownKey { flag, key: key.to_string() }),
        },
    }
    Ok(())
}

fn set_protocol(config: &mut EngineConfig, flag: &str, value: &str) -> Result<(), CliError> {
    config.spec.protocol = Protocol::parse(value).ok_or_else(|| {
        CliError::Conflict(format!(
            "{flag}: proto={value}: arena speaks uci (Tabula's UCI-style protocol) and qtp \
             (the Quoridor Text Protocol)"
        ))
    })?;
    config.protocol_given = true;
    Ok(())
}

/// `conf=NAME`: the engine named NAME in `file` (cutechess-cli's layout: an
/// array of objects with `name`, `command`, `protocol` and optionally
/// `workingDirectory`, `stderrFile`, `initStrings`, `restart` and `options`
/// as `{"name": ..., "value": ...}`; other keys are cutechess's own and
/// left alone). Keys after `conf=` in the same group override it.
fn configured(config: &mut EngineConfig, file: &Path, name: &str) -> Result<(), CliError> {
    let unreadable = |why: String| CliError::Conflict(format!("conf={name}: {}: {why}", file.display()));
    let text = read_bounded(file).map_err(unreadable)?;
    let all: serde_json::Value = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let list = all.as_array().ok_or_else(|| unreadable("not an array of engines".into()))?;
    let entry = list
        .iter()
        .find(|e| e.get("name").and_then(|n| n.as_str()) == Some(name))
        .ok_or_else(|| unreadable(format!("no engine named '{}'", tabula::quote::quoted(name))))?;
    let text_of = |key: &str| entry.get(key).and_then(|v| v.as_str()).filter(|s| !s.is_empty());
    let command = text_of("command").ok_or_else(|| unreadable(format!("engine '{name}' has no command")))?;
    let mut words = split_command(command).into_iter();
    config.spec.command = PathBuf::from(words.next().unwrap_or_default());
    config.spec.args.extend(words);
    config.spec.name = name.to_string();
    if let Some(protocol) = text_of("protocol") {
        set_protocol(config, "conf", protocol)?;
    }
    if let Some(dir) = text_of("workingDirectory") {
        config.spec.dir = Some(PathBuf::from(dir));
    }
    if let Some(path) = text_of("stderrFile") {
        config.spec.stderr = Some(PathBuf::from(path));
    }
    if let Some(restart) = text_of("restart") {
        config.restart = Some(Restart::parse(restart).ok_or_else(|| bad("restart", restart))?);
    }
    for init in entry.get("initStrings").and_then(|v| v.as_array()).into_iter().flatten() {
        config.spec.init.extend(init.as_str().map(String::from));
    }
    for option in entry.get("options").and_then(|v| v.as_array()).into_iter().flatten() {
        let (Some(key), Some(value)) = (option.get("name").and_then(|n| n.as_str()), option.get("value"))
        else {
            return Err(unreadable(format!("engine '{name}': an option without name or value")));
        };
        let value = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        config.spec.options.push((key.to_string(), value));
    }
    Ok(())
}

/// A file of at most [`ENGINES_JSON_BYTES`].
fn read_bounded(file: &Path) -> Result<String, String> {
    use std::io::Read;
    let mut text = String::new();
    let opened = std::fs::File::open(file).map_err(|e| e.to_string())?;
    opened.take(ENGINES_JSON_BYTES + 1).read_to_string(&mut text).map_err(|e| e.to_string())?;
    if text.len() as u64 > ENGINES_JSON_BYTES {
        return Err(format!("larger than {} MiB", ENGINES_JSON_BYTES >> 20));
    }
    Ok(text)
}

/// A command line split into words as a shell would for plain words and
/// double-quoted ones (`"./my engine" --uci`).
fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Fills each engine's settings from `-each` (an engine's own come first)
/// and checks them.
pub(super) fn finish_engines(config: &mut Config, each: &EngineConfig) -> Result<(), CliError> {
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
        let mut init = each.spec.init.clone();
        init.append(&mut engine.spec.init);
        engine.spec.init = init;
        engine.limit = engine.limit.clone().or_else(|| each.limit.clone());
        engine.margin = engine.margin.or(each.margin);
        engine.infinite = engine.infinite.or(each.infinite);
        engine.restart = engine.restart.or(each.restart);
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
        if engine.spec.stderr.is_none() {
            engine.spec.stderr = each.spec.stderr.clone();
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_a_shell_would() {
        assert_eq!(split_command("./engine --uci"), ["./engine", "--uci"]);
        assert_eq!(split_command("\"./my engine\"  -x \"\""), ["./my engine", "-x", ""]);
    }
}
