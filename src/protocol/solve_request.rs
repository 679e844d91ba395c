//! The arguments of `tabula solve`: the game and variant with the same keys
//! as arena's `-variant` (`game=quoridor width=5 height=5 walls=2
//! players=2 multijump=false`, `game=quarto board=4x4 level=2`), or a
//! whole position text instead (`position=quoridor 4x7 pawns=b3,c5 ...`,
//! one argument), then optionally `moves M1 M2 ...` played from there; and
//! how to solve: `method=layers|graph|alphabeta|proof`, `threads=N`,
//! `memory=MIB` (by default half of the machine's memory). For Quarto,
//! `placed=K seed=S` goes on from there with random moves (seeded, none
//! that ends the game or hands over a piece that wins at once) until K
//! pieces are on the board: the positions
//! the table by pieces placed in docs/solver.md is made of. `split=P` lists
//! the sub-proofs P plies down instead of solving; `split=P leaves=FILE`
//! combines their values from FILE into the position's value. The layered
//! method also runs in stages that share a directory `dir=DIR`
//! ([`crate::solve::layers::stages`]): `stage=plan`, then `stage=values
//! added=K part=I/N` for each level K from the most walls down, then
//! `stage=combine`.

use crate::game::MoveList;
use crate::game::Position;
use crate::games::quarto::Quarto;
use crate::games::variant::GameVariant;
use crate::games::AnyPosition;
use crate::quote::quoted;
use crate::rng::Rng;
use crate::solve::split::MAX_SPLIT_PLIES;
use crate::solve::Method;
use std::fmt;

/// What `tabula solve` was asked.
pub struct SolveRequest {
    /// The position to solve.
    pub position: AnyPosition,
    /// `None`: the best method for the game.
    pub method: Option<Method>,
    /// Threads the layered method may use.
    pub threads: usize,
    /// The memory limit in bytes: `memory=MIB`, by default half of the
    /// machine's memory ([`crate::solve::memory::default_limit`]).
    pub max_bytes: usize,
    /// `split=P`: the sub-proofs at `P` plies below the position, to list
    /// or (with `leaves=`) to combine ([`crate::solve::split`]).
    pub split: Option<u32>,
    /// `leaves=FILE`: the values of the sub-proofs, one `result: ...` and
    /// `position=TEXT` pair a line, to combine instead of solving.
    pub leaves: Option<std::path::PathBuf>,
    /// `stage=...` with `dir=DIR`: one stage of a layered solve spread
    /// over several runs.
    pub stage: Option<(Stage, std::path::PathBuf)>,
}

/// A stage of a layered solve spread over several runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `stage=plan [replace=true]`: find every level's layers (replacing
    /// another solve's files in the directory, when told).
    Plan {
        /// `replace=true`.
        replace: bool,
    },
    /// `stage=values added=K part=I/N`: value slice I of N of the level
    /// with K walls more than the start.
    Values {
        /// The level: walls added since the start.
        added: usize,
        /// The slice, counted from 0.
        part: usize,
        /// How many slices the level is cut into.
        parts: usize,
    },
    /// `stage=combine`: read every level back and give the result.
    Combine,
}

/// The largest `memory=` that can be counted in bytes.
const MAX_MEMORY_MIB: usize = usize::MAX >> 20;

/// The keys that describe a start position, which `position=` replaces:
/// the variant's, read by its one reader ([`GameVariant::from_keys`]).
const VARIANT_KEYS: [&str; 8] = crate::games::variant::KEYS;

/// Why the arguments name no request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError {
    /// Two keys that each say where to start: `position=` with a key of
    /// the variant (`width=`, `game=`, ...), or `position=` twice.
    Conflict {
        /// The key given first.
        first: String,
        /// The key that contradicts it.
        second: String,
    },
    /// `position=` with a text that names no position.
    Position(String),
    /// Any other argument that cannot be used, and why.
    Invalid(String),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Conflict { first, second } if first == second => {
                write!(f, "{first}= is given twice")
            }
            RequestError::Conflict { first, second } => write!(
                f,
                "{first}= and {second}= both say where to start; a position text already names \
                 its game and variant"
            ),
            RequestError::Position(why) => write!(f, "position: {why}"),
            RequestError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<String> for RequestError {
    fn from(why: String) -> Self {
        RequestError::Invalid(why)
    }
}

