//! Which side must change: the key-point exception of the defending side (2011 26.2; 1999 27.3)
//! and the grave patterns of both sides (2011 26.8).

use super::*;

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

/// Reading `repetition-count-positions` (1999 24, 28.15; 2011 24.9 连续不停照将): when the two
/// stretches between the three occurrences of a position are not the same moves, both are
/// ruled on.
///
/// Red's rook plays idle (f0-f1-f0) in one stretch and checks (f0-e0-f0) in the other: not a
/// perpetual check, in either order (一将一闲 over the repetition), a draw. Chases in one stretch
/// and checks in the other: red must change, not lose at once. The same checking stretch twice
/// is a perpetual check, lost at once.
#[test]
fn two_stretches_that_differ_are_both_ruled_on() {
    let fen = "6b2/4k4/9/9/1n7/9/9/9/9/2RK1R3 w - - 0 1";
    let check = "f0e0 e8f8 e0f0 f8e8";
    let chase = "c0b0 b5c7 b0c0 c7b5";
    let idle = "f0f1 g9i7 f1f0 i7g9";
    for rules in ["cxa-2011", "cxa-1999"] {
        for (first, second) in [(idle, check), (check, idle)] {
            let j = judged(rules, fen, &format!("{first} {second}"));
            assert_eq!(j["ruling"], "draw", "{rules} {j}");
            assert_eq!(j["cycle"].as_array().map(Vec::len), Some(8), "{rules} {j}");
        }
        let j = judged(rules, fen, &format!("{chase} {check}"));
        assert_eq!(j["ruling"], "red_loses", "{rules} {j}");
        assert_eq!(j["must_change"], "red", "{rules} {j}");
        assert_eq!(j["immediate"], false, "{rules} {j}");
        let j = judged(rules, fen, &format!("{check} {check}"));
        assert_eq!(
            (&j["ruling"], &j["immediate"]),
            (&"red_loses".into(), &true.into()),
            "{rules} {j}"
        );
        assert_eq!(j["cycle"].as_array().map(Vec::len), Some(4), "{rules} {j}");
    }
}

/// Reading `repeat-after-must-change` (1999 24.3 若再重復一次循環，即判負; 2011 4.1.5): after red
/// is told to change (一殺一捉 against idle moves), repeating the cycle once more loses where the
/// stretch ends; a different move leaves the ruling as made, and judging stops at it. The AXF
/// rules give three repetitions (第四節 3).
#[test]
fn a_side_that_repeats_after_must_change_loses() {
    let fen = "4k3c/1N7/7Rb/p1p3p1p/rC7/9/P3P1P1P/1C7/9/2BK2B2 w - - 0 1";
    let cycle = "b5b6 i9h9 b6b5 h9i9";
    for rules in ["cxa-2011", "cxa-1999"] {
        let told = judged(rules, fen, &format!("{cycle} {cycle}"));
        assert_eq!(told["result"], "ongoing", "{rules} {told}");
        assert_eq!(told["must_change"], "red", "{rules} {told}");
        let repeated = judged(rules, fen, &format!("{cycle} {cycle} {cycle}"));
        assert_eq!(repeated["result"], "black_wins", "{rules} {repeated}");
        assert_eq!(repeated["ply"], 12, "{rules} {repeated}");
        assert_eq!(repeated["ruling"], "red_loses", "{rules} {repeated}");
        let short = judged(rules, fen, &format!("{cycle} {cycle} b5b6 i9h9 b6b5"));
        assert_eq!(short["result"], "ongoing", "{rules} {short}");
        assert_eq!(short["ply"], 8, "{rules} {short}");
        let changed = judged(rules, fen, &format!("{cycle} {cycle} b5b6 i9h9 b6b4 h9i9"));
        assert_eq!(changed["result"], "ongoing", "{rules} {changed}");
        assert_eq!(changed["ply"], 8, "{rules} {changed}");
    }
    // The AXF rules count three repetitions after the arbiter's request (第四節 3, reading
    // `axf-repetition-count`): once or twice more leaves the ruling as made, three times loses.
    let fen = "2c1k4/9/9/1n1P5/3C5/9/2p6/9/R1n6/5K3 w - - 0 1";
    let cycle = "d6c6 c3d3 c6d6 d3c3";
    for more in [1, 2] {
        let moves = vec![cycle; 2 + more].join(" ");
        let axf = judged("axf", fen, &moves);
        assert_eq!(axf["must_change"], "red", "{more} {axf}");
        assert_eq!(
            (&axf["result"], &axf["ply"]),
            (&"ongoing".into(), &8.into()),
            "{more} {axf}"
        );
    }
    let axf = judged("axf", fen, &[cycle; 5].join(" "));
    assert_eq!(
        (&axf["result"], &axf["ply"]),
        (&"black_wins".into(), &20.into()),
        "{axf}"
    );
}
