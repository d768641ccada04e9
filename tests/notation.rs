//! The move notations: the printed moves of the rule books (shared/cases), hand-made positions
//! for every tandem convention, typed errors, and parse(print(m)) == m for every legal move of
//! many random positions, in every notation and style.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::random_valid_fen;
use xiangqi_rules::notation::{
    format_move, parse_chinese, parse_move, parse_move_list, parse_wxf, to_chinese, to_wxf,
    BlackDigits, Charset, ChineseStyle, Format, NotationError, Sideways, Style, TandemStyle,
    WxfStyle,
};
use xiangqi_rules::{Move, Position, RankConvention};

/// (id, FEN, printed Chinese moves, ICCS moves) from shared/cases/cxa1999.yaml and cxa2011-main.yaml.
const PRINTED: &[(&str, &str, &str, &str)] = &[
    (
        "cxa1999-fig01",
        "2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1",
        "車四平五 將５平６ 車五平四 將６平５ 車四平五",
        "f0e0 e8f8 e0f0 f8e8 f0e0",
    ),
    (
        "cxa1999-fig03",
        "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1",
        "馬二退一 車９平８ 馬一進二 車８平９ 馬二退一",
        "h6i4 i9h9 i4h6 h9i9 h6i4",
    ),
    (
        "cxa1999-fig04",
        "2b1kr3/1r2a4/4ba3/1N1R5/9/4p4/9/4B4/4A4/3AK1B2 w - - 0 1",
        "車六平五 卒５平４ 車五平六 卒４平５ 車六平五",
        "d6e6 e4d4 e6d6 d4e4 d6e6",
    ),
    (
        "cxa1999-fig06",
        "c4k3/4a4/b4a3/1Np5p/6p2/9/6P2/4B4/r3A4/N2RKA3 w - - 0 1",
        "馬八進七 砲１進１ 馬七退八 砲１退１ 馬八進七",
        "b6c8 a9a8 c8b6 a8a9 b6c8",
    ),
    (
        "cxa1999-fig07",
        "1Cbak4/1r2a4/c3b4/p8/2p1R4/6P1P/2P6/4B4/4A4/2BAK4 w - - 0 1",
        "砲八平九 車２平１ 砲九平八 車１平２ 砲八平九",
        "b9a9 b8a8 a9b9 a8b8 b9a9",
    ),
    (
        "cxa1999-fig09",
        "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1",
        "砲一平二 車９平８ 砲二平一 車８平９ 砲一平二",
        "i0h0 i8h8 h0i0 h8i8 i0h0",
    ),
    (
        "cxa1999-fig10",
        "5aR2/3ka4/3cc4/3R5/9/2P3p2/P1r6/4B4/4A2n1/2B1KA3 w - - 0 1",
        "車六平五 砲４平２ 車五平六 砲２平４ 車六平五",
        "d6e6 d7b7 e6d6 b7d7 d6e6",
    ),
    (
        "cxa1999-fig11",
        "3a2b1r/4ak3/8b/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1",
        "帅六平五 卒５平４ 帅五平六 卒４平５ 帅六平五",
        "d1e1 e0d0 e1d1 d0e0 d1e1",
    ),
    (
        "cxa1999-fig12",
        "2P1kn3/4r4/9/9/p3p3R/9/4P4/4B4/9/2BAKA3 w - - 0 1",
        "車一進四 車５平６ 車一退四 車６平５ 車一進四",
        "i5i9 e8f8 i9i5 f8e8 i5i9",
    ),
    (
        "cxa1999-fig15",
        "3k1a3/4a4/b3b4/9/9/4R4/4n4/3Ar4/3KA4/9 w - - 0 1",
        "車五平六 將４平５ 車六平五 將５平４ 車五平六 將４平５ 車六平五",
        "e4d4 d9e9 d4e4 e9d9 e4d4 d9e9 d4e4",
    ),
    (
        "cxa2011-fig2",
        "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1",
        "马二退一 车９平８ 马一进二 车８平９",
        "h6i4 i9h9 i4h6 h9i9",
    ),
    (
        "cxa2011-fig3",
        "5a3/5k3/4P4/p7p/9/8P/P8/4B4/2nRA2r1/2BAK4 w - - 0 1",
        "相五退三 车８平７ 相三进五 车７平８",
        "e2g0 h1g1 g0e2 g1h1",
    ),
    (
        "cxa2011-fig4",
        "4k4/4a4/4ba2b/5N3/2n5C/4p2p1/5n3/4BA3/4A4/2B2K3 w - - 0 1",
        "马四退六 象９进７ 马六进四 象７退９",
        "f6d5 i7g5 d5f6 g5i7",
    ),
    (
        "cxa2011-fig5",
        "2R2a3/4k4/3a5/9/8p/9/1p1rpn3/3CB4/4A4/2B1KA3 w - - 0 1",
        "车七退五 将５退１ 车七进五 将５进１",
        "c9c4 e8e9 c4c9 e9e8",
    ),
    (
        "cxa2011-fig6",
        "2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1",
        "车四平五 将５平６ 车五平四 将６平５",
        "f0e0 e8f8 e0f0 f8e8",
    ),
    (
        "cxa2011-fig7",
        "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1",
        "炮一平二 车９平８ 炮二平一 车８平９",
        "i0h0 i8h8 h0i0 h8i8",
    ),
    (
        "cxa2011-fig8",
        "3a3R1/3Nck3/3ab4/P4r3/2b6/8p/2p5n/C3BA2B/4A4/4K4 w - - 0 1",
        "车二退六 将６退１ 车二进六 将６进１",
        "h9h3 f8f9 h3h9 f9f8",
    ),
    (
        "cxa2011-fig9",
        "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1c1r w - - 0 1",
        "马三退二 车９平８ 马二进三 车８平９",
        "g4h2 i0h0 h2g4 h0i0",
    ),
    (
        "cxa2011-fig10",
        "2b1ka3/4a4/n1c1b1n2/p1r1p3p/6p2/5N1R1/P3P3P/2N1B2C1/4A4/2BAK4 w - - 0 1",
        "马七进六 车３进２ 马六退七 车３退２",
        "c2d4 c6c4 d4c2 c4c6",
    ),
    (
        "cxa2011-fig11",
        "1Cbak4/1r2a4/c3b4/p8/2p1R4/6P1P/2P6/4B4/4A4/2BAK4 w - - 0 1",
        "炮八平九 车２平１ 炮九平八 车１平２",
        "b9a9 b8a8 a9b9 a8b8",
    ),
    (
        "cxa2011-fig12",
        "3k2P2/P3a4/6rc1/8R/9/9/9/B3B4/4A4/4KA3 w - - 0 1",
        "车一平二 炮８平９ 车二平一 炮９平８",
        "i6h6 h7i7 h6i6 i7h7",
    ),
    (
        "cxa2011-fig13",
        "3k1ab2/4a4/4c4/4R3p/3PC4/4r4/8P/9/9/5K3 w - - 0 1",
        "车五平六 将４平５ 车六平五 将５平４",
        "e6d6 d9e9 d6e6 e9d9",
    ),
    (
        "cxa2011-fig14",
        "1rb1kacn1/4a4/2n1b2r1/p1C1pRP1p/2p6/9/PcP1P3P/N3C1N2/9/1RBAKAB2 w - - 0 1",
        "兵三平二 车８平７ 兵二平三 车７平８",
        "g6h6 h7g7 h6g6 g7h7",
    ),
    (
        "cxa2011-fig15",
        "3a2b1r/4ak3/8b/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1",
        "帅六平五 卒５平４ 帅五平六 卒４平５",
        "d1e1 e0d0 e1d1 d0e0",
    ),
    (
        "cxa2011-fig16",
        "3a1k3/4a4/3cb4/P2rp2R1/6b2/9/9/5C3/4A4/4KA3 w - - 0 1",
        "车二进三 将６进１ 车二退三 将６退１",
        "h6h9 f9f8 h9h6 f8f9",
    ),
    (
        "cxa2011-fig17",
        "1R3a3/3ka4/bRr4r1/p3p3P/4c4/6B2/9/3A5/9/4KA3 w - - 0 1",
        "后车进一 将４进１ 后车退一 将４退１",
        "b7b8 d8d7 b8b7 d7d8",
    ),
    (
        "cxa2011-fig18",
        "3k1a3/4a4/b3b4/9/9/4R4/4n4/3Ar4/3KA4/9 w - - 0 1",
        "车五平六 将４平５ 车六平五 将５平４",
        "e4d4 d9e9 d4e4 e9d9",
    ),
    (
        "cxa2011-fig19",
        "5aR2/3ka4/3cc4/3R5/9/2P3p2/P1r6/4B4/4A2n1/2B1KA3 w - - 0 1",
        "车六平五 炮４平２ 车五平六 炮２平４",
        "d6e6 d7b7 e6d6 b7d7",
    ),
    (
        "cxa2011-fig20",
        "C3kab2/4a4/4b4/RNr3p1p/9/3pp1P2/P7P/4B4/3cA4/3AK1B2 w - - 0 1",
        "马八进九 车３退２ 马九退八 车３进２",
        "b6a8 c6c8 a8b6 c8c6",
    ),
    (
        "cxa2011-fig21",
        "2b1ka3/1c2aR1c1/4b4/p1p4np/4nN3/2P1C4/P5PrP/2N1BC3/9/3AKAB2 w - - 0 1",
        "车四退二 炮２进２ 车四进二 炮２退２",
        "f8f6 b8b6 f6f8 b6b8",
    ),
    (
        "cxa2011-fig22",
        "2b1kr3/1r2a4/4ba3/1N1R5/9/4p4/9/4B4/4A4/3AK1B2 w - - 0 1",
        "车六平五 卒５平４ 车五平六 卒４平５",
        "d6e6 e4d4 e6d6 d4e4",
    ),
    (
        "cxa2011-fig23",
        "2bakr3/4a4/4b4/9/9/9/1r7/1c3A2B/2R1A2N1/1R3K3 w - - 0 1",
        "车七进一 炮２进１ 车七退一 炮２退１",
        "c1c2 b2b1 c2c1 b1b2",
    ),
    (
        "cxa2011-fig24",
        "2P1kn3/4r4/9/9/p3p3R/9/4P4/4B4/9/2BAKA3 w - - 0 1",
        "车一进四 车５平６ 车一退四 车６平５",
        "i5i9 e8f8 i9i5 f8e8",
    ),
    (
        "cxa2011-fig25",
        "1R1nkab2/4ac3/b8/p1P1p3p/5n1rc/3R5/P2CP1P2/2N1BCr2/4A4/4KAB2 w - - 0 1",
        "车六进一 马６退７ 车六退一 马７进６",
        "d4d5 f5g7 d5d4 g7f5",
    ),
    (
        "cxa2011-fig26",
        "2baka2r/9/2n1b4/2p1p4/9/3Rc1Pc1/4C1n2/3NB1NC1/4A4/4KAB2 w - - 0 1",
        "车六进三 炮８退３ 车六退三 炮８进３",
        "d4d7 h4h7 d7d4 h7h4",
    ),
    (
        "cxa2011-fig27",
        "c4k3/4a4/b4a3/1Np5p/6p2/9/6P2/4B4/r3A4/N2RKA3 w - - 0 1",
        "马八进七 炮１进１ 马七退八 炮１退１",
        "b6c8 a9a8 c8b6 a8a9",
    ),
    (
        "cxa2011-fig28",
        "CR1akab1r/9/2n1b1n2/2p5p/6p2/2P6/r3P1P1P/4CcN2/9/2BAK1BR1 w - - 0 1",
        "车八平七 马３退５ 车七平八 马５进３",
        "b9c9 c7e8 c9b9 e8c7",
    ),
    (
        "cxa2011-fig29",
        "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
        "车一平二 车８平９ 车二平一 车９平７ 车一平三 车７平８",
        "i3h3 h9i9 h3i3 i9g9 i3g3 g9h9",
    ),
    (
        "cxa2011-fig30",
        "2bakab2/9/2n1c3c/pCp1N3p/7n1/2P6/P3P1P1P/4CrN2/9/1RBAKAB2 w - - 0 1",
        "炮八退四 车６退４ 炮八进四 车６进４",
        "b6b2 f2f6 b2b6 f6f2",
    ),
    (
        "cxa2011-fig29-var",
        "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
        "车五平二 车８平７ 车二平三 车７平８ 车三平二",
        "e3h3 h9g9 h3g3 g9h9 g3h3",
    ),
    (
        "cxa2011-fig30-var",
        "2bakab2/9/4c1n1c/pCp1N3p/7n1/2P6/P3P1P1P/4CrN2/9/1RBAKAB2 w - - 0 1",
        "炮八退四 车６退４ 炮八进四 车６进４",
        "b6b2 f2f6 b2b6 f6f2",
    ),
];

