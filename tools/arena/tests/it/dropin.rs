//! arena as a drop-in for cutechess-cli and fastchess, through the real
//! binary: command lines of their documentation run as written (only the
//! engines and the openings file changed); `conf=` from `engines.json`;
//! every flag and engine key of either that arena now reads does what it
//! says; what cannot apply to these games is refused with the reason.

use crate::common::*;
use std::time::Duration;

/// An openings file of position texts (`format=epd`): 9x9 after two plies.
fn epd_book(dir: &TempDir) -> String {
    let path = dir.file("book.epd");
    let lines = [
        "quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1 jumps=single",
        "quoridor 9x9 pawns=e1,e9 hand=9,9 walls=c3h,f6v turn=1 jumps=single",
        "quoridor 9x9 pawns=d1,f9 hand=10,10 walls=- turn=1 jumps=single",
    ];
    std::fs::write(&path, lines.join("\n") + "\n").expect("write the book");
    path
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// cutechess-cli's documented form (proto=uci on each engine, -each,
/// -openings ... format=epd order=random, -repeat, -games, -rounds,
/// -concurrency, -sprt, -pgnout, -recover) with Tabula as both engines.
#[test]
fn a_cutechess_cli_command_line_runs_as_written() {
    let dir = TempDir::new("dropin-cutechess");
    let (t, book, pgn) = (tabula_str(), epd_book(&dir), dir.file("out.pgn"));
    let line = format!(
        "-engine name=A cmd={t} proto=uci -engine name=B cmd={t} proto=uci option.Level=8 \
         -each proto=uci tc=inf nodes=1500 option.Threads=1 \
         -openings file={book} format=epd order=random -repeat -games 2 -rounds 2 -concurrency 2 \
         -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -pgnout {pgn} -recover -srand 11"
    );
    let run = ArenaRun::new(&words(&line)).limit(Duration::from_secs(120)).in_dir(&dir).run();
    run.expect_exit(0);
    run.check(finished_games(&run.stdout).len() == 4, "two rounds of two games");
    run.check(run.stdout.contains("Score of A vs B:") && run.stdout.contains("LLR:"), "cutechess results");
    run.check(run.stdout.contains("Ptnml(0-2):"), "pairs counted with -repeat");
    run.check(read_records(&pgn).len() == 4, "four records");
    run.check(std::path::Path::new(&dir.file("config.json")).exists(), "the match state is saved");
}

/// fastchess's documented SPRT example (nodes per engine, -each tc=,
/// -resign, -draw, -pgnout notation=san nodes=true file=./games/...).
#[test]
fn a_fastchess_command_line_runs_as_written() {
    let dir = TempDir::new("dropin-fastchess");
    std::fs::create_dir_all(dir.path().join("games")).expect("the games folder");
    let (t, book) = (tabula_str(), epd_book(&dir));
    let line = format!(
        "-engine cmd={t} name=Engine1 option.Threads=1 nodes=2000 \
         -engine cmd={t} name=Engine2 option.Threads=1 nodes=1000 \
         -openings file={book} format=epd order=random \
         -each tc=300+5 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
         -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 \
         -rounds 2 -concurrency 2 -pgnout notation=san nodes=true file=./games/sprt.pgn"
    );
    let run = ArenaRun::new(&words(&line)).limit(Duration::from_secs(120)).in_dir(&dir).run();
    run.expect_exit(0);
    run.check(run.stdout.contains("Score of Engine1 vs Engine2:"), "the score line");
    let records = read_records(&dir.file("games/sprt.pgn"));
    run.check(records.len() == 2, "two records in ./games");
    let commented = records.iter().flat_map(|r| &r.move_comments).any(|(_, c)| c.contains(", n="));
    run.check(commented, "nodes=true adds n= to each comment, as fastchess writes it");
}

#[test]
fn engines_come_from_engines_json() {
    let dir = TempDir::new("dropin-conf");
    let t = tabula_str();
    let conf = format!(
        r#"[
  {{"name": "Weak", "command": "{t}", "protocol": "uci", "workingDirectory": "{cwd}",
    "options": [{{"name": "Level", "value": 2}}, {{"name": "Threads", "value": "1"}}],
    "initStrings": ["setoption name Seed value 9"], "timeoutScaleFactor": 1.0, "whitepov": false}},
  {{"name": "Full", "command": "{t}", "protocol": "uci"}}
]"#,
        cwd = dir.path().display()
    );
    std::fs::write(dir.path().join("engines.json"), conf).expect("write engines.json");
    let log = dir.file("traffic.log");
    let line = format!("-engine conf=Weak -engine conf=Full -each depth=2 -games 2 -variant width=5 height=5 walls=2 -log {log}");
    let run = ArenaRun::new(&words(&line)).in_dir(&dir).run();
    run.expect_exit(0);
    run.check(run.stdout.contains("Score of Weak vs Full:"), "the names of engines.json");
    let traffic = std::fs::read_to_string(&log).unwrap_or_default();
    run.check(traffic.contains("Weak << setoption name Level value 2"), "its options are sent");
    run.check(traffic.contains("Weak << setoption name Seed value 9"), "its init strings are sent");
    let missing = ArenaRun::new(&words("-engine conf=Nobody -engine conf=Full")).in_dir(&dir).run();
    missing.expect_exit(2);
    missing.check(missing.stderr.contains("conf=Nobody: engines.json: no engine named 'Nobody'"), "named");
}

