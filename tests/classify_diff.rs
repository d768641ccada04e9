//! Differential test of the fast move classification (`xiangqi_rules::judge::classify`)
//! against the oracle's (`xiangqi_oracle::judge::classify_with`, which dispatches on the rule
//! set's `classifier`: the CXA exchange test or the AXF piece-pair chase): every move of every
//! worked example of every rule set (with the previous move's class, as the judge passes it)
//! and moves from seeded random positions. Every field must agree: class, targets, articles,
//! piece ids, qualifiers, pawn chase, note.

mod common;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::judge::{bounded, fast_view, oracle_view, JudgeCase};
use xiangqi_oracle as o;
use xiangqi_rules::judge::{self as j, Tracked};
use xiangqi_rules::{Move, Position, RankConvention};

/// The fast rule set with the fields the classification reads, copied from the oracle's (the
/// rule set compiled by build.rs is compared with the oracle's elsewhere).
fn convert(r: &o::RuleSet) -> j::RuleSet {
    j::RuleSet {
        id: r.id.clone(),
        title: r.title.clone(),
        repetition_count: r.repetition_count,
        natural_limit_moves: r.natural_limit_moves,
        check_cap_moves: r.check_cap_moves,
        kill_search_depth: r.kill_search_depth,
        chase_search_depth: r.chase_search_depth,
        mated_at_once_plies: r.mated_at_once_plies,
        floating_pawn_value: r.floating_pawn_value,
        severity: r
            .severity
            .iter()
            .map(|c| j::MoveClass::from_name(c.name()).expect("same class names"))
            .collect(),
        reduce: r.reduce.clone(),
        patterns: Vec::new(),
        ruling_table: Vec::new(),
        both_forbidden: None,
        chase_forms: r.chase_forms.clone(),
        joint_chase: r.joint_chase,
        joint_chase_renewed: r.joint_chase_renewed,
        exchange_over_two_squares: r.exchange_over_two_squares,
        won_back_by_checks_is_protection: r.won_back_by_checks_is_protection,
        exchange_answered_anywhere: r.exchange_answered_anywhere,
        newness_in_context: r.newness_in_context,
        exemption_by_capturer: r.exemption_by_capturer,
        pin_renews_chase: r.pin_renews_chase,
        exchange_needs_acceptance: r.exchange_needs_acceptance,
        pawn_for_rook_is_gain: r.pawn_for_rook_is_gain,
        pawn_mutual_attack: r.pawn_mutual_attack,
        key_point_scope: r.key_point_scope.clone(),
        key_point_defending: r.key_point_defending,
        protector_chase_needs_gain: r.protector_chase_needs_gain,
        loses_after_further_cycles: r.loses_after_further_cycles,
        king_answer_idle: r.king_answer_idle,
        kill_avoids_offered: r.kill_avoids_offered,
        pawn_by_checks_no_gain: r.pawn_by_checks_no_gain,
        articles: r.articles.clone(),
        class_articles: r.class_articles.clone(),
        class_zh: r.class_zh.clone(),
        offer_any_taker: r.offer_any_taker,
        interpretations: r
            .interpretations
            .iter()
            .map(|i| j::Interpretation {
                id: i.id.clone(),
                article: i.article.clone(),
                reading: i.reading.clone(),
                why: i.why.clone(),
            })
            .collect(),
        classifier: r.classifier.clone(),
        mate_articles: r.mate_articles.clone(),
        stalemate_articles: r.stalemate_articles.clone(),
        natural_limit_articles: r.natural_limit_articles.clone(),
        cycle_from_first: r.cycle_from_first,
        chase_despite_protection: r.chase_despite_protection.clone(),
        just_crossed_pawn_is_material: r.just_crossed_pawn_is_material,
    }
}

struct Rules {
    oracle: o::RuleSet,
    fast: j::RuleSet,
}

fn rules(id: &str) -> Rules {
    let oracle = o::RuleSet::embedded(id).expect("embedded rule set");
    let fast = convert(&oracle);
    Rules { oracle, fast }
}

#[derive(Default)]
struct Tally {
    compared: usize,
    divergences: Vec<String>,
}

/// Classifies the moves of `moves` from `fen` (read leniently by both sides when `lenient`)
/// one after the other with both implementations, each passing its own previous
/// classification.
fn compare_line(r: &Rules, fen: &str, lenient: bool, moves: &[Move], tally: &mut Tally) {
    let spec = o::Spec::embedded();
    let (mut ob, fpos) = if lenient {
        (
            o::Board::from_fen_lenient(spec, fen)
                .expect("oracle reads the FEN")
                .0,
            Position::from_fen_lenient(fen)
                .expect("fast reads the FEN")
                .0,
        )
    } else {
        (
            o::Board::from_fen(spec, fen).expect("oracle reads the FEN"),
            Position::from_fen(fen).expect("fast reads the FEN"),
        )
    };
    let mut fb = Tracked::new(fpos);
    let mut oprev: Option<o::judge::Classification> = None;
    let mut fprev: Option<j::Classification> = None;
    for m in moves {
        let iccs = m.to_iccs(RankConvention::Iccs);
        let om: o::OMove = iccs.parse().expect("ICCS");
        let oc = o::judge::classify_with(&r.oracle, &ob, om, oprev.as_ref());
        let fc = j::classify(&r.fast, &fb, *m, fprev.as_ref());
        let (oc, fc) = match (oc, fc) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(_), Err(_)) => return,
            (a, b) => {
                tally.divergences.push(format!(
                    "{} {fen} moves {iccs}: legality differs: oracle {:?} fast {:?}",
                    r.oracle.id,
                    a.is_ok(),
                    b.is_ok()
                ));
                return;
            }
        };
        tally.compared += 1;
        let (ov, fv) = (oracle_view(&oc), fast_view(&fc));
        if ov != fv {
            let diff: Vec<String> = ov
                .iter()
                .zip(&fv)
                .filter(|(a, b)| a != b)
                .map(|(a, b)| format!("    oracle: {a}\n    fast:   {b}"))
                .collect();
            tally.divergences.push(format!(
                "{} position {} move {iccs}:\n{}",
                r.oracle.id,
                fb.position().to_fen(),
                diff.join("\n")
            ));
        }
        ob.play(om).expect("legal");
        fb.play(*m);
        oprev = Some(oc);
        fprev = Some(fc);
    }
}

