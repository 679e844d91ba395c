//! Helpers shared by the integration tests: the real binary as a process,
//! and the replay of solved strategies through the rules.

// Each test module uses its own subset of the helpers.
#![allow(dead_code)]

pub mod engine_process;
pub mod qtp;
pub mod rng;
pub mod strategy;
