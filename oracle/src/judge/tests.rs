//! Unit tests of the judge's parts: protection (true, false, latent), kill detection, chase
//! newness (從捉到捉), identity tracking through a cycle, the natural limit with the check cap,
//! the king and pawn exceptions, and rule-set loading.

use super::*;
use crate::Spec;

fn board(fen: &str) -> Board {
    Board::from_fen(Spec::embedded(), fen).unwrap()
}

fn mv(s: &str) -> OMove {
    s.parse().unwrap()
}

fn moves(s: &str) -> Vec<OMove> {
    s.split_whitespace().map(mv).collect()
}

fn r1999() -> RuleSet {
    RuleSet::embedded("cxa-1999").unwrap()
}

fn r2011() -> RuleSet {
    RuleSet::embedded("cxa-2011").unwrap()
}

/// A survey of all CXA examples (run with `--ignored --nocapture`).
#[test]
#[ignore = "survey printout for development"]
fn survey_examples() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/examples");
    let mut files: Vec<_> = ["cxa-1999", "cxa-2011"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d))
                .unwrap()
                .map(|e| e.unwrap().path())
        })
        .collect();
    files.sort();
    let filter = std::env::var("EX").unwrap_or_default();
    for f in files {
        let y: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let id = y["id"].as_str().unwrap().to_string();
        if !id.contains(&filter) {
            continue;
        }
        let rules = RuleSet::embedded(y["rules"].as_str().unwrap()).unwrap();
        let start = board(y["fen"].as_str().unwrap());
        let full: Vec<OMove> = y["moves_full"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|m| mv(m.as_str().unwrap()))
            .collect();
        let t0 = std::time::Instant::now();
        let j = judge(&rules, &start, &full).unwrap();
        let e = &y["expected"];
        let got = format!("{:?} {:?} {}", j.ruling, j.must_change, j.immediate);
        let want = format!(
            "{:?} {:?} {:?}",
            e["ruling"], e["must_change"], e["immediate"]
        );
        let mut line = format!(
            "{id}: {got} | want {want} | pat {:?}/{:?} want {:?}/{:?} [{:.1}s]\n",
            j.red_pattern,
            j.black_pattern,
            e["red_pattern"].as_str(),
            e["black_pattern"].as_str(),
            t0.elapsed().as_secs_f64()
        );
        let l = j.cycle.len();
        let first = j.cycle.first().map_or(0, |c| c.ply);
        for c in y["classes"].as_sequence().unwrap() {
            let p = c["ply"].as_u64().unwrap() as usize;
            let want = c["class"].as_str().unwrap();
            let got = j
                .cycle
                .iter()
                .find(|x| x.ply >= p && (x.ply - p).is_multiple_of(l.max(1)));
            let (g, note) = match got {
                Some(x) => (
                    x.class.name().to_string(),
                    format!("{} {:?} {}", x.targets.join(","), x.articles, x.note),
                ),
                None => ("-".into(), String::new()),
            };
            let mark = if g == want { "  " } else { "XX" };
            line.push_str(&format!(
                "   {mark} ply {p} {} want {want} got {g}: {note}\n",
                c["move"].as_str().unwrap()
            ));
        }
        let _ = first;
        let all = classify_all(&rules, &start, &full).unwrap();
        let q: Vec<String> = all
            .iter()
            .enumerate()
            .filter(|(_, c)| c.class == MoveClass::Chase)
            .map(|(i, c)| format!("{}:{}:{:?}", i + 1, c.side, c.qualifiers))
            .collect();
        line.push_str(&format!(
            "   quals {} want {:?}\n",
            q.join(" "),
            y.get("chase_qualifiers")
                .map(|v| (v["red"].clone(), v["black"].clone()))
        ));
        print!("{line}");
    }
}

#[test]
fn rule_sets_load_and_overlay_resolves() {
    let a = r1999();
    let b = r2011();
    assert_eq!(a.repetition_count, 3);
    assert_eq!(a.kill_search_depth, 9);
    assert!(a.both_forbidden.is_none());
    assert!(b.both_forbidden.is_some());
    assert!(a.pawn_mutual_attack);
    assert!(!b.pawn_mutual_attack);
    assert!(b.joint_chase && !a.joint_chase);
    assert!(b.pawn_for_rook_is_gain && !a.pawn_for_rook_is_gain);
    assert_eq!(a.class_article(MoveClass::Chase), "28.3");
    assert_eq!(b.class_article(MoveClass::Chase), "24.3");
    assert_eq!(b.article("cxa1999.26.1"), "25.1");
    assert!(b.interpretations.iter().any(|i| i.id == "grave-joint"));
    assert!(!b
        .interpretations
        .iter()
        .any(|i| i.id == "protector-chase-1999"));
    assert!(RuleSet::embedded("axf-nope").is_err());
}

