//! A new game from the page's form: the variant (the same keys as arena's
//! `-variant`), the time control (`tc`, arena's `tc=` forms or `inf`) and
//! who plays each seat.

use crate::clock::{Clocks, TimeControl};
use crate::table::{Seat, Table};
use arena::setup::GameVariant;

/// Time per move of an engine seat when the form gives none.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Longest time per move the page offers.
const MAX_MOVETIME_MS: u64 = 600_000;

type Fields = [(String, String)];

fn field<'a>(fields: &'a Fields, name: &str) -> Option<&'a str> {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str().trim())
}

fn number<T: std::str::FromStr>(fields: &Fields, name: &str, default: T) -> Result<T, String> {
    match field(fields, name) {
        None | Some("") => Ok(default),
        Some(text) => text.parse().map_err(|_| format!("{name}: '{}' is not a number", quoted(text))),
    }
}

fn quoted(text: &str) -> String {
    tabula::protocol::parse::quoted(text)
}

/// The variant from `game`, `width`, `height`, `walls`, `players`,
/// `multijump` (Quoridor) or `board`, `level` (Quarto), read by the engine
/// library's one reader of variants: the same values and refusals as
/// arena's `-variant` and `tabula solve`. A field left empty is not given
/// (its default holds); the page sends the fields of the chosen game only.
pub fn variant_from_fields(fields: &Fields) -> Result<GameVariant, String> {
    let keys = tabula::games::variant::KEYS;
    let given =
        fields.iter().map(|(k, v)| (k.as_str(), v.trim())).filter(|(k, v)| keys.contains(k) && !v.is_empty());
    GameVariant::from_keys(given).map_err(|e| e.to_string())
}

/// Seat `index` (0-based) from `seatN` (`human` or `engine`), `levelN`
/// (1..=10, or `full`) and `movetimeN` (milliseconds), N counted from 1.
fn seat(fields: &Fields, index: usize) -> Result<Seat, String> {
    let n = index + 1;
    match field(fields, &format!("seat{n}")).unwrap_or("human") {
        "human" => Ok(Seat::Human),
        "engine" => {
            let level = match field(fields, &format!("level{n}")) {
                None | Some("" | "full") => None,
                Some(text) => match text.parse::<u32>() {
                    Ok(level @ 1..=10) => Some(level),
                    _ => return Err(format!("level{n}: '{}' is not a level 1..10", quoted(text))),
                },
            };
            let movetime_ms = number(fields, &format!("movetime{n}"), DEFAULT_MOVETIME_MS)?;
            if !(1..=MAX_MOVETIME_MS).contains(&movetime_ms) {
                return Err(format!("movetime{n}: {movetime_ms} ms is not in 1..={MAX_MOVETIME_MS}"));
            }
            Ok(Seat::Engine { level, movetime_ms })
        }
        other => Err(format!("seat{n}: '{}' is not human or engine", quoted(other))),
    }
}

/// A fresh table from the whole form; a clock starts at once.
pub fn new_table(fields: &Fields) -> Result<Table, String> {
    let variant = variant_from_fields(fields)?;
    let seats = (0..variant.players()).map(|i| seat(fields, i)).collect::<Result<Vec<_>, _>>()?;
    let control = TimeControl::parse(field(fields, "tc").unwrap_or("inf"))?;
    let mut table = Table::new(variant, seats)?;
    table.clock = control.map(|c| Clocks::new(c, table.variant.players()));
    table.rated = matches!(field(fields, "rated"), Some("true" | "on" | "1"));
    table.run_clock(std::time::Instant::now());
    Ok(table)
}

/// One seat changed during a game: `index` (1-based) and that seat's fields.
pub fn seat_from_fields(fields: &Fields) -> Result<(usize, Seat), String> {
    let n: usize = number(fields, "index", 0)?;
    let index = n.checked_sub(1).ok_or("index: seats are counted from 1")?;
    Ok((index, seat(fields, index)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<(String, String)> {
        crate::json::form_fields(text)
    }

    #[test]
    fn forms_give_variants_and_seats() {
        let table =
            new_table(&fields("game=quoridor&width=5&height=7&walls=3&seat2=engine&level2=1&movetime2=50"))
                .expect("a 5x7 game");
        assert_eq!(table.variant.describe(), "quoridor 5x7 walls=3 players=2");
        assert_eq!(table.seats, [Seat::Human, Seat::Engine { level: Some(1), movetime_ms: 50 }]);
        let table = new_table(&fields("game=quarto&board=4x4&level=2&seat1=engine")).expect("Quarto level 2");
        assert_eq!(table.variant.describe(), "quarto 4x4 level=2");
        assert_eq!(table.seats[0], Seat::Engine { level: None, movetime_ms: DEFAULT_MOVETIME_MS });
        assert_eq!(new_table(&fields("players=4")).expect("four players").seats.len(), 4);
        assert!(new_table(&fields("tc=inf")).expect("no clock").clock.is_none());
        let clocked = new_table(&fields("tc=60%2B0.5")).expect("a clock");
        let clock = clocked.clock.as_ref().expect("tc=60+0.5");
        assert_eq!((clock.control.describe(), clock.running()), ("60+0.5".to_string(), Some(0)));
        // Even widths: two players start just left of the centre.
        let table = new_table(&fields("width=4&height=7&walls=5")).expect("a 4x7 game");
        assert_eq!(table.variant.describe(), "quoridor 4x7 walls=5 players=2");
        let start = table.variant.start().expect("the start").to_text();
        assert!(start.starts_with("quoridor 4x7 pawns=b1,b7 "), "{start}");
    }

    #[test]
    fn bad_forms_are_refused_with_the_field_named() {
        for (form, named) in [
            ("width=99", "15"),
            ("width=1", "2..=15"),
            ("width=x", "width"),
            ("width=4&height=4&players=4", "odd sides"),
            ("game=chess", "game"),
            ("game=quarto&board=5x5", "board"),
            ("game=quarto&board=3x3&level=2", "level"),
            ("seat1=robot", "seat1"),
            ("seat1=engine&level1=11", "level1"),
            ("seat2=engine&movetime2=0", "movetime2"),
            ("tc=fast", "tc"),
            ("tc=0%2B1", "tc"),
        ] {
            let refused = new_table(&fields(form)).err().unwrap_or_else(|| panic!("{form} was taken"));
            assert!(refused.contains(named), "{form}: {refused}");
        }
        assert!(seat_from_fields(&fields("index=0&seat0=human")).is_err());
    }
}
