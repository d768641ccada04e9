//! The protector's departure (2011 26.5; 1999 細則4): a piece that leaves the point where it
//! protects another chases only what it wins at no cost.

use super::*;

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
/// (但要丢车): idle; and the horse's capture is also won back level by the rook's checks, no gain
/// by 24.3. The elephant's capture costs the rook too, but once black's advisor has left f9 the
/// rook can check along the ninth rank first (车h2-h9+ 士e8-f9) and take itself off the second
/// rank: then the cannon takes the elephant at no loss, a chase by a line of checks (24.3, citing
/// 26.5 for the direct capture it replaces; `a_line_of_checks_behind_a_departing_capture_still_chases`).
/// One chase and one idle move: a draw.
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
    // (at e7 the cannon is also won back, level, by the rook's checks from a0: no gain by 24.3
    // before 26.5 is asked)
    assert_eq!(class_at(&j, 5), "idle", "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(cycle_move(&j, 7)["targets"][0], "c5", "{j}");
    for art in ["24.3", "26.5"] {
        assert!(cites(&j, 7, art), "{j}");
    }
    assert_eq!(j["ruling"], "draw", "{j}");
}

/// Interpretation `pinned-departure` (2011 26.5, 得不偿失) with `pawn-given-for-pieces` (26.6:
/// 此外换取其他一子或数子均不算得子): a piece that a crossed pawn attacks while the root guards it
/// is not lost anyway, so the root's departure costs it.
///
/// Red's rook guards the horse b2 along the second rank against the pawn a2 and chases the
/// unprotected elephant (g5, then i7). Taking it gives the horse for the elephant: idle, citing
/// 26.5, a draw. The same when black's cannon can check through red's advisor and then take the
/// horse for the pawn inside that line (a search's capture is counted alike). Without the pawn,
/// a chase on both moves and red must change.
#[test]
fn a_piece_a_crossed_pawn_attacks_is_not_lost_anyway() {
    let moves = "i2g2 g5i7 g2i2 i7g5 i2g2 g5i7 g2i2 i7g5";
    for fen in [
        "5k3/9/9/9/6b2/9/9/pN6R/9/3K5 w - - 0 1",
        "3ak4/7c1/9/4p4/6b2/9/4P4/pN6R/9/4KA3 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        for ply in [5, 7] {
            assert_eq!(class_at(&j, ply), "idle", "{j}");
            assert!(cites(&j, ply, "26.5"), "{j}");
        }
        assert_eq!(j["ruling"], "draw", "{j}");
    }
    let j = judged("cxa-2011", "5k3/9/9/9/6b2/9/9/1N6R/9/3K5 w - - 0 1", moves);
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(class_at(&j, 7), "chase", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
}