fn report(what: &str, tally: &Tally) {
    eprintln!(
        "{what}: {} moves compared, {} divergences",
        tally.compared,
        tally.divergences.len()
    );
    for d in tally.divergences.iter().take(10) {
        eprintln!("{d}");
    }
    assert!(
        tally.divergences.is_empty(),
        "{what}: {} divergences",
        tally.divergences.len()
    );
}

/// A worked example (`spec/examples/<rules>/*.yaml`; `items.yaml` is no example).
#[derive(serde::Deserialize)]
struct Example {
    id: String,
    rules: String,
    fen: String,
    #[serde(default)]
    moves_full: Vec<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    fen_problems: Option<Vec<String>>,
}

#[test]
fn worked_examples_classify_like_the_oracle() {
    let mut tally = Tally::default();
    let mut files = std::collections::BTreeMap::<&str, usize>::new();
    let mut moves_by_rules = std::collections::BTreeMap::<&str, usize>::new();
    for dir in ["cxa-1999", "cxa-2011", "axf"] {
        let r = rules(dir);
        let paths = common::yaml_files(&common::repo_path(&format!("spec/examples/{dir}")));
        for p in paths.into_iter().filter(|p| !p.ends_with("items.yaml")) {
            let text = std::fs::read_to_string(&p).expect("read");
            let ex: Example =
                serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert_eq!(ex.rules, dir, "{}", ex.id);
            let line = if ex.moves_full.is_empty() {
                &ex.moves
            } else {
                &ex.moves_full
            };
            let moves: Vec<Move> = line
                .iter()
                .map(|m| Move::parse_iccs(m, RankConvention::Iccs).expect("ICCS"))
                .collect();
            // A transcription with a known slip (`fen_problems`, AXF O103: a black pawn on i7)
            // is read leniently by both sides.
            let before = tally.compared;
            compare_line(&r, &ex.fen, ex.fen_problems.is_some(), &moves, &mut tally);
            *moves_by_rules.entry(dir).or_default() += tally.compared - before;
            *files.entry(dir).or_default() += 1;
        }
    }
    eprintln!("worked examples: {files:?} examples, moves compared {moves_by_rules:?}");
    assert!(
        files.values().sum::<usize>() >= 47 + 94,
        "only {files:?} examples found"
    );
    assert!(
        moves_by_rules.get("axf").is_some_and(|n| *n >= 500),
        "too few AXF moves: {moves_by_rules:?}"
    );
    report("worked examples", &tally);
}

/// Random legal moves from seeded random positions (random play from the start and random
/// placements), each classified on its own and as the second move of a pair.
/// The rule sets take turns over the positions; `only` restricts them to one id.
fn random_moves(seed: u64, positions: usize, only: Option<&str>) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let all: Vec<Rules> = ["cxa-1999", "cxa-2011", "axf"]
        .into_iter()
        .filter(|id| only.is_none_or(|o| o == *id))
        .map(rules)
        .collect();
    assert!(!all.is_empty(), "no rule set {only:?}");
    let mut fens = xiangqi_difftest::random_play_fens(seed, positions / 40 + 1, 120);
    fens.shuffle(&mut rng);
    fens.truncate(positions / 2);
    for _ in 0..positions / 2 {
        fens.push(xiangqi_difftest::random_valid_fen(&mut rng));
    }
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("valid");
        let moves = pos.legal_moves();
        let Some(&m1) = moves.choose(&mut rng) else {
            continue;
        };
        let mut p2 = pos.clone();
        p2.play(m1);
        let line: Vec<Move> = match p2.legal_moves().choose(&mut rng) {
            Some(&m2) => vec![m1, m2],
            None => vec![m1],
        };
        let r = &all[i % all.len()];
        // A position rich in checks costs the oracle seconds: skipped (see `bounded`).
        let case = JudgeCase {
            rules: r.oracle.id.clone(),
            fen: fen.clone(),
            moves: line
                .iter()
                .map(|m| m.to_iccs(RankConvention::Iccs))
                .collect(),
        };
        if !bounded(&case) {
            continue;
        }
        compare_line(r, fen, false, &line, &mut tally);
    }
    tally
}

#[test]
fn random_moves_classify_like_the_oracle() {
    let n: usize = std::env::var("CLASSIFY_DIFF_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let seed: u64 = std::env::var("CLASSIFY_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_c1a5);
    // CLASSIFY_DIFF_RULES=axf (say) compares one rule set only.
    let only = std::env::var("CLASSIFY_DIFF_RULES").ok();
    let tally = random_moves(seed, n, only.as_deref());
    report("random moves", &tally);
    // Positions over the oracle's budget are skipped; most lines must still be compared.
    assert!(
        tally.compared >= n / 2,
        "only {} moves compared from {n} positions",
        tally.compared
    );
}
