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
