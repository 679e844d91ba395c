//! The game on the board: variant, who sits in each seat, the moves played
//! and undone, the clocks, and what the engines last said. Every change goes
//! through here and is checked with the Tabula library; [`Table::view`] is
//! what the page draws, and `Table::load` (in `load`) brings a game in from
//! text.

use crate::candidates::Analysis;
use crate::clock::Clocks;
use crate::review_marks::Review;
pub use crate::thinking::{Eval, Thinking};
use arena::record::{play_recorded, replay};
use arena::referee::SKIPPED;
use arena::setup::{shortened, GameVariant, Opening};
use std::time::Instant;
use tabula::game::Outcome;
use tabula::games::AnyPosition;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    Human,
    /// The engine command, at a `Level` (None: full strength) and a time per move.
    Engine {
        level: Option<u32>,
        movetime_ms: u64,
    },
}

/// How a game ended other than on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ending {
    Resigned(usize),
    /// The seat's clock reached zero.
    Time(usize),
}

pub struct Table {
    pub variant: GameVariant,
    pub seats: Vec<Seat>,
    /// The start position text, when the game did not start from the
    /// variant's start.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// Moves taken back, the most recent last: `redo` plays them again.
    pub redo: Vec<String>,
    pub position: AnyPosition,
    /// The position before the last move (`None` before the first).
    pub before: Option<AnyPosition>,
    /// Hashes of the positions since the last irreversible move.
    history: Vec<u64>,
    pub ending: Option<Ending>,
    /// Counts every change to the moves or seats: an engine's answer to an
    /// older generation is dropped.
    pub generation: u64,
    /// Counts every change at all, for the page.
    pub version: u64,
    /// Counts the games (a new game, a game loaded): an engine hears
    /// `ucinewgame` before its first move of each.
    pub game: u64,
    pub thinking: Option<Thinking>,
    /// The engines' last score, from P1's point of view; kept through the
    /// moves that follow it, forgotten by a take-back.
    pub eval: Option<Eval>,
    /// The clocks, unless the game is played without (`tc=inf`).
    pub clock: Option<Clocks>,
    /// The last thing the page should tell the player (an engine fault, a
    /// refused move or file).
    pub notice: Option<String>,
    /// Analysis mode, when on (see `analysis`).
    pub analysis: Option<Analysis>,
    /// The game's review, under way or done (see `review`); dropped when
    /// the game's moves change.
    pub review: Option<Review>,
    /// A rated game: no hints, analysis or review until it ends.
    pub rated: bool,
}

impl Table {
    pub fn new(variant: GameVariant, seats: Vec<Seat>) -> Result<Table, String> {
        let position = variant.start()?;
        if seats.len() != variant.players() {
            return Err(format!("{} seats for {} players", seats.len(), variant.players()));
        }
        Ok(Table {
            variant,
            seats,
            start: None,
            moves: Vec::new(),
            redo: Vec::new(),
            position,
            before: None,
            history: Vec::new(),
            ending: None,
            generation: 0,
            version: 0,
            game: 0,
            thinking: None,
            analysis: None,
            review: None,
            rated: false,
            eval: None,
            clock: None,
            notice: None,
        })
    }

    /// The game as arena's openings describe one: start and moves.
    pub fn game(&self) -> Opening {
        Opening { fen: self.start.clone(), moves: self.moves.clone() }
    }

    /// Marks a change; `moves_changed` also retires engines' pending answers.
    pub fn touch(&mut self, moves_changed: bool) {
        self.version += 1;
        if moves_changed {
            self.generation += 1;
            self.thinking = None;
            if self.follow_analysis().is_err() {
                self.analysis = None;
            }
            // Stepping (undo, redo) keeps the game's line; a new move does not.
            if self.review.as_ref().is_some_and(|r| r.line != self.line()) {
                self.review = None;
            }
        }
    }

    /// Recomputes the position from the start and the moves (a loaded
    /// four-player record's skipped turns, `-`, included).
    pub(crate) fn replay(&mut self) -> Result<(), String> {
        let (position, history) = replay(&self.game(), &self.variant)?;
        self.before = match self.moves.len() {
            0 => None,
            n => Some(
                replay(
                    &Opening { fen: self.start.clone(), moves: self.moves[..n - 1].to_vec() },
                    &self.variant,
                )?
                .0,
            ),
        };
        self.position = position;
        self.history = history;
        Ok(())
    }

    /// Threefold repetition: the position has been seen twice before.
    fn repeated(&self) -> bool {
        let hash = self.position.hash();
        self.history.iter().filter(|&&h| h == hash).count() >= 2
    }

