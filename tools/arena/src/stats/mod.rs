//! Match statistics in the conventions of cutechess-cli and fastchess.
//!
//! Everything here is pure arithmetic on result counters; nothing does I/O.
//!
//! * [`Tally`] counts single games (wins/losses/draws from the first engine's point of view),
//!   [`Pentanomial`] counts game pairs (both colours of one opening).
//! * [`elo_from_score`] is the logistic Elo model; [`Tally::elo_margin`] and
//!   [`Pentanomial::elo_margin`] give the half-width of the 95% confidence interval.
//! * [`los`] is the likelihood of superiority, built on our own [`erf`].
//! * [`Sprt`] is a sequential probability ratio test with logistic Elo bounds, its log-likelihood
//!   ratio computed as fastchess does (maximum likelihood, empty buckets regularised).
//! * `format_*` functions produce the lines printed by the runner, shaped like fastchess output.
//! * [`MoveTimes`] accumulates per-engine thinking times.

pub mod fastchess;
mod sprt;

pub use sprt::{Sprt, SprtDecision, SprtModel};

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959964;

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first engine won.
    Win,
    /// The game was drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Outcome {
    /// Points scored by the first engine, counted in half-points (win 2, draw 1, loss 0).
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Game counter from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games lost by the first engine.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Tally {
    /// Counts one game.
    pub fn record(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Number of games played.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points of the first engine: 1 per win, 0.5 per draw.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game in `0..=1`; 0.5 when no game has been played.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// Fraction of drawn games in `0..=1`; 0 when no game has been played.
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Elo difference implied by [`Tally::score`] (see [`elo_from_score`]).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Likelihood of superiority of the first engine, in `0..=1` (see [`los`]).
    pub fn los(&self) -> f64 {
        los(self.wins, self.losses)
    }

    /// Per-game (trinomial) samples as `(score, count)`.
    fn samples(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }

    /// Half-width of the 95% Elo confidence interval from the per-game variance (see [`elo_margin`]).
    pub fn elo_margin(&self) -> f64 {
        margin_of(&self.samples())
    }
}

/// Counter of game pairs, bucketed by the first engine's points over the pair.
///
/// `counts[i]` is the number of pairs in which the first engine scored `i` half-points, i.e.
/// `i / 2` points out of 2: index 0 = loss+loss, 1 = loss+draw, 2 = draw+draw or win+loss,
/// 3 = win+draw, 4 = win+win. This is fastchess's `Ptnml(0-2)` order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pair counts indexed by half-points of the pair (0..=4).
    pub counts: [u64; 5],
    /// Of the pairs of one point (`counts[2]`), those of a win and a loss
    /// (the others are two draws): fastchess's WL/DD ratio.
    pub win_loss: u64,
}

impl Pentanomial {
    /// Counts one pair given the outcomes of its two games (order irrelevant).
    pub fn record_pair(&mut self, first: Outcome, second: Outcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
        if first.half_points().abs_diff(second.half_points()) == 2 {
            self.win_loss += 1;
        }
    }

    /// Number of pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Per-pair samples as `(score normalised to 0..=1, count)`: 0, 0.25, 0.5, 0.75, 1.
    fn samples(&self) -> [(f64, u64); 5] {
        std::array::from_fn(|i| (i as f64 / 4.0, self.counts[i]))
    }

    #[cfg(test)]
    /// Mean score per game in `0..=1`; 0.5 when no pair has been counted.
    pub fn score(&self) -> f64 {
        let pairs = self.pairs();
        if pairs == 0 {
            return 0.5;
        }
        self.samples().iter().map(|&(x, c)| x * c as f64).sum::<f64>() / pairs as f64
    }

    /// Half-width of the 95% Elo confidence interval from the per-pair variance (see [`elo_margin`]).
    pub fn elo_margin(&self) -> f64 {
        margin_of(&self.samples())
    }
}

/// What an empty bucket counts as in [`margin_of`]: half a game (or pair),
/// so that a one-sided sample (all draws, one pair) gets the wide margin it
/// deserves instead of none. It matters little once buckets fill.
const MARGIN_PRIOR: f64 = 0.5;

/// The samples as `(score, weight)`, empty buckets weighted `prior`.
pub(crate) fn regularised(samples: &[(f64, u64)], prior: f64) -> Vec<(f64, f64)> {
    samples.iter().map(|&(x, c)| (x, if c == 0 { prior } else { c as f64 })).collect()
}