/// The request, or why the arguments do not name one.
pub fn parse_request(args: &[String]) -> Result<SolveRequest, RequestError> {
    let split = args.iter().position(|a| a == "moves").unwrap_or(args.len());
    let (keys, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let mut variant_pairs: Vec<(&str, &str)> = Vec::new();
    let mut method = None;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut max_bytes = crate::solve::memory::default_limit();
    let (mut placed, mut seed) = (None, 1u64);
    let (mut split, mut leaves) = (None, None);
    let (mut stage, mut dir, mut added, mut part, mut replace) = (None, None, None, None, None);
    // The position text, and the first key that describes a variant.
    let mut text: Option<&str> = None;
    let mut variant_key: Option<&str> = None;
    let mut given: Vec<&str> = Vec::new();
    for key in keys {
        let Some((name, value)) = key.split_once('=') else {
            // Most likely the rest of a position text the shell split.
            let hint =
                if text.is_some() { "; give the position text as one argument, in quotes" } else { "" };
            return Err(format!("'{}' is not KEY=VALUE{hint}", quoted(key)).into());
        };
        if given.contains(&name) {
            return Err(RequestError::Conflict { first: name.to_string(), second: name.to_string() });
        }
        given.push(name);
        let is_position = name == "position";
        if is_position || VARIANT_KEYS.contains(&name) {
            // A position text stands alone: no second one, no variant key with it.
            let clash = match (text.is_some(), is_position) {
                (true, _) => Some("position"),
                (false, true) => variant_key,
                (false, false) => None,
            };
            if let Some(first) = clash {
                return Err(RequestError::Conflict { first: first.to_string(), second: name.to_string() });
            }
            if !is_position {
                variant_key.get_or_insert(name);
            }
        }
        let number =
            || value.parse::<usize>().map_err(|_| format!("{name}: '{}' is not a number", quoted(value)));
        match name {
            "position" => text = Some(value),
            _ if VARIANT_KEYS.contains(&name) => variant_pairs.push((name, value)),
            "method" => {
                method = Some(Method::parse(value).ok_or_else(|| {
                    format!("method: '{}' is not layers, graph, alphabeta or proof", quoted(value))
                })?)
            }
            "threads" => threads = number()?.clamp(1, 64),
            "memory" => {
                let mib = number()?;
                if mib > MAX_MEMORY_MIB {
                    return Err(format!(
                        "memory: {mib} MiB is more than can be counted (at most {MAX_MEMORY_MIB})"
                    )
                    .into());
                }
                if mib == 0 {
                    return Err("memory: 0 MiB leaves nothing to solve with (at least 1)".to_string().into());
                }
                max_bytes = mib << 20;
            }
            "placed" => placed = Some(number()?),
            "seed" => seed = number()? as u64,
            "split" => {
                let plies = number()?;
                if plies > MAX_SPLIT_PLIES as usize {
                    return Err(format!("split: {plies} plies is more than {MAX_SPLIT_PLIES}").into());
                }
                split = Some(plies as u32);
            }
            "leaves" => leaves = Some(std::path::PathBuf::from(value)),
            "stage" => {
                stage = Some(match value {
                    "plan" | "values" | "combine" => value,
                    _ => {
                        return Err(
                            format!("stage: '{}' is not plan, values or combine", quoted(value)).into()
                        )
                    }
                })
            }
            "dir" => dir = Some(std::path::PathBuf::from(value)),
            "replace" => {
                replace = Some(match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("replace: '{}' is not true or false", quoted(value)).into()),
                })
            }
            "added" => added = Some(number()?),
            "part" => {
                let slice = value.split_once('/').and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)));
                part = match slice {
                    Some((i, n)) if i < n => Some((i, n)),
                    _ => return Err(format!("part: '{}' is not I/N with I below N", quoted(value)).into()),
                }
            }
            _ => return Err(format!("unknown key '{}'", quoted(name)).into()),
        }
    }
    let mut position = match text {
        Some(text) => AnyPosition::from_text(text).map_err(RequestError::Position)?,
        None => GameVariant::from_keys(variant_pairs).map_err(|e| e.to_string())?.start()?,
    };
    for (ply, text) in moves.iter().enumerate() {
        position.play_text(text).map_err(|e| format!("move {}: {e}", ply + 1))?;
    }
    if let Some(k) = placed {
        let AnyPosition::Quarto(quarto) = &position else {
            return Err(RequestError::Invalid("placed: only for Quarto".into()));
        };
        position = AnyPosition::Quarto(random_placements(quarto, k, seed)?);
    }
    if leaves.is_some() && split.is_none() {
        return Err(RequestError::Invalid(
            "leaves: needs split=P, the plies the sub-proofs are below".into(),
        ));
    }
    if stage.is_some() && split.is_some() {
        return Err(RequestError::Invalid(
            "split= and stage= are two ways to spread a solve; give one".into(),
        ));
    }
    let stage = staged(&position, method, stage, dir, (added, part, replace))?;
    Ok(SolveRequest { position, method, threads, max_bytes, split, leaves, stage })
}

