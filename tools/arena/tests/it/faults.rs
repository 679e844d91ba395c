//! Engines that crash, hang, cheat, babble, start slowly or not at all,
//! played against the real `tabula`: the faulty engine must lose every game
//! for the right reason, the statistics must count it, arena must finish
//! promptly, and no engine process may outlive arena. Also a four-player game
//! that goes on without a crashed engine, and an interrupted match. Crashes
//! are seen even while a child holds the engine's output, and processes an
//! engine leaves in a session of its own are killed too.

use crate::common::*;
use std::time::Duration;

const FAULTY: &str = "Faulty";

/// `tabula` against the engine at `path`, two games on 5x5 with `st=0.1`.
fn versus(dir: &TempDir, path: &str, extra: &str) -> ArenaRun {
    against(dir, path, "", extra)
}

/// As [`versus`], with `settings` for the faulty engine alone.
fn against(dir: &TempDir, path: &str, settings: &str, extra: &str) -> ArenaRun {
    let mut args = vec![
        "-engine".to_string(),
        format!("cmd={}", tabula_str()),
        "name=Tabula".into(),
        // Tabula gets a generous margin so that a loaded machine cannot make it lose.
        "timemargin=2000".into(),
        "-engine".into(),
        format!("cmd={path}"),
        format!("name={FAULTY}"),
    ];
    args.extend(settings.split_whitespace().map(String::from));
    args.extend(
        "-each st=0.1 -variant width=5 height=5 walls=4 -games 2".split_whitespace().map(String::from),
    );
    args.extend(extra.split_whitespace().map(String::from));
    ArenaRun::new(&args).watch(dir)
}

/// Every finished game was lost by the faulty engine, with a termination
/// `P<its seat> <why>`; returns how many games finished.
fn faulty_loses_every_game(run: &Run, why: &str) -> usize {
    let finished = finished_games(&run.stdout);
    run.check(!finished.is_empty(), "games should finish");
    for f in &finished {
        let seat = f.seat_of(FAULTY);
        run.check(f.winner_name() == Some("Tabula"), &format!("Tabula should win game {}", f.number));
        let expected = format!("P{} {why}", seat + 1);
        run.check(
            f.termination.starts_with(&expected),
            &format!("game {} should end '{expected}...'", f.number),
        );
    }
    let score = score_lines(&run.stdout).pop().unwrap_or_else(|| panic!("no score line\n{run}"));
    run.check(score.first == "Tabula" && score.wins == finished.len() as u64, "Tabula wins them all");
    run.check(score.losses + score.draws == 0, "Tabula loses and draws none");
    finished.len()
}

#[test]
fn a_crash_stops_the_match_without_recover() {
    let dir = TempDir::new("crash");
    let engine = write_engine(&dir, FAULTY, Fault::Crash, Declares::AllOptions);
    let run = versus(&dir, &engine, "").run();
    run.check(run.code() == Some(3), "a crash without -recover ends arena with status 3");
    run.check(run.leftovers.is_empty(), "no process may outlive arena");
    let games = faulty_loses_every_game(&run, "crashed");
    run.check(
        run.stdout
            .contains(&format!("{FAULTY} crashed or failed to start; stopping (use -recover to go on)")),
        "the stop message names the engine and -recover",
    );
    run.check(games == 1, "no further game after the crash");
    run.check(started_games(&run.stdout) == [1], "the second game must not start once the match is stopping");
    run.check(engine_row(&run, FAULTY).crashes == 1, "the crash is counted");
    run.check(run.stdout.contains("Final results:"), "final results are printed");
    run.check(run.elapsed < Duration::from_secs(15), "arena exits promptly");
}

#[test]
fn with_recover_every_game_is_played_after_crashes() {
    let dir = TempDir::new("crash-recover");
    let engine = write_engine(&dir, FAULTY, Fault::Crash, Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover").run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "crashed") == 2, "both games are played");
    let row = engine_row(&run, FAULTY);
    run.check((row.crashes, row.time_losses, row.illegal_moves) == (2, 0, 0), "two crashes counted");
    run.check(engine_row(&run, "Tabula").crashes == 0, "Tabula did not crash");
    run.check(!run.stdout.contains("stopping"), "-recover does not stop");
    run.check(run.elapsed < Duration::from_secs(15), "arena exits promptly");
}

#[test]
fn a_hanging_engine_loses_on_time() {
    let dir = TempDir::new("hang");
    let engine = write_engine(&dir, FAULTY, Fault::Hang, Declares::AllOptions);
    let run = versus(&dir, &engine, "").run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "loses on time") == 2, "both games are played");
    let row = engine_row(&run, FAULTY);
    run.check((row.time_losses, row.crashes, row.illegal_moves) == (2, 0, 0), "two time losses counted");
    // Each loss takes st 0.1 s + the default margin 0.1 s; allow generous slack.
    run.check(run.elapsed >= Duration::from_millis(400), "arena waits out st + margin before the time loss");
    run.check(run.elapsed < Duration::from_secs(8), "the time loss comes within st + margin + slack");
}

