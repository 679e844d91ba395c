//! What the tools' tests through their binaries share (a dev-dependency of
//! `arena` and `board`): scratch directories under cargo's target
//! directory, and the paths of the workspace's other binaries, built when
//! missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The target directory (`target/`) of the running test executable,
/// which cargo puts in `target/<profile>/deps/`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    exe.ancestors().nth(3).expect("target/<profile>/deps/<test>").to_path_buf()
}

/// A fresh directory under `target/tmp`, removed on drop unless the test
/// is failing (kept for a look).
pub struct TempDir(PathBuf);

impl TempDir {
    /// `target/tmp/<tag>-<process>-<n>`, empty.
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = target_dir().join("tmp").join(format!("{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory, as a string for a command line.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The binary `bin` of workspace package `package`, beside the test's
/// own profile directory (`target/release/tabula` for a release test);
/// built with `cargo build --release` when it is not there.
pub fn workspace_binary(package: &str, bin: &str) -> PathBuf {
    let name = format!("{bin}{}", std::env::consts::EXE_SUFFIX);
    let exe = std::env::current_exe().expect("the test executable's path");
    if let Some(profile_dir) = exe.parent().and_then(Path::parent) {
        let candidate = profile_dir.join(&name);
        if candidate.is_file() {
            return candidate;
        }
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&workspace)
        .args(["build", "--release", "-p", package, "--bin", bin])
        .status()
        .expect("cannot run cargo");
    assert!(status.success(), "`cargo build --release -p {package} --bin {bin}` failed: {status}");
    let built = target_dir().join("release").join(&name);
    assert!(built.is_file(), "built {bin}, but {} is missing", built.display());
    built
}
