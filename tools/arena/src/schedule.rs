//! Which games a match plays: a round robin of pairings for two players, or
//! a gauntlet (the first engine against each other one), or all four engines
//! in every game for four players; seats alternated or rotated, and the
//! opening of each game.

use crate::config::{Config, OpeningPolicy, OpeningSource};
use crate::openings::read_opening_file;
use crate::setup::{random_opening, Job, Opening};
use tabula::rng::Rng;

/// Every game of the match, in the order they start (a knockout's games
/// come from [`crate::knockout`] as results arrive).
pub fn schedule(config: &Config) -> Result<Vec<Job>, String> {
    let engines = config.engines.len();
    let players = config.variant.players();
    let encounters: Vec<Vec<usize>> =
        if players == 4 { vec![(0..4).collect()] } else { config.tournament.pairings(engines, config.seeds) };
    let games_per_encounter = config.games * config.rounds;
    let per_opening = config.repeat.max(1);
    // Games of one opening in a row form a group: a pair (or rotation)
    // played with seats exchanged, counted together by the pentanomial.
    let groups = games_per_encounter.div_ceil(per_opening);
    let needed = match config.opening_policy {
        OpeningPolicy::Default => groups,
        OpeningPolicy::Encounter => encounters.len(),
        OpeningPolicy::Round => config.rounds,
    };
    let openings = openings(config, needed)?;
    let mut jobs = Vec::new();
    for round in 0..config.rounds {
        for (encounter_index, encounter) in encounters.iter().enumerate() {
            for game in 0..config.games {
                let k = round * config.games + game;
                let opening = match config.opening_policy {
                    OpeningPolicy::Default => k / per_opening,
                    OpeningPolicy::Encounter => encounter_index,
                    OpeningPolicy::Round => round,
                };
                jobs.push(Job {
                    number: jobs.len() + 1,
                    seats: seats(config, encounter, k),
                    opening: openings[opening % openings.len()].clone(),
                    group: encounter_index * groups + k / per_opening,
                });
            }
        }
    }
    Ok(jobs)
}

/// The seats of an encounter's `k`-th game: exchanged (rotated, for four
/// players) from game to game unless `-noswap`, and reversed by `-reverse`.
pub fn seats(config: &Config, encounter: &[usize], k: usize) -> Vec<usize> {
    let players = encounter.len();
    let rotation = if config.noswap { 0 } else { k % players };
    let order: Vec<usize> =
        if config.reverse { encounter.iter().rev().copied().collect() } else { encounter.to_vec() };
    (0..players).map(|s| order[(s + rotation) % players]).collect()
}

/// The openings a match draws from: `needed` random ones, or the file's,
/// shuffled with the seed for `order=random`, from its `start`-th.
pub fn openings(config: &Config, needed: usize) -> Result<Vec<Opening>, String> {
    match &config.openings {
        OpeningSource::StartPosition => Ok(vec![Opening { fen: None, moves: Vec::new() }]),
        OpeningSource::Random { plies } => (0..needed)
            .map(|i| random_opening(&config.variant, *plies, opening_seed(config.seed, i)))
            .collect(),
        OpeningSource::File { path, random_order, format, start } => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut all = read_opening_file(&text, *format, &config.variant)?;
            if *random_order {
                shuffle(&mut all, config.seed);
            }
            if *start > all.len() {
                return Err(format!(
                    "-openings start={start}: {} holds {} openings",
                    path.display(),
                    all.len()
                ));
            }
            all.rotate_left(start - 1);
            Ok(all)
        }
    }
}

/// The seed of the `index`-th random opening of a run. Both numbers are
/// scrambled (splitmix64, the engine's own generator), so that runs with
/// nearby seeds (`-seed 7` and `-seed 11`) play unrelated openings: with
/// `seed + index` they would share all but four.
fn opening_seed(seed: u64, index: usize) -> u64 {
    let scramble = |x: u64| Rng::new(x).next_u64();
    scramble(scramble(seed) ^ index as u64)
}

/// A seeded shuffle, by the engine's own generator.
fn shuffle<T>(items: &mut [T], seed: u64) {
    Rng::new(seed).shuffle(items);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::parse;
    use crate::config::Tournament;

    fn config(line: &str) -> Config {
        parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn repeat_swaps_seats_on_one_opening() {
        let c = config("-engine cmd=a -engine cmd=b -games 4 -repeat -openings random plies=2");
        let jobs = schedule(&c).unwrap();
        assert_eq!(jobs.len(), 4);
        assert_eq!(jobs[0].seats, [0, 1]);
        assert_eq!(jobs[1].seats, [1, 0]);
        assert_eq!(jobs[0].opening, jobs[1].opening);
        assert_eq!(jobs[0].group, jobs[1].group);
        assert_ne!(jobs[1].group, jobs[2].group);
    }

    #[test]
    fn nearby_seeds_give_unrelated_openings() {
        let openings_of = |seed: u64| {
            let c = config(&format!(
                "-engine cmd=a -engine cmd=b -games 100 -openings random plies=4 -seed {seed}"
            ));
            openings(&c, 50).unwrap()
        };
        let (seven, eleven) = (openings_of(7), openings_of(11));
        assert_eq!(seven, openings_of(7), "the same seed gives the same openings");
        // 4 plies of 9x9 Quoridor give millions of sequences: any shared
        // opening would mean the seeds still overlap.
        let shared = seven.iter().filter(|o| eleven.contains(o)).count();
        assert_eq!(shared, 0, "{shared} of 50 openings shared");
    }

    #[test]
    fn round_robin_of_three_and_four_player_rotation() {
        let c = config("-engine cmd=a -engine cmd=b -engine cmd=c -games 2 -rounds 2");
        assert_eq!(schedule(&c).unwrap().len(), 3 * 2 * 2);
        let c = config(
            "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -variant players=4 walls=5 -games 4 -repeat",
        );
        let jobs = schedule(&c).unwrap();
        assert_eq!(jobs.iter().map(|j| j.seats[0]).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert!(jobs.iter().all(|j| j.group == 0));
    }

    #[test]
    fn a_gauntlet_pairs_the_first_engine_with_each_other() {
        let c =
            config("-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -tournament gauntlet -games 2");
        let jobs = schedule(&c).unwrap();
        let seats: Vec<Vec<usize>> = jobs.iter().map(|j| j.seats.clone()).collect();
        assert_eq!(seats, [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]);
        assert_eq!(Tournament::RoundRobin.pairings(4, 1).len(), 6);
        assert_eq!(Tournament::Gauntlet.pairings(2, 1), Tournament::RoundRobin.pairings(2, 1));
    }
}
