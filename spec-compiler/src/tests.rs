//! Tests against the real spec and mutated copies of it.

use crate::compile::compile;
use crate::load::{load_dir, load_str, Problem, SpecError};
use crate::vocab::{Color, Piece, Role, Square};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

fn texts() -> [String; 3] {
    ["board.yaml", "pieces.yaml", "material.yaml"]
        .map(|f| std::fs::read_to_string(dir().join(f)).unwrap())
}

/// 1-based line of the first occurrence of `needle` in `text` (after `after`, if given).
fn line_of(text: &str, after: &str, needle: &str) -> usize {
    let start = text.find(after).expect("anchor present");
    let at = start + text[start..].find(needle).expect("needle present");
    text[..at].lines().count() + usize::from(text[..at].ends_with('\n'))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn err_with(file: usize, from: &str, to: &str) -> (SpecError, String) {
    let mut t = texts();
    assert!(
        t[file].contains(from),
        "pattern {from:?} not in file {file}"
    );
    t[file] = t[file].replacen(from, to, 1);
    let e = load_str(&t[0], &t[1], &t[2])
        .and_then(|s| compile(&s).map(|_| s))
        .expect_err("mutated spec must fail");
    (e, t[file].clone())
}

#[test]
fn real_spec_loads_and_compiles() {
    let spec = load_dir(&dir()).unwrap();
    assert_eq!(spec.roles.len(), 7);
    assert_eq!(spec.role(Role::Pawn).count, 5);
    let t = compile(&spec).unwrap();
    assert_eq!(t.palace[0].count_ones(), 9);
    assert_eq!(t.own_half[1].count_ones(), 45);
    assert_eq!(t.max_screens, 1);
}

#[test]
fn horse_and_elephant_tables() {
    let t = compile(&load_dir(&dir()).unwrap()).unwrap();
    let horse = Piece::new(Color::Red, Role::Horse);
    assert_eq!(
        t.leap_targets(horse, sq("b0")),
        vec![
            (sq("d1"), sq("c0")),
            (sq("a2"), sq("b1")),
            (sq("c2"), sq("b1"))
        ]
    );
    let eleph = Piece::new(Color::Red, Role::Elephant);
    assert_eq!(
        t.leap_targets(eleph, sq("c4")),
        vec![(sq("a2"), sq("b3")), (sq("e2"), sq("d3"))],
        "elephant may not cross the river"
    );
    let beleph = Piece::new(Color::Black, Role::Elephant);
    assert_eq!(t.leap_targets(beleph, sq("c9")).len(), 2);
    // Reachable points: 5 advisor points, 7 elephant points, 9 king points.
    assert_eq!(t.reachable[0][Role::Advisor.index()].count_ones(), 5);
    assert_eq!(t.reachable[1][Role::Elephant.index()].count_ones(), 7);
    assert_eq!(t.reachable[0][Role::King.index()].count_ones(), 9);
    // Red pawns: 5 points on ranks 3 and 4 each, then all 45 across the river.
    assert_eq!(t.reachable[0][Role::Pawn.index()].count_ones(), 55);
    // Horse attackers of e0 via leg d1: horses on c2... (c2 reaches e1? no) -> origins of e0.
    let origins: u32 = t.leap_attackers[1][Role::Horse.index()][sq("e0").index()]
        .iter()
        .map(|g| g.targets.count_ones())
        .sum();
    assert_eq!(origins, 4); // c1, g1, d2, f2
}

#[test]
fn step_tables() {
    let t = compile(&load_dir(&dir()).unwrap()).unwrap();
    let red_pawn = Piece::new(Color::Red, Role::Pawn);
    assert_eq!(
        t.step_targets(red_pawn, sq("e3")),
        1u128 << sq("e4").index()
    );
    let crossed =
        (1u128 << sq("e6").index()) | (1u128 << sq("d5").index()) | (1u128 << sq("f5").index());
    assert_eq!(t.step_targets(red_pawn, sq("e5")), crossed);
    let black_pawn = Piece::new(Color::Black, Role::Pawn);
    assert_eq!(
        t.step_targets(black_pawn, sq("a0")),
        1u128 << sq("b0").index()
    );
    let king = Piece::new(Color::Red, Role::King);
    assert_eq!(t.step_targets(king, sq("d0")).count_ones(), 2);
    let adv = Piece::new(Color::Black, Role::Advisor);
    assert_eq!(t.step_targets(adv, sq("e8")).count_ones(), 4);
}

#[test]
fn line_tables() {
    use crate::compile::line_slide;
    // Rook on file b (1) of a rank with pieces on a, d, f: reaches a(capture), c, d.
    let occ = 0b101011;
    assert_eq!(line_slide(1, 9, occ, 0), 0b1101);
    // Cannon: over d to f.
    assert_eq!(line_slide(1, 9, occ, 1), 0b110000);
}

#[test]
fn codegen_is_deterministic() {
    let a = crate::generate_dir(&dir()).unwrap();
    let b = crate::generate_dir(&dir()).unwrap();
    assert_eq!(a, b);
    assert!(a.contains("pub static RANK_SLIDE"));
    assert!(a.contains("pub const START_FEN"));
}

#[test]
fn zobrist_is_reproducible() {
    let t1 = compile(&load_dir(&dir()).unwrap()).unwrap();
    let t2 = compile(&load_dir(&dir()).unwrap()).unwrap();
    assert_eq!(t1.zobrist, t2.zobrist);
    let mut all: Vec<u64> = t1.zobrist.iter().flatten().copied().collect();
    all.push(t1.zobrist_turn);
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 14 * 90 + 1);
}

