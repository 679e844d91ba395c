//! Requests to the real `tabula-board` that it must refuse or bound: pages
//! of other sites (cross-site requests, DNS rebinding), a person acting for
//! an engine's seat, a move of megabytes, and pages that stop reading their
//! event stream.

use crate::common::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A form POST from another site's page, as a browser sends it.
fn cross_site_post(board: &Board, path: &str, form: &str, origin: &str) -> Answer {
    board.request(
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nContent-Type: text/plain",
            board.address
        ),
        form,
    )
}

#[test]
fn pages_of_other_sites_are_refused() {
    let board = Board::start(&[]);
    let before = board.state();
    let seat = cross_site_post(&board, "/seat", "index=1&seat1=engine", "http://evil.example");
    assert_eq!(seat.status, 403, "{seat:?}");
    assert!(seat.body.contains("another origin"), "{seat:?}");
    let text = "text=quarto 3x3 level=1 board=.../.../... hand=- turn=1";
    let load = cross_site_post(&board, "/load", text, "http://evil.example");
    assert_eq!(load.status, 403, "{load:?}");
    let fetch_site = board.request(
        &format!("POST /new HTTP/1.1\r\nHost: {}\r\nSec-Fetch-Site: cross-site", board.address),
        "game=quarto",
    );
    assert_eq!(fetch_site.status, 403, "{fetch_site:?}");
    // DNS rebinding: the attacker's name now points at the board.
    let rebound = board.request(&format!("GET /state HTTP/1.1\r\nHost: attacker.example:{}", board.port), "");
    assert_eq!(rebound.status, 403, "{rebound:?}");
    assert!(rebound.body.contains("is not this board"), "{rebound:?}");
    let no_port = board.request("GET /state HTTP/1.1\r\nHost: attacker.example", "");
    assert_eq!(no_port.status, 403);
    assert_eq!(board.state(), before, "nothing changed");
    // The board's own page, under either name, is obeyed.
    let own = board.post("/seat", "index=2&seat2=human");
    assert_eq!(own.status, 200, "{own:?}");
    let localhost = board.request(&format!("GET /state HTTP/1.1\r\nHost: localhost:{}", board.port), "");
    assert_eq!(localhost.status, 200);
}

/// An engine that never answers sits in P1: nobody moves or resigns for it.
#[test]
fn a_person_cannot_move_or_resign_for_an_engine() {
    let dir = TempDir::new("seats");
    let log = dir.file("engine.log");
    let engine = write_engine(&dir, &log, ":");
    let board = Board::start(&["--engine", &engine]);
    let started = board.post("/new", "width=5&height=5&walls=3&seat1=engine&movetime1=60000");
    assert_eq!(started.status, 200, "{started:?}");
    let moved = board.post("/move", "move=c2");
    assert_eq!(moved.status, 422, "{moved:?}");
    assert!(moved.body.contains("P1 is played by the engine"), "{moved:?}");
    let resigned = board.post("/resign", "");
    assert_eq!(resigned.status, 422, "{resigned:?}");
    let state = board.state();
    assert!(state.contains(r#""moves":[]"#) && state.contains(r#""result":null"#), "{state}");
}

/// A move of 3 MB: the refusal and the page's notice quote its start only,
/// so that no update carries it to every page.
#[test]
fn a_huge_move_is_quoted_short() {
    let board = Board::start(&[]);
    let huge = "x".repeat(3 << 20);
    let refused = board.post("/move", &format!("move={huge}"));
    assert_eq!(refused.status, 422);
    assert!(refused.body.len() < 400 && refused.body.contains("xxx..."), "{} bytes", refused.body.len());
    let state = board.state();
    assert!(state.len() < 20_000, "the view holds {} bytes", state.len());
    assert!(state.contains(r#"is not a move"#), "the notice is kept, short: {state}");
}

/// Sixteen pages open the event stream and never read it, while the game
/// changes 5000 times: the board's memory stays flat, and the pages are
/// dropped once an event has waited 5 s for them.
#[test]
fn pages_that_stop_reading_are_dropped_and_cost_nothing() {
    let board = Board::start(&[]);
    // 15x15: a view of a few kB, so that each stream fills its socket.
    assert_eq!(board.post("/new", "width=15&height=15&walls=10").status, 200);
    let mut idle: Vec<TcpStream> = (0..16)
        .map(|_| {
            let mut stream = TcpStream::connect(&board.address).expect("connect");
            write!(stream, "GET /events HTTP/1.1\r\nHost: {}\r\n\r\n", board.address).expect("ask");
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let before = resident_kib(board.pid());
    for _ in 0..5000 {
        // Each refusal is a change every page hears of (its notice).
        assert_eq!(board.post("/undo", "").status, 422);
    }
    let after = resident_kib(board.pid());
    assert!(after < before + 30 * 1024, "the board grew from {before} KiB to {after} KiB");
    // A page that reads again in time is served on; these read nothing for
    // longer than the board waits (5 s), so their streams are closed:
    // reading what they hold reaches the end.
    std::thread::sleep(Duration::from_secs(8));
    let deadline = Instant::now() + Duration::from_secs(20);
    for stream in &mut idle {
        stream.set_read_timeout(Some(Duration::from_secs(1))).expect("a timeout");
        let mut buffer = vec![0; 1 << 16];
        let mut total = 0;
        loop {
            match stream.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    total += n;
                    eprintln!("read {total}");
                }
                Err(_) => assert!(Instant::now() < deadline, "a page that stopped reading is still served"),
            }
        }
    }
    assert_eq!(board.get("/state").status, 200, "the board still answers");
}

/// A board nobody connects to for longer than a connection may idle (10 s)
/// still answers: the listener's timeout once ended tiny_http's accepting.
#[test]
fn a_board_left_alone_still_answers() {
    let board = Board::start(&[]);
    std::thread::sleep(std::time::Duration::from_secs(12));
    assert_eq!(board.get("/state").status, 200);
}
