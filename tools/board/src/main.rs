//! `tabula-board`: a web board for Quoridor and Quarto. It serves a page on
//! this machine and plays the engine seats with any Tabula-protocol engine
//! (Tabula by default). See `tabula-board --help` and the README.

mod driver;
mod json;
mod server;
mod setup;
mod shared;
mod table;
mod view;

use shared::{EngineCommand, Shared};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

const USAGE: &str = "\
usage: tabula-board [--port N] [--host ADDRESS [--allow-remote]] [--engine PATH [--engine-arg ARG]...]
       tabula-board engine   (speaks the Tabula protocol on stdin/stdout, as `tabula` does)
  --port N          port to serve on (default 8080; 0 picks a free one)
  --host ADDRESS    address to listen on (default 127.0.0.1); any address
                    other than loopback needs --allow-remote, since whoever
                    reaches the board can start engine processes here
  --engine PATH     the engine that plays the engine seats (default: Tabula,
                    as this binary run with the argument `engine`)
  --engine-arg ARG  an argument for the engine, once per argument";

struct Options {
    address: SocketAddr,
    engine: EngineCommand,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut host: IpAddr = IpAddr::from([127, 0, 0, 1]);
    let mut port: u16 = 8080;
    let mut allow_remote = false;
    let mut engine = default_engine();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = || words.next().ok_or(format!("{word} needs a value"));
        match word.as_str() {
            "--port" => port = value()?.parse().map_err(|_| "--port takes a number 0..65535".to_string())?,
            "--host" => host = value()?.parse().map_err(|_| "--host takes an IP address".to_string())?,
            "--allow-remote" => allow_remote = true,
            "--engine" => engine = EngineCommand { command: PathBuf::from(value()?), args: Vec::new() },
            "--engine-arg" => engine.args.push(value()?.clone()),
            other => return Err(format!("unknown argument '{}'", tabula::protocol::parse::quoted(other))),
        }
    }
    if !host.is_loopback() && !allow_remote {
        return Err(format!("{host} is not a loopback address: add --allow-remote to serve it"));
    }
    Ok(Options { address: SocketAddr::new(host, port), engine })
}

/// Tabula's engine: this binary, which links the same library, run as
/// `tabula-board engine`, so that `cargo run -p board` needs nothing else.
fn default_engine() -> EngineCommand {
    let command = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("tabula-board"));
    EngineCommand { command, args: vec!["engine".into()] }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("engine") {
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
        tabula::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
        return;
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let options = match options(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("tabula-board: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let server = match tiny_http::Server::http(options.address) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("tabula-board: cannot listen on {}: {e}", options.address);
            std::process::exit(1);
        }
    };
    let address = server.server_addr().to_ip().unwrap_or(options.address);
    arena::reap::become_subreaper();
    let table = setup::new_table(&[]).expect("the standard game is a variant");
    let shared = Arc::new(Shared::new(table, options.engine));
    let driver = shared.clone();
    std::thread::spawn(move || driver::drive(driver));
    let engine =
        std::iter::once(shared.engine.command.display().to_string()).chain(shared.engine.args.clone());
    println!("Tabula board: http://{address}/ (engine: {})", engine.collect::<Vec<_>>().join(" "));
    println!("Open it in a browser; Ctrl-C stops the board and its engines.");
    server::serve(server, shared);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Options, String> {
        options(&line.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn the_board_stays_on_this_machine_unless_told() {
        let default = parse("").expect("no arguments");
        assert_eq!(default.address.to_string(), "127.0.0.1:8080");
        assert_eq!(default.engine.args, ["engine"]);
        assert!(parse("--host 0.0.0.0").err().is_some_and(|e| e.contains("--allow-remote")));
        assert!(parse("--host 0.0.0.0 --allow-remote --port 0").is_ok());
        assert!(parse("--host ::1 --port 9000").is_ok());
        let other = parse("--engine /bin/other --engine-arg -x").expect("another engine");
        assert_eq!(
            (other.engine.command, other.engine.args),
            (PathBuf::from("/bin/other"), vec!["-x".to_string()])
        );
        assert!(parse("--port 70000").is_err());
        assert!(parse("--port").is_err());
        assert!(parse("--colour red").is_err());
    }
}
