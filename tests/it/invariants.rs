//! Invariant tests comparing the engine's Quoridor rules with the slow
//! reference implementation in `tests/reference`: random playouts over many
//! variants, reference perft, and board symmetries.

use crate::reference;

use crate::common::rng::Rng;
use reference::{PawnKind, RefMove, RefPos, Wall};
use std::collections::{BTreeSet, HashMap};
use tabula::game::prelude::*;
use tabula::game::Outcome;
use tabula::games::quoridor::{Quoridor, QuoridorMove, Variant};
use tabula::perft::perft;

fn engine_moves(position: &Quoridor) -> Vec<QuoridorMove> {
    let mut list = MoveList::default();
    position.generate_moves(&mut list);
    list.as_slice().to_vec()
}

fn engine_names(position: &Quoridor) -> Vec<String> {
    engine_moves(position).into_iter().map(|m| position.format_move(m)).collect()
}

fn reference_names(position: &RefPos) -> BTreeSet<String> {
    position.legal_moves().into_iter().map(|m| position.move_name(m)).collect()
}

fn engine_from(text: &str) -> Quoridor {
    Quoridor::from_text(text).unwrap_or_else(|e| panic!("engine refuses '{text}': {e}"))
}

fn reference_from(text: &str) -> RefPos {
    RefPos::from_text(text).unwrap_or_else(|| panic!("reference refuses '{text}'"))
}

/// What the playouts saw, to prove the interesting rules were exercised.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    plies: usize,
    games_finished: usize,
    steps: usize,
    jumps: usize,
    multi_jumps: usize,
    side_steps: usize,
    two_way_squares: usize,
    /// Walls that fit on the board but would cut a player off its goal.
    path_cut_walls: usize,
    passes: usize,
    walls_placed: usize,
    illegal_texts: usize,
    transpositions: usize,
    distinct_branches: usize,
}

/// Texts and hashes seen per variant, to check that equal positions hash
/// equally and different ones differently.
#[derive(Default)]
struct HashBook {
    by_text: HashMap<String, u64>,
    by_hash: HashMap<u64, String>,
}

impl HashBook {
    fn record(&mut self, text: &str, hash: u64) {
        if let Some(&old) = self.by_text.get(text) {
            assert_eq!(old, hash, "position '{text}' has two hashes");
        }
        if let Some(old) = self.by_hash.get(&hash) {
            assert_eq!(old, text, "hash {hash:#x} shared by two positions");
        }
        self.by_text.insert(text.to_string(), hash);
        self.by_hash.insert(hash, text.to_string());
    }
}

