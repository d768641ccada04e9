//! `xqrules spec diff OLD NEW`: the arguments and the printing of
//! `xiangqi_rules::spec_tools::diff`. Exit codes: 0 nothing changed, 1 something changed, 2
//! error.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use xiangqi_rules::spec_tools::diff::{diff_with, to_markdown, DiffOptions};

use crate::progress::Bar;

/// Arguments of `xqrules spec diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The spec directory before the amendment.
    pub old: PathBuf,
    /// The spec directory after the amendment (may be OLD itself with --against).
    pub new: PathBuf,
    /// Only the examples of this rule set (and the rule set the games are judged under;
    /// default for games: cxa-1999). With --against: the rule set of the OLD side.
    #[arg(long, value_name = "ID")]
    pub rules: Option<String>,
    /// Compare two rule sets instead of two versions of one: the NEW side judges with this
    /// rule set (requires --rules for the OLD side).
    #[arg(long, value_name = "ID", requires = "rules")]
    pub against: Option<String>,
    /// Game records judged under both (PGN files, XQF files, or directories of them).
    #[arg(long, value_name = "PATH")]
    pub games: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Md)]
    pub format: DiffFormat,
    /// Write the report to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl DiffArgs {
    /// What the library compares.
    fn options(&self) -> DiffOptions {
        DiffOptions {
            old: self.old.clone(),
            new: self.new.clone(),
            rules: self.rules.clone(),
            against: self.against.clone(),
            games: self.games.clone(),
        }
    }
}

/// Report format of `spec diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Markdown, for people (and committee minutes).
    Md,
    /// JSON, for programs.
    Json,
}

/// Runs `spec diff`: 0 nothing changed, 1 something changed, 2 error.
pub fn run(args: &DiffArgs) -> u8 {
    let options = args.options();
    // No bar with JSON: whoever reads it is a program.
    let mut bar = Bar::unless(args.format == DiffFormat::Json, "examples");
    let report = diff_with(&options, &mut bar);
    drop(bar);
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xqrules spec diff: {e}");
            return 2;
        }
    };
    let text = match args.format {
        DiffFormat::Md => to_markdown(&options, &report),
        DiffFormat::Json => match serde_json::to_string_pretty(&report) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("xqrules spec diff: {e}");
                return 2;
            }
        },
    };
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("xqrules spec diff: {}: {e}", path.display());
                return 2;
            }
            eprintln!(
                "{}: {} of {} examples change, {} rule-file entr{}",
                path.display(),
                report.changed,
                report.examples,
                report.spec_changes.len(),
                if report.spec_changes.len() == 1 {
                    "y"
                } else {
                    "ies"
                }
            );
        }
        None => out!("{text}"),
    }
    u8::from(report.any_change())
}
