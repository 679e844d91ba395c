//! Analysis mode through the real `tabula-board` and `tabula`: candidates
//! with scores appear for the position asked for and follow the game, one
//! engine serves every page and quits when analysis is off or nobody
//! watches, and what a page may ask is bounded.

use crate::common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(30);

/// The view's `analysis` object as text (`null` when off).
fn analysis(state: &str) -> &str {
    let from = state.find(r#""analysis":"#).map_or(state.len(), |i| i + r#""analysis":"#.len());
    let to = state[from..].find(r#","notice":"#).map_or(state.len(), |i| from + i);
    &state[from..to]
}

/// The string values of `key` in `text`, in order.
fn values<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let pattern = format!(r#""{key}":""#);
    text.match_indices(&pattern)
        .filter_map(|(i, _)| {
            let rest = &text[i + pattern.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// The legal moves of a view.
fn legal(state: &str) -> Vec<String> {
    let from = state.find(r#""legal":["#).expect("legal moves") + r#""legal":["#.len();
    let to = from + state[from..].find(']').expect("the end of the list");
    state[from..to].split(',').map(|m| m.trim_matches('"').to_string()).collect()
}

/// Waits until the analysis shows `lines` candidates of ply `ply`, each with
/// a score, and returns their moves.
fn candidates(board: &Board, ply: usize, lines: usize) -> Vec<String> {
    let state = board.wait_for(&format!("{lines} candidates at ply {ply}"), LIMIT, |s| {
        let a = analysis(s);
        a.contains(&format!(r#""ply":{ply},"#)) && values(a, "score").len() == lines
    });
    values(analysis(&state), "move").into_iter().map(String::from).collect()
}

#[test]
fn candidates_appear_with_scores_and_follow_the_position() {
    let board = Board::start(&[]);
    let _page = Watcher::open(&board);
    assert_eq!(board.post("/new", "width=9&height=9&walls=10").status, 200);
    let start_legal = legal(&board.state());
    for mv in ["e2", "e8", "e3"] {
        assert_eq!(board.post("/move", &format!("move={mv}")).status, 200, "{mv}");
    }
    assert_eq!(board.post("/analysis", "lines=3").status, 200);
    let moves = candidates(&board, 3, 3);
    let now_legal = legal(&board.state());
    assert!(moves.iter().all(|m| now_legal.contains(m)), "{moves:?} not all legal");
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
    // A position stepped back to: the start, P1 to move.
    assert_eq!(board.post("/analysis", "lines=2&ply=0").status, 200);
    let at_start = candidates(&board, 0, 2);
    assert!(at_start.iter().all(|m| start_legal.contains(m)), "{at_start:?}");
    // Following the game: a move played moves the analysis on.
    assert_eq!(board.post("/analysis", "lines=1").status, 200);
    candidates(&board, 3, 1);
    assert_eq!(board.post("/move", "move=e7").status, 200);
    let after = candidates(&board, 4, 1);
    assert!(legal(&board.state()).contains(&after[0]), "{after:?}");
}

#[test]
fn one_engine_serves_the_pages_and_quits_when_off_or_unwatched() {
    let board = Board::start(&[]);
    assert_eq!(board.post("/new", FIVE).status, 200);
    // Nobody watches yet: no engine runs.
    assert_eq!(board.post("/analysis", "lines=2").status, 200);
    std::thread::sleep(Duration::from_millis(700));
    assert!(descendants(board.pid()).is_empty(), "an engine runs for nobody");
    let pages = [Watcher::open(&board), Watcher::open(&board)];
    candidates(&board, 0, 2);
    assert_eq!(descendants(board.pid()).len(), 1, "one analysis engine for both pages");
    drop(pages);
    wait_until("the engine to quit when no page watches", LIMIT, || descendants(board.pid()).is_empty());
    let _page = Watcher::open(&board);
    candidates(&board, 0, 2);
    assert_eq!(board.post("/analysis", "off=1").status, 200);
    wait_until("the engine to quit when analysis is off", LIMIT, || descendants(board.pid()).is_empty());
    assert!(analysis(&board.state()).starts_with("null"));
}

#[test]
fn what_a_page_may_ask_is_bounded() {
    let board = Board::start(&[]);
    assert_eq!(board.post("/new", FIVE).status, 200);
    for form in ["lines=0", "lines=9", "lines=x", "ply=1", "ply=-1", "lines=3&ply=99"] {
        let answer = board.post("/analysis", form);
        assert_eq!(answer.status, 422, "{form}: {answer:?}");
        assert!(answer.body.starts_with("analysis: "), "{form}: {}", answer.body);
    }
    // From another site's page: refused before anything starts.
    let foreign = board.request(
        &format!(
            "POST /analysis HTTP/1.1\r\nHost: {}\r\nOrigin: http://example.com\r\n\
             Content-Type: application/x-www-form-urlencoded",
            board.address
        ),
        "lines=3",
    );
    assert_eq!(foreign.status, 403, "{foreign:?}");
    assert!(analysis(&board.state()).starts_with("null"));
}

#[test]
fn a_small_quarto_position_shows_the_solvers_value_with_its_candidates() {
    let board = Board::start(&[]);
    let _page = Watcher::open(&board);
    assert_eq!(board.post("/new", "game=quarto&board=3x3&level=1").status, 200);
    for mv in ["0", "a11", "b12"] {
        assert_eq!(board.post("/move", &format!("move={mv}")).status, 200, "{mv}");
    }
    assert_eq!(board.post("/analysis", "lines=1").status, 200);
    // P2 holds piece 2, which wins on c1: the solver says so, and names it.
    let state = board.wait_for("the solver's value", LIMIT, |s| analysis(s).contains(r#""proven":{"#));
    let a = analysis(&state);
    assert!(a.contains(r#""proven":{"winner":"first","plies":1,"best":"c1"}"#), "{a}");
    let moves = candidates(&board, 3, 1);
    assert_eq!(moves[0], "c1", "the engine's best is the winning placement");
}