/// The stage keys checked together: `stage=` needs `dir=`,
/// `stage=values` needs `added=` and `part=`, `replace=` goes with
/// `stage=plan`; none of them goes without `stage=`, and stages are for
/// two-player Quoridor by layers.
fn staged(
    position: &AnyPosition,
    method: Option<Method>,
    stage: Option<&str>,
    dir: Option<std::path::PathBuf>,
    (added, part, replace): (Option<usize>, Option<(usize, usize)>, Option<bool>),
) -> Result<Option<(Stage, std::path::PathBuf)>, RequestError> {
    let Some(stage) = stage else {
        if dir.is_some() || added.is_some() || part.is_some() || replace.is_some() {
            return Err(RequestError::Invalid("dir=, added=, part= and replace= go with stage=".into()));
        }
        return Ok(None);
    };
    if replace.is_some() && stage != "plan" {
        return Err(RequestError::Invalid("replace= goes with stage=plan only".into()));
    }
    let layered = matches!(position, AnyPosition::Quoridor(q) if crate::solve::layers::applies(q));
    if !layered || method.is_some_and(|m| m != Method::Layers) {
        return Err(RequestError::Invalid(
            "stage: only the layered method (two-player Quoridor, at most 64 squares) runs in stages".into(),
        ));
    }
    let dir =
        dir.ok_or_else(|| RequestError::Invalid("stage: needs dir=DIR, shared by the stages".into()))?;
    let stage = match (stage, added, part) {
        ("plan", None, None) => Stage::Plan { replace: replace.unwrap_or(false) },
        ("combine", None, None) => Stage::Combine,
        ("values", Some(added), Some((part, parts))) => Stage::Values { added, part, parts },
        ("values", _, _) => {
            return Err(RequestError::Invalid("stage=values needs added=K and part=I/N".into()))
        }
        _ => return Err(RequestError::Invalid("added= and part= go with stage=values only".into())),
    };
    Ok(Some((stage, dir)))
}

