//! Helpers shared by the integration tests (`mod common;`): reading the committed fuzz seeds,
//! the YAML files of a directory, worked examples as judge cases, and comparing a judgement
//! with an example's `expected` block. Each test crate uses a part of it.
#![allow(dead_code)]

pub mod symmetry;

use std::path::{Path, PathBuf};

use xiangqi_difftest::judge::JudgeCase;
use xiangqi_oracle::judge::{Judgement, Ruling, SideName};

/// A path below the repository root.
pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The committed seeds (`fuzz/corpus/<target>/seed-*`) of a fuzz target, in name order.
pub fn fuzz_seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = repo_path(&format!("fuzz/corpus/{target}"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed-"))
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no seeds in {}", dir.display());
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("read seed"))
        .collect()
}

/// The `*.yaml` files directly in `dir`, in name order.
pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
}

/// A YAML file, parsed.
pub fn load_yaml(path: &Path) -> serde_yaml::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A string field of a YAML mapping.
pub fn str_field<'a>(y: &'a serde_yaml::Value, k: &str) -> Option<&'a str> {
    y.get(k).and_then(|v| v.as_str())
}

/// The judge case of an example or regression file: `rules`, `fen`, `moves_full`.
pub fn judge_case(y: &serde_yaml::Value) -> Option<JudgeCase> {
    Some(JudgeCase {
        rules: str_field(y, "rules")?.to_string(),
        fen: str_field(y, "fen")?.to_string(),
        moves: y
            .get("moves_full")?
            .as_sequence()?
            .iter()
            .map(|m| m.as_str().map(str::to_string))
            .collect::<Option<_>>()?,
    })
}

/// Every worked example file under `spec/examples/*/`, parsed, in path order.
pub fn example_docs() -> Vec<serde_yaml::Value> {
    let root = repo_path("spec/examples");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("spec/examples")
        .map(|d| d.expect("dir entry").path())
        .filter(|d| d.is_dir())
        .collect();
    dirs.sort();
    dirs.iter()
        .flat_map(|d| yaml_files(d))
        .map(|f| load_yaml(&f))
        .collect()
}

/// Every worked example under `spec/examples/*/` with a game, as `(id, case)`.
pub fn example_cases() -> Vec<(String, JudgeCase)> {
    example_docs()
        .iter()
        .filter_map(|y| {
            Some((
                str_field(y, "id").unwrap_or("?").to_string(),
                judge_case(y)?,
            ))
        })
        .collect()
}

/// Does the class a judge gives agree with the printed one? The same class, or an idle kind
/// (兑 exchange, 献 offer, 拦 block, 跟 follow: kinds of 闲, 2011 24.8 / 1999 28.9) where the book
/// prints 闲 (`spec/examples/README.md`, "Fields").
pub fn printed_class_agrees(printed: &str, got: &str) -> bool {
    printed == got
        || (printed == "idle" && matches!(got, "exchange" | "offer" | "block" | "follow"))
}

/// Where the oracle's judgement differs from `expected` in the ruling, the side that must
/// change and whether the ruling is immediate (`immediate` only when `expected` states it,
/// unless `immediate_required`). `expected` holds the text of the example (`printed`, …).
pub fn ruling_disagreements(
    e: &serde_yaml::Value,
    j: &Judgement,
    immediate_required: bool,
    expected: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let ruling = match j.ruling {
        Ruling::RedLoses => Some("red_loses"),
        Ruling::BlackLoses => Some("black_loses"),
        Ruling::Draw => Some("draw"),
        Ruling::None => None,
    };
    if ruling != str_field(e, "ruling") {
        out.push(format!(
            "ruling {ruling:?}, {expected} {:?}",
            str_field(e, "ruling")
        ));
    }
    let must = j.must_change.map(|s| match s {
        SideName::Red => "red",
        SideName::Black => "black",
    });
    if must != str_field(e, "must_change") {
        out.push(format!(
            "must_change {must:?}, {expected} {:?}",
            str_field(e, "must_change")
        ));
    }
    match e.get("immediate").and_then(|v| v.as_bool()) {
        Some(imm) if imm != j.immediate => {
            out.push(format!("immediate {}, {expected} {imm}", j.immediate));
        }
        None if immediate_required => {
            out.push(format!(
                "immediate {}, {expected} {:?}",
                j.immediate,
                e.get("immediate")
            ));
        }
        _ => {}
    }
    if j.pending {
        out.push("the judgement is still pending after moves_full".to_string());
    }
    out
}

/// Asserts the disagreements `found` between a judgement and an example: none, unless the
/// example carries `known_disagreement: "<reason>"`, in which case some must remain (so that the
/// test fails, prompting the removal of the marker, once the judge is fixed). `explain` gives
/// the judgement's text for the failure message; `what` names the example kind.
pub fn assert_disagreements(
    id: &str,
    y: &serde_yaml::Value,
    found: &[String],
    what: &str,
    explain: impl FnOnce() -> String,
) {
    match str_field(y, "known_disagreement") {
        None => assert!(
            found.is_empty(),
            "{id}: the judge disagrees with the {what}:\n  {}\n{}",
            found.join("\n  "),
            explain()
        ),
        Some(reason) => {
            assert!(
                !found.is_empty(),
                "{id}: the known disagreement ({reason}) is gone: remove `known_disagreement` from the example"
            );
            eprintln!("{id}: known disagreement ({reason}): {}", found.join("; "));
        }
    }
}
