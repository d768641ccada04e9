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
