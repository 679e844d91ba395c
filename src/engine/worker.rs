//! The worker thread behind [`super::Engine`]: takes requests in order and
//! runs them, each reporting through [`EngineEvent`]s.

use super::{EngineError, EngineEvent, Request, SearchRequest};
use crate::game::{MoveList, Position, Strategy};
use crate::games::{AnyMove, AnyPosition};
use crate::search::tt::TranspositionTable;
use crate::search::{search, with_handicap, Control, Score, ScoreBound, SearchInfo};
use crate::with_game;
use crossbeam_channel::{Receiver, Sender};
use std::time::Instant;

/// Serves requests until the engine closes the channel.
pub(super) fn run(hash_megabytes: usize, inbox: Receiver<Request>, events: Sender<EngineEvent>) {
    let mut tt = TranspositionTable::new(hash_megabytes);
    // The Quarto solver's table, kept between moves (see `proven`).
    let mut proofs = None;
    for request in inbox {
        match request {
            Request::Search(job, control) => run_search(*job, &control, &mut tt, &mut proofs, &events),
            Request::Perft { position, depth, control } => {
                run_perft(&position, depth, &mut tt, &control, &events)
            }
            Request::Solve { position, threads, method, control } => {
                let max_bytes = solve_limit(tt.megabytes());
                run_solve(&position, &control, threads, method, max_bytes, &events);
                // What the run freed stays with the allocator unless asked for.
                crate::solve::memory::release_freed();
            }
            Request::ResizeHash(megabytes) => {
                proofs = None;
                resize(&mut tt, megabytes, &events);
            }
            Request::ClearHash => {
                proofs = None;
                tt.clear();
            }
            Request::Ready => {
                let _ = events.send(EngineEvent::Ready);
            }
            Request::Barrier(done) => {
                let _ = done.send(());
            }
        }
    }
}

fn resize(tt: &mut TranspositionTable, megabytes: usize, events: &Sender<EngineEvent>) {
    // Free the old table first so that old and new need not fit together.
    let kept = tt.megabytes().max(1);
    drop(std::mem::replace(tt, TranspositionTable::new(1)));
    match TranspositionTable::try_new(megabytes) {
        Ok(table) => *tt = table,
        Err(_) => {
            let _ = events.send(EngineEvent::Error(EngineError::HashTooLarge { asked: megabytes, kept }));
            *tt = TranspositionTable::new(kept);
        }
    }
}

fn run_search(
    job: SearchRequest,
    control: &Control,
    tt: &mut TranspositionTable,
    proofs: &mut Option<super::proven::KeptTable>,
    events: &Sender<EngineEvent>,
) {
    let report = |info: SearchInfo<AnyMove>| {
        let _ = events.send(EngineEvent::Info(info));
    };
    match &job.position {
        AnyPosition::Quarto(position) => {
            if let Some(time) = super::proven::proof_time(&job, position) {
                super::proven::play(&job, position, time, control, tt, events, proofs);
                return;
            }
        }
        // Another game: the Quarto table's memory goes back.
        AnyPosition::Quoridor(_) => *proofs = None,
    }
    let (best, ponder, nodes) = with_game!(&job.position, g => {
        let mut rng = crate::rng::Rng::new(job.seed ^ g.hash());
        if let Some(mv) = g.scripted_move(job.level, &mut rng) {
            let _ = events.send(EngineEvent::Note(format!("level {} plays by script", job.level)));
            // The last line before the answer, as a search gives one: no
            // score, no nodes, the move.
            report(SearchInfo {
                depth: 0,
                seldepth: 0,
                score: Score::Centi(0),
                nodes: 0,
                elapsed_ms: control.started().elapsed().as_millis() as u64,
                hashfull: 0,
                pv: vec![AnyMove::from(mv)],
                exact: false,
                multipv: 1,
                bound: ScoreBound::Unscored,
                currmovenumber: 0,
            });
            (Some(AnyMove::from(mv)), None, 0)
        } else {
            let (limits, mut settings) = match g.handicap(job.level) {
                Some(handicap) => with_handicap(job.limits, job.settings, handicap, job.seed),
                None => (job.limits, job.settings),
            };
            settings.search_moves = job.search_moves.iter().map(|mv| mv.code()).collect();
            let mut report_moves = |info: SearchInfo<_>| report(info.map_moves(AnyMove::from));
            let result = search(g, &job.history, &limits, &settings, tt, control, &mut report_moves);
            (result.best.map(AnyMove::from), result.ponder.map(AnyMove::from), result.nodes)
        }
    });
    let _ = events.send(EngineEvent::BestMove { best, ponder, nodes });
}

