//! Tabula's integration tests in one crate, so that they are compiled and
//! linked once: rules against perft counts and a slow reference
//! implementation (`reference`, `quarto_reference`), invariants over random
//! games, the solvers against each other, and conversations with the real
//! binary (`common::engine_process`), one module for each subject. Data
//! files are in `tests/data`. `cargo test --release --test it protocol::`
//! runs one module.

mod common;
mod quarto_reference;
mod reference;

mod analysis;
mod fuzz_inputs;
mod go_limits;
mod invariants;
mod mates;
mod perft;
mod pipes;
mod protocol;
mod proven;
mod qtp;
mod quarto;
mod solve;
mod solve_crosscheck;
mod solve_memory;
mod solve_proof;
mod solve_stages;
