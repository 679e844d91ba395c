//! What an engine leaves behind: every process it started, directly or not,
//! ends with it. Killing the engine's process group is not enough, since a
//! descendant may leave the group (`setsid`), and once the engine has died its
//! orphans are no longer its descendants. So on Linux arena becomes a child
//! subreaper: orphans of its engines are re-parented to arena instead of init,
//! where arena can find them (its children that are no engine it holds), kill
//! and reap them.
//!
//! The engines arena holds are registered here, under the same lock that
//! [`kill_tree`] scans under, so that one game's clean-up never mistakes
//! another game's engine, started a moment earlier, for an orphan.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Process ids of the engines arena holds right now.
static ENGINES: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Set by [`kill_all`]: no engine starts any more.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Asks the kernel to re-parent orphaned descendants to arena (Linux); does
/// nothing elsewhere. Called once at start.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer argument and
    // touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Runs `spawn` (which starts an engine and returns its process id, if it
/// started) with the registry locked, and registers the engine. After
/// [`kill_all`] nothing is started.
pub fn spawn_registered<T>(spawn: impl FnOnce() -> Option<(T, u32)>) -> Option<T> {
    let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    if CLOSED.load(Ordering::SeqCst) {
        return None;
    }
    let (started, pid) = spawn()?;
    engines.push(pid);
    Some(started)
}

/// Kills the engine `pid` (still running or not, but not yet reaped), its
/// process group and every descendant, including orphans it left that were
/// re-parented to arena, and reaps those orphans. The caller then reaps the
/// engine itself and calls [`forget`].
pub fn kill_tree(pid: u32) {
    let engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    kill(-i64::from(pid));
    #[cfg(target_os = "linux")]
    {
        let others: Vec<u32> = engines.iter().copied().filter(|&p| p != pid).collect();
        linux::kill_descendants(pid, &others);
    }
    kill(i64::from(pid));
    drop(engines);
}

/// Kills every engine held, with everything each started, and starts no
/// engine after: for a program about to exit on a signal, which then leaves
/// the zombies to init.
pub fn kill_all() {
    let engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    CLOSED.store(true, Ordering::SeqCst);
    for &pid in engines.iter() {
        kill(-i64::from(pid));
        #[cfg(target_os = "linux")]
        {
            let others: Vec<u32> = engines.iter().copied().filter(|&p| p != pid).collect();
            linux::kill_descendants(pid, &others);
        }
        kill(i64::from(pid));
    }
}

/// Unregisters an engine that has been reaped.
pub fn forget(pid: u32) {
    ENGINES.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != pid);
}

/// SIGKILL to a process (or, negative, a process group).
fn kill(target: i64) {
    #[cfg(unix)]
    if let Ok(target) = libc::pid_t::try_from(target) {
        // SAFETY: kill(2) takes two integers and touches no memory of ours.
        unsafe { libc::kill(target, libc::SIGKILL) };
    }
    #[cfg(not(unix))]
    let _ = target;
}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::HashMap;

    /// Every process's parent, read from `/proc/<pid>/stat`.
    fn parents() -> HashMap<u32, u32> {
        let mut parents = HashMap::new();
        let Ok(entries) = std::fs::read_dir("/proc") else { return parents };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            // `pid (comm) state ppid ...`: comm may hold spaces and parentheses,
            // so the fields are counted from the last ')'.
            let ppid = stat.rfind(')').and_then(|end| stat[end + 1..].split_whitespace().nth(1));
            if let Some(ppid) = ppid.and_then(|p| p.parse().ok()) {
                parents.insert(pid, ppid);
            }
        }
        parents
    }

    /// `roots` and all their descendants in `parents`.
    fn with_descendants(roots: &[u32], parents: &HashMap<u32, u32>) -> Vec<u32> {
        let mut found = roots.to_vec();
        let mut next = 0;
        while next < found.len() {
            let parent = found[next];
            found.extend(parents.iter().filter(|&(_, &pp)| pp == parent).map(|(&p, _)| p));
            next += 1;
        }
        found
    }

    /// Kills the engine's descendants and arena's adopted orphans (children
    /// that are neither `engine` nor one of `others`, the engines still
    /// held) with theirs, then reaps the orphans. A killed process whose
    /// children were also killed leaves zombies re-parented to arena, so
    /// the scan repeats until no orphan is left (a few rounds at most).
    pub(super) fn kill_descendants(engine: u32, others: &[u32]) {
        let me = std::process::id();
        for round in 0..20 {
            let parents = parents();
            let orphans: Vec<u32> = parents
                .iter()
                .filter(|&(&p, &pp)| pp == me && p != engine && !others.contains(&p))
                .map(|(&p, _)| p)
                .collect();
            let below_engine = with_descendants(&[engine], &parents);
            let doomed = with_descendants(&orphans, &parents);
            for &pid in below_engine.iter().skip(1).chain(&doomed) {
                super::kill(i64::from(pid));
            }
            for &orphan in &orphans {
                // SAFETY: waitpid on a child of ours with a null status pointer.
                unsafe { libc::waitpid(orphan as libc::pid_t, std::ptr::null_mut(), 0) };
            }
            if orphans.is_empty() && below_engine.len() <= 1 {
                break;
            }
            if round > 0 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn descendants_are_found_through_every_generation() {
            let parents: HashMap<u32, u32> = [(2, 1), (3, 2), (4, 3), (5, 1), (6, 9)].into_iter().collect();
            let mut found = with_descendants(&[2], &parents);
            found.sort();
            assert_eq!(found, vec![2, 3, 4]);
        }

        #[test]
        fn this_process_has_a_parent() {
            let parents = parents();
            assert!(parents.contains_key(&std::process::id()));
        }
    }
}
