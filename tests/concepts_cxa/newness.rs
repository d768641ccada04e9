//! Newness (從捉到捉, 1999 29.2, 細則6; 2011 24.3, 26.1.2): a threat that stood before the move, or
//! that the opponent's check only interrupted, is no new chase; a kill that stood is no new kill.

use super::*;

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

/// Interpretation `newness-in-context`, fifth part (2011 26.1.2 read for a kill, concept E): the
/// king's step after the opponent's kill (殺) is its answer, like its answer to a check, and the
/// chases it produces are idle, even one it opens for another piece (which 26.1.1 would make a
/// chase after a quiet move).
///
/// Red's rook steps to b8 and the horses threaten mate (殺); black's king steps to d8 and becomes
/// the screen of the cannon d9 onto the unprotected advisor d2. Under 2011 the step is idle and
/// cites 26.1.2: black's moves are one idle move and one chase, a draw. The 1999 rules have no
/// such reading: the step is a chase (借帥之力, 27.1), black chases on both moves and must change.
#[test]
fn the_kings_parry_of_a_kill_makes_no_chase() {
    let fen = "3cc4/2N1k4/9/6N2/9/9/9/3AB4/1R7/5K3 w - - 0 1";
    let moves = "b1b8 e8d8 b8b1 d8e8 b1b8 e8d8 b8b1 d8e8";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "kill", "{j2011}");
    // 拦: the step also blocks the horse c8 (an idle kind, 24.8).
    assert_eq!(class_at(&j2011, 6), "block", "{j2011}");
    assert!(cites(&j2011, 6, "26.1.2"), "{j2011}");
    assert_eq!(class_at(&j2011, 8), "chase", "{j2011}");
    assert_eq!(j2011["ruling"], "draw", "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 6), "chase", "{j1999}");
    assert_eq!(j1999["ruling"], "black_loses", "{j1999}");
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

/// Reading `newness-in-context`, fourth part, for chases (2011 24.18, 26.3: 一方形成"自毙"，应由己方
/// 负责，不得视为另一方造成): a threat that follows the king's answer to a check (or every answer) was
/// laid open by the check, so it is no new chase of another answer.
///
/// Red's rook leaves the f-file to check from d2 and so leaves its own king to 车h5-f5+, 车d2-f2,
/// 车×f2 mate, whatever black answers. The advisor's block on d7 keeps that line, which takes the
/// rook at its end: under 2011 the block is no chase (an offer of the advisor, citing 26.1.2 and
/// 26.3), and black, whose return to e8 chases the horse f9, is allowed: a draw. The 1999 rules,
/// which have no 自毙 article, count the block as a kill (28.2): black must change.
#[test]
fn a_chase_the_check_laid_open_is_no_new_chase_of_the_block() {
    let fen = "3k1N3/4a4/9/9/7r1/9/9/5R3/4p4/5KB2 w - - 0 1";
    let moves = "f2d2 e8d7 d2f2 d7e8 f2d2 e8d7 d2f2 d7e8";
    let j2011 = judged("cxa-2011", fen, moves);
    assert_eq!(class_at(&j2011, 5), "check", "{j2011}");
    assert_eq!(class_at(&j2011, 6), "offer", "{j2011}");
    assert!(cites(&j2011, 6, "26.3"), "{j2011}");
    assert_eq!(class_at(&j2011, 8), "chase", "{j2011}");
    assert_eq!(j2011["ruling"], "draw", "{j2011}");
    let j1999 = judged("cxa-1999", fen, moves);
    assert_eq!(class_at(&j1999, 6), "kill", "{j1999}");
    assert_eq!(j1999["must_change"], "black", "{j1999}");
}
