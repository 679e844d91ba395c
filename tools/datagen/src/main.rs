//! `datagen`: self-play games of Tabula's search at a fixed node count on
//! 9x9 Quoridor, for training the evaluation network (`tools/nnue`).
//!
//! Each game starts from a few random legal moves, then both sides play the
//! search's move (now and then, early on, a random one, for variety). Every
//! position the search scored is written once the game is over, one line
//! each: `POSITION TEXT|SCORE|RESULT`, the score in centi-steps and the
//! result (1, 0.5 or 0) both from the side to move's point of view.
//! Positions without a heuristic score (a mate found, or no walls left in
//! either hand, where the evaluation does not use the network) are left
//! out.
//!
//! `datagen records [--engine NAME] FILE...` writes the same lines from
//! `arena -pgnout` records of 9x9 games: every position after the opening
//! with the score the engine to move reported for it (only `NAME`'s moves
//! with `--engine`: the scores of other engines are never used). With
//! `--replies`, also the position after each such move, valued at the
//! negated score (the searcher's value of its move, seen from the side that
//! replies): without it, a record of one engine's moves holds only positions
//! where that engine is to move, and a stronger engine's wins teach a
//! network that the side to move is ahead.
//! `datagen features IN OUT` turns such lines into training records.

use std::io::Write;
use tabula::game::prelude::*;
use tabula::games::quoridor::{Quoridor, Variant};
use tabula::rng::Rng;
use tabula::search::tt::TranspositionTable;
use tabula::search::{search, Control, Limits, Score, SearchSettings};

/// Games longer than this are drawn.
const MAX_PLIES: usize = 300;
/// Scores beyond this are forced results (or nearly), not evaluations.
const SCORE_LIMIT: i32 = 5_000;

struct Args {
    games: u64,
    nodes: u64,
    seed: u64,
    out: String,
    opening_min: u64,
    opening_max: u64,
    /// Per mille of moves in the first 30 plies played at random.
    random_permille: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 100,
        nodes: 20_000,
        seed: 1,
        out: "positions.txt".into(),
        opening_min: 2,
        opening_max: 8,
        random_permille: 30,
    };
    let words: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1).ok_or_else(|| format!("{} needs a value", words[i]))?;
        let number =
            || value.parse::<u64>().map_err(|_| format!("{} takes a number, not '{value}'", words[i]));
        match words[i].as_str() {
            "--games" => args.games = number()?,
            "--nodes" => args.nodes = number()?,
            "--seed" => args.seed = number()?,
            "--out" => args.out = value.clone(),
            "--opening-min" => args.opening_min = number()?,
            "--opening-max" => args.opening_max = number()?,
            "--random-permille" => args.random_permille = number()?,
            other => return Err(format!("unknown argument '{other}'")),
        }
        i += 2;
    }
    if args.opening_max < args.opening_min {
        return Err("--opening-max is below --opening-min".into());
    }
    Ok(args)
}

fn random_move(position: &Quoridor, rng: &mut Rng) -> <Quoridor as Position>::Move {
    let mut moves = MoveList::default();
    position.generate_moves(&mut moves);
    moves.as_slice()[rng.index(moves.len())]
}

/// One game: the positions scored, each with its score for the side to
/// move and that side, and the winner (`None` for a draw).
fn play_game(
    args: &Args,
    rng: &mut Rng,
    tt: &mut TranspositionTable,
) -> (Vec<(String, i32, usize)>, Option<usize>) {
    let mut position = match Quoridor::new(&Variant::default()) {
        Ok(p) => p,
        Err(e) => panic!("the default variant is valid: {e}"),
    };
    let opening = args.opening_min + rng.below(args.opening_max - args.opening_min + 1);
    for _ in 0..opening {
        if position.outcome().is_some() {
            break;
        }
        let mv = random_move(&position, rng);
        position.make_move(mv);
    }
    tt.clear();
    let mut history: Vec<u64> = Vec::new();
    let mut scored = Vec::new();
    let limits = Limits { nodes: Some(args.nodes), ..Limits::default() };
    let settings = SearchSettings::default();
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = position.outcome() {
            return (
                scored,
                match outcome {
                    tabula::game::Outcome::Win(seat) => Some(seat),
                    tabula::game::Outcome::Draw => None,
                },
            );
        }
        if history.iter().filter(|&&h| h == position.hash()).count() >= 2 {
            return (scored, None);
        }
        let control = Control::new(false);
        let mut last = None;
        let result = search(&position, &history, &limits, &settings, tt, &control, &mut |info| {
            last = Some(info.score)
        });
        let Some(best) = result.best else { break };
        let side = position.side_to_move();
        let walls_held = (0..2).any(|s| position.walls_in_hand(s) > 0);
        if let Some(Score::Centi(score)) = last {
            if score.abs() < SCORE_LIMIT && walls_held {
                scored.push((position.to_text(), score, side));
            }
        }
        let mv = if ply < 30 && rng.below(1000) < args.random_permille {
            random_move(&position, rng)
        } else {
            best
        };
        if position.is_irreversible(mv) {
            history.clear();
        } else {
            history.push(position.hash());
        }
        position.make_move(mv);
    }
    (scored, None)
}

