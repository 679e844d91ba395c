//! Parsers for what arena prints: `Finished game` and `Started game` lines,
//! score lines, and the per-engine and four-player tables.

use super::Run;

/// A `Finished game N (A vs B): RESULT {TERMINATION}` line.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub number: usize,
    /// Engine names by seat.
    pub seats: Vec<String>,
    pub result: String,
    pub termination: String,
}

impl FinishedGame {
    /// The winning seat (0-based), `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.result.as_str() {
            "1-0" => Some(0),
            "0-1" => Some(1),
            "1/2-1/2" => None,
            p => Some(p.strip_prefix('P').and_then(|n| n.parse::<usize>().ok()).expect("a result token") - 1),
        }
    }

    pub fn winner_name(&self) -> Option<&str> {
        self.winner().map(|s| self.seats[s].as_str())
    }

    /// The seat `name` played (0-based).
    pub fn seat_of(&self, name: &str) -> usize {
        self.seats.iter().position(|s| s == name).unwrap_or_else(|| panic!("{name} not in {self:?}"))
    }
}

/// Every `Finished game` line, in output order.
pub fn finished_games(stdout: &str) -> Vec<FinishedGame> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("Finished game "))
        .map(|rest| {
            let line = rest;
            let bad = || -> ! { panic!("malformed line 'Finished game {line}'") };
            let (number, rest) = rest.split_once(" (").unwrap_or_else(|| bad());
            let (names, rest) = rest.split_once("): ").unwrap_or_else(|| bad());
            let (result, rest) = rest.split_once(" {").unwrap_or_else(|| bad());
            let termination = rest.strip_suffix('}').unwrap_or_else(|| bad());
            FinishedGame {
                number: number.parse().unwrap_or_else(|_| bad()),
                seats: names.split(" vs ").map(String::from).collect(),
                result: result.to_string(),
                termination: termination.to_string(),
            }
        })
        .collect()
}

/// The numbers of every `Started game N of M (...)` line.
pub fn started_games(stdout: &str) -> Vec<usize> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Started game ")?.split_whitespace().next()?.parse().ok())
        .collect()
}

/// `Score of A vs B: W - L - D [x.xxx] N`.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub first: String,
    pub second: String,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub ratio: f64,
    pub games: u64,
}

/// Every score line, in output order (the last ones are the final results).
pub fn score_lines(stdout: &str) -> Vec<Score> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("Score of "))
        .map(|rest| {
            let bad = || -> ! { panic!("malformed line 'Score of {rest}'") };
            let (names, numbers) = rest.rsplit_once(": ").unwrap_or_else(|| bad());
            let (first, second) = names.split_once(" vs ").unwrap_or_else(|| bad());
            let words: Vec<&str> = numbers.split_whitespace().collect();
            let [w, "-", l, "-", d, ratio, n] = words[..] else { bad() };
            let int = |s: &str| s.parse::<u64>().unwrap_or_else(|_| bad());
            let ratio = ratio.strip_prefix('[').and_then(|r| r.strip_suffix(']')).unwrap_or_else(|| bad());
            assert!(ratio.len() == 5 && ratio.as_bytes()[1] == b'.', "ratio '{ratio}' is not x.xxx");
            Score {
                first: first.to_string(),
                second: second.to_string(),
                wins: int(w),
                losses: int(l),
                draws: int(d),
                ratio: ratio.parse().unwrap_or_else(|_| bad()),
                games: int(n),
            }
        })
        .collect()
}

/// A row of the per-engine table (`Engine P1 wins P2 wins mean ms ...`).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineRow {
    pub name: String,
    pub p1_wins_percent: f64,
    pub p2_wins_percent: f64,
    pub mean_ms: f64,
    pub max_ms: u64,
    pub time_losses: u64,
    pub illegal_moves: u64,
    pub crashes: u64,
}

/// The rows of the last per-engine table printed.
pub fn engine_table(stdout: &str) -> Vec<EngineRow> {
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(header) = lines.iter().rposition(|l| l.starts_with("Engine") && l.contains("P1 wins")) else {
        return Vec::new();
    };
    lines[header + 1..]
        .iter()
        .map_while(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let [name, p1, p2, mean, max, time, illegal, crashes] = w[..] else { return None };
            Some(EngineRow {
                name: name.to_string(),
                p1_wins_percent: p1.strip_suffix('%')?.parse().ok()?,
                p2_wins_percent: p2.strip_suffix('%')?.parse().ok()?,
                mean_ms: mean.parse().ok()?,
                max_ms: max.parse().ok()?,
                time_losses: time.parse().ok()?,
                illegal_moves: illegal.parse().ok()?,
                crashes: crashes.parse().ok()?,
            })
        })
        .collect()
}

/// The row of `name` in the last per-engine table.
pub fn engine_row(run: &Run, name: &str) -> EngineRow {
    let rows = engine_table(&run.stdout);
    let row = rows.into_iter().find(|r| r.name == name);
    row.unwrap_or_else(|| panic!("no per-engine row for {name}\n{run}"))
}

/// A row of the four-player standings (`Engine games wins share wins by seat`).
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsRow {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub share_percent: f64,
    /// `wins/games` per seat.
    pub by_seat: Vec<(u64, u64)>,
}

/// The rows of the last four-player standings table printed.
pub fn standings_table(stdout: &str) -> Vec<StandingsRow> {
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(header) = lines.iter().rposition(|l| l.starts_with("Engine") && l.contains("share")) else {
        return Vec::new();
    };
    lines[header + 1..]
        .iter()
        .map_while(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let [name, games, wins, share, ref seats @ ..] = w[..] else { return None };
            let by_seat = seats
                .iter()
                .map(|s| {
                    let (w, g) = s.split_once('/')?;
                    Some((w.parse().ok()?, g.parse().ok()?))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(StandingsRow {
                name: name.to_string(),
                games: games.parse().ok()?,
                wins: wins.parse().ok()?,
                share_percent: share.strip_suffix('%')?.parse().ok()?,
                by_seat,
            })
        })
        .collect()
}
