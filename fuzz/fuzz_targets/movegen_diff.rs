//! Bytes -> a start (the start position or a random valid placement) and move indices; the
//! fast implementation and the oracle must agree on legal moves, check and status at every step.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(d) = xiangqi_difftest::fuzz_movegen(data) {
        panic!("{d}");
    }
});
