//! Unit tests of the fast implementation: move explanations agree with generation, hashing,
//! make/unmake, FEN validation.

use crate::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn mv(s: &str) -> Move {
    Move::parse_iccs(s, RankConvention::Iccs).unwrap()
}

fn why(fen: &str, m: &str) -> String {
    let pos = Position::from_fen(fen).unwrap();
    match pos.check_move(mv(m)) {
        Ok(()) => panic!("{m} is legal in {fen}"),
        Err(e) => e.to_string(),
    }
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn check_move_agrees_with_generation_and_hash_is_incremental() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let fens = [
        START,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    ];
    for (game, fen) in fens.iter().cycle().take(40).enumerate() {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut history = Vec::new();
        for _ply in 0..60 {
            let legal = pos.legal_moves();
            assert_eq!(legal.len() as u64, pos.count_legal());
            for from in 0..90u8 {
                let from = Square::new(from).unwrap();
                if pos.piece_at(from).map(|p| p.color) != Some(pos.turn()) {
                    continue;
                }
                for to in 0..90u8 {
                    let to = Square::new(to).unwrap();
                    if from == to {
                        continue;
                    }
                    let m = Move::new(from, to);
                    let in_list = legal.contains(&m);
                    assert_eq!(
                        pos.check_move(m).is_ok(),
                        in_list,
                        "game {game} {} move {m}: {:?}",
                        pos.to_fen(),
                        pos.check_move(m)
                    );
                    assert_eq!(pos.is_legal(m), in_list);
                }
            }
            let Some(&m) = legal.choose(&mut rng) else {
                assert!(pos.outcome().is_some());
                break;
            };
            let before = pos.clone();
            let u = pos.play(m);
            assert_eq!(pos.hash(), pos.compute_hash());
            assert!(
                !pos.king_attacked(!pos.turn()),
                "legal move left king attacked"
            );
            assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
            pos.undo(m, u);
            assert_eq!(pos, before);
            let u = pos.play(m);
            history.push((m, u));
        }
        while let Some((m, u)) = history.pop() {
            pos.undo(m, u);
        }
        assert_eq!(pos, Position::from_fen(fen).unwrap());
    }
}

#[test]
fn explanations() {
    // Horse leg.
    assert_eq!(
        why(START, "b0d1"),
        "no piece can move from b0 to d1 (horse leg blocked at c0)"
    );
    // Elephant eye, elephant crossing the river.
    let fen = "3k5/9/9/9/9/2B6/3N5/9/9/4K4 w - - 0 1";
    assert_eq!(
        why(fen, "c4e6"),
        "no piece can move from c4 to e6 (an elephant cannot cross the river)"
    );
    assert_eq!(
        why(fen, "c4e2"),
        "no piece can move from c4 to e2 (elephant eye blocked at d3)"
    );
    assert_eq!(
        why(fen, "c4c5"),
        "no piece can move from c4 to c5 (an elephant moves exactly two points diagonally)"
    );
    // King and advisor leave the palace.
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(
        why(fen, "d0c0"),
        "no piece can move from d0 to c0 (the king cannot leave the palace)"
    );
    assert_eq!(
        why(START, "d0c1"),
        "no piece can move from d0 to c1 (the advisor cannot leave the palace)"
    );
    // Pawns.
    let fen = "4k4/9/9/4P4/9/9/P8/9/9/4K4 w - - 0 1";
    assert_eq!(
        why(fen, "a3a2"),
        "no piece can move from a3 to a2 (a pawn cannot move backward)"
    );
    assert_eq!(
        why(fen, "a3b3"),
        "no piece can move from a3 to b3 (a pawn cannot move sideways before crossing the river)"
    );
    assert!(Position::from_fen(fen)
        .unwrap()
        .check_move(mv("e6e7"))
        .is_ok());
    assert_eq!(
        why(fen, "e6d6"),
        "the kings would face each other (將帥對面)"
    );
    // Cannon and rook.
    assert_eq!(
        why(START, "b2b7"),
        "no piece can move from b2 to b7 (a cannon capture needs exactly one screen)"
    );
    assert_eq!(
        why(START, "b2b8"),
        "no piece can move from b2 to b8 (cannon path blocked at b7)"
    );
    assert_eq!(
        why(START, "a0a4"),
        "no piece can move from a0 to a4 (rook path blocked at a3)"
    );
    // Other reasons.
    assert_eq!(why(START, "a0b0"), "cannot capture own piece on b0");
    assert_eq!(why(START, "e5e6"), "there is no piece on e5");
    assert_eq!(
        why(START, "e6e5"),
        "the piece on e6 belongs to Black, but Red is to move"
    );
    let fen = "4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1";
    assert_eq!(why(fen, "d0e0"), "leaves own king in check");
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        why(fen, "e0d0"),
        "the kings would face each other (將帥對面)"
    );
    let fen = "3k5/9/9/9/9/9/9/9/3C5/3K5 w - - 0 1";
    assert_eq!(
        why(fen, "d1e1"),
        "the kings would face each other (將帥對面)"
    );
}

