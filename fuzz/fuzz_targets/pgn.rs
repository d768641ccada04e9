//! Any bytes: the PGN reader never panics, and every game it reads writes and reads back.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xiangqi_difftest::parsers::fuzz_pgn(data));
