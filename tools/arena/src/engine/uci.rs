//! The UCI-style side of an engine: the `uci` handshake and the options
//! it declares, `isready`, `setoption` within the declared range, and
//! `bestmove` with what the `info` lines before it said.

use super::process::{EngineError, EngineProcess};
use super::spec::{DeclaredOption, SearchReport};
use std::time::{Duration, Instant};

/// `uci` answered by `uciok` before `deadline`; the options declared on
/// the way are kept.
pub(super) fn handshake(engine: &mut EngineProcess, deadline: Instant) -> Result<(), EngineError> {
    engine.send("uci")?;
    loop {
        let line = engine.read_line(deadline, "uciok")?;
        if line == "uciok" {
            break;
        }
        if let Some(option) = parse_option_line(&line) {
            engine.declared.push(option);
        }
    }
    Ok(())
}

/// `isready` answered by `readyok` in time; earlier lines are dropped.
pub(super) fn ready(engine: &mut EngineProcess, timeout: Duration) -> Result<(), EngineError> {
    engine.send("isready")?;
    let deadline = Instant::now() + timeout;
    while engine.read_line(deadline, "readyok")? != "readyok" {}
    Ok(())
}

impl EngineProcess {
    /// Sends an option if the engine declared it, checking its type and range.
    /// Returns why it was not sent, if it was not.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Option<String>, EngineError> {
        let Some(declared) = self.declared.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
            return Ok(Some(format!("{} has no option {name}", self.name)));
        };
        let refusal = match declared.kind.as_str() {
            "spin" => match value.parse::<i64>() {
                Ok(n) if declared.min.is_none_or(|m| n >= m) && declared.max.is_none_or(|m| n <= m) => None,
                _ => Some(format!("{}: {name}={value} is outside its range", self.name)),
            },
            "check" if value != "true" && value != "false" => {
                Some(format!("{}: {name}={value} is not true or false", self.name))
            }
            "combo" if !declared.choices.iter().any(|c| c.eq_ignore_ascii_case(value)) => {
                Some(format!("{}: {name}={value} is not one of {}", self.name, declared.choices.join(", ")))
            }
            _ => None,
        };
        if refusal.is_none() {
            let declared_name = declared.name.clone();
            self.send(&format!("setoption name {declared_name} value {value}"))?;
        }
        Ok(refusal)
    }

    /// Waits for `bestmove` until `deadline`; returns the move text and what
    /// the last `info` line with a score said (its score and depth), which
    /// `report` keeps across calls.
    pub fn wait_bestmove_scored(
        &mut self,
        deadline: Instant,
        report: &mut SearchReport,
    ) -> Result<(String, SearchReport), EngineError> {
        loop {
            let line = self.read_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return Ok((words.next().unwrap_or("").to_string(), std::mem::take(report)))
                }
                Some("info") => {
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    let after = |key: &str| {
                        let at = tokens.iter().position(|&t| t == key)?;
                        tokens.get(at + 1).copied()
                    };
                    if let Some(i) = tokens.iter().position(|&t| t == "score") {
                        report.score = tokens.get(i + 1..i + 3).map(|s| s.join(" "));
                        report.depth = after("depth").and_then(|d| d.parse().ok());
                    }
                    let stats = &mut report.stats;
                    stats.nodes = after("nodes").and_then(|n| n.parse().ok()).or(stats.nodes);
                    stats.seldepth = after("seldepth").and_then(|n| n.parse().ok()).or(stats.seldepth);
                    stats.nps = after("nps").and_then(|n| n.parse().ok()).or(stats.nps);
                }
                _ => {}
            }
        }
    }
}

/// Reads `option name <id> type <t> [default <x>] [min <n>] [max <n>] [var <v>]...`.
pub fn parse_option_line(line: &str) -> Option<DeclaredOption> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let type_at = words.iter().position(|&w| w == "type")?;
    let name = words[2..type_at].join(" ");
    let kind = words.get(type_at + 1)?.to_string();
    let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1));
    let choices = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
    Some(DeclaredOption {
        name,
        kind,
        min: after("min").and_then(|v| v.parse().ok()),
        max: after("max").and_then(|v| v.parse().ok()),
        choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_read() {
        let o = parse_option_line("option name Hash type spin default 16 min 1 max 16384").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str(), o.min, o.max), ("Hash", "spin", Some(1), Some(16384)));
        let c = parse_option_line("option name Game type combo default quoridor var quoridor var quarto")
            .unwrap();
        assert_eq!(c.choices, ["quoridor", "quarto"]);
        assert!(parse_option_line("id name x").is_none());
    }
}
