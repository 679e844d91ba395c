//! The sequential probability ratio test of a match: H0 `elo0` against H1
//! `elo1`, its bounds, and its log-likelihood ratio from game or pair
//! results, computed as fastchess does (maximum likelihood, empty buckets
//! regularised) under each of its Elo models: logistic Elo, normalized Elo
//! (nElo) and BayesElo.

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

/// The Elo model in which `elo0` and `elo1` are given (`-sprt model=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Logistic Elo (arena's default, and cutechess-cli's scale).
    #[default]
    Logistic,
    /// Normalized Elo (fastchess's default): the score's distance from
    /// one half in units of its standard deviation.
    Normalized,
    /// BayesElo, with the draw Elo the results show (game results only:
    /// pairs are counted as their two games).
    Bayesian,
}

impl SprtModel {
    /// `logistic`, `normalized` or `bayesian`.
    pub fn parse(text: &str) -> Option<SprtModel> {
        match text {
            "logistic" => Some(SprtModel::Logistic),
            "normalized" => Some(SprtModel::Normalized),
            "bayesian" => Some(SprtModel::Bayesian),
            _ => None,
        }
    }

    /// The model's name, as `-sprt model=` takes it.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
            SprtModel::Bayesian => "bayesian",
        }
    }
}

/// Sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
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
    /// The Elo model of `elo0` and `elo1`.
    pub model: SprtModel,
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
        Ok(Sprt { elo0, elo1, alpha, beta, model: SprtModel::Logistic })
    }

    /// The same test with `elo0` and `elo1` in `model`.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// Whether the test can use pair results (BayesElo has no model of pairs).
    pub fn takes_pairs(&self) -> bool {
        self.model != SprtModel::Bayesian
    }

    /// Stopping bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Shared computation of [`Sprt::llr_trinomial`] and [`Sprt::llr_pentanomial`]: the
    /// log-likelihood ratio of the most likely outcome distributions under H0 and H1, as
    /// fastchess computes it (M. Van den Bergh, *Comparing the approximations for the
    /// generalized log likelihood ratio of a multinomial distribution*, and *Comments on
    /// normalized Elo*). Empty buckets count as [`LLR_PRIOR`], so that a one-sided sample (a
    /// clean sweep) still moves the test. 0 with no games. `per_sample` is 1 for games and 2
    /// for pairs (a pair's nElo is scaled by the square root of 2).
    fn llr(&self, samples: &[(f64, u64)], per_sample: f64) -> f64 {
        if samples.iter().all(|&(_, c)| c == 0) {
            return 0.0;
        }
        let weighted = regularised(samples, LLR_PRIOR);
        let total: f64 = weighted.iter().map(|&(_, w)| w).sum();
        let observed: Vec<(f64, f64)> = weighted.iter().map(|&(x, w)| (x, w / total)).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                most_likely(&observed, score_from_elo(self.elo0)),
                most_likely(&observed, score_from_elo(self.elo1)),
            ),
            SprtModel::Normalized => {
                let to_t = |elo: f64| per_sample.sqrt() * elo / NELO_SCALE;
                (
                    most_likely_normalized(&observed, to_t(self.elo0)),
                    most_likely_normalized(&observed, to_t(self.elo1)),
                )
            }
            SprtModel::Bayesian => {
                // Game results (1, 0.5, 0): the draw Elo from the losses and wins.
                let share = |x: f64| observed.iter().find(|&&(a, _)| a == x).map_or(0.0, |&(_, p)| p);
                let (loss, win) = (share(0.0), share(1.0));
                if samples.iter().any(|&(x, c)| (x == 0.0 || x == 1.0) && c == 0) {
                    return 0.0;
                }
                let draw_elo = 200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10();
                (
                    most_likely(&observed, bayes_elo_score(self.elo0, draw_elo)),
                    most_likely(&observed, bayes_elo_score(self.elo1, draw_elo)),
                )
            }
        };
        let mean: f64 =
            observed.iter().zip(p0.iter().zip(&p1)).map(|(&(_, p), (a, b))| p * (b.ln() - a.ln())).sum();
        total * mean
    }

    /// Log-likelihood ratio from per-game results (samples 1 / 0.5 / 0, see `Sprt::llr`).
    pub fn llr_trinomial(&self, tally: &Tally) -> f64 {
        self.llr(&tally.samples(), 1.0)
    }

    /// Log-likelihood ratio from pair results (samples 0, 0.25, 0.5, 0.75, 1 per pair); under
    /// BayesElo, which has no model of pairs, the caller uses the game results.
    pub fn llr_pentanomial(&self, ptnml: &Pentanomial) -> f64 {
        self.llr(&ptnml.samples(), 2.0)
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

/// One normalized Elo unit in the score's standard deviations: 800 / ln 10.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The expected score of a BayesElo difference `elo` with draw Elo `draw_elo`.
fn bayes_elo_score(elo: f64, draw_elo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((-elo + draw_elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((elo + draw_elo) / 400.0));
    win + 0.5 * (1.0 - win - loss)
}

/// The distribution nearest (in likelihood) to `observed` whose normalized
/// score `(mu - 1/2) / sigma` is `t`, by the fixed-point iteration of Van den
/// Bergh's *Comments on normalized Elo* (section 4.1), starting from the
/// uniform distribution, as fastchess does: each step solves for the
/// multiplier with the current mean and deviation.
fn most_likely_normalized(observed: &[(f64, f64)], t: f64) -> Vec<f64> {
    let n = observed.len() as f64;
    let mut p: Vec<f64> = vec![1.0 / n; observed.len()];
    for _ in 0..10 {
        let mu: f64 = observed.iter().zip(&p).map(|(&(a, _), q)| a * q).sum();
        let var: f64 = observed.iter().zip(&p).map(|(&(a, _), q)| q * (a - mu) * (a - mu)).sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = observed
            .iter()
            .map(|&(a, _)| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let next = nearest_with(observed, &phi);
        let change = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-4 {
            break;
        }
    }
    p
}

/// `p_i / (1 + theta phi_i)` for the `theta` that makes `sum p_i phi_i / (1 + theta phi_i)`
/// zero (`p_i` the observed probabilities), found by bisection between the poles of the
/// largest and the smallest `phi_i`, where the sum falls from +inf to -inf.
fn nearest_with(observed: &[(f64, f64)], phi: &[f64]) -> Vec<f64> {
    let highest = phi.iter().copied().fold(f64::MIN, f64::max);
    let lowest = phi.iter().copied().fold(f64::MAX, f64::min);
    let (mut low, mut high) = (-1.0 / highest, -1.0 / lowest);
    let sum =
        |theta: f64| observed.iter().zip(phi).map(|(&(_, p), f)| p * f / (1.0 + theta * f)).sum::<f64>();
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if sum(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = 0.5 * (low + high);
    observed.iter().zip(phi).map(|(&(_, p), f)| p / (1.0 + theta * f)).collect()
}

/// The distribution nearest (in likelihood) to `observed` (`(score, probability)`, every
/// probability above 0) whose mean score is `s`: `p_i / (1 + theta (a_i - s))`, with `theta` the
/// root of `sum p_i (a_i - s) / (1 + theta (a_i - s)) = 0`, found by bisection (the sum falls
/// as `theta` grows, from +inf to -inf between the poles of the highest and lowest score).
fn most_likely(observed: &[(f64, f64)], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = observed.iter().map(|&(a, _)| a - s).collect();
    nearest_with(observed, &phi)
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
        let pairs = wide.llr_pentanomial(&Pentanomial { counts: [0, 0, 0, 0, 30], win_loss: 0 });
        assert!(close(pairs, 4.00800, 1e-4) && wide.decision(pairs) == Some(SprtDecision::H1Accepted));
        // Pentanomial, 400 pairs [20, 40, 140, 120, 80]: mu = 0.625.
        let p = Pentanomial { counts: [20, 40, 140, 120, 80], win_loss: 0 };
        assert!(close(sprt.llr_pentanomial(&p), 3.82197, 1e-4), "{}", sprt.llr_pentanomial(&p));
        assert_eq!(sprt.decision(sprt.llr_pentanomial(&p)), Some(SprtDecision::H1Accepted));
        assert!(close(
            sprt.llr_pentanomial(&Pentanomial { counts: [0, 0, 9, 0, 0], win_loss: 0 }),
            -0.12504,
            1e-4
        ));
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err() && Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }

    /// fastchess's own reference values for each model (its SPRT tests):
    /// wins, losses, draws; pairs as LL, LD, WL + DD, WD, WW.
    #[test]
    fn the_three_models_agree_with_fastchess() {
        let test = |model: SprtModel, elo0: f64, elo1: f64| {
            Sprt::new(elo0, elo1, 0.05, 0.05).expect("a valid test").with_model(model)
        };
        let games = [
            (SprtModel::Normalized, 0.0, 2.0, (36433, 36027, 68692), 0.92),
            (SprtModel::Normalized, -1.75, 0.25, (10871, 10650, 20431), 2.30),
            (SprtModel::Normalized, 0.0, 10.0, (4250, 0, 0), 120.56),
            (SprtModel::Logistic, 0.5, 2.5, (21404, 21184, 40708), -1.57),
            (SprtModel::Logistic, 0.0, 2.0, (57433, 57030, 106593), -2.59),
            (SprtModel::Bayesian, 0.0, 2.0, (68965, 68526, 128429), -1.26),
            (SprtModel::Bayesian, 0.5, 2.5, (21629, 21484, 41111), -1.13),
        ];
        for (model, elo0, elo1, (w, l, d), expected) in games {
            let llr = test(model, elo0, elo1).llr_trinomial(&t(w, l, d));
            assert!((llr - expected).abs() <= 0.01 * expected.abs() + 0.005, "{model:?} {llr} {expected}");
        }
        let pairs = [
            (SprtModel::Normalized, 0.0, 2.0, [365, 16618, 36029 + 200, 16974, 390], 2.25),
            (SprtModel::Normalized, -1.75, 0.25, [127, 4883, 10311 + 401, 5150, 104], 3.01),
            (SprtModel::Normalized, 0.0, 5.0, [0, 0, 0, 0, 5550], 111.82),
            (SprtModel::Logistic, 0.5, 2.5, [223, 9863, 20279 + 1000, 10037, 246], -3.07),
            (SprtModel::Logistic, 0.0, 2.0, [871, 26175, 55003 + 980, 26678, 821], -4.98),
        ];
        for (model, elo0, elo1, counts, expected) in pairs {
            let llr = test(model, elo0, elo1).llr_pentanomial(&Pentanomial { counts, win_loss: 0 });
            assert!((llr - expected).abs() <= 0.01 * expected.abs() + 0.005, "{model:?} {llr} {expected}");
        }
        // BayesElo without a win or without a loss says nothing yet.
        assert_eq!(test(SprtModel::Bayesian, 0.0, 5.0).llr_trinomial(&t(10, 0, 3)), 0.0);
        assert!(!test(SprtModel::Bayesian, 0.0, 5.0).takes_pairs());
        assert_eq!(SprtModel::parse("normalized"), Some(SprtModel::Normalized));
        assert_eq!(SprtModel::parse("gaussian"), None);
    }
}
