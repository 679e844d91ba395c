//! `-draw` and `-resign` through the real binary: games between
//! depth-limited `tabula`s end exactly where cutechess-cli's rules, applied
//! here to the scores in each record, say they end.

use crate::common::*;

/// The scores of a record's engine moves, from its `; scores:` line:
/// `cp35` as 35, a mate as a huge number of its sign, `-` as none.
fn scores(record: &Record) -> Vec<Option<i64>> {
    let line = record.comments.iter().find_map(|c| c.strip_prefix("; scores: "));
    let line = line.unwrap_or_else(|| panic!("no scores in {record:?}"));
    line.split_whitespace()
        .map(|s| {
            if let Some(cp) = s.strip_prefix("cp") {
                cp.parse().ok()
            } else {
                let mate: i64 = s.strip_prefix("mate")?.parse().ok()?;
                Some(if mate > 0 { 1 << 40 } else { -(1 << 40) })
            }
        })
        .collect()
}

/// The rule of a test, as cutechess-cli states it.
#[derive(Clone, Copy, Debug)]
enum Rule {
    /// movenumber, movecount, score.
    Draw(usize, usize, i64),
    /// movecount, score, twosided.
    Resign(usize, i64, bool),
}

/// The first engine move (0-based) after which `rule` ends the game, if
/// any: a draw when the last 2 x movecount moves all scored within
/// ±score, each made after movenumber full moves; a loss for a side whose
/// own last movecount moves all scored -score or lower (and, two-sided,
/// whose opponent's last movecount moves all scored +score or higher).
fn adjudicated_at(rule: Rule, opening: usize, scores: &[Option<i64>]) -> Option<(usize, Option<usize>)> {
    // Seat of the engine move i: the opening moves alternate from seat 0.
    let seat = |i: usize| (opening + i) % 2;
    let own_last = |i: usize, side: usize, n: usize, ok: &dyn Fn(i64) -> bool| {
        let moves: Vec<usize> = (0..=i).rev().filter(|&j| seat(j) == side).take(n).collect();
        moves.len() == n && moves.iter().all(|&j| scores[j].is_some_and(ok))
    };
    (0..scores.len()).find_map(|i| match rule {
        Rule::Draw(number, count, score) => {
            let window = 2 * count;
            let all = i + 1 >= window
                && (i + 1 - window..=i)
                    .all(|j| (opening + j) / 2 >= number && scores[j].is_some_and(|v| v.abs() <= score));
            all.then_some((i, None))
        }
        Rule::Resign(count, score, two_sided) => [seat(i), 1 - seat(i)].into_iter().find_map(|loser| {
            let lost = own_last(i, loser, count, &|v| v <= -score);
            let agreed = !two_sided || own_last(i, 1 - loser, count, &|v| v >= score);
            (lost && agreed).then_some((i, Some(loser)))
        }),
    })
}

/// Plays two 9x9 games (two random opening plies, seats swapped) with
/// `flags`, and checks every record against `rule`; returns how many games
/// adjudication ended.
fn check_rule(flags: &str, rule: Rule) -> usize {
    let dir = TempDir::new("adjudication");
    let pgn = dir.file("games.pgn");
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        format!("-each depth=2 option.Threads=1 -games 2 -repeat -openings random plies=2 -seed 3 {flags} -pgnout {pgn}")
            .split_whitespace()
            .map(String::from),
    );
    let run = ArenaRun::new(&args).watch(&dir).run();
    run.expect_exit(0);
    let mut adjudicated = 0;
    for record in read_records(&pgn) {
        let opening = record.opening_plies();
        let scores = scores(&record);
        let played = record.moves.len() - opening;
        assert_eq!(scores.len(), played, "{record:?}");
        let termination = record.tag("Termination");
        let expected = adjudicated_at(rule, opening, &scores);
        if termination.contains("by adjudication") {
            adjudicated += 1;
            let (at, loser) = expected.unwrap_or_else(|| panic!("no rule ends {record:?}"));
            assert_eq!(at + 1, played, "adjudicated at the first move the rule allows: {record:?}");
            let result = match loser {
                None => "1/2-1/2",
                Some(0) => "0-1",
                Some(_) => "1-0",
            };
            assert_eq!(record.result, result, "{record:?}");
        } else {
            // Ended by the rules of the game first (the last move may also
            // have met the adjudication rule).
            assert!(expected.is_none_or(|(at, _)| at + 1 >= played), "not adjudicated: {record:?}");
        }
    }
    run.check(adjudicated <= 2, "two games");
    adjudicated
}

/// `score=100000` holds every score short of a mate, so with two opening
/// plies and movenumber=3 both games are drawn at ply 10: moves count from
/// the 7th ply, and four must.
#[test]
fn a_draw_is_adjudicated_after_the_move_number() {
    assert_eq!(check_rule("-draw movenumber=3 movecount=2 score=100000", Rule::Draw(3, 2, 100_000)), 2);
}

#[test]
fn draws_and_resignations_follow_the_rules() {
    check_rule("-draw movecount=2 score=40", Rule::Draw(0, 2, 40));
    let resigned = check_rule("-resign movecount=1 score=0", Rule::Resign(1, 0, false));
    assert!(resigned >= 1, "a side that scores itself 0 or below resigns at once");
    check_rule("-resign movecount=2 score=30 twosided=true", Rule::Resign(2, 30, true));
}
