//! Properties of the fast implementation: FEN round trip, mirror and colour-flip symmetry of
//! move generation, make/unmake, and the incremental Zobrist hash. proptest drives the
//! position-level properties; quickcheck the text-level ones.

use proptest::prelude::*;
use quickcheck::{QuickCheck, TestResult};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::random_valid_fen;
use xiangqi_rules::{Move, Position, RankConvention};

/// A position reached by `plies` random moves from either the start or a random placement.
fn position(seed: u64, plies: usize, from_start: bool) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = if from_start {
        Position::startpos()
    } else {
        Position::from_fen(&random_valid_fen(&mut rng)).expect("generator gives valid FENs")
    };
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let Some(&m) = moves.choose(&mut rng) else {
            break;
        };
        pos.play(m);
    }
    pos
}

fn expand_board(fen: &str) -> (Vec<Vec<char>>, String) {
    let (board, rest) = fen.split_once(' ').expect("fen has fields");
    let rows = board
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                    None => cells.push(c),
                }
            }
            cells
        })
        .collect();
    (rows, rest.to_string())
}

fn compress_board(rows: &[Vec<char>]) -> String {
    rows.iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Left-right mirror image (files a<->i), computed on the FEN text.
fn mirror_fen(fen: &str) -> String {
    let (mut rows, rest) = expand_board(fen);
    for row in &mut rows {
        row.reverse();
    }
    format!("{} {}", compress_board(&rows), rest)
}

/// Colour flip: rotate the board by 180 degrees, swap the colours and the side to move.
fn flip_fen(fen: &str) -> String {
    let (mut rows, rest) = expand_board(fen);
    rows.reverse();
    for row in &mut rows {
        row.reverse();
        for c in row.iter_mut() {
            *c = if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            };
        }
    }
    let mut fields: Vec<String> = rest.split(' ').map(str::to_string).collect();
    fields[0] = if fields[0] == "w" {
        "b".into()
    } else {
        "w".into()
    };
    format!("{} {}", compress_board(&rows), fields.join(" "))
}

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_iccs(RankConvention::Iccs))
        .collect();
    v.sort();
    v
}

fn map_move(m: &str, f: impl Fn(u8, u8) -> (u8, u8)) -> String {
    let b = m.as_bytes();
    let (f1, r1) = f(b[0] - b'a', b[1] - b'0');
    let (f2, r2) = f(b[2] - b'a', b[3] - b'0');
    format!(
        "{}{}{}{}",
        (b'a' + f1) as char,
        (b'0' + r1) as char,
        (b'a' + f2) as char,
        (b'0' + r2) as char
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trips(seed in any::<u64>(), plies in 0usize..120, from_start in any::<bool>()) {
        let pos = position(seed, plies, from_start);
        let fen = pos.to_fen();
        let again = Position::from_fen(&fen).expect("printed FEN parses");
        prop_assert_eq!(again.to_fen(), fen);
        prop_assert_eq!(again.hash(), pos.hash());
    }

    #[test]
    fn move_generation_is_mirror_symmetric(seed in any::<u64>(), plies in 0usize..120, from_start in any::<bool>()) {
        let pos = position(seed, plies, from_start);
        let mirrored = Position::from_fen(&mirror_fen(&pos.to_fen())).expect("mirror is valid");
        let mut expected: Vec<String> = sorted_moves(&pos).iter().map(|m| map_move(m, |f, r| (8 - f, r))).collect();
        expected.sort();
        prop_assert_eq!(sorted_moves(&mirrored), expected);
        prop_assert_eq!(mirrored.is_check(), pos.is_check());
    }

    #[test]
    fn move_generation_is_colour_flip_symmetric(seed in any::<u64>(), plies in 0usize..120, from_start in any::<bool>()) {
        let mut pos = position(seed, plies, from_start);
        let mut flipped = Position::from_fen(&flip_fen(&pos.to_fen())).expect("flip is valid");
        let mut expected: Vec<String> = sorted_moves(&pos).iter().map(|m| map_move(m, |f, r| (8 - f, 9 - r))).collect();
        expected.sort();
        prop_assert_eq!(sorted_moves(&flipped), expected);
        prop_assert_eq!(flipped.perft(2), pos.perft(2));
        prop_assert_eq!(flipped.outcome().is_some(), pos.outcome().is_some());
    }

    #[test]
    fn play_then_undo_restores_position_and_hash(seed in any::<u64>(), plies in 0usize..120, from_start in any::<bool>()) {
        let mut pos = position(seed, plies, from_start);
        let fen = pos.to_fen();
        let hash = pos.hash();
        for m in pos.legal_moves().iter().copied().collect::<Vec<Move>>() {
            let undo = pos.play(m);
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash after {}", m);
            pos.undo(m, undo);
            prop_assert_eq!(pos.to_fen(), fen.clone());
            prop_assert_eq!(pos.hash(), hash);
        }
    }
}

#[test]
fn iccs_round_trips_for_any_pair_of_points() {
    fn prop(a: u8, b: u8, fs: bool) -> TestResult {
        let (a, b) = (a % 90, b % 90);
        if a == b {
            return TestResult::discard();
        }
        let text = format!(
            "{}{}{}{}",
            (b'a' + a % 9) as char,
            a / 9 + u8::from(fs),
            (b'a' + b % 9) as char,
            b / 9 + u8::from(fs)
        );
        let conv = if fs {
            RankConvention::FairyStockfish
        } else {
            RankConvention::Iccs
        };
        match Move::parse_iccs(&text, conv) {
            Ok(m) => TestResult::from_bool(m.to_iccs(conv) == text),
            Err(_) => TestResult::failed(),
        }
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(u8, u8, bool) -> TestResult);
}

#[test]
fn fen_parser_never_panics_and_valid_text_round_trips() {
    fn prop(text: String) -> bool {
        match Position::from_fen(&text) {
            Ok(pos) => Position::from_fen(&pos.to_fen()).is_ok(),
            Err(e) => !e.to_string().is_empty(),
        }
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(prop as fn(String) -> bool);
}

#[test]
fn iccs_parser_rejects_out_of_range_text_with_a_reason() {
    for bad in ["", "h2", "h2e", "j2e2", "h2e:", "h2e2x", "h0h0", "a9a10"] {
        let err = Move::parse_iccs(bad, RankConvention::Iccs);
        assert!(err.is_err(), "{bad:?} must be rejected");
    }
    assert_eq!(
        Move::parse_iccs("a9a10", RankConvention::FairyStockfish)
            .expect("rank 10 exists in 1-10")
            .to_iccs(RankConvention::Iccs),
        "a8a9"
    );
    assert!(
        Move::parse_iccs("a0a1", RankConvention::FairyStockfish).is_err(),
        "rank 0 does not exist in 1-10"
    );
}
