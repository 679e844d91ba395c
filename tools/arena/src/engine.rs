//! One engine process: started with its command, arguments and directory,
//! fed through its standard input, read by its own thread, and never waited
//! on without a time limit. It speaks the UCI-style protocol or QTP
//! ([`crate::qtp`]). Dropping it kills and reaps the process and
//! everything it started (see [`crate::reap`]).

use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::protocol::lines::{spawn_bounded_line_reader, LineBounds, LineTooLong};

/// The protocol an engine speaks (`proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// Tabula's UCI-style protocol (`uci`, `position`, `go`).
    #[default]
    Uci,
    /// The Quoridor Text Protocol (`boardsize`, `playmove`, `genmove`):
    /// see [`crate::qtp`].
    Qtp,
}

impl Protocol {
    /// `uci` or `qtp`.
    pub fn parse(text: &str) -> Option<Protocol> {
        match text {
            "uci" => Some(Protocol::Uci),
            "qtp" => Some(Protocol::Qtp),
            _ => None,
        }
    }
}

/// How an engine is started and configured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// `proto=uci|qtp`.
    pub protocol: Protocol,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `option.NAME=VALUE` settings, sent when the engine declares NAME.
    pub options: Vec<(String, String)>,
    /// How long `uciok` and `readyok` may take at start (`handshake=`);
    /// [`DEFAULT_HANDSHAKE`] when not set.
    pub handshake: Option<Duration>,
    /// `stderr=FILE`: the engine's standard error is appended there (else dropped).
    pub stderr: Option<PathBuf>,
    /// `initstr=TEXT`: lines sent to the engine once it has started.
    pub init: Vec<String>,
    /// The CPUs the engine may run on (`-use-affinity`, Linux); all when empty.
    pub cpus: Vec<usize>,
}

impl EngineSpec {
    /// The handshake time limit in force.
    pub fn handshake_timeout(&self) -> Duration {
        self.handshake.unwrap_or(DEFAULT_HANDSHAKE)
    }
}

/// What an engine's last `info` line with a `score` said of its search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// `cp N` or `mate N`, as the engine wrote it.
    pub score: Option<String>,
    /// The `depth` on the same line.
    pub depth: Option<u32>,
    /// `nodes`, `seldepth` and `nps` of the last `info` line that gave them.
    pub stats: SearchStats,
}

/// The counts of a search that `-pgnout nodes=true seldepth=true nps=true`
/// records (fastchess's `n=`, `sd=` and `nps=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: Option<u64>,
    pub seldepth: Option<u32>,
    pub nps: Option<u64>,
}

