//! Tabula: rules and search for Quoridor and Quarto.
//!
//! The rules ([`games`]), the search ([`search`]) and the worker thread
//! ([`engine`]) do no I/O; the protocol layer in [`protocol`] is the only code
//! that prints.

#![deny(missing_docs)]

pub mod bits;
pub mod checks;
pub mod crc32;
pub mod engine;
pub mod game;
pub mod games;
pub mod huge_pages;
pub mod perft;
pub mod prefetch;
pub mod protocol;
pub mod quote;
pub mod rng;
pub mod search;
pub mod solve;
