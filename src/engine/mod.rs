//! The engine facade the protocol talks to: one persistent worker thread
//! that owns the transposition table and runs searches, perft and exact
//! solves in the order they are asked for. [`Engine::go`], [`Engine::perft`]
//! and [`Engine::solve`] return at once with a [`SearchHandle`] that stops
//! the work or ends its pondering; [`Engine::wait`] blocks until the worker
//! has done everything asked before. Reports arrive as [`EngineEvent`]s on
//! the caller's channel, moves as moves: nothing here prints or formats
//! them.

mod proven;
pub mod strength;
mod worker;

use crate::games::{AnyMove, AnyPosition};
use crate::search::{Control, Limits, SearchInfo, SearchSettings};
use crossbeam_channel::{bounded, unbounded, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What a `go` asks the engine to search.
#[derive(Clone)]
pub struct SearchRequest {
    /// The position to search from.
    pub position: AnyPosition,
    /// Hashes of earlier positions since the last irreversible move.
    pub history: Vec<u64>,
    /// When the search must end.
    pub limits: Limits,
    /// How it runs; its `search_moves` are filled from
    /// [`SearchRequest::search_moves`].
    pub settings: SearchSettings,
    /// `go searchmoves`: the only root moves to search; empty for all.
    pub search_moves: Vec<AnyMove>,
    /// Playing level 1..=10; levels the game plays by script skip the search.
    pub level: u32,
    /// Makes scripted levels and noise reproducible (mixed with the
    /// position's hash).
    pub seed: u64,
    /// `go ponder`: the clock starts only at [`SearchHandle::ponderhit`].
    pub ponder: bool,
}

/// What the engine reports.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineEvent {
    /// A search finished an iteration.
    Info(SearchInfo<AnyMove>),
    /// A search ended; `best` is `None` when the game was already over.
    BestMove {
        /// The move to play.
        best: Option<AnyMove>,
        /// The reply expected to it.
        ponder: Option<AnyMove>,
        /// Nodes the search visited (0 for a scripted level or a solve).
        nodes: u64,
    },
    /// Perft counted the paths below one root move.
    PerftMove {
        /// The root move.
        mv: AnyMove,
        /// Move paths of the requested length that start with it.
        nodes: u64,
    },
    /// Perft is done (or stopped: then a [`EngineEvent::Note`] said so).
    PerftDone {
        /// Every path counted (of the root moves counted, when stopped).
        nodes: u64,
        /// How long the count took.
        elapsed: Duration,
        /// False when `stop` ended it early: then `nodes` is no total.
        complete: bool,
    },
    /// A request could not be carried out as asked.
    Error(EngineError),
    /// Something worth telling the user (`info string`).
    Note(String),
    /// Everything asked before [`Engine::ready`] is done.
    Ready,
}

/// Why the engine could not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The table of the asked size could not be allocated; the old size is kept.
    HashTooLarge {
        /// The size asked for, in MiB.
        asked: usize,
        /// The size kept, in MiB.
        kept: usize,
    },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::HashTooLarge { asked, kept } => {
                write!(f, "cannot allocate a {asked} MiB hash table; keeping {kept} MiB")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Steers one `go`, perft or solve after it was handed to the engine.
#[derive(Clone)]
pub struct SearchHandle {
    control: Arc<Control>,
}

impl SearchHandle {
    /// Asks the work to end as soon as it can; it still reports its result.
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The pondered move was played: from now on the clock counts.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Whether the search still waits for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.control.pondering()
    }
}

/// What the worker is asked to do, in order of arrival.
// One request per command: its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Request {
    Search(Box<SearchRequest>, Arc<Control>),
    Perft {
        position: AnyPosition,
        depth: u32,
        control: Arc<Control>,
    },
    Solve {
        position: AnyPosition,
        threads: usize,
        method: Option<crate::solve::Method>,
        control: Arc<Control>,
    },
    ResizeHash(usize),
    ClearHash,
    /// Answered with [`EngineEvent::Ready`].
    Ready,
    /// Answered on its own channel (for [`Engine::wait`]).
    Barrier(Sender<()>),
}

