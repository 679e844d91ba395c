//! The arguments of `tabula solve`: the game and variant with the same keys
//! as arena's `-variant` (`game=quoridor width=5 height=5 walls=2
//! players=2 multijump=false`, `game=quarto board=4x4 level=2`), then
//! optionally `moves M1 M2 ...` played from the start.

use crate::games::quarto::{Quarto, Rules};
use crate::games::quoridor::{Quoridor, Variant};
use crate::games::AnyPosition;
use crate::protocol::parse::quoted;

/// The position to solve, or why the arguments do not name one.
pub fn start_position(args: &[String]) -> Result<AnyPosition, String> {
    let split = args.iter().position(|a| a == "moves").unwrap_or(args.len());
    let (keys, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
    let mut game = "quoridor".to_string();
    let mut variant = Variant::default();
    let mut rules = Rules::default();
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
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn keys_name_the_variant_and_moves_follow() {
        let p = start_position(&args("width=3 height=5 walls=2 moves b2")).expect("3x5");
        assert_eq!(p.to_text(), "quoridor 3x5 pawns=b2,b5 hand=2,2 walls=- turn=2 jumps=single");
        let q = start_position(&args("game=quarto board=3x3")).expect("3x3 Quarto");
        assert!(q.to_text().starts_with("quarto 3x3 level=1"));
        for bad in ["width=4", "game=chess", "board=5x5", "colour=red", "walls", "moves z9"] {
            assert!(start_position(&args(bad)).is_err(), "{bad}");
        }
    }
}