fn mv(s: &str) -> Move {
    Move::parse_iccs(s, RankConvention::Iccs).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

const TRAD: ChineseStyle = ChineseStyle {
    charset: Charset::Traditional,
    black_digits: BlackDigits::FullWidth,
};
const SIMP: ChineseStyle = ChineseStyle {
    charset: Charset::Simplified,
    black_digits: BlackDigits::Ascii,
};
const WXF_PREFIX: WxfStyle = WxfStyle {
    tandem: TandemStyle::Prefix,
    sideways: Sideways::Equals,
};
const WXF_BOOK: WxfStyle = WxfStyle {
    tandem: TandemStyle::Suffix,
    sideways: Sideways::Dot,
};

/// Maps every variant character to one form, so that our choice of characters (俥 for Red)
/// can be compared with a book that prints 車 for both sides.
fn normalize(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '俥' | '車' | '车' => '车',
            '傌' | '馬' | '马' => '马',
            '炮' | '砲' | '包' => '炮',
            '帥' | '帅' | '將' | '将' => '将',
            '仕' | '士' => '士',
            '相' | '象' => '象',
            '兵' | '卒' => '兵',
            '進' => '进',
            '後' => '后',
            '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32).unwrap(),
            c => c,
        })
        .collect()
}

#[test]
fn printed_moves_of_the_rule_books_parse_and_print() {
    let mut plies = 0;
    for &(id, fen, cn, iccs) in PRINTED {
        let mut p = pos(fen);
        for (text, want) in cn.split(' ').zip(iccs.split(' ')) {
            let m = parse_chinese(&p, text).unwrap_or_else(|e| panic!("{id} {text}: {e}"));
            assert_eq!(m, mv(want), "{id}: {text}");
            let ours = to_chinese(&p, m, &TRAD).unwrap();
            assert_eq!(normalize(&ours), normalize(text), "{id}: printed {text}");
            p.play(m);
            plies += 1;
        }
    }
    assert_eq!(PRINTED.len(), 41);
    assert!(plies > 150, "{plies}");
}

