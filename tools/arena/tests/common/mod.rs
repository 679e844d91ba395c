//! Helpers shared by arena's integration tests.
//!
//! * [`tabula`] finds the engine binary. Integration tests of the `arena`
//!   package get no `CARGO_BIN_EXE_tabula` (that is only set for the package
//!   that owns the binary), so it is looked for next to the test executable:
//!   `target/<profile>/deps/<test>-<hash>` -> `target/<profile>/tabula`. When
//!   it is not there (say `cargo test -p arena` on a fresh checkout), it is
//!   built once with `cargo build --release -p tabula` and taken from
//!   `target/release/tabula`. Caveat: `cargo test -p arena` does not rebuild an
//!   existing `tabula`, so after editing `src/` run `cargo build --release` (or
//!   test with `--workspace`, which builds it first).
//! * [`ArenaRun`] runs `arena` as a subprocess under a hard time limit (it is
//!   killed and the test fails when the limit passes), optionally sends it
//!   SIGINT, and lists the processes it started (directly or not, as seen by
//!   polling `/proc`) that are still running a second after it exited.
//! * [`write_engine`] writes fault-injection engines: small `#!/bin/sh` scripts
//!   in a [`TempDir`] under cargo's `CARGO_TARGET_TMPDIR` (not `/tmp`, which
//!   may be mounted `noexec`).
//! * Parsers for arena's output and game records, and [`replay`], which plays a
//!   record's moves through the Tabula library.
//!
//! Linux only: process tracking reads `/proc`, signals go through `kill(1)`.

// Each test crate uses its own subset of the helpers.
#![allow(dead_code)]

pub mod pgn;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tabula::game::Outcome;
use tabula::games::quarto::{Quarto, Rules};
use tabula::games::quoridor::{Quoridor, Variant};
use tabula::games::AnyPosition;

/// The `arena` binary under test.
pub fn arena() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

/// The `tabula` engine binary (see the module notes for how it is found).
pub fn tabula() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(find_or_build_tabula)
}

fn find_or_build_tabula() -> PathBuf {
    let name = format!("tabula{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().expect("the test executable's path");
    if let Some(profile_dir) = exe.parent().and_then(Path::parent) {
        let candidate = profile_dir.join(&name);
        if candidate.is_file() {
            return candidate;
        }
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&workspace)
        .args(["build", "--release", "-p", "tabula", "--bin", "tabula"])
        .status()
        .expect("cannot run cargo to build tabula");
    assert!(status.success(), "`cargo build --release -p tabula` failed: {status}");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target directory");
    let built = target.join("release").join(&name);
    assert!(built.is_file(), "built tabula, but {} is missing", built.display());
    built
}

/// The tabula binary's path as an argument.
pub fn tabula_str() -> String {
    tabula().display().to_string()
}

/// A fresh directory, removed on drop unless the test is failing (kept for a look).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory, as a string for the command line.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

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
    watch: Option<PathBuf>,
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
            watch: None,
        }
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
        let mut child = Command::new(arena())
            .args(&self.args)
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
                    signal("-INT", &[pid]);
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

/// A `Finished game N (A vs B): RESULT {TERMINATION}` line.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub number: usize,
    /// Engine names by seat.
    pub seats: Vec<String>,
    pub result: String,
    pub termination: String,
}

impl FinishedGame {
    /// The winning seat (0-based), `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.result.as_str() {
            "1-0" => Some(0),
            "0-1" => Some(1),
            "1/2-1/2" => None,
            p => Some(p.strip_prefix('P').and_then(|n| n.parse::<usize>().ok()).expect("a result token") - 1),
        }
    }

    pub fn winner_name(&self) -> Option<&str> {
        self.winner().map(|s| self.seats[s].as_str())
    }

    /// The seat `name` played (0-based).
    pub fn seat_of(&self, name: &str) -> usize {
        self.seats.iter().position(|s| s == name).unwrap_or_else(|| panic!("{name} not in {self:?}"))
    }
}

