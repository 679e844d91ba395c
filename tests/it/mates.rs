//! Mate scores against the exact solver, through the binary: every
//! `score mate` a search reports on the positions of `data/mates.txt` must
//! agree with `go solve` (the same winner, and no quicker than perfect
//! play allows), and iterative deepening never runs out of depths on a
//! score it has not proven.
//!
//! The positions are ones where an earlier build reported mates that the
//! solver refutes: a forced win found in a tree from which the defender's
//! walls had been pruned. `TABULA_UNDER_TEST=PATH` runs the check against
//! another build (an old one fails it).

use crate::common::engine_process::EngineProcess;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(120);

/// One line of `data/mates.txt`: `WxH walls=N nodes=N moves M1 M2 ...`.
struct Case {
    line: String,
    width: u32,
    height: u32,
    walls: u32,
    nodes: u64,
    moves: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/mates.txt");
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (head, moves) = line.split_once(" moves ").unwrap_or((line, ""));
        let mut words = head.split_whitespace();
        let size = words.next().unwrap_or_default();
        let (width, height) = size.split_once('x').unwrap_or_else(|| panic!("size in '{line}'"));
        let field = |name: &str| -> u64 {
            head.split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} in '{line}'"))
        };
        cases.push(Case {
            line: line.to_string(),
            width: width.parse().unwrap_or_else(|_| panic!("width in '{line}'")),
            height: height.parse().unwrap_or_else(|_| panic!("height in '{line}'")),
            walls: field("walls=") as u32,
            nodes: field("nodes="),
            moves: moves.to_string(),
        });
    }
    cases
}

/// The solver's verdict for the side to move: `Some(true)` a win,
/// `Some(false)` a loss, `None` a draw; and the plies of perfect play.
fn solver_verdict(engine: &mut EngineProcess, case: &Case) -> (Option<bool>, u32) {
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    let result = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string solve result: "))
        .unwrap_or_else(|| panic!("no solve result for {}\n{}", case.line, engine.dump()));
    let mut words = result.split_whitespace();
    let winner = words.next().unwrap_or_default();
    let plies: u32 = words
        .next()
        .and_then(|w| w.strip_prefix("plies="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no plies in '{result}'"));
    // `first` is the player to move, `second` the other one.
    let verdict = match winner {
        "draw" => None,
        "first" => Some(true),
        "second" => Some(false),
        other => panic!("unknown winner '{other}' in '{result}'"),
    };
    (verdict, plies)
}

fn engine_under_test() -> EngineProcess {
    match std::env::var("TABULA_UNDER_TEST") {
        Ok(path) => EngineProcess::start_binary(std::path::Path::new(&path)),
        Err(_) => EngineProcess::start(),
    }
}

fn setup(engine: &mut EngineProcess, case: &Case) {
    for line in [
        format!("setoption name BoardWidth value {}", case.width),
        format!("setoption name BoardHeight value {}", case.height),
        format!("setoption name Walls value {}", case.walls),
        "ucinewgame".to_string(),
        format!("position startpos moves {}", case.moves),
    ] {
        engine.send(&line);
    }
}

fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

#[test]
fn every_reported_mate_agrees_with_the_exact_solver() {
    let cases = cases();
    assert!(cases.len() >= 10, "only {} positions", cases.len());
    let mut mates_seen = 0;
    for case in &cases {
        let mut engine = engine_under_test();
        setup(&mut engine, case);
        let (verdict, plies) = solver_verdict(&mut engine, case);
        engine.send(&format!("go nodes {}", case.nodes));
        let lines = engine.read_until("bestmove", LONG);
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(!infos.is_empty(), "no search output for {}\n{}", case.line, engine.dump());
        for info in &infos {
            let Some(mate) = word_after(info, "mate").and_then(|v| v.parse::<i32>().ok()) else { continue };
            mates_seen += 1;
            // A win in M of the mover's own moves takes 2M - 1 plies, a loss
            // after M moves 2M plies: never fewer than perfect play needs.
            let (claims_win, claimed_plies) =
                if mate > 0 { (true, 2 * mate as u32 - 1) } else { (false, 2 * mate.unsigned_abs()) };
            assert_eq!(
                verdict,
                Some(claims_win),
                "{}: the search reports mate {mate}, the solver says {verdict:?} in {plies} plies\n{info}",
                case.line
            );
            assert!(
                claimed_plies >= plies,
                "{}: mate {mate} is quicker than perfect play ({plies} plies)\n{info}",
                case.line
            );
        }
        // Iterative deepening runs out of depths only on a proven mate
        // (before, an unproven one raced it to the last depth in a
        // fraction of its nodes).
        let last = infos[infos.len() - 1];
        let depth: u32 = word_after(last, "depth").and_then(|v| v.parse().ok()).unwrap_or(0);
        assert!(
            depth < 64 || word_after(last, "mate").is_some(),
            "{}: searched to the last depth without a proven mate\n{last}",
            case.line
        );
    }
    assert!(mates_seen > 0, "no position gave a mate score: the check checked nothing");
}
