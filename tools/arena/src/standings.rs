//! What a match has shown so far: the score of every pairing (with
//! pentanomial pairs when openings are repeated), and per-engine win ratios by
//! seat, time per move and faults; and the text of the result blocks.

use crate::referee::{Fault, GameRecord, SKIPPED};
use crate::setup::Job;
use crate::stats::fastchess::{self, Heading};
use crate::stats::{
    format_elo_line, format_pentanomial_line, format_score_line, format_sprt_decision, format_sprt_line,
    MoveTimes, Outcome, Pentanomial, Sprt, SprtDecision, Tally,
};
use std::collections::HashMap;

/// Per-engine numbers.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    pub games_in_seat: [u64; 4],
    pub wins_in_seat: [u64; 4],
    pub times: MoveTimes,
    pub time_losses: u64,
    pub illegal_moves: u64,
    pub crashes: u64,
}

#[derive(Default)]
pub struct Standings {
    names: Vec<String>,
    players: usize,
    /// Keyed by the pairing (lower engine index first), from its point of view.
    tallies: HashMap<(usize, usize), Tally>,
    pentanomials: HashMap<(usize, usize), Pentanomial>,
    /// Finished games of a group still waiting for their partner.
    open_pairs: HashMap<usize, Outcome>,
    pub engines: Vec<EngineStats>,
    pub games: u64,
}

impl Standings {
    pub fn new(names: Vec<String>, players: usize) -> Standings {
        let engines = vec![EngineStats::default(); names.len()];
        Standings { names, players, engines, ..Standings::default() }
    }

    /// Adds a finished game.
    pub fn record(&mut self, job: &Job, record: &GameRecord, repeat: bool) {
        self.games += 1;
        for (seat, &engine) in job.seats.iter().enumerate() {
            let stats = &mut self.engines[engine];
            stats.games_in_seat[seat] += 1;
            if record.winner == Some(seat) {
                stats.wins_in_seat[seat] += 1;
            }
        }
        for played in record.moves.iter().filter(|m| m.text != SKIPPED) {
            self.engines[job.seats[played.seat]].times.record(played.millis);
        }
        for &(seat, fault) in &record.faults {
            let stats = &mut self.engines[job.seats[seat]];
            match fault {
                Fault::TimeLoss => stats.time_losses += 1,
                Fault::Illegal => stats.illegal_moves += 1,
                Fault::Crash => stats.crashes += 1,
            }
        }
        if self.players == 2 {
            let (a, b) = (job.seats[0].min(job.seats[1]), job.seats[0].max(job.seats[1]));
            let outcome = match record.winner {
                None => Outcome::Draw,
                Some(seat) if job.seats[seat] == a => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
            self.tallies.entry((a, b)).or_default().record(outcome);
            if repeat {
                match self.open_pairs.remove(&job.group) {
                    Some(first) => self.pentanomials.entry((a, b)).or_default().record_pair(first, outcome),
                    None => {
                        self.open_pairs.insert(job.group, outcome);
                    }
                }
            }
        }
    }

    /// The two-engine tally, for SPRT.
    pub fn head_to_head(&self) -> (Tally, Option<Pentanomial>) {
        let tally = self.tallies.get(&(0, 1)).cloned().unwrap_or_default();
        (tally, self.pentanomials.get(&(0, 1)).cloned())
    }

    /// The log-likelihood ratio of the head-to-head results: from pairs
    /// where they are counted (and the model takes them), else from games.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let (tally, pentanomial) = self.head_to_head();
        match &pentanomial {
            Some(p) if p.pairs() > 0 && sprt.takes_pairs() => sprt.llr_pentanomial(p),
            _ => sprt.llr_trinomial(&tally),
        }
    }

    /// The SPRT line and decision.
    pub fn sprt(&self, sprt: &Sprt) -> (String, Option<SprtDecision>) {
        let llr = self.llr(sprt);
        let decision = sprt.decision(llr);
        let mut line = format_sprt_line(sprt, llr);
        let text = format_sprt_decision(decision);
        if !text.is_empty() {
            line.push_str(&format!("\n{text}"));
        }
        (line, decision)
    }

    /// The result block: scores per pairing (two players; with three or
    /// more engines, the ranking table after them) or the standings table
    /// (four players), then per-engine numbers.
    pub fn report(&self, sprt: Option<&Sprt>) -> Vec<String> {
        let mut lines = Vec::new();
        if self.players == 2 {
            let mut pairings: Vec<_> = self.tallies.keys().copied().collect();
            pairings.sort();
            for (a, b) in pairings {
                let tally = &self.tallies[&(a, b)];
                let pentanomial = self.pentanomials.get(&(a, b)).filter(|p| p.pairs() > 0);
                lines.push(format_score_line(&self.names[a], &self.names[b], tally));
                lines.push(format_elo_line(tally, pentanomial));
                if let Some(p) = pentanomial {
                    lines.push(format_pentanomial_line(p));
                }
            }
            if let Some(s) = sprt {
                lines.extend(self.sprt(s).0.lines().map(String::from));
            }
            if self.names.len() >= 3 {
                lines.extend(crate::ranking::ranking_lines(&self.names, &self.tallies));
            }
        } else {
            lines.push(format!(
                "{:<16} {:>6} {:>6} {:>7}  wins by seat P1/P2/P3/P4",
                "Engine", "games", "wins", "share"
            ));
            for (i, e) in self.engines.iter().enumerate() {
                let games: u64 = e.games_in_seat.iter().sum();
                let wins: u64 = e.wins_in_seat.iter().sum();
                let by_seat: Vec<String> =
                    (0..4).map(|s| format!("{}/{}", e.wins_in_seat[s], e.games_in_seat[s])).collect();
                lines.push(format!(
                    "{:<16} {games:>6} {wins:>6} {:>6.1}%  {}",
                    self.names[i],
                    percent(wins, games),
                    by_seat.join(" ")
                ));
            }
        }
        lines.push(format!(
            "{:<16} {:>9} {:>9} {:>9} {:>9} {:>6} {:>7} {:>7}",
            "Engine", "P1 wins", "P2 wins", "mean ms", "max ms", "time", "illegal", "crashes"
        ));
        for (i, e) in self.engines.iter().enumerate() {
            lines.push(format!(
                "{:<16} {:>8.1}% {:>8.1}% {:>9.1} {:>9} {:>6} {:>7} {:>7}",
                self.names[i],
                percent(e.wins_in_seat[0], e.games_in_seat[0]),
                percent(e.wins_in_seat[1], e.games_in_seat[1]),
                e.times.mean_ms(),
                e.times.max_ms,
                e.time_losses,
                e.illegal_moves,
                e.crashes
            ));
        }
        lines
    }

