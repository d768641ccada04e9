//! The fast judge (`xiangqi_rules::judge`) against the oracle's: every worked example of a rule
//! set both know gives the same JSON, byte for byte, and the same explanation; then generated
//! games with repetition cycles (proptest, a few thousand in all) and generated classifications.
//! A divergence prints a YAML example stub.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::judge::{
    bounded, classify_case_from, compare_classify, compare_classify_at, compare_judge,
    compare_judge_at, compare_judge_with, fuzz_classify, fuzz_judge, game_from, rule_set_ids,
    seeded_game, JudgeCase, Start,
};

/// A worked example with a position and moves.
struct Worked {
    id: String,
    /// `expected.ruling` is not null: a repetition is ruled on.
    ruled: bool,
    /// The FEN has a known transcription slip (`fen_problems`): read leniently.
    lenient: bool,
    case: JudgeCase,
}

fn examples() -> Vec<Worked> {
    common::example_docs()
        .iter()
        .filter_map(|y| {
            Some(Worked {
                id: common::str_field(y, "id").unwrap_or("?").to_string(),
                // `expected.ruling: null`: no repetition ruling (e.g. AXF O1, nothing repeats).
                ruled: !y["expected"]["ruling"].is_null(),
                lenient: y.get("fen_problems").is_some(),
                case: common::judge_case(y)?,
            })
        })
        .collect()
}

