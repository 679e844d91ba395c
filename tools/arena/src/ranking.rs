//! The standings table of a two-player match of three or more engines (a
//! round robin or a gauntlet), in cutechess-cli's layout:
//!
//! ```text
//! Rank Name                          Elo     +/-   Games   Score    Draw
//!    1 A                              35      41      40   55.0%   20.0%
//! ```
//!
//! Each engine's Elo is the one its own score over all its games implies, as
//! cutechess-cli computes it: its difference to the average of the opponents
//! it met (weighted by games), with no engine anchored and no fit over the
//! whole table. `+/-` is the 95% margin of that score (per-game variance, as
//! in the pairwise `Elo difference` lines). Rows are ranked by score, then by
//! the engine's order on the command line; an engine without a finished game
//! comes last.

use crate::stats::Tally;
use std::collections::HashMap;

/// One engine's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Rank {
    pub engine: usize,
    /// Every game of the engine, from its point of view.
    pub tally: Tally,
}

/// Each engine's games over all its pairings (`tallies` keyed by the
/// pairing, lower engine index first, from that engine's point of view),
/// best score first.
pub fn ranks(engines: usize, tallies: &HashMap<(usize, usize), Tally>) -> Vec<Rank> {
    let mut totals = vec![Tally::default(); engines];
    for (&(a, b), tally) in tallies {
        if a >= engines || b >= engines {
            continue;
        }
        totals[a].wins += tally.wins;
        totals[a].losses += tally.losses;
        totals[a].draws += tally.draws;
        totals[b].wins += tally.losses;
        totals[b].losses += tally.wins;
        totals[b].draws += tally.draws;
    }
    let mut ranks: Vec<Rank> =
        totals.into_iter().enumerate().map(|(engine, tally)| Rank { engine, tally }).collect();
    // Engines without a finished game last: their score of 0.5 means nothing.
    ranks.sort_by(|x, y| {
        let played = |r: &Rank| r.tally.games() > 0;
        (played(y).cmp(&played(x)))
            .then(y.tally.score().total_cmp(&x.tally.score()))
            .then(x.engine.cmp(&y.engine))
    });
    ranks
}

/// The table's lines: the header, then a row per engine.
pub fn ranking_lines(names: &[String], tallies: &HashMap<(usize, usize), Tally>) -> Vec<String> {
    let mut lines = vec![format!(
        "{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    )];
    for (place, rank) in ranks(names.len(), tallies).iter().enumerate() {
        let t = &rank.tally;
        // An engine without a finished game has no rating yet.
        let (elo, margin) = if t.games() == 0 {
            ("-".to_string(), "-".to_string())
        } else {
            (format!("{:.0}", t.elo()), format!("{:.0}", t.elo_margin()))
        };
        lines.push(format!(
            "{:>4} {:<25} {elo:>7} {margin:>7} {:>7} {:>6.1}% {:>6.1}%",
            place + 1,
            names[rank.engine],
            t.games(),
            100.0 * t.score(),
            100.0 * t.draw_ratio()
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u64, losses: u64, draws: u64) -> Tally {
        Tally { wins, losses, draws }
    }

    #[test]
    fn rows_add_every_pairing_and_rank_by_score() {
        let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        // A-B 1-3-0, A-C 2-0-2, B-C 0-0-4.
        let tallies =
            HashMap::from([((0, 1), tally(1, 3, 0)), ((0, 2), tally(2, 0, 2)), ((1, 2), tally(0, 0, 4))]);
        let order: Vec<(usize, Tally)> =
            ranks(3, &tallies).into_iter().map(|r| (r.engine, r.tally)).collect();
        assert_eq!(order, [(1, tally(3, 1, 4)), (0, tally(3, 3, 2)), (2, tally(0, 2, 6))]);
        let lines = ranking_lines(&names, &tallies);
        assert_eq!(lines[0], "Rank Name                          Elo     +/-   Games   Score    Draw");
        // B: 5 of 8 points.
        let elo = format!("{:.0}", crate::stats::elo_from_score(5.0 / 8.0));
        let margin = format!("{:.0}", tally(3, 1, 4).elo_margin());
        assert_eq!(
            lines[1],
            format!("   1 B                         {elo:>7} {margin:>7}       8   62.5%   50.0%")
        );
        assert!(lines[2].starts_with("   2 A                               0 "), "{}", lines[2]);
        assert!(lines[3].ends_with("       8   37.5%   75.0%"), "{}", lines[3]);
    }

    #[test]
    fn an_engine_without_games_has_no_rating() {
        let names: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        let lines = ranking_lines(&names, &HashMap::from([((0, 1), tally(1, 0, 0))]));
        assert_eq!(lines[1].split_whitespace().take(5).collect::<Vec<_>>(), ["1", "A", "inf", "inf", "1"]);
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["3", "C", "-", "-", "0", "50.0%", "0.0%"]
        );
    }
}
