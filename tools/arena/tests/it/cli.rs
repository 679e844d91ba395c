//! Command lines arena must refuse: exit status 2, a message saying why on
//! standard error, nothing on standard output, and no engine started.

use crate::common::*;
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
    refused("-each tc=1e30", "tc: bad value '1e30'");
    refused("-each tc=inf", "engine1: tc=inf needs nodes=N or depth=N");
    refused("-each tc=inf st=0.1", "engine1: tc=inf needs nodes=N or depth=N");
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
    refused("-variant game=chess", "-variant: game: 'chess' is not quoridor or quarto");
    refused("-variant game=quarto board=3x3 level=2", "-variant: ");
    refused("-sprt elo0=10 elo1=0", "-sprt: bad value");
    refused("-games 0", "bad value '0'");
    refused("-games", "missing -games N");
    refused("-srand -1", "-srand: bad value '-1'");
    refused("-maxmoves 0", "-maxmoves: bad value '0'");
    refused("-draw movecount=0 score=1", "-draw movecount: bad value '0'");
    refused("-resign score=5", "missing movecount= in -resign");
    refused("-resign movecount=3 score=5 twosided=maybe", "-resign twosided: bad value 'maybe'");
    refused("-event", "missing -event NAME");
    refused("-site", "missing -site NAME");
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
    refused("-sprt elo0=0 elo1=5 model=gaussian", "-sprt model: bad value 'gaussian'");
    refused("-openings file=book.txt encoding=utf8", "-openings: unknown setting 'encoding'");
    refused("-openings file=book.txt format=fen", "-openings format: bad value 'fen'");
    refused("-pgnout file=x.pgn notation=long", "-pgnout notation: bad value 'long'");
    refused("-pgnout file=x.pgn hashfull=true", "-pgnout: unknown setting 'hashfull'");
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

/// A one-game match of two depth-1 `tabula`s on 5x5 with 2 walls and two
/// random opening plies, recorded in `pgn`; `extra` is added to the line.
fn tiny_match(dir: &TempDir, pgn: &str, extra: &[&str]) -> Run {
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        "-each depth=1 -variant width=5 height=5 walls=2 -games 1 -openings random plies=2"
            .split_whitespace()
            .map(String::from),
    );
    args.extend(["-pgnout".to_string(), pgn.to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = ArenaRun::new(&args).watch(dir).run();
    run.expect_exit(0);
    run
}

/// `-srand` is `-seed`; `-event` and `-site` name the records' tags, which
/// default to `arena match` and this machine's host name.
#[test]
fn srand_event_and_site() {
    let dir = TempDir::new("cli-event");
    let (seeded, srand, plain) = (dir.file("seed.pgn"), dir.file("srand.pgn"), dir.file("plain.pgn"));
    tiny_match(&dir, &seeded, &["-seed", "77"]);
    let run = tiny_match(&dir, &srand, &["-srand", "77", "-event", "Spring \"cup\"", "-site", "lab 2"]);
    tiny_match(&dir, &plain, &[]);
    let (seeded, srand, plain) = (read_records(&seeded), read_records(&srand), read_records(&plain));
    run.check(seeded[0].moves[..2] == srand[0].moves[..2], "-srand 77 draws the openings of -seed 77");
    run.check(srand[0].tag("Event") == "Spring \"cup\"", "the Event tag");
    run.check(srand[0].tag("Site") == "lab 2", "the Site tag");
    run.check(plain[0].tag("Event") == "arena match", "the default Event");
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let host = if host.trim().is_empty() { "?" } else { host.trim() };
    run.check(plain[0].tag("Site") == host, "the default Site is the host name");
}

/// `-pgnout FILE min` (cutechess) and `-pgnout file=FILE min=true`
/// (fastchess): the records hold tags and moves, and no comment.
#[test]
fn minimal_records() {
    let dir = TempDir::new("cli-min");
    let (full, cutechess, fastchess) = (dir.file("full.pgn"), dir.file("c.pgn"), dir.file("f.pgn"));
    tiny_match(&dir, &full, &["-seed", "4"]);
    let run = tiny_match(&dir, &cutechess, &["min", "-seed", "4"]);
    tiny_match(
        &dir,
        &dir.file("unused.pgn"),
        &["-seed", "4", "-pgnout", &format!("file={fastchess}"), "min=true"],
    );
    let full = read_records(&full);
    for path in [cutechess, fastchess] {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        run.check(!text.contains(';') && !text.contains('{'), &format!("no comment in {path}:\n{text}"));
        let minimal = read_records(&path);
        run.check(minimal.len() == 1 && minimal[0].moves == full[0].moves, "the same moves");
        run.check(minimal[0].tags == full[0].tags, "the same tags");
    }
}

#[test]
fn a_bad_tournament_is_refused() {
    refused("-tournament swiss", "-tournament: bad value 'swiss'");
    refused("-tournament", "missing -tournament round-robin|gauntlet");
}

#[test]
fn a_race_is_adjudicated_only_in_two_player_quoridor() {
    refused("-adjudicate pawns", "-adjudicate: bad value 'pawns'");
    refused("-adjudicate", "missing -adjudicate race");
    refused(
        "-variant game=quarto -adjudicate race",
        "-adjudicate race: only two-player Quoridor has a pawn race to solve",
    );
}
