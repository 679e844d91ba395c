//! Tabula: rules and search for Quoridor and Quarto, with no I/O.
//!
//! The protocol layer in [`protocol`] is the only code that prints.

pub mod game;
pub mod games;
pub mod perft;
