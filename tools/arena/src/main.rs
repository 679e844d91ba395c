//! `arena`: runs matches between engines that speak the Tabula protocol,
//! referees every move with the Tabula library, and reports the results.
//! See `arena --help` and docs/arena.md.

use arena::{cli, reap, results, signals, tournament};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

const USAGE: &str = "\
usage: arena -engine cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]... [tc=[MOVES/]TIME[+INC]|st=S|nodes=N|depth=N] [tc=inf]
                          [timemargin=MS] [handshake=S] [proto=uci|qtp]   (qtp: the Quoridor Text Protocol)
             -engine ... [-engine ... -engine ...]
             [-each tc=10+0.1 | st=0.2 | nodes=N | depth=N  option.NAME=VALUE ...]
             [-variant game=quoridor [width=9 height=9 walls=10 players=2 multijump=false] | game=quarto [board=4x4 level=1]]
             [-games N] [-rounds N] [-repeat] [-concurrency N] [-force-concurrency] [-tournament round-robin|gauntlet]
             [-openings file=PATH [order=random|sequential] [format=lines|epd|pgn plies=N] | -openings random plies=N]
             [-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]
             [-draw [movenumber=N] movecount=N score=CP] [-resign movecount=N score=CP [twosided=true]] [-adjudicate race]
             [-maxplies N] [-maxmoves N] [-recover] [-pgnout FILE [min]] [-log FILE] [-seed N | -srand N] [-ratinginterval N]
             [-event NAME] [-site NAME]
             [-results FILE] [-pair K] [-schedule]
       arena merge RESULTS_FILE... [-pgnout FILE [min]] [-sprt elo0=.. elo1=.. alpha=.. beta=..]
Every -flag may also be written --flag.";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help" || a == "-help") {
        println!("{USAGE}");
        return;
    }
    if args[0] == "merge" {
        let merged =
            results::parse_merge(&args[1..]).and_then(|m| results::merge(&m, &mut std::io::stdout()));
        if let Err(e) = merged {
            eprintln!("arena merge: {e}");
            std::process::exit(2);
        }
        return;
    }
    let config = match cli::parse(&args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("arena: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = setup_logging(config.log.as_deref()) {
        eprintln!("arena: {e}");
        std::process::exit(2);
    }
    reap::become_subreaper();
    // The first SIGINT, SIGTERM or SIGHUP stops the games (those in flight
    // do not count), saves the state and kills the engines; arena then
    // exits with 128 + the signal. Before any other thread starts, so that
    // every thread inherits the mask.
    let interrupted = Arc::new(AtomicBool::new(false));
    let signal = Arc::new(AtomicI32::new(0));
    let (flag, number) = (interrupted.clone(), signal.clone());
    let first = move |sig: i32| {
        number.store(sig, Ordering::SeqCst);
        flag.store(true, Ordering::SeqCst);
    };
    if let Err(e) = signals::on_stop_signals("arena", first) {
        eprintln!("arena: cannot catch Ctrl-C, SIGTERM and SIGHUP: {e}");
        std::process::exit(2);
    }
    signals::kill_engines_on_panic();
    let mut stdout = std::io::stdout();
    match tournament::run(&config, interrupted, &mut stdout) {
        Ok(tournament::Ending::StoppedAfterCrash(_)) => std::process::exit(3),
        Ok(tournament::Ending::Interrupted) => {
            reap::kill_all();
            std::process::exit(128 + signal.load(Ordering::SeqCst).max(2))
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    }
}

/// Protocol traffic is logged at `debug`; `-log FILE` writes it there, or
/// the run is refused.
fn setup_logging(path: Option<&std::path::Path>) -> Result<(), String> {
    let mut builder = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    if let Some(path) = path {
        let file =
            std::fs::File::create(path).map_err(|e| format!("cannot write -log {}: {e}", path.display()))?;
        builder.filter_level(log::LevelFilter::Debug).target(env_logger::Target::Pipe(Box::new(file)));
    }
    builder.init();
    Ok(())
}
