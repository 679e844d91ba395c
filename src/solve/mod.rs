//! Exact game values: who wins a position with best play, how fast, and a
//! line that shows it. Nothing is pruned that could change a value, and
//! positions are told apart exactly (never by a hash), so a value is a
//! proof for the rules as implemented. Four methods:
//!
//! - [`graph`]: retrograde analysis over every reachable position, for any
//!   two-player game; positions that can repeat are exact (neither side can
//!   force a win: a draw).
//! - [`layers`]: the same analysis for two-player Quoridor, a layer of
//!   positions (one wall set) at a time, on its own copy of the rules; far
//!   less memory, and threads.
//! - [`alphabeta`]: depth-first minimax with alpha-beta and an exact
//!   table, for games without cycles (Quarto).
//! - [`proof`]: a proof search for two-player Quoridor: proves the value of
//!   the one position asked, layer by layer, without valuing every position
//!   reachable from it; cycles are handled exactly.
//!
//! [`split`] divides a proof into sub-proofs a few plies down, to run
//! anywhere, and combines their values.
//!
//! Memory grows with the positions; [`SolveLimits`] bounds it, and a run can
//! be stopped from outside.

pub mod alphabeta;
pub mod buckets;
pub mod graph;
pub mod layers;
pub mod memory;
pub mod proof;
pub mod root_proof;
pub mod split;

use crate::game::prelude::*;
use crate::games::AnyPosition;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exact value of a position for the player to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The player to move wins; the game ends after this many plies at most
    /// against any defence (the winner's quickest forced win).
    Win(u32),
    /// The player to move loses after this many plies (the longest defence).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The words of a `result:` line: `first plies=N`, `second plies=N`
    /// or `draw` (who wins from the position: its player to move, the
    /// other, or nobody).
    pub fn result_words(self) -> String {
        match self {
            Value::Win(plies) => format!("{} plies={plies}", Winner::First.word()),
            Value::Loss(plies) => format!("{} plies={plies}", Winner::Second.word()),
            Value::Draw => "draw".to_string(),
        }
    }

    /// What a move into a position of this value is worth to the mover.
    pub fn seen_from_parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// An order on values for the player to move: quicker wins first, then
    /// draws, then the longest losses.
    pub fn rank(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + i64::from(d),
        }
    }
}

/// How far a run may go.
pub struct SolveLimits<'a> {
    /// Refuse to go on when the values would need more memory than this,
    /// in bytes (each method knows what a position costs it).
    pub max_bytes: usize,
    /// Set from outside (Ctrl-C, `stop`) to end the run early.
    pub stop: Option<&'a AtomicBool>,
    /// Worker threads, where the method can use them (layers).
    pub threads: usize,
}

impl SolveLimits<'_> {
    /// Whether the stop flag is set.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// An error when `positions` at `bytes_each` go over the memory limit.
    fn check_memory(&self, positions: usize, bytes_each: usize) -> Result<(), SolveError> {
        self.check_bytes(positions.saturating_mul(bytes_each))
    }

    /// An error when holding `bytes` goes over the memory limit.
    fn check_bytes(&self, bytes: usize) -> Result<(), SolveError> {
        if bytes > self.max_bytes {
            return Err(SolveError::OverMemory(self.max_bytes));
        }
        Ok(())
    }
}

/// Which method values the positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Retrograde analysis over every reachable position (any game).
    Graph,
    /// Quoridor by wall-set layers (two players, small boards).
    Layers,
    /// Negamax with an exact table (Quarto).
    AlphaBeta,
    /// Proof search (two-player Quoridor).
    Proof,
}

impl Method {
    /// The method `method=` names.
    pub fn parse(text: &str) -> Option<Method> {
        match text {
            "graph" => Some(Method::Graph),
            "layers" => Some(Method::Layers),
            "alphabeta" => Some(Method::AlphaBeta),
            "proof" => Some(Method::Proof),
            _ => None,
        }
    }

