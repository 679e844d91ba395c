//! Game review through the real `tabula-board` and `tabula`: every position
//! valued (a finished game's last by its result), a move that threw a
//! proven win away marked, the review saved in the record and read back by
//! Load, cancelled on request, paused while nobody watches; rated games and
//! four players refused, and every bound of the form.

use crate::common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// 3x3 Quarto, lines only: P2 could win at once with piece 2 on c1 but
/// places it on a2 and gives 3, which wins on c1 for P1.
const BLUNDER_GAME: &str = "[Game \"1\"]\n[Variant \"quarto 3x3 level=1\"]\n\n0 a11 b12 a23 c1\n1-0\n";

/// The view's `review` object as text (`null` without one).
fn review(state: &str) -> &str {
    let from = state.find(r#""review":"#).map_or(state.len(), |i| i + r#""review":"#.len());
    &state[from..]
}

/// Whether the review is over with every position valued.
fn finished(state: &str) -> bool {
    let r = review(state);
    let number = |key: &str| {
        let at = r.find(&format!(r#""{key}":"#))? + key.len() + 3;
        r[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse::<u64>().ok()
    };
    r.contains(r#""running":false"#) && number("total").is_some() && number("total") == number("done")
}

#[test]
fn a_review_values_every_position_marks_the_thrown_win_and_survives_save_and_load() {
    let board = Board::start(&[]);
    let _page = Watcher::open(&board);
    assert_eq!(board.post("/load", &format!("text={}", encoded(BLUNDER_GAME))).status, 200);
    assert_eq!(board.post("/review", "nodes=5000&solve=2000").status, 200);
    let state = board.wait_for("the review to finish", LIMIT, finished);
    let r = review(&state);
    assert!(r.contains(r#""total":6,"done":6"#), "{r}");
    assert!(
        r.contains(r#"{"ply":4,"kind":"blunder","loss":2000,"proven":true,"text":"a23 turned a proven win into a loss"}"#),
        "{r}"
    );
    // The last position is P1's win: proven, at the top of the graph.
    assert!(r.contains(r#"{"ply":5,"value":1000,"label":"P1 wins (proven)","proven":true"#), "{r}");
    let record = board.get("/record").body;
    assert!(
        record.contains("1. 0 {") && record.contains("2... a23 {") && record.contains("3. c1"),
        "{record}"
    );
    assert!(record.contains("{review nodes=5000 solve=2000; proven "), "{record}");
    // A new game forgets the review; loading the record brings it back.
    assert_eq!(board.post("/new", FIVE).status, 200);
    assert!(review(&board.state()).starts_with("null"));
    assert_eq!(board.post("/load", &format!("text={}", encoded(&record))).status, 200);
    let loaded = board.state();
    let back = review(&loaded);
    assert!(finished(&loaded), "{back}");
    assert!(
        back.contains(r#""effort":"nodes=5000""#) && back.contains(r#""ply":4,"kind":"blunder""#),
        "{back}"
    );
    // Stepping through the loaded game keeps the review; a new move ends it.
    assert_eq!(board.post("/redo", "").status, 200);
    assert!(finished(&board.state()));
    assert_eq!(board.post("/undo", "").status, 200);
    assert_eq!(board.post("/move", "move=7").status, 200);
    assert!(review(&board.state()).starts_with("null"), "another game's line");
}

#[test]
fn a_review_is_cancelled_on_request_and_waits_while_nobody_watches() {
    let board = Board::start(&[]);
    assert_eq!(board.post("/new", "width=9&height=9&walls=10").status, 200);
    for mv in ["e2", "e8", "e3", "e7"] {
        assert_eq!(board.post("/move", &format!("move={mv}")).status, 200, "{mv}");
    }
    assert_eq!(board.post("/review", "movetime=2000").status, 200);
    std::thread::sleep(Duration::from_millis(700));
    assert!(descendants(board.pid()).is_empty(), "a review engine runs for nobody");
    assert!(review(&board.state()).contains(r#""done":0"#));
    let page = Watcher::open(&board);
    wait_until("the review engine to start", LIMIT, || descendants(board.pid()).len() == 1);
    assert_eq!(board.post("/review", "cancel=1").status, 200);
    let state = board.state();
    assert!(review(&state).contains(r#""running":false,"cancelled":true"#), "{}", review(&state));
    wait_until("the engine to quit", LIMIT, || descendants(board.pid()).is_empty());
    assert_eq!(board.post("/review", "cancel=1").status, 422, "nothing to cancel");
    drop(page);
}

#[test]
fn what_a_page_may_ask_of_a_review_is_bounded() {
    let board = Board::start(&[]);
    assert_eq!(board.post("/new", FIVE).status, 200);
    for form in [
        "nodes=999",
        "nodes=100000001",
        "movetime=9",
        "movetime=60001",
        "nodes=5000&movetime=100",
        "solve=60001",
        "nodes=x",
    ] {
        let answer = board.post("/review", form);
        assert_eq!(answer.status, 422, "{form}: {answer:?}");
        assert!(answer.body.starts_with("review: "), "{form}: {}", answer.body);
    }
    let small = board.post("/review", "nodes=5000&solve=500");
    assert_eq!(small.status, 200, "5x5 has proofs: {small:?}");
    assert_eq!(board.post("/new", "width=9&height=9&walls=10").status, 200);
    let big = board.post("/review", "nodes=5000&solve=500");
    assert!(big.status == 422 && big.body.contains("64 squares"), "{big:?}");
    assert_eq!(board.post("/new", "width=5&height=5&walls=3&players=4").status, 200);
    let four = board.post("/review", "nodes=5000");
    assert!(four.status == 422 && four.body.contains("two-player"), "{four:?}");
    // A rated game: no review, analysis or hint until it ends.
    assert_eq!(board.post("/new", "width=5&height=5&walls=3&rated=true").status, 200);
    for (path, form) in [("/review", "nodes=5000"), ("/analysis", "lines=1")] {
        let answer = board.post(path, form);
        assert!(answer.status == 422 && answer.body.contains("rated"), "{path}: {answer:?}");
    }
    assert_eq!(board.post("/resign", "").status, 200);
    assert_eq!(board.post("/review", "nodes=5000").status, 200, "after the game");
    // From another site's page: refused before anything starts.
    let foreign = board.request(
        &format!(
            "POST /review HTTP/1.1\r\nHost: {}\r\nOrigin: http://example.com\r\n\
             Content-Type: application/x-www-form-urlencoded",
            board.address
        ),
        "nodes=5000",
    );
    assert_eq!(foreign.status, 403, "{foreign:?}");
}
