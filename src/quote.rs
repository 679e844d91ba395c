//! Quoting outside input back in messages: at most a fixed number of its
//! characters, so that a megabyte of input never becomes a megabyte of
//! error. A leaf that the rules, the solvers and the protocol all use.

/// At most this many characters of the input are quoted back in a message.
pub const QUOTED_CHARS: usize = 80;

/// `text` cut to [`QUOTED_CHARS`] characters, marked when cut.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}
