//! Constructed positions, each isolating one general reading of the Chinese rules, judged by
//! both engines (`compare_judge`: the fast judge must give the oracle's JSON byte for byte) under
//! the rule sets where the reading applies and where it does not. Each position's mirror image
//! and colour swap must be judged alike (classes, targets and ruling mapped by the symmetry).

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

/// Interpretation `newness-in-context` (2011 26.1.2, 从捉到捉), first part: a threat that stood
/// before the opponent's check is not new when a piece other than the king answers the check.
///
/// Black's rook i4 can take the unprotected cannon i0. Red's rook checks from a9; black's
/// advisor blocks on d9, after which the rook's capture is legal again. Under 2011 the block is
/// idle (the check only interrupted the threat); under 1999, which has no such reading, the
/// capture is new against the position in check and the block is a chase.
#[test]
fn a_threat_interrupted_by_a_check_is_not_renewed_by_the_block() {
    let fen = "4k4/4a4/9/9/R8/8r/9/4B4/9/3AKA2C w - - 0 1";
    let moves = "a5a9 e8d9 a9a5 d9e8 a5a9 e8d9 a9a5 d9e8";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "check");
    assert_eq!(class_at(&j2011, 6), "idle", "{j2011}");
    assert_eq!(class_at(&j2011, 8), "idle");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 6), "chase", "{j1999}");
    // Neither changes the ruling here: both sides' moves are allowed.
    assert_eq!(j2011["ruling"], "draw");
    assert_eq!(j1999["ruling"], "draw");
}

/// Interpretation `newness-in-context`, third part (2011 26.1.2, 26.3: a new 杀法): when a piece
/// other than the king answers a check, the move is a kill only if a mate it threatens is new.
///
/// Black threatens the mate 车i4-i0 (the rook h1 holds the second rank) all along. Red's rook
/// checks from a9 and black's advisor blocks on d9: the same mate stands, no new one appears, so
/// under 2011 the block is idle (citing 26.1.2) and black's moves are one kill and one idle move,
/// a draw. The 1999 rules read no newness of a kill: the block is a kill too, black kills
/// perpetually (长杀) and must change. (图19 is the other side: the block adds the horse's mate.)
#[test]
fn a_block_that_keeps_a_standing_kill_is_no_new_kill() {
    let fen = "4k4/4a4/9/4p4/R8/8r/9/9/7r1/4K4 w - - 0 1";
    let moves = "a5a9 e8d9 a9a5 d9e8 a5a9 e8d9 a9a5 d9e8";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "check", "{j2011}");
    assert_eq!(class_at(&j2011, 6), "idle", "{j2011}");
    assert!(cites(&j2011, 6, "26.1.2"), "{j2011}");
    assert_eq!(class_at(&j2011, 8), "kill", "{j2011}");
    assert_eq!(j2011["ruling"], "draw", "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 6), "kill", "{j1999}");
    assert_eq!(j1999["ruling"], "black_loses", "{j1999}");
}

/// Interpretation `newness-in-context`, second part: after the opponent's kill (殺), a capture
/// that does not parry the mate won nothing; a non-king move that parries the kill and so makes
/// the capture safe is a new chase (参考图33: "车４平６解杀后形成炮捉车").
#[test]
fn parrying_a_kill_makes_a_standing_capture_a_new_chase() {
    let j = judged(
        "cxa-2011",
        "2bak4/4a4/r1n1b4/p1R2N3/2p6/5r3/P1c3P2/4B3N/R8/2BAKA3 w - - 0 1",
        "f6d5 f4d4 d5f6 d4f4 f6d5 f4d4 d5f6 d4f4",
    );
    // Red's horse threatens mate on its way back (ply 7); black's rook parries it (ply 8) and the
    // cannon c3's capture of the rook c6 becomes a real threat.
    assert_eq!(class_at(&j, 7), "kill");
    assert_eq!(class_at(&j, 8), "chase", "{j}");
    assert_eq!(j["ruling"], "draw");
}

/// Interpretation `exemption-by-capturer` (2011 26.1, 26.1.1, 26.7): the pawn's exemption
/// belongs to the piece that wins the material, not to the first piece of a line of checks.
///
/// Red's rook steps onto the f-file. Then the pawn d8 can take the advisor d9 with check, and
/// after 将×兵 (the pawn traded for the advisor, level: reading `won-against-the-best-defence`)
/// the rook takes the horse f9 with check. The line begins with the pawn's check, but the rook
/// captures: the rook's move is a chase, under 2011 and under 1999 (27.2: 兵本身捉吃; reading
/// `exemption-by-capturer-1999`). (Black's elephant e7 closes the e-file: from g2 the rook has
/// no line of checks of its own that wins the horse, so the threat is new, reading
/// `newness-of-a-line-of-checks`.)
#[test]
fn a_pawn_check_that_lets_the_rook_win_is_the_rooks_chase() {
    let fen = "3akn3/3P5/4b4/r8/9/9/9/6R2/4A4/3AK4 w - - 0 1";
    let moves = "g2f2 a6a5 f2g2 a5a6 g2f2 a6a5 f2g2 a5a6";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "chase", "{j2011}");
    assert_eq!(j2011["cycle"][0]["targets"][0], "f9");
    // 1999 reads 27.2's 本身 alike (exemption-by-capturer-1999): the rook's chase.
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 5), "chase", "{j1999}");
    assert_eq!(j1999["cycle"][0]["targets"][0], "f9");
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

/// Interpretation `pinned-target-cannot-accept` (2011 24.4, 26.9, 26.10; 参考图47–48): a
/// standing threat to a piece that another piece holds on its square is renewed, as a joint
/// chase, by each move of the holding piece.
///
/// Black's horse e5 stands on the e-file between red's rook and black's king: every move of it
/// exposes the king, and red's horse c6 can take it (unprotected). Red's rook shuffles along
/// the file (e1, e2) and keeps the horse pinned. Under 2011 each rook move renews the horse's
/// threat (捉, citing 26.9 and the joint chase 24.17) and red must change; the 1999 rules, which
/// lack the reading, call the shuffle idle (从捉到捉) and the game a draw.
#[test]
fn a_piece_that_keeps_the_target_pinned_renews_the_chase() {
    let fen = "r3k4/9/9/2N6/4n4/9/9/9/4R4/3K5 w - - 0 1";
    let moves = "e1e2 a9a8 e2e1 a8a9 e1e2 a9a8 e2e1 a8a9";
    let j2011 = judged("cxa-2011", fen, moves);
    for ply in [5, 7] {
        assert_eq!(class_at(&j2011, ply), "chase", "{j2011}");
        let a = articles_at(&j2011, ply);
        assert!(
            a.contains(&"26.9".to_string()) && a.contains(&"24.17".to_string()),
            "{a:?}"
        );
    }
    assert_eq!(j2011["ruling"], "red_loses");
    assert_eq!(j2011["must_change"], "red");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 5), "idle", "{j1999}");
    assert_eq!(j1999["ruling"], "draw");
    // Off the file the rook pins nothing: the same shuffle one file over is idle under 2011 too.
    let free = judged(
        "cxa-2011",
        "r3k4/9/9/2N6/4n4/9/9/9/5R3/3K5 w - - 0 1",
        "f1f2 a9a8 f2f1 a8a9 f1f2 a9a8 f2f1 a8a9",
    );
    assert_eq!(class_at(&free, 5), "idle", "{free}");
}

