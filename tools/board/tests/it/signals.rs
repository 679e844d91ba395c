//! Ctrl-C and SIGTERM stop the real `tabula-board` with every engine it
//! started, and everything those started.

use crate::common::*;
use std::time::{Duration, Instant};

/// The engine thinks in a `sleep 300` it started, deaf to `quit`: a signal
/// to the board ends the board, the engine and the sleep.
fn a_signal_stops_every_engine(signal: &str, code: i32) {
    let dir = TempDir::new("signal");
    let log = dir.file("engine.log");
    let engine = write_engine(&dir, &log, "sleep 300");
    let mut board = Board::start(&["--engine", &engine]);
    assert_eq!(board.post("/new", &format!("{FIVE}&seat1=engine&movetime1=600000")).status, 200);
    wait_until("the engine to think", Duration::from_secs(20), || {
        logged(&log).iter().any(|l| l.starts_with("go")) && descendants(board.pid()).len() >= 2
    });
    let engines = descendants(board.pid());
    board.signal(signal);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = board.child.try_wait().expect("wait for the board") {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(10) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(30));
    };
    let ended = Instant::now();
    while engines.iter().any(|&pid| running(pid)) && ended.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(30));
    }
    let left: Vec<u32> = engines.iter().copied().filter(|&pid| running(pid)).collect();
    // Whatever the outcome, nothing this test started is left behind.
    for pid in &left {
        let _ = std::process::Command::new("kill").arg("-KILL").arg(pid.to_string()).status();
    }
    assert!(left.is_empty(), "engine processes {left:?} outlived the board ({signal})");
    let status = status.unwrap_or_else(|| panic!("the board outlived {signal}"));
    assert_eq!(status.code(), Some(code), "{signal}");
}

#[test]
fn sigterm_stops_every_engine() {
    a_signal_stops_every_engine("-TERM", 128 + 15);
}

#[test]
fn ctrl_c_stops_every_engine() {
    a_signal_stops_every_engine("-INT", 128 + 2);
}