/// An option as the engine declared it in its `uci` answer.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredOption {
    pub name: String,
    pub kind: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub choices: Vec<String>,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    Start(String),
    /// The process ended or closed its output.
    Died,
    /// No answer in time: what was awaited.
    Timeout(&'static str),
    /// Its input is closed.
    Write,
    /// It wrote more than arena reads: a line over [`LINE_BYTES`], or over
    /// [`OUTPUT_BYTES`] between two commands. What it did.
    Flood(String),
    /// The run was interrupted while waiting for it.
    Interrupted,
    /// A QTP engine answered `?` to a command it had to carry out: the
    /// command and its message.
    Refused(String, String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Start(e) => write!(f, "cannot start: {e}"),
            EngineError::Died => write!(f, "crashed"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::Write => write!(f, "stopped reading its input"),
            EngineError::Flood(what) => write!(f, "floods its output ({what})"),
            EngineError::Interrupted => write!(f, "was left: the run is interrupted"),
            EngineError::Refused(command, message) => {
                write!(f, "refuses '{command}' ({})", tabula::quote::quoted(message))
            }
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    pub name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<Result<String, LineTooLong>>,
    /// Bytes of output still allowed before the next command.
    output_left: usize,
    /// Set when the whole run is interrupted: every wait ends.
    interrupted: Option<Arc<AtomicBool>>,
    pub declared: Vec<DeclaredOption>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// A QTP engine's `list_commands`.
    pub commands: Vec<String>,
}

/// The longest line an engine may write, in bytes: longer is a flood. Far
/// above any `info` or `option` line (a 100 kB move is still judged as a move).
pub const LINE_BYTES: usize = 256 << 10;
/// The most output an engine may write between two commands: more is a flood.
pub const OUTPUT_BYTES: usize = 16 << 20;
/// Lines read ahead of the referee; the engine waits while they are unread,
/// so at most this many lines of at most [`LINE_BYTES`] are held.
const QUEUED_LINES: usize = 64;

/// How long `uci` and the first `isready` may take unless the engine's
/// `handshake=` setting says otherwise: generous, since an engine may
/// allocate and clear a large hash table before it answers.
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(60);

/// How often a wait for an engine's line also checks that the process still
/// runs: its output does not end when it dies if a child it started still
/// holds the pipe.
const LIVENESS_CHECK: Duration = Duration::from_millis(50);

impl EngineProcess {
    /// Starts the process and completes the `uci` handshake.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_interruptible(spec, None)
    }

    /// As [`EngineProcess::start`]; once `interrupted` is set, this and every
    /// later wait for the engine ends with [`EngineError::Interrupted`].
    pub fn start_interruptible(
        spec: &EngineSpec,
        interrupted: Option<Arc<AtomicBool>>,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&spec.command);
        let stderr = match &spec.stderr {
            None => Stdio::null(),
            Some(path) => {
                let file = std::fs::OpenOptions::new().create(true).append(true).open(path);
                let file = file.map_err(|e| EngineError::Start(format!("stderr={}: {e}", path.display())))?;
                Stdio::from(file)
            }
        };
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group, so that dropping it also ends whatever it
        // started (a wrapper script's engine, a `sleep`), and a Ctrl-C at the
        // terminal reaches arena alone.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        #[cfg(target_os = "linux")]
        die_with_parent(&mut command, spec.cpus.clone());
        let mut failure = None;
        let spawned = crate::reap::spawn_registered(|| match command.spawn() {
            Ok(child) => {
                let pid = child.id();
                Some((child, pid))
            }
            Err(e) => {
                failure = Some(e);
                None
            }
        });
        let Some(mut child) = spawned else {
            let why = failure.map_or_else(|| "cannot spawn".to_string(), |e| e.to_string());
            return Err(EngineError::Start(format!("{}: {why}", spec.command.display())));
        };
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            crate::reap::kill_tree(child.id());
            let _ = child.wait();
            crate::reap::forget(child.id());
            return Err(EngineError::Start("no pipes".into()));
        };
        let name = spec.name.clone();
        let reader_name = name.clone();
        let bounds = LineBounds { queue: QUEUED_LINES, line_bytes: LINE_BYTES };
        let reader = format!("read {name}");
        let lines = spawn_bounded_line_reader(output, reader, bounds, move |line| {
            let line = line.map(|l| l.trim_end().to_string());
            match &line {
                Ok(text) => log::debug!("{reader_name} >> {text}"),
                Err(long) => log::debug!("{reader_name} >> (a line of {} bytes or more)", long.bytes),
            }
            line
        })
        .map_err(|e| EngineError::Start(e.to_string()))?;
        let mut engine = EngineProcess {
            name,
            child,
            input,
            lines,
            output_left: OUTPUT_BYTES,
            interrupted,
            declared: Vec::new(),
            protocol: spec.protocol,
            commands: Vec::new(),
        };
        let deadline = Instant::now() + spec.handshake_timeout();
        if spec.protocol == Protocol::Qtp {
            crate::qtp::handshake(&mut engine, deadline)?;
        } else {
            engine.send("uci")?;
            loop {
                let line = engine.read_line(deadline, "uciok")?;
                if line == "uciok" {
                    break;
                }
                if let Some(option) = parse_option_line(&line) {
                    engine.declared.push(option);
                }
            }
        }
        for line in &spec.init {
            engine.send(line)?;
        }
        Ok(engine)
    }

    /// Sends a command; the engine may write [`OUTPUT_BYTES`] before the next.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} << {line}", self.name);
        self.output_left = OUTPUT_BYTES;
        writeln!(self.input, "{line}").and_then(|_| self.input.flush()).map_err(|_| EngineError::Write)
    }

    /// The next line before `deadline`. An engine whose process has ended
    /// has died, even if a child it left still holds its output open. The
    /// deadline and an interrupt hold however fast lines come: they are
    /// checked before each line is taken (and every `LIVENESS_CHECK`), so
    /// a line not taken is kept for the next call.
    pub fn read_line(&mut self, deadline: Instant, awaited: &'static str) -> Result<String, EngineError> {
        loop {
            if self.interrupted.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Err(EngineError::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EngineError::Timeout(awaited));
            }
            match self.lines.recv_timeout(left.min(LIVENESS_CHECK)) {
                Ok(line) => return self.take(line),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Died),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if !self.alive() {
                // What it wrote just before it ended may still be on its way
                // from the reader thread.
                return match self.lines.recv_timeout(LIVENESS_CHECK) {
                    Ok(line) => self.take(line),
                    Err(_) => Err(EngineError::Died),
                };
            }
        }
    }

    /// A line read, counted against the output allowed.
    fn take(&mut self, line: Result<String, LineTooLong>) -> Result<String, EngineError> {
        let line = line.map_err(|_| EngineError::Flood(format!("a line over {} KiB", LINE_BYTES >> 10)))?;
        match self.output_left.checked_sub(line.len() + 1) {
            Some(left) => self.output_left = left,
            None => {
                return Err(EngineError::Flood(format!(
                    "over {} MiB of output after one command",
                    OUTPUT_BYTES >> 20
                )))
            }
        }
        Ok(line)
    }

    /// `isready` answered by `readyok` in time (QTP: `name` answered);
    /// earlier lines are dropped.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if self.protocol == Protocol::Qtp {
            return crate::qtp::command(self, "name", Instant::now() + timeout).map(drop);
        }
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.read_line(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// Sends an option if the engine declared it, checking its type and range.
    /// Returns why it was not sent, if it was not.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Option<String>, EngineError> {
        let Some(declared) = self.declared.iter().find(|d| d.name.eq_ignore_ascii_case(name)) else {
            return Ok(Some(format!("{} has no option {name}", self.name)));
        };
        let refusal = match declared.kind.as_str() {
            "spin" => match value.parse::<i64>() {
                Ok(n) if declared.min.is_none_or(|m| n >= m) && declared.max.is_none_or(|m| n <= m) => None,
                _ => Some(format!("{}: {name}={value} is outside its range", self.name)),
            },
            "check" if value != "true" && value != "false" => {
                Some(format!("{}: {name}={value} is not true or false", self.name))
            }
            "combo" if !declared.choices.iter().any(|c| c.eq_ignore_ascii_case(value)) => {
                Some(format!("{}: {name}={value} is not one of {}", self.name, declared.choices.join(", ")))
            }
            _ => None,
        };
        if refusal.is_none() {
            let declared_name = declared.name.clone();
            self.send(&format!("setoption name {declared_name} value {value}"))?;
        }
        Ok(refusal)
    }

    /// Waits for `bestmove` until `deadline`; returns the move text and what
    /// the last `info` line with a score said (its score and depth), which
    /// `report` keeps across calls.
    pub fn wait_bestmove_scored(
        &mut self,
        deadline: Instant,
        report: &mut SearchReport,
    ) -> Result<(String, SearchReport), EngineError> {
        loop {
            let line = self.read_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return Ok((words.next().unwrap_or("").to_string(), std::mem::take(report)))
                }
                Some("info") => {
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    let after = |key: &str| {
                        let at = tokens.iter().position(|&t| t == key)?;
                        tokens.get(at + 1).copied()
                    };
                    if let Some(i) = tokens.iter().position(|&t| t == "score") {
                        report.score = tokens.get(i + 1..i + 3).map(|s| s.join(" "));
                        report.depth = after("depth").and_then(|d| d.parse().ok());
                    }
                    let stats = &mut report.stats;
                    stats.nodes = after("nodes").and_then(|n| n.parse().ok()).or(stats.nodes);
                    stats.seldepth = after("seldepth").and_then(|n| n.parse().ok()).or(stats.seldepth);
                    stats.nps = after("nps").and_then(|n| n.parse().ok()).or(stats.nps);
                }
                _ => {}
            }
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let pid = self.child.id();
        crate::reap::kill_tree(pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        crate::reap::forget(pid);
    }
}