/// Texts that must never parse as a legal move on this board.
fn garbage_texts(width: usize, height: usize) -> Vec<String> {
    let last_col = (b'a' + width as u8 - 1) as char;
    let beyond_col = (b'a' + width as u8) as char;
    let mut texts: Vec<String> = [
        "", " ", "z9", "e0", "a0", "a01", "1a", "A", "a", "h", "v", "1", "a1x", "a1hh", "a1vh", "passs",
        "pas", "PAS", "pass ", " pass", "a1 ", " a1", "a-1", "a+1", "a1.", "é1", "a100", "a1h1", "-",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    texts.push(format!("{beyond_col}1"));
    texts.push(format!("a{}", height + 1));
    texts.push(format!("a{}h", height));
    texts.push(format!("a{}v", height));
    texts.push(format!("{last_col}1h"));
    texts.push(format!("{last_col}1v"));
    texts.push(format!("{beyond_col}1h"));
    texts.push(format!("a{}h", height + 1));
    // A middle column's wall on the north edge and beyond (`e9h`, `e10h` on 9x9).
    let mid_col = (b'a' + (width / 2) as u8) as char;
    texts.push(format!("{mid_col}{height}h"));
    texts.push(format!("{mid_col}{}h", height + 1));
    texts.push(format!("{mid_col}{}v", height + 1));
    texts
}

/// All the per-position checks of the playouts; returns the reference's legal
/// moves.
fn check_position(
    engine: &Quoridor,
    reference: &RefPos,
    rng: &mut Rng,
    stats: &mut Stats,
    book: &mut HashBook,
) -> Vec<RefMove> {
    stats.positions += 1;
    let text = engine.to_text();
    let ref_set = check_same_moves(engine, reference, &text);
    check_state_and_text(engine, reference, &text, book);
    check_names_parse_back(engine, &text);
    check_illegal_texts_refused(engine, reference, &ref_set, rng, stats, &text);
    let ref_moves = reference.legal_moves();
    count_move_kinds(reference, &ref_moves, stats);
    ref_moves
}

/// (a) The same legal move set, no duplicates in the engine's list, and
/// (b) counting agrees with generating. Returns the reference's move names.
fn check_same_moves(engine: &Quoridor, reference: &RefPos, text: &str) -> BTreeSet<String> {
    // (a) The same legal move set, and no duplicates in the engine's list.
    let names = engine_names(engine);
    let engine_set: BTreeSet<String> = names.iter().cloned().collect();
    assert_eq!(engine_set.len(), names.len(), "duplicate moves in {text}: {names:?}");
    let ref_set = reference_names(reference);
    if engine_set != ref_set {
        let extra: Vec<_> = engine_set.difference(&ref_set).collect();
        let missing: Vec<_> = ref_set.difference(&engine_set).collect();
        panic!("move sets differ in '{text}': engine has extra {extra:?}, lacks {missing:?}");
    }

    assert_eq!(engine.count_moves(), names.len() as u64, "count_moves in {text}");
    ref_set
}

/// (c) The incremental hash, and (d) the position text round-trips and
/// describes the reference's state.
fn check_state_and_text(engine: &Quoridor, reference: &RefPos, text: &str, book: &mut HashBook) {
    // (c) The incremental hash.
    assert_eq!(engine.hash(), engine.hash_from_scratch(), "hash drift in {text}");

    // (d) The position text round-trips, and describes the reference's state.
    let reread = engine_from(text);
    assert_eq!(reread.to_text(), text, "text round trip");
    assert_eq!(reread.hash(), engine.hash(), "hash after text round trip of {text}");
    assert!(reread == *engine, "position differs after text round trip of {text}");
    assert!(
        reference_from(text) == *reference,
        "engine text '{text}' is not the reference position '{}'",
        reference.text()
    );
    assert!(
        engine_from(&reference.text()) == *engine,
        "reference text '{}' reads as another position than '{text}'",
        reference.text()
    );
    assert_eq!(engine.side_to_move(), reference.turn, "side to move in {text}");
    assert_eq!(engine.outcome(), reference.winner().map(Outcome::Win), "outcome of {text}");
    book.record(text, engine.hash());
}

/// (e) Every move's name parses back to the move, in either case.
fn check_names_parse_back(engine: &Quoridor, text: &str) {
    for mv in engine_moves(engine) {
        let name = engine.format_move(mv);
        assert_eq!(engine.parse_move(&name), Ok(mv), "'{name}' in {text}");
        let shouted = name.to_ascii_uppercase();
        assert_eq!(engine.parse_move(&shouted), Ok(mv), "'{shouted}' in {text}");
    }
}

/// (f) Texts of moves the rules forbid here are refused: squares and walls
/// of the board, random ones, those next to the pawns, walls on or across
/// those on the board, and garbage.
fn check_illegal_texts_refused(
    engine: &Quoridor,
    reference: &RefPos,
    ref_set: &BTreeSet<String>,
    rng: &mut Rng,
    stats: &mut Stats,
    text: &str,
) {
    let mut refuse = |candidate: String| {
        if !ref_set.contains(&candidate) {
            stats.illegal_texts += 1;
            assert!(engine.parse_move(&candidate).is_err(), "illegal '{candidate}' accepted in {text}");
        }
    };
    let (w, h) = (reference.width, reference.height);
    if w * h <= 81 {
        // Small boards: every square and wall name of the board.
        for col in 0..w {
            for row in 0..h {
                refuse(reference::square_name(col, row));
                if col + 1 < w && row + 1 < h {
                    for vertical in [false, true] {
                        refuse(reference::wall_name(Wall { col, row, vertical }));
                    }
                }
            }
        }
    }
    for _ in 0..6 {
        refuse(reference::square_name(rng.below(w), rng.below(h)));
        let wall = Wall { col: rng.below(w - 1), row: rng.below(h - 1), vertical: rng.chance(50) };
        refuse(reference::wall_name(wall));
    }
    // Squares next to every pawn and the pawns' own squares.
    for &(c, r) in &reference.pawns {
        refuse(reference::square_name(c, r));
        for (dc, dr) in [(0i64, 2i64), (2, 0), (0, -2), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let (nc, nr) = (c as i64 + dc, r as i64 + dr);
            if nc >= 0 && nr >= 0 && (nc as usize) < w && (nr as usize) < h {
                refuse(reference::square_name(nc as usize, nr as usize));
            }
        }
    }
    // Walls already on the board, and walls crossing or overlapping them.
    for &wall in reference.walls.iter().take(4) {
        refuse(reference::wall_name(wall));
        refuse(reference::wall_name(Wall { vertical: !wall.vertical, ..wall }));
        let along = if wall.vertical {
            Wall { row: wall.row + 1, ..wall }
        } else {
            Wall { col: wall.col + 1, ..wall }
        };
        if along.col + 1 < w && along.row + 1 < h {
            refuse(reference::wall_name(along));
        }
    }
    refuse("pass".to_string());
    for garbage in garbage_texts(w, h) {
        stats.illegal_texts += 1;
        assert!(engine.parse_move(&garbage).is_err(), "garbage '{garbage}' accepted in {text}");
    }
}

/// Statistics over the legal pawn moves and the walls the path rule forbids.
fn count_move_kinds(reference: &RefPos, ref_moves: &[RefMove], stats: &mut Stats) {
    let (w, h) = (reference.width, reference.height);
    if reference.winner().is_none() {
        for target in reference.pawn_moves() {
            match target.kind {
                PawnKind::Step => stats.steps += 1,
                PawnKind::Jump => stats.jumps += 1,
                PawnKind::MultiJump => stats.multi_jumps += 1,
                PawnKind::Side => stats.side_steps += 1,
            }
            if target.ways > 1 {
                stats.two_way_squares += 1;
            }
        }
        if reference.hand[reference.turn] > 0 {
            for col in 0..w - 1 {
                for row in 0..h - 1 {
                    for vertical in [false, true] {
                        let wall = Wall { col, row, vertical };
                        if reference.wall_fits(wall) && !ref_moves.contains(&RefMove::Wall(wall)) {
                            stats.path_cut_walls += 1;
                        }
                    }
                }
            }
        }
        if ref_moves == [RefMove::Pass] {
            stats.passes += 1;
        }
    }
}

/// Plays a reference move on both implementations.
fn play_both(engine: &mut Quoridor, reference: &mut RefPos, mv: RefMove) {
    let name = reference.move_name(mv);
    let parsed = engine
        .parse_move(&name)
        .unwrap_or_else(|e| panic!("engine refuses '{name}' in {}: {e}", engine.to_text()));
    engine.make_move(parsed);
    reference.play(mv);
}

fn manhattan(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// The playout policy: walls half of the time when there are any, jumps and
/// side steps when offered, otherwise pawns towards each other, towards the
/// goal, or anywhere.
fn choose_move(reference: &RefPos, moves: &[RefMove], rng: &mut Rng) -> RefMove {
    let walls: Vec<RefMove> = moves.iter().copied().filter(|m| matches!(m, RefMove::Wall(_))).collect();
    let targets = reference.pawn_moves();
    if targets.is_empty() || (!walls.is_empty() && rng.chance(50)) {
        return if walls.is_empty() { moves[0] } else { rng.pick(&walls) };
    }
    let to_move = |sq: (usize, usize)| RefMove::Pawn { col: sq.0, row: sq.1 };
    let special: Vec<RefMove> =
        targets.iter().filter(|t| t.kind != PawnKind::Step).map(|t| to_move(t.square)).collect();
    if !special.is_empty() && rng.chance(60) {
        return rng.pick(&special);
    }
    let me = reference.turn;
    let score = |sq: (usize, usize)| -> usize {
        (0..reference.players())
            .filter(|&s| s != me)
            .map(|s| manhattan(sq, reference.pawns[s]))
            .min()
            .unwrap()
    };
    match rng.below(10) {
        0..=3 => {
            let best = targets.iter().map(|t| score(t.square)).min().unwrap();
            let near: Vec<RefMove> =
                targets.iter().filter(|t| score(t.square) == best).map(|t| to_move(t.square)).collect();
            rng.pick(&near)
        }
        4..=6 => {
            let distance = |sq: (usize, usize)| {
                let mut next = reference.clone();
                next.pawns[me] = sq;
                next.distance_to_goal(me).unwrap()
            };
            let best = targets.iter().map(|t| distance(t.square)).min().unwrap();
            let closer: Vec<RefMove> =
                targets.iter().filter(|t| distance(t.square) == best).map(|t| to_move(t.square)).collect();
            rng.pick(&closer)
        }
        _ => to_move(rng.pick(&targets).square),
    }
}

/// Plays a sequence of moves on fresh copies of both implementations; `None`
/// if some move of the sequence is illegal where it is played.
fn play_sequence(reference: &RefPos, sequence: &[RefMove]) -> Option<(Quoridor, RefPos)> {
    let mut engine = engine_from(&reference.text());
    let mut position = reference.clone();
    for &mv in sequence {
        if !position.legal_moves().contains(&mv) {
            return None;
        }
        play_both(&mut engine, &mut position, mv);
    }
    Some((engine, position))
}

/// Two moves of the player to move, each followed by the same replies of the
/// others, must give different hashes; played in either order around those
/// replies, equal results must hash equally and different ones not.
fn check_transposition(reference: &RefPos, moves: &[RefMove], rng: &mut Rng, stats: &mut Stats) {
    if moves.len() < 2 || reference.winner().is_some() {
        return;
    }
    let first = rng.pick(moves);
    let second = rng.pick(moves);
    if first == second {
        return;
    }
    let mut between = Vec::new();
    let mut walk = reference.clone();
    walk.play(first);
    for _ in 1..reference.players() {
        let options = walk.legal_moves();
        if options.is_empty() {
            return;
        }
        let mv = rng.pick(&options);
        between.push(mv);
        walk.play(mv);
    }
    // Different first moves, same replies: different positions.
    if let (Some((e1, r1)), Some((e2, r2))) = (
        play_sequence(reference, &[&[first][..], &between].concat()),
        play_sequence(reference, &[&[second][..], &between].concat()),
    ) {
        stats.distinct_branches += 1;
        assert!(r1 != r2);
        assert_ne!(e1.to_text(), e2.to_text());
        assert_ne!(e1.hash(), e2.hash(), "{} and {} share a hash", e1.to_text(), e2.to_text());
    }
    let order = |a: RefMove, b: RefMove| {
        let mut seq = vec![a];
        seq.extend(&between);
        seq.push(b);
        seq
    };
    let (Some((e1, r1)), Some((e2, r2))) =
        (play_sequence(reference, &order(first, second)), play_sequence(reference, &order(second, first)))
    else {
        return;
    };
    if r1 == r2 {
        stats.transpositions += 1;
        assert_eq!(e1.to_text(), e2.to_text(), "transposed orders from {}", reference.text());
        assert_eq!(e1.hash(), e2.hash(), "transposition {} hashes differently", e1.to_text());
    } else {
        stats.distinct_branches += 1;
        assert_ne!(e1.to_text(), e2.to_text());
        assert_ne!(e1.hash(), e2.hash(), "{} and {} share a hash", e1.to_text(), e2.to_text());
    }
}

/// One game from `start` with both implementations in lockstep.
fn playout(start: &str, seed: u64, max_plies: usize, stats: &mut Stats, book: &mut HashBook) {
    let mut rng = Rng::new(seed);
    let mut engine = engine_from(start);
    let mut reference = reference_from(start);
    for ply in 0..=max_plies {
        let moves = check_position(&engine, &reference, &mut rng, stats, book);
        if moves.is_empty() {
            stats.games_finished += 1;
            return;
        }
        if ply == max_plies {
            return;
        }
        if ply % 4 == 1 {
            check_transposition(&reference, &moves, &mut rng, stats);
        }
        let mv = choose_move(&reference, &moves, &mut rng);
        if matches!(mv, RefMove::Wall(_)) {
            stats.walls_placed += 1;
        }
        play_both(&mut engine, &mut reference, mv);
        stats.plies += 1;
    }
}

fn start_text(width: usize, height: usize, players: usize, walls: usize, multi_jump: bool) -> String {
    let engine = Quoridor::new(&Variant { width, height, players, walls, multi_jump }).unwrap();
    let text = engine.to_text();
    assert_eq!(
        text,
        RefPos::start(width, height, players, walls, multi_jump).text(),
        "start positions differ"
    );
    text
}

/// (width, height, players, walls, multi-jump, games, ply limit)
type PlayoutVariant = (usize, usize, usize, usize, bool, u64, usize);

/// Playouts from each variant's start and from hand-made positions, seeds
/// counted up from `seed`; returns what they saw.
fn run_playouts(variants: &[PlayoutVariant], specials: &[&str], mut seed: u64) -> Stats {
    let started = std::time::Instant::now();
    let mut stats = Stats::default();
    let mut books: HashMap<String, HashBook> = HashMap::new();
    for &(w, h, players, walls, multi, games, max_plies) in variants {
        let start = start_text(w, h, players, walls, multi);
        let book = books.entry(format!("{w}x{h} {players} {multi}")).or_default();
        let (before, clock) = (stats.plies, std::time::Instant::now());
        for _ in 0..games {
            seed += 1;
            playout(&start, seed, max_plies, &mut stats, book);
        }
        eprintln!("{start}: {} plies in {:.1?}", stats.plies - before, clock.elapsed());
    }
    for text in specials {
        let book = books.entry(format!("special {text}")).or_default();
        for _ in 0..6 {
            seed += 1;
            playout(text, seed, 60, &mut stats, book);
        }
    }
    eprintln!("{stats:#?} in {:.1?}", started.elapsed());
    stats
}

#[test]
fn random_playouts_agree_with_reference() {
    let variants: [PlayoutVariant; 16] = [
        (9, 9, 2, 10, false, 16, 160),
        (5, 5, 2, 3, false, 30, 100),
        (3, 3, 2, 1, false, 60, 60),
        (3, 7, 2, 4, false, 25, 100),
        (3, 15, 2, 6, false, 10, 120),
        (7, 3, 2, 3, false, 30, 80),
        (15, 9, 2, 8, false, 5, 120),
        (11, 11, 2, 15, false, 5, 160),
        (15, 15, 2, 20, false, 3, 160),
        (13, 13, 4, 5, false, 4, 160),
        (15, 15, 4, 6, false, 2, 120),
        (9, 9, 4, 5, false, 10, 160),
        (5, 5, 4, 2, false, 40, 100),
        (7, 7, 4, 4, true, 30, 120),
        (5, 5, 4, 1, true, 30, 80),
        (9, 9, 2, 10, true, 10, 160),
    ];
    // Hand-made starts: a line of pawns, a boxed-in pawn that must pass.
    let specials = [
        "quoridor 7x7 pawns=d2,d3,d4,d5 hand=2,2,2,2 walls=c5h turn=1 jumps=multi",
        "quoridor 7x7 pawns=d2,d3,d4,d5 hand=2,2,2,2 walls=c5h turn=1 jumps=single",
        "quoridor 5x5 pawns=a1,b1,c5,c1 hand=0,2,2,2 walls=a1h turn=1",
        "quoridor 5x5 pawns=a1,b1,c5,c1 hand=0,2,2,2 walls=a1h turn=1 jumps=multi",
        "quoridor 5x5 pawns=c2,c3 hand=2,2 walls=b3h turn=1",
        "quoridor 5x5 pawns=c3,d3,c4,e1 hand=1,1,1,1 walls=c4h,d2v turn=1",
    ];
    let stats = run_playouts(&variants, &specials, 1);
    assert!(stats.games_finished >= 50, "{stats:?}");
    assert!(stats.jumps >= 20, "{stats:?}");
    assert!(stats.side_steps >= 20, "{stats:?}");
    assert!(stats.multi_jumps >= 5, "{stats:?}");
    assert!(stats.two_way_squares >= 3, "{stats:?}");
    assert!(stats.passes >= 3, "{stats:?}");
    assert!(stats.path_cut_walls >= 100, "{stats:?}");
    assert!(stats.walls_placed >= 200, "{stats:?}");
    assert!(stats.transpositions >= 50, "{stats:?}");
    assert!(stats.distinct_branches >= 50, "{stats:?}");
}

/// Even widths, two players: the start (the column just left of the
/// centre) is the reference's, and random games agree move by move, from
/// 2 columns (one line of wall centres) to 14.
#[test]
fn even_width_playouts_agree_with_reference() {
    let variants: [PlayoutVariant; 9] = [
        (2, 3, 2, 2, false, 40, 60),
        (2, 5, 2, 3, false, 40, 80),
        (2, 15, 2, 4, false, 8, 100),
        (4, 3, 2, 2, false, 40, 60),
        (4, 4, 2, 2, false, 40, 80),
        (4, 7, 2, 5, true, 20, 100),
        (6, 9, 2, 6, false, 10, 120),
        (8, 8, 2, 8, false, 8, 140),
        (14, 15, 2, 12, false, 3, 160),
    ];
    let specials = [
        "quoridor 2x6 pawns=a3,b3 hand=1,1 walls=a4v turn=1",
        "quoridor 6x4 pawns=c2,c3 hand=2,2 walls=b3h turn=1",
        "quoridor 4x7 pawns=b3,c5 hand=3,2 walls=a2h,c4v,b5h turn=2",
    ];
    let stats = run_playouts(&variants, &specials, 5000);
    assert!(stats.games_finished >= 50, "{stats:?}");
    assert!(stats.jumps >= 20, "{stats:?}");
    assert!(stats.side_steps >= 20, "{stats:?}");
    assert!(stats.path_cut_walls >= 100, "{stats:?}");
    assert!(stats.walls_placed >= 100, "{stats:?}");
    assert!(stats.transpositions >= 20, "{stats:?}");
    assert!(stats.distinct_branches >= 20, "{stats:?}");
}

/// Reference perft agrees with the engine's; these positions and counts are
/// also in tests/data/quoridor.perft.
#[test]
fn reference_perft_matches_engine() {
    let cases: [(&str, u32); 14] = [
        ("quoridor 3x3 pawns=b1,b3 hand=1,1 walls=- turn=1", 4),
        ("quoridor 3x3 pawns=b2,b3 hand=1,1 walls=- turn=1", 4),
        ("quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1", 3),
        ("quoridor 5x5 pawns=c2,c3 hand=2,2 walls=b3h turn=1", 3),
        ("quoridor 3x7 pawns=b3,b4 hand=2,2 walls=a4h turn=2", 3),
        ("quoridor 7x3 pawns=c2,d2 hand=2,2 walls=c2v turn=1", 3),
        ("quoridor 5x5 pawns=c1,a3,c5,e3 hand=2,2,2,2 walls=- turn=1", 3),
        ("quoridor 7x7 pawns=d1,a4,d7,g4 hand=1,1,1,1 walls=- turn=1", 2),
        ("quoridor 5x5 pawns=c1,c2,c3,c4 hand=1,1,1,1 walls=- turn=1 jumps=multi", 3),
        ("quoridor 7x7 pawns=d2,d3,d4,d5 hand=2,2,2,2 walls=c5h turn=1 jumps=multi", 2),
        ("quoridor 7x7 pawns=d2,d3,d4,d5 hand=2,2,2,2 walls=c5h turn=1 jumps=single", 2),
        ("quoridor 5x5 pawns=a1,b1,c5,c1 hand=0,2,2,2 walls=a1h turn=1", 3),
        ("quoridor 5x5 pawns=a1,b1,c5,c1 hand=0,2,2,2 walls=a1h turn=1 jumps=multi", 3),
        ("quoridor 5x5 pawns=c3,d3,c4,e1 hand=1,1,1,1 walls=c4h,d2v turn=1", 3),
    ];
    let mut failures = Vec::new();
    for (text, max_depth) in cases {
        let engine = engine_from(text);
        let reference = reference_from(text);
        for depth in 1..=max_depth {
            let expected = reference.perft(depth);
            let got = perft(&engine, depth);
            eprintln!("{text}: perft {depth} {expected}");
            if got != expected {
                failures.push(format!("{text}: perft {depth} engine {got}, reference {expected}"));
            }
        }
    }
    // The boxed-in pawn passes in single-jump rules, jumps the line in multi.
    assert_eq!(reference_names(&reference_from(cases[11].0)), BTreeSet::from(["pass".to_string()]));
    assert_eq!(engine_names(&engine_from(cases[11].0)), ["pass"]);
    assert!(reference_names(&reference_from(cases[12].0)).contains("d1"));
    // d4 lies beside both jumped pawns: one move reached two ways.
    let two_ways = reference_from(cases[13].0).pawn_moves();
    assert!(two_ways.iter().any(|t| t.square == (3, 3) && t.ways == 2), "{two_ways:?}");
    assert_eq!(engine_names(&engine_from(cases[13].0)).iter().filter(|n| *n == "d4").count(), 1);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reference perft agrees with the engine's on even widths; these
/// positions and counts (some deeper) are in tests/data/quoridor.perft.
#[test]
fn reference_perft_matches_engine_on_even_widths() {
    let cases: [(&str, u32); 13] = [
        ("quoridor 2x3 pawns=a1,a3 hand=2,2 walls=- turn=1", 6),
        ("quoridor 2x5 pawns=a1,a5 hand=3,3 walls=- turn=1", 5),
        ("quoridor 2x7 pawns=a1,a7 hand=2,2 walls=- turn=1", 4),
        ("quoridor 2x6 pawns=a3,b3 hand=1,1 walls=a4v turn=1", 4),
        ("quoridor 4x3 pawns=b1,b3 hand=2,2 walls=- turn=1", 4),
        ("quoridor 4x4 pawns=b1,b4 hand=2,2 walls=- turn=1", 3),
        ("quoridor 6x6 pawns=c1,c6 hand=4,4 walls=- turn=1", 2),
        ("quoridor 8x8 pawns=d1,d8 hand=8,8 walls=- turn=1", 2),
        ("quoridor 4x7 pawns=b1,b7 hand=5,5 walls=- turn=1", 3),
        ("quoridor 4x7 pawns=b3,c5 hand=3,2 walls=a2h,c4v,b5h turn=2", 3),
        ("quoridor 6x4 pawns=c2,c3 hand=2,2 walls=b3h turn=1", 3),
        ("quoridor 14x3 pawns=g1,g3 hand=3,3 walls=- turn=1", 2),
        ("quoridor 8x9 pawns=d4,e4 hand=3,3 walls=d4v,c5h turn=2 jumps=single", 2),
    ];
    let mut failures = Vec::new();
    for (text, max_depth) in cases {
        let (engine, reference) = (engine_from(text), reference_from(text));
        for depth in 1..=max_depth {
            let (expected, got) = (reference.perft(depth), perft(&engine, depth));
            if got != expected {
                failures.push(format!("{text}: perft {depth} engine {got}, reference {expected}"));
            }
        }
    }
    // Two columns: side by side, the jump would leave the board.
    let side_by_side = reference_names(&reference_from(cases[3].0));
    assert!(["a2", "a4", "b2", "b4"].iter().all(|m| side_by_side.contains(*m)), "{side_by_side:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Symmetries

type SquareMap = dyn Fn((usize, usize)) -> (usize, usize);
type WallMap = dyn Fn(Wall) -> Wall;

/// Applies a board symmetry to a position: squares and walls mapped, seat
/// `s` becomes seat `seat(s)`.
fn transform(position: &RefPos, square: &SquareMap, wall: &WallMap, seat: &dyn Fn(usize) -> usize) -> RefPos {
    let mut out = position.clone();
    for s in 0..position.players() {
        out.pawns[seat(s)] = square(position.pawns[s]);
        out.hand[seat(s)] = position.hand[s];
    }
    out.walls = position.walls.iter().map(|&w| wall(w)).collect();
    out.turn = seat(position.turn);
    out
}

fn transform_move(mv: RefMove, square: &SquareMap, wall: &WallMap) -> RefMove {
    match mv {
        RefMove::Pawn { col, row } => {
            let (col, row) = square((col, row));
            RefMove::Pawn { col, row }
        }
        RefMove::Wall(w) => RefMove::Wall(wall(w)),
        RefMove::Pass => RefMove::Pass,
    }
}

/// The engine's legal moves of a position, mapped by a symmetry, equal its
/// moves of the mapped position; perft(2) agrees too when `deep`.
fn check_symmetry(
    original: &Quoridor,
    square: &SquareMap,
    wall: &WallMap,
    seat: &dyn Fn(usize) -> usize,
    deep: bool,
) {
    let text = original.to_text();
    let reference = reference_from(&text);
    let image = engine_from(&transform(&reference, square, wall, seat).text());
    assert_eq!(original.count_moves(), image.count_moves(), "{text} vs {}", image.to_text());
    let mapped: BTreeSet<String> = engine_names(original)
        .iter()
        .map(|name| {
            let mv = reference.parse_move_name(name).unwrap();
            reference.move_name(transform_move(mv, square, wall))
        })
        .collect();
    let image_names: BTreeSet<String> = engine_names(&image).into_iter().collect();
    assert_eq!(mapped, image_names, "{text} vs {}", image.to_text());
    if deep {
        assert_eq!(perft(original, 2), perft(&image, 2), "{text} vs {}", image.to_text());
    }
}

/// Positions of random engine-only games (walls half of the time).
fn engine_positions(start: &str, seed: u64, games: usize, max_plies: usize) -> Vec<Quoridor> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut position = engine_from(start);
        for _ in 0..max_plies {
            out.push(position.clone());
            let moves = engine_moves(&position);
            if moves.is_empty() {
                break;
            }
            let walls: Vec<QuoridorMove> = moves.iter().copied().filter(|m| m.is_wall()).collect();
            let mv = if !walls.is_empty() && rng.chance(50) { rng.pick(&walls) } else { rng.pick(&moves) };
            position.make_move(mv);
        }
    }
    out
}

#[test]
fn mirrored_two_player_positions_keep_their_moves() {
    let variants = [
        (9, 9, 10, false),
        (5, 5, 3, false),
        (3, 7, 3, false),
        (7, 3, 2, false),
        (15, 15, 10, false),
        (9, 9, 8, true),
        (4, 4, 2, false),
        (2, 5, 2, false),
        (8, 8, 8, false),
        (6, 3, 2, true),
    ];
    let mut checked = 0;
    for (i, &(w, h, walls, multi)) in variants.iter().enumerate() {
        let start = start_text(w, h, 2, walls, multi);
        for position in engine_positions(&start, 100 + i as u64, 3, 60) {
            let (width, height) = (w, h);
            // East-west mirror, seats unchanged.
            check_symmetry(
                &position,
                &move |(c, r)| (width - 1 - c, r),
                &move |wall: Wall| Wall { col: width - 2 - wall.col, ..wall },
                &|s| s,
                w * h <= 81,
            );
            // North-south flip, seats swapped.
            check_symmetry(
                &position,
                &move |(c, r)| (c, height - 1 - r),
                &move |wall: Wall| Wall { row: height - 2 - wall.row, ..wall },
                &|s| 1 - s,
                false,
            );
            checked += 1;
        }
    }
    eprintln!("{checked} positions checked");
    assert!(checked > 500, "only {checked} positions");
}

#[test]
fn rotated_four_player_positions_keep_their_moves() {
    let variants = [(5, 2, false), (7, 4, true), (9, 5, false), (13, 5, false)];
    let mut checked = 0;
    for (i, &(n, walls, multi)) in variants.iter().enumerate() {
        let start = start_text(n, n, 4, walls, multi);
        for position in engine_positions(&start, 200 + i as u64, 3, 80) {
            // A quarter turn clockwise: south goes west, west goes north, so
            // seat s's pawn becomes seat s + 1's.
            check_symmetry(
                &position,
                &move |(c, r)| (r, n - 1 - c),
                &move |w: Wall| Wall { col: w.row, row: n - 2 - w.col, vertical: !w.vertical },
                &|s| (s + 1) % 4,
                n <= 7,
            );
            checked += 1;
        }
    }
    eprintln!("{checked} positions checked");
    assert!(checked > 500, "only {checked} positions");
}

/// The search's reduced move list keeps every pawn move, lists only legal
/// moves, and drops only walls that leave every opponent's shortest path as
/// long as it was (checked with the reference's own path search).
#[test]
fn selective_moves_drop_only_walls_that_lengthen_no_opponent_path() {
    let starts =
        [start_text(9, 9, 2, 10, false), start_text(5, 5, 4, 3, false), start_text(7, 9, 2, 6, false)];
    let mut dropped_checked = 0;
    for (i, start) in starts.iter().enumerate() {
        for position in engine_positions(start, 900 + i as u64, 4, 40).into_iter().step_by(3) {
            if position.outcome().is_some() {
                continue;
            }
            let all = engine_moves(&position);
            let mut some = MoveList::default();
            let selection = position.clone().generate_selective_moves(&mut some, 0, None);
            assert!(selection.complete);
            let primary = selection.primary;
            // Asked for a few secondary walls only, it lists the primary
            // moves and those of them that are legal.
            let secondary: Vec<QuoridorMove> = some.as_slice()[primary..].to_vec();
            let asked: Vec<u16> =
                secondary.iter().step_by(7).map(|m| m.code()).chain([0x1FF, u16::MAX]).collect();
            let mut vouched_list = MoveList::default();
            let vouched = position.clone().generate_selective_moves(&mut vouched_list, 0, Some(&asked));
            assert_eq!(vouched.primary, primary, "{}", position.to_text());
            let hand = position.walls_in_hand(position.side_to_move());
            assert_eq!(vouched.complete, hand == 0, "{}", position.to_text());
            assert_eq!(vouched_list.as_slice()[..primary], some.as_slice()[..primary]);
            let expected: Vec<QuoridorMove> =
                secondary.iter().filter(|m| asked.contains(&m.code())).copied().collect();
            assert_eq!(vouched_list.as_slice()[primary..], expected[..], "{}", position.to_text());
            some.truncate(primary);
            let some = some.as_slice();
            assert!(some.iter().all(|m| all.contains(m)), "{}", position.to_text());
            let pawn_moves = |l: &[QuoridorMove]| l.iter().filter(|m| !m.is_wall()).count();
            assert_eq!(pawn_moves(some), pawn_moves(&all), "{}", position.to_text());
            let reference = reference_from(&position.to_text());
            let side = position.side_to_move();
            let opponents: Vec<usize> = (0..position.player_count()).filter(|&s| s != side).collect();
            for &mv in all.iter().filter(|m| m.is_wall() && !some.contains(m)) {
                let mut after = reference.clone();
                after.play(reference.parse_move_name(&position.format_move(mv)).expect("wall name"));
                for &seat in &opponents {
                    assert_eq!(
                        after.distance_to_goal(seat),
                        reference.distance_to_goal(seat),
                        "{} after {}",
                        position.to_text(),
                        position.format_move(mv)
                    );
                }
                dropped_checked += 1;
            }
            for seat in 0..position.player_count() {
                let profile = position.path_profile(seat).map(|(d, _)| d as usize);
                assert_eq!(profile, reference.distance_to_goal(seat), "{}", position.to_text());
            }
        }
    }
    assert!(dropped_checked > 1000, "only {dropped_checked} dropped walls checked");
}
