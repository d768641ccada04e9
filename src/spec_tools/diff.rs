//! `xqrules spec diff OLD NEW`: the impact of an amendment.
//!
//! Both spec directories are loaded at run time (examples with the loader of `spec check`,
//! rule sets with `xiangqi_oracle::judge::RuleSet::load_dir`, board and pieces with
//! `xiangqi_oracle::Spec::load_dir`). Every worked example, and optionally every game of a
//! corpus (PGN or XQF, read with `xiangqi_rules::record`), is judged under both, and every
//! changed ruling, must-change side, immediacy and per-move class is reported with the
//! articles each side cites.
//!
//! Two forms:
//! - `spec diff OLD NEW [--rules ID]`: each example under its own rule set (`rules:`), as
//!   read from OLD and from NEW; `--rules` keeps only the examples of that rule set.
//! - `spec diff OLD NEW --rules ID --against ID2`: two rule sets, e.g. the 2011 overlay
//!   against the 1999 base of one spec (`spec diff spec spec --rules cxa-1999 --against
//!   cxa-2011`): the examples of both rule sets, judged under ID from OLD and under ID2 from
//!   NEW.
//!
//! Exit codes: 0 nothing changed, 1 something changed, 2 error.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use xiangqi_oracle::judge::{GameResult, Judgement, RuleSet, Ruling};
use xiangqi_oracle::Spec;

use super::check::{check, NoJudge, SpecDir};
use super::model::Example;
use super::oracle_judge::{judge_example, RuleSets, Verdict};
use crate::progress::{NoProgress, Progress};

/// What `spec diff` compares.
///
/// ```no_run
/// use std::path::PathBuf;
/// use xiangqi_rules::spec_tools::diff::{diff, to_markdown, DiffOptions};
/// let options = DiffOptions {
///     old: PathBuf::from("spec"),
///     new: PathBuf::from("amended"),
///     rules: Some("cxa-1999".to_string()),
///     against: None,
///     games: Vec::new(),
/// };
/// let report = diff(&options).unwrap();
/// println!("{}", to_markdown(&options, &report));
/// assert!(!report.any_change() || report.changed > 0 || !report.spec_changes.is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// The spec directory before the amendment.
    pub old: PathBuf,
    /// The spec directory after the amendment (may be `old` itself with `against`).
    pub new: PathBuf,
    /// Only the examples of this rule set (and the rule set the games are judged under;
    /// default for games: cxa-1999). With `against`: the rule set of the OLD side.
    pub rules: Option<String>,
    /// Compare two rule sets instead of two versions of one: the NEW side judges with this
    /// rule set (requires `rules` for the OLD side).
    pub against: Option<String>,
    /// Game records judged under both (PGN files, XQF files, or directories of them).
    pub games: Vec<PathBuf>,
}

/// One side of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// The spec directory as given.
    pub dir: String,
    /// The rule set, when one is fixed (`--rules` / `--against`); otherwise each example's.
    pub rules: Option<String>,
}

/// A value before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change<T> {
    /// Before (OLD).
    pub old: T,
    /// After (NEW).
    pub new: T,
}

/// A changed per-move class.
#[derive(Debug, Clone, Serialize)]
pub struct ClassChange {
    /// 1-based ply of the example's `moves`.
    pub ply: usize,
    /// The move (ICCS).
    #[serde(rename = "move")]
    pub mv: String,
    /// Who plays it.
    pub side: String,
    /// Class before and after.
    pub class: Change<String>,
    /// Articles cited before and after.
    pub articles: Change<Vec<String>>,
}

/// What changed for one example.
#[derive(Debug, Clone, Serialize)]
pub struct ExampleChange {
    /// Example id.
    pub id: String,
    /// Rule set judged with, before and after.
    pub rules: Change<String>,
    /// The printed ruling (for reference).
    pub printed: Option<String>,
    /// The result before and after (`red_wins`, `black_wins`, `draw`, `ongoing`), when changed.
    pub result: Option<Change<String>>,
    /// Whether the ruling is pending (the moves end short of the ruling point), when changed.
    pub pending: Option<Change<bool>>,
    /// The ruling before and after (`red_loses`, ..., `none`, or `error: ...`), when changed.
    pub ruling: Option<Change<String>>,
    /// The must-change side before and after, when changed.
    pub must_change: Option<Change<Option<String>>>,
    /// Immediacy before and after, when changed.
    pub immediate: Option<Change<bool>>,
    /// The patterns (red / black) before and after, when changed.
    pub patterns: Option<Change<String>>,
    /// Articles of the ruling, before and after.
    pub articles: Change<Vec<String>>,
    /// Whether the articles changed (compared between versions of one rule set only: two rule
    /// sets number their articles differently).
    pub articles_changed: bool,
    /// Changed classes (or their articles, between versions of one rule set).
    pub classes: Vec<ClassChange>,
}

