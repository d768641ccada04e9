//! Any text: neither FEN parser panics, both agree on validity, a valid FEN round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(d) = xiangqi_difftest::fuzz_fen(text) {
            panic!("{d}");
        }
    }
});
