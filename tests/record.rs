//! Game records: the bundled PGN games (UTF-8 and GBK), PGN errors with line:column, PGN and
//! XQF round trips (plain and obfuscated XQF versions), XQF header layout, and snapshots.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_rules::notation::{
    format_move, parse_move_list, BlackDigits, Charset, ChineseStyle, Format, Sideways, Style,
    TandemStyle, WxfStyle,
};
use xiangqi_rules::record::pgn::{self, PgnErrorKind, PgnWriteOptions};
use xiangqi_rules::record::xqf::{self, XqfErrorKind, XqfWriteOptions};
use xiangqi_rules::record::{read_games, GameRecord, GameResult, RecordError, START_FEN};
use xiangqi_rules::{NotationError, Position};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/games/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn iccs(g: &GameRecord) -> String {
    g.moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn chinese_list(g: &GameRecord) -> String {
    let mut p = g.start_position().unwrap();
    let mut out = String::new();
    for (i, &m) in g.moves.iter().enumerate() {
        let t = format_move(&p, m, Format::Chinese, &Style::default()).unwrap();
        if i % 2 == 0 {
            out.push_str(&format!("{:>3}. {t}", i / 2 + 1));
        } else {
            out.push_str(&format!("  {t}\n"));
        }
        p.play(m);
    }
    out
}

const GAMES: [&str; 3] = [
    "rulebook-opening.pgn",
    "cxa2011-fig2-wxf.pgn",
    "cxa2011-fig9-gbk.pgn",
];

#[test]
fn bundled_games_read() {
    let g = &read_games(&data("rulebook-opening.pgn")).unwrap()[0];
    assert_eq!(iccs(g), "h2e2 h9g7 h0g2 i9h9 i0h0 h7h3");
    assert_eq!(g.moves_iccs(), iccs(g));
    assert_eq!(g.start_fen, START_FEN);
    assert_eq!(g.result, GameResult::Unknown);
    assert_eq!(g.tag("red"), Some("紅方"));
    assert_eq!(g.tags.len(), 6);

    let g = &read_games(&data("cxa2011-fig2-wxf.pgn")).unwrap()[0];
    assert_eq!(iccs(g), "h6i4 i9h9 i4h6 h9i9 h6i4 i9h9 i4h6 h9i9 h6i4");
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(
        g.start_fen,
        "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1"
    );

    let bytes = data("cxa2011-fig9-gbk.pgn");
    assert!(std::str::from_utf8(&bytes).is_err(), "the file is GBK");
    let g = &read_games(&bytes).unwrap()[0];
    assert_eq!(g.tag("Event"), Some("中国象棋协会 2011 规则 图9"));
    assert_eq!(iccs(g), "g4h2 i0h0 h2g4 h0i0 g4h2 i0h0");
    assert_eq!(g.result, GameResult::RedWins);
    assert_eq!(g.positions().unwrap().len(), 7);
}

#[test]
fn several_games_per_file() {
    let mut text = String::new();
    for name in GAMES {
        text.push_str(&xiangqi_rules::record::decode_text(&data(name)).0);
        text.push('\n');
    }
    let games = pgn::read_pgn(&text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(
        games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(),
        [6, 9, 6]
    );
    // Games without tags, separated by results only.
    let games = pgn::read_pgn("1. h2e2 h9g7 1-0 1. b2e2 0-1 1. h0g2 *").unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].result, GameResult::BlackWins);
    assert_eq!(iccs(&games[2]), "h0g2");
}

#[test]
fn pgn_syntax_is_skipped_safely() {
    let text = "% escape line\n[Format \"ICCS\"]\n[Note \"say \\\"hi\\\" \\\\ back\"]\n\n\
                1. H2-E2 {c1 (not a variation)} h9g7!? $14 2.h0g2 ((nested (deeper) {)} x) y) \
                2 ... i9h9 ; comment ( not a variation\n3. i0h0 1/2-1/2";
    let g = &pgn::read_pgn(text).unwrap()[0];
    assert_eq!(iccs(g), "h2e2 h9g7 h0g2 i9h9 i0h0");
    assert_eq!(g.tag("Note"), Some("say \"hi\" \\ back"));
    assert_eq!(g.result, GameResult::Draw);
}

