//! The rule sets compiled by build.rs (`xiangqi_spec::ruleset_compile`) equal the oracle's
//! run-time interpretation of the same YAML, field by field; and bad rule files are rejected
//! with `file:line:column`.

use xiangqi_oracle::judge as o;
use xiangqi_rules::judge::{Builtin, RuleSet, BUILTIN_RULE_SETS};

/// Both crates' types have the same names, fields and field order, so their `Debug` forms are
/// equal exactly when every field is.
fn same<A: std::fmt::Debug, B: std::fmt::Debug>(field: &str, id: &str, a: &A, b: &B) {
    assert_eq!(
        format!("{a:#?}"),
        format!("{b:#?}"),
        "{id}: field {field} differs"
    );
}

#[test]
fn every_builtin_equals_the_oracle() {
    // The fast judge implements the CXA and the AXF rule sets; each is also the oracle's.
    assert_eq!(BUILTIN_RULE_SETS, ["cxa-1999", "cxa-2011", "axf"]);
    assert!(BUILTIN_RULE_SETS.iter().all(|id| o::RULE_SETS.contains(id)));
    for id in BUILTIN_RULE_SETS {
        let f = RuleSet::builtin(id).expect("compiled");
        let r = o::RuleSet::embedded(id).expect("oracle loads it");
        same("id", id, &f.id, &r.id);
        same("title", id, &f.title, &r.title);
        same(
            "repetition_count",
            id,
            &f.repetition_count,
            &r.repetition_count,
        );
        same(
            "natural_limit_moves",
            id,
            &f.natural_limit_moves,
            &r.natural_limit_moves,
        );
        same(
            "check_cap_moves",
            id,
            &f.check_cap_moves,
            &r.check_cap_moves,
        );
        same(
            "kill_search_depth",
            id,
            &f.kill_search_depth,
            &r.kill_search_depth,
        );
        same(
            "chase_search_depth",
            id,
            &f.chase_search_depth,
            &r.chase_search_depth,
        );
        same(
            "mated_at_once_plies",
            id,
            &f.mated_at_once_plies,
            &r.mated_at_once_plies,
        );
        same(
            "floating_pawn_value",
            id,
            &f.floating_pawn_value,
            &r.floating_pawn_value,
        );
        same("severity", id, &f.severity, &r.severity);
        same("reduce", id, &f.reduce, &r.reduce);
        same("patterns", id, &f.patterns, &r.patterns);
        same("ruling_table", id, &f.ruling_table, &r.ruling_table);
        same("both_forbidden", id, &f.both_forbidden, &r.both_forbidden);
        same("chase_forms", id, &f.chase_forms, &r.chase_forms);
        same("joint_chase", id, &f.joint_chase, &r.joint_chase);
        same(
            "joint_chase_renewed",
            id,
            &f.joint_chase_renewed,
            &r.joint_chase_renewed,
        );
        same(
            "exchange_over_two_squares",
            id,
            &f.exchange_over_two_squares,
            &r.exchange_over_two_squares,
        );
        same(
            "exchange_answered_anywhere",
            id,
            &f.exchange_answered_anywhere,
            &r.exchange_answered_anywhere,
        );
        same(
            "won_back_by_checks_is_protection",
            id,
            &f.won_back_by_checks_is_protection,
            &r.won_back_by_checks_is_protection,
        );
        same(
            "newness_in_context",
            id,
            &f.newness_in_context,
            &r.newness_in_context,
        );
        same(
            "exemption_by_capturer",
            id,
            &f.exemption_by_capturer,
            &r.exemption_by_capturer,
        );
        same(
            "pin_renews_chase",
            id,
            &f.pin_renews_chase,
            &r.pin_renews_chase,
        );
        same(
            "exchange_needs_acceptance",
            id,
            &f.exchange_needs_acceptance,
            &r.exchange_needs_acceptance,
        );
        same(
            "pawn_for_rook_is_gain",
            id,
            &f.pawn_for_rook_is_gain,
            &r.pawn_for_rook_is_gain,
        );
        same(
            "pawn_mutual_attack",
            id,
            &f.pawn_mutual_attack,
            &r.pawn_mutual_attack,
        );
        same(
            "key_point_scope",
            id,
            &f.key_point_scope,
            &r.key_point_scope,
        );
        same(
            "key_point_defending",
            id,
            &f.key_point_defending,
            &r.key_point_defending,
        );
        same(
            "protector_chase_needs_gain",
            id,
            &f.protector_chase_needs_gain,
            &r.protector_chase_needs_gain,
        );
        same(
            "loses_after_further_cycles",
            id,
            &f.loses_after_further_cycles,
            &r.loses_after_further_cycles,
        );
        same(
            "king_answer_idle",
            id,
            &f.king_answer_idle,
            &r.king_answer_idle,
        );
        same(
            "kill_avoids_offered",
            id,
            &f.kill_avoids_offered,
            &r.kill_avoids_offered,
        );
        same(
            "pawn_by_checks_no_gain",
            id,
            &f.pawn_by_checks_no_gain,
            &r.pawn_by_checks_no_gain,
        );
        same("articles", id, &f.articles, &r.articles);
        same("class_articles", id, &f.class_articles, &r.class_articles);
        same("class_zh", id, &f.class_zh, &r.class_zh);
        same(
            "interpretations",
            id,
            &f.interpretations,
            &r.interpretations,
        );
        // And nothing was left out of the list above.
        same("classifier", id, &f.classifier, &r.classifier);
        same("mate_articles", id, &f.mate_articles, &r.mate_articles);
        same(
            "stalemate_articles",
            id,
            &f.stalemate_articles,
            &r.stalemate_articles,
        );
        same(
            "natural_limit_articles",
            id,
            &f.natural_limit_articles,
            &r.natural_limit_articles,
        );
        same(
            "cycle_from_first",
            id,
            &f.cycle_from_first,
            &r.cycle_from_first,
        );
        same("(all)", id, f, &r);
    }
}

