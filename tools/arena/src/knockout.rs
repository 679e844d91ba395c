//! `-tournament knockout`: single elimination, as cutechess-cli plays it.
//! The engines are placed in a bracket of the next power of two (the first
//! `-seeds` in order so that the best seeds meet last, the others shuffled
//! by `-seed`; free places are byes given to the top seeds). An encounter
//! plays `-games` games and goes on while it is undecided: the leader must
//! have more than half the points of `-games` games and lead by more than a
//! draw (by a point and a half for an even number of games, extended two
//! games at a time). After ten times `-games` still level, the better seed
//! goes on. Winners meet in the next round until one is left.

use crate::config::Config;
use crate::referee::GameRecord;
use crate::setup::{Job, Opening};

/// Games an encounter may add before the better seed goes on, in units of `-games`.
pub const EXTENSION_LIMIT: usize = 10;

/// The openings of a knockout, whose encounters each play the same
/// sequence: as many as its longest encounter can take.
pub fn openings_of(config: &Config) -> Result<Vec<Opening>, String> {
    let needed = (config.games * EXTENSION_LIMIT).div_ceil(config.repeat.max(1));
    crate::schedule::openings(config, needed)
}

/// One encounter of a round.
#[derive(Clone, Debug)]
struct Encounter {
    /// The engines, better seed first; `None` for a bye.
    engines: [Option<usize>; 2],
    /// Half-points of each (a win 2, a draw 1).
    score: [u32; 2],
    started: usize,
    finished: usize,
    /// A number no other encounter has, for the games' groups.
    id: usize,
}

impl Encounter {
    fn in_progress(&self) -> usize {
        self.started - self.finished
    }

    /// Whether more games must start, counting games in progress as won by
    /// the leader (cutechess-cli's rule).
    fn needs_games(&self, games: usize) -> bool {
        if self.engines[1].is_none() || self.engines[0].is_none() {
            return false;
        }
        if self.started >= games * EXTENSION_LIMIT {
            return false;
        }
        let pending = 2 * self.in_progress() as u32;
        let games = games as u32;
        if self.score[0].max(self.score[1]) + pending <= games {
            return true;
        }
        let least = if games.is_multiple_of(2) { 3 } else { 1 };
        let most = self.score[0].abs_diff(self.score[1]) + pending;
        if most >= least {
            return false;
        }
        if least == 1 || most == 0 {
            return true;
        }
        !self.started.is_multiple_of(2)
    }

    /// The engine that goes on (the better seed when level).
    fn winner(&self) -> Option<usize> {
        match self.engines {
            [Some(a), None] | [None, Some(a)] => Some(a),
            [Some(a), Some(b)] => Some(if self.score[1] > self.score[0] { b } else { a }),
            [None, None] => None,
        }
    }
}

/// A knockout under way.
pub struct Knockout {
    games: usize,
    per_opening: usize,
    openings: Vec<Opening>,
    rounds: Vec<Vec<Encounter>>,
    next_number: usize,
    next_id: usize,
    config: Config,
}

/// Where the player of seed `rank` (from 1) sits in a bracket of `size`
/// places: seeds 1 and 2 in different halves, and so on down.
fn place(rank: usize, size: usize) -> usize {
    if rank <= 1 {
        0
    } else if rank.is_multiple_of(2) {
        size / 2 + place(rank / 2, size / 2)
    } else {
        place(rank / 2 + 1, size / 2)
    }
}

/// The places of a bracket of `size` for engines in seed order: byes take
/// the ranks after the engines, and each bye is moved beside the next best
/// seed (the engine that sat there takes the bye's place).
fn bracket(order: &[usize], size: usize) -> Vec<Option<usize>> {
    let mut places: Vec<Option<usize>> = vec![None; size];
    let mut byes = 0;
    for rank in 0..size {
        let at = place(rank + 1, size);
        match order.get(rank) {
            Some(&engine) => places[at] = Some(engine),
            None => {
                byes += 1;
                let beside = place(byes, size) + 1;
                places[at] = places[beside];
                places[beside] = None;
            }
        }
    }
    places
}

impl Knockout {
    /// The bracket of the first round.
    pub fn new(config: &Config, openings: Vec<Opening>) -> Knockout {
        let n = config.engines.len();
        let seeded = config.seeds.min(n);
        let mut order: Vec<usize> = (0..n).collect();
        tabula::rng::Rng::new(config.seed).shuffle(&mut order[seeded..]);
        let size = n.next_power_of_two();
        let places = bracket(&order, size);
        let mut knockout = Knockout {
            games: config.games,
            per_opening: config.repeat.max(1),
            openings,
            rounds: Vec::new(),
            next_number: 1,
            next_id: 0,
            config: config.clone(),
        };
        let first = places.chunks(2).map(|pair| knockout.encounter([pair[0], pair[1]])).collect();
        knockout.rounds.push(first);
        knockout
    }

    fn encounter(&mut self, engines: [Option<usize>; 2]) -> Encounter {
        self.next_id += 1;
        Encounter { engines, score: [0; 2], started: 0, finished: 0, id: self.next_id }
    }

    /// How many games were handed out so far.
    pub fn issued(&self) -> usize {
        self.next_number - 1
    }

    /// The next game handed out is numbered `last + 1` (a resumed match
    /// goes on after its saved games).
    pub fn continue_numbers_after(&mut self, last: usize) {
        self.next_number = last + 1;
    }

    /// The fewest games the knockout can take.
    pub fn least_games(&self) -> usize {
        self.config.engines.len().saturating_sub(1) * self.games
    }

