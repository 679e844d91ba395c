//! `tabula solve ... stage=plan|values|combine dir=DIR` through the binary:
//! a layered solve run in stages (as `tools/cluster` runs it) ends with the
//! same lines as one run, and stage arguments that do not fit are refused.

use std::path::{Path, PathBuf};
use std::process::Command;

fn solve(args: &[&str], extra: &[String]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("solve")
        .args(args)
        .args(extra)
        .output()
        .expect("run tabula");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-solve-stages-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The lines that do not depend on time or memory.
fn settled(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| !l.starts_with("memory:"))
        .map(|l| l.split(" time=").next().unwrap_or(l).split(", ").next().unwrap_or(l).to_string())
        .collect()
}

fn stage(args: &[&str], dir: &Path, words: &[&str]) -> String {
    let mut extra: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    extra.push(format!("dir={}", dir.display()));
    let (ok, stdout, stderr) = solve(args, &extra);
    assert!(ok, "{words:?}: {stderr}");
    stdout
}

#[test]
fn a_solve_in_stages_ends_as_one_run_does() {
    let args = ["width=4", "height=3", "walls=2", "threads=1"];
    let (ok, whole, stderr) = solve(&args, &["method=layers".to_string()]);
    assert!(ok, "{stderr}");
    let dir = scratch("whole");
    let plan = stage(&args, &dir, &["stage=plan"]);
    let layers: Vec<usize> = plan
        .split_whitespace()
        .find_map(|w| w.strip_prefix("layers="))
        .expect("layers=")
        .split(',')
        .map(|n| n.parse().expect("a count"))
        .collect();
    assert_eq!(layers[0], 1, "{plan}");
    for added in (0..layers.len()).rev() {
        for part in 0..3 {
            let out =
                stage(&args, &dir, &["stage=values", &format!("added={added}"), &format!("part={part}/3")]);
            assert!(out.starts_with(&format!("values added={added} part={part}/3 ")), "{out}");
        }
    }
    let combined = stage(&args, &dir, &["stage=combine"]);
    assert_eq!(settled(&combined), settled(&whole), "{combined}\n{whole}");
    assert!(combined.lines().last().unwrap_or("").starts_with("result: "), "{combined}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stages_out_of_order_or_misnamed_are_refused() {
    let args = ["width=3", "height=3", "walls=1"];
    let dir = scratch("refused");
    let dir_arg = format!("dir={}", dir.display());
    let refused = |extra: &[&str], why: &str| {
        let mut words: Vec<String> = extra.iter().map(|w| w.to_string()).collect();
        words.push(dir_arg.clone());
        let (ok, _, stderr) = solve(&args, &words);
        assert!(!ok && stderr.contains(why), "{extra:?}: {stderr}");
    };
    // Nothing planned yet.
    refused(&["stage=combine"], "plan.layers");
    stage(&args, &dir, &["stage=plan"]);
    // The level below not valued yet.
    refused(&["stage=values", "added=0", "part=0/1"], "not complete");
    refused(&["stage=values", "added=0"], "needs added=K and part=I/N");
    refused(&["stage=values", "added=0", "part=2/2"], "I below N");
    refused(&["stage=sideways"], "not plan, values or combine");
    refused(&["stage=plan", "method=proof"], "only the layered method");
    refused(&["part=0/1"], "go with stage=");
    let (ok, _, stderr) = solve(&["width=3", "height=3", "stage=plan"], &[]);
    assert!(!ok && stderr.contains("needs dir=DIR"), "{stderr}");
    let (ok, _, stderr) = solve(&["game=quarto", "board=3x3", "stage=plan", &dir_arg], &[]);
    assert!(!ok && stderr.contains("only the layered method"), "{stderr}");
    // A plan made for another start.
    let (ok, _, stderr) = solve(&["width=3", "height=3", "walls=2", "stage=combine", &dir_arg], &[]);
    assert!(!ok && stderr.contains("another start"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hostile test's case: a solve in stages whose files are changed
/// afterwards. Every file carries its checksum, so a byte changed anywhere
/// in any file is refused by name (exit code 2), never turned into another
/// result; the plan's directory is made when missing, and a directory
/// holding another solve's files is refused unless replace=true.
#[test]
fn changed_files_are_refused_and_directories_kept_apart() {
    let args = ["width=3", "height=4", "walls=1", "method=layers", "threads=1"];
    let (ok, whole, stderr) = solve(&args, &[]);
    assert!(ok, "{stderr}");
    let truth =
        whole.lines().last().expect("a result line").split(" positions=").next().expect("words").to_string();
    assert_eq!(truth, "result: first plies=7", "{whole}");
    let parent = scratch("flipped");
    // A directory that does not exist yet: stage=plan makes it.
    let dir = parent.join("new").join("sd");
    stage(&args, &dir, &["stage=plan"]);
    for added in (0..=2).rev() {
        for part in 0..2 {
            stage(&args, &dir, &["stage=values", &format!("added={added}"), &format!("part={part}/2")]);
        }
    }
    let dir_arg = format!("dir={}", dir.display());
    let combine = || solve(&args, &["stage=combine".to_string(), dir_arg.clone()]);
    let (ok, out, _) = combine();
    assert!(ok && out.lines().last().unwrap_or("").starts_with(&truth), "{out}");
    // Byte 76 of level 0's second part, XOR 0x80, as the hostile test did.
    let part = dir.join("level-0-part-1-of-2.values");
    let bytes = std::fs::read(&part).expect("the values file");
    let mut flipped = bytes.clone();
    flipped[76] ^= 0x80;
    std::fs::write(&part, &flipped).expect("write");
    let (ok, out, err) = combine();
    assert!(!ok && !out.contains("result:"), "{out}");
    assert!(err.contains("level-0-part-1-of-2.values: its checksum does not match"), "{err}");
    // Zeroed data, and a file cut short: refused too.
    let mut zeroed = bytes.clone();
    zeroed[40..].iter_mut().for_each(|b| *b = 0);
    for changed in [zeroed, bytes[..bytes.len() - 3].to_vec()] {
        std::fs::write(&part, &changed).expect("write");
        let (ok, out, _) = combine();
        assert!(!ok && !out.contains("result:"), "{out}");
    }
    std::fs::write(&part, &bytes).expect("restore");
    // A plan of another variant in the same directory is refused, and
    // replaces the old files only when told.
    let other = ["width=3", "height=4", "walls=2", "method=layers", "threads=1"];
    let (ok, _, err) = solve(&other, &["stage=plan".to_string(), dir_arg.clone()]);
    assert!(!ok && err.contains("holds the files of another solve") && err.contains("replace=true"), "{err}");
    let (ok, out, _) = combine();
    assert!(ok && out.lines().last().unwrap_or("").starts_with(&truth), "the old files are untouched: {out}");
    let (ok, _, err) =
        solve(&other, &["stage=plan".to_string(), "replace=true".to_string(), dir_arg.clone()]);
    assert!(ok, "{err}");
    assert!(!part.exists(), "the other solve's values are gone");
    let _ = std::fs::remove_dir_all(&parent);
}
