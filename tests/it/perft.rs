//! Runs every perft data file in `tests/data/*.perft` through the generic
//! perft of the library. The first word of a `position` line names the game.

use tabula::games::quarto::Quarto;
use tabula::games::quoridor::Quoridor;
use tabula::perft::perft;

struct Case {
    line: usize,
    position: String,
    depth: u32,
    expected: u64,
}

fn read_cases(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    let mut position = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(text) = line.strip_prefix("position ") {
            position = Some(text.to_string());
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let expected = parts.next().and_then(|c| c.parse().ok());
            let (Some(depth), Some(expected), Some(position)) = (depth, expected, position.clone()) else {
                panic!("{path}:{}: malformed perft line", number + 1);
            };
            cases.push(Case { line: number + 1, position, depth, expected });
        } else {
            panic!("{path}:{}: unknown line '{line}'", number + 1);
        }
    }
    assert!(!cases.is_empty(), "{path} holds no cases");
    cases
}

/// Perft of a position text, built by the game its first word names.
fn perft_of_text(text: &str, depth: u32) -> Result<u64, String> {
    match text.split_whitespace().next() {
        Some("quoridor") => Quoridor::from_text(text).map(|p| perft(&p, depth)).map_err(|e| e.to_string()),
        Some("quarto") => Quarto::from_text(text).map(|p| perft(&p, depth)).map_err(|e| e.to_string()),
        _ => Err("unknown game".to_string()),
    }
}

/// Checks every case of a data file; returns how many there were.
fn check_file(name: &str) -> usize {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let cases = read_cases(&path);
    let mut failures = Vec::new();
    for case in &cases {
        let got = perft_of_text(&case.position, case.depth)
            .unwrap_or_else(|e| panic!("{name}:{}: '{}': {e}", case.line, case.position));
        if got != case.expected {
            failures.push(format!(
                "line {}: {} perft {} = {got}, expected {}",
                case.line, case.position, case.depth, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
    cases.len()
}

#[test]
fn quoridor_perft_matches_data_file() {
    check_file("quoridor.perft");
}

#[test]
fn quarto_perft_matches_data_file() {
    let cases = check_file("quarto.perft");
    assert!(cases >= 60, "only {cases} quarto cases");
}