/// The engine sleeps in a child process on `go`, so it neither answers nor
/// obeys `quit`: arena must kill it, child and all.
#[test]
fn a_sleeping_engine_loses_on_time_and_leaves_no_process() {
    let dir = TempDir::new("asleep");
    let engine = write_engine(&dir, FAULTY, Fault::HangAsleep, Declares::AllOptions);
    let run = versus(&dir, &engine, "").run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "loses on time") == 2, "both games are played");
    run.check(engine_row(&run, FAULTY).time_losses == 2, "two time losses counted");
    run.check(run.elapsed < Duration::from_secs(8), "arena does not wait for the sleeping engine");
}

/// Wrong moves: one that is not a move at all, one that looks like a move
/// but is not legal anywhere near the start (two squares sideways).
#[test]
fn illegal_moves_lose() {
    for text in ["z9", "e1"] {
        let dir = TempDir::new("illegal");
        let engine = write_engine(&dir, FAULTY, Fault::Illegal(text), Declares::AllOptions);
        let run = versus(&dir, &engine, "").run();
        run.expect_exit(0);
        run.check(faulty_loses_every_game(&run, "plays an illegal move") == 2, "both games are played");
        for f in finished_games(&run.stdout) {
            run.check(f.termination.contains(&format!("'{text}'")), "the termination quotes the move");
        }
        let row = engine_row(&run, FAULTY);
        run.check(
            (row.illegal_moves, row.time_losses, row.crashes) == (2, 0, 0),
            "two illegal moves counted",
        );
        run.check(!run.stdout.contains("Warning:"), "every option was declared: no warning");
        run.check(run.elapsed < Duration::from_secs(15), "arena exits promptly");
    }
}

/// An engine that floods its output with `yes` when asked for a move loses
/// that game for flooding, long before its 30 s are up; arena's memory stays
/// small, and the match goes on.
#[test]
fn an_engine_that_floods_its_output_loses_for_it() {
    let dir = TempDir::new("flood");
    let engine = write_engine(&dir, FAULTY, Fault::FloodOnGo, Declares::AllOptions);
    let run = against(&dir, &engine, "st=30", "").limit(Duration::from_secs(50)).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "floods its output (over 16 MiB") == 2, "both games are played");
    run.check(engine_row(&run, FAULTY).time_losses == 2, "a flood counts with the time losses");
    run.check(run.elapsed < Duration::from_secs(25), "the flood is seen before the 30 s are up");
    run.check(run.peak_rss_kib < 150 << 10, &format!("arena stays small: {} KiB", run.peak_rss_kib));
}

/// The same flood in answer to `uci`: a failed start, not a hang.
#[test]
fn a_flood_during_the_handshake_fails_the_start() {
    let dir = TempDir::new("flood-uci");
    let engine = write_engine(&dir, FAULTY, Fault::FloodOnUci, Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover").limit(Duration::from_secs(40)).run();
    run.expect_exit(0);
    run.check(
        faulty_loses_every_game(&run, "fails to start: floods its output") == 2,
        "both games are played",
    );
    run.check(run.peak_rss_kib < 150 << 10, &format!("arena stays small: {} KiB", run.peak_rss_kib));
}

/// A line of 1 MB is a flood too, whatever follows it.
#[test]
fn an_endless_line_is_a_flood() {
    let dir = TempDir::new("long-line");
    let engine = write_engine(&dir, FAULTY, Fault::LongLine, Declares::AllOptions);
    let run = versus(&dir, &engine, "").run();
    run.expect_exit(0);
    run.check(
        faulty_loses_every_game(&run, "floods its output (a line over 256 KiB)") == 2,
        "both games are played",
    );
}

/// An `info` line every 10 ms never lets the queue of lines run dry: the
/// time limit must hold all the same.
#[test]
fn a_trickle_of_lines_still_loses_on_time() {
    let dir = TempDir::new("trickle");
    let engine = write_engine(&dir, FAULTY, Fault::Trickle, Declares::AllOptions);
    let run = versus(&dir, &engine, "").limit(Duration::from_secs(30)).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "loses on time") == 2, "both games are played");
    run.check(run.elapsed < Duration::from_secs(15), "each game ends at st plus the margin");
}

