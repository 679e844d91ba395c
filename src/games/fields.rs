//! The `key=value` fields that follow the game and size words of a position
//! text, shared by every game's reader.

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
    tokens: impl Iterator<Item = &'a str>,
    names: [&'static str; N],
) -> Result<[Option<&'a str>; N], FieldError> {
    let mut fields = [None; N];
    for token in tokens {
        let unknown = || FieldError::Unknown(token.to_string());
        let (key, value) = token.split_once('=').ok_or_else(unknown)?;
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
        let read = |text: &'static str| read_fields(text.split_whitespace(), ["a", "b"]);
        assert_eq!(read("b=2 a=1"), Ok([Some("1"), Some("2")]));
        assert_eq!(read("a=1"), Ok([Some("1"), None]));
        assert_eq!(read("a=1 a=2"), Err(FieldError::Duplicate("a")));
        assert_eq!(read("c=1"), Err(FieldError::Unknown("c=1".into())));
        assert_eq!(read("a"), Err(FieldError::Unknown("a".into())));
    }
}