#[test]
fn unknown_zone_is_located() {
    let (e, text) = err_with(1, "zone: palace", "zone: palce");
    assert_eq!(e.problem(), Some(&Problem::UnknownZone("palce".into())));
    let loc = e.loc().unwrap();
    assert_eq!(loc.line, line_of(&text, "", "zone: palce"));
    assert_eq!(loc.file, "spec/pieces.yaml");
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("spec/pieces.yaml:{}:", loc.line))
            && msg.ends_with("unknown zone \"palce\" (expected anywhere, palace, own_half)"),
        "{msg}"
    );
}

#[test]
fn bad_vector_is_located() {
    let (e, text) = err_with(
        1,
        "vectors: [[0, 1], [0, -1]",
        "vectors: [[0, 1, 2], [0, -1]",
    );
    assert!(
        matches!(e.problem(), Some(Problem::BadVector { .. })),
        "{e}"
    );
    assert_eq!(e.loc().unwrap().line, line_of(&text, "", "[[0, 1, 2]"));
}

#[test]
fn bad_slide_direction_is_located() {
    let (e, text) = err_with(
        1,
        "directions: [[0, 1], [0, -1], [1, 0], [-1, 0]]",
        "directions: [[1, 1]]",
    );
    assert!(
        matches!(e.problem(), Some(Problem::BadVector { .. })),
        "{e}"
    );
    assert_eq!(e.loc().unwrap().line, line_of(&text, "", "[[1, 1]]"));
}

#[test]
fn block_not_between_is_located() {
    let (e, text) = err_with(
        1,
        "{to: [2, -1], block: [1, 0]}",
        "{to: [2, -1], block: [-1, 0]}",
    );
    assert!(
        matches!(e.problem(), Some(Problem::BlockNotBetween { .. })),
        "{e}"
    );
    let loc = e.loc().unwrap();
    assert_eq!(loc.line, line_of(&text, "", "block: [-1, 0]}"));
    let line = text.lines().nth(loc.line - 1).unwrap();
    assert_eq!(&line[loc.column - 1..loc.column + 6], "[-1, 0]");
}

#[test]
fn duplicate_letter_is_located() {
    let (e, text) = err_with(1, "letter: B", "letter: A");
    assert_eq!(e.problem(), Some(&Problem::DuplicateLetter("A".into())));
    assert_eq!(
        e.loc().unwrap().line,
        line_of(&text, "id: elephant", "letter: A")
    );
}

#[test]
fn unknown_piece_in_material_is_located() {
    let (e, text) = err_with(2, "{piece: cannon,", "{piece: canon,");
    assert_eq!(e.problem(), Some(&Problem::UnknownPiece("canon".into())));
    let loc = e.loc().unwrap();
    assert_eq!(loc.file, "spec/material.yaml");
    assert_eq!(loc.line, line_of(&text, "", "piece: canon"));
}

#[test]
fn board_size_is_located() {
    let (e, text) = err_with(0, "files: 9", "files: 8");
    assert_eq!(
        e.problem(),
        Some(&Problem::BadBoardSize {
            files: 8,
            ranks: 10
        })
    );
    assert_eq!(e.loc().unwrap().line, line_of(&text, "", "files: 8"));
}

#[test]
fn palace_outside_board_is_located() {
    let (e, text) = err_with(
        0,
        "palace: {files: [d, f], ranks: [7, 9]}",
        "palace: {files: [d, f], ranks: [8, 10]}",
    );
    assert!(
        matches!(e.problem(), Some(Problem::PalaceOutsideBoard(_))),
        "{e}"
    );
    assert_eq!(e.loc().unwrap().line, line_of(&text, "", "ranks: [8, 10]"));
}

#[test]
fn unknown_mode_and_when_are_located() {
    let (e, text) = err_with(1, "mode: quiet", "mode: quite");
    assert_eq!(e.problem(), Some(&Problem::UnknownMode("quite".into())));
    assert_eq!(e.loc().unwrap().line, line_of(&text, "", "mode: quite"));
    let (e, text) = err_with(1, "when: after_river", "when: after_rivr");
    assert_eq!(
        e.problem(),
        Some(&Problem::UnknownWhen("after_rivr".into()))
    );
    assert_eq!(
        e.loc().unwrap().line,
        line_of(&text, "", "when: after_rivr")
    );
}

#[test]
fn syntax_errors_have_serde_locations() {
    let (e, text) = err_with(1, "    count: 5", "    count: five");
    match &e {
        SpecError::Yaml { loc, reason } => {
            assert_eq!(loc.line, line_of(&text, "", "count: five"));
            assert!(reason.contains("invalid type"), "{reason}");
            assert!(!reason.contains(" at line "), "{reason}");
        }
        other => panic!("expected a YAML error, got {other}"),
    }
}

#[test]
fn missing_piece_is_reported() {
    let mut t = texts();
    t[1] = t[1].replacen("  - id: rook", "  - id: rooks", 1);
    let e = load_str(&t[0], &t[1], &t[2]).unwrap_err();
    assert_eq!(e.problem(), Some(&Problem::UnknownPiece("rooks".into())));
}

#[test]
fn message_format() {
    let (e, _) = err_with(1, "zone: palace", "zone: palce");
    let msg = e.to_string();
    let loc = e.loc().unwrap();
    assert_eq!(
        msg,
        format!(
            "spec/pieces.yaml:{}:{}: unknown zone \"palce\" (expected anywhere, palace, own_half)",
            loc.line, loc.column
        )
    );
    assert_eq!(loc.column, 11, "column of the value under `    zone: `");
}
