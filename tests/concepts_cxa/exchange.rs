//! Exchange (兑) and offer (献) versus chase (2011 24.4, 24.5, 26.9, 26.10; 1999 28.5, 細則5): an
//! exchange the target can accept at no cost is no chase.

use super::*;

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

/// 2011 26.10.2, second sentence, and 26.4 (兑兼捉, 判捉), read generally (reading
/// `exchange-offer-not-chase`, the added-participant clause): a piece that joins a like pair's
/// exchange to take, elsewhere, what the exchange uncovers makes a chase; the like pair's
/// exchange is one answer to it, not an offer that hides it.
///
/// Red's rook g0 faces black's rook g7 (red's horse h2 guards g0); black's horse f5 guards the
/// rook g7, the cannon d4 and the horse d6. Red's rook a6 steps to a4 (attacking the cannon) and
/// back (attacking the horse): each time 车g0×g7 马f5×g7 and the moved rook takes what the horse
/// guarded, a piece up. A chase on both moves, citing 26.10; red must change. With a black pawn
/// e4 guarding d4 the step to a4 wins nothing (idle) and the step back still chases: one chase
/// and one idle move, a draw. The other order (the moved rook is the one facing a like piece)
/// and a cannon pair are chases too. When the partner itself steps to face its like piece (red's
/// rook h0-g0 with the rook already on a4), the move is the exchange offer (兑), as 图30's
/// 车６退４ with the 3-路 horse; so is a move that makes the pair an even exchange (图30's
/// 炮八进四, which protects the partner). Under 1999 (no joint threats) the added participant
/// makes the threat new all the same (29.2: 捉产生于刚走的这着棋): 捉 twice, red must change.
#[test]
fn a_piece_added_to_take_what_a_like_pairs_exchange_uncovers_makes_a_chase() {
    let moves = "a6a4 f9f8 a4a6 f8f9 a6a4 f9f8 a4a6 f8f9";
    let fen = "5k3/9/6r2/R2n5/5n3/3c5/9/7N1/9/4K1R2 w - - 0 1";
    let j = judged("cxa-2011", fen, moves);
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "chase", "{j}");
        assert!(cites(&j, ply, "26.10"), "{j}");
    }
    assert_eq!(j["must_change"], "red", "{j}");
    let j1999 = judged("cxa-1999", fen, moves);
    for ply in [5, 7] {
        assert_eq!(class_at(&j1999, ply), "chase", "{j1999}");
    }
    assert_eq!(j1999["must_change"], "red", "{j1999}");
    let guarded = judged(
        "cxa-2011",
        "5k3/9/6r2/R2n5/5n3/3cp4/9/7N1/9/4K1R2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&guarded, 5), "idle", "{guarded}");
    assert_eq!(class_at(&guarded, 7), "chase", "{guarded}");
    assert_eq!(guarded["ruling"], "draw", "{guarded}");
    let rook_first = judged(
        "cxa-2011",
        "4k4/9/4b1r2/R2c5/5n3/9/9/7N1/9/3AKAR2 w - - 0 1",
        "a6b6 e9f9 b6a6 f9e9 a6b6 e9f9 b6a6 f9e9",
    );
    let cannons = judged(
        "cxa-2011",
        "5k3/9/6c2/C1pn5/5n3/9/6P2/7N1/9/4K1C2 w - - 0 1",
        "a6b6 f9f8 b6a6 f8f9 a6b6 f9f8 b6a6 f8f9",
    );
    for j in [&rook_first, &cannons] {
        assert_eq!(class_at(j, 5), "chase", "{j}");
        assert_eq!(class_at(j, 7), "chase", "{j}");
        assert_eq!(j["must_change"], "red", "{j}");
    }
    // The moved piece takes part otherwise: it takes a piece the like piece itself guarded
    // (after a check on the other move: 一将一捉), it becomes the screen of the cannon that
    // takes, it opens the rook's line, or its capture at the end mates (the recapture is then
    // never made).
    for (fen, cycle, chase_ply) in [
        (
            "5k3/9/R1n3r2/9/5n3/9/9/7N1/9/4K1R2 w - - 0 1",
            "a7a9 f9f8 a9a7 f8f9",
            7,
        ),
        (
            "5k3/9/6r2/9/5n3/3n5/9/7N1/1N7/3CK1R2 w - - 0 1",
            "b1d2 f9f8 d2b1 f8f9",
            5,
        ),
        (
            "5k3/9/6r2/9/5n3/RN1c5/9/7N1/9/4K1R2 w - - 0 1",
            "b4a2 f9f8 a2b4 f8f9",
            5,
        ),
        (
            "3k5/9/6r2/9/5n3/R2c5/9/7N1/9/4K1R2 w - - 0 1",
            "a4a9 d9d8 a9a4 d8d9",
            7,
        ),
    ] {
        let j = judged("cxa-2011", fen, &format!("{cycle} {cycle}"));
        assert_eq!(class_at(&j, chase_ply), "chase", "{j}");
        assert!(cites(&j, chase_ply, "26.10"), "{j}");
        if chase_ply == 7 {
            assert_eq!(class_at(&j, 5), "check", "{j}");
            assert_eq!(j["must_change"], "red", "{j}");
        }
    }
    let partner = judged(
        "cxa-2011",
        "5k3/9/6r2/3n5/5n3/R2c5/9/7N1/9/4K2R1 w - - 0 1",
        "h0g0 f9f8 g0h0 f8f9 h0g0 f9f8 g0h0 f8f9",
    );
    assert_eq!(class_at(&partner, 5), "exchange", "{partner}");
    assert_eq!(partner["ruling"], "draw", "{partner}");
}