    /// The result, if the game is over: the winning seat or a draw, and why.
    pub fn result(&self) -> Option<(Option<usize>, String)> {
        let two = self.variant.players() == 2;
        match self.ending {
            Some(Ending::Resigned(seat)) => {
                return Some((two.then_some(1 - seat), format!("P{} resigns", seat + 1)))
            }
            Some(Ending::Time(seat)) => {
                return Some((two.then_some(1 - seat), format!("P{} loses on time", seat + 1)))
            }
            None => {}
        }
        match self.position.outcome() {
            Some(Outcome::Win(seat)) => Some((Some(seat), format!("P{} wins", seat + 1))),
            Some(Outcome::Draw) => Some((None, "draw".into())),
            None if self.repeated() => Some((None, "draw by threefold repetition".into())),
            None => None,
        }
    }

    /// Refuses help from the engine (hints, analysis, review) while a rated
    /// game goes on.
    pub fn help_allowed(&self, what: &str) -> Result<(), String> {
        match self.rated && self.result().is_none() {
            true => Err(format!("{what}: not during a rated game (after it ends)")),
            false => Ok(()),
        }
    }

    /// The seat to move, unless the game is over.
    pub fn seat_to_move(&self) -> Option<usize> {
        self.result().is_none().then(|| self.position.side_to_move())
    }

    /// Refuses when the seat to move is an engine's: a person's move or
    /// resignation is not taken for it.
    pub fn human_to_move(&self) -> Result<(), String> {
        match self.seat_to_move() {
            Some(seat) if self.seats[seat] != Seat::Human => Err(format!(
                "P{} is played by the engine: wait for its move, or make the seat human",
                seat + 1
            )),
            _ => Ok(()),
        }
    }

