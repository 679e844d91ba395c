//! Quarto at full strength: the move's time shared between the exact
//! solver and the search, so that a move never gives away what a proof
//! within that time knows. The solver asks first whether the position is
//! won (quick to answer yes), and plays the quickest win it proves; then
//! the search picks the move it likes; then the solver proves that move
//! (or, failing that, another) holds at least a draw, which is quick where
//! proving the draw exact is not. A proven move is reported with `score
//! mate N` or a drawn score and an `info string` naming the solver; when
//! nothing is proven in time the search's move is played as before.

use super::{EngineEvent, SearchRequest};
use crate::game::{Notation, Position, Strategy};
use crate::games::quarto::Rules;
use crate::games::quarto::{Quarto, QuartoMove};
use crate::games::AnyMove;
use crate::search::tt::TranspositionTable;
use crate::search::{search, time_budget, Control, Limits, Score, ScoreBound, SearchInfo, MATE};
use crate::solve::alphabeta::ProofTable;
use crate::solve::root_proof::{Proven, RootProver};
use crate::solve::{SolveLimits, Value};
use crossbeam_channel::Sender;
use std::time::{Duration, Instant};

/// The full-strength level: lower levels play imperfectly on purpose.
const FULL_STRENGTH: u32 = 10;

/// Shares of the move's time, counted from its start, by which each
/// question ends: which move holds at least a draw; whether a win exists;
/// the quickest win; the search's choice (when the proofs ended early);
/// whether that choice holds too. (Where only a few moves hold, the
/// search's choice in what is left of the time after the first question
/// is seldom one of them: that question gets nearly all of it.)
const HOLD_SHARE: f64 = 0.93;
const WIN_SHARE: f64 = 0.95;
const QUICKEST_SHARE: f64 = 0.97;
const EARLY_SHARE: f64 = 0.5;
const SEARCH_SHARE: f64 = 0.75;
const CHOICE_SHARE: f64 = 0.95;

/// The solver's table is kept within the search's (`Hash`), at least this.
const MIN_TABLE_BYTES: usize = 16 << 20;

/// The time a proven move may take, or `None` when this search is not one
/// the solver joins: below full strength, without a time limit (depth,
/// nodes, mate, infinite, ponder), with `MultiPV` or `searchmoves`.
pub(super) fn proof_time(job: &SearchRequest, position: &Quarto) -> Option<Duration> {
    let limits = &job.limits;
    let untimed =
        limits.infinite || limits.depth.is_some() || limits.nodes.is_some() || limits.mate.is_some();
    if job.level < FULL_STRENGTH
        || job.ponder
        || untimed
        || job.settings.multi_pv > 1
        || !job.search_moves.is_empty()
        || position.is_over()
    {
        return None;
    }
    let budget = time_budget(limits, position.side_to_move(), job.settings.move_overhead)?;
    // A fixed time is used whole; with clocks, as far as the search's
    // own soft limit may stretch.
    Some(if budget.fixed { budget.hard } else { (budget.soft * 3).min(budget.hard.mul_f64(0.8)) })
}

/// The solver's table kept from one move to the next: its bounds hold for
/// every position of the same rules, so a game's later moves start from
/// what the earlier ones proved. Dropped by `ucinewgame`, `Clear Hash` and
/// a new `Hash`.
pub(super) struct KeptTable {
    rules: Rules,
    max_bytes: usize,
    table: ProofTable,
}

/// Plays `position` within `time`, proving what it can, with the table
/// `kept` from the last move when it fits; sends the reports and the best
/// move, and keeps the table for the next.
pub(super) fn play(
    job: &SearchRequest,
    position: &Quarto,
    time: Duration,
    control: &Control,
    tt: &mut TranspositionTable,
    events: &Sender<EngineEvent>,
    kept: &mut Option<KeptTable>,
) {
    let max_bytes = (tt.megabytes() << 20).max(MIN_TABLE_BYTES);
    let rules = position.rules();
    let table = kept.take().filter(|k| k.rules == rules && k.max_bytes == max_bytes).map(|k| k.table);
    let limits = SolveLimits { max_bytes, stop: Some(control.stop_flag()), threads: 1 };
    let mut prover = RootProver::new(&limits, position, table);
    let mut game = Game { job, position, time, control, tt, events, searched: 0 };
    decide(&mut game, &mut prover);
    *kept = Some(KeptTable { rules, max_bytes, table: prover.into_table() });
}