/// Every `Finished game` line, in output order.
pub fn finished_games(stdout: &str) -> Vec<FinishedGame> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("Finished game "))
        .map(|rest| {
            let line = rest;
            let bad = || -> ! { panic!("malformed line 'Finished game {line}'") };
            let (number, rest) = rest.split_once(" (").unwrap_or_else(|| bad());
            let (names, rest) = rest.split_once("): ").unwrap_or_else(|| bad());
            let (result, rest) = rest.split_once(" {").unwrap_or_else(|| bad());
            let termination = rest.strip_suffix('}').unwrap_or_else(|| bad());
            FinishedGame {
                number: number.parse().unwrap_or_else(|_| bad()),
                seats: names.split(" vs ").map(String::from).collect(),
                result: result.to_string(),
                termination: termination.to_string(),
            }
        })
        .collect()
}

/// The numbers of every `Started game N of M (...)` line.
pub fn started_games(stdout: &str) -> Vec<usize> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Started game ")?.split_whitespace().next()?.parse().ok())
        .collect()
}

/// `Score of A vs B: W - L - D [x.xxx] N`.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub first: String,
    pub second: String,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub ratio: f64,
    pub games: u64,
}

/// Every score line, in output order (the last ones are the final results).
pub fn score_lines(stdout: &str) -> Vec<Score> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("Score of "))
        .map(|rest| {
            let bad = || -> ! { panic!("malformed line 'Score of {rest}'") };
            let (names, numbers) = rest.rsplit_once(": ").unwrap_or_else(|| bad());
            let (first, second) = names.split_once(" vs ").unwrap_or_else(|| bad());
            let words: Vec<&str> = numbers.split_whitespace().collect();
            let [w, "-", l, "-", d, ratio, n] = words[..] else { bad() };
            let int = |s: &str| s.parse::<u64>().unwrap_or_else(|_| bad());
            let ratio = ratio.strip_prefix('[').and_then(|r| r.strip_suffix(']')).unwrap_or_else(|| bad());
            assert!(ratio.len() == 5 && ratio.as_bytes()[1] == b'.', "ratio '{ratio}' is not x.xxx");
            Score {
                first: first.to_string(),
                second: second.to_string(),
                wins: int(w),
                losses: int(l),
                draws: int(d),
                ratio: ratio.parse().unwrap_or_else(|_| bad()),
                games: int(n),
            }
        })
        .collect()
}

/// A row of the per-engine table (`Engine P1 wins P2 wins mean ms ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRow {
    pub name: String,
    pub p1_wins_percent: f64,
    pub p2_wins_percent: f64,
    pub mean_ms: f64,
    pub max_ms: u64,
    pub time_losses: u64,
    pub illegal_moves: u64,
    pub crashes: u64,
}

/// The rows of the last per-engine table printed.
pub fn engine_table(stdout: &str) -> Vec<EngineRow> {
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(header) = lines.iter().rposition(|l| l.starts_with("Engine") && l.contains("P1 wins")) else {
        return Vec::new();
    };
    lines[header + 1..]
        .iter()
        .map_while(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let [name, p1, p2, mean, max, time, illegal, crashes] = w[..] else { return None };
            Some(EngineRow {
                name: name.to_string(),
                p1_wins_percent: p1.strip_suffix('%')?.parse().ok()?,
                p2_wins_percent: p2.strip_suffix('%')?.parse().ok()?,
                mean_ms: mean.parse().ok()?,
                max_ms: max.parse().ok()?,
                time_losses: time.parse().ok()?,
                illegal_moves: illegal.parse().ok()?,
                crashes: crashes.parse().ok()?,
            })
        })
        .collect()
}

/// The row of `name` in the last per-engine table.
pub fn engine_row(run: &Run, name: &str) -> EngineRow {
    let rows = engine_table(&run.stdout);
    let row = rows.into_iter().find(|r| r.name == name);
    row.unwrap_or_else(|| panic!("no per-engine row for {name}\n{run}"))
}