#[test]
fn the_two_editions_differ_where_the_overlay_says() {
    let a = RuleSet::builtin("cxa-1999").unwrap();
    let b = RuleSet::builtin("cxa-2011").unwrap();
    assert_eq!(a.article("cxa1999.25.2.perpetual-chase"), "25.2");
    assert_eq!(b.article("cxa1999.25.2.perpetual-chase"), "24.13");
    assert!(a.both_forbidden.is_none() && b.both_forbidden.is_some());
    assert!(b.interpretations.len() > a.interpretations.len());
}

fn copy_rules(tag: &str) -> std::path::PathBuf {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/rules");
    let dir = std::env::temp_dir().join(format!("xq-ruleset-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["terms.yaml", "cxa-1999.yaml", "cxa-2011.yaml"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    dir
}

#[test]
fn a_bad_overlay_is_an_error_with_its_location() {
    let dir = copy_rules("bad-replace");
    let path = dir.join("cxa-2011.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen(
        "  - replaces: cxa1999.29.4.depth",
        "  - replaces: cxa1999.99.9",
        1,
    );
    assert_ne!(bad, text);
    std::fs::write(&path, &bad).unwrap();
    let e = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "cxa-2011").unwrap_err();
    let line = bad
        .lines()
        .position(|l| l.contains("cxa1999.99.9"))
        .unwrap()
        + 1;
    let msg = e.to_string();
    assert!(msg.contains(&format!("cxa-2011.yaml:{line}:")), "{msg}");
    assert!(msg.contains("no entry cxa1999.99.9"), "{msg}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_parameter_and_an_unknown_class_are_errors_with_their_location() {
    let dir = copy_rules("bad-param");
    let path = dir.join("cxa-1999.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen("    value: 60\n", "    value: sixty\n", 1);
    assert_ne!(bad, text);
    std::fs::write(&path, &bad).unwrap();
    let e = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "cxa-1999").unwrap_err();
    let line = bad
        .lines()
        .position(|l| l.contains("value: sixty"))
        .unwrap()
        + 1;
    let msg = e.to_string();
    assert!(msg.contains(&format!("cxa-1999.yaml:{line}:")), "{msg}");
    assert!(msg.contains("natural_limit_moves"), "{msg}");
    std::fs::write(&path, &text).unwrap();
    // A rule set id that is not a file name.
    let e = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "../x").unwrap_err();
    assert!(e.to_string().contains("not a rule set id"), "{e}");
    let e = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "axf-2099").unwrap_err();
    assert!(e.to_string().contains("axf-2099.yaml"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_axf_rule_set_compiles_as_the_oracle_reads_it() {
    // Built in (the fast judge classifies with the AXF piece-pair chase, src/judge/axf.rs); the
    // compiler reads it as the oracle does, and the built-in copy is that compilation.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/rules");
    let f = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "axf").expect("axf compiles");
    let r = o::RuleSet::embedded("axf").expect("oracle loads axf");
    same("(all)", "axf", &f, &r);
    assert_eq!(f.classifier, "axf");
    assert!(f.cycle_from_first);
    let built = RuleSet::builtin("axf").expect("axf is built in");
    same("(all)", "axf", built, &f);
}
