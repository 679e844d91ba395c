//! QTP engines (`proto=qtp`) through the real binary: a small engine kept
//! beside these tests (`qtp_engine.py`, rules of its own in QTP's
//! coordinates; it refuses any move it is told that its rules forbid)
//! playing `tabula`, legally and with each fault a QTP engine can make
//! (a time-out, an illegal move, `?` to its own move, a crash); `tabula`
//! speaking QTP against itself speaking UCI; a three-engine round-robin
//! mixing both; and what a QTP engine cannot be given.

use crate::common::*;
use std::time::Duration;

const SCRIPTED: &str = "Scripted";

/// The scripted QTP engine's settings, with its fault.
fn scripted(fault: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/qtp_engine.py");
    ["-engine", "cmd=python3", &format!("arg={script}"), &format!("arg={fault}"), "proto=qtp"]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("name={SCRIPTED}")])
        .collect()
}

fn tabula_engine(name: &str, extra: &str) -> Vec<String> {
    let mut args = vec!["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")];
    // A generous margin so that a loaded machine cannot make it lose.
    args.push("timemargin=2000".into());
    args.extend(extra.split_whitespace().map(String::from));
    args
}

fn arena_run(engines: Vec<Vec<String>>, rest: &str, dir: &TempDir) -> Run {
    let mut args: Vec<String> = engines.into_iter().flatten().collect();
    args.extend(rest.split_whitespace().map(String::from));
    ArenaRun::new(&args).limit(Duration::from_secs(120)).watch(dir).run()
}

/// Every game was won by Tabula, the scripted engine losing as `why` says.
fn scripted_loses_every_game(run: &Run, why: &str) {
    let finished = finished_games(&run.stdout);
    run.check(!finished.is_empty(), "games should finish");
    for f in &finished {
        let seat = f.seat_of(SCRIPTED);
        run.check(f.winner_name() == Some("Tabula"), &format!("Tabula should win game {}", f.number));
        let expected = format!("P{} {why}", seat + 1);
        run.check(
            f.termination.starts_with(&expected),
            &format!("game {} should end '{expected}...'", f.number),
        );
    }
    run.check(run.leftovers.is_empty(), "no process may outlive arena");
}

#[test]
fn a_qtp_engine_plays_legal_games_in_either_seat() {
    let dir = TempDir::new("qtp-legal");
    let pgn = dir.file("games.pgn");
    let rest = format!(
        "-each st=0.2 -variant width=5 height=5 walls=3 -games 4 -openings random plies=2 -pgnout {pgn}"
    );
    let run = arena_run(vec![scripted("none"), tabula_engine("Tabula", "")], &rest, &dir);
    run.expect_exit(0);
    // The scripted engine accepted every move it was told (a wrong
    // translation would be refused), played only legal moves, and walks
    // into Tabula's walls.
    let row = engine_row(&run, SCRIPTED);
    run.check(row.time_losses + row.illegal_moves + row.crashes == 0, "the scripted engine makes no fault");
    let finished = finished_games(&run.stdout);
    run.check(finished.len() == 4, "four games");
    for f in &finished {
        let expected = format!("P{} reaches the goal", f.seat_of("Tabula") + 1);
        run.check(f.termination == expected, &format!("game {} should end '{expected}'", f.number));
    }
    run.check(run.leftovers.is_empty(), "no process may outlive arena");
    let score = score_lines(&run.stdout).pop().unwrap_or_else(|| panic!("no score line\n{run}"));
    run.check(score.first == SCRIPTED && score.losses == 4, "Score of Scripted vs Tabula: 0 - 4 - 0");
    for record in read_records(&pgn) {
        check_record(&record, quoridor_start(5, 5, 3, 2), 1000);
    }
}

