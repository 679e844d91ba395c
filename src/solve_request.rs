//! The arguments of `tabula solve`: the game and variant with the same keys
//! as arena's `-variant` (`game=quoridor width=5 height=5 walls=2
//! players=2 multijump=false`, `game=quarto board=4x4 level=2`), then
//! optionally `moves M1 M2 ...` played from the start; and how to solve:
//! `method=layers|graph|alphabeta`, `threads=N`, `memory=MIB`. For Quarto,
//! `placed=K seed=S` goes on from there with random moves (seeded, none
//! that ends the game or hands over a piece that wins at once) until K
//! pieces are on the board: the positions the
//! README's table by pieces placed is made of.

use crate::game::MoveList;
use crate::game::Position;
use crate::games::quarto::{Quarto, Rules};
use crate::games::quoridor::{Quoridor, Variant};
use crate::games::AnyPosition;
use crate::protocol::parse::quoted;
use crate::rng::Rng;
use crate::solve::Method;

/// What `tabula solve` was asked.
pub struct SolveRequest {
    /// The position to solve.
    pub position: AnyPosition,
    /// `None`: the best method for the game.
    pub method: Option<Method>,
    /// Threads the layered method may use.
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
    let (mut placed, mut seed) = (None, 1u64);
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
            "placed" => placed = Some(number()?),
            "seed" => seed = number()? as u64,
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
    if let Some(k) = placed {
        let AnyPosition::Quarto(quarto) = &position else {
            return Err("placed: only for Quarto".into());
        };
        position = AnyPosition::Quarto(random_placements(quarto, k, seed)?);
    }
    Ok(SolveRequest { position, method, threads, memory_mib })
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
        assert_eq!((p.method, p.threads, p.memory_mib), (Some(Method::Graph), 3, DEFAULT_MEMORY_MIB));
        assert_eq!(p.position.to_text(), "quoridor 3x5 pawns=b2,b5 hand=2,2 walls=- turn=2 jumps=single");
        let q = parse_request(&args("game=quarto board=3x3 memory=100")).expect("3x3 Quarto");
        assert_eq!(q.memory_mib, 100);
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
        ] {
            assert!(parse_request(&args(bad)).is_err(), "{bad}");
        }
    }
}
