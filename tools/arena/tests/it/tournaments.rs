//! `-tournament round-robin|gauntlet` through the real binary: who plays
//! whom, and the `Rank Name Elo +/- Games Score Draw` table of three or more
//! engines, checked against the `Finished game` lines.

use crate::common::*;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// A row of the ranking table.
#[derive(Debug)]
struct RankRow {
    rank: usize,
    name: String,
    games: u64,
    score_percent: f64,
    draw_percent: f64,
}

/// Every ranking table printed, in output order.
fn ranking_tables(stdout: &str) -> Vec<Vec<RankRow>> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut tables = Vec::new();
    for (at, _) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("Rank Name")) {
        let words: Vec<&str> = lines[at].split_whitespace().collect();
        assert_eq!(words, ["Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"]);
        let rows = lines[at + 1..]
            .iter()
            .map_while(|line| {
                let w: Vec<&str> = line.split_whitespace().collect();
                let [rank, name, _elo, _margin, games, score, draw] = w[..] else { return None };
                Some(RankRow {
                    rank: rank.parse().ok()?,
                    name: name.to_string(),
                    games: games.parse().ok()?,
                    score_percent: score.strip_suffix('%')?.parse().ok()?,
                    draw_percent: draw.strip_suffix('%')?.parse().ok()?,
                })
            })
            .collect();
        tables.push(rows);
    }
    tables
}

/// Plays three depth-limited `tabula`s on 5x5 with `flags`; checks the
/// pairings played and the final table against the `Finished` lines.
fn three_engines(flags: &str, pairings: &[(&str, &str)], games_each: u64) -> Run {
    let mut args = Vec::new();
    for name in ["A", "B", "C"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    let rest = format!("-each depth=2 timemargin=2000 -variant width=5 height=5 walls=2 -games 2 {flags}");
    args.extend(rest.split_whitespace().map(String::from));
    let run = ArenaRun::new(&args).limit(Duration::from_secs(90)).run();
    run.expect_exit(0);
    let finished = finished_games(&run.stdout);
    run.check(finished.len() == pairings.len() * games_each as usize, "every game finished");
    let played: HashSet<(String, String)> = finished
        .iter()
        .map(|f| {
            let mut seats = f.seats.clone();
            seats.sort();
            (seats[0].clone(), seats[1].clone())
        })
        .collect();
    let expected: HashSet<(String, String)> =
        pairings.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    run.check(played == expected, "the pairings of the tournament");
    let scores: Vec<(String, String)> =
        score_lines(&run.stdout).into_iter().map(|s| (s.first, s.second)).collect();
    run.check(scores.iter().all(|p| expected.contains(p)), "a score line per pairing played");
    // Points and draws of each engine, from the Finished lines.
    let mut points: HashMap<String, (f64, u64, u64)> = HashMap::new();
    for f in &finished {
        for (seat, name) in f.seats.iter().enumerate() {
            let entry = points.entry(name.clone()).or_default();
            entry.2 += 1;
            match f.winner() {
                None => {
                    entry.0 += 0.5;
                    entry.1 += 1;
                }
                Some(w) if w == seat => entry.0 += 1.0,
                Some(_) => {}
            }
        }
    }
    let tables = ranking_tables(&run.stdout);
    let last = tables.last().unwrap_or_else(|| panic!("no ranking table\n{run}"));
    run.check(last.len() == 3, "a row per engine");
    for (i, row) in last.iter().enumerate() {
        let (p, draws, games) = points.get(&row.name).copied().unwrap_or_default();
        assert_eq!(row.rank, i + 1, "{row:?}");
        assert_eq!(row.games, games, "{row:?}");
        assert!((row.score_percent - 100.0 * p / games as f64).abs() < 0.051, "{row:?}");
        assert!((row.draw_percent - 100.0 * draws as f64 / games as f64).abs() < 0.051, "{row:?}");
    }
    let ranked: Vec<f64> = last.iter().map(|r| r.score_percent).collect();
    run.check(ranked.windows(2).all(|w| w[0] >= w[1]), "ranked by score");
    run
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let run = three_engines("-tournament gauntlet -ratinginterval 2", &[("A", "B"), ("A", "C")], 2);
    // After game 2 (of 4), then the final results.
    run.check(ranking_tables(&run.stdout).len() == 2, "a table at the rating interval and at the end");
    let a = &ranking_tables(&run.stdout)[1].iter().find(|r| r.name == "A").map(|r| r.games);
    run.check(*a == Some(4), "the first engine plays every game");
}

#[test]
fn a_round_robin_ranks_three_engines() {
    three_engines("-tournament round-robin", &[("A", "B"), ("A", "C"), ("B", "C")], 2);
}

/// Two engines keep the pairwise lines alone; four players keep their own table.
#[test]
fn two_engines_print_no_ranking_table() {
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args.extend(
        "-each depth=1 -variant width=5 height=5 walls=2 -games 2 -tournament gauntlet"
            .split_whitespace()
            .map(String::from),
    );
    let run = ArenaRun::new(&args).limit(Duration::from_secs(60)).run();
    run.expect_exit(0);
    run.check(ranking_tables(&run.stdout).is_empty(), "no ranking table for two engines");
    run.check(score_lines(&run.stdout).len() == 1, "one score line");
}