/// Interpretation `pawn-given-for-pieces` inside the exchange on one point (2011 26.5, 26.6; 1999
/// 25.3, 29.1): a crossed pawn that finishes the other side's exchange and is taken back is given
/// for the piece it took, so the exchange wins that side nothing.
///
/// The horse b2 is attacked by black's horse a4 and pawn a2 and guarded by red's horse c0 and,
/// along the second rank, by the rook. With the rook there, 马×马, 马×马, 卒×马, 车×卒 wins black
/// nothing (the pawn given for the horse), so the horse is not lost anyway; the rook's chase of
/// the advisor d7 or the elephant g5 gives it up (马×马, 马×马, 卒×马): idle, citing 26.5, a draw.
/// Without the pawn the horse is only traded: a chase on both moves, red must change. Under 1999
/// too, when the move itself leaves the horse (the rook's step from b5 to e5 along the fifth
/// rank): idle; without the pawn, a chase.
#[test]
fn a_crossed_pawn_that_finishes_an_exchange_and_is_taken_back_wins_nothing() {
    let moves = "g2d2 f9f8 d2g2 f8f9 g2d2 f9f8 d2g2 f8f9";
    let j = judged(
        "cxa-2011",
        "5k3/9/3a5/9/6b2/n8/9/pN4R2/9/2NK5 w - - 0 1",
        moves,
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "idle", "{j}");
        assert!(cites(&j, ply, "26.5"), "{j}");
    }
    assert_eq!(j["ruling"], "draw", "{j}");
    let j = judged(
        "cxa-2011",
        "5k3/9/3a5/9/6b2/n8/9/1N4R2/9/2NK5 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(j["must_change"], "red", "{j}");
    let moves = "b5e5 f9f8 e5b5 f8f9 b5e5 f9f8 e5b5 f8f9";
    for rules in ["cxa-1999", "cxa-2011"] {
        let j = judged(rules, "5k3/9/4b4/9/1R7/n8/9/pN7/9/2NK5 w - - 0 1", moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
        let j = judged(rules, "5k3/9/4b4/9/1R7/n8/9/1N7/9/2NK5 w - - 0 1", moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
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

/// Interpretation `pinned-departure` (2011 26.5, 24.3): 26.5 leaves out a capture, not the piece
/// it takes. A piece whose every direct capture gives up more than it wins may still be won by a
/// line of consecutive checks (连续将军得子) that moves the threatened root first.
///
/// Red's cannon stands between black's rook d9 and red's rook d1. From d5 it attacks the horse
/// g5 (over the pawn e5), from d4 the horse g4 (over the pawn e4): taking either leaves the
/// d-file and gives up the rook, idle by 26.5. But 车d1-f1+ drives the king off the f-file and
/// takes the rook off the d-file first; then the cannon takes the horse for nothing: a chase
/// each time, red must change (both editions); so too when a first check (a horse's) leaves the
/// cost and the rook's second check takes it away. With a black pawn on f2 the rook has no check:
/// idle by 26.5 in 2011, a draw. A check that leaves the cost in place changes nothing: in
/// `a_standing_threat_to_another_piece_does_not_pay_for_the_departure`, 炮g6-e6+ and then 车×b7
/// still gives up the rook h2 to the fork (idle).
#[test]
fn a_line_of_checks_behind_a_departing_capture_still_chases() {
    let moves = "d4d5 f9f8 d5d4 f8f9 d4d5 f9f8 d5d4 f8f9";
    let fen = "3r1k3/9/9/9/4P1n2/3CP1n2/9/9/3R5/4K4 w - - 0 1";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "g5", "{j}");
        assert_eq!(class_at(&j, 7), "chase", "{j}");
        assert_eq!(cycle_move(&j, 7)["targets"][0], "g4", "{j}");
        assert_eq!(j["must_change"], "red", "{j}");
    }
    let j = judged("cxa-2011", fen, moves);
    assert!(cites(&j, 5, "24.3"), "{j}");
    // Two checks: 马h6-g8+ 将e9-f9 leaves the cost, then 车d2-f2+ takes the rook off the d-file.
    let two = judged(
        "cxa-2011",
        "3rk4/4a4/r8/4P1cN1/3CP1n2/9/9/3R5/4K4/9 w - - 0 1",
        "d5d6 a7b7 d6d5 b7a7 d5d6 a7b7 d6d5 b7a7",
    );
    assert_eq!(class_at(&two, 5), "chase", "{two}");
    assert_eq!(class_at(&two, 7), "chase", "{two}");
    assert_eq!(cycle_move(&two, 7)["targets"][0], "g5", "{two}");
    assert_eq!(two["must_change"], "red", "{two}");
    let blocked = judged(
        "cxa-2011",
        "3r1k3/9/9/9/4P1n2/3CP1n2/9/5p3/3R5/4K4 w - - 0 1",
        moves,
    );
    for ply in [5, 7] {
        assert_eq!(class_at(&blocked, ply), "idle", "{blocked}");
        assert!(cites(&blocked, ply, "26.5"), "{blocked}");
    }
    assert_eq!(blocked["ruling"], "draw", "{blocked}");
}

/// Interpretation `complete-exchange-any-square` (1999 29.1; condition (1)): without 26.5 the
/// complete exchange of a capture the move makes names no side. A shield (被牵) that takes a
/// piece is answered by a line of checks that wins the piece it uncovered, as by the capture
/// that piece now allows; a root's departure (棋例細則4) is no answer
/// (`a_line_of_checks_the_departure_opens_costs_the_chase`).
///
/// Red's cannon stands between black's rook d9 and red's rook d1, which the king e1 guards. From
/// d6 it attacks the horse g6 over the pawn e6: 炮×g6 opens the d-file, and 马g5-f3+ drives the
/// king off e1, so 车d9×d1 wins the rook: no gain, idle (both editions; 2011 cites 26.5). From
/// d5 it attacks the horse g5 itself, the checking piece: a chase. Without the horse g5 the king
/// keeps guarding the rook and 炮×g6 wins a horse: a chase.
#[test]
fn a_shields_capture_answered_by_a_check_on_the_guard_wins_nothing() {
    let moves = "d5d6 a9a8 d6d5 a8a9 d5d6 a9a8 d6d5 a8a9";
    let fen = "c2rk4/9/9/4P1n2/3CP1n2/9/9/9/3RK4/9 w - - 0 1";
    for rules in ["cxa-1999", "cxa-2011"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
        assert_eq!(class_at(&j, 7), "chase", "{j}");
        assert_eq!(cycle_move(&j, 7)["targets"][0], "g5", "{j}");
        assert_eq!(j["ruling"], "draw", "{j}");
    }
    let j = judged(
        "cxa-1999",
        "c2rk4/9/9/4P1n2/3CP4/9/9/9/3RK4/9 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert_eq!(cycle_move(&j, 5)["targets"][0], "g6", "{j}");
}
