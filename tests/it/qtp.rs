//! QTP through the real binary: the first command chooses the protocol;
//! every command and every error reply; the referee's command line
//! (`-seed N`, unknown arguments) and a silent standard error; and whole
//! games played by two engines under a controller written from the
//! specification ([`common::qtp`]), which judges every move by its own
//! rules, on odd and even boards, with walls along every edge and jumps.

use crate::common::engine_process::EngineProcess;
use crate::common::qtp::{Move, QtpClient, Rules};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn tabula() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_tabula"))
}

fn client() -> QtpClient {
    QtpClient::new(EngineProcess::start_with_args(tabula(), &["-seed", "7"]))
}

#[test]
fn every_command_and_every_error_reply() {
    let mut qtp = client();
    qtp.expect("name", "Tabula");
    qtp.expect("protocol_version", "2");
    assert!(qtp.ask("version").text.starts_with(char::is_numeric));
    let commands = qtp.ask("list_commands").text;
    for command in [
        "name",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "walls",
        "playmove",
        "playwall",
        "genmove",
        "undo",
        "winner",
        "showboard",
        "time_settings",
        "time_left",
        "tabula-setoption",
    ] {
        assert!(commands.lines().any(|l| l == command), "{command} is not listed:\n{commands}");
        qtp.expect(&format!("known_command {command}"), "true");
    }
    qtp.expect("known_command komi", "false");
    // An id is echoed after the mark.
    qtp.engine.send("12 name");
    assert_eq!(qtp.engine.next_line(Duration::from_secs(5)).as_deref(), Some("=12 Tabula"));
    assert_eq!(qtp.engine.next_line(Duration::from_secs(5)).as_deref(), Some(""));
    qtp.refused("komi 6.5", "unknown command");
    qtp.refused("name please", "syntax error");
    qtp.refused("boardsize", "syntax error");
    qtp.refused("boardsize nine", "syntax error");
    qtp.refused("boardsize 16", "unacceptable size");
    qtp.refused("boardsize 2", "unacceptable size");
    qtp.refused("walls 31", "unacceptable number of walls");
    qtp.refused("walls -1", "syntax error");
    qtp.expect("boardsize 5", "");
    qtp.expect("clear_board", "");
    qtp.expect("walls 2", "");
    // Comments and control characters are dropped; tabs separate words.
    qtp.expect("playmove\tblack c4 # black steps down", "");
    qtp.refused("playmove red c2", "syntax error");
    qtp.refused("playmove white", "syntax error");
    qtp.refused("playmove white c2 h", "syntax error");
    qtp.refused("playwall white c2", "syntax error");
    qtp.refused("playwall white c2 diagonal", "syntax error");
    qtp.refused("playmove white z9", "syntax error");
    qtp.refused("playmove white c3", "illegal move");
    qtp.refused("playwall white E3 h", "syntax error");
    qtp.expect("playwall white A2 h", "");
    // Overlapping, crossing and shutting in are illegal; the game stays as it was.
    qtp.refused("playwall black B2 h", "illegal move");
    qtp.refused("playwall black A2 v", "illegal move");
    qtp.expect("play b c3", "");
    qtp.expect("play w c2h", "");
    qtp.refused("playwall black D2 h", "illegal move");
    let board = qtp.ask("showboard");
    assert!(
        board.ok && board.text.contains("black walls: 2") && board.text.contains("white walls: 0"),
        "{board:?}"
    );
    qtp.expect("winner", "false");
    qtp.refused("undo 9", "cannot undo");
    qtp.refused("undo x", "syntax error");
    qtp.expect("undo 2", "");
    qtp.expect("undo", "");
    qtp.refused("time_settings 10 0", "syntax error");
    qtp.refused("time_settings ten 0 0", "syntax error");
    qtp.expect("time_settings 10 0 0", "");
    qtp.refused("time_left green 5 0", "syntax error");
    qtp.expect("time_left white 5 0", "");
    qtp.refused("tabula-setoption", "syntax error");
    qtp.refused("tabula-setoption Colour red", "no option named");
    qtp.refused("tabula-setoption BoardWidth 7", "'BoardWidth' chooses the game");
    qtp.refused("tabula-setoption Level 11", "option Level");
    qtp.expect("tabula-setoption Level 1", "");
    qtp.expect("tabula-setoption Clear Hash", "");
    qtp.refused("tabula-setoption Hash 999999999", "");
    let answer = qtp.ask_within("genmove white", Duration::from_secs(30));
    let mv = Move::parse(&answer.text);
    assert!(answer.ok && mv.is_some(), "{answer:?}");
    qtp.refused("genmove purple", "syntax error");
    qtp.expect("quit", "");
    assert!(qtp.engine.wait_exit(Duration::from_secs(5)).is_some(), "quit ends the engine");
}