/// A row of the four-player standings (`Engine games wins share wins by seat`).
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsRow {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub share_percent: f64,
    /// `wins/games` per seat.
    pub by_seat: Vec<(u64, u64)>,
}

/// The rows of the last four-player standings table printed.
pub fn standings_table(stdout: &str) -> Vec<StandingsRow> {
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(header) = lines.iter().rposition(|l| l.starts_with("Engine") && l.contains("share")) else {
        return Vec::new();
    };
    lines[header + 1..]
        .iter()
        .map_while(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let [name, games, wins, share, ref seats @ ..] = w[..] else { return None };
            let by_seat = seats
                .iter()
                .map(|s| {
                    let (w, g) = s.split_once('/')?;
                    Some((w.parse().ok()?, g.parse().ok()?))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(StandingsRow {
                name: name.to_string(),
                games: games.parse().ok()?,
                wins: wins.parse().ok()?,
                share_percent: share.strip_suffix('%')?.parse().ok()?,
                by_seat,
            })
        })
        .collect()
}

/// One game of a `-pgnout` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
    /// The `;` lines.
    pub comments: Vec<String>,
    /// The `{...}` comments, each with the number of moves before it.
    pub move_comments: Vec<(usize, String)>,
}

impl Record {
    pub fn tag(&self, key: &str) -> &str {
        let found = self.tags.iter().find(|(k, _)| k == key);
        found.map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no [{key}] in {self:?}"))
    }

    /// The number of opening plies from the `; opening plies N; ...` comment (0 without one).
    pub fn opening_plies(&self) -> usize {
        self.comments
            .iter()
            .find_map(|c| c.strip_prefix("; opening plies ")?.split(';').next()?.trim().parse().ok())
            .unwrap_or(0)
    }
}

/// Reads a record file with the strict PGN reader ([`pgn::read_strict`]),
/// so every record a test reads is checked against the PGN standard.
pub fn read_records(path: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let games = pgn::read_strict(&text).unwrap_or_else(|e| panic!("{path} is not strict PGN: {e}\n{text}"));
    games
        .into_iter()
        .map(|g| Record {
            tags: g.tags,
            moves: g.moves,
            result: g.result,
            comments: g.line_comments,
            move_comments: g.move_comments,
        })
        .collect()
}

pub fn quoridor_start(width: usize, height: usize, walls: usize, players: usize) -> AnyPosition {
    let variant = Variant { width, height, walls, players, multi_jump: false };
    AnyPosition::Quoridor(Quoridor::new(&variant).expect("a valid Quoridor variant"))
}

pub fn quarto_start(side: usize) -> AnyPosition {
    AnyPosition::Quarto(Quarto::new(Rules { side, level: 1 }).expect("valid Quarto rules"))
}

/// A record's moves played through the library.
pub struct Replay {
    pub position: AnyPosition,
    pub plies: usize,
    /// The last position occurred for the third time.
    pub threefold: bool,
}

/// Plays `moves` from `start`; every move must be legal and the game must not
/// be over (won, drawn, or a threefold repetition) before the last one.
pub fn replay(start: AnyPosition, moves: &[String]) -> Result<Replay, String> {
    let mut position = start;
    let mut history: Vec<u64> = Vec::new();
    let mut threefold = false;
    for (ply, text) in moves.iter().enumerate() {
        if position.outcome().is_some() || threefold {
            return Err(format!("move {} ({text}) comes after the end of the game", ply + 1));
        }
        let before = position.hash();
        let irreversible = position.play_text(text).map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        if irreversible {
            history.clear();
        } else {
            history.push(before);
        }
        threefold = history.iter().filter(|&&h| h == position.hash()).count() >= 2;
    }
    Ok(Replay { position, plies: moves.len(), threefold })
}

/// The players of a record's variant.
pub fn players_of(record: &Record) -> usize {
    if record.tag("Variant").contains("players=4") {
        4
    } else {
        2
    }
}