/// Interpretation `joint-chase-necessary` (24.17): a piece that only stands in the way of the
/// target's protector (断根) is no partner; the target is simply unprotected.
///
/// Red's rook comes to a7 and attacks the horse d7. Black's rook g7 would protect it but for
/// red's cannon f7 in between; the cannon neither captures the horse nor screens a capture of
/// it. The rook's move is a single chase of an unprotected piece (24.3 alone, no 24.17).
#[test]
fn a_piece_that_only_blocks_a_protector_is_no_partner() {
    let fen = "4k4/R8/3n1Cr2/9/9/9/9/9/9/3K5 w - - 0 1";
    let moves = "a8a7 e9f9 a7a8 f9e9 a8a7 e9f9 a7a8 f9e9";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(articles_at(&j, 5), vec!["24.3".to_string()], "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17): a piece needed only to keep an enemy line
/// closed is no partner, even when it could take the target too (图28's horse and elephant).
///
/// Black's horse comes to e8 and attacks the unprotected cannon g9; so does the elephant e7. Red's
/// cannon e2 (over the pawn e3) would check the king e9 as soon as the file opened: without the
/// elephant the horse could not leave e8, without the horse the elephant could not leave e7. Each
/// is needed only as the other's obstacle: the horse's move is a single chase (24.3 alone, no
/// 24.17), not a horse+elephant joint chase.
#[test]
fn a_piece_that_only_keeps_an_enemy_line_closed_is_no_partner() {
    let fen = "4k1C2/9/4b1n2/9/9/9/4P4/4C4/9/3K5 b - - 0 1";
    let moves = "g7e8 d0d1 e8g7 d1d0 g7e8 d0d1 e8g7 d1d0";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(
        cycle_move(&j, 5)["targets"],
        serde_json::json!(["g9"]),
        "{j}"
    );
    assert_eq!(articles_at(&j, 5), vec!["24.3".to_string()], "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17): a piece alone between the two kings keeps them
/// apart (将帅不得照面) and serves by its point, like an obstacle in an enemy line to the capturer's
/// king; the enemy king is the piece whose line it blocks. It is no partner.
///
/// Red's rook comes to d1 and attacks the unprotected cannon d6. Red's horse e4 also eyes d6 but
/// cannot move: it alone stands between the kings on the e-file, and without it every capture
/// would leave them facing. The rook's move is a single chase (24.3 alone). In the second
/// position black chases too, with one piece on every move: both sides chase singly (26.8.1
/// grave both), a draw by 26.8.4; counted joint, red's chase would make red change (26.8.3).
#[test]
fn a_piece_between_the_kings_is_no_partner() {
    let j = judged(
        "cxa-2011",
        "r2aka3/9/9/3c5/9/4N4/9/9/2R6/3AKA3 w - - 0 1",
        "c1d1 a9a8 d1c1 a8a9 c1d1 a9a8 d1c1 a8a9",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(articles_at(&j, 5), vec!["24.3".to_string()], "{j}");
    let j = judged(
        "cxa-2011",
        "3aka3/9/2n6/3c5/9/4N4/C6r1/N8/2R6/3AKA3 w - - 0 1",
        "c1d1 h3h2 d1c1 h2h3 c1d1 h3h2 d1c1 h2h3",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(!cites(&j, 5, "24.17"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    assert!(j["articles"].to_string().contains("26.8.4"), "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17): the screen (炮架) of a capturing cannon is a
/// partner only when it could take the target itself by a legal move; a pinned screen cannot.
///
/// Red's rook f1 stands on the leg of the black horse g1, which would otherwise check the red king
/// e0, so the rook cannot leave f1. Red's cannon back on f0 attacks the unprotected advisor f7 over
/// it: a single chase (the rook reaches f7 by its movement rules, but taking would expose its
/// king). Black's rook chases the unprotected horses a2 and a3 in turn: both sides 长捉无根子 with
/// single pieces, a draw by 26.8.4 (counted joint, red's chase made black change, 26.8.3).
#[test]
fn a_pinned_screen_is_no_partner() {
    let j = judged(
        "cxa-2011",
        "3k2r2/9/5a1n1/9/7P1/9/Nr7/N8/4ARn2/3AKC3 w - - 0 1",
        "f0h0 b3b2 h0f0 b2b3 f0h0 b3b2 h0f0 b2b3",
    );
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(
        cycle_move(&j, 7)["targets"],
        serde_json::json!(["f7"]),
        "{j}"
    );
    assert_eq!(articles_at(&j, 7), vec!["24.3".to_string()], "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    assert!(j["articles"].to_string().contains("26.8.4"), "{j}");
}

/// Interpretation `exchange-continued-by-checks` (24.3: 连续将军得子、抽吃子、通过完整互吃交换后
/// 吃掉对方子且得子): the complete exchange may go on by consecutive checks that win the piece that
/// took back.
///
/// Red's rook comes to a5 and attacks the horse b5, guarded by the rook b9. 车×b5, 车b9×b5 alone
/// would give a rook for a horse, but red then checks from c7 with the horse, forking the king
/// and the rook b5, and takes the rook: a horse up, every move a capture or a check. So 车a5 is a
/// chase (both editions: 1999 29.1 is the same text). Without red's horse it is idle. With a
/// black pawn on h4, which the rook attacks from a4, red chases on both moves and must change.
#[test]
fn an_exchange_continued_by_a_forking_check_is_a_chase() {
    let moves = "a4a5 g9i7 a5a4 i7g9 a4a5 g9i7 a5a4 i7g9";
    let fork = "1r1k1ab2/4a4/9/4N4/1n7/R8/9/9/9/3AKA3 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fork, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(
            cycle_move(&j, 5)["targets"],
            serde_json::json!(["b5"]),
            "{j}"
        );
        assert_eq!(class_at(&j, 7), "idle", "{rules}: {j}");
        assert_eq!(j["ruling"], "draw", "{rules}: {j}");
    }
    let no_horse = judged(
        "cxa-2011",
        "1r1k1ab2/4a4/9/9/1n7/R6p1/9/9/9/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&no_horse, 5), "idle", "{no_horse}");
    assert_eq!(class_at(&no_horse, 7), "chase", "{no_horse}");
    assert_eq!(no_horse["ruling"], "draw", "{no_horse}");
    let pawn = judged(
        "cxa-2011",
        "1r1k1ab2/4a4/9/4N4/1n7/R6p1/9/9/9/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&pawn, 5), "chase", "{pawn}");
    assert_eq!(class_at(&pawn, 7), "chase", "{pawn}");
    assert_eq!(pawn["ruling"], "red_loses", "{pawn}");
    assert_eq!(pawn["must_change"], "red", "{pawn}");
}

/// Interpretation `exchange-continued-by-checks`, a line that wins another piece: after the
/// complete exchange (24.3, 通过完整互吃交换后吃掉对方子且得子) the capturer's checks may win a piece
/// it could not win before the capture, not only the piece that took back.
///
/// Red's rook comes to a4 and attacks the horse a9, guarded by the rook c9, which also guards c7.
/// 车×a9, 车c9×a9 gives a rook for a horse, but the recapture leaves c7 unguarded: red's horse
/// checks from c7, forking the king and the rook e6, and takes the rook, a horse up (black has no
/// check in between: the advisor f2 shuts the f-file). So 车a4 is a chase, and with a black pawn
/// on h2, which the rook attacks from h4, red chases on both moves and must change (both
/// editions). Controls: without the rook e6 the exchange wins nothing and 车a4 is idle; with the
/// guarding rook on b9 and a black horse on h6, red's fork stood before the capture (a threat of
/// its own, not new), and 车a4 is no chase either. Without that horse the rook on h4 threatens
/// mate (杀) through the fork: every answer to 马c7+ lets red mate, and the fork wins the rook e6
/// besides (殺兼捉, reading `defence-that-allows-mate`), so 车a4, which only gives the mate up,
/// makes no new chase either: 一杀一閒, a draw.
#[test]
fn an_exchange_that_opens_a_fork_on_another_piece_is_a_chase() {
    let moves = "h4a4 b2c2 a4h4 c2b2 h4a4 b2c2 a4h4 c2b2";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(
            rules,
            "n1rk5/9/9/4r4/1N7/7R1/9/1p3A1p1/9/5K3 w - - 0 1",
            moves,
        );
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(
            cycle_move(&j, 5)["targets"],
            serde_json::json!(["a9"]),
            "{j}"
        );
        assert_eq!(class_at(&j, 7), "chase", "{rules}: {j}");
        assert_eq!(j["ruling"], "red_loses", "{rules}: {j}");
        assert_eq!(j["must_change"], "red", "{rules}: {j}");
    }
    let no_fork = judged(
        "cxa-2011",
        "n1rk5/9/9/9/1N7/7R1/9/1p3A1p1/9/5K3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&no_fork, 5), "idle", "{no_fork}");
    assert_eq!(no_fork["ruling"], "draw", "{no_fork}");
    let fork_before = judged(
        "cxa-2011",
        "nr1k5/9/9/4r2n1/1N7/7R1/9/1p3A1p1/9/5K3 w - - 0 1",
        moves,
    );
    assert_ne!(class_at(&fork_before, 5), "chase", "{fork_before}");
    assert_eq!(fork_before["ruling"], "draw", "{fork_before}");
    let mate_before = judged(
        "cxa-2011",
        "nr1k5/9/9/4r4/1N7/7R1/9/1p3A1p1/9/5K3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&mate_before, 5), "idle", "{mate_before}");
    assert_eq!(class_at(&mate_before, 7), "kill", "{mate_before}");
    assert_eq!(mate_before["ruling"], "draw", "{mate_before}");
}

/// 2011 24.15 (少根子: 被保护不充分的子) and interpretation `mated-at-once-2011`: a protector whose
/// recapture is answered by a mate at once does not stop the capture from winning, but the piece it
/// guards is under-protected (少根), not unprotected: it can take back, legally (24.16's 假根 is the
/// protector that cannot leave its line). 参考图34 prints 黑方长捉少根子 for such a chase.
///
/// Black's rook c8 guards the cannon c5 and, along the eighth rank, the point g8. Red's rook
/// comes back to c0 and attacks the cannon: if the rook c8 takes back, red's horse mates on g8
/// (the king is boxed in by its advisors and the pawn e7), so the capture wins the cannon: a
/// chase, of a 少根子. On its other move red chases the unprotected horse a7; black's rook chases
/// the unprotected horse h2 and cannon h1 in turn. As in 参考图34, the side that chases only
/// unprotected pieces changes (26.8.1).
#[test]
fn a_protector_whose_recapture_is_mated_at_once_leaves_the_piece_underprotected() {
    let j = judged(
        "cxa-2011",
        "3aka3/2r6/n3P3N/9/2c6/9/9/7N1/7Cr/2RK5 w - - 0 1",
        "c0a0 i1i2 a0c0 i2i1 c0a0 i1i2 a0c0 i2i1",
    );
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(
        cycle_move(&j, 7)["targets"],
        serde_json::json!(["c5"]),
        "{j}"
    );
    assert_eq!(j["ruling"], "black_loses", "{j}");
    assert_eq!(j["must_change"], "black", "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17; 参考图33 "炮捉车"): the screen (炮架) of the
/// capturing cannon that stood there before the move serves by its point and is no partner (a
/// screen that has just moved there is: `a_moved_screen_takes_part_a_standing_screen_does_not`).
///
/// Black's cannon comes to a4 and attacks the unprotected horse g4 over its own cannon f4, which
/// cannot take the horse itself (it stands next to it). The move is a single chase of an
/// unprotected piece, not a joint chase of the two cannons.
#[test]
fn a_cannon_screen_is_no_partner() {
    let fen = "4k4/9/9/9/c8/5cN2/9/9/9/3K5 b - - 0 1";
    let moves = "a5a4 d0d1 a4a5 d1d0 a5a4 d0d1 a4a5 d1d0";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(
        cycle_move(&j, 5)["targets"],
        serde_json::json!(["g4"]),
        "{j}"
    );
    assert_eq!(articles_at(&j, 5), vec!["24.3".to_string()], "{j}");
}

/// Interpretation `complete-exchange-any-square` (24.3, the complete exchange; 参考图13, 18, 19):
/// the other side may answer a capture by taking, elsewhere, a piece the capture leaves newly en
/// prise, so a capture that costs such a piece is no threat, and the move that removes the cost
/// makes a new chase.
///
/// Red's rook c4 can take the unprotected cannon h4, but it also guards the horse c6, which
/// black's rook g6 attacks: before red's horse moves, the capture costs the horse. The horse
/// steps to a7, out of the rook's reach: the capture now wins the cannon, a new chase (捉). The
/// 1999 rules say the same (29.1, 完整的交換過程) and judge alike. The horse's way back is idle.
#[test]
fn a_move_that_frees_a_capture_of_its_cost_is_a_chase() {
    let fen = "3akab1n/9/4b4/2N3r2/9/2R4c1/9/9/9/3K5 w - - 0 1";
    let moves = "c6a7 i9h7 a7c6 h7i9 c6a7 i9h7 a7c6 h7i9";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "chase", "{j2011}");
    assert_eq!(cycle_move(&j2011, 5)["targets"][0], "h4");
    assert_eq!(class_at(&j2011, 7), "idle", "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 5), "chase", "{j1999}");
    assert_eq!(cycle_move(&j1999, 5)["targets"][0], "h4");
    assert_eq!(class_at(&j1999, 7), "idle", "{j1999}");
}

/// Interpretation `complete-exchange-any-square`, condition (2): a piece the other side could
/// already win before the move is no answer within the exchange (参考图47). As above, with red's
/// horse g3 en prise to black's rook from the start: the horse's step to a7 is still a chase of
/// the cannon h4, though black could take the horse g3 in return.
#[test]
fn a_piece_already_en_prise_is_no_answer_to_a_capture() {
    let fen = "3akab1n/9/4b4/2N3r2/9/2R4c1/6N2/9/9/3K5 w - - 0 1";
    let moves = "c6a7 i9h7 a7c6 h7i9 c6a7 i9h7 a7c6 h7i9";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "h4");
    assert_eq!(class_at(&j, 7), "idle", "{j}");
}

/// Interpretation `newness-of-a-line-of-checks` (29.2 / 24.3 从捉到捉, concept E; 参考图8): a line
/// of consecutive checks that wins a piece a line could already win before the move, whichever
/// piece opened it, is no new threat.
///
/// Red's rook g3 steps to h3, from where it can check on h8 and, after the king's step to e9,
/// take the horse a8. Red's rook i2 could already do the same from i8: the horse stood to be won
/// by checks before, and the step is idle (both rule sets). Without the rook i2 the same step is
/// a new chase of the horse.
#[test]
fn a_line_of_checks_that_wins_what_a_line_already_won_is_not_new() {
    let moves = "g3h3 c9a7 h3g3 a7c9 g3h3 c9a7 h3g3 a7c9";
    let two_rooks = "2ba1a3/n3k4/4b4/6P2/9/9/6R2/8R/9/3K5 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, two_rooks, moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
    }
    let one_rook = "2ba1a3/n3k4/4b4/6P2/9/9/6R2/9/9/3K5 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, one_rook, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "a8");
    }
}

/// Interpretation `defence-that-allows-mate` (28.2, 29.1; 2011 24.2, 24.3; concept F): in a line
/// of consecutive checks, an answer after which the checker mates is lost for the defender. It
/// neither refutes the line nor counts as a defence that keeps the material.
///
/// Red's cannon returns from d8 to h8. From there it can check on h9 through the advisor f9.
/// Black has three answers:
/// - the elephant e7 blocks on g9, and the cannon takes the advisor f9 over it;
/// - the advisor steps to e8, the check is gone, and the rook d3 is lost;
/// - the king steps to e8 and keeps all its material, but the rook g7 then mates on g8.
///
/// Scored as "no gain", the king's step dropped the whole line and the return was idle. As a
/// loss for black, the return is a chase, under both rule sets, of the advisor: the best of the
/// other two answers gives it up (reading `won-against-the-best-defence`). The cannon's step
/// to d8 (ply 5) renews only the rook's standing attack on the elephant: 閒.
#[test]
fn an_answer_that_allows_mate_does_not_refute_a_line_of_checks() {
    let fen = "4ka3/7C1/4b1R2/9/9/9/7r1/4B4/9/4K4 w - - 0 1";
    let moves = "h8d8 h3d3 d8h8 d3h3 h8d8 h3d3 d8h8 d3h3";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
        assert_eq!(class_at(&j, 7), "chase", "{j}");
        assert_eq!(
            cycle_move(&j, 7)["targets"],
            serde_json::json!(["f9"]),
            "{j}"
        );
    }
}

/// Interpretation `capture-answered-by-checks` (2011 24.3, 24.15; concept A, an answer by a
/// check): a capture is no gain when the other side's line of checks wins the capturer back and
/// nets more than the capture won, even if less than the capturer's whole worth.
///
/// Red's rook returns from e5 to f5 (ply 7). Then the rook g6 could take the horse g7 (worth
/// 2), but black's cannon e8 checks through the rook f5 (炮5平6): whatever red answers, black
/// wins at least 3, the rook g7 itself in most lines (the cannon c7 takes it over the elephant).
/// The capture wins nothing and the return is 閒, under the 1999 rules too (29.1 and 28.16 say
/// the same as 24.3 and 24.15).
#[test]
fn a_capture_won_back_by_a_check_is_no_threat() {
    let fen = "4k4/3r1c3/2c1b1n2/6R2/5R3/9/4P4/9/9/5K3 w - - 0 1";
    let moves = "f5e5 f8e8 e5f5 e8f8 f5e5 f8e8 e5f5 e8f8";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 7), "idle", "{j2011}");
    assert_eq!(class_at(&j2011, 8), "check");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 7), "idle", "{j1999}");
    assert_eq!(class_at(&j1999, 8), "check");
}

/// 2011 26.9 and interpretation `pinned-target-cannot-accept` (concept C: 可以互相交换吃去, a target
/// pinned to its king cannot take): an exchange of pieces of one kind offered to a piece that
/// cannot legally take back is a chase (邀兑方按"捉"处理), whichever piece pins it.
///
/// Red's cannon comes to b5 and faces the black cannon e5 over the pawn c5; the black cannon is
/// protected by the horse g6, so taking it wins nothing by itself. It stands alone between the
/// kings (with a red rook e1 instead, pinned by the rook): taking the red cannon would expose its
/// king, so the exchange cannot be accepted and the offer is a chase (26.9). Red's cannon back on
/// b6 chases the unprotected horse g6 (over the pawn c6), or nothing with the horse protected:
/// 长捉 or 數捉一閒. With a black advisor e8 between the kings the exchange can be accepted: 兑.
/// Under 1999, which has no acceptance test, the offer is idle.
#[test]
fn an_exchange_offered_to_a_pinned_piece_is_a_chase() {
    let moves = "b6b5 g9i7 b5b6 i7g9 b6b5 g9i7 b5b6 i7g9";
    let kings_pin = "4k1b2/9/9/1CP3n2/2P1c4/9/9/9/9/4K4 w - - 0 1";
    let j = judged("cxa-2011", kings_pin, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(cites(&j, 5, "26.9"), "{j}");
    assert_eq!(
        cycle_move(&j, 5)["targets"],
        serde_json::json!(["e5"]),
        "{j}"
    );
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(j["ruling"], "red_loses", "{j}");
    let rook_pin = "4k1b2/9/9/1C4n2/2P1c4/6n2/9/9/4R4/3K5 w - - 0 1";
    let j = judged("cxa-2011", rook_pin, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(cites(&j, 5, "26.9"), "{j}");
    assert_eq!(class_at(&j, 7), "idle", "{j}");
    let free = "4k1b2/4a4/9/1CP3n2/2P1c4/9/9/9/9/4K4 w - - 0 1";
    let j = judged("cxa-2011", free, moves);
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let j = judged("cxa-1999", kings_pin, moves);
    assert_eq!(class_at(&j, 5), "idle", "{j}");
}

/// 2011 26.10.2 and interpretation `pinned-target-cannot-accept` (concept C): a rook and a horse
/// touching a protected horse offer the horses' exchange when the touched horse can accept it
/// at no cost to its root; when it is pinned to its king, it cannot, and the contact is a chase.
///
/// Red's horse comes to c6, protected by the pawn c5, beside the rook e3 that already bears on
/// the black horse e7 (protected by the elephant c9). With the black king on d9 the horse e7 may
/// take the horse c6 (the pawn takes back: horse for horse, the elephant loses nothing): 兑.
/// With the king on e9 the horse e7 shields it from the rook and cannot leave: 捉 (jointly under
/// 2011, the rook and the horse being both necessary).
#[test]
fn a_rook_and_horse_touching_a_protected_horse_offer_the_exchange_unless_it_is_pinned() {
    let moves = "a5c6 a9a8 c6a5 a8a9 a5c6 a9a8 c6a5 a8a9";
    let free = "r1bk5/9/4n4/9/N1P6/9/4R4/9/9/5K3 w - - 0 1";
    let pinned = "r1b1k4/9/4n4/9/N1P6/9/4R4/9/9/3K5 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, free, moves);
        assert_eq!(class_at(&j, 5), "exchange", "{j}");
        let j = judged(rules, pinned, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "e7");
    }
    let j = judged("cxa-2011", pinned, moves);
    assert!(articles_at(&j, 5).iter().any(|a| a == "24.17"), "{j}");
}

/// Interpretation `won-against-the-best-defence` (28.3, 29.1; 2011 24.3): a line of consecutive
/// checks wins what the defender's best answers give up, not what a worse answer would lose.
///
/// Built from 2011 参考图3 by taking away what does not matter. Red's rook goes from c6 to a6:
/// then the pawn f8 can take the advisor f9 (the king's protection is not enough), and red has
/// lines of checks in which black could lose the rook g3 or the elephant e7, but only by a
/// worse answer than the best. The move chases the advisors, not the rook or the elephant,
/// under both rule sets: the advisor f9 (the book: "可炮打士") and the advisor e8,
/// which a line of checks wins after the pawn takes f9 with check and the king takes it back (a
/// pawn for an advisor is level by 26.6, and what the line wins after it counts in full; reading
/// `won-against-the-best-defence`). Listing every piece lost after some answer made it a chase of
/// a rook (26.8) as well.
#[test]
fn a_line_of_checks_wins_only_what_the_best_defence_gives_up() {
    let fen = "4ka3/4aP3/4b4/2R6/9/9/6r2/9/4A4/4KC3 w - - 0 1";
    let moves = "c6a6 e7c9 a6c6 c9e7 c6a6 e7c9 a6c6 c9e7";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(
            cycle_move(&j, 5)["targets"],
            serde_json::json!(["e8", "f9"]),
            "{rules}: {j}"
        );
    }
}

/// Interpretation `joint-line-of-checks` (2011 24.17; concept D applied to lines of checks): a
/// line of consecutive checks is a joint chase when two of the pieces that take part in it (the
/// pieces that give its checks, the pieces that capture the target at the end) are each needed.
///
/// Built from 2011 参考图39 ("红方炮六平二为联合捉子") by taking away what does not matter. Red's
/// cannon returns to h8 (ply 7): from h9 it checks through the advisor f9, and after black's
/// answer the cannon and the rook g7 win the black cannon i8. Without the red cannon there is
/// no check; without the rook the cannon i8 is not won. Under 2011 the chase is joint (it cites
/// 24.17); the 1999 rules have no joint chase.
#[test]
fn a_line_of_checks_is_joint_when_two_pieces_are_each_needed() {
    let fen = "4ka3/7Cc/6R2/9/9/9/7r1/9/4A4/4K4 w - - 0 1";
    let moves = "h8d8 h3d3 d8h8 d3h3 h8d8 h3d3 d8h8 d3h3";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 7), "chase", "{j2011}");
    assert!(
        articles_at(&j2011, 7).contains(&"24.17".to_string()),
        "{j2011}"
    );
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 7), "chase", "{j1999}");
    assert!(
        !articles_at(&j1999, 7).contains(&"24.17".to_string()),
        "{j1999}"
    );
}

/// Interpretation `joint-line-of-checks` (2011 24.17; concept D: "the checking pieces of a line
/// of checks" take part): a piece that gives a later check of the line is a partner when it is
/// needed, though it neither opens the line nor captures.
///
/// Built from 2011 图24 (红方退车吃卒，将军后黑方垫车，红方可兵七平六弃兵得车) by taking away what does
/// not matter. Red's rook returns to i5 (ply 7): it takes the pawn e5 with check, black's rook
/// blocks on e8, the pawn c9 checks from d9 and, whatever black answers, the rook takes the rook
/// e8. The rook opens the line and captures; the pawn only checks, and without it the rook
/// wins nothing (the same game without the pawn is idle): a joint chase of the rook and the
/// pawn (it cites 24.17). Under 1999 a pawn given for a rook is no gain (25.3): idle.
#[test]
fn a_piece_that_gives_a_later_check_of_the_line_takes_part() {
    let moves = "i5i9 e8f8 i9i5 f8e8 i5i9 e8f8 i9i5 f8e8";
    let fen = "2P1kn3/4r4/9/9/4p3R/9/9/4B4/9/4K4 w - - 0 1";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 7), "chase", "{j2011}");
    assert_eq!(cycle_move(&j2011, 7)["targets"][0], "f8", "{j2011}");
    assert!(cites(&j2011, 7, "24.17"), "{j2011}");
    let no_pawn = judged(
        "cxa-2011",
        "4kn3/4r4/9/9/4p3R/9/9/4B4/9/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&no_pawn, 7), "idle", "{no_pawn}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 7), "idle", "{j1999}");
}