#[test]
fn wxf_pawn_forms_with_dots_are_moves_not_numbers() {
    // Three red pawns on file 3 (WXF file 3 = ICCS g): the middle one is 33, and `.` is the
    // sideways sign; `1.33.4` has its move number glued on.
    let text = "[FEN \"5k3/9/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1\"]\n[Format \"WXF\"]\n1.33.4 *";
    let g = &pgn::read_pgn(text).unwrap()[0];
    assert_eq!(iccs(g), "g6f6");
    let text = "[FEN \"5k3/9/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1\"]\n[Format \"WXF\"]\n1. 33.4 *";
    assert_eq!(iccs(&pgn::read_pgn(text).unwrap()[0]), "g6f6");
}

#[test]
fn pgn_errors_say_where() {
    let e =
        pgn::read_pgn("[Format \"Chinese\"]\n\n1. 炮二平五 馬８進７\n2. 炮五平四 {x").unwrap_err();
    assert_eq!((e.line, e.column, e.game), (4, 9, 1));
    assert_eq!(e.kind, PgnErrorKind::UnterminatedComment);
    assert_eq!(
        e.to_string(),
        "line 4, column 9 (game 1): comment opened here is never closed with }"
    );

    let e = pgn::read_pgn("1. h2e2 (h0g2 (b0c2)\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 9));
    assert_eq!(e.kind, PgnErrorKind::UnterminatedVariation);

    let e = pgn::read_pgn("1. h2e2 ) h9g7").unwrap_err();
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 9, PgnErrorKind::UnmatchedParen)
    );

    let e = pgn::read_pgn("[Format \"Chinese\"]\n1. 炮二平五 馬８進７\n2. 炮二平五 *").unwrap_err();
    assert_eq!((e.line, e.column), (3, 4));
    match &e.kind {
        PgnErrorKind::BadMove { index, text, error } => {
            assert_eq!((*index, text.as_str()), (3, "炮二平五"));
            assert!(matches!(error, NotationError::NoSuchPiece { .. }));
        }
        k => panic!("{k:?}"),
    }

    let e = pgn::read_pgn("[FEN \"9/9/9 w\"]\n*").unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::BadFen(_)), "{e}");
    let e = pgn::read_pgn("[Event \"open\n1. h2e2 *").unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::BadTag(_)), "{e}");

    // Move numbers follow each other: a number that skips, repeats or names the other side's
    // move says a move is missing or extra.
    let e = pgn::read_pgn("1. h2e2 h9g7 3. h0g2 *").unwrap_err();
    assert_eq!((e.line, e.column), (1, 14), "{e}");
    assert_eq!(
        e.kind,
        PgnErrorKind::BadMoveNumber {
            found: "3.".into(),
            expected: "2.".into()
        }
    );
    let e = pgn::read_pgn("1. h2e2 2. h0g2 *").unwrap_err();
    assert!(
        matches!(&e.kind, PgnErrorKind::BadMoveNumber { expected, .. } if expected == "1..."),
        "{e}"
    );
    let e = pgn::read_pgn("1. h2e2 h9g7 1... h0g2 *").unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::BadMoveNumber { .. }), "{e}");
    assert!(e.to_string().contains("a move is missing or extra"), "{e}");
    // Numbered from the record's own start, whatever the FEN's count; a record that begins
    // with black's move may number it `1.` or `1...`.
    for text in [
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n1. h9g7 2. h0g2 *",
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n12... h9g7 13. h0g2 *",
    ] {
        assert_eq!(iccs(&pgn::read_pgn(text).unwrap()[0]), "h9g7 h0g2", "{text}");
    }

    // A bad game does not stop the next one.
    let all = pgn::read_games("1. h2e9 *\n[Event \"2\"]\n1. h2e2 *");
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].as_ref().unwrap_err().game, 1);
    assert_eq!(iccs(all[1].as_ref().unwrap()), "h2e2");

    // A comment or a variation never closed ends at the next game's tag pair: it costs its
    // own game only, and every later game is read.
    let text = "[Event \"1\"]\n1. h2e2 {never closed h9g7\n\n[Event \"2\"]\n1. h2e2 h9g7 *\n\
                [Event \"3\"]\n1. b2e2 (b0c2 *\n  [Event \"4\"]\n1. h2e2 h9g7 2. h0g2 *\n";
    let all = pgn::read_games(text);
    assert_eq!(all.len(), 4, "{all:?}");
    let e = all[0].as_ref().unwrap_err();
    assert_eq!((e.game, e.line, e.column), (1, 2, 9), "{e}");
    assert!(matches!(e.kind, PgnErrorKind::UnterminatedComment), "{e}");
    assert_eq!(iccs(all[1].as_ref().unwrap()), "h2e2 h9g7");
    let e = all[2].as_ref().unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::UnterminatedVariation), "{e}");
    assert_eq!((e.game, e.line), (3, 7), "{e}");
    assert_eq!(iccs(all[3].as_ref().unwrap()), "h2e2 h9g7 h0g2");
    // A bracket inside a comment that opens no tag pair is text of the comment.
    let all = pgn::read_games("1. h2e2 {see\n[1] and [Note] \"x\"} h9g7 *");
    assert_eq!(iccs(all[0].as_ref().unwrap()), "h2e2 h9g7");
}

