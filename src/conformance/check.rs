//! The engine check behind `xqrules engine-check`, for any program to run: a UCI or UCCI
//! engine as a child process, its `go perft` on the shared and generated positions compared
//! with ours (descending with divide to the exact position and move of a disagreement), then
//! its rule handling on every worked example with a ruling ([`check`]).
//!
//! ```no_run
//! use xiangqi_rules::conformance::check::{check, CheckOptions, NoProgress};
//! use xiangqi_rules::conformance::{protocol::Protocol, rules::RuleProfile};
//! use xiangqi_rules::{builtin_spec, RankConvention};
//! let options = CheckOptions {
//!     engine: "/usr/games/fairy-stockfish".to_string(),
//!     protocol: Protocol::Uci,
//!     ranks: RankConvention::FairyStockfish,
//!     setoptions: vec![("UCI_Variant".to_string(), "xiangqi".to_string())],
//!     depth: 3,
//!     positions: 10,
//!     seed: 1,
//!     timeout: 30.0,
//!     spec: builtin_spec::dir().unwrap(),
//!     rule_profile: RuleProfile::Auto,
//!     rule_sets: Vec::new(),
//!     rule_depth: 1,
//!     draw_margin: 20,
//! };
//! let report = check(&options, &mut NoProgress);
//! println!("{}", report.to_text());
//! std::process::exit(i32::from(report.exit_code()));
//! ```

use std::path::PathBuf;
use std::time::Duration;

use crate::{Position, RankConvention};

use super::client::{split_command_line, EngineError, EngineIo, EngineProcess};
use super::descent::{compare_node, descend, our_divide, NodeVerdict};
use super::positions::{generated_positions, shared_positions, TestPosition};
use super::protocol::{engine_perft, position_command, rank_hint, Protocol};
use super::report::{
    CheckRecord, CheckResult, EngineInfo, EngineOption, Report, Settings, Status, Summary,
};
use super::rules::{self, RuleChecks, RuleProfile, RuleResult, RuleRun};

/// What [`check`] checks and how.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The engine's command line, program first (quotes and backslashes as in a shell).
    pub engine: String,
    /// The protocol the engine speaks.
    pub protocol: Protocol,
    /// Rank numbering of the engine's moves.
    pub ranks: RankConvention,
    /// Engine options `(name, value)`, sent after the handshake.
    pub setoptions: Vec<(String, String)>,
    /// Maximum perft depth: every position is checked at depths 1..=depth.
    pub depth: u32,
    /// How many positions to generate by seeded random play from the start.
    pub positions: usize,
    /// Seed of the generated positions.
    pub seed: u64,
    /// Seconds to wait for the handshake, and during a perft for each next output line.
    pub timeout: f64,
    /// The spec directory whose worked examples with a ruling are the rule cases
    /// ([`crate::builtin_spec::dir`] for the built-in one).
    pub spec: PathBuf,
    /// Which rule cases to check.
    pub rule_profile: RuleProfile,
    /// Only the rule cases of these rule sets (empty: all).
    pub rule_sets: Vec<String>,
    /// Search depth for the rule cases (`go depth N searchmoves M`).
    pub rule_depth: u32,
    /// A `score cp X` with |X| at most this is a draw.
    pub draw_margin: i64,
}

pub use crate::progress::{NoProgress, Progress};

/// One planned top-level check.
struct Planned<'a> {
    position: &'a TestPosition,
    depth: u32,
}

fn ranks_name(ranks: RankConvention) -> &'static str {
    match ranks {
        RankConvention::Iccs => "0-9",
        RankConvention::FairyStockfish => "1-10",
    }
}

/// Builds the report: prepares the positions, runs the engine, compares.
pub fn check(args: &CheckOptions, progress: &mut dyn Progress) -> Report {
    let mut report = empty_report(args);
    if let Err(error) = run_checks(args, &mut report, progress) {
        report.error = Some(error);
    }
    report.finish();
    report
}