#[test]
fn parse_moves_errors() {
    let pos = Position::startpos();
    let e = parse_moves(&pos, "h2e2 h9g7 x", RankConvention::Iccs).unwrap_err();
    assert_eq!(e.index, 3);
    assert_eq!(
        e.to_string(),
        "move 3 \"x\": expected <file><rank><file><rank> such as h2e2, found \"x\""
    );
    let ok = parse_moves(&pos, "h3e3 h10g8", RankConvention::FairyStockfish).unwrap();
    assert_eq!(ok[0].to_string(), "h2e2");
    assert!(Move::parse_iccs("h2e2", RankConvention::FairyStockfish).is_ok());
    assert!(Move::parse_iccs("h0e0", RankConvention::FairyStockfish).is_err());
    assert!(Move::parse_iccs("h10e1", RankConvention::Iccs).is_err());
    assert!(Move::parse_iccs("j2e2", RankConvention::Iccs).is_err());
    assert!(Move::parse_iccs("h2h2", RankConvention::Iccs).is_err());
}

#[test]
fn fen_errors() {
    let err = |f: &str| Position::from_fen(f).unwrap_err();
    assert_eq!(err(""), FenError::Empty);
    assert!(matches!(
        err("9/9 w"),
        FenError::Board(BoardError::RankCount(2))
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
        FenError::Board(BoardError::RankTooLong { rank: 0 })
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
        FenError::Board(BoardError::RankTooShort { rank: 0, points: 8 })
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
        FenError::Board(BoardError::BadChar { ch: 'X', .. })
    ));
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
        FenError::Side("x".into())
    );
    assert!(matches!(
        err(&START.replace("w - -", "w KQ -")),
        FenError::Dash { field: 3, .. }
    ));
    assert!(matches!(
        err(&START.replace(" 0 1", " x 1")),
        FenError::Halfmove(_)
    ));
    assert!(matches!(
        err(&START.replace(" 0 1", " 0 0")),
        FenError::Fullmove(_)
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/9/9 w"),
        FenError::KingCount {
            color: Color::Red,
            count: 0
        }
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/4K4/3K5 w"),
        FenError::KingCount {
            color: Color::Red,
            count: 2
        }
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/9/2K6 w"),
        FenError::KingOutsidePalace {
            color: Color::Red,
            ..
        }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/PPPPPP3/9/9/4K4 w"),
        FenError::TooMany {
            found: 6,
            max: 5,
            ..
        }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/9/9/9/A3K4 w"),
        FenError::Unreachable { .. }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/9/9/1P7/4K4 w"),
        FenError::Unreachable { .. }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/1P7/9/9/4K4 w"),
        FenError::Unreachable { .. }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/9/9/9/1B2K4 w"),
        FenError::Unreachable { .. }
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 b"),
        FenError::KingsFacing { file: 'e' }
    ));
    assert!(matches!(
        err("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
        FenError::OpponentInCheck {
            color: Color::Black
        }
    ));
    // Missing clocks default to 0 1; `r` means Red.
    let p = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r")
        .unwrap();
    assert_eq!(p.to_fen(), START);
    assert!(err("3k5/9/9/9/9/9/9/9/9/3RK4 w")
        .to_string()
        .starts_with("side to move:"));
}

