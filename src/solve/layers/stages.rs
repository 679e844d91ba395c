//! The layered solver ([`super::solve_layers`]) as separate runs that share a
//! directory, so that one solve can be spread over many machines
//! (`tools/cluster`): `stage=plan` finds every level's layers and writes
//! them to the plan file; `stage=level level=K part=I/N` values the I-th of
//! N slices of level K, reading level K+1's values; `stage=combine` reads
//! every level back into the tables one process would have built. Levels
//! are done from the most walls down, each only once the one below it is
//! complete: a barrier per level.
//!
//! `stage=plan` makes its directory, and refuses one that holds the files
//! of another solve unless told to replace them.

use super::driver::{plan_layers, LayerTables};
use super::files::{is_stage_file, read_level, read_plan, write_plan, write_values};
pub use super::files::{part_path, StageError, PLAN_FILE};
use super::values::value_layers;
use crate::game::prelude::*;
use crate::games::quoridor::Quoridor;
use crate::solve::SolveLimits;
use std::path::{Path, PathBuf};

/// What `stage=level` wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartDone {
    /// The slice's first layer in its level, and how many layers it has.
    pub first: usize,
    /// Layers valued.
    pub count: usize,
    /// Pawn placements among them that can occur.
    pub valid: usize,
    /// The file written.
    pub path: PathBuf,
}

/// The layers of slice `part` of `parts` of a level of `len` layers.
pub fn slice(len: usize, part: usize, parts: usize) -> std::ops::Range<usize> {
    len * part / parts..len * (part + 1) / parts
}

/// `stage=plan`: finds the layers reachable from `start` and writes them to
/// the plan file in `dir` (made if need be); returns how many layers each
/// level has. A directory holding another solve's files (a plan of another
/// start, or values without their plan) is refused unless `replace`, which
/// removes them first; the same start's plan and values stay.
pub fn stage_plan(
    start: &Quoridor,
    limits: &SolveLimits,
    dir: &Path,
    replace: bool,
) -> Result<Vec<usize>, StageError> {
    std::fs::create_dir_all(dir).map_err(|e| StageError::Io(dir.to_path_buf(), e))?;
    let ours = read_plan(start, limits, dir).is_ok();
    let entries = std::fs::read_dir(dir).map_err(|e| StageError::Io(dir.to_path_buf(), e))?;
    let mut others = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| StageError::Io(dir.to_path_buf(), e))?.path();
        if path.file_name().and_then(|n| n.to_str()).is_some_and(is_stage_file) {
            others.push(path);
        }
    }
    if !ours && !others.is_empty() {
        if !replace {
            return Err(StageError::Mismatch(format!(
                "{} holds the files of another solve than {} ({} of them); \
                 give replace=true to replace them, or another dir=",
                dir.display(),
                start.to_text(),
                others.len()
            )));
        }
        for path in others {
            std::fs::remove_file(&path).map_err(|e| StageError::Io(path, e))?;
        }
    }
    let plan = plan_layers(start, limits, &mut |_| {})?;
    write_plan(&plan, dir)?;
    Ok(plan.layers_per_level())
}

/// `stage=level level=K part=I/N`: values slice I of N of level K from the
/// values of level K+1 (all its slices, whatever their number) and writes
/// them to [`part_path`].
pub fn stage_level(
    start: &Quoridor,
    limits: &SolveLimits,
    dir: &Path,
    level: usize,
    (part, parts): (usize, usize),
) -> Result<PartDone, StageError> {
    let mut plan = read_plan(start, limits, dir)?;
    if level >= plan.levels.len() || part >= parts {
        return Err(StageError::Mismatch(format!(
            "level {level} part {part}/{parts}: the plan has levels 0..{} and parts count from 0",
            plan.levels.len()
        )));
    }
    if level + 1 < plan.levels.len() {
        read_level(&mut plan, limits, dir, level + 1)?;
    }
    let range = slice(plan.levels[level].keys.len(), part, parts);
    let (board, levels) = (plan.board, &plan.levels);
    let keys = &levels[level].keys[range.clone()];
    limits.check_bytes(keys.len().saturating_mul(plan.per_layer()).saturating_mul(3))?;
    let valued = value_layers(&board, keys, levels.get(level + 1), limits, &mut |_| {})?;
    let valid = valued.iter().map(|(_, v)| v).sum::<usize>();
    let path = part_path(dir, level, part, parts);
    write_values(&path, level, range.start, &valued)?;
    Ok(PartDone { first: range.start, count: keys.len(), valid, path })
}

