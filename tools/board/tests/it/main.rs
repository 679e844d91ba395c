//! The board's integration tests in one crate, so that they are compiled
//! and linked once: a real `tabula-board` server driven over HTTP
//! (`common`), one module for each subject (clocks, engine seats, requests
//! and what is refused, signals, the variant form). `cargo test --release
//! -p board --test it clocks::` runs one module.

mod common;

mod analysis;
mod review;

mod clocks;
mod engines;
mod requests;
mod signals;
mod variants;
