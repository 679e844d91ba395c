//! The `tabula` binary: logging to stderr, command-line one-shots, then the
//! protocol loop on stdin/stdout.

use std::io::{self, BufReader};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => tabula::protocol::run(BufReader::new(io::stdin()), io::stdout()),
        Some("bench") => bench(),
        Some("solve") if args[1..].iter().any(|a| matches!(a.as_str(), "--help" | "-h" | "help")) => usage(),
        Some("solve") => std::process::exit(tabula::protocol::solve_command::run(&args[1..])),
        Some("--help" | "-h" | "help") => usage(),
        Some(other) => {
            eprintln!("tabula: unknown argument '{other}'");
            usage();
            std::process::exit(2);
        }
    }
}

fn bench() {
    if let Err(e) = tabula::protocol::bench::print_bench(&mut io::stdout()) {
        eprintln!("tabula bench: {e}");
        std::process::exit(1);
    }
}

fn usage() {
    println!("usage: tabula          speak the protocol on stdin/stdout (see protocol.md)");
    println!("       tabula bench    search the benchmark positions; prints 'Bench: <nodes>'");
    println!("       tabula solve [game=quoridor|quarto] [width=W height=H walls=N] [board=4x4|3x3 level=L]");
    println!("                    or 'position=<position text>' (one argument)");
    println!(
        "                    [method=layers|graph|alphabeta|proof] [threads=N] [memory=MIB] [moves M...]"
    );
    println!("                       the exact value; last line 'result: first|second|draw [plies=N] ...'");
    println!("                    [split=P]  list the sub-proofs P plies down ('position=TEXT' lines)");
    println!("                    [split=P leaves=FILE]  combine their values ('RESULT<tab>TEXT' lines)");
}