/// Elo margin of weighted samples, empty buckets counted as [`MARGIN_PRIOR`]:
/// never 0, since no finite sample pins the Elo down (with no games at all it
/// is infinite).
fn margin_of(samples: &[(f64, u64)]) -> f64 {
    let weighted = regularised(samples, MARGIN_PRIOR);
    let n: f64 = weighted.iter().map(|&(_, w)| w).sum();
    let mu = weighted.iter().map(|&(x, w)| x * w).sum::<f64>() / n;
    let var = weighted.iter().map(|&(x, w)| w * (x - mu) * (x - mu)).sum::<f64>() / n;
    elo_margin(mu, (var / n).sqrt())
}

/// Logistic Elo difference for a mean score `s`: `-400 * log10(1/s - 1)`.
///
/// Returns `f64::INFINITY` for `s >= 1` and `f64::NEG_INFINITY` for `s <= 0` (printed as
/// `inf` / `-inf`). NaN in gives NaN out.
pub fn elo_from_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // Same as -400 * log10(1/s - 1), but gives +0.0 rather than -0.0 at s = 0.5.
        400.0 * (s / (1.0 - s)).log10()
    }
}

/// Expected score for an Elo difference (inverse of [`elo_from_score`]): `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Half-width of the 95% confidence interval of the Elo difference, as cutechess-cli reports it:
/// `(elo(mu + z*stderr) - elo(mu - z*stderr)) / 2` with `z` = [`Z95`].
///
/// `mu` is the mean score per game and `stderr` the standard error of that mean. Returns
/// `f64::INFINITY` when the interval touches a score of 0 or 1 (including `mu` itself being 0 or
/// 1), and 0 when `stderr` is 0 with `0 < mu < 1` (e.g. all draws).
pub fn elo_margin(mu: f64, stderr: f64) -> f64 {
    let (lo, hi) = (mu - Z95 * stderr, mu + Z95 * stderr);
    if lo <= 0.0 || hi >= 1.0 {
        return f64::INFINITY;
    }
    (elo_from_score(hi) - elo_from_score(lo)) / 2.0
}

/// The error function, accurate to about 1e-15.
///
/// Uses the everywhere-convergent series with positive terms
/// `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n (2x^2)^n * x / (1*3*...*(2n+1))`, and `erf(x) = ±1`
/// for `|x| >= 6` (where `1 - erf(6) < 3e-17`).
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    if a.is_nan() {
        return f64::NAN;
    }
    if a >= 6.0 {
        return 1f64.copysign(x);
    }
    let two_a2 = 2.0 * a * a;
    let (mut term, mut sum, mut k) = (a, a, 1f64);
    while term > sum * 1e-17 {
        term *= two_a2 / (2.0 * k + 1.0);
        sum += term;
        k += 1.0;
    }
    (std::f64::consts::FRAC_2_SQRT_PI * (-a * a).exp() * sum).copysign(x)
}

/// Likelihood of superiority in `0..=1`: `0.5 * (1 + erf((W - L) / sqrt(2 * (W + L))))`.
///
/// Draws carry no information; with no decisive game it is 0.5.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// `Score of A vs B: W - L - D [0.xxx] N`.
pub fn format_score_line(name_a: &str, name_b: &str, tally: &Tally) -> String {
    let t = tally;
    format!(
        "Score of {name_a} vs {name_b}: {} - {} - {} [{:.3}] {}",
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    )
}

/// `Elo difference: X +/- Y, LOS: Z %, DrawRatio: D %`, all with one decimal.
///
/// The margin comes from `ptnml` when given, else from the per-game variance. Infinite values
/// print as `inf` / `-inf`; with no games the line reads `0.0 +/- inf, LOS: 50.0 %, DrawRatio: 0.0 %`.
pub fn format_elo_line(tally: &Tally, ptnml: Option<&Pentanomial>) -> String {
    let margin = ptnml.map_or_else(|| tally.elo_margin(), Pentanomial::elo_margin);
    format!(
        "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
        tally.elo(),
        margin,
        100.0 * tally.los(),
        100.0 * tally.draw_ratio()
    )
}

/// `Ptnml(0-2): [a, b, c, d, e]`.
pub fn format_pentanomial_line(ptnml: &Pentanomial) -> String {
    let [a, b, c, d, e] = ptnml.counts;
    format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]")
}

/// `LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]`: the LLR, the bounds, then elo0 and elo1.
pub fn format_sprt_line(sprt: &Sprt, llr: f64) -> String {
    let (lower, upper) = sprt.bounds();
    format!("LLR: {llr:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]", sprt.elo0, sprt.elo1)
}