/// The threats of the side to move in `fen`.
fn threats_in(rules: &RuleSet, fen: &str) -> Vec<analysis::Threat> {
    analysis::threats(&analysis::Ctx::new(rules), &board(fen), None)
}

fn class_of(rules: &RuleSet, fen: &str, m: &str) -> Classification {
    classify(rules, &board(fen), mv(m), None).unwrap()
}

#[test]
fn true_protection_is_not_a_chase_target() {
    // Red rook a5 attacks the black horse e5, which the black rook e7 protects: rook for horse
    // is no gain (28.16 有根子).
    let t = threats_in(&r1999(), "4k4/9/4r4/9/R3n4/9/9/9/9/3K5 w - - 0 1");
    assert!(t.is_empty(), "{t:?}");
}

#[test]
fn false_protection_counts_as_none() {
    // The black rook e7 would protect the horse c7, but it is pinned against its king by the red
    // rook e2: the horse is unprotected (假根, 28.16). (The horse c1 guards the rook e2, so
    // that the pinned rook's capture of it is no answer that wins more than the horse.)
    let fen = "4k4/9/2n1r4/9/9/9/9/2R1R4/2N6/3K5 w - - 0 1";
    let horse = board(fen).piece_id_at("c7".parse().unwrap()).unwrap();
    let t = threats_in(&r1999(), fen);
    let on_c7: Vec<_> = t.iter().filter(|x| x.target == horse).collect();
    assert_eq!(on_c7.len(), 1, "{t:?}");
    assert_eq!(on_c7[0].cover, analysis::Cover::Unprotected);
}

#[test]
fn latent_protection_counts() {
    // The red rook c5 blocks the black rook a5's line to the horse e5; taking the horse opens it
    // (暗根): no gain, no threat (the rook a5 itself is protected by the horse b7).
    let t = threats_in(&r1999(), "5k3/9/1n7/9/r1R1n4/9/9/9/9/3K5 w - - 0 1");
    assert!(t.is_empty(), "{t:?}");
}

#[test]
fn a_lesser_piece_attacking_a_rook_chases_it() {
    // A horse attacks the rook e6 (gain by the exchange, 29.1, 29.3).
    let c = class_of(&r1999(), "4k4/9/9/4r4/7N1/9/9/9/9/3K5 w - - 0 1", "h5f4");
    assert_eq!(c.class, MoveClass::Chase, "{c:?}");
    assert_eq!(c.targets, vec!["e6".parse().unwrap()]);
}

