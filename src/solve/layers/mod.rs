//! Exact values of two-player Quoridor, layer by layer. A wall never leaves
//! the board, so every position belongs to a *layer*: its wall set and the
//! walls each player holds. Within a layer only the pawns move (and the
//! side to move changes); a wall move leads to a layer with one wall more.
//! Layers are valued from the most walls down: each one by retrograde
//! analysis over its pawn placements (at most `2 * area^2` positions), with
//! the values of its wall moves read from the layers already done.
//!
//! The rules are written again from the rulebook on small bitsets in
//! `board`, not taken from the move generator the search
//! uses, so that the solver and [`crate::solve::graph`] are two independent
//! methods; the tests compare them, and replay every line through the
//! library's rules.
//!
//! - `board`: the rules on small bitsets, the layer key and a level;
//! - `driver`: phase 1 (which layers) and the whole solve in one process;
//! - `values`: retrograde analysis of one layer's pawn placements;
//! - `files`: the stage files and their checksums;
//! - [`stages`]: the same solve as separate runs over a shared directory.

mod board;
mod driver;
mod files;
pub mod stages;
mod values;

pub use board::LayerKey;
pub use driver::{applies, plan_layers, solve_layers, LayerPlan, LayerTables, MAX_AREA};
