//! Fuzz entries for the text and record parsers of the fast library: none may panic, and
//! whatever they read must print and read back to itself. Each panics with the reason on a
//! violation (these are invariants of one implementation, not comparisons).

use xiangqi_rules::notation::{
    parse_chinese, parse_wxf, to_chinese, to_wxf, BlackDigits, Charset, ChineseStyle, Format,
    Sideways, TandemStyle, WxfStyle,
};
use xiangqi_rules::record::{decode_text, pgn, xqf};
use xiangqi_rules::Position;

/// Which move notation [`fuzz_notation`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// 炮二平五, both character sets.
    Chinese,
    /// C2=5, both tandem styles.
    Wxf,
}

/// The first byte is a ply count n, the next n bytes pick moves from the start; the rest is the
/// text to read in the position reached.
fn split(data: &[u8]) -> (Position, &[u8]) {
    let mut pos = Position::startpos();
    let n = data.first().map_or(0, |&b| (b % 64) as usize);
    for &b in data.get(1..1 + n).unwrap_or(&[]) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[b as usize % moves.len()]);
    }
    (pos, data.get(1 + n..).unwrap_or(&[]))
}

/// Any text in a reachable position: the parser never panics; a move it reads is legal and
/// prints and reads back to itself in every style.
pub fn fuzz_notation(data: &[u8], notation: Notation) {
    let (pos, rest) = split(data);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match notation {
        Notation::Chinese => {
            if let Ok(m) = parse_chinese(&pos, text) {
                assert!(pos.is_legal(m));
                for charset in [Charset::Traditional, Charset::Simplified] {
                    let style = ChineseStyle {
                        charset,
                        black_digits: BlackDigits::FullWidth,
                    };
                    let printed = to_chinese(&pos, m, &style).expect("a legal move prints");
                    assert_eq!(parse_chinese(&pos, &printed), Ok(m), "{printed}");
                }
            }
        }
        Notation::Wxf => {
            if let Ok(m) = parse_wxf(&pos, text) {
                assert!(pos.is_legal(m));
                for tandem in [TandemStyle::Prefix, TandemStyle::Suffix] {
                    let style = WxfStyle {
                        tandem,
                        sideways: Sideways::Equals,
                    };
                    let printed = to_wxf(&pos, m, &style).expect("a legal move prints");
                    assert_eq!(parse_wxf(&pos, &printed), Ok(m), "{printed}");
                }
            }
        }
    }
}

/// Any bytes: the PGN reader never panics (UTF-8 or GB18030), and every game it reads is
/// written back and read again to the same game: always in ICCS, and in Chinese and WXF
/// whenever those can name every move.
pub fn fuzz_pgn(data: &[u8]) {
    let text = decode_text(data).0;
    for game in pgn::read_games(&text).into_iter().flatten() {
        for format in [Format::Iccs, Format::Chinese, Format::Wxf] {
            let out = match pgn::write_pgn(&game, format, &Default::default()) {
                Ok(out) => out,
                Err(_) if format != Format::Iccs => continue,
                Err(e) => panic!("a read game writes in ICCS: {e}"),
            };
            let back = pgn::read_pgn(&out).expect("a written game reads");
            assert_eq!(back.len(), 1, "{out}");
            assert_eq!(back[0].moves, game.moves, "{out}");
            assert_eq!(back[0].start_fen, game.start_fen, "{out}");
            assert_eq!(back[0].result, game.result, "{out}");
        }
    }
}

/// Any bytes: the XQF reader never panics, and a file it reads is written back (plain and
/// obfuscated) and read again to the same game.
pub fn fuzz_xqf(data: &[u8]) {
    if let Ok(game) = xqf::read_xqf(data) {
        for version in [10, 18] {
            let opts = xqf::XqfWriteOptions {
                version,
                key_seed: data.len() as u8,
            };
            let bytes = xqf::write_xqf(&game, &opts).expect("a read game writes");
            let back = xqf::read_xqf(&bytes).expect("a written game reads");
            assert_eq!(back.moves, game.moves);
            assert_eq!(back.start_fen, game.start_fen);
            assert_eq!(back.result, game.result);
        }
    }
}