/// The dialogue of a check with an engine already running (or replayed, see
/// [`super::client::ReplayEngine`]): handshake and options, `go perft` on each of `positions`
/// at depths 1..=`args.depth` (descending on a disagreement), then the rule `cases`. Whatever
/// the engine answers, this returns a report (an engine that misbehaves stops the run with the
/// reason in [`Report::error`]); `args.engine` is only named in the report.
///
/// ```
/// use xiangqi_rules::conformance::check::{converse, CheckOptions, NoProgress};
/// use xiangqi_rules::conformance::client::ReplayEngine;
/// use xiangqi_rules::conformance::positions::generated_positions;
/// use xiangqi_rules::conformance::report::Status;
/// use xiangqi_rules::conformance::{protocol::Protocol, rules::RuleProfile};
/// use xiangqi_rules::{Position, RankConvention};
/// let options = CheckOptions {
///     engine: "replayed".to_string(),
///     protocol: Protocol::Uci,
///     ranks: RankConvention::Iccs,
///     setoptions: Vec::new(),
///     depth: 1,
///     positions: 1,
///     seed: 1,
///     timeout: 1.0,
///     spec: std::path::PathBuf::new(),
///     rule_profile: RuleProfile::Off,
///     rule_sets: Vec::new(),
///     rule_depth: 1,
///     draw_margin: 20,
/// };
/// let position = &generated_positions(1, 1)[0];
/// // A correct engine: the split of every legal move, then the total.
/// let pos = Position::from_fen(&position.fen).unwrap();
/// let mut replies = String::from("uciok\nreadyok\n");
/// for m in pos.legal_moves() {
///     replies.push_str(&format!("{}: 1\n", m.to_iccs(RankConvention::Iccs)));
/// }
/// replies.push_str(&format!("\nNodes searched: {}\n", pos.legal_moves().len()));
/// let mut engine = ReplayEngine::new(replies.as_bytes());
/// let report = converse(&options, &mut engine, std::slice::from_ref(position), &[], &mut NoProgress);
/// assert_eq!(report.status, Status::Agree, "{:?}", report.error);
/// // The same replies cut short: the run stops, and says why.
/// let mut engine = ReplayEngine::new(&replies.as_bytes()[..20]);
/// let report = converse(&options, &mut engine, std::slice::from_ref(position), &[], &mut NoProgress);
/// assert_eq!(report.status, Status::Error);
/// assert!(report.error.unwrap().contains("engine crashed"));
/// ```
pub fn converse(
    args: &CheckOptions,
    engine: &mut dyn EngineIo,
    positions: &[TestPosition],
    cases: &[rules::RuleCase],
    progress: &mut dyn Progress,
) -> Report {
    let mut report = empty_report(args);
    let plan = plan(args, positions);
    report.summary.planned = plan.len();
    if let Err(error) = drive(args, &mut report, engine, &plan, cases, progress) {
        report.error = Some(error);
    }
    report.finish();
    report
}

/// A report with nothing checked yet.
fn empty_report(args: &CheckOptions) -> Report {
    Report {
        status: Status::Error,
        error: None,
        engine: EngineInfo {
            command: args.engine.clone(),
            protocol: args.protocol,
            ranks: ranks_name(args.ranks).to_string(),
            name: None,
            author: None,
            options: args
                .setoptions
                .iter()
                .map(|(name, value)| EngineOption {
                    name: name.clone(),
                    value: value.clone(),
                })
                .collect(),
        },
        settings: Settings {
            depth: args.depth,
            generated_positions: args.positions,
            seed: format!("{:#x}", args.seed),
            timeout_secs: args.timeout,
        },
        summary: Summary::default(),
        checks: Vec::new(),
        rule_checks: RuleChecks {
            checked: false,
            profile: args.rule_profile,
            reason: "not reached".to_string(),
            cases: Vec::new(),
        },
        warnings: Vec::new(),
    }
}

/// Every position at depths 1..=`args.depth`.
fn plan<'a>(args: &CheckOptions, positions: &'a [TestPosition]) -> Vec<Planned<'a>> {
    positions
        .iter()
        .flat_map(|position| (1..=args.depth).map(move |depth| Planned { position, depth }))
        .collect()
}

