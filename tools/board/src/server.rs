//! The HTTP side: serves the page (everything it loads is built into the
//! binary, each file by its name), a stream of table views as server-sent
//! events, the board after any earlier ply (`/position?ply=N`), and the
//! actions the page posts as forms. Each request runs on a thread of its own, once
//! [`crate::guard`] has let it through. What it answers is bounded: a refusal
//! quotes at most 80 characters of a word, an event stream holds one view.

use crate::guard::{refusal, Headers};
use crate::json::form_fields;
use crate::setup::{new_table, seat_from_fields};
use crate::shared::Shared;
use arena::setup::shortened;
use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response};

const PAGE: &str = include_str!("../assets/index.html");
const STYLE: &str = include_str!("../assets/board.css");
/// The page's scripts, each served by its own name (and nothing else).
const SCRIPTS: [(&str, &str); 8] = [
    ("/setup.js", include_str!("../assets/setup.js")),
    ("/quoridor.js", include_str!("../assets/quoridor.js")),
    ("/quarto.js", include_str!("../assets/quarto.js")),
    ("/panels.js", include_str!("../assets/panels.js")),
    ("/moves.js", include_str!("../assets/moves.js")),
    ("/analysis.js", include_str!("../assets/analysis.js")),
    ("/review.js", include_str!("../assets/review.js")),
    ("/board.js", include_str!("../assets/board.js")),
];

/// The largest form the board reads (a long game record fits many times over).
const MAX_BODY: u64 = 4 << 20;
/// A comment line keeps an idle event stream open through proxies and tells
/// the server when the page has gone.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// Event streams open at once; more are answered 503 (a page has one).
const MAX_STREAMS: usize = 32;
/// How long an event may wait for its page to read it: then the page is
/// dropped, and the stream and its memory with it.
const STALLED: Duration = Duration::from_secs(5);

/// Answers requests until the process ends; `port` is the port served.
pub fn serve(server: tiny_http::Server, shared: Arc<Shared>, port: u16) {
    for request in server.incoming_requests() {
        let shared = shared.clone();
        std::thread::spawn(move || handle(request, &shared, port));
    }
}

fn handle(mut request: Request, shared: &Shared, port: u16) {
    let (path, query) = request.url().split_once('?').unwrap_or((request.url(), ""));
    let (path, query) = (path.to_string(), query.to_string());
    let method = request.method().clone();
    if let Some(why) = refusal(Headers::of(&request), port, method != Method::Get) {
        let _ = request.respond(failure(403, why));
        return;
    }
    let answer = match (method, path.as_str()) {
        (Method::Get, "/") => asset(PAGE, "text/html; charset=utf-8"),
        (Method::Get, "/board.css") => asset(STYLE, "text/css; charset=utf-8"),
        (Method::Get, script) if SCRIPTS.iter().any(|(name, _)| *name == script) => {
            let text = SCRIPTS.iter().find(|(name, _)| *name == script).map_or("", |(_, text)| text);
            asset(text, "text/javascript; charset=utf-8")
        }
        (Method::Get, "/state") => json(shared.lock().view().to_string()),
        (Method::Get, "/position") => {
            let fields = form_fields(&query);
            let ply = fields.iter().find(|(k, _)| k == "ply").and_then(|(_, v)| v.parse::<usize>().ok());
            match ply.map(|ply| shared.lock().view_at(ply)) {
                Some(Ok(view)) => json(view.to_string()),
                Some(Err(why)) => failure(422, why),
                None => failure(400, "position: give ply=N, a number of moves".into()),
            }
        }
        (Method::Get, "/record") => asset(&shared.lock().record(), "text/plain; charset=utf-8")
            .with_header(header("Content-Disposition", "attachment; filename=\"tabula-game.pgn\"")),
        (Method::Get, "/events") => return stream_events(request, shared),
        (Method::Post, action) => {
            let mut body = String::new();
            let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
            match read {
                Ok(_) => act(action, &form_fields(&body), shared),
                Err(e) => failure(400, format!("cannot read the form: {e}")),
            }
        }
        _ => failure(404, format!("no page {}", tabula::protocol::parse::quoted(&path))),
    };
    let _ = request.respond(answer);
}