#[test]
fn lenient() {
    let (p, r) = Position::from_fen_lenient("3k5/9/9/9/9/9/9/9/9/A2RK4 w - - 0 1").unwrap();
    assert_eq!(
        r,
        vec![
            Relaxation::Unreachable {
                piece: Piece::new(Color::Red, Role::Advisor),
                square: sq("a0")
            },
            Relaxation::OpponentInCheck {
                color: Color::Black
            }
        ]
    );
    assert_eq!(p.legal_moves().len() as u64, p.count_legal());
    let (_, r) = Position::from_fen_lenient(START).unwrap();
    assert!(r.is_empty());
    assert!(Position::from_fen_lenient("3k5/9/9/9/9/9/9/9/9/2K6 w").is_err());
}

/// A lenient set-up whose pieces could overflow a move list is refused with a typed error,
/// whichever side is crowded; one just within the bound is accepted and stays within it.
#[test]
fn lenient_setups_must_fit_a_move_list() {
    // 36 red rooks: up to 36 * 17 + 4 = 616 moves.
    let rooks = "3k5/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/\
                 nRnRnRnRn/4K4 b - - 0 1";
    let e = Position::from_fen_lenient(rooks).unwrap_err();
    assert_eq!(
        e,
        FenError::TooCrowded {
            color: Color::Red,
            bound: 616,
            max: MAX_MOVES
        }
    );
    assert_eq!(
        e.to_string(),
        "board: Red's pieces could have up to 616 moves at once (at most 256 are handled)"
    );
    // The strict reader finds too many rooks first.
    assert!(matches!(
        Position::from_fen(rooks),
        Err(FenError::TooMany { found: 36, .. })
    ));
    // The same for Black.
    let flipped = "4k4/rPrPrPrPr/PrPrPrPrP/rPrPrPrPr/PrPrPrPrP/rPrPrPrPr/PrPrPrPrP/rPrPrPrPr/\
                   PrPrPrPrP/3K5 w - - 0 1";
    assert!(matches!(
        Position::from_fen_lenient(flipped),
        Err(FenError::TooCrowded {
            color: Color::Black,
            bound: 616,
            ..
        })
    ));
    // The most moves of each piece: a rook or cannon on an open board 17, a horse 8, an
    // elephant, advisor or king 4, a crossed pawn 3.
    for c in Color::ALL {
        let most = |r: Role| crate::tables::most_moves(c.index(), r.index());
        assert_eq!(
            [
                Role::Rook,
                Role::Cannon,
                Role::Horse,
                Role::Elephant,
                Role::Advisor,
                Role::King,
                Role::Pawn
            ]
            .map(most),
            [17, 17, 8, 4, 4, 4, 3]
        );
    }
    // 15 rooks and a king (15 * 17 + 4 = 259) are too many; 14 rooks, a pawn and the king
    // (14 * 17 + 3 + 4 = 245) fit, and their moves stay within the bound.
    let over = "3k5/9/9/9/9/R8/R1R1R1R1R/1R1R1R1R1/R1R1R1R1R/4K4 w - - 0 1";
    assert!(matches!(
        Position::from_fen_lenient(over),
        Err(FenError::TooCrowded { bound: 259, .. })
    ));
    let (p, _) =
        Position::from_fen_lenient("3k5/9/9/9/4P4/9/R1R1R1R1R/1R1R1R1R1/R1R1R1R1R/4K4 w - - 0 1")
            .unwrap();
    assert!(p.legal_moves().len() <= 245);
}

#[test]
fn outcomes() {
    // Black king d9 checkmated by rook on d-file supported by facing king? Use two rooks.
    let mate = Position::from_fen("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(mate.is_check());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Checkmate { winner: Color::Red })
    );
    // Stalemate: black king on d9, red rooks on c- and e-files... d8 covered by e-file king? Build:
    // Black king e9 in corner-like block: advisors d9/f9 are own pieces, e8 attacked by rook.
    let stale = Position::from_fen("3aka3/9/4R4/9/9/9/9/9/9/3K5 b - - 0 1");
    if let Ok(p) = stale {
        if !p.is_check() && p.count_legal() == 0 {
            assert_eq!(p.outcome(), Some(Outcome::Stalemate { winner: Color::Red }));
        }
    }
    assert_eq!(Position::startpos().outcome(), None);
}

