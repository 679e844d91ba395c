//! Text of every line the engine writes, and the writer that flushes each one.

use crate::search::{Score, ScoreBound, SearchInfo};
use std::io::Write;
use std::time::Duration;

/// Writes whole lines and flushes after each, so a GUI never waits on a buffer.
pub struct Output<W: Write> {
    writer: W,
}

impl<W: Write> Output<W> {
    /// Lines go to `writer`.
    pub fn new(writer: W) -> Self {
        Output { writer }
    }

    /// The writer, for a caller that collects the output in memory.
    pub fn writer_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// Writes `text` as one line and flushes it.
    pub fn line(&mut self, text: &str) {
        log::debug!(">> {text}");
        // A closed output means the GUI has gone; the input side will end too.
        let _ = writeln!(self.writer, "{text}").and_then(|_| self.writer.flush());
    }

    /// Writes `info string error: <detail>`.
    pub fn error(&mut self, detail: &str) {
        self.line(&error_line(detail));
    }

    /// Something ignored that the user may want to know about.
    pub fn warning(&mut self, detail: &str) {
        self.line(&format!("info string warning: {}", capped(detail)));
    }
}

/// Messages quote at most [`super::parse::QUOTED_CHARS`] characters of the
/// input each; this caps a whole message in case one quotes more than once.
const MESSAGE_CHARS: usize = 240;

fn capped(detail: &str) -> String {
    match detail.char_indices().nth(MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}...", &detail[..cut]),
        None => detail.to_string(),
    }
}

/// The `info string error: ...` line of a detail, capped in length.
pub fn error_line(detail: &str) -> String {
    format!("info string error: {}", capped(detail))
}

/// The `info` line of an iteration (`pv`: its line in notation), followed
/// by `info string proven draw` when the search saw the whole game tree and
/// found a draw.
pub fn info_lines<M>(info: &SearchInfo<M>, pv: &[String]) -> Vec<String> {
    let mut lines = vec![info_line(info, pv)];
    if info.exact && info.bound == ScoreBound::Exact && info.score == Score::Centi(0) {
        lines.push("info string proven draw".to_string());
    }
    lines
}

/// The `info depth ...` line of a report, its line in notation given: a
/// line of an iteration (with the bound its score is, if not exact), or the
/// root move in hand (`currmove`).
pub fn info_line<M>(info: &SearchInfo<M>, pv: &[String]) -> String {
    if info.currmovenumber > 0 {
        let mv = pv.first().map_or("", String::as_str);
        return format!("info depth {} currmove {mv} currmovenumber {}", info.depth, info.currmovenumber);
    }
    let score = match (info.bound, info.score) {
        (ScoreBound::Unscored, _) => String::new(),
        (bound, score) => {
            let value = match score {
                Score::Centi(cp) => format!("cp {cp}"),
                Score::Mate(n) => format!("mate {n}"),
            };
            let bound = match bound {
                ScoreBound::Lower => " lowerbound",
                ScoreBound::Upper => " upperbound",
                _ => "",
            };
            format!(" score {value}{bound}")
        }
    };
    let nps = info.nodes * 1000 / info.elapsed_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {}{score} nodes {} nps {nps} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.nodes,
        info.elapsed_ms,
        info.hashfull
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// The `bestmove` line; `(none)` when the game is over.
pub fn bestmove_line(best: Option<&str>, ponder: Option<&str>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(best), None) => format!("bestmove {best}"),
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
    }
}

/// What follows a perft's per-move counts: a blank line, the speed, and `Nodes searched: N`.
pub fn perft_summary(nodes: u64, elapsed: Duration) -> [String; 3] {
    let ms = elapsed.as_millis().max(1) as u64;
    [
        String::new(),
        format!("info string perft time {ms} ms, {} nodes/s", nodes * 1000 / ms),
        format!("Nodes searched: {nodes}"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_line_has_every_field() {
        let mut info = SearchInfo {
            depth: 3,
            seldepth: 4,
            score: Score::Mate(-2),
            nodes: 5000,
            elapsed_ms: 10,
            hashfull: 7,
            pv: vec!["e2", "e8"],
            exact: false,
            multipv: 1,
            bound: ScoreBound::Exact,
            currmovenumber: 0,
        };
        let pv = ["e2".to_string(), "e8".to_string()];
        assert_eq!(
            info_line(&info, &pv),
            "info depth 3 seldepth 4 multipv 1 score mate -2 nodes 5000 nps 500000 time 10 hashfull 7 pv e2 e8"
        );
        info.score = Score::Centi(-31);
        info.bound = ScoreBound::Upper;
        assert!(info_line(&info, &pv).contains(" score cp -31 upperbound nodes 5000 "));
        info.bound = ScoreBound::Lower;
        assert!(info_line(&info, &pv).contains(" score cp -31 lowerbound nodes 5000 "));
        info.bound = ScoreBound::Unscored;
        assert!(info_line(&info, &pv).starts_with("info depth 3 seldepth 4 multipv 1 nodes 5000 "));
        info.currmovenumber = 12;
        assert_eq!(info_line(&info, &pv[..1]), "info depth 3 currmove e2 currmovenumber 12");
        assert_eq!(bestmove_line(None, None), "bestmove (none)");
        assert_eq!(bestmove_line(Some("e2"), Some("e8")), "bestmove e2 ponder e8");
    }
}
