//! `xqrules spec check`: validates a spec directory.
//!
//! What is checked, in order:
//! 1. `board.yaml`, `pieces.yaml`, `material.yaml`: the spec compiler's schema and semantic
//!    validation and its table compiler (as in the build), then the oracle's own reading.
//! 2. `rules/*.yaml`: YAML syntax; `ruleset` names its file; articles are quoted strings; ids
//!    are unique within a file; every reference resolves: ids (`applies`, `details`,
//!    `replaces`, `after`, `remove`, `renumber`, `axf`, `cxa`, `undo_reclass_of`),
//!    interpretations (within the rule set and the sets it extends), move classes (`match`,
//!    `order`, `same_as`, groups, `reduce_for_patterns`), rule sets (`extends`), example ids
//!    (`examples`) and files (`ref`, `examples_dir`).
//!    The values of the machine fields have their schema, each error at the value's
//!    `file:line:column` ([`check_rule_values`]): a parameter's `value` is a number (whole where the compiler counts), a
//!    pattern's `status` is forbidden or allowed and its `ruling_key` one the ruling tables use,
//!    a ruling-table row's `result`, `immediate` and `must_change` are of their kinds (also in
//!    the `entry` of an overlay's `replace` and `add`); then the rule set compiler of the build
//!    must accept each rule set. The examples of a rule set with such an error are not judged
//!    (the error is at the rule file, not at each example).
//! 3. `examples/*/*.yaml`: the fields of `spec/examples/README.md` and their types; `id` is
//!    `<dir>/<file name>`; `rules`, `rule_ids`, pattern names and classes resolve; the FEN is
//!    valid and `side_to_move` agrees; `moves`, `moves_full` and `moves_appended` replay
//!    legally with the oracle on the directory's own pieces; the printed classes name the
//!    right ply, move and side, and `gives_check` is true exactly for checking moves.
//! 4. `examples/axf/items.yaml`: item rule ids and `covered_by` example ids resolve.
//! 5. A repetition judge ([`ExampleJudge`]; the CLI uses the oracle's,
//!    [`super::oracle_judge::OracleJudge`]): each example's ruling, must-change side,
//!    immediacy and per-move classes must come out as printed under its own rule set, except
//!    in examples marked `known_disagreement`, where the judge must still disagree (otherwise
//!    the marker is stale and reported). [`NoJudge`] checks nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_yaml::Value;
use xiangqi_oracle::{Board, OMove, Side};

use super::diag::{normalize, Diagnostic};
use super::model::{Example, ItemIndex, SideId, Terms};
use super::source::{SourceFile, SourceLines};
use crate::progress::{NoProgress, Progress};

/// Why a check could not run at all (as opposed to problems found in the spec).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The directory does not exist or is not a directory.
    #[error("{0}: not a spec directory (expected board.yaml, pieces.yaml, rules/, examples/)")]
    NotADirectory(PathBuf),
    /// A directory could not be listed.
    #[error("{path}: cannot list: {source}")]
    List {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// One worked example, loaded.
#[derive(Clone, Debug)]
pub struct LoadedExample {
    /// Its file.
    pub file: SourceFile,
    /// Its content.
    pub example: Example,
}

/// One rule set file (`rules/<ruleset>.yaml`), as YAML.
#[derive(Clone, Debug)]
pub struct RulesFile {
    /// Its file.
    pub file: SourceFile,
    /// Its content.
    pub value: Value,
}

/// A loaded spec directory: what the diagrams, the index and the checks need.
#[derive(Debug)]
pub struct SpecDir {
    /// The directory as given.
    pub dir: PathBuf,
    /// The oracle's reading of the board and pieces (None when it failed).
    pub oracle: Option<xiangqi_oracle::Spec>,
    /// Traditional Chinese names per piece id: `[red, black]` (from `pieces.yaml`).
    pub names: BTreeMap<String, [String; 2]>,
    /// `rules/terms.yaml`, when it reads.
    pub terms: Option<Terms>,
    /// The rule set files by file stem (`cxa-1999`, ...), `terms` excluded.
    pub rulesets: BTreeMap<String, RulesFile>,
    /// Every worked example that reads, in file order.
    pub examples: Vec<LoadedExample>,
    /// `examples/axf/items.yaml`, when present.
    pub items: Option<(SourceFile, ItemIndex)>,
    /// Every rules file read, for reference checks (`terms.yaml` included).
    rule_files: Vec<RulesFile>,
    /// Ids (from the file names) of example files that did not read: already reported, so
    /// references to them are not reported again.
    unreadable_examples: Vec<String>,
}

/// The outcome of a check.
#[derive(Debug, Default)]
pub struct Report {
    /// Problems, sorted by file, line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// YAML files read.
    pub files: usize,
    /// Examples that were read.
    pub examples: usize,
    /// Examples whose moves all replayed legally.
    pub replayed: usize,
    /// Examples checked by a judge (0 without one).
    pub judged: usize,
}

/// A repetition judge's answer for one example (see [`ExampleJudge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeView {
    /// The class of each ply of `moves` (machine names of `rules/terms.yaml`), `None` where
    /// the judge gives none.
    pub classes: Vec<Option<String>>,
    /// The ruling after `moves_full` (`red_loses`, `black_loses`, `draw`) or `None`.
    pub ruling: Option<String>,
    /// The side that must change (`red`, `black`) or `None`.
    pub must_change: Option<String>,
    /// Outright result (true) or must-change ruling (false); `None` where the judge gives none.
    pub immediate: Option<bool>,
}

/// Extension point for the repetition judge: `spec check` compares its answers with each
/// example's printed ruling and classes, and `spec index` shows them beside the printed ones.
pub trait ExampleJudge: Sync {
    /// A short name for messages (`oracle judge`).
    fn name(&self) -> &str;
    /// Rules on `example` (whose moves replay legally) with the rule set it names. `None`:
    /// this judge does not handle the example (e.g. not its rule set).
    fn judge(&self, spec: &SpecDir, example: &Example) -> Option<Result<JudgeView, String>>;
}

/// No judge: no ruling is checked and the judge column stays empty.
pub struct NoJudge;

impl ExampleJudge for NoJudge {
    fn name(&self) -> &str {
        "no judge"
    }
    fn judge(&self, _: &SpecDir, _: &Example) -> Option<Result<JudgeView, String>> {
        None
    }
}

const RULE_ID_KEYS: &[&str] = &[
    "applies",
    "details",
    "replaces",
    "after",
    "axf",
    "cxa",
    "undo_reclass_of",
    "rule_id",
];
const CLASS_LIST_KEYS: &[&str] = &["all_in", "each_of", "any_in", "order", "classes"];
const ARTICLE_KEYS: &[&str] = &["article", "article_1999", "article_2011"];

