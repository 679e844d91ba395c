//! Plays one game between engine processes and judges every move with the
//! engine library: an illegal or malformed move, a crash, or no `bestmove`
//! within the clock and margin loses for that engine. With four players the
//! failing engine is out: its pawn stays where it is, its turns are skipped,
//! and the game goes on until a pawn reaches its goal or one engine is left.

use crate::adjudicate::{Adjudication, Adjudicator, Verdict};
use crate::engine::{EngineError, EngineProcess, Protocol, SearchReport, SearchStats};
use crate::race::race_verdict;
use crate::setup::{opening_position, GameVariant, Limit, Opening};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tabula::game::Outcome;
use tabula::game::{Notation, Position};
use tabula::games::AnyPosition;

/// Everything one game needs besides the engines.
pub struct GameSetup<'a> {
    pub variant: &'a GameVariant,
    pub opening: &'a Opening,
    /// The limit of the engine in each seat.
    pub limits: Vec<Limit>,
    /// Extra time an engine may take beyond its clock before it loses.
    pub margins: Vec<Duration>,
    /// Seats under `tc=inf`: no clock, so their node- or depth-limited
    /// search is awaited as long as it takes (an interrupt still ends it).
    pub unclocked: Vec<bool>,
    pub max_plies: usize,
    /// `-maxmoves`: a draw once every player has made this many moves
    /// (this many times the players in plies, the opening not counted).
    pub max_moves: Option<usize>,
    /// `-draw`, `-resign` and `-adjudicate race` (two players).
    pub adjudication: Adjudication,
    /// Set when the whole run is being interrupted.
    pub interrupted: &'a AtomicBool,
}

/// How an engine failed, for the statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    TimeLoss,
    Illegal,
    Crash,
}

/// One move as played.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub seat: usize,
    pub text: String,
    pub millis: u64,
    /// The engine's last reported score (`cp N`, `mate N`), if any.
    pub score: Option<String>,
    /// The depth it reported with that score.
    pub depth: Option<u32>,
    /// The nodes, selective depth and speed it reported.
    pub stats: SearchStats,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    pub termination: String,
    pub moves: Vec<PlayedMove>,
    /// Faults per seat, in the order they happened.
    pub faults: Vec<(usize, Fault)>,
    /// True when the run was interrupted: the game does not count.
    pub interrupted: bool,
    /// A comment after the last move in the record: the race solver's
    /// line when `-adjudicate race` ended the game.
    pub comment: Option<String>,
}

impl GameRecord {
    /// A game the run's interrupt cut short: it does not count.
    pub fn interrupted() -> GameRecord {
        GameRecord {
            winner: None,
            termination: "interrupted".into(),
            moves: Vec::new(),
            faults: Vec::new(),
            interrupted: true,
            comment: None,
        }
    }
}

/// How long a `tc=inf` engine's move is awaited: for all practical
/// purposes for ever (a year), yet a deadline that an `Instant` holds.
const UNCLOCKED_WAIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// The record's mark for the skipped turn of a seat that is out.
pub const SKIPPED: &str = "-";

/// Clock of one seat.
struct Clock {
    left: Duration,
    moves_made: u32,
}

/// A game under way: the referee's position and history, what the engines
/// were last told, the clocks, the seats that are out, and the record.
struct Game {
    position: AnyPosition,
    /// Hashes since the last irreversible move, for threefold repetition.
    history: Vec<u64>,
    /// What the engines are told: a base position text (or startpos) and the
    /// moves since; after a skipped turn the base becomes the current position.
    base: Option<String>,
    since_base: Vec<String>,
    clocks: Vec<Clock>,
    out: [bool; 4],
    plies: usize,
    adjudicator: Adjudicator,
    /// What adjudication decided after the last move, if anything.
    verdict: Option<Verdict>,
    record: GameRecord,
    /// QTP engines: how many moves of `since_base` each seat has heard.
    heard: [usize; 4],
    /// Seats whose engine failed to set up the game (QTP), and why.
    failed_setup: Vec<(usize, Fault, String)>,
}

