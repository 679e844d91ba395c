//! The arguments of `tabula solve`: the game and variant with the same keys
//! as arena's `-variant` (`game=quoridor width=5 height=5 walls=2
//! players=2 multijump=false`, `game=quarto board=4x4 level=2`), then
//! optionally `moves M1 M2 ...` played from the start; and how to solve:
//! `method=layers|graph|alphabeta`, `threads=N`, `memory=MIB`.

use crate::games::quarto::{Quarto, Rules};
use crate::games::quoridor::{Quoridor, Variant};
use crate::games::AnyPosition;
use crate::protocol::parse::quoted;
use crate::solve::Method;

/// What `tabula solve` was asked.
pub struct SolveRequest {
    pub position: AnyPosition,
    /// `None`: the best method for the game.
    pub method: Option<Method>,
    pub threads: usize,
    /// The memory limit in MiB.
    pub memory_mib: usize,
}

/// The default memory limit: most of this 24 GiB machine's kind.
pub const DEFAULT_MEMORY_MIB: usize = 16 * 1024;

/// The request, or why the arguments do not name one.
pub fn parse_request(args: &[String]) -> Result<SolveRequest, String> {
    let split = args.iter().position(|a| a == "moves").unwrap_or(args.len());
    let (keys, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let mut game = "quoridor".to_string();
    let mut variant = Variant::default();
    let mut rules = Rules::default();
    let mut method = None;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut memory_mib = DEFAULT_MEMORY_MIB;
    for key in keys {
        let (name, value) =
            key.split_once('=').ok_or_else(|| format!("'{}' is not KEY=VALUE", quoted(key)))?;
        let number =
            || value.parse::<usize>().map_err(|_| format!("{name}: '{}' is not a number", quoted(value)));
        match name {
            "game" => game = value.to_ascii_lowercase(),
            "width" => variant.width = number()?,
            "height" => variant.height = number()?,
            "walls" => variant.walls = number()?,
            "players" => variant.players = number()?,
            "multijump" => variant.multi_jump = value == "true",
            "level" => rules.level = number()?,
            "board" => {
                rules.side = match value {
                    "4x4" => 4,
                    "3x3" => 3,
                    _ => return Err(format!("board: '{}' is not 4x4 or 3x3", quoted(value))),
                }
            }
            "method" => {
                method = Some(Method::parse(value).ok_or_else(|| {
                    format!("method: '{}' is not layers, graph or alphabeta", quoted(value))
                })?)
            }
            "threads" => threads = number()?.clamp(1, 64),
            "memory" => memory_mib = number()?.max(1),
            _ => return Err(format!("unknown key '{}'", quoted(name))),
        }
    }
    let mut position = match game.as_str() {
        "quoridor" => AnyPosition::Quoridor(Quoridor::new(&variant).map_err(|e| e.to_string())?),
        "quarto" => AnyPosition::Quarto(Quarto::new(rules).map_err(|e| e.to_string())?),
        _ => return Err(format!("game: '{}' is not quoridor or quarto", quoted(&game))),
    };
    for (ply, text) in moves.iter().enumerate() {
        position.play_text(text).map_err(|e| format!("move {}: {e}", ply + 1))?;
    }
    Ok(SolveRequest { position, method, threads, memory_mib })
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
        assert_eq!((p.method, p.threads, p.memory_mib), (Some(Method::Graph), 3, DEFAULT_MEMORY_MIB));
        assert_eq!(p.position.to_text(), "quoridor 3x5 pawns=b2,b5 hand=2,2 walls=- turn=2 jumps=single");
        let q = parse_request(&args("game=quarto board=3x3 memory=100")).expect("3x3 Quarto");
        assert_eq!(q.memory_mib, 100);
        assert!(q.position.to_text().starts_with("quarto 3x3 level=1"));
        for bad in [
            "width=4",
            "game=chess",
            "board=5x5",
            "colour=red",
            "walls",
            "moves z9",
            "method=guess",
            "memory=x",
        ] {
            assert!(parse_request(&args(bad)).is_err(), "{bad}");
        }
    }
}
