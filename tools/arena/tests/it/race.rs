//! `-adjudicate race` through the real binary: two-player Quoridor games
//! between depth-limited `tabula`s end as soon as neither player has a wall
//! left, with the winner the race solver names, and the record's last
//! comment holds a line that wins in exactly the plies the termination says.

use crate::common::*;
use std::time::Duration;
use tabula::game::Outcome;
use tabula::games::AnyPosition;

/// Whether neither player has a wall in hand.
fn walls_out(position: &AnyPosition) -> bool {
    matches!(position, AnyPosition::Quoridor(q) if q.walls_in_hand(0) == 0 && q.walls_in_hand(1) == 0)
}

/// `race adjudicated: P1 wins in 7 plies` as (seat 0, 7).
fn race_claim(termination: &str) -> Option<(usize, usize)> {
    let rest = termination.strip_prefix("race adjudicated: P")?;
    let (seat, rest) = rest.split_once(" wins in ")?;
    let plies = rest.strip_suffix(" plies").or_else(|| rest.strip_suffix(" ply"))?;
    Some((seat.parse::<usize>().ok()? - 1, plies.parse().ok()?))
}

#[test]
fn a_race_is_decided_once_the_walls_are_out() {
    let dir = TempDir::new("race");
    let pgn = dir.file("games.pgn");
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    let rest = format!(
        "-each depth=2 timemargin=2000 -variant width=5 height=5 walls=1 -games 6 -repeat \
         -openings random plies=2 -seed 4 -adjudicate race -pgnout {pgn}"
    );
    args.extend(rest.split_whitespace().map(String::from));
    let run = ArenaRun::new(&args).limit(Duration::from_secs(90)).watch(&dir).run();
    run.expect_exit(0);
    let records = read_records(&pgn);
    run.check(records.len() == 6, "six records");
    let mut raced = 0;
    for record in &records {
        // The first ply after which both hands are empty, if any.
        let mut position = quoridor_start(5, 5, 1, 2);
        let mut first_out = walls_out(&position).then_some(0);
        for (ply, text) in record.moves.iter().enumerate() {
            position.play_text(text).unwrap_or_else(|e| panic!("{e} in {record:?}"));
            if first_out.is_none() && walls_out(&position) && position.outcome().is_none() {
                first_out = Some(ply + 1);
            }
        }
        let termination = record.tag("Termination");
        let Some(at) = first_out else {
            assert!(!termination.contains("race"), "no race without walls out: {record:?}");
            continue;
        };
        raced += 1;
        assert_eq!(at, record.moves.len(), "decided as soon as the walls are out: {record:?}");
        let (winner, plies) = race_claim(termination).unwrap_or_else(|| panic!("a race verdict: {record:?}"));
        assert_eq!(record.result, ["1-0", "0-1"][winner], "{record:?}");
        let finished = finished_games(&run.stdout);
        let line = finished.iter().find(|f| f.termination == termination);
        run.check(line.is_some(), "the Finished line names the race verdict");
        // The solver's line, after the last move, wins in exactly that many plies.
        let (after, comment) =
            record.move_comments.last().unwrap_or_else(|| panic!("no comment: {record:?}"));
        assert_eq!(*after, record.moves.len(), "the line follows the last move: {record:?}");
        let moves = comment.strip_prefix("race line: ").unwrap_or_else(|| panic!("a race line: {comment}"));
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(moves.len(), plies, "{record:?}");
        for (i, text) in moves.iter().enumerate() {
            assert!(position.outcome().is_none(), "the line goes on after the end: {record:?}");
            position.play_text(text).unwrap_or_else(|e| panic!("line move {} ({text}): {e}", i + 1));
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(winner)), "{record:?}");
    }
    run.check(raced >= 2, "random openings on 5x5 place both walls in some games");
}
