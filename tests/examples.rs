//! The CXA worked examples (`spec/examples/cxa-1999/`, `spec/examples/cxa-2011/`) as executable
//! spec: each is a named test that judges the example's `moves_full` with the oracle's judge and
//! asserts the printed ruling (`ruling`, `must_change`, `immediate`) and every printed per-move
//! class, plus an insta snapshot of the text explanation.
//!
//! An example the oracle still gets wrong carries `known_disagreement: "<reason>"` in its YAML;
//! its test then asserts that the disagreement is still there (so that it fails, prompting the
//! removal of the marker, once the judge is fixed). `known_disagreements_are_counted` prints the
//! count per edition.

mod common;

use common::str_field;

use xiangqi_oracle::judge::{classify_all, explain, judge, Judgement, RuleSet};
use xiangqi_oracle::{Board, OMove, Spec};

fn load(id: &str) -> serde_yaml::Value {
    common::load_yaml(&common::repo_path(&format!("spec/examples/{id}.yaml")))
}

/// Everything in which the judgement differs from the printed example.
fn disagreements(
    y: &serde_yaml::Value,
    j: &Judgement,
    start: &Board,
    rules: &RuleSet,
    full: &[OMove],
) -> Vec<String> {
    let e = &y["expected"];
    let mut out = common::ruling_disagreements(e, j, true, "printed");
    // Printed ply p is compared with the cycle move at the same point of the cycle; a printed
    // move before the cycle (2011 图29) with the move classified in context.
    let all = classify_all(rules, start, full).expect("moves_full is legal");
    let len = j.cycle.len().max(1);
    // Printed plies before the example's cycle (2011 参考图10's opening checks) are classified
    // in context, never matched with a cycle move.
    let first_ply = y["cycle"]["first_ply"].as_u64().unwrap_or(1) as usize;
    for c in y["classes"].as_sequence().expect("classes") {
        let p = c["ply"].as_u64().expect("ply") as usize;
        let want = c["class"].as_str().expect("class");
        let got = j
            .cycle
            .iter()
            .filter(|_| p >= first_ply)
            .find(|x| x.ply >= p && (x.ply - p).is_multiple_of(len))
            .map(|x| x.class.name())
            .unwrap_or_else(|| all[p - 1].class.name());
        if !common::printed_class_agrees(want, got) {
            out.push(format!(
                "ply {p} {}: class {got}, printed {want}",
                c["move"].as_str().unwrap_or("?")
            ));
        }
    }
    out
}

fn check(id: &str) {
    let y = load(id);
    let rules = RuleSet::embedded(str_field(&y, "rules").expect("rules")).expect("rule set");
    let start = Board::from_fen(Spec::embedded(), str_field(&y, "fen").expect("fen")).expect("FEN");
    let full: Vec<OMove> = y["moves_full"]
        .as_sequence()
        .expect("moves_full")
        .iter()
        .map(|m| m.as_str().expect("move").parse().expect("ICCS move"))
        .collect();
    let j = judge(&rules, &start, &full).expect("judge");
    let found = disagreements(&y, &j, &start, &rules, &full);
    common::assert_disagreements(id, &y, &found, "printed example", || explain(&j, &start));
    insta::assert_snapshot!(id.replace('/', "__"), explain(&j, &start));
}

macro_rules! examples {
    ($($name:ident => $id:expr,)*) => {
        $(
            #[test]
            fn $name() {
                check($id);
            }
        )*
        const ALL: &[&str] = &[$($id),*];
    };
}