/// The run proper; an `Err` is why it stopped (the report keeps what was checked).
fn run_checks(
    args: &CheckOptions,
    report: &mut Report,
    progress: &mut dyn Progress,
) -> Result<(), String> {
    let mut all = shared_positions().map_err(|e| e.to_string())?;
    all.extend(generated_positions(args.seed, args.positions));
    let plan = plan(args, &all);
    report.summary.planned = plan.len();
    let cases = if args.rule_profile == RuleProfile::Off {
        Vec::new()
    } else {
        let mut cases = rules::load_cases(&args.spec).map_err(|e| {
            format!(
                "rule cases from {}: {e}",
                crate::builtin_spec::describe(&args.spec)
            )
        })?;
        if !args.rule_sets.is_empty() {
            cases.retain(|c| args.rule_sets.contains(&c.example.rules));
        }
        cases
    };

    let argv = split_command_line(&args.engine).map_err(|e| e.to_string())?;
    let timeout = Duration::from_secs_f64(args.timeout);
    let mut engine = EngineProcess::spawn(&argv, timeout).map_err(|e| e.to_string())?;
    let outcome = drive(args, report, &mut engine, &plan, &cases, progress);
    engine.shutdown("quit");
    outcome
}

/// Handshake, options, then every planned check.
fn drive(
    args: &CheckOptions,
    report: &mut Report,
    engine: &mut dyn EngineIo,
    plan: &[Planned],
    cases: &[rules::RuleCase],
    progress: &mut dyn Progress,
) -> Result<(), String> {
    handshake(args, report, engine).map_err(|e| e.to_string())?;

    progress.start(plan.len() as u64);
    for planned in plan {
        let position = planned.position;
        progress.message(format!("{} perft {}", position.id, planned.depth));
        let first = report.checks.is_empty();
        let result = check_one(args, engine, planned, first, &mut *progress);
        progress.inc();
        report.checks.push(result.record);
        report.warnings.extend(result.warnings);
        if let Some(error) = result.stop {
            progress.finish();
            return Err(format!(
                "while checking {} perft {} (FEN {}): {error}",
                position.id, planned.depth, position.fen
            ));
        }
    }
    progress.finish();
    run_rule_checks(args, report, engine, cases, progress)
}

/// The rule-handling checks: each case with a ruling, or its skip with the reason.
fn run_rule_checks(
    args: &CheckOptions,
    report: &mut Report,
    engine: &mut dyn EngineIo,
    cases: &[rules::RuleCase],
    progress: &mut dyn Progress,
) -> Result<(), String> {
    let name = report.engine.name.clone();
    let profile = rules::resolve_profile(args.rule_profile, name.as_deref());
    let rc = &mut report.rule_checks;
    rc.profile = profile;
    if profile == RuleProfile::Off {
        rc.reason = "--rule-profile off".to_string();
        return Ok(());
    }
    if cases.is_empty() {
        rc.reason = format!(
            "no worked example with a ruling in {}",
            crate::builtin_spec::describe(&args.spec)
        );
        return Ok(());
    }
    rc.reason = match profile {
        RuleProfile::PerpetualCheck => format!(
            "{} has perpetual check but no chase rules: cases that need chase or kill rules are skipped",
            name.as_deref().unwrap_or("this engine")
        ),
        _ => "every case with a ruling".to_string(),
    };
    let run = RuleRun {
        protocol: args.protocol,
        ranks: args.ranks,
        depth: args.rule_depth,
        draw_margin: args.draw_margin,
    };
    progress.start(cases.len() as u64);
    for case in cases {
        progress.message(format!("rule case {}", case.example.id));
        let mut record = rules::new_record(case);
        let skip = match profile {
            RuleProfile::PerpetualCheck => rules::perpetual_check_skip(&case.example),
            _ => None,
        };
        if let Some(reason) = skip {
            record.result = RuleResult::Skipped;
            record.reason = Some(reason);
            report.rule_checks.cases.push(record);
            progress.inc();
            continue;
        }
        report.rule_checks.checked = true;
        let outcome = rules::run_case(engine, &run, case, &mut record);
        report.rule_checks.cases.push(record);
        progress.inc();
        if let Err(e) = outcome {
            progress.finish();
            return Err(format!("while checking rule case {}: {e}", case.example.id));
        }
    }
    progress.finish();
    Ok(())
}

