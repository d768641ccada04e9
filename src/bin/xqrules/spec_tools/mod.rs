//! `xqrules spec check|diff|index` and `xqrules diagram`: the arguments and the printing; the
//! work is `xiangqi_rules::spec_tools`.

pub mod diff;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use xiangqi_rules::spec_tools::oracle_judge::OracleJudge;
use xiangqi_rules::spec_tools::{check, write_diagrams_with, write_index_with};

use crate::progress::Bar;

/// Arguments of `xqrules spec`.
#[derive(Debug, Args)]
pub struct SpecArgs {
    #[command(subcommand)]
    command: SpecCommand,
}

#[derive(Debug, Subcommand)]
enum SpecCommand {
    /// Validate a spec directory; print each problem as `file:line:column: reason`.
    ///
    /// Exit code 0: no problem; 1: problems found (on stderr); 2: the check could not run.
    Check {
        /// The spec directory (an amended copy of spec/; default: the spec built into xqrules).
        dir: Option<PathBuf>,
    },
    /// Report what an amendment changes: every worked example (and optionally a game corpus)
    /// judged under OLD and NEW, every changed ruling and per-move class with its articles.
    ///
    /// `spec diff OLD NEW [--rules ID]`: two versions of the spec, each example under its own
    /// rule set. `spec diff DIR DIR --rules ID --against ID2`: two rule sets of one spec (e.g.
    /// cxa-1999 against its 2011 overlay). Exit code 0: nothing changed; 1: something changed;
    /// 2: error.
    Diff(diff::DiffArgs),
    /// Write a static HTML index of all worked examples (opens from disk, no network).
    Index {
        /// The HTML file to write.
        out: PathBuf,
        /// The spec directory (default: the spec built into xqrules).
        #[arg(long)]
        spec: Option<PathBuf>,
    },
}

/// Arguments of `xqrules diagram`.
#[derive(Debug, Args)]
pub struct DiagramArgs {
    /// The spec directory whose examples are drawn (default: the spec built into xqrules).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Output directory: `<dir>/<example id>.svg` and `<dir>/index.html`.
    #[arg(long, default_value = "diagrams")]
    out: PathBuf,
}

/// Runs `xqrules spec ...`; returns the process exit code.
pub fn run_spec(args: SpecArgs) -> ExitCode {
    match args.command {
        SpecCommand::Check { dir } => match crate::spec_dir(dir.as_deref()) {
            Ok(dir) => run_check(&dir),
            Err(e) => report(Err(e)),
        },
        SpecCommand::Index { out, spec } => report(
            crate::spec_dir(spec.as_deref())
                .and_then(|spec| write_index_with(&spec, &out, &mut Bar::new("examples"))),
        ),
        SpecCommand::Diff(args) => ExitCode::from(diff::run(&args)),
    }
}

/// Runs `xqrules diagram`; returns the process exit code.
pub fn run_diagram(args: DiagramArgs) -> ExitCode {
    report(
        crate::spec_dir(args.spec.as_deref())
            .and_then(|spec| write_diagrams_with(&spec, &args.out, &mut Bar::new("examples"))),
    )
}

fn report(r: Result<String, String>) -> ExitCode {
    match r {
        Ok(summary) => {
            outln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("xqrules: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_check(dir: &Path) -> ExitCode {
    let checked = check::check_with(dir, &OracleJudge::default(), &mut Bar::new("examples"));
    match checked {
        Err(e) => {
            eprintln!("xqrules: {e}");
            ExitCode::from(2)
        }
        Ok((_, r)) => {
            for d in &r.diagnostics {
                eprintln!("{d}");
            }
            let summary = format!(
                "{}: {} files, {} examples ({} replayed, {} judged): {} problem{}",
                xiangqi_rules::builtin_spec::describe(dir),
                r.files,
                r.examples,
                r.replayed,
                r.judged,
                r.diagnostics.len(),
                if r.diagnostics.len() == 1 { "" } else { "s" }
            );
            if r.diagnostics.is_empty() {
                outln!("{summary}");
                ExitCode::SUCCESS
            } else {
                eprintln!("{summary}");
                ExitCode::from(1)
            }
        }
    }
}
