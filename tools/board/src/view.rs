//! What the page sees of a table ([`Table::view`], JSON: the board, seats,
//! clocks, moves, the last move, the engines' thinking and evaluation) and
//! the record a player saves ([`Table::record`], arena's format).

use crate::candidates::Analysis;
use crate::json::Json;
use crate::review_record::{game_comment, played_score};
use crate::table::{Eval, Seat, Table, Thinking};
use arena::record::{format_record, play_recorded, result_token, today};
use arena::referee::{GameRecord, PlayedMove};
use arena::setup::Job;
use arena::setup::{opening_position, GameVariant, Opening};
use std::time::{Instant, SystemTime};
use tabula::game::{Outcome, Position};
use tabula::games::quoridor::bitboard::STRIDE;
use tabula::games::AnyPosition;

impl Table {
    /// The game as an arena record (`[Result "*"]` while it goes on), which
    /// `load` and arena's readers take back: the whole line (moves taken
    /// back, or loaded and not yet stepped to, included), with the review's
    /// values when the game has one (see `review_marks`).
    pub fn record(&self) -> String {
        let mut position =
            match opening_position(&Opening { fen: self.start.clone(), moves: Vec::new() }, &self.variant) {
                Ok((position, _)) => position,
                Err(_) => return String::new(),
            };
        let mut moves = Vec::new();
        let line = self.line();
        let review = self.review.as_ref().filter(|r| r.line == line);
        for (ply, text) in line.iter().enumerate() {
            let seat = position.side_to_move();
            if play_recorded(&mut position, text).is_err() {
                break;
            }
            let (score, depth) = review.map_or((None, None), |r| played_score(r, ply));
            moves.push(PlayedMove {
                seat,
                text: text.clone(),
                millis: 0,
                score,
                depth,
                stats: Default::default(),
            });
        }
        // Past the moves played, the result is the line's end's own.
        let result = match self.redo.is_empty() {
            true => self.result(),
            false => position.outcome().map(|outcome| match outcome {
                Outcome::Win(seat) => (Some(seat), format!("P{} wins", seat + 1)),
                Outcome::Draw => (None, "draw".into()),
            }),
        };
        let players = self.variant.players();
        let record = GameRecord {
            winner: result.as_ref().and_then(|(winner, _)| *winner),
            termination: result.as_ref().map_or("unterminated".into(), |(_, why)| why.clone()),
            moves,
            faults: Vec::new(),
            interrupted: false,
            comment: review.map(game_comment),
        };
        let job = Job {
            number: 1,
            seats: (0..players).collect(),
            opening: Opening { fen: self.start.clone(), moves: Vec::new() },
            group: 0,
        };
        let names: Vec<String> = self
            .seats
            .iter()
            .map(|seat| match seat {
                Seat::Human => "Human".to_string(),
                Seat::Engine { level: Some(level), .. } => format!("Engine level {level}"),
                Seat::Engine { level: None, .. } => "Engine".to_string(),
            })
            .collect();
        let control = self.clock.as_ref().map_or("-".to_string(), |c| c.control.describe());
        let text = format_record(&job, &record, &names, &self.variant.describe(), &control, &today());
        if result.is_some() {
            return text;
        }
        // arena records only finished games; a game that goes on has no result.
        let drawn = result_token(&record, players);
        // The result is the tag's value and the movetext's last word.
        let tagged = text.replace(&format!("[Result \"{drawn}\"]"), "[Result \"*\"]");
        match tagged.strip_suffix(&format!("{drawn}\n\n")) {
            Some(before) => format!("{before}*\n\n"),
            None => tagged,
        }
    }

    /// Everything the page shows.
    pub fn view(&self) -> Json {
        let result = self.result();
        let seats = self.seats.iter().map(|seat| match seat {
            Seat::Human => Json::Object(vec![("kind", Json::text("human"))]),
            Seat::Engine { level, movetime_ms } => Json::Object(vec![
                ("kind", Json::text("engine")),
                ("level", Json::option(*level, |l| Json::Number(i64::from(l)))),
                ("movetime", Json::Number(*movetime_ms as i64)),
            ]),
        });
        let legal = if result.is_some() { Vec::new() } else { self.position.legal_move_names() };
        Json::Object(vec![
            ("version", Json::Number(self.version as i64)),
            ("variant", Json::text(self.variant.describe())),
            ("setup", setup_view(self)),
            ("board", board_view(&self.position)),
            ("seats", Json::List(seats.collect())),
            ("toMove", Json::option(self.seat_to_move(), |s| Json::Number(s as i64))),
            ("legal", Json::texts(legal)),
            ("moves", Json::texts(&self.moves)),
            ("last", self.last_move_view()),
            ("clock", self.clock_view()),
            ("eval", Json::option(self.eval, eval_view)),
            ("redo", Json::Number(self.redo.len() as i64)),
            (
                "result",
                Json::option(result, |(winner, why)| {
                    Json::Object(vec![
                        ("winner", Json::option(winner, |w| Json::Number(w as i64))),
                        ("why", Json::text(why)),
                    ])
                }),
            ),
            ("thinking", Json::option(self.thinking.as_ref(), thinking_view)),
            ("analysis", Json::option(self.analysis.as_ref(), analysis_view)),
            ("notice", Json::option(self.notice.as_ref(), Json::text)),
            ("text", Json::text(self.position.to_text())),
            ("command", Json::text(self.position_command())),
            ("ahead", Json::texts(self.redo.iter().rev())),
            ("review", Json::option(self.review.as_ref(), crate::review_marks::review_view)),
        ])
    }
}