/// Carries out a posted action; the answer is `ok` or why not (status 422),
/// and every page hears of the change through its event stream.
fn act(action: &str, fields: &[(String, String)], shared: &Shared) -> Response<std::io::Cursor<Vec<u8>>> {
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let done = match action {
        "/new" => new_table(fields).map(|table| {
            shared.update(|current| {
                let (version, generation, game) = (current.version, current.generation, current.game);
                *current = table;
                current.version = version;
                current.generation = generation;
                current.game = game + 1;
                current.touch(true);
            })
        }),
        "/move" => match field("move") {
            Some(text) => shared.update(|t| t.human_to_move().and_then(|()| t.play(text))),
            None => Err("no move given".into()),
        },
        "/undo" => shared.update(|t| t.take_back()),
        "/redo" => shared.update(|t| t.redo()),
        "/resign" => shared.update(|t| t.human_to_move().and_then(|()| t.resign())),
        "/load" => shared.update(|t| t.load(field("text").unwrap_or(""))),
        "/review" => {
            shared.update(|t| crate::review::request_from_fields(fields).and_then(|r| t.set_review(r)))
        }
        "/analysis" => shared.update(|t| {
            crate::analysis::request_from_fields(t, fields).and_then(|request| t.set_analysis(request))
        }),
        "/seat" => seat_from_fields(fields).and_then(|(index, seat)| {
            shared.update(|t| match t.seats.get_mut(index) {
                Some(slot) => {
                    *slot = seat;
                    t.touch(true);
                    Ok(())
                }
                None => Err(format!("there is no seat {}", index + 1)),
            })
        }),
        _ => return failure(404, format!("no action {}", tabula::protocol::parse::quoted(action))),
    };
    match done {
        Ok(()) => Response::from_string("ok"),
        Err(why) => {
            // What the player sent may be megabytes: it is quoted short.
            let why = shortened(&why);
            shared.update(|t| {
                t.notice = Some(why.clone());
                t.touch(false);
            });
            failure(422, why)
        }
    }
}

/// Server-sent events: one `data:` line with the whole view per change. A
/// page that reads slowly skips to the latest view; one that stops reading
/// for [`STALLED`] is dropped.
fn stream_events(request: Request, shared: &Shared) {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        let _ = request.respond(failure(503, format!("{MAX_STREAMS} event streams are open already")));
        return;
    }
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: keep-alive\r\n\r\n";
    let mut seen = 0;
    let mut sent = send_to_page(&mut *out, head.as_bytes());
    while sent.is_ok() && !shared.quitting.load(Ordering::Relaxed) {
        sent = match shared.next_view(seen, KEEPALIVE) {
            Some(published) => {
                seen = published.number;
                send_to_page(&mut *out, format!("data: {}\n\n", published.view).as_bytes())
            }
            None => send_to_page(&mut *out, b": still here\n\n"),
        };
    }
    shared.streams.fetch_sub(1, Ordering::SeqCst);
}

/// Writes `bytes` to a page and flushes them, or fails once they have waited
/// [`STALLED`] for the page to read. Each write to the socket returns within
/// its send timeout (`main`), done or not, so the time is checked between.
fn send_to_page(out: &mut dyn Write, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::ErrorKind;
    let give_up = std::time::Instant::now() + STALLED;
    let mut rest = bytes;
    loop {
        let wrote = if rest.is_empty() { out.flush().map(|()| 0) } else { out.write(rest) };
        match wrote {
            Ok(0) if rest.is_empty() => return Ok(()),
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e),
        }
        if std::time::Instant::now() > give_up {
            return Err(ErrorKind::TimedOut.into());
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("header names and values here are ASCII")
}

fn asset(body: &str, kind: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(body)
        .with_header(header("Content-Type", kind))
        .with_header(header("Cache-Control", "no-store"))
}

fn json(body: String) -> Response<std::io::Cursor<Vec<u8>>> {
    asset(&body, "application/json")
}

fn failure(status: u16, why: String) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(why).with_status_code(status)
}
