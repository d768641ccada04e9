//! Perft node counts of `spec/perft.yaml`, recomputed by the oracle.

use serde::Deserialize;
use xiangqi_oracle::{Board, Spec};

#[derive(Deserialize)]
struct PerftFile {
    perft: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    fen: String,
    depth: u32,
    nodes: u64,
}

/// Entries up to this many nodes run in the default test pass.
const FAST_LIMIT: u64 = 2_000_000;

fn entries() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/perft.yaml");
    let text = std::fs::read_to_string(path).expect("spec/perft.yaml");
    let file: PerftFile = serde_yaml::from_str(&text).expect("perft.yaml parses");
    assert!(!file.perft.is_empty());
    file.perft
}

fn run(filter: impl Fn(&Entry) -> bool) -> usize {
    let spec = Spec::embedded();
    let mut ran = 0;
    for e in entries().into_iter().filter(|e| filter(e)) {
        let board = Board::from_fen(spec, &e.fen)
            .unwrap_or_else(|err| panic!("{}: strict FEN rejected: {err}", e.fen));
        let got = board.perft(e.depth);
        assert_eq!(got, e.nodes, "perft({}) of {}", e.depth, e.fen);
        ran += 1;
    }
    ran
}

#[test]
fn perft_entries_up_to_two_million_nodes() {
    let ran = run(|e| e.nodes <= FAST_LIMIT);
    assert!(ran >= 40, "only {ran} entries ran");
}

/// Runs the remaining entries up to `ORACLE_PERFT_MAX` nodes (default 200,000,000, which skips
/// the 5.4 billion node start position depth 6).
#[test]
#[ignore = "slow: perft entries above 2,000,000 nodes (minutes in release)"]
fn perft_entries_above_two_million_nodes() {
    let max: u64 = std::env::var("ORACLE_PERFT_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000_000);
    let ran = run(|e| e.nodes > FAST_LIMIT && e.nodes <= max);
    assert!(ran > 0);
}

#[test]
fn perft_fens_round_trip() {
    let spec = Spec::embedded();
    for e in entries() {
        let board = Board::from_fen(spec, &e.fen).expect("strict FEN");
        assert_eq!(board.to_fen(), e.fen);
    }
}

#[test]
fn divide_sums_to_perft() {
    let spec = Spec::embedded();
    let board = Board::start(spec);
    let divide = board.perft_divide(3);
    assert_eq!(divide.len(), 44);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 79666);
    // Sorted by ICCS text and each entry equals the perft of the child.
    let texts: Vec<String> = divide.iter().map(|(m, _)| m.to_string()).collect();
    let mut sorted = texts.clone();
    sorted.sort();
    assert_eq!(texts, sorted);
    for (m, n) in divide.iter().take(5) {
        assert_eq!(board.after(*m).unwrap().perft(2), *n);
    }
    assert_eq!(board.perft(0), 1);
}
