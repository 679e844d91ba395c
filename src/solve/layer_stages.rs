//! The layered solver ([`super::layers`]) as separate runs that share a
//! directory, so that one solve can be spread over many machines
//! (`tools/cluster`): `stage=plan` finds every level's layers and writes
//! them to the plan file; `stage=level level=K part=I/N` values the I-th of
//! N slices of level K, reading level K+1's values; `stage=combine` reads
//! every level back into the tables one process would have built. Levels
//! are done from the most walls down, each only once the one below it is
//! complete: a barrier per level.
//!
//! Files are little-endian, end with the CRC-32 of everything before it
//! (u32), and are checked against their size limit, their checksum and
//! their headers before a value in them is used: a file changed or cut
//! short is refused by name, never turned into a result.
//! - `plan.layers`: `TLP2`, width, height (u32), the start's layer key,
//!   the number of levels (u32), then per level its layer count (u64) and
//!   its keys (each 18 bytes: horizontal and vertical wall bits, two hands).
//! - `level-K-part-I-of-N.values`: `TLV2`, K (u32), the slice's first layer
//!   and layer count (u64), how many of its placements can occur (u64),
//!   then every layer's table of values.
//!
//! `stage=plan` makes its directory, and refuses one that holds the files
//! of another solve unless told to replace them.

use super::layer_board::Board;
use super::layer_values::value_layers;
use super::layers::{plan_layers, LayerKey, LayerPlan, LayerTables, Level};
use super::{SolveError, SolveLimits};
use crate::game::prelude::*;
use crate::games::quoridor::Quoridor;
use std::path::{Path, PathBuf};

/// The plan's file name in the directory.
pub const PLAN_FILE: &str = "plan.layers";
const PLAN_MAGIC: &[u8; 4] = b"TLP2";
const VALUES_MAGIC: &[u8; 4] = b"TLV2";
/// The checksum after a file's content.
const CHECKSUM_BYTES: usize = 4;
const KEY_BYTES: usize = 18;
const VALUES_HEADER: usize = 4 + 4 + 3 * 8;

/// Why a stage did not finish.
#[derive(Debug)]
pub enum StageError {
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A file is not what its name says, or is cut short.
    Format(PathBuf, String),
    /// The files do not fit the request: another start, a level that does
    /// not exist, a slice missing or given twice.
    Mismatch(String),
    /// The solver's own error (memory, stop).
    Solve(SolveError),
}

