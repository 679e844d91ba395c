//! Helpers shared by arena's integration tests.
//!
//! * [`tabula`] finds the engine binary beside arena's (built once with
//!   `cargo build --release -p tabula` when missing: `testkit`, shared with
//!   the board's tests, as is [`TempDir`]). Caveat: `cargo test -p arena`
//!   does not rebuild an existing `tabula`, so after editing `src/` run
//!   `cargo build --release` (or test with `--workspace`, which builds it first).
//! * [`ArenaRun`] runs `arena` as a subprocess under a hard time limit (it is
//!   killed and the test fails when the limit passes), optionally sends it
//!   SIGINT, and lists the processes it started (directly or not, as seen by
//!   polling `/proc`) that are still running a second after it exited.
//! * [`write_engine`] writes fault-injection engines: small `#!/bin/sh` scripts
//!   in a [`TempDir`] under the target directory (not `/tmp`, which may be
//!   mounted `noexec`).
//! * Parsers for arena's output ([`output`]) and game records ([`records`],
//!   strictly PGN: [`pgn`]), and [`replay`], which plays a
//!   record's moves through the Tabula library.
//!
//! Linux only: process tracking reads `/proc`, signals go through `kill(1)`.

// Each test module uses its own subset of the helpers.
#![allow(dead_code)]

pub mod output;
pub mod pgn;
pub mod records;

// As for dead code: not every test crate uses every helper.
#[allow(unused_imports)]
pub use output::*;
#[allow(unused_imports)]
pub use records::*;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `arena` binary under test.
pub fn arena() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

/// The `tabula` engine binary, beside arena's (built when missing).
pub fn tabula() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| testkit::workspace_binary("tabula", "tabula"))
}

/// The tabula binary's path as an argument.
pub fn tabula_str() -> String {
    tabula().display().to_string()
}

pub use testkit::TempDir;

/// How a fault-injection engine misbehaves. All of them answer `uci` (with
/// `id` and `option` lines and `uciok`), `isready` and `quit` properly,
/// except where said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exits with status 1 on `go`.
    Crash,
    /// Keeps reading but never answers `go` (it still obeys `quit`).
    Hang,
    /// Answers `go` by running `sleep 30` in the foreground, so it is deaf to
    /// `quit` and leaves a child process behind unless arena kills it too.
    HangAsleep,
    /// Answers `go` with `bestmove <text>`.
    Illegal(&'static str),
    /// Answers `go` with junk lines, bytes that are not UTF-8, nonsense
    /// `info` lines and a stray `readyok`, then `bestmove ???"`.
    Garbage,
    /// Sleeps this many seconds (in a child `sleep`) before answering
    /// `uci`, then answers `go` with the illegal `bestmove a1`.
    SlowStart(u32),
    /// On `go`, starts `sleep 30` in the background, which keeps the
    /// engine's output open, and exits with status 1.
    CrashLeavingChild,
    /// On `uci`, starts a `sleep 300` in a session of its own (`setsid`), out
    /// of the engine's process group; exits with status 1 on `go`.
    CrashLeavingSession,
    /// Exits at once, before reading anything.
    ExitAtOnce,
    /// Answers `go` with `yes 'info string flood'`: lines without end, as
    /// fast as the pipe takes them.
    FloodOnGo,
    /// Answers `uci` with the same flood, before `uciok`.
    FloodOnUci,
    /// Answers `go` with one `info string` line every 10 ms, for ever.
    Trickle,
    /// Answers `go` with a line of 1 MB that ends only then.
    LongLine,
}

/// Which options a fault engine declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declares {
    /// Every option arena sends for a variant.
    AllOptions,
    /// Only `Game`: arena must warn about the others.
    GameOnly,
}

