//! Command lines arena must refuse: exit status 2, a message saying why on
//! standard error, nothing on standard output, and no engine started.

mod common;

use common::*;
use std::time::Duration;

/// Runs arena with two engine groups (whose commands need not exist) and more.
fn refused(extra: &str, message: &str) {
    let dir = TempDir::new("cli");
    let engine = dir.file("never-started");
    let mut args =
        vec!["-engine".to_string(), format!("cmd={engine}"), "-engine".into(), format!("cmd={engine}")];
    args.extend(extra.split_whitespace().map(String::from));
    let run = ArenaRun::new(&args).limit(Duration::from_secs(20)).watch(&dir).run();
    run.expect_exit(2);
    run.check(run.stderr.contains(message), &format!("stderr should say '{message}'"));
    run.check(run.stdout.is_empty(), "nothing on stdout");
}

#[test]
fn an_unknown_flag_is_refused() {
    refused("-bogus 3", "unknown flag '-bogus'");
    refused("--each st=0.1 --nonsense", "unknown flag '--nonsense'");
}

#[test]
fn a_bad_time_control_is_refused() {
    refused("-each tc=fast", "tc: bad value 'fast'");
    refused("-each tc=0+1", "tc: bad value '0+1'");
    refused("-each st=-1", "st: bad value '-1'");
}

#[test]
fn too_much_concurrency_needs_force() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many = 64.max(cores + 1);
    refused(&format!("-concurrency {too_many}"), "add -force-concurrency to insist");
    refused(
        &format!("-concurrency {too_many}"),
        &format!("-concurrency {too_many} exceeds the {cores} cores"),
    );
}

#[test]
fn four_players_need_four_engines() {
    refused("-variant players=4 walls=5", "2 engines: a match needs 2 or more (exactly 4 for four players)");
}

#[test]
fn other_mistakes_are_refused() {
    refused("-variant game=chess", "-variant game: bad value 'chess'");
    refused("-variant game=quarto board=3x3 level=2", "-variant: bad value");
    refused("-sprt elo0=10 elo1=0", "-sprt: bad value");
    refused("-games 0", "bad value '0'");
    refused("-games", "missing -games N");
}

#[test]
fn help_is_printed_on_stdout() {
    let run = ArenaRun::new(&["--help"]).limit(Duration::from_secs(20)).run();
    run.expect_exit(0);
    run.check(run.stdout.starts_with("usage: arena -engine cmd=PATH"), "usage on stdout");
}

/// An output file that cannot be written is refused before the first game,
/// rather than warned about after every game and lost.
#[test]
fn an_output_file_that_cannot_be_written_is_refused() {
    refused("-pgnout /nonexistent/dir/x.pgn", "cannot write -pgnout /nonexistent/dir/x.pgn");
    refused("-log /nonexistent/dir/x.log", "cannot write -log /nonexistent/dir/x.log");
}

#[test]
fn unknown_settings_and_empty_searches_are_refused() {
    refused("-sprt elo0=0 elo1=5 model=normalized", "-sprt: unknown setting 'model'");
    refused("-openings file=book.txt format=epd", "-openings: unknown setting 'format'");
    refused("-pgnout file=x.pgn notation=san", "-pgnout: unknown setting 'notation'");
    refused("-each nodes=0", "nodes: bad value '0'");
    refused("-each depth=0", "depth: bad value '0'");
}

/// A 20 MB word in an openings file: the error quotes its start, not all of it.
#[test]
fn an_openings_error_quotes_little() {
    let dir = TempDir::new("cli-openings");
    let book = dir.file("book.txt");
    std::fs::write(&book, format!("e2 e8\ne2 {}\n", "x".repeat(20 << 20))).expect("write the book");
    let engine = dir.file("never-started");
    let args = ["-engine", &format!("cmd={engine}"), "-engine", &format!("cmd={engine}")]
        .into_iter()
        .map(String::from)
        .chain(["-openings".into(), format!("file={book}")])
        .collect::<Vec<_>>();
    let run = ArenaRun::new(&args).limit(Duration::from_secs(20)).watch(&dir).run();
    run.expect_exit(2);
    run.check(run.stderr.contains("openings line 2: 'xxxxxxxx"), "the line and the word are named");
    run.check(run.stderr.len() < 2000, "the word is not quoted whole");
}

/// `-pgnout file=PATH`, as fastchess writes it, writes PATH.
#[test]
fn pgnout_takes_the_fastchess_spelling() {
    let dir = TempDir::new("cli-pgnout");
    let pgn = dir.file("x.pgn");
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        ["-each", "depth=1", "-variant", "width=5", "height=5", "walls=2", "-games", "1", "-pgnout"]
            .map(String::from),
    );
    args.push(format!("file={pgn}"));
    let run = ArenaRun::new(&args).watch(&dir).run();
    run.expect_exit(0);
    run.check(!run.stdout.contains("Warning"), "no warning");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    run.check(text.contains("[Game \"1\"]"), "the record is in x.pgn");
}