#[test]
fn start_position_moves() {
    let start = Position::startpos();
    let table = [
        ("h2e2", "炮二平五", "炮二平五", "C2=5"),
        ("b2e2", "炮八平五", "炮八平五", "C8=5"),
        ("h0g2", "傌二進三", "马二进三", "H2+3"),
        ("b0c2", "傌八進七", "马八进七", "H8+7"),
        ("i0i1", "俥一進一", "车一进一", "R1+1"),
        ("g0e2", "相三進五", "相三进五", "E3+5"),
        ("f0e1", "仕四進五", "仕四进五", "A4+5"),
        ("g3g4", "兵三進一", "兵三进一", "P3+1"),
        ("e0e1", "帥五進一", "帅五进一", "K5+1"),
        ("h2h9", "炮二進七", "炮二进七", "C2+7"),
    ];
    for (iccs, trad, simp, wxf) in table {
        let m = mv(iccs);
        assert_eq!(to_chinese(&start, m, &TRAD).unwrap(), trad);
        assert_eq!(to_chinese(&start, m, &SIMP).unwrap(), simp);
        assert_eq!(to_wxf(&start, m, &WXF_PREFIX).unwrap(), wxf);
        for text in [trad, simp, wxf, iccs] {
            assert_eq!(
                parse_move(&start, text, Format::detect(text)).unwrap(),
                m,
                "{text}"
            );
        }
    }
    let mut p = start.clone();
    p.play(mv("h2e2"));
    for (iccs, trad, simp, wxf) in [
        ("h9g7", "馬８進７", "马8进7", "H8+7"),
        ("h7e7", "砲８平５", "炮8平5", "C8=5"),
        ("c6c5", "卒３進１", "卒3进1", "P3+1"),
        ("d9e8", "士４進５", "士4进5", "A4+5"),
    ] {
        let m = mv(iccs);
        assert_eq!(to_chinese(&p, m, &TRAD).unwrap(), trad);
        assert_eq!(to_chinese(&p, m, &SIMP).unwrap(), simp);
        assert_eq!(to_wxf(&p, m, &WXF_PREFIX).unwrap(), wxf);
        assert_eq!(parse_chinese(&p, trad).unwrap(), m);
        assert_eq!(parse_chinese(&p, simp).unwrap(), m);
        assert_eq!(parse_wxf(&p, wxf).unwrap(), m);
    }
}

