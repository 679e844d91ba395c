//! Just enough JSON to describe a table to the page, and the form encoding
//! the page posts (`application/x-www-form-urlencoded`).

/// A JSON value under construction, written as text as it grows.
pub enum Json {
    Null,
    Bool(bool),
    Number(i64),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    pub fn text(s: impl Into<String>) -> Json {
        Json::Text(s.into())
    }

    pub fn texts<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Json {
        Json::List(items.into_iter().map(|s| Json::text(s.as_ref())).collect())
    }

    pub fn option<T>(value: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
        value.map_or(Json::Null, f)
    }

    pub fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(&n.to_string()),
            Json::Text(s) => write_string(s, out),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

impl std::fmt::Display for Json {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Also `<`, so that no text can close a <script> it is put in.
            c if (c as u32) < 0x20 || c == '<' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The fields of a form body (or query string), decoded.
pub fn form_fields(body: &str) -> Vec<(String, String)> {
    body.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// `+` is a space and `%XX` a byte; bytes that are not UTF-8 become U+FFFD.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() && hex_byte(&bytes[i + 1..i + 3]).is_some() => {
                out.extend(hex_byte(&bytes[i + 1..i + 3]));
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_byte(two: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(two).ok()?;
    u8::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_json() {
        let value = Json::Object(vec![
            ("a", Json::Number(-3)),
            ("b", Json::texts(["x\"y", "</script>\n"])),
            ("c", Json::List(vec![Json::Null, Json::Object(Vec::new())])),
        ]);
        assert_eq!(value.to_string(), r#"{"a":-3,"b":["x\"y","\u003c/script>\n"],"c":[null,{}]}"#);
    }

    #[test]
    fn form_bodies_are_decoded() {
        let fields = form_fields("move=e2&text=quoridor+5x5%20pawns%3Dc1&bad=%zz%4&empty=&flag");
        let expected = [
            ("move", "e2"),
            ("text", "quoridor 5x5 pawns=c1"),
            ("bad", "%zz%4"),
            ("empty", ""),
            ("flag", ""),
        ];
        let expected: Vec<(String, String)> =
            expected.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(fields, expected);
    }
}