/// The questions in order, until a move is sent.
fn decide(game: &mut Game, prover: &mut RootProver) {
    let (started, time) = (game.control.started(), game.time);
    let at = |share: f64| started + time.mul_f64(share);
    // 1. A move that holds at least a draw, the likeliest to win first
    //    (quick to prove, where proving that no win exists is not).
    let hold = match prover.holding_move(&[], at(HOLD_SHARE)) {
        Ok(Some(hold)) => hold,
        Ok(None) => {
            // Every move loses: the slowest loss, or the search's choice.
            match prover.slowest_loss(at(CHOICE_SHARE)) {
                Ok(loss) => return game.finish(loss, prover.nodes()),
                Err(_) => return game.search_and_play(1.0, &[], prover.nodes()),
            }
        }
        // Nothing proven in time: the search's choice among the moves
        // not proven to lose.
        Err(_) => return game.search_and_play(1.0, prover.losing(), prover.nodes()),
    };
    // 2. A win (the holding move may be one), and the quickest one.
    let win = if hold.score > 0 { Ok(Some(hold)) } else { prover.find_win(at(WIN_SHARE)) };
    let no_win = match win {
        Ok(Some(win)) => {
            let win = prover.quickest_win(win, at(QUICKEST_SHARE)).unwrap_or(win);
            return game.finish(win, prover.nodes());
        }
        Ok(None) => true,
        Err(_) => false,
    };
    let hold = Proven { exact: no_win, ..hold };
    // 3. With time to spare, the search's choice instead, if it holds too.
    if Instant::now() < at(EARLY_SHARE) {
        if let Some((choice, proven)) = game.search(SEARCH_SHARE, prover.losing()) {
            if proven && choice != hold.mv {
                // The search saw the whole tree (or a mate) itself.
                return game.send_best(Some(choice), prover.nodes());
            }
            if choice == hold.mv || prover.holds(choice, at(CHOICE_SHARE)).unwrap_or(false) {
                return game.finish(Proven { mv: choice, ..hold }, prover.nodes());
            }
        }
    }
    game.finish(hold, prover.nodes())
}

/// One `go` under way: what the search needs and where reports go.
struct Game<'a> {
    job: &'a SearchRequest,
    position: &'a Quarto,
    /// The move's time (see [`proof_time`]).
    time: Duration,
    control: &'a Control,
    tt: &'a mut TranspositionTable,
    events: &'a Sender<EngineEvent>,
    /// Nodes the search visited.
    searched: u64,
}

