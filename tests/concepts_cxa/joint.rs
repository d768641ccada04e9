//! Joint chase (2011 24.17): the partners are the pieces that take part in winning the target;
//! a piece that serves only by its point (a screen, a blocker, a shield) is none.

use super::*;

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

/// Interpretation `joint-chase-necessary` (2011 24.17: 共同擒捉; 图28): a second guard of a target
/// that no enemy piece can take back plays no part in the exchange on its point; when the target
/// is not won without it, it keeps something else safe by its point (its king) and is no partner.
///
/// Red's rook d6 steps to e6 and back; on e6 the rook g9 wins the unprotected crossed pawn g4
/// (black's answer 车c3-c0+ is parried by 士e1-d0, which the elephant e2 makes legal: it stands
/// between the cannon e7, screened by the rook e6, and the king). The elephant also guards g4,
/// but no black piece can take back there: the chase is the rook's alone, red is 一将一捉 against
/// black's 长杀, both grave, a draw (26.8.4), as with the target on g5, where the elephant cannot
/// reach. Counted a partner, the elephant made the chase joint, red not grave, black had to
/// change. The control, 图9: the horse h2 that attacks the rook i0 (on the line of the target
/// cannon b0) takes part, and red's 马三退二 stays a joint chase (24.17 cites 图9).
#[test]
fn a_guard_of_an_unprotected_target_that_keeps_its_king_safe_is_no_partner() {
    let moves = "d6e6 d7b7 e6d6 b7d7 d6e6 d7b7 e6d6 b7d7";
    for fen in [
        "6R2/3k5/3cc4/2nR5/9/6p2/2r6/4B4/4A2n1/4KA3 w - - 0 1",
        "6R2/3k5/3cc4/2nR5/6b2/9/2r6/4B4/4A2n1/4KA3 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{fen} {j}");
        assert!(
            !articles_at(&j, 5).contains(&"24.17".to_string()),
            "{fen} {j}"
        );
        assert_eq!(j["ruling"], "draw", "{fen} {j}");
    }
    let j = judged(
        "cxa-2011",
        "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1c1r w - - 0 1",
        "g4h2 i0h0 h2g4 h0i0 g4h2 i0h0 h2g4 h0i0",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(articles_at(&j, 5).contains(&"24.17".to_string()), "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17; 24.3's complete exchange): the removal test
/// judges the board without the piece against the position before the move without it too. A
/// pin that only stops a counter-capture the defender could make anyway (a threat of its own,
/// standing whether or not the target is taken) makes no partner.
///
/// Black's rook shuttles h3-h2 and chases the unprotected cannons a3 and a2; the cannon e8, over
/// the advisor e1, pins the red horse e4, which attacks the cannon d6 whatever black does. Judged
/// against the position before the move with the cannon e8 still on it, horse×d6 was a new answer
/// and the cannon e8 a partner: a joint chase, black not grave, red (长捉无根子) had to change.
/// Now the chase is single, both sides are grave, a draw (26.8.4).
#[test]
fn a_pin_that_only_stops_a_standing_counter_capture_is_no_partner() {
    let j = judged(
        "cxa-2011",
        "4k4/4c4/2n6/3c5/9/4N4/C6r1/N8/2R1A4/3AK1B2 w - - 0 1",
        "c1d1 h3h2 d1c1 h2h3 c1d1 h3h2 d1c1 h2h3",
    );
    assert_eq!(class_at(&j, 8), "chase", "{j}");
    assert_eq!(cycle_move(&j, 8)["targets"][0], "a3", "{j}");
    assert!(!articles_at(&j, 8).contains(&"24.17".to_string()), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Interpretation `joint-chase-necessary` (24.17; 24.3 得子后不致立即被对方将死): a piece that takes
/// no part in the capture and is needed only because without it the other side would answer the
/// capture with a mate at once keeps its own king safe; it is no partner.
///
/// Black's horse comes to h3 and attacks the unprotected rook i1. Black's rook b9 reaches red's
/// cannon b1 by geometry (the horse c3 guards it; the cannon has no screen to take back on i1),
/// and shuts the a-file rook's way to a9, which with the pawn e7 would mate at once after 马×车.
/// Counted as a partner, the rook made the chase joint; it is single (24.3 alone).
#[test]
fn a_piece_needed_only_against_a_mate_at_once_is_no_partner() {
    let j = judged(
        "cxa-2011",
        "1r2ka3/9/4P4/9/6n2/9/2N6/9/1C6R/R2K5 b - - 0 1",
        "g5h3 d0d1 h3g5 d1d0 g5h3 d0d1 h3g5 d1d0",
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(targets_at(&j, 5), vec!["i1".to_string()], "{j}");
    assert_eq!(articles_at(&j, 5), vec!["24.3".to_string()], "{j}");
}

/// The same reading in a middlegame (probe of 26.8 figures): black's 马g5-h3 chases the
/// unprotected rook i1 singly; the rook b9 only shuts red's way to a mate after 马×车.
/// Black's 长捉车 by one piece is grave, red's chases are joint, so black must change (26.8.1,
/// 26.8.2); counted joint, black's chase was not grave and the game a draw by 26.8.4.
#[test]
fn a_single_chase_of_a_rook_in_a_middlegame_is_grave() {
    let j = judged(
        "cxa-2011",
        "1r1aka3/9/9/8p/r5n2/2N5R/4P3P/9/1C6R/4K4 w - - 0 1",
        "c4b6 g5h3 b6c4 h3g5 c4b6 g5h3 b6c4 h3g5",
    );
    assert_eq!(class_at(&j, 6), "chase", "{j}");
    assert_eq!(articles_at(&j, 6), vec!["24.3".to_string()], "{j}");
    assert_eq!(j["ruling"], "black_loses", "{j}");
    assert_eq!(j["must_change"], "black", "{j}");
}

/// Interpretation `joint-chase-necessary` through 26.5 (24.17 缺少其中任何一个都无法吃子;
/// 参考图13's pin): a piece that pins the enemy piece which would answer the capturer's departure
/// takes part, as a pinner of a counter-capturer does, though the pinner stands still and the
/// answer is judged by 26.5 (做根子捉子) rather than counted in the exchange.
///
/// Red's rook shuttles a4-b4 and guards the cannon d4 from either point. On a4 it attacks the
/// unprotected elephant a7; taking it leaves d4 to black's rook d7, which cannot go there: it
/// stands on the leg of the horse c7 (guarded by the pawn c6), which would then check the king
/// e8. Without the horse, 车×a7 车×d4 gives up a cannon for an elephant and the rook's move is
/// idle (26.5); with it, the chase is joint (24.3, 24.17). Red's chases (one single, one joint)
/// are not grave; black's 长捉无根子 by single pieces is: black must change (26.8.1, 26.8.3).
/// Before, the horse was never asked (the departure's answer is 26.5's, not the exchange's) and
/// the game was a draw by 26.8.4. The control without the horse: ply 7 idle by 26.5.
#[test]
fn a_piece_that_pins_the_answer_to_the_departure_takes_part() {
    let moves = "a4b4 h5i5 b4a4 i5h5 a4b4 h5i5 b4a4 i5h5";
    let j = judged(
        "cxa-2011",
        "9/4k4/bcNr5/2P6/7r1/R2C5/4P4/7NC/9/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert!(cites(&j, 7, "24.17"), "{j}");
    assert_eq!(j["ruling"], "black_loses", "{j}");
    let control = judged(
        "cxa-2011",
        "9/4k4/bc1r5/2P6/7r1/R2C5/4P4/7NC/9/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&control, 7), "idle", "{control}");
    assert!(cites(&control, 7, "26.5"), "{control}");
}

/// Interpretation `joint-chase-necessary` (24.17; exchange-removes-protector): when the target is
/// won only across two squares, the piece that takes at the end (what the protector guarded) is
/// a partner, as a piece that takes what the protector shields is.
///
/// Red's horse comes from c3 to b5 and attacks the cannon d6, guarded by the horse f5, which
/// also guards the horse h4 against the red horse g2 (the black pawn h3 blocks the horse h4's
/// way back to g2): 马×d6 马×d6 马g2×h4 nets a horse; without the horse g2 the capture only
/// trades. So the chase is joint (24.17, the horses b5 and g2). Before, the horse g2 was never
/// tried and the chase was single. Without it, the move is idle. The same count made by a pin
/// (the horse f5 shields the rook f8 from the rook f1): a joint chase renewed by every move of
/// the rook a6-b6, red must change.
#[test]
fn the_piece_that_takes_at_the_end_of_an_exchange_over_two_squares_is_a_partner() {
    let moves = "c3b5 d9d8 b5c3 d8d9 c3b5 d9d8 b5c3 d8d9";
    let guard = judged(
        "cxa-2011",
        "3k5/9/9/3c5/5n3/7n1/2N4p1/6N2/9/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&guard, 5), "chase", "{guard}");
    assert!(targets_at(&guard, 5).contains(&"d6".to_string()), "{guard}");
    assert!(cites(&guard, 5, "24.17"), "{guard}");
    let alone = judged(
        "cxa-2011",
        "3k5/9/9/3c5/5n3/7n1/2N4p1/9/9/4K4 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&alone, 5), "idle", "{alone}");
    let shield = judged(
        "cxa-2011",
        "4k4/5r3/4b4/R2c5/5n3/9/9/8p/5R3/3AKA3 w - - 0 1",
        "a6b6 i2h2 b6a6 h2i2 a6b6 i2h2 b6a6 h2i2",
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&shield, ply), "chase", "{shield}");
        assert_eq!(targets_at(&shield, ply), ["d6"], "{shield}");
        assert!(cites(&shield, ply, "24.17"), "{shield}");
    }
    assert_eq!(shield["must_change"], "red", "{shield}");
}

/// 2011 24.17 (两个或两个以上棋子共同擒捉…缺少其中任何一个都无法吃子) with reading `king-as-partner`,
/// capturer clause: a king that takes back at the end of the exchange on the target's point is a
/// partner of the joint chase, as any other piece would be.
///
/// Red's rook slides along the first rank (a1, b1) against black's cannon d1, which black's rook
/// d9 guards; red's king e1 also attacks d1. 车×炮, 车×车, 帅×车 wins the cannon only with the
/// king: a joint chase, renewed by each rook move (reading `joint-chase-renewed`), so red chases
/// on both moves and must change. With the king on e0 (not touching d1) nothing is won, and with
/// the cannon unprotected the rook wins it alone: the slide is 從捉到捉, idle, a draw.
#[test]
fn a_king_that_takes_back_at_the_end_of_the_exchange_is_a_partner() {
    let moves = "a1b1 e9f9 b1a1 f9e9 a1b1 e9f9 b1a1 f9e9";
    let j = judged("cxa-2011", "3rk4/9/9/9/4p4/9/9/9/R2cK4/9 w - - 0 1", moves);
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(cites(&j, ply, "24.17"), "{j}");
    }
    assert_eq!(j["must_change"], "red", "{j}");
    for fen in [
        "3rk4/9/9/9/4p4/9/9/9/R2c5/4K4 w - - 0 1",
        "4k4/9/9/9/4p4/9/9/9/R2cK4/9 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
        assert_eq!(j["ruling"], "draw", "{j}");
    }
}