fn random_game(seed: u64, plies: usize) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Position::startpos();
    // Start some games from a position reached by play, with Black to move.
    let lead = (seed % 3) as usize;
    for _ in 0..lead {
        let ms = p.legal_moves();
        p.play(*ms.choose(&mut rng).unwrap());
    }
    let start_fen = p.to_fen();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let ms = p.legal_moves();
        let Some(&m) = ms.choose(&mut rng) else {
            break;
        };
        p.play(m);
        moves.push(m);
    }
    let results = [
        GameResult::RedWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ];
    GameRecord {
        tags: vec![
            ("Event".into(), format!("random {seed}")),
            ("Red".into(), "紅方".into()),
            ("Black".into(), "黑方".into()),
        ],
        start_fen,
        moves,
        result: results[seed as usize % 4],
        losing_move: None,
    }
}

#[test]
fn pgn_export_round_trips_in_every_notation() {
    for seed in 0..40 {
        let g = random_game(seed, 30 + seed as usize * 5);
        for f in [Format::Iccs, Format::Chinese, Format::Wxf] {
            let text = pgn::write_pgn(&g, f, &PgnWriteOptions::default()).unwrap();
            let back = &pgn::read_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))[0];
            assert_eq!(back.moves, g.moves, "{f}\n{text}");
            assert_eq!(back.start_fen, g.start_fen);
            assert_eq!(back.result, g.result);
            assert_eq!(back.tag("Event"), g.tag("Event"));
            assert_eq!(back.tag("Format"), Some(f.name()));
            assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        }
        // The WXF book style (C+.5) and simplified Chinese with ASCII digits read back too.
        let opts = PgnWriteOptions {
            style: Style {
                chinese: ChineseStyle {
                    charset: Charset::Simplified,
                    black_digits: BlackDigits::Ascii,
                },
                wxf: WxfStyle {
                    tandem: TandemStyle::Suffix,
                    sideways: Sideways::Dot,
                },
            },
        };
        for f in [Format::Chinese, Format::Wxf] {
            let text = pgn::write_pgn(&g, f, &opts).unwrap();
            assert_eq!(pgn::read_pgn(&text).unwrap()[0].moves, g.moves, "{text}");
        }
    }
}