#[test]
fn rule_book_full_and_short_records_agree() {
    // Art. 7.5: 完整記錄 and 簡寫記錄 of the same three moves each.
    let start = Position::startpos();
    let full = parse_move_list(
        &start,
        "砲二平五 馬８進７ 馬二進三 車９平８ 車一平二 砲８進４",
        None,
    )
    .unwrap();
    let iccs: Vec<String> = full.iter().map(|m| m.to_string()).collect();
    assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]);
    // The short form has no direction: it reads only where one legal move fits. 車12 fits
    // both 車一平二 and 車一進二, so it is ambiguous; the full form is not.
    let short = parse_move_list(&start, "砲25 馬87 馬23 車98", None).unwrap();
    assert_eq!(full[..4], short[..]);
    let (index, e) = parse_move_list(&start, "砲25 馬87 馬23 車98 車12", None).unwrap_err();
    assert_eq!(index, 5);
    assert_eq!(
        e,
        NotationError::Ambiguous {
            text: "車12".into(),
            candidates: vec![mv("i0h0"), mv("i0i2")]
        }
    );
}

/// (FEN, ICCS, traditional Chinese, simplified Chinese, WXF prefix, WXF book form)
const TANDEM: &[(&str, &str, &str, &str, &str, &str)] = &[
    // Two cannons on file 五.
    (
        "5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1",
        "e4a4",
        "前炮平九",
        "前炮平九",
        "+C=9",
        "C+.9",
    ),
    (
        "5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1",
        "e2e3",
        "後炮進一",
        "后炮进一",
        "-C+1",
        "C-+1",
    ),
    (
        "5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1",
        "e2d2",
        "後炮平六",
        "后炮平六",
        "-C=6",
        "C-.6",
    ),
    // Black: front is toward Red.
    (
        "3k5/9/4c4/9/4c4/9/9/9/9/5K3 b - - 0 1",
        "e5e4",
        "前砲進１",
        "前炮进1",
        "+C+1",
        "C++1",
    ),
    (
        "3k5/9/4c4/9/4c4/9/9/9/9/5K3 b - - 0 1",
        "e7e8",
        "後砲退１",
        "后炮退1",
        "-C-1",
        "C--1",
    ),
    // Three pawns on one file: 前 中 後; WXF +P, P5 (the middle one), -P.
    (
        "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e7e8",
        "前兵進一",
        "前兵进一",
        "+P+1",
        "P++1",
    ),
    (
        "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e6d6",
        "中兵平六",
        "中兵平六",
        "P5=6",
        "P5.6",
    ),
    (
        "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e5f5",
        "後兵平四",
        "后兵平四",
        "-P=4",
        "P-.4",
    ),
    // Four pawns on one file: 一..四; WXF ++, +P, -P, --.
    (
        "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e8e9",
        "一兵進一",
        "一兵进一",
        "+++1",
        "+++1",
    ),
    (
        "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e7d7",
        "二兵平六",
        "二兵平六",
        "+P=6",
        "P+.6",
    ),
    (
        "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e6f6",
        "三兵平四",
        "三兵平四",
        "-P=4",
        "P-.4",
    ),
    (
        "5k3/4P4/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
        "e5d5",
        "四兵平六",
        "四兵平六",
        "--=6",
        "--.6",
    ),
    // Two files with two pawns each: numbered from Red's right (file 三 first), front to back;
    // WXF: the file digit replaces the letter.
    (
        "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        "g6g7",
        "一兵進一",
        "一兵进一",
        "3++1",
        "3++1",
    ),
    (
        "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        "g5h5",
        "二兵平二",
        "二兵平二",
        "3-=2",
        "3-.2",
    ),
    (
        "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        "c6c7",
        "三兵進一",
        "三兵进一",
        "7++1",
        "7++1",
    ),
    (
        "5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
        "c5b5",
        "四兵平八",
        "四兵平八",
        "7-=8",
        "7-.8",
    ),
    // Two advisors on one file: the direction tells them apart, no 前/後.
    (
        "3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1",
        "d0e1",
        "仕六進五",
        "仕六进五",
        "A6+5",
        "A6+5",
    ),
    (
        "3k5/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1",
        "d2e1",
        "仕六退五",
        "仕六退五",
        "A6-5",
        "A6-5",
    ),
];

