//! Integration tests of `xqrules engine-check` and `xqrules suite export`.
//!
//! - Against the real engine Debian ships, `/usr/games/fairy-stockfish` (UCI with ranks 1-10,
//!   and UCCI with ranks 0-9): perft and legal moves must agree everywhere. Skipped, with the
//!   reason printed, when the binary is absent.
//! - Against `tests/fake_engines/fake_uci.py` (Python 3, standard library only), which answers
//!   `go perft` from our own `xqrules perft --divide` and misbehaves in one chosen way: a
//!   dropped or added move deep in the tree (the check must name the position and the move),
//!   a hang, a crash, no `uciok`, garbage, an immediate exit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const XQRULES: &str = env!("CARGO_BIN_EXE_xqrules");
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

fn fake_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_uci.py")
}

/// Whether `python3` runs; prints why the test is skipped when it does not.
fn have_python(test: &str) -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("SKIPPED {test}: python3 is not available to run the fake engine");
    }
    ok
}

/// Whether Fairy-Stockfish is installed; prints why the test is skipped when it is not.
fn have_fairy_stockfish(test: &str) -> bool {
    let ok = Path::new(FAIRY_STOCKFISH).exists();
    if !ok {
        eprintln!(
            "SKIPPED {test}: {FAIRY_STOCKFISH} is absent (apt-get install -y fairy-stockfish)"
        );
    }
    ok
}