/// Sends the handshake and the options, and waits until the engine is ready.
fn handshake(
    args: &CheckOptions,
    report: &mut Report,
    engine: &mut dyn EngineIo,
) -> Result<(), EngineError> {
    let hello_ok = args.protocol.hello_ok();
    engine.send(args.protocol.hello())?;
    let info = &mut report.engine;
    engine.wait_for(hello_ok, &mut |line| {
        if let Some(name) = line.strip_prefix("id name ") {
            info.name = Some(name.trim().to_string());
        } else if let Some(author) = line.strip_prefix("id author ") {
            info.author = Some(author.trim().to_string());
        }
    })?;
    for (name, value) in &args.setoptions {
        engine.send(&args.protocol.setoption(name, value))?;
    }
    engine.send("isready")?;
    let warnings = &mut report.warnings;
    engine.wait_for("readyok", &mut |line| {
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("no such option") || lower.contains("unknown option") {
            warnings.push(format!("after setoption the engine said: {line}"));
        }
    })
}

/// Added when the very first `go perft` gets no answer.
const NO_PERFT_HINT: &str = "\n(no answer to the first `go perft`: if the engine does not implement `go perft`, it cannot be checked live; the exported suite's legal_moves.jsonl and perft.epd can still be used)";

/// What one check leaves.
struct CheckOutcome {
    /// The check's record, complete or partial.
    record: CheckRecord,
    /// Warnings for the report.
    warnings: Vec<String>,
    /// Why the run must stop here, if it must.
    stop: Option<String>,
}

/// Runs one top-level check, descending on a disagreement.
fn check_one(
    args: &CheckOptions,
    engine: &mut dyn EngineIo,
    planned: &Planned,
    first: bool,
    progress: &mut dyn Progress,
) -> CheckOutcome {
    let position = planned.position;
    let depth = planned.depth;
    let mut warnings = Vec::new();
    let mut record = CheckRecord {
        position: position.id.clone(),
        fen: position.fen.clone(),
        depth,
        expected: 0,
        published: position.published_at(depth),
        engine: None,
        result: CheckResult::Error,
        finding: None,
    };
    let mut pos = match Position::from_fen(&position.fen) {
        Ok(p) => p,
        Err(e) => {
            let message = format!("internal error: our library rejects its own FEN: {e}");
            return done(record, warnings, Some(message));
        }
    };
    let ours = our_divide(&mut pos, depth);
    let our_total: u64 = ours.values().sum();
    record.expected = our_total;
    if let Some(published) = record.published {
        if published != our_total {
            // Our reference is wrong here: comparing the engine with it would mislead.
            let message = format!(
                "internal error: our perft gives {our_total} but spec/perft.yaml publishes {published}: a bug in xiangqi-rules, please report it"
            );
            return done(record, warnings, Some(message));
        }
    }
    let command = position_command(&position.fen, &[], args.ranks);
    let answer = match engine_perft(engine, &command, depth, args.ranks) {
        Ok(a) => a,
        Err(e) => {
            let mut message = e.to_string();
            if first && matches!(e, EngineError::Timeout { .. }) {
                message.push_str(NO_PERFT_HINT);
            }
            return done(record, warnings, Some(message));
        }
    };
    record.engine = Some(answer.total);
    if !answer.unrecognised.is_empty() {
        warnings.push(format!(
            "{} perft {depth}: ignored unrecognised output: {}",
            position.id,
            answer
                .unrecognised
                .iter()
                .map(|l| format!("{l:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if compare_node(&ours, our_total, &answer, depth, args.ranks) == NodeVerdict::Agree {
        record.result = CheckResult::Agree;
        return done(record, warnings, None);
    }
    if let Some(hint) = rank_hint(&answer.unreadable_moves, args.ranks) {
        // A configuration error, not a move-generation bug: every check would fail the same way.
        return done(
            record,
            warnings,
            Some(format!(
                "the engine's moves are not in the rank numbering given ({}): it printed {}; {hint}",
                ranks_name(args.ranks),
                answer.unreadable_moves.iter().take(5).cloned().collect::<Vec<_>>().join(" ")
            )),
        );
    }
    let id = position.id.clone();
    match descend(engine, args.ranks, &position.fen, depth, answer, |path| {
        progress.message(format!("{id} perft {depth}: descending {}", path.join(" ")));
    }) {
        Ok(finding) => {
            record.result = CheckResult::Disagree;
            record.finding = Some(finding);
            done(record, warnings, None)
        }
        Err(e) => {
            record.result = CheckResult::Error;
            done(record, warnings, Some(e.to_string()))
        }
    }
}

fn done(record: CheckRecord, warnings: Vec<String>, stop: Option<String>) -> CheckOutcome {
    CheckOutcome {
        record,
        warnings,
        stop,
    }
}