#[test]
fn tandem_pieces_print_and_parse() {
    for &(fen, iccs, trad, simp, wxf, book) in TANDEM {
        let p = pos(fen);
        let m = mv(iccs);
        assert_eq!(to_chinese(&p, m, &TRAD).unwrap(), trad, "{fen} {iccs}");
        assert_eq!(to_chinese(&p, m, &SIMP).unwrap(), simp, "{fen} {iccs}");
        assert_eq!(to_wxf(&p, m, &WXF_PREFIX).unwrap(), wxf, "{fen} {iccs}");
        assert_eq!(to_wxf(&p, m, &WXF_BOOK).unwrap(), book, "{fen} {iccs}");
        for text in [trad, simp] {
            assert_eq!(parse_chinese(&p, text).unwrap(), m, "{fen} {text}");
        }
        for text in [wxf, book] {
            assert_eq!(parse_wxf(&p, text).unwrap(), m, "{fen} {text}");
        }
    }
}

#[test]
fn typed_errors_say_why() {
    let start = Position::startpos();
    let e = parse_chinese(&start, "炮三平五").unwrap_err();
    assert!(matches!(e, NotationError::NoSuchPiece { .. }), "{e}");
    assert!(e.to_string().contains("no cannon on file 3"), "{e}");
    let e = parse_chinese(&start, "帥五平四").unwrap_err();
    assert!(
        matches!(e, NotationError::Illegal { mv, .. } if mv == self::mv("e0f0")),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "\"帥五平四\" is e0f0, which is illegal: cannot capture own piece on f0"
    );
    let e = parse_chinese(&start, "傌二平三").unwrap_err();
    assert!(e.to_string().contains("never moves sideways"), "{e}");
    let e = parse_chinese(&start, "X二平五").unwrap_err();
    assert!(
        matches!(
            e,
            NotationError::Syntax {
                format: Format::Chinese,
                ..
            }
        ),
        "{e}"
    );
    let e = parse_wxf(&start, "C2=").unwrap_err();
    assert!(
        matches!(
            e,
            NotationError::Syntax {
                format: Format::Wxf,
                ..
            }
        ),
        "{e}"
    );
    let e = parse_wxf(&start, "+C=5").unwrap_err();
    assert!(
        e.to_string()
            .contains("two or more Red cannons on one file"),
        "{e}"
    );
    let e = parse_move(&start, "h2e9", Format::Iccs).unwrap_err();
    assert!(matches!(e, NotationError::Illegal { .. }), "{e}");

    // Two cannons on file 五 that can both go to file 九.
    let p = pos("5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1");
    let e = parse_chinese(&p, "炮五平九").unwrap_err();
    assert_eq!(
        e,
        NotationError::Ambiguous {
            text: "炮五平九".into(),
            candidates: vec![mv("e2a2"), mv("e4a4")]
        }
    );
    assert_eq!(
        e.to_string(),
        "\"炮五平九\" is ambiguous: it fits e2a2, e4a4"
    );
    // Pawns on two shared files: 前兵 does not say which file...
    let p = pos("5k3/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1");
    let both = NotationError::Ambiguous {
        text: "前兵進一".into(),
        candidates: vec![mv("c6c7"), mv("g6g7")],
    };
    assert_eq!(parse_chinese(&p, "前兵進一"), Err(both));
    let e = parse_wxf(&p, "+P+1").unwrap_err();
    assert!(
        matches!(e, NotationError::Ambiguous { ref candidates, .. } if candidates.len() == 2),
        "{e}"
    );
    // ... unless the move does (as written by readers that do not number the pawns): only
    // the front pawn on file 七 can go to file 八.
    assert_eq!(parse_chinese(&p, "前兵平八"), Ok(mv("c6b6")));
    assert_eq!(parse_wxf(&p, "+P=8"), Ok(mv("c6b6")));
    let e = parse_chinese(&p, "中兵平八").unwrap_err();
    assert!(e.to_string().contains("中 needs three"), "{e}");
    // The file form still reads when only one pawn of the file can make the move.
    assert_eq!(parse_chinese(&p, "兵三進一").unwrap(), mv("g6g7"));
    // Printing an illegal move is an error too.
    assert_eq!(to_chinese(&start, mv("h2h5"), &TRAD).unwrap(), "炮二進三");
    let e = to_wxf(&start, mv("a0a5"), &WXF_PREFIX).unwrap_err();
    assert!(matches!(e, NotationError::NotLegal { .. }), "{e}");
}

