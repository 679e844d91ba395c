//! The grammar every game's texts share, written with `nom`: the words of a
//! position text, its `key=value` fields, comma lists, board sizes, square
//! names and numbers. Each game's notation builds its moves from these
//! rules; a text is read only when a rule reads all of it ([`whole`]).

use nom::bytes::complete::{take_till, take_till1};
use nom::character::complete::{char, digit1, multispace0, satisfy};
use nom::combinator::{all_consuming, map, map_res, verify};
use nom::multi::{many0, separated_list1};
use nom::sequence::{pair, preceded, separated_pair};
use nom::IResult;

/// What every rule returns: the rest of the input and the value read.
pub type Parsed<'a, T> = IResult<&'a str, T>;

/// A square as read: its column and row, both from 0.
pub type Square = (usize, usize);

/// The value of `rule` when it reads the whole of `text`, else `None`.
pub fn whole<'a, T>(text: &'a str, rule: impl FnMut(&'a str) -> Parsed<'a, T>) -> Option<T> {
    all_consuming(rule)(text).ok().map(|(_, value)| value)
}

/// A word: a run of anything but blanks, after any blanks.
pub fn word(input: &str) -> Parsed<'_, &str> {
    preceded(multispace0, take_till1(char::is_whitespace))(input)
}

/// Every word of a text.
pub fn words(text: &str) -> Vec<&str> {
    many0(word)(text).map_or_else(|_| Vec::new(), |(_, words)| words)
}

/// A whole number written in digits only (no sign), of any length that fits.
pub fn number(input: &str) -> Parsed<'_, usize> {
    map_res(digit1, str::parse)(input)
}

/// A number of at most two digits, not starting with 0: a row (from 1) or a
/// side length.
pub fn short_number(input: &str) -> Parsed<'_, usize> {
    let digits = verify(digit1, |d: &str| d.len() <= 2 && !d.starts_with('0'));
    map_res(digits, str::parse)(input)
}

/// A board size `WxH`.
pub fn size(input: &str) -> Parsed<'_, (usize, usize)> {
    separated_pair(short_number, char('x'), short_number)(input)
}

/// A square name: a column letter (either case; `a` is 0) and a row number
/// (from 1), as (column, row from 0). The board's bounds are the caller's.
pub fn square(input: &str) -> Parsed<'_, Square> {
    let letter =
        map(satisfy(|c| c.is_ascii_alphabetic()), |c| (c.to_ascii_lowercase() as u8 - b'a') as usize);
    map(pair(letter, short_number), |(col, row)| (col, row - 1))(input)
}

/// The items of a comma-separated list, each as written (empty items too).
pub fn comma_list(text: &str) -> Vec<&str> {
    let item = take_till(|c| c == ',');
    whole(text, separated_list1(char(','), item)).unwrap_or_else(|| vec![text])
}

/// One `key=value` field: the key (no `=` or blank in it) and the value.
fn key_value(input: &str) -> Parsed<'_, (&str, &str)> {
    separated_pair(take_till1(|c| c == '='), char('='), take_till(|_| false))(input)
}

/// Why the fields could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// A token that is not `key=value` with a known key.
    Unknown(String),
    /// A field given twice.
    Duplicate(&'static str),
}

/// The value of each named field, in the order of `names`; `None` where a
/// field is absent. Fields may come in any order, each at most once.
pub fn read_fields<'a, const N: usize>(
    tokens: &[&'a str],
    names: [&'static str; N],
) -> Result<[Option<&'a str>; N], FieldError> {
    let mut fields = [None; N];
    for &token in tokens {
        let unknown = || FieldError::Unknown(token.to_string());
        let (key, value) = whole(token, key_value).ok_or_else(unknown)?;
        let slot = names.iter().position(|&n| n == key).ok_or_else(unknown)?;
        if fields[slot].replace(value).is_some() {
            return Err(FieldError::Duplicate(names[slot]));
        }
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_any_order_once_each() {
        let read = |text: &'static str| read_fields(&words(text), ["a", "b"]);
        assert_eq!(read("b=2 a=1"), Ok([Some("1"), Some("2")]));
        assert_eq!(read("a=1"), Ok([Some("1"), None]));
        assert_eq!(read("a= b=x=y"), Ok([Some(""), Some("x=y")]));
        assert_eq!(read("a=1 a=2"), Err(FieldError::Duplicate("a")));
        assert_eq!(read("c=1"), Err(FieldError::Unknown("c=1".into())));
        assert_eq!(read("a"), Err(FieldError::Unknown("a".into())));
        assert_eq!(read("=1"), Err(FieldError::Unknown("=1".into())));
    }

    #[test]
    fn the_small_rules() {
        assert_eq!(words("  quoridor\t9x9 a=1 "), ["quoridor", "9x9", "a=1"]);
        assert_eq!(whole("9x9", size), Some((9, 9)));
        assert_eq!(whole("15x3", size), Some((15, 3)));
        for bad in ["9x", "x9", "09x9", "100x9", "9x9x", "9 x9", ""] {
            assert_eq!(whole(bad, size), None, "{bad}");
        }
        assert_eq!(whole("E2", square), Some((4, 1)));
        assert_eq!(whole("o15", square), Some((14, 14)));
        for bad in ["e0", "e01", "e100", "2e", "é2", "e"] {
            assert_eq!(whole(bad, square), None, "{bad}");
        }
        assert_eq!(comma_list("e1,e9"), ["e1", "e9"]);
        assert_eq!(comma_list("e1,,e9,"), ["e1", "", "e9", ""]);
        assert_eq!(whole("010", number), Some(10));
        assert_eq!(whole("+1", number), None);
    }
}