/// Random moves from `start` (none that ends the game or gives away a
/// piece that wins at once) until `placed`
/// pieces are on the board; the first seed from `seed` on that gets there.
fn random_placements(start: &Quarto, placed: usize, seed: u64) -> Result<Quarto, String> {
    let squares = start.rules().squares();
    let on_board = |q: &Quarto| squares - q.empty_squares().count_ones() as usize;
    if placed >= squares || placed < on_board(start) {
        return Err(format!("placed: {placed} is not between {} and {}", on_board(start), squares - 1));
    }
    'attempt: for attempt in 0..1000 {
        let mut rng = Rng::new(seed.wrapping_add(attempt));
        let mut position = start.clone();
        while on_board(&position) < placed || position.hand().is_none() {
            let mut moves = MoveList::default();
            position.generate_moves(&mut moves);
            let quiet: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut child = position.clone();
                    child.make_move(mv);
                    // Nor one that hands the opponent a piece that wins at once.
                    let gift = child.hand().is_some_and(|h| child.pieces_that_win_now() >> h & 1 == 1);
                    child.outcome().is_none() && !gift
                })
                .collect();
            if quiet.is_empty() {
                continue 'attempt;
            }
            let mv = *rng.pick(&quiet);
            position.make_move(mv);
        }
        return Ok(position);
    }
    Err(format!("placed: no game reaches {placed} pieces"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn keys_name_the_variant_and_moves_follow() {
        let p =
            parse_request(&args("width=3 height=5 walls=2 method=graph threads=3 moves b2")).expect("3x5");
        let default = crate::solve::memory::default_limit();
        assert_eq!((p.method, p.threads, p.max_bytes), (Some(Method::Graph), 3, default));
        assert_eq!(p.position.to_text(), "quoridor 3x5 pawns=b2,b5 hand=2,2 walls=- turn=2 jumps=single");
        let q = parse_request(&args("game=quarto board=3x3 memory=100")).expect("3x3 Quarto");
        assert_eq!(q.max_bytes, 100 << 20);
        let most = parse_request(&args("memory=17592186044415")).expect("2^44 - 1 MiB fits");
        assert_eq!(most.max_bytes, usize::MAX >> 20 << 20);
        let k = parse_request(&args("game=quarto level=2 placed=9 seed=4")).expect("9 placed");
        let AnyPosition::Quarto(nine) = &k.position else { panic!("Quarto") };
        assert_eq!(nine.empty_squares().count_ones(), 7);
        assert!(nine.outcome().is_none() && nine.hand().is_some());
        assert!(parse_request(&args("placed=3")).is_err(), "Quoridor has no pieces");
        assert!(q.position.to_text().starts_with("quarto 3x3 level=1"));
        for bad in [
            "width=16",
            "game=chess",
            "board=5x5",
            "colour=red",
            "walls",
            "moves z9",
            "method=guess",
            "memory=x",
            "memory=17592186044416",
            "memory=18446744073709551616",
            "memory=0",
            "width=3 height=3 width=5",
            "walls=2 walls=2",
            "multijump=yes",
            "game=quarto width=5",
            "game=quarto walls=3",
            "level=2",
            "board=3x3",
        ] {
            assert!(parse_request(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_position_text_poses_any_start() {
        let text = "quoridor 4x7 pawns=b3,c5 hand=3,2 walls=a2h,c4v,b5h turn=2 jumps=single";
        let posed = |extra: &[&str]| {
            let mut line = vec![format!("position={text}")];
            line.extend(extra.iter().map(|s| s.to_string()));
            parse_request(&line)
        };
        let p = posed(&["method=graph"]).expect("a 4x7 position");
        assert_eq!((p.position.to_text(), p.method), (text.to_string(), Some(Method::Graph)));
        let after = posed(&["moves", "c4"]).expect("c4 from there");
        assert!(after.position.to_text().starts_with("quoridor 4x7 pawns=b3,c4 hand=3,2"));
        let quarto = parse_request(&[
            "position=quarto 3x3 level=1 board=.../.1./... hand=4 turn=1".to_string(),
            "placed=3".to_string(),
        ])
        .expect("Quarto from a text");
        let AnyPosition::Quarto(three) = &quarto.position else { panic!("Quarto") };
        assert_eq!(three.empty_squares().count_ones(), 6);
    }

    #[test]
    fn a_position_text_refuses_keys_that_also_say_where_to_start() {
        let position = "position=quoridor 4x4 pawns=b1,b4 hand=2,2 walls=- turn=1";
        let conflict = |first: &str, second: &str| {
            Err(RequestError::Conflict { first: first.to_string(), second: second.to_string() })
        };
        let request = |line: &[&str]| {
            parse_request(&line.iter().map(|s| s.to_string()).collect::<Vec<_>>())
                .map(|r| r.position.to_text())
        };
        assert_eq!(request(&[position, "walls=3"]), conflict("position", "walls"));
        assert_eq!(request(&["width=4", "height=5", position]), conflict("width", "position"));
        assert_eq!(request(&["game=quarto", position]), conflict("game", "position"));
        assert_eq!(request(&[position, position]), conflict("position", "position"));
        let refused = request(&[position, "walls=3"]).unwrap_err().to_string();
        assert!(refused.contains("position= and walls= both say where to start"), "{refused}");
        // A text split by the shell: the rest reads as bare words.
        let split = request(&["position=quoridor", "4x4", "pawns=b1,b4"]).unwrap_err().to_string();
        assert!(split.contains("'4x4' is not KEY=VALUE; give the position text as one argument"), "{split}");
        assert!(matches!(request(&["position=quoridor 4x4 pawns=b1"]), Err(RequestError::Position(_))));
        assert!(matches!(request(&["position=chess 8x8"]), Err(RequestError::Position(_))));
    }
}
