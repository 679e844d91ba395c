//! Records are standard PGN: every test that reads records reads them with
//! the strict reader of `common::pgn`; here that reader is checked itself,
//! records with every kind of comment are read by it, and, where Python's
//! `python-chess` is installed, by its `chess.pgn.read_headers`.

use crate::common::pgn::read_strict;
use crate::common::*;

const GOOD: &str = "[Event \"e\"]\n[Site \"?\"]\n[Date \"2026.??.26\"]\n[Round \"1\"]\n[White \"A\"]\n\
    [Black \"B\"]\n[Result \"1-0\"]\n[PlyCount \"5\"]\n\n; note\n1. e2 e8 {+0.1/2 0.1s} 2. e3 {c} 2... e7 $1\n3. e4 1-0\n\n";

#[test]
fn the_strict_reader_takes_standard_pgn_and_nothing_else() {
    let games = read_strict(GOOD).expect("a standard game");
    assert_eq!(games[0].moves, ["e2", "e8", "e3", "e7", "e4"]);
    for (from, to) in [
        ("[Site \"?\"]\n", ""),
        ("[PlyCount \"5\"]", "[PlyCount \"4\"]"),
        ("2... e7", "e7"),
        ("e8 {", "1... e8 {"),
        ("3. e4", "e4"),
        ("3. e4", "3... e4"),
        ("1-0\n\n", "0-1\n\n"),
        ("2026.??.26", "26.11.2026"),
        ("[Round \"1\"]", "[Round \"1\"] "),
        ("e4 1-0", "e4 (e5) 1-0"),
        ("e4 1-0", "e4 1-0 e5"),
        ("\n\n;", "\n;"),
        ("[Black \"B\"]", "[Black \"B\n\"]"),
        ("[Black \"B\"]", "[Black \"B\\x\"]"),
        ("e2 e8", "e2\te8"),
        ("e2 e8", "e2 e8?!"),
    ] {
        let bad = GOOD.replace(from, to);
        assert!(read_strict(&bad).is_err(), "{from:?} -> {to:?} should be refused:\n{bad}");
    }
}

/// A two-game match of depth-limited `tabula`s from an openings file: one
/// opening of moves, one position with the second player to move.
fn play_records(dir: &TempDir, extra: &str) -> (Run, String) {
    let (pgn, book) = (dir.file("games.pgn"), dir.file("book.txt"));
    let book_text = "c2 c4 b2\nquoridor 5x5 pawns=c2,c4 hand=2,2 walls=- turn=2\n";
    std::fs::write(&book, book_text).expect("write the openings");
    let mut args = Vec::new();
    for name in ["Alpha", "Beta"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        format!(
            "-each depth=2 option.Threads=1 -variant width=5 height=5 walls=2 -games 2 -rounds 2 \
             -openings file={book} order=sequential -pgnout {pgn} {extra}"
        )
        .split_whitespace()
        .map(String::from),
    );
    let run = ArenaRun::new(&args).watch(dir).run();
    run.expect_exit(0);
    (run, pgn)
}

/// `{+0.35/12 0.31s}`: a score in hundredths or a mate, `/depth`, seconds.
fn is_cutechess_comment(text: &str) -> bool {
    let Some((eval, time)) = text.split_once(' ') else { return false };
    let Some((score, depth)) = eval.split_once('/') else { return false };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let score_ok = match score.strip_prefix(['+', '-']) {
        Some(mate) if mate.starts_with('M') => number(&mate[1..]),
        Some(cp) => cp.split_once('.').is_some_and(|(i, f)| number(i) && f.len() == 2 && number(f)),
        None => false,
    };
    let seconds = time.strip_suffix('s').unwrap_or("");
    let time_ok = match seconds.split_once('.') {
        Some((i, f)) => number(i) && number(f) && f.len() <= 3 && !f.ends_with('0'),
        None => number(seconds),
    };
    score_ok && number(depth) && time_ok
}

/// Every record is strict PGN (read by `read_records`), White and Black
/// are P1 and P2, and every engine move, and no opening move, is followed
/// by a cutechess-style comment.
#[test]
fn records_are_standard_pgn_with_cutechess_comments() {
    let dir = TempDir::new("pgn");
    let (run, pgn) = play_records(&dir, "");
    let records = read_records(&pgn);
    run.check(records.len() == 4, "four records");
    for record in &records {
        assert_eq!(record.tag("White"), record.tag("P1"));
        assert_eq!(record.tag("Round"), record.tag("Game"));
        assert_eq!(record.tag("Event"), "arena match");
        let opening = record.opening_plies();
        let plies: Vec<usize> = record.move_comments.iter().map(|(ply, _)| *ply).collect();
        assert_eq!(plies, (opening + 1..=record.moves.len()).collect::<Vec<_>>(), "{record:?}");
        for (_, comment) in &record.move_comments {
            assert!(is_cutechess_comment(comment), "{comment:?} in {record:?}");
        }
    }
    let from_position: Vec<&Record> =
        records.iter().filter(|r| r.tags.iter().any(|(k, _)| k == "FEN")).collect();
    run.check(from_position.len() == 2, "two games from the position");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    run.check(text.contains("\n1... "), "the second player's first move is numbered 1...");
    let read = arena::record::read_records(&text);
    run.check(read.iter().all(|r| r.is_ok()), "arena's own reader reads them");
    let minimal_dir = TempDir::new("pgn-min");
    let (minimal_run, minimal) = play_records(&minimal_dir, "min");
    let minimal = read_records(&minimal);
    minimal_run
        .check(minimal.iter().all(|r| r.move_comments.is_empty() && r.comments.is_empty()), "no comment");
}

/// Python's `chess.pgn.read_headers` (python-chess) reads the same tags.
/// Skipped, with a note, where no Python with python-chess is found
/// (`ARENA_PYTHON` names the interpreter; `python3` otherwise).
#[test]
fn python_chess_reads_the_headers() {
    let python = std::env::var("ARENA_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_chess = std::process::Command::new(&python)
        .args(["-c", "import chess.pgn"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        eprintln!("skipped: no python-chess for {python} (set ARENA_PYTHON to a Python that has it)");
        return;
    }
    let dir = TempDir::new("pgn-python");
    // python-chess 1.11 keeps a tag's escapes (`\"`) as they are: none here.
    let (run, pgn) = play_records(&dir, "-event Spring -site lab");
    let script = "import chess.pgn, json, sys\n\
                  out = []\n\
                  with open(sys.argv[1], encoding='utf-8') as f:\n\
                  \x20   while (h := chess.pgn.read_headers(f)) is not None:\n\
                  \x20       out.append(list(h.items()))\n\
                  print(json.dumps(out))\n";
    let output = std::process::Command::new(&python).args(["-c", script, &pgn]).output().expect("run python");
    run.check(output.status.success(), &String::from_utf8_lossy(&output.stderr));
    let read: Vec<Vec<(String, String)>> =
        serde_json::from_slice(&output.stdout).expect("python-chess's headers as JSON");
    let ours: Vec<Vec<(String, String)>> = read_records(&pgn).into_iter().map(|r| r.tags).collect();
    run.check(read == ours, &format!("python-chess read {read:?}\nthe strict reader {ours:?}"));
}
