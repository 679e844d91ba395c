//! A match played pair by pair (`-pair K -results FILE`) and put together
//! with `arena merge` gives the standings and records of one run over the
//! same games; `-schedule` lists them; merge refuses what does not fit.

mod common;

use common::*;

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
    merged.check(merged.stdout.contains("appears twice; counted once"), "the repeated pair is noticed");
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