/// Plays the game; `engines[seat]` plays seat `seat`. A seat without an
/// engine (it failed to start; four players only) is out from the start.
pub fn play_game(setup: &GameSetup, engines: &mut [Option<EngineProcess>]) -> GameRecord {
    let mut game = match Game::start(setup, engines) {
        Ok(game) => game,
        Err(record) => return record,
    };
    for (seat, fault, why) in std::mem::take(&mut game.failed_setup) {
        if game.retire(setup, seat, fault, &why) {
            return game.record;
        }
    }
    while !game.is_over(setup) {
        let seat = game.position.side_to_move();
        if game.out[seat] {
            if !game.skip_turn(seat) {
                break;
            }
            continue;
        }
        let Some(engine) = engines[seat].as_mut() else { continue };
        let (answer, elapsed) = game.ask_move(setup, engine, seat);
        if setup.interrupted.load(Ordering::Relaxed) {
            game.record.interrupted = true;
            game.record.termination = "interrupted".into();
            break;
        }
        if let Some((fault, why)) = game.judge(setup, seat, answer, elapsed) {
            if game.retire(setup, seat, fault, &why) {
                break;
            }
        }
    }
    game.record
}

impl Game {
    /// The opening played out, the clocks set, and the engines told a new
    /// game begins; a bad opening ends the game before it starts.
    fn start(setup: &GameSetup, engines: &mut [Option<EngineProcess>]) -> Result<Game, GameRecord> {
        let mut record = GameRecord {
            winner: None,
            termination: String::new(),
            moves: Vec::new(),
            faults: Vec::new(),
            interrupted: false,
            comment: None,
        };
        let (position, history) = opening_position(setup.opening, setup.variant).map_err(|e| {
            record.termination = format!("bad opening: {e}");
            record.clone()
        })?;
        let clocks = setup
            .limits
            .iter()
            .map(|l| Clock {
                left: if let Limit::Clock { base, .. } = l { *base } else { Duration::ZERO },
                moves_made: 0,
            })
            .collect();
        let mut out = [false; 4];
        let mut failed_setup = Vec::new();
        for (seat, engine) in engines.iter_mut().enumerate() {
            match engine {
                Some(engine) if engine.protocol == Protocol::Qtp => {
                    if setup.opening.fen.is_some() {
                        record.termination = "bad opening: a QTP engine starts from the start position \
                                              (an opening given as a position cannot be played)"
                            .into();
                        return Err(record);
                    }
                    let GameVariant::Quoridor(v) = setup.variant else {
                        record.termination = "QTP engines play Quoridor only".into();
                        return Err(record);
                    };
                    if let Err(e) =
                        crate::engine::qtp::new_game(engine, v.width, v.walls, &setup.limits[seat])
                    {
                        failed_setup.push((seat, fault_of(&e), e.to_string()));
                    }
                }
                Some(engine) => {
                    let _ = engine.send("ucinewgame");
                }
                None => out[seat] = true,
            }
        }
        Ok(Game {
            position,
            history,
            base: setup.opening.fen.clone(),
            since_base: setup.opening.moves.clone(),
            clocks,
            out,
            plies: 0,
            adjudicator: Adjudicator::new(setup.adjudication),
            verdict: None,
            record,
            heard: [0; 4],
            failed_setup,
        })
    }

    /// Whether the rules, a threefold repetition, the race solver
    /// (`-adjudicate race`), score adjudication or the ply limit end the
    /// game here; if so the record says how.
    fn is_over(&mut self, setup: &GameSetup) -> bool {
        let record = &mut self.record;
        if let Some(outcome) = self.position.outcome() {
            match outcome {
                Outcome::Win(seat) => {
                    record.winner = Some(seat);
                    record.termination = match setup.variant {
                        GameVariant::Quarto(_) => format!("P{} completes a pattern", seat + 1),
                        _ => format!("P{} reaches the goal", seat + 1),
                    };
                }
                Outcome::Draw => record.termination = "no piece left".into(),
            }
        } else if self.history.iter().filter(|&&h| h == self.position.hash()).count() >= 2 {
            record.termination = "threefold repetition".into();
        } else if let Some(race) = setup.adjudication.race.then(|| race_verdict(&self.position)).flatten() {
            record.winner = race.winner;
            record.termination = race.termination();
            if !race.line.is_empty() {
                record.comment = Some(format!("race line: {}", race.line.join(" ")));
            }
        } else if let Some(verdict) = self.verdict.take() {
            match verdict {
                Verdict::Draw(why) => record.termination = why,
                Verdict::Loss(seat, why) => {
                    record.winner = Some(1 - seat.min(1));
                    record.termination = why;
                }
            }
        } else if self.plies >= setup.max_plies {
            record.termination = format!("ply limit {} reached", setup.max_plies);
        } else if let Some(moves) = setup.max_moves.filter(|&m| self.plies >= m * setup.variant.players()) {
            record.termination = format!("move limit {moves} reached");
        } else {
            return false;
        }
        true
    }

