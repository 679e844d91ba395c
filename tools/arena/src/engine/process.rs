//! One engine process: started with its command, arguments and directory,
//! fed through its standard input, read by its own thread, and never waited
//! on without a time limit, nor past a bounded amount of output. Dropping
//! it kills and reaps the process and everything it started (see
//! [`crate::reap`]). What is said to it is [`super::uci`]'s or
//! [`super::qtp`]'s.

use super::spec::{DeclaredOption, EngineSpec, Protocol};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabula::protocol::lines::{spawn_bounded_line_reader, LineBounds, LineTooLong};

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

/// How often a wait for an engine's line also checks that the process still
/// runs: its output does not end when it dies if a child it started still
/// holds the pipe.
const LIVENESS_CHECK: Duration = Duration::from_millis(50);

impl EngineProcess {
    /// Starts the process, with nothing said to it yet; once `interrupted`
    /// is set, every wait for it ends with [`EngineError::Interrupted`].
    pub(super) fn spawn(
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
        Ok(EngineProcess {
            name,
            child,
            input,
            lines,
            output_left: OUTPUT_BYTES,
            interrupted,
            declared: Vec::new(),
            protocol: spec.protocol,
            commands: Vec::new(),
        })
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
