//! Search behaviour on small, well-understood Quoridor positions.

use super::*;
use crate::game::prelude::*;
use crate::games::quoridor::Quoridor;
use tt::TranspositionTable;

type Move = <Quoridor as Position>::Move;

fn run(text: &str, history: &[u64], limits: Limits) -> (Quoridor, SearchResult<Move>, Vec<SearchInfo<Move>>) {
    run_with(text, history, limits, SearchSettings::default())
}

fn run_with(
    text: &str,
    history: &[u64],
    limits: Limits,
    settings: SearchSettings,
) -> (Quoridor, SearchResult<Move>, Vec<SearchInfo<Move>>) {
    let position = Quoridor::from_text(text).unwrap();
    let mut tt = TranspositionTable::new(4);
    let control = Control::new(false);
    let mut infos = Vec::new();
    let result = search(&position, history, &limits, &settings, &mut tt, &control, &mut |i| infos.push(i));
    (position, result, infos)
}

fn threads(n: usize) -> SearchSettings {
    SearchSettings { threads: n, ..SearchSettings::default() }
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

#[test]
fn takes_a_win_in_one() {
    let (p, result, infos) = run("quoridor 9x9 pawns=c8,g2 hand=0,3 walls=- turn=1", &[], depth(4));
    assert_eq!(p.format_move(result.best.unwrap()), "c9");
    assert_eq!(infos.last().unwrap().score, Score::Mate(1));
}

#[test]
fn blocks_an_opponent_about_to_win() {
    // Player 2 reaches row 1 next move; player 1 is far away but holds walls.
    let (p, result, infos) = run("quoridor 9x9 pawns=e1,a2 hand=2,0 walls=- turn=1", &[], depth(3));
    let best = p.format_move(result.best.unwrap());
    assert!(best.ends_with('h'), "expected a blocking wall, got {best}");
    assert_ne!(infos.last().unwrap().score, Score::Mate(-1));
}

#[test]
fn sees_a_forced_loss() {
    // Player 1 to move cannot stop player 2 (one step from row 1, no walls).
    let (_, _, infos) = run("quoridor 9x9 pawns=e5,e2 hand=0,0 walls=- turn=1", &[], depth(3));
    assert_eq!(infos.last().unwrap().score, Score::Mate(-1));
}

#[test]
fn is_deterministic_and_respects_node_limits() {
    let text = "quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1";
    let limits = Limits { nodes: Some(5000), ..Limits::default() };
    let (_, a, _) = run(text, &[], limits.clone());
    let (_, b, _) = run(text, &[], limits);
    assert_eq!(a, b);
    assert!(a.nodes <= 5000);
    assert!(a.best.is_some());
}

#[test]
fn a_finished_game_has_no_best_move() {
    let (_, result, _) = run("quoridor 5x5 pawns=c5,a5 hand=0,0 walls=- turn=2", &[], depth(3));
    assert_eq!(result.best, None);
}

#[test]
fn a_threefold_repetition_has_no_best_move() {
    let p = Quoridor::from_text("quoridor 9x9 pawns=e3,e7 hand=0,0 walls=- turn=1").unwrap();
    let (_, result, _) = run(&p.to_text(), &[p.hash(), 1, 2, 3, p.hash()], depth(3));
    assert_eq!(result.best, None);
    let (_, result, _) = run(&p.to_text(), &[p.hash(), 1, 2, 3], depth(3));
    assert!(result.best.is_some());
}

#[test]
fn four_players_get_a_legal_move() {
    let (p, result, _) = run("quoridor 7x7 pawns=d1,a4,d7,g4 hand=3,3,3,3 walls=- turn=2", &[], depth(3));
    let mut moves = MoveList::default();
    p.generate_moves(&mut moves);
    assert!(moves.iter().any(|&m| Some(m) == result.best));
}

#[test]
fn a_stopped_search_still_answers_with_a_legal_move() {
    let position = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
    let mut tt = TranspositionTable::new(1);
    let control = Control::new(false);
    control.stop();
    let settings = SearchSettings::default();
    let result = search(&position, &[], &Limits::default(), &settings, &mut tt, &control, &mut |_| {});
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    assert!(moves.iter().any(|&m| Some(m) == result.best));
}

#[test]
fn a_winning_side_does_not_walk_into_a_threefold_repetition() {
    // e5 here would be the third occurrence of the position after it.
    let mut position = Quoridor::from_text("quoridor 9x9 pawns=e4,e9 hand=0,0 walls=- turn=1").unwrap();
    let mut history = Vec::new();
    for text in "e5 d9 d5 e9 e5 d9 e4 e9".split_whitespace() {
        history.push(position.hash());
        let mv = position.parse_move(text).unwrap();
        position.make_move(mv);
    }
    let mut tt = TranspositionTable::new(4);
    let control = Control::new(false);
    let mut last = None;
    let settings = SearchSettings::default();
    let result =
        search(&position, &history, &depth(12), &settings, &mut tt, &control, &mut |i| last = Some(i));
    assert_ne!(position.format_move(result.best.unwrap()), "e5");
    assert!(matches!(last.unwrap().score, Score::Mate(n) if n > 0));
}

#[test]
fn two_threads_find_the_same_forced_results() {
    for (text, want) in [
        ("quoridor 9x9 pawns=c8,g2 hand=0,3 walls=- turn=1", Score::Mate(1)),
        ("quoridor 9x9 pawns=e5,e2 hand=0,0 walls=- turn=1", Score::Mate(-1)),
    ] {
        let (_, result, infos) = run_with(text, &[], depth(4), threads(2));
        assert!(result.best.is_some());
        assert_eq!(infos.last().unwrap().score, want, "{text}");
    }
}

#[test]
fn a_wall_free_race_is_solved_from_the_root() {
    // No walls in either hand: the race table answers every node, so even a
    // one-ply search knows the exact result (both 7 steps away, first to move
    // wins with its 7th move).
    let (_, _, infos) = run("quoridor 9x9 pawns=a2,i8 hand=0,0 walls=- turn=1", &[], depth(1));
    assert_eq!(infos.last().unwrap().score, Score::Mate(7));
}

#[test]
fn a_node_limit_caps_every_thread_together() {
    let text = "quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1";
    let limits = Limits { nodes: Some(20_000), ..Limits::default() };
    let (_, result, _) = run_with(text, &[], limits, threads(2));
    assert!(result.best.is_some());
    // Each thread stops once the shared count reaches the cap; the last
    // chunk of the other thread may not be counted yet.
    assert!(result.nodes <= 20_000 + 2 * 1024, "{} nodes", result.nodes);
}

#[test]
fn a_playing_level_searches_with_one_thread() {
    let handicap = crate::game::Handicap { depth: 3, nodes: 1000, noise: 10, root_noise: 40 };
    let (limits, settings) = with_handicap(Limits::default(), threads(4), handicap, 5);
    assert_eq!((settings.threads, limits.depth, limits.nodes), (1, Some(3), Some(1000)));
    assert_eq!(settings.noise, Noise { leaf: 10, root: 40, seed: 5 });
}

#[test]
fn root_noise_varies_the_move_by_seed_but_never_passes_up_a_win() {
    let noisy =
        |seed: u64| SearchSettings { noise: Noise { leaf: 0, root: 300, seed }, ..SearchSettings::default() };
    let start = "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1";
    let chosen: std::collections::HashSet<String> = (0..12)
        .map(|seed| {
            let (p, result, _) = run_with(start, &[], depth(3), noisy(seed));
            p.format_move(result.best.unwrap())
        })
        .collect();
    assert!(chosen.len() > 1, "root noise never changed the move: {chosen:?}");
    let (p, again, _) = run_with(start, &[], depth(3), noisy(3));
    let (_, first, _) = run_with(start, &[], depth(3), noisy(3));
    assert_eq!(p.format_move(again.best.unwrap()), p.format_move(first.best.unwrap()));
    for seed in 0..12 {
        let (p, result, _) =
            run_with("quoridor 9x9 pawns=c8,g2 hand=0,3 walls=- turn=1", &[], depth(3), noisy(seed));
        assert_eq!(p.format_move(result.best.unwrap()), "c9");
    }
}

#[test]
fn even_boards_are_played_to_the_end_with_legal_moves() {
    for text in [
        "quoridor 2x5 pawns=a1,a5 hand=3,3 walls=- turn=1",
        "quoridor 4x4 pawns=b1,b4 hand=2,2 walls=- turn=1",
        "quoridor 8x8 pawns=d1,d8 hand=8,8 walls=- turn=1",
        "quoridor 14x3 pawns=g1,g3 hand=4,4 walls=- turn=1",
    ] {
        let mut position = Quoridor::from_text(text).unwrap();
        let mut history = Vec::new();
        let mut tt = TranspositionTable::new(4);
        let settings = SearchSettings::default();
        for _ in 0..200 {
            if position.outcome().is_some() {
                break;
            }
            let control = Control::new(false);
            let result = search(&position, &history, &depth(3), &settings, &mut tt, &control, &mut |_| {});
            let mut moves = MoveList::default();
            position.generate_moves(&mut moves);
            let best = result.best.expect("a move while the game is on");
            assert!(moves.iter().any(|&m| m == best), "{}", position.to_text());
            history.push(position.hash());
            position.make_move(best);
        }
        assert!(position.outcome().is_some(), "{text} ended in {}", position.to_text());
    }
}

#[test]
fn only_a_full_strength_search_corrects_its_static_values() {
    use super::searcher::Searcher;
    use super::threads::SharedCounters;
    let two = Quoridor::from_text("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1").unwrap();
    let four = Quoridor::from_text("quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1").unwrap();
    let tt = TranspositionTable::new(1);
    let control = Control::new(false);
    let shared = SharedCounters::new(1);
    let corrects = |position: &Quoridor, limits: &Limits, settings: &SearchSettings| {
        let searcher = Searcher::new(position, &[], limits, settings, &tt, &control, &shared);
        let (_, keys) = searcher.corrected(position);
        searcher.correction.is_some() && keys.is_some()
    };
    let full = SearchSettings::default();
    assert!(corrects(&two, &depth(5), &full));
    // A level's strength was measured without corrections; `go mate`
    // proves, it does not estimate; four players' teams mix seats.
    let handicap = crate::game::Handicap { depth: 3, nodes: 1000, noise: 10, root_noise: 40 };
    let (limits, level) = with_handicap(depth(5), full.clone(), handicap, 5);
    assert!(!corrects(&two, &limits, &level));
    assert!(!corrects(&two, &Limits { mate: Some(3), ..Limits::default() }, &full));
    assert!(!corrects(&four, &depth(5), &full));
}

#[test]
fn a_line_cut_short_by_the_table_is_completed_with_legal_moves() {
    // The second search finds the first one's entries: without completing
    // its lines from the table, its principal variations stop after a move
    // or two.
    let position = Quoridor::from_text("quoridor 9x9 pawns=e3,e7 hand=8,8 walls=d3h,e6h turn=1").unwrap();
    let mut tt = TranspositionTable::new(16);
    let control = Control::new(false);
    let settings = SearchSettings::default();
    search(&position, &[], &depth(9), &settings, &mut tt, &control, &mut |_| {});
    let mut lines = Vec::new();
    let result = search(&position, &[], &depth(9), &settings, &mut tt, &control, &mut |i| lines.push(i));
    let last = lines.last().unwrap();
    assert_eq!(last.depth, 9);
    assert!(last.pv.len() >= 6, "{} moves: {:?}", last.pv.len(), last.pv);
    assert_eq!(result.ponder, last.pv.get(1).copied());
    let mut walked = position.clone();
    for &mv in &last.pv {
        let mut moves = MoveList::default();
        walked.generate_moves(&mut moves);
        assert!(moves.iter().any(|&m| m == mv), "{} is not legal there", walked.format_move(mv));
        walked.make_move(mv);
    }
}

#[test]
fn a_search_stopped_at_any_moment_reports_the_line_of_its_answer() {
    // A search cut off while re-searching a move that failed high keeps that
    // move; its last line and expected reply must be that move's, not the
    // line the table holds for the root (an illegal reply in a game once).
    let texts = [
        "quoridor 9x9 pawns=e5,e6 hand=4,5 walls=c4h,e4h,d6v,f6h turn=2",
        "quoridor 9x9 pawns=c4,b4 hand=0,3 walls=a2h,c2h,e2h,g2h,e3v,h3h,d4h,b5v,c5h,f5v,d6v,e6h,g6h,h6v,c7h,h7h,d8v turn=1",
        "quoridor 7x7 pawns=d3,d5 hand=4,4 walls=c3h,d5v turn=1",
    ];
    let control = Control::new(false);
    let settings = SearchSettings::default();
    for text in texts {
        let position = Quoridor::from_text(text).unwrap();
        for nodes in (200..5_000).step_by(53) {
            let mut tt = TranspositionTable::new(4);
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let mut infos = Vec::new();
            let result =
                search(&position, &[], &limits, &settings, &mut tt, &control, &mut |i| infos.push(i));
            let (Some(best), Some(last)) = (result.best, infos.last()) else { continue };
            let line: Vec<String> = last.pv.iter().map(|&m| position.format_move(m)).collect();
            assert_eq!(last.pv.first(), Some(&best), "{text}, {nodes} nodes: {line:?}");
            assert_eq!(result.ponder, last.pv.get(1).copied(), "{text}, {nodes} nodes: {line:?}");
        }
    }
}

#[test]
fn with_helpers_the_last_line_reported_is_the_line_of_the_answer() {
    // A helper thread that finished a deeper iteration than the main one
    // gives the answer; its line must then be the last one reported, so
    // that the answer and the expected reply are that line's first moves.
    let text = "quoridor 9x9 pawns=e5,e6 hand=4,5 walls=c4h,e4h,d6v,f6h turn=2";
    let position = Quoridor::from_text(text).unwrap();
    let control = Control::new(false);
    let mut from_helper = 0;
    for nodes in (2_000..60_000).step_by(1_931) {
        let mut tt = TranspositionTable::new(4);
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let mut infos = Vec::new();
        let result = search(&position, &[], &limits, &threads(2), &mut tt, &control, &mut |i| infos.push(i));
        let (Some(best), Some(last)) = (result.best, infos.last()) else { continue };
        assert_eq!(last.pv.first(), Some(&best), "{nodes} nodes");
        assert_eq!(result.ponder, last.pv.get(1).copied(), "{nodes} nodes");
        let main_deepest = infos[..infos.len() - 1].iter().map(|i| i.depth).max().unwrap_or(0);
        from_helper += usize::from(last.depth > main_deepest);
    }
    println!("answers from a helper: {from_helper}");
}
