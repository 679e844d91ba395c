//! A match played pair by pair (`-pair K -results FILE`) and put together
//! with `arena merge` gives the standings and records of one run over the
//! same games; `-schedule` lists them; merge refuses what does not fit.

use crate::common::*;

/// A deterministic match: node-limited engines on one thread.
fn match_args(pgn: &str, extra: &str) -> Vec<String> {
    let tabula = tabula_str();
    format!(
        "-engine cmd={tabula} name=full -engine cmd={tabula} name=weaker option.Level=6 \
         -each nodes=2000 option.Threads=1 option.Hash=8 -variant width=5 height=5 walls=3 \
         -games 6 -repeat -openings random plies=2 -seed 5 -pgnout {pgn} {extra}"
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

/// The lines of the result block that do not depend on timing.
fn result_block(stdout: &str) -> Vec<String> {
    let keep = ["Score of", "Elo difference", "Ptnml", "LLR", "H0 accepted", "H1 accepted"];
    stdout.lines().filter(|l| keep.iter().any(|k| l.starts_with(k))).map(String::from).collect()
}

/// The games of a records file (their moves, result and seats), sorted.
fn moves(path: &str) -> Vec<(Vec<String>, String, String, String)> {
    let mut games: Vec<_> = read_records(path)
        .into_iter()
        .map(|r| (r.moves.clone(), r.result.clone(), r.tag("P1").to_string(), r.tag("Game").to_string()))
        .collect();
    games.sort();
    games
}

#[test]
fn pairs_played_apart_and_merged_equal_one_run() {
    let dir = TempDir::new("merge");
    let whole = ArenaRun::new(&match_args(&dir.file("whole.pgn"), "-sprt elo0=0 elo1=10")).run();
    whole.expect_exit(0);
    let schedule = ArenaRun::new(&match_args(&dir.file("x.pgn"), "-schedule")).run();
    schedule.expect_exit(0);
    schedule.check(schedule.stdout.lines().count() == 6, "six games scheduled");
    schedule.check(schedule.stdout.contains(r#"{"game":4,"pair":2,"seats":[1,0]}"#), "game 4 of pair 2");
    // Pair 3 first, and pair 1 twice (as after a retry): merge counts it once.
    let mut files = Vec::new();
    for pair in [3, 1, 2, 1] {
        let results = dir.file(&format!("pair{pair}-{}.jsonl", files.len()));
        let extra = format!("-sprt elo0=0 elo1=10 -pair {pair} -results {results}");
        let run = ArenaRun::new(&match_args(&dir.file("parts.pgn"), &extra)).run();
        run.expect_exit(0);
        let numbers: Vec<usize> = finished_games(&run.stdout).iter().map(|f| f.number).collect();
        run.check(
            numbers.len() == 2 && numbers.iter().all(|n| n.div_ceil(2) == pair),
            "the pair's own games",
        );
        files.push(results);
    }
    let merged_pgn = dir.file("merged.pgn");
    let mut merge_args = vec!["merge".to_string()];
    merge_args.extend(files.iter().cloned());
    merge_args.extend(["-pgnout".to_string(), merged_pgn.clone(), "min".to_string()]);
    let merged = ArenaRun::new(&merge_args).run();
    merged.expect_exit(0);
    merged.check(
        merged.stdout.contains("appears twice") && merged.stdout.contains("counted once"),
        "the repeated pair is noticed",
    );
    merged.check(result_block(&merged.stdout) == result_block(&whole.stdout), "merged = whole");
    merged.check(result_block(&whole.stdout).len() >= 4, "a full result block");
    merged.check(moves(&merged_pgn) == moves(&dir.file("whole.pgn")), "the same records");
    merged.check(moves(&merged_pgn).len() == 6, "six records");
    let minimal = std::fs::read_to_string(&merged_pgn).unwrap_or_default();
    merged.check(!minimal.contains(';') && !minimal.contains('{'), "-pgnout FILE min: no comments");
}

#[test]
fn merge_refuses_what_does_not_fit() {
    let dir = TempDir::new("merge-bad");
    let results = dir.file("one.jsonl");
    let run =
        ArenaRun::new(&match_args(&dir.file("a.pgn"), &format!("-games 2 -pair 1 -results {results}"))).run();
    run.expect_exit(0);
    let line =
        std::fs::read_to_string(&results).expect("results").lines().next().expect("a line").to_string();
    let write = |name: &str, text: &str| {
        let path = dir.file(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    let cases = [
        ("garbage", write("garbage.jsonl", "{not json\n")),
        ("a seat beyond", write("seat.jsonl", &line.replacen("\"seats\":[0,1]", "\"seats\":[0,7]", 1))),
        (
            "two games, one number",
            write(
                "twice.jsonl",
                &format!("{line}\n{}\n", line.replacen("\"seats\":[0,1]", "\"seats\":[1,0]", 1)),
            ),
        ),
        ("no file", dir.file("missing.jsonl")),
        ("a huge line", write("huge.jsonl", &"x".repeat(2 << 20))),
    ];
    for (what, path) in cases {
        let run = ArenaRun::new(&["merge".to_string(), path]).run();
        run.expect_exit(2);
        run.check(run.stderr.starts_with("arena merge: ") && run.stderr.len() < 400, what);
    }
    let nothing = ArenaRun::new(&["merge"]).run();
    nothing.expect_exit(2);
    let beyond = ArenaRun::new(&match_args(&dir.file("b.pgn"), "-pair 4")).run();
    beyond.expect_exit(2);
    beyond.check(beyond.stderr.contains("-pair 4: the match has 3 pairs"), "the pairs counted");
}

/// merge as a referee: every game replayed through the rules, copies that
/// disagree refused with both places, a cut-off last line skipped with a
/// warning, other variants and time controls refused naming which.
#[test]
fn merge_referees_what_it_reads() {
    let dir = TempDir::new("merge-referee");
    let results = dir.file("run.jsonl");
    let run = ArenaRun::new(&match_args(&dir.file("a.pgn"), &format!("-games 4 -results {results}"))).run();
    run.expect_exit(0);
    let text = std::fs::read_to_string(&results).expect("results");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let write = |name: &str, body: String| {
        let path = dir.file(name);
        std::fs::write(&path, body).expect("write");
        path
    };
    let merge = |files: &[&str]| {
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| f.to_string()));
        ArenaRun::new(&args).run()
    };
    // An illegal move: refused, naming the file and line.
    let first_move = lines[1].split("\"move\":\"").nth(1).and_then(|r| r.split('"').next()).expect("a move");
    let illegal = write(
        "illegal.jsonl",
        format!(
            "{}\n{}\n",
            lines[0],
            lines[1].replacen(&format!("\"move\":\"{first_move}\""), "\"move\":\"zz9\"", 1)
        ),
    );
    let refused = merge(&[&illegal]);
    refused.expect_exit(2);
    refused.check(
        refused.stderr.contains(&format!("{illegal}:2: game 2: move 1")),
        "the file, line and move named",
    );
    // Two copies of game 1 that disagree (another result): refused with both places.
    let original = write("one.jsonl", format!("{}\n", lines[0]));
    let other_end = lines[0].replacen("reaches the goal", "reaches the goal at last", 1);
    let other = write("other.jsonl", format!("{other_end}\n"));
    let refused = merge(&[&original, &other]);
    refused.expect_exit(2);
    refused.check(
        refused
            .stderr
            .contains(&format!("game 1 appears twice and the copies disagree: {original}:1 and {other}:1")),
        "both places named",
    );
    // A cut-off last line: a warning, and the complete games count.
    let cut = write("cut.jsonl", format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..lines[2].len() / 2]));
    let kept = merge(&[&cut]);
    kept.expect_exit(0);
    kept.check(
        kept.stdout.contains(&format!("Warning: {cut}:3: the last line is cut off")),
        "the cut line named",
    );
    kept.check(finished_games(&kept.stdout).len() == 2, "the two complete games count");
    // Other variants and time controls are refused, naming which.
    // (a game without moves, so that it replays on the other board too)
    let mut unplayed: serde_json::Value = serde_json::from_str(lines[3]).expect("a results line");
    unplayed["moves"] = serde_json::json!([]);
    unplayed["opening_moves"] = serde_json::json!([]);
    (unplayed["winner"], unplayed["result"]) = (serde_json::Value::Null, "1/2-1/2".into());
    let unplayed = unplayed.to_string();
    let bigger =
        write("bigger.jsonl", unplayed.replace("quoridor 5x5 walls=3", "quoridor 7x7 walls=3") + "\n");
    let refused = merge(&[&original, &bigger]);
    refused.expect_exit(2);
    refused.check(refused.stderr.contains("variant quoridor 7x7"), "the other variant named");
    let slower = write(
        "slower.jsonl",
        unplayed.replace("\"time_control\":\"nodes=2000\"", "\"time_control\":\"st=1\"") + "\n",
    );
    let refused = merge(&[&original, &slower]);
    refused.expect_exit(2);
    refused.check(
        refused.stderr.contains("time control st=1 against nodes=2000"),
        "the other time control named",
    );
}