/// Ctrl-C during a match against an engine that floods every move: arena
/// stops within seconds, whatever the engine is writing at the time.
#[test]
fn an_interrupt_is_heard_while_an_engine_floods() {
    let dir = TempDir::new("flood-interrupt");
    let engine = write_engine(&dir, FAULTY, Fault::FloodOnGo, Declares::AllOptions);
    let run = against(&dir, &engine, "st=60", "-games 40")
        .interrupt_after(Duration::from_secs(2))
        .limit(Duration::from_secs(40))
        .run();
    run.expect_exit(130);
    let after = run.after_interrupt.expect("a SIGINT was sent");
    run.check(after < Duration::from_secs(5), "arena exits within a few seconds of the interrupt");
    run.check(run.stdout.contains("Final results:"), "with the results so far");
}

/// Ctrl-C while an engine takes its time to start (a large hash to clear,
/// under a generous handshake limit): arena stops at once, and the start
/// cut short is not counted as a failure.
#[test]
fn an_interrupt_is_heard_during_a_slow_start() {
    let dir = TempDir::new("slow-interrupt");
    let engine = write_engine(&dir, FAULTY, Fault::SlowStart(30), Declares::AllOptions);
    let run = versus(&dir, &engine, "-each handshake=60")
        .interrupt_after(Duration::from_secs(2))
        .limit(Duration::from_secs(50))
        .run();
    run.expect_exit(130);
    let after = run.after_interrupt.expect("a SIGINT was sent");
    run.check(after < Duration::from_secs(5), "arena exits within a few seconds of the interrupt");
    run.check(finished_games(&run.stdout).is_empty(), "the game cut short is not counted");
    run.check(engine_row(&run, FAULTY).crashes == 0, "nor is its start a failure");
}

/// A 100 kB illegal move: the `Finished game` lines and the PGN
/// `Termination` tags quote only the start of it.
#[test]
fn a_huge_illegal_move_is_quoted_short() {
    let dir = TempDir::new("huge");
    let huge: &'static str = Box::leak("x".repeat(100_000).into_boxed_str());
    let engine = write_engine(&dir, FAULTY, Fault::Illegal(huge), Declares::AllOptions);
    let pgn = dir.file("games.pgn");
    let run = versus(&dir, &engine, &format!("-pgnout {pgn}")).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "plays an illegal move") == 2, "both games are played");
    for line in run.stdout.lines().filter(|l| l.starts_with("Finished game")) {
        run.check(line.len() < 250, "a Finished game line stays short");
        run.check(line.contains("xxx..."), "the cut is marked");
    }
    for record in read_records(&pgn) {
        let termination = record.tag("Termination");
        assert!(termination.chars().count() <= 123, "{} characters", termination.len());
    }
}

/// Junk, bytes that are not UTF-8, nonsense `info`, a stray `readyok`, then
/// `bestmove ???"`; and only the `Game` option declared. The records must
/// stay well-formed despite the quote in the move.
#[test]
fn garbage_output_loses_and_undeclared_options_are_warned_about() {
    let dir = TempDir::new("garbage");
    let engine = write_engine(&dir, FAULTY, Fault::Garbage, Declares::GameOnly);
    let pgn = dir.file("games.pgn");
    let run = versus(&dir, &engine, &format!("-pgnout {pgn}")).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "plays an illegal move") == 2, "both games are played");
    run.check(engine_row(&run, FAULTY).illegal_moves == 2, "two illegal moves counted");
    for option in ["BoardWidth", "BoardHeight", "Walls", "Players", "MultiJump"] {
        let warning = format!("Warning: {FAULTY} has no option {option}");
        run.check(run.stdout.contains(&warning), &format!("arena warns '{warning}'"));
    }
    run.check(!run.stdout.contains("no option Game"), "Game was declared");
    let records = read_records(&pgn);
    run.check(records.len() == 2, "two records");
    for record in &records {
        let termination = record.tag("Termination");
        assert!(termination.ends_with("plays an illegal move ('???\"' is not a move)"), "{record:?}");
        let faulty_seat = if record.tag("P1") == FAULTY { 1 } else { 2 };
        assert!(termination.starts_with(&format!("P{faulty_seat} ")), "{record:?}");
        check_moves_replay(record);
    }
}

