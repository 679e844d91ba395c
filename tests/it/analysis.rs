//! Analysis through the real binary: `MultiPV`, `go searchmoves`, `go mate`,
//! the `Clear Hash` button, a drawn position seen the same by `d`, `go` and
//! perft, and the leniency rules (any blank, notation in either case).

use crate::common::engine_process::{EngineProcess, QUICK};
use std::time::{Duration, Instant};

/// The words after `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied())
}

/// `score cp N` or `score mate N` as comparable text.
fn score(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    format!("{} {}", words[at + 1], words[at + 2])
}

fn first_pv_move(line: &str) -> String {
    field(line, "pv").expect("a pv").to_string()
}

/// The info lines of the last completed depth and the bestmove line.
fn search(engine: &mut EngineProcess, go: &str) -> (Vec<String>, String) {
    engine.send(go);
    let mut lines = engine.read_until("bestmove", Duration::from_secs(60));
    let best = lines.pop().expect("a bestmove line");
    let infos: Vec<String> = lines.into_iter().filter(|l| l.starts_with("info depth")).collect();
    let last_depth = infos.last().and_then(|l| field(l, "depth")).map(str::to_string);
    let last: Vec<String> =
        infos.into_iter().filter(|l| field(l, "depth").map(str::to_string) == last_depth).collect();
    (last, best)
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name MultiPV value 4");
    engine.send("position startpos moves e2 e8 e3 e7");
    let (lines, best) = search(&mut engine, "go depth 5");
    assert_eq!(lines.len(), 4, "{lines:?}");
    let moves: Vec<String> = lines.iter().map(|l| first_pv_move(l)).collect();
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(field(line, "multipv"), Some((k + 1).to_string().as_str()), "{line}");
    }
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "{moves:?}");
    assert_eq!(best.split_whitespace().nth(1), Some(moves[0].as_str()), "{best}");
    let cp: Vec<i64> = lines.iter().map(|l| field(l, "cp").and_then(|v| v.parse().ok()).unwrap()).collect();
    assert!(cp.windows(2).all(|w| w[0] >= w[1]), "{cp:?}");
    // Back to one line, still numbered as GUIs expect.
    engine.send("setoption name MultiPV value 1");
    let (lines, _) = search(&mut engine, "go depth 3");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(field(&lines[0], "multipv"), Some("1"), "{}", lines[0]);
}

#[test]
fn multipv_scores_are_exact_for_every_line() {
    // A race without walls, solved to the end: every line's score is the
    // game's value after its move, the one a search of that move alone gives.
    let position = "position fen quoridor 7x7 pawns=d2,c5 hand=0,0 walls=c2h,d4v turn=1";
    let mut engine = EngineProcess::start();
    engine.send("setoption name MultiPV value 500");
    engine.send(position);
    let (lines, _) = search(&mut engine, "go depth 16");
    let legal = {
        engine.send("d");
        let d = engine.read_until("Key:", QUICK);
        let count = d.iter().find_map(|l| l.strip_prefix("Legal moves: ")).expect("a count");
        count.parse::<usize>().expect("a number")
    };
    assert_eq!(lines.len(), legal, "{lines:?}");
    engine.send("setoption name MultiPV value 1");
    for line in &lines {
        let mv = first_pv_move(line);
        engine.send("ucinewgame");
        engine.send(position);
        let (alone, best) = search(&mut engine, &format!("go depth 16 searchmoves {mv}"));
        assert_eq!(best.split_whitespace().nth(1), Some(mv.as_str()), "{best}");
        assert_eq!(score(&alone[0]), score(line), "{mv}: {} vs {line}", alone[0]);
    }
}

#[test]
fn searchmoves_limits_the_root_moves() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    let (_, best) = search(&mut engine, "go depth 4 searchmoves a1h f1");
    assert!(
        best == "bestmove a1h" || best.starts_with("bestmove a1h ") || best.starts_with("bestmove f1"),
        "{best}"
    );
    // A move that is not legal is reported and left out; the rest searched.
    engine.send("go depth 3 searchmoves e5 d1");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.starts_with("info string error: go searchmoves: 'e5'")), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove d1")), "{lines:?}");
}

