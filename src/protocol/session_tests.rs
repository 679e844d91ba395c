//! Session behaviour that the binary cannot show reliably: when `readyok`
//! waits for the worker.

use super::*;
use crossbeam_channel::{unbounded, Receiver};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

/// Output the test can read while the session writes it.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock()).into_owned()
    }
}

const WAIT: Duration = Duration::from_secs(10);

/// A session writing to captured output, and the worker's reports to it.
fn session() -> (Session<Captured>, Captured, Receiver<EngineEvent>) {
    let (events, reports) = unbounded();
    let out = Captured::default();
    (Session::new(out.clone(), events), out, reports)
}

#[test]
fn isready_waits_for_a_new_table_when_no_search_runs() {
    let (mut session, out, reports) = session();
    session.handle_line("setoption name Hash value 64");
    session.handle_line("ucinewgame");
    session.handle_line("isready");
    // Only the worker, after the new table and the clearing, says ready.
    assert!(!out.text().contains("readyok"), "{}", out.text());
    let event = reports.recv_timeout(WAIT).expect("the worker answers");
    assert_eq!(event, EngineEvent::Ready);
    session.handle_event(event);
    assert_eq!(out.text(), "readyok\n");
}

#[test]
fn isready_during_a_search_is_answered_at_once() {
    let (mut session, out, reports) = session();
    session.handle_line("go infinite");
    session.handle_line("isready");
    assert!(out.text().ends_with("readyok\n"), "{}", out.text());
    session.handle_line("stop");
    while session.is_busy() {
        session.handle_event(reports.recv_timeout(WAIT).expect("the search answers"));
    }
    assert!(out.text().lines().any(|l| l.starts_with("bestmove ")), "{}", out.text());
}