/// Writes an executable fault engine named `name` into `dir`.
pub fn write_engine(dir: &TempDir, name: &str, fault: Fault, declares: Declares) -> String {
    let path = dir.path().join(format!("{name}.sh"));
    let mut options = vec!["option name Game type combo default quoridor var quoridor var quarto"];
    if declares == Declares::AllOptions {
        options.extend([
            "option name BoardWidth type spin default 9 min 3 max 15",
            "option name BoardHeight type spin default 9 min 3 max 15",
            "option name Walls type spin default 10 min 0 max 30",
            "option name Players type combo default 2 var 2 var 4",
            "option name MultiJump type check default false",
            "option name QuartoLevel type spin default 1 min 1 max 4",
            "option name QuartoBoard type combo default 4x4 var 4x4 var 3x3",
        ]);
    }
    let go = match fault {
        Fault::Crash | Fault::CrashLeavingSession => "exit 1".to_string(),
        Fault::CrashLeavingChild => "sleep 30 & exit 1".to_string(),
        Fault::Hang => ":".to_string(),
        Fault::HangAsleep => "sleep 30".to_string(),
        Fault::Illegal(text) => format!("echo 'bestmove {text}'"),
        Fault::Garbage => [
            "echo 'hello there, this is not the protocol'",
            r"printf '\001\002\377\376 \200\201 binary \033[31m junk\n'",
            "echo 'info depth banana seldepth -3 score mate pv ???'",
            "echo 'info score'",
            "echo 'readyok'",
            "echo 'bestmove ???\"'",
        ]
        .join("; "),
        Fault::SlowStart(_) | Fault::ExitAtOnce | Fault::FloodOnUci => "echo 'bestmove a1'".to_string(),
        Fault::FloodOnGo => "yes 'info string flood'".to_string(),
        Fault::Trickle => "while :; do echo 'info string tick'; sleep 0.01; done".to_string(),
        Fault::LongLine => "head -c 1000000 /dev/zero | tr '\\0' x; echo; echo 'bestmove a1'".to_string(),
    };
    let delay = match fault {
        Fault::SlowStart(seconds) => format!("sleep {seconds}\n      "),
        Fault::CrashLeavingSession => "setsid sleep 300 &\n      ".to_string(),
        Fault::FloodOnUci => "yes 'info string flood'\n      ".to_string(),
        _ => String::new(),
    };
    let script = if fault == Fault::ExitAtOnce {
        format!("#!/bin/sh\n# arena test engine '{name}': exits before reading anything\nexit 0\n")
    } else {
        let options: String = options.iter().map(|o| format!("      echo '{o}'\n")).collect();
        format!(
            "#!/bin/sh\n# arena test engine '{name}': {fault:?}\n\
             while IFS= read -r line; do\n  case \"$line\" in\n    uci)\n      {delay}echo 'id name {name}'\n\
             \x20     echo 'id author arena tests'\n{options}      echo uciok ;;\n    isready) echo readyok ;;\n\
             \x20   go*) {go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
        )
    };
    write_executable(&path, &script);
    path.display().to_string()
}

fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    let mut file =
        std::fs::File::create(path).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    file.write_all(text.as_bytes()).expect("write the engine script");
    file.set_permissions(std::fs::Permissions::from_mode(0o755)).expect("make the script executable");
    file.sync_all().expect("flush the engine script");
}

/// One `arena` run to make.
pub struct ArenaRun {
    args: Vec<String>,
    limit: Duration,
    interrupt_after: Option<Duration>,
    /// The signal sent then (`-INT` unless told).
    signal: &'static str,
    watch: Option<PathBuf>,
    /// The working directory (where arena saves `config.json`); a fresh one unless told.
    cwd: Option<PathBuf>,
}

/// What an `arena` run did.
#[derive(Debug)]
pub struct Run {
    pub args: Vec<String>,
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// From the SIGINT to the exit, when one was sent.
    pub after_interrupt: Option<Duration>,
    /// Processes arena started (directly or not), or whose command line names
    /// the watched directory, that still ran a second after arena exited
    /// (zombies excluded: reaping orphans is init's job). They are killed.
    pub leftovers: Vec<String>,
    /// The largest resident memory of arena seen while it ran (sampled
    /// every 40 ms), in KiB.
    pub peak_rss_kib: u64,
}

impl Run {
    /// Panics with the whole transcript unless `condition` holds.
    pub fn check(&self, condition: bool, what: &str) {
        assert!(condition, "{what}\n{self}");
    }

    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Asserts the exit code and that no process outlived arena.
    pub fn expect_exit(&self, code: i32) {
        self.check(self.code() == Some(code), &format!("arena should exit with {code}"));
        self.check(self.leftovers.is_empty(), "processes outlived arena");
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "--- arena {}", self.args.join(" "))?;
        writeln!(f, "--- {} after {:?}; leftovers: {:?}", self.status, self.elapsed, self.leftovers)?;
        writeln!(f, "--- stdout:\n{}--- stderr:\n{}---", self.stdout, self.stderr)
    }
}

impl ArenaRun {
    /// Arena with these arguments, limited to 60 s.
    pub fn new<S: AsRef<str>>(args: &[S]) -> ArenaRun {
        ArenaRun {
            args: args.iter().map(|a| a.as_ref().to_string()).collect(),
            limit: Duration::from_secs(60),
            interrupt_after: None,
            signal: "-INT",
            watch: None,
            cwd: None,
        }
    }

    /// Runs arena in `dir`.
    pub fn in_dir(mut self, dir: &TempDir) -> ArenaRun {
        self.cwd = Some(dir.path().to_path_buf());
        self
    }

    /// Sends `signal` (`-TERM`, `-HUP`, ...) this long after the start.
    pub fn signal_after(mut self, signal: &'static str, after: Duration) -> ArenaRun {
        self.signal = signal;
        self.interrupt_after = Some(after);
        self
    }

    pub fn limit(mut self, limit: Duration) -> ArenaRun {
        self.limit = limit;
        self
    }