#[test]
fn kill_is_a_forced_mate_by_checks() {
    // Two rooks: Rb9 mates at once.
    let b = board("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(analysis::mate_by_checks(&b, 1));
    // 1999 圖九: the cannon's move threatens mate by consecutive checks (長殺), found within the
    // spec's kill_search_depth.
    let rules = r1999();
    let fen = "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1";
    assert_eq!(class_of(&rules, fen, "i0h0").class, MoveClass::Kill);
    let after = board(fen).after(mv("i0h0")).unwrap();
    assert!(analysis::mate_by_checks(
        &analysis::pass(&after),
        rules.kill_search_depth
    ));
    assert!(
        !analysis::mate_by_checks(&analysis::pass(&after), 3),
        "the mate needs more than two checks"
    );
}

#[test]
fn chase_must_be_new() {
    let rules = r1999();
    // 圖二: the rook returns to g4 and attacks the horse it could take at the start, but not in
    // the position just before the move: 從沒捉到捉, a chase.
    let all = classify_all(
        &rules,
        &board("5k3/9/6n2/9/9/6R2/9/9/9/3K5 w - - 0 1"),
        &moves("g4f4 f9e9 f4g4"),
    )
    .unwrap();
    assert_eq!(all[2].class, MoveClass::Chase);
    // 圖八: the rook keeps attacking the elephant while escaping: 從捉到捉, idle (29.2).
    let all = classify_all(
        &rules,
        &board("4k4/9/9/9/9/6N2/9/4B1r2/9/3K5 w - - 0 1"),
        &moves("g4i3 g2h2"),
    )
    .unwrap();
    assert_eq!(all[1].class, MoveClass::Idle);
    assert!(
        all[1].articles.contains(&"29.2".to_string()),
        "{:?}",
        all[1]
    );
}

#[test]
fn pieces_are_followed_by_identity_through_a_cycle() {
    // 圖三: red's horse chases the black rook on i9 and then on h9: the same piece.
    let rules = r1999();
    let start =
        board("1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1");
    let ms = moves("h6i4 i9h9 i4h6 h9i9 h6i4 i9h9 i4h6 h9i9");
    let all = classify_all(&rules, &start, &ms).unwrap();
    assert_eq!(all[0].target_ids, all[2].target_ids);
    assert_ne!(all[0].targets, all[2].targets, "different squares");
    assert_eq!(all[0].piece, all[2].piece, "the same horse");
    let j = judge(&rules, &start, &ms).unwrap();
    assert_eq!(j.red_pattern.as_deref(), Some("perpetual_chase"));
    assert!(
        j.details[0].contains("one piece chased by one piece"),
        "{:?}",
        j.details
    );
    assert_eq!(j.cycle.len(), 4);
    assert_eq!(j.cycle[0].ply, 5);
}

#[test]
fn natural_limit_with_check_cap() {
    let rules = r1999();
    assert_eq!((rules.natural_limit_moves, rules.check_cap_moves), (60, 10));
    assert_eq!(natural_limit_claimant(&rules, 119, [0, 0]), None);
    assert_eq!(natural_limit_claimant(&rules, 120, [0, 0]), Some(Side::Red));
    // Red gave 12 checks: as claimant its last 2 checks' rounds do not count; Black may claim.
    assert_eq!(
        natural_limit_claimant(&rules, 120, [12, 0]),
        Some(Side::Black)
    );
    assert_eq!(natural_limit_claimant(&rules, 120, [12, 11]), None);
    assert_eq!(
        natural_limit_claimant(&rules, 122, [12, 11]),
        Some(Side::Black)
    );
    assert_eq!(
        natural_limit_claimant(&rules, 124, [12, 11]),
        Some(Side::Red)
    );
    // The whole judge with a lowered limit (4.2.4 allows it): 3 rounds without capture.
    let mut short = rules.clone();
    short.natural_limit_moves = 3;
    let j = judge(
        &short,
        &board("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"),
        &moves("a1a2 d9d8 a2a3 d8d9 a3a4 d9d8 a4a5"),
    )
    .unwrap();
    assert_eq!(j.result, GameResult::Draw);
    assert_eq!(j.ply, 6);
    assert_eq!(j.articles, vec!["4.2.4", "23.3"]);
}

#[test]
fn king_alone_chase_is_idle() {
    // The red king steps next to an unprotected crossed black pawn (27.1 / 2011 26.1).
    let fen = "5k3/9/9/9/9/9/9/9/3K5/4p4 w - - 0 1";
    let c = class_of(&r1999(), fen, "d1e1");
    assert_eq!(c.class, MoveClass::Idle);
    assert!(c.articles.contains(&"27.1".to_string()), "{c:?}");
    let c = class_of(&r2011(), fen, "d1e1");
    assert_eq!(c.class, MoveClass::Idle);
    assert!(c.articles.contains(&"26.1".to_string()), "{c:?}");
}

#[test]
fn pawn_alone_chase_is_idle_unless_mutual_attack() {
    // A crossed red pawn attacks an unprotected horse (27.2 / 2011 26.1).
    let fen = "5k3/9/4n4/9/4P4/9/9/9/9/3K5 w - - 0 1";
    let c = class_of(&r1999(), fen, "e5e6");
    assert_eq!(c.class, MoveClass::Idle);
    assert!(c.pawn_chase, "1999 keeps it for the mutual-attack clause");
    let c = class_of(&r2011(), fen, "e5e6");
    assert_eq!(c.class, MoveClass::Idle);
    assert!(!c.pawn_chase, "2011 has no mutual-attack clause");
    // 1999 圖十三: in mutual perpetual attack the pawn's threats are chases: both forbidden, draw.
    let rules = r1999();
    let j = judge(
        &rules,
        &board("4k4/9/PP7/2r6/1P7/9/1NN6/9/9/3K5 w - - 0 1"),
        &moves("b5c5 c6b6 c5b5 b6c6 b5c5 c6b6 c5b5 b6c6"),
    )
    .unwrap();
    assert_eq!(j.red_pattern.as_deref(), Some("perpetual_chase"));
    assert_eq!(j.ruling, Ruling::Draw);
    assert!(j.cycle[0].articles.contains(&"27.2".to_string()));
}

#[test]
fn perpetual_check_loses_at_once_and_pending_is_reported() {
    let rules = r1999();
    let start = board("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1");
    let j = judge(
        &rules,
        &start,
        &moves("f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8 f0e0"),
    )
    .unwrap();
    assert_eq!(
        (j.result, j.ruling, j.immediate, j.ply),
        (GameResult::BlackWins, Ruling::RedLoses, true, 8)
    );
    // One cycle only: the ruling that would apply, pending.
    let j = judge(&rules, &start, &moves("f0e0 e8f8 e0f0 f8e8")).unwrap();
    assert!(j.pending);
    assert_eq!(j.result, GameResult::Ongoing);
    assert_eq!(j.ruling, Ruling::RedLoses);
}

#[test]
fn bad_moves_are_errors_with_their_index() {
    let rules = r1999();
    let err = judge(
        &rules,
        &Board::start(Spec::embedded()),
        &moves("h2e2 h9g7 e2e9"),
    )
    .unwrap_err();
    match err {
        JudgeError::IllegalMove { index, .. } => assert_eq!(index, 3),
    }
}

#[test]
fn json_contract_fields() {
    let rules = r2011();
    let start = board("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1");
    let j = judge(
        &rules,
        &start,
        &moves("f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8"),
    )
    .unwrap();
    let v: serde_yaml::Value = serde_yaml::to_value(&j).unwrap();
    let keys: Vec<String> = v
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        keys,
        [
            "rules",
            "result",
            "reason",
            "ply",
            "articles",
            "ruling",
            "must_change",
            "immediate",
            "pending",
            "cycle",
            "red_pattern",
            "black_pattern"
        ]
    );
    let c: Vec<String> = v["cycle"][0]
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    assert_eq!(c, ["ply", "move", "side", "class", "targets", "articles"]);
    assert_eq!(v["result"].as_str(), Some("black_wins"));
    assert_eq!(v["articles"][0].as_str(), Some("4.1.4"));
}

