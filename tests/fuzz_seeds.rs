//! Every committed fuzz seed runs through its fuzz entry in `cargo test`, so the entries stay
//! exercised on stable without cargo-fuzz (the fuzz targets in `fuzz/` call the same functions).

mod common;

use common::fuzz_seeds as seeds;
use xiangqi_difftest::parsers::{fuzz_notation, fuzz_pgn, fuzz_xqf, Notation};
use xiangqi_difftest::readers::{fuzz_engine_replies, fuzz_spec};
use xiangqi_rules::conformance::report::{CheckResult, Status};

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

#[test]
fn spec_dir_seeds() {
    let shipped = fuzz_spec(b"");
    for s in seeds("spec_dir") {
        let diagnostics = fuzz_spec(&s);
        // A seed that is a shipped file as it is finds nothing new.
        if s.len() > 1 && !s.contains(&0) {
            assert_eq!(
                diagnostics, shipped,
                "a spec_dir seed copies a shipped file that has changed since: write it anew \
                 (its slot byte, then the file as it is now)"
            );
        }
    }
    // The amended example: its made-up move is reported at its line.
    let two = seeds("spec_dir")
        .into_iter()
        .find(|s| s.contains(&0))
        .expect("a seed with two files");
    let diagnostics = fuzz_spec(&two);
    assert!(
        diagnostics
            .iter()
            .any(|d| d.file.ends_with("fig03.yaml") && d.reason.contains("z9z9")),
        "{diagnostics:?}"
    );
    assert!(
        diagnostics.iter().any(|d| d.file.ends_with("board.yaml")),
        "{diagnostics:?}"
    );
}

#[test]
fn engine_replies_seeds() {
    for s in seeds("engine_replies") {
        fuzz_engine_replies(&s);
    }
    let by_name = |name: &str| {
        let path = common::repo_path(&format!("fuzz/corpus/engine_replies/{name}"));
        let data = std::fs::read(&path).expect("seed");
        fuzz_engine_replies(&data).expect("a report")
    };
    // Fairy-Stockfish's real output: every perft agrees, the three rule cases are asked.
    let report = by_name("seed-fairy-stockfish-depth1");
    assert!(
        report.checks.iter().all(|c| c.result == CheckResult::Agree),
        "{report:?}"
    );
    assert_eq!(report.checks.len(), 2);
    assert_eq!(report.rule_checks.cases.len(), 3, "{report:?}");
    assert_ne!(report.status, Status::Error, "{:?}", report.error);
    // One count off at depth 2: found by the descent, then the replies end.
    let report = by_name("seed-wrong-count-descent");
    assert_eq!(report.checks[1].result, CheckResult::Disagree, "{report:?}");
    assert_eq!(report.status, Status::Error);
}
