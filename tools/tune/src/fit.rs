//! Logistic regression by Newton's method: the weights under which
//! `sigmoid(terms . weights)` best predicts each position's score, with a
//! small ridge penalty so that terms seldom seen stay near zero.

/// Positions as rows of terms, with the score of the side to move.
pub struct Samples {
    pub rows: Vec<Vec<f64>>,
    pub scores: Vec<f64>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-loss of the predictions `sigmoid(row . weights)`.
pub fn log_loss(samples: &Samples, weights: &[f64]) -> f64 {
    let total: f64 = samples
        .rows
        .iter()
        .zip(&samples.scores)
        .map(|(row, &y)| {
            let p = sigmoid(dot(row, weights)).clamp(1e-12, 1.0 - 1e-12);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.rows.len().max(1) as f64
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The best scale `k` for fixed weights: `sigmoid(k * row . weights)`
/// (golden-section search on the loss, which is convex in `k`).
pub fn best_scale(samples: &Samples, weights: &[f64]) -> f64 {
    let loss = |k: f64| log_loss(samples, &weights.iter().map(|w| w * k).collect::<Vec<_>>());
    let (mut low, mut high) = (1e-6, 1.0);
    let ratio = 0.618_033_988_75;
    for _ in 0..100 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(a) < loss(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Newton's method from zero weights; `ridge` penalises each squared weight.
pub fn fit(samples: &Samples, ridge: f64, iterations: usize) -> Vec<f64> {
    let n = samples.rows.first().map_or(0, Vec::len);
    let mut weights = vec![0.0; n];
    for _ in 0..iterations {
        let mut gradient: Vec<f64> = weights.iter().map(|w| ridge * w).collect();
        let mut hessian = vec![vec![0.0; n]; n];
        for (i, row) in hessian.iter_mut().enumerate() {
            row[i] = ridge;
        }
        for (row, &y) in samples.rows.iter().zip(&samples.scores) {
            let p = sigmoid(dot(row, &weights));
            let (residual, curvature) = (p - y, p * (1.0 - p));
            for i in 0..n {
                gradient[i] += residual * row[i];
                if row[i] != 0.0 {
                    for j in 0..n {
                        hessian[i][j] += curvature * row[i] * row[j];
                    }
                }
            }
        }
        let step = solve(hessian, gradient);
        let change: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (w, s) in weights.iter_mut().zip(step) {
            *w -= s;
        }
        if change < 1e-9 {
            break;
        }
    }
    weights
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; a
/// singular column (a term that never varies) gets 0.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let Some(pivot) = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())) else {
            continue;
        };
        a.swap(col, pivot);
        b.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (value, pivot_value) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *value -= factor * pivot_value;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for col in (0..n).rev() {
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        let rest: f64 = (col + 1..n).map(|k| a[col][k] * x[k]).sum();
        x[col] = (b[col] - rest) / a[col][col];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_weights_that_made_the_scores() {
        // Scores drawn from known weights by a fixed pseudo-random sequence.
        let truth = [0.8, -0.5];
        let mut rng = tabula::rng::Rng::new(12345);
        let mut next = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut samples = Samples { rows: Vec::new(), scores: Vec::new() };
        for _ in 0..20_000 {
            let row = vec![next() * 6.0 - 3.0, next() * 4.0 - 2.0];
            let y = if next() < sigmoid(dot(&row, &truth)) { 1.0 } else { 0.0 };
            samples.rows.push(row);
            samples.scores.push(y);
        }
        let weights = fit(&samples, 1e-6, 20);
        assert!((weights[0] - truth[0]).abs() < 0.05, "{weights:?}");
        assert!((weights[1] - truth[1]).abs() < 0.05, "{weights:?}");
        assert!(log_loss(&samples, &weights) < log_loss(&samples, &[0.0, 0.0]));
        let k = best_scale(&samples, &[8.0, -5.0]);
        assert!((k - 0.1).abs() < 0.01, "{k}");
    }
}
