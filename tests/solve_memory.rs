//! What exact solving takes from memory, through the binary: a run holds
//! no more than its limit, as the system counts it (`tabula solve` prints
//! its peak resident memory, `VmHWM`), and the default limit is a share of
//! the machine's memory.

use std::process::Command;

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
    // 3x5 with two walls each: 392,624 positions, about 50 MiB by the graph.
    for (memory, solves) in [(64, true), (40, false)] {
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
