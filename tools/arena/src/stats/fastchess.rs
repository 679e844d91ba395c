//! fastchess's report (`-output format=fastchess`): logistic and normalized
//! Elo with their 95 % intervals and the likelihood of superiority, from
//! games or (with pentanomial reports) from pairs, computed as fastchess
//! computes them, and the lines of its result blocks.

use super::{Pentanomial, Tally};

/// fastchess's two-sided 95 % z-score.
const Z: f64 = 1.959963984540054;

/// One normalized Elo unit in the score's standard deviations: 800 / ln 10.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// What fastchess reports of a head-to-head score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloReport {
    pub elo: f64,
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    /// The likelihood of superiority, 0..=1.
    pub los: f64,
}

fn logistic(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The report of samples `(score, count)`: per game (`per = 1`) or per
/// pair (`per = 2`, whose normalized Elo divides by the deviation of a pair
/// over the square root of 2).
fn report(samples: &[(f64, u64)], per: f64) -> EloReport {
    let n: f64 = samples.iter().map(|&(_, c)| c as f64).sum();
    let score = samples.iter().map(|&(x, c)| x * c as f64).sum::<f64>() / n;
    let variance = samples.iter().map(|&(x, c)| c as f64 * (x - score).powi(2)).sum::<f64>() / n;
    let per_sample = variance / n;
    let (upper, lower) = (score + Z * per_sample.sqrt(), score - Z * per_sample.sqrt());
    let nelo = |s: f64| (s - 0.5) / (per * variance).sqrt() * NELO_SCALE;
    EloReport {
        elo: logistic(score),
        elo_error: (logistic(upper) - logistic(lower)) / 2.0,
        nelo: nelo(score),
        nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
        los: (1.0 - super::erf(-(score - 0.5) / (2.0 * per_sample).sqrt())) / 2.0,
    }
}

/// From game results.
pub fn from_games(tally: &Tally) -> EloReport {
    report(&[(1.0, tally.wins), (0.5, tally.draws), (0.0, tally.losses)], 1.0)
}

/// From pair results.
pub fn from_pairs(pairs: &Pentanomial) -> EloReport {
    let samples: Vec<(f64, u64)> = (0..5).map(|i| (i as f64 / 4.0, pairs.counts[i])).collect();
    report(&samples, 2.0)
}

/// What the heading of a head-to-head block names besides the engines:
/// the time control, threads, hash and openings (`NULL` where an engine
/// was not given the option, as fastchess writes it).
pub struct Heading<'a> {
    pub time_control: &'a str,
    pub threads: &'a str,
    pub hash: &'a str,
    /// The openings file's name, if any.
    pub book: Option<&'a str>,
}

/// The lines of fastchess's head-to-head block (without its rules of dashes).
pub fn head_to_head(
    first: &str,
    second: &str,
    heading: &Heading,
    tally: &Tally,
    pairs: Option<&Pentanomial>,
) -> Vec<String> {
    let book = heading.book.map_or(String::new(), |b| format!(", {b}"));
    let mut lines = vec![format!(
        "Results of {first} vs {second} ({}, {}, {}{book}):",
        heading.time_control, heading.threads, heading.hash
    )];
    let games = tally.games();
    let points = tally.wins as f64 + 0.5 * tally.draws as f64;
    let elo = match pairs {
        Some(p) => from_pairs(p),
        None => from_games(tally),
    };
    lines.push(format!(
        "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}",
        elo.elo, elo.elo_error, elo.nelo, elo.nelo_error
    ));
    match pairs {
        Some(p) => {
            let draw_ratio = 100.0 * p.counts[2] as f64 / p.pairs() as f64;
            let pairs_ratio = (p.counts[3] + p.counts[4]) as f64 / (p.counts[0] + p.counts[1]) as f64;
            lines.push(format!(
                "LOS: {:.2} %, DrawRatio: {draw_ratio:.2} %, PairsRatio: {pairs_ratio:.2}",
                100.0 * elo.los
            ));
        }
        None => lines.push(format!(
            "LOS: {:.2} %, DrawRatio: {:.2} %",
            100.0 * elo.los,
            100.0 * tally.draws as f64 / games as f64
        )),
    }
    lines.push(format!(
        "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({:.2} %)",
        tally.wins,
        tally.losses,
        tally.draws,
        100.0 * points / games as f64
    ));
    if let Some(p) = pairs {
        let [a, b, c, d, e] = p.counts;
        let draws = c - p.win_loss;
        lines.push(format!(
            "Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], WL/DD Ratio: {:.2}",
            p.win_loss as f64 / draws as f64
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_of_fastchess_reports() {
        // 40 wins, 30 losses, 30 draws: score 0.55, per-game variance 0.1725.
        let games = from_games(&Tally { wins: 40, losses: 30, draws: 30 });
        assert!((games.elo - 34.86).abs() < 0.01, "{games:?}");
        assert!((games.nelo - 0.05 / 0.1725f64.sqrt() * NELO_SCALE).abs() < 1e-9, "{games:?}");
        assert!((games.los - 0.8857).abs() < 0.001, "{games:?}");
        let pairs = from_pairs(&Pentanomial { counts: [5, 10, 20, 10, 5], win_loss: 4 });
        assert!(pairs.elo.abs() < 1e-9 && pairs.nelo.abs() < 1e-9 && (pairs.los - 0.5).abs() < 1e-9);
        let lines = head_to_head(
            "A",
            "B",
            &Heading { time_control: "10+0.1", threads: "1t", hash: "NULL", book: Some("book.epd") },
            &Tally { wins: 40, losses: 30, draws: 30 },
            None,
        );
        assert_eq!(lines[0], "Results of A vs B (10+0.1, 1t, NULL, book.epd):");
        assert!(lines[3].starts_with("Games: 100, Wins: 40, Losses: 30, Draws: 30, Points: 55.0 (55.00 %)"));
    }
}