impl Table {
    /// The clocks: `{control, left (ms by seat), running (seat or null), at}`,
    /// measured at `at` (ms since the Unix epoch), or null without clocks.
    fn clock_view(&self) -> Json {
        let Some(clocks) = &self.clock else { return Json::Null };
        let now = Instant::now();
        let at = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        Json::Object(vec![
            ("control", Json::text(clocks.control.describe())),
            (
                "left",
                Json::List(
                    (0..self.seats.len())
                        .map(|s| Json::Number(clocks.left(s, now).as_millis() as i64))
                        .collect(),
                ),
            ),
            ("running", Json::option(clocks.running(), |s| Json::Number(s as i64))),
            ("at", Json::Number(at)),
        ])
    }
}

fn eval_view(eval: Eval) -> Json {
    let (kind, value) = match eval {
        Eval::Cp(cp) => ("cp", cp),
        Eval::Mate(n) => ("mate", n),
    };
    Json::Object(vec![("kind", Json::text(kind)), ("value", Json::Number(value))])
}

/// The variant and time control as the setup form's fields (named as the
/// form names them), so that the page's form shows the game the board plays.
fn setup_view(table: &Table) -> Json {
    let number = |n: usize| Json::text(n.to_string());
    let tc = ("tc", Json::text(table.clock.as_ref().map_or("inf".to_string(), |c| c.control.describe())));
    let rated = ("rated", Json::text(if table.rated { "true" } else { "false" }));
    match &table.variant {
        GameVariant::Quoridor(v) => Json::Object(vec![
            ("game", Json::text("quoridor")),
            ("width", number(v.width)),
            ("height", number(v.height)),
            ("walls", number(v.walls)),
            ("players", number(v.players)),
            ("multijump", Json::text(if v.multi_jump { "true" } else { "false" })),
            tc,
            rated,
        ]),
        GameVariant::Quarto(r) => Json::Object(vec![
            ("game", Json::text("quarto")),
            ("board", Json::text(format!("{0}x{0}", r.side))),
            ("level", number(r.level)),
            tc,
            rated,
        ]),
    }
}

/// Analysis mode: `{lines, ply, following, candidates: [{rank, move,
/// depth, score, pv}]}`, the best candidate first.
fn analysis_view(a: &Analysis) -> Json {
    let candidates = a.candidates.iter().map(|c| {
        Json::Object(vec![
            ("rank", Json::Number(c.rank as i64)),
            ("move", Json::text(c.pv.first().cloned().unwrap_or_default())),
            ("depth", Json::Number(i64::from(c.depth))),
            ("score", Json::option(c.score.as_ref(), Json::text)),
            ("pv", Json::texts(&c.pv)),
        ])
    });
    Json::Object(vec![
        ("lines", Json::Number(a.request.lines as i64)),
        ("ply", Json::Number(a.ply as i64)),
        ("following", Json::Bool(a.request.ply.is_none())),
        ("candidates", Json::List(candidates.collect())),
        (
            "proven",
            Json::option(a.proven.as_ref(), |p| {
                Json::Object(vec![
                    ("winner", Json::text(&p.winner)),
                    ("plies", Json::option(p.plies, |n| Json::Number(i64::from(n)))),
                    ("best", Json::option(p.best.as_ref(), Json::text)),
                ])
            }),
        ),
    ])
}

fn thinking_view(t: &Thinking) -> Json {
    Json::Object(vec![
        ("seat", Json::Number(t.seat as i64)),
        ("depth", Json::option(t.depth, |d| Json::Number(i64::from(d)))),
        ("score", Json::option(t.score.as_ref(), Json::text)),
        ("nodes", Json::option(t.nodes, |n| Json::Number(n as i64))),
        ("pv", Json::texts(&t.pv)),
    ])
}