    /// The results in fastchess's form (`-output format=fastchess`): a
    /// head-to-head block for two engines, with the LLR and how far it has
    /// gone towards a bound; for three or more fastchess's table of each
    /// engine against all others (Elo, normalized Elo, pairs). Four-player
    /// games, which fastchess does not play, keep arena's own tables.
    pub fn report_fastchess(&self, sprt: Option<&Sprt>, heading: &Heading) -> Vec<String> {
        if self.players != 2 {
            return self.report(sprt);
        }
        let rule = "-".repeat(50);
        let mut lines = vec![rule.clone()];
        if self.names.len() == 2 {
            let (tally, pentanomial) = self.head_to_head();
            let pairs = pentanomial.filter(|p| p.pairs() > 0);
            lines.extend(fastchess::head_to_head(
                &self.names[0],
                &self.names[1],
                heading,
                &tally,
                pairs.as_ref(),
            ));
            if let Some(sprt) = sprt {
                let llr = self.llr(sprt);
                let decision = sprt.decision(llr);
                let (lower, upper) = sprt.bounds();
                let fraction = if llr >= 0.0 { llr / upper } else { -llr / lower };
                lines.push(format!(
                    "LLR: {llr:.2} ({:.1}%) ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
                    100.0 * fraction,
                    sprt.elo0,
                    sprt.elo1
                ));
                lines.extend(decision.map(|d| d.as_str().to_string()));
            }
        } else {
            lines.extend(self.fastchess_table());
        }
        lines.push(rule);
        lines
    }

    /// fastchess's table of three or more engines, best first.
    fn fastchess_table(&self) -> Vec<String> {
        let width = self.names.iter().map(String::len).max().unwrap_or(0).max(25);
        let mut rows = Vec::new();
        for (engine, name) in self.names.iter().enumerate() {
            let (mut tally, mut pairs) = (Tally::default(), Pentanomial::default());
            for (&(a, b), t) in &self.tallies {
                let p = self.pentanomials.get(&(a, b)).copied().unwrap_or_default();
                if a == engine {
                    (tally.wins, tally.losses, tally.draws) =
                        (tally.wins + t.wins, tally.losses + t.losses, tally.draws + t.draws);
                    (0..5).for_each(|i| pairs.counts[i] += p.counts[i]);
                } else if b == engine {
                    (tally.wins, tally.losses, tally.draws) =
                        (tally.wins + t.losses, tally.losses + t.wins, tally.draws + t.draws);
                    (0..5).for_each(|i| pairs.counts[i] += p.counts[4 - i]);
                } else {
                    continue;
                }
                pairs.win_loss += p.win_loss;
            }
            let with_pairs = pairs.pairs() > 0;
            let elo = if with_pairs { fastchess::from_pairs(&pairs) } else { fastchess::from_games(&tally) };
            let games = tally.games();
            let draw = if with_pairs {
                100.0 * pairs.counts[2] as f64 / pairs.pairs() as f64
            } else {
                100.0 * tally.draws as f64 / games.max(1) as f64
            };
            let [a, b, c, d, e] = pairs.counts;
            let ptnml = if with_pairs { format!("[{a}, {b}, {c}, {d}, {e}]") } else { String::new() };
            let score = 100.0 * (tally.wins as f64 + 0.5 * tally.draws as f64) / games.max(1) as f64;
            rows.push((elo, format!(
                "{name:<width$} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {games:>10} {score:>9.1}% {draw:>9.1}% {ptnml:>20}",
                elo.elo, elo.elo_error, elo.nelo, elo.nelo_error
            )));
        }
        rows.sort_by(|x, y| y.0.elo.partial_cmp(&x.0.elo).unwrap_or(std::cmp::Ordering::Equal));
        let mut lines = vec![format!(
            "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>20}",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw", "Ptnml(0-2)"
        )];
        lines.extend(rows.into_iter().enumerate().map(|(rank, (_, row))| format!("{:>4} {row}", rank + 1)));
        lines
    }

    /// A one-line score of the match so far.
    pub fn progress(&self, total: usize) -> String {
        let mut text = format!("Games: {} of {total}", self.games);
        if self.players == 2 && self.names.len() == 2 {
            let (tally, _) = self.head_to_head();
            text.push_str(&format!(
                ", {} {} - {} {} (draws {})",
                self.names[0], tally.wins, tally.losses, self.names[1], tally.draws
            ));
        }
        text
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}