/// The same position with the board's columns mirrored (a -> i), in text:
/// its value is the same, so the trainer sees each position twice.
fn mirrored_text(text: &str) -> String {
    let column = |c: char, last: u8| (b'a' + last - (c as u8 - b'a')) as char;
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            if let Some(list) = word.strip_prefix("pawns=") {
                let pawns: Vec<String> = list
                    .split(',')
                    .map(|p| {
                        let mut chars = p.chars();
                        let c = chars.next().map_or('a', |c| column(c, 8));
                        format!("{c}{}", chars.as_str())
                    })
                    .collect();
                format!("pawns={}", pawns.join(","))
            } else if let Some(list) = word.strip_prefix("walls=").filter(|l| *l != "-") {
                let walls: Vec<String> = list
                    .split(',')
                    .map(|w| {
                        let mut chars = w.chars();
                        let c = chars.next().map_or('a', |c| column(c, 7));
                        format!("{c}{}", chars.as_str())
                    })
                    .collect();
                format!("walls={}", walls.join(","))
            } else {
                word.to_string()
            }
        })
        .collect();
    words.join(" ")
}

/// Bytes of one training record: the inputs (u16, unused ones 0xFFFF),
/// the evaluation terms (i32), the score and the result (f32).
const RECORD_INPUTS: usize = 48;

