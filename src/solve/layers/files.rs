//! The staged solver's files in a shared directory: the plan (every
//! level's layer keys) and the values of each slice of a level, how they
//! are written and how they are read back and checked. Also [`StageError`],
//! which names the file at fault.
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

use super::board::{Board, LayerKey, Level};
use super::driver::{self, LayerPlan};
use super::values::ValuedLayer;
use crate::game::prelude::*;
use crate::games::quoridor::Quoridor;
use crate::solve::{SolveError, SolveLimits};
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

/// The values file of a slice.
pub fn part_path(dir: &Path, level: usize, part: usize, parts: usize) -> PathBuf {
    dir.join(format!("level-{level}-part-{part}-of-{parts}.values"))
}

/// Whether a file name is one of the stages' own.
pub(super) fn is_stage_file(name: &str) -> bool {
    name == PLAN_FILE
        || name == "plan.partial"
        || (name.starts_with("level-") && (name.ends_with(".values") || name.ends_with(".partial")))
}

/// Writes the plan file of `plan` into `dir`.
pub(super) fn write_plan(plan: &LayerPlan, dir: &Path) -> Result<(), StageError> {
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
    write_checked(&dir.join(PLAN_FILE), bytes)
}

/// Writes the values of a slice of `level` whose first layer is `first`.
pub(super) fn write_values(
    path: &Path,
    level: usize,
    first: usize,
    valued: &[ValuedLayer],
) -> Result<(), StageError> {
    let per_layer = valued.first().map_or(0, |(t, _)| t.len());
    let valid = valued.iter().map(|(_, v)| v).sum::<usize>();
    let mut bytes = Vec::with_capacity(VALUES_HEADER + valued.len() * per_layer);
    bytes.extend_from_slice(VALUES_MAGIC);
    bytes.extend_from_slice(&(level as u32).to_le_bytes());
    for n in [first, valued.len(), valid] {
        bytes.extend_from_slice(&(n as u64).to_le_bytes());
    }
    valued.iter().for_each(|(table, _)| bytes.extend_from_slice(table));
    write_checked(path, bytes)
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
pub(super) fn read_plan(start: &Quoridor, limits: &SolveLimits, dir: &Path) -> Result<LayerPlan, StageError> {
    let path = dir.join(PLAN_FILE);
    let bytes = read_file(&path, limits.max_bytes)?;
    let mut f = Fields { bytes: &bytes, at: 0, path: &path };
    if f.take(4)? != PLAN_MAGIC {
        return Err(StageError::Format(path.clone(), "not a plan of layers".into()));
    }
    let (width, height) = (f.u32()?, f.u32()?);
    let start_key = f.key()?;
    let planned = driver::start_key(start);
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
pub(super) fn read_level(
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
