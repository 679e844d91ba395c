//! The game on the board: variant, who sits in each seat, the moves played
//! and undone, and what the engines last said. Every change goes through
//! here and is checked with the Tabula library; [`Table::view`] is what the
//! page draws.

use arena::record::read_records;
use arena::setup::{opening_position, GameVariant, Opening};
use tabula::game::Outcome;
use tabula::game::Position;
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

/// What an engine said while thinking (its last `info` line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thinking {
    pub seat: usize,
    pub depth: Option<u32>,
    pub score: Option<String>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

/// How a game ended other than on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ending {
    Resigned(usize),
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
    /// Hashes of the positions since the last irreversible move.
    history: Vec<u64>,
    pub ending: Option<Ending>,
    /// Counts every change to the moves or seats: an engine's answer to an
    /// older generation is dropped.
    pub generation: u64,
    /// Counts every change at all, for the page.
    pub version: u64,
    pub thinking: Option<Thinking>,
    /// The last thing the page should tell the player (an engine fault, a
    /// refused move or file).
    pub notice: Option<String>,
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
            history: Vec::new(),
            ending: None,
            generation: 0,
            version: 0,
            thinking: None,
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
        }
    }

    /// Recomputes the position from the start and the moves.
    fn replay(&mut self) -> Result<(), String> {
        let (position, history) = opening_position(&self.game(), &self.variant)?;
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
        if let Some(Ending::Resigned(seat)) = self.ending {
            let winner = (self.variant.players() == 2).then_some(1 - seat);
            return Some((winner, format!("P{} resigns", seat + 1)));
        }
        match self.position.outcome() {
            Some(Outcome::Win(seat)) => Some((Some(seat), format!("P{} wins", seat + 1))),
            Some(Outcome::Draw) => Some((None, "draw".into())),
            None if self.repeated() => Some((None, "draw by threefold repetition".into())),
            None => None,
        }
    }

    /// The seat to move, unless the game is over.
    pub fn seat_to_move(&self) -> Option<usize> {
        self.result().is_none().then(|| self.position.side_to_move())
    }

    /// Plays a move given in notation if it is legal; says why not otherwise.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        if let Some((_, why)) = self.result() {
            return Err(format!("the game is over ({why})"));
        }
        let mut next = self.position.clone();
        let mv = next.parse_move(text).map_err(|e| e.to_string())?;
        // The move as the engine spells it, so that the record reads alike.
        let name = next.format_move(mv).unwrap_or_else(|| text.to_string());
        let irreversible = next.play_text(&name).map_err(|e| e.to_string())?;
        if irreversible {
            self.history.clear();
        } else {
            self.history.push(self.position.hash());
        }
        self.position = next;
        if self.redo.last() == Some(&name) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.moves.push(name);
        self.notice = None;
        self.touch(true);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), String> {
        if self.ending.take().is_none() {
            let last = self.moves.pop().ok_or("no move to take back")?;
            self.redo.push(last);
            self.replay()?;
        }
        self.touch(true);
        Ok(())
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

    /// Plays again the last move taken back.
    pub fn redo(&mut self) -> Result<(), String> {
        let next = self.redo.last().cloned().ok_or("no move to play again")?;
        self.play(&next)
    }

    /// The player to move gives up.
    pub fn resign(&mut self) -> Result<(), String> {
        let seat = self.seat_to_move().ok_or("the game is over")?;
        self.ending = Some(Ending::Resigned(seat));
        self.touch(true);
        Ok(())
    }

    /// Loads an arena record (the first one in `text`) with all its moves
    /// ready to step through from the start, or a position text, optionally
    /// followed by `moves ...`, or a `position ...` command. Every seat
    /// becomes human, so that nobody moves on by itself.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let (variant, game, redo) = if text.trim_start().starts_with('[') {
            let record = read_records(text).into_iter().next().ok_or("no record in the file")??;
            let mut moves = record.game.moves.clone();
            moves.reverse();
            (record.variant, Opening { fen: record.game.fen, moves: Vec::new() }, moves)
        } else {
            let game = parse_position_line(text)?;
            (variant_of_text(game.fen.as_deref().unwrap_or(""))?, game, Vec::new())
        };
        let mut table = Table::new(variant.clone(), vec![Seat::Human; variant.players()])?;
        table.start = game.fen;
        table.moves = game.moves;
        table.replay()?;
        table.redo = redo;
        table.version = self.version;
        table.generation = self.generation;
        *self = table;
        self.touch(true);
        Ok(())
    }

    /// The `position ...` command that sets this game up in an engine.
    pub fn position_command(&self) -> String {
        let mut line = match &self.start {
            Some(text) => format!("position fen {text}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }
}

/// The variant a position text belongs to.
fn variant_of_text(text: &str) -> Result<GameVariant, String> {
    use tabula::games::quarto::Quarto;
    use tabula::games::quoridor::{Quoridor, Variant};
    match text.split_whitespace().next() {
        Some("quoridor") => {
            let q = Quoridor::from_text(text).map_err(|e| e.to_string())?;
            let variant = Variant {
                width: q.width(),
                height: q.height(),
                players: q.player_count(),
                multi_jump: q.multi_jump(),
                walls: (0..q.player_count()).map(|s| q.walls_in_hand(s)).max().unwrap_or(0),
            };
            Ok(GameVariant::Quoridor(variant))
        }
        Some("quarto") => {
            Ok(GameVariant::Quarto(Quarto::from_text(text).map_err(|e| e.to_string())?.rules()))
        }
        _ => Err("not a record, a position text or a 'position' command".into()),
    }
}

/// `[position] fen TEXT [moves ...]`, `TEXT [moves ...]` (a position text) or
/// `position startpos ...` is refused: a start position needs a variant.
fn parse_position_line(text: &str) -> Result<Opening, String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).ok_or("nothing to load")?;
    let line = line.strip_prefix("position").map_or(line, str::trim_start);
    let line = line.strip_prefix("fen").map_or(line, str::trim_start);
    if line.starts_with("startpos") {
        return Err("'startpos' names no variant: give a position text or a record".into());
    }
    let (fen, moves) = match line.split_once(" moves") {
        Some((fen, moves)) => (fen.trim(), moves.split_whitespace().map(String::from).collect()),
        None => (line, Vec::new()),
    };
    Ok(Opening { fen: Some(fen.to_string()), moves })
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
    fn records_and_position_texts_load() {
        let mut table = small();
        let record = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=2 players=2\"]\n\nc2 c4 c3\n1-0\n";
        table.load(record).expect("a record loads");
        assert_eq!((table.moves.len(), table.redo.len()), (0, 3));
        for _ in 0..3 {
            table.redo().expect("step forward");
        }
        assert_eq!(table.moves, ["c2", "c4", "c3"]);
        table
            .load("position fen quarto 3x3 level=1 board=.../.../... hand=- turn=1 moves 0")
            .expect("a command");
        assert_eq!((table.variant.describe().as_str(), table.moves.len()), ("quarto 3x3 level=1", 1));
        assert!(table.load("position startpos").is_err());
        let mut game = small();
        for m in ["c2", "c4", "b3h"] {
            game.play(m).expect("moves");
        }
        let record = game.record();
        assert!(record.contains("[Result \"*\"]\n") && record.contains("\nc2 c4 b3h\n*\n"), "{record}");
        table.load(&record).expect("a saved game loads");
        assert_eq!(table.redo.len(), 3);
        game.resign().expect("resigns");
        assert!(game.record().contains("[Result \"1-0\"]"));
        assert!(table.load("[Game \"1\"]\n[Variant \"chess\"]\n\ne4\n").is_err());
    }
}