/// On Linux the engine is killed when the thread that started it ends, and
/// so when arena ends however it ends (even by SIGKILL, which no handler
/// sees): `PR_SET_PDEATHSIG`. Engines are started by the thread that plays
/// their games, which outlives them. A process the engine starts in turn
/// (a wrapper's engine) does not inherit this; it sees its input close.
/// With `cpus`, the engine and every thread it starts run on those CPUs
/// alone (`sched_setaffinity`, before the engine's program starts).
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command, cpus: Vec<usize>) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: cpu_set_t is plain data, filled before the fork.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in &cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        set
    };
    // SAFETY: between fork and exec only async-signal-safe calls are made
    // (prctl, getppid, sched_setaffinity, _exit), reading only `set`.
    unsafe {
        command.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The parent may have died before prctl took effect.
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            if !cpus.is_empty()
                && libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Reads `option name <id> type <t> [default <x>] [min <n>] [max <n>] [var <v>]...`.
pub fn parse_option_line(line: &str) -> Option<DeclaredOption> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let type_at = words.iter().position(|&w| w == "type")?;
    let name = words[2..type_at].join(" ");
    let kind = words.get(type_at + 1)?.to_string();
    let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1));
    let choices = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
    Some(DeclaredOption {
        name,
        kind,
        min: after("min").and_then(|v| v.parse().ok()),
        max: after("max").and_then(|v| v.parse().ok()),
        choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_read() {
        let o = parse_option_line("option name Hash type spin default 16 min 1 max 16384").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str(), o.min, o.max), ("Hash", "spin", Some(1), Some(16384)));
        let c = parse_option_line("option name Game type combo default quoridor var quoridor var quarto")
            .unwrap();
        assert_eq!(c.choices, ["quoridor", "quarto"]);
        assert!(parse_option_line("id name x").is_none());
    }
}
