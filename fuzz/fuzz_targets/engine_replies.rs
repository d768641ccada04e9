//! Any bytes as an engine's replies to engine-check: the reader never panics or hangs, and the
//! report it builds is consistent.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    xiangqi_difftest::readers::fuzz_engine_replies(data);
});
