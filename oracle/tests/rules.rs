//! Movement rules, legality, check, checkmate, stalemate and piece identity.

use xiangqi_oracle::{Board, Coord, IllegalMove, OMove, Side, Spec, Status, Violation, When, Zone};

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

fn m(s: &str) -> OMove {
    s.parse().unwrap()
}

fn board(fen: &str) -> Board {
    Board::from_fen(Spec::embedded(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted_moves(b: &Board) -> Vec<String> {
    let mut v: Vec<String> = b.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn violation(b: &Board, mv: &str) -> Violation {
    match b.check_move(m(mv)) {
        Err(IllegalMove::MovementRule { violation, .. }) => violation,
        other => panic!("{mv}: expected a movement-rule violation, got {other:?}"),
    }
}

#[test]
fn start_position_moves() {
    let b = Board::start(Spec::embedded());
    assert_eq!(b.side_to_move(), Side::Red);
    assert_eq!(b.legal_moves().len(), 44);
    let moves = sorted_moves(&b);
    for expected in [
        "h2e2", "b0c2", "h2h9", "b2b9", "e0e1", "a3a4", "c0e2", "d0e1", "i0i2",
    ] {
        assert!(moves.contains(&expected.to_string()), "{expected} missing");
    }
    assert!(!b.in_check(Side::Red) && !b.in_check(Side::Black));
    assert_eq!(b.status(), Status::Ongoing);
}

#[test]
fn illegal_move_reasons_in_the_start_position() {
    let b = Board::start(Spec::embedded());
    assert_eq!(
        b.check_move(m("e4e5")),
        Err(IllegalMove::EmptySquare { from: c("e4") })
    );
    assert_eq!(
        b.check_move(m("e6e5")),
        Err(IllegalMove::NotYourPiece {
            from: c("e6"),
            to_move: Side::Red
        })
    );
    assert_eq!(
        b.check_move(m("h2h0")),
        Err(IllegalMove::OwnPieceOnTarget { to: c("h0") })
    );
    // 砲打隔子: a cannon capture needs exactly one screen.
    assert_eq!(
        violation(&b, "h2h7"),
        Violation::ScreenCount {
            needed: 1,
            found: 0
        }
    );
    let err = b.check_move(m("h2h7")).unwrap_err().to_string();
    assert!(
        err.contains("a cannon capture needs exactly one screen"),
        "{err}"
    );
    // A quiet cannon move may not jump.
    assert_eq!(
        violation(&b, "h2h8"),
        Violation::PathBlocked { at: c("h7") }
    );
    // Pawns: sideways only after the river, never backwards.
    assert_eq!(
        violation(&b, "a3b3"),
        Violation::WrongTime {
            when: When::AfterRiver
        }
    );
    assert_eq!(violation(&b, "a3a2"), Violation::NoSuchMove);
    // Advisors stay in the palace; a rook cannot jump.
    assert_eq!(
        violation(&b, "d0c1"),
        Violation::OutOfZone { zone: Zone::Palace }
    );
    assert_eq!(
        violation(&b, "a0a4"),
        Violation::PathBlocked { at: c("a3") }
    );
    assert_eq!(violation(&b, "b0b3"), Violation::NoSuchMove);
    // The legal cannon capture over one screen.
    assert!(b.is_legal(m("h2h9")));
}

#[test]
fn horse_leg_and_elephant_eye() {
    let mut b = Board::start(Spec::embedded());
    b.play(m("b2b1")).unwrap();
    b.play(m("b7b8")).unwrap();
    assert_eq!(violation(&b, "b0c2"), Violation::Blocked { at: c("b1") });
    let text = b.check_move(m("b0c2")).unwrap_err().to_string();
    assert!(
        text.contains("horse") && text.contains("blocked at b1"),
        "{text}"
    );
    // Both forward leaps share the leg b1.
    assert_eq!(violation(&b, "b0a2"), Violation::Blocked { at: c("b1") });
    // Elephant eye: c0-e2 blocked by a piece on d1.
    let b = board("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1");
    assert_eq!(violation(&b, "c0e2"), Violation::Blocked { at: c("d1") });
    assert!(b.is_legal(m("c0a2")));
    // Elephants may not cross the river.
    let b = board("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1");
    assert_eq!(
        violation(&b, "c4e6"),
        Violation::OutOfZone {
            zone: Zone::OwnHalf
        }
    );
    assert!(b.is_legal(m("c4e2")));
}

#[test]
fn black_vectors_are_turned() {
    // A black pawn moves toward rank 0; across the river it also moves sideways.
    let b = board("3k5/9/9/9/9/4p4/9/9/9/4K4 b - - 0 1");
    let moves = sorted_moves(&b);
    assert!(moves.contains(&"e4e3".to_string()));
    assert!(moves.contains(&"e4d4".to_string()));
    assert!(moves.contains(&"e4f4".to_string()));
    assert!(!moves.contains(&"e4e5".to_string()));
    let b = board("3k5/9/9/4p4/9/9/9/9/9/4K4 b - - 0 1");
    let moves = sorted_moves(&b);
    assert!(moves.contains(&"e6e5".to_string()));
    assert!(!moves.contains(&"e6d6".to_string()));
}

#[test]
fn facing_kings() {
    // A piece between the kings may not leave the file (art. 2.2).
    let b = board("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
    assert!(matches!(
        b.check_move(m("e5d5")),
        Err(IllegalMove::KingsWouldFace { .. })
    ));
    assert!(b.is_legal(m("e5e6")));
    let moves = sorted_moves(&b);
    assert!(!moves.contains(&"e5d5".to_string()));
    assert!(!moves.contains(&"e5f5".to_string()));
    // A king may not step onto the open file of the other king.
    let b = board("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(matches!(
        b.check_move(m("d9e9")),
        Err(IllegalMove::KingsWouldFace { .. })
    ));
    assert_eq!(sorted_moves(&b), vec!["d9d8"]);
    // Facing kings are not check (the king's step does not reach), but such a FEN is refused.
    let (facing, skipped) =
        Board::from_fen_lenient(Spec::embedded(), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert!(facing.kings_facing());
    assert!(!facing.in_check(Side::Red) && !facing.in_check(Side::Black));
    assert_eq!(skipped.len(), 1);
}

#[test]
fn leaving_the_king_in_check() {
    let b = board("3k5/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1");
    assert!(!b.in_check(Side::Red));
    assert!(matches!(
        b.check_move(m("e1d2")),
        Err(IllegalMove::LeavesKingInCheck { .. })
    ));
    let text = b.check_move(m("e1d2")).unwrap_err().to_string();
    assert!(text.contains("check"), "{text}");
    // In check: every legal move answers it (應將, art. 3.1).
    let b = board("3k5/9/9/9/4r4/9/9/9/9/3AK4 w - - 0 1");
    assert!(b.in_check(Side::Red));
    // The rook on e5 checks along the e-file; the advisor blocks on e1 or the king steps aside.
    assert_eq!(sorted_moves(&b), vec!["d0e1", "e0f0"]);
}

#[test]
fn checkmate_and_stalemate() {
    // Rook on d0 checks the king on d9; e9 faces the red king, d8 is covered: 將死.
    let b = board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    assert!(b.in_check(Side::Black));
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.status(), Status::Checkmate { loser: Side::Black });
    // No check, no move: 困毙, a loss for the side to move (art. 3.2, 4.1.3).
    let b = board("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!b.in_check(Side::Black));
    assert!(b.legal_moves().is_empty());
    assert_eq!(b.status(), Status::Stalemate { loser: Side::Black });
    // Checkmate reached by play: the rook closes the d-file.
    let mut b = board("3k5/9/9/9/9/9/9/9/9/2R1K4 w - - 0 1");
    b.play(m("c0d0")).unwrap();
    assert_eq!(b.status(), Status::Checkmate { loser: Side::Black });
    assert!(b.play(m("d9d8")).is_err());
}

#[test]
fn identity_survives_moves_and_captures() {
    let spec = Spec::embedded();
    let mut b = Board::start(spec);
    assert_eq!(b.pieces().count(), 32);
    let cannon = b.piece_id_at(c("h2")).unwrap();
    let black_horse = b.piece_id_at(c("h9")).unwrap();
    let black_rook = b.piece_id_at(c("i9")).unwrap();
    assert_eq!(spec.role(b.piece(cannon).role).id, "cannon");
    assert_eq!(b.piece(cannon).start, c("h2"));
    assert_eq!(b.piece(cannon).side, Side::Red);

    b.play(m("h2h9")).unwrap(); // the cannon takes the horse
    assert_eq!(b.piece_id_at(c("h9")), Some(cannon));
    assert_eq!(b.square_of(cannon), Some(c("h9")));
    assert!(b.piece(black_horse).is_captured());
    assert_eq!(b.square_of(black_horse), None);
    assert_eq!(b.piece(black_horse).start, c("h9"));
    assert_eq!(b.halfmoves(), 0);

    b.play(m("i9h9")).unwrap(); // the rook takes the cannon
    assert_eq!(b.piece_id_at(c("h9")), Some(black_rook));
    assert!(b.piece(cannon).is_captured());
    assert_eq!(b.piece(cannon).start, c("h2"));
    assert_eq!(b.fullmoves(), 2);

    b.play(m("b0c2")).unwrap();
    b.play(m("h9h8")).unwrap(); // the rook moves on; ids are never reused
    assert_eq!(b.piece_id_at(c("h8")), Some(black_rook));
    assert_eq!(b.piece(black_rook).start, c("i9"));
    assert_eq!(b.pieces().count(), 32);
    assert_eq!(b.pieces().filter(|p| p.is_captured()).count(), 2);
    let ids: Vec<_> = b.pieces().map(|p| p.id).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique);
    for p in b.pieces().filter(|p| !p.is_captured()) {
        assert_eq!(b.piece_id_at(p.square.unwrap()), Some(p.id));
    }
}

#[test]
fn play_leaves_board_unchanged_on_error() {
    let mut b = Board::start(Spec::embedded());
    let before = b.to_fen();
    assert!(b.play(m("h2h7")).is_err());
    assert_eq!(b.to_fen(), before);
    b.play(m("h2e2")).unwrap();
    assert_eq!(
        b.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
}

/// Small deterministic generator for random playouts.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// `check_move` (which explains) and `legal_moves` (which generates) must agree on every pair
/// of points, in random games from several positions; `status` must match too.
#[test]
fn explanation_agrees_with_generation() {
    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    ];
    let mut rng = Lcg(7);
    let mut checked = 0;
    for fen in fens {
        for game in 0..4 {
            let mut b = board(fen);
            for _ply in 0..(20 + game * 10) {
                let legal = b.legal_moves();
                for from in Coord::all() {
                    for to in Coord::all() {
                        if from == to {
                            continue;
                        }
                        let mv = OMove::new(from, to);
                        assert_eq!(
                            b.check_move(mv).is_ok(),
                            legal.contains(&mv),
                            "{mv} in {}",
                            b.to_fen()
                        );
                        checked += 1;
                    }
                }
                let status = b.status();
                if legal.is_empty() {
                    assert_ne!(status, Status::Ongoing);
                    break;
                }
                assert_eq!(status, Status::Ongoing);
                let mv = legal[rng.next(legal.len())];
                b.play(mv).unwrap();
                // Round trip through FEN keeps the position.
                let again = board(&b.to_fen());
                assert_eq!(sorted_moves(&again), sorted_moves(&b));
            }
        }
    }
    assert!(checked > 1_000_000);
}

#[test]
fn horse_check_is_blocked_at_the_horse_leg_not_at_the_king() {
    // Black horse d2 attacks e0 through its leg d1; a piece on e1 next to the king is no leg.
    let b = board("3k5/9/9/9/9/9/9/3n5/4A4/4K4 w - - 0 1");
    assert!(b.in_check(Side::Red));
    let b = board("3k5/9/9/9/9/9/9/3n5/3N5/4K4 w - - 0 1");
    assert!(!b.in_check(Side::Red));
    // Horse c1 checks e0 (leg d1); the king escapes to e1 or f0 (d0 would face the black king).
    let b = board("3k5/9/9/9/9/9/9/9/2n6/4K4 w - - 0 1");
    assert!(b.in_check(Side::Red));
    assert_eq!(sorted_moves(&b), vec!["e0e1", "e0f0"]);
}