/// Decision text for printing: `"H0 accepted"`, `"H1 accepted"`, or `""` while undecided.
pub fn format_sprt_decision(decision: Option<SprtDecision>) -> &'static str {
    decision.map_or("", SprtDecision::as_str)
}

/// Thinking-time statistics of one engine, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// Moves recorded.
    pub count: u64,
    /// Sum of all recorded times.
    pub total_ms: u64,
    /// Longest recorded time.
    pub max_ms: u64,
}

impl MoveTimes {
    /// Records the time one move took.
    pub fn record(&mut self, ms: u64) {
        self.count += 1;
        self.total_ms += ms;
        self.max_ms = self.max_ms.max(ms);
    }

    /// Mean time per move; 0 when nothing was recorded.
    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total_ms as f64 / self.count as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `a` is within `eps` of `b`.
    pub(super) fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// A tally of these counts.
    pub(super) fn t(wins: u64, losses: u64, draws: u64) -> Tally {
        Tally { wins, losses, draws }
    }

    #[test]
    fn erf_known_values() {
        for (x, e) in [(0.0, 0.0), (0.1, 0.1124629160), (0.5, 0.5204998778), (1.0, 0.8427007929)]
            .into_iter()
            .chain([(2.0, 0.9953222650), (3.0, 0.9999779095), (7.0, 1.0)])
        {
            assert!(close(erf(x), e, 1e-9), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -e, 1e-9));
        }
    }

    #[test]
    fn score_and_elo() {
        // W=10 L=5 D=5: points = 10 + 5/2 = 12.5, games 20, score 12.5/20 = 0.625.
        let s = t(10, 5, 5);
        assert_eq!((s.games(), s.points(), s.score()), (20, 12.5, 0.625));
        // Elo = -400*log10(1/0.625 - 1) = -400*log10(0.6) = -400*(-0.221849) = 88.74.
        assert!(close(s.elo(), 88.7395, 1e-3));
        // Draw ratio 5/20 = 0.25.
        assert_eq!(s.draw_ratio(), 0.25);
        // 50% -> log10(1) = 0.
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(close(score_from_elo(88.7395), 0.625, 1e-6));
    }

    #[test]
    fn trinomial_margin() {
        // mu = 0.625; var = (10*0.375^2 + 5*0.625^2 + 5*0.125^2)/20
        //   = (1.40625 + 1.953125 + 0.078125)/20 = 3.4375/20 = 0.171875.
        // stderr = sqrt(0.171875/20) = sqrt(0.00859375) = 0.0927025; z*stderr = 0.181695.
        // lo = 0.443305 -> elo -39.57; hi = 0.806695 -> elo 248.18; (248.18 + 39.57)/2 = 143.87.
        assert!(close(t(10, 5, 5).elo_margin(), 143.875, 1e-2));
        // All draws: the empty buckets count half a game each: W = L = 0.5, D = 10, n = 11;
        //   mu = 0.5, var = 2*0.5*0.25/11 = 0.0227273, stderr = sqrt(var/11) = 0.0454545,
        //   z*stderr = 0.0890893 -> lo 0.4109107, hi 0.5890893 -> elo 62.57 either way.
        assert!(close(t(0, 0, 10).elo_margin(), 62.573, 1e-2));
        // Score 1 (the interval reaches it) or no games: infinite.
        assert_eq!(t(5, 0, 0).elo_margin(), f64::INFINITY);
        assert_eq!(Tally::default().elo_margin(), f64::INFINITY);
        // One pair, one win and one loss: [0, 0, 1, 0, 0] -> weights 0.5, 0.5, 1, 0.5, 0.5, n = 3;
        //   mu = 0.5, var = 0.5*(0.25 + 0.0625 + 0.0625 + 0.25)/3 = 0.1041667,
        //   stderr = sqrt(var/3) = 0.1863390, z*stderr = 0.3652177 -> hi 0.8652177 -> elo 323.0.
        let one_pair = Pentanomial { counts: [0, 0, 1, 0, 0], win_loss: 0 };
        assert!(close(one_pair.elo_margin(), 322.997, 1e-2));
        // Two such pairs (the `-repeat` run of the report): 213.8, not 0.
        assert!(close(Pentanomial { counts: [0, 0, 2, 0, 0], win_loss: 0 }.elo_margin(), 213.767, 1e-2));
    }

    #[test]
    fn pentanomial_margin_smaller_for_correlated_pairs() {
        // Pairs: 1 LL, 2 LD, 10 WL, 5 WD, 2 WW -> W = 10+5+4 = 19, L = 2+2+10 = 14, D = 2+5 = 7.
        let mut p = Pentanomial::default();
        for (a, b, n) in [
            (Outcome::Loss, Outcome::Loss, 1),
            (Outcome::Draw, Outcome::Loss, 2),
            (Outcome::Win, Outcome::Loss, 10),
            (Outcome::Win, Outcome::Draw, 5),
            (Outcome::Win, Outcome::Win, 2),
        ] {
            (0..n).for_each(|_| p.record_pair(a, b));
        }
        assert_eq!(p.counts, [1, 2, 10, 5, 2]);
        assert_eq!(p.pairs(), 20);
        let tr = t(19, 14, 7);
        // Both: mu = 22.5/40 = (0 + 2*0.25 + 10*0.5 + 5*0.75 + 2*1)/20 = 11.25/20 = 0.5625.
        assert_eq!((tr.score(), p.score()), (0.5625, 0.5625));
        // Trinomial: var = (19*0.4375^2 + 14*0.5625^2 + 7*0.0625^2)/40 = 8.09375/40 = 0.20234375,
        //   stderr = sqrt(0.20234375/40) = 0.071124 -> margin 101.31.
        // Pentanomial: var = (0.5625^2 + 2*0.3125^2 + 10*0.0625^2 + 5*0.1875^2 + 2*0.4375^2)/20
        //   = 1.109375/20 = 0.05546875, stderr = sqrt(0.05546875/20) = 0.052663 -> margin 74.01.
        assert!(close(tr.elo_margin(), 101.314, 1e-2));
        assert!(close(p.elo_margin(), 74.014, 1e-2));
    }

    #[test]
    fn los_values() {
        assert_eq!(los(7, 7), 0.5);
        assert_eq!(los(0, 0), 0.5);
        // W=10 L=5: (10-5)/sqrt(2*15) = 5/5.477226 = 0.912871; erf = 0.803294 -> 0.5*1.803294 = 0.901647.
        assert!(close(los(10, 5), 0.9016472, 1e-6));
        assert!(close(los(10, 5) + los(5, 10), 1.0, 1e-12));
    }

    #[test]
    fn line_formats() {
        let s = t(10, 5, 5);
        assert_eq!(format_score_line("A", "B", &s), "Score of A vs B: 10 - 5 - 5 [0.625] 20");
        assert_eq!(
            format_elo_line(&s, None),
            "Elo difference: 88.7 +/- 143.9, LOS: 90.2 %, DrawRatio: 25.0 %"
        );
        let p = Pentanomial { counts: [1, 2, 10, 5, 2], win_loss: 0 };
        assert_eq!(
            format_elo_line(&t(19, 14, 7), Some(&p)),
            // LOS: (19-14)/sqrt(66) = 0.615457 -> 0.5*(1 + 0.615912) = 0.807956.
            "Elo difference: 43.7 +/- 74.0, LOS: 80.8 %, DrawRatio: 17.5 %"
        );
        assert_eq!(
            format_elo_line(&t(4, 0, 0), None),
            // Score 4/4 = 1 -> inf; LOS: 4/sqrt(8) = 1.414214, erf = 0.954500 -> 0.977250.
            "Elo difference: inf +/- inf, LOS: 97.7 %, DrawRatio: 0.0 %"
        );
        assert_eq!(
            format_elo_line(&Tally::default(), None),
            "Elo difference: 0.0 +/- inf, LOS: 50.0 %, DrawRatio: 0.0 %"
        );
        // Three games to two with two pairs of one win each: never +/- 0.0.
        assert_eq!(
            format_elo_line(&t(3, 2, 0), Some(&Pentanomial { counts: [0, 0, 2, 0, 0], win_loss: 0 })),
            "Elo difference: 70.4 +/- 213.8, LOS: 67.3 %, DrawRatio: 0.0 %"
        );
        assert_eq!(format_pentanomial_line(&p), "Ptnml(0-2): [1, 2, 10, 5, 2]");
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("a valid test");
        assert_eq!(format_sprt_line(&sprt, 2.951), "LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]");
        assert_eq!(format_sprt_decision(sprt.decision(2.951)), "H1 accepted");
        assert_eq!(format_sprt_decision(sprt.decision(-3.0)), "H0 accepted");
        assert_eq!(format_sprt_decision(sprt.decision(1.0)), "");
    }

    #[test]
    fn move_times() {
        let mut m = MoveTimes::default();
        assert_eq!(m.mean_ms(), 0.0);
        [100, 300, 200].into_iter().for_each(|ms| m.record(ms));
        // (100 + 300 + 200)/3 = 200.
        assert_eq!((m.count, m.total_ms, m.max_ms, m.mean_ms()), (3, 600, 300, 200.0));
    }
}
