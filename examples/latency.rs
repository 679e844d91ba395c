//! Measures how fast the engine answers while it searches: from writing
//! `isready` during `go infinite` to reading `readyok`, and from writing
//! `stop` to reading `bestmove`.
//!
//! ```text
//! cargo build --release && cargo run --release --example latency [path/to/tabula] [repetitions]
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(10);

struct Engine {
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn send(&mut self, line: &str) -> Instant {
        let sent = Instant::now();
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).expect("write to engine");
        sent
    }

    /// When the first line starting with `prefix` arrived.
    fn wait_for(&mut self, prefix: &str) -> Instant {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) if line.starts_with(prefix) => return at,
                Ok(_) => {}
                Err(_) => panic!("no '{prefix}' within {TIMEOUT:?}"),
            }
        }
    }
}

fn report(name: &str, samples: &mut [Duration]) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let max = samples[samples.len() - 1];
    println!(
        "{name:<28} n={:<4} median {:>8.3} ms   max {:>8.3} ms",
        samples.len(),
        median.as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "target/release/tabula".to_string());
    let repetitions: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(50);

    let mut child = Command::new(&path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
    let stdout = child.stdout.take().expect("piped stdout");
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    let mut engine = Engine { stdin: child.stdin.take().expect("piped stdin"), lines };
    engine.send("uci");
    engine.wait_for("uciok");

    let mut readyok = Vec::with_capacity(repetitions);
    let mut bestmove = Vec::with_capacity(repetitions);
    for round in 0..repetitions {
        engine.send("position startpos");
        engine.send("go infinite");
        // Let the search get deep enough to be busy; vary where it is.
        std::thread::sleep(Duration::from_millis(30 + (round as u64 * 7) % 50));
        let sent = engine.send("isready");
        readyok.push(engine.wait_for("readyok") - sent);
        std::thread::sleep(Duration::from_millis(20));
        let sent = engine.send("stop");
        bestmove.push(engine.wait_for("bestmove") - sent);
    }
    engine.send("quit");
    let _ = child.wait();

    println!("engine: {path}, {repetitions} repetitions");
    report("isready -> readyok (search)", &mut readyok);
    report("stop -> bestmove", &mut bestmove);
}