/// Loads and checks `dir`.
pub fn check(dir: &Path, judge: &dyn ExampleJudge) -> Result<(SpecDir, Report), CheckError> {
    check_with(dir, judge, &mut NoProgress)
}

/// [`check`], reporting the examples checked (replayed and judged) to `progress`: one stage of
/// one step per example read, the example's id as the message.
pub fn check_with(
    dir: &Path,
    judge: &dyn ExampleJudge,
    progress: &mut dyn Progress,
) -> Result<(SpecDir, Report), CheckError> {
    if !dir.is_dir() {
        return Err(CheckError::NotADirectory(dir.to_path_buf()));
    }
    let mut report = Report::default();
    let mut d = Vec::new();
    let mut spec = SpecDir {
        dir: dir.to_path_buf(),
        oracle: None,
        names: BTreeMap::new(),
        terms: None,
        rulesets: BTreeMap::new(),
        examples: Vec::new(),
        items: None,
        rule_files: Vec::new(),
        unreadable_examples: Vec::new(),
    };
    check_pieces(&mut spec, &mut d);
    report.files += 3;
    load_rules(&mut spec, &mut report, &mut d)?;
    load_examples(&mut spec, &mut report, &mut d)?;
    check_rules(&spec, &mut d);
    let broken = check_rule_values(&spec, &mut d);
    progress.start(spec.examples.len() as u64);
    // Replayed in order, then the examples that replay judged on every core (the answers in
    // the examples' order, so that the report does not depend on the number of cores).
    let mut to_judge = Vec::new();
    for ex in &spec.examples {
        if check_example(&spec, ex, &mut d) {
            report.replayed += 1;
            if !broken.contains(&ex.example.rules) {
                to_judge.push(ex);
                continue;
            }
        }
        progress.inc();
    }
    let answers = super::parallel::map_in_order(
        &to_judge,
        |ex| judge.judge(&spec, &ex.example),
        |ex| {
            progress.message(ex.example.id.clone());
            progress.inc();
        },
    );
    for (ex, answer) in to_judge.into_iter().zip(answers) {
        if let Some(answer) = answer {
            report.judged += 1;
            compare_judge(judge.name(), ex, answer, &mut d);
        }
    }
    progress.finish();
    check_items(&spec, &mut d);
    clamp_locations(&mut d);
    normalize(&mut d);
    report.diagnostics = d;
    Ok((spec, report))
}

/// Moves a location past the end of its file (serde_yaml places an error at the end of the
/// input on the line after the last one when the file does not end with a newline) onto the end
/// of the last line, so that every diagnostic names a place an editor can show.
fn clamp_locations(d: &mut [Diagnostic]) {
    // Per file: its number of lines and the length in characters of its last line.
    let mut ends: BTreeMap<String, Option<(usize, usize)>> = BTreeMap::new();
    for diag in d.iter_mut() {
        let end = ends.entry(diag.file.clone()).or_insert_with(|| {
            let bytes = std::fs::read(&diag.file).ok()?;
            let text = String::from_utf8_lossy(&bytes);
            let lines = text.split('\n').count();
            let last = text.rsplit('\n').next().unwrap_or("");
            Some((lines, last.chars().count()))
        });
        let Some((lines, last)) = *end else { continue };
        if diag.line > lines {
            diag.line = lines;
            diag.column = last + 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// board.yaml, pieces.yaml, material.yaml
// ---------------------------------------------------------------------------------------------

fn check_pieces(spec: &mut SpecDir, d: &mut Vec<Diagnostic>) {
    let dir = spec.dir.clone();
    let mut bad_files = BTreeSet::new();
    match xiangqi_spec::load_dir(&dir) {
        Ok(compiled) => {
            for p in &compiled.pieces.pieces {
                let name = |side: &str| {
                    p.names
                        .get(side)
                        .and_then(|n| n.get("traditional"))
                        .cloned()
                        .unwrap_or_else(|| p.letter.clone())
                };
                spec.names
                    .insert(p.id.clone(), [name("red"), name("black")]);
            }
            if let Err(e) = xiangqi_spec::compile::compile(&compiled) {
                let diag = compiler_diag(&e);
                bad_files.insert(diag.file.clone());
                d.push(diag);
            }
        }
        Err(e) => {
            let diag = compiler_diag(&e);
            bad_files.insert(diag.file.clone());
            d.push(diag);
        }
    }
    match xiangqi_oracle::Spec::load_dir(&dir) {
        Ok(s) => spec.oracle = Some(s),
        Err(e) => {
            let shown = dir.join(e.file()).display().to_string();
            if !bad_files.contains(&shown) {
                let text = std::fs::read_to_string(dir.join(e.file())).ok();
                d.push(oracle_diag(shown, text.as_deref(), &e));
            }
        }
    }
}

fn compiler_diag(e: &xiangqi_spec::SpecError) -> Diagnostic {
    use xiangqi_spec::SpecError as E;
    match e {
        E::Io { file, source } => Diagnostic::new(file, 1, 1, format!("cannot read: {source}")),
        E::Yaml { loc, reason } => Diagnostic::new(&loc.file, loc.line, loc.column, reason),
        E::Invalid { loc, problem, .. } => {
            Diagnostic::new(&loc.file, loc.line, loc.column, problem.to_string())
        }
    }
}

/// The oracle's error as a diagnostic; an entry it names (`piece horse, move 2`) is located in
/// `text`, the file's text, where it can be found ([`oracle_entry_path`]).
fn oracle_diag(shown: String, text: Option<&str>, e: &xiangqi_oracle::SpecError) -> Diagnostic {
    use xiangqi_oracle::SpecError as E;
    match e {
        E::Io { source, .. } => Diagnostic::new(shown, 1, 1, format!("cannot read: {source}")),
        E::Yaml {
            line,
            column,
            reason,
            ..
        } => {
            let mut reason = reason.clone();
            if let Some(i) = reason.find(" at line ") {
                reason.truncate(i);
            }
            Diagnostic::new(shown, line.unwrap_or(1), column.unwrap_or(1), reason)
        }
        E::Invalid { entry, reason, .. } => {
            let (line, column) = text
                .and_then(|text| Some((text, oracle_entry_path(text, entry)?)))
                .map_or((1, 1), |(text, path)| xiangqi_spec::locate(text, &path));
            Diagnostic::new(shown, line, column, format!("{entry}: {reason} (oracle)"))
        }
    }
}

/// The YAML path of an entry the oracle names in its errors, found in the file's `text`:
/// `piece horse, move 2` is `pieces[k].moves[1]` where item `k` of a top-level list has the id
/// (or side, or name) `horse`; `side red` and `constraint c` likewise; `values[2] (pawn)` is
/// `values[2]`; a top-level key is itself. `None` when the text does not read or has no such
/// entry.
fn oracle_entry_path(text: &str, entry: &str) -> Option<String> {
    let value: Value = serde_yaml::from_str(text).ok()?;
    if let Some((head, _)) = entry.split_once(" (") {
        if head.ends_with(']') {
            return Some(head.to_string());
        }
    }
    let (item, move_number) = match entry.split_once(", move ") {
        Some((item, n)) => (item, Some(n.parse::<usize>().ok()?.checked_sub(1)?)),
        None => (entry, None),
    };
    let Some((_, name)) = item.split_once(' ') else {
        return value.get(entry).map(|_| entry.to_string());
    };
    let named = |it: &Value| {
        ["id", "side", "name"]
            .iter()
            .any(|f| it.get(f).and_then(Value::as_str) == Some(name))
    };
    value.as_mapping()?.iter().find_map(|(key, list)| {
        let i = list.as_sequence()?.iter().position(named)?;
        let mut path = format!("{}[{i}]", key.as_str()?);
        if let Some(n) = move_number {
            path.push_str(&format!(".moves[{n}]"));
        }
        Some(path)
    })
}

// ---------------------------------------------------------------------------------------------
// Loading rules/ and examples/
// ---------------------------------------------------------------------------------------------

fn list(dir: &Path, want_dirs: bool) -> Result<Vec<String>, CheckError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(dir).map_err(|source| CheckError::List {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir() == want_dirs)
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| want_dirs || n.ends_with(".yaml"))
        .collect();
    names.sort_by(|a, b| natural_cmp(a, b));
    Ok(names)
}

/// Orders names with embedded numbers by value (`fig2` < `fig10`).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, text)) if *d == digit => text.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for (x, y) in ca.iter().zip(&cb) {
        let ord = match (x.0, y.0) {
            (true, true) => {
                let (nx, ny) = (x.1.trim_start_matches('0'), y.1.trim_start_matches('0'));
                nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny))
            }
            _ => x.1.cmp(&y.1),
        };
        if ord != std::cmp::Ordering::Equal {
            return ord;
        }
    }
    ca.len().cmp(&cb.len()).then_with(|| a.cmp(b))
}