/// The flags of one tool or the other, each doing what it says.
#[test]
fn flags_of_either_tool_do_what_they_say() {
    let dir = TempDir::new("dropin-flags");
    let t = tabula_str();
    let base = format!(
        "-engine cmd={t} name=A -engine cmd={t} name=B option.Level=5 -each depth=2 \
         -variant width=5 height=5 walls=2 -openings random plies=2"
    );
    let schedule = |extra: &str| {
        let run = ArenaRun::new(&words(&format!("{base} {extra} -schedule"))).in_dir(&dir).run();
        run.expect_exit(0);
        run.stdout.lines().map(String::from).collect::<Vec<_>>()
    };
    // -repeat N: each opening N times, seats swapped; -noswap keeps them; -reverse starts reversed.
    let three = schedule("-games 6 -repeat 3");
    assert_eq!(three.iter().filter(|l| l.contains("\"pair\":1,")).count(), 3, "{three:?}");
    assert!(three[1].contains("\"seats\":[1,0]"), "{three:?}");
    assert!(schedule("-games 4 -repeat -noswap").iter().all(|l| l.contains("\"seats\":[0,1]")));
    assert!(schedule("-games 2 -reverse")[0].contains("\"seats\":[1,0]"));
    let version = ArenaRun::new(&["-version"]).run();
    version.expect_exit(0);
    version.check(version.stdout.starts_with("arena "), "-version");
    let (epd, pgn) = (dir.file("last.epd"), dir.file("g.pgn"));
    let line = format!(
        "{base} -games 4 -repeat -report penta=false -ratinginterval 0 -epdout {epd} \
         -pgnout file={pgn} seldepth=true nps=true -debug -wait 50 -output format=fastchess"
    );
    let run = ArenaRun::new(&words(&line)).in_dir(&dir).run();
    run.expect_exit(0);
    run.check(run.stdout.contains("Results of A vs B (depth=2, NULL, NULL):"), "fastchess's heading");
    run.check(run.stdout.contains("nElo:") && !run.stdout.contains("Ptnml"), "-report penta=false");
    run.check(run.stdout.matches("Results of").count() == 1, "-ratinginterval 0: results at the end only");
    run.check(run.stderr.contains("A << uci"), "-debug shows the traffic on standard error");
    let positions = std::fs::read_to_string(&epd).unwrap_or_default();
    run.check(
        positions.lines().count() == 4 && positions.lines().all(|l| l.starts_with("quoridor 5x5")),
        "-epdout",
    );
    let comments: Vec<String> =
        read_records(&pgn).iter().flat_map(|r| r.move_comments.clone()).map(|c| c.1).collect();
    run.check(comments.iter().any(|c| c.contains(", sd=") && c.contains(", nps=")), "seldepth= and nps=");
}

