//! `tune`: fits the weights of the Quoridor evaluation to game results
//! (Texel's method). Every position of every recorded game, after its
//! opening, is one sample: the evaluation's terms for the side to move,
//! and whether that side went on to win. A logistic regression gives the
//! weights under which the evaluation best predicts the results; they are
//! printed in centi-steps, ready for `WEIGHTS` in
//! `src/games/quoridor/eval.rs`, together with how well the current
//! weights and the fitted ones predict the games.
//!
//!     tune [--ridge R] [--from-ply N] [--drop TERM]... FILE.pgn...

use tabula::game::Position;
use tabula::games::quoridor::eval::{Term, TERMS, TERM_NAMES, WEIGHTS};
use tune::fit::{best_scale, fit, log_loss, Samples};
use tune::records;

struct Options {
    ridge: f64,
    /// Positions before this ply (counted after the opening) are left out.
    from_ply: usize,
    files: Vec<String>,
    /// Terms held at zero (not fitted).
    dropped: Vec<usize>,
}

fn options() -> Result<Options, String> {
    let mut options = Options { ridge: 1.0, from_ply: 0, files: Vec::new(), dropped: Vec::new() };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--ridge" => options.ridge = value("--ridge")?.parse().map_err(|_| "bad --ridge")?,
            "--from-ply" => options.from_ply = value("--from-ply")?.parse().map_err(|_| "bad --from-ply")?,
            "--drop" => {
                let name = value("--drop")?;
                let term = TERM_NAMES.iter().position(|&n| n == name).ok_or(format!("no term {name}"))?;
                options.dropped.push(term);
            }
            "-h" | "--help" => return Err(String::new()),
            file => options.files.push(file.to_string()),
        }
    }
    if options.files.is_empty() {
        return Err("no game records given".into());
    }
    Ok(options)
}

fn samples(options: &Options) -> Result<Samples, String> {
    let mut samples = Samples { rows: Vec::new(), scores: Vec::new() };
    let (mut games, mut skipped) = (0, 0);
    for file in &options.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for record in records::read_records(&text) {
            let positions = match record.and_then(|r| r.positions()) {
                Ok(positions) => positions,
                Err(reason) => {
                    if skipped < 3 {
                        eprintln!("{file}: game skipped: {reason:?}");
                    }
                    skipped += 1;
                    continue;
                }
            };
            games += 1;
            for (position, score) in positions.into_iter().skip(options.from_ply) {
                if let Some(mut terms) = position.evaluation_terms(position.side_to_move()) {
                    for &term in &options.dropped {
                        terms[term] = 0;
                    }
                    samples.rows.push(terms.iter().map(|&t| f64::from(t)).collect());
                    samples.scores.push(score);
                }
            }
        }
    }
    eprintln!("{games} games ({skipped} skipped), {} positions", samples.rows.len());
    Ok(samples)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}\nusage: tune [--ridge R] [--from-ply N] [--drop TERM]... FILE.pgn...");
            std::process::exit(2);
        }
    };
    let samples = match samples(&options) {
        Ok(samples) if !samples.rows.is_empty() => samples,
        Ok(_) => return eprintln!("no positions to fit"),
        Err(message) => return eprintln!("{message}"),
    };
    let current: Vec<f64> = WEIGHTS.iter().map(|&w| f64::from(w)).collect();
    let k = best_scale(&samples, &current);
    let scaled: Vec<f64> = current.iter().map(|w| w * k).collect();
    println!("current weights: log-loss {:.5} (scale {:.6} per centi-step)", log_loss(&samples, &scaled), k);
    let fitted = fit(&samples, options.ridge, 30);
    println!("fitted weights:  log-loss {:.5}", log_loss(&samples, &fitted));
    let unit = fitted[Term::PathLead as usize] / 100.0;
    println!("in centi-steps (path lead = 100):");
    println!("pub const WEIGHTS: [i32; TERMS] = [");
    for i in 0..TERMS {
        println!("    {:>6}, // {} (was {})", (fitted[i] / unit).round() as i64, TERM_NAMES[i], WEIGHTS[i]);
    }
    println!("];");
}