examples! {
    cxa_1999_fig01 => "cxa-1999/fig01",
    cxa_1999_fig02 => "cxa-1999/fig02",
    cxa_1999_fig03 => "cxa-1999/fig03",
    cxa_1999_fig04 => "cxa-1999/fig04",
    cxa_1999_fig05 => "cxa-1999/fig05",
    cxa_1999_fig06 => "cxa-1999/fig06",
    cxa_1999_fig07 => "cxa-1999/fig07",
    cxa_1999_fig08 => "cxa-1999/fig08",
    cxa_1999_fig09 => "cxa-1999/fig09",
    cxa_1999_fig10 => "cxa-1999/fig10",
    cxa_1999_fig11 => "cxa-1999/fig11",
    cxa_1999_fig12 => "cxa-1999/fig12",
    cxa_1999_fig13 => "cxa-1999/fig13",
    cxa_1999_fig14 => "cxa-1999/fig14",
    cxa_1999_fig15 => "cxa-1999/fig15",
    cxa_1999_fig16 => "cxa-1999/fig16",
    cxa_2011_fig2 => "cxa-2011/fig2",
    cxa_2011_fig3 => "cxa-2011/fig3",
    cxa_2011_fig4 => "cxa-2011/fig4",
    cxa_2011_fig5 => "cxa-2011/fig5",
    cxa_2011_fig6 => "cxa-2011/fig6",
    cxa_2011_fig7 => "cxa-2011/fig7",
    cxa_2011_fig8 => "cxa-2011/fig8",
    cxa_2011_fig9 => "cxa-2011/fig9",
    cxa_2011_fig10 => "cxa-2011/fig10",
    cxa_2011_fig11 => "cxa-2011/fig11",
    cxa_2011_fig12 => "cxa-2011/fig12",
    cxa_2011_fig13 => "cxa-2011/fig13",
    cxa_2011_fig14 => "cxa-2011/fig14",
    cxa_2011_fig15 => "cxa-2011/fig15",
    cxa_2011_fig16 => "cxa-2011/fig16",
    cxa_2011_fig17 => "cxa-2011/fig17",
    cxa_2011_fig18 => "cxa-2011/fig18",
    cxa_2011_fig19 => "cxa-2011/fig19",
    cxa_2011_fig20 => "cxa-2011/fig20",
    cxa_2011_fig21 => "cxa-2011/fig21",
    cxa_2011_fig22 => "cxa-2011/fig22",
    cxa_2011_fig23 => "cxa-2011/fig23",
    cxa_2011_fig24 => "cxa-2011/fig24",
    cxa_2011_fig25 => "cxa-2011/fig25",
    cxa_2011_fig26 => "cxa-2011/fig26",
    cxa_2011_fig27 => "cxa-2011/fig27",
    cxa_2011_fig28 => "cxa-2011/fig28",
    cxa_2011_fig29 => "cxa-2011/fig29",
    cxa_2011_fig30 => "cxa-2011/fig30",
    cxa_2011_fig29_var => "cxa-2011/fig29-var",
    cxa_2011_fig30_var => "cxa-2011/fig30-var",
    cxa_2011_ref1 => "cxa-2011/ref1",
    cxa_2011_ref3 => "cxa-2011/ref3",
    cxa_2011_ref4 => "cxa-2011/ref4",
    cxa_2011_ref5 => "cxa-2011/ref5",
    cxa_2011_ref8 => "cxa-2011/ref8",
    cxa_2011_ref10 => "cxa-2011/ref10",
    cxa_2011_ref12 => "cxa-2011/ref12",
    cxa_2011_ref13 => "cxa-2011/ref13",
    cxa_2011_ref16 => "cxa-2011/ref16",
    cxa_2011_ref17 => "cxa-2011/ref17",
    cxa_2011_ref18 => "cxa-2011/ref18",
    cxa_2011_ref19 => "cxa-2011/ref19",
    cxa_2011_ref23 => "cxa-2011/ref23",
    cxa_2011_ref24 => "cxa-2011/ref24",
    cxa_2011_ref26 => "cxa-2011/ref26",
    cxa_2011_ref27 => "cxa-2011/ref27",
    cxa_2011_ref28 => "cxa-2011/ref28",
    cxa_2011_ref31 => "cxa-2011/ref31",
    cxa_2011_ref33 => "cxa-2011/ref33",
    cxa_2011_ref34 => "cxa-2011/ref34",
    cxa_2011_ref39 => "cxa-2011/ref39",
    cxa_2011_ref43 => "cxa-2011/ref43",
    cxa_2011_ref47 => "cxa-2011/ref47",
    cxa_2011_ref48 => "cxa-2011/ref48",
    cxa_2011_ref47_var => "cxa-2011/ref47-var",
}

#[test]
fn known_disagreements_are_counted() {
    let mut counts = std::collections::BTreeMap::new();
    for id in ALL {
        let y = load(id);
        let edition = id.split('/').next().unwrap_or("?").to_string();
        let entry = counts.entry(edition).or_insert((0usize, 0usize));
        entry.1 += 1;
        if y.get("known_disagreement").is_some() {
            entry.0 += 1;
        }
    }
    for (edition, (known, total)) in &counts {
        println!("{edition}: {known} known disagreement(s) of {total} examples");
    }
    assert_eq!(
        counts["cxa-1999"].0, 0,
        "every 1999 example must be reproduced"
    );
    assert_eq!(ALL.len(), 72);
}
