//! Bytes -> a rule set and a game with repetition cycles built in; the fast judge's JSON and
//! explanation must equal the oracle's (logic in `xiangqi_difftest::judge`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(d) = xiangqi_difftest::judge::fuzz_judge(data) {
        panic!("{d}");
    }
});
