//! Bytes -> a rule set, a position and a few moves; each move's fast classification (class,
//! targets, articles, qualifiers, note) must equal the oracle's (logic in
//! `xiangqi_difftest::judge`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(d) = xiangqi_difftest::judge::fuzz_classify(data) {
        panic!("{d}");
    }
});
