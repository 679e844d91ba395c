//! Helpers shared by the integration tests that talk to the real binary.

// Each test crate uses its own subset of the helpers.
#![allow(dead_code)]

pub mod engine_process;