#[test]
fn the_referees_command_line_and_a_silent_standard_error() {
    let mut child = Command::new(tabula())
        .args(["-seed", "3", "--unheard-of", "x"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabula");
    let script =
        "name\nboardsize 3\nclear_board\nwalls 0\nbogus\nplaymove black a1\ngenmove black\nwinner\nquit\n";
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write the commands");
    let output = child.wait_with_output().expect("tabula ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?}", output.status);
    assert!(output.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    // Only replies: a `=` or `?` line, then an empty line, for each command.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 18, "{stdout}");
    for pair in lines.chunks(2) {
        assert!(pair[0].starts_with('=') || pair[0].starts_with('?'), "{stdout}");
        assert_eq!(pair[1], "", "{stdout}");
    }
    // On 3x3 black, on B3, steps to a neighbour; nobody has won yet.
    assert!(["= A3", "= B2", "= C3"].contains(&lines[12]), "{stdout}");
    assert_eq!(lines[14], "= false", "{stdout}");
}

#[test]
fn the_first_command_chooses_the_protocol() {
    let mut uci = EngineProcess::start_with_args(tabula(), &["-seed", "1"]);
    uci.send("uci");
    uci.read_until("uciok", Duration::from_secs(5));
    uci.send("name");
    let error = uci.read_until("info string", Duration::from_secs(5));
    assert!(error.last().is_some_and(|l| l.contains("unknown command 'name'")), "{error:?}");
    let mut qtp = client();
    qtp.expect("name", "Tabula");
    qtp.refused("uci", "unknown command");
}

/// Asks `engine` for `seat`'s move, checks it by the rules and tells the
/// other engine.
fn engine_move(engines: &mut [QtpClient; 2], rules: &mut Rules, seat: usize) -> Move {
    let color = ["black", "white"][seat];
    let reply = engines[seat].ask_within(&format!("genmove {color}"), Duration::from_secs(60));
    let mv = Move::parse(&reply.text);
    let Some(mv) = mv.filter(|_| reply.ok) else {
        panic!("genmove {color} got {reply:?}\n{}", engines[seat].engine.dump());
    };
    if let Err(e) = rules.play(seat, mv) {
        panic!("{e}: {rules:?}\n{}", engines[seat].engine.dump());
    }
    told(&mut engines[1 - seat], seat, mv);
    mv
}

/// Tells `engine` that `seat` played `mv`.
fn told(engine: &mut QtpClient, seat: usize, mv: Move) {
    let command = match mv {
        Move::Pawn(_) => "playmove",
        Move::Wall(..) => "playwall",
    };
    engine.expect(&format!("{command} {} {}", ["black", "white"][seat], mv.text()), "");
}

/// Plays `script` (moves for black and white in turn, checked by the
/// rules and told to both engines), then lets the engines play to the end;
/// both must name the winner the rules name.
fn controlled_game(size: i32, walls: u32, script: &[&str]) -> (Rules, usize) {
    let mut engines = [client(), client()];
    for qtp in &mut engines {
        qtp.expect(&format!("boardsize {size}"), "");
        qtp.expect("clear_board", "");
        qtp.expect(&format!("walls {walls}"), "");
        // Quick moves: a second a game each is plenty on these boards.
        qtp.expect("time_settings 4 0 0", "");
    }
    let mut rules = Rules::new(size, walls);
    let mut seat = 0;
    for text in script {
        let mv = Move::parse(text).unwrap_or_else(|| panic!("bad script move {text}"));
        rules.play(seat, mv).unwrap_or_else(|e| panic!("the script itself: {e}"));
        for qtp in &mut engines {
            told(qtp, seat, mv);
        }
        seat = 1 - seat;
    }
    let mut plies = script.len();
    while rules.winner().is_none() {
        assert!(plies < 400, "no winner after 400 plies: {rules:?}");
        engine_move(&mut engines, &mut rules, seat);
        seat = 1 - seat;
        plies += 1;
    }
    let winner = rules.winner().expect("the loop ends with a winner");
    for qtp in &mut engines {
        qtp.expect("winner", &format!("true {}", ["black", "white"][winner]));
    }
    (rules, plies)
}

#[test]
fn a_game_with_walls_along_every_edge_and_jumps() {
    let script = [
        "E8", "E2", "E7", "E3", "E6", "E4", "E5", // White jumps over black, straight.
        "E6", // Walls along the left, right, top and bottom edges and in corners.
        "A5 h", "H5 h", "D9 v", "F2 v", "A9 v", "H2 h",
        // A wall behind white (between E6 and E7), black below it.
        "E7 h", "B3 v", // Black cannot jump over white: it steps aside.
        "D6",
    ];
    let mut rules = Rules::new(9, 10);
    for (ply, text) in script[..16].iter().enumerate() {
        rules.play(ply % 2, Move::parse(text).unwrap()).unwrap();
    }
    let black = rules.pawn_moves(0);
    assert!(black.contains(&(3, 6)) && !black.contains(&(4, 7)), "{black:?}");
    let (rules, plies) = controlled_game(9, 10, &script);
    assert!(plies > script.len(), "the engines played on");
    assert!(rules.walls.len() >= 8, "{rules:?}");
}

#[test]
fn games_on_even_and_small_boards() {
    // Even sides: QTP's pawns start right of the centre (C4 and C1 on 4x4).
    let (rules, _) = controlled_game(4, 2, &["C3", "C2", "A4 v"]);
    assert!(rules.winner().is_some());
    controlled_game(6, 4, &["D5", "D2", "A6 h", "E2 v"]);
    controlled_game(7, 6, &[]);
    controlled_game(3, 1, &[]);
}
