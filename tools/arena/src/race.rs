//! `-adjudicate race`: once neither player of a two-player Quoridor game has
//! a wall left, the walls never change again and the game is a pawn race,
//! which the engine library solves exactly (its retrograde race solver, the
//! one its search uses). The referee then ends the game at once with the
//! solver's value, and the record gets the line the solver plays out: the
//! winner's fastest win against the loser's longest resistance.

use tabula::game::{Position, Solved, Strategy};
use tabula::games::quoridor::QuoridorTables;
use tabula::games::AnyPosition;

/// What the race solver says of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceVerdict {
    /// The winning seat, or `None` when neither pawn can force its goal.
    pub winner: Option<usize>,
    /// Plies until the winning move (1: the side to move wins at once).
    pub plies: u32,
    /// The moves of that win, in engine notation (empty for a draw).
    pub line: Vec<String>,
}

impl RaceVerdict {
    /// The termination text: `race adjudicated: P1 wins in 7 plies`.
    pub fn termination(&self) -> String {
        match self.winner {
            Some(seat) => format!(
                "race adjudicated: P{} wins in {} {}",
                seat + 1,
                self.plies,
                if self.plies == 1 { "ply" } else { "plies" }
            ),
            None => "race adjudicated: draw (neither pawn can force its goal)".into(),
        }
    }
}

/// The solver's value of `position` from its side to move, when it is a
/// two-player Quoridor race still open (no wall in either hand).
fn solve(position: &AnyPosition, tables: &mut QuoridorTables) -> Option<Solved> {
    let AnyPosition::Quoridor(q) = position else { return None };
    let racing = q.player_count() == 2 && q.walls_in_hand(0) == 0 && q.walls_in_hand(1) == 0;
    if !racing || q.outcome().is_some() {
        return None;
    }
    q.solve_small(tables, u32::MAX)
}

/// The verdict on `position`, or `None` when it is not a race (another game,
/// four players, a wall still in hand, or the game over).
pub fn race_verdict(position: &AnyPosition) -> Option<RaceVerdict> {
    let AnyPosition::Quoridor(q) = position else { return None };
    let mut tables = QuoridorTables::default();
    // Solves the layout's every state once; each position below is looked up.
    q.prepare_search(&mut tables);
    let mover = position.side_to_move();
    let (winner, plies) = match solve(position, &mut tables)? {
        Solved::Draw => return Some(RaceVerdict { winner: None, plies: 0, line: Vec::new() }),
        Solved::WinIn(n) => (mover, n),
        Solved::LossIn(n) => (1 - mover, n),
    };
    let mut line = Vec::new();
    let mut current = position.clone();
    for left in (1..=plies).rev() {
        let winning = current.side_to_move() == winner;
        // The value each move must keep: the winner wins `left - 1` plies
        // after it, the loser resists as long.
        let wanted = if winning { Solved::LossIn(left - 1) } else { Solved::WinIn(left - 1) };
        let next = current.legal_move_names().into_iter().find_map(|name| {
            let mut child = current.clone();
            child.play_text(&name).ok()?;
            let value = match child.outcome() {
                Some(tabula::game::Outcome::Win(seat)) if seat == winner && left == 1 => Some(wanted),
                Some(_) => None,
                None => solve(&child, &mut tables),
            };
            (value == Some(wanted)).then_some((name, child))
        });
        // The solver's own values always hold such a move; should they not,
        // the line stops where it is.
        let Some((name, child)) = next else { break };
        line.push(name);
        current = child;
    }
    Some(RaceVerdict { winner: Some(winner), plies, line })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::games::quoridor::Quoridor;

    fn position(text: &str) -> AnyPosition {
        AnyPosition::Quoridor(Quoridor::from_text(text).expect("a position"))
    }

    #[test]
    fn an_open_race_is_solved_and_played_out() {
        // 5x5, no walls anywhere: the pawns meet in the middle, and the
        // jump decides (P2 jumps over P1 first).
        let start = position("quoridor 5x5 pawns=c1,c5 hand=0,0 walls=- turn=1");
        let verdict = race_verdict(&start).expect("a race");
        let winner = verdict.winner.expect("someone wins");
        assert_eq!(verdict.line.len() as u32, verdict.plies);
        assert_eq!(verdict.plies % 2 == 1, winner == 0, "the winner makes the last move");
        let mut replay = start.clone();
        for name in &verdict.line {
            assert!(replay.outcome().is_none());
            replay.play_text(name).expect("a legal move");
        }
        assert_eq!(replay.outcome(), Some(tabula::game::Outcome::Win(winner)));
        let expected = format!("race adjudicated: P{} wins in {} plies", winner + 1, verdict.plies);
        assert_eq!(verdict.termination(), expected);
        // One ply before the end the winner is to move and wins at once.
        let mut before = start.clone();
        for name in &verdict.line[..verdict.line.len() - 1] {
            before.play_text(name).expect("a legal move");
        }
        let last = race_verdict(&before).expect("still a race");
        assert_eq!((last.winner, last.plies), (Some(winner), 1));
        assert!(last.termination().ends_with("wins in 1 ply"));
    }

    #[test]
    fn only_two_player_quoridor_without_walls_in_hand_is_a_race() {
        assert!(race_verdict(&position("quoridor 5x5 pawns=c1,c5 hand=1,0 walls=- turn=1")).is_none());
        assert!(
            race_verdict(&position("quoridor 5x5 pawns=c1,a3,c5,e3 hand=0,0,0,0 walls=- turn=1")).is_none()
        );
        let quarto = tabula::games::quarto::Quarto::new(tabula::games::quarto::Rules { side: 4, level: 1 });
        assert!(race_verdict(&AnyPosition::Quarto(quarto.expect("quarto"))).is_none());
    }
}
