//! Loading the spec from a directory: amended specs, unknown files, bad specs.

use std::path::{Path, PathBuf};

use xiangqi_oracle::{Board, OMove, Spec, SpecError};

const SPEC_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec");

/// A fresh copy of `spec/{board,pieces,material}.yaml` in a temporary directory.
struct TempSpec(PathBuf);

impl TempSpec {
    fn new(name: &str) -> TempSpec {
        let dir =
            std::env::temp_dir().join(format!("xiangqi-oracle-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["board.yaml", "pieces.yaml", "material.yaml"] {
            std::fs::copy(Path::new(SPEC_DIR).join(f), dir.join(f)).unwrap();
        }
        TempSpec(dir)
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn load(&self) -> Result<Spec, SpecError> {
        Spec::load_dir(&self.0)
    }

    /// 1-based line of the first occurrence of `needle` in `file`.
    fn line_of(&self, file: &str, needle: &str) -> usize {
        let text = std::fs::read_to_string(self.0.join(file)).unwrap();
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }
}

impl Drop for TempSpec {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_real_spec_dir_loads_like_the_embedded_one() {
    let spec = Spec::load_dir(Path::new(SPEC_DIR)).unwrap();
    let embedded = Spec::embedded();
    assert_eq!(spec.roles(), embedded.roles());
    assert_eq!(spec.constraints(), embedded.constraints());
    assert_eq!(spec.start_fen(), embedded.start_fen());
    assert_eq!(Board::start(&spec).perft(3), 79666);
    // perft.yaml and examples/ are not interpreted (yet), and do not disturb loading.
    assert!(spec
        .uninterpreted_files()
        .iter()
        .any(|p| p == Path::new("perft.yaml")));
    assert!(embedded.uninterpreted_files().is_empty());
}

#[test]
fn unknown_files_do_not_break_loading() {
    let t = TempSpec::new("unknown");
    t.write(
        "rules/move-classes.yaml",
        "classes: [{id: chase, whatever: 1}]\n",
    );
    t.write("examples/a/b/case.yaml", "not: [valid, yaml");
    t.write("README.md", "# notes\n");
    let spec = t.load().unwrap();
    let names: Vec<String> = spec
        .uninterpreted_files()
        .iter()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    assert_eq!(
        names,
        vec![
            "README.md",
            "examples/a/b/case.yaml",
            "rules/move-classes.yaml"
        ]
    );
    assert_eq!(Board::start(&spec).legal_moves().len(), 44);
}

#[test]
fn horse_without_leg_block_has_more_moves() {
    let t = TempSpec::new("horse");
    for (to, block) in [
        ("[1, 2]", "[0, 1]"),
        ("[-1, 2]", "[0, 1]"),
        ("[1, -2]", "[0, -1]"),
        ("[-1, -2]", "[0, -1]"),
        ("[2, 1]", "[1, 0]"),
        ("[2, -1]", "[1, 0]"),
        ("[-2, 1]", "[-1, 0]"),
        ("[-2, -1]", "[-1, 0]"),
    ] {
        t.edit(
            "pieces.yaml",
            &format!("{{to: {to}, block: {block}}}"),
            &format!("{{to: {to}}}"),
        );
    }
    let spec = t.load().unwrap();
    let start = Board::start(&spec);
    let moves: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    // b0-d1 and h0-f1 jump over the elephants now.
    assert_eq!(moves.len(), 46);
    assert!(moves.contains(&"b0d1".to_string()) && moves.contains(&"h0f1".to_string()));
    assert!(start.perft(2) > 1920);
    // The embedded spec is unaffected.
    let normal = Board::start(Spec::embedded());
    assert!(!normal.is_legal("b0d1".parse::<OMove>().unwrap()));
}

#[test]
fn dropping_the_facing_constraint_allows_facing_kings() {
    let t = TempSpec::new("facing");
    t.edit(
        "pieces.yaml",
        "  - id: kings-not-facing\n",
        "  - id: kings-not-facing-disabled\n",
    );
    t.edit(
        "pieces.yaml",
        "kind: no_facing\n    piece: king",
        "kind: no_self_check\n    piece: king",
    );
    let spec = t.load().unwrap();
    let b = Board::from_fen(&spec, "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    let mut moves: Vec<String> = b.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(moves, vec!["d9d8", "d9e9"]);
}

#[test]
fn yaml_errors_carry_a_line_number() {
    let t = TempSpec::new("badyaml");
    t.edit("pieces.yaml", "    count: 5\n", "    count: five\n");
    let line = t.line_of("pieces.yaml", "count: five");
    let e = t.load().unwrap_err();
    assert_eq!(e.file(), "pieces.yaml");
    assert_eq!(e.line(), Some(line), "{e}");
    let text = e.to_string();
    assert!(text.starts_with(&format!("pieces.yaml:{line}:")), "{text}");

    // A misspelt vocabulary term is an error, not ignored.
    let t = TempSpec::new("typo");
    t.edit("pieces.yaml", "        screens: 1\n", "        sreens: 1\n");
    let line = t.line_of("pieces.yaml", "sreens: 1");
    let e = t.load().unwrap_err();
    assert!(matches!(e, SpecError::Yaml { .. }), "{e}");
    assert!(e.to_string().contains("sreens"), "{e}");
    let got = e.line().unwrap();
    assert!(
        got + 3 >= line && got <= line,
        "line {got}, typo on {line}: {e}"
    );

    // Broken YAML syntax.
    let t = TempSpec::new("syntax");
    t.edit("board.yaml", "files: 9\n", "files: [9\n");
    let e = t.load().unwrap_err();
    assert_eq!(e.file(), "board.yaml");
    assert!(e.line().is_some(), "{e}");
}

#[test]
fn semantic_errors_name_file_and_entry() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        // (file, from, to, expected entry, expected reason fragment)
        (
            "pieces.yaml",
            "zone: own_half",
            "zone: other_half",
            "piece elephant",
            "unknown zone `other_half`",
        ),
        (
            "pieces.yaml",
            "{to: [1, 2], block: [0, 1]}",
            "{to: [1, 2, 3], block: [0, 1]}",
            "piece horse, move 1",
            "bad leap target",
        ),
        (
            "pieces.yaml",
            "vectors: [[0, 1], [0, -1], [1, 0], [-1, 0]]",
            "vectors: [[0, 0], [0, -1], [1, 0], [-1, 0]]",
            "piece king, move 1",
            "does not move",
        ),
        (
            "pieces.yaml",
            "when: after_river",
            "when: at_night",
            "piece pawn, move 2",
            "unknown when `at_night`",
        ),
        (
            "pieces.yaml",
            "kind: step\n        vectors: [[1, 1]",
            "kind: hop\n        vectors: [[1, 1]",
            "piece advisor, move 1",
            "unknown move kind `hop`",
        ),
        (
            "pieces.yaml",
            "mode: quiet",
            "mode: sneaky",
            "piece cannon, move 1",
            "unknown mode `sneaky`",
        ),
        (
            "pieces.yaml",
            "    piece: king\n",
            "    piece: emperor\n",
            "constraint kings-not-facing",
            "unknown piece `emperor`",
        ),
        (
            "material.yaml",
            "{piece: rook,",
            "{piece: chariot,",
            "values[0] (chariot)",
            "unknown piece `chariot`",
        ),
        (
            "board.yaml",
            "palace: {files: [d, f], ranks: [0, 2]}",
            "palace: {files: [d, z], ranks: [0, 2]}",
            "side red",
            "unknown file `z`",
        ),
        (
            "board.yaml",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            "start_position",
            "unknown piece letter 'X'",
        ),
    ];
    for (i, (file, from, to, entry, reason)) in cases.iter().enumerate() {
        let t = TempSpec::new(&format!("semantic{i}"));
        t.edit(file, from, to);
        match t.load() {
            Err(SpecError::Invalid {
                file: f,
                entry: e,
                reason: r,
            }) => {
                assert_eq!(&f, file);
                assert_eq!(&e, entry, "{r}");
                assert!(r.contains(reason), "case {i}: {r}");
            }
            other => panic!("case {i}: expected Invalid, got {other:?}"),
        }
    }
}

#[test]
fn missing_required_file() {
    let t = TempSpec::new("missing");
    std::fs::remove_file(t.0.join("pieces.yaml")).unwrap();
    let e = t.load().unwrap_err();
    assert!(matches!(e, SpecError::Io { .. }));
    assert_eq!(e.file(), "pieces.yaml");
    // material.yaml is optional.
    let t = TempSpec::new("nomaterial");
    std::fs::remove_file(t.0.join("material.yaml")).unwrap();
    assert!(t.load().unwrap().material().is_empty());
}

#[test]
fn overlapping_rules_count_a_move_once() {
    // A second, identical king rule must not double the king's moves.
    let t = TempSpec::new("overlap");
    t.edit(
        "pieces.yaml",
        "      - kind: step\n        vectors: [[0, 1], [0, -1], [1, 0], [-1, 0]]\n",
        "      - kind: step\n        vectors: [[0, 1], [0, -1], [1, 0], [-1, 0]]\n      - kind: step\n        vectors: [[0, 1]]\n",
    );
    let spec = t.load().unwrap();
    assert_eq!(spec.role(spec.royal()).moves.len(), 2);
    assert_eq!(Board::start(&spec).perft(3), 79666);
}
