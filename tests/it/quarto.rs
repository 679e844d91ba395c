//! Quarto checked against the slow reference in `tests/quarto_reference`,
//! written from the rule text alone: random playouts (moves, counts, texts,
//! notation, outcomes, refused texts), the moves the search looks at, every
//! family of winning patterns at every level, the board symmetries and piece
//! relabellings behind the canonical key, and exact search values against a
//! plain minimax.
//!
//! Rule reading: the game also ends, drawn, when no piece is left to place.
//! On 4x4 that is the full board; on 3x3 (eight pieces, nine squares) one
//! square stays empty.

use crate::quarto_reference;

use crate::common::rng::Rng;
use quarto_reference::{
    all_patterns, axis_permutation, compose, dihedral, patterns, preserves_patterns, relabel, CellMap,
    Family, RefMove, RefPos, Value,
};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::{Duration, Instant};
use tabula::game::prelude::*;
use tabula::game::Outcome;
use tabula::games::quarto::{Quarto, QuartoMove, Rules};
use tabula::search::tt::TranspositionTable;
use tabula::search::{search, with_handicap, Control, Limits, Score, SearchInfo, SearchSettings};

/// Every rule set: (side, level).
const RULES: [(usize, usize); 5] = [(4, 1), (4, 2), (4, 3), (4, 4), (3, 1)];

/// Failed checks grouped by kind, with the first example of each, so that one
/// discrepancy does not hide the others.
#[derive(Default)]
struct Failures {
    kinds: BTreeMap<String, (usize, String)>,
}

impl Failures {
    fn check(&mut self, ok: bool, kind: &str, detail: impl FnOnce() -> String) {
        if !ok {
            self.kinds.entry(kind.to_string()).or_insert_with(|| (0, detail())).0 += 1;
        }
    }

    fn assert_none(&self) {
        let report: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, (count, example))| format!("{kind}: {count} times; first: {example}"))
            .collect();
        assert!(report.is_empty(), "\n{}", report.join("\n"));
    }
}

fn hex(piece: u8) -> char {
    char::from_digit(piece as u32, 16).unwrap()
}

fn engine_from(text: &str) -> Quarto {
    Quarto::from_text(text).unwrap_or_else(|e| panic!("engine refuses '{text}': {e}"))
}

fn reference_from(text: &str) -> RefPos {
    RefPos::from_text(text).unwrap_or_else(|| panic!("reference refuses '{text}'"))
}

fn engine_moves(q: &Quarto) -> Vec<QuartoMove> {
    let mut list = MoveList::default();
    q.generate_moves(&mut list);
    list.as_slice().to_vec()
}

fn search_moves(q: &Quarto, depth: u32) -> Vec<QuartoMove> {
    let mut list = MoveList::default();
    q.clone().generate_search_moves(&mut list, depth);
    list.as_slice().to_vec()
}

/// The reference's form of an engine move.
fn as_ref_move(side: usize, m: QuartoMove) -> RefMove {
    RefMove { square: m.square().map(|s| (s / side, s % side)), give: m.piece() }
}

/// The engine's form of a reference move.
fn as_engine_move(side: usize, m: RefMove) -> QuartoMove {
    QuartoMove::new(m.square.map(|(r, c)| r * side + c), m.give)
}

/// The reference's form of an engine outcome.
fn engine_result(q: &Quarto) -> Option<Option<usize>> {
    q.outcome().map(|o| match o {
        Outcome::Win(p) => Some(p),
        Outcome::Draw => None,
    })
}

/// Whether the player given `piece` (with no placement made yet) can win at
/// once with it.
fn piece_wins_now(pos: &RefPos, piece: u8) -> bool {
    pos.empty_cells().into_iter().any(|c| pos.placement_wins(c, piece))
}

/// A move for a playout: mostly from the engine's search moves (a win when
/// there is one, else no piece that loses at once), sometimes any legal move.
fn playout_move(rng: &mut Rng, r: &RefPos, q: &Quarto, careful: usize) -> RefMove {
    if rng.chance(careful) {
        let picks = search_moves(q, 1);
        if !picks.is_empty() {
            let name = q.format_move(rng.pick(&picks));
            if let Some(mv) = r.parse_move(&name) {
                return mv;
            }
        }
    }
    rng.pick(&r.legal_moves())
}

/// A random position reached by a playout, stopped after `plies` turns or
/// at the end of the game.
fn random_position(rng: &mut Rng, side: usize, level: usize, plies: usize) -> RefPos {
    let mut r = RefPos::new(side, level);
    let mut q = engine_from(&r.text());
    for _ in 0..plies {
        if r.is_over() {
            break;
        }
        let mv = playout_move(rng, &r, &q, 80);
        q.make_move(as_engine_move(side, mv));
        r.play(mv);
    }
    r
}

