//! Which requests the board obeys. Whoever reaches the board can start
//! engine processes here, so a page from elsewhere must not drive it through
//! the player's browser: a request must name the board itself as its `Host`
//! (`localhost` or an IP address, with the port served: a name that points at
//! the board only after a DNS rebinding is refused), and a request that
//! changes anything (a POST) must not come from a page of another origin
//! (`Origin`, `Sec-Fetch-Site`). A refusal is answered 403 with the reason.

use tiny_http::Request;

/// The headers of a request the guard looks at.
#[derive(Clone, Copy, Debug, Default)]
pub struct Headers<'a> {
    pub host: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub fetch_site: Option<&'a str>,
}

impl<'a> Headers<'a> {
    pub fn of(request: &'a Request) -> Headers<'a> {
        let find = |name: &'static str| {
            request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str())
        };
        Headers { host: find("Host"), origin: find("Origin"), fetch_site: find("Sec-Fetch-Site") }
    }
}

/// Why a request is refused, or `None` when the board obeys it. `port` is
/// the port served; `changes` says whether the request changes the game.
pub fn refusal(headers: Headers, port: u16, changes: bool) -> Option<String> {
    let quoted = tabula::protocol::parse::quoted;
    let Some(host) = headers.host.map(str::trim) else {
        return Some("refused: the request names no Host".into());
    };
    if !is_this_board(host, port) {
        return Some(format!(
            "refused: Host '{}' is not this board (localhost:{port} or an IP address with port {port})",
            quoted(host)
        ));
    }
    if !changes {
        return None;
    }
    if let Some(site) = headers.fetch_site.map(str::trim) {
        if !matches!(site, "same-origin" | "none") {
            return Some(format!("refused: a request from another site (Sec-Fetch-Site: {})", quoted(site)));
        }
    }
    match headers.origin.map(str::trim) {
        Some(origin) if origin != format!("http://{host}") => {
            Some(format!("refused: a request from the page of another origin ({})", quoted(origin)))
        }
        _ => None,
    }
}

/// `localhost:PORT` or `IP:PORT` (`[IPv6]:PORT`); without the port only when
/// it is 80, as browsers write it.
fn is_this_board(host: &str, port: u16) -> bool {
    let (name, given) = match host.rsplit_once(':').filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit())) {
        Some((name, digits)) if !name.ends_with(':') => (name, digits.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if given != Some(port) {
        return false;
    }
    let bare = name.strip_prefix('[').and_then(|n| n.strip_suffix(']'));
    match bare {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asks(host: &str, origin: Option<&str>, site: Option<&str>, changes: bool) -> Option<String> {
        refusal(Headers { host: Some(host), origin, fetch_site: site }, 8080, changes)
    }

    #[test]
    fn only_the_board_itself_is_a_host() {
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080", "192.168.1.5:8080"] {
            assert_eq!(asks(host, None, None, false), None, "{host}");
        }
        for host in ["attacker.example:8080", "attacker.example", "127.0.0.1:9090", "127.0.0.1", "[::1]", ""]
        {
            let refused = asks(host, None, None, false).unwrap_or_else(|| panic!("{host} was obeyed"));
            assert!(refused.starts_with("refused: Host"), "{refused}");
        }
        assert!(refusal(Headers::default(), 8080, false).is_some(), "no Host");
        assert_eq!(refusal(Headers { host: Some("localhost"), ..Headers::default() }, 80, false), None);
    }

    #[test]
    fn changes_come_only_from_the_board_page() {
        let host = "127.0.0.1:8080";
        assert_eq!(asks(host, Some("http://127.0.0.1:8080"), Some("same-origin"), true), None);
        assert_eq!(asks(host, None, None, true), None, "no browser: no Origin");
        for (origin, site) in [
            (Some("http://evil.example"), None),
            (Some("null"), None),
            (Some("http://localhost:8080"), None),
            (None, Some("cross-site")),
            (None, Some("same-site")),
        ] {
            let refused =
                asks(host, origin, site, true).unwrap_or_else(|| panic!("{origin:?} {site:?} obeyed"));
            assert!(refused.contains("another"), "{refused}");
        }
        // Reading is no change: another origin cannot read the answer anyway.
        assert_eq!(asks(host, Some("http://evil.example"), Some("cross-site"), false), None);
    }
}
