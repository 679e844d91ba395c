//! Game records in tests: read with the strict PGN reader, replayed through
//! the Tabula library and checked against their tags, and fed to a real
//! `tabula` to see that it accepts them.

use super::{collect, pgn, tabula, text};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tabula::game::Outcome;
use tabula::games::quarto::{Quarto, Rules};
use tabula::games::quoridor::{Quoridor, Variant};
use tabula::games::AnyPosition;

/// One game of a `-pgnout` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
    /// The `;` lines.
    pub comments: Vec<String>,
    /// The `{...}` comments, each with the number of moves before it.
    pub move_comments: Vec<(usize, String)>,
}

impl Record {
    pub fn tag(&self, key: &str) -> &str {
        let found = self.tags.iter().find(|(k, _)| k == key);
        found.map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no [{key}] in {self:?}"))
    }

    /// The number of opening plies from the `; opening plies N; ...` comment (0 without one).
    pub fn opening_plies(&self) -> usize {
        self.comments
            .iter()
            .find_map(|c| c.strip_prefix("; opening plies ")?.split(';').next()?.trim().parse().ok())
            .unwrap_or(0)
    }
}

/// Reads a record file with the strict PGN reader ([`pgn::read_strict`]),
/// so every record a test reads is checked against the PGN standard.
pub fn read_records(path: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let games = pgn::read_strict(&text).unwrap_or_else(|e| panic!("{path} is not strict PGN: {e}\n{text}"));
    games
        .into_iter()
        .map(|g| Record {
            tags: g.tags,
            moves: g.moves,
            result: g.result,
            comments: g.line_comments,
            move_comments: g.move_comments,
        })
        .collect()
}

pub fn quoridor_start(width: usize, height: usize, walls: usize, players: usize) -> AnyPosition {
    let variant = Variant { width, height, walls, players, multi_jump: false };
    AnyPosition::Quoridor(Quoridor::new(&variant).expect("a valid Quoridor variant"))
}

pub fn quarto_start(side: usize) -> AnyPosition {
    AnyPosition::Quarto(Quarto::new(Rules { side, level: 1 }).expect("valid Quarto rules"))
}

/// A record's moves played through the library.
pub struct Replay {
    pub position: AnyPosition,
    pub plies: usize,
    /// The last position occurred for the third time.
    pub threefold: bool,
}

/// Plays `moves` from `start`; every move must be legal and the game must not
/// be over (won, drawn, or a threefold repetition) before the last one.
pub fn replay(start: AnyPosition, moves: &[String]) -> Result<Replay, String> {
    let mut position = start;
    let mut history: Vec<u64> = Vec::new();
    let mut threefold = false;
    for (ply, text) in moves.iter().enumerate() {
        if position.outcome().is_some() || threefold {
            return Err(format!("move {} ({text}) comes after the end of the game", ply + 1));
        }
        let before = position.hash();
        let irreversible = position.play_text(text).map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        if irreversible {
            history.clear();
        } else {
            history.push(before);
        }
        threefold = history.iter().filter(|&&h| h == position.hash()).count() >= 2;
    }
    Ok(Replay { position, plies: moves.len(), threefold })
}

/// The players of a record's variant.
pub fn players_of(record: &Record) -> usize {
    if record.tag("Variant").contains("players=4") {
        4
    } else {
        2
    }
}

/// Replays a record and checks that its Result and Termination agree with
/// where the moves lead; `max_plies` is arena's ply cap. Returns the replay.
pub fn check_record(record: &Record, start: AnyPosition, max_plies: usize) -> Replay {
    let replayed = replay(start, &record.moves).unwrap_or_else(|e| panic!("{e} in {record:?}"));
    assert_eq!(record.tag("Result"), record.result, "Result tag and result line differ: {record:?}");
    assert_eq!(record.tag("Plies"), record.moves.len().to_string(), "{record:?}");
    assert_eq!(record.tag("PlyCount"), record.moves.len().to_string(), "{record:?}");
    if players_of(record) == 2 {
        assert_eq!(
            (record.tag("White"), record.tag("Black")),
            (record.tag("P1"), record.tag("P2")),
            "{record:?}"
        );
    }
    let termination = record.tag("Termination");
    let outcome = replayed.position.outcome();
    let winner = termination
        .strip_prefix('P')
        .and_then(|t| t.strip_suffix(" reaches the goal").or_else(|| t.strip_suffix(" completes a pattern")))
        .map(|n| n.parse::<usize>().expect("a seat number") - 1);
    let players = replayed.position.player_count();
    match winner {
        Some(seat) => {
            assert_eq!(
                outcome,
                Some(Outcome::Win(seat)),
                "the moves do not end in '{termination}': {record:?}"
            );
            let token = match (players, seat) {
                (2, 0) => "1-0".to_string(),
                (2, _) => "0-1".to_string(),
                _ => format!("P{}", seat + 1),
            };
            assert_eq!(record.result, token, "{record:?}");
        }
        None => {
            assert_eq!(record.result, "1/2-1/2", "{record:?}");
            match termination {
                "no piece left" => assert_eq!(outcome, Some(Outcome::Draw), "{record:?}"),
                "threefold repetition" => {
                    assert!(replayed.threefold && outcome.is_none(), "no threefold repetition: {record:?}")
                }
                t if t == format!("ply limit {max_plies} reached") => {
                    assert!(outcome.is_none(), "{record:?}");
                    assert_eq!(record.moves.len() - record.opening_plies(), max_plies, "{record:?}");
                }
                other => panic!("unexpected termination '{other}' in {record:?}"),
            }
        }
    }
    replayed
}

/// Feeds `lines` to a fresh `tabula` and returns its output; end of input
/// makes it quit. Killed and failed after `limit`.
pub fn tabula_session(lines: &[String], limit: Duration) -> Vec<String> {
    let mut child = Command::new(tabula())
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start tabula");
    let output = collect(child.stdout.take().expect("piped stdout"));
    let mut input = child.stdin.take().expect("piped stdin");
    for line in lines {
        writeln!(input, "{line}").expect("write to tabula");
    }
    drop(input);
    let started = Instant::now();
    while child.try_wait().expect("wait for tabula").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tabula did not finish {lines:?} within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    text(output).lines().map(String::from).collect()
}

/// Plays `moves` in the real engine (`position startpos moves ...` after the
/// options) and checks with `d` that it accepts them all and reaches the
/// position the library reached.
pub fn check_with_tabula(options: &[(&str, &str)], moves: &[String], replayed: &Replay) {
    let mut input: Vec<String> =
        options.iter().map(|(k, v)| format!("setoption name {k} value {v}")).collect();
    input.push(format!("position startpos moves {}", moves.join(" ")));
    input.push("d".into());
    input.push("isready".into());
    let output = tabula_session(&input, Duration::from_secs(20));
    let transcript = || format!("input:\n{}\noutput:\n{}", input.join("\n"), output.join("\n"));
    assert!(!output.iter().any(|l| l.contains("error")), "tabula reports an error\n{}", transcript());
    assert!(output.iter().any(|l| l == "readyok"), "no readyok\n{}", transcript());
    let expected = format!("Position: {}", replayed.position.to_text());
    assert!(output.contains(&expected), "tabula's position differs from '{expected}'\n{}", transcript());
    if let Some(Outcome::Win(seat)) = replayed.position.outcome() {
        let result = format!("Result: player {} won", seat + 1);
        assert!(output.contains(&result), "no '{result}'\n{}", transcript());
    }
}