/// Interpretation `joint-chase-necessary` (2011 24.17; concept D with the gain counted as in A):
/// a target won only across two squares is chased jointly by the piece that captures it and the
/// piece that takes what its protector leaves.
///
/// Built from 2011 参考图16 ("黑方车2平4，伏炮打仕", one of 24.17's figures) by taking away what does
/// not matter. Black's rook comes to d3 (ply 6): the cannon i0 can take the advisor d0 over the
/// red king, and if the advisor e1 takes back, the rook takes the cannon d2 it guarded. Without
/// the rook the cannon is lost for an advisor; without the cannon there is no capture: a joint
/// chase (it cites 24.17).
#[test]
fn a_target_won_across_two_squares_is_chased_jointly() {
    let fen = "4k4/9/9/9/9/9/1r7/1C7/4A4/3A1K2c w - - 0 1";
    let moves = "b2d2 b3d3 d2b2 d3b3 b2d2 b3d3 d2b2 d3b3";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 6), "chase", "{j2011}");
    assert!(
        articles_at(&j2011, 6).contains(&"24.17".to_string()),
        "{j2011}"
    );
    // The rook's return to b3 chases the cannon alone.
    assert!(
        !articles_at(&j2011, 8).contains(&"24.17".to_string()),
        "{j2011}"
    );
}

/// Interpretation `joint-chase-necessary` (2011 24.17; concept D): a piece that pins the enemy
/// piece that would answer the capture takes part in the chase.
///
/// Built from 2011 参考图13 ("黑方炮４平５为车炮联合吃马") by taking away what does not matter.
/// Black's rook f1 attacks the horse d1, which the red king left; if the rook takes, the red rook
/// e3 takes the cannon f3 the rook guarded, unless black's other cannon stands on e7 (ply 6):
/// then the red rook cannot leave the e-file without exposing its king. Without the cannon e7
/// the capture wins nothing; without the rook there is none: a joint chase (it cites 24.17).
#[test]
fn a_piece_that_pins_the_answering_piece_takes_part() {
    let fen = "5k3/9/3c5/9/9/9/4Rc3/4B4/3N1r3/3K5 w - - 0 1";
    let moves = "d0e0 d7e7 e0d0 e7d7 d0e0 d7e7 e0d0 e7d7";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 6), "chase", "{j2011}");
    assert!(
        articles_at(&j2011, 6).contains(&"24.17".to_string()),
        "{j2011}"
    );
    assert_eq!(j2011["must_change"], "black", "{j2011}");
}

