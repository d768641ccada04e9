//! Spec tooling for rules committees: `xqrules spec check`, `xqrules spec index` and
//! `xqrules diagram`.
//!
//! - [`check`]: validates a spec directory (schema, references between ids, legal replay of
//!   every worked example) and reports each problem as `file:line:column: reason`.
//! - [`diagram`]: one SVG per worked example (board, pieces with their Chinese names, the
//!   printed moves as numbered arrows), deterministic so that the committed `diagrams/` can be
//!   compared byte for byte.
//! - [`index`]: a static HTML page of all examples (inline SVG, moves in Chinese and ICCS,
//!   printed classes, a column for a judge's classes, ruling, articles).
//!
//! The repetition judge plugs in through [`check::ExampleJudge`]: the CLI uses the oracle's
//! ([`oracle_judge::OracleJudge`]), reading the rule sets of the directory checked.

pub mod check;
pub mod diag;
pub mod diagram;
pub mod diff;
pub mod index;
pub mod model;
pub mod oracle_judge;
pub mod source;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use check::{CheckError, SpecDir};
use oracle_judge::OracleJudge;

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

/// The judge used by the tooling: the oracle's, with the rule sets of the directory checked.
fn judge() -> OracleJudge {
    OracleJudge::default()
}

/// Runs `xqrules spec ...`; returns the process exit code.
pub fn run_spec(args: SpecArgs) -> ExitCode {
    match args.command {
        SpecCommand::Check { dir } => match crate::spec_dir(dir.as_deref()) {
            Ok(dir) => run_check(&dir),
            Err(e) => report(Err(e)),
        },
        SpecCommand::Index { out, spec } => {
            report(crate::spec_dir(spec.as_deref()).and_then(|spec| write_index(&spec, &out)))
        }
        SpecCommand::Diff(args) => ExitCode::from(diff::run(&args)),
    }
}

/// Runs `xqrules diagram`; returns the process exit code.
pub fn run_diagram(args: DiagramArgs) -> ExitCode {
    report(crate::spec_dir(args.spec.as_deref()).and_then(|spec| write_diagrams(&spec, &args.out)))
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
    match check::check(dir, &judge()) {
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
                crate::shown(dir),
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

/// Loads `dir` for drawing; any problem found by the check is an error (a diagram of a broken
/// spec would be misleading).
fn load_clean(dir: &Path) -> Result<SpecDir, String> {
    let (spec, r) = check::check(dir, &judge()).map_err(|e: CheckError| e.to_string())?;
    if let Some(first) = r.diagnostics.first() {
        return Err(format!(
            "{} problem(s) in {}; the first: {first} (run `xqrules spec check {}`)",
            r.diagnostics.len(),
            dir.display(),
            dir.display()
        ));
    }
    Ok(spec)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `out/<id>.svg` for every example and `out/index.html`.
pub fn write_diagrams(spec_dir: &Path, out: &Path) -> Result<String, String> {
    let spec = load_clean(spec_dir)?;
    let mut n = 0;
    for le in &spec.examples {
        let svg = diagram::standalone(&spec, &le.example)
            .map_err(|e| format!("{}: {e}", le.file.shown))?;
        write_file(&out.join(format!("{}.svg", le.example.id)), &svg)?;
        n += 1;
    }
    let html = index::render(&spec, &judge())?;
    write_file(&out.join("index.html"), &html)?;
    Ok(format!("{}: {n} diagrams and index.html", out.display()))
}

/// Writes the HTML index to `out`.
pub fn write_index(spec_dir: &Path, out: &Path) -> Result<String, String> {
    let spec = load_clean(spec_dir)?;
    let html = index::render(&spec, &judge())?;
    write_file(out, &html)?;
    Ok(format!(
        "{}: {} examples",
        out.display(),
        spec.examples.len()
    ))
}
