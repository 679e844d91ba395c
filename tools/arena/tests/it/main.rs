//! arena's integration tests in one crate, so that they are compiled and
//! linked once: whole matches through the real `arena` binary against
//! small scripted engines (`common`) and Tabula itself, one module for each
//! subject (command line, adjudication, faults, openings, records, QTP,
//! resuming, tournaments). `cargo test --release -p arena --test it qtp::`
//! runs one module.

mod common;

mod adjudication;
mod cli;
mod dropin;
mod faults;
mod matches;
mod merge;
mod openings;
mod pgn;
mod qtp;
mod race;
mod resume;
mod tournaments;