    /// The name `method=` takes.
    pub fn name(self) -> &'static str {
        match self {
            Method::Graph => "graph",
            Method::Layers => "layers",
            Method::AlphaBeta => "alphabeta",
            Method::Proof => "proof",
        }
    }

    /// The quickest method that applies: the proof search for two-player
    /// Quoridor on boards whose positions pack into its keys, then layers,
    /// alpha-beta for Quarto, the graph otherwise.
    pub fn best_for(position: &AnyPosition) -> Method {
        match position {
            // Measured faster on every cell but 3x7 with 3 walls (1.54 s
            // against 1.41 s), up to 10 times on small boards (docs/solver.md).
            AnyPosition::Quoridor(q) if proof::applies(q) => Method::Proof,
            AnyPosition::Quoridor(q) if layers::applies(q) => Method::Layers,
            AnyPosition::Quarto(_) => Method::AlphaBeta,
            _ => Method::Graph,
        }
    }
}
/// Who wins, as proved before how fast is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The player to move in the position solved.
    First,
    /// The other player.
    Second,
}

impl Winner {
    /// `first` or `second`, as progress and `result:` lines say it.
    pub fn word(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
        }
    }
}

/// What a run has done so far, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The phase: 1 finds the positions, 2 propagates the values, 3 is a
    /// depth-first search (`positions` in its table, `done` nodes searched),
    /// 4 the proof search's second one, for how fast the winner wins.
    pub phase: u8,
    /// Positions valued.
    pub positions: usize,
    /// Positions expanded (phase 1) or valued (phase 2).
    pub done: usize,
    /// Time since this phase began.
    pub phase_time: std::time::Duration,
    /// Who wins, once proved (the proof search's phase 4), and the fewest
    /// plies the win can take (every quicker win was refuted): a run
    /// stopped there still tells both.
    pub winner: Option<(Winner, u32)>,
}

impl Progress {
    /// One progress line: `phase 1 positions N found M time MS rate R/s`
    /// (`elapsed` since the run began, the rate within the phase), in
    /// phase 2 a bound on the time left (positions never valued are
    /// draws and need no time, so the bound may be generous), and once the
    /// winner is proved `plies at least N winner first|second`.
    pub fn describe(&self, elapsed: std::time::Duration) -> String {
        let what = match self.phase {
            1 => "found",
            2 => "valued",
            _ => "searched",
        };
        let seconds = self.phase_time.as_secs_f64().max(1e-3);
        let rate = self.done as f64 / seconds;
        let mut line = format!(
            "phase {} positions {} {what} {} time {} rate {:.0}/s",
            self.phase,
            self.positions,
            self.done,
            elapsed.as_millis(),
            rate
        );
        if self.phase == 2 {
            let left = self.positions.saturating_sub(self.done) as f64 / rate.max(1.0);
            line.push_str(&format!(" left at most {left:.0} s"));
        }
        if let Some((winner, plies)) = self.winner {
            line.push_str(&format!(" plies at least {plies} winner {}", winner.word()));
        }
        line
    }
}

/// Why no value came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The values would need more memory than the limit (in bytes) allows.
    OverMemory(usize),
    /// The stop flag was set (Ctrl-C, `stop`).
    Stopped,
    /// Only two-player games are solved.
    Players(usize),
    /// The method does not apply to this game or board.
    Method(Method),
    /// A win or loss longer than the tables hold (in plies).
    Distance(u32),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::OverMemory(bytes) => {
                write!(f, "needs more than the memory limit of {} MiB", bytes.div_ceil(1 << 20))
            }
            SolveError::Stopped => write!(f, "stopped before the end"),
            SolveError::Players(n) => write!(f, "{n} players: only two-player games are solved"),
            SolveError::Method(m) => write!(f, "method {} does not apply to this position", m.name()),
            SolveError::Distance(d) => write!(f, "a line longer than {d} plies does not fit the tables"),
        }
    }
}

/// The solved start and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value for the side to move at the start.
    pub value: Value,
    /// A line of best play from the start (to the end for a win; a stretch
    /// of the draw otherwise), in the game's notation.
    pub line: Vec<String>,
    /// Distinct positions valued.
    pub positions: usize,
    /// How many of them are wins, losses and draws for the player to move
    /// (not known to alpha-beta, which values only what it needs).
    pub counts: Option<[usize; 3]>,
    /// The method that found it.
    pub method: Method,
}

/// The longest drawing line shown.
pub(crate) const DRAW_LINE: usize = 12;