/// The engine: a handle to its worker thread.
pub struct Engine {
    requests: Option<Sender<Request>>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the worker with a table of `hash_megabytes`; its reports
    /// arrive on `events`.
    pub fn start(hash_megabytes: usize, events: Sender<EngineEvent>) -> Engine {
        let (requests, inbox) = unbounded();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || worker::run(hash_megabytes, inbox, events))
            .ok();
        Engine { requests: Some(requests), thread }
    }

    /// Starts a search once the work asked before is done; its
    /// [`EngineEvent::Info`]s and one [`EngineEvent::BestMove`] follow.
    pub fn go(&self, request: SearchRequest) -> SearchHandle {
        let control = Arc::new(Control::new(request.ponder));
        self.submit(Request::Search(Box::new(request), control.clone()));
        SearchHandle { control }
    }

    /// Counts the move paths of length `depth`, divided by root move.
    pub fn perft(&self, position: AnyPosition, depth: u32) -> SearchHandle {
        let control = Arc::new(Control::new(false));
        self.submit(Request::Perft { position, depth, control: control.clone() });
        SearchHandle { control }
    }

    /// Solves the position exactly (`go solve`) on `threads` threads, by
    /// `method` (`None`: the quickest that applies); notes tell the
    /// progress and the result, a [`EngineEvent::BestMove`] ends it.
    pub fn solve(
        &self,
        position: AnyPosition,
        threads: usize,
        method: Option<crate::solve::Method>,
    ) -> SearchHandle {
        let control = Arc::new(Control::new(false));
        self.submit(Request::Solve { position, threads, method, control: control.clone() });
        SearchHandle { control }
    }

    /// Whether the worker thread is still there to answer.
    pub fn is_alive(&self) -> bool {
        self.thread.as_ref().is_some_and(|thread| !thread.is_finished())
    }

    /// A new table of this size, once the work before is done.
    pub fn resize_hash(&self, megabytes: usize) {
        self.submit(Request::ResizeHash(megabytes));
    }

    /// Empties the table, once the work before is done.
    pub fn clear_hash(&self) {
        self.submit(Request::ClearHash);
    }

    /// Asks for an [`EngineEvent::Ready`] once the work before is done.
    /// False when there is no worker to answer.
    pub fn ready(&self) -> bool {
        self.submit(Request::Ready)
    }

    /// Blocks until the worker has done everything asked before (searches
    /// without a limit run until stopped from another thread).
    pub fn wait(&self) {
        let (done, finished) = bounded(1);
        if self.submit(Request::Barrier(done)) {
            let _ = finished.recv();
        }
    }

    fn submit(&self, request: Request) -> bool {
        let sent = self.requests.as_ref().is_some_and(|requests| requests.send(request).is_ok());
        if !sent {
            log::error!("the search worker has gone");
        }
        sent
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Closing the channel ends the worker loop once its current job ends.
        self.requests.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::{Quoridor, Variant};

    fn start_request(limits: Limits) -> SearchRequest {
        let position = match Quoridor::new(&Variant::default()) {
            Ok(position) => AnyPosition::Quoridor(position),
            Err(e) => panic!("the default variant is playable: {e}"),
        };
        SearchRequest {
            position,
            history: Vec::new(),
            limits,
            settings: SearchSettings::default(),
            search_moves: Vec::new(),
            level: 10,
            seed: 0,
            ponder: false,
        }
    }

    fn best_moves(events: &crossbeam_channel::Receiver<EngineEvent>) -> Vec<Option<AnyMove>> {
        events
            .try_iter()
            .filter_map(|e| if let EngineEvent::BestMove { best, .. } = e { Some(best) } else { None })
            .collect()
    }

    #[test]
    fn go_returns_at_once_and_wait_blocks_until_the_answer() {
        let (sender, events) = unbounded();
        let engine = Engine::start(1, sender);
        engine.go(start_request(Limits { depth: Some(3), ..Limits::default() }));
        engine.go(start_request(Limits { depth: Some(2), ..Limits::default() }));
        engine.wait();
        let answers = best_moves(&events);
        assert_eq!(answers.len(), 2, "both searches answered before wait returned");
        assert!(answers.iter().all(Option::is_some));
    }

    #[test]
    fn a_handle_stops_a_search_without_limits() {
        let (sender, events) = unbounded();
        let engine = Engine::start(1, sender);
        let handle = engine.go(start_request(Limits { infinite: true, ..Limits::default() }));
        // The first iteration's report shows the search has started.
        let started = events.recv_timeout(Duration::from_secs(10));
        assert!(matches!(started, Ok(EngineEvent::Info(_))), "{started:?}");
        handle.stop();
        engine.wait();
        assert_eq!(best_moves(&events).len(), 1);
    }
}