impl std::fmt::Display for StageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StageError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            StageError::Format(path, why) => write!(f, "{}: {why}", path.display()),
            StageError::Mismatch(why) => f.write_str(why),
            StageError::Solve(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StageError {}

impl From<SolveError> for StageError {
    fn from(e: SolveError) -> Self {
        StageError::Solve(e)
    }
}

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

/// The values file of a slice.
pub fn part_path(dir: &Path, level: usize, part: usize, parts: usize) -> PathBuf {
    dir.join(format!("level-{level}-part-{part}-of-{parts}.values"))
}

/// Whether a file name is one of the stages' own.
fn is_stage_file(name: &str) -> bool {
    name == PLAN_FILE
        || name == "plan.partial"
        || (name.starts_with("level-") && (name.ends_with(".values") || name.ends_with(".partial")))
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
    let mut bytes = Vec::new();
    bytes.extend_from_slice(PLAN_MAGIC);
    for n in [plan.board.width, plan.board.height] {
        bytes.extend_from_slice(&(n as u32).to_le_bytes());
    }
    put_key(&mut bytes, plan.start_key);
    bytes.extend_from_slice(&(plan.levels.len() as u32).to_le_bytes());
    for level in &plan.levels {
        bytes.extend_from_slice(&(level.keys.len() as u64).to_le_bytes());
        level.keys.iter().for_each(|&k| put_key(&mut bytes, k));
    }
    write_checked(&dir.join(PLAN_FILE), bytes)?;
    Ok(plan.layers_per_level())
}

/// Writes `bytes` and their checksum under another name first, then
/// renames the file into place: a reader never sees half a file.
fn write_checked(path: &Path, mut bytes: Vec<u8>) -> Result<(), StageError> {
    let sum = crate::crc32::crc32(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).map_err(|e| StageError::Io(partial.clone(), e))?;
    std::fs::rename(&partial, path).map_err(|e| StageError::Io(path.to_path_buf(), e))
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
    let mut bytes = Vec::with_capacity(VALUES_HEADER + keys.len() * plan.per_layer());
    bytes.extend_from_slice(VALUES_MAGIC);
    bytes.extend_from_slice(&(level as u32).to_le_bytes());
    for n in [range.start, keys.len(), valid] {
        bytes.extend_from_slice(&(n as u64).to_le_bytes());
    }
    valued.iter().for_each(|(table, _)| bytes.extend_from_slice(table));
    let path = part_path(dir, level, part, parts);
    write_checked(&path, bytes)?;
    Ok(PartDone { first: range.start, count: keys.len(), valid, path })
}

/// `stage=combine`: every level's values read back, as one process's
/// [`super::layers::solve_layers`] would have left them.
pub fn stage_combine(start: &Quoridor, limits: &SolveLimits, dir: &Path) -> Result<LayerTables, StageError> {
    let mut plan = read_plan(start, limits, dir)?;
    let mut valid = 0;
    for level in 0..plan.levels.len() {
        valid += read_level(&mut plan, limits, dir, level)?;
    }
    Ok(LayerTables::assemble(plan, valid))
}

fn put_key(bytes: &mut Vec<u8>, key: LayerKey) {
    bytes.extend_from_slice(&key.horizontal.to_le_bytes());
    bytes.extend_from_slice(&key.vertical.to_le_bytes());
    bytes.extend_from_slice(&key.hand);
}

/// A file's content, refused unbounded (at most `limit` bytes) and refused
/// when its checksum does not match: the bytes before the checksum.
fn read_file(path: &Path, limit: usize) -> Result<Vec<u8>, StageError> {
    let size = std::fs::metadata(path).map_err(|e| StageError::Io(path.to_path_buf(), e))?.len();
    if size > limit.saturating_add(CHECKSUM_BYTES) as u64 {
        return Err(StageError::Solve(SolveError::OverMemory(limit)));
    }
    let mut bytes = std::fs::read(path).map_err(|e| StageError::Io(path.to_path_buf(), e))?;
    let damaged = || {
        StageError::Format(
            path.to_path_buf(),
            "its checksum does not match: the file was changed or cut".into(),
        )
    };
    let content = bytes.len().checked_sub(CHECKSUM_BYTES).ok_or_else(damaged)?;
    let mut stored = [0u8; CHECKSUM_BYTES];
    stored.copy_from_slice(&bytes[content..]);
    if u32::from_le_bytes(stored) != crate::crc32::crc32(&bytes[..content]) {
        return Err(damaged());
    }
    bytes.truncate(content);
    Ok(bytes)
}

/// Reads little-endian fields off a file's bytes, failing at its end.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl Fields<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StageError> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| StageError::Format(self.path.to_path_buf(), "cut short".into()))?;
        let field = &self.bytes[self.at..end];
        self.at = end;
        Ok(field)
    }
    fn u32(&mut self) -> Result<usize, StageError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn u64(&mut self) -> Result<usize, StageError> {
        let mut word = [0u8; 8];
        word.copy_from_slice(self.take(8)?);
        usize::try_from(u64::from_le_bytes(word))
            .map_err(|_| StageError::Format(self.path.to_path_buf(), "a count too large".into()))
    }
    fn key(&mut self) -> Result<LayerKey, StageError> {
        let b = self.take(KEY_BYTES)?;
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(w)
        };
        Ok(LayerKey { horizontal: word(0), vertical: word(8), hand: [b[16], b[17]] })
    }
}