/// The moves before the fault replay from the start.
fn check_moves_replay(record: &Record) {
    replay(quoridor_start(5, 5, 4, 2), &record.moves).unwrap_or_else(|e| panic!("{e}: {record:?}"));
}

/// Both games run at once, each waiting out a 2 s handshake limit set with
/// `-each handshake=2`.
#[test]
fn a_slow_starter_fails_the_handshake() {
    let dir = TempDir::new("slow");
    let engine = write_engine(&dir, FAULTY, Fault::SlowStart(15), Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover -concurrency 2 -each handshake=2")
        .limit(Duration::from_secs(60))
        .run();
    run.expect_exit(0);
    run.check(
        faulty_loses_every_game(&run, "fails to start: no uciok in time") == 2,
        "both games are played",
    );
    run.check(engine_row(&run, FAULTY).crashes == 2, "failures to start count as crashes");
    run.check(run.elapsed >= Duration::from_millis(1800), "the handshake limit is about 2 s");
    run.check(run.elapsed < Duration::from_secs(12), "each game ends within the handshake limit + slack");
}

/// An engine that needs 3 s to start (as one clearing a big hash table
/// might) is waited for under a longer limit; it then loses by its move.
#[test]
fn a_slow_starter_is_waited_for_under_its_own_limit() {
    let dir = TempDir::new("slow-ok");
    let engine = write_engine(&dir, FAULTY, Fault::SlowStart(3), Declares::AllOptions);
    let run = versus(&dir, &engine, "-concurrency 2 -each handshake=10").limit(Duration::from_secs(60)).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "plays an illegal move") == 2, "both games are played");
    run.check(engine_row(&run, FAULTY).crashes == 0, "a slow start within the limit is no failure");
    run.check(run.elapsed >= Duration::from_millis(2800), "arena waited for the slow start");
}