/// What changed for one game.
#[derive(Debug, Clone, Serialize)]
pub struct GameChange {
    /// The file.
    pub file: String,
    /// 1-based game index in the file.
    pub game: usize,
    /// Result, ruling and the ply where judging stopped, before and after.
    pub outcome: Change<String>,
    /// Articles, before and after.
    pub articles: Change<Vec<String>>,
}

/// The games part of the report.
#[derive(Debug, Default, Serialize)]
pub struct GamesReport {
    /// Games judged under both.
    pub judged: usize,
    /// Games whose outcome changed.
    pub changes: Vec<GameChange>,
    /// Games that could not be judged: `file#game: reason`.
    pub errors: Vec<String>,
}

/// A change of a rule file itself (or of board, pieces, material): one entry, located by the
/// file and a path of keys and entry ids, e.g. `parameters[cxa1999.4.2.3].value`.
#[derive(Debug, Clone, Serialize)]
pub struct SpecChange {
    /// The file, relative to the spec directory (`rules/cxa-1999.yaml`).
    pub file: String,
    /// Where in the file: keys, and `[id]` for an entry of a list of entries with ids.
    pub path: String,
    /// `parameter`, `table` (the ruling table), `text` (a `zh`/`en`/`title`/`source`/`note`
    /// field, or only comments and layout), or `rule` (anything else).
    pub kind: String,
    /// The value before (`null` when added), as YAML on one line.
    pub old: Option<String>,
    /// The value after (`null` when removed).
    pub new: Option<String>,
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct DiffReport {
    /// OLD.
    pub old: Side,
    /// NEW.
    pub new: Side,
    /// Changes of the rule files themselves (between versions of one spec; empty with
    /// `--against`).
    pub spec_changes: Vec<SpecChange>,
    /// Examples judged under both.
    pub examples: usize,
    /// Examples with a change.
    pub changed: usize,
    /// Examples only in OLD.
    pub removed: Vec<String>,
    /// Examples only in NEW.
    pub added: Vec<String>,
    /// Examples not judged: `id: reason` (a rule set the oracle does not implement).
    pub not_judged: Vec<String>,
    /// The changes, in example order.
    pub changes: Vec<ExampleChange>,
    /// The game corpus, when given.
    pub games: Option<GamesReport>,
}

impl DiffReport {
    /// Whether anything changed.
    pub fn any_change(&self) -> bool {
        !self.changes.is_empty()
            || !self.spec_changes.is_empty()
            || !self.removed.is_empty()
            || !self.added.is_empty()
            || self.games.as_ref().is_some_and(|g| !g.changes.is_empty())
    }
}

/// Loads a spec directory for the diff; problems found by `spec check` are an error.
fn load(dir: &Path) -> Result<SpecDir, String> {
    let (spec, report) = check(dir, &NoJudge).map_err(|e| e.to_string())?;
    if let Some(first) = report.diagnostics.first() {
        return Err(format!(
            "{} problem(s) in {}; the first: {first} (run `xqrules spec check {}`)",
            report.diagnostics.len(),
            dir.display(),
            dir.display()
        ));
    }
    if spec.oracle.is_none() {
        return Err(format!(
            "{}: the board and pieces do not load",
            dir.display()
        ));
    }
    Ok(spec)
}

/// A verdict, or why there is none.
type Outcome = Result<Verdict, String>;

fn ruling_text(v: &Outcome) -> String {
    match v {
        Ok(v) => v.ruling.clone().unwrap_or_else(|| "none".to_string()),
        Err(e) => format!("error: {e}"),
    }
}

/// What changed between two verdicts on one example: every field of the judgement (result,
/// pending, ruling, must-change side, immediacy, patterns, per-move classes; and the articles,
/// of the ruling and of each class, when `same_rules`: two versions of one rule set).
fn compare(
    id: &str,
    printed: Option<String>,
    old: &Outcome,
    new: &Outcome,
    same_rules: bool,
) -> Option<ExampleChange> {
    let rules = |v: &Outcome| v.as_ref().map(|v| v.rules.clone()).unwrap_or_default();
    let articles = |v: &Outcome| v.as_ref().map(|v| v.articles.clone()).unwrap_or_default();
    let mut change = ExampleChange {
        id: id.to_string(),
        rules: Change {
            old: rules(old),
            new: rules(new),
        },
        printed,
        result: None,
        pending: None,
        articles_changed: false,
        ruling: None,
        must_change: None,
        immediate: None,
        patterns: None,
        articles: Change {
            old: articles(old),
            new: articles(new),
        },
        classes: Vec::new(),
    };
    let (o, n) = (ruling_text(old), ruling_text(new));
    if o != n {
        change.ruling = Some(Change { old: o, new: n });
    }
    if let (Ok(o), Ok(n)) = (old, new) {
        if o.result != n.result {
            change.result = Some(Change {
                old: o.result.clone(),
                new: n.result.clone(),
            });
        }
        if o.pending != n.pending {
            change.pending = Some(Change {
                old: o.pending,
                new: n.pending,
            });
        }
        change.articles_changed = same_rules && o.articles != n.articles;
        if o.must_change != n.must_change {
            change.must_change = Some(Change {
                old: o.must_change.clone(),
                new: n.must_change.clone(),
            });
        }
        if o.immediate != n.immediate {
            change.immediate = Some(Change {
                old: o.immediate,
                new: n.immediate,
            });
        }
        let pat = |v: &Verdict| {
            format!(
                "{} / {}",
                v.red_pattern.as_deref().unwrap_or("-"),
                v.black_pattern.as_deref().unwrap_or("-")
            )
        };
        if pat(o) != pat(n) {
            change.patterns = Some(Change {
                old: pat(o),
                new: pat(n),
            });
        }
        for (a, b) in o.classes.iter().zip(&n.classes) {
            if a.class != b.class || (same_rules && a.articles != b.articles) {
                change.classes.push(ClassChange {
                    ply: a.ply,
                    mv: a.mv.clone(),
                    side: a.side.clone(),
                    class: Change {
                        old: a.class.clone(),
                        new: b.class.clone(),
                    },
                    articles: Change {
                        old: a.articles.clone(),
                        new: b.articles.clone(),
                    },
                });
            }
        }
    }
    let changed = change.ruling.is_some()
        || change.result.is_some()
        || change.pending.is_some()
        || change.articles_changed
        || change.must_change.is_some()
        || change.immediate.is_some()
        || change.patterns.is_some()
        || !change.classes.is_empty();
    changed.then_some(change)
}

/// Judges `ex` of `spec` under rule set `id` of `spec`'s directory. `Ok(None)`: the oracle
/// does not implement `id`.
fn verdict(
    sets: &RuleSets,
    spec: &SpecDir,
    id: &str,
    ex: &Example,
) -> Result<Option<Outcome>, String> {
    let Some(rules) = sets.get(&spec.dir, id)? else {
        return Ok(None);
    };
    let oracle = spec.oracle.as_ref().ok_or("no board")?;
    Ok(Some(judge_example(&rules, oracle, ex)))
}

/// Builds the report.
pub fn diff(args: &DiffOptions) -> Result<DiffReport, String> {
    diff_with(args, &mut NoProgress)
}

/// [`diff`], reporting its progress: a stage of one step per example of NEW (judged under both
/// sides), then, with games, a stage of one step per game.
pub fn diff_with(args: &DiffOptions, progress: &mut dyn Progress) -> Result<DiffReport, String> {
    let old = load(&args.old)?;
    let new = load(&args.new)?;
    let sets = RuleSets::default();
    // The rule sets named on the command line must load.
    for (spec, id) in [(&old, &args.rules), (&new, &args.against)] {
        if let Some(id) = id {
            if sets.get(&spec.dir, id)?.is_none() {
                return Err(format!(
                    "rule set {id} of {}: not one the oracle implements ({})",
                    spec.dir.display(),
                    xiangqi_oracle::judge::RULE_SETS.join(", ")
                ));
            }
        }
    }
    if args.against.is_none() {
        if let Some(id) = &args.rules {
            if sets.get(&new.dir, id)?.is_none() {
                return Err(format!(
                    "rule set {id} of {}: not one the oracle implements",
                    new.dir.display()
                ));
            }
        }
    }
    let wanted = |ex: &Example| match (&args.rules, &args.against) {
        (None, _) => true,
        (Some(r), None) => ex.rules == *r,
        (Some(r), Some(a)) => ex.rules == *r || ex.rules == *a,
    };
    let old_examples: BTreeMap<&str, &Example> = old
        .examples
        .iter()
        .map(|le| (le.example.id.as_str(), &le.example))
        .filter(|(_, ex)| wanted(ex))
        .collect();
    let mut report = DiffReport {
        old: Side {
            dir: args.old.display().to_string(),
            rules: args.rules.clone().filter(|_| args.against.is_some()),
        },
        new: Side {
            dir: args.new.display().to_string(),
            rules: args.against.clone(),
        },
        spec_changes: if args.against.is_none() {
            spec_changes(&args.old, &args.new)?
        } else {
            Vec::new()
        },
        examples: 0,
        changed: 0,
        removed: Vec::new(),
        added: Vec::new(),
        not_judged: Vec::new(),
        changes: Vec::new(),
        games: None,
    };
    let mut seen = Vec::new();
    progress.start(new.examples.len() as u64);
    // The pairs to judge, in NEW's order; judged on every core, compared in order.
    let mut pairs = Vec::new();
    for le in &new.examples {
        let ex_new = &le.example;
        if !wanted(ex_new) {
            progress.inc();
            continue;
        }
        let Some(ex_old) = old_examples.get(ex_new.id.as_str()) else {
            report.added.push(ex_new.id.clone());
            progress.inc();
            continue;
        };
        seen.push(ex_new.id.as_str());
        let (id_old, id_new) = match (&args.rules, &args.against) {
            (Some(r), Some(a)) => (r.clone(), a.clone()),
            _ => (ex_old.rules.clone(), ex_new.rules.clone()),
        };
        pairs.push((*ex_old, ex_new, id_old, id_new));
    }
    let verdicts = super::parallel::map_in_order(
        &pairs,
        |(ex_old, ex_new, id_old, id_new)| {
            Ok::<_, String>((
                verdict(&sets, &old, id_old, ex_old)?,
                verdict(&sets, &new, id_new, ex_new)?,
            ))
        },
        |(_, ex_new, _, _)| {
            progress.message(ex_new.id.clone());
            progress.inc();
        },
    );
    for ((_, ex_new, id_old, id_new), judged) in pairs.iter().zip(verdicts) {
        let (o, n) = judged?;
        let (o, n) = match (o, n) {
            (None, None) => {
                report.not_judged.push(format!(
                    "{}: rule set {} is not implemented by the oracle",
                    ex_new.id, ex_new.rules
                ));
                continue;
            }
            (o, n) => (
                o.unwrap_or_else(|| Err(format!("rule set {id_old} not implemented"))),
                n.unwrap_or_else(|| Err(format!("rule set {id_new} not implemented"))),
            ),
        };
        report.examples += 1;
        let printed = ex_new.expected.ruling.as_ref().map(|r| r.id().to_string());
        if let Some(change) = compare(&ex_new.id, printed, &o, &n, args.against.is_none()) {
            report.changes.push(change);
        }
    }
    report.removed = old_examples
        .keys()
        .filter(|id| !seen.contains(id))
        .map(|id| id.to_string())
        .collect();
    progress.finish();
    report.changed = report.changes.len();
    if !args.games.is_empty() {
        report.games = Some(diff_games(args, &old, &new, &sets, progress)?);
    }
    Ok(report)
}

/// The files whose entries `spec diff` compares: board, pieces, material and every rule file.
fn spec_files(dir: &Path) -> Result<Vec<String>, String> {
    let mut files: Vec<String> = ["board.yaml", "pieces.yaml", "material.yaml"]
        .iter()
        .filter(|f| dir.join(f).is_file())
        .map(|f| f.to_string())
        .collect();
    let rules = dir.join("rules");
    let mut rule_files: Vec<String> = std::fs::read_dir(&rules)
        .map_err(|e| format!("{}: {e}", rules.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .map(|n| format!("rules/{n}"))
        .collect();
    rule_files.sort();
    files.extend(rule_files);
    Ok(files)
}

/// One YAML value on one line (long texts cut at 100 characters).
fn one_line(v: &serde_yaml::Value) -> String {
    let text = match v {
        serde_yaml::Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim_end()
            .to_string(),
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 100 {
        text.chars().take(99).collect::<String>() + "…"
    } else {
        text
    }
}

/// The kind of a change at `path` whose last key is `key`.
fn change_kind(path: &str, key: &str) -> &'static str {
    if matches!(
        key,
        "zh" | "en" | "title" | "source" | "note" | "notes" | "quote"
    ) {
        "text"
    } else if path.starts_with("parameters") {
        "parameter"
    } else if path.starts_with("ruling_table") {
        "table"
    } else {
        "rule"
    }
}

/// The id of a list entry (`id`, else `name`; a ruling-table row by its `red/black` keys),
/// when it has one.
fn entry_id(v: &serde_yaml::Value) -> Option<String> {
    let text = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    text("id").or_else(|| text("name")).or_else(|| {
        let (red, black) = (text("red")?, text("black")?);
        Some(format!("{red}/{black}"))
    })
}

/// Compares two YAML values below `path`, pushing one change per differing entry.
fn diff_values(
    file: &str,
    path: &str,
    key: &str,
    old: &serde_yaml::Value,
    new: &serde_yaml::Value,
    out: &mut Vec<SpecChange>,
) {
    use serde_yaml::Value;
    if old == new {
        return;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (old, new) {
        (Value::Mapping(a), Value::Mapping(b)) => {
            for (k, va) in a {
                let name = one_line(k);
                let p = join(&name);
                match b.get(k) {
                    Some(vb) => diff_values(file, &p, &name, va, vb, out),
                    None => out.push(SpecChange {
                        file: file.to_string(),
                        kind: change_kind(&p, &name).to_string(),
                        path: p,
                        old: Some(one_line(va)),
                        new: None,
                    }),
                }
            }
            for (k, vb) in b {
                if a.get(k).is_none() {
                    let name = one_line(k);
                    let p = join(&name);
                    out.push(SpecChange {
                        file: file.to_string(),
                        kind: change_kind(&p, &name).to_string(),
                        path: p,
                        old: None,
                        new: Some(one_line(vb)),
                    });
                }
            }
        }
        (Value::Sequence(a), Value::Sequence(b))
            if a.iter().chain(b).all(|v| entry_id(v).is_some()) =>
        {
            let ids_a: Vec<String> = a.iter().filter_map(entry_id).collect();
            let ids_b: Vec<String> = b.iter().filter_map(entry_id).collect();
            for (va, id) in a.iter().zip(&ids_a) {
                let p = format!("{path}[{id}]");
                match ids_b.iter().position(|x| x == id) {
                    Some(i) => diff_values(file, &p, key, va, &b[i], out),
                    None => out.push(SpecChange {
                        file: file.to_string(),
                        kind: change_kind(&p, key).to_string(),
                        path: p,
                        old: Some(one_line(va)),
                        new: None,
                    }),
                }
            }
            for (vb, id) in b.iter().zip(&ids_b) {
                if !ids_a.contains(id) {
                    let p = format!("{path}[{id}]");
                    out.push(SpecChange {
                        file: file.to_string(),
                        kind: change_kind(&p, key).to_string(),
                        path: p,
                        old: None,
                        new: Some(one_line(vb)),
                    });
                }
            }
        }
        (Value::Sequence(a), Value::Sequence(b)) if a.len() == b.len() => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                diff_values(file, &format!("{path}[{i}]"), key, va, vb, out);
            }
        }
        _ => out.push(SpecChange {
            file: file.to_string(),
            kind: change_kind(path, key).to_string(),
            path: path.to_string(),
            old: Some(one_line(old)),
            new: Some(one_line(new)),
        }),
    }
}

/// The changes of the rule files (and board, pieces, material) from `old` to `new`: each
/// entry that differs, by file and path; a file that differs only in comments or layout is one
/// `text` change at its root.
pub fn spec_changes(old: &Path, new: &Path) -> Result<Vec<SpecChange>, String> {
    spec_changes_from(&SpecBase::load(old)?, new)
}

/// The side of [`spec_changes`] compared against, read once: the files it compares (board,
/// pieces, material, every rule file) with their texts, each parsed the first time a compared
/// directory differs in it and kept. For comparing many directories against one base
/// ([`spec_changes_from`]) without reading and parsing the base's files again each time.
#[derive(Debug)]
pub struct SpecBase {
    dir: PathBuf,
    files: Vec<BaseFile>,
}

#[derive(Debug)]
struct BaseFile {
    /// Relative to the directory (`rules/cxa-1999.yaml`).
    name: String,
    /// `None` when it does not read.
    text: Option<String>,
    /// Its YAML (or the error of [`spec_changes`] for it), once parsed.
    value: OnceCell<Result<serde_yaml::Value, String>>,
}

impl SpecBase {
    /// Lists and reads the files of `dir` that [`spec_changes`] compares.
    pub fn load(dir: &Path) -> Result<SpecBase, String> {
        let files = spec_files(dir)?
            .into_iter()
            .map(|name| BaseFile {
                text: std::fs::read_to_string(dir.join(&name)).ok(),
                name,
                value: OnceCell::new(),
            })
            .collect();
        Ok(SpecBase {
            dir: dir.to_path_buf(),
            files,
        })
    }

    /// The directory it was read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// [`spec_changes`] from a base read once ([`SpecBase::load`]) to `new`: the same changes as
/// `spec_changes(old.dir(), new)` while the base directory is unchanged since it was read.
pub fn spec_changes_from(old: &SpecBase, new: &Path) -> Result<Vec<SpecChange>, String> {
    let mut files: Vec<String> = old.files.iter().map(|f| f.name.clone()).collect();
    for f in spec_files(new)? {
        if !files.contains(&f) {
            files.push(f);
        }
    }
    let parse = |dir: &Path, file: &str, t: &str| {
        serde_yaml::from_str::<serde_yaml::Value>(t)
            .map_err(|e| format!("{}: {e}", dir.join(file).display()))
    };
    let mut out = Vec::new();
    for file in files {
        let base = old.files.iter().find(|f| f.name == file);
        // A file the base does not list is read from its directory, as `spec_changes` does.
        let unlisted;
        let a = match base {
            Some(f) => f.text.as_deref(),
            None => {
                unlisted = std::fs::read_to_string(old.dir.join(&file)).ok();
                unlisted.as_deref()
            }
        };
        let b = std::fs::read_to_string(new.join(&file)).ok();
        if a == b.as_deref() {
            continue;
        }
        match (a, &b) {
            (Some(ta), Some(tb)) => {
                let parsed;
                let va = match base {
                    Some(f) => f
                        .value
                        .get_or_init(|| parse(&old.dir, &file, ta))
                        .as_ref()
                        .map_err(String::clone)?,
                    None => {
                        parsed = parse(&old.dir, &file, ta)?;
                        &parsed
                    }
                };
                let vb = parse(new, &file, tb)?;
                let before = out.len();
                diff_values(&file, "", "", va, &vb, &mut out);
                if out.len() == before {
                    out.push(SpecChange {
                        file: file.clone(),
                        path: String::new(),
                        kind: "text".to_string(),
                        old: Some("comments or layout".to_string()),
                        new: Some("changed".to_string()),
                    });
                }
            }
            (old_text, new_text) => out.push(SpecChange {
                file: file.clone(),
                path: String::new(),
                kind: "rule".to_string(),
                old: old_text.as_ref().map(|_| "the file".to_string()),
                new: new_text.as_ref().map(|_| "the file".to_string()),
            }),
        }
    }
    Ok(out)
}

fn game_outcome(j: &Judgement) -> String {
    let result = match j.result {
        GameResult::RedWins => "red wins",
        GameResult::BlackWins => "black wins",
        GameResult::Draw => "draw",
        GameResult::Ongoing => "ongoing",
    };
    let ruling = match j.ruling {
        Ruling::RedLoses => "red_loses",
        Ruling::BlackLoses => "black_loses",
        Ruling::Draw => "draw",
        Ruling::None => "none",
    };
    let mc = j
        .must_change
        .map(|s| {
            format!(
                ", {} must change",
                serde_json::to_value(s)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            )
        })
        .unwrap_or_default();
    format!("{result} (ruling {ruling}{mc}) at ply {}", j.ply)
}

fn diff_games(
    args: &DiffOptions,
    old: &SpecDir,
    new: &SpecDir,
    sets: &RuleSets,
    progress: &mut dyn Progress,
) -> Result<GamesReport, String> {
    let id_old = args.rules.clone().unwrap_or_else(|| "cxa-1999".to_string());
    let id_new = args.against.clone().unwrap_or_else(|| id_old.clone());
    let load_rules = |spec: &SpecDir, id: &str| -> Result<(RuleSet, Spec), String> {
        let rules = sets
            .get(&spec.dir, id)?
            .ok_or_else(|| format!("rule set {id} is not implemented by the oracle"))?;
        let oracle = spec.oracle.clone().ok_or("no board")?;
        Ok((rules, oracle))
    };
    let (rules_old, spec_old) = load_rules(old, &id_old)?;
    let (rules_new, spec_new) = load_rules(new, &id_new)?;
    let entries = crate::record::archive::read(&args.games)?.entries;
    let mut report = GamesReport::default();
    progress.start(entries.len() as u64);
    // Judged on every core, reported in the archive's order.
    let judged = super::parallel::map_in_order(
        &entries,
        |e| {
            let game = e.record.as_ref().ok()?;
            Some((
                super::oracle_judge::judge_game(&rules_old, &spec_old, game),
                super::oracle_judge::judge_game(&rules_new, &spec_new, game),
            ))
        },
        |e| {
            progress.message(format!("{}#{}", e.file, e.game));
            progress.inc();
        },
    );
    for (e, judged) in entries.iter().zip(judged) {
        let Some((o, n)) = judged else {
            if let Err(why) = &e.record {
                report.errors.push(format!("{}#{}: {why}", e.file, e.game));
            }
            continue;
        };
        match (o, n) {
            (Ok((_, o)), Ok((_, n))) => {
                report.judged += 1;
                let (a, b) = (game_outcome(&o), game_outcome(&n));
                if a != b {
                    report.changes.push(GameChange {
                        file: e.file.clone(),
                        game: e.game,
                        outcome: Change { old: a, new: b },
                        articles: Change {
                            old: o.articles.clone(),
                            new: n.articles.clone(),
                        },
                    });
                }
            }
            (Err(why), _) | (_, Err(why)) => {
                report.errors.push(format!("{}#{}: {why}", e.file, e.game));
            }
        }
    }
    progress.finish();
    Ok(report)
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "—".to_string()
    } else {
        v.join(", ")
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The command line that regenerates the report, as shown in it.
fn command_line(args: &DiffOptions) -> String {
    let mut c = format!(
        "xqrules spec diff {} {}",
        args.old.display(),
        args.new.display()
    );
    if let Some(r) = &args.rules {
        let _ = write!(c, " --rules {r}");
    }
    if let Some(a) = &args.against {
        let _ = write!(c, " --against {a}");
    }
    for g in &args.games {
        let _ = write!(c, " --games {}", g.display());
    }
    c
}

/// The report as Markdown.
pub fn to_markdown(args: &DiffOptions, r: &DiffReport) -> String {
    let mut h = String::new();
    let side = |s: &Side| match &s.rules {
        Some(id) => format!("`{id}` of `{}`", s.dir),
        None => format!("`{}` (each example under its own rule set)", s.dir),
    };
    let _ = writeln!(h, "# Spec diff: {} → {}\n", side(&r.old), side(&r.new));
    let _ = writeln!(h, "Generated by `{}`; do not edit.\n", command_line(args));
    let ruling_changes = r.changes.iter().filter(|c| c.ruling.is_some()).count();
    let class_changes: usize = r.changes.iter().map(|c| c.classes.len()).sum();
    let _ = writeln!(
        h,
        "**{} of {} examples change**: {ruling_changes} ruling{}, {} must-change side{}, {} immediacy, {} pattern pair{}, {class_changes} per-move class{}.",
        r.changed,
        r.examples,
        plural(ruling_changes),
        r.changes.iter().filter(|c| c.must_change.is_some()).count(),
        plural(r.changes.iter().filter(|c| c.must_change.is_some()).count()),
        r.changes.iter().filter(|c| c.immediate.is_some()).count(),
        r.changes.iter().filter(|c| c.patterns.is_some()).count(),
        plural(r.changes.iter().filter(|c| c.patterns.is_some()).count()),
        if class_changes == 1 { "" } else { "es" },
    );
    let outcome_changes = r
        .changes
        .iter()
        .filter(|c| c.result.is_some() || c.pending.is_some())
        .count();
    if outcome_changes > 0 {
        let _ = writeln!(
            h,
            "\n{outcome_changes} example{} change{} result or pending state.",
            plural(outcome_changes),
            if outcome_changes == 1 { "s" } else { "" }
        );
    }
    if !r.spec_changes.is_empty() {
        let _ = writeln!(
            h,
            "\n## Rule files\n\n{} entr{} changed.\n",
            r.spec_changes.len(),
            if r.spec_changes.len() == 1 {
                "y"
            } else {
                "ies"
            }
        );
        let _ = writeln!(h, "| file | entry | kind | old | new |");
        let _ = writeln!(h, "| --- | --- | --- | --- | --- |");
        for c in &r.spec_changes {
            let _ = writeln!(
                h,
                "| {} | {} | {} | {} | {} |",
                c.file,
                cell(if c.path.is_empty() {
                    "(whole file)"
                } else {
                    &c.path
                }),
                c.kind,
                cell(c.old.as_deref().unwrap_or("(none)")),
                cell(c.new.as_deref().unwrap_or("(none)"))
            );
        }
    }
    if !r.added.is_empty() {
        let _ = writeln!(h, "\nAdded examples: {}.", list(&r.added));
    }
    if !r.removed.is_empty() {
        let _ = writeln!(h, "\nRemoved examples: {}.", list(&r.removed));
    }
    if !r.not_judged.is_empty() {
        let _ = writeln!(
            h,
            "\nNot judged ({}): {}.",
            r.not_judged.len(),
            r.not_judged.join("; ")
        );
    }
    if r.changes.is_empty() {
        let _ = writeln!(h, "\nNo example changes.");
    } else {
        let rulings: Vec<&ExampleChange> = r
            .changes
            .iter()
            .filter(|c| {
                c.ruling.is_some()
                    || c.must_change.is_some()
                    || c.immediate.is_some()
                    || c.result.is_some()
                    || c.pending.is_some()
                    || c.articles_changed
            })
            .collect();
        if !rulings.is_empty() {
            let _ = writeln!(h, "\n## Rulings\n");
            let _ = writeln!(
                h,
                "| example | printed | old ruling | new ruling | old articles | new articles |"
            );
            let _ = writeln!(h, "| --- | --- | --- | --- | --- | --- |");
            for c in rulings {
                let show = |old: bool| {
                    let mut s = match &c.ruling {
                        Some(ch) => {
                            if old {
                                ch.old.clone()
                            } else {
                                ch.new.clone()
                            }
                        }
                        None => "(same)".to_string(),
                    };
                    if let Some(mc) = &c.must_change {
                        let v = if old { &mc.old } else { &mc.new };
                        let _ = write!(s, ", must change: {}", v.as_deref().unwrap_or("none"));
                    }
                    if let Some(im) = &c.immediate {
                        let _ = write!(s, ", immediate: {}", if old { im.old } else { im.new });
                    }
                    if let Some(res) = &c.result {
                        let _ = write!(s, ", result: {}", if old { &res.old } else { &res.new });
                    }
                    if let Some(p) = &c.pending {
                        let _ = write!(s, ", pending: {}", if old { p.old } else { p.new });
                    }
                    s
                };
                let _ = writeln!(
                    h,
                    "| {} | {} | {} | {} | {} | {} |",
                    c.id,
                    c.printed.as_deref().unwrap_or("—"),
                    cell(&show(true)),
                    cell(&show(false)),
                    list(&c.articles.old),
                    list(&c.articles.new)
                );
            }
        }
        let patterns: Vec<&ExampleChange> =
            r.changes.iter().filter(|c| c.patterns.is_some()).collect();
        if !patterns.is_empty() {
            let _ = writeln!(h, "\n## Patterns (red / black)\n");
            let _ = writeln!(h, "| example | old | new | old articles | new articles |");
            let _ = writeln!(h, "| --- | --- | --- | --- | --- |");
            for c in patterns {
                if let Some(p) = &c.patterns {
                    let _ = writeln!(
                        h,
                        "| {} | {} | {} | {} | {} |",
                        c.id,
                        p.old,
                        p.new,
                        list(&c.articles.old),
                        list(&c.articles.new)
                    );
                }
            }
        }
        if class_changes > 0 {
            let _ = writeln!(h, "\n## Per-move classes\n");
            let _ = writeln!(
                h,
                "| example | ply | move | side | old class | new class | old articles | new articles |"
            );
            let _ = writeln!(h, "| --- | --- | --- | --- | --- | --- | --- | --- |");
            for c in &r.changes {
                for k in &c.classes {
                    let _ = writeln!(
                        h,
                        "| {} | {} | {} | {} | {} | {} | {} | {} |",
                        c.id,
                        k.ply,
                        k.mv,
                        k.side,
                        k.class.old,
                        k.class.new,
                        list(&k.articles.old),
                        list(&k.articles.new)
                    );
                }
            }
        }
    }
    if let Some(g) = &r.games {
        let _ = writeln!(
            h,
            "\n## Games\n\n{} games judged under both, {} changed, {} not judged.\n",
            g.judged,
            g.changes.len(),
            g.errors.len()
        );
        if !g.changes.is_empty() {
            let _ = writeln!(h, "| game | old | new | old articles | new articles |");
            let _ = writeln!(h, "| --- | --- | --- | --- | --- |");
            for c in &g.changes {
                let _ = writeln!(
                    h,
                    "| {}#{} | {} | {} | {} | {} |",
                    cell(&c.file),
                    c.game,
                    cell(&c.outcome.old),
                    cell(&c.outcome.new),
                    list(&c.articles.old),
                    list(&c.articles.new)
                );
            }
        }
        for e in &g.errors {
            let _ = writeln!(h, "- not judged: {e}");
        }
    }
    h
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the files of the shipped spec that `spec_changes` compares.
    fn copy_compared(to: &Path) {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
        for file in spec_files(&from).expect("the shipped spec lists") {
            let target = to.join(&file);
            std::fs::create_dir_all(target.parent().expect("a parent")).expect("mkdir");
            std::fs::copy(from.join(&file), target).expect("copy");
        }
    }

    #[test]
    fn changes_from_a_base_read_once_are_those_of_spec_changes() {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
        let dir = std::env::temp_dir().join(format!("xqrules-diff-base-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_compared(&dir);
        let base = SpecBase::load(&shipped).expect("the shipped spec lists");
        assert_eq!(base.dir(), shipped);
        let same = |label: &str| {
            let want = format!("{:?}", spec_changes(&shipped, &dir));
            // Twice: the second comparison uses the base's parsed files.
            for _ in 0..2 {
                assert_eq!(
                    format!("{:?}", spec_changes_from(&base, &dir)),
                    want,
                    "{label}"
                );
            }
            want
        };
        assert_eq!(same("a copy"), "Ok([])");
        let rules = dir.join("rules/cxa-1999.yaml");
        let text = std::fs::read_to_string(&rules).expect("read");
        std::fs::write(&rules, format!("# a comment\n{text}")).expect("write");
        assert!(same("a comment").contains("comments or layout"));
        std::fs::write(&rules, text.replacen("value: 3", "value: 4", 1)).expect("write");
        assert!(same("a parameter").contains("\"parameter\""));
        std::fs::write(&rules, "[unclosed\n").expect("write");
        assert!(same("bad YAML").starts_with("Err("));
        std::fs::write(&rules, &text).expect("write");
        std::fs::remove_file(dir.join("pieces.yaml")).expect("rm");
        std::fs::write(dir.join("rules/new.yaml"), "a: 1\n").expect("write");
        let removed_added = same("a file removed and one added");
        assert!(removed_added.contains("pieces.yaml"), "{removed_added}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
