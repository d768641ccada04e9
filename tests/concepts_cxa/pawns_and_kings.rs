//! The pawn and king exemptions belong to the piece that wins the material (2011 26.1, 26.1.1,
//! 26.6, 26.7; 1999 25.3, 細則).

use super::*;

/// Interpretation `won-against-the-best-defence` with `pawn-given-for-pieces` (2011 26.6: 此外换
/// 取其他一子或数子均不算得子; 图24 ply 1, 送兵换马 printed 闲; 1999 25.3): a pawn's check that takes
/// a piece and is taken back gives the pawn for that piece and for what the line wins after it.
///
/// Red's rook steps onto the f-file. Then the pawn d8 can take the advisor d9 with check and,
/// after 将×兵, the rook takes the horse f9 with check: one pawn for an advisor and a horse, no
/// gain, so the rook's step is idle under both rule sets. Without the advisor (the pawn checks
/// from d9 by a step and the king takes it) the same: 图24's 送兵换马.
#[test]
fn a_pawn_check_taken_back_gives_the_pawn_for_what_the_line_wins() {
    let moves = "g2f2 a6a5 f2g2 a5a6 g2f2 a6a5 f2g2 a5a6";
    for fen in [
        "3akn3/3P5/4b4/r8/9/9/9/6R2/4A4/3AK4 w - - 0 1",
        "4kn3/3P5/4b4/r8/9/9/9/6R2/4A4/3AK4 w - - 0 1",
    ] {
        for rules in ["cxa-2011", "cxa-1999"] {
            let j = judged(rules, fen, moves);
            assert_eq!(class_at(&j, 5), "idle", "{rules}: {j}");
        }
    }
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

/// Reading `exemption-by-capturer`, newness clause (2011 26.7, second sentence, with 29.2's
/// 從沒捉到捉): a pawn's standing capture that the move makes give another piece's check is a
/// chase the move makes, though the same pawn threatened the same piece before.
///
/// Red's crossed pawn e7 can take black's unprotected horse d7; red's rook shuttles between e1
/// (behind the pawn, on black's king's file) and f1. From f1 the capture is the pawn's alone
/// (idle, 26.7 first sentence); back on e1 the capture uncovers the rook's check, so the pawn
/// takes with the rook's help: 捉, citing 26.7. One chase and one idle move, a draw. A rook that
/// stays on the file (e1, e2) leaves the check as it was: idle on both moves.
#[test]
fn a_pawn_capture_that_a_move_makes_give_check_is_a_new_chase() {
    let fen = "r3k4/9/3nP4/9/9/9/9/9/4R4/3K5 w - - 0 1";
    let j = judged("cxa-2011", fen, "e1f1 a9a8 f1e1 a8a9 e1f1 a9a8 f1e1 a8a9");
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(targets_at(&j, 7), ["d7"], "{j}");
    assert!(cites(&j, 7, "26.7"), "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    let stays = judged("cxa-2011", fen, "e1e2 a9a8 e2e1 a8a9 e1e2 a9a8 e2e1 a8a9");
    assert_eq!(class_at(&stays, 5), "idle", "{stays}");
    assert_eq!(class_at(&stays, 7), "idle", "{stays}");
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

/// Reading `pawn-given-for-pieces` (25.3; 2011 26.6): only a crossed pawn is given for a piece.
/// An uncrossed pawn is no material (捉吃未过河的兵…不算得子): taking it back wins nothing, so
/// its capture wins the piece alone, and a piece behind it that would punish the recapture is no
/// partner (24.17: 缺少其中任何一个都无法吃子).
///
/// Red's uncrossed pawn g3 attacks black's crossed pawn g4, which the rook a4 guards; red's rook
/// shuttles g1-g2 behind the pawn. 兵×卒 wins the crossed pawn whether or not black takes back,
/// so the threat is the pawn's own (26.1) and stands: idle, a draw. Read as a pawn given for a
/// piece, the rook was a partner and red had to change. With a horse f6 as the guard, the same.
/// In a 26.8 cycle where black's cannon keeps its rook's joint chase of the advisor d0, black
/// alone is forbidden and must change (red was judged forbidden too: a draw by 26.8.4).
#[test]
fn an_uncrossed_pawn_is_not_given_for_a_piece() {
    let moves = "g1g2 e9d9 g2g1 d9e9 g1g2 e9d9 g2g1 d9e9";
    for fen in [
        "4k4/9/9/4p4/9/r5p2/4P1P2/9/6R2/3AKA3 w - - 0 1",
        "4k4/9/9/4p4/5n3/6p2/4P1P2/9/6R2/3AKA3 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{fen} {j}");
        assert_eq!(j["ruling"], "draw", "{fen} {j}");
    }
    let both = "4k4/9/9/3cp4/9/r5p2/3rP1P2/9/6R2/3AKA3 w - - 0 1";
    let j = judged("cxa-2011", both, "g1g2 d6d5 g2g1 d5d6 g1g2 d6d5 g2g1 d5d6");
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert_eq!(class_at(&j, 6), "chase", "{j}");
    assert_eq!(j["must_change"], "black", "{j}");
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
