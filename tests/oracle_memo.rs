//! The oracle's memo (`oracle/src/judge/memo.rs`) changes no answer: every worked example and
//! generated games (judged, and every move classified) give the same JSON and explanation with
//! the memo on and off (`xiangqi_oracle::judge::without_memo`).

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::judge::{bounded, classify_case_from, oracle_rules, seeded_game, Start};
use xiangqi_difftest::judge::{oracle_view, JudgeCase};
use xiangqi_oracle::judge::{self as oj, without_memo};
use xiangqi_oracle::{Board, OMove, Spec};

/// The start and the moves of `case` for the oracle (`None`: a FEN the oracle rejects).
fn board_and_moves(case: &JudgeCase, lenient: bool) -> Option<(Board, Vec<OMove>)> {
    let board = if lenient {
        Board::from_fen_lenient(Spec::embedded(), &case.fen).ok()?.0
    } else {
        Board::from_fen(Spec::embedded(), &case.fen).ok()?
    };
    let moves = case
        .moves
        .iter()
        .map_while(|m| m.parse::<OMove>().ok())
        .collect();
    Some((board, moves))
}

/// The oracle's judgement of `case` (JSON and explanation, or the error) and, with `classes`,
/// every move's classification, as text.
fn judged(case: &JudgeCase, lenient: bool, classes: bool) -> String {
    let Some(rules) = oracle_rules(&case.rules) else {
        return format!("no rule set {}", case.rules);
    };
    let Some((start, moves)) = board_and_moves(case, lenient) else {
        return "bad FEN".to_string();
    };
    let judgement = match oj::judge(rules, &start, &moves) {
        Ok(j) => format!(
            "{}\n{}",
            serde_json::to_string(&j).expect("serialises"),
            oj::explain(&j, &start)
        ),
        Err(e) => e.to_string(),
    };
    if !classes {
        return judgement;
    }
    let classes = match oj::classify_all(rules, &start, &moves) {
        Ok(cs) => cs
            .iter()
            .map(|c| oracle_view(c).join("; "))
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => e.to_string(),
    };
    format!("{judgement}\n{classes}")
}

/// `case` judged (and classified, with `classes`) with the memo and without it: the same text.
fn assert_memo_changes_nothing(what: &str, case: &JudgeCase, lenient: bool, classes: bool) {
    let with = judged(case, lenient, classes);
    let without = without_memo(|| judged(case, lenient, classes));
    assert_eq!(
        with, without,
        "{what}: the memo changed the oracle's answer\n{case:?}"
    );
}

#[test]
fn every_worked_example_is_judged_alike_with_and_without_the_memo() {
    let mut n = 0;
    for y in common::example_docs() {
        let Some(case) = common::judge_case(&y) else {
            continue;
        };
        let id = common::str_field(&y, "id").unwrap_or("?");
        // The judgement holds the classification of every move of the cycle.
        assert_memo_changes_nothing(id, &case, y.get("fen_problems").is_some(), false);
        n += 1;
    }
    assert!(n >= 150, "only {n} examples judged");
}

/// Generated games (seeds 0..`MEMO_TEST_SEEDS`, default 30) and lines of up to sixteen moves
/// from the initial position and sparse and full random placements. Without the memo the
/// oracle takes seconds to minutes on the games rich in checks: those are left out
/// (`bounded`); with it they are judged by `tests/judge_diff.rs`.
#[test]
fn generated_games_are_judged_alike_with_and_without_the_memo() {
    let n: u64 = std::env::var("MEMO_TEST_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let mut compared = 0u64;
    for seed in 0..n {
        let game = seeded_game(seed);
        let lines = [Start::Initial, Start::Sparse, Start::Random]
            .map(|start| classify_case_from(start, &mut ChaCha8Rng::seed_from_u64(seed)));
        for case in std::iter::once(game).chain(lines) {
            if bounded(&case) {
                assert_memo_changes_nothing(&format!("seed {seed}"), &case, false, true);
                compared += 1;
            }
        }
    }
    // Most cases are cheap enough without the memo (3 in 4 at least).
    assert!(
        compared >= 3 * n,
        "only {compared} of {} cases compared",
        4 * n
    );
}

/// A memo kept from one judgement to the next (`with_kept_memo`, as the differential fuzz
/// entries run the oracle) changes no answer either: generated games of every rule set, each
/// followed by its shorter variants and then judged again (answers taken from the memo the
/// earlier judgements left) and by the same game under every rule set, give the same text as
/// each one judged without the memo.
#[test]
fn a_memo_kept_between_judgements_changes_nothing() {
    let mut compared = 0;
    let mut kept_answers = Vec::new();
    let mut cold_answers = Vec::new();
    for seed in 0..12u64 {
        let game = seeded_game(seed);
        let line = classify_case_from(Start::Sparse, &mut ChaCha8Rng::seed_from_u64(seed));
        for case in [game, line] {
            if !bounded(&case) {
                continue;
            }
            let shorter = |k: usize| JudgeCase {
                moves: case.moves[..case.moves.len().saturating_sub(k)].to_vec(),
                ..case.clone()
            };
            // The same game under every rule set too: a rule set's answers are never another's.
            let under = |id: &str| JudgeCase {
                rules: id.to_string(),
                ..case.clone()
            };
            let variants = [case.clone(), shorter(2), shorter(5), case.clone()]
                .into_iter()
                .chain(oj::RULE_SETS.iter().map(|id| under(id)));
            for variant in variants {
                let Some(rules) = oracle_rules(&variant.rules) else {
                    continue;
                };
                kept_answers.push(oj::with_kept_memo(rules, Spec::embedded(), || {
                    judged(&variant, false, true)
                }));
                cold_answers.push(without_memo(|| judged(&variant, false, true)));
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "only {compared} judgements compared");
    for (i, (kept, cold)) in kept_answers.iter().zip(&cold_answers).enumerate() {
        assert_eq!(
            kept, cold,
            "judgement {i}: the kept memo changed the answer"
        );
    }
}
