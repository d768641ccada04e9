//! `xqrules convert`: notations in and out, sequences, --legal / jsonl, exit code 2 with the
//! index and reason of the first bad move.

use std::process::Command;

fn xqrules(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .output()
        .expect("xqrules runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn converts_a_sequence_between_notations() {
    let (code, out, err) = xqrules(&[
        "convert",
        "--to",
        "iccs",
        "炮二平五",
        "馬８進７",
        "H2+3",
        "c9e7",
        "车一平二",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "h2e2\nh9g7\nh0g2\nc9e7\ni0h0\n");

    let (code, out, _) = xqrules(&[
        "convert", "--from", "iccs", "--to", "chinese", "h2e2", "h9g7",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "炮二平五\n馬８進７\n");
    let (_, out, _) = xqrules(&[
        "convert",
        "--to",
        "chinese",
        "--simplified",
        "--ascii-digits",
        "h2e2",
        "h9g7",
    ]);
    assert_eq!(out, "炮二平五\n马8进7\n");
    let (_, out, _) = xqrules(&["convert", "--to", "wxf", "炮二平五", "马8进7"]);
    assert_eq!(out, "C2=5\nH8+7\n");
}

#[test]
fn converts_from_a_fen() {
    let fen = "5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1";
    let (code, out, err) = xqrules(&[
        "convert", "--fen", fen, "--to", "chinese", "e4a4", "f9e9", "e2e3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "前炮平九\n將６平５\n炮五進一\n");
    let (_, out, _) = xqrules(&[
        "convert", "--fen", fen, "--from", "wxf", "--to", "iccs", "+C=9",
    ]);
    assert_eq!(out, "e4a4\n");
}

#[test]
fn bad_moves_exit_2_with_index_and_reason() {
    let (code, out, err) = xqrules(&[
        "convert",
        "--to",
        "iccs",
        "炮二平五",
        "馬８進７",
        "炮二平五",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        out, "h2e2\nh9g7\n",
        "the good moves before the bad one are printed"
    );
    assert_eq!(
        err.trim(),
        "xqrules: move 3 \"炮二平五\": \"炮二平五\": Red has no cannon on file 2"
    );
    let (code, _, err) = xqrules(&["convert", "--from", "wxf", "--to", "iccs", "C2=5", "C3=5"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 2 \"C3=5\""), "{err}");
    let (code, _, err) = xqrules(&["convert", "--from", "chinese", "--to", "wxf", "h2e2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("move 1 \"h2e2\"") && err.contains("not a Chinese move"),
        "{err}"
    );
    let (code, _, err) = xqrules(&["convert", "--fen", "bad", "--to", "wxf", "h2e2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fen"), "{err}");
}

#[test]
fn legal_moves_as_jsonl() {
    let (code, out, _) = xqrules(&["convert", "--legal", "--to", "chinese", "--format", "jsonl"]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 44);
    let h2e2 = lines.iter().find(|v| v["iccs"] == "h2e2").unwrap();
    assert_eq!(h2e2["text"], "炮二平五");
    assert_eq!(
        h2e2["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
}
