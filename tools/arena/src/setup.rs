//! What a match plays: the game variant (and the options that tell engines
//! about it), time controls, and openings.

use std::time::Duration;
use tabula::game::Position;
use tabula::games::quarto::Quarto;
use tabula::games::quoridor::Quoridor;
use tabula::games::AnyPosition;

/// The game and its rules: the engine library's, read by its one reader.
pub use tabula::games::variant::GameVariant;

/// How long an engine may think.
#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    /// `moves/seconds+increment`: a clock refilled every `moves` moves.
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    MoveTime(Duration),
    Nodes(u64),
    Depth(u32),
}

impl Default for Limit {
    fn default() -> Self {
        Limit::MoveTime(Duration::from_millis(100))
    }
}

impl Limit {
    /// Reads `tc=` clocks, cutechess-cli's `[moves/]time[+increment]`:
    /// `10+0.1`, `40/60+0.6` (40 moves in 60 s, then again, 0.6 s a move
    /// added), `0.5`, and the time also as `minutes:seconds` (`40/1:30`).
    /// `inf` is not a clock (see the `tc=inf` setting).
    pub fn parse_clock(text: &str) -> Result<Limit, String> {
        let bad = || format!("time control '{text}' is not [moves/]seconds[+increment]");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b, i),
            None => (rest, "0"),
        };
        let seconds = |s: &str| -> Result<f64, String> {
            let value: f64 = s.parse().map_err(|_| bad())?;
            if !value.is_finite() || value < 0.0 {
                return Err(bad());
            }
            Ok(value)
        };
        let base = match base.split_once(':') {
            Some((minutes, secs)) if !minutes.contains(['.', '-', '+']) => {
                seconds(minutes)? * 60.0 + seconds(secs)?
            }
            Some(_) => return Err(bad()),
            None => seconds(base)?,
        };
        let duration = |s: f64| Duration::try_from_secs_f64(s).map_err(|_| bad());
        let (base, increment) = (duration(base)?, duration(seconds(increment)?)?);
        if base.is_zero() || moves == Some(0) {
            return Err(bad());
        }
        Ok(Limit::Clock { moves, base, increment })
    }

    pub fn describe(&self) -> String {
        match self {
            Limit::Clock { moves, base, increment } => {
                let moves = moves.map_or(String::new(), |m| format!("{m}/"));
                format!("{moves}{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limit::MoveTime(t) => format!("st={}", t.as_secs_f64()),
            Limit::Nodes(n) => format!("nodes={n}"),
            Limit::Depth(d) => format!("depth={d}"),
        }
    }
}

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A position text, or `None` for the start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// 1-based game number.
    pub number: usize,
    /// Engine index in each seat.
    pub seats: Vec<usize>,
    pub opening: Opening,
    /// Games with the same group number form a pair (or a rotation) played
    /// from the same opening with seats exchanged.
    pub group: usize,
}

/// Reads an openings file: one opening per line, either a position text
/// (starting with the game's name) or a list of moves from the start;
/// blank lines and `#` comments are skipped. Every opening is checked.
pub fn read_openings(text: &str, variant: &GameVariant) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = if line.starts_with("quoridor") || line.starts_with("quarto") {
            let (fen, moves) = match line.split_once(" moves ") {
                Some((fen, moves)) => (fen, moves.split_whitespace().map(String::from).collect()),
                None => (line, Vec::new()),
            };
            Opening { fen: Some(fen.to_string()), moves }
        } else {
            Opening { fen: None, moves: line.split_whitespace().map(String::from).collect() }
        };
        opening_position(&opening, variant)
            .map_err(|e| format!("openings line {}: {}", number + 1, shortened(&e)))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(openings)
}

/// The position an opening leads to, with the hashes of the positions before
/// it since the last irreversible move.
pub fn opening_position(opening: &Opening, variant: &GameVariant) -> Result<(AnyPosition, Vec<u64>), String> {
    let mut position = match &opening.fen {
        None => variant.start()?,
        Some(text) => match text.split_whitespace().next() {
            Some("quoridor") => {
                Quoridor::from_text(text).map(AnyPosition::Quoridor).map_err(|e| e.to_string())?
            }
            Some("quarto") => Quarto::from_text(text).map(AnyPosition::Quarto).map_err(|e| e.to_string())?,
            _ => return Err(format!("'{text}' is not a position text")),
        },
    };
    let fits = match (variant, &position) {
        (GameVariant::Quoridor(v), AnyPosition::Quoridor(q)) => {
            (q.width(), q.height(), q.player_count(), q.multi_jump())
                == (v.width, v.height, v.players, v.multi_jump)
        }
        (GameVariant::Quarto(r), AnyPosition::Quarto(q)) => q.rules() == *r,
        _ => false,
    };
    if !fits {
        return Err(format!("the opening is not a position of {}", variant.describe()));
    }
    let mut history = Vec::new();
    for text in &opening.moves {
        let hash = position.hash();
        if position.play_text(text).map_err(|e| e.to_string())? {
            history.clear();
        } else {
            history.push(hash);
        }
    }
    if position.outcome().is_some() {
        return Err(OPENING_ENDS_GAME.into());
    }
    Ok((position, history))
}