/// Random lenient placements (pieces anywhere, kings in their palaces): the generator, the
/// move explanations and a play-and-look reference agree.
#[test]
fn random_lenient_positions_agree_with_reference() {
    use rand::Rng;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let palace = |c: Color| {
        (0..90u8)
            .filter(|&i| tables::PALACE[c.index()] & (1u128 << i) != 0)
            .collect::<Vec<_>>()
    };
    let mut checked = 0;
    for _ in 0..400 {
        let mut board = [None; 90];
        for c in Color::ALL {
            let p = palace(c);
            let k = *p.choose(&mut rng).unwrap();
            board[k as usize] = Some(Piece::new(c, Role::King));
        }
        let n = rng.gen_range(2..24);
        for _ in 0..n {
            let sq = rng.gen_range(0..90usize);
            if board[sq].is_none() {
                let role = Role::ALL[rng.gen_range(1..7)];
                let color = if rng.gen_bool(0.5) {
                    Color::Red
                } else {
                    Color::Black
                };
                board[sq] = Some(Piece::new(color, role));
            }
        }
        let turn = if rng.gen_bool(0.5) {
            Color::Red
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            halfmoves: 0,
            fullmoves: 1,
        };
        let Ok((pos, _)) = Position::from_setup_lenient(&setup) else {
            continue;
        };
        // The side not to move must not be capturable, or "legal" is meaningless.
        if pos.king_attacked(!turn) {
            continue;
        }
        checked += 1;
        let legal = pos.legal_moves();
        for from in 0..90u8 {
            for to in 0..90u8 {
                if from == to {
                    continue;
                }
                let m = Move::new(Square::new(from).unwrap(), Square::new(to).unwrap());
                let reference = match pos.piece_at(m.from()) {
                    Some(p) if p.color == turn => {
                        !matches!(pos.piece_at(m.to()), Some(t) if t.color == turn)
                            && pos.explain_shape(m.from(), m.to()).is_ok()
                            && {
                                let mut after = pos.clone();
                                after.play(m);
                                !after.king_attacked(turn) && !after.kings_facing()
                            }
                    }
                    _ => false,
                };
                assert_eq!(legal.contains(&m), reference, "{} {m}", pos.to_fen());
                assert_eq!(pos.check_move(m).is_ok(), reference, "{} {m}", pos.to_fen());
            }
        }
        assert_eq!(legal.len() as u64, pos.count_legal());
    }
    assert!(checked > 100, "only {checked} positions checked");
}

/// The shortcuts that settle legality without the attack test, out of check: a move they call
/// legal is legal, a position where they find a move has one, and they decide many of the
/// moves and most of the positions of random games.
#[test]
fn legality_off_the_king_lines_needs_no_attack_test() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut moves_decided, mut moves_seen) = (0, 0);
    let (mut positions_decided, mut positions_seen) = (0, 0);
    for _ in 0..30 {
        let mut pos = Position::startpos();
        for _ in 0..150 {
            if !pos.is_check() {
                for from in (0..90).map(Square::new_unchecked) {
                    for to in (0..90).map(Square::new_unchecked) {
                        let m = Move::new(from, to);
                        if pos.is_legal_off_king_lines(m) {
                            assert!(pos.is_legal(m), "{} {m}", pos.to_fen());
                            moves_decided += 1;
                        }
                    }
                }
                moves_seen += pos.legal_moves().len();
                positions_seen += 1;
                if pos.has_move_off_king_lines() {
                    assert!(pos.has_legal_move(), "{}", pos.to_fen());
                    positions_decided += 1;
                }
            }
            let legal = pos.legal_moves();
            let Some(&m) = legal.choose(&mut rng) else {
                break;
            };
            pos.play(m);
        }
    }
    // 44% of the moves and 9 positions in 10 of these games.
    assert!(
        moves_decided * 10 > moves_seen * 4,
        "{moves_decided} of {moves_seen}"
    );
    assert!(
        positions_decided * 10 > positions_seen * 9,
        "{positions_decided} of {positions_seen}"
    );
}