/// Engine keys: restart=off keeps one process for all games, stderr= and
/// initstr= reach the engine, -use-affinity binds it to a CPU.
#[test]
fn engine_keys_restart_stderr_initstr_and_affinity() {
    let dir = TempDir::new("dropin-keys");
    let wrapped = dir.file("wrapped.sh");
    let script = format!(
        "#!/bin/sh\necho started >&2\ngrep Cpus_allowed_list /proc/self/status >&2\nexec {} \"$@\"\n",
        tabula_str()
    );
    std::fs::write(&wrapped, script).expect("write the wrapper");
    std::process::Command::new("chmod").args(["+x", &wrapped]).status().expect("chmod");
    let (err, log) = (dir.file("engine.err"), dir.file("traffic.log"));
    let line = format!(
        "-engine cmd={wrapped} name=A restart=off stderr={err} initstr=debug -engine cmd={} name=B \
         -each depth=1 -variant width=5 height=5 walls=2 -games 4 -use-affinity 0 -log {log}",
        tabula_str()
    );
    let run = ArenaRun::new(&words(&line)).in_dir(&dir).run();
    run.expect_exit(0);
    let errors = std::fs::read_to_string(&err).unwrap_or_default();
    run.check(errors.matches("started").count() == 1, "restart=off: one process for four games");
    run.check(errors.contains("Cpus_allowed_list:\t0\n"), "-use-affinity 0: on CPU 0 alone");
    let traffic = std::fs::read_to_string(&log).unwrap_or_default();
    run.check(traffic.matches("B << uci\n").count() == 4, "B restarts for every game (arena's default)");
    run.check(traffic.contains("A << debug"), "initstr= is sent");
    run.check(traffic.matches("A << ucinewgame").count() == 4, "a kept engine hears ucinewgame");
}

#[test]
fn a_knockout_plays_down_to_one_winner() {
    let dir = TempDir::new("dropin-knockout");
    let t = tabula_str();
    let line = format!(
        "-engine cmd={t} name=Full -engine cmd={t} name=Three option.Level=3 -engine cmd={t} name=One option.Level=1 \
         -each depth=3 -variant width=5 height=5 walls=2 -tournament knockout -seeds 1 -games 2"
    );
    let run = ArenaRun::new(&words(&line)).limit(Duration::from_secs(120)).in_dir(&dir).run();
    run.expect_exit(0);
    run.check(run.stdout.contains("Knockout round 1: Full has a bye"), "the top seed has the bye");
    run.check(
        run.stdout.contains("Knockout round 2: Full - "),
        "and meets the winner of the other encounter",
    );
    run.check(run.stdout.contains("Knockout winner: "), "a winner");
    run.check(finished_games(&run.stdout).len() >= 4, "two encounters of two games or more");
}

#[test]
fn the_sprt_models_of_fastchess() {
    let dir = TempDir::new("dropin-sprt");
    let t = tabula_str();
    for model in ["logistic", "normalized", "bayesian"] {
        let line = format!(
            "-engine cmd={t} name=A -engine cmd={t} name=B option.Level=2 -each depth=2 \
             -variant width=5 height=5 walls=2 -games 4 -repeat -openings random plies=2 \
             -sprt elo0=0 elo1=100 model={model}"
        );
        let run = ArenaRun::new(&words(&line)).in_dir(&dir).run();
        run.expect_exit(0);
        run.check(run.stdout.contains("LLR: "), &format!("model={model} gives an LLR"));
    }
}

#[test]
fn what_cannot_apply_is_refused_with_the_reason() {
    let t = tabula_str();
    for (extra, why) in [
        ("-tb /syzygy", "Syzygy tablebases are for chess"),
        ("-tbpieces 6", "Syzygy tablebases are for chess"),
        ("-bookmode ram", "no Polyglot opening books"),
        ("-each book=book.bin", "no Polyglot opening books"),
        ("-each proto=xboard", "arena speaks uci"),
        ("-pgnout file=x.pgn append=false", "always appends"),
    ] {
        let line = format!("-engine cmd={t} -engine cmd={t} {extra}");
        let run = ArenaRun::new(&words(&line)).run();
        run.expect_exit(2);
        run.check(run.stderr.contains(why), &format!("'{extra}' is refused: {why}"));
    }
}