#[test]
fn move_lists_report_the_first_bad_index() {
    let start = Position::startpos();
    let (i, e) =
        parse_move_list(&start, "炮二平五 馬８進７ 馬八進七 車９進１ 炮二平五", None).unwrap_err();
    assert_eq!(i, 5);
    assert!(matches!(e, NotationError::NoSuchPiece { .. }), "{e}");
}

/// A position reached by random play from the start, or from a random legal placement.
fn random_position(seed: u64, plies: usize, from_start: bool) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = if from_start {
        Position::startpos()
    } else {
        pos(&random_valid_fen(&mut rng))
    };
    for _ in 0..plies {
        let moves = p.legal_moves();
        let Some(&m) = moves.choose(&mut rng) else {
            break;
        };
        p.play(m);
    }
    p
}

/// Every legal move of `p` round-trips through every notation and style.
fn round_trip_all(p: &Position) -> usize {
    let styles = [
        Style {
            chinese: TRAD,
            wxf: WXF_PREFIX,
        },
        Style {
            chinese: SIMP,
            wxf: WXF_BOOK,
        },
    ];
    let mut n = 0;
    for &m in p.legal_moves().iter() {
        for style in &styles {
            for f in [Format::Chinese, Format::Wxf, Format::Iccs] {
                let text = format_move(p, m, f, style)
                    .unwrap_or_else(|e| panic!("{} {m} {f}: {e}", p.to_fen()));
                assert_eq!(Format::detect(&text), f, "{text}");
                let back = parse_move(p, &text, f)
                    .unwrap_or_else(|e| panic!("{} {m} {f} {text:?}: {e}", p.to_fen()));
                assert_eq!(back, m, "{} {text:?}", p.to_fen());
            }
        }
        n += 1;
    }
    n
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn every_legal_move_round_trips(seed in any::<u64>(), plies in 0usize..160, from_start in any::<bool>()) {
        round_trip_all(&random_position(seed, plies, from_start));
    }
}

