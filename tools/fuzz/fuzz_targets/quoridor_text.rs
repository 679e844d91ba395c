//! Fuzz target: the invariants of `tabula::checks::quoridor_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tabula::checks::quoridor_text(data));
