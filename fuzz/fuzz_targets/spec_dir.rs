//! Any bytes as amended spec files over a copy of the shipped spec: loading and `spec check`
//! never panic, and every problem names its file:line:column.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    xiangqi_difftest::readers::fuzz_spec(data);
});
