//! The search worker: one persistent thread that owns the transposition table
//! and runs searches and perft on request, reporting back over a channel.
//! Nothing here prints; the protocol turns [`WorkerEvent`]s into lines.

use crate::game::Game;
use crate::games::AnyPosition;
use crate::search::tt::TranspositionTable;
use crate::search::{search, Control, Limits, SearchInfo};
use crate::with_game;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A search to run.
pub struct SearchJob {
    pub position: AnyPosition,
    /// Hashes of earlier positions since the last irreversible move.
    pub history: Vec<u64>,
    pub limits: Limits,
    pub move_overhead: Duration,
    pub control: Arc<Control>,
    /// Playing level 1..=10; levels the game plays by script skip the search.
    pub level: u32,
    /// Makes scripted levels reproducible (mixed with the position's hash).
    pub seed: u64,
    /// `go searchmoves`: legal moves in notation; empty for every move.
    pub search_moves: Vec<String>,
}

/// What the worker is asked to do, in order of arrival.
// One request per command: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Request {
    Search(Box<SearchJob>),
    Perft {
        position: AnyPosition,
        depth: u32,
        control: Arc<Control>,
    },
    /// The exact value by retrograde analysis (`go solve`).
    Solve {
        position: AnyPosition,
        control: Arc<Control>,
        /// The `Threads` option: the layered method values layers in parallel.
        threads: usize,
    },
    ResizeHash(usize),
    ClearHash,
    /// Answered with [`WorkerEvent::Ready`] once every request before it is
    /// done (`isready` while no search runs).
    Ready,
}

/// What the worker reports.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    Info(SearchInfo),
    /// The search ended; `best` is `None` when the game was already over.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    PerftMove {
        mv: String,
        nodes: u64,
    },
    PerftDone {
        nodes: u64,
        elapsed: Duration,
    },
    /// A request could not be carried out.
    Error(String),
    /// Something worth telling the GUI (`info string`).
    Note(String),
    /// The requests before [`Request::Ready`] are done.
    Ready,
}