/// Interpretation `kill-not-by-accepting-exchange` (24.2, 26.9), its limit: another piece's
/// exchange offer that stood before the move is no offer of the move, so a mate that takes one
/// of its pieces is the move's kill. Red's rook i3 and black's rook i9 stood facing each other;
/// the cannon's step to e6 pins the advisor e8, after which 车×i9 mates at once: a kill, and with
/// the cannon's return chasing the unprotected horse d1, 一杀一捉 and red must change, in both
/// editions. With a horse on i9 (no pair at all) the step is a kill too.
#[test]
fn a_standing_offer_of_another_piece_does_not_hide_a_kill() {
    let moves = "d6e6 a0a1 e6d6 a1a0 d6e6 a0a1 e6d6 a1a0";
    for rules in ["cxa-1999", "cxa-2011"] {
        for fen in [
            "3ak3r/4a4/4b4/3C5/9/3p5/8R/9/3n5/c3K4 w - - 0 1",
            "3ak3n/4a4/4b4/3C5/9/3p5/8R/9/3n5/c3K4 w - - 0 1",
        ] {
            let j = judged(rules, fen, moves);
            assert_eq!(class_at(&j, 5), "kill", "{j}");
            assert_eq!(class_at(&j, 7), "chase", "{j}");
            assert_eq!(j["must_change"], "red", "{j}");
        }
    }
}

/// 26.9's chase by an exchange the target cannot accept is qualified for 26.8 as any chase is:
/// by what protects the target on the board (24.15), not as a protected piece by default. The
/// red rook's step to c2 blocks the rook a2's check and sets the cannons e1 and e6 facing each
/// other over the red king; the black cannon cannot accept (after 炮×e1 the rook c2 takes the
/// rook a2), and no black piece guards it: a chase of an unprotected piece (无根子). With the
/// rook's return a kill, red's 一杀一捉无根子 is grave under 26.8.1, as black's 一将一杀 is: a
/// draw by 26.8.4. With a black horse g7 guarding the cannon, the return only blocks (拦), red
/// is allowed and black must change.
#[test]
fn a_refused_exchange_of_an_unprotected_piece_is_a_chase_of_an_unprotected_piece() {
    let moves = "c6c2 a2a1 c2c6 a1a2 c6c2 a2a1 c2c6 a1a2";
    let j = judged(
        "cxa-2011",
        "9/3k5/9/2R1c4/8r/9/9/r3K4/4C4/9 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&j, 5), "chase", "{j}");
    assert!(cites(&j, 5, "26.9"), "{j}");
    assert_eq!(targets_at(&j, 5), ["e6"], "{j}");
    assert_eq!(class_at(&j, 7), "kill", "{j}");
    assert_eq!(j["red_pattern"], "kill_chase", "{j}");
    assert_eq!(j["ruling"], "draw", "{j}");
    assert!(
        j["articles"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == "26.8.4")),
        "{j}"
    );
    let guarded = judged(
        "cxa-2011",
        "9/3k5/6n2/2R1c4/8r/9/9/r3K4/4C4/9 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&guarded, 5), "chase", "{guarded}");
    assert_eq!(class_at(&guarded, 7), "block", "{guarded}");
    assert_eq!(guarded["must_change"], "black", "{guarded}");
}
