//! `xqrules judge --game`: whole games and archives (PGN, XQF, directories).

use std::process::{Command, Output};

fn xqrules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .output()
        .expect("run xqrules")
}

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games");

#[test]
fn one_game_is_explained_with_its_ruling() {
    let file = format!("{GAMES}/cxa2011-fig2-wxf.pgn");
    let o = xqrules(&["judge", "--game", &file, "--rules", "cxa-2011"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("Ruling: red loses unless red changes"),
        "{text}"
    );
    let j = xqrules(&[
        "judge", "--game", &file, "--rules", "cxa-2011", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).expect("json");
    assert_eq!(v["ruling"], "red_loses");
    assert_eq!(v["must_change"], "red");
    assert_eq!(v["ply"], 8, "the third occurrence of the start position");
}

#[test]
fn a_directory_gives_one_json_line_per_game_and_reports_broken_records() {
    let dir = std::env::temp_dir().join(format!("xq-judge-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(GAMES).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    // Two games in one file: the first has an illegal move, the second is fine.
    std::fs::write(
        dir.join("two.pgn"),
        "[Event \"broken\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. e2e9 *\n\n\
         [Event \"fine\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n",
    )
    .unwrap();
    std::fs::write(dir.join("garbage.xqf"), b"XQ\x00\x01 not really").unwrap();
    let o = xqrules(&["judge", "--game", dir.to_str().unwrap()]);
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 3 + 2 + 1, "every game accounted for:\n{out}");
    let status = |s: &str| lines.iter().filter(|l| l["status"] == s).count();
    assert_eq!(status("judged"), 4, "{out}");
    assert_eq!(status("error"), 2, "{out}");
    let broken = lines
        .iter()
        .find(|l| l["status"] == "error" && l["file"].as_str().unwrap().ends_with("two.pgn"))
        .expect("the broken game is reported");
    assert_eq!(broken["game"], 1);
    assert!(
        broken["error"].as_str().unwrap().contains("e2e9"),
        "{broken}"
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "exit 1: some records were not judged"
    );
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(
        stderr.contains("6 games: 4 judged, 2 not judged"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_path_is_bad_input() {
    let o = xqrules(&["judge", "--game", "/no/such/file.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file"));
}

#[test]
fn bundled_games_explanations() {
    for (name, rules) in [
        ("rulebook-opening", "cxa-1999"),
        ("cxa2011-fig2-wxf", "cxa-2011"),
        ("cxa2011-fig9-gbk", "cxa-2011"),
    ] {
        let file = format!("{GAMES}/{name}.pgn");
        let o = xqrules(&["judge", "--game", &file, "--rules", rules]);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout)
            .unwrap()
            .replace(GAMES, "tests/data/games");
        insta::assert_snapshot!(format!("game_{name}"), text);
    }
}

#[test]
fn a_last_move_that_leaves_the_kings_facing_loses_for_its_maker() {
    let dir = std::env::temp_dir().join(format!("xq-judge-facing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = |moves: &str| {
        format!("[FEN \"4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1\"]\n[Format \"ICCS\"]\n\n{moves} *\n")
    };
    let last = dir.join("facing-last.pgn");
    std::fs::write(&last, pgn("1. e1d2")).unwrap();
    let o = xqrules(&[
        "judge",
        "--game",
        last.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["result"], "black_wins", "{v}");
    assert_eq!(v["articles"], serde_json::json!(["4.1.2"]));
    assert_eq!(v["ply"], 1);
    // The record may not go on after the game ended.
    let more = dir.join("facing-more.pgn");
    std::fs::write(&more, pgn("1. e1d2 e9d9")).unwrap();
    let o = xqrules(&["judge", "--game", more.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("kings would face"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_last_move_that_leaves_the_own_king_attacked_loses_for_its_maker() {
    let dir = std::env::temp_dir().join(format!("xq-judge-selfcheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The red rook e1 is pinned by the black rook e5; 2... d9d8 is legal, then 3. e1d1 exposes red's
    // king.
    let file = dir.join("self-check.pgn");
    std::fs::write(
        &file,
        "[FEN \"3k5/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. e0f0 d9d8 2. f0e0 d8d9 3. e1d1 *\n",
    )
    .unwrap();
    let o = xqrules(&[
        "judge",
        "--game",
        file.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["result"], "black_wins", "{v}");
    assert_eq!(v["articles"], serde_json::json!(["3.1", "4.1.6"]));
    assert_eq!(v["ply"], 5);
    assert!(v["reason"].as_str().unwrap().contains("red loses"), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}
