//! The `xqrules` command-line contract (README): output forms, exit codes, error messages.

use std::process::{Command, Output};

fn xqrules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .output()
        .expect("run xqrules")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

const CPW2: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

#[test]
fn perft_last_line_is_the_total_in_digits() {
    for engine in ["fast", "oracle"] {
        let o = xqrules(&["perft", "--depth", "3", "--engine", engine]);
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        assert_eq!(stdout(&o), "79666\n", "{engine}");
    }
}

#[test]
fn perft_divide_lists_each_root_move_then_the_total() {
    for engine in ["fast", "oracle"] {
        let o = xqrules(&[
            "perft", "--fen", CPW2, "--depth", "2", "--divide", "--engine", engine,
        ]);
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 38 + 1, "38 root moves and the total");
        assert_eq!(*lines.last().unwrap(), "1128");
        let mut sum = 0u64;
        let mut moves = Vec::new();
        for line in &lines[..38] {
            let (mv, n) = line.split_once(": ").expect("`move: count`");
            assert_eq!(mv.len(), 4, "{line}");
            moves.push(mv.to_string());
            sum += n.parse::<u64>().expect("count");
        }
        assert_eq!(sum, 1128);
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted, "divide lines are sorted");
    }
}

#[test]
fn fast_and_oracle_divide_outputs_are_identical() {
    let a = xqrules(&["perft", "--fen", CPW2, "--depth", "3", "--divide"]);
    let b = xqrules(&[
        "perft", "--fen", CPW2, "--depth", "3", "--divide", "--engine", "oracle",
    ]);
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn legal_prints_sorted_iccs_moves() {
    let o = xqrules(&["legal"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let moves: Vec<&str> = text.lines().collect();
    assert_eq!(moves.len(), 44);
    assert!(moves.contains(&"h2e2"), "炮二平五 is h2e2");
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let oracle = xqrules(&["legal", "--engine", "oracle"]);
    assert_eq!(stdout(&oracle), text);
}

#[test]
fn ranks_one_to_ten_only_when_asked() {
    let o = xqrules(&["legal", "--ranks", "1-10"]);
    let text = stdout(&o);
    assert!(
        text.lines().any(|m| m == "h3e3"),
        "h2e2 in ranks 1-10 is h3e3"
    );
    assert!(!text.lines().any(|m| m == "h2e2"));
    let oracle = xqrules(&["legal", "--ranks", "1-10", "--engine", "oracle"]);
    assert_eq!(stdout(&oracle), text);
}

#[test]
fn show_prints_a_board_with_the_side_to_move() {
    let o = xqrules(&["show", "--fen", CPW2]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("Red (紅) to move"));
    assert!(text.contains(CPW2));
    assert!(text
        .lines()
        .next()
        .unwrap()
        .starts_with("9  r . b a . a . . ."));
    let zh = xqrules(&["show", "--names", "chinese"]);
    assert!(stdout(&zh).contains("帥"));
    assert!(stdout(&zh).contains("將"));
}

#[test]
fn bad_input_exits_2_with_the_reason_on_stderr() {
    let cases: [(&[&str], &str); 4] = [
        (&["perft", "--fen", "rnbakabnr/9 w", "--depth", "1"], "rank"),
        (
            &["legal", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"],
            "fac",
        ),
        (
            &[
                "legal",
                "--engine",
                "oracle",
                "--fen",
                "4k4/9/9/9/9/9/9/9/9/3KK4 w - - 0 1",
            ],
            "",
        ),
        (&["perft", "--depth", "x"], "invalid value"),
    ];
    for (args, needle) in cases {
        let o = xqrules(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}: nothing on stdout");
        let err = stderr(&o).to_lowercase();
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn every_command_has_help() {
    for cmd in ["perft", "legal", "show"] {
        let o = xqrules(&[cmd, "--help"]);
        assert!(o.status.success(), "{cmd} --help");
        assert!(stdout(&o).contains("--fen"), "{cmd} --help mentions --fen");
    }
}

#[test]
fn moves_are_played_first_and_a_bad_move_is_reported_with_index_and_reason() {
    let o = xqrules(&["perft", "--depth", "1", "--moves", "h2e2 h9g7"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let oracle = xqrules(&[
        "perft",
        "--depth",
        "1",
        "--moves",
        "h2e2 h9g7",
        "--engine",
        "oracle",
    ]);
    assert_eq!(stdout(&o), stdout(&oracle));
    for engine in ["fast", "oracle"] {
        let o = xqrules(&["legal", "--moves", "h2e2 h9g7 e2e9", "--engine", engine]);
        assert_eq!(o.status.code(), Some(2), "{engine}");
        let err = stderr(&o);
        assert!(err.contains("move 3 \"e2e9\""), "{engine}: {err}");
        assert!(
            err.contains("screen"),
            "{engine}: the cannon needs a screen: {err}"
        );
    }
}

#[test]
fn lenient_accepts_analysis_positions_and_says_what_it_relaxed() {
    // Three red rooks: more than the spec's count of 2.
    let fen = "4k4/9/9/9/9/9/9/R1R1R4/9/4K4 w - - 0 1";
    for engine in ["fast", "oracle"] {
        let strict = xqrules(&["legal", "--fen", fen, "--engine", engine]);
        assert_eq!(strict.status.code(), Some(2), "{engine}: strict rejects");
        let o = xqrules(&["legal", "--fen", fen, "--lenient", "--engine", engine]);
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("not checked"),
            "{engine}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).lines().count() > 20, "{engine}");
    }
}

#[test]
fn lenient_refuses_a_setup_too_crowded_for_a_move_list() {
    // 36 red rooks could have 616 moves: the fast engine's lists hold 256, so it refuses the
    // set-up with a typed error instead of overflowing (the oracle's lists are unbounded).
    let fen = "3k5/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/nRnRnRnRn/RnRnRnRnR/\
               nRnRnRnRn/4K4 w - - 0 1";
    let o = xqrules(&["legal", "--fen", fen, "--lenient"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Red's pieces could have up to 616 moves at once"),
        "{}",
        stderr(&o)
    );
    let o = xqrules(&["legal", "--fen", fen, "--lenient", "--engine", "oracle"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Runs `xqrules ARGS` with stdout a pipe whose reading end is already closed (what
/// `xqrules ... | head -1` gives once `head` has read its line), and `stdin` as its input.
fn with_closed_stdout(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xqrules");
    let mut input = child.stdin.take().expect("stdin");
    // The program may end before it reads everything: a failed write here is expected.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("wait")
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let batch = (0..50)
        .map(|i| format!("{{\"id\": {i}, \"fen\": \"{START}\", \"moves\": \"h2e2 h9g7\"}}\n"))
        .collect::<String>();
    let cases: [&[&str]; 8] = [
        &["judge", "--batch", "-", "--rules", "cxa-1999"],
        &["judge", "--game", "tests/data/games"],
        &["judge", "--example", "cxa-1999/fig03", "--format", "json"],
        &["judge", "--example", "cxa-1999/fig03"],
        &["perft", "--depth", "2", "--divide"],
        &["legal"],
        &["show"],
        &["convert", "--to", "chinese", "h2e2", "h9g7"],
    ];
    for args in cases {
        let o = with_closed_stdout(args, &batch);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(141), "{args:?}: 128 + SIGPIPE; {err}");
    }
}

#[test]
fn judge_batch_into_head_prints_the_first_line_and_no_panic() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-head");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("cases.jsonl");
    let batch = (0..400)
        .map(|i| format!("{{\"id\": {i}, \"fen\": \"{START}\", \"moves\": \"h2e2 h9g7\"}}\n"))
        .collect::<String>();
    std::fs::write(&file, batch).expect("write");
    let script = format!(
        "\"{}\" judge --batch \"{}\" --rules cxa-1999 | head -1",
        env!("CARGO_BIN_EXE_xqrules"),
        file.display()
    );
    let o = Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("sh");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("{\"id\":0,"), "{out}");
}

/// An empty working directory outside the repository (what an engine author has in their own
/// engine's folder).
fn outside(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-outside-{name}"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear");
    }
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir
}

fn xqrules_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .current_dir(dir)
        .env("XQRULES_BIN", env!("CARGO_BIN_EXE_xqrules"))
        .output()
        .expect("run xqrules")
}

#[test]
fn outside_the_repository_the_spec_tools_use_the_built_in_spec() {
    let dir = outside("spec");
    let o = xqrules_in(&dir, &["spec", "check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("built-in spec"), "{}", stdout(&o));
    assert!(stdout(&o).contains(": 0 problems"), "{}", stdout(&o));

    let o = xqrules_in(&dir, &["diagram", "--out", "drawn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.join("drawn/index.html").is_file());
    assert!(dir.join("drawn/cxa-1999/fig03.svg").is_file());
}

#[test]
fn outside_the_repository_suite_export_writes_the_whole_suite() {
    let dir = outside("suite");
    let o = xqrules_in(
        &dir,
        &[
            "suite",
            "export",
            "suite",
            "--depth",
            "1",
            "--positions",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rules = std::fs::read_to_string(dir.join("suite/rules.jsonl")).expect("rules.jsonl");
    assert!(rules.lines().count() > 40, "{rules}");
    for f in [
        "perft.epd",
        "legal_moves.jsonl",
        "manifest.json",
        "README.md",
    ] {
        assert!(dir.join("suite").join(f).is_file(), "{f}");
    }
    // A bad --spec is an error that leaves no half-written folder behind.
    let o = xqrules_in(
        &dir,
        &["suite", "export", "broken", "--spec", "no-such-spec"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-spec"), "{}", stderr(&o));
    assert!(!dir.join("broken").exists(), "no empty folder");
}

#[test]
fn outside_the_repository_engine_check_reads_the_built_in_rule_cases() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is not available to run the fake engine");
        return;
    }
    let dir = outside("engine");
    let engine = format!(
        "python3 '{}' --mode correct",
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fake_engines/fake_uci.py")
            .display()
    );
    let o = xqrules_in(
        &dir,
        &[
            "engine-check",
            "--engine",
            &engine,
            "--depth",
            "1",
            "--positions",
            "1",
            "--rule-profile",
            "full",
            "--format",
            "json",
        ],
    );
    let err = stderr(&o);
    assert!(!err.contains("not a spec directory"), "{err}");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "the check ran: {err}\n{}",
        stdout(&o)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json report");
    assert_eq!(report["rule_checks"]["checked"], true, "{report:#}");
    assert!(report["rule_checks"]["cases"]
        .as_array()
        .is_some_and(|c| c.len() > 40));
}

/// Runs `xqrules ARGS` with `input` on stdin.
fn xqrules_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_xqrules"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xqrules");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The keys of a JSON object, in order.
fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

#[test]
fn judge_batch_reports_every_line_even_after_a_bad_one() {
    let mut input = Vec::new();
    input.extend(
        format!("{{\"id\": \"a\", \"fen\": \"{START}\", \"moves\": \"h2e2 h9g7\"}}\n").bytes(),
    );
    input.extend(b"{\"id\": \"latin-1\", \"fen\": \"caf\xe9\"}\n");
    input.extend(b"not json\n");
    input.extend(b"\n");
    input.extend(
        format!("{{\"id\": \"d\", \"fen\": \"{START}\", \"moves\": [\"h2e2\", \"e2e9\"]}}\n")
            .bytes(),
    );
    input.extend(format!("{{\"id\": \"e\", \"fen\": \"{START}\", \"moves\": \"b2e2\"}}\n").bytes());
    let o = xqrules_stdin(&["judge", "--batch", "-"], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(
        lines.len(),
        5,
        "one line per non-blank input line: {}",
        stdout(&o)
    );
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(
        lines[0]["judgement"]["rules"], "cxa-1999",
        "the default rule set"
    );
    assert_eq!(keys(&lines[1]), ["id", "line", "error"]);
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"].as_str().unwrap().contains("not UTF-8"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["line"], 3);
    assert!(lines[2]["error"].as_str().unwrap().contains("not JSON"));
    assert_eq!(lines[3]["id"], "d");
    assert!(
        lines[3]["error"]
            .as_str()
            .unwrap()
            .contains("move 2 \"e2e9\""),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4]["id"], "e");
    assert!(
        lines[4]["judgement"].is_object(),
        "judged after the bad lines"
    );
}

#[test]
fn every_json_judgement_has_the_same_keys_in_the_same_order_and_the_spec_hash() {
    let version = stdout(&xqrules(&["--version"]));
    let one = xqrules(&["judge", "--example", "cxa-1999/fig03", "--format", "json"]);
    assert!(one.status.success(), "{}", stderr(&one));
    let one: serde_json::Value = serde_json::from_str(&stdout(&one)).expect("json");
    let expected = [
        "rules",
        "result",
        "reason",
        "ply",
        "articles",
        "ruling",
        "must_change",
        "immediate",
        "pending",
        "cycle",
        "red_pattern",
        "black_pattern",
        "moves_after_end",
        "spec_hash",
    ];
    assert_eq!(keys(&one), expected);
    let hash = one["spec_hash"].as_str().expect("hash");
    assert_eq!(hash.len(), 16);
    assert!(version.contains(&format!("(spec {hash})")), "{version}");
    let oracle = xqrules(&[
        "judge",
        "--example",
        "cxa-1999/fig03",
        "--format",
        "json",
        "--engine",
        "oracle",
    ]);
    let oracle: serde_json::Value = serde_json::from_str(&stdout(&oracle)).expect("json");
    assert_eq!(keys(&oracle), expected);
    let batch = format!("{{\"id\": 1, \"fen\": \"{START}\", \"moves\": \"h2e2\"}}\n");
    let b = xqrules_stdin(&["judge", "--batch", "-"], batch.as_bytes());
    assert_eq!(keys(&json_lines(&b)[0]["judgement"]), expected);
    let g = xqrules(&["judge", "--game", "tests/data/games"]);
    for line in json_lines(&g) {
        if line["status"] == "judged" {
            assert_eq!(keys(&line["judgement"]), expected);
        }
    }
}

/// The example's FEN and `moves_full`.
fn example(id: &str) -> (String, Vec<String>) {
    let path = format!("{}/spec/examples/{id}.yaml", env!("CARGO_MANIFEST_DIR"));
    let y: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(path).expect("read")).expect("yaml");
    let moves = y["moves_full"]
        .as_sequence()
        .expect("moves_full")
        .iter()
        .map(|m| m.as_str().expect("move").to_string())
        .collect();
    (y["fen"].as_str().expect("fen").to_string(), moves)
}

#[test]
fn moves_after_the_end_are_reported() {
    let (fen, mut moves) = example("cxa-1999/fig03");
    let j = xqrules(&["judge", "--example", "cxa-1999/fig03", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&j)).expect("json");
    assert_eq!(j["moves_after_end"], 0);
    // The position after the last move is the one the cycle started from: its first move is
    // legal again, and comes after the ruling.
    let cycle = j["cycle"].as_array().expect("cycle").len();
    moves.push(moves[moves.len() - cycle].clone());
    let all = moves.join(" ");
    let o = xqrules(&[
        "judge", "--rules", "cxa-1999", "--fen", &fen, "--moves", &all, "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(after["moves_after_end"], 1);
    assert_eq!(after["ruling"], j["ruling"]);
    let text = xqrules(&[
        "judge", "--rules", "cxa-1999", "--fen", &fen, "--moves", &all,
    ]);
    assert!(text.status.success());
    assert!(
        stderr(&text).contains("1 move after ply"),
        "{}",
        stderr(&text)
    );
    // A move after the ruling that is illegal (here the other side's move played twice) is
    // bad input, in both engines and in a batch, as it is before the ruling.
    let again = moves[moves.len() - 1].clone();
    let bad = format!("{all} {again}");
    let index = moves.len() + 1;
    for engine in ["fast", "oracle"] {
        let o = xqrules(&[
            "judge", "--rules", "cxa-1999", "--fen", &fen, "--moves", &bad, "--engine", engine,
        ]);
        assert_eq!(o.status.code(), Some(2), "{engine}: {}", stdout(&o));
        assert!(
            stderr(&o).contains(&format!("move {index} \"{again}\"")),
            "{engine}: {}",
            stderr(&o)
        );
    }
    let line = serde_json::json!({"fen": fen, "moves": bad}).to_string();
    let o = xqrules_stdin(
        &[
            "judge", "--rules", "cxa-1999", "--batch", "-", "--format", "json",
        ],
        line.as_bytes(),
    );
    let out = json_lines(&o);
    assert_eq!(out.len(), 1, "{}", stdout(&o));
    assert!(
        out[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains(&format!("move {index}"))),
        "{}",
        out[0]
    );
}

#[test]
fn judge_reads_ranks_one_to_ten_leniently_and_defaults_the_rules() {
    let (fen, moves) = example("cxa-1999/fig03");
    let iccs = moves.join(" ");
    let shifted: Vec<String> = moves
        .iter()
        .map(|m| {
            let b = m.as_bytes();
            let up = |r: u8| ((r - b'0') + 1).to_string();
            format!("{}{}{}{}", b[0] as char, up(b[1]), b[2] as char, up(b[3]))
        })
        .collect();
    let a = xqrules(&["judge", "--fen", &fen, "--moves", &iccs, "--format", "json"]);
    assert!(a.status.success(), "no --rules needed: {}", stderr(&a));
    let b = xqrules(&[
        "judge",
        "--fen",
        &fen,
        "--moves",
        &shifted.join(" "),
        "--ranks",
        "1-10",
        "--format",
        "json",
    ]);
    assert!(b.status.success(), "{}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b));
    let a: serde_json::Value = serde_json::from_str(&stdout(&a)).expect("json");
    assert_eq!(a["rules"], "cxa-1999");
    // Three red rooks: an analysis position, judged only with --lenient.
    let crowded = "4k4/9/9/9/9/9/9/R1R1R4/9/4K4 w - - 0 1";
    for engine in ["fast", "oracle"] {
        let strict = xqrules(&[
            "judge", "--fen", crowded, "--moves", "a2a3", "--engine", engine,
        ]);
        assert_eq!(strict.status.code(), Some(2), "{engine}");
        let o = xqrules(&[
            "judge",
            "--fen",
            crowded,
            "--moves",
            "a2a3",
            "--lenient",
            "--engine",
            engine,
        ]);
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("not checked"),
            "{engine}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn judge_game_reads_stdin_recognises_files_by_content_and_skips_trailers() {
    let dir = outside("games");
    // A random binary file named .xqf: not a game record, said so (not a bad Chinese move).
    let noise: Vec<u8> = (0u32..600)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join("noise.xqf"), &noise).expect("write");
    let o = xqrules_in(&dir, &["judge", "--game", "noise.xqf"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a game record"), "{}", stderr(&o));
    // Two games as archives export them: GBK, a ===== line and a site footer after each result.
    let game = |event: &str| {
        format!(
            "[Event \"{event}\"]\n[Result \"*\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n\
             ===========================\n欢迎访问 象棋网站 www.example.com\n\n"
        )
    };
    let text = game("one") + &game("two");
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    std::fs::write(dir.join("archive.pgn"), &gbk).expect("write");
    let o = xqrules_in(&dir, &["judge", "--game", "archive.pgn", "noise.xqf"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the noise file is not judged: {}",
        stderr(&o)
    );
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 3, "{}", stdout(&o));
    assert!(
        lines[..2].iter().all(|l| l["status"] == "judged"),
        "{}",
        stdout(&o)
    );
    assert_eq!(lines[2]["status"], "error");
    let err = stderr(&o);
    assert_eq!(err.matches("starts no game, skipped").count(), 2, "{err}");
    // The same record on stdin.
    let o = xqrules_stdin(
        &["judge", "--game", "-", "--format", "json"],
        game("one").as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(j["ply"], 3);
}

#[test]
fn judge_game_says_when_the_records_result_differs_from_the_ruling() {
    // Red's fifth move leaves the kings facing (將帥對面): Red loses, the record says 1-0.
    let pgn = "[Event \"x\"]\n[Format \"ICCS\"]\n[Result \"1-0\"]\n\n1. e3e4 e6e5 2. e4e5 b9c7 3. e5d5 1-0\n";
    let o = xqrules_stdin(&["judge", "--game", "-"], pgn.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Result 1-0 differs from the ruling (black_wins)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn convert_prints_the_rule_books_piece_names_when_asked() {
    let o = xqrules(&[
        "convert", "--to", "chinese", "h2e2", "h9g7", "h0g2", "b9c7", "i0i1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "炮二平五\n馬８進７\n傌二進三\n馬２進３\n俥一進一\n"
    );
    let o = xqrules(&[
        "convert",
        "--to",
        "chinese",
        "--book-names",
        "h2e2",
        "h9g7",
        "h0g2",
        "b9c7",
        "i0i1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "炮二平五\n馬８進７\n馬二進三\n馬２進３\n車一進一\n"
    );
}

/// No progress bar, carriage return or terminal escape in `text` (the progress bars of the
/// long commands are drawn only when stderr is a terminal; here it is a pipe).
fn assert_no_progress(what: &str, text: &str) {
    assert!(
        !text.contains('\r') && !text.contains('\u{1b}') && !text.contains("elapsed"),
        "{what}: progress output in {text:?}"
    );
}

/// A position with few moves, for a deep oracle perft (92,741 leaves at depth 4).
const SPARSE: &str = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1";

#[test]
fn long_commands_draw_no_progress_into_a_pipe() {
    let dir = std::env::temp_dir().join(format!("xqrules-cli-progress-{}", std::process::id()));
    let index = dir.join("index.html");
    let diagrams = dir.join("diagrams");
    let (index, diagrams) = (index.to_str().unwrap(), diagrams.to_str().unwrap());
    let runs: [&[&str]; 5] = [
        &["perft", "--depth", "4"],
        &[
            "perft", "--depth", "4", "--divide", "--engine", "oracle", "--fen", SPARSE,
        ],
        &["spec", "check", "spec"],
        &["spec", "index", index, "--spec", "spec"],
        &["diagram", "--spec", "spec", "--out", diagrams],
    ];
    for args in runs {
        let o = xqrules(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}: nothing on stderr");
        assert_no_progress(&format!("{args:?}"), &stdout(&o));
    }
    let o = xqrules(&["perft", "--depth", "4"]);
    assert_eq!(stdout(&o), "3290240\n");
    let o = xqrules(&[
        "perft", "--depth", "4", "--engine", "oracle", "--fen", SPARSE,
    ]);
    assert_eq!(stdout(&o), "92741\n");
    // JSON: one document on stdout, nothing else anywhere.
    let o = xqrules(&[
        "spec", "diff", "spec", "spec", "--rules", "axf", "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    assert_eq!(json["changed"], 0);
}