/// The pieces on the board, in the shape the page draws them.
pub fn board_view(position: &AnyPosition) -> Json {
    match position {
        AnyPosition::Quoridor(q) => {
            let players = q.player_count();
            let (h, v) = (q.horizontal_walls(), q.vertical_walls());
            let mut walls = Vec::new();
            for (set, letter) in [(h, 'h'), (v, 'v')] {
                // A wall is named by the square south-west of its centre.
                let name = |centre: usize| square_name(centre - STRIDE - 1);
                walls.extend(set.iter().map(|centre| format!("{}{letter}", name(centre))));
            }
            Json::Object(vec![
                ("game", Json::text("quoridor")),
                ("width", Json::Number(q.width() as i64)),
                ("height", Json::Number(q.height() as i64)),
                ("pawns", Json::texts((0..players).map(|s| square_name(q.pawn(s))))),
                (
                    "hands",
                    Json::List((0..players).map(|s| Json::Number(q.walls_in_hand(s) as i64)).collect()),
                ),
                ("walls", Json::texts(walls)),
                // Each seat's goal squares, from the rules: the page tints them.
                (
                    "goals",
                    Json::List(
                        (0..players).map(|s| Json::texts(q.goal(s).iter().map(square_name))).collect(),
                    ),
                ),
            ])
        }
        AnyPosition::Quarto(q) => {
            let rules = q.rules();
            let squares = rules.squares();
            let available = q.available();
            Json::Object(vec![
                ("game", Json::text("quarto")),
                ("side", Json::Number(rules.side as i64)),
                ("level", Json::Number(rules.level as i64)),
                ("attributes", Json::Number(rules.attributes() as i64)),
                (
                    "cells",
                    Json::List(
                        (0..squares)
                            .map(|s| Json::option(q.piece_at(s), |p| Json::Number(p.into())))
                            .collect(),
                    ),
                ),
                ("hand", Json::option(q.hand(), |p| Json::Number(p.into()))),
                ("line", Json::texts(winning_squares(q))),
                (
                    "available",
                    Json::List(
                        (0..rules.pieces())
                            .filter(|&p| available >> p & 1 == 1)
                            .map(|p| Json::Number(p as i64))
                            .collect(),
                    ),
                ),
            ])
        }
    }
}

/// The squares of the Quarto patterns that are full and share an
/// attribute: the winning line (lines, with the higher rule levels' shapes).
fn winning_squares(q: &tabula::games::quarto::Quarto) -> Vec<String> {
    let rules = q.rules();
    let mut won = 0u16;
    for pattern in tabula::games::quarto::patterns::patterns(rules) {
        let pieces: Option<Vec<u8>> = tabula::games::quarto::bits(pattern).map(|s| q.piece_at(s)).collect();
        let Some(pieces) = pieces else { continue };
        let (all, any) = pieces.iter().fold((u8::MAX, 0u8), |(all, any), &p| (all & p, any | p));
        let shared = (0..rules.attributes()).any(|a| all >> a & 1 == 1 || any >> a & 1 == 0);
        if shared {
            won |= pattern;
        }
    }
    let name = |s: usize| format!("{}{}", (b'a' + (s % rules.side) as u8) as char, s / rules.side + 1);
    tabula::games::quarto::bits(won).map(name).collect()
}

fn square_name(square: usize) -> String {
    tabula::games::quoridor::notation::square_name(square)
}

#[cfg(test)]
mod tests {
    use crate::table::{Seat, Table};
    use arena::setup::GameVariant;
    use tabula::games::quoridor::Variant;

    /// With four players P1 goes north, P2 east, P3 south, P4 west.
    #[test]
    fn the_view_names_each_seats_goal_and_the_form_fields() {
        let variant =
            GameVariant::Quoridor(Variant { width: 5, height: 5, walls: 3, players: 4, multi_jump: false });
        let table = Table::new(variant, vec![Seat::Human; 4]).expect("a four-player game");
        let view = table.view().to_string();
        let goals = r#""goals":[["a5","b5","c5","d5","e5"],["e1","e2","e3","e4","e5"],["a1","b1","c1","d1","e1"],["a1","a2","a3","a4","a5"]]"#;
        assert!(view.contains(goals), "{view}");
        let setup = r#""setup":{"game":"quoridor","width":"5","height":"5","walls":"3","players":"4","multijump":"false","tc":"inf","rated":"false"}"#;
        assert!(view.contains(setup), "{view}");
        let quarto = Table::new(
            GameVariant::Quarto(tabula::games::quarto::Rules { side: 4, level: 2 }),
            vec![Seat::Human; 2],
        )
        .expect("Quarto");
        assert!(quarto
            .view()
            .to_string()
            .contains(r#""setup":{"game":"quarto","board":"4x4","level":"2","tc":"inf","rated":"false"}"#));
    }

    /// A won Quarto game names the squares of the line that won.
    #[test]
    fn the_winning_quarto_line_is_named() {
        let rules = tabula::games::quarto::Rules { side: 4, level: 1 };
        let mut table = Table::new(GameVariant::Quarto(rules), vec![Seat::Human; 2]).expect("Quarto");
        // Dark pieces (odd numbers) along row 1.
        for m in ["1", "a13", "b15", "c17"] {
            table.play(m).expect("moves");
            assert!(table.view().to_string().contains(r#""line":[]"#));
        }
        table.play("d1").expect("the winning placement");
        assert!(table.result().is_some());
        let view = table.view().to_string();
        assert!(view.contains(r#""line":["a1","b1","c1","d1"]"#), "{view}");
    }
}