/// `datagen features IN OUT`: each position of IN (and its mirror image)
/// as a training record for `tools/nnue/train.py`.
fn write_features(input: &str, output: &str) -> Result<u64, String> {
    let text = std::fs::read_to_string(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let file = std::fs::File::create(output).map_err(|e| format!("cannot create {output}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    let mut records = 0;
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split('|');
        let (Some(position), Some(score), Some(result)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("{input}:{}: not POSITION|SCORE|RESULT", n + 1));
        };
        let score: f32 = score.parse().map_err(|_| format!("{input}:{}: bad score", n + 1))?;
        let result: f32 = result.parse().map_err(|_| format!("{input}:{}: bad result", n + 1))?;
        for text in [position.to_string(), mirrored_text(position)] {
            let p = Quoridor::from_text(&text).map_err(|e| format!("{input}:{}: {e}", n + 1))?;
            let side = p.side_to_move();
            let Some(terms) = p.evaluation_terms(side) else { continue };
            let inputs = p.network_inputs(side);
            let mut bytes = Vec::with_capacity(RECORD_INPUTS * 2 + terms.len() * 4 + 8);
            for i in 0..RECORD_INPUTS {
                let v = inputs.get(i).map_or(u16::MAX, |&x| x as u16);
                bytes.extend_from_slice(&v.to_le_bytes());
            }
            for t in terms {
                bytes.extend_from_slice(&t.to_le_bytes());
            }
            bytes.extend_from_slice(&score.to_le_bytes());
            bytes.extend_from_slice(&result.to_le_bytes());
            out.write_all(&bytes).map_err(|e| format!("cannot write {output}: {e}"))?;
            records += 1;
        }
    }
    out.flush().map_err(|e| format!("cannot write {output}: {e}"))?;
    Ok(records)
}

/// `datagen records`: the positions of arena records, as lines of the
/// positions file, on standard output.
fn write_records(words: &[String]) -> Result<u64, String> {
    let mut engine = None;
    let mut replies = false;
    let mut files = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "--engine" {
            engine = Some(words.get(i + 1).ok_or("--engine needs a name")?.clone());
            i += 2;
        } else if words[i] == "--replies" {
            replies = true;
            i += 1;
        } else {
            files.push(words[i].clone());
            i += 1;
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut written = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        for line in record_lines(&text, engine.as_deref(), replies) {
            writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
            written += 1;
        }
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    Ok(written)
}

/// The positions-file lines of the 9x9 games in an arena record's `text`
/// (see [`write_records`]).
fn record_lines(text: &str, engine: Option<&str>, replies: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for record in tune::records::read_records(text).into_iter().flatten() {
        let nine = record.start.width() == 9 && record.start.height() == 9;
        let Ok(positions) = record.positions() else { continue };
        if !nine {
            continue;
        }
        for (ply, (position, result)) in positions.iter().enumerate() {
            let Some(Some(score)) = record.scores.get(ply) else { continue };
            let mover = &record.players[position.side_to_move()];
            if engine.is_some_and(|name| name != mover) || score.abs() >= SCORE_LIMIT {
                continue;
            }
            let reply = positions.get(ply + 1).filter(|_| replies);
            let valued = std::iter::once((position, *score, *result))
                .chain(reply.map(|(after, after_result)| (after, -score, *after_result)));
            for (position, score, result) in valued {
                if (0..2).any(|s| position.walls_in_hand(s) > 0) {
                    lines.push(format!("{}|{score}|{result}", position.to_text()));
                }
            }
        }
    }
    lines
}

fn main() {
    let words: Vec<String> = std::env::args().collect();
    if words.get(1).map(String::as_str) == Some("records") {
        match write_records(&words[2..]) {
            Ok(n) => eprintln!("{n} positions"),
            Err(e) => {
                eprintln!("datagen: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    if words.get(1).map(String::as_str) == Some("features") {
        let (Some(input), Some(output)) = (words.get(2), words.get(3)) else {
            eprintln!("usage: datagen features IN OUT");
            std::process::exit(2);
        };
        match write_features(input, output) {
            Ok(n) => eprintln!("{n} records"),
            Err(e) => {
                eprintln!("datagen: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("datagen: {e}");
            eprintln!("usage: datagen [--games N] [--nodes N] [--seed S] [--out FILE] [--opening-min N] [--opening-max N] [--random-permille N]");
            std::process::exit(2);
        }
    };
    let file = match std::fs::OpenOptions::new().create(true).append(true).open(&args.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("datagen: cannot open {}: {e}", args.out);
            std::process::exit(1);
        }
    };
    let mut out = std::io::BufWriter::new(file);
    let mut rng = Rng::new(args.seed);
    let mut tt = TranspositionTable::new(16);
    let (mut positions, mut wins) = (0u64, [0u64; 3]);
    let started = std::time::Instant::now();
    for game in 0..args.games {
        let (scored, winner) = play_game(&args, &mut rng, &mut tt);
        wins[winner.map_or(2, |w| w)] += 1;
        for (text, score, side) in &scored {
            let result = match winner {
                Some(w) if w == *side => "1",
                Some(_) => "0",
                None => "0.5",
            };
            if let Err(e) = writeln!(out, "{text}|{score}|{result}") {
                eprintln!("datagen: cannot write {}: {e}", args.out);
                std::process::exit(1);
            }
        }
        positions += scored.len() as u64;
        if (game + 1) % 100 == 0 {
            let _ = out.flush();
            eprintln!(
                "games {} positions {positions} first {} second {} draws {} time {:.0} s",
                game + 1,
                wins[0],
                wins[1],
                wins[2],
                started.elapsed().as_secs_f64()
            );
        }
    }
    if let Err(e) = out.flush() {
        eprintln!("datagen: cannot write {}: {e}", args.out);
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 9x9 game of two plies' opening: `a` scores 30 and 40 on its two
    /// moves, `b` 10 on its one; `b` wins.
    const RECORD: &str = "[Game \"1\"]\n[Variant \"quoridor 9x9 walls=10 players=2\"]\n[P1 \"a\"]\n\
        [P2 \"b\"]\n[Result \"0-1\"]\n[Plies \"5\"]\n\na3h g6h e2 e8 e3\n0-1\n\
        ; opening plies 2\n; scores: cp30 cp10 cp40\n\n";

    /// The `SCORE|RESULT` ends of positions-file lines.
    fn values(lines: &[String]) -> Vec<&str> {
        lines.iter().filter_map(|line| line.split_once('|').map(|(_, rest)| rest)).collect()
    }

    #[test]
    fn records_give_one_engines_positions_and_with_replies_the_positions_after_its_moves() {
        let all = record_lines(RECORD, None, false);
        assert_eq!(values(&all), ["30|0", "10|1", "40|0"]);
        assert_eq!(values(&record_lines(RECORD, Some("a"), false)), ["30|0", "40|0"]);
        let replies = record_lines(RECORD, Some("a"), true);
        // After a's first move, b to move: the negated score and b's result;
        // the record holds no position after its last move.
        assert_eq!(values(&replies), ["30|0", "-30|1", "40|0"]);
        assert_eq!(replies[1], all[1].replace("|10|", "|-30|"), "the position after a's first move");
        assert!(replies[1].contains("turn=2") && replies[0].contains("turn=1"));
    }

    #[test]
    fn a_mirrored_position_has_the_same_paths_and_hands() {
        let text = "quoridor 9x9 pawns=b3,g7 hand=6,7 walls=a1h,c4v,h8h,e5v turn=2";
        let mirrored = mirrored_text(text);
        assert_eq!(mirrored, "quoridor 9x9 pawns=h3,c7 hand=6,7 walls=h1h,f4v,a8h,d5v turn=2");
        let (a, b) = (Quoridor::from_text(text).unwrap(), Quoridor::from_text(&mirrored).unwrap());
        for seat in 0..2 {
            assert_eq!(a.path_profile(seat), b.path_profile(seat));
            assert_eq!(a.evaluation_terms(seat), b.evaluation_terms(seat));
        }
        assert_eq!(mirrored_text(&mirrored), text);
    }
}
