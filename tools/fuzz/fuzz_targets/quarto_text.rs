//! Fuzz target: the invariants of `tabula::checks::quarto_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tabula::checks::quarto_text(data));