/// Why an opening that leaves no game to play is refused.
pub const OPENING_ENDS_GAME: &str = "the opening ends the game";

/// The longest message [`shortened`] gives, in characters.
const MESSAGE_CHARS: usize = 300;

/// An error message fit to print when it may quote what a file or an engine
/// wrote: every word cut to [`tabula::protocol::parse::QUOTED_CHARS`]
/// characters (marked `...`, a closing quote kept), as the engine quotes, and
/// the whole to `MESSAGE_CHARS`.
pub fn shortened(message: &str) -> String {
    let mut out = String::new();
    for (i, piece) in message.split(char::is_whitespace).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let cut = tabula::protocol::parse::quoted(piece);
        out.push_str(&cut);
        if cut.len() < piece.len() && piece.ends_with('\'') {
            out.push('\'');
        }
        if out.len() > MESSAGE_CHARS {
            break;
        }
    }
    match out.char_indices().nth(MESSAGE_CHARS) {
        Some((end, _)) => format!("{}...", &out[..end]),
        None => out,
    }
}

/// `plies` random legal moves from the start (never ending the game),
/// reproducible from `seed`.
pub fn random_opening(variant: &GameVariant, plies: usize, seed: u64) -> Result<Opening, String> {
    let mut rng = tabula::rng::Rng::new(seed);
    for _attempt in 0..100 {
        let mut position = variant.start()?;
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = position.legal_move_names();
            let choice = legal[rng.index(legal.len().max(1))].clone();
            position.play_text(&choice).map_err(|e| e.to_string())?;
            moves.push(choice);
            if position.outcome().is_some() {
                break;
            }
        }
        if position.outcome().is_none() {
            return Ok(Opening { fen: None, moves });
        }
    }
    Err(format!("no random opening of {plies} plies that leaves the game open"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse() {
        let ms = Duration::from_millis;
        assert_eq!(
            Limit::parse_clock("10+0.1"),
            Ok(Limit::Clock { moves: None, base: ms(10_000), increment: ms(100) })
        );
        assert_eq!(
            Limit::parse_clock("40/10"),
            Ok(Limit::Clock { moves: Some(40), base: ms(10_000), increment: ms(0) })
        );
        assert_eq!(
            Limit::parse_clock("40/60+0.6"),
            Ok(Limit::Clock { moves: Some(40), base: ms(60_000), increment: ms(600) })
        );
        assert_eq!(
            Limit::parse_clock("40/1:30.5+1"),
            Ok(Limit::Clock { moves: Some(40), base: ms(90_500), increment: ms(1000) })
        );
        for bad in ["inf", "1:", ":30", "1.5:00", "-1:00", "1:-5", "40/", "/10", "1e30", "10+1e30"] {
            assert!(Limit::parse_clock(bad).is_err(), "{bad}");
        }
        assert!(Limit::parse_clock("0+1").is_err());
        assert!(Limit::parse_clock("-1").is_err());
    }

    #[test]
    fn openings_are_checked() {
        let v = GameVariant::default();
        assert_eq!(read_openings("e2 e8\n# c\n\n", &v).unwrap().len(), 1);
        assert!(read_openings("e2 e2", &v).is_err());
        let fen = "quoridor 9x9 pawns=e3,e7 hand=10,10 walls=- turn=1 moves e4";
        assert_eq!(read_openings(fen, &v).unwrap()[0].moves, ["e4"]);
        assert!(read_openings("quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1", &v).is_err());
        // Another size, another player count, another jump rule: refused.
        assert!(read_openings("quoridor 5x5 pawns=c1,c5 hand=0,0 walls=- turn=1", &v).is_err());
        assert!(read_openings("quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1", &v).is_err());
        assert!(read_openings("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 jumps=multi", &v).is_err());
        // A word of a megabyte is quoted by its first 80 characters.
        let huge = format!("e2 {}", "x".repeat(1 << 20));
        let refused = read_openings(&huge, &v).expect_err("not a move");
        assert_eq!(refused, format!("openings line 1: '{}...' is not a move", "x".repeat(79)));
        let many = format!("quoridor {}", "x ".repeat(1 << 20));
        assert!(read_openings(&many, &v).expect_err("not a position").len() < 310);
        let random = random_opening(&v, 6, 3).unwrap();
        assert_eq!(random.moves.len(), 6);
        assert_eq!(random_opening(&v, 6, 3).unwrap(), random);
    }
}
