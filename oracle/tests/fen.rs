//! FEN reading, writing and every `FenError` variant.

use xiangqi_oracle::{Board, Coord, FenError, FenField, Side, Spec, Validation};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn err(fen: &str) -> FenError {
    match Board::from_fen(Spec::embedded(), fen) {
        Ok(b) => panic!("{fen} accepted as {}", b.to_fen()),
        Err(e) => e,
    }
}

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

#[test]
fn start_round_trip_and_defaults() {
    let spec = Spec::embedded();
    let b = Board::from_fen(spec, START).unwrap();
    assert_eq!(b.to_fen(), START);
    assert_eq!(Board::start(spec).to_fen(), START);
    // Missing clocks default to 0 1; `r` means Red and is printed as `w`.
    let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
    assert_eq!(Board::from_fen(spec, short).unwrap().to_fen(), START);
    let four = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -";
    assert_eq!(Board::from_fen(spec, four).unwrap().to_fen(), START);
    let clocks = "3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 42";
    let b = Board::from_fen(spec, clocks).unwrap();
    assert_eq!(b.side_to_move(), Side::Black);
    assert_eq!((b.halfmoves(), b.fullmoves()), (17, 42));
    assert_eq!(b.to_fen(), clocks);
}

#[test]
fn syntax_errors() {
    assert_eq!(err("rnbakabnr/9"), FenError::FieldCount { found: 1 });
    assert_eq!(
        err(&format!("{START} 7")),
        FenError::FieldCount { found: 7 }
    );
    assert_eq!(err(""), FenError::FieldCount { found: 0 });
    assert_eq!(err("9/9/9 w"), FenError::RankCount { found: 3 });
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K3 w"),
        FenError::RankWidth { rank: 0, width: 8 }
    );
    assert_eq!(
        err("3k6/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::RankWidth { rank: 9, width: 10 }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K3H w"),
        FenError::BadPieceChar { rank: 0, ch: 'H' }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K04 w"),
        FenError::BadPieceChar { rank: 0, ch: '0' }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 x"),
        FenError::BadSide { found: "x".into() }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w KQ - 0 1"),
        FenError::NotDash {
            field: FenField::Castling,
            found: "KQ".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - e3 0 1"),
        FenError::NotDash {
            field: FenField::EnPassant,
            found: "e3".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1"),
        FenError::BadClock {
            field: FenField::Halfmove,
            found: "x".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 0"),
        FenError::BadClock {
            field: FenField::Fullmove,
            found: "0".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - -1 1"),
        FenError::BadClock {
            field: FenField::Halfmove,
            found: "-1".into()
        }
    );
}

#[test]
fn validation_errors() {
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::MissingKing {
            side: Side::Black,
            king: "king".into()
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/RR1RK4 w"),
        FenError::TooMany {
            side: Side::Red,
            piece: "rook".into(),
            found: 3,
            max: 2
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/PPPPKPPP1 w"),
        FenError::TooMany {
            side: Side::Red,
            piece: "pawn".into(),
            found: 7,
            max: 5
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3KK4 w"),
        FenError::TooMany {
            side: Side::Red,
            piece: "king".into(),
            found: 2,
            max: 1
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/2K6 w"),
        FenError::KingOutsidePalace {
            side: Side::Red,
            king: "king".into(),
            at: c("c0")
        }
    );
    assert_eq!(
        err("9/9/9/3k5/9/9/9/9/9/4K4 w"),
        FenError::KingOutsidePalace {
            side: Side::Black,
            king: "king".into(),
            at: c("d6")
        }
    );
    // Elephant across the river, elephant off its points, advisor off the diagonals,
    // pawn behind its start rank, pawn beside its start file before the river.
    for (fen, piece, at, side) in [
        ("3k5/9/9/9/2B6/9/9/9/9/4K4 w", "elephant", "c5", Side::Red),
        ("3k5/9/9/9/9/4B4/9/9/9/4K4 w", "elephant", "e4", Side::Red),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "advisor", "d1", Side::Red),
        ("3k5/9/9/9/9/9/9/4A4/9/4K4 w", "advisor", "e2", Side::Red),
        ("3k5/9/9/9/9/9/9/P8/9/4K4 w", "pawn", "a2", Side::Red),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "pawn", "b3", Side::Red),
        ("3k5/9/9/1p7/9/9/9/9/9/4K4 w", "pawn", "b6", Side::Black),
        ("3k5/9/p8/9/9/9/9/9/9/4K4 w", "pawn", "a7", Side::Black),
    ] {
        let e = err(fen);
        assert_eq!(
            e,
            FenError::Unreachable {
                side,
                piece: piece.into(),
                at: c(at)
            },
            "{fen}"
        );
    }
    // A red advisor on e1 is fine; a black pawn on i0 or a4 (across the river) is fine.
    Board::from_fen(Spec::embedded(), "3k5/9/9/9/9/p8/9/9/9/4K4 w").unwrap();
    Board::from_fen(Spec::embedded(), "3k5/9/9/9/9/9/9/9/4A4/4K3p w").unwrap();
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
        FenError::OpponentInCheck { side: Side::Black }
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing);
}

#[test]
fn errors_name_their_field() {
    assert_eq!(err("x").field(), FenField::Whole);
    assert_eq!(err("9/9 w").field(), FenField::Board);
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/4K4 y").field(), FenField::Side);
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 x").field(),
        FenField::Fullmove
    );
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/3RK4 w").field(), FenField::Side);
    let text = err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 x").to_string();
    assert!(text.starts_with("fullmove field"), "{text}");
    let text = err("3k5/9/9/9/9/9/9/9/9/RR1RK4 w").to_string();
    assert!(
        text.starts_with("board field") && text.contains("rook"),
        "{text}"
    );
}

#[test]
fn lenient_reports_what_it_skipped() {
    let spec = Spec::embedded();
    let (b, skipped) = Board::from_fen_lenient(spec, START).unwrap();
    assert!(skipped.is_empty());
    assert_eq!(b.to_fen(), START);

    // Three rooks, an elephant across the river, red in check while black is to move... and
    // no black king at all.
    let fen = "9/9/9/9/2B6/9/9/9/9/RR1RK4 b - - 0 1";
    let (b, skipped) = Board::from_fen_lenient(spec, fen).unwrap();
    let kinds: Vec<Validation> = skipped.iter().map(|r| r.validation).collect();
    assert_eq!(
        kinds,
        vec![
            Validation::PieceCount,
            Validation::PieceCount,
            Validation::Placement
        ]
    );
    assert!(matches!(
        skipped[0].violation,
        FenError::TooMany { found: 3, .. }
    ));
    assert!(matches!(
        skipped[1].violation,
        FenError::MissingKing {
            side: Side::Black,
            ..
        }
    ));
    assert_eq!(b.to_fen(), fen);
    // Without a black king there is no check; black has no pieces and is stalemated.
    assert!(b.legal_moves().is_empty());

    let (b, skipped) = Board::from_fen_lenient(spec, "3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1").unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].validation, Validation::Check);
    assert!(b.in_check(Side::Black));
    // Syntax errors are never skipped.
    assert_eq!(
        Board::from_fen_lenient(spec, "9/9 w").unwrap_err(),
        FenError::RankCount { found: 2 }
    );
}
