//! One reader of a variant: the same bad `key=value` words given to
//! `tabula solve`, arena's `-variant`, the board's form (and, for a board
//! size, QTP's `boardsize`) are refused with the same words, the engine
//! library's own ([`tabula::games::variant::GameVariant::from_keys`]).

use crate::common::*;
use std::io::Write;
use std::process::{Command, Stdio};
use tabula::games::variant::GameVariant;

/// What the library says of these words.
fn refusal(words: &[&str]) -> String {
    let pairs = words.iter().map(|w| w.split_once('=').expect("key=value"));
    GameVariant::from_keys(pairs).expect_err("a bad variant").to_string()
}

#[test]
fn every_front_end_refuses_the_same_words_the_same_way() {
    let tabula = testkit::workspace_binary("tabula", "tabula");
    let arena = testkit::workspace_binary("arena", "arena");
    let board = Board::start(&[]);
    let cases: [&[&str]; 9] = [
        &["multijump=yes"],
        &["multijump=on"],
        &["width=x"],
        &["width=99"],
        &["walls=31"],
        &["width=6", "height=6", "players=4"],
        &["width=5", "width=7"],
        &["game=quarto", "walls=3"],
        &["game=chess"],
    ];
    for words in cases {
        let said = refusal(words);
        let solve = Command::new(&tabula).arg("solve").args(words).output().expect("run tabula solve");
        let err = String::from_utf8_lossy(&solve.stderr);
        assert_eq!(solve.status.code(), Some(2), "{words:?}");
        assert!(err.contains(&said), "tabula solve {words:?}: '{err}' should say '{said}'");
        let t = tabula.display().to_string();
        let mut args = vec!["-engine".to_string(), format!("cmd={t}"), "-engine".into(), format!("cmd={t}")];
        args.push("-variant".into());
        args.extend(words.iter().map(|w| w.to_string()));
        let match_run = Command::new(&arena).args(&args).output().expect("run arena");
        let err = String::from_utf8_lossy(&match_run.stderr);
        assert_eq!(match_run.status.code(), Some(2), "{words:?}");
        assert!(err.contains(&format!("-variant: {said}")), "arena {words:?}: '{err}' should say '{said}'");
        let form = words.join("&");
        let answer = board.post("/new", &form);
        assert_eq!(answer.status, 422, "{form}: {answer:?}");
        assert!(answer.body.contains(&said), "board {form}: '{}' should say '{said}'", answer.body);
    }
    // QTP's boardsize reads the board's side as width= and height=.
    let said = refusal(&["width=16", "height=16"]);
    let mut qtp =
        Command::new(&tabula).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start tabula");
    qtp.stdin.take().expect("stdin").write_all(b"boardsize 16\nquit\n").expect("write");
    let out = qtp.wait_with_output().expect("tabula ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("? unacceptable size: {said}")), "{text}");
}
