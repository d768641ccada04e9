//! Every committed fuzz seed runs through its fuzz entry in `cargo test`, so the entries stay
//! exercised on stable without cargo-fuzz (the fuzz targets in `fuzz/` call the same functions).

mod common;

use common::fuzz_seeds as seeds;
use xiangqi_difftest::parsers::{fuzz_notation, fuzz_pgn, fuzz_xqf, Notation};

#[test]
fn fen_seeds() {
    for s in seeds("fen") {
        let text = String::from_utf8_lossy(&s);
        if let Err(d) = xiangqi_difftest::fuzz_fen(&text) {
            panic!("{d}");
        }
    }
}

#[test]
fn movegen_diff_seeds() {
    for s in seeds("movegen_diff") {
        if let Err(d) = xiangqi_difftest::fuzz_movegen(&s) {
            panic!("{d}");
        }
    }
}

#[test]
fn notation_seeds() {
    for s in seeds("notation_chinese") {
        fuzz_notation(&s, Notation::Chinese);
    }
    for s in seeds("notation_wxf") {
        fuzz_notation(&s, Notation::Wxf);
    }
}

#[test]
fn record_seeds() {
    for s in seeds("pgn") {
        fuzz_pgn(&s);
    }
    for s in seeds("xqf") {
        fuzz_xqf(&s);
    }
}
