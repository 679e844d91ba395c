//! Fuzz target: the invariants of `tabula::checks::move_notation`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tabula::checks::move_notation(data));