/// Handle to the worker thread.
pub struct Engine {
    requests: Option<Sender<Request>>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the worker; its reports arrive on `events`.
    pub fn start(hash_megabytes: usize, events: Sender<WorkerEvent>) -> Engine {
        let (requests, inbox) = unbounded();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || worker_loop(hash_megabytes, inbox, events))
            .ok();
        Engine { requests: Some(requests), thread }
    }

    /// Queues a request; it runs after the ones before it. False when there
    /// is no worker to run it.
    pub fn submit(&self, request: Request) -> bool {
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

fn worker_loop(hash_megabytes: usize, inbox: Receiver<Request>, events: Sender<WorkerEvent>) {
    let mut tt = TranspositionTable::new(hash_megabytes);
    for request in inbox {
        match request {
            Request::Search(job) => run_search(*job, &mut tt, &events),
            Request::Perft { position, depth, control } => {
                run_perft(&position, depth, tt.megabytes(), &control, &events)
            }
            Request::Solve { position, control, threads } => run_solve(&position, &control, threads, &events),
            Request::ResizeHash(megabytes) => {
                // Free the old table first so that old and new need not fit together.
                let kept = tt.megabytes().max(1);
                drop(std::mem::replace(&mut tt, TranspositionTable::new(1)));
                match TranspositionTable::try_new(megabytes) {
                    Ok(table) => tt = table,
                    Err(e) => {
                        let _ = events.send(WorkerEvent::Error(format!("{e}; keeping {kept} MiB")));
                        tt = TranspositionTable::new(kept);
                    }
                }
            }
            Request::ClearHash => tt.clear(),
            Request::Ready => {
                let _ = events.send(WorkerEvent::Ready);
            }
        }
    }
}

fn run_search(job: SearchJob, tt: &mut TranspositionTable, events: &Sender<WorkerEvent>) {
    let mut report = |info: SearchInfo| {
        let _ = events.send(WorkerEvent::Info(info));
    };
    let (best, ponder) = with_game!(&job.position, g => {
        let mut rng = crate::rng::Rng::new(job.seed ^ g.hash());
        if let Some(mv) = g.scripted_move(job.level, &mut rng) {
            let _ = events.send(WorkerEvent::Note(format!("level {} plays by script", job.level)));
            let _ = events.send(WorkerEvent::BestMove { best: Some(g.format_move(mv)), ponder: None });
            return;
        }
        let mut limits = match g.handicap(job.level) {
            Some(handicap) => job.limits.clone().with_handicap(handicap, job.seed),
            None => job.limits.clone(),
        };
        // The session passed legal moves only.
        limits.search_moves = move_codes(g, &job.search_moves);
        let result = search(g, &job.history, &limits, job.move_overhead, tt, &job.control, &mut report);
        let best = result.best.map(|m| g.format_move(m));
        let ponder = result.best.zip(result.ponder).map(|(b, p)| {
            let mut next = g.clone();
            next.make_move(b);
            next.format_move(p)
        });
        (best, ponder)
    });
    let _ = events.send(WorkerEvent::BestMove { best, ponder });
}

/// The codes of the moves named in `texts` that are legal in `position`.
fn move_codes<G: Game>(position: &G, texts: &[String]) -> Vec<u16> {
    texts.iter().filter_map(|text| position.parse_move(text).ok()).map(G::move_code).collect()
}

/// Perft divided by root move, with a table of counts as large as the
/// search's (allocated for the count, freed after).
fn run_perft(
    position: &AnyPosition,
    depth: u32,
    megabytes: usize,
    control: &Control,
    events: &Sender<WorkerEvent>,
) {
    let started = Instant::now();
    let mut total = 0;
    let mut table = crate::perft::PerftTable::new(megabytes);
    with_game!(position, g => {
        let mut moves = crate::game::MoveList::default();
        g.generate_moves(&mut moves);
        for &mv in moves.iter() {
            if control.stopped() {
                break;
            }
            let mut child = g.clone();
            child.make_move(mv);
            let counted = crate::perft::perft_until(&child, depth.saturating_sub(1), table.as_mut(), &|| {
                control.stopped()
            });
            let Some(nodes) = counted else {
                break;
            };
            total += nodes;
            let _ = events.send(WorkerEvent::PerftMove { mv: g.format_move(mv), nodes });
        }
    });
    if control.stopped() {
        let _ = events.send(WorkerEvent::Note("perft stopped: the counts are partial".into()));
    }
    let _ = events.send(WorkerEvent::PerftDone { nodes: total, elapsed: started.elapsed() });
}

/// The memory `go solve` may take for its values (8 GiB).
const SOLVE_MAX_BYTES: usize = 8 << 30;

/// `go solve`: progress and the result as notes, then the first move of the
/// best line (any legal move when the run was stopped or too large).
fn run_solve(position: &AnyPosition, control: &Control, threads: usize, events: &Sender<WorkerEvent>) {
    use crate::solve::{solve_position, Progress, SolveLimits, Value};
    let started = Instant::now();
    let limits = SolveLimits { max_bytes: SOLVE_MAX_BYTES, stop: Some(control.stop_flag()), threads };
    let mut report = |p: Progress| {
        let _ = events.send(WorkerEvent::Note(format!("solve {}", p.describe(started.elapsed()))));
    };
    let solved = solve_position(position, None, &limits, &mut report);
    let any_move = || position.legal_move_names().into_iter().next();
    let (best, ponder) = match solved {
        Ok(solution) => {
            let result = match solution.value {
                Value::Win(plies) => format!("first plies={plies}"),
                Value::Loss(plies) => format!("second plies={plies}"),
                Value::Draw => "draw".into(),
            };
            let millis = started.elapsed().as_millis();
            let note = format!(
                "solve result: {result} positions={} time {millis} pv {}",
                solution.positions,
                solution.line.join(" ")
            );
            let _ = events.send(WorkerEvent::Note(note));
            (solution.line.first().cloned().or_else(any_move), solution.line.get(1).cloned())
        }
        Err(e) => {
            let _ = events.send(WorkerEvent::Note(format!("solve: {e}; no result")));
            (any_move(), None)
        }
    };
    let _ = events.send(WorkerEvent::BestMove { best, ponder });
}