/// Interpretation `joint-chase-necessary` (2011 24.17): a piece that keeps its own piece protected
/// or its king safe by standing in an enemy line serves by its point, not as a partner, also when
/// the line it closes leads to another of its pieces or to a check, not to the target's point.
///
/// Red's cannon g4 checks from e4 and returns to g4, where it takes the unprotected rook g9 over
/// the pawn g6 by itself (black's rook b9 cannot reach g9: its king e9 is in the way). Red's cannon
/// b4 closes the b-file: without it black would answer the capture by taking the rook b0 (first
/// position) or by mating on b0 (second). Counted a partner, it made red's chase of the rook joint:
/// red's 一将一捉车 was not grave and 26.8.4 drew the first game, and the second, where black's
/// 长捉无根子 is grave too, went to "black changes". Red's chase is single: red changes in the
/// first (26.8.1), and both sides are grave in the second (26.8.4).
#[test]
fn a_piece_that_shields_its_own_rook_or_king_is_no_partner() {
    let moves = "g4e4 e7c6 e4g4 c6e7 g4e4 e7c6 e4g4 c6e7";
    let j = judged(
        "cxa-2011",
        "1r2k1r2/9/4n4/5Pp2/5N3/1C4C2/9/9/9/1R3K3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(cycle_move(&j, 7)["targets"][0], "g9", "{j}");
    assert!(!articles_at(&j, 7).contains(&"24.17".to_string()), "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let j = judged(
        "cxa-2011",
        "1r2k1r2/9/4n4/5Pp2/5N3/1C4C2/9/9/4A4/4KA3 w - - 0 1",
        moves,
    );
    assert!(!articles_at(&j, 7).contains(&"24.17".to_string()), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Reading `exchange-acceptance-kill` (2011 26.9: 被邀兑方兑子后立即被杀…邀兑方按"捉"处理): an
/// offer of a rook for a rook is a chase when taking it leaves the taker to a kill (杀, 24.2: a
/// mate by consecutive checks), however many checks it needs, not only a mate at once.
///
/// Red's rook steps to i2 against the rook i7, which guards black's seventh rank. If black takes,
/// red mates by three checks (马h6-g8+, 车c8-d8+, 车c4-f4). The offer is a chase; with the kill
/// red has on its other move, red makes 一杀一捉 and must change. Without the rook c4 there is no
/// kill after the acceptance: the offer is an exchange (兑) and the game is drawn.
#[test]
fn an_offer_whose_acceptance_is_answered_by_a_kill_is_a_chase() {
    let moves = "h2i2 f3g3 i2h2 g3f3 h2i2 f3g3 i2h2 g3f3";
    let j = judged(
        "cxa-2011",
        "3aka2r/2P6/8r/7N1/9/2R6/5p3/7R1/4A4/3K1AB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(articles_at(&j, 5).contains(&"26.9".to_string()), "{j}");
    assert_eq!(class_at(&j, 7), "kill", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let j = judged(
        "cxa-2011",
        "3aka2r/2P6/8r/7N1/9/9/5p3/7R1/4A4/3K1AB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Interpretation `joint-chase-necessary` (2011 24.17, 24.3: 所走动子…与其他子联合吃子): the piece
/// that has just moved is a partner as the screen of a cannon's capture only when its move makes
/// that capture; a screen that slides along the cannon's line, a screen before and after, makes
/// nothing, as a capturing cannon that slides behind a standing screen makes nothing.
///
/// Red's cannon c7 slides to d7, still the screen of the cannon a7 against the unprotected horse
/// h7: idle (從捉到捉; it was renewed as a joint chase on every move, and red, 长捉, had to
/// change). The control: the crossed pawn steps from b6 to c6 and back, each time becoming the
/// screen of another cannon against another piece: a joint chase on every move, red changes.
#[test]
fn a_screen_that_slides_along_the_line_makes_nothing() {
    let j = judged(
        "cxa-2011",
        "3ak1b1r/9/C1C4n1/p7p/9/9/P3P1P1P/9/9/3AKAB2 w - - 0 1",
        "c7d7 i9i8 d7c7 i8i9 c7d7 i9i8 d7c7 i8i9",
    );
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let j = judged(
        "cxa-2011",
        "1nbakab1r/9/9/pP6p/9/9/P3P1P1P/1CC6/9/3AKAB2 w - - 0 1",
        "b6c6 i9i8 c6b6 i8i9 b6c6 i9i8 c6b6 i8i9",
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(articles_at(&j, ply).contains(&"24.17".to_string()), "{j}");
    }
    assert_eq!(j["must_change"], "red", "{j}");
}

/// Interpretation `joint-chase-necessary` (2011 24.17; 26.8.2, 26.8.3): a moved piece that was
/// the screen of one cannon and becomes the screen of another, on another line, makes that
/// capture: a partner, whatever it screened before.
///
/// Black's horse steps from a6 (the screen of the cannon a9 against the rook a4) to b4, where it
/// is the screen of the cannon f4 against the same rook, and back. Each step makes a new capture
/// that needs the horse and a cannon: joint chases (24.17). With red's horse g4 chasing rooks
/// alone meanwhile, red, 单方长捉车, must change (26.8.2).
#[test]
fn a_screen_that_moves_onto_another_line_takes_part() {
    let j = judged(
        "cxa-2011",
        "c3k4/9/9/n8/9/R4c3/9/9/9/3K5 w - - 0 1",
        "d0d1 a6b4 d1d0 b4a6 d0d1 a6b4 d1d0 b4a6",
    );
    for ply in [6, 8] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(articles_at(&j, ply).contains(&"24.17".to_string()), "{j}");
    }
    let j = judged(
        "cxa-2011",
        "c1bk1a3/4a1r2/8n/n4rp1p/9/R4cN2/2P1P3P/1N7/9/2BAKA3 w - - 0 1",
        "g4h6 a6b4 h6g4 b4a6 g4h6 a6b4 h6g4 b4a6",
    );
    assert!(articles_at(&j, 6).contains(&"24.17".to_string()), "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    assert!(
        j["articles"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == "26.8.2")),
        "{j}"
    );
}

/// Reading `king-as-partner` (1999 27.1: 借帥(將)之力捉吃…均按捉處理; 2011 26.1.1, 24.17): a capture
/// that wins only because the facing kings forbid the recapture is made with the king's power.
///
/// Red's horse d3 steps to f2 and leaves black's horse d5 alone between the kings: it can no
/// longer take back on f6, and red's pawn g6 wins the cannon there (a pawn for the cannon would
/// be no gain). A chase under both rule sets (1999 citing 27.1, 2011 citing 26.1.1), and red,
/// chasing on both moves, must change; with red's king on e0 the pawn's attack wins nothing and
/// the step is idle. Under 2011 a king that steps between a cannon and its target is a partner
/// too (26.1.1): red's king takes turns as the screen of the cannons a1 and a0 against black's
/// horses, jointly, and black's rook, chasing singly, must change (26.8.3).
#[test]
fn a_capture_made_with_the_kings_power_is_a_chase() {
    let moves = "d3f2 g9i7 f2d3 i7g9 d3f2 g9i7 f2d3 i7g9";
    let pinned = "2bk1ab2/9/r8/p4cP1p/2cn5/9/3N4P/7C1/R3A4/3K2B2 w - - 0 1";
    let free = "2bk1ab2/9/r8/p4cP1p/2cn5/9/3N4P/7C1/R3A4/4K1B2 w - - 0 1";
    for (rules, article) in [("cxa-1999", "27.1"), ("cxa-2011", "26.1.1")] {
        let j = judged(rules, pinned, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "f6", "{rules} {j}");
        assert!(cites(&j, 5, article), "{rules} {j}");
        assert_eq!(j["must_change"], "red", "{rules} {j}");
        let j = judged(rules, free, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
    }
    let j = judged(
        "cxa-2011",
        "2b2kb2/1r2a4/5a3/9/9/2N6/1N2P4/9/C7n/C3K3n w - - 0 1",
        "e0e1 b8c8 e1e0 c8b8 e0e1 b8c8 e1e0 c8b8",
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(cites(&j, ply, "24.17"), "{j}");
    }
    assert_eq!(j["must_change"], "black", "{j}");
}

/// Interpretation `joint-line-of-checks`, 2011 26.7 (兵借其他子抽吃，按闲处理): a pawn that wins a
/// piece at the end of other pieces' checks is idle, although the line needs both.
///
/// Built from 2011 参考图16 (ply 3, printed 闲) by taking away what does not matter. Red's
/// cannon returns to b2 (ply 7): it can check along the last rank, and the pawn c8 then wins the
/// elephant. The gain is the pawn's (2011 26.1, 26.7; 1999 27.2): idle in both editions.
#[test]
fn a_pawn_that_takes_at_the_end_of_other_pieces_checks_is_idle() {
    let fen = "3ak4/2P1a4/4b4/9/9/9/1r7/1C7/9/5K3 w - - 0 1";
    let moves = "b2d2 b3d3 d2b2 d3b3 b2d2 b3d3 d2b2 d3b3";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 7), "idle", "{j2011}");
    assert!(
        articles_at(&j2011, 7).contains(&"26.7".to_string()),
        "{j2011}"
    );
    // 1999 reads 27.2's 本身 alike (exemption-by-capturer-1999): idle, citing 27.2.
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 7), "idle", "{j1999}");
    assert!(
        articles_at(&j1999, 7).contains(&"27.2".to_string()),
        "{j1999}"
    );
}

/// Interpretation `exchange-answers-capture-or-check` (24.3, concept A): a quiet double attack is
/// no answer to a capture; only captures, lines of checks and a threatened mate are.
///
/// Red's rook b3 steps to c3 (ply 5) and can take the unprotected horse c4. Black would answer
/// 车×马 by 马３进２ (c8b6), a fork of both red rooks (c4 and d5) that gives no check: red can
/// save one rook, at best by guarding the other, and black's horse then takes a rook for
/// itself, as much as the capture won. A fork is not among the article's answers: the step is
/// a chase under both rule sets (the advisor f9 shuffles; the rook's return is idle).
#[test]
fn a_capture_answered_only_by_a_fork_is_a_chase() {
    let fen = "3aka3/2n6/4b4/9/3R5/2n6/1R7/9/9/3K5 w - - 0 1";
    let moves = "b3c3 f9e8 c3b3 e8f9 b3c3 f9e8 c3b3 e8f9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "c4", "{rules}: {j}");
        assert_eq!(class_at(&j, 7), "idle", "{rules}: {j}");
    }
}

/// Interpretation `pinned-departure` (2011 26.5, 得不偿失): what a root's departure costs includes
/// a line of consecutive checks it lets the other side make (抽吃), as a capture it opens.
///
/// Red's rook on the first rank guards f1, where black's horse g3 would check and fork the king
/// d0 and the rook h2. From b1 the rook attacks the cannon b7, from c1 the cannon c6; taking
/// either leaves the first rank, and the fork wins the rook for the cannon: idle, citing 26.5
/// (2011), as when the departure opens a direct capture of that rook (the rook a2's line along
/// the second rank). The 1999 rules count a protector's chase whatever its departure costs
/// (棋例細則 4, 圖四): a chase both ways, red must change.
#[test]
fn a_line_of_checks_the_departure_opens_costs_the_chase() {
    let fork = "3akab2/9/1c2b4/2c6/9/9/6n2/7R1/2R6/3K5 w - - 0 1";
    let fork_moves = "c1b1 f9e8 b1c1 e8f9 c1b1 f9e8 b1c1 e8f9";
    let line = "3akab2/9/1c2b4/2c6/9/9/9/r1R4R1/9/3K5 w - - 0 1";
    let line_moves = "c2b2 f9e8 b2c2 e8f9 c2b2 f9e8 b2c2 e8f9";
    for (fen, moves) in [(fork, fork_moves), (line, line_moves)] {
        let j = judged("cxa-2011", fen, moves);
        for ply in [5, 7] {
            assert_eq!(class_at(&j, ply), "idle", "{j}");
            assert!(cites(&j, ply, "26.5"), "{j}");
        }
        assert_eq!(j["ruling"], "draw", "{j}");
        let j = judged("cxa-1999", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(class_at(&j, 7), "chase", "{j}");
        assert_eq!(j["must_change"], "red", "{j}");
    }
}

/// Interpretation `complete-exchange-any-square`, condition (3): a moved piece counts as the
/// move's own offer (献) only when the move put it en prise.
///
/// Red's rook a6 guards the cannon on d6 or c6 along the sixth rank, where black's rook f6
/// attacks it on either square, and attacks the unprotected horse a3: taking it gives the cannon
/// up for the horse, on either square alike (从捉到捉). The cannon's step c6-d6 was once read as
/// offering the cannon anew, so 车×a3 became a new chase and red had to change. Now c6d6 is idle
/// and the cycle a draw; d6c6 chases the rook f6 by a new line (c6-c9+ clears the rank for the
/// rook a6). With the black king shuttling away from the cannon's checks, both moves are idle.
#[test]
fn a_moved_piece_exposed_as_before_is_no_offer() {
    let moves = "d6c6 f9f8 c6d6 f8f9 d6c6 f9f8 c6d6 f8f9";
    let j = judged(
        "cxa-2011",
        "3a1k3/4a4/9/R2C1r3/9/9/n8/9/4A4/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(targets_at(&j, 5).contains(&"f6".to_string()), "{j}");
    assert_eq!(class_at(&j, 7), "idle", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let j = judged(
        "cxa-2011",
        "5k3/4a4/9/R2C1r3/9/9/n8/9/4A4/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert_eq!(class_at(&j, 7), "idle", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Interpretation `pinned-departure` (2011 26.5): what the other side "could win anyway" is
/// measured on the pieces the departure's line of checks wins. A standing threat to another
/// piece stays after the line and does not pay for it; one to the same piece does.
///
/// The fork of `a_line_of_checks_the_departure_opens_costs_the_chase` with a black horse i7 that
/// attacks red's cannon g6 (or horse g6) all along: the rook's departure from the first rank
/// still gives up its rook h2 to the fork for the cannon it takes, and black can take on g6
/// after the fork as before it: idle, citing 26.5. With a black rook h9 that attacks the rook h2
/// all along, the fork wins nothing black could not win anyway: a chase, red must change.
#[test]
fn a_standing_threat_to_another_piece_does_not_pay_for_the_departure() {
    let moves = "c1b1 f9e8 b1c1 e8f9 c1b1 f9e8 b1c1 e8f9";
    for fen in [
        "3akab2/9/1c2b3n/2c3C2/9/9/6n2/7R1/2R6/3K5 w - - 0 1",
        "3akab2/9/1c2b3n/2c3N2/9/9/6n2/7R1/2R6/3K5 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        for ply in [5, 7] {
            assert_eq!(class_at(&j, ply), "idle", "{j}");
            assert!(cites(&j, ply, "26.5"), "{j}");
        }
        assert_eq!(j["ruling"], "draw", "{j}");
    }
    let j = judged(
        "cxa-2011",
        "3akabr1/9/1c2b3n/2c3C2/9/9/6n2/7R1/2R6/3K5 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
}

/// Interpretation `pinned-departure` (2011 26.5): a capture the departure opens costs the chase
/// only what the other side could not win of that piece anyway.
///
/// Red's cannon c2 stands between black's rook a2 and red's rook h2 (as in 图23); from e2 it
/// attacks the horse e7 over the pawn e5, from c2 the elephant c5 over the pawn c4, and taking
/// either opens the second rank to the rook a2. Black's horse g4 attacks the rook h2 all along:
/// the rook is lost whether or not the cannon takes, so taking costs nothing (价值相当或得子), a
/// chase both ways, red must change. Without that horse the departure loses the rook for a horse
/// or an elephant (但要丢车): idle, a draw (citing 26.5 for the elephant; the horse's capture is
/// also won back level by the rook's checks, no gain by 24.3).
#[test]
fn a_piece_lost_anyway_does_not_make_the_departure_cost() {
    let moves = "c2e2 f9e8 e2c2 e8f9 c2e2 f9e8 e2c2 e8f9";
    let j = judged(
        "cxa-2011",
        "3aka3/9/4n4/9/2b1p4/2p3n2/9/r1C4R1/9/3K5 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let j = judged(
        "cxa-2011",
        "3aka3/9/4n4/9/2b1p4/2p6/9/r1C4R1/9/3K5 w - - 0 1",
        moves,
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "idle", "{j}");
    }
    // (at e7 the cannon is also won back, level, by the rook's checks from a0: no gain by 24.3
    // before 26.5 is asked)
    assert!(cites(&j, 7, "26.5"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Interpretations `capture-answered-by-checks` and `pinned-departure` (2011 26.5, 26.6): a
/// crossed pawn won for a piece other than a rook is level, also when the piece is lost to a line
/// of checks that would take the capturer after a poor reply.
///
/// Red's rook on the first rank guards f1, where black's horse g3 would check and fork the king
/// d0 and the cannon h2. From b1 it attacks the crossed pawn b3: after 车×b3, 马f1+ wins the
/// cannon against the best defence (帅e0? 马d2+ would fork the king and the rook b3). A pawn for a
/// cannon is level (兵卒价值浮动): a chase citing 26.5 and 26.6, red must change, as with the
/// pawn on b4, out of the horse's reach.
#[test]
fn a_pawn_won_for_a_piece_by_a_line_of_checks_is_level() {
    let moves = "c1b1 f9e8 b1c1 e8f9 c1b1 f9e8 b1c1 e8f9";
    for (fen, pawn) in [
        ("3akab2/9/4b4/2c6/9/9/1p4n2/7C1/2R6/3K5 w - - 0 1", "b3"),
        ("3akab2/9/4b4/2c6/9/1p7/6n2/7C1/2R6/3K5 w - - 0 1", "b4"),
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], pawn, "{j}");
        assert!(cites(&j, 5, "26.5") && cites(&j, 5, "26.6"), "{j}");
        assert_eq!(j["must_change"], "red", "{j}");
    }
}

/// Interpretation `capture-answered-by-checks`, second part (24.3, the complete exchange): a
/// line of consecutive checks that the move lets the other side make answers the capture it
/// threatens, as a piece the move leaves en prise does.
///
/// Red's horse d2 guards f1, where black's horse g3 would check and fork the king d0 and the rook
/// h2. Its step to c4 attacks the unprotected cannon e5 but gives up f1: taking the cannon (2)
/// costs the rook (4), so the step is idle, in both editions (29.1 is 24.3's text). With the rook
/// on i2, out of the fork, the step is a chase.
#[test]
fn a_forking_check_the_move_allows_answers_the_capture() {
    let moves = "d2c4 f9e8 c4d2 e8f9 d2c4 f9e8 c4d2 e8f9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(
            rules,
            "3akab2/9/4b4/9/4c4/9/6n2/3N3R1/9/3K5 w - - 0 1",
            moves,
        );
        assert_eq!(class_at(&j, 5), "idle", "{rules}: {j}");
        let j = judged(
            rules,
            "3akab2/9/4b4/9/4c4/9/6n2/3N4R/9/3K5 w - - 0 1",
            moves,
        );
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "e5", "{rules}: {j}");
    }
}

/// Interpretation `pinned-departure` (2011 26.5 做根子捉子, with 26.6): a root piece that chases
/// is judged by what its departure costs, the piece it stops guarding included; a crossed pawn
/// for one piece other than a rook is level.
///
/// Red's rook h4 guards the horse c4, which black's rook attacks. Its step to g4 (ply 5) threatens
/// a piece in front of it; taking it leaves the horse to black's rook. An elephant for the horse
/// is a loss (得不偿失): idle, citing 26.5. A crossed pawn for the horse is level (26.6, as 图22):
/// a chase, citing 26.5 and 26.6.
#[test]
fn a_root_that_chases_at_a_loss_is_idle_unless_a_pawn_for_a_piece() {
    let moves = "h4g4 c8c7 g4h4 c7c8 h4g4 c8c7 g4h4 c7c8";
    let elephant = judged(
        "cxa-2011",
        "3aka3/2r1n4/9/9/6b2/2N4R1/9/9/9/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&elephant, 5), "idle", "{elephant}");
    assert!(cites(&elephant, 5, "26.5"), "{elephant}");
    let pawn = judged(
        "cxa-2011",
        "3aka3/2r1n4/9/9/9/2N4R1/6p2/9/9/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&pawn, 5), "chase", "{pawn}");
    assert_eq!(cycle_move(&pawn, 5)["targets"][0], "g3", "{pawn}");
    for art in ["26.5", "26.6"] {
        assert!(articles_at(&pawn, 5).contains(&art.to_string()), "{pawn}");
    }
}

/// Interpretation `pinned-departure` (2011 26.5 做根子捉子): 26.5 judges every capture the move
/// makes, also that of a root whose line the move opens; a capture that stood before the move is
/// judged by the complete exchange.
///
/// Red's rook g1 guards the horse c1, which black's rook c8 attacks. Red's horse steps off the
/// g-file (ply 5) and the rook now attacks an unprotected piece on it; taking it gives up the
/// horse c1. A horse for the horse is level (价值相当): a chase citing 26.5, and with a second
/// chase on ply 7 red must change. An elephant for the horse is a loss (得不偿失): idle, citing
/// 26.5, a draw. With the file open from the start, the rook's capture stands; the horse c1
/// stepping out of the attack takes its cost away (a new chase, as 图12's cannon), and stepping
/// back is idle.
#[test]
fn a_root_whose_line_the_move_opens_is_judged_by_its_departure() {
    let j = judged(
        "cxa-2011",
        "3ak4/2r1a1n2/8b/4p4/7c1/9/4P1N2/4B4/2N3R2/3AKA3 w - - 0 1",
        "g3i4 i7g9 i4g3 g9i7 g3i4 i7g9 i4g3 g9i7",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g8", "{j}");
    assert!(cites(&j, 5, "26.5"), "{j}");
    assert_eq!(j["ruling"], "red_loses", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let moves = "g3h5 e8f7 h5g3 f7e8 g3h5 e8f7 h5g3 f7e8";
    let horse = judged(
        "cxa-2011",
        "3ak4/2r1a4/9/4p4/6n2/9/4P1N2/4B4/2N3R2/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&horse, 5), "chase", "{horse}");
    assert_eq!(cycle_move(&horse, 5)["targets"][0], "g5", "{horse}");
    assert!(cites(&horse, 5, "26.5"), "{horse}");
    let elephant = judged(
        "cxa-2011",
        "3ak4/2r1a4/9/4p4/6b2/9/4P1N2/4B4/2N3R2/3AKA3 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&elephant, 5), "idle", "{elephant}");
    assert!(cites(&elephant, 5, "26.5"), "{elephant}");
    assert_eq!(elephant["ruling"], "draw", "{elephant}");
    let standing = judged(
        "cxa-2011",
        "3ak4/2r1a4/9/4p4/6n2/9/4P3N/4B4/2N3R2/3AKA3 w - - 0 1",
        "c1b3 e8f7 b3c1 f7e8 c1b3 e8f7 b3c1 f7e8",
    );
    assert_eq!(class_at(&standing, 5), "chase", "{standing}");
    assert_eq!(cycle_move(&standing, 5)["targets"][0], "g5", "{standing}");
    assert!(!cites(&standing, 5, "26.5"), "{standing}");
    assert_eq!(class_at(&standing, 7), "idle", "{standing}");
}

/// Readings `capture-answered-by-checks` and `pinned-departure` (24.3, 26.5): a line of checks
/// that wins the capturer back counts it once.
///
/// Red's cannon steps to b3, between black's rook b9 and red's horse b0, and attacks over the pawn
/// c3 the rook h3, which black's horse g5 protects. Taking it (+4) lets black take the horse b0
/// with check and, after the forced block, the cannon: a rook for a horse and a cannon, level
/// (价值相当): a chase citing 26.5, whether the horse a1 or a5 protects the cannon. With a horse
/// on h3 instead of the rook, the same line wins more than the capture (得不偿失): idle.
#[test]
fn a_line_that_wins_the_capturer_back_counts_it_once() {
    let moves = "b2b3 g9i7 b3b2 i7g9 b2b3 g9i7 b3b2 i7g9";
    for fen in [
        "1r2kab2/4a4/9/9/6n2/9/2P4r1/1C7/N3A4/1N2KAB2 w - - 0 1",
        "1r2kab2/4a4/9/9/N5n2/9/2P4r1/1C7/4A4/1N2KAB2 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "h3", "{j}");
        assert!(cites(&j, 5, "26.5"), "{j}");
    }
    let horse = judged(
        "cxa-2011",
        "1r2kab2/4a4/9/9/6n2/9/2P4n1/1C7/N3A4/1N2KAB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&horse, 5), "idle", "{horse}");
}

/// Reading `exchange-offer-not-chase` (24.4, 26.4, 26.6): a line of checks that starts by taking
/// the piece offered in exchange is the exchange; one that wins it later, keeping the offering
/// piece, is a chase (兑兼捉).
///
/// Red's rook steps to e3, facing black's rook e8, which the king protects: an offer. It also
/// prepares 兵c9-d9+, 将xd9, 车xe8: the pawn given for the rook (主动送兵换车, 26.6). A chase
/// (26.4), and with the kill of its other move red must change. With a cannon on e8 the same
/// line wins a cannon for the pawn, no gain (26.6): idle, a draw.
#[test]
fn a_line_that_wins_the_offered_partner_later_is_a_chase() {
    let moves = "d3e3 h7h8 e3d3 h8h7 d3e3 h7h8 e3d3 h8h7";
    let rook = judged(
        "cxa-2011",
        "2P1k1b2/4r4/7c1/p1p3p1p/9/9/P2R2P2/2N6/4A4/2B2KB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&rook, 5), "chase", "{rook}");
    assert_eq!(cycle_move(&rook, 5)["targets"][0], "e8", "{rook}");
    assert!(cites(&rook, 5, "26.4"), "{rook}");
    assert_eq!(rook["ruling"], "red_loses", "{rook}");
    assert_eq!(rook["must_change"], "red", "{rook}");
    let cannon = judged(
        "cxa-2011",
        "2P1k1b2/4c4/7c1/p1p3p1p/9/9/P2R2P2/2N6/4A4/2B2KB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&cannon, 5), "idle", "{cannon}");
    assert_eq!(cannon["ruling"], "draw", "{cannon}");
}

/// Reading `capture-answered-by-checks` (24.3 得子): a line of checks that wins the capturer back
/// and ends level answers the capture as a recapture that ends level does, unless the capture
/// opened it (26.5, `a_line_that_wins_the_capturer_back_counts_it_once`).
///
/// Red's horse steps to f4 and attacks the cannon d3. Taking it lets black's horse a2 check from
/// c1 (the advisor d2 blocks the horse's way back to c1) and take the horse on d3: a cannon for
/// a horse, idle, as with a black horse on e5 that simply takes back.
#[test]
fn a_level_line_that_wins_the_capturer_back_wins_nothing() {
    let moves = "h3f4 c9e7 f4h3 e7c9 h3f4 c9e7 f4h3 e7c9";
    for (rules, fen) in [
        (
            "cxa-2011",
            "1rba1kb2/4a4/9/p3p3p/9/P1P5P/3c3N1/n2A5/9/4KAB2 w - - 0 1",
        ),
        (
            "cxa-1999",
            "1rba1kb2/4a4/9/p3p3p/9/P1P5P/3c3N1/n2A5/9/4KAB2 w - - 0 1",
        ),
        (
            "cxa-2011",
            "1rba1kb2/4a4/9/p3p3p/4n4/P1P5P/3c3N1/3A5/9/4KAB2 w - - 0 1",
        ),
    ] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {fen}: {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {fen}: {j}");
    }
}

/// Readings `key-point-2011` (26.2) and `defensive-key-point` (1999 27.3): the key-point
/// exception belongs to the side holding out for a draw (守和方), the one whose opponent attacks
/// with more, or with as much and has at least as much material in all.
///
/// Red's last attacking piece, a rook, steps between c6 and g6, each time newly attacking an
/// unprotected elephant (c5, g5). Against a black rook (4 against 4, and 6 against 6 in all) red
/// is the defending side and the attacks are incidental: idle, citing 26.2 (27.3), a draw. Against a crossed pawn, or with
/// nothing to attack with, black cannot be the side pressing for the win: red's moves are chases
/// and red, alone perpetually chasing, must change.
#[test]
fn the_key_point_exception_belongs_to_the_defending_side() {
    let rook = "3k5/8r/9/2R6/2b3b2/9/9/9/4A4/3AK4 w - - 0 1";
    let rook_moves = "c6g6 i8i7 g6c6 i7i8 c6g6 i8i7 g6c6 i7i8";
    let pawn = "3k5/9/9/2R6/2b3b2/9/9/p8/4A4/3AK4 w - - 0 1";
    let pawn_moves = "c6g6 a2b2 g6c6 b2a2 c6g6 a2b2 g6c6 b2a2";
    let bare = "3k5/9/9/2R6/2b3b2/9/9/9/4A4/3AK4 w - - 0 1";
    let bare_moves = "c6g6 d9e9 g6c6 e9d9 c6g6 d9e9 g6c6 e9d9";
    for (rules, article) in [("cxa-2011", "26.2"), ("cxa-1999", "27.3")] {
        let j = judged(rules, rook, rook_moves);
        for ply in [5, 7] {
            assert_eq!(class_at(&j, ply), "idle", "{rules} {j}");
            assert!(cites(&j, ply, article), "{rules} {j}");
        }
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
        for (fen, moves) in [(pawn, pawn_moves), (bare, bare_moves)] {
            let j = judged(rules, fen, moves);
            for (ply, target) in [(5, "g5"), (7, "c5")] {
                assert_eq!(class_at(&j, ply), "chase", "{rules} {j}");
                assert_eq!(cycle_move(&j, ply)["targets"][0], target, "{rules} {j}");
                assert!(!cites(&j, ply, article), "{rules} {j}");
            }
            assert_eq!(j["ruling"], "red_loses", "{rules} {j}");
            assert_eq!(j["must_change"], "red", "{rules} {j}");
        }
    }
}

/// Reading `key-point-2011` (26.2; 1999 27.3 and 圖十六, "黑方砲不離位固守防御…附帶产生的捉士捉相，
/// 按閒著處理"): the balance of forces that names the defending side counts a crossed pawn at its
/// ordinary worth (an advisor's), not at the floating value of an exchange, and, when the attacking
/// pieces weigh the same, the rest of the material.
///
/// Black's lone cannon, with its advisors, holds out against three crossed pawns while red's king
/// steps up and back; each cannon move newly attacks an unprotected advisor or elephant: idle,
/// citing 26.2 (27.3), a draw. Against one crossed pawn (worth less than the cannon) the same moves
/// are chases and black must change. Rook against rook, red with both advisors and both elephants
/// against a lone advisor: red is the stronger side, and its rook's new attack on the advisor is a
/// chase, not an incidental one.
#[test]
fn the_defending_side_is_weighed_by_ordinary_worth_and_all_material() {
    let pawns = "3akab2/9/3c5/4pP3/3P2P2/9/2P6/3A5/9/2B1KAB2 w - - 0 1";
    let one_pawn = "3akab2/9/3c5/4p4/3P5/9/2P6/3A5/9/2B1KAB2 w - - 0 1";
    let cannon_moves = "e0e1 d7c7 e1e0 c7d7 e0e1 d7c7 e1e0 c7d7";
    let rooks = "9/4k2r1/5a3/9/9/6R2/9/4B4/4A4/2BAK4 w - - 0 1";
    let rook_moves = "g4f4 h8h7 f4g4 h7h8 g4f4 h8h7 f4g4 h7h8";
    for (rules, article) in [("cxa-2011", "26.2"), ("cxa-1999", "27.3")] {
        let j = judged(rules, pawns, cannon_moves);
        for ply in [6, 8] {
            assert_eq!(class_at(&j, ply), "idle", "{rules} {j}");
            assert!(cites(&j, ply, article), "{rules} {j}");
        }
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
        let j = judged(rules, one_pawn, cannon_moves);
        for (ply, target) in [(6, "c0"), (8, "d2")] {
            assert_eq!(class_at(&j, ply), "chase", "{rules} {j}");
            assert_eq!(cycle_move(&j, ply)["targets"][0], target, "{rules} {j}");
        }
        assert_eq!(j["must_change"], "black", "{rules} {j}");
        let j = judged(rules, rooks, rook_moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "f7", "{rules} {j}");
        assert!(!cites(&j, 5, article), "{rules} {j}");
    }
}

/// 2011 24.5 (献) names no kind of taker ("凡无根子送吃，而对方一旦吃掉此子后…"), where 1999 28.6
/// named one of the same type (對方同兵種子): terms.yaml `taker` / `taker_2011`.
///
/// Red's unprotected horse steps to g2, where black's cannon g9 can take it over the pawn g6 at
/// no cost: an offer under 2011, citing 24.5; a plain idle move under 1999. With black's horse on
/// f4 instead as the only taker (red's pawn g3 blocks the red horse's leg, so that the two do not
/// attack each other, which would be an exchange), both editions call it an offer.
#[test]
fn an_offer_may_be_taken_by_a_piece_of_another_kind_under_2011() {
    let moves = "h0g2 e9e8 g2h0 e8e9 h0g2 e9e8 g2h0 e8e9";
    let cannon = "4k1c2/9/9/6p2/9/9/9/9/9/3K3N1 w - - 0 1";
    let j = judged("cxa-2011", cannon, moves);
    assert_eq!(class_at(&j, 5), "offer", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g9", "{j}");
    assert!(cites(&j, 5, "24.5"), "{j}");
    let j = judged("cxa-1999", cannon, moves);
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    let horse = "4k4/9/9/9/9/5n3/6P2/9/9/3K3N1 w - - 0 1";
    for (rules, article) in [("cxa-2011", "24.5"), ("cxa-1999", "28.6")] {
        let j = judged(rules, horse, moves);
        assert_eq!(class_at(&j, 5), "offer", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "f4", "{rules} {j}");
        assert!(cites(&j, 5, article), "{rules} {j}");
    }
}

/// Reading `newness-in-context`, part (4) (2011 24.18 and 26.3, 自毙): a mate that follows every
/// answer to a check was laid open by the check itself; a non-king answer that keeps only such a
/// mate makes no new kill.
///
/// Red's rook on b4 guards d4 against 车h5-d5, which would mate the bare king d0. Its check from
/// b9 leaves that guard: after any answer (the elephant's block on c9 or a king step), black mates
/// with 车h5-d5. Under 2011 the block is no kill (an offer of the elephant, citing 26.1.2 and 26.3),
/// so black, one kill and one idle move, is allowed: a draw. The 1999 rules count the block as a
/// kill: black kills perpetually and must change.
#[test]
fn a_mate_the_check_laid_open_is_no_new_kill_of_the_block() {
    let fen = "4k4/9/b8/9/7r1/1R7/9/9/9/3K5 w - - 0 1";
    let moves = "b4b9 a7c9 b9b4 c9a7 b4b9 a7c9 b9b4 c9a7";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 6), "offer", "{j2011}");
    assert!(cites(&j2011, 6, "26.3"), "{j2011}");
    assert_eq!(class_at(&j2011, 8), "kill", "{j2011}");
    assert_eq!(j2011["ruling"], "draw", "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 6), "kill", "{j1999}");
    assert_eq!(j1999["ruling"], "black_loses", "{j1999}");
    assert_eq!(j1999["must_change"], "black", "{j1999}");
}

/// Reading `exemption-by-capturer`, 2011 26.7 second sentence (兵（卒）吃子时产生其他子"将军"，
/// 按"捉"处理): a pawn's capture that gives another piece's check is a chase.
///
/// Red's pawn e6 attacks the horse d6, which black's rook a6 guards: a pawn for a horse is no
/// gain (26.6). Red's rook steps from g2 to e2, behind the pawn: the pawn's capture now checks the
/// king from e2, black cannot take back, and the horse is won: a chase under 2011, citing 26.7,
/// and under 1999, citing 27.2 (兵本身捉吃…不含將: the capture checks; reading
/// `exemption-by-capturer-1999`).
#[test]
fn a_pawn_capture_that_gives_another_pieces_check_is_a_chase() {
    let fen = "4k4/9/9/r2nP4/9/p8/9/6R2/9/3K5 w - - 0 1";
    let moves = "g2e2 a4b4 e2g2 b4a4 g2e2 a4b4 e2g2 b4a4";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "chase", "{j2011}");
    assert_eq!(cycle_move(&j2011, 5)["targets"][0], "d6", "{j2011}");
    assert!(cites(&j2011, 5, "26.7"), "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 5), "chase", "{j1999}");
    assert!(cites(&j1999, 5, "27.2"), "{j1999}");
}

/// 2011 26.9, first sentence (同兵种邀兑，被邀兑方兑子后立即被杀或子力价值受损，邀兑方按"捉"处理):
/// an exchange of pieces of one kind that the target cannot accept is a chase of the target,
/// whatever the capture alone would win (reading `pinned-target-cannot-accept`).
///
/// Red's rook b2 steps to a2 (guarded by the horse b0) and offers itself to black's rook a8
/// (guarded by the rook a9). Black's king cannot move, and the rook a8 alone keeps the red horse
/// h6 from mating on g8: taking on a2 lets it mate at once. Red's own capture on a8 is level (the
/// rook a9 takes back), so only 26.9 makes the offer a chase: with the return a2-b2, which
/// chases the unprotected horse b7, red chases perpetually and must change. Without the horse
/// h6 black may accept: the offer is an exchange (兑), and the game a draw. The 1999 rules have
/// no 26.9: an exchange either way.
#[test]
fn an_exchange_the_target_cannot_accept_is_a_chase() {
    let moves = "b2a2 i3i2 a2b2 i2i3 b2a2 i3i2 a2b2 i2i3";
    let mate = "r2aka3/r8/1n2P4/7N1/9/9/8c/1R7/9/1N2K4 w - - 0 1";
    let free = "r2aka3/r8/1n2P4/9/9/9/8c/1R7/9/1N2K4 w - - 0 1";
    let j = judged("cxa-2011", mate, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "a8", "{j}");
    assert!(cites(&j, 5, "26.9"), "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(j["ruling"], "red_loses", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let j = judged("cxa-2011", free, moves);
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert!(!cites(&j, 5, "26.9"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    for fen in [mate, free] {
        let j = judged("cxa-1999", fen, moves);
        assert_eq!(class_at(&j, 5), "exchange", "{j}");
        assert_eq!(j["ruling"], "draw", "{j}");
    }
}

/// Reading `joint-chase-necessary` (24.3 所走动子…与其他子联合吃子, 24.17): the piece that has just
/// moved and is the screen (炮架) of the capturing cannon takes part in a joint chase; a screen
/// that stood there before the move serves only by its point (参考图33).
///
/// Red's rook chases black's unprotected horse on c5 and a4 in turn (长捉无根子). Black's horse
/// steps to a4 and back to c5, each time the screen of its cannon a5 against an unprotected red
/// horse (a2, then f5); the horse itself takes neither. Black's chases are joint (24.17), so
/// 26.8.3 makes red, the single chaser, change. With a pawn standing on a4 as the screen and the
/// cannon moving to a5 itself, the chase of the horse a2 is single.
#[test]
fn a_moved_screen_takes_part_a_standing_screen_does_not() {
    let moved = "3aka3/9/9/9/c1n2N3/3R5/9/N8/4A4/3AK4 w - - 0 1";
    let j = judged("cxa-2011", moved, "d4d5 c5a4 d5d4 a4c5 d4d5 c5a4 d5d4 a4c5");
    for (ply, target) in [(6, "a2"), (8, "f5")] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert_eq!(cycle_move(&j, ply)["targets"][0], target, "{j}");
        assert!(cites(&j, ply, "24.17"), "{j}");
    }
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(!cites(&j, ply, "24.17"), "{j}");
    }
    assert_eq!(j["ruling"], "red_loses", "{j}");
    assert!(
        j["articles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "26.8.3"),
        "{j}"
    );
    let standing = "3aka3/9/9/9/1c7/p8/9/N8/4A4/3AK4 b - - 0 1";
    let j = judged(
        "cxa-2011",
        standing,
        "b5a5 e0f0 a5b5 f0e0 b5a5 e0f0 a5b5 f0e0",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "a2", "{j}");
    assert!(!cites(&j, 5, "24.17"), "{j}");
}

/// Readings `joint-line-of-checks` and `newness-in-context` (2011 26.1.2): the piece that has
/// just moved takes part in a line of checks only by what it does in the line; a block that
/// only shields its own king from the check is no partner, so it renews no standing threat.
///
/// Black's horse c3 threatens to fork red's king and the cannon g3 from e2. Red's rook checks
/// from f5 and black's advisor blocks on f7: the fork stood before the check (the check only
/// interrupted it), so the block is no chase; it puts the advisor where the rook takes it (獻)
/// and cites 26.1.2.
#[test]
fn a_block_that_shields_its_king_takes_no_part() {
    let j = judged(
        "cxa-2011",
        "5k3/4a4/9/9/7R1/9/2n1P1C2/9/9/3K5 w - - 0 1",
        "h5f5 e8f7 f5h5 f7e8 h5f5 e8f7 f5h5 f7e8",
    );
    assert_eq!(class_at(&j, 5), "check", "{j}");
    assert_eq!(class_at(&j, 6), "offer", "{j}");
    assert!(cites(&j, 6, "26.1.2"), "{j}");
    assert!(!cites(&j, 6, "24.17"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Reading `answer-that-checks-back` (24.3: a line of consecutive checks wins only what the
/// checker keeps against the best defence): when the defender answers a check with a check of
/// its own, the checker must answer it before it can go on; what it then loses counts against
/// the line.
///
/// (图7 without black's advisor d9.) Black's rook h8 could take the cannon h0 with check, but red
/// blocks with the rook f8-f0, which uncovers the horse's check from g8; black's king must step
/// to d9 and the rook f0 takes the rook h0. The line loses the rook for the cannon, so the rook's
/// moves only stand in the way of red's kill (拦), as in the book's 图7 (不能离线吃炮). Red kills
/// on every move and must change.
#[test]
fn an_answer_that_checks_back_wins_the_line_back() {
    let fen = "2b1k1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1";
    let j = judged("cxa-2011", fen, "i0h0 i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8");
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "kill", "{j}");
    }
    for ply in [6, 8] {
        assert_eq!(class_at(&j, ply), "block", "{j}");
    }
    assert_eq!(j["ruling"], "red_loses", "{j}");
}

/// Reading `pinned-target-cannot-accept` (2011 26.9: 被邀兑方兑子后…子力价值受损，邀兑方按"捉"处理),
/// the loss counted over the complete exchange (24.3): a line of consecutive checks that wins the
/// taker back is an answer to the acceptance, as a recapture is.
///
/// (From 图17 ply 3, "如黑方吃车则双车尽失".) Red's rook b5 offers itself to the rook c7 on b7. If
/// the rook c7 takes, the rook b0 takes back with check along the seventh rank and then wins
/// the rook h7 or the horse a8: accepting loses value, so the offer is a chase citing 26.9. With
/// black's king on the eighth rank the recapture is no check, the rook h7 takes back in turn,
/// and the offer is an exchange (兑).
#[test]
fn an_exchange_that_a_check_wins_back_is_a_chase() {
    let moves = "b5b7 e8f9 b7b5 f9e8 b5b7 e8f9 b7b5 f9e8";
    let j = judged(
        "cxa-2011",
        "9/n3a4/2rk3r1/9/1R7/9/9/9/4A4/1R1AK4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "c7", "{j}");
    assert!(cites(&j, 5, "26.9"), "{j}");
    let j = judged(
        "cxa-2011",
        "9/n2ka4/2r4r1/9/1R7/9/9/9/4A4/1R1AK4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert!(!cites(&j, 5, "26.9"), "{j}");
}

/// Readings `pinned-target-cannot-accept` and `exemption-by-capturer` (2011 26.1: 帅（将）、兵（卒）
/// 本身允许长捉): a move that keeps a piece pinned renews a standing threat to it as a joint
/// chase only if some piece other than the king (or a pawn) takes it; a threat only the king or
/// only a pawn carries out stays theirs.
///
/// Black's cannon pins red's horse e7 to red's king along the e-file and shuttles between e9 and
/// e8; only black's king (first position) or black's pawn (second) can take the horse. The
/// cannon's moves are idle (the threat stood before: 從捉到捉), and the game is drawn.
#[test]
fn a_pinned_piece_only_the_king_or_a_pawn_takes_is_no_chase_of_the_pinner() {
    for (fen, moves) in [
        (
            "4c4/9/3kN4/9/9/9/4P4/9/4K4/2B6 b - - 0 1",
            "e9e8 c0a2 e8e9 a2c0 e9e8 c0a2 e8e9 a2c0",
        ),
        (
            "4c4/3k5/9/9/9/3pN4/9/4B4/4K4/R8 b - - 0 1",
            "e9e8 a0a1 e8e9 a1a0 e9e8 a0a1 e8e9 a1a0",
        ),
    ] {
        let j = judged("cxa-2011", fen, moves);
        for ply in [5, 7] {
            assert_eq!(class_at(&j, ply), "idle", "{j}");
            assert!(!cites(&j, ply, "26.9"), "{j}");
        }
        assert_eq!(j["ruling"], "draw", "{j}");
    }
}

/// Reading `newness-in-context`, fourth part (2011 24.18, 26.3: 一方形成"自毙"，应由己方负责，不得视为
/// 另一方造成): a mate that follows the king's answer to a check was laid open by the check, so it
/// is no new kill of another answer, even when a third answer would close it.
///
/// (图13 with the advisor's block as black's answer.) Red's rook checks from d6 and so opens
/// black's mate 车5平6 (e4f4). The king's step to e9 leaves that mate; the cannon's block on d7
/// closes it; the advisor's block on d7 leaves it. The advisor's block is therefore no kill: it
/// offers the advisor (献), citing 26.1.2 and 26.3. (The earlier reading asked for a mate after
/// every answer, and the cannon's block made the advisor's a kill.)
#[test]
fn a_mate_the_check_laid_open_stays_the_checkers_fault_after_any_block() {
    let fen = "3k1ab2/4a4/4c4/4R3p/3PC4/4r4/8P/9/9/5K3 w - - 0 1";
    let j = judged("cxa-2011", fen, "e6d6 e8d7 d6e6 d7e8 e6d6 e8d7 d6e6 d7e8");
    assert_eq!(class_at(&j, 5), "check", "{j}");
    assert_ne!(class_at(&j, 6), "kill", "{j}");
    assert!(cites(&j, 6, "26.3"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// 2011 26.10.2, second sentence (车方增加其他参与子力并产生新的兑兼捉，判"捉"), read as the
/// generalised 26.10 of reading `exchange-offer-not-chase`: a joint attack on a protected piece
/// that can take an equal attacker at no cost is an exchange offer, unless the gain needs a piece
/// besides that partner and one other.
///
/// Black's horse c5 (guarded by the elephant e7) and red's horse e4 (guarded by the pawn e3)
/// attack each other; red's cannon comes to c1 behind the screen c3. With the rook h5 as a third
/// attacker (black's rook c9 a second guard) the complete exchange gains (cannon, horse and rook
/// are each needed): a chase, citing 26.10. With the cannon and the horse alone it gains too, but
/// the horse c5 can take the horse e4 instead: an exchange. With the cannon and the rook alone
/// (no red horse) nothing is won: a follow.
#[test]
fn a_third_attacker_added_to_an_exchange_makes_a_chase() {
    let moves = "b1c1 d9e8 c1b1 e8d9 b1c1 d9e8 c1b1 e8d9";
    let three = "2rakab2/9/4b4/9/2n4R1/4N4/2P1P4/9/1C7/4K4 w - - 0 1";
    let two = "3akab2/9/4b4/9/2n6/4N4/2P1P4/9/1C7/4K4 w - - 0 1";
    let no_horse = "2rakab2/9/4b4/9/2n4R1/9/2P1P4/9/1C7/4K4 w - - 0 1";
    let j = judged("cxa-2011", three, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "c5", "{j}");
    assert!(cites(&j, 5, "26.10") && cites(&j, 5, "24.17"), "{j}");
    let j = judged("cxa-2011", two, moves);
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert!(!cites(&j, 5, "26.10"), "{j}");
    let j = judged("cxa-2011", no_horse, moves);
    assert_eq!(class_at(&j, 5), "follow", "{j}");
}

/// Reading `won-against-the-best-defence` (2011 24.3, 26.6): when the best answers to a check
/// lose nothing after the piece the check takes, that piece is what the line wins; a pawn that
/// has not crossed the river so won is no gain (捉吃未过河的兵（卒）…也不算得子), and the pieces
/// lost only after a worse answer are not won.
///
/// After 马d4-f5 red's cannon e2 can take the pawn e6 with check (screen e3, then through the
/// cannon e7); an advisor's block loses nothing more, and only worse answers lose the rook a9.
/// The horse move is idle (it was named a chase of the rook a9, making red's cycle a perpetual
/// chase); black's rook b3 chases the horse and offers itself: a draw.
#[test]
fn a_check_that_wins_only_an_uncrossed_pawn_chases_nothing() {
    let fen = "r3kab2/9/4c4/4p4/9/3N5/1r2P4/4C4/9/3AK4 w - - 0 1";
    let moves = "d4f5 b3b5 f5d4 b5b3 d4f5 b3b5 f5d4 b5b3";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(class_at(&j, 6), "chase", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
    }
}

/// 2011 26.1.1 (1999 27.1, second sentence, for the king): a pawn or king move after which
/// another piece makes a new chase is a chase, and cites the article.
///
/// Red's pawn e5 steps to d5 and frees the leg e5 of the horse e4, which now attacks the
/// unprotected cannon f6.
#[test]
fn a_pawn_move_that_lets_another_piece_chase_cites_26_1_1() {
    let fen = "4k4/9/9/5c3/4P4/4N4/9/9/9/3K5 w - - 0 1";
    let moves = "e5d5 e9e8 d5e5 e8e9 e5d5 e9e8 d5e5 e8e9";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "f6", "{j}");
    assert!(cites(&j, 5, "26.1.1"), "{j}");
}

/// Reading `grave-joint` (2011 26.8.1-26.8.4): 26.8.2 and 26.8.3 name a side whose chase is
/// joint; a side that makes a grave pattern of its own with single pieces is not that side. When
/// both sides chase unprotected pieces with single pieces on every move, a joint chase made by
/// one of them besides changes nothing: both are grave and the game is drawn (26.8.4), whichever
/// side is red (the colour swap is judged alike by `judged`).
///
/// Red's rook chases the unprotected elephants c9 and e7 and the cannon f6 in turn (the cannon
/// jointly as well); black's rook chases red's unprotected elephants g0 and c0 and horse d3, and
/// once the advisor f0 jointly by a line of checks besides. Before this reading, the side whose
/// chase was joint on one move made the other change (26.8.3), and the colour swap turned it.
#[test]
fn a_side_grave_with_single_pieces_is_no_joint_chaser_of_26_8_3() {
    let fen = "2bak4/5RC2/4b4/5cp1p/3N1n3/9/2PN2P1P/2r5n/9/2BAKAB2 w - - 0 1";
    let cycle = "f8c8 c2g2 c8d8 g2d2 d8f8 d2c2";
    let j = judged("cxa-2011", fen, &format!("{cycle} {cycle}"));
    let joint_somewhere = (7..=12).any(|ply| cites(&j, ply, "24.17"));
    assert!(joint_somewhere, "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let articles = j["articles"].as_array().unwrap();
    assert!(articles.iter().any(|a| a == "26.8.4"), "{j}");
    assert!(!articles.iter().any(|a| a == "26.8.3"), "{j}");
    let j = judged("cxa-1999", fen, &format!("{cycle} {cycle}"));
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Reading `joint-chase-necessary` (24.17): the capturers are partners when they reach the
/// target in the exchange on its point. Black's rook g8 guards the cannon c8 that red's rook
/// attacks, and its file to the elephant g0 is closed by its own pawn g6, which plays no part
/// there: without the rook g8, red would answer 车×g0 by 车×c8, but the guard of another piece is
/// no partner. The rook's move to g5 is a single chase of the unprotected elephant.
#[test]
fn a_guard_of_another_piece_is_no_partner() {
    let fen = "3aka3/2c3r2/9/4p1p2/7r1/9/9/2R6/9/N2AKAB2 b - - 0 1";
    let cycle = "h5g5 a0b2 g5h5 b2a0";
    let j = judged("cxa-2011", fen, &format!("{cycle} {cycle}"));
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g0", "{j}");
    assert!(!cites(&j, 5, "24.17"), "{j}");
}

/// Reading `pinned-target-cannot-accept` (2011 26.10.2: 被接触的马有根，且主动接受邀兑后其"根"无
/// 损失，为"兑"): the acceptance is counted over the complete exchange, a capture elsewhere that
/// it opens included. Red's rook c2 and horse (moving to e6) touch black's horse c7, which can
/// take the horse e6 (the pawn e5 takes back). With its protector the rook a7 beside it, accepting
/// costs nothing: an exchange. With its protector the rook c9 behind it on the file, accepting
/// opens the file and the rook c2 takes the rook c9: the horse cannot accept at no cost, and red's
/// move is a chase, citing 26.10 (red, chasing on both moves, must change).
#[test]
fn an_exchange_that_costs_the_targets_protector_is_a_chase() {
    let moves = "g5e6 a3b3 e6g5 b3a3 g5e6 a3b3 e6g5 b3a3";
    let beside = "3a1k3/4a4/r1n6/9/4P1N2/8c/p8/2R6/9/3AKA3 w - - 0 1";
    let behind = "2ra1k3/4a4/2n6/9/4P1N2/8c/p8/2R6/9/3AKA3 w - - 0 1";
    let j = judged("cxa-2011", beside, moves);
    assert_eq!(class_at(&j, 5), "exchange", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let j = judged("cxa-2011", behind, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "c7", "{j}");
    assert!(cites(&j, 5, "26.10"), "{j}");
    assert_eq!(j["ruling"], "red_loses", "{j}");
}

/// 2011 26.4 / 1999 27.4 (从重, reading `severity-order`): a move that is an exchange offer and a
/// chase at once (兑兼捉) is a chase, and the article of the order of severity is cited. Red's
/// horse c2-d4, guarded by the rook d0, offers itself to black's horse c6 (which can take it and
/// be taken back: an exchange of equal pieces) and attacks the rook f5. Without the rook the same
/// move is only the exchange offer, and the article is not cited.
#[test]
fn an_exchange_offer_that_also_chases_is_a_chase_by_the_heavier_nature() {
    let moves = "c2d4 e9f9 d4c2 f9e9 c2d4 e9f9 d4c2 f9e9";
    let with_rook = "4k4/9/9/2n6/5r3/9/9/2N6/4A4/3RK4 w - - 0 1";
    let without = "4k4/9/9/2n6/9/9/9/2N6/4A4/3RK4 w - - 0 1";
    for (rules, article) in [("cxa-2011", "26.4"), ("cxa-1999", "27.4")] {
        let j = judged(rules, with_rook, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "f5", "{j}");
        assert!(cites(&j, 5, article), "{rules}: {j}");
        let j = judged(rules, without, moves);
        assert_eq!(class_at(&j, 5), "exchange", "{j}");
        assert!(!cites(&j, 5, article), "{rules}: {j}");
    }
}

/// The note of the first move of `moves` from `fen` (cxa-2011), by the fast classifier, once
/// both classifiers are shown to classify every move alike, notes included.
fn first_note(fen: &str, moves: &str) -> String {
    use xiangqi_rules::judge::{self, Builtin};
    use xiangqi_rules::{Move, Position, RankConvention};
    let case = JudgeCase {
        rules: "cxa-2011".to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(str::to_string).collect(),
    };
    xiangqi_difftest::judge::compare_classify(&case).unwrap_or_else(|d| panic!("{d:?}"));
    let rules = judge::RuleSet::builtin("cxa-2011").expect("a bundled rule set");
    let b = judge::Tracked::new(Position::from_fen(fen).expect("a valid FEN"));
    let m = Move::parse_iccs(&case.moves[0], RankConvention::Iccs).expect("ICCS");
    judge::classify(rules, &b, m, None)
        .expect("a legal move")
        .note
}

/// The note of a check names the piece that gives it (24.1): a discovered check is the rook's,
/// uncovered by the horse, and a double check is named as one.
#[test]
fn a_discovered_or_double_check_names_the_checking_pieces() {
    let moves = "e4g5 e9f9 g5e4 f9e9 e4g5 e9f9 g5e4 f9e9";
    let fen = "2bak4/9/9/9/9/4N4/9/9/4R4/3K5 w - - 0 1";
    assert_eq!(class_at(&judged("cxa-2011", fen, moves), 5), "check");
    assert_eq!(
        first_note(fen, moves),
        "horse g5 uncovers a check (將) by rook e1"
    );
    let moves = "e5f7 e9f9 f7e5 f9e9 e5f7 e9f9 f7e5 f9e9";
    let fen = "2bak4/9/9/9/4N4/9/9/9/4R4/3K5 w - - 0 1";
    assert_eq!(
        first_note(fen, moves),
        "horse f7 gives double check (將) with rook e1"
    );
}

/// Reading `floating-pawn-exchange-value` (1999 25.3, 2011 26.6: an uncrossed pawn is not
/// material, and taking one is no gain): an exchange that ends by taking an uncrossed pawn wins
/// nothing, even where the pawn is the last protector taken back.
///
/// Black's horse c5 is guarded only by the uncrossed pawn c6; red's rook c1 stands behind it on
/// the c-file. Red's horse steps to b7 and attacks it: horse takes horse, the pawn takes back, the
/// rook takes the pawn, still on black's half. Horse for horse and a pawn that is not material:
/// no gain, the horse's step is idle and the game is drawn, in both editions. The control puts
/// the exchange on red's half, the horse c4 guarded by the crossed pawn b4: the pawn taken last
/// is material, the step to a3 is a chase.
#[test]
fn an_exchange_that_ends_on_an_uncrossed_pawn_wins_nothing() {
    for rules in ["cxa-1999", "cxa-2011"] {
        let fen = "N3k4/9/9/2p6/2n6/9/9/9/2R6/3K5 w - - 0 1";
        let j = judged(rules, fen, "a9b7 e9f9 b7a9 f9e9 a9b7 e9f9 b7a9 f9e9");
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
        let crossed = "4k4/9/9/9/9/1pn6/9/9/1N7/2RK5 w - - 0 1";
        let j = judged(rules, crossed, "b1a3 e9f9 a3b1 f9e9 b1a3 e9f9 a3b1 f9e9");
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "c4", "{rules} {j}");
    }
}

/// Reading `just-crossed-pawn` (2011 26.6: 立即吃掉刚过河的兵（卒）也不算得子; the 1999 text has no
/// such clause): a pawn taken on the ply after the one on which it crossed the river counts
/// nothing, also inside a complete exchange.
///
/// Red's horse steps to d2 and joins the rook e0 against the cannon e4, guarded by the pawn e5:
/// horse for cannon, the pawn takes back and crosses the river, the rook takes it at once. Under
/// 2011 that pawn is no gain and the step is idle; under 1999 it counts and the step is a chase.
/// The control guards the cannon with the pawn d4, already across: a chase in both editions.
#[test]
fn a_pawn_taken_at_once_after_it_crosses_by_taking_back_is_no_gain_in_2011() {
    let moves = "f1d2 f9f8 d2f1 f8f9 f1d2 f9f8 d2f1 f8f9";
    let fen = "5k3/9/9/9/4p4/4c4/9/9/5N3/3KR4 w - - 0 1";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    let j = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "e4", "{j}");
    for rules in ["cxa-1999", "cxa-2011"] {
        let crossed = "5k3/9/9/9/9/3pc4/9/9/5N3/3KR4 w - - 0 1";
        let j = judged(rules, crossed, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "e4", "{rules} {j}");
    }
}

/// Readings `mated-at-once` (1999 29.4, 細則7) and `mated-at-once-2011` (24.3): "立即被将死" is a
/// mate by at most two consecutive checks in both editions, which use the same words.
///
/// Red's rook steps to f2 and attacks the unprotected horse i2; taking it lets black mate by two
/// checks (车a9-a0+, 帅e0-e1, 车g9-g1). The step is idle in both editions; without the rook g9
/// there is no mate and it is a chase of the horse.
#[test]
fn a_capture_answered_by_a_two_check_mate_is_no_threat_in_either_edition() {
    let moves = "f1f2 d9d8 f2f1 d8d9 f1f2 d9d8 f2f1 d8d9";
    for rules in ["cxa-1999", "cxa-2011"] {
        let j = judged(rules, "r2k2r2/9/9/9/9/2B6/4p4/8n/5R3/4KA3 w - - 0 1", moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        let j = judged(rules, "r2k5/9/9/9/9/2B6/4p4/8n/5R3/4KA3 w - - 0 1", moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "i2", "{rules} {j}");
    }
}

/// Reading `pawn-given-for-pieces` (25.3; 2011 26.6: 主动送兵…换取其他一子或数子均不算得子): a
/// crossed pawn that the other side can take back is given for what it takes, whatever else the
/// exchange on that point then wins.
///
/// Red's crossed pawn d6 attacks the horse d7, which the advisor e8 guards; red's rook steps to
/// d1, behind the pawn. 兵×马, 士×兵, 车×士 would win a horse and an advisor for the pawn, so by
/// value black should not take back; but a pawn given for several pieces is no gain, and black
/// may take back: idle in both editions. With a rook on d8 as the guard, the rook d1 then takes
/// the rook that took back: a pawn for a horse and a rook, a chase in 2011 (主动送兵换车) and no
/// gain in 1999 (25.3).
#[test]
fn a_pawn_given_for_several_pieces_is_no_gain() {
    let moves = "c1d1 c9a7 d1c1 a7c9 c1d1 c9a7 d1c1 a7c9";
    let advisor = "2b1k4/4a4/3n5/3P5/9/9/9/9/2R6/5K3 w - - 0 1";
    let rook = "2b1k4/3r5/3n5/3P5/9/9/9/9/2R6/5K3 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, advisor, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
    }
    let j = judged("cxa-2011", rook, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "d7", "{j}");
    let j = judged("cxa-1999", rook, moves);
    assert_eq!(class_at(&j, 5), "idle", "{j}");
}

/// Reading `pawn-given-for-pieces` inside the exchange (25.3; 2011 26.6): a crossed pawn of the
/// capturing side that takes back on the capture square and is taken in turn is given for the
/// piece it took.
///
/// Red's horse steps to a4 and attacks the cannon c5, which black's horse b7 and elephant e7
/// guard; red's crossed pawn d5 attacks it too. 马×炮, 马×马, 兵×马, 象×兵 gives a horse and a pawn
/// for a cannon and a horse: a pawn for a piece, level, so idle in both editions. Counted at half
/// an advisor, the pawn left red 1.5 ahead and the step was a joint chase (red had to change).
/// With a red rook on c0 behind, which takes the elephant that took the pawn, red wins: a chase.
#[test]
fn a_pawn_that_takes_back_inside_the_exchange_is_given() {
    let moves = "b2a4 f9f8 a4b2 f8f9 b2a4 f9f8 a4b2 f8f9";
    let given = "5k3/9/1n2b4/9/2cP5/9/3p5/1N7/9/4K4 w - - 0 1";
    let rook = "5k3/9/1n2b4/9/2cP5/9/3p5/1N7/9/2R1K4 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, given, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
        let j = judged(rules, rook, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "c5", "{rules} {j}");
    }
    // An uncrossed pawn that crosses by taking back and is taken at once is worth nothing there
    // in 2011 (26.6: 立即吃掉刚过河的兵…不算得子): not given, the horse won for nothing, a chase.
    let crossing = "5k3/9/1n7/4n4/2c6/2P6/9/1N7/3c5/4K4 w - - 0 1";
    let j = judged("cxa-2011", crossing, moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
}

/// 2011 26.5 (被牵子捉子): what a standing shield's capture opens counts against it, whichever
/// piece moved (reading `complete-exchange-any-square`, condition (1)).
///
/// Red's horse d4 stands between black's rook a4 and red's rook g4 and attacks the unprotected
/// cannon c6. With red's rook on h1 (attacking the cannon h3), 马×炮 lets 车×车g4: a rook for a
/// cannon, no threat. The rook back on g1 guards g4: the cannon is won, a new chase, and red
/// chases on every move. Counted without the line the capture opens, the threat stood before
/// the move and the game was drawn. Under 1999 (no 26.5) the step stays idle.
#[test]
fn a_standing_shield_that_captures_counts_the_line_it_opens() {
    let fen = "2baka3/9/4b4/2c6/9/r2N2R2/7c1/4N4/6R2/3K5 w - - 0 1";
    let moves = "g1h1 c9a7 h1g1 a7c9 g1h1 c9a7 h1g1 a7c9";
    let j = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(cycle_move(&j, 7)["targets"][0], "c6", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let j = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j, 7), "idle", "{j}");
}

/// Reading `pawn-traded-level` (25.3; 2011 26.6: 换取其他一子或数子均不算得子, 强子换…过河兵不算得子): a
/// crossed pawn traded for a piece is level wherever the pawn is lost in the exchange.
///
/// Red's rook f5 attacks the unprotected horse f7 and is the only guard of red's crossed pawn a5,
/// which black's rook a8 attacks: 车×马 is answered by 车×兵, a pawn for a horse, no gain. The horse
/// c1 steps to b3 and guards the pawn: the horse is now won outright, a new chase (從沒捉到捉), and
/// back on c1 it chases the pawn e2: red chases on every move and must change, in both editions.
/// Counted at its exchange value (half an advisor), the pawn made the rook's attack a standing
/// threat, the step to b3 idle and the game drawn.
///
/// 2011 26.5 (做根子捉子): the rook f5 guards the pawn a5 along the rank and steps to d5 to attack
/// the horse d7; taking it gives the pawn through the point the rook leaves, a pawn for a horse:
/// 价值相当, a chase citing 26.5 and 26.6.
#[test]
fn a_pawn_lost_elsewhere_for_a_piece_is_level() {
    let elsewhere = "3k2b2/r8/5n3/9/P4R3/9/9/4p4/2N6/4K4 w - - 0 1";
    let moves = "c1b3 g9i7 b3c1 i7g9 c1b3 g9i7 b3c1 i7g9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, elsewhere, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "f7", "{rules} {j}");
        assert_eq!(j["must_change"], "red", "{rules} {j}");
    }
    let root = "4k1b2/r8/3n1a3/9/P4R3/9/9/9/9/5K3 w - - 0 1";
    let j = judged("cxa-2011", root, "f5d5 g9i7 d5f5 i7g9 f5d5 g9i7 d5f5 i7g9");
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    let articles = articles_at(&j, 5);
    assert!(
        articles.iter().any(|a| a == "26.5") && articles.iter().any(|a| a == "26.6"),
        "{j}"
    );
}

/// Reading `newness-of-a-line-of-checks` (29.2; 2011 24.3, 从捉到捉; 参考图8 "白吃双士的结果没有发生变化"):
/// a line of checks that could already win a piece stood before the move even when, at its end,
/// a greater capture was there too.
///
/// Red's horse g5 checks from f7, the king's only answer is e8, and the horse then takes the
/// unprotected elephant g9; red's elephant e2 attacks the unprotected horse c4. At the end of the
/// line the elephant's capture is worth more, so the line was named after the horse c4. The
/// elephant's retreat to g0 gives that capture up and leaves the line's own win, the elephant
/// g9: no new threat (閒); back on e2 the elephant chases c4 again. Red 一捉一閒: a draw, in both
/// editions (it was 長捉, red to change). When the horse steps to g5 and so makes the line, the
/// threat to g9 is new: a chase.
#[test]
fn a_line_of_checks_that_stood_is_not_hidden_by_a_greater_capture() {
    let fen = "1c1akab2/9/9/9/6N2/2n6/9/4B4/9/C2K5 w - - 0 1";
    let moves = "e2g0 b9b8 g0e2 b8b9 e2g0 b9b8 g0e2 b8b9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(class_at(&j, 7), "chase", "{rules} {j}");
        assert_eq!(cycle_move(&j, 7)["targets"][0], "c4", "{rules} {j}");
        assert_eq!(j["result"], "draw", "{rules} {j}");
    }
    let made = "1c1akab2/9/9/9/9/2n6/7N1/9/9/C2K5 w - - 0 1";
    let j = judged("cxa-2011", made, "h3g5 b9b8 g5h3 b8b9 h3g5 b9b8 g5h3 b8b9");
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g9", "{j}");
}

/// Reading `newness-of-a-line-of-checks` after the move (24.3, 1999 細則2: 從沒捉到捉): a line
/// of checks threatens every piece it could win when only the ways that take that piece count,
/// so a new line is not hidden behind a greater capture that its end also offers.
///
/// Red's horse d4 steps to e6 and covers f8, the point where black's cannon would block the
/// horse h6's check from g8: 马g8+ now wins the cannon f6 whatever black answers. The line's end
/// also offers 炮a1×车a5 over the pawn a3, worth more and standing all along; the line used to be
/// named after it, and the horse's move was judged idle. It is a chase of f6, and with the
/// horse's return chasing the cannon b3, red (長捉) must change, in both editions. Without the
/// pawn a3 and the cannon b3 (no standing capture) the move was a chase already.
#[test]
fn a_new_line_is_not_hidden_behind_a_standing_greater_capture() {
    let moves = "d4e6 b9a7 e6d4 a7b9 d4e6 b9a7 e6d4 a7b9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(
            rules,
            "1n2k4/9/9/5c1N1/r8/3N5/Pc2P4/9/C8/4K4 w - - 0 1",
            moves,
        );
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(targets_at(&j, 5), ["f6"], "{rules} {j}");
        assert_eq!(class_at(&j, 7), "chase", "{rules} {j}");
        assert_eq!(j["must_change"], "red", "{rules} {j}");
        let j = judged(
            rules,
            "1n2k4/9/9/5c1N1/r8/3N5/4P4/9/C8/4K4 w - - 0 1",
            moves,
        );
        assert_eq!(class_at(&j, 5), "chase", "{rules} {j}");
        assert_eq!(targets_at(&j, 5), ["f6"], "{rules} {j}");
    }
}

/// Reading `defence-that-allows-mate` (24.2, 24.3; 1999 28.2, 29.1): an answer to a check that
/// lets the checker mate is no defence, whatever material it keeps or gives.
///
/// Red's cannon checks from e2 over the pawn e3; with the rook on f1 guarding f9, black's only
/// answer is the horse's block on e7, which the cannon takes. The rook steps to i1: now the
/// king may step to f9 too, giving up the cannon d9 to the horse b8, but 车i1-f1+ then mates.
/// The best defence still loses the horse, as before: nothing new can be won, idle. Counted at
/// its material value, the king's step named the cannon d9 among what the line wins, and the
/// rook's move was a new chase of it. When every answer allows mate, the line is a kill that
/// wins besides what the answers give up (殺兼捉): the rook d7 makes 炮e2+ mate (the king's step
/// meets 车f7#, the block 车×马e7+ and mate), and its step to d3, which only gives the mate up
/// while the cannon still wins the horse, is no new chase (一殺一閒, a draw; counting only the
/// answers that escape the mate made the horse's loss new and red change).
#[test]
fn an_answer_that_allows_mate_is_no_defence() {
    let kill_given_up = judged(
        "cxa-2011",
        "rn1ck3r/6n2/b2R4b/p1p3p1p/9/9/P1P1P1P1P/1C4N2/8R/2BAKAB2 w - - 0 1",
        "d7d3 i9h9 d3d7 h9i9 d7d3 i9h9 d3d7 h9i9",
    );
    assert_eq!(class_at(&kill_given_up, 5), "idle", "{kill_given_up}");
    assert_eq!(class_at(&kill_given_up, 7), "kill", "{kill_given_up}");
    assert_eq!(kill_given_up["ruling"], "draw", "{kill_given_up}");
    let moves = "f1i1 i9i8 i1f1 i8i9 f1i1 i9i8 i1f1 i8i9";
    for fen in [
        "3ck3r/1N4n2/8b/9/9/9/4P4/1C7/5R3/4K4 w - - 0 1",
        "rn1ck3r/1N4n2/b7b/p1p3p1p/9/9/P1P1P1P1P/1C7/5R3/R1BAKABN1 w - - 0 1",
    ] {
        for rules in ["cxa-2011", "cxa-1999"] {
            let j = judged(rules, fen, moves);
            assert_eq!(class_at(&j, 5), "idle", "{rules} {fen} {j}");
            assert_eq!(class_at(&j, 7), "idle", "{rules} {fen} {j}");
            assert_eq!(j["ruling"], "draw", "{rules} {fen} {j}");
        }
    }
}

/// Reading `defence-that-allows-mate` (1999 27.4, 2011 26.4 殺兼捉): a kill wins every piece
/// one of its answers gives up, whatever is asked.
///
/// With the rook on d1, 炮b2-e2+ mates after every answer: the king's step, the block 马g8-e7
/// (which gives the horse) and the block 车a5-e5 (which gives the rook). The rook's step to i1
/// gives the kill up; the block 车a5-e5 then escapes the mate and loses the rook. The rook a5
/// was won by the kill already: the step makes nothing new, idle, and red (一殺一閒) draws.
/// Named after the least of its mated answers only (the horse), the kill did not win the rook,
/// so the step was a new chase of a5 and red had to change.
#[test]
fn a_kill_wins_every_piece_its_answers_give_up() {
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(
            rules,
            "1n1ck3r/6n2/3R2N1b/9/r8/9/4P4/1C7/3R5/4K4 w - - 0 1",
            "d1i1 i9i8 i1d1 i8i9 d1i1 i9i8 i1d1 i8i9",
        );
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(class_at(&j, 7), "kill", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
    }
}

/// Reading `joint-chase-renewed` (2011 24.17) leaves a line of consecutive checks to the
/// comparison of what it can win (参考图8: 白吃双士的结果没有发生变化，判闲).
///
/// Red's pawn f8 takes the advisor f9 with check and the rook a9 then takes the advisor d9: a
/// joint line. The rook steps back to a7, from where the same line still wins both advisors:
/// nothing new can be won, idle (it was renewed as a joint chase in which the moved rook takes
/// part, 捉, and red had to change). Red 一閒一將: a draw.
#[test]
fn a_joint_line_of_checks_that_stood_is_not_renewed() {
    let j = judged(
        "cxa-2011",
        "R2aka3/5P3/9/9/9/9/9/9/9/5K3 w - - 0 1",
        "a9a7 d9e8 a7a9 e8d9 a9a7 d9e8 a7a9 e8d9",
    );
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert!(cites(&j, 5, "24.3"), "{j}");
    assert_eq!(class_at(&j, 7), "check", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Reading `joint-line-of-checks` (24.17, 缺少其中任何一个都无法吃子): the front piece of a
/// discovered check takes part in the line it opens.
///
/// Red's rook steps behind the horse e4 on the e-file; the horse jumps off with the rook's
/// check and then takes the unprotected horse b3. Without the rook the horse wins nothing;
/// without the horse black would stand in check with red to move, no position of the game, and
/// the piece shields the king from the rook's check: both take part, a joint chase (24.17),
/// whatever else stands on the board. Tried on that position, the removal test found other wins
/// (the rook's own check and capture on the open file), so the chase was single, or joint
/// only when a red pawn on c3 happened to block the third rank. With black's rook chasing red's
/// rook in turn, black's 長捉車 is then the only grave pattern: black must change (26.8.1).
#[test]
fn a_discovered_checks_front_piece_takes_part() {
    let moves = "d2e2 a9a8 e2d2 a8a9 d2e2 a9a8 e2d2 a8a9";
    for fen in [
        "rnb1k4/3c5/9/p1p5p/9/4N4/Pn4P1P/3R5/4A4/RN1A1KB2 w - - 0 1",
        "rnb1k4/3c5/9/p1p5p/9/4N4/PnP3P1P/3R5/4A4/RN1A1KB2 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{fen} {j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "b3", "{fen} {j}");
        assert!(cites(&j, 5, "24.17"), "{fen} {j}");
    }
    let both = "rnb1k4/3c5/7r1/p1p5p/9/4N4/Pn4P1P/3R5/4A4/RN1A1KB2 w - - 0 1";
    let j = judged("cxa-2011", both, "d2e2 b3c1 e2d2 c1b3 d2e2 b3c1 e2d2 c1b3");
    assert_eq!(j["must_change"], "black", "{j}");
}

/// Reading `joint-chase-necessary` (24.17; 26.7, second sentence: 吃子时产生其他子"将军"): a piece
/// whose check the capture uncovers takes part in the capture.
///
/// Red's rook steps behind the horse e4; 马×炮g5 then uncovers the rook's check, so black must
/// answer it and cannot take back with the pawn g6: the guarded cannon is won. Without the rook
/// the capture is level, without the horse there is none: a joint chase (it was a single chase
/// of an "unprotected" cannon). In a fuller position where black chases red's pieces on every
/// move, red's chase is then no grave pattern and black must change (26.8.1, 26.8.3).
#[test]
fn a_capture_that_uncovers_a_check_is_joint() {
    let fen = "r3k4/9/9/6p2/6c2/4N4/P8/3R5/4A4/3A1K3 w - - 0 1";
    let j = judged("cxa-2011", fen, "d2e2 a9a8 e2d2 a8a9 d2e2 a9a8 e2d2 a8a9");
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g5", "{j}");
    assert!(cites(&j, 5, "24.17"), "{j}");
    let fuller = "r3k2n1/3c5/P7b/p1P3p1p/r5c2/4N4/P1P5P/3R5/4A4/RNBA1KBC1 w - - 0 1";
    let j = judged(
        "cxa-2011",
        fuller,
        "d2e2 a9c9 e2d2 c9a9 d2e2 a9c9 e2d2 c9a9",
    );
    assert_eq!(j["must_change"], "black", "{j}");
}
