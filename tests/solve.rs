//! `tabula solve` through the binary: the pinned last line for scripts.

use std::process::Command;

fn solve(args: &[&str]) -> (bool, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tabula")).arg("solve").args(args).output().expect("run tabula");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_last_line_says_who_wins() {
    let (ok, stdout, _) = solve(&["width=3", "height=3", "walls=0"]);
    assert!(ok, "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("result: second plies=4"), "{stdout}");
    let (ok, stdout, _) = solve(&["game=quarto", "board=3x3", "moves", "0", "a11"]);
    assert!(ok && stdout.lines().last().unwrap_or("").starts_with("result: first plies=5"), "{stdout}");
}

#[test]
fn bad_arguments_are_refused() {
    let (ok, _, stderr) = solve(&["width=4"]);
    assert!(!ok && stderr.contains("width"), "{stderr}");
}
