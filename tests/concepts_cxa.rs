//! Constructed positions, each isolating one general reading of the Chinese rules, judged by
//! both engines (`compare_judge`: the fast judge must give the oracle's JSON byte for byte) under
//! the rule sets where the reading applies and where it does not. Each position's mirror image
//! and colour swap must be judged alike (classes, targets and ruling mapped by the symmetry).
//!
//! The cases are grouped by concept, one file each under `tests/concepts_cxa/`: the gain over
//! the complete exchange, the pawn and king exemptions, exchange versus chase, joint chase,
//! newness, lines of consecutive checks, the protector's departure, and which side must change.

mod common;

use serde_json::Value;
use xiangqi_difftest::judge::{compare_judge, JudgeCase};

/// Judges `fen` + `moves` under `rules` with both engines; the common JSON. The game's mirror
/// image and colour swap are judged alike, by both engines too.
fn judged(rules: &str, fen: &str, moves: &str) -> Value {
    let case = JudgeCase {
        rules: rules.to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(str::to_string).collect(),
    };
    let a = compare_judge(&case).unwrap_or_else(|d| panic!("fast ≠ oracle: {d:?}"));
    let j: Value = serde_json::from_str(&a.json).expect("JSON");
    let id = format!("{rules} {fen}");
    let images = common::symmetry::image_differences(&id, &case, &j, false, true, true);
    assert!(images.is_empty(), "{}", images.join("\n"));
    j
}

/// The cycle move at ply `ply`.
fn cycle_move(j: &Value, ply: u64) -> &Value {
    j["cycle"]
        .as_array()
        .expect("a cycle")
        .iter()
        .find(|c| c["ply"] == ply)
        .unwrap_or_else(|| panic!("no ply {ply} in {j}"))
}

/// The class of the cycle move at ply `ply`.
fn class_at(j: &Value, ply: u64) -> String {
    cycle_move(j, ply)["class"]
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The targets of the cycle move at ply `ply`.
fn targets_at(j: &Value, ply: u64) -> Vec<String> {
    cycle_move(j, ply)["targets"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Does the cycle move at ply `ply` cite `article`?
fn cites(j: &Value, ply: u64, article: &str) -> bool {
    articles_at(j, ply).iter().any(|a| a == article)
}

/// The articles cited for the cycle move at ply `ply`.
fn articles_at(j: &Value, ply: u64) -> Vec<String> {
    cycle_move(j, ply)["articles"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[path = "concepts_cxa/departure.rs"]
mod departure;
#[path = "concepts_cxa/exchange.rs"]
mod exchange;
#[path = "concepts_cxa/gain.rs"]
mod gain;
#[path = "concepts_cxa/joint.rs"]
mod joint;
#[path = "concepts_cxa/lines.rs"]
mod lines;
#[path = "concepts_cxa/newness.rs"]
mod newness;
#[path = "concepts_cxa/pawns_and_kings.rs"]
mod pawns_and_kings;
#[path = "concepts_cxa/sides.rs"]
mod sides;

/// Every case the rule files cite (`tests/concepts_cxa/FILE.rs` followed by a test's name in
/// backquotes) is a test of that file: a reading never points at a test that was renamed or moved.
#[test]
fn every_case_the_rule_files_cite_exists() {
    let mut cited = 0;
    for rules in ["cxa-1999", "cxa-2011"] {
        let path = common::repo_path(&format!("spec/rules/{rules}.yaml"));
        let text = std::fs::read_to_string(&path).expect("the rule file reads");
        let marker = "tests/concepts_cxa/";
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let file = rest.split(".rs").next().expect("a file name");
            let after = &rest[file.len() + ".rs".len()..];
            // The name follows in backquotes, after the path's own closing one, a comma or
            // white space.
            let gap = after.len() - after.trim_start_matches([',', ' ', '\n', '`']).len();
            if !after[..gap].ends_with('`') {
                continue;
            }
            let name: String = after[gap..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() || !after[gap + name.len()..].starts_with('`') {
                continue;
            }
            let source = std::fs::read_to_string(common::repo_path(&format!(
                "tests/concepts_cxa/{file}.rs"
            )))
            .unwrap_or_else(|_| {
                panic!("{rules}: cites tests/concepts_cxa/{file}.rs, no such file")
            });
            assert!(
                source.contains(&format!("fn {name}(")),
                "{rules}: cites `{name}` in tests/concepts_cxa/{file}.rs, no such test"
            );
            cited += 1;
        }
    }
    assert!(
        cited >= 30,
        "only {cited} citations found: is the marker still used?"
    );
}
