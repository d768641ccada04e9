//! Fuzz entries for the inputs that others hand to the tools: a rules committee's amended spec
//! directory (`xqrules spec check`) and an engine's replies (`xqrules engine-check`). Neither
//! may panic or hang, whatever the bytes; each panics with the reason on a violation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use xiangqi_oracle::judge::{RuleSet, RulesError, RULE_SETS};
use xiangqi_rules::builtin_spec;
use xiangqi_rules::conformance::check::{converse, CheckOptions, NoProgress};
use xiangqi_rules::conformance::client::ReplayEngine;
use xiangqi_rules::conformance::positions::{generated_positions, shared_positions, TestPosition};
use xiangqi_rules::conformance::protocol::Protocol;
use xiangqi_rules::conformance::report::{CheckResult, Report, Status};
use xiangqi_rules::conformance::rules::{load_cases, RuleCase, RuleProfile};
use xiangqi_rules::spec_tools::check::{check, NoJudge};
use xiangqi_rules::spec_tools::diag::Diagnostic;
use xiangqi_rules::spec_tools::diff::{spec_changes_from, SpecBase};
use xiangqi_rules::RankConvention;

/// The files of the spec directory that [`fuzz_spec`] replaces, by slot number: the three
/// board files, the four rule files and two worked examples (one of them with a cycle and a
/// ruling).
pub const SPEC_SLOTS: &[&str] = &[
    "board.yaml",
    "pieces.yaml",
    "material.yaml",
    "rules/terms.yaml",
    "rules/cxa-1999.yaml",
    "rules/cxa-2011.yaml",
    "rules/axf.yaml",
    "examples/cxa-1999/fig03.yaml",
    "examples/axf/O46.yaml",
];

/// The spec directory the fuzzed files are written into: the shipped spec without its other
/// examples (which would only make each run slower), one per process.
struct SpecFixture {
    /// The shipped copy, for [`spec_changes_from`]: read once, each of its files parsed once.
    shipped: SpecBase,
    /// The directory checked.
    dir: PathBuf,
    /// Slots whose file differs from the shipped one.
    dirty: Vec<usize>,
}

fn spec_fixture() -> &'static Mutex<SpecFixture> {
    static FIXTURE: OnceLock<Mutex<SpecFixture>> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let shipped = builtin_spec::dir().expect("the built-in spec writes to a directory");
        let shipped = SpecBase::load(&shipped).expect("the built-in spec lists its files");
        let dir = std::env::temp_dir().join(format!("xqrules-fuzz-spec-{}", std::process::id()));
        // Left over from a process with the same id: start afresh.
        let _ = std::fs::remove_dir_all(&dir);
        for rel in SPEC_SLOTS {
            let text = builtin_spec::file(rel).expect("a slot is a shipped file");
            write(&dir, rel, text.as_bytes());
        }
        Mutex::new(SpecFixture {
            shipped,
            dir,
            dirty: Vec::new(),
        })
    })
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("the fuzz spec directory can be created");
    }
    std::fs::write(&path, bytes).expect("the fuzz spec directory is writable");
}

/// Splits `data` into files: chunks separated by a NUL byte, each chunk's first byte choosing
/// the slot of [`SPEC_SLOTS`] (modulo their number: the board file is slot 9, as 0 separates),
/// the rest its new text. A later chunk for the same slot replaces an earlier one.
pub fn spec_files(data: &[u8]) -> BTreeMap<usize, &[u8]> {
    data.split(|&b| b == 0)
        .filter_map(|chunk| chunk.split_first())
        .map(|(&slot, text)| (slot as usize % SPEC_SLOTS.len(), text))
        .collect()
}

