//! Spec tooling for rules committees, behind `xqrules spec check`, `spec diff`, `spec index`
//! and `diagram`, for any program to call (a GUI, a tournament tool, a binding).
//!
//! - [`check`]: validates a spec directory (schema, the values of the rule files, references
//!   between ids, legal replay of every worked example, each example's ruling under its rule
//!   set) and reports each problem as `file:line:column: reason`.
//! - [`diff`]: what an amendment changes: the changed entries of the rule files, then every
//!   example (and game) whose judgement changes.
//! - [`diagram`]: one SVG per worked example (board, pieces with their Chinese names, the
//!   printed moves as numbered arrows), deterministic so that the committed `diagrams/` can be
//!   compared byte for byte.
//! - [`index`]: a static HTML page of all examples (inline SVG, moves in Chinese and ICCS,
//!   printed classes, a column for a judge's classes, ruling, articles).
//!
//! Each long operation has a `_with` form that reports to a [`crate::progress::Progress`]
//! ([`check::check_with`], [`diff::diff_with`], [`index::render_with`],
//! [`write_diagrams_with`], [`write_index_with`]).
//!
//! The repetition judge plugs in through [`check::ExampleJudge`]: [`oracle_judge::OracleJudge`]
//! is the oracle's, reading the rule sets of the directory checked.
//!
//! ```
//! use xiangqi_rules::{builtin_spec, spec_tools};
//! let dir = builtin_spec::dir().unwrap();
//! let (spec, report) = spec_tools::check::check(&dir, &spec_tools::check::NoJudge).unwrap();
//! assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
//! assert!(spec.examples.len() > 100);
//! ```

pub mod check;
pub mod diag;
pub mod diagram;
pub mod diff;
pub mod index;
pub mod model;
pub mod oracle_judge;
mod parallel;
pub mod source;

use std::path::Path;

use check::{CheckError, SpecDir};
use oracle_judge::OracleJudge;

use crate::progress::{NoProgress, Progress};

/// Loads `dir` for drawing; any problem found by the check (with the oracle's judge) is an
/// error: a diagram of a broken spec would be misleading.
pub fn load_clean(dir: &Path) -> Result<SpecDir, String> {
    load_clean_with(dir, &mut NoProgress)
}

/// [`load_clean`], reporting the check's progress ([`check::check_with`]).
pub fn load_clean_with(dir: &Path, progress: &mut dyn Progress) -> Result<SpecDir, String> {
    load_clean_judged(dir, &OracleJudge::default(), progress)
}

/// [`load_clean_with`] with the oracle's judge `judge` (which remembers its verdicts for a page
/// drawn next).
fn load_clean_judged(
    dir: &Path,
    judge: &OracleJudge,
    progress: &mut dyn Progress,
) -> Result<SpecDir, String> {
    let (spec, r) =
        check::check_with(dir, judge, progress).map_err(|e: CheckError| e.to_string())?;
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

/// Writes `out/<id>.svg` for every example of the spec directory `spec_dir` and
/// `out/index.html`; returns a one-line summary.
pub fn write_diagrams(spec_dir: &Path, out: &Path) -> Result<String, String> {
    write_diagrams_with(spec_dir, out, &mut NoProgress)
}

/// [`write_diagrams`], reporting three stages of one step per example to `progress`: the
/// check, the diagrams, the index.
pub fn write_diagrams_with(
    spec_dir: &Path,
    out: &Path,
    progress: &mut dyn Progress,
) -> Result<String, String> {
    let judge = OracleJudge::default();
    let spec = load_clean_judged(spec_dir, &judge, progress)?;
    let mut n = 0;
    progress.start(spec.examples.len() as u64);
    for le in &spec.examples {
        progress.message(format!("diagram: {}", le.example.id));
        let svg = diagram::standalone(&spec, &le.example)
            .map_err(|e| format!("{}: {e}", le.file.shown))?;
        write_file(&out.join(format!("{}.svg", le.example.id)), &svg)?;
        n += 1;
        progress.inc();
    }
    progress.finish();
    let html = index::render_with(&spec, &judge, progress)?;
    write_file(&out.join("index.html"), &html)?;
    Ok(format!("{}: {n} diagrams and index.html", out.display()))
}

/// Writes the HTML index of the spec directory `spec_dir` to `out`; returns a one-line
/// summary.
pub fn write_index(spec_dir: &Path, out: &Path) -> Result<String, String> {
    write_index_with(spec_dir, out, &mut NoProgress)
}

/// [`write_index`], reporting two stages of one step per example to `progress`: the check and
/// the index.
pub fn write_index_with(
    spec_dir: &Path,
    out: &Path,
    progress: &mut dyn Progress,
) -> Result<String, String> {
    let judge = OracleJudge::default();
    let spec = load_clean_judged(spec_dir, &judge, progress)?;
    let html = index::render_with(&spec, &judge, progress)?;
    write_file(out, &html)?;
    Ok(format!(
        "{}: {} examples",
        out.display(),
        spec.examples.len()
    ))
}