    /// The games that can start now; when a round is decided, the next
    /// one is paired first.
    pub fn jobs(&mut self) -> Vec<Job> {
        let round = self.rounds.len() - 1;
        let decided = self.rounds[round].iter().all(|e| e.in_progress() == 0 && !e.needs_games(self.games));
        if decided && self.rounds[round].len() > 1 {
            let winners: Vec<Option<usize>> = self.rounds[round].iter().map(Encounter::winner).collect();
            let next = winners.chunks(2).map(|pair| self.encounter([pair[0], pair[1]])).collect();
            self.rounds.push(next);
        }
        let round = self.rounds.len() - 1;
        let mut jobs = Vec::new();
        for at in 0..self.rounds[round].len() {
            while self.rounds[round][at].needs_games(self.games) {
                let encounter = &mut self.rounds[round][at];
                let k = encounter.started;
                encounter.started += 1;
                let pair: Vec<usize> = encounter.engines.iter().flatten().copied().collect();
                let opening = self.openings[(k / self.per_opening) % self.openings.len()].clone();
                jobs.push(Job {
                    number: self.next_number,
                    seats: crate::schedule::seats(&self.config, &pair, k),
                    opening,
                    group: encounter.id * 1_000_000 + k / self.per_opening,
                });
                self.next_number += 1;
            }
        }
        jobs
    }

    /// Counts a finished game (an interrupted one is started again).
    pub fn record(&mut self, job: &Job, record: &GameRecord) {
        let Some(encounter) = self.rounds.iter_mut().flatten().find(|e| e.id == job.group / 1_000_000) else {
            return;
        };
        if record.interrupted {
            encounter.started -= 1;
            return;
        }
        encounter.finished += 1;
        for (seat, &engine) in job.seats.iter().enumerate() {
            let side = usize::from(encounter.engines[0] != Some(engine));
            encounter.score[side] += match record.winner {
                None => 1,
                Some(w) if w == seat => 2,
                Some(_) => 0,
            };
        }
    }

    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<usize> {
        let last = self.rounds.last()?;
        let done = last.len() == 1 && last[0].in_progress() == 0 && !last[0].needs_games(self.games);
        if done {
            last[0].winner()
        } else {
            None
        }
    }

    /// Every encounter so far, round by round: `Round 1: A - B 3.0 - 1.0`.
    pub fn lines(&self, names: &[String]) -> Vec<String> {
        let name = |e: Option<usize>| e.map_or("bye".to_string(), |e| names[e].clone());
        let mut lines = Vec::new();
        for (round, encounters) in self.rounds.iter().enumerate() {
            for e in encounters {
                let points = |side: usize| f64::from(e.score[side]) / 2.0;
                lines.push(match e.engines {
                    [Some(_), Some(_)] => format!(
                        "Knockout round {}: {} - {} {:.1} - {:.1}",
                        round + 1,
                        name(e.engines[0]),
                        name(e.engines[1]),
                        points(0),
                        points(1)
                    ),
                    _ => format!("Knockout round {}: {} has a bye", round + 1, name(e.winner())),
                });
            }
        }
        if let Some(champion) = self.champion() {
            lines.push(format!("Knockout winner: {}", names[champion]));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_meet_last_and_byes_go_to_the_best() {
        // 8 places, as cutechess-cli places seeds 1..8: 1 and 2 in different
        // halves, 3 and 4 in different quarters (1-5, 3-7, 2-6, 4-8).
        let places: Vec<usize> = (1..=8).map(|r| place(r, 8)).collect();
        assert_eq!(places, [0, 4, 2, 6, 1, 5, 3, 7]);
        // Three engines in four places: the bye goes to seed 1, 2 meets 3.
        assert_eq!(bracket(&[10, 11, 12], 4), [Some(10), None, Some(11), Some(12)]);
        // Five in eight: byes to seeds 1, 2 and 3; 4 meets 5.
        let five = bracket(&[0, 1, 2, 3, 4], 8);
        let pairs: Vec<[Option<usize>; 2]> = five.chunks(2).map(|p| [p[0], p[1]]).collect();
        assert!(pairs.contains(&[Some(0), None]) && pairs.contains(&[Some(1), None]));
        assert!(pairs.contains(&[Some(2), None]) || pairs.contains(&[None, Some(2)]));
        assert!(pairs.iter().any(|p| p.contains(&Some(3)) && p.contains(&Some(4))), "{pairs:?}");
    }

    #[test]
    fn an_encounter_goes_on_while_level() {
        let mut e = Encounter { engines: [Some(0), Some(1)], score: [0; 2], started: 0, finished: 0, id: 1 };
        // Two games: 1 - 1 goes on by two more, 1.5 - 0.5 is decided.
        assert!(e.needs_games(2));
        (e.started, e.finished, e.score) = (2, 2, [2, 2]);
        assert!(e.needs_games(2));
        (e.started, e.finished, e.score) = (2, 2, [3, 1]);
        assert!(!e.needs_games(2));
        assert_eq!(e.winner(), Some(0));
        (e.started, e.finished, e.score) = (3, 3, [3, 3]);
        assert!(e.needs_games(2), "an odd number of games: one more to even it");
        // One game: a draw is replayed, a win decides.
        (e.started, e.finished, e.score) = (1, 1, [1, 1]);
        assert!(e.needs_games(1));
        (e.started, e.finished, e.score) = (1, 1, [0, 2]);
        assert!(!e.needs_games(1));
        assert_eq!(e.winner(), Some(1));
        // Level for ever: the better seed goes on.
        (e.started, e.finished, e.score) = (20, 20, [20, 20]);
        assert!(!e.needs_games(2) && e.winner() == Some(0));
    }
}
