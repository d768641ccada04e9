//! The engine-check report: what was checked, what disagreed and where, why a run stopped.
//! Printed as a text table or as JSON (`--format json`); the JSON field names are stable.

use std::fmt::Write as _;

use clap::ValueEnum;
use serde::Serialize;

use super::protocol::Protocol;
use super::rules::{RuleChecks, RuleResult};

/// Output format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table and a list of findings, for people.
    Text,
    /// One JSON object, for programs.
    Json,
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// `agree` (exit 0), `disagree` (exit 1) or `error` (exit 2: the check could not run).
    pub status: Status,
    /// Why the run stopped early, when it did.
    pub error: Option<String>,
    /// The engine and how it was driven.
    pub engine: EngineInfo,
    /// The run's parameters.
    pub settings: Settings,
    /// Counts of checks.
    pub summary: Summary,
    /// One entry per `go perft` at the top level, in the order run.
    pub checks: Vec<CheckRecord>,
    /// The rule-handling checks (repetition, perpetual check and chase).
    pub rule_checks: RuleChecks,
    /// Things worth knowing that are not disagreements.
    pub warnings: Vec<String>,
}

/// Overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Everything checked agrees.
    Agree,
    /// At least one disagreement.
    Disagree,
    /// The check could not run to the end.
    Error,
}

/// The engine under test.
#[derive(Debug, Serialize)]
pub struct EngineInfo {
    /// `--engine` as given.
    pub command: String,
    /// The protocol spoken.
    pub protocol: Protocol,
    /// The rank numbering of its moves: `0-9` or `1-10`.
    pub ranks: String,
    /// `id name`, when sent.
    pub name: Option<String>,
    /// `id author`, when sent.
    pub author: Option<String>,
    /// The options set, in order.
    pub options: Vec<EngineOption>,
}

/// One `--setoption`.
#[derive(Debug, Clone, Serialize)]
pub struct EngineOption {
    /// Option name.
    pub name: String,
    /// Option value.
    pub value: String,
}

/// Parameters of the run.
#[derive(Debug, Serialize)]
pub struct Settings {
    /// Maximum perft depth.
    pub depth: u32,
    /// Number of generated positions.
    pub generated_positions: usize,
    /// Seed of the generated positions, hexadecimal.
    pub seed: String,
    /// Per-command timeout in seconds.
    pub timeout_secs: f64,
}

/// How many checks ran and how they ended.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    /// Checks planned.
    pub planned: usize,
    /// Checks run to a verdict.
    pub run: usize,
    /// Of those, agreeing.
    pub agree: usize,
    /// Of those, disagreeing.
    pub disagree: usize,
}

/// The result of one top-level `go perft`.
#[derive(Debug, Serialize)]
pub struct CheckRecord {
    /// `shared-N` or `generated-N`.
    pub position: String,
    /// FEN of the position.
    pub fen: String,
    /// Depth in plies.
    pub depth: u32,
    /// Our count (`crate::Position::perft`).
    pub expected: u64,
    /// The count spec/perft.yaml publishes, when it lists this depth.
    pub published: Option<u64>,
    /// The engine's total, when it answered.
    pub engine: Option<u64>,
    /// The verdict.
    pub result: CheckResult,
    /// Where the disagreement is, when there is one.
    pub finding: Option<Finding>,
}

/// Verdict of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckResult {
    /// Same count and same moves.
    Agree,
    /// Different counts or moves.
    Disagree,
    /// The engine failed during this check (see the report's `error`).
    Error,
}

/// What kind of disagreement a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The engine's legal moves differ from ours at `fen`: `missing` and `extra` say how.
    MoveSet,
    /// Same moves, but a depth-1 count is not 1.
    LeafCount,
    /// The engine printed no `move: count` lines, so the descent stops here.
    NoDivide,
    /// The engine's `move: count` lines do not add up to its total.
    DivideSum,
    /// The engine counted a move differently inside the tree than from the position after it.
    Inconsistent,
    /// The engine printed perft lines we cannot read (bad move text, no count, duplicates).
    Unreadable,
}