/// The engine crashes while a background child of its own still holds its
/// output open: arena sees the process end and calls it a crash at once,
/// not a time loss when `st` runs out.
#[test]
fn a_crash_is_seen_while_a_child_holds_the_output() {
    let dir = TempDir::new("crash-child");
    let engine = write_engine(&dir, FAULTY, Fault::CrashLeavingChild, Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover -each st=10").limit(Duration::from_secs(60)).run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "crashed") == 2, "both games are played");
    let row = engine_row(&run, FAULTY);
    run.check((row.crashes, row.time_losses) == (2, 0), "two crashes, no time loss");
    // Tabula thinks 10 s for its first move in game 1; two waits for st=10
    // to run out would add 20 s more.
    run.check(run.elapsed < Duration::from_secs(18), "the crash is seen long before st=10 runs out");
}

/// A grandchild in a session of its own is out of reach of the engine's
/// process group; arena still kills it.
#[test]
fn a_process_in_its_own_session_does_not_outlive_arena() {
    let dir = TempDir::new("setsid");
    let engine = write_engine(&dir, FAULTY, Fault::CrashLeavingSession, Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover").run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "crashed") == 2, "both games are played");
    run.check(run.elapsed < Duration::from_secs(15), "arena exits promptly");
}

#[test]
fn a_missing_engine_fails_to_start_and_stops_the_match() {
    let dir = TempDir::new("missing");
    let missing = dir.file("no-such-engine");
    let run = versus(&dir, &missing, "").run();
    run.check(run.code() == Some(3), "failing to start without -recover ends arena with status 3");
    run.check(run.leftovers.is_empty(), "no process may outlive arena");
    faulty_loses_every_game(&run, "fails to start: cannot start");
    run.check(run.stdout.contains("use -recover"), "the stop message mentions -recover");
    run.check(engine_row(&run, FAULTY).crashes >= 1, "the failure is counted");
    run.check(run.elapsed < Duration::from_secs(10), "arena exits promptly");
}

#[test]
fn an_engine_that_exits_at_once_fails_to_start() {
    let dir = TempDir::new("exits");
    let engine = write_engine(&dir, FAULTY, Fault::ExitAtOnce, Declares::AllOptions);
    let run = versus(&dir, &engine, "-recover").run();
    run.expect_exit(0);
    run.check(faulty_loses_every_game(&run, "fails to start") == 2, "both games are played");
    run.check(engine_row(&run, FAULTY).crashes == 2, "failures to start count as crashes");
    run.check(run.elapsed < Duration::from_secs(10), "arena exits promptly");
}

/// Four players, one of which crashes on its first move: the other three
/// play on, one of them wins, and the crash is counted.
#[test]
fn four_players_go_on_without_a_crashed_engine() {
    let dir = TempDir::new("crash4");
    let engine = write_engine(&dir, FAULTY, Fault::Crash, Declares::AllOptions);
    let mut args = vec!["-engine".to_string(), format!("cmd={engine}"), format!("name={FAULTY}")];
    for name in ["North", "East", "South"] {
        args.extend([
            "-engine".into(),
            format!("cmd={}", tabula_str()),
            format!("name={name}"),
            "timemargin=2000".into(),
        ]);
    }
    let pgn = dir.file("games.pgn");
    args.extend(
        format!("-each st=0.05 -variant width=5 height=5 players=4 walls=3 -games 2 -recover -concurrency 2 -pgnout {pgn}")
            .split_whitespace()
            .map(String::from),
    );
    let run = ArenaRun::new(&args).watch(&dir).run();
    run.expect_exit(0);
    let finished = finished_games(&run.stdout);
    run.check(finished.len() == 2, "both games finish");
    // arena's own reader (the board's Load, tune) takes the skipped turns.
    let text = std::fs::read_to_string(&pgn).expect("the records");
    run.check(text.contains(" - "), "the crashed engine's turns show as '-'");
    let read = arena::record::read_records(&text);
    run.check(read.len() == 2, "two records");
    for record in read {
        let record = record.unwrap_or_else(|e| panic!("arena cannot read its own record: {e}\n{text}"));
        let (position, _) = arena::record::replay(&record.game, &record.variant).expect("it replays");
        run.check(position.outcome().is_some(), "to the end of the game");
    }
    for f in &finished {
        let winner = f.winner_name();
        run.check(winner.is_some() && winner != Some(FAULTY), "one of the three others wins");
        run.check(f.termination.ends_with("reaches the goal"), "the game goes on to a goal");
    }
    let rows = standings_table(&run.stdout);
    run.check(rows.len() == 4, "four rows of standings");
    run.check(
        rows.iter().any(|r| r.name == FAULTY && r.games == 2 && r.wins == 0),
        "the crashed engine wins none",
    );
    let row = engine_row(&run, FAULTY);
    run.check((row.crashes, row.time_losses, row.illegal_moves) == (2, 0, 0), "one crash per game counted");
    for name in ["North", "East", "South"] {
        run.check(engine_row(&run, name).crashes == 0, "the others did not crash");
    }
}

#[test]
fn four_players_go_on_without_an_engine_that_fails_to_start() {
    let dir = TempDir::new("nostart4");
    let missing = format!("{}/no-such-engine", dir.path().display());
    let mut args = vec!["-engine".to_string(), format!("cmd={missing}"), format!("name={FAULTY}")];
    for name in ["North", "East", "South"] {
        args.extend(["-engine".into(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        "-each st=0.05 -variant width=5 height=5 players=4 walls=3 -games 2 -recover"
            .split_whitespace()
            .map(String::from),
    );
    let run = ArenaRun::new(&args).watch(&dir).run();
    run.expect_exit(0);
    let finished = finished_games(&run.stdout);
    run.check(finished.len() == 2, "both games finish");
    for f in &finished {
        let winner = f.winner_name();
        run.check(winner.is_some() && winner != Some(FAULTY), "one of the three others wins");
        run.check(f.termination.ends_with("reaches the goal"), "the game goes on to a goal");
    }
    run.check(engine_row(&run, FAULTY).crashes == 2, "each failed start counts as a crash");
}

/// SIGINT in the middle of a long match: arena stops the games, prints the
/// results so far, exits with 130 within a few seconds and leaves no engine.
#[test]
fn an_interrupt_ends_the_match_with_results() {
    let dir = TempDir::new("interrupt");
    let pgn = dir.file("games.pgn");
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        format!("-each st=0.2 -games 100 -concurrency 2 -pgnout {pgn}").split_whitespace().map(String::from),
    );
    let run = ArenaRun::new(&args).interrupt_after(Duration::from_secs(1)).watch(&dir).run();
    run.expect_exit(130);
    run.check(run.stdout.contains("Interrupted"), "arena says it was interrupted");
    run.check(run.stdout.contains("Final results:"), "the final results are printed");
    run.check(!engine_table(&run.stdout).is_empty(), "with the per-engine table");
    let after = run.after_interrupt.expect("a SIGINT was sent");
    run.check(after < Duration::from_secs(5), "arena exits within a few seconds of the interrupt");
    let finished = finished_games(&run.stdout).len();
    run.check(finished < 100, "the match did not run to the end");
    if std::path::Path::new(&pgn).exists() {
        let records = read_records(&pgn);
        run.check(records.len() == finished, "only finished games are recorded");
    }
}