/// Any bytes as amended spec files ([`spec_files`]) over a copy of the shipped spec: loading
/// and `spec check` (without a judge: the judges have their own targets) never panic, every
/// problem is a diagnostic `file:line:column: reason` naming a file of the directory and a
/// line of it, the oracle's rule-set reader and `spec diff`'s comparison of the rule files
/// give typed errors, never a panic. Returns the diagnostics of the check.
pub fn fuzz_spec(data: &[u8]) -> Vec<Diagnostic> {
    let mut fixture = spec_fixture().lock().unwrap_or_else(|e| e.into_inner());
    let files = spec_files(data);
    for slot in std::mem::take(&mut fixture.dirty) {
        if !files.contains_key(&slot) {
            let rel = SPEC_SLOTS[slot];
            let text = builtin_spec::file(rel).expect("a slot is a shipped file");
            write(&fixture.dir, rel, text.as_bytes());
        }
    }
    for (&slot, text) in &files {
        write(&fixture.dir, SPEC_SLOTS[slot], text);
        fixture.dirty.push(slot);
    }
    let dir = fixture.dir.clone();
    let (_, report) = check(&dir, &NoJudge).expect("a directory of files can be checked");
    let shown = dir.display().to_string();
    // Lines per file named (None: the file does not read).
    let mut lines: BTreeMap<String, Option<usize>> = BTreeMap::new();
    for d in &report.diagnostics {
        assert!(d.file.starts_with(&shown), "{d}: not in {shown}");
        assert!(d.line >= 1 && d.column >= 1, "{d}");
        assert!(
            !d.reason.trim().is_empty() && !d.reason.contains('\n'),
            "{d}"
        );
        let rel = d.file[shown.len()..].trim_start_matches(['/', '\\']);
        let count = *lines.entry(rel.to_string()).or_insert_with(|| {
            let text = std::fs::read(dir.join(rel)).ok()?;
            Some(text.split(|&b| b == b'\n').count())
        });
        if let Some(lines) = count {
            assert!(d.line <= lines.max(1), "{d}: the file has {lines} lines");
        }
    }
    for id in RULE_SETS {
        match RuleSet::load_dir(id, &dir.join("rules")) {
            Ok(_) => {}
            Err(RulesError::Yaml {
                file,
                line: Some(line),
                column: Some(column),
                reason,
            }) => {
                assert!(line >= 1 && column >= 1, "{file}:{line}:{column}: {reason}");
                assert!(!reason.contains(" at line "), "{reason}");
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    // Its own errors are strings naming the file; only a panic is a failure here.
    let _ = spec_changes_from(&fixture.shipped, &dir);
    report.diagnostics
}

/// What [`fuzz_engine_replies`] checks against: the start position, one generated position
/// and a few rule cases of the shipped spec.
struct EngineFixture {
    positions: Vec<TestPosition>,
    cases: Vec<RuleCase>,
}

fn engine_fixture() -> &'static EngineFixture {
    static FIXTURE: OnceLock<EngineFixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let mut positions: Vec<TestPosition> = shared_positions()
            .expect("the embedded perft.yaml reads")
            .into_iter()
            .take(1)
            .collect();
        positions.extend(generated_positions(1, 1));
        let dir = builtin_spec::dir().expect("the built-in spec writes to a directory");
        let all = load_cases(&dir).expect("the shipped spec has rule cases");
        // The first case of each rule set.
        let mut cases: Vec<RuleCase> = Vec::new();
        for case in all {
            if !cases.iter().any(|c| c.example.rules == case.example.rules) {
                cases.push(case);
            }
        }
        EngineFixture { positions, cases }
    })
}

/// The options [`fuzz_engine_replies`] checks with, from its first byte: bit 0 the protocol
/// (UCI, UCCI), bit 1 the rank numbering (0-9, 1-10), bit 2 a `setoption`, bit 3 the perft
/// depth (1, 2), bit 4 the rule profile (full, auto).
pub fn engine_options(choice: u8) -> CheckOptions {
    CheckOptions {
        engine: "replayed engine".to_string(),
        protocol: if choice & 1 == 0 {
            Protocol::Uci
        } else {
            Protocol::Ucci
        },
        ranks: if choice & 2 == 0 {
            RankConvention::Iccs
        } else {
            RankConvention::FairyStockfish
        },
        setoptions: if choice & 4 == 0 {
            Vec::new()
        } else {
            vec![("UCI_Variant".to_string(), "xiangqi".to_string())]
        },
        depth: 1 + u32::from((choice >> 3) & 1),
        positions: 1,
        seed: 1,
        timeout: 1.0,
        spec: PathBuf::new(),
        rule_profile: if choice & 16 == 0 {
            RuleProfile::Full
        } else {
            RuleProfile::Auto
        },
        rule_sets: Vec::new(),
        rule_depth: 1,
        draw_margin: 20,
    }
}

