//! Any bytes: the XQF reader never panics, and a file it reads writes and reads back.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| xiangqi_difftest::parsers::fuzz_xqf(data));