fn load_rules(
    spec: &mut SpecDir,
    report: &mut Report,
    d: &mut Vec<Diagnostic>,
) -> Result<(), CheckError> {
    let rules_dir = spec.dir.join("rules");
    if !rules_dir.is_dir() {
        d.push(Diagnostic::new(
            rules_dir.display().to_string(),
            1,
            1,
            "missing directory rules/ (the repetition rules)",
        ));
        return Ok(());
    }
    for name in list(&rules_dir, false)? {
        report.files += 1;
        let file = match SourceFile::read(&spec.dir, &format!("rules/{name}")) {
            Ok(f) => f,
            Err(diag) => {
                d.push(diag);
                continue;
            }
        };
        let value: Value = match file.parse() {
            Ok(v) => v,
            Err(diag) => {
                d.push(diag);
                continue;
            }
        };
        let stem = name.trim_end_matches(".yaml").to_string();
        if stem == "terms" {
            match file.parse::<Terms>() {
                Ok(t) => spec.terms = Some(t),
                Err(diag) => d.push(diag),
            }
        } else {
            match value.get("ruleset") {
                Some(Value::String(s)) if *s == stem => {}
                Some(Value::String(s)) => d.push(file.at_value(
                    "ruleset",
                    s,
                    format!("ruleset {s:?} does not match the file name {stem:?}"),
                )),
                _ => d.push(file.at("ruleset", "missing `ruleset: <name>` (the file name)")),
            }
            if value.get("extends").is_none() {
                d.push(file.at(
                    "ruleset",
                    "missing `extends:` (null, or the rule set this file amends)",
                ));
            }
            spec.rulesets.insert(
                stem,
                RulesFile {
                    file: file.clone(),
                    value: value.clone(),
                },
            );
        }
        spec.rule_files.push(RulesFile { file, value });
    }
    if spec.terms.is_none() && !d.iter().any(|x| x.file.ends_with("terms.yaml")) {
        d.push(Diagnostic::new(
            rules_dir.join("terms.yaml").display().to_string(),
            1,
            1,
            "missing rules/terms.yaml (the move classes)",
        ));
    }
    Ok(())
}