    /// Passes the turn of a seat that is out; false (and the game ends)
    /// when the turn cannot be passed.
    fn skip_turn(&mut self, seat: usize) -> bool {
        let Some(next) = skip_turn(&self.position) else {
            self.record.termination = "cannot skip the turn of an engine that is out".into();
            return false;
        };
        self.position = next;
        // Shown as `-` in records; see `record`.
        self.record.moves.push(PlayedMove {
            seat,
            text: SKIPPED.into(),
            millis: 0,
            score: None,
            depth: None,
            stats: SearchStats::default(),
        });
        // The engines hear the game again from this position; the referee
        // keeps its history, so repetitions still count.
        self.base = Some(self.position.to_text());
        self.since_base.clear();
        true
    }

    /// Tells `engine` the game and its clock and waits for its move, at
    /// most its budget and margin.
    fn ask_move(
        &mut self,
        setup: &GameSetup,
        engine: &mut EngineProcess,
        seat: usize,
    ) -> (Result<(String, SearchReport), EngineError>, Duration) {
        let budget = match &setup.limits[seat] {
            _ if setup.unclocked.get(seat) == Some(&true) => UNCLOCKED_WAIT,
            Limit::Clock { .. } => self.clocks[seat].left,
            Limit::MoveTime(t) => *t,
            Limit::Nodes(_) | Limit::Depth(_) => Duration::from_secs(60),
        };
        if engine.protocol == Protocol::Qtp {
            return self.ask_qtp_move(setup, engine, seat, budget);
        }
        let command = go_command(setup, &self.clocks, setup.variant.players(), seat);
        let moves = self.since_base.join(" ");
        let position_line = match &self.base {
            None => format!("position startpos moves {moves}"),
            Some(text) => format!("position fen {text} moves {moves}"),
        };
        let started = Instant::now();
        let answer = engine
            .send(position_line.trim_end())
            .and_then(|_| engine.send(&command))
            .and_then(|_| wait_bestmove(engine, started + budget + setup.margins[seat], setup.interrupted));
        (answer, started.elapsed())
    }

    /// A QTP engine's move: the moves it has not heard, its clock (where
    /// it lists `time_left`), then `genmove`; the clock runs from `genmove`.
    fn ask_qtp_move(
        &mut self,
        setup: &GameSetup,
        engine: &mut EngineProcess,
        seat: usize,
        budget: Duration,
    ) -> (Result<(String, SearchReport), EngineError>, Duration) {
        let size = match setup.variant {
            GameVariant::Quoridor(v) => v.width,
            GameVariant::Quarto(_) => 0,
        };
        let told =
            crate::engine::qtp::tell(engine, &self.since_base, self.heard[seat], size).and_then(|_| {
                self.heard[seat] = self.since_base.len();
                match &setup.limits[seat] {
                    Limit::Clock { moves, .. } => {
                        let clock = &self.clocks[seat];
                        let stones = moves.map_or(0, |m| m - clock.moves_made % m);
                        crate::engine::qtp::time_left(engine, seat, clock.left, stones)
                    }
                    _ => Ok(()),
                }
            });
        let started = Instant::now();
        let answer = told.and_then(|_| {
            crate::engine::qtp::genmove(engine, seat, size, started + budget + setup.margins[seat])
                .map(|text| (text, SearchReport::default()))
        });
        if answer.is_ok() {
            // The engine played its own move on its board.
            self.heard[seat] += 1;
        }
        (answer, started.elapsed())
    }

    /// Plays the answer if it is a legal move in time; otherwise says how
    /// the engine failed.
    fn judge(
        &mut self,
        setup: &GameSetup,
        seat: usize,
        answer: Result<(String, SearchReport), EngineError>,
        elapsed: Duration,
    ) -> Option<(Fault, String)> {
        let (text, report) = match answer {
            Err(EngineError::Timeout(_)) => return Some((Fault::TimeLoss, "loses on time".to_string())),
            Err(e) => return Some((fault_of(&e), e.to_string())),
            Ok(found) => found,
        };
        let limit = &setup.limits[seat];
        if matches!(limit, Limit::Clock { .. }) && elapsed > self.clocks[seat].left + setup.margins[seat] {
            return Some((Fault::TimeLoss, "loses on time".to_string()));
        }
        let mut next = self.position.clone();
        match next.play_text(&text) {
            Err(e) => return Some((Fault::Illegal, format!("plays an illegal move ({e})"))),
            Ok(true) => self.history.clear(),
            Ok(false) => self.history.push(self.position.hash()),
        }
        self.position = next;
        let millis = elapsed.as_millis() as u64;
        let SearchReport { score, depth, stats } = report;
        let before = setup.opening.moves.len() + self.plies;
        self.verdict = self.adjudicator.record(seat, before, score.as_deref());
        self.record.moves.push(PlayedMove { seat, text: text.clone(), millis, score, depth, stats });
        self.since_base.push(text);
        charge_clock(&mut self.clocks[seat], limit, elapsed);
        self.plies += 1;
        None
    }

