//! Runs every perft data file in `tests/data/*.perft` through the generic
//! perft of the library.

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

#[test]
fn quoridor_perft_matches_data_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/quoridor.perft");
    let mut failures = Vec::new();
    for case in read_cases(path) {
        let position =
            Quoridor::from_text(&case.position).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let got = perft(&position, case.depth);
        if got != case.expected {
            failures.push(format!(
                "line {}: {} perft {} = {got}, expected {}",
                case.line, case.position, case.depth, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
