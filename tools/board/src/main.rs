//! `tabula-board`: a web board for Quoridor and Quarto. It serves a page on
//! this machine and plays the engine seats with any Tabula-protocol engine
//! (Tabula by default). See `tabula-board --help` and docs/board.md.

mod analysis;
mod candidates;
mod clock;
mod driver;
mod guard;
mod json;
mod load;
mod past;
mod review;
mod review_marks;
mod review_record;
mod server;
mod setup;
mod shared;
mod table;
mod thinking;
mod view;

use shared::{EngineCommand, Shared};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

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
    // Before any other thread starts, so that every thread inherits the mask.
    // The board stops at the first signal, its engines with it.
    let stop = |signal: i32| {
        arena::reap::kill_all();
        eprintln!("tabula-board: stopped (signal {signal}); its engines are stopped too");
        std::process::exit(128 + signal);
    };
    if let Err(e) = arena::signals::on_stop_signals("tabula-board", stop) {
        eprintln!("tabula-board: cannot catch Ctrl-C and SIGTERM: {e}");
        std::process::exit(1);
    }
    arena::signals::kill_engines_on_panic();
    let server = match listen(options.address) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("tabula-board: cannot listen on {}: {e}", options.address);
            std::process::exit(1);
        }
    };
    let address = server.server_addr().to_ip().unwrap_or(options.address);
    keep_accepting(address);
    arena::reap::become_subreaper();
    let table = setup::new_table(&[]).expect("the standard game is a variant");
    let shared = Arc::new(Shared::new(table, options.engine));
    let driver = shared.clone();
    std::thread::spawn(move || driver::drive(driver));
    let watcher = shared.clone();
    std::thread::spawn(move || shared::watch_clocks(watcher));
    let analyst = shared.clone();
    std::thread::spawn(move || analysis::analyse(analyst));
    let reviewer = shared.clone();
    std::thread::spawn(move || review::run(reviewer));
    let engine =
        std::iter::once(shared.engine.command.display().to_string()).chain(shared.engine.args.clone());
    // Written so that a closed standard output (a launcher that went away)
    // does not stop the board.
    let mut out = std::io::stdout();
    let _ =
        writeln!(out, "Tabula board: http://{address}/ (engine: {})", engine.collect::<Vec<_>>().join(" "));
    let _ = writeln!(out, "Open it in a browser; Ctrl-C stops the board and its engines.");
    let _ = out.flush();
    server::serve(server, shared, address.port());
}

/// How long one write to a page may wait for the page to read before it
/// returns (see `server::send_to_page`, which drops a page that stays stalled).
#[cfg(unix)]
const SEND_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a connection may wait for the page's next request (or the rest
/// of one): then it is closed. A page opens a new one when it needs it; an
/// event stream is not affected while the board writes to it.
#[cfg(unix)]
const RECEIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// The kernel's send buffer for each page, in bytes: a few dozen views, so
/// that a page that stops reading is found out soon.
#[cfg(unix)]
const SEND_BUFFER: libc::c_int = 64 << 10;

/// The server on `address`. The listening socket gets [`SEND_TIMEOUT`],
/// [`RECEIVE_TIMEOUT`] and [`SEND_BUFFER`], which the connections it accepts
/// inherit (Linux).
fn listen(address: SocketAddr) -> Result<tiny_http::Server, String> {
    let listener = std::net::TcpListener::bind(address).map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let timeval = |d: Duration| libc::timeval { tv_sec: d.as_secs() as libc::time_t, tv_usec: 0 };
        socket_option(listener.as_raw_fd(), libc::SO_SNDTIMEO, &timeval(SEND_TIMEOUT))?;
        socket_option(listener.as_raw_fd(), libc::SO_RCVTIMEO, &timeval(RECEIVE_TIMEOUT))?;
        socket_option(listener.as_raw_fd(), libc::SO_SNDBUF, &SEND_BUFFER)?;
    }
    tiny_http::Server::from_listener(listener, None).map_err(|e| e.to_string())
}

/// How often the board connects to itself (see [`keep_accepting`]).
const KNOCK: Duration = Duration::from_secs(3);

/// The listening socket's receive timeout also bounds how long `accept`
/// waits, and tiny_http stops accepting (and the board stops serving) at the
/// first error `accept` returns: a board that nobody connected to for
/// [`RECEIVE_TIMEOUT`] would die. So the board connects to itself, and hangs
/// up, every [`KNOCK`], well within that time.
fn keep_accepting(address: SocketAddr) {
    let mut target = address;
    if target.ip().is_unspecified() {
        target.set_ip(if target.is_ipv4() {
            IpAddr::from([127, 0, 0, 1])
        } else {
            IpAddr::from([0u16, 0, 0, 0, 0, 0, 0, 1])
        });
    }
    std::thread::spawn(move || loop {
        std::thread::sleep(KNOCK);
        let _ = std::net::TcpStream::connect_timeout(&target, KNOCK);
    });
}

/// Sets a socket option (`SOL_SOCKET` level) to `value`.
#[cfg(unix)]
fn socket_option<T>(socket: std::os::fd::RawFd, option: libc::c_int, value: &T) -> Result<(), String> {
    // SAFETY: setsockopt reads size_of::<T>() bytes from a value we own.
    let set = unsafe {
        libc::setsockopt(
            socket,
            libc::SOL_SOCKET,
            option,
            (value as *const T).cast(),
            std::mem::size_of::<T>() as libc::socklen_t,
        )
    };
    if set != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    Ok(())
}