/// Any bytes as an engine's replies to a whole engine-check (the first byte chooses the
/// options, [`engine_options`]; the rest is the engine's output): the reader never panics and
/// ends (the replies end: no wait is longer than the input), and the report is consistent: an
/// error exactly when the run stopped early, a perft check that agrees has the engine's count
/// equal to ours, and the report prints as text and as JSON. Returns the report (`None` for
/// empty input).
pub fn fuzz_engine_replies(data: &[u8]) -> Option<Report> {
    let (&choice, replies) = data.split_first()?;
    let fixture = engine_fixture();
    let options = engine_options(choice);
    let mut engine = ReplayEngine::new(replies);
    let report = converse(
        &options,
        &mut engine,
        &fixture.positions,
        &fixture.cases,
        &mut NoProgress,
    );
    let planned = fixture.positions.len() * options.depth as usize;
    assert_eq!(report.summary.planned, planned);
    match &report.error {
        Some(error) => {
            assert_eq!(report.status, Status::Error);
            assert!(error.contains("engine"), "{error}");
        }
        None => {
            assert_eq!(
                report.checks.len(),
                planned,
                "a run without error checks all"
            );
            assert_ne!(report.status, Status::Error);
        }
    }
    for c in &report.checks {
        if c.result == CheckResult::Agree {
            assert_eq!(c.engine, Some(c.expected), "{c:?}");
        }
    }
    assert!(!report.to_text().is_empty());
    let json: serde_json::Value =
        serde_json::from_str(&report.to_json()).expect("the report is JSON");
    assert!(json.get("status").is_some());
    Some(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_files_split_at_nul_and_pick_slots() {
        let files = spec_files(b"\x01a: 1\0\x0bb\0\0");
        assert_eq!(files.len(), 2);
        assert_eq!(files[&1], b"a: 1");
        assert_eq!(files[&2], b"b");
        assert!(spec_files(b"").is_empty());
    }

    #[test]
    fn malformed_spec_files_are_diagnosed_at_their_place() {
        let shipped = fuzz_spec(b"");
        let unclosed = fuzz_spec(b"\x04ruleset: cxa-1999\nextends: [unclosed\n");
        let new: Vec<_> = unclosed.iter().filter(|d| !shipped.contains(d)).collect();
        assert!(
            new.iter()
                .any(|d| d.file.ends_with("cxa-1999.yaml") && d.line >= 2),
            "{new:?}"
        );
        let bad_fen = fuzz_spec(b"\x07id: cxa-1999/fig03\nrules: cxa-1999\nfen: not a fen\n");
        assert!(
            bad_fen.iter().any(|d| d.file.ends_with("fig03.yaml")),
            "{bad_fen:?}"
        );
        for data in [
            &b"\x00{{{{"[..],
            b"\x03\xff\xfe",
            b"\x05",
            b"\x06- - - -\n\0\x01pieces: 3",
        ] {
            assert!(!fuzz_spec(data).is_empty());
        }
        // Every file restored: the diagnostics of the shipped files again.
        assert_eq!(fuzz_spec(b""), shipped);
    }

    #[test]
    fn engine_replies_of_all_kinds_end_in_a_report() {
        let answers: [&[u8]; 6] = [
            b"",
            b"\x00uciok\nreadyok\n",
            b"\x00id name X\nuciok\nreadyok\nh2e2: nonsense\nNodes searched: 5\n",
            b"\x01ucciok\nreadyok\n\xff\xfe\r\n\n",
            b"\x02uciok\nreadyok\na10a9: 1\na10a9: 1\nNodes searched: 2\n",
            b"\x00uciok\nreadyok\nNodes searched: 44\nNodes searched: 1\n",
        ];
        for data in answers {
            fuzz_engine_replies(data);
        }
    }
}
