//! The `tabula` binary: logging to stderr, command-line one-shots, then the
//! protocol loop on stdin/stdout (the UCI-style protocol or QTP).

use std::io::{self, BufReader};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench(),
        Some("solve") if args[1..].iter().any(|a| matches!(a.as_str(), "--help" | "-h" | "help")) => usage(),
        Some("solve") => std::process::exit(tabula::protocol::solve_command::run(&args[1..])),
        Some("--help" | "-h" | "help") => usage(),
        _ => {
            let startup = startup(&args);
            tabula::protocol::run_with(BufReader::new(io::stdin()), io::stdout(), &startup)
        }
    }
}

/// The protocol's command line: `-seed N` (how QTP's referee starts its
/// engines) sets `Seed`; any other argument is ignored, as tournament
/// managers pass arguments of their own (said at log level `info`, since
/// the referee reads standard error as the engine's output).
fn startup(args: &[String]) -> tabula::protocol::Startup {
    let mut startup = tabula::protocol::Startup::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-seed" | "--seed" => match words.next().map(|n| n.parse::<u64>()) {
                Some(Ok(seed)) => startup.seed = Some(seed),
                Some(Err(_)) | None => log::info!("ignored '{word}' without a whole number after it"),
            },
            other => log::info!("ignored the argument '{other}'"),
        }
    }
    startup
}

fn bench() {
    if let Err(e) = tabula::protocol::bench::print_bench(&mut io::stdout()) {
        eprintln!("tabula bench: {e}");
        std::process::exit(1);
    }
}

fn usage() {
    const USAGE: &str = "\
usage: tabula [-seed N] speak the protocol on stdin/stdout (see protocol.md): the UCI-style
                    one, or QTP if the first command is QTP's; -seed sets Seed, other
                    arguments are ignored
       tabula bench    search the benchmark positions; prints 'Bench: <nodes>'
       tabula solve [game=quoridor|quarto] [width=W height=H walls=N] [board=4x4|3x3 level=L]
                    or 'position=<position text>' (one argument)
                    [method=layers|graph|alphabeta|proof] [threads=N] [memory=MIB] [moves M...]
                       the exact value; last line 'result: first|second|draw [plies=N] ...'
                    [split=P]  list the sub-proofs P plies down ('position=TEXT' lines)
                    [split=P leaves=FILE]  combine their values ('RESULT<tab>TEXT' lines)
";
    // Written whole, and a closed output (`| head -1`) is no error.
    let _ = io::Write::write_all(&mut io::stdout(), USAGE.as_bytes());
}