/// Replays a record and checks that its Result and Termination agree with
/// where the moves lead; `max_plies` is arena's ply cap. Returns the replay.
pub fn check_record(record: &Record, start: AnyPosition, max_plies: usize) -> Replay {
    let replayed = replay(start, &record.moves).unwrap_or_else(|e| panic!("{e} in {record:?}"));
    assert_eq!(record.tag("Result"), record.result, "Result tag and result line differ: {record:?}");
    assert_eq!(record.tag("Plies"), record.moves.len().to_string(), "{record:?}");
    assert_eq!(record.tag("PlyCount"), record.moves.len().to_string(), "{record:?}");
    if players_of(record) == 2 {
        assert_eq!(
            (record.tag("White"), record.tag("Black")),
            (record.tag("P1"), record.tag("P2")),
            "{record:?}"
        );
    }
    let termination = record.tag("Termination");
    let outcome = replayed.position.outcome();
    let winner = termination
        .strip_prefix('P')
        .and_then(|t| t.strip_suffix(" reaches the goal").or_else(|| t.strip_suffix(" completes a pattern")))
        .map(|n| n.parse::<usize>().expect("a seat number") - 1);
    let players = replayed.position.player_count();
    match winner {
        Some(seat) => {
            assert_eq!(
                outcome,
                Some(Outcome::Win(seat)),
                "the moves do not end in '{termination}': {record:?}"
            );
            let token = match (players, seat) {
                (2, 0) => "1-0".to_string(),
                (2, _) => "0-1".to_string(),
                _ => format!("P{}", seat + 1),
            };
            assert_eq!(record.result, token, "{record:?}");
        }
        None => {
            assert_eq!(record.result, "1/2-1/2", "{record:?}");
            match termination {
                "no piece left" => assert_eq!(outcome, Some(Outcome::Draw), "{record:?}"),
                "threefold repetition" => {
                    assert!(replayed.threefold && outcome.is_none(), "no threefold repetition: {record:?}")
                }
                t if t == format!("ply limit {max_plies} reached") => {
                    assert!(outcome.is_none(), "{record:?}");
                    assert_eq!(record.moves.len() - record.opening_plies(), max_plies, "{record:?}");
                }
                other => panic!("unexpected termination '{other}' in {record:?}"),
            }
        }
    }
    replayed
}

/// Feeds `lines` to a fresh `tabula` and returns its output; end of input
/// makes it quit. Killed and failed after `limit`.
pub fn tabula_session(lines: &[String], limit: Duration) -> Vec<String> {
    let mut child = Command::new(tabula())
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start tabula");
    let output = collect(child.stdout.take().expect("piped stdout"));
    let mut input = child.stdin.take().expect("piped stdin");
    for line in lines {
        writeln!(input, "{line}").expect("write to tabula");
    }
    drop(input);
    let started = Instant::now();
    while child.try_wait().expect("wait for tabula").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tabula did not finish {lines:?} within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    text(output).lines().map(String::from).collect()
}

/// Plays `moves` in the real engine (`position startpos moves ...` after the
/// options) and checks with `d` that it accepts them all and reaches the
/// position the library reached.
pub fn check_with_tabula(options: &[(&str, &str)], moves: &[String], replayed: &Replay) {
    let mut input: Vec<String> =
        options.iter().map(|(k, v)| format!("setoption name {k} value {v}")).collect();
    input.push(format!("position startpos moves {}", moves.join(" ")));
    input.push("d".into());
    input.push("isready".into());
    let output = tabula_session(&input, Duration::from_secs(20));
    let transcript = || format!("input:\n{}\noutput:\n{}", input.join("\n"), output.join("\n"));
    assert!(!output.iter().any(|l| l.contains("error")), "tabula reports an error\n{}", transcript());
    assert!(output.iter().any(|l| l == "readyok"), "no readyok\n{}", transcript());
    let expected = format!("Position: {}", replayed.position.to_text());
    assert!(output.contains(&expected), "tabula's position differs from '{expected}'\n{}", transcript());
    if let Some(Outcome::Win(seat)) = replayed.position.outcome() {
        let result = format!("Result: player {} won", seat + 1);
        assert!(output.contains(&result), "no '{result}'\n{}", transcript());
    }
}
