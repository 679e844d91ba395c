//! Helpers shared by the board's tests through the real binary.
//!
//! * [`Board`] starts `tabula-board --port 0` (on 127.0.0.1 only), reads the
//!   address it prints, and on drop kills it and every process it started
//!   that is still there.
//! * [`Board::request`] speaks plain HTTP/1.1 over a socket, so that a test
//!   sets exactly the headers a browser (or an attacker's page) would send;
//!   every read is bounded in size and time.
//! * [`Watcher`] is a page watching the board (its event stream open), so
//!   that the analysis and review engines run.
//! * [`write_engine`] writes small `#!/bin/sh` engines that log what they
//!   read, into a [`TempDir`] under the target directory (`testkit`, shared
//!   with arena's tests).
//!
//! Linux only: processes are found in `/proc`, signals sent with `kill(1)`.

// Each test module uses its own subset of the helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The largest answer a test reads.
const MAX_ANSWER: u64 = 16 << 20;

/// A running `tabula-board`.
pub struct Board {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    pub port: u16,
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// The small Quoridor game most tests play, as the form posts it.
pub const FIVE: &str = "width=5&height=5&walls=3";

/// Waits until `condition` holds, at most `limit`.
pub fn wait_until(what: &str, limit: Duration, condition: impl Fn() -> bool) {
    let started = Instant::now();
    while !condition() {
        assert!(started.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

impl Board {
    /// Starts the board with these extra arguments.
    pub fn start(extra: &[&str]) -> Board {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula-board"))
            .args(["--port", "0"])
            .args(extra)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start tabula-board");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        stdout.read_line(&mut first).expect("the board's first line");
        // The rest is read to its end, so that the board never writes to a closed pipe.
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        let address = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        let port = address.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port");
        Board { child, address, port }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `head` (the request line and headers, without the final empty
    /// line; `Content-Length` and `Connection: close` are added) and `body`.
    pub fn request(&self, head: &str, body: &str) -> Answer {
        let mut stream = TcpStream::connect(&self.address).expect("connect to the board");
        stream.set_read_timeout(Some(Duration::from_secs(20))).expect("a read timeout");
        let text = format!("{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        stream.write_all(text.as_bytes()).and_then(|_| stream.write_all(body.as_bytes())).expect("send");
        let mut bytes = Vec::new();
        stream.take(MAX_ANSWER).read_to_end(&mut bytes).expect("the answer");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
        Answer { status, body }
    }

    /// A GET with the board's own `Host`.
    pub fn get(&self, path: &str) -> Answer {
        self.request(&format!("GET {path} HTTP/1.1\r\nHost: {}", self.address), "")
    }

    /// A form POST as the board's page sends it (its own `Origin`).
    pub fn post(&self, path: &str, form: &str) -> Answer {
        self.request(
            &format!(
                "POST {path} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nSec-Fetch-Site: same-origin\r\n\
                 Content-Type: application/x-www-form-urlencoded",
                self.address
            ),
            form,
        )
    }

    /// The view as JSON text.
    pub fn state(&self) -> String {
        let answer = self.get("/state");
        assert_eq!(answer.status, 200, "GET /state: {answer:?}");
        answer.body
    }

    /// Waits (at most `limit`) until the view satisfies `condition`.
    pub fn wait_for(&self, what: &str, limit: Duration, mut condition: impl FnMut(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let state = self.state();
            if condition(&state) {
                return state;
            }
            assert!(started.elapsed() < limit, "timed out waiting for {what}; last view: {state}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Sends a signal (`-TERM`, `-INT`) with `kill(1)`.
    pub fn signal(&self, which: &str) {
        let _ = Command::new("kill").arg(which).arg(self.pid().to_string()).status();
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let left = descendants(self.pid());
        let _ = self.child.kill();
        let _ = self.child.wait();
        for pid in left {
            let _ = Command::new("kill").arg("-KILL").arg(pid.to_string()).stderr(Stdio::null()).status();
        }
    }
}

/// The form field value of `text`, encoded.
pub fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every living descendant of `root` (zombies left out).
pub fn descendants(root: u32) -> Vec<u32> {
    let all: Vec<(u32, u32, bool)> = std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
                .filter_map(|pid| {
                    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
                    Some((pid, fields.get(1)?.parse().ok()?, fields.first() == Some(&"Z")))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut family = vec![root];
    let mut next = 0;
    while next < family.len() {
        let parent = family[next];
        family.extend(all.iter().filter(|(_, pp, _)| *pp == parent).map(|(p, _, _)| *p));
        next += 1;
    }
    family.into_iter().skip(1).filter(|p| all.iter().any(|(q, _, z)| q == p && !z)).collect()
}

/// Whether `pid` still runs (a zombie does not).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| Some(stat[stat.rfind(')')? + 1..].split_whitespace().next()? != "Z"))
        .unwrap_or(false)
}

/// A process's resident memory in KiB (`VmRSS`).
pub fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:")?.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

pub use testkit::TempDir;

/// Writes an engine script that appends every line it reads to `log`,
/// answers `uci` and `isready`, answers `go` with `on_go` (shell), and
/// exits on `quit`. Returns its path.
pub fn write_engine(dir: &TempDir, log: &str, on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.file("engine.sh");
    let script = format!(
        "#!/bin/sh\nwhile IFS= read -r line; do\n  echo \"$line\" >> '{log}'\n  case \"$line\" in\n    \
         uci) echo 'id name Logger'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).expect("write the engine");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("make it executable");
    path
}

/// The lines an engine logged so far.
pub fn logged(log: &str) -> Vec<String> {
    std::fs::read_to_string(log).unwrap_or_default().lines().map(String::from).collect()
}

/// A page watching the board: its event stream, read until dropped.
pub struct Watcher {
    stream: TcpStream,
}

impl Watcher {
    pub fn open(board: &Board) -> Watcher {
        let mut stream = TcpStream::connect(&board.address).expect("connect");
        write!(stream, "GET /events HTTP/1.1\r\nHost: {}\r\n\r\n", board.address).expect("ask for events");
        let mut reader = stream.try_clone().expect("a second handle");
        std::thread::spawn(move || {
            let mut buffer = [0u8; 1 << 16];
            while matches!(reader.read(&mut buffer), Ok(n) if n > 0) {}
        });
        Watcher { stream }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}