/// The exact place of a disagreement.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// What kind.
    pub kind: FindingKind,
    /// Moves (ICCS) from the checked position to the position of the finding.
    pub path: Vec<String>,
    /// FEN of the position of the finding.
    pub fen: String,
    /// Remaining depth there.
    pub depth: u32,
    /// Legal moves (ICCS) the engine does not list.
    pub missing: Vec<String>,
    /// Moves (ICCS) the engine lists that are not legal.
    pub extra: Vec<String>,
    /// One sentence saying what is wrong.
    pub message: String,
}

impl Report {
    /// The process exit code: 0 agree, 1 disagreements, 2 could not run.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Agree => 0,
            Status::Disagree => 1,
            Status::Error => 2,
        }
    }

    /// Sets `status` from the checks and the error.
    pub fn finish(&mut self) {
        self.summary.run = self
            .checks
            .iter()
            .filter(|c| c.result != CheckResult::Error)
            .count();
        self.summary.agree = self
            .checks
            .iter()
            .filter(|c| c.result == CheckResult::Agree)
            .count();
        self.summary.disagree = self
            .checks
            .iter()
            .filter(|c| c.result == CheckResult::Disagree)
            .count();
        let (_, rule_disagree, _) = self.rule_checks.counts();
        self.status = if self.error.is_some() {
            Status::Error
        } else if self.summary.disagree > 0 || rule_disagree > 0 {
            Status::Disagree
        } else {
            Status::Agree
        };
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| format!("{{\"status\":\"error\",\"error\":\"report: {e}\"}}"))
    }

    /// The report as text: header, table, findings, rule checks, summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let name = self
            .engine
            .name
            .as_deref()
            .unwrap_or("(engine sent no id name)");
        let protocol = match self.engine.protocol {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        };
        let _ = writeln!(out, "engine:   {name}");
        let _ = writeln!(out, "command:  {}", self.engine.command);
        let _ = writeln!(
            out,
            "protocol: {protocol}, ranks {}, timeout {} s",
            self.engine.ranks, self.settings.timeout_secs
        );
        if !self.engine.options.is_empty() {
            let opts: Vec<String> = self
                .engine
                .options
                .iter()
                .map(|o| format!("{}={}", o.name, o.value))
                .collect();
            let _ = writeln!(out, "options:  {}", opts.join(", "));
        }
        let _ = writeln!(
            out,
            "positions: spec/perft.yaml and {} generated (seed {}), depths 1-{}",
            self.settings.generated_positions, self.settings.seed, self.settings.depth
        );
        out.push('\n');
        if !self.checks.is_empty() {
            let _ = writeln!(
                out,
                "{:<14} {:>5} {:>12} {:>12}  result",
                "position", "depth", "expected", "engine"
            );
            for c in &self.checks {
                let engine = c.engine.map_or("-".to_string(), |n| n.to_string());
                let result = match c.result {
                    CheckResult::Agree => "ok",
                    CheckResult::Disagree => "DIFFERS",
                    CheckResult::Error => "ERROR",
                };
                let _ = writeln!(
                    out,
                    "{:<14} {:>5} {:>12} {:>12}  {result}",
                    c.position, c.depth, c.expected, engine
                );
            }
            out.push('\n');
        }
        let findings: Vec<&CheckRecord> =
            self.checks.iter().filter(|c| c.finding.is_some()).collect();
        if !findings.is_empty() {
            let _ = writeln!(out, "Disagreements:");
            for c in findings {
                let Some(f) = &c.finding else { continue };
                let engine = c.engine.map_or("-".to_string(), |n| n.to_string());
                let _ = writeln!(
                    out,
                    "- {} perft {}: engine {engine}, expected {}",
                    c.position, c.depth, c.expected
                );
                let _ = writeln!(out, "    checked position: {}", c.fen);
                let path = if f.path.is_empty() {
                    "(none: the checked position itself)".to_string()
                } else {
                    f.path.join(" ")
                };
                let _ = writeln!(out, "    moves to the bad position: {path}");
                let _ = writeln!(out, "    bad position: {}", f.fen);
                if !f.missing.is_empty() {
                    let _ = writeln!(
                        out,
                        "    legal moves the engine misses: {}",
                        f.missing.join(" ")
                    );
                }
                if !f.extra.is_empty() {
                    let _ = writeln!(
                        out,
                        "    moves the engine adds (illegal): {}",
                        f.extra.join(" ")
                    );
                }
                let _ = writeln!(out, "    {}", f.message);
            }
            out.push('\n');
        }
        if !self.warnings.is_empty() {
            let _ = writeln!(out, "Warnings:");
            for w in &self.warnings {
                let _ = writeln!(out, "- {w}");
            }
            out.push('\n');
        }
        out.push_str(&self.rule_text());
        if let Some(error) = &self.error {
            let _ = writeln!(out, "Stopped: {error}");
        }
        let s = &self.summary;
        let verdict = match self.status {
            Status::Agree => "all agree",
            Status::Disagree => "DISAGREEMENTS FOUND",
            Status::Error => "COULD NOT RUN TO THE END",
        };
        let (ra, rd, rs) = self.rule_checks.counts();
        let _ = writeln!(
            out,
            "Summary: {} of {} planned checks run, {} agree, {} disagree; rule cases: {ra} agree, {rd} disagree, {rs} skipped: {verdict}.",
            s.run, s.planned, s.agree, s.disagree
        );
        out
    }

    /// The rule cases as a table: example, rule set, articles, printed ruling, the searched
    /// move, the engine's score, the verdict; then the reasons.
    fn rule_text(&self) -> String {
        let rc = &self.rule_checks;
        let mut out = String::new();
        let profile = serde_json::to_value(rc.profile)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        if rc.cases.is_empty() {
            let _ = writeln!(out, "Rule checks ({profile}): none run: {}", rc.reason);
            return out;
        }
        let _ = writeln!(out, "Rule checks ({profile}): {}", rc.reason);
        let _ = writeln!(
            out,
            "{:<22} {:<9} {:<14} {:<12} {:<6} {:<7} {:<10}  result",
            "example", "rules", "articles", "expected", "mover", "move", "score"
        );
        for c in &rc.cases {
            let result = match c.result {
                RuleResult::Agree => "ok",
                RuleResult::Disagree => "DIFFERS",
                RuleResult::Skipped => "skipped",
                RuleResult::Error => "ERROR",
            };
            let expected = match &c.must_change {
                Some(side) => format!("{} ({side} mc)", c.expected),
                None => c.expected.clone(),
            };
            let _ = writeln!(
                out,
                "{:<22} {:<9} {:<14} {:<12} {:<6} {:<7} {:<10}  {result}",
                c.example,
                c.rules,
                c.articles.join(","),
                expected,
                c.mover,
                c.mv,
                c.score.as_deref().unwrap_or("-")
            );
        }
        let notes: Vec<&super::rules::RuleRecord> = rc
            .cases
            .iter()
            .filter(|c| c.result != RuleResult::Agree && c.reason.is_some())
            .collect();
        if !notes.is_empty() {
            let _ = writeln!(out, "\nRule case notes:");
            for c in notes {
                let _ = writeln!(
                    out,
                    "- {} ({}): {}",
                    c.example,
                    match c.result {
                        RuleResult::Skipped => "skipped",
                        RuleResult::Disagree => "DIFFERS",
                        _ => "error",
                    },
                    c.reason.as_deref().unwrap_or("")
                );
            }
        }
        out.push('\n');
        out
    }
}
