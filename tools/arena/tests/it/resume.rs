//! A match that outlives its run: the state saved as it goes (fastchess's
//! `-config`), an interrupted node-limited match resumed to the very
//! results and records of an uninterrupted one, damaged or foreign state
//! files refused by name; and no engine left behind by SIGTERM, SIGHUP,
//! `timeout` or even SIGKILL, wrapped engines included.

use crate::common::*;
use std::time::Duration;

/// A deterministic 16-game match: node-limited engines on one thread.
fn match_line(pgn: &str, state: &str) -> Vec<String> {
    let t = tabula_str();
    format!(
        "-engine cmd={t} name=A -engine cmd={t} name=B option.Level=8 -each nodes=4000 option.Threads=1 \
         -variant width=7 height=7 walls=6 -games 16 -repeat -openings random plies=2 -seed 5 \
         -sprt elo0=0 elo1=50 -pgnout {pgn} -config outname={state} -autosaveinterval 2"
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

/// The lines of the result block that do not depend on timing.
fn result_block(stdout: &str) -> Vec<String> {
    let keep = ["Score of", "Elo difference", "Ptnml", "LLR", "H0 accepted", "H1 accepted"];
    let from = stdout.rfind("Final results:").unwrap_or(0);
    stdout[from..].lines().filter(|l| keep.iter().any(|k| l.starts_with(k))).map(String::from).collect()
}

/// Every game of a records file: number, moves and result.
fn games(path: &str) -> Vec<(String, Vec<String>, String)> {
    let mut all: Vec<_> = read_records(path)
        .into_iter()
        .map(|r| (r.tag("Game").to_string(), r.moves.clone(), r.result.clone()))
        .collect();
    all.sort();
    all
}

#[test]
fn an_interrupted_match_resumes_to_the_same_end() {
    let dir = TempDir::new("resume");
    let whole =
        ArenaRun::new(&match_line(&dir.file("whole.pgn"), &dir.file("whole.json"))).in_dir(&dir).run();
    whole.expect_exit(0);
    let state = dir.file("part.json");
    // Halfway through, by the uninterrupted run's clock: a fixed time
    // would miss the middle when searches get faster or the machine slower.
    let first = ArenaRun::new(&match_line(&dir.file("part.pgn"), &state))
        .interrupt_after(whole.elapsed / 2)
        .in_dir(&dir)
        .run();
    first.expect_exit(130);
    let played = finished_games(&first.stdout).len();
    first.check((1..16).contains(&played), "interrupted part way");
    first.check(first.leftovers.is_empty(), "no engine left behind");
    let resumed = ArenaRun::new(&["-config".to_string(), format!("file={state}")]).in_dir(&dir).run();
    resumed.expect_exit(0);
    resumed.check(resumed.stdout.contains(&format!("Resumed: {played} finished games counted")), "resumed");
    let numbers: Vec<usize> = finished_games(&resumed.stdout).iter().map(|f| f.number).collect();
    resumed.check(numbers.iter().all(|&n| n > played), "only the games left are played");
    resumed.check(result_block(&resumed.stdout) == result_block(&whole.stdout), "the same results");
    resumed.check(result_block(&whole.stdout).len() >= 4, "a whole result block");
    resumed.check(games(&dir.file("part.pgn")) == games(&dir.file("whole.pgn")), "the same records");
    // Resuming a finished match plays nothing and says the same again.
    let again = ArenaRun::new(&["-config".to_string(), format!("file={state}")]).in_dir(&dir).run();
    again.expect_exit(0);
    again.check(
        finished_games(&again.stdout).is_empty()
            && result_block(&again.stdout) == result_block(&whole.stdout),
        "done",
    );
}

#[test]
fn a_damaged_or_foreign_state_is_refused_by_name() {
    let dir = TempDir::new("resume-bad");
    let state = dir.file("state.json");
    let t = tabula_str();
    let line = format!("-engine cmd={t} -engine cmd={t} -each depth=1 -variant width=5 height=5 walls=2 -games 2 -config outname={state}");
    let run = ArenaRun::new(&line.split_whitespace().collect::<Vec<_>>()).in_dir(&dir).run();
    run.expect_exit(0);
    let text = std::fs::read_to_string(&state).expect("the state was saved");
    let resume = |contents: &str| {
        std::fs::write(&state, contents).expect("write the state");
        ArenaRun::new(&["-config".to_string(), format!("file={state}")]).in_dir(&dir).run()
    };
    for (contents, why) in [
        (text.replacen("reaches the goal", "reached the goal", 1), "checksum does not match"),
        (
            text.replace(&format!("\"arena\": \"{}\"", env!("CARGO_PKG_VERSION")), "\"arena\": \"0.0.1\""),
            "another version of arena",
        ),
        (text[..text.len() / 2].to_string(), "not a match state"),
        ("[1, 2, 3]".to_string(), "not an arena match state"),
    ] {
        let run = resume(&contents);
        run.expect_exit(2);
        run.check(run.stderr.contains(&format!("-config file={state}: ")) && run.stderr.contains(why), why);
    }
    std::fs::write(&state, &text).expect("write the state");
    let extra = ArenaRun::new(&["-config".to_string(), format!("file={state}"), "-games".into(), "9".into()])
        .in_dir(&dir)
        .run();
    extra.expect_exit(2);
    extra.check(extra.stderr.contains("keeps the settings it was saved with"), "no flags beside a resume");
}

/// A wrapper that starts the engine as its child (no `exec`).
fn wrapper(dir: &TempDir) -> String {
    let path = dir.file("wrapper.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{}\n", tabula_str())).expect("write the wrapper");
    std::process::Command::new("chmod").args(["+x", &path]).status().expect("chmod");
    path
}

#[test]
fn no_engine_outlives_arena_on_any_signal() {
    for (signal, code) in [("-TERM", 143), ("-HUP", 129), ("-INT", 130)] {
        let dir = TempDir::new("signal");
        let line = format!(
            "-engine cmd={} name=Wrapped -engine cmd={} name=Direct -each st=1 -games 8",
            wrapper(&dir),
            tabula_str()
        );
        let run = ArenaRun::new(&line.split_whitespace().collect::<Vec<_>>())
            .signal_after(signal, Duration::from_millis(1500))
            .watch(&dir)
            .in_dir(&dir)
            .run();
        run.expect_exit(code);
        run.check(run.leftovers.is_empty(), &format!("{signal}: no engine left behind"));
        run.check(run.stdout.contains("Interrupted: results so far"), "the results so far");
        run.check(
            std::path::Path::new(&dir.file("config.json")).exists(),
            "the state is saved on the signal",
        );
    }
}

/// `timeout` sends SIGTERM to arena alone, and SIGKILL (no handler) ends
/// its engines too: the kernel kills them when arena dies.
#[test]
fn timeout_and_sigkill_leave_no_engine() {
    let dir = TempDir::new("timeout");
    let arena_path = arena().display().to_string();
    let line = format!(
        "2 {arena_path} -engine cmd={} name=Wrapped -engine cmd={} name=Direct -each st=1 -games 8",
        wrapper(&dir),
        tabula_str()
    );
    let mut args = vec!["timeout".to_string()];
    args.extend(line.split_whitespace().map(String::from));
    let status = std::process::Command::new(&args[0])
        .args(&args[1..])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run timeout");
    assert_eq!(status.code(), Some(124), "timeout ran out");
    let left = engines_running_in(&dir);
    assert!(left.is_empty(), "left behind after timeout: {left:?}");
    // SIGKILL: arena cannot clean up; the engines die with it all the same.
    let mut child = std::process::Command::new(arena())
        .args(line.split_whitespace().skip(2))
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arena");
    std::thread::sleep(Duration::from_millis(1500));
    signal("-KILL", &[child.id()]);
    let _ = child.wait();
    let left = engines_running_in(&dir);
    // The wrapper dies with arena; its own child sees its input close and ends.
    assert!(left.is_empty(), "left behind after SIGKILL: {left:?}");
}

/// Processes whose working directory is `dir` (what the run started
/// there) still running after up to five seconds.
fn engines_running_in(dir: &TempDir) -> Vec<String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let left = running_in(dir);
        if left.is_empty() || std::time::Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn running_in(dir: &TempDir) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mine = std::process::id().to_string();
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()) && n != mine)
        })
        .filter(|e| std::fs::read_link(e.path().join("cwd")).is_ok_and(|cwd| cwd == dir.path()))
        .filter(|e| {
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            !stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z'))
        })
        .map(|e| std::fs::read_to_string(e.path().join("cmdline")).unwrap_or_default().replace('\0', " "))
        .collect()
}