/// `stage=combine`: every level's values read back, as one process's
/// [`super::solve_layers`] would have left them.
pub fn stage_combine(start: &Quoridor, limits: &SolveLimits, dir: &Path) -> Result<LayerTables, StageError> {
    let mut plan = read_plan(start, limits, dir)?;
    let mut valid = 0;
    for level in 0..plan.levels.len() {
        valid += read_level(&mut plan, limits, dir, level)?;
    }
    Ok(LayerTables::assemble(plan, valid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Variant;
    use crate::solve::layers::solve_layers;
    use crate::solve::SolveError;

    fn limits() -> SolveLimits<'static> {
        SolveLimits { max_bytes: 1 << 30, stop: None, threads: 1 }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-stages-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    /// Every level in `parts(level)` slices, from the most walls down.
    fn staged(start: &Quoridor, dir: &Path, parts: impl Fn(usize) -> usize) -> LayerTables {
        let layers = stage_plan(start, &limits(), dir, false).expect("plan");
        for level in (0..layers.len()).rev() {
            let n = parts(level);
            for part in 0..n {
                stage_level(start, &limits(), dir, level, (part, n)).expect("level");
            }
        }
        stage_combine(start, &limits(), dir).expect("combine")
    }

    #[test]
    fn levels_valued_in_slices_give_the_tables_of_one_run() {
        let start =
            Quoridor::new(&Variant { width: 3, height: 5, walls: 2, ..Variant::default() }).expect("3x5");
        let whole = solve_layers(&start, &limits(), &mut |_| {}).expect("one run");
        let dir = scratch("slices");
        // More slices than a level has layers leaves some empty.
        let tables = staged(&start, &dir, |level| 1 + level % 4 * 3);
        assert_eq!((tables.positions, tables.counts), (whole.positions, whole.counts));
        let mut rng = crate::rng::Rng::new(5);
        let mut compared = 0;
        for _ in 0..30 {
            crate::games::quoridor::random_game(
                &start.to_text(),
                &mut rng,
                |_| true,
                |p| {
                    assert_eq!(tables.value(p), whole.value(p), "{}", p.to_text());
                    compared += 1;
                },
            );
        }
        assert!(compared > 100);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every byte of every file of a small staged solve flipped in turn:
    /// the combine never gives tables, let alone other ones.
    #[test]
    fn a_byte_changed_anywhere_is_refused() {
        let start =
            Quoridor::new(&Variant { width: 3, height: 3, walls: 1, ..Variant::default() }).expect("3x3");
        let dir = scratch("flips");
        staged(&start, &dir, |level| 1 + level % 2);
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("the dir").map(|e| e.expect("an entry").path()).collect();
        files.sort();
        let mut flips = 0;
        for path in &files {
            let bytes = std::fs::read(path).expect("read");
            for at in 0..bytes.len() {
                for mask in [0x01u8, 0x80] {
                    let mut changed = bytes.clone();
                    changed[at] ^= mask;
                    std::fs::write(path, &changed).expect("write");
                    let combined = stage_combine(&start, &limits(), &dir);
                    assert!(
                        matches!(&combined, Err(StageError::Format(p, why)) if p == path && why.contains("checksum")),
                        "{} byte {at} ^ {mask:#x}: {:?}",
                        path.display(),
                        combined.map(|t| t.positions)
                    );
                    flips += 1;
                }
            }
            std::fs::write(path, &bytes).expect("restore");
        }
        assert!(files.len() >= 4 && flips > 200, "{files:?} {flips}");
        assert!(stage_combine(&start, &limits(), &dir).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_doubled_foreign_and_damaged_files_are_refused() {
        let start =
            Quoridor::new(&Variant { width: 3, height: 3, walls: 1, ..Variant::default() }).expect("3x3");
        let dir = scratch("refused");
        let layers = stage_plan(&start, &limits(), &dir, false).expect("plan");
        assert_eq!(layers.len(), 3, "{layers:?}");
        // Level 1 before level 2 is valued.
        assert!(matches!(stage_level(&start, &limits(), &dir, 1, (0, 1)), Err(StageError::Mismatch(_))));
        assert!(matches!(stage_level(&start, &limits(), &dir, 3, (0, 1)), Err(StageError::Mismatch(_))));
        for level in (0..3).rev() {
            stage_level(&start, &limits(), &dir, level, (0, 1)).expect("level");
        }
        // The same layers in a second slicing: given twice.
        stage_level(&start, &limits(), &dir, 2, (1, 2)).expect("half");
        assert!(matches!(stage_combine(&start, &limits(), &dir), Err(StageError::Mismatch(_))));
        std::fs::remove_file(part_path(&dir, 2, 1, 2)).expect("remove");
        // A file cut short.
        let path = part_path(&dir, 0, 0, 1);
        let bytes = std::fs::read(&path).expect("read");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("cut");
        assert!(matches!(stage_combine(&start, &limits(), &dir), Err(StageError::Format(..))));
        std::fs::write(&path, &bytes).expect("restore");
        assert!(stage_combine(&start, &limits(), &dir).is_ok());
        // Another start.
        let other =
            Quoridor::new(&Variant { width: 3, height: 3, walls: 2, ..Variant::default() }).expect("3x3");
        assert!(matches!(stage_combine(&other, &limits(), &dir), Err(StageError::Mismatch(_))));
        // A memory limit below the plan's size.
        let small = SolveLimits { max_bytes: 8, stop: None, threads: 1 };
        assert!(matches!(
            stage_combine(&start, &small, &dir),
            Err(StageError::Solve(SolveError::OverMemory(8)))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