    /// Sends SIGINT this long after the start.
    pub fn interrupt_after(mut self, after: Duration) -> ArenaRun {
        self.interrupt_after = Some(after);
        self
    }

    /// Also counts as leftovers processes whose command line names `dir`.
    pub fn watch(mut self, dir: &TempDir) -> ArenaRun {
        self.watch = Some(dir.path().to_path_buf());
        self
    }

    pub fn run(self) -> Run {
        let started = Instant::now();
        // Not the test's own directory: arena writes its match state where it runs.
        let scratch = self.cwd.is_none().then(|| TempDir::new("cwd"));
        let cwd = self.cwd.clone().or_else(|| scratch.as_ref().map(|d| d.path().to_path_buf()));
        let mut child = Command::new(arena())
            .args(&self.args)
            .current_dir(cwd.expect("a working directory"))
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start arena");
        let pid = child.id();
        let stdout = collect(child.stdout.take().expect("piped stdout"));
        let stderr = collect(child.stderr.take().expect("piped stderr"));
        let mut seen = HashMap::new();
        let mut interrupted_at = None;
        let mut peak_rss_kib = 0;
        let status = loop {
            track_descendants(pid, &mut seen);
            peak_rss_kib = peak_rss_kib.max(resident_kib(pid));
            if let Some(status) = child.try_wait().expect("wait for arena") {
                break status;
            }
            if let (Some(after), None) = (self.interrupt_after, interrupted_at) {
                if started.elapsed() >= after {
                    signal(self.signal, &[pid]);
                    interrupted_at = Some(Instant::now());
                }
            }
            if started.elapsed() > self.limit {
                let _ = child.kill();
                let _ = child.wait();
                signal("-KILL", &seen.keys().map(|&(pid, _)| pid).collect::<Vec<_>>());
                panic!(
                    "arena ran over {:?}, killed: arena {}\n--- stdout:\n{}--- stderr:\n{}",
                    self.limit,
                    self.args.join(" "),
                    text(stdout),
                    text(stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(40));
        };
        let exited = Instant::now();
        let leftovers = loop {
            let left = self.leftovers(&seen);
            if left.is_empty() || exited.elapsed() > Duration::from_secs(1) {
                break left;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let pids: Vec<u32> =
            leftovers.iter().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
        signal("-KILL", &pids);
        Run {
            args: self.args,
            status,
            stdout: text(stdout),
            stderr: text(stderr),
            elapsed: exited - started,
            after_interrupt: interrupted_at.map(|t| exited - t),
            leftovers,
            peak_rss_kib,
        }
    }

    fn leftovers(&self, seen: &HashMap<(u32, u64), String>) -> Vec<String> {
        let me = std::process::id();
        processes()
            .into_iter()
            .filter(|p| !p.zombie && p.pid != me)
            .filter_map(|p| {
                let line = command_line(p.pid);
                let named = self.watch.as_ref().is_some_and(|w| line.contains(&*w.to_string_lossy()));
                (named || seen.contains_key(&(p.pid, p.start))).then(|| format!("{} {line}", p.pid))
            })
            .collect()
    }
}

/// Reads a pipe to its end on a thread.
fn collect(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    receiver
}

fn text(receiver: mpsc::Receiver<String>) -> String {
    receiver.recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| "(output not closed in time)\n".into())
}

/// Sends a signal with `kill(1)` to these process ids.
pub fn signal(which: &str, pids: &[u32]) {
    if pids.is_empty() {
        return;
    }
    let _ =
        Command::new("kill").arg(which).args(pids.iter().map(u32::to_string)).stderr(Stdio::null()).status();
}

/// A process's resident memory in KiB (`VmRSS`), 0 when it is gone.
pub fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:")?.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

struct Proc {
    pid: u32,
    ppid: u32,
    /// Start time in clock ticks since boot: tells a reused pid apart.
    start: u64,
    zombie: bool,
}

fn processes() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command name may hold spaces and parentheses: fields follow the last ')'.
            let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
            Some(Proc {
                pid,
                ppid: fields.get(1)?.parse().ok()?,
                start: fields.get(19)?.parse().ok()?,
                zombie: fields.first() == Some(&"Z"),
            })
        })
        .collect()
}

fn command_line(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " ").trim_end().to_string())
        .unwrap_or_default()
}

/// Adds every current descendant of `root` to `seen`.
fn track_descendants(root: u32, seen: &mut HashMap<(u32, u64), String>) {
    let all = processes();
    let mut family = HashSet::from([root]);
    loop {
        let before = family.len();
        for p in &all {
            if family.contains(&p.ppid) {
                family.insert(p.pid);
            }
        }
        if family.len() == before {
            break;
        }
    }
    for p in all.iter().filter(|p| p.pid != root && family.contains(&p.pid)) {
        seen.entry((p.pid, p.start)).or_insert_with(|| command_line(p.pid));
    }
}
