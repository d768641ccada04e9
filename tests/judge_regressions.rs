//! Named regression cases of the repetition judge: each `tests/regressions/judge/NAME.yaml` (the
//! stub a `judge_diff` / `classify_diff` divergence prints, completed and named) is a test
//! that judges its game with the fast judge and the oracle, which must give the same JSON and
//! explanation and classify every move alike; every field of its `expected` block must then
//! equal the field of that name in the judgement's JSON (`ruling`, `must_change`, `immediate`,
//! `pending`, `red_pattern`, `black_pattern`, `articles`, …).
//!
//! Cases without a divergence behind them (generated games recorded to pin the agreed output)
//! say so in `note`. Add a case: save the stub as `tests/regressions/judge/NAME.yaml`, then add
//! `NAME` to the list below (`every_case_file_is_listed` fails until you do).

mod common;

use std::path::PathBuf;

use common::{judge_case, load_yaml, str_field};
use xiangqi_difftest::judge::{
    compare_classify, compare_classify_at, compare_judge, compare_judge_at,
};

fn dir() -> PathBuf {
    common::repo_path("tests/regressions/judge")
}

fn check(name: &str) {
    let y = load_yaml(&dir().join(format!("{name}.yaml")));
    assert_eq!(str_field(&y, "name"), Some(name), "{name}: the name field");
    assert!(
        str_field(&y, "note").is_some_and(|n| !n.contains("TODO")),
        "{name}: say in `note` which side was wrong and how it was fixed"
    );
    let case = judge_case(&y).unwrap_or_else(|| panic!("{name}: rules, fen and moves_full"));
    let (agreed, classified) = match search_depths(&y, name) {
        // A divergence found with both judges' searches cut (`compare_judge_at`).
        Some((kill, chase)) => (
            compare_judge_at(&case, kill, chase),
            compare_classify_at(&case, kill, chase),
        ),
        None => (compare_judge(&case), compare_classify(&case)),
    };
    let agreed = agreed.unwrap_or_else(|d| panic!("{name}: still diverges:\n{d}"));
    classified.unwrap_or_else(|d| panic!("{name}: still diverges:\n{d}"));
    let got: serde_json::Value = serde_json::from_str(&agreed.json)
        .unwrap_or_else(|_| panic!("{name}: both judges reject the game: {}", agreed.json));
    let expected = y
        .get("expected")
        .and_then(|e| e.as_mapping())
        .unwrap_or_else(|| panic!("{name}: no `expected` block"));
    let mut wrong = Vec::new();
    for (k, v) in expected {
        let k = k
            .as_str()
            .unwrap_or_else(|| panic!("{name}: a key that is no text"));
        let want = serde_json::to_value(v).expect("YAML as JSON");
        assert!(want != "TODO", "{name}: fill in expected.{k} (or drop it)");
        assert!(
            got.get(k).is_some(),
            "{name}: expected.{k} is no field of the judgement"
        );
        if got[k] != want {
            wrong.push(format!("{k}: {} (expected {want})", got[k]));
        }
    }
    assert!(wrong.is_empty(), "{name}: {}", wrong.join("; "));
}

/// The optional `search_depths: {kill: K, chase: C}` of a case (both judges cut to K and C
/// plies, as the stub of a divergence found that way says).
fn search_depths(y: &serde_yaml::Value, name: &str) -> Option<(u32, u32)> {
    let d = y.get("search_depths")?;
    let plies = |k: &str| {
        d.get(k)
            .and_then(|v| v.as_u64())
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or_else(|| panic!("{name}: search_depths.{k} must be a number of plies"))
    };
    Some((plies("kill"), plies("chase")))
}

macro_rules! cases {
    ($($test:ident => $name:expr,)*) => {
        $(
            #[test]
            fn $test() {
                check($name);
            }
        )*
        const ALL: &[&str] = &[$($name),*];
    };
}

cases! {
    check_line_ties_by_identity_2011 => "check-line-ties-by-identity-2011",
    blocker_opens_only_an_illegal_move_2011 => "blocker-opens-only-an-illegal-move-2011",
    checks_and_idle_both_sides_2011 => "checks-and-idle-both-sides-2011",
    cut_that_opened_its_own_attack_axf => "cut-that-opened-its-own-attack-axf",
    kill_chase_with_exchange_1999 => "kill-chase-with-exchange-1999",
    moved_cannon_between_facing_kings_2011 => "moved-cannon-between-facing-kings-2011",
    joint_line_of_checks_label_2011 => "joint-line-of-checks-label-2011",
    line_after_an_undone_capture_2011 => "line-after-an-undone-capture-2011",
    moved_piece_shields_from_facing_kings_2011 => "moved-piece-shields-from-facing-kings-2011",
    mutual_chases_draw_2011 => "mutual-chases-draw-2011",
    perpetual_chase_2011 => "perpetual-chase-2011",
    perpetual_chase_against_kills_1999 => "perpetual-chase-against-kills-1999",
    perpetual_check_1999 => "perpetual-check-1999",
    perpetual_kill_2011 => "perpetual-kill-2011",
    won_back_line_worth_the_capturer_2011 => "won-back-line-worth-the-capturer-2011",
}

#[test]
fn every_case_file_is_listed() {
    let files: Vec<String> = common::yaml_files(&dir())
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_string))
        .collect();
    let mut listed: Vec<String> = ALL.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "list every tests/regressions/judge/ case in cases!"
    );
}

#[test]
fn a_printed_stub_is_a_case_once_completed() {
    // The stub a divergence prints has every field `check` reads; its TODOs stop the test.
    let case = xiangqi_difftest::judge::seeded_game(3);
    let d = xiangqi_difftest::judge::JudgeDivergence {
        case: case.clone(),
        aspect: "json",
        fast: "{}".into(),
        oracle: "{}".into(),
        depths: None,
    };
    let y: serde_yaml::Value = serde_yaml::from_str(&d.to_string()).expect("the stub is YAML");
    assert_eq!(judge_case(&y), Some(case));
    assert_eq!(str_field(&y, "name"), Some("TODO-name-this-case"));
    assert!(str_field(&y, "note").is_some_and(|n| n.contains("TODO")));
    let keys: Vec<&str> = y["expected"]
        .as_mapping()
        .expect("expected")
        .keys()
        .filter_map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["ruling", "must_change", "immediate", "pending"]);
}

#[test]
fn a_stub_found_at_cut_depths_says_them() {
    // A divergence found with the searches cut (`compare_judge_at`) prints its depths, and the
    // replay reads them back.
    let d = xiangqi_difftest::judge::JudgeDivergence {
        case: xiangqi_difftest::judge::seeded_game(3),
        aspect: "json",
        fast: "{}".into(),
        oracle: "{}".into(),
        depths: Some((5, 7)),
    };
    let y: serde_yaml::Value = serde_yaml::from_str(&d.to_string()).expect("the stub is YAML");
    assert_eq!(search_depths(&y, "stub"), Some((5, 7)));
}