#[test]
fn xqf_round_trips_plain_and_obfuscated() {
    for seed in 0..30u64 {
        let g = random_game(seed, 20 + seed as usize * 7);
        for version in [10u8, 11, 12, 16, 18] {
            let opts = XqfWriteOptions {
                version,
                key_seed: (seed * 37) as u8,
            };
            let bytes = xqf::write_xqf(&g, &opts).unwrap();
            let back = xqf::read_xqf(&bytes).unwrap_or_else(|e| panic!("v{version}: {e}"));
            assert_eq!(back.moves, g.moves, "v{version} seed {seed}");
            // XQF keeps the board and the side to move, not the move clocks.
            let fields = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(fields(&back.start_fen), fields(&g.start_fen));
            assert_eq!(back.result, g.result);
            assert_eq!(back.tag("Red"), Some("紅方"));
            assert_eq!(back.tag("XQFVersion"), Some(version.to_string().as_str()));
            // read_games recognises the signature.
            assert_eq!(read_games(&bytes).unwrap()[0].moves, g.moves);
        }
    }
}

#[test]
fn xqf_header_layout() {
    let mut g = GameRecord {
        moves: xiangqi_rules::notation::parse_move_list(
            &Position::startpos(),
            "炮二平五 馬８進７",
            None,
        )
        .unwrap(),
        result: GameResult::Draw,
        ..Default::default()
    };
    g.set_tag("Red", "胡荣华");
    let plain = xqf::write_xqf(
        &g,
        &XqfWriteOptions {
            version: 10,
            key_seed: 0,
        },
    )
    .unwrap();
    assert_eq!(&plain[..3], b"XQ\x0a");
    // Places are file*10+rank: Red's rook slot 0 on a0 = 0, king slot 4 on e0 = 40,
    // Black's king slot 20 on e9 = 49.
    assert_eq!((plain[16], plain[16 + 4], plain[16 + 20]), (0, 40, 49));
    assert_eq!((plain[50], plain[51]), (0, 3));
    // Red's name, a length-prefixed GBK string at 304.
    assert_eq!(plain[304] as usize, 6);
    assert_eq!(&plain[305..311], &[0xBA, 0xFA, 0xC8, 0xD9, 0xBB, 0xAA]);
    // Records: root (4 bytes + comment length), then h2e2 = 72 + 0x18, 42 + 0x20.
    assert_eq!(&plain[1032..1034], &[72 + 0x18, 42 + 0x20]);
    assert_eq!(plain.len(), 1024 + 3 * 8);

    let obf = xqf::write_xqf(
        &g,
        &XqfWriteOptions {
            version: 18,
            key_seed: 99,
        },
    )
    .unwrap();
    assert_eq!(obf[2], 18);
    let sum = obf[12..16].iter().fold(0u8, |a, &b| a.wrapping_add(b));
    assert_eq!(sum, 0, "the four keys add up to 0 mod 256");
    assert_ne!(&obf[16..48], &plain[16..48], "piece places are obfuscated");
    assert_eq!(&obf[304..311], &plain[304..311], "strings are not");
}

#[test]
fn xqf_errors_say_where() {
    let g = random_game(5, 10);
    let bytes = xqf::write_xqf(&g, &XqfWriteOptions::default()).unwrap();
    let e = xqf::read_xqf(&bytes[..500]).unwrap_err();
    assert_eq!((e.offset, e.kind), (500, XqfErrorKind::Truncated("header")));
    let mut bad = bytes.clone();
    bad[0] = b'Y';
    assert_eq!(
        xqf::read_xqf(&bad).unwrap_err().kind,
        XqfErrorKind::BadSignature
    );
    let mut bad = bytes.clone();
    bad[13] = bad[13].wrapping_add(1);
    assert_eq!(
        xqf::read_xqf(&bad).unwrap_err(),
        xqf::XqfError {
            offset: 12,
            kind: XqfErrorKind::BadChecksum(1)
        }
    );
    let e = xqf::read_xqf(&bytes[..bytes.len() - 2]).unwrap_err();
    assert!(matches!(e.kind, XqfErrorKind::Truncated(_)), "{e}");
    // Version 10: change the target of the first move to an own piece's place.
    let plain = xqf::write_xqf(
        &g,
        &XqfWriteOptions {
            version: 10,
            key_seed: 0,
        },
    )
    .unwrap();
    let mut bad = plain.clone();
    bad[1033] = bad[1032] - 0x18 + 0x20; // from == to
    let e = xqf::read_xqf(&bad).unwrap_err();
    assert_eq!(e.offset, 1032);
    assert!(
        matches!(e.kind, XqfErrorKind::IllegalMove { index: 1, .. }),
        "{e}"
    );
    let mut bad = plain;
    bad[1033] = 200;
    assert!(matches!(
        xqf::read_xqf(&bad).unwrap_err().kind,
        XqfErrorKind::BadPlace { index: 1, .. }
    ));
    assert!(matches!(
        read_games(&bytes[..1030]),
        Err(RecordError::Xqf(_))
    ));
}