#[test]
fn go_mate_proves_a_forced_win_or_finds_none() {
    let mut engine = EngineProcess::start();
    // Player 1 is two steps from its goal, player 2 too; player 1 moves first.
    engine.send("position fen quoridor 9x9 pawns=e7,e3 hand=0,0 walls=- turn=1");
    let (lines, best) = search(&mut engine, "go mate 2");
    assert_eq!(score(lines.last().unwrap()), "mate 2", "{lines:?}");
    assert!(best.starts_with("bestmove e8"), "{best}");
    // With two walls player 2 can lengthen player 1's path: no win in 2, and
    // the search ends at the depth a win in 2 needs (3 plies).
    engine.send("position fen quoridor 9x9 pawns=e7,e3 hand=0,2 walls=- turn=1");
    let (lines, _) = search(&mut engine, "go mate 2");
    let last = lines.last().unwrap();
    assert!(!score(last).starts_with("mate "), "{last}");
    assert_eq!(field(last, "depth"), Some("3"), "{last}");
}

#[test]
fn clear_hash_makes_the_next_search_start_afresh() {
    let mut engine = EngineProcess::start();
    let strip = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .map(|l| l.split_whitespace().filter(|w| w.parse::<u64>().is_err()).collect::<Vec<_>>().join(" "))
            .collect()
    };
    engine.send("position startpos moves e2 e8");
    engine.send("go nodes 20000");
    let fresh = strip(engine.read_until("bestmove", QUICK));
    engine.send("setoption name Clear Hash");
    engine.send("go nodes 20000");
    let cleared = strip(engine.read_until("bestmove", QUICK));
    assert_eq!(fresh, cleared);
    // Without the clearing, the table's entries change the search (which,
    // on one thread with a node limit, is the same every run).
    engine.send("go nodes 20000");
    let kept = strip(engine.read_until("bestmove", QUICK));
    assert_ne!(fresh, kept);
}

#[test]
fn a_position_drawn_by_repetition_is_over_for_d_go_and_perft() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves e2 e8 e1 e9 e2 e8 e1 e9");
    engine.send("d");
    let lines = engine.read_until("Key:", QUICK);
    assert!(lines.contains(&"Result: draw by threefold repetition".to_string()), "{lines:?}");
    assert!(lines.contains(&"Legal moves: 0 (the game is over)".to_string()), "{lines:?}");
    engine.send("go depth 3");
    assert_eq!(engine.read_until("bestmove", QUICK).last().map(String::as_str), Some("bestmove (none)"));
    engine.send("go perft 2");
    let lines = engine.read_until("Nodes searched:", QUICK);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 0"), "{lines:?}");
}

#[test]
fn many_threads_still_keep_the_time_limit() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Threads value 256");
    engine.sync();
    for _ in 0..3 {
        let sent = Instant::now();
        engine.send("go movetime 50");
        engine.read_until("bestmove", Duration::from_secs(5));
        // 50 ms on an idle machine; CI runs tests side by side on 2 cores.
        assert!(sent.elapsed() < Duration::from_millis(1000), "answered after {:?}", sent.elapsed());
    }
}

#[test]
fn any_blank_separates_words_and_notation_is_read_in_either_case() {
    let mut engine = EngineProcess::start();
    engine.send("position\tstartpos\tmoves\tE2  e8\tD3H");
    assert_eq!(engine.position_text(), "quoridor 9x9 pawns=e2,e8 hand=9,10 walls=d3h turn=2 jumps=single");
    engine.send("setoption name Game value quarto");
    engine.send("position startpos moves F A1e");
    let text = engine.position_text();
    assert!(text.contains("board=..../..../..../f... hand=e"), "{text}");
    assert!(engine.sync().is_empty());
}

#[test]
fn quarto_has_multipv_searchmoves_and_go_mate_too() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Game value quarto");
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves 7 b3a");
    let (lines, best) = search(&mut engine, "go depth 3");
    assert_eq!(lines.len(), 3, "{lines:?}");
    let mut moves: Vec<String> = lines.iter().map(|l| first_pv_move(l)).collect();
    assert_eq!(best.split_whitespace().nth(1), Some(moves[0].as_str()), "{best}");
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 3, "{lines:?}");
    engine.send("setoption name MultiPV value 1");
    let (_, best) = search(&mut engine, "go depth 3 searchmoves C1E");
    assert!(best.starts_with("bestmove c1e"), "{best}");
    // The 3x3 game: whoever places first wins; after the first piece is
    // given, the placer wins in three of its turns.
    engine.send("setoption name QuartoBoard value 3x3");
    engine.send("position startpos moves 0");
    let (lines, _) = search(&mut engine, "go mate 3");
    assert_eq!(score(lines.last().unwrap()), "mate 3", "{lines:?}");
}
