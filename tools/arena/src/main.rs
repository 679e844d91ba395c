//! `arena`: runs matches between engines that speak the Tabula protocol,
//! referees every move with the Tabula library, and reports the results.
//! See `arena --help` and docs/arena.md.

use arena::{cli, reap, results, signals, state, tournament};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

const USAGE: &str = "\
usage: arena -engine cmd=PATH|conf=NAME [name=NAME] [proto=uci|qtp] [arg=ARG]... [args=\"A B\"] [dir=DIR]
                          [option.NAME=VALUE]... [tc=[MOVES/]TIME[+INC]|tc=inf|st=S|nodes=N|depth=N|plies=N]
                          [timemargin=MS] [handshake=S] [restart=on|off|auto] [stderr=FILE] [initstr=TEXT]
             -engine ... [-engine ... -engine ...]         (proto=qtp: the Quoridor Text Protocol)
             [-each tc=10+0.1 | st=0.2 | nodes=N | depth=N  option.NAME=VALUE ...]
             [-variant game=quoridor [width=9 height=9 walls=10 players=2 multijump=false] | game=quarto [board=4x4 level=1]]
             [-games N] [-rounds N] [-repeat [N]] [-noswap] [-reverse] [-wait MS] [-concurrency N] [-force-concurrency]
             [-tournament round-robin|gauntlet|knockout] [-seeds N] [-use-affinity [CPUS]]
             [-openings file=PATH [format=lines|epd|pgn] [order=random|sequential] [plies=N] [start=N]
                        [policy=default|encounter|round] | -openings random plies=N]
             [-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=logistic|normalized|bayesian]] [-report penta=true|false]
             [-draw [movenumber=N] movecount=N score=CP] [-resign movecount=N score=CP [twosided=true]] [-adjudicate race]
             [-maxplies N] [-maxmoves N] [-recover] [-pgnout FILE [min] [fi] [nodes=true seldepth=true nps=true]]
             [-epdout FILE] [-output format=cutechess|fastchess] [-log FILE] [-debug] [-seed N | -srand N]
             [-ratinginterval N] [-autosaveinterval N] [-config outname=FILE] [-event NAME] [-site NAME]
             [-results FILE] [-pair K] [-schedule]
       arena -config file=FILE [outname=FILE]     resume a match saved in FILE
       arena merge RESULTS_FILE... [-pgnout FILE [min]] [-sprt elo0=.. elo1=.. alpha=.. beta=.. [model=..]]
       arena -version
Every -flag may also be written --flag. docs/arena.md has a table of cutechess-cli's and fastchess's flags.";

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
    if args.iter().any(|a| a == "-version" || a == "--version") {
        println!("arena {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    let (config, done) = match configure(&args) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("arena: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = setup_logging(config.log.as_deref(), config.debug) {
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
    match tournament::run_resumed(&config, done, interrupted, &mut stdout) {
        Ok(tournament::Ending::StoppedAfterCrash(_)) => std::process::exit(3),
        Ok(tournament::Ending::Interrupted) => {
            reap::kill_all();
            // An interrupt that came through no signal counts as Ctrl-C's.
            let number = match signal.load(Ordering::SeqCst) {
                0 => 2,
                n => n,
            };
            std::process::exit(128 + number)
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    }
}

/// The match from the command line, or from the saved state `-config
/// file=F` names (with the games it had finished); `outname=` may say
/// where to save it from now on (else back to F).
fn configure(args: &[String]) -> Result<(arena::config::Config, Vec<results::GameLine>), String> {
    let Some(file) = cli::resumed_file(args) else {
        return Ok((cli::parse(args).map_err(|e| e.to_string())?, Vec::new()));
    };
    let resumed = ["-config", "--config"];
    let extra = args
        .iter()
        .find(|a| !resumed.contains(&a.as_str()) && !a.starts_with("file=") && !a.starts_with("outname="));
    if let Some(extra) = extra {
        return Err(format!(
            "-config file={}: a resumed match keeps the settings it was saved with ('{extra}' cannot be added)",
            file.display()
        ));
    }
    let saved = state::load(&file)?;
    let mut config = cli::parse(&saved.args).map_err(|e| format!("-config file={}: {e}", file.display()))?;
    let outname = args.iter().find_map(|a| a.strip_prefix("outname="));
    config.state_out = outname.map_or(file, std::path::PathBuf::from);
    Ok((config, saved.games))
}

/// Protocol traffic is logged at `debug`: `-log FILE` writes it there (or
/// the run is refused), `-debug` alone to standard error.
fn setup_logging(path: Option<&std::path::Path>, debug: bool) -> Result<(), String> {
    let mut builder = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    if let Some(path) = path {
        let file =
            std::fs::File::create(path).map_err(|e| format!("cannot write -log {}: {e}", path.display()))?;
        builder.filter_level(log::LevelFilter::Debug).target(env_logger::Target::Pipe(Box::new(file)));
    } else if debug {
        builder.filter_level(log::LevelFilter::Debug).target(env_logger::Target::Stderr);
    }
    builder.init();
    Ok(())
}