impl Game<'_> {
    /// The search's choice by `share` of the move's time among the moves
    /// not in `excluded`, and whether its score is proven (a mate, or a
    /// search that saw every game to its end); `None` when stopped.
    fn search(&mut self, share: f64, excluded: &[QuartoMove]) -> Option<(QuartoMove, bool)> {
        let mut settings = self.job.settings.clone();
        let mut moves = crate::game::MoveList::default();
        self.position.generate_moves(&mut moves);
        if !excluded.is_empty() && moves.iter().any(|m| !excluded.contains(m)) {
            settings.search_moves =
                moves.iter().filter(|m| !excluded.contains(m)).map(|&m| Quarto::move_code(m)).collect();
        }
        let limits = Limits { move_time: Some(self.time.mul_f64(share)), ..Limits::default() };
        let mut last: Option<SearchInfo<QuartoMove>> = None;
        let events = self.events;
        let mut report = |info: SearchInfo<QuartoMove>| {
            if info.currmovenumber == 0 {
                last = Some(info.clone());
            }
            let _ = events.send(EngineEvent::Info(info.map_moves(AnyMove::from)));
        };
        let result =
            search(self.position, &self.job.history, &limits, &settings, self.tt, self.control, &mut report);
        self.searched += result.nodes;
        let proven = last.as_ref().is_some_and(|info| matches!(info.score, Score::Mate(_)) || info.exact);
        result.best.filter(|_| !self.control.stopped()).map(|best| (best, proven))
    }

    /// Searches by `share` of the move's time (the moves in `excluded`
    /// left out) and plays the search's choice.
    fn search_and_play(&mut self, share: f64, excluded: &[QuartoMove], proof_nodes: u64) {
        let choice = self.search(share, excluded).map(|(mv, _)| mv);
        let best = choice.or_else(|| {
            let mut moves = crate::game::MoveList::default();
            self.position.generate_moves(&mut moves);
            moves.iter().next().copied()
        });
        self.send_best(best, proof_nodes);
    }

    /// Plays `best` (as the search reported it, or after a proof's report).
    fn send_best(&mut self, best: Option<QuartoMove>, proof_nodes: u64) {
        let nodes = self.searched + proof_nodes;
        let _ =
            self.events.send(EngineEvent::BestMove { best: best.map(AnyMove::from), ponder: None, nodes });
    }

    /// Reports a proven move (its score as `mate N`, or a draw, with a note
    /// naming the solver) and plays it.
    fn finish(&mut self, proven: Proven, proof_nodes: u64) {
        let position = self.position;
        let (score, bound) = match proven.value() {
            Value::Win(plies) => (Score::from_internal(MATE - plies as i32, 2), exact_or_lower(proven.exact)),
            Value::Loss(plies) => (Score::from_internal(plies as i32 - MATE, 2), ScoreBound::Exact),
            Value::Draw => (Score::Centi(0), exact_or_lower(proven.exact)),
        };
        let mv = position.format_move(proven.mv);
        let note = match proven.value() {
            Value::Win(plies) if proven.exact => format!("{mv} wins in {plies} plies"),
            Value::Win(plies) => format!("{mv} wins in {plies} plies or fewer"),
            Value::Loss(plies) => format!("every move loses; {mv} lasts longest, {plies} plies"),
            Value::Draw if proven.exact => format!("draw; {mv} holds it"),
            Value::Draw => format!("{mv} holds at least a draw"),
        };
        let _ = self.events.send(EngineEvent::Note(format!("proven by solve: {note}")));
        let nodes = self.searched + proof_nodes;
        let plies = position.plies_left_bound().unwrap_or(0);
        let _ = self.events.send(EngineEvent::Info(SearchInfo {
            depth: plies,
            seldepth: plies,
            score,
            nodes,
            elapsed_ms: self.control.started().elapsed().as_millis() as u64,
            hashfull: 0,
            pv: vec![AnyMove::from(proven.mv)],
            exact: false,
            multipv: 1,
            bound,
            currmovenumber: 0,
        }));
        self.send_best(Some(proven.mv), proof_nodes);
    }
}

fn exact_or_lower(exact: bool) -> ScoreBound {
    if exact {
        ScoreBound::Exact
    } else {
        ScoreBound::Lower
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::AnyPosition;
    use crate::search::SearchSettings;

    fn request(limits: Limits, level: u32) -> (SearchRequest, Quarto) {
        let text = "quarto 4x4 level=1 board=..3./.5../.ca./0..f hand=7 turn=2";
        let position = Quarto::from_text(text).expect("a position");
        let request = SearchRequest {
            position: AnyPosition::Quarto(position.clone()),
            history: Vec::new(),
            limits,
            settings: SearchSettings::default(),
            search_moves: Vec::new(),
            level,
            seed: 0,
            ponder: false,
        };
        (request, position)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_solver_joins_timed_full_strength_searches_only() {
        let timed = Limits { move_time: Some(ms(1000)), ..Limits::default() };
        let (job, position) = request(timed.clone(), FULL_STRENGTH);
        assert_eq!(proof_time(&job, &position), Some(ms(1000)));
        let mut clocks = Limits::default();
        clocks.clocks.time[1] = Some(ms(60_000));
        let (job, position) = request(clocks, FULL_STRENGTH);
        let time = proof_time(&job, &position).expect("a clock is a time limit");
        assert!(time > ms(500) && time < ms(12_000), "{time:?}");
        for (limits, level) in [
            (timed.clone(), FULL_STRENGTH - 1),
            (Limits { depth: Some(4), ..timed.clone() }, FULL_STRENGTH),
            (Limits { nodes: Some(1000), ..timed.clone() }, FULL_STRENGTH),
            (Limits { mate: Some(2), ..timed.clone() }, FULL_STRENGTH),
            (Limits { infinite: true, ..Limits::default() }, FULL_STRENGTH),
        ] {
            let (job, position) = request(limits.clone(), level);
            assert_eq!(proof_time(&job, &position), None, "{limits:?} at level {level}");
        }
        let (mut job, position) = request(timed, FULL_STRENGTH);
        job.settings.multi_pv = 3;
        assert_eq!(proof_time(&job, &position), None, "MultiPV");
    }
}