/// The plan in `dir`, checked to be the plan of `start`.
fn read_plan(start: &Quoridor, limits: &SolveLimits, dir: &Path) -> Result<LayerPlan, StageError> {
    let path = dir.join(PLAN_FILE);
    let bytes = read_file(&path, limits.max_bytes)?;
    let mut f = Fields { bytes: &bytes, at: 0, path: &path };
    if f.take(4)? != PLAN_MAGIC {
        return Err(StageError::Format(path.clone(), "not a plan of layers".into()));
    }
    let (width, height) = (f.u32()?, f.u32()?);
    let start_key = f.key()?;
    let planned = super::layers::start_key(start);
    if (width, height, start_key) != (start.width(), start.height(), planned) {
        return Err(StageError::Mismatch(format!(
            "{} is the plan of another start than {}",
            path.display(),
            start.to_text()
        )));
    }
    let mut levels = Vec::new();
    for _ in 0..f.u32()? {
        let count = f.u64()?;
        // The keys must be there before room is made for them.
        if count > (bytes.len() - f.at) / KEY_BYTES {
            return Err(StageError::Format(path.clone(), "cut short".into()));
        }
        let keys = (0..count).map(|_| f.key()).collect::<Result<Vec<_>, _>>()?;
        levels.push(Level::of_keys(keys));
    }
    if f.at != bytes.len() {
        return Err(StageError::Format(path.clone(), "runs on past its last level".into()));
    }
    Ok(LayerPlan { board: Board::new(width, height), start_key, levels })
}

/// Reads every slice of `level` in `dir` into the plan; returns how many
/// of its placements can occur. Each layer must come exactly once.
fn read_level(
    plan: &mut LayerPlan,
    limits: &SolveLimits,
    dir: &Path,
    level: usize,
) -> Result<usize, StageError> {
    let per_layer = plan.per_layer();
    let len = plan.levels[level].keys.len();
    limits.check_bytes(len.saturating_mul(per_layer))?;
    let prefix = format!("level-{level}-part-");
    let mut tables: Vec<Option<Box<[u8]>>> = (0..len).map(|_| None).collect();
    let mut valid = 0;
    let entries = std::fs::read_dir(dir).map_err(|e| StageError::Io(dir.to_path_buf(), e))?;
    for entry in entries {
        let path = entry.map_err(|e| StageError::Io(dir.to_path_buf(), e))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.starts_with(&prefix) || !name.ends_with(".values") {
            continue;
        }
        let bytes = read_file(&path, VALUES_HEADER + len.saturating_mul(per_layer))?;
        let mut f = Fields { bytes: &bytes, at: 0, path: &path };
        if f.take(4)? != VALUES_MAGIC || f.u32()? != level {
            return Err(StageError::Format(path.clone(), format!("not values of level {level}")));
        }
        let (first, count, part_valid) = (f.u64()?, f.u64()?, f.u64()?);
        let fits = first.checked_add(count).is_some_and(|end| end <= len);
        if !fits || bytes.len() != VALUES_HEADER + count * per_layer {
            return Err(StageError::Format(path.clone(), format!("not layers of level {level}")));
        }
        for (i, table) in bytes[VALUES_HEADER..].chunks_exact(per_layer).enumerate() {
            if tables[first + i].replace(table.into()).is_some() {
                return Err(StageError::Mismatch(format!(
                    "layer {} of level {level} given twice",
                    first + i
                )));
            }
        }
        valid += part_valid;
    }
    let values: Option<Vec<Box<[u8]>>> = tables.into_iter().collect();
    plan.levels[level].values = values.ok_or_else(|| {
        StageError::Mismatch(format!("level {level} is not complete in {}: value it first", dir.display()))
    })?;
    Ok(valid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::quoridor::Variant;
    use crate::solve::layers::solve_layers;

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