/// Perft divided by root move, its counts kept in part of the search's
/// table, as much as the depth can use (none below depth 3; the part is
/// empty afterwards).
fn run_perft(
    position: &AnyPosition,
    depth: u32,
    tt: &mut TranspositionTable,
    control: &Control,
    events: &Sender<EngineEvent>,
) {
    let started = Instant::now();
    let mut total = 0;
    let entries = with_game!(position, g => crate::perft::table_entries(g, depth));
    let mut table = (entries > 0).then(|| crate::perft::PerftTable::in_slots(tt.lend(entries)));
    // Perft 0 counts the position itself.
    total += u64::from(depth == 0);
    with_game!(position, g => {
        let mut moves = MoveList::default();
        g.generate_moves(&mut moves);
        let moves = if depth == 0 { &moves.as_slice()[..0] } else { moves.as_slice() };
        for &mv in moves {
            if control.stopped() {
                break;
            }
            let mut child = g.clone();
            child.make_move(mv);
            let stopped = || control.stopped();
            let Some(nodes) = crate::perft::perft_until(&child, depth.saturating_sub(1), table.as_mut(), &stopped)
            else {
                break;
            };
            total += nodes;
            let _ = events.send(EngineEvent::PerftMove { mv: AnyMove::from(mv), nodes });
        }
    });
    let complete = !control.stopped();
    if !complete {
        let _ = events
            .send(EngineEvent::Note("perft stopped: no total (the moves above are counted whole)".into()));
    }
    let _ = events.send(EngineEvent::PerftDone { nodes: total, elapsed: started.elapsed(), complete });
}

/// The least memory `go solve` is given.
const SOLVE_MIN_BYTES: usize = 256 << 20;

/// The memory `go solve` may take: half of the machine's, less the search's
/// table of `hash_megabytes` (at least [`SOLVE_MIN_BYTES`]).
fn solve_limit(hash_megabytes: usize) -> usize {
    crate::solve::memory::default_limit().saturating_sub(hash_megabytes << 20).max(SOLVE_MIN_BYTES)
}

/// `go solve`: progress and the result as notes, then the first move of the
/// best line (any legal move when the run was stopped or too large).
fn run_solve(
    position: &AnyPosition,
    control: &Control,
    threads: usize,
    method: Option<crate::solve::Method>,
    max_bytes: usize,
    events: &Sender<EngineEvent>,
) {
    use crate::solve::{solve_position, Progress, SolveLimits};
    let started = Instant::now();
    let limits = SolveLimits { max_bytes, stop: Some(control.stop_flag()), threads };
    let mut report = |p: Progress| {
        let _ = events.send(EngineEvent::Note(format!("solve {}", p.describe(started.elapsed()))));
    };
    let solved = solve_position(position, method, &limits, &mut report);
    let any_move = || {
        with_game!(position, g => {
            let mut moves = MoveList::default();
            g.generate_moves(&mut moves);
            moves.iter().next().map(|&mv| AnyMove::from(mv))
        })
    };
    let (best, ponder) = match solved {
        Ok(solution) => {
            let result = solution.value.result_words();
            let millis = started.elapsed().as_millis();
            let note = format!(
                "solve result: {result} positions={} time {millis} pv {}",
                solution.positions,
                solution.line.join(" ")
            );
            let _ = events.send(EngineEvent::Note(note));
            let best = solution.line.first().and_then(|text| position.parse_move(text).ok());
            let ponder = best.zip(solution.line.get(1)).and_then(|(best, text)| {
                let mut next = position.clone();
                let best_text = position.format_move(best)?;
                next.play_text(&best_text).ok()?;
                next.parse_move(text).ok()
            });
            (best.or_else(any_move), ponder)
        }
        Err(e) => {
            let _ = events.send(EngineEvent::Note(format!("solve: {e}; no result")));
            (any_move(), None)
        }
    };
    let _ = events.send(EngineEvent::BestMove { best, ponder, nodes: 0 });
}