/// Solves a position exactly with the given method (or the best one).
pub fn solve_position(
    position: &AnyPosition,
    method: Option<Method>,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solution, SolveError> {
    if position.player_count() != 2 {
        return Err(SolveError::Players(position.player_count()));
    }
    let method = method.unwrap_or_else(|| Method::best_for(position));
    match (method, position) {
        (Method::Graph, _) => crate::with_game!(position, g => solve_by_graph(g, limits, progress)),
        (Method::Layers, AnyPosition::Quoridor(q)) if layers::applies(q) => {
            layered_solution(q, &layers::solve_layers(q, limits, progress)?)
        }
        (Method::Proof, AnyPosition::Quoridor(q)) => proof::solve_proof(q, limits, progress),
        (Method::AlphaBeta, AnyPosition::Quarto(q)) => {
            let mut solver = alphabeta::AlphaBeta::new(limits);
            let value = solver.solve(q, progress)?;
            let line = solver.line(q);
            Ok(Solution { value, line, positions: solver.positions(), counts: None, method })
        }
        _ => Err(SolveError::Method(method)),
    }
}

/// The solution the layered method's tables give for `start`.
pub fn layered_solution(
    start: &crate::games::quoridor::Quoridor,
    tables: &layers::LayerTables,
) -> Result<Solution, SolveError> {
    let value = |p: &crate::games::quoridor::Quoridor| tables.value(p);
    let (value, line) = line_by_values(start, &value).ok_or(SolveError::Method(Method::Layers))?;
    Ok(Solution {
        value,
        line,
        positions: tables.positions,
        counts: Some(tables.counts),
        method: Method::Layers,
    })
}

/// Solves any two-player game by the graph.
pub fn solve_by_graph<G: Game>(
    start: &G,
    limits: &SolveLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solution, SolveError> {
    if start.player_count() != 2 {
        return Err(SolveError::Players(start.player_count()));
    }
    let solved = graph::solve_graph(start, limits, progress)?;
    let values = solved.values();
    let counts = [
        values.iter().filter(|v| matches!(v, Value::Win(_))).count(),
        values.iter().filter(|v| matches!(v, Value::Loss(_))).count(),
        values.iter().filter(|v| **v == Value::Draw).count(),
    ];
    let value = |p: &G| solved.value(p);
    let (start_value, line) = line_by_values(start, &value).ok_or(SolveError::Method(Method::Graph))?;
    Ok(Solution {
        value: start_value,
        line,
        positions: values.len(),
        counts: Some(counts),
        method: Method::Graph,
    })
}

/// The value of `start` and a line of best play from it, given the value of
/// every position on the way: the winner's quickest win, the loser's
/// longest defence, or a stretch of moves that keep the draw. `None` when a
/// value the line needs is missing (a solver that disagrees with the rules).
pub fn line_by_values<G: Game>(
    start: &G,
    value_of: &dyn Fn(&G) -> Option<Value>,
) -> Option<(Value, Vec<String>)> {
    let first = value_of(start)?;
    let mut line = Vec::new();
    let mut position = start.clone();
    let mut moves = MoveList::default();
    loop {
        let here = value_of(&position)?;
        if position.outcome().is_some() || matches!(here, Value::Win(0) | Value::Loss(0)) {
            return Some((first, line));
        }
        if here == Value::Draw && line.len() >= DRAW_LINE {
            return Some((first, line));
        }
        moves.clear();
        position.generate_moves(&mut moves);
        let mut chosen = None;
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.make_move(mv);
            if value_of(&child)?.seen_from_parent() == here {
                chosen = Some((mv, child));
                break;
            }
        }
        let (mv, child) = chosen?;
        line.push(position.format_move(mv));
        position = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::games::quarto::{Quarto, Rules};
    use crate::games::quoridor::{Quoridor, Variant};

    fn unlimited() -> SolveLimits<'static> {
        SolveLimits { max_bytes: 1 << 31, stop: None, threads: 2 }
    }

    fn solve_with(position: &AnyPosition, method: Method) -> Solution {
        solve_position(position, Some(method), &unlimited(), &mut |_| {}).expect("small enough")
    }

    /// The position at the end of a solution's line.
    fn replay_line<G: Game>(start: &G, solution: &Solution) -> G {
        let mut position = start.clone();
        for text in &solution.line {
            let mv = position.parse_move(text).expect("the line is legal");
            position.make_move(mv);
        }
        position
    }

    fn quoridor(width: usize, height: usize, walls: usize) -> Quoridor {
        Quoridor::new(&Variant { width, height, walls, ..Variant::default() }).expect("a variant")
    }

    #[test]
    fn the_3x3_board_without_walls_is_a_second_player_win_by_every_quoridor_method() {
        // Whatever P1 does, P2 reaches row 1 on its second move (a jump or a
        // side step over P1 when it comes to b2).
        let start = quoridor(3, 3, 0);
        for method in [Method::Graph, Method::Layers, Method::Proof] {
            let solution = solve_with(&AnyPosition::Quoridor(start.clone()), method);
            assert_eq!(solution.value, Value::Loss(4), "{solution:?}");
            assert_eq!(solution.line.len(), 4);
            let end = replay_line(&start, &solution);
            assert_eq!(end.outcome(), Some(Outcome::Win(1)));
            // The proof search values only what it needs, uncounted.
            if let Some(counts) = solution.counts {
                assert_eq!(counts.iter().sum::<usize>(), solution.positions);
            }
        }
    }

    #[test]
    fn a_3x3_quarto_opening_is_solved_and_its_line_wins() {
        // The whole 3x3 game (6.4 million positions by the graph) is a win
        // for the player who places first, as the search's `mate -3` from
        // the empty board says; from two turns in it is quick.
        let mut start = Quarto::new(Rules { side: 3, level: 1 }).expect("3x3 Quarto");
        for text in ["0", "a11"] {
            let mv = start.parse_move(text).expect("legal");
            start.make_move(mv);
        }
        for method in [Method::Graph, Method::AlphaBeta] {
            let solution = solve_with(&AnyPosition::Quarto(start.clone()), method);
            assert_eq!(solution.value, Value::Win(5), "{method:?} {solution:?}");
            let end = replay_line(&start, &solution);
            assert_eq!(end.outcome(), Some(Outcome::Win(start.side_to_move())), "{method:?}");
        }
    }

    #[test]
    fn progress_lines_give_rate_and_time_left() {
        let second = std::time::Duration::from_secs(1);
        let p = Progress { phase: 2, positions: 3000, done: 1000, phase_time: 2 * second, winner: None };
        assert_eq!(
            p.describe(3 * second),
            "phase 2 positions 3000 valued 1000 time 3000 rate 500/s left at most 4 s"
        );
        let p = Progress {
            phase: 1,
            positions: 10,
            done: 5,
            phase_time: std::time::Duration::ZERO,
            winner: None,
        };
        assert!(p
            .describe(std::time::Duration::ZERO)
            .starts_with("phase 1 positions 10 found 5 time 0 rate"));
        let p = Progress {
            phase: 4,
            positions: 10,
            done: 20,
            phase_time: second,
            winner: Some((Winner::Second, 8)),
        };
        assert_eq!(
            p.describe(5 * second),
            "phase 4 positions 10 searched 20 time 5000 rate 20/s plies at least 8 winner second"
        );
    }

    #[test]
    fn limits_methods_and_players_are_honoured() {
        let start = AnyPosition::Quoridor(quoridor(3, 3, 1));
        let tight = SolveLimits { max_bytes: 1000, stop: None, threads: 1 };
        for method in [Method::Graph, Method::Layers] {
            assert_eq!(
                solve_position(&start, Some(method), &tight, &mut |_| {}),
                Err(SolveError::OverMemory(1000))
            );
        }
        assert_eq!(
            solve_position(&start, Some(Method::AlphaBeta), &unlimited(), &mut |_| {}),
            Err(SolveError::Method(Method::AlphaBeta))
        );
        let quarto = AnyPosition::Quarto(Quarto::new(Rules { side: 3, level: 1 }).expect("3x3 Quarto"));
        assert_eq!(
            solve_position(&quarto, Some(Method::Proof), &unlimited(), &mut |_| {}),
            Err(SolveError::Method(Method::Proof))
        );
        assert_eq!(Method::parse("proof"), Some(Method::Proof));
        assert_eq!(Method::Proof.name(), "proof");
        let four =
            Quoridor::new(&Variant { width: 5, height: 5, players: 4, ..Variant::default() }).expect("4p");
        assert_eq!(
            solve_position(&AnyPosition::Quoridor(four), None, &unlimited(), &mut |_| {}),
            Err(SolveError::Players(4))
        );
        let stop = AtomicBool::new(true);
        let stopped = SolveLimits { max_bytes: 1 << 31, stop: Some(&stop), threads: 2 };
        let bigger = AnyPosition::Quoridor(quoridor(3, 5, 2));
        assert_eq!(solve_position(&bigger, None, &stopped, &mut |_| {}), Err(SolveError::Stopped));
    }
}