#[test]
fn rule_set_from_a_directory() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/rules");
    let a = RuleSet::load_dir("cxa-2011", &dir).unwrap();
    assert_eq!(a.patterns.len(), r2011().patterns.len());
    assert!(RuleSet::load_dir("cxa-1999", std::path::Path::new("/nonexistent")).is_err());
}

#[test]
fn opening_shuffle_is_idle_on_both_sides() {
    // Horses out and back from the start position, twice: no attack, both allowed, draw (26.2).
    let rules = r1999();
    let j = judge(
        &rules,
        &Board::start(Spec::embedded()),
        &moves("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"),
    )
    .unwrap();
    assert_eq!(j.ruling, Ruling::Draw);
    assert!(j.immediate);
    assert_eq!(j.result, GameResult::Draw);
    assert!(
        j.cycle.iter().all(|c| c.class == MoveClass::Idle),
        "{:?}",
        j.cycle
    );
    assert_eq!(j.articles, vec!["24.2", "26.2"]);
}

#[test]
#[ignore = "debug printout"]
fn debug_threats() {
    let rules = RuleSet::embedded(&std::env::var("RS").unwrap_or("cxa-2011".into())).unwrap();
    let mut x = board(&std::env::var("FEN").unwrap());
    for m in moves(&std::env::var("MOVES").unwrap()) {
        let c = classify(&rules, &x, m, None).unwrap();
        println!("{m}: {:?} {:?} {}", c.class, c.targets, c.note);
        x.play(m).unwrap();
        let p = analysis::pass(&x);
        for k in analysis::checking_moves(&p) {
            let mut a = p.clone();
            analysis::apply(&mut a, k);
            let replies = a.legal_moves();
            let all = !replies.is_empty()
                && replies.iter().all(|r| {
                    let mut c = a.clone();
                    analysis::apply(&mut c, *r);
                    analysis::mate_by_checks(&c, rules.kill_search_depth - 2)
                });
            if replies.is_empty() || all {
                println!("   kill line starts {k}");
            }
        }
        for t in analysis::threats(&analysis::Ctx::new(&rules), &p, None) {
            println!(
                "   threat by {} on {} gain {} joint {} checks {} necessary {:?}",
                classify::piece_name(&p, t.attacker),
                classify::piece_name(&p, t.target),
                t.gain,
                t.joint,
                t.via_checks,
                t.necessary
                    .iter()
                    .map(|i| classify::piece_name(&p, *i))
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn a_forbidden_last_move_of_a_record_loses_for_its_maker() {
    let rules = r1999();
    // Kings facing (4.1.2): the advisor steps off the file.
    let start = board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    let j = judge_record(&rules, &start, &moves("e1d2"), None).unwrap_err();
    assert!(matches!(j, JudgeError::IllegalMove { index: 1, .. }));
    let j = judge_record(&rules, &start, &[], Some(mv("e1d2"))).unwrap();
    assert_eq!((j.result, j.ply), (GameResult::BlackWins, 1));
    assert_eq!(j.articles, vec![rules.article("cxa1999.4.1.2")]);
    assert!(j.reason.contains("kings would face"), "{}", j.reason);
    // Own king left attacked (3.1, 4.1.6), after two legal rounds; black's king moves.
    let start = board("3k5/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1");
    let legal = moves("e0f0 d9d8 f0e0 d8d9");
    let j = judge_record(&r2011(), &start, &legal, Some(mv("e1d1"))).unwrap();
    assert_eq!((j.result, j.ply), (GameResult::BlackWins, 5));
    assert_eq!(j.articles, ["3.1", "4.1.6"]);
    // A legal last move is judged as an ordinary move.
    let j = judge_record(&rules, &start, &legal, Some(mv("e1e2"))).unwrap();
    assert_eq!((j.result, j.ply), (GameResult::Ongoing, 5));
    // Any other illegal move is an error with its index.
    let e = judge_record(&rules, &start, &legal, Some(mv("e1f3"))).unwrap_err();
    assert!(matches!(e, JudgeError::IllegalMove { index: 5, .. }), "{e}");
    // A repetition short of the ruling point (pending) decides nothing: the king steps next to
    // the pawn c1 and red loses.
    let start = board("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1");
    let cycle = moves("f0e0 e8f8 e0f0 f8e8");
    assert!(judge(&rules, &start, &cycle).unwrap().pending);
    let j = judge_record(&rules, &start, &cycle, Some(mv("d0d1"))).unwrap();
    assert_eq!(
        (j.result, j.ply, j.pending),
        (GameResult::BlackWins, 5, false)
    );
    assert_eq!((j.ruling, j.cycle.len()), (Ruling::None, 0));
    // A game that ended before the last move (the third occurrence: perpetual check) stays ended.
    let twice = moves("f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8");
    let j = judge_record(&rules, &start, &twice, Some(mv("d0d1"))).unwrap();
    assert_eq!((j.result, j.ply), (GameResult::BlackWins, 8));
    assert_eq!(j.ruling, Ruling::RedLoses);
}

#[test]
fn an_unprotected_piece_is_a_chase_target() {
    // The red rook a5 attacks the horse e5, which nothing protects (無根子, 28.16 / 24.15).
    let fen = "4k4/9/9/9/R3n4/9/9/9/9/3K5 w - - 0 1";
    let horse = board(fen).piece_id_at("e5".parse().unwrap()).unwrap();
    for rules in [r1999(), r2011()] {
        let t = threats_in(&rules, fen);
        assert_eq!(t.len(), 1, "{t:?}");
        assert_eq!(
            (t[0].target, t[0].cover),
            (horse, analysis::Cover::Unprotected)
        );
        assert_eq!(t[0].gain, 2.0, "a horse is worth 2");
    }
}

#[test]
fn kill_depth_2011_covers_a_seven_check_mate() {
    // 2011 图17: after 将４退１ black threatens a mate of seven checks (13 plies), none shorter.
    let rules = r2011();
    assert_eq!(rules.kill_search_depth, 13);
    let start = board("1R3a3/3ka4/bRr4r1/p3p3P/4c4/6B2/9/3A5/9/4KA3 w - - 0 1");
    let all = classify_all(&rules, &start, &moves("b7b8 d8d7 b8b7 d7d8")).unwrap();
    assert_eq!(all[3].class, MoveClass::Kill, "{:?}", all[3]);
    let mut b = start.clone();
    for m in moves("b7b8 d8d7 b8b7 d7d8") {
        b.play(m).unwrap();
    }
    let p = analysis::pass(&b);
    assert!(!analysis::mate_by_checks(&p, 11));
    assert!(analysis::mate_by_checks(&p, 13));
    // 1999 keeps 9 plies: the same move is no kill there.
    let all = classify_all(&r1999(), &start, &moves("b7b8 d8d7 b8b7 d7d8")).unwrap();
    assert_ne!(all[3].class, MoveClass::Kill);
}

#[test]
fn a_follow_needs_a_real_hold() {
    // 1999 圖十五 ply 3: the rook e4 keeps the protected horse e3 in view, the rook e2 behind it,
    // and no horse move saves that rook: 跟 (28.8, reading follow-pin).
    let fig15 = board("3k1a3/4a4/b3b4/9/9/4R4/4n4/3Ar4/3KA4/9 w - - 0 1");
    let all = classify_all(&r1999(), &fig15, &moves("e4d4 d9e9 d4e4")).unwrap();
    assert_eq!(all[2].class, MoveClass::Follow, "{:?}", all[2]);
    // 2011 图20 ply 4: the rook c6 faces the protected horse b6 with the rook a6 behind, but
    // 马八进九 makes the cannon a9 protect that rook: not held, idle.
    let fig20 = board("C3kab2/4a4/4b4/RNr3p1p/9/3pp1P2/P7P/4B4/3cA4/3AK1B2 w - - 0 1");
    let all = classify_all(&r2011(), &fig20, &moves("b6a8 c6c8 a8b6 c8c6")).unwrap();
    assert_eq!(all[3].class, MoveClass::Idle, "{:?}", all[3]);
}

#[test]
fn a_complete_exchange_may_take_a_protector_away() {
    // 2011 图4 ply 3: 马六进四 uncovers 炮×马 (the elephant g5 is the screen); 象×炮 and then 马×卒:
    // the horse c5 that protected the pawn e4 is gone, a pawn is netted (reading
    // exchange-removes-protector): a chase of the horse c5.
    let rules = r2011();
    let start = board("4k4/4a4/4ba2b/5N3/2n5C/4p2p1/5n3/4BA3/4A4/2B2K3 w - - 0 1");
    let ms = moves("f6d5 i7g5 d5f6");
    let all = classify_all(&rules, &start, &ms).unwrap();
    assert_eq!(all[2].class, MoveClass::Chase, "{:?}", all[2]);
    assert_eq!(all[2].targets, vec!["c5".parse().unwrap()]);
    // Without the reading, the exchange on one square nets nothing: idle.
    assert!(rules.exchange_over_two_squares);
    let mut one_square = rules.clone();
    one_square.exchange_over_two_squares = false;
    let all = classify_all(&one_square, &start, &ms).unwrap();
    assert_eq!(all[2].class, MoveClass::Idle, "{:?}", all[2]);
}

#[test]
fn a_capture_answered_by_checks_that_win_the_capturer_back_is_no_gain() {
    // 2011 图16 before ply 4 (black king f8): 车×兵 a6 is answered by red's discovered check that
    // wins the rook a6 back: no threat (reading capture-answered-by-checks). After 将６退１ the
    // capture is safe: a new threat, a chase.
    let rules = r2011();
    let start = board("3a1k3/4a4/3cb4/P2rp2R1/6b2/9/9/5C3/4A4/4KA3 w - - 0 1");
    let mut b = start.clone();
    for m in moves("h6h9 f9f8 h9h6") {
        b.play(m).unwrap();
    }
    let a6: crate::Coord = "a6".parse().unwrap();
    let pawn = b.piece_id_at(a6).unwrap();
    let cx = analysis::Ctx::new(&rules);
    assert!(!analysis::threats(&cx, &b, None)
        .iter()
        .any(|t| t.target == pawn));
    let all = classify_all(&rules, &start, &moves("h6h9 f9f8 h9h6 f8f9")).unwrap();
    assert_eq!(all[3].class, MoveClass::Chase, "{:?}", all[3]);
    assert_eq!(all[3].targets, vec![a6]);
    // Without the reading the threat to the pawn is there before the king's move (從捉到捉).
    assert!(rules.won_back_by_checks_is_protection);
    let mut plain = rules.clone();
    plain.won_back_by_checks_is_protection = false;
    let cx = analysis::Ctx::new(&plain);
    assert!(analysis::threats(&cx, &b, None)
        .iter()
        .any(|t| t.target == pawn));
}

/// The unit tests of this file and of `tests/judge_games.rs`, with the articles each exercises,
/// per rule set (for the coverage table of docs/rules-notes.md).
const UNIT_COVERAGE: &[(&str, &[&str], &[&str])] = &[
    (
        "true_protection_is_not_a_chase_target",
        &["28.16", "29.3"],
        &[],
    ),
    ("false_protection_counts_as_none", &["28.16"], &[]),
    ("latent_protection_counts", &["28.16"], &[]),
    (
        "an_unprotected_piece_is_a_chase_target",
        &["28.16", "29.1"],
        &["24.15", "24.3"],
    ),
    (
        "a_lesser_piece_attacking_a_rook_chases_it",
        &["28.3", "29.1", "29.3"],
        &[],
    ),
    ("kill_is_a_forced_mate_by_checks", &["28.2"], &[]),
    (
        "kill_depth_2011_covers_a_seven_check_mate",
        &["28.2"],
        &["24.2"],
    ),
    ("chase_must_be_new", &["28.3", "29.2"], &[]),
    (
        "pieces_are_followed_by_identity_through_a_cycle",
        &["28.12", "25.2"],
        &[],
    ),
    ("natural_limit_with_check_cap", &["4.2.4", "23.3"], &[]),
    ("king_alone_chase_is_idle", &["27.1"], &["26.1"]),
    (
        "pawn_alone_chase_is_idle_unless_mutual_attack",
        &["27.2"],
        &["26.1"],
    ),
    (
        "perpetual_check_loses_at_once_and_pending_is_reported",
        &["24.1", "28.10", "4.2.3"],
        &[],
    ),
    (
        "opening_shuffle_is_idle_on_both_sides",
        &["24.2", "26.2", "28.9"],
        &[],
    ),
    ("json_contract_fields", &[], &["4.1.4", "25.1"]),
    ("a_follow_needs_a_real_hold", &["28.8"], &["24.7"]),
    (
        "a_complete_exchange_may_take_a_protector_away",
        &[],
        &["24.3"],
    ),
    (
        "a_forbidden_last_move_of_a_record_loses_for_its_maker",
        &["3.1", "4.1.2", "4.1.6"],
        &["3.1", "4.1.6"],
    ),
    (
        "judge_games::a_last_move_that_leaves_the_kings_facing_loses_for_its_maker",
        &["4.1.2"],
        &[],
    ),
    (
        "judge_games::a_last_move_that_leaves_the_own_king_attacked_loses_for_its_maker",
        &["3.1", "4.1.6"],
        &[],
    ),
];

/// An article of the coverage table: its number, the spec entries, the examples, the unit tests.
type CoverageRow = (
    String,
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
);

fn article_key(a: &str) -> Vec<u32> {
    a.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

fn is_article_number(a: &str) -> bool {
    !a.is_empty()
        && a.split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

fn md_cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// Regenerates the generated part of docs/rules-notes.md (between the markers): per-article
/// coverage of CXA 1999 and 2011 by the worked examples (the articles the judge cites for them and
/// those the example files name) and by the unit tests, and every `interpretation:` entry.
/// Run with `cargo test -p xiangqi-oracle --lib rules_notes_tables -- --ignored`.
#[test]
#[ignore = "regenerates docs/rules-notes.md (slow: judges every example)"]
fn rules_notes_tables() {
    use std::collections::{BTreeMap, BTreeSet};
    use std::fmt::Write as _;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = String::new();
    out.push_str("<!-- generated by `cargo test -p xiangqi-oracle --lib rules_notes_tables -- --ignored`; do not edit by hand -->\n\n");
    for (k, rs_id) in ["cxa-1999", "cxa-2011"].iter().enumerate() {
        let rules = RuleSet::embedded(rs_id).unwrap();
        // article -> entry ids
        let mut rows: BTreeMap<Vec<u32>, CoverageRow> = BTreeMap::new();
        let mut row = |a: &str| {
            let a = a.trim().to_string();
            rows.entry(article_key(&a))
                .or_insert_with(|| (a.clone(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new()));
            article_key(&a)
        };
        let mut entries: Vec<(Vec<u32>, String)> = Vec::new();
        for (id, a) in &rules.articles {
            for part in a.split(',') {
                if is_article_number(part.trim()) {
                    entries.push((row(part), id.clone()));
                }
            }
        }
        for c in [
            MoveClass::Check,
            MoveClass::Kill,
            MoveClass::Chase,
            MoveClass::Exchange,
            MoveClass::Offer,
            MoveClass::Block,
            MoveClass::Follow,
            MoveClass::Idle,
        ] {
            let a = rules.class_article(c);
            if is_article_number(&a) {
                entries.push((row(&a), format!("class {}", c.name())));
            }
        }
        let mut examples: Vec<(Vec<u32>, String)> = Vec::new();
        let dir = root.join("spec/examples").join(rs_id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let y: serde_yaml::Value =
                serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let name = f.file_stem().unwrap().to_string_lossy().to_string();
            let mut cited: BTreeSet<String> = BTreeSet::new();
            for a in y["articles"].as_sequence().into_iter().flatten() {
                cited.insert(
                    a.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("{a:?}")),
                );
            }
            for i in y["rule_ids"].as_sequence().into_iter().flatten() {
                if let Some(a) = i.as_str().and_then(|i| rules.articles.get(i)) {
                    cited.extend(a.split(',').map(|p| p.trim().to_string()));
                }
            }
            let start = board(y["fen"].as_str().unwrap());
            let full: Vec<OMove> = y["moves_full"]
                .as_sequence()
                .unwrap()
                .iter()
                .map(|m| mv(m.as_str().unwrap()))
                .collect();
            let j = judge(&rules, &start, &full).unwrap();
            cited.extend(j.articles.iter().cloned());
            for c in &j.cycle {
                cited.extend(c.articles.iter().cloned());
            }
            for a in cited.iter().filter(|a| is_article_number(a)) {
                examples.push((row(a), name.clone()));
            }
        }
        let mut units: Vec<(Vec<u32>, String)> = Vec::new();
        for (name, a1999, a2011) in UNIT_COVERAGE {
            for a in if k == 0 { *a1999 } else { *a2011 } {
                units.push((row(a), (*name).to_string()));
            }
        }
        for (key, id) in entries {
            rows.get_mut(&key).unwrap().1.insert(id);
        }
        for (key, e) in examples {
            rows.get_mut(&key).unwrap().2.insert(e);
        }
        for (key, u) in units {
            rows.get_mut(&key).unwrap().3.insert(u);
        }
        // Rows carried only by interpretations that cite another edition's numbers are dropped.
        let interp_ids: BTreeSet<&str> = rules
            .interpretations
            .iter()
            .map(|i| i.id.as_str())
            .collect();
        rows.retain(|_, (_, ids, ex, un)| {
            !ex.is_empty() || !un.is_empty() || ids.iter().any(|i| !interp_ids.contains(i.as_str()))
        });
        let _ = writeln!(out, "### Coverage by article: {rs_id}\n");
        out.push_str(
            "| Article | Spec entries | Worked examples | Unit tests |\n|---|---|---|---|\n",
        );
        let (mut with_ex, mut with_unit, mut none) = (0, 0, 0);
        for (a, ids, ex, un) in rows.values() {
            if !ex.is_empty() {
                with_ex += 1;
            }
            if !un.is_empty() {
                with_unit += 1;
            }
            if ex.is_empty() && un.is_empty() {
                none += 1;
            }
            let join = |s: &BTreeSet<String>| {
                if s.is_empty() {
                    "—".to_string()
                } else {
                    s.iter().cloned().collect::<Vec<_>>().join(", ")
                }
            };
            let _ = writeln!(out, "| {a} | {} | {} | {} |", join(ids), join(ex), join(un));
        }
        let _ = writeln!(
            out,
            "\n{} articles: {with_ex} exercised by worked examples, {with_unit} by unit tests, {none} by neither.\n",
            rows.len()
        );
    }
    // Interpretations: rule sets (resolved overlays) and material.yaml.
    let mut interp: BTreeMap<String, (Vec<String>, Interpretation)> = BTreeMap::new();
    for rs_id in ["cxa-1999", "cxa-2011"] {
        for i in RuleSet::embedded(rs_id).unwrap().interpretations {
            interp
                .entry(i.id.clone())
                .or_insert_with(|| (Vec::new(), i.clone()))
                .0
                .push(rs_id.to_string());
        }
    }
    let material: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(root.join("spec/material.yaml")).unwrap())
            .unwrap();
    for i in material["interpretations"]
        .as_sequence()
        .into_iter()
        .flatten()
    {
        let s = |k: &str| i[k].as_str().unwrap_or_default().to_string();
        interp.insert(
            s("id"),
            (
                vec!["material".to_string()],
                Interpretation {
                    id: s("id"),
                    article: s("article"),
                    reading: s("reading"),
                    why: s("why"),
                },
            ),
        );
    }
    let _ = writeln!(out, "### Every interpretation ({} entries)\n", interp.len());
    out.push_str("| Id | In | Article | Reading | Why |\n|---|---|---|---|---|\n");
    for (id, (sets, i)) in &interp {
        let _ = writeln!(
            out,
            "| {id} | {} | {} | {} | {} |",
            sets.join(", "),
            md_cell(&i.article),
            md_cell(&i.reading),
            md_cell(&i.why)
        );
    }
    let path = root.join("docs/rules-notes.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- generated:begin -->\n", "<!-- generated:end -->");
    let b = doc.find(begin).expect("begin marker") + begin.len();
    let e = doc.find(end).expect("end marker");
    let new = format!("{}{}{}", &doc[..b], out, &doc[e..]);
    std::fs::write(&path, new).unwrap();
}

/// Reading `protection-of-a-piece-won-by-checks`: a piece's cover is its protection on the
/// board: red's elephants e2 and g0 guard each other; alone, e2 is unprotected; a cannon guards
/// over a screen, a rook not through a piece.
#[test]
fn protection_on_the_board_of_a_piece_won_by_checks() {
    use analysis::{cover_on_board, Cover};
    let cover = |fen: &str, sq: &str| {
        let b = board(fen);
        let id = b.piece_id_at(sq.parse().unwrap()).unwrap();
        cover_on_board(&b, id)
    };
    let both = "3k5/9/9/9/9/9/9/4B4/9/4K1B2 w - - 0 1";
    assert_eq!(cover(both, "e2"), Cover::Underprotected);
    assert_eq!(cover(both, "g0"), Cover::Underprotected);
    assert_eq!(
        cover("3k5/9/9/9/9/9/9/4B4/9/4K4 w - - 0 1", "e2"),
        Cover::Unprotected
    );
    // A cannon on a3 guards e3 over the screen c3; a rook on a3 does not, through it.
    assert_eq!(
        cover("3k5/9/9/9/9/9/C1P1N4/9/9/4K4 w - - 0 1", "e3"),
        Cover::Underprotected
    );
    assert_eq!(
        cover("3k5/9/9/9/9/9/R1P1N4/9/9/4K4 w - - 0 1", "e3"),
        Cover::Unprotected
    );
    // 假根 (24.16): a guard pinned against its king (the rook e7 by the rook e2), or one whose
    // recapture lets the kings face each other (the advisor e8), protects nothing; unpinned, the
    // rook e7 does.
    assert_eq!(
        cover("4k4/9/2n1r4/9/9/9/9/2R1R4/9/3K5 w - - 0 1", "c7"),
        Cover::Unprotected
    );
    assert_eq!(
        cover("4k4/9/2n1r4/9/9/9/9/2RR5/9/3K5 w - - 0 1", "c7"),
        Cover::Underprotected
    );
    assert_eq!(
        cover("4k4/4a4/3n5/9/9/9/9/9/9/4K4 w - - 0 1", "d7"),
        Cover::Unprotected
    );
}
