//! Perft node counts of spec/perft.yaml against the fast implementation.
//!
//! The `*_detail` sections (leaf captures and checks) are checked with
//! `Position::perft_detail`. Entries up to 5,000,000 nodes run by default; deeper ones are
//! `#[ignore]`d:
//! `cargo test --release --test perft_fast -- --ignored`.

use serde::Deserialize;
use xiangqi_rules::Position;

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

#[derive(Deserialize)]
struct Detail {
    fen: String,
    by_depth: Vec<DetailEntry>,
}

#[derive(Deserialize)]
struct DetailEntry {
    depth: u32,
    nodes: u64,
    checks: Option<u64>,
    captures: Option<u64>,
}

const LIMIT: u64 = 5_000_000;

fn details() -> Vec<(String, Detail)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/perft.yaml");
    let text = std::fs::read_to_string(path).expect("read spec/perft.yaml");
    let doc: serde_yaml::Mapping = serde_yaml::from_str(&text).expect("parse spec/perft.yaml");
    let mut out = Vec::new();
    for (k, v) in doc {
        let Some(name) = k.as_str().filter(|k| k.ends_with("_detail")) else {
            continue;
        };
        let d: Detail = serde_yaml::from_value(v).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name.to_string(), d));
    }
    out
}

fn run_details(select: impl Fn(&DetailEntry) -> bool) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (name, d) in details() {
        for e in d.by_depth.iter().filter(|e| select(e)) {
            ran += 1;
            let got = Position::from_fen(&d.fen)
                .unwrap_or_else(|err| panic!("{name}: fen {:?} rejected: {err}", d.fen))
                .perft_detail(e.depth);
            let want = (
                e.nodes,
                e.captures.unwrap_or(got.captures),
                e.checks.unwrap_or(got.checks),
            );
            if (got.nodes, got.captures, got.checks) != want {
                failures.push(format!(
                    "{name}: fen {:?} depth {}: expected nodes/captures/checks {:?}, got {:?}",
                    d.fen,
                    e.depth,
                    (e.nodes, e.captures, e.checks),
                    (got.nodes, got.captures, got.checks)
                ));
            }
        }
    }
    assert!(ran > 0, "no detail entries selected");
    assert!(
        failures.is_empty(),
        "{} detail mismatch(es):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn entries() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/perft.yaml");
    let text = std::fs::read_to_string(path).expect("read spec/perft.yaml");
    let file: PerftFile = serde_yaml::from_str(&text).expect("parse spec/perft.yaml");
    assert!(!file.perft.is_empty(), "spec/perft.yaml has no entries");
    file.perft
}

fn run(select: impl Fn(&Entry) -> bool) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for e in entries().iter().filter(|e| select(e)) {
        ran += 1;
        let got = match Position::from_fen(&e.fen) {
            Ok(mut pos) => pos.perft(e.depth),
            Err(err) => {
                failures.push(format!("fen {:?}: rejected: {err}", e.fen));
                continue;
            }
        };
        if got != e.nodes {
            failures.push(format!(
                "fen {:?} depth {}: expected {} nodes, got {got}",
                e.fen, e.depth, e.nodes
            ));
        }
    }
    assert!(ran > 0, "no entries selected");
    assert!(
        failures.is_empty(),
        "{} perft mismatch(es):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_up_to_5m_nodes() {
    run(|e| e.nodes <= LIMIT);
}

#[test]
#[ignore = "slow: deep perft; run with cargo test --release -- --ignored"]
fn perft_deep() {
    run(|e| e.nodes > LIMIT);
}

#[test]
fn perft_detail_up_to_5m_nodes() {
    run_details(|e| e.nodes <= LIMIT);
}

#[test]
#[ignore = "slow: deep perft; run with cargo test --release -- --ignored"]
fn perft_detail_deep() {
    run_details(|e| {
        e.nodes > LIMIT && e.nodes <= 200_000_000 && (e.checks.is_some() || e.captures.is_some())
    });
}
