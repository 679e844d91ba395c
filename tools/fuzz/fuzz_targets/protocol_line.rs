//! Fuzz target: the invariants of `tabula::checks::protocol_line`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tabula::checks::protocol_line(data));