#[test]
fn round_trip_coverage() {
    // Deterministic: 600 positions, counting the moves checked.
    let mut positions = 0;
    let mut moves = 0;
    let mut tandem_pawn_positions = 0;
    for seed in 0..600u64 {
        let p = random_position(seed, (seed as usize * 7) % 200, seed % 3 != 0);
        moves += round_trip_all(&p);
        positions += 1;
        let turn = p.turn();
        let pawn = xiangqi_rules::Piece::new(turn, xiangqi_rules::Role::Pawn);
        let shared = (0..9u8).any(|f| {
            (0..10u8)
                .filter(|&r| p.piece_at(xiangqi_rules::Square::at(f, r)) == Some(pawn))
                .count()
                >= 2
        });
        if shared {
            tandem_pawn_positions += 1;
        }
    }
    eprintln!("round trip: {positions} positions, {moves} moves x 2 styles x 3 notations; {tandem_pawn_positions} positions with shared pawn files");
    assert_eq!(positions, 600);
    assert!(moves > 10_000, "{moves}");
    assert!(tandem_pawn_positions > 20, "{tandem_pawn_positions}");
}

/// The two Asian-rules examples of shared/cases/axf-items.yaml that have a position: moves in
/// WXF as printed (lower case for Black, `g` for the guard, i.e. the advisor), with their ICCS
/// equivalents.
const PRINTED_WXF: &[(&str, &str, &str, &str)] = &[
    (
        "axf-fig39",
        "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
        "R8+2 g6+5 R8-3 g5-6 R8+3 g6+5 R8-2 g5-6 R8+2",
        "b6b8 f9e8 b8b5 e8f9 b5b8 f9e8 b8b6 e8f9 b6b8",
    ),
    (
        "axf-appendix-non-perpetual-chase",
        "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
        "R2+1 c8+1 R2-1 c8-1 R2+1 c8+1 R2-1 c8-1 R2+1",
        "h0h1 h4h3 h1h0 h3h4 h0h1 h4h3 h1h0 h3h4 h0h1",
    ),
];

#[test]
fn printed_wxf_moves_parse_and_print() {
    for &(id, fen, wxf, iccs) in PRINTED_WXF {
        let mut p = pos(fen);
        for (text, want) in wxf.split(' ').zip(iccs.split(' ')) {
            let m = parse_wxf(&p, text).unwrap_or_else(|e| panic!("{id} {text}: {e}"));
            assert_eq!(m, mv(want), "{id}: {text}");
            let ours = to_wxf(&p, m, &WXF_PREFIX).unwrap();
            assert_eq!(ours, text.to_ascii_uppercase().replace('G', "A"), "{id}");
            p.play(m);
        }
    }
}
