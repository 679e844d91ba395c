//! A `tabula` process driven over its stdin/stdout, for protocol tests.
//!
//! A reader thread turns stdout into a channel of lines stamped with the time
//! they arrived, so every wait has a timeout and nothing blocks forever. Every
//! line received is also kept in a transcript that failure messages print.
//! Dropping the struct kills the child.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The default wait for an answer that should come at once.
pub const QUICK: Duration = Duration::from_secs(10);

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line read so far, in order (input lines are marked `> `).
    transcript: Vec<String>,
    /// When the line last returned by a read arrived.
    last_arrival: Instant,
}

impl EngineProcess {
    /// Starts the binary cargo built for this test crate.
    pub fn start() -> EngineProcess {
        EngineProcess::start_binary(Path::new(env!("CARGO_BIN_EXE_tabula")))
    }

    pub fn start_binary(path: &Path) -> EngineProcess {
        EngineProcess::start_with_args(path, &[])
    }

    /// Starts `path` with command-line `args`.
    pub fn start_with_args(path: &Path, args: &[&str]) -> EngineProcess {
        let mut child = Command::new(path)
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let lines = tabula::protocol::lines::spawn_line_reader(stdout, "engine stdout".into(), |line| {
            (Instant::now(), line)
        })
        .unwrap_or_else(|e| panic!("cannot start the reader thread: {e}"));
        EngineProcess { child, stdin, lines, transcript: Vec::new(), last_arrival: Instant::now() }
    }

    /// Writes one line and flushes it.
    pub fn send(&mut self, line: &str) {
        self.note_input(line);
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes);
    }

    /// Writes raw bytes (no newline is added) and flushes them.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.note_input(&format!("<{} raw bytes>", bytes.len()));
        self.write_raw(bytes);
    }

    fn note_input(&mut self, line: &str) {
        let shown: String = line.chars().take(200).collect();
        self.transcript.push(format!("> {shown}"));
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .unwrap_or_else(|e| panic!("write to engine failed: {e}\n{}", self.dump()));
    }

    /// The next line, or `None` when nothing arrives within `timeout` (or
    /// the engine closed its output).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.last_arrival = at;
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line satisfies `accept`; returns it, or on timeout
    /// every line read meanwhile.
    pub fn expect_line(
        &mut self,
        accept: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if accept(&line) => return Ok(line),
                Some(line) => seen.push(line),
                None => return Err(seen),
            }
        }
    }

    /// Every line up to and including the first that starts with `prefix`;
    /// panics with the transcript if it does not come within `timeout`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => panic!("no line starting with '{prefix}' within {timeout:?}\n{}", self.dump()),
            }
        }
    }

    /// Every line arriving within `duration`.
    pub fn collect_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.next_line(left) {
                Some(line) => lines.push(line),
                None => return lines,
            }
        }
    }

    /// Panics if any line arrives within `duration`.
    pub fn assert_silent(&mut self, duration: Duration) {
        let lines = self.collect_for(duration);
        assert!(lines.is_empty(), "expected silence for {duration:?}, got {lines:?}\n{}", self.dump());
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", QUICK);
        lines.pop();
        lines
    }

    /// The `Position:` line of `d`, without the label.
    pub fn position_text(&mut self) -> String {
        self.send("d");
        let lines = self.read_until("Key:", QUICK);
        match lines.iter().find_map(|l| l.strip_prefix("Position: ")) {
            Some(text) => text.to_string(),
            None => panic!("no 'Position:' line in d output\n{}", self.dump()),
        }
    }

    /// When the line last read arrived (stamped by the reader thread).
    pub fn last_arrival(&self) -> Instant {
        self.last_arrival
    }

    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// The exit status, if the process ends within `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The process id (to read `/proc/<pid>/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A memory figure of the running process from `/proc/<pid>/status`
    /// (`VmRSS`, `VmHWM`, ...), in KiB; `None` where there is no `/proc`.
    pub fn status_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
        line[field.len() + 1..].split_whitespace().next()?.parse().ok()
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The conversation so far, for failure messages.
    pub fn dump(&self) -> String {
        let mut text = String::from("--- transcript ---\n");
        for line in &self.transcript {
            let shown: String = line.chars().take(300).collect();
            text.push_str(&shown);
            text.push('\n');
        }
        text
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