/// A position with a piece in hand and exactly `empty` empty squares, the
/// game still going on.
fn position_with_empty(rng: &mut Rng, side: usize, level: usize, empty: usize) -> RefPos {
    loop {
        let mut r = RefPos::new(side, level);
        let mut q = engine_from(&r.text());
        while !r.is_over() && (r.hand.is_none() || r.empty_cells().len() > empty) {
            let mv = playout_move(rng, &r, &q, 90);
            q.make_move(as_engine_move(side, mv));
            r.play(mv);
        }
        if !r.is_over() && r.empty_cells().len() == empty {
            return r;
        }
    }
}

// --- Random playouts -----------------------------------------------------

/// Texts that never name a legal move, whatever the position.
fn garbage_texts(side: usize) -> Vec<String> {
    let mut texts: Vec<String> = [
        "", " ", "z9", "a0", "Z9", "x", "-", "b3g", "b3-", "b377", "7b3", " 7", "7 ", "b3 ", " b3", "a1 0",
        "00", "a1a1", "é", "é1", "b3é", "+1", "a-1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    texts.push(format!("{}1", (b'a' + side as u8) as char));
    texts.push(format!("a{}", side + 1));
    texts.push(format!("{}2{}", (b'a' + side as u8) as char, 1));
    if side == 3 {
        texts.extend(["8", "f", "a18", "b2f", "d1", "a4", "c43"].map(String::from));
    } else {
        texts.extend(["g", "10", "a1g", "e1", "a5", "e21"].map(String::from));
    }
    texts
}

/// Texts that name no legal move in this position (besides the garbage).
fn illegal_texts(r: &RefPos) -> Vec<String> {
    let pieces: Vec<u8> = (0..r.piece_count() as u8).collect();
    let available = r.available();
    let used: Vec<u8> = pieces.iter().copied().filter(|p| !available.contains(p)).collect();
    let mut texts = Vec::new();
    let name = |c: (usize, usize)| quarto_reference::cell_name(c);
    if r.is_over() {
        for &p in &pieces {
            texts.push(hex(p).to_string());
        }
        for c in r.cells() {
            texts.push(name(c));
            texts.push(format!("{}{}", name(c), hex(pieces[(c.0 + c.1) % pieces.len()])));
        }
        return texts;
    }
    let Some(hand) = r.hand else {
        // The first turn only gives.
        for c in r.cells() {
            texts.push(name(c));
            texts.push(format!("{}7", name(c)));
            texts.push(format!("{}0", name(c)));
        }
        return texts;
    };
    // Only the first turn gives without placing.
    for &p in &pieces {
        texts.push(hex(p).to_string());
    }
    for c in r.cells() {
        if r.board[c.0][c.1].is_some() {
            // A taken square.
            texts.push(name(c));
            for &p in available.iter().chain(&used) {
                texts.push(format!("{}{}", name(c), hex(p)));
            }
            continue;
        }
        if r.placement_wins(c, hand) {
            continue;
        }
        // Giving a piece already used (on the board, or the one placed).
        for &u in &used {
            texts.push(format!("{}{}", name(c), hex(u)));
        }
        if !available.is_empty() {
            // A placement that does not win must give a piece.
            texts.push(name(c));
        }
    }
    texts
}

#[derive(Default, Debug)]
struct PlayoutStats {
    games: usize,
    plies: usize,
    moves_compared: usize,
    wins: usize,
    draws: usize,
    refused_texts: usize,
    lenient_texts: usize,
    winning_placements: usize,
    last_piece_placements: usize,
}

/// Checks one position of a playout: moves, counts, texts, notation, outcome.
fn check_playout_position(r: &RefPos, q: &Quarto, failures: &mut Failures, stats: &mut PlayoutStats) {
    let side = r.side;
    let text = r.text();
    failures.check(q.to_text() == text, "engine text differs from the reference text", || {
        format!("engine '{}' reference '{text}'", q.to_text())
    });
    match Quarto::from_text(&q.to_text()) {
        Ok(back) => {
            failures.check(back.to_text() == q.to_text(), "text round trip changes the text", || q.to_text());
            failures.check(back == *q, "text round trip changes the position", || q.to_text());
        }
        Err(e) => failures.check(false, "engine refuses its own text", || format!("'{}': {e}", q.to_text())),
    }
    failures.check(
        RefPos::from_text(&q.to_text()).as_ref() == Some(r),
        "reference reads another state",
        || q.to_text(),
    );
    failures.check(engine_result(q) == r.result(), "outcome differs", || {
        format!("{text}: engine {:?}, reference {:?}", q.outcome(), r.result())
    });
    if !r.is_over() {
        failures.check(q.side_to_move() == r.turn, "side to move differs", || text.clone());
    }

    let moves = engine_moves(q);
    let engine_set: BTreeSet<RefMove> = moves.iter().map(|&m| as_ref_move(side, m)).collect();
    let reference: Vec<RefMove> = r.legal_moves();
    let reference_set: BTreeSet<RefMove> = reference.iter().copied().collect();
    failures.check(engine_set.len() == moves.len(), "engine lists a move twice", || text.clone());
    failures.check(engine_set == reference_set, "legal move sets differ", || {
        let extra: Vec<String> = engine_set.difference(&reference_set).map(|m| m.name()).collect();
        let missing: Vec<String> = reference_set.difference(&engine_set).map(|m| m.name()).collect();
        format!("{text}: engine extra {extra:?}, missing {missing:?}")
    });
    failures.check(q.count_moves() == moves.len() as u64, "count_moves differs from the list", || {
        format!("{text}: {} vs {}", q.count_moves(), moves.len())
    });
    stats.moves_compared += moves.len();
    for &m in &moves {
        let name = q.format_move(m);
        let expected = as_ref_move(side, m).name();
        failures.check(name == expected, "move name differs", || format!("{text}: {name} vs {expected}"));
        failures.check(q.parse_move(&name) == Ok(m), "parse(format(move)) differs", || {
            format!("{text}: {name} -> {:?}", q.parse_move(&name))
        });
        // Notation is read in either case.
        let shouted = name.to_ascii_uppercase();
        failures.check(q.parse_move(&shouted) == Ok(m), "upper-case notation differs", || {
            format!("{text}: {shouted} -> {:?}", q.parse_move(&shouted))
        });
    }
    if let Some(hand) = r.hand {
        for &m in &reference {
            if m.give.is_none() {
                let wins = r.after(m).winner.is_some();
                stats.winning_placements += usize::from(wins);
                stats.last_piece_placements += usize::from(!wins);
            }
        }
        // Leniency: a winning placement may name a piece; it means the same.
        for c in r.empty_cells() {
            if !r.placement_wins(c, hand) {
                continue;
            }
            let square = as_engine_move(side, RefMove { square: Some(c), give: None });
            for p in r.available() {
                let lenient = format!("{}{}", quarto_reference::cell_name(c), hex(p));
                stats.lenient_texts += 1;
                failures.check(
                    q.parse_move(&lenient) == Ok(square),
                    "winning placement with a piece refused",
                    || format!("{text}: '{lenient}' -> {:?}", q.parse_move(&lenient)),
                );
            }
        }
    }
    for bad in garbage_texts(side).iter().chain(&illegal_texts(r)) {
        stats.refused_texts += 1;
        failures.check(q.parse_move(bad).is_err(), "an illegal text is accepted", || {
            format!("{text}: '{bad}' -> {:?}", q.parse_move(bad))
        });
    }
}

/// Checks the moves the search looks at against the reference.
fn check_search_moves(r: &RefPos, q: &Quarto, failures: &mut Failures) {
    let side = r.side;
    let text = r.text();
    let legal: BTreeSet<RefMove> = r.legal_moves().into_iter().collect();
    let winning: Vec<RefMove> = legal.iter().copied().filter(|&m| r.after(m).winner.is_some()).collect();
    for depth in [1, 2, 3, 4, 8] {
        let picked: Vec<RefMove> = search_moves(q, depth).into_iter().map(|m| as_ref_move(side, m)).collect();
        failures.check(picked.iter().all(|m| legal.contains(m)), "search move is not legal", || {
            format!("{text} depth {depth}: {:?}", picked.iter().map(|m| m.name()).collect::<Vec<_>>())
        });
        failures.check(picked.is_empty() == legal.is_empty(), "search moves empty while moves exist", || {
            format!("{text} depth {depth}")
        });
        if !winning.is_empty() {
            failures.check(
                picked.iter().any(|m| winning.contains(m)),
                "search moves miss a win in one",
                || {
                    format!(
                        "{text} depth {depth}: wins {:?}",
                        winning.iter().map(|m| m.name()).collect::<Vec<_>>()
                    )
                },
            );
        }
        for &m in &picked {
            let (Some(cell), Some(give)) = (m.square, m.give) else { continue };
            if !legal.contains(&m) {
                continue;
            }
            let after = r.after(m);
            if !piece_wins_now(&after, give) {
                continue;
            }
            // This give loses at once: fine only if every give there does.
            let mut placed = r.clone();
            placed.play(RefMove { square: Some(cell), give: None });
            let safe: Vec<u8> = r.available().into_iter().filter(|&p| !piece_wins_now(&placed, p)).collect();
            failures.check(
                safe.is_empty(),
                "search move gives a winning piece while a safe one exists",
                || format!("{text} depth {depth}: {} while {:?} are safe", m.name(), safe),
            );
        }
    }
}

#[test]
fn random_playouts_agree_with_the_reference() {
    let started = Instant::now();
    let mut failures = Failures::default();
    let mut stats = PlayoutStats::default();
    let mut per_rules = Vec::new();
    for (side, level) in RULES {
        let games = if side == 4 { 70 } else { 120 };
        let plies_before = stats.plies;
        let mut rng = Rng::new(1000 + 10 * side as u64 + level as u64);
        for game in 0..games {
            let mut r = RefPos::new(side, level);
            let mut q = Quarto::new(Rules { side, level }).unwrap();
            // Alternate careful games (long, often drawn) and wild ones.
            let careful = if game % 2 == 0 { 95 } else { 50 };
            loop {
                check_playout_position(&r, &q, &mut failures, &mut stats);
                check_search_moves(&r, &q, &mut failures);
                if r.is_over() {
                    break;
                }
                let mv = playout_move(&mut rng, &r, &q, careful);
                let em = as_engine_move(side, mv);
                q.make_move(em);
                r.play(mv);
                stats.plies += 1;
            }
            stats.games += 1;
            match r.winner {
                Some(_) => stats.wins += 1,
                None => stats.draws += 1,
            }
        }
        per_rules.push(format!("{side}x{side} level {level}: {} plies", stats.plies - plies_before));
    }
    println!("{stats:?}\n{per_rules:?}\ntook {:?}", started.elapsed());
    assert!(stats.plies >= 3000, "{stats:?}");
    // Both endings are covered: with seeds 1000 to 4000 the 400 games
    // give 12 to 19 draws (pieces run out), the rest wins.
    assert!(stats.draws >= 10 && stats.wins >= 100, "{stats:?}");
    assert!(stats.winning_placements >= 500 && stats.last_piece_placements >= 10, "{stats:?}");
    failures.assert_none();
}

/// Eight pieces on nine squares: when the last one is placed without a win,
/// the game is over and drawn.
#[test]
fn small_board_is_drawn_when_the_pieces_run_out() {
    let text = "quarto 3x3 level=1 board=.75/036/241 hand=- turn=2";
    let r = reference_from(text);
    assert_eq!(r.result(), Some(None));
    // The same position reached by play: the last piece (1) placed on c1.
    let before = "quarto 3x3 level=1 board=.75/036/24. hand=1 turn=1";
    let mut q = engine_from(before);
    let mv = q.parse_move("c1").expect("c1 places the last piece");
    q.make_move(mv);
    assert_eq!(q.to_text(), text);
    assert!(engine_moves(&q).is_empty());
    let mut failures = Failures::default();
    failures.check(q.outcome() == Some(Outcome::Draw), "no piece is left: the game is drawn", || {
        format!("{text}: outcome {:?}", q.outcome())
    });
    let back = Quarto::from_text(text).map(|p| p.to_text());
    failures.check(back == Ok(text.to_string()), "the engine refuses its own text", || {
        format!("{text}: {back:?}")
    });
    failures.assert_none();
}

// --- Winning patterns ----------------------------------------------------

/// For each family and level: a placement completing one pattern of that
/// family with a shared attribute wins exactly at the levels that have it.
#[test]
fn every_pattern_family_wins_from_its_level_on() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for side in [4, 3] {
        let every = all_patterns(side);
        for (i, pattern) in every.iter().enumerate() {
            // No pattern belongs to two families.
            let mut cells = pattern.cells.clone();
            cells.sort();
            for other in &every[..i] {
                let mut o = other.cells.clone();
                o.sort();
                assert_ne!(o, cells, "{:?} and {:?} share cells", other.family, pattern.family);
            }
            for missing in 0..side {
                for attribute in 0..side {
                    let value = rng.below(2) as u8;
                    let mut sharing: Vec<u8> =
                        (0..1u8 << side).filter(|p| p >> attribute & 1 == value).collect();
                    rng.shuffle(&mut sharing);
                    // And a set that shares nothing: 0 and its complement.
                    let mut mixed: Vec<u8> = vec![0, (1 << side) - 1];
                    mixed.extend((1..(1u8 << side) - 1).filter(|_| rng.chance(50)).take(side - 2));
                    for (pieces, shares) in [(&sharing, true), (&mixed, false)] {
                        if pieces.len() < side {
                            continue;
                        }
                        let levels: Vec<usize> = if side == 4 { vec![1, 2, 3, 4] } else { vec![1] };
                        for level in levels {
                            let mut r = RefPos::new(side, level);
                            let mut k = 0;
                            for (j, &(row, col)) in pattern.cells.iter().enumerate() {
                                if j != missing {
                                    r.board[row][col] = Some(pieces[k]);
                                    k += 1;
                                }
                            }
                            r.hand = Some(pieces[k]);
                            r.turn = 1 - (side - 1) % 2;
                            let text = r.text();
                            let target = pattern.cells[missing];
                            let should_win = shares && pattern.family.level() <= level;
                            assert_eq!(r.placement_wins(target, pieces[k]), should_win, "reference, {text}");
                            let mut q = engine_from(&text);
                            let square = quarto_reference::cell_name(target);
                            let give = r.available()[0];
                            let mv = match q.parse_move(&square) {
                                Ok(mv) => mv,
                                Err(_) => q
                                    .parse_move(&format!("{square}{}", hex(give)))
                                    .unwrap_or_else(|e| panic!("{text}: {square}: {e}")),
                            };
                            q.make_move(mv);
                            let expected = should_win.then_some(Outcome::Win(r.turn));
                            assert_eq!(
                                q.outcome(),
                                expected,
                                "{:?} at level {level}: {text} then {square}",
                                pattern.family
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    println!("{checked} placements");
}

// --- Symmetry ------------------------------------------------------------

/// The board symmetries of the rules: the 8 rotations and reflections, and
/// on level 1 also the inner/outer and middle swaps; closed under composition.
fn board_group(side: usize, level: usize) -> Vec<CellMap> {
    let mut generators: Vec<CellMap> = (0..8).map(|i| dihedral(side, i)).collect();
    if side == 4 && level == 1 {
        generators.push(axis_permutation(4, [1, 0, 3, 2]));
        generators.push(axis_permutation(4, [0, 2, 1, 3]));
    }
    let mut group = vec![dihedral(side, 0)];
    let mut at = 0;
    while at < group.len() {
        for g in &generators {
            let next = compose(side, g, &group[at]);
            if !group.contains(&next) {
                group.push(next);
            }
        }
        at += 1;
    }
    group
}

/// Every relabelling of pieces: attribute permutation and complement mask.
fn relabellings(attributes: usize) -> Vec<(Vec<usize>, u8)> {
    let mut perms: Vec<Vec<usize>> = vec![vec![]];
    for _ in 0..attributes {
        perms = perms
            .into_iter()
            .flat_map(|p| {
                let free: Vec<usize> = (0..attributes).filter(|a| !p.contains(a)).collect();
                free.into_iter().map(move |a| {
                    let mut q = p.clone();
                    q.push(a);
                    q
                })
            })
            .collect();
    }
    perms.into_iter().flat_map(|p| (0..1u8 << attributes).map(move |m| (p.clone(), m))).collect()
}

/// Whether some symmetry of the group and some relabelling map `a` to `b`.
fn equivalent(a: &RefPos, b: &RefPos, group: &[CellMap]) -> bool {
    relabellings(a.attributes())
        .iter()
        .any(|(perm, mask)| group.iter().any(|map| a.transformed(map, |p| relabel(p, perm, *mask)) == *b))
}

#[test]
fn the_engine_symmetry_groups_are_the_documented_ones() {
    use tabula::games::quarto::patterns::patterns as engine_patterns;
    use tabula::games::quarto::symmetry::automorphisms;
    for (side, level) in RULES {
        let group = board_group(side, level);
        for map in &group {
            assert!(preserves_patterns(map, side, level), "{side}x{side} level {level}: {map:?}");
        }
        let expected = if side == 4 && level == 1 { 32 } else { 8 };
        assert_eq!(group.len(), expected, "{side}x{side} level {level}");
        let engine: HashSet<Vec<usize>> = automorphisms(side * side, &engine_patterns(Rules { side, level }))
            .iter()
            .map(|image| image[..side * side].iter().map(|&s| s as usize).collect())
            .collect();
        let ours: HashSet<Vec<usize>> = group
            .iter()
            .map(|map| (0..side * side).map(|s| map[s / side][s % side]).map(|(r, c)| r * side + c).collect())
            .collect();
        assert_eq!(engine, ours, "{side}x{side} level {level}");
    }
}

#[test]
fn canonical_key_is_invariant_under_symmetries_and_relabellings() {
    let started = Instant::now();
    let mut rng = Rng::new(99);
    let mut images = 0;
    let (mut changes, mut changed_keys, mut collisions) = (0, 0, 0);
    for (side, level) in RULES {
        let group = board_group(side, level);
        let mut keys = HashSet::new();
        let count = 120;
        for _ in 0..count {
            let plies = rng.below(side * side + 2);
            let r = random_position(&mut rng, side, level, plies);
            let q = engine_from(&r.text());
            let key = q.canonical();
            keys.insert(key);
            for _ in 0..6 {
                let map = rng.pick(&group);
                let mut perm: Vec<usize> = (0..side).collect();
                rng.shuffle(&mut perm);
                let mask = rng.below(1 << side) as u8;
                let image = r.transformed(&map, |p| relabel(p, &perm, mask));
                assert_eq!(image.has_win(), r.has_win(), "reference: a symmetry changes the result");
                let qi = engine_from(&image.text());
                assert_eq!(qi.canonical(), key, "{} and its image {}", r.text(), image.text());
                assert_eq!(qi.count_moves(), q.count_moves(), "{}", image.text());
                images += 1;
            }
            // Non-symmetric changes: move a piece to an empty square, or
            // swap the piece in hand for another one.
            let mut variants = Vec::new();
            let occupied: Vec<(usize, usize)> =
                r.cells().into_iter().filter(|&(a, b)| r.board[a][b].is_some()).collect();
            if !occupied.is_empty() && !r.empty_cells().is_empty() {
                let (from, to) = (rng.pick(&occupied), rng.pick(&r.empty_cells()));
                let mut moved = r.clone();
                moved.board[to.0][to.1] = moved.board[from.0][from.1].take();
                variants.push(moved);
            }
            if r.hand.is_some() && !r.available().is_empty() {
                let mut swapped = r.clone();
                swapped.hand = Some(rng.pick(&r.available()));
                variants.push(swapped);
            }
            for variant in variants {
                // Keep only valid positions (a new win with a piece in hand is not).
                let Some(variant) = RefPos::from_text(&variant.text()) else { continue };
                let qv = engine_from(&variant.text());
                changes += 1;
                if qv.canonical() == key {
                    collisions += 1;
                    assert!(
                        equivalent(&r, &variant, &group),
                        "{} and {} share a key but are not symmetric",
                        r.text(),
                        variant.text()
                    );
                } else {
                    changed_keys += 1;
                }
            }
        }
        assert!(
            keys.len() > count / 2,
            "{side}x{side} level {level}: {} keys for {count} positions",
            keys.len()
        );
    }
    println!(
        "{images} images; {changes} changed positions, {changed_keys} new keys, {collisions} equivalent; \
         took {:?}",
        started.elapsed()
    );
    assert!(changed_keys * 10 >= changes * 8, "{changed_keys} of {changes} changes changed the key");
}

// --- Solver --------------------------------------------------------------

fn expected_score(value: Value) -> Score {
    match value {
        Value::Win(n) => Score::Mate(n as i32),
        Value::Loss(n) => Score::Mate(-(n as i32)),
        Value::Draw => Score::Centi(0),
    }
}

/// The engine's search to `depth`: its best move and its last report.
fn engine_search(
    q: &Quarto,
    depth: u32,
    tt: &mut TranspositionTable,
) -> (Option<QuartoMove>, SearchInfo<QuartoMove>) {
    let control = Control::new(false);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut last = None;
    let settings = SearchSettings::default();
    let result = search(q, &[], &limits, &settings, tt, &control, &mut |info| last = Some(info));
    (result.best, last.unwrap_or_else(|| panic!("no report for {}", q.to_text())))
}

#[test]
fn exact_search_matches_the_reference_minimax() {
    let started = Instant::now();
    let mut rng = Rng::new(4242);
    let mut failures = Failures::default();
    let (mut positions, mut horizon_checks) = (0, 0);
    let mut values: BTreeMap<String, usize> = BTreeMap::new();
    let (mut reference_time, mut engine_time) = (Duration::ZERO, Duration::ZERO);
    for (side, level) in RULES {
        let mut tt = TranspositionTable::new(16);
        let group = board_group(side, level);
        for empty in 4..=7 {
            let count = if side == 4 { 6 } else { 10 };
            for _ in 0..count {
                let r = position_with_empty(&mut rng, side, level, empty);
                let text = r.text();
                let q = engine_from(&text);
                let clock = Instant::now();
                let value = r.solve();
                reference_time += clock.elapsed();
                let kind = match value {
                    Value::Win(n) => format!("win {n}"),
                    Value::Loss(n) => format!("loss {n}"),
                    Value::Draw => "draw".into(),
                };
                *values.entry(kind).or_default() += 1;
                positions += 1;

                let clock = Instant::now();
                let (best, info) = engine_search(&q, empty as u32 + 1, &mut tt);
                engine_time += clock.elapsed();
                failures.check(info.exact, "full-depth search not exact", || text.clone());
                failures.check(info.score == expected_score(value), "search value differs", || {
                    format!("{text}: engine {:?}, reference {value:?}", info.score)
                });
                // The best move keeps the value; in particular it never hands
                // over a winning piece while a safe one exists.
                let best = best.map(|m| as_ref_move(side, m));
                match best.filter(|m| r.legal_moves().contains(m)) {
                    None => failures.check(false, "no legal best move", || format!("{text}: {best:?}")),
                    Some(m) => {
                        let after = r.after(m);
                        let child = after.solve().before();
                        failures.check(child == value, "best move is not optimal", || {
                            format!("{text}: {} gives {child:?}, value {value:?}", m.name())
                        });
                        let hands_a_win = m.give.is_some_and(|p| piece_wins_now(&after, p));
                        failures.check(
                            !hands_a_win || value == Value::Loss(1),
                            "best move gives a winning piece",
                            || format!("{text}: {} while value {value:?}", m.name()),
                        );
                    }
                }
                // A symmetric image has the same value.
                let map = rng.pick(&group);
                let mut perm: Vec<usize> = (0..side).collect();
                rng.shuffle(&mut perm);
                let mask = rng.below(1 << side) as u8;
                let image = r.transformed(&map, |p| relabel(p, &perm, mask));
                let (_, image_info) = engine_search(&engine_from(&image.text()), empty as u32 + 1, &mut tt);
                failures.check(
                    image_info.score == info.score && image_info.exact,
                    "image value differs",
                    || format!("{text} {:?} vs {} {:?}", info.score, image.text(), image_info.score),
                );
                // A forced win within a shorter horizon is found too.
                if let Value::Win(n) = value {
                    let depth = 2 * n - 1;
                    if depth < empty as u32 + 1 {
                        let mut fresh = TranspositionTable::new(1);
                        let (best, info) = engine_search(&q, depth, &mut fresh);
                        horizon_checks += 1;
                        failures.check(
                            info.score == Score::Mate(n as i32),
                            "win within the horizon missed",
                            || format!("{text} depth {depth}: {:?}, reference {value:?}", info.score),
                        );
                        let child = best.map(|m| r.after(as_ref_move(side, m)).solve().before());
                        failures.check(child == Some(value), "horizon best move does not win", || {
                            format!("{text} depth {depth}: {best:?} gives {child:?}")
                        });
                    }
                }
            }
        }
    }
    println!(
        "{positions} positions {values:?}, {horizon_checks} horizon checks; reference {reference_time:?}, \
         engine {engine_time:?}, total {:?}",
        started.elapsed()
    );
    assert!(values.keys().any(|k| k.starts_with("win")) && values.contains_key("draw"), "{values:?}");
    assert!(values.keys().any(|k| k.starts_with("loss")), "{values:?}");
    failures.assert_none();
}

/// One transposition table reused across rule levels (the protocol keeps
/// it when only the level changes): values must stay those of each level.
#[test]
fn a_shared_table_does_not_mix_levels() {
    let mut rng = Rng::new(5150);
    let mut failures = Failures::default();
    let mut tt = TranspositionTable::new(16);
    let mut compared = 0;
    let mut different_values = 0;
    while compared < 40 {
        let level = 1 + rng.below(4);
        let empty = 4 + rng.below(3);
        let r = position_with_empty(&mut rng, 4, level, empty);
        let empty = empty as u32;
        for other in 1..=4 {
            let mut o = r.clone();
            o.level = other;
            if o.has_win() {
                continue;
            }
            let value = o.solve();
            let (_, info) = engine_search(&engine_from(&o.text()), empty + 1, &mut tt);
            failures.check(info.score == expected_score(value), "value from another level", || {
                let (_, alone) = engine_search(&engine_from(&o.text()), empty + 1, &mut TranspositionTable::new(1));
                format!(
                    "{}: engine {:?} after searching the other levels, {:?} with a fresh table; reference {value:?}",
                    o.text(),
                    info.score,
                    alone.score
                )
            });
            different_values += usize::from(value != r.solve());
            compared += 1;
        }
    }
    println!("{compared} searches, {different_values} differ from the first level's value");
    failures.assert_none();
}

#[test]
fn a_level_2_search_after_a_level_1_search_of_the_same_board() {
    let board = "board=3c8b/..60/75../a2.. hand=9 turn=2";
    let level1 = engine_from(&format!("quarto 4x4 level=1 {board}"));
    let level2_text = format!("quarto 4x4 level=2 {board}");
    let level2 = engine_from(&level2_text);
    assert_eq!(reference_from(&level2_text).solve(), Value::Win(2));
    let (_, alone) = engine_search(&level2, 7, &mut TranspositionTable::new(16));
    assert_eq!(alone.score, Score::Mate(2), "fresh table");
    let mut tt = TranspositionTable::new(16);
    let (_, first) = engine_search(&level1, 7, &mut tt);
    let (_, second) = engine_search(&level2, 7, &mut tt);
    println!("level 1 {:?}, then level 2 {:?}", first.score, second.score);
    assert_eq!(second.score, Score::Mate(2), "level 2 after level 1 in one table");
}

#[test]
fn the_small_board_is_a_first_placer_win() {
    let q = Quarto::new(Rules { side: 3, level: 1 }).unwrap();
    let mut tt = TranspositionTable::new(64);
    let clock = Instant::now();
    let (best, info) = engine_search(&q, 10, &mut tt);
    let took = clock.elapsed();
    println!("3x3 from the start: {:?} exact {} in {took:?} ({} nodes)", info.score, info.exact, info.nodes);
    assert!(info.exact, "{info:?}");
    assert!(matches!(info.score, Score::Mate(n) if n < 0), "player 1 (the first giver) loses: {info:?}");
    assert!(best.is_some());
    // Measured on an idle 2-core machine: see the printed time.
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // The reference agrees: whichever piece player 1 gives first, player 2
    // wins with its third placement at the latest, and not sooner.
    let clock = Instant::now();
    let Score::Mate(n) = info.score else { unreachable!() };
    let start = RefPos::new(3, 1);
    for give in start.legal_moves() {
        let after = start.after(give);
        assert!(after.wins_within(-n as u32), "after {}", give.name());
        assert!(!after.wins_within(-n as u32 - 1), "after {}", give.name());
    }
    println!("reference check {:?}", clock.elapsed());
}

// --- Reference perft over the data file ----------------------------------

/// (position, depth, count) of every case in tests/data/quarto.perft.
fn perft_cases() -> Vec<(String, u32, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/quarto.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let mut position = String::new();
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(p) = line.strip_prefix("position ") {
            position = p.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            cases.push((position.clone(), words[0].parse().unwrap(), words[1].parse().unwrap()));
        }
    }
    cases
}

fn check_reference_perft(max_count: u64) -> usize {
    let mut checked = 0;
    for (text, depth, expected) in perft_cases() {
        if expected > max_count {
            continue;
        }
        assert_eq!(reference_from(&text).perft(depth), expected, "{text} perft {depth}");
        checked += 1;
    }
    checked
}

#[test]
fn reference_perft_matches_the_data_file() {
    let clock = Instant::now();
    let checked = check_reference_perft(1_000_000);
    println!("{checked} cases in {:?}", clock.elapsed());
    assert!(checked >= 55);
}

/// Every case, including the 4x4 start at depth 4 (slow in the reference).
#[test]
#[ignore]
fn reference_perft_matches_the_whole_data_file() {
    let clock = Instant::now();
    let checked = check_reference_perft(u64::MAX);
    println!("{checked} cases in {:?}", clock.elapsed());
}

#[test]
fn level_families_match_the_rule_counts() {
    let count = |side, level| patterns(side, level).len();
    assert_eq!([count(4, 1), count(4, 2), count(4, 3), count(4, 4), count(3, 1)], [10, 19, 23, 29, 8]);
    for family in Family::ALL {
        assert!(all_patterns(4).iter().any(|p| p.family == family));
    }
}

/// The move and node count of a handicapped search from a fresh table.
fn level_search(q: &Quarto, level: u32, seed: u64) -> (Option<QuartoMove>, u64) {
    let handicap = q.handicap(level).unwrap_or_else(|| panic!("level {level} has no handicap"));
    let (limits, settings) = with_handicap(Limits::default(), SearchSettings::default(), handicap, seed);
    let mut tt = TranspositionTable::new(4);
    let control = Control::new(false);
    let result = search(q, &[], &limits, &settings, &mut tt, &control, &mut |_| {});
    (result.best, result.nodes)
}

#[test]
fn search_levels_are_deterministic_for_a_seed() {
    // Early, middle and late positions: the handicaps bind by depth, by
    // nodes, or not at all (the endgame is solved whatever the level).
    let texts = [
        "quarto 4x4 level=1 board=..../..../..../.... hand=5 turn=2",
        "quarto 4x4 level=1 board=..../.7../..../.... hand=a turn=1",
        "quarto 4x4 level=1 board=..../..3./.c../5..e hand=1 turn=2",
        "quarto 4x4 level=2 board=9.../.3.6/.c../5.be hand=1 turn=1",
    ];
    for text in texts {
        let q = engine_from(text);
        for level in 4..=9 {
            for seed in [0, 12_345] {
                let first = level_search(&q, level, seed);
                assert!(first.0.is_some(), "level {level} found no move in {text}");
                assert_eq!(level_search(&q, level, seed), first, "level {level}, seed {seed}, {text}");
            }
        }
    }
    // Levels 1-3 are scripted and 10 is full strength: no handicap.
    let q = engine_from(texts[0]);
    assert!([1, 2, 3, 10].iter().all(|&level| q.handicap(level).is_none()));
}