#[test]
fn every_worked_example_gives_the_oracles_json_and_text() {
    let known = rule_set_ids();
    let mut compared = std::collections::BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    for w in examples() {
        let (id, case) = (&w.id, &w.case);
        if !known.contains(&case.rules.as_str()) {
            continue;
        }
        match compare_judge_with(case, w.lenient) {
            // Both engines must read every example and play every move of it.
            Ok(a) if a.json == "bad FEN" || a.json.starts_with("illegal move") => {
                failures.push(format!("{id}: both engines reject it: {}", a.json));
            }
            Ok(a) => {
                if w.ruled {
                    assert!(a.cycle, "{id}: the example repeats a cycle");
                }
                *compared.entry(case.rules.clone()).or_default() += 1;
            }
            Err(d) => failures.push(format!("{id}:\n{d}")),
        }
    }
    eprintln!("worked examples compared (identical JSON and text): {compared:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let total: usize = compared.values().sum();
    assert!(total >= 47 + 94, "only {total} examples compared");
    // Every rule set of both engines is compared, the Asian rules included.
    for id in ["cxa-1999", "cxa-2011", "axf"] {
        assert!(compared.get(id).is_some_and(|n| *n > 0), "no {id} example");
    }
}

#[test]
fn generated_games_give_the_oracles_json() {
    let mut cycles = 0;
    let n = 30;
    for seed in 0..n {
        let case = seeded_game(seed);
        let a = compare_judge(&case).unwrap_or_else(|d| panic!("seed {seed}:\n{d}"));
        cycles += usize::from(a.cycle);
    }
    // The generator builds cycles in: most games are ruled on.
    assert!(
        cycles * 2 > n as usize,
        "only {cycles} of {n} games had a cycle"
    );
}

/// A count from the environment variable `k`, `d` when unset or unreadable.
fn env(k: &str, d: u64) -> u64 {
    std::env::var(k)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(d)
}

/// The seeded games rich in checks (those [`bounded`] estimates costly for the oracle), judged
/// (and each move classified) by both under every rule set, at the rule sets' own search depths:
/// the fast searches' paths through many checks (check lines, mate searches, captures answered
/// by checks) are compared there too. `CHECK_RICH_SEEDS` (default 100) seeds are scanned;
/// `CHECK_RICH_KILL` and `CHECK_RICH_CHASE` (both or neither) cut both judges' searches alike to
/// those plies instead, for a quicker look at more seeds.
#[test]
fn check_rich_games_give_the_oracles_json() {
    let n = env("CHECK_RICH_SEEDS", 100);
    let cut = std::env::var("CHECK_RICH_KILL").is_ok().then(|| {
        (
            env("CHECK_RICH_KILL", 5) as u32,
            env("CHECK_RICH_CHASE", 5) as u32,
        )
    });
    let (mut compared, mut cycles) = (0, 0);
    let mut by_rules = std::collections::BTreeMap::<String, usize>::new();
    for seed in 0..n {
        let case = seeded_game(seed);
        if bounded(&case) {
            continue;
        }
        // Each game under every rule set.
        for id in rule_set_ids() {
            let case = JudgeCase {
                rules: id.to_string(),
                ..case.clone()
            };
            let (judged, classified) = match cut {
                Some((kill, chase)) => (
                    compare_judge_at(&case, kill, chase),
                    compare_classify_at(&case, kill, chase),
                ),
                None => (compare_judge(&case), compare_classify(&case)),
            };
            let a = judged.unwrap_or_else(|d| panic!("seed {seed} under {id} ({cut:?}):\n{d}"));
            // Every move of the game classified alone, too (the judge classifies the cycle).
            classified.unwrap_or_else(|d| {
                panic!("seed {seed} under {id}, classification ({cut:?}):\n{d}")
            });
            compared += 1;
            cycles += usize::from(a.cycle);
            *by_rules.entry(id.to_string()).or_default() += 1;
        }
    }
    eprintln!(
        "check-rich games: {compared} compared ({by_rules:?}), {cycles} with a cycle, cut {cut:?}"
    );
    assert!(
        compared >= 30,
        "only {compared} check-rich judgements compared"
    );
    assert!(
        cycles * 2 > compared,
        "only {cycles} of {compared} had a cycle"
    );
}

/// Seeded games with repetition cycles, all judged under the Asian rules (the AXF classifier,
/// `cycle_span: all`). `AXF_DIFF_SEEDS` (default 24) games from seed `AXF_DIFF_SEED_BASE`
/// (default 1000) on.
#[test]
fn generated_games_under_the_asian_rules_give_the_oracles_json() {
    let (n, base) = (env("AXF_DIFF_SEEDS", 24), env("AXF_DIFF_SEED_BASE", 1000));
    let (mut cycles, mut chases) = (0, 0);
    for seed in base..base + n {
        let mut case = seeded_game(seed);
        case.rules = "axf".to_string();
        let a = compare_judge(&case).unwrap_or_else(|d| panic!("seed {seed}:\n{d}"));
        cycles += usize::from(a.cycle);
        chases += usize::from(a.json.contains("\"class\":\"chase\""));
    }
    eprintln!("AXF seeded games: {n} compared, {cycles} with a cycle, {chases} with a chase");
    assert!(
        cycles * 2 > n as usize,
        "only {cycles} of {n} games had a cycle"
    );
}

#[test]
fn a_divergence_prints_a_yaml_example_stub() {
    let case = seeded_game(7);
    let d = xiangqi_difftest::judge::JudgeDivergence {
        case: case.clone(),
        aspect: "json",
        fast: "{\"a\":1}".into(),
        oracle: "{\"a\":2}".into(),
        depths: None,
    };
    let text = d.to_string();
    let y: serde_yaml::Value = serde_yaml::from_str(&text).expect("the stub is YAML");
    assert_eq!(y["fen"].as_str(), Some(case.fen.as_str()));
    assert_eq!(
        y["moves_full"].as_sequence().map(|s| s.len()),
        Some(case.moves.len())
    );
    assert!(text.contains("#   {\"a\":2}"), "{text}");
}

/// Cases per proptest: `n`, or `PROPTEST_CASES` when set (e.g. `PROPTEST_CASES=20000` for a
/// long local run).
fn cases(n: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig {
        cases,
        // A seed shrinks to nothing useful: the YAML stub printed is the report.
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    }
}

/// Judges a generated game with both judges, at the rule set's own search depths.
fn judge_agrees(case: &JudgeCase) {
    if let Err(d) = compare_judge(case) {
        panic!("{d}");
    }
}

/// Classifies every move of a generated line with both, at the rule set's own search depths.
fn classify_agrees(case: &JudgeCase) {
    if let Err(d) = compare_classify(case) {
        panic!("{d}");
    }
}

// Every case at the rule sets' own search depths: judged games 400 + 1,300 + 60 = 1,760, plus
// 300 fuzz inputs; classified lines (up to sixteen moves each) 400 + 1,300 + 60 = 1,760, plus 200
// fuzz inputs. Random placements are rich in checks and cost the oracle most (a mean near half a
// second, a few seconds at worst), hence fewer of them.
proptest! {
    #![proptest_config(cases(400))]
    #[test]
    fn games_from_the_initial_position_agree(seed in any::<u64>()) {
        let case = game_from(Start::Initial, &mut ChaCha8Rng::seed_from_u64(seed));
        judge_agrees(&case);
    }
}

proptest! {
    #![proptest_config(cases(1300))]
    #[test]
    fn games_from_sparse_positions_agree(seed in any::<u64>()) {
        let case = game_from(Start::Sparse, &mut ChaCha8Rng::seed_from_u64(seed));
        judge_agrees(&case);
    }

    #[test]
    fn classifications_from_sparse_positions_agree(seed in any::<u64>()) {
        let case = classify_case_from(Start::Sparse, &mut ChaCha8Rng::seed_from_u64(seed));
        classify_agrees(&case);
    }
}

proptest! {
    #![proptest_config(cases(60))]
    #[test]
    fn games_from_random_positions_agree(seed in any::<u64>()) {
        let case = game_from(Start::Random, &mut ChaCha8Rng::seed_from_u64(seed));
        judge_agrees(&case);
    }

    #[test]
    fn classifications_from_random_positions_agree(seed in any::<u64>()) {
        let case = classify_case_from(Start::Random, &mut ChaCha8Rng::seed_from_u64(seed));
        classify_agrees(&case);
    }
}

proptest! {
    #![proptest_config(cases(200))]
    #[test]
    fn fuzzed_classifications_agree(data in proptest::collection::vec(any::<u8>(), 0..48)) {
        if let Err(d) = fuzz_classify(&data) {
            panic!("{d}");
        }
    }
}

proptest! {
    #![proptest_config(cases(400))]
    #[test]
    fn classifications_from_the_initial_position_agree(seed in any::<u64>()) {
        let case = classify_case_from(Start::Initial, &mut ChaCha8Rng::seed_from_u64(seed));
        classify_agrees(&case);
    }
}

proptest! {
    #![proptest_config(cases(300))]
    /// The fuzz entry itself, on proptest's bytes (cycle-heavy: the bytes run out early, so
    /// the first choices, short prefixes and full cycles, dominate).
    #[test]
    fn fuzzed_games_give_the_oracles_json(data in proptest::collection::vec(any::<u8>(), 0..96)) {
        if let Err(d) = fuzz_judge(&data) {
            panic!("{d}");
        }
    }
}

#[test]
fn generated_games_reach_repetitions_from_every_start() {
    // Every game is judged at full depth; the generators must still build cycles.
    for start in [Start::Initial, Start::Sparse, Start::Random] {
        let n = 20;
        let mut cycles = 0u64;
        for seed in 0..n {
            let case = game_from(start, &mut ChaCha8Rng::seed_from_u64(seed));
            let a = compare_judge(&case).unwrap_or_else(|d| panic!("{start:?} seed {seed}:\n{d}"));
            cycles += u64::from(a.cycle);
        }
        assert!(
            cycles * 2 > n,
            "{start:?}: only {cycles} of {n} reach a cycle"
        );
    }
}

fn xqrules(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .output()
        .expect("run xqrules")
}

#[test]
fn the_cli_judges_with_the_fast_engine_by_default_and_as_the_oracle_does() {
    for example in ["cxa-1999/fig05", "cxa-2011/fig21"] {
        for format in ["text", "json"] {
            let default = xqrules(&["judge", "--example", example, "--format", format]);
            let fast = xqrules(&[
                "judge",
                "--example",
                example,
                "--format",
                format,
                "--engine",
                "fast",
            ]);
            let oracle = xqrules(&[
                "judge",
                "--example",
                example,
                "--format",
                format,
                "--engine",
                "oracle",
            ]);
            assert!(default.status.success() && oracle.status.success());
            assert_eq!(default.stdout, fast.stdout);
            assert_eq!(
                String::from_utf8_lossy(&fast.stdout),
                String::from_utf8_lossy(&oracle.stdout),
                "{example} {format}"
            );
        }
    }
}

#[test]
fn spec_with_the_fast_engine_is_an_error_pointing_to_the_oracle() {
    // Without --engine, --spec means the oracle (tested below with the default engine too).
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/spec");
    let o = xqrules(&[
        "judge",
        "--example",
        "cxa-1999/fig01",
        "--spec",
        spec,
        "--engine",
        "fast",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--engine oracle"), "{err}");
    let o = xqrules(&[
        "judge",
        "--example",
        "cxa-1999/fig01",
        "--spec",
        spec,
        "--engine",
        "oracle",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d = xqrules(&["judge", "--example", "cxa-1999/fig01", "--spec", spec]);
    assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
    assert_eq!(d.stdout, o.stdout, "--spec without --engine is the oracle");
}

#[test]
fn axf_is_judged_by_the_fast_engine_by_default_as_the_oracle_does() {
    for example in ["axf/O46", "axf/O118"] {
        for format in ["text", "json"] {
            let args = |engine: Option<&str>| {
                let mut v = vec!["judge", "--example", example, "--format", format];
                if let Some(e) = engine {
                    v.extend(["--engine", e]);
                }
                xqrules(&v)
            };
            let (default, fast, oracle) = (args(None), args(Some("fast")), args(Some("oracle")));
            for o in [&default, &fast, &oracle] {
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            }
            // No fallback note any more: the fast engine has the AXF classifier. (A warning
            // about moves after the ruling point may come, in text.)
            let err = String::from_utf8_lossy(&default.stderr);
            assert!(
                err.lines().all(|l| l.contains("not judged: judging ends")),
                "{err}"
            );
            assert_eq!(
                default.stdout, fast.stdout,
                "{example} {format}: default is fast"
            );
            assert_eq!(
                String::from_utf8_lossy(&fast.stdout),
                String::from_utf8_lossy(&oracle.stdout),
                "{example} {format}"
            );
        }
    }
}

#[test]
fn batch_judges_with_either_engine_alike() {
    use std::io::Write as _;
    let input = concat!(
        r#"{"id": 1, "fen": "2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1", "#,
        r#""moves": "b4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4"}"#,
        "\n",
        r#"{"id": 2, "fen": "2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1", "moves": ["b4a4"]}"#,
        "\n"
    );
    let run = |engine: Option<&str>| {
        let mut args = vec!["judge", "--rules", "axf", "--batch", "-"];
        if let Some(e) = engine {
            args.extend(["--engine", e]);
        }
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_xqrules"))
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run xqrules");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("output")
    };
    let (default, fast, oracle) = (run(None), run(Some("fast")), run(Some("oracle")));
    for o in [&default, &fast, &oracle] {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(default.stdout, fast.stdout);
    assert_eq!(
        String::from_utf8_lossy(&fast.stdout),
        String::from_utf8_lossy(&oracle.stdout)
    );
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&fast.stdout)
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("JSON");
    assert_eq!(first["judgement"]["ruling"], "red_loses");
    assert_eq!(first["judgement"]["red_pattern"], "perpetual_chase");
}

#[test]
fn judge_diff_seeds_agree_and_build_cycles() {
    let mut cycles = 0;
    for s in common::fuzz_seeds("judge_diff") {
        let a = fuzz_judge(&s).unwrap_or_else(|d| panic!("{d}"));
        cycles += usize::from(a.cycle);
    }
    assert!(cycles >= 3, "only {cycles} seeds reach a repetition");
}

#[test]
fn classify_diff_seeds_agree() {
    let mut classified = 0;
    for s in common::fuzz_seeds("classify_diff") {
        let last = fuzz_classify(&s).unwrap_or_else(|d| panic!("{d}"));
        classified += usize::from(last.is_some());
    }
    assert!(classified >= 3, "only {classified} seeds classified a move");
}