    /// Plays a move given in notation if it is legal; says why not otherwise.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let now = Instant::now();
        self.flag(now);
        if let Some((_, why)) = self.result() {
            return Err(format!("the game is over ({why})"));
        }
        let mut next = self.position.clone();
        let mv = next.parse_move(text).map_err(|e| shortened(&e.to_string()))?;
        // The move as the engine spells it, so that the record reads alike.
        let name = next.format_move(mv).unwrap_or_else(|| text.to_string());
        let irreversible = next.play_text(&name).map_err(|e| e.to_string())?;
        if irreversible {
            self.history.clear();
        } else {
            self.history.push(self.position.hash());
        }
        self.before = Some(std::mem::replace(&mut self.position, next));
        if let Some(clocks) = &mut self.clock {
            clocks.moved(now);
        }
        if self.redo.last() == Some(&name) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.moves.push(name);
        self.notice = None;
        self.run_clock(now);
        self.touch(true);
        Ok(())
    }

    /// Takes back the last move (or the resignation or loss on time); the
    /// clocks go back to what they showed before it.
    pub fn undo(&mut self) -> Result<(), String> {
        if self.ending.take().is_none() {
            let last = self.moves.pop().ok_or("no move to take back")?;
            self.redo.push(last);
            self.replay()?;
            self.eval = None;
        }
        if let Some(clocks) = &mut self.clock {
            clocks.back_to(self.moves.len());
        }
        self.run_clock(Instant::now());
        self.touch(true);
        Ok(())
    }

    /// Starts the clock of the seat to move, or stops the clocks when the
    /// game is over.
    pub fn run_clock(&mut self, now: Instant) {
        let to_move = self.seat_to_move();
        if let Some(clocks) = &mut self.clock {
            match to_move {
                Some(seat) => clocks.run(seat, now),
                None => clocks.stop(now),
            }
        }
    }

    /// Ends the game on time if the running clock has reached zero at `now`;
    /// says whether it did.
    pub fn flag(&mut self, now: Instant) -> bool {
        let Some(seat) = self.clock.as_ref().and_then(|c| c.fallen(now)) else { return false };
        if self.result().is_some() {
            return false;
        }
        self.ending = Some(Ending::Time(seat));
        self.run_clock(now);
        self.touch(true);
        true
    }

    /// Takes back moves until a human is to move (one move when nobody is
    /// human): against an engine, the player gets their own turn back.
    pub fn take_back(&mut self) -> Result<(), String> {
        self.undo()?;
        let any_human = self.seats.contains(&Seat::Human);
        while any_human && !self.moves.is_empty() && self.seats[self.position.side_to_move()] != Seat::Human {
            self.undo()?;
        }
        Ok(())
    }

    /// Plays again the last move taken back; a skipped turn of a loaded
    /// four-player record (`-`) passes the turn on.
    pub fn redo(&mut self) -> Result<(), String> {
        let next = self.redo.last().cloned().ok_or("no move to play again")?;
        if next != SKIPPED {
            return self.play(&next);
        }
        if let Some((_, why)) = self.result() {
            return Err(format!("the game is over ({why})"));
        }
        let before = self.position.clone();
        play_recorded(&mut self.position, SKIPPED)?;
        self.before = Some(before);
        if let Some(clocks) = &mut self.clock {
            clocks.moved(Instant::now());
        }
        self.run_clock(Instant::now());
        self.history.clear();
        self.redo.pop();
        self.moves.push(next);
        self.notice = None;
        self.touch(true);
        Ok(())
    }

    /// The player to move gives up.
    pub fn resign(&mut self) -> Result<(), String> {
        let seat = self.seat_to_move().ok_or("the game is over")?;
        self.ending = Some(Ending::Resigned(seat));
        self.run_clock(Instant::now());
        self.touch(true);
        Ok(())
    }

    /// The `position ...` command that sets this game up in an engine.
    /// After a skipped turn (`-`) it starts from the position there, as
    /// arena tells its engines.
    pub fn position_command(&self) -> String {
        let skipped = self.moves.iter().rposition(|m| m == SKIPPED);
        let base = match skipped {
            Some(at) => {
                let before = Opening { fen: self.start.clone(), moves: self.moves[..=at].to_vec() };
                replay(&before, &self.variant).ok().map(|(position, _)| position.to_text())
            }
            None => self.start.clone(),
        };
        let mut line = match &base {
            Some(text) => format!("position fen {text}"),
            None => "position startpos".to_string(),
        };
        let moves = &self.moves[skipped.map_or(0, |at| at + 1)..];
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::games::quoridor::Variant;

    fn small() -> Table {
        let variant = GameVariant::Quoridor(Variant { width: 5, height: 5, walls: 2, ..Variant::default() });
        Table::new(variant, vec![Seat::Human, Seat::Human]).expect("5x5 is a variant")
    }

    #[test]
    fn moves_are_checked_taken_back_and_played_again() {
        let mut table = small();
        table.play("c2").expect("a pawn step");
        assert!(table.play("c1").is_err(), "P2 cannot step onto P1's start");
        table.play("C4").expect("notation in either case");
        assert_eq!(table.moves, ["c2", "c4"]);
        table.undo().expect("undo");
        table.undo().expect("undo");
        assert_eq!((table.moves.len(), table.redo.len()), (0, 2));
        table.redo().expect("redo");
        assert_eq!(table.position_command(), "position startpos moves c2");
        table.play("b5").expect("another move");
        assert!(table.redo.is_empty(), "a new move forgets the moves taken back");
        assert!(table.undo().is_ok() && table.undo().is_ok() && table.undo().is_err());
    }

    #[test]
    fn a_wall_that_shuts_a_pawn_in_is_refused_with_the_reason() {
        let mut table = small();
        for m in ["c1h", "b1v"] {
            table.play(m).expect("walls beside P1");
        }
        // d1v would close P1 into c1 and d1.
        let refused = table.play("d1v").expect_err("d1v shuts P1 in");
        assert!(refused.contains("cut a player off"), "{refused}");
        assert_eq!(table.moves, ["c1h", "b1v"]);
        table.play("d1h").expect_err("overlaps c1h");
        table.play("d2v").expect("a wall that leaves a way out");
        let view = table.view().to_string();
        assert!(view.contains(r#""walls":["c1h","b1v","d2v"]"#), "{view}");
        assert!(view.contains(r#""pawns":["c1","c5"]"#), "{view}");
    }

    #[test]
    fn taking_back_against_an_engine_returns_the_human_turn() {
        let mut table = small();
        table.seats[1] = Seat::Engine { level: Some(1), movetime_ms: 10 };
        for m in ["c2", "c4", "c3h"] {
            table.play(m).expect("moves");
        }
        table.take_back().expect("back to P1's turn");
        assert_eq!(table.moves, ["c2", "c4"]);
        table.play("b2").expect("a P1 move");
        table.take_back().expect("back over P1's move");
        table.play("d2").expect("P2 is an engine: P1 moves again");
        assert_eq!(table.moves, ["c2", "c4", "d2"]);
    }

    #[test]
    fn a_game_ends_by_resigning_and_undo_takes_it_back() {
        let mut table = small();
        table.resign().expect("P1 resigns");
        assert_eq!(table.result(), Some((Some(1), "P1 resigns".into())));
        assert!(table.play("c2").is_err());
        table.undo().expect("undo the resignation");
        assert_eq!(table.result(), None);
    }

    #[test]
    fn a_person_does_not_move_for_an_engine() {
        let mut table = small();
        table.seats[0] = Seat::Engine { level: Some(1), movetime_ms: 10 };
        assert!(table.human_to_move().is_err_and(|e| e.contains("P1 is played by the engine")));
        table.play("c2").expect("the engine's move");
        assert_eq!(table.human_to_move(), Ok(()));
    }

    #[test]
    fn a_refused_move_is_quoted_short() {
        let mut table = small();
        let refused = table.play(&"x".repeat(3 << 20)).expect_err("not a move");
        assert!(refused.len() < 120 && refused.contains("xxx..."), "{} bytes", refused.len());
    }
}
