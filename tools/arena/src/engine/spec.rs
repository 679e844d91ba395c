//! What arena knows of an engine before and after it runs: how it is
//! started ([`EngineSpec`], `proto=`), the options it declared, and what
//! its searches reported.

use std::path::PathBuf;
use std::time::Duration;

/// The protocol an engine speaks (`proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// Tabula's UCI-style protocol (`uci`, `position`, `go`).
    #[default]
    Uci,
    /// The Quoridor Text Protocol (`boardsize`, `playmove`, `genmove`):
    /// see [`crate::engine::qtp`].
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

/// How long `uci` and the first `isready` may take unless the engine's
/// `handshake=` setting says otherwise: generous, since an engine may
/// allocate and clear a large hash table before it answers.
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(60);
