//! The sequential probability ratio test of a match: H0 `elo0` against H1
//! `elo1` in logistic Elo, its bounds, and its log-likelihood ratio from game
//! or pair results, computed as fastchess does (maximum likelihood, empty
//! buckets regularised).

use super::{regularised, score_from_elo, Pentanomial, Tally};
use std::fmt;

/// What an empty bucket counts as in the LLR, as in fastchess: a thousandth,
/// so that every outcome keeps a probability and a clean sweep still counts.
const LLR_PRIOR: f64 = 1e-3;

/// Outcome of a finished SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The LLR fell to the lower bound: the Elo difference is at most `elo0`.
    H0Accepted,
    /// The LLR rose to the upper bound: the Elo difference is at least `elo1`.
    H1Accepted,
}

impl SprtDecision {
    /// `"H0 accepted"` or `"H1 accepted"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::H0Accepted => "H0 accepted",
            SprtDecision::H1Accepted => "H1 accepted",
        }
    }
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (type I error).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (type II error).
    pub beta: f64,
}

impl Sprt {
    /// Checked constructor: needs `elo0 < elo1` and `alpha`, `beta` in `(0, 1)` with `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0}, {elo1})"));
        }
        let valid = alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0;
        if !valid {
            return Err(format!("SPRT needs 0 < alpha, beta and alpha + beta < 1 (got {alpha}, {beta})"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Stopping bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Shared computation of [`Sprt::llr_trinomial`] and [`Sprt::llr_pentanomial`]: the
    /// log-likelihood ratio of the most likely outcome distributions with mean scores `s0` and
    /// `s1`, as fastchess computes it (M. Van den Bergh, *Comments on Normalized Elo*,
    /// proposition 1.1). Empty buckets count as [`LLR_PRIOR`], so that a one-sided sample (a
    /// clean sweep) still moves the test. 0 with no games.
    fn llr(&self, samples: &[(f64, u64)]) -> f64 {
        if samples.iter().all(|&(_, c)| c == 0) {
            return 0.0;
        }
        let weighted = regularised(samples, LLR_PRIOR);
        let total: f64 = weighted.iter().map(|&(_, w)| w).sum();
        let observed: Vec<(f64, f64)> = weighted.iter().map(|&(x, w)| (x, w / total)).collect();
        let p0 = most_likely(&observed, score_from_elo(self.elo0));
        let p1 = most_likely(&observed, score_from_elo(self.elo1));
        let mean: f64 =
            observed.iter().zip(p0.iter().zip(&p1)).map(|(&(_, p), (a, b))| p * (b.ln() - a.ln())).sum();
        total * mean
    }

    /// Log-likelihood ratio from per-game results (samples 1 / 0.5 / 0, see `Sprt::llr`).
    pub fn llr_trinomial(&self, tally: &Tally) -> f64 {
        self.llr(&tally.samples())
    }

    /// Log-likelihood ratio from pair results (samples 0, 0.25, 0.5, 0.75, 1 per pair).
    pub fn llr_pentanomial(&self, ptnml: &Pentanomial) -> f64 {
        self.llr(&ptnml.samples())
    }

    /// `Some` decision once `llr` reaches a bound (`<= lower` accepts H0, `>= upper` accepts H1).
    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1Accepted)
        } else if llr <= lower {
            Some(SprtDecision::H0Accepted)
        } else {
            None
        }
    }
}

/// The distribution nearest (in likelihood) to `observed` (`(score, probability)`, every
/// probability above 0) whose mean score is `s`: `p_i / (1 + theta (a_i - s))`, with `theta` the
/// root of `sum p_i (a_i - s) / (1 + theta (a_i - s)) = 0`, found by bisection (the sum falls
/// as `theta` grows, from +inf to -inf between the poles of the highest and lowest score).
fn most_likely(observed: &[(f64, f64)], s: f64) -> Vec<f64> {
    let highest = observed.iter().map(|&(a, _)| a).fold(f64::MIN, f64::max);
    let lowest = observed.iter().map(|&(a, _)| a).fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / (highest - s), -1.0 / (lowest - s));
    let sum = |theta: f64| observed.iter().map(|&(a, p)| p * (a - s) / (1.0 + theta * (a - s))).sum::<f64>();
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if sum(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = 0.5 * (low + high);
    observed.iter().map(|&(a, p)| p / (1.0 + theta * (a - s))).collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{close, t};
    use super::*;

    #[test]
    fn sprt() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        // ln(0.05/0.95) = -ln(19) = -2.944439.
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071951. Values from an independent
        // implementation of the same maximum-likelihood LLR (bisection for theta in Python).
        // W=600 L=300 D=100: mu = 0.65 (GSPRT would say 5.20).
        let llr = sprt.llr_trinomial(&t(600, 300, 100));
        assert!(close(llr, 4.68324, 1e-4), "{llr}");
        assert_eq!(sprt.decision(llr), Some(SprtDecision::H1Accepted));
        let llr = sprt.llr_trinomial(&t(300, 600, 100));
        assert!(close(llr, -4.91079, 1e-4), "{llr}");
        assert_eq!(sprt.decision(llr), Some(SprtDecision::H0Accepted));
        assert_eq!(sprt.decision(0.0), None);
        // No games: 0. All draws: a little evidence for elo0 (a score of exactly 0.5).
        assert_eq!(sprt.llr_trinomial(&Tally::default()), 0.0);
        assert!(close(sprt.llr_trinomial(&t(0, 0, 50)), -0.71786, 1e-4));
        // A clean sweep counts: about N ln(s1/s0) (regularised, not 0 as with GSPRT).
        assert!(close(sprt.llr_trinomial(&t(60, 0, 0)), 0.85726, 1e-4));
        assert!(close(sprt.llr_trinomial(&t(2, 0, 0)), 0.02857, 1e-4), "two wins prove little");
        let wide = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let sweep = wide.llr_trinomial(&t(60, 0, 0));
        assert!(close(sweep, 8.01549, 1e-4), "{sweep}");
        assert_eq!(wide.decision(sweep), Some(SprtDecision::H1Accepted), "60 - 0 - 0 accepts H1");
        let pairs = wide.llr_pentanomial(&Pentanomial { counts: [0, 0, 0, 0, 30] });
        assert!(close(pairs, 4.00800, 1e-4) && wide.decision(pairs) == Some(SprtDecision::H1Accepted));
        // Pentanomial, 400 pairs [20, 40, 140, 120, 80]: mu = 0.625.
        let p = Pentanomial { counts: [20, 40, 140, 120, 80] };
        assert!(close(sprt.llr_pentanomial(&p), 3.82197, 1e-4), "{}", sprt.llr_pentanomial(&p));
        assert_eq!(sprt.decision(sprt.llr_pentanomial(&p)), Some(SprtDecision::H1Accepted));
        assert!(close(sprt.llr_pentanomial(&Pentanomial { counts: [0, 0, 9, 0, 0] }), -0.12504, 1e-4));
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err() && Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }
}
