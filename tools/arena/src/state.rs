//! A match's saved state, fastchess's way: `config.json` (or the file
//! `-config outname=F` names), written whole every `-autosaveinterval`
//! games, on an interrupt and at the end, by writing a new file and
//! renaming it over the old one, so that a reader never sees half a file.
//! It holds the command line as given and every finished game with its
//! record (as `-results` writes a game); the schedule, the openings and the
//! SPRT follow from those. `arena -config file=F` reads it, checks its
//! format, version and checksum, and plays the games still to play.

use crate::results::GameLine;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;

/// What the file says it is.
const FORMAT: &str = "arena match state";
/// The layout of this file; a state of another layout is refused.
const LAYOUT: u32 = 1;
/// The largest state file read (a finished game takes a few KiB).
const MAX_BYTES: u64 = 512 << 20;

/// The saved match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchState {
    /// The arguments the match was started with.
    pub args: Vec<String>,
    /// Every finished game, in the order it finished.
    pub games: Vec<GameLine>,
}

/// The file: what it is, by which arena, the checksum of the state, the state.
#[derive(Serialize, Deserialize)]
struct StateFile {
    format: String,
    layout: u32,
    arena: String,
    /// CRC-32 of the state as written (compact JSON), in hex.
    crc32: String,
    state: MatchState,
}

fn checksum(state: &MatchState) -> Result<String, String> {
    let text = serde_json::to_string(state).map_err(|e| e.to_string())?;
    Ok(format!("{:08x}", crc32fast::hash(text.as_bytes())))
}

/// Writes `state` to `path` whole: to a new file beside it, then renamed.
pub fn save(path: &Path, state: &MatchState) -> Result<(), String> {
    let file = StateFile {
        format: FORMAT.into(),
        layout: LAYOUT,
        arena: env!("CARGO_PKG_VERSION").into(),
        crc32: checksum(state)?,
        state: state.clone(),
    };
    let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".new");
    let temporary = std::path::PathBuf::from(temporary);
    let written = std::fs::write(&temporary, text + "\n").and_then(|_| std::fs::rename(&temporary, path));
    written.map_err(|e| format!("cannot save the match state to {}: {e}", path.display()))
}

/// Reads a saved match, refusing by name a file that is not one, is of
/// another layout or arena version, or whose checksum does not match.
pub fn load(path: &Path) -> Result<MatchState, String> {
    let named = |why: String| format!("-config file={}: {why}", path.display());
    let mut text = String::new();
    let file = std::fs::File::open(path).map_err(|e| named(e.to_string()))?;
    file.take(MAX_BYTES + 1).read_to_string(&mut text).map_err(|e| named(e.to_string()))?;
    if text.len() as u64 > MAX_BYTES {
        return Err(named(format!("larger than {} MiB", MAX_BYTES >> 20)));
    }
    let head: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| named(format!("not a match state ({e})")))?;
    if head.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(named("not an arena match state".into()));
    }
    let (layout, arena) =
        (head.get("layout").and_then(|l| l.as_u64()), head.get("arena").and_then(|a| a.as_str()));
    if layout != Some(u64::from(LAYOUT)) || arena != Some(env!("CARGO_PKG_VERSION")) {
        return Err(named(format!(
            "saved by another version of arena ({} layout {}; this is {} layout {LAYOUT})",
            arena.unwrap_or("?"),
            layout.map_or("?".to_string(), |l| l.to_string()),
            env!("CARGO_PKG_VERSION")
        )));
    }
    let file: StateFile =
        serde_json::from_value(head).map_err(|e| named(format!("a damaged state ({e})")))?;
    if checksum(&file.state)? != file.crc32 {
        return Err(named("its checksum does not match: the file was changed or damaged".into()));
    }
    for game in &file.state.games {
        game.parts().map_err(|e| named(format!("game {}: {e}", game.game)))?;
    }
    Ok(file.state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-state-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir.join("config.json")
    }

    #[test]
    fn a_saved_state_reads_back_and_a_changed_one_is_refused() {
        let path = scratch("roundtrip");
        let state = MatchState { args: vec!["-engine".into(), "cmd=a".into()], games: Vec::new() };
        save(&path, &state).expect("saved");
        assert_eq!(load(&path), Ok(state));
        let text = std::fs::read_to_string(&path).expect("the file");
        std::fs::write(&path, text.replace("cmd=a", "cmd=b")).expect("changed");
        assert!(load(&path).unwrap_err().contains("checksum does not match"));
        std::fs::write(&path, text.replace(env!("CARGO_PKG_VERSION"), "0.0.9")).expect("changed");
        assert!(load(&path).unwrap_err().contains("another version of arena"));
        std::fs::write(&path, "{\"format\": \"something else\"}").expect("changed");
        assert!(load(&path).unwrap_err().contains("not an arena match state"));
        std::fs::write(&path, &text[..text.len() / 2]).expect("cut");
        assert!(load(&path).unwrap_err().contains("not a match state"));
        let _ = std::fs::remove_dir_all(path.parent().expect("a directory"));
    }
}