    /// Puts a failed seat out; true when that ends the game (two players,
    /// or one engine left).
    fn retire(&mut self, setup: &GameSetup, seat: usize, fault: Fault, why: &str) -> bool {
        self.record.faults.push((seat, fault));
        self.out[seat] = true;
        let players = setup.variant.players();
        let still_in: Vec<usize> = (0..players).filter(|&s| !self.out[s]).collect();
        if players == 2 || still_in.len() == 1 {
            self.record.winner = still_in.first().copied();
            self.record.termination = capped(&format!("P{} {why}", seat + 1));
            return true;
        }
        false
    }
}

/// The fault of an engine that failed to answer as it had to.
fn fault_of(error: &EngineError) -> Fault {
    match error {
        EngineError::Timeout(_) => Fault::TimeLoss,
        // Counted with the time losses: it loses the game, and the match goes on.
        EngineError::Flood(_) => Fault::TimeLoss,
        // A QTP engine that answers `?` to what it must do plays no legal move.
        EngineError::Refused(..) => Fault::Illegal,
        _ => Fault::Crash,
    }
}

/// Waits for the move, giving up early if the run is interrupted.
fn wait_bestmove(
    engine: &mut EngineProcess,
    deadline: Instant,
    interrupted: &AtomicBool,
) -> Result<(String, SearchReport), EngineError> {
    let slice = Duration::from_millis(50);
    let mut last_score = SearchReport::default();
    loop {
        let until = deadline.min(Instant::now() + slice);
        match engine.wait_bestmove_scored(until, &mut last_score) {
            Ok(found) => return Ok(found),
            Err(EngineError::Timeout(_)) if Instant::now() < deadline => {
                if interrupted.load(Ordering::Relaxed) {
                    return Err(EngineError::Timeout("bestmove"));
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// The `go` line for the seat to move. With clocks, every clocked seat's
/// time and increment go out, so each engine sees its opponents' time too.
fn go_command(setup: &GameSetup, clocks: &[Clock], players: usize, seat: usize) -> String {
    match &setup.limits[seat] {
        Limit::MoveTime(t) => format!("go movetime {}", t.as_millis().max(1)),
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::Depth(d) => format!("go depth {d}"),
        Limit::Clock { moves, .. } => {
            let mut line = "go".to_string();
            for (s, limit) in setup.limits.iter().enumerate().take(players) {
                let Limit::Clock { increment, .. } = limit else { continue };
                let (time_key, inc_key) = if players == 2 {
                    (["wtime", "btime"][s].to_string(), ["winc", "binc"][s].to_string())
                } else {
                    (format!("p{}time", s + 1), format!("p{}inc", s + 1))
                };
                line.push_str(&format!(
                    " {time_key} {} {inc_key} {}",
                    clocks[s].left.as_millis(),
                    increment.as_millis()
                ));
            }
            if let Some(m) = moves {
                line.push_str(&format!(" movestogo {}", m - clocks[seat].moves_made % m));
            }
            line
        }
    }
}

fn charge_clock(clock: &mut Clock, limit: &Limit, elapsed: Duration) {
    if let Limit::Clock { moves, base, increment } = limit {
        clock.left = clock.left.saturating_sub(elapsed) + *increment;
        clock.moves_made += 1;
        if moves.is_some_and(|m| clock.moves_made.is_multiple_of(m)) {
            clock.left += *base;
        }
    }
}

/// The position with the turn passed to the next seat, for a seat that is
/// out (four-player Quoridor); `None` for a game where no turn is skipped.
pub fn skip_turn(position: &AnyPosition) -> Option<AnyPosition> {
    let AnyPosition::Quoridor(q) = position else { return None };
    let text = q.to_text();
    let next = (q.side_to_move() + 1) % q.player_count() + 1;
    let skipped = text.replace(&format!("turn={}", q.side_to_move() + 1), &format!("turn={next}"));
    tabula::games::quoridor::Quoridor::from_text(&skipped).ok().map(AnyPosition::Quoridor)
}

/// Terminations quote engine output (an illegal move, an error): at most
/// this many characters of them, so that a babbling engine cannot fill the
/// `Finished game` lines and PGN tags with megabytes.
const TERMINATION_CHARS: usize = 120;

/// `text` cut to `TERMINATION_CHARS` characters on a character boundary,
/// marked with `...` when cut.
pub fn capped(text: &str) -> String {
    match text.char_indices().nth(TERMINATION_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}
