//! What exact solving takes from memory, through the binary: a run holds
//! no more than its limit, as the system counts it (`tabula solve` prints
//! its peak resident memory, `VmHWM`), the default limit is a share of the
//! machine's memory, and a stopped `go solve` gives back what it took.

use crate::common::engine_process::{EngineProcess, QUICK};
use std::process::Command;
use std::time::{Duration, Instant};

/// What the binary itself holds before any run (code, stack, buffers).
const BASELINE_MIB: u64 = 16;

/// A `tabula solve` run: whether it solved, and its output and errors.
fn solve(args: &[&str]) -> (bool, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tabula")).arg("solve").args(args).output().expect("run tabula");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// The peak and the limit of `memory: peak N MiB resident (VmHWM), limit L MiB`.
fn peak_and_limit(output: &str) -> (u64, u64) {
    let line = output
        .lines()
        .find_map(|l| l.split("memory: peak ").nth(1))
        .unwrap_or_else(|| panic!("no memory line in\n{output}"));
    let numbers: Vec<u64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    match numbers.as_slice() {
        [peak, limit] => (*peak, *limit),
        _ => panic!("malformed memory line '{line}'"),
    }
}

#[test]
fn a_graph_run_holds_no_more_than_its_limit() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // no /proc: the peak is not known
    }
    // 3x5 with two walls each: 392,624 positions, about 40 MiB by the graph.
    for (memory, solves) in [(48, true), (32, false)] {
        let limit = format!("memory={memory}");
        let (solved, output) = solve(&["width=3", "height=5", "walls=2", "method=graph", &limit]);
        assert_eq!(solved, solves, "{limit}\n{output}");
        if !solves {
            assert!(
                output.contains(&format!("needs more than the memory limit of {memory} MiB")),
                "{output}"
            );
        }
        let (peak, said_limit) = peak_and_limit(&output);
        assert_eq!(said_limit, memory);
        assert!(peak <= memory + BASELINE_MIB, "{limit}: peak {peak} MiB\n{output}");
    }
}

#[test]
fn the_default_limit_is_half_the_machines_memory() {
    let Some(total_kib) = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines().find_map(|l| l.strip_prefix("MemTotal:")?.split_whitespace().next()?.parse::<u64>().ok())
    }) else {
        return; // no /proc: the fallback applies
    };
    let (solved, output) = solve(&["width=3", "height=3", "walls=0"]);
    assert!(solved, "{output}");
    let (_, limit) = peak_and_limit(&output);
    assert_eq!(limit, (total_kib * 1024 / 2) >> 20, "{output}");
}

#[test]
fn a_stopped_go_solve_gives_its_memory_back() {
    let mut engine = EngineProcess::start();
    engine.sync();
    let Some(before) = engine.status_kib("VmRSS") else {
        return; // no /proc: nothing to measure
    };
    // The 9x9 board by the graph: far more than a test's time, and memory
    // in many small pieces (a position text for each position).
    engine.send("position startpos");
    engine.send("go solve");
    let deadline = Instant::now() + Duration::from_secs(60);
    let grown = 150 * 1024;
    while engine.status_kib("VmRSS").unwrap_or(0) < before + grown && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let during = engine.status_kib("VmRSS").unwrap_or(0);
    assert!(during >= before + grown, "the solve took {during} KiB, {before} KiB before");
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.contains("solve: stopped")), "{lines:?}");
    engine.sync();
    let after = engine.status_kib("VmRSS").unwrap_or(u64::MAX);
    assert!(
        after < before + 32 * 1024,
        "{after} KiB held after the stop, {during} KiB during, {before} KiB before"
    );
}
