//! The HTTP side: serves the page (everything it loads is built into the
//! binary), a stream of table views as server-sent events, and the actions
//! the page posts as forms. Each request runs on a thread of its own.

use crate::json::form_fields;
use crate::setup::{new_table, seat_from_fields};
use crate::shared::Shared;
use std::io::{Read, Write};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response};

const PAGE: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/board.js");
const STYLE: &str = include_str!("../assets/board.css");

/// The largest form the board reads (a long game record fits many times over).
const MAX_BODY: u64 = 4 << 20;
/// A comment line keeps an idle event stream open through proxies and tells
/// the server when the page has gone.
const KEEPALIVE: Duration = Duration::from_secs(15);

pub fn serve(server: tiny_http::Server, shared: Arc<Shared>) {
    for request in server.incoming_requests() {
        let shared = shared.clone();
        std::thread::spawn(move || handle(request, &shared));
    }
}

fn handle(mut request: Request, shared: &Shared) {
    let path = request.url().split('?').next().unwrap_or("/").to_string();
    let method = request.method().clone();
    let answer = match (method, path.as_str()) {
        (Method::Get, "/") => asset(PAGE, "text/html; charset=utf-8"),
        (Method::Get, "/board.js") => asset(SCRIPT, "text/javascript; charset=utf-8"),
        (Method::Get, "/board.css") => asset(STYLE, "text/css; charset=utf-8"),
        (Method::Get, "/state") => json(shared.lock().view().to_string()),
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
                let (version, generation) = (current.version, current.generation);
                *current = table;
                current.version = version;
                current.generation = generation;
                current.touch(true);
            })
        }),
        "/move" => match field("move") {
            Some(text) => shared.update(|t| t.play(text)),
            None => Err("no move given".into()),
        },
        "/undo" => shared.update(|t| t.take_back()),
        "/redo" => shared.update(|t| t.redo()),
        "/resign" => shared.update(|t| t.resign()),
        "/load" => shared.update(|t| t.load(field("text").unwrap_or(""))),
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
            shared.update(|t| {
                t.notice = Some(why.clone());
                t.touch(false);
            });
            failure(422, why)
        }
    }
}

/// Server-sent events: one `data:` line with the whole view per change.
fn stream_events(request: Request, shared: &Shared) {
    let (sender, views) = mpsc::channel();
    shared.listen(sender);
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: keep-alive\r\n\r\n";
    if out.write_all(head.as_bytes()).and_then(|_| out.flush()).is_err() {
        return;
    }
    loop {
        let event = match views.recv_timeout(KEEPALIVE) {
            Ok(view) => format!("data: {view}\n\n"),
            Err(mpsc::RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if out.write_all(event.as_bytes()).and_then(|_| out.flush()).is_err() {
            return;
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