/// The `--engine` text for the fake engine in `mode` with extra arguments.
fn fake(mode: &str, extra: &str) -> String {
    format!(
        "python3 '{}' --mode {mode} {extra}",
        fake_engine().display()
    )
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

fn xqrules(args: &[&str]) -> Run {
    let output: Output = Command::new(XQRULES)
        .args(args)
        .env("XQRULES_BIN", XQRULES)
        .output()
        .expect("xqrules runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn engine_check(engine: &str, extra: &[&str]) -> Run {
    let mut args = vec!["engine-check", "--engine", engine];
    // The fake engine knows the rule cases only with --rules-file: its move-generation tests
    // leave the rule checks off.
    if engine.contains("fake_uci.py")
        && !engine.contains("--rules-file")
        && !extra.contains(&"--rule-profile")
    {
        args.extend(["--rule-profile", "off"]);
    }
    args.extend_from_slice(extra);
    xqrules(&args)
}

fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn disagreements(report: &Value) -> Vec<&Value> {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["result"] == "disagree")
        .collect()
}

/// Every position is checked at depths 1..=depth, and every check agrees.
fn assert_all_agree(report: &Value, depth: u64, generated: u64) {
    assert_eq!(report["status"], "agree", "{report:#}");
    let checks = report["checks"].as_array().expect("checks");
    let planned = report["summary"]["planned"].as_u64().expect("planned");
    assert_eq!(checks.len() as u64, planned);
    assert_eq!(report["summary"]["agree"].as_u64(), Some(planned));
    let shared = checks
        .iter()
        .filter(|c| {
            c["position"]
                .as_str()
                .is_some_and(|p| p.starts_with("shared-"))
        })
        .count() as u64;
    let gen = checks.len() as u64 - shared;
    assert_eq!(gen, generated * depth);
    assert!(shared >= 10 * depth, "only {shared} shared checks");
    for c in checks {
        assert_eq!(c["engine"], c["expected"], "{c:#}");
        if let Some(published) = c["published"].as_u64() {
            assert_eq!(c["expected"].as_u64(), Some(published), "{c:#}");
        }
    }
    // Depth 1 compares the legal-move lists themselves.
    let depth_one = checks.iter().filter(|c| c["depth"] == 1).count() as u64;
    assert_eq!(depth_one * depth, planned);
}

#[test]
fn fairy_stockfish_uci_agrees_on_perft_and_legal_moves() {
    if !have_fairy_stockfish("fairy_stockfish_uci_agrees_on_perft_and_legal_moves") {
        return;
    }
    let run = engine_check(
        FAIRY_STOCKFISH,
        &[
            "--setoption",
            "UCI_Variant=xiangqi",
            "--ranks",
            "1-10",
            "--depth",
            "3",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_all_agree(&report, 3, 20);
    assert!(report["engine"]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("Fairy-Stockfish")));
    assert_fairy_stockfish_rule_checks(&report);
    eprintln!(
        "fairy-stockfish (UCI, ranks 1-10): {} checks at depths 1-3 agree",
        report["summary"]["agree"]
    );
}

/// Fairy-Stockfish 11 has perpetual check and no chase rules: the cases it can decide are
/// checked and agree; the others are skipped, each with the reason.
fn assert_fairy_stockfish_rule_checks(report: &Value) {
    let rc = &report["rule_checks"];
    assert_eq!(rc["checked"], true, "{rc:#}");
    assert_eq!(rc["profile"], "perpetual-check", "{rc:#}");
    assert!(rc["reason"]
        .as_str()
        .is_some_and(|r| r.contains("no chase rules")));
    let cases = rc["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), examples_with_rulings().len());
    let by_id = |id: &str| {
        cases
            .iter()
            .find(|c| c["example"] == id)
            .unwrap_or_else(|| panic!("no case {id}"))
    };
    // Perpetual check (長將) loses at once: Black's reply to Red's last check wins.
    let fig01 = by_id("cxa-1999/fig01");
    assert_eq!(fig01["result"], "agree", "{fig01:#}");
    assert_eq!(fig01["score"], "mate 1");
    assert_eq!(fig01["engine"], "mover_wins");
    assert_eq!(by_id("cxa-2011/fig6")["result"], "agree");
    // Idle against idle: a draw, cp 0.
    assert_eq!(by_id("cxa-1999/fig12")["score"], "cp 0");
    // A chase case is skipped, saying why.
    let fig02 = by_id("cxa-1999/fig02");
    assert_eq!(fig02["result"], "skipped");
    assert!(fig02["reason"]
        .as_str()
        .is_some_and(|r| r.contains("chase") && r.contains("f4g4")));
    let checked: Vec<&Value> = cases.iter().filter(|c| c["result"] != "skipped").collect();
    assert!(checked.len() >= 6, "{} checked", checked.len());
    for c in &checked {
        assert_eq!(c["result"], "agree", "{c:#}");
    }
    for c in cases.iter().filter(|c| c["result"] == "skipped") {
        assert!(
            c["reason"].as_str().is_some_and(|r| r.contains("chase")),
            "{c:#}"
        );
    }
    eprintln!(
        "fairy-stockfish rule cases: {} checked and agree, {} skipped (no chase rules)",
        checked.len(),
        cases.len() - checked.len()
    );
}

/// (id, YAML) of every worked example of spec/examples with a ruling.
fn examples_with_rulings() -> Vec<(String, serde_yaml::Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/examples");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("spec/examples") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).expect("example dir") {
            let file = file.expect("entry").path();
            if file.file_name().and_then(|n| n.to_str()) == Some("items.yaml") {
                continue;
            }
            let y: serde_yaml::Value =
                serde_yaml::from_str(&std::fs::read_to_string(&file).expect("example"))
                    .expect("example YAML");
            if y["expected"]["ruling"].as_str().is_some() {
                out.push((y["id"].as_str().expect("id").to_string(), y));
            }
        }
    }
    out
}

#[test]
fn fake_engine_with_a_wrong_rule_case_is_caught() {
    if !have_python("fake_engine_with_a_wrong_rule_case_is_caught") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("xqrules-rules-fake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().into_owned();
    let export = xqrules(&[
        "suite",
        "export",
        &dir_text,
        "--depth",
        "1",
        "--positions",
        "1",
    ]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let rules_file = dir.join("rules.jsonl");
    let engine = fake(
        "correct",
        &format!(
            "--rules-file '{}' --wrong-rule cxa-1999/fig02",
            rules_file.display()
        ),
    );
    let run = engine_check(
        &engine,
        &["--depth", "1", "--positions", "1", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["summary"]["disagree"], 0, "move generation agrees");
    let cases = report["rule_checks"]["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), examples_with_rulings().len());
    let wrong: Vec<&Value> = cases.iter().filter(|c| c["result"] != "agree").collect();
    assert_eq!(wrong.len(), 1, "{wrong:#?}");
    let w = wrong[0];
    assert_eq!(w["example"], "cxa-1999/fig02");
    assert_eq!(w["result"], "disagree");
    assert_eq!(w["expected"], "red_loses");
    // Black makes the last move; Red's check-and-chase loses, so Black should win: the engine
    // says Black loses.
    assert_eq!(w["mover"], "black");
    assert_eq!(w["score"], "mate -1");
    assert!(
        w["reason"]
            .as_str()
            .is_some_and(|r| r.contains("expected the mover wins")
                && r.contains("the mover loses")
                && r.contains("cxa-1999 art. 25.2")),
        "{w:#}"
    );
    // The text report names the example, the expected ruling, the score and the articles.
    let text = engine_check(&engine, &["--depth", "1", "--positions", "1"]);
    assert_eq!(text.code, 1);
    let row = text
        .stdout
        .lines()
        .find(|l| l.starts_with("cxa-1999/fig02"))
        .expect("a row for the case");
    assert!(
        row.contains("red_loses") && row.contains("mate -1") && row.contains("DIFFERS"),
        "{row}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fairy_stockfish_ucci_with_iccs_ranks_agrees() {
    if !have_fairy_stockfish("fairy_stockfish_ucci_with_iccs_ranks_agrees") {
        return;
    }
    let run = engine_check(
        FAIRY_STOCKFISH,
        &[
            "--protocol",
            "ucci",
            "--setoption",
            "UCI_Variant=xiangqi",
            "--depth",
            "2",
            "--positions",
            "10",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_all_agree(&run.json(), 2, 10);
}

#[test]
fn fairy_stockfish_with_the_wrong_rank_numbering_is_a_setup_error_with_a_hint() {
    if !have_fairy_stockfish("fairy_stockfish_with_the_wrong_rank_numbering_is_a_setup_error") {
        return;
    }
    let run = engine_check(
        FAIRY_STOCKFISH,
        &["--setoption", "UCI_Variant=xiangqi", "--depth", "1"],
    );
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("try --ranks 1-10"), "{}", run.stderr);
}

#[test]
fn fairy_stockfish_reports_an_unknown_option_as_a_warning() {
    if !have_fairy_stockfish("fairy_stockfish_reports_an_unknown_option_as_a_warning") {
        return;
    }
    let run = engine_check(
        FAIRY_STOCKFISH,
        &[
            "--setoption",
            "UCI_Variant=xiangqi",
            "--setoption",
            "NoSuchOption=1",
            "--ranks",
            "1-10",
            "--depth",
            "1",
            "--positions",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let warnings = strings(&run.json()["warnings"]);
    assert!(
        warnings.iter().any(|w| w.contains("NoSuchOption")),
        "{warnings:?}"
    );
}

#[test]
fn an_honest_fake_engine_agrees() {
    if !have_python("an_honest_fake_engine_agrees") {
        return;
    }
    let run = engine_check(
        &fake("correct", ""),
        &["--depth", "2", "--positions", "5", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_all_agree(&run.json(), 2, 5);
}

#[test]
fn a_dropped_move_two_plies_deep_is_pinpointed() {
    if !have_python("a_dropped_move_two_plies_deep_is_pinpointed") {
        return;
    }
    let engine = fake("drop", "--target-moves h2e2,h9g7 --bad-move b0c2");
    let run = engine_check(&engine, &["--depth", "3", "--format", "json"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["status"], "disagree");
    let bad = disagreements(&report);
    assert_eq!(bad.len(), 1, "{report:#}");
    let check = bad[0];
    assert_eq!(check["position"], "shared-1");
    assert_eq!(check["depth"], 3);
    assert_eq!(check["expected"], 79666);
    assert_eq!(check["engine"], 79665);
    let finding = &check["finding"];
    assert_eq!(finding["kind"], "move_set");
    assert_eq!(strings(&finding["path"]), ["h2e2", "h9g7"]);
    assert_eq!(strings(&finding["missing"]), ["b0c2"]);
    assert!(strings(&finding["extra"]).is_empty());
    assert_eq!(finding["depth"], 1);
    assert_eq!(
        board_and_side(finding["fen"].as_str().expect("fen")),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w"
    );
    // Everything else was checked and agrees.
    assert_eq!(
        report["summary"]["agree"].as_u64(),
        report["summary"]["planned"].as_u64().map(|n| n - 1)
    );

    // The text report says the same for people.
    let text = engine_check(&engine, &["--depth", "3", "--positions", "0"]);
    assert_eq!(text.code, 1, "{}", text.stderr);
    assert!(
        text.stdout.contains("moves to the bad position: h2e2 h9g7"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("legal moves the engine misses: b0c2"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("DISAGREEMENTS FOUND"),
        "{}",
        text.stdout
    );
}

#[test]
fn an_added_illegal_move_three_plies_deep_is_pinpointed_in_fairy_stockfish_ranks() {
    if !have_python("an_added_illegal_move_three_plies_deep_is_pinpointed") {
        return;
    }
    // g7g5: the black horse moving two points straight, after b0c2 h9g7 h2e2.
    let engine = fake(
        "add",
        "--ranks 1-10 --target-moves b0c2,h9g7,h2e2 --bad-move g7g5",
    );
    let run = engine_check(
        &engine,
        &[
            "--ranks",
            "1-10",
            "--depth",
            "4",
            "--positions",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let bad = disagreements(&report);
    assert_eq!(bad.len(), 1, "{report:#}");
    let check = bad[0];
    assert_eq!(check["position"], "shared-1");
    assert_eq!(check["depth"], 4);
    assert_eq!(check["expected"], 3290240);
    assert!(check["engine"].as_u64().is_some_and(|n| n > 3290240));
    let finding = &check["finding"];
    assert_eq!(finding["kind"], "move_set");
    assert_eq!(strings(&finding["path"]), ["b0c2", "h9g7", "h2e2"]);
    assert_eq!(strings(&finding["extra"]), ["g7g5"]);
    assert!(strings(&finding["missing"]).is_empty());
    let fen = finding["fen"].as_str().expect("fen");
    assert!(fen.contains(" b "), "Black to move in {fen}");
}

#[test]
fn an_engine_that_prints_only_totals_is_followed_to_the_bad_position() {
    if !have_python("an_engine_that_prints_only_totals_is_followed_to_the_bad_position") {
        return;
    }
    let engine = fake(
        "drop",
        "--no-divide --target-moves h2e2,h9g7 --bad-move b0c2",
    );
    let run = engine_check(
        &engine,
        &["--depth", "3", "--positions", "0", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let bad = disagreements(&report);
    assert_eq!(bad.len(), 1, "{report:#}");
    let finding = &bad[0]["finding"];
    assert_eq!(finding["kind"], "no_divide");
    assert_eq!(strings(&finding["path"]), ["h2e2", "h9g7"]);
    let message = finding["message"].as_str().expect("message");
    assert!(
        message.contains("counts 34 legal moves here where there are 35"),
        "{message}"
    );
}

#[test]
fn an_engine_whose_tree_counts_differ_from_its_set_up_counts_is_called_inconsistent() {
    if !have_python("an_engine_whose_tree_counts_differ_from_its_set_up_counts") {
        return;
    }
    let engine = fake("inconsistent", "--bad-move h2e2");
    let run = engine_check(
        &engine,
        &["--depth", "2", "--positions", "0", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let bad = disagreements(&report);
    assert_eq!(bad.len(), 1, "{report:#}");
    assert_eq!(bad[0]["position"], "shared-1");
    assert_eq!(bad[0]["engine"], 1921);
    let finding = &bad[0]["finding"];
    assert_eq!(finding["kind"], "inconsistent");
    assert_eq!(strings(&finding["path"]), ["h2e2"]);
    let message = finding["message"].as_str().expect("message");
    assert!(message.contains("counts 46 for h2e2"), "{message}");
}

#[test]
fn the_wrong_rank_numbering_stops_with_a_hint() {
    if !have_python("the_wrong_rank_numbering_stops_with_a_hint") {
        return;
    }
    let run = engine_check(&fake("correct", "--ranks 1-10"), &["--depth", "1"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("try --ranks 1-10"), "{}", run.stderr);
}

/// A misbehaving fake stopped after two good checks: exit 2, the message, a partial report.
fn assert_stops_after_two_checks(mode: &str, message: &[&str]) {
    let run = engine_check(
        &fake(mode, "--after 3"),
        &["--timeout", "3", "--format", "json"],
    );
    assert_eq!(run.code, 2, "{mode}: {}\n{}", run.stdout, run.stderr);
    for m in message {
        assert!(
            run.stderr.contains(m),
            "{mode}: {m:?} not in {}",
            run.stderr
        );
    }
    let report = run.json();
    assert_eq!(report["status"], "error");
    let checks = report["checks"].as_array().expect("checks");
    assert_eq!(checks.len(), 3, "{mode}: {report:#}");
    assert_eq!(checks[0]["result"], "agree");
    assert_eq!(checks[1]["result"], "agree");
    assert_eq!(checks[2]["result"], "error");
    assert_eq!(report["summary"]["run"], 2);
    let error = report["error"].as_str().expect("error");
    assert!(error.contains("shared-1 perft 3"), "{error}");
}

#[test]
fn a_hanging_engine_times_out_with_a_partial_report() {
    if have_python("a_hanging_engine_times_out_with_a_partial_report") {
        assert_stops_after_two_checks("hang", &["engine hangs", "within 3.0 s", "go perft 3"]);
    }
}

#[test]
fn a_crashing_engine_is_reported_with_its_last_words() {
    if have_python("a_crashing_engine_is_reported_with_its_last_words") {
        assert_stops_after_two_checks(
            "crash",
            &[
                "engine crashed",
                "exited with code 3",
                "segmentation fault (simulated)",
            ],
        );
    }
}

#[test]
fn an_engine_printing_garbage_is_stopped() {
    if have_python("an_engine_printing_garbage_is_stopped") {
        assert_stops_after_two_checks("garbage", &["engine prints garbage", "unrecognised lines"]);
    }
}

#[test]
fn an_engine_without_uciok_is_reported() {
    if !have_python("an_engine_without_uciok_is_reported") {
        return;
    }
    let run = engine_check(
        &fake("no-uciok", ""),
        &["--timeout", "2", "--format", "json"],
    );
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("`uciok`"), "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["engine"]["name"], "Fake no-uciok");
    assert_eq!(report["checks"].as_array().map(Vec::len), Some(0));
    assert!(report["summary"]["planned"].as_u64().is_some_and(|n| n > 0));
}

#[test]
fn an_engine_that_exits_at_once_is_reported() {
    if !have_python("an_engine_that_exits_at_once_is_reported") {
        return;
    }
    let run = engine_check(&fake("exit", ""), &["--timeout", "5"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("exited with code 5"), "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot open my evaluation file"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("COULD NOT RUN TO THE END"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_engine_that_does_not_exist_does_not_start() {
    let run = engine_check("/nonexistent/xiangqi-engine --uci", &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("engine does not start"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("/nonexistent/xiangqi-engine"),
        "{}",
        run.stderr
    );
    let run = engine_check("'unterminated", &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("unterminated single quote"),
        "{}",
        run.stderr
    );
}

#[test]
fn suite_export_writes_epd_legal_moves_manifest_and_readme() {
    let dir = std::env::temp_dir().join(format!("xqrules-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().into_owned();
    let run = xqrules(&[
        "suite",
        "export",
        &dir_text,
        "--depth",
        "3",
        "--positions",
        "4",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);

    let epd = std::fs::read_to_string(dir.join("perft.epd")).expect("perft.epd");
    let lines: Vec<&str> = epd.lines().collect();
    assert!(lines.len() >= 14, "{} lines", lines.len());
    assert!(lines[0].starts_with(START_BOARD), "{}", lines[0]);
    assert!(
        lines[0].ends_with(" ;D1 44 ;D2 1920 ;D3 79666 ;D4 3290240 ;D5 133312995 ;D6 5392831844"),
        "{}",
        lines[0]
    );
    for line in &lines {
        let fields: Vec<&str> = line.split(" ;").collect();
        assert_eq!(fields[0].split_whitespace().count(), 6, "{line}");
        for (i, f) in fields[1..].iter().enumerate() {
            let (d, n) = f.split_once(' ').expect("Dn count");
            assert!(d.starts_with('D'), "{line}");
            assert!(n.parse::<u64>().is_ok(), "{line}");
            if i == 0 {
                assert_eq!(d, "D1", "{line}");
            }
        }
    }
    // The generated positions: 4 lines with D1..D3 computed by us.
    let generated: Vec<&&str> = lines.iter().rev().take(4).collect();
    for line in generated {
        assert_eq!(line.matches(" ;D").count(), 3, "{line}");
    }

    let jsonl = std::fs::read_to_string(dir.join("legal_moves.jsonl")).expect("jsonl");
    let cases: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert!(cases.len() > lines.len(), "game positions included");
    assert_eq!(cases[0]["id"], "shared-1");
    let moves = strings(&cases[0]["moves"]);
    assert_eq!(moves.len(), 44);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert!(moves.contains(&"h2e2".to_string()));
    // Each legal-move list matches `xqrules legal` on a sample.
    for case in cases.iter().step_by(37) {
        let fen = case["fen"].as_str().expect("fen");
        let legal = xqrules(&["legal", "--fen", fen]);
        assert_eq!(legal.code, 0, "{}", legal.stderr);
        let listed: Vec<String> = legal.stdout.lines().map(str::to_string).collect();
        assert_eq!(listed, strings(&case["moves"]), "{fen}");
    }

    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
    )
    .expect("manifest JSON");
    let files = manifest["files"].as_array().expect("files");
    let with_rulings = examples_with_rulings();
    assert!(files.iter().any(|f| f["name"] == "rules.jsonl"
        && f["status"] == "present"
        && f["records"].as_u64() == Some(with_rulings.len() as u64)));
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("README");
    assert!(readme.contains("perft.epd") && readme.contains("legal_moves.jsonl"));
    assert!(readme.contains("rules.jsonl") && readme.contains("searchmoves"));

    // rules.jsonl: one line per example with a ruling, every field, the example's data.
    let rules = std::fs::read_to_string(dir.join("rules.jsonl")).expect("rules.jsonl");
    assert_eq!(rules.lines().count(), with_rulings.len());
    for line in rules.lines() {
        let case: Value = serde_json::from_str(line).expect("JSON line");
        for field in [
            "id",
            "rules",
            "fen",
            "moves",
            "printed_moves",
            "expected",
            "classes",
            "articles",
            "rule_ids",
            "engine_question",
            "known_disagreement",
        ] {
            assert!(case.get(field).is_some(), "{field} missing: {line}");
        }
        let id = case["id"].as_str().expect("id");
        let (_, y) = with_rulings
            .iter()
            .find(|(i, _)| i == id)
            .unwrap_or_else(|| panic!("{id} is not an example with a ruling"));
        assert_eq!(case["fen"].as_str(), y["fen"].as_str());
        assert_eq!(case["rules"].as_str(), y["rules"].as_str());
        let yaml_moves: Vec<String> = y["moves_full"]
            .as_sequence()
            .expect("moves_full")
            .iter()
            .map(|m| m.as_str().expect("move").to_string())
            .collect();
        assert_eq!(strings(&case["moves"]), yaml_moves);
        assert_eq!(
            case["expected"]["ruling"].as_str(),
            y["expected"]["ruling"].as_str()
        );
        assert_eq!(
            case["expected"]["must_change"].as_str(),
            y["expected"]["must_change"].as_str()
        );
        match y["classes"].as_sequence() {
            Some(printed) => {
                let classes = case["classes"].as_array().expect("classes");
                assert_eq!(classes.len(), printed.len(), "{id}");
                for (c, p) in classes.iter().zip(printed) {
                    assert_eq!(c["class"].as_str(), p["class"].as_str(), "{id}");
                    assert_eq!(c["move"].as_str(), p["move"].as_str(), "{id}");
                }
            }
            None => assert!(case["classes"].is_null(), "{id}"),
        }
        assert_eq!(
            case["engine_question"]["move"].as_str(),
            yaml_moves.last().map(String::as_str)
        );
        // The mover's result agrees with the ruling.
        let q = &case["engine_question"];
        let ruling = case["expected"]["ruling"].as_str().expect("ruling");
        let expected_result = match (ruling, q["mover"].as_str().expect("mover")) {
            ("draw", _) => "draw",
            ("red_loses", "red") | ("black_loses", "black") => "loss",
            _ => "win",
        };
        assert_eq!(q["mover_result"], expected_result, "{id}");
    }
    // Deterministic: a second export writes the same bytes.
    let again = dir.join("again");
    let again_text = again.to_string_lossy().into_owned();
    let run = xqrules(&[
        "suite",
        "export",
        &again_text,
        "--depth",
        "3",
        "--positions",
        "4",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for file in [
        "perft.epd",
        "legal_moves.jsonl",
        "rules.jsonl",
        "manifest.json",
        "README.md",
    ] {
        assert_eq!(
            std::fs::read(dir.join(file)).expect("first"),
            std::fs::read(again.join(file)).expect("second"),
            "{file} differs between two exports"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_exported_suite_runs_against_fairy_stockfish_without_rust() {
    if !have_fairy_stockfish("the_exported_suite_runs_against_fairy_stockfish_without_rust") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("xqrules-suite-fsf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_string_lossy().into_owned();
    let run = xqrules(&[
        "suite",
        "export",
        &dir_text,
        "--depth",
        "2",
        "--positions",
        "5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // One UCI conversation fed the EPD's D2 counts, as a script in any language would.
    let epd = std::fs::read_to_string(dir.join("perft.epd")).expect("perft.epd");
    let mut input = String::from("uci\nsetoption name UCI_Variant value xiangqi\n");
    let mut expected = Vec::new();
    for line in epd.lines() {
        let mut fields = line.split(" ;");
        let fen = fields.next().expect("fen");
        let d2 = fields
            .find_map(|f| f.strip_prefix("D2 "))
            .expect("D2 count");
        input.push_str(&format!("position fen {fen}\ngo perft 2\n"));
        expected.push(d2.parse::<u64>().expect("count"));
    }
    input.push_str("quit\n");
    let mut child = Command::new(FAIRY_STOCKFISH)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("fairy-stockfish starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write");
    }
    let output = child.wait_with_output().expect("fairy-stockfish ends");
    let text = String::from_utf8_lossy(&output.stdout);
    let got: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Nodes searched: "))
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    assert_eq!(got, expected);
    let _ = std::fs::remove_dir_all(&dir);
}
