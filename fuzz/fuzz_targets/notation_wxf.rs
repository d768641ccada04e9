//! Any text in any reachable position: the WXF parser never panics, and a move it reads prints
//! and reads back to itself (both tandem styles).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_difftest::parsers::{fuzz_notation, Notation};

fuzz_target!(|data: &[u8]| fuzz_notation(data, Notation::Wxf));
