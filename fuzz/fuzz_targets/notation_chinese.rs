//! Any text in any reachable position: the Chinese parser never panics, and a move it reads
//! prints and reads back to itself (both character sets).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_rules::notation::{parse_chinese, to_chinese, BlackDigits, Charset, ChineseStyle};
use xiangqi_rules::Position;

/// The first byte is a ply count n, the next n bytes pick moves; the rest is the text.
fn split(data: &[u8]) -> (Position, &[u8]) {
    let mut pos = Position::startpos();
    let n = data.first().map_or(0, |&b| (b % 64) as usize);
    let picks = data.get(1..1 + n).unwrap_or(&[]);
    for &b in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[b as usize % moves.len()]);
    }
    (pos, data.get(1 + n..).unwrap_or(&[]))
}

fuzz_target!(|data: &[u8]| {
    let (pos, rest) = split(data);
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
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
});