#[test]
fn a_list_of_commands_that_never_ends_does_not_stop_an_engine_from_playing() {
    // Some engines of the Athens competition end `list_commands` without
    // the empty line; the referee plays them, and so does arena.
    let dir = TempDir::new("qtp-unended");
    let rest = "-each st=0.2 -variant width=5 height=5 walls=3 -games 2";
    let run = arena_run(vec![scripted("unended"), tabula_engine("Tabula", "")], rest, &dir);
    run.expect_exit(0);
    let row = engine_row(&run, SCRIPTED);
    run.check(row.time_losses + row.illegal_moves + row.crashes == 0, "the scripted engine makes no fault");
    let finished = finished_games(&run.stdout);
    run.check(finished.len() == 2, "two games");
    // Played out by the rules: Tabula's goal, or (a timed search on a board
    // whose first player loses with perfect play may settle for it) a
    // repetition; never a fault.
    for f in &finished {
        let goal = format!("P{} reaches the goal", f.seat_of("Tabula") + 1);
        let ended = f.termination == goal || f.termination == "threefold repetition";
        run.check(ended, &format!("game {} should end '{goal}' or by repetition", f.number));
    }
}

#[test]
fn a_qtp_engine_loses_by_its_faults() {
    for (fault, why) in [
        ("timeout", "loses on time"),
        ("illegal", "plays an illegal move"),
        ("refuse", "refuses 'genmove"),
        ("crash", "crashed"),
    ] {
        let dir = TempDir::new(&format!("qtp-{fault}"));
        let rest = "-each st=0.2 -variant width=5 height=5 walls=3 -games 2 -recover";
        let run = arena_run(vec![scripted(fault), tabula_engine("Tabula", "")], rest, &dir);
        run.expect_exit(0);
        scripted_loses_every_game(&run, why);
        let row = engine_row(&run, SCRIPTED);
        let counted = match fault {
            "timeout" => row.time_losses,
            "crash" => row.crashes,
            _ => row.illegal_moves,
        };
        run.check(counted == 2, &format!("both '{fault}' faults are counted"));
    }
}

#[test]
fn tabula_speaking_qtp_meets_tabula_speaking_uci_and_a_qtp_engine() {
    let dir = TempDir::new("qtp-mixed");
    let pgn = dir.file("games.pgn");
    let engines = vec![
        tabula_engine("TabulaQTP", "proto=qtp option.Level=6"),
        tabula_engine("Tabula", "proto=uci option.Level=6"),
        scripted("none"),
    ];
    let rest = format!("-each tc=4+0.05 -variant width=7 height=7 walls=6 -games 2 -pgnout {pgn}");
    let run = arena_run(engines, &rest, &dir);
    run.expect_exit(0);
    run.check(finished_games(&run.stdout).len() == 6, "three pairings of two games");
    for name in ["TabulaQTP", "Tabula", SCRIPTED] {
        let row = engine_row(&run, name);
        run.check(row.time_losses + row.illegal_moves + row.crashes == 0, &format!("{name} makes no fault"));
    }
    run.check(run.stdout.contains("Rank Name"), "the ranking table of three engines");
    for record in read_records(&pgn) {
        check_record(&record, quoridor_start(7, 7, 6, 2), 1000);
    }
    // The options reach Tabula's QTP side through tabula-setoption: no warning.
    run.check(!run.stdout.contains("option.Level is not sent"), "Level is set through tabula-setoption");
}

#[test]
fn what_a_qtp_engine_cannot_be_given_is_refused_by_name() {
    let cases = [
        ("proto=xboard", "-games 1", "proto=xboard"),
        ("proto=qtp nodes=1000", "-games 1", "no node or depth limit"),
        ("proto=qtp", "-variant width=7 height=5", "square board"),
        ("proto=qtp", "-variant game=quarto", "two-player Quoridor"),
        ("proto=qtp", "-variant width=9 height=9 multijump=true", "single jumps"),
    ];
    for (settings, rest, expected) in cases {
        let mut args = tabula_engine("A", settings);
        args.extend(tabula_engine("B", ""));
        args.extend(rest.split_whitespace().map(String::from));
        let run = ArenaRun::new(&args).limit(Duration::from_secs(10)).run();
        run.check(run.code() == Some(2), &format!("'{settings} {rest}' is refused"));
        run.check(run.stderr.contains(expected), &format!("the refusal says '{expected}'"));
    }
}