fn load_examples(
    spec: &mut SpecDir,
    report: &mut Report,
    d: &mut Vec<Diagnostic>,
) -> Result<(), CheckError> {
    let ex_dir = spec.dir.join("examples");
    for sub in list(&ex_dir, true)? {
        for name in list(&ex_dir.join(&sub), false)? {
            report.files += 1;
            let rel = format!("examples/{sub}/{name}");
            let id = format!("{sub}/{}", name.trim_end_matches(".yaml"));
            let file = match SourceFile::read(&spec.dir, &rel) {
                Ok(f) => f,
                Err(diag) => {
                    d.push(diag);
                    spec.unreadable_examples.push(id);
                    continue;
                }
            };
            if name == "items.yaml" {
                match file.parse::<ItemIndex>() {
                    Ok(items) => spec.items = Some((file, items)),
                    Err(diag) => d.push(diag),
                }
                continue;
            }
            match file.parse::<Example>() {
                Ok(example) => {
                    report.examples += 1;
                    spec.examples.push(LoadedExample { file, example });
                }
                Err(diag) => {
                    d.push(diag);
                    spec.unreadable_examples.push(id);
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Values of the machine fields of rules/
// ---------------------------------------------------------------------------------------------

/// Checks the values of the machine fields of every rule set file against their schema (see
/// the module header), then compiles each rule set as the build does. Returns the rule sets
/// with an error (their own file's, or a base's), whose examples are not judged.
pub fn check_rule_values(spec: &SpecDir, d: &mut Vec<Diagnostic>) -> BTreeSet<String> {
    // The keys the ruling tables use (a pattern's ruling_key must be one of them).
    let mut keys = BTreeSet::new();
    for rf in spec.rulesets.values() {
        for (_, entry) in sections(&rf.value, "ruling_table") {
            for row in entry
                .get("rows")
                .and_then(Value::as_sequence)
                .into_iter()
                .flatten()
            {
                for side in ["red", "black"] {
                    if let Some(k) = row.get(side).and_then(Value::as_str) {
                        keys.insert(k.to_string());
                    }
                }
            }
        }
    }
    let mut broken = BTreeSet::new();
    for (id, rf) in &spec.rulesets {
        let before = d.len();
        let f = rf.file.lines();
        for (path, entry) in sections(&rf.value, "parameters") {
            let name = entry.get("name").and_then(Value::as_str).unwrap_or("?");
            match entry.get("value") {
                Some(Value::Number(n)) if n.as_f64().is_some_and(|x| x >= 0.0) => {}
                Some(v) => d.push(f.at_value(
                    &format!("{path}.value"),
                    &scalar(v),
                    format!("parameter {name}: value {} is not a number", scalar(v)),
                )),
                None => d.push(f.at(&path, format!("parameter {name}: no `value`"))),
            }
        }
        for (path, entry) in sections(&rf.value, "patterns") {
            let name = entry.get("name").and_then(Value::as_str).unwrap_or("?");
            match entry.get("status").and_then(Value::as_str) {
                Some("forbidden" | "allowed") => {}
                other => d.push(f.at_value(
                    &format!("{path}.status"),
                    other.unwrap_or(""),
                    format!(
                        "pattern {name}: status {:?} is not forbidden or allowed",
                        other.unwrap_or("")
                    ),
                )),
            }
            match entry.get("ruling_key").and_then(Value::as_str) {
                Some(k) if keys.contains(k) => {}
                other => d.push(f.at_value(
                    &format!("{path}.ruling_key"),
                    other.unwrap_or(""),
                    format!(
                        "pattern {name}: unknown ruling_key {:?} (the ruling tables use {})",
                        other.unwrap_or(""),
                        keys.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
        for (path, entry) in sections(&rf.value, "ruling_table") {
            let rows = entry.get("rows").and_then(Value::as_sequence);
            for (i, row) in rows.into_iter().flatten().enumerate() {
                let at = format!("{path}.rows[{i}]");
                let field = |k: &str| row.get(k).map(scalar).unwrap_or_default();
                let result = field("result");
                if !matches!(result.as_str(), "red_loses" | "black_loses" | "draw") {
                    d.push(f.at_value(
                        &at,
                        &result,
                        format!(
                            "ruling table: result {result:?} is not red_loses, black_loses or draw"
                        ),
                    ));
                }
                if !matches!(row.get("immediate"), Some(Value::Bool(_))) {
                    d.push(f.at_value(
                        &at,
                        &field("immediate"),
                        format!(
                            "ruling table: immediate {:?} is not true or false",
                            field("immediate")
                        ),
                    ));
                }
                match row.get("must_change") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s == "red" || s == "black" => {}
                    Some(v) => d.push(f.at_value(
                        &at,
                        &scalar(v),
                        format!(
                            "ruling table: must_change {:?} is not red, black or null",
                            scalar(v)
                        ),
                    )),
                }
            }
        }
        if d.len() > before {
            broken.insert(id.clone());
        }
    }
    extend_broken(spec, &mut broken);
    // The rule set compiler of the build must accept the others too. It is given the files
    // read above with their YAML (exactly what it would read and parse itself); any other file
    // it asks for (a base that did not parse, `extends: ../x`) it reads and parses as in the
    // build.
    let rules_dir = spec.dir.join("rules");
    let load = |file: &str| {
        let rel = format!("rules/{file}");
        match spec.rule_files.iter().find(|rf| rf.file.rel == rel) {
            Some(rf) => Ok((
                xiangqi_spec::load::Source {
                    name: rules_dir.join(file).display().to_string(),
                    text: rf.file.text.clone(),
                },
                rf.value.clone(),
            )),
            None => xiangqi_spec::ruleset_compile::read_parsed(&rules_dir, file),
        }
    };
    for (id, rf) in &spec.rulesets {
        if broken.contains(id) {
            continue;
        }
        let f = &rf.file;
        if let Err(e) = xiangqi_spec::ruleset_compile::compile_parsed_rule_set(id, &load) {
            broken.insert(id.clone());
            let (file, line, column) = match e.loc() {
                Some(loc) => (loc.file.clone(), loc.line, loc.column),
                None => (f.shown.clone(), 1, 1),
            };
            let reason = match &e {
                xiangqi_spec::SpecError::Yaml { reason, .. } => reason.clone(),
                xiangqi_spec::SpecError::Invalid { problem, .. } => problem.to_string(),
                other => other.to_string(),
            };
            d.push(Diagnostic::new(file, line, column, reason));
        }
    }
    extend_broken(spec, &mut broken);
    broken
}

/// Adds to `broken` every rule set that extends a broken one.
fn extend_broken(spec: &SpecDir, broken: &mut BTreeSet<String>) {
    loop {
        let more: Vec<String> = spec
            .rulesets
            .iter()
            .filter(|(id, rf)| {
                !broken.contains(*id)
                    && rf
                        .value
                        .get("extends")
                        .and_then(Value::as_str)
                        .is_some_and(|base| broken.contains(base))
            })
            .map(|(id, _)| id.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        broken.extend(more);
    }
}

/// The entries of `section` in a rule file: `(path, entry)` for each item of a top-level list
/// `section` (or the mapping itself, for `ruling_table`), and for each `entry` of the
/// overlay's `replace` and `add` lists whose `section` is `section`.
fn sections<'a>(doc: &'a Value, section: &str) -> Vec<(String, &'a Value)> {
    let mut out = Vec::new();
    match doc.get(section) {
        Some(Value::Sequence(items)) => {
            for (i, item) in items.iter().enumerate() {
                out.push((format!("{section}[{i}]"), item));
            }
        }
        Some(m @ Value::Mapping(_)) => out.push((section.to_string(), m)),
        _ => {}
    }
    for overlay in ["replace", "add"] {
        let items = doc.get(overlay).and_then(Value::as_sequence);
        for (i, item) in items.into_iter().flatten().enumerate() {
            if item.get("section").and_then(Value::as_str) == Some(section) {
                if let Some(entry) = item.get("entry") {
                    out.push((format!("{overlay}[{i}].entry"), entry));
                }
            }
        }
    }
    out
}

/// A scalar as written (strings without quotes).
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_string(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// References in rules/
// ---------------------------------------------------------------------------------------------

/// Names that rules and examples refer to.
struct Names {
    /// Every entry id of every rules file.
    ids: BTreeSet<String>,
    /// Interpretation ids per rule set (own list only); `terms` sees all.
    interpretations: BTreeMap<String, BTreeSet<String>>,
    /// Class names of terms.yaml.
    classes: BTreeSet<String>,
    /// Example ids.
    examples: BTreeSet<String>,
}

impl SpecDir {
    fn names(&self) -> Names {
        let mut ids = BTreeSet::new();
        let mut interpretations: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for rf in &self.rule_files {
            collect_ids(&rf.value, false, &mut ids);
            let stem = rf
                .file
                .rel
                .trim_start_matches("rules/")
                .trim_end_matches(".yaml");
            let set = interpretations.entry(stem.to_string()).or_default();
            if let Some(Value::Sequence(list)) = rf.value.get("interpretations") {
                for it in list {
                    if let Some(Value::String(id)) = it.get("id") {
                        set.insert(id.clone());
                    }
                }
            }
        }
        let classes = self
            .terms
            .as_ref()
            .map(|t| t.classes.iter().map(|c| c.name.clone()).collect())
            .unwrap_or_default();
        let examples = self
            .examples
            .iter()
            .map(|e| e.example.id.clone())
            .chain(self.unreadable_examples.iter().cloned())
            .collect();
        Names {
            ids,
            interpretations,
            classes,
            examples,
        }
    }

    /// The rule set and the sets it extends, nearest first (stops at a cycle or a missing set).
    pub fn chain(&self, ruleset: &str) -> Vec<&RulesFile> {
        let mut out: Vec<&RulesFile> = Vec::new();
        let mut next = Some(ruleset.to_string());
        while let Some(name) = next {
            let Some(rf) = self.rulesets.get(&name) else {
                break;
            };
            if out.iter().any(|o| std::ptr::eq(*o, rf)) {
                break;
            }
            out.push(rf);
            next = rf
                .value
                .get("extends")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
        out
    }

    /// Pattern names a rule set knows (its own `patterns`, overlay entries in the section
    /// `patterns`, and those of the sets it extends).
    pub fn pattern_names(&self, ruleset: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for rf in self.chain(ruleset) {
            if let Some(Value::Sequence(list)) = rf.value.get("patterns") {
                for p in list {
                    if let Some(Value::String(n)) = p.get("name") {
                        out.insert(n.clone());
                    }
                }
            }
            for key in ["replace", "add"] {
                if let Some(Value::Sequence(list)) = rf.value.get(key) {
                    for op in list {
                        if op.get("section").and_then(Value::as_str) == Some("patterns") {
                            if let Some(Value::String(n)) =
                                op.get("entry").and_then(|e| e.get("name"))
                            {
                                out.insert(n.clone());
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Collects the `id` of every mapping, except in `remove:` lists.
fn collect_ids(v: &Value, in_remove: bool, out: &mut BTreeSet<String>) {
    match v {
        Value::Mapping(m) => {
            if !in_remove {
                if let Some(Value::String(id)) = v.get("id") {
                    out.insert(id.clone());
                }
            }
            for (k, x) in m {
                collect_ids(x, in_remove || k.as_str() == Some("remove"), out);
            }
        }
        Value::Sequence(list) => list.iter().for_each(|x| collect_ids(x, in_remove, out)),
        _ => {}
    }
}

fn check_rules(spec: &SpecDir, d: &mut Vec<Diagnostic>) {
    let names = spec.names();
    for rf in &spec.rule_files {
        let stem = rf
            .file
            .rel
            .trim_start_matches("rules/")
            .trim_end_matches(".yaml");
        let interps: BTreeSet<String> = if stem == "terms" {
            names.interpretations.values().flatten().cloned().collect()
        } else {
            spec.chain(stem)
                .iter()
                .filter_map(|r| {
                    let s = r
                        .file
                        .rel
                        .trim_start_matches("rules/")
                        .trim_end_matches(".yaml");
                    names.interpretations.get(s)
                })
                .flatten()
                .cloned()
                .collect()
        };
        let mut sections = BTreeSet::new();
        let chain = spec.chain(stem);
        let files: Vec<&Value> = if chain.is_empty() {
            vec![&rf.value]
        } else {
            chain.iter().map(|r| &r.value).collect()
        };
        for v in files {
            if let Value::Mapping(m) = v {
                sections.extend(m.keys().filter_map(Value::as_str).map(str::to_string));
            }
            for key in ["replace", "add"] {
                for op in v
                    .get(key)
                    .and_then(Value::as_sequence)
                    .into_iter()
                    .flatten()
                {
                    if let Some(sec) = op.get("section").and_then(Value::as_str) {
                        sections.insert(sec.to_string());
                    }
                }
            }
        }
        let ctx = RuleCtx {
            spec,
            names: &names,
            file: rf.file.lines(),
            interps,
            sections,
        };
        let mut seen = BTreeMap::new();
        ctx.walk(&rf.value, "", false, &mut seen, d);
        if let Some(Value::Mapping(m)) = rf.value.get("renumber") {
            for k in m.keys().filter_map(Value::as_str) {
                if !names.ids.contains(k) {
                    d.push(
                        ctx.file
                            .at_key("renumber", k, format!("unknown rule id {k:?}")),
                    );
                }
            }
        }
    }
}

struct RuleCtx<'a> {
    spec: &'a SpecDir,
    names: &'a Names,
    file: SourceLines<'a>,
    interps: BTreeSet<String>,
    /// Top-level sections of the rule set, the sets it extends and the sections overlays add.
    sections: BTreeSet<String>,
}

impl RuleCtx<'_> {
    fn walk(
        &self,
        v: &Value,
        path: &str,
        in_remove: bool,
        seen: &mut BTreeMap<String, String>,
        d: &mut Vec<Diagnostic>,
    ) {
        match v {
            Value::Mapping(m) => {
                if let Some(Value::String(id)) = v.get("id") {
                    if !in_remove && v.get("ref").is_none() {
                        let section =
                            |p: &str| p.split(['.', '[']).next().unwrap_or("").to_string();
                        // A machine section (`chase`, `patterns`, ...) may name the entry it
                        // implements by that entry's id (AXF); within one section ids are unique.
                        let first = seen.get(id).filter(|first| section(first) == section(path));
                        if let Some(first) = first {
                            let (line, _) = self.file.locate(first);
                            d.push(self.file.at_value(
                                &join(path, "id"),
                                id,
                                format!("duplicate id {id:?} (first defined at line {line})"),
                            ));
                        } else if !seen.contains_key(id) {
                            seen.insert(id.clone(), join(path, "id"));
                        }
                    } else if in_remove && !self.names.ids.contains(id) {
                        d.push(self.file.at_value(
                            &join(path, "id"),
                            id,
                            format!("unknown rule id {id:?}"),
                        ));
                    }
                }
                for (k, x) in m {
                    let Some(k) = k.as_str() else { continue };
                    let p = join(path, k);
                    self.check_key(k, x, &p, d);
                    self.walk(x, &p, in_remove || k == "remove", seen, d);
                }
            }
            Value::Sequence(list) => {
                for (i, x) in list.iter().enumerate() {
                    self.walk(x, &format!("{path}[{i}]"), in_remove, seen, d);
                }
            }
            _ => {}
        }
    }

    fn check_key(&self, k: &str, x: &Value, p: &str, d: &mut Vec<Diagnostic>) {
        let f = &self.file;
        if ARTICLE_KEYS.contains(&k) && !matches!(x, Value::String(_) | Value::Null) {
            d.push(f.at(
                p,
                format!(
                    "{k} must be a quoted string (YAML reads an unquoted 28.10 as the number 28.1)"
                ),
            ));
        }
        let strings = |x: &Value| -> Vec<(String, String)> {
            match x {
                Value::String(s) => vec![(p.to_string(), s.clone())],
                Value::Sequence(l) => l
                    .iter()
                    .enumerate()
                    .filter_map(|(i, y)| y.as_str().map(|s| (format!("{p}[{i}]"), s.to_string())))
                    .collect(),
                _ => Vec::new(),
            }
        };
        if RULE_ID_KEYS.contains(&k) {
            for (at, id) in strings(x) {
                if !self.names.ids.contains(&id) {
                    d.push(f.at_value(&at, &id, format!("unknown rule id {id:?} in `{k}`")));
                }
            }
        }
        match k {
            "interpretation" => {
                for (at, id) in strings(x) {
                    if !self.interps.contains(&id) {
                        d.push(f.at_value(
                            &at,
                            &id,
                            format!("unknown interpretation {id:?} (not in `interpretations` of this rule set or the sets it extends)"),
                        ));
                    }
                }
            }
            "extends" => {
                if let Value::String(s) = x {
                    if !self.spec.rulesets.contains_key(s) {
                        d.push(f.at_value(
                            p,
                            s,
                            format!("unknown rule set {s:?} (no rules/{s}.yaml)"),
                        ));
                    }
                }
            }
            "same_as" => {
                if let Value::String(s) = x {
                    self.class_ref(p, s, d);
                }
            }
            "each_of_groups" => {
                if let Value::Sequence(groups) = x {
                    for (i, g) in groups.iter().enumerate() {
                        for (j, s) in g.as_sequence().into_iter().flatten().enumerate() {
                            if let Some(s) = s.as_str() {
                                self.class_ref(&format!("{p}[{i}][{j}]"), s, d);
                            }
                        }
                    }
                }
            }
            "map" if p.ends_with("reduce_for_patterns.map") => {
                if let Value::Mapping(m) = x {
                    for (a, b) in m {
                        for s in [a, b].into_iter().filter_map(Value::as_str) {
                            self.class_ref(p, s, d);
                        }
                    }
                }
            }
            "examples" => match x {
                Value::String(s) => self.file_ref(p, s, d),
                Value::Sequence(_) => {
                    for (at, id) in strings(x) {
                        if !self.names.examples.contains(&id) {
                            d.push(f.at_value(
                                &at,
                                &id,
                                format!("unknown example {id:?} (no examples/{id}.yaml)"),
                            ));
                        }
                    }
                }
                _ => {}
            },
            "target_piece" | "attacker_pieces" if !self.spec.names.is_empty() => {
                for (at, id) in strings(x) {
                    if !self.spec.names.contains_key(&id) {
                        d.push(f.at_value(
                            &at,
                            &id,
                            format!(
                                "unknown piece {id:?} in `{k}` (not a piece id of pieces.yaml)"
                            ),
                        ));
                    }
                }
            }
            "examples_dir" => {
                if let Value::String(s) = x {
                    self.file_ref(p, s, d);
                }
            }
            "ref" => {
                if let Value::String(s) = x {
                    if s.ends_with(".yaml") {
                        self.file_ref(p, s, d);
                    } else if !self.sections.contains(s) {
                        d.push(f.at_value(
                            p,
                            s,
                            format!("`ref: {s}` names no section of this rule set or the sets it extends"),
                        ));
                    }
                }
            }
            _ => {}
        }
        if CLASS_LIST_KEYS.contains(&k) && (k != "classes" || p.starts_with("groups")) {
            if let Value::Sequence(l) = x {
                for (i, s) in l.iter().enumerate() {
                    if let Some(s) = s.as_str() {
                        self.class_ref(&format!("{p}[{i}]"), s, d);
                    }
                }
            }
        }
    }

    /// A class name, or `<class>.<qualifier>` (2011 chase qualifiers).
    fn class_ref(&self, at: &str, s: &str, d: &mut Vec<Diagnostic>) {
        if self.names.classes.is_empty() {
            return;
        }
        let base = s.split('.').next().unwrap_or(s);
        if !self.names.classes.contains(base) {
            d.push(self.file.at_value(
                at,
                s,
                format!(
                    "unknown move class {s:?} (rules/terms.yaml has {})",
                    join_set(&self.names.classes)
                ),
            ));
        }
    }

    /// A path relative to the file (an optional `#fragment` is not checked).
    fn file_ref(&self, at: &str, s: &str, d: &mut Vec<Diagnostic>) {
        let rel = s.split('#').next().unwrap_or(s);
        let base = self.spec.dir.join(&self.file.file.rel);
        let target = base
            .parent()
            .map(|p| p.join(rel))
            .unwrap_or_else(|| PathBuf::from(rel));
        if !target.exists() {
            d.push(
                self.file
                    .at_value(at, s, format!("{s:?}: no such file or directory")),
            );
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn join_set(s: &BTreeSet<String>) -> String {
    s.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

// ---------------------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------------------

fn side_of(s: Side) -> SideId {
    match s {
        Side::Red => SideId::Red,
        Side::Black => SideId::Black,
    }
}

/// The example's start position. A FEN that fails validation is accepted only when the example
/// documents at least as many `fen_problems` as validations fail (a known transcription slip,
/// e.g. `axf/O103`); its moves are then replayed on the board as written.
pub fn start_board(oracle: &xiangqi_oracle::Spec, ex: &Example) -> Result<Board, String> {
    match Board::from_fen(oracle, &ex.fen) {
        Ok(b) => Ok(b),
        Err(e) => {
            let documented = ex.fen_problems.as_ref().map_or(0, Vec::len);
            match Board::from_fen_lenient(oracle, &ex.fen) {
                Ok((b, relaxed)) if documented > 0 && relaxed.len() <= documented => Ok(b),
                _ => Err(format!("bad FEN: {e}")),
            }
        }
    }
}

/// Plays one ICCS move on `board`, or says why it cannot be played.
fn play_one(board: &mut Board, text: &str) -> Result<(), String> {
    let m = OMove::parse_iccs(text).map_err(|e| e.to_string())?;
    board.play(m).map_err(|e| e.to_string())
}

/// Replays `moves` from `board`; the first illegal move is a diagnostic at `field[i]`.
fn replay(
    file: &SourceFile,
    field: &str,
    board: &mut Board,
    moves: &[String],
    first_ply: usize,
    d: &mut Vec<Diagnostic>,
) -> bool {
    for (i, text) in moves.iter().enumerate() {
        if let Err(why) = play_one(board, text) {
            d.push(illegal(file, field, i, first_ply + i, text, &why));
            return false;
        }
    }
    true
}

fn illegal(
    file: &SourceFile,
    field: &str,
    i: usize,
    ply: usize,
    text: &str,
    why: &str,
) -> Diagnostic {
    file.at_value(
        &format!("{field}[{i}]"),
        text,
        format!("{field}: ply {ply} {text:?} is illegal: {why}"),
    )
}

/// Checks one example; true when all its moves replay.
fn check_example(spec: &SpecDir, le: &LoadedExample, d: &mut Vec<Diagnostic>) -> bool {
    let f = &le.file;
    let ex = &le.example;
    let stem = f
        .rel
        .trim_start_matches("examples/")
        .trim_end_matches(".yaml");
    if ex.id != stem {
        d.push(f.at_value(
            "id",
            &ex.id,
            format!("id {:?} does not match the file: expected {stem:?}", ex.id),
        ));
    }
    if !spec.rulesets.contains_key(&ex.rules) {
        d.push(f.at_value(
            "rules",
            &ex.rules,
            format!(
                "unknown rule set {:?} (no rules/{}.yaml)",
                ex.rules, ex.rules
            ),
        ));
    }
    let names = spec.names();
    for (i, id) in ex.rule_ids.iter().enumerate() {
        if !names.ids.contains(id) {
            d.push(f.at_value(
                &format!("rule_ids[{i}]"),
                id,
                format!("unknown rule id {id:?}"),
            ));
        }
    }
    if spec.rulesets.contains_key(&ex.rules) {
        let patterns = spec.pattern_names(&ex.rules);
        for (field, value) in [
            ("red_pattern", &ex.expected.red_pattern),
            ("black_pattern", &ex.expected.black_pattern),
        ] {
            if let Some(p) = value {
                if !patterns.contains(p) {
                    d.push(f.at_value(
                        &format!("expected.{field}"),
                        p,
                        format!("unknown pattern {p:?} for rule set {}", ex.rules),
                    ));
                }
            }
        }
    }
    if let Some(cn) = &ex.moves_cn {
        if cn.len() != ex.moves.len() {
            d.push(f.at(
                "moves_cn",
                format!("{} Chinese moves for {} moves", cn.len(), ex.moves.len()),
            ));
        }
    }
    if let Some(app) = &ex.moves_appended {
        let joined: Vec<&String> = ex.moves.iter().chain(app).collect();
        if joined != ex.moves_full.iter().collect::<Vec<_>>() {
            d.push(f.at(
                "moves_full",
                "moves_full is not moves followed by moves_appended",
            ));
        }
    }
    let n = ex.moves.len().min(ex.moves_full.len());
    if ex.moves[..n] != ex.moves_full[..n] {
        d.push(f.at(
            "moves_full",
            "moves_full does not begin with the printed moves (or they with it)",
        ));
    }
    if let Some(classes) = &ex.classes {
        check_classes(spec, le, classes, d);
    }

    let Some(oracle) = &spec.oracle else {
        return false;
    };
    let start = match start_board(oracle, ex) {
        Ok(b) => b,
        Err(e) => {
            d.push(f.at_value("fen", &ex.fen, e));
            return false;
        }
    };
    if side_of(start.side_to_move()) != ex.side_to_move {
        d.push(f.at(
            "side_to_move",
            format!(
                "side_to_move is {} but the FEN gives {}",
                ex.side_to_move.id(),
                start.side_to_move()
            ),
        ));
    }
    let mut ok = true;
    let mut board = start.clone();
    // Replay `moves`, checking gives_check of the printed classes on the way.
    for (i, text) in ex.moves.iter().enumerate() {
        let mover = board.side_to_move();
        if let Err(why) = play_one(&mut board, text) {
            d.push(illegal(f, "moves", i, i + 1, text, &why));
            ok = false;
            break;
        }
        if let Some(pc) = ex.classes.as_ref().and_then(|c| c.get(i)) {
            let checks = board.in_check(mover.opponent());
            if pc.gives_check != checks {
                d.push(f.at(
                    &format!("classes[{i}].gives_check"),
                    format!(
                        "gives_check: {} but {} {}",
                        pc.gives_check,
                        text,
                        if checks {
                            "gives check"
                        } else {
                            "does not give check"
                        }
                    ),
                ));
            }
        }
    }
    if ok {
        if let Some(app) = &ex.moves_appended {
            ok &= replay(f, "moves_appended", &mut board, app, ex.moves.len() + 1, d);
        }
    }
    let mut full = start;
    ok &= replay(f, "moves_full", &mut full, &ex.moves_full, 1, d);
    ok
}

fn check_classes(
    spec: &SpecDir,
    le: &LoadedExample,
    classes: &[super::model::PrintedClass],
    d: &mut Vec<Diagnostic>,
) {
    let f = &le.file;
    let ex = &le.example;
    if classes.len() != ex.moves.len() {
        d.push(f.at(
            "classes",
            format!("{} classes for {} moves", classes.len(), ex.moves.len()),
        ));
    }
    for (i, c) in classes.iter().enumerate() {
        let p = |field: &str| format!("classes[{i}].{field}");
        if c.ply != i + 1 {
            d.push(f.at(
                &p("ply"),
                format!("ply {} out of order: expected {}", c.ply, i + 1),
            ));
        }
        if let Some(mv) = ex.moves.get(i) {
            if *mv != c.mv {
                d.push(f.at_value(
                    &p("move"),
                    &c.mv,
                    format!("move {:?} is not ply {} of moves ({mv:?})", c.mv, i + 1),
                ));
            }
        }
        let mover = ex.mover(i + 1);
        if c.side != mover {
            d.push(f.at(
                &p("side"),
                format!(
                    "ply {} is played by {}, not {}",
                    i + 1,
                    mover.id(),
                    c.side.id()
                ),
            ));
        }
        if let Some(cn) = ex.moves_cn.as_ref().and_then(|m| m.get(i)) {
            if *cn != c.cn {
                d.push(f.at_value(
                    &p("cn"),
                    &c.cn,
                    format!("{:?} is not ply {} of moves_cn ({cn:?})", c.cn, i + 1),
                ));
            }
        }
        if let Some(terms) = &spec.terms {
            match terms.classes.iter().find(|t| t.name == c.class) {
                None => {
                    let known: BTreeSet<String> =
                        terms.classes.iter().map(|t| t.name.clone()).collect();
                    d.push(f.at_value(
                        &p("class"),
                        &c.class,
                        format!(
                            "unknown move class {:?} (rules/terms.yaml has {})",
                            c.class,
                            join_set(&known)
                        ),
                    ));
                }
                Some(t) => {
                    if c.zh != t.zh_name && Some(&c.zh) != t.zh_simplified.as_ref() {
                        d.push(f.at_value(
                            &p("zh"),
                            &c.zh,
                            format!(
                                "{:?} is not the Chinese name of {} ({})",
                                c.zh, c.class, t.zh_name
                            ),
                        ));
                    }
                }
            }
        }
    }
}

fn compare_judge(
    name: &str,
    le: &LoadedExample,
    answer: Result<JudgeView, String>,
    d: &mut Vec<Diagnostic>,
) {
    let f = &le.file;
    let ex = &le.example;
    let view = match answer {
        Ok(v) => v,
        Err(why) => {
            d.push(f.at("moves_full", format!("{name} cannot rule: {why}")));
            return;
        }
    };
    let found = judge_differences(name, ex, &view);
    match &ex.known_disagreement {
        // A recorded disagreement must still be there, or the marker is stale.
        Some(reason) if found.is_empty() => d.push(f.at(
            "known_disagreement",
            format!(
                "{name} now agrees with the example (ruling and every class): remove known_disagreement ({reason:?})"
            ),
        )),
        Some(_) => {}
        None => {
            for (path, reason) in found {
                d.push(f.at(&path, reason));
            }
        }
    }
}

/// Where a judge's answer differs from the printed example: (YAML path, reason).
fn judge_differences(name: &str, ex: &Example, view: &JudgeView) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let printed = ex.expected.ruling.as_ref().map(|r| r.id().to_string());
    if view.ruling != printed {
        out.push((
            "expected.ruling".to_string(),
            format!(
                "{name} rules {}, the example expects {}",
                show(&view.ruling),
                show(&printed)
            ),
        ));
    }
    let printed_mc = ex.expected.must_change.map(|s| s.id().to_string());
    if view.must_change != printed_mc {
        out.push((
            "expected.must_change".to_string(),
            format!(
                "{name}: must_change {}, the example expects {}",
                show(&view.must_change),
                show(&printed_mc)
            ),
        ));
    }
    if let (Some(got), Some(want)) = (view.immediate, ex.expected.immediate) {
        if got != want {
            out.push((
                "expected.immediate".to_string(),
                format!("{name}: immediate {got}, the example expects {want}"),
            ));
        }
    }
    for (i, c) in ex.classes.iter().flatten().enumerate() {
        if let Some(Some(got)) = view.classes.get(i) {
            // An idle kind (兑 献 攔 跟) where the book prints 閒 agrees (spec/examples/README.md).
            let idle_kind = c.class == "idle"
                && matches!(got.as_str(), "exchange" | "offer" | "block" | "follow");
            if *got != c.class && !idle_kind {
                out.push((
                    format!("classes[{i}].class"),
                    format!(
                        "{name} classes ply {} {} as {got}, the example prints {}",
                        i + 1,
                        c.mv,
                        c.class
                    ),
                ));
            }
        }
    }
    out
}

fn show(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "null".to_string())
}

fn check_items(spec: &SpecDir, d: &mut Vec<Diagnostic>) {
    let Some((f, index)) = &spec.items else {
        return;
    };
    let names = spec.names();
    for (i, item) in index.items.iter().enumerate() {
        if !names.ids.contains(&item.rule_id) {
            d.push(f.at_value(
                &format!("items[{i}].rule_id"),
                &item.rule_id,
                format!("unknown rule id {:?}", item.rule_id),
            ));
        }
        for (j, ex) in item.covered_by.iter().enumerate() {
            if !names.examples.contains(ex) {
                d.push(f.at_value(
                    &format!("items[{i}].covered_by[{j}]"),
                    ex,
                    format!("unknown example {ex:?} (no examples/{ex}.yaml)"),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_entries_are_located_in_their_file() {
        let text = "title: t\npieces:\n- id: king\n  moves:\n  - kind: step\n- id: horse\n  moves:\n  - kind: leap\n  - kind: step\nvalues:\n- 1\n- 2\n";
        let at =
            |entry: &str| oracle_entry_path(text, entry).map(|p| xiangqi_spec::locate(text, &p));
        assert_eq!(
            oracle_entry_path(text, "piece horse, move 2").as_deref(),
            Some("pieces[1].moves[1]")
        );
        assert_eq!(at("piece horse, move 2"), Some((9, 3)));
        assert_eq!(at("piece horse").map(|(l, _)| l), Some(6));
        assert_eq!(at("values[1] (pawn)").map(|(l, _)| l), Some(12));
        assert_eq!(at("title").map(|(l, _)| l), Some(1));
        assert_eq!(oracle_entry_path(text, "piece cannon"), None);
        assert_eq!(oracle_entry_path(text, "piece horse, move 0"), None);
        assert_eq!(oracle_entry_path("[unclosed", "title"), None);
        // In a diagnostic: at the entry, or at 1:1 when it cannot be found.
        let e = xiangqi_oracle::SpecError::Invalid {
            file: "pieces.yaml".to_string(),
            entry: "piece horse, move 2".to_string(),
            reason: "no".to_string(),
        };
        let d = oracle_diag("spec/pieces.yaml".to_string(), Some(text), &e);
        assert_eq!((d.line, d.column), (9, 3));
        let d = oracle_diag("spec/pieces.yaml".to_string(), None, &e);
        assert_eq!((d.line, d.column), (1, 1));
    }

    /// A judge that answers only for cxa-1999/fig02: the wrong ruling, and ply 2 as a chase.
    struct Contrary;

    impl ExampleJudge for Contrary {
        fn name(&self) -> &str {
            "test judge"
        }
        fn judge(&self, _: &SpecDir, ex: &Example) -> Option<Result<JudgeView, String>> {
            (ex.id == "cxa-1999/fig02").then(|| {
                Ok(JudgeView {
                    classes: vec![Some("check".into()), Some("chase".into()), None],
                    ruling: Some("draw".into()),
                    must_change: Some("red".into()),
                    immediate: None,
                })
            })
        }
    }

    #[test]
    fn a_judge_plugs_into_the_check() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
        let (_, report) = check(&dir, &Contrary).expect("spec loads");
        assert_eq!(report.judged, 1);
        let reasons: Vec<&str> = report
            .diagnostics
            .iter()
            .map(|d| d.reason.as_str())
            .collect();
        assert_eq!(
            reasons,
            [
                "test judge rules draw, the example expects red_loses",
                "test judge classes ply 2 f9e9 as chase, the example prints idle",
            ]
        );
        assert!(report
            .diagnostics
            .iter()
            .all(|d| d.file.ends_with("cxa-1999/fig02.yaml")));
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["fig10", "fig2", "fig29-var", "fig29", "O100", "O14", "D39"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            ["D39", "O14", "O100", "fig2", "fig10", "fig29", "fig29-var"]
        );
    }
}