#[test]
fn snapshots_of_the_bundled_games() {
    for name in GAMES {
        let g = &read_games(&data(name)).unwrap()[0];
        let stem = name.trim_end_matches(".pgn");
        insta::assert_snapshot!(format!("{stem}-chinese-moves"), chinese_list(g));
        insta::assert_snapshot!(
            format!("{stem}-pgn-wxf"),
            pgn::write_pgn(g, Format::Wxf, &PgnWriteOptions::default()).unwrap()
        );
        insta::assert_snapshot!(
            format!("{stem}-pgn-iccs"),
            pgn::write_pgn(g, Format::Iccs, &PgnWriteOptions::default()).unwrap()
        );
    }
}

/// A record in Chinese notation that lost its first ply is read with every move for the other
/// side: red's Chinese numerals and black's digits tell it (audit item 84 (e)). A record that
/// numbers both sides with digits in the short form is read as it is; an unknown `[Format]`
/// value is an error, not a silent guess.
#[test]
fn a_record_numbered_for_the_other_side_is_reported() {
    // 1. 馬8進7 馬二進三 … : the first ply (炮二平五) is missing.
    let e = pgn::read_pgn("[Format \"Chinese\"]\n1. 馬8進7 馬二進三\n2. 車9平8 *").unwrap_err();
    match &e.kind {
        PgnErrorKind::BadMove { index, text, error } => {
            assert_eq!((*index, text.as_str()), (1, "馬8進7"), "{e}");
            assert!(
                matches!(
                    error,
                    NotationError::OtherSidesNumbers {
                        numbered: xiangqi_rules::Color::Black,
                        turn: xiangqi_rules::Color::Red,
                        ..
                    }
                ),
                "{e}"
            );
        }
        k => panic!("{k:?}"),
    }
    assert!(e.to_string().contains("a ply is missing or extra"), "{e}");
    // The same moves with their first ply read as they are.
    let g =
        pgn::read_pgn("[Format \"Chinese\"]\n1. 炮二平五 馬8進7\n2. 馬二進三 車9平8 *").unwrap();
    assert_eq!(iccs(&g[0]), "h2e2 h9g7 h0g2 i9h9");
    // The short form with ASCII digits for both sides tells nothing.
    let g = pgn::read_pgn("[Format \"Chinese\"]\n1. 炮25 馬87 *").unwrap();
    assert_eq!(iccs(&g[0]), "h2e2 h9g7");
    // The library's move list checks the same.
    let (index, e) = parse_move_list(&Position::startpos(), "馬８進７ 炮二平五", None).unwrap_err();
    assert_eq!(index, 1);
    assert!(matches!(e, NotationError::OtherSidesNumbers { .. }), "{e}");
    // An unknown notation name.
    let e = pgn::read_pgn("[Format \"UCCI\"]\n1. h2e2 *").unwrap_err();
    assert!(
        matches!(&e.kind, PgnErrorKind::BadTag(why) if why.contains("UCCI")),
        "{e}"
    );
}
