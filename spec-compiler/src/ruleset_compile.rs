//! The rule-set compiler: reads `spec/rules/terms.yaml` and `spec/rules/<id>.yaml`, resolves an
//! overlay (`extends` with `renumber`, `replace`, `add`, `remove`, `interpretations`, the schema
//! in the head of `cxa-2011.yaml`), validates the machine fields with `file:line:column` errors,
//! and renders [`RuleSet`]s as Rust source for `build.rs`.
//!
//! ```
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/rules");
//! let rules = xiangqi_spec::ruleset_compile::load_rule_set(&dir, "cxa-2011").unwrap();
//! assert_eq!(rules.repetition_count, 3);
//! assert_eq!(rules.article("cxa1999.25.2.perpetual-chase"), "24.13"); // renumbered by the overlay
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_yaml::{Mapping, Value};

use crate::load::{locate, Loc, Problem, Source, SpecError};
use crate::ruleset::{
    BothForbidden, GravePattern, Interpretation, Matcher, MoveClass, Pattern, RuleSet, RulingRow,
    SingleAgainstJoint,
};
use crate::vocab::Role;

/// The rule sets compiled into the fast library. Adding one is one line here (and its file in
/// `spec/rules/`).
pub const BUILTIN_IDS: &[&str] = &["cxa-1999", "cxa-2011", "axf"];

/// Deepest `extends` chain accepted.
const MAX_EXTENDS: usize = 4;

/// The files of one rule set: the chain from the rule set itself down to its root base.
struct Chain {
    /// `[<id>.yaml, <base>.yaml, ...]`.
    files: Vec<Source>,
}

impl Chain {
    /// An error at YAML path `path` of the first file of the chain whose text has that node.
    fn error(&self, path: &str, what: impl Into<String>) -> SpecError {
        let what = what.into();
        for f in &self.files {
            let (line, column) = locate(&f.text, path);
            if line > 0 {
                return at(f, line, column, path, what);
            }
        }
        at(&self.files[0], 0, 0, path, what)
    }
}

fn at(f: &Source, line: usize, column: usize, path: &str, what: String) -> SpecError {
    SpecError::Invalid {
        loc: Loc {
            file: f.name.clone(),
            line,
            column,
        },
        path: path.to_string(),
        problem: Problem::BadRule(what),
    }
}

fn read_source(dir: &Path, file: &str) -> Result<Source, SpecError> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).map_err(|source| SpecError::Io {
        file: path.display().to_string(),
        source,
    })?;
    Ok(Source {
        name: path.display().to_string(),
        text,
    })
}

fn parse_yaml(src: &Source) -> Result<Value, SpecError> {
    serde_yaml::from_str(&src.text).map_err(|e| {
        let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
        let reason = e.to_string();
        let reason = match reason.find(" at line ") {
            Some(i) => reason[..i].to_string(),
            None => reason,
        };
        SpecError::Yaml {
            loc: Loc {
                file: src.name.clone(),
                line,
                column,
            },
            reason,
        }
    })
}

/// Loads rule set `id` from `dir` (a copy of `spec/rules/`).
pub fn load_rule_set(dir: &Path, id: &str) -> Result<RuleSet, SpecError> {
    compile_parsed_rule_set(id, &|file| read_parsed(dir, file))
}

/// Compiles rule set `id`, reading files (`terms.yaml`, `<id>.yaml`, bases) through `read`.
pub fn compile_rule_set(
    id: &str,
    read: &dyn Fn(&str) -> Result<Source, SpecError>,
) -> Result<RuleSet, SpecError> {
    compile_parsed_rule_set(id, &|file| {
        let src = read(file)?;
        let doc = parse_yaml(&src)?;
        Ok((src, doc))
    })
}

/// A rule file read and parsed: its source and its YAML document.
pub type ParsedSource = (Source, Value);

/// Reads `dir/file` and parses it as YAML, as [`load_rule_set`] does: its source (named
/// `dir/file`) and its document, or the error [`load_rule_set`] gives for that file.
pub fn read_parsed(dir: &Path, file: &str) -> Result<ParsedSource, SpecError> {
    let src = read_source(dir, file)?;
    let doc = parse_yaml(&src)?;
    Ok((src, doc))
}

/// [`compile_rule_set`] over files already parsed: `load` gives each file (`terms.yaml`,
/// `<id>.yaml`, bases) with its YAML document, or the error of reading or parsing it. A caller
/// that has parsed the files anyway (`spec check`) gives them here instead of having each one
/// read and parsed again for every rule set that includes it.
pub fn compile_parsed_rule_set(
    id: &str,
    load: &dyn Fn(&str) -> Result<ParsedSource, SpecError>,
) -> Result<RuleSet, SpecError> {
    let valid_id = !id.is_empty()
        && id != "terms"
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid_id {
        return Err(SpecError::Invalid {
            loc: Loc {
                file: format!("{id}.yaml"),
                line: 0,
                column: 0,
            },
            path: String::new(),
            problem: Problem::BadRule(format!("{id:?} is not a rule set id")),
        });
    }
    // The chain of files, most derived first.
    let mut files = Vec::new();
    let mut docs = Vec::new();
    let mut next = Some(id.to_string());
    while let Some(name) = next.take() {
        if files.len() > MAX_EXTENDS {
            let chain = Chain { files };
            return Err(chain.error("extends", "extends chain too long"));
        }
        let (src, doc) = load(&format!("{name}.yaml"))?;
        if !doc.is_mapping() {
            return Err(at(&src, 1, 1, "", "a rule set is a mapping".into()));
        }
        match doc.get("extends") {
            None | Some(Value::Null) => {}
            Some(Value::String(base)) => next = Some(base.clone()),
            Some(_) => {
                let (l, c) = locate(&src.text, "extends");
                return Err(at(
                    &src,
                    l,
                    c,
                    "extends",
                    "extends must be a rule set id".into(),
                ));
            }
        }
        files.push(src);
        docs.push(doc);
    }
    let chain = Chain { files };
    // Start from the root base and apply each overlay on the way back up.
    let mut merged = docs.pop().expect("at least the rule set itself");
    while let Some(overlay) = docs.pop() {
        let file = &chain.files[docs.len()];
        merge_overlay(&mut merged, &overlay, file)?;
    }
    let (terms_src, terms) = load("terms.yaml")?;
    build(id, &merged, &terms, &terms_src, &chain)
}

// ---------------------------------------------------------------------------------------------
// Overlays
// ---------------------------------------------------------------------------------------------

fn entry_id(v: &Value) -> Option<&str> {
    v.get("id")?.as_str()
}

/// Calls `f` on every mapping that has an `id`, parents before children, in document order.
fn walk_entries(v: &mut Value, f: &mut dyn FnMut(&mut Mapping)) {
    match v {
        Value::Mapping(m) => {
            if m.contains_key("id") {
                f(m);
            }
            for (_, child) in m.iter_mut() {
                walk_entries(child, f);
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|c| walk_entries(c, f)),
        _ => {}
    }
}

/// Drops, from every list of the document, the entries whose id is in `ids`.
fn drop_entries(v: &mut Value, ids: &[String]) {
    match v {
        Value::Sequence(items) => {
            items.retain(|e| entry_id(e).is_none_or(|i| !ids.iter().any(|r| r == i)));
            items.iter_mut().for_each(|e| drop_entries(e, ids));
        }
        Value::Mapping(m) => m.iter_mut().for_each(|(_, c)| drop_entries(c, ids)),
        _ => {}
    }
}

fn overlay_list<'a>(overlay: &'a Value, key: &str, src: &Source) -> Result<&'a [Value], SpecError> {
    match overlay.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Sequence(s)) => Ok(s),
        Some(_) => {
            let (l, c) = locate(&src.text, key);
            Err(at(src, l, c, key, format!("`{key}` must be a list")))
        }
    }
}

fn required_str<'a>(
    v: &'a Value,
    key: &str,
    path: &str,
    src: &Source,
) -> Result<&'a str, SpecError> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| {
        let p = format!("{path}.{key}");
        let (l, c) = locate(&src.text, path);
        at(src, l, c, &p, format!("`{key}` (a string) is required"))
    })
}

/// Applies `overlay` (file `src`) to `base` in the order the schema gives: header fields,
/// renumber, replace, add, remove, interpretations.
fn merge_overlay(base: &mut Value, overlay: &Value, src: &Source) -> Result<(), SpecError> {
    let err = |path: &str, what: String| {
        let (l, c) = locate(&src.text, path);
        at(src, l, c, path, what)
    };
    {
        let root = base.as_mapping_mut().expect("checked by the caller");
        for key in ["ruleset", "title", "source", "extends"] {
            if let Some(v) = overlay.get(key) {
                root.insert(Value::from(key), v.clone());
            }
        }
    }
    // renumber: the entry keeps its id and content under a new article number.
    if let Some(r) = overlay.get("renumber") {
        let table = r
            .as_mapping()
            .ok_or_else(|| err("renumber", "`renumber` must map ids to articles".into()))?;
        let mut new_numbers = BTreeMap::new();
        for (k, v) in table {
            match (k.as_str(), v.as_str()) {
                (Some(k), Some(v)) => {
                    new_numbers.insert(k.to_string(), v.to_string());
                }
                _ => {
                    let k = k.as_str().unwrap_or("?");
                    return Err(err(
                        &format!("renumber.{k}"),
                        "a renumbering maps an id to a quoted article".into(),
                    ));
                }
            }
        }
        // Ids that are not in the base (terms.yaml's classes, numbered there with
        // `article_2011`) are accepted and change nothing.
        walk_entries(base, &mut |m| {
            let Some(id) = m.get("id").and_then(Value::as_str) else {
                return;
            };
            if let Some(article) = new_numbers.get(id) {
                let article = Value::from(article.as_str());
                let old = m.get("article").cloned().unwrap_or(Value::Null);
                m.insert(Value::from("article_base"), old);
                m.insert(Value::from("article"), article);
            }
        });
    }
    // replace
    for (i, r) in overlay_list(overlay, "replace", src)?.iter().enumerate() {
        let path = format!("replace[{i}]");
        let target = required_str(r, "replaces", &path, src)?;
        let section = required_str(r, "section", &path, src)?;
        let entry = r
            .get("entry")
            .ok_or_else(|| err(&path, format!("replace {target}: `entry` is required")))?;
        let root = base.as_mapping_mut().expect("checked");
        let sec = root.get_mut(section).ok_or_else(|| {
            err(
                &format!("{path}.section"),
                format!("replace {target}: the base has no section {section}"),
            )
        })?;
        match sec {
            Value::Sequence(items) => {
                let slot = items
                    .iter_mut()
                    .find(|e| entry_id(e) == Some(target))
                    .ok_or_else(|| {
                        err(
                            &format!("{path}.replaces"),
                            format!("replace: no entry {target} in section {section}"),
                        )
                    })?;
                *slot = entry.clone();
            }
            Value::Mapping(m) if entry_id(&Value::Mapping(m.clone())) == Some(target) => {
                let fields = entry.as_mapping().ok_or_else(|| {
                    err(
                        &format!("{path}.entry"),
                        format!("replace {target}: the entry of a map section is a map"),
                    )
                })?;
                for (k, v) in fields {
                    m.insert(k.clone(), v.clone());
                }
            }
            Value::Mapping(_) => {
                return Err(err(
                    &format!("{path}.replaces"),
                    format!("replace: section {section} is not entry {target}"),
                ))
            }
            _ => {
                return Err(err(
                    &format!("{path}.section"),
                    format!("replace: section {section} is neither a list nor a map"),
                ))
            }
        }
    }
    // add
    for (i, a) in overlay_list(overlay, "add", src)?.iter().enumerate() {
        let path = format!("add[{i}]");
        let section = required_str(a, "section", &path, src)?;
        let entry = a
            .get("entry")
            .ok_or_else(|| err(&path, "add: `entry` is required".into()))?
            .clone();
        let after = match a.get("after") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => {
                return Err(err(
                    &format!("{path}.after"),
                    "add: `after` is an entry id".into(),
                ))
            }
        };
        let root = base.as_mapping_mut().expect("checked");
        let mut sec = root
            .entry(Value::from(section))
            .or_insert_with(|| Value::Sequence(Vec::new()));
        // A map section (e.g. `chase`) collects its additions in `added`.
        if let Value::Mapping(m) = sec {
            sec = m
                .entry(Value::from("added"))
                .or_insert_with(|| Value::Sequence(Vec::new()));
        }
        let Value::Sequence(items) = sec else {
            return Err(err(
                &format!("{path}.section"),
                format!("add: section {section} is neither a list nor a map"),
            ));
        };
        let at_index = match after {
            None => items.len(),
            Some(prev) => match items.iter().position(|e| entry_id(e) == Some(prev)) {
                Some(p) => p + 1,
                // An `after` that names no entry of the section appends (its order is
                // irrelevant to the machine fields).
                None => items.len(),
            },
        };
        items.insert(at_index, entry);
    }
    // remove
    let mut removed = Vec::new();
    for (i, r) in overlay_list(overlay, "remove", src)?.iter().enumerate() {
        removed.push(required_str(r, "id", &format!("remove[{i}]"), src)?.to_string());
    }
    drop_entries(base, &removed);
    // interpretations add to the base's.
    let extra = overlay_list(overlay, "interpretations", src)?;
    if !extra.is_empty() {
        let root = base.as_mapping_mut().expect("checked");
        match root
            .entry(Value::from("interpretations"))
            .or_insert_with(|| Value::Sequence(Vec::new()))
        {
            Value::Sequence(items) => items.extend(extra.iter().cloned()),
            _ => {
                return Err(err(
                    "interpretations",
                    "the base's interpretations are not a list".into(),
                ))
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Machine fields
// ---------------------------------------------------------------------------------------------

/// A scalar as text (numbers in their YAML spelling), or empty.
fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn flag(v: Option<&Value>, key: &str) -> Option<bool> {
    v?.get(key)?.as_bool()
}

fn names(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

fn seq(v: Option<&Value>) -> impl Iterator<Item = &Value> {
    v.and_then(Value::as_sequence).into_iter().flatten()
}

fn matcher(v: Option<&Value>) -> Matcher {
    let Some(v) = v else {
        return Matcher::default();
    };
    let opt = |k: &str| v.get(k).filter(|x| x.is_sequence()).map(|x| names(Some(x)));
    Matcher {
        all_in: opt("all_in"),
        each_of: opt("each_of"),
        any_in: opt("any_in"),
        each_of_groups: v
            .get("each_of_groups")
            .filter(|x| x.is_sequence())
            .map(|gs| seq(Some(gs)).map(|g| names(Some(g))).collect()),
        otherwise: flag(Some(v), "otherwise").unwrap_or(false),
    }
}

fn build(
    id: &str,
    doc: &Value,
    terms: &Value,
    terms_src: &Source,
    chain: &Chain,
) -> Result<RuleSet, SpecError> {
    let terms_err = |path: &str, what: &str| {
        let (l, c) = locate(&terms_src.text, path);
        at(terms_src, l, c, path, what.to_string())
    };
    // Parameters.
    let params: Vec<&Value> = seq(doc.get("parameters")).collect();
    let param = |name: &str| -> Result<f64, SpecError> {
        let i = params
            .iter()
            .position(|p| p.get("name").and_then(Value::as_str) == Some(name));
        let Some(i) = i else {
            return Err(chain.error("parameters", format!("parameter {name} missing")));
        };
        params[i]
            .get("value")
            .and_then(Value::as_f64)
            .ok_or_else(|| {
                chain.error(
                    &format!("parameters[{i}].value"),
                    format!("parameter {name}: `value` must be a number"),
                )
            })
    };
    let count = |name: &str| -> Result<u32, SpecError> {
        let v = param(name)?;
        if v < 0.0 || v.fract() != 0.0 || v > f64::from(u32::MAX) {
            return Err(chain.error(
                "parameters",
                format!("parameter {name}: {v} is not a whole number"),
            ));
        }
        Ok(v as u32)
    };
    // Articles of every entry.
    let mut articles = BTreeMap::new();
    walk_entries(&mut doc.clone(), &mut |m| {
        let id = m.get("id").and_then(Value::as_str);
        let article = match m.get("article") {
            Some(Value::String(t)) => Some(t.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        if let (Some(id), Some(article)) = (id, article) {
            articles.insert(id.to_string(), article);
        }
    });
    // Classes from terms.yaml, numbered in this rule set's edition.
    let edition_2011 = doc
        .get("ruleset")
        .and_then(Value::as_str)
        .is_some_and(|r| r.contains("2011"));
    let mut class_articles = BTreeMap::new();
    let mut class_zh = BTreeMap::new();
    for c in seq(terms.get("classes")) {
        let name = text(c, "name");
        let article_key = if edition_2011 {
            "article_2011"
        } else {
            "article"
        };
        class_articles.insert(name.clone(), text(c, article_key));
        class_zh.insert(name, text(c, "zh_name"));
    }
    // 28.6 / 24.5: which enemy piece may take an offered piece, in this rule set's edition.
    let offer_any_taker = seq(terms.get("classes"))
        .find(|c| text(c, "name") == "offer")
        .is_some_and(|c| text(c, if edition_2011 { "taker_2011" } else { "taker" }) == "any");
    // A rule set with its own `classes` (AXF) cites its own term ids.
    for c in seq(doc.get("classes")) {
        let (name, term) = (text(c, "same_as"), text(c, "id"));
        if !name.is_empty() && !term.is_empty() {
            class_articles.insert(name, term);
        }
    }
    let reduce_map = terms
        .get("reduce_for_patterns")
        .and_then(|r| r.get("map"))
        .and_then(Value::as_mapping)
        .ok_or_else(|| terms_err("reduce_for_patterns", "reduce_for_patterns.map missing"))?;
    let mut reduce = BTreeMap::new();
    for (k, v) in reduce_map {
        if let (Some(k), Some(v)) = (k.as_str(), v.as_str()) {
            if MoveClass::from_name(k).is_none() || MoveClass::from_name(v).is_none() {
                return Err(terms_err(
                    &format!("reduce_for_patterns.map.{k}"),
                    &format!("reduce_for_patterns: unknown class in {k}: {v}"),
                ));
            }
            reduce.insert(k.to_string(), v.to_string());
        }
    }
    // Severity.
    let mut severity = Vec::new();
    for (i, n) in names(doc.get("severity").and_then(|s| s.get("order")))
        .iter()
        .enumerate()
    {
        let c = MoveClass::from_name(n).ok_or_else(|| {
            chain.error(
                &format!("severity.order[{i}]"),
                format!("severity: unknown class {n}"),
            )
        })?;
        severity.push(c);
    }
    if severity.is_empty() {
        return Err(chain.error("severity", "severity.order missing"));
    }
    // Patterns.
    let pattern_list = doc
        .get("patterns")
        .and_then(Value::as_sequence)
        .ok_or_else(|| chain.error("patterns", "patterns missing"))?;
    let patterns: Vec<Pattern> = pattern_list
        .iter()
        .map(|p| Pattern {
            id: text(p, "id"),
            article: text(p, "article"),
            name: text(p, "name"),
            zh_name: text(p, "zh_name"),
            forbidden: text(p, "status") == "forbidden",
            ruling_key: text(p, "ruling_key"),
            matcher: matcher(p.get("match")),
        })
        .collect();
    // Ruling table.
    let rows = doc
        .get("ruling_table")
        .and_then(|t| t.get("rows"))
        .and_then(Value::as_sequence)
        .ok_or_else(|| chain.error("ruling_table", "ruling_table.rows missing"))?;
    let ruling_table: Vec<RulingRow> = rows
        .iter()
        .map(|r| RulingRow {
            red: text(r, "red"),
            black: text(r, "black"),
            result: text(r, "result"),
            immediate: flag(Some(r), "immediate").unwrap_or(false),
            must_change: r
                .get("must_change")
                .and_then(Value::as_str)
                .map(str::to_string),
            articles: names(r.get("articles")),
        })
        .collect();
    for (i, r) in ruling_table.iter().enumerate() {
        if !matches!(r.result.as_str(), "red_loses" | "black_loses" | "draw") {
            return Err(chain.error(
                &format!("ruling_table.rows[{i}].result"),
                format!("ruling table: unknown result {:?}", r.result),
            ));
        }
    }
    // 2011 26.8: both sides forbidden.
    let both_forbidden = seq(doc.get("both_forbidden")).next().map(|bf| {
        let mut out = BothForbidden {
            article: text(bf, "article"),
            step_articles: Vec::new(),
            grave: Vec::new(),
            pairs: Vec::new(),
            qualifier_priority: names(bf.get("qualifier_priority")),
        };
        for step in seq(bf.get("steps")) {
            out.step_articles.push(text(step, "article"));
            out.grave
                .extend(seq(step.get("grave_patterns")).map(|g| GravePattern {
                    name: text(g, "name"),
                    matcher: matcher(g.get("match")),
                }));
            let cond = step.get("rule").and_then(|r| r.get("if"));
            if let Some((a, b)) = cond.and_then(|c| Some((c.get("side_a")?, c.get("side_b")?))) {
                out.pairs.push(SingleAgainstJoint {
                    side_a: matcher(Some(a)),
                    side_b: matcher(Some(b)),
                    article: text(step, "article"),
                    neither_grave: flag(cond, "neither_grave") == Some(true),
                });
            }
        }
        out
    });
    // The chase definition.
    let chase = doc
        .get("chase")
        .ok_or_else(|| chain.error("chase", "chase missing"))?;
    let mut chase_forms = names(chase.get("forms"));
    for c in seq(chase.get("conditions")) {
        chase_forms.extend(names(c.get("forms")));
    }
    // AXF 第三節 6: a piece chased by certain pieces whatever its protection.
    let chase_despite_protection = seq(chase.get("conditions")).find_map(|c| {
        let target = c.get("target_piece")?.as_str()?.to_string();
        Some((target, names(c.get("attacker_pieces"))))
    });
    if let Some((target, by)) = &chase_despite_protection {
        for (i, id) in std::iter::once(target).chain(by).enumerate() {
            if Role::from_id(id).is_none() {
                let at = if i == 0 {
                    "target_piece"
                } else {
                    "attacker_pieces"
                };
                return Err(chain.error(
                    "chase.conditions",
                    format!("{at}: unknown piece {id:?} (not a piece id of pieces.yaml)"),
                ));
            }
        }
    }
    let added: Vec<&Value> = seq(chase.get("added")).collect();
    let joint_chase = added.iter().any(|e| text(e, "chase_qualifier") == "joint");
    let joint_chase_renewed = added
        .iter()
        .any(|e| flag(Some(e), "counts_when_participant_moves") == Some(true));
    let exchange_over_two_squares = flag(Some(chase), "exchange_over_two_squares") == Some(true);
    let won_back_by_checks_is_protection =
        flag(Some(chase), "won_back_by_checks_is_protection") == Some(true);
    let exchange_answered_anywhere = flag(Some(chase), "exchange_answered_anywhere") == Some(true);
    let newness_in_context = flag(Some(chase), "newness_in_context") == Some(true);
    let exemption_by_capturer = flag(Some(chase), "exemption_by_capturer") == Some(true);
    let pin_renews_chase = flag(Some(chase), "pin_renews_chase") == Some(true);
    // Material and exceptions.
    let material = doc.get("material");
    let exceptions: Vec<&Value> = seq(doc.get("exceptions")).collect();
    let exception = |name: &str| exceptions.iter().copied().find(|e| text(e, "name") == name);
    let key_point_scope = exception("defensive_key_point").map(|e| {
        e.get("reclass")
            .and_then(|r| r.get("scope"))
            .and_then(Value::as_str)
            .unwrap_or("move")
            .to_string()
    });
    if let Some(scope) = &key_point_scope {
        if scope != "move" && scope != "targets" {
            return Err(chain.error(
                "exceptions",
                format!("defensive_key_point: scope {scope:?} is neither move nor targets"),
            ));
        }
    }
    // How the judge reports and what it classifies with (`judge:`).
    let judge = doc.get("judge");
    let judge_list = |key: &str, default: Vec<String>| {
        let v = names(judge.and_then(|j| j.get(key)));
        if v.is_empty() {
            default
        } else {
            v
        }
    };
    let classifier = judge
        .and_then(|j| j.get("classifier"))
        .and_then(Value::as_str)
        .unwrap_or("cxa")
        .to_string();
    if classifier != "cxa" && classifier != "axf" {
        return Err(chain.error(
            "judge.classifier",
            format!("judge.classifier: unknown classifier {classifier:?} (known: cxa, axf)"),
        ));
    }
    let fixed = |ids: &[&str]| ids.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let natural_default = ["cxa1999.4.2.4", "cxa1999.23.3"]
        .iter()
        .map(|i| articles.get(*i).cloned().unwrap_or_else(|| i.to_string()))
        .collect();
    let cycle_from_first = match judge
        .and_then(|j| j.get("cycle_span"))
        .and_then(Value::as_str)
        .unwrap_or("last")
    {
        "last" => false,
        "all" => true,
        other => {
            return Err(chain.error(
                "judge.cycle_span",
                format!("judge.cycle_span: {other:?} is not last or all"),
            ))
        }
    };
    let mate_articles = judge_list("mate_articles", fixed(&["3.1", "4.1.1"]));
    let stalemate_articles = judge_list("stalemate_articles", fixed(&["3.2", "4.1.3"]));
    let natural_limit_articles = judge_list("natural_limit_articles", natural_default);
    let interpretations = seq(doc.get("interpretations"))
        .map(|i| Interpretation {
            id: text(i, "id"),
            article: text(i, "article"),
            reading: text(i, "reading"),
            why: text(i, "why"),
        })
        .collect();
    Ok(RuleSet {
        id: id.to_string(),
        title: text(doc, "title"),
        repetition_count: count("repetition_count")?,
        natural_limit_moves: count("natural_limit_moves")?,
        check_cap_moves: count("check_cap_moves")?,
        kill_search_depth: count("kill_search_depth")?,
        chase_search_depth: count("chase_search_depth")?,
        mated_at_once_plies: count("mated_at_once_plies")?,
        floating_pawn_value: param("floating_pawn_value")?,
        severity,
        reduce,
        patterns,
        ruling_table,
        both_forbidden,
        chase_forms,
        joint_chase,
        joint_chase_renewed,
        exchange_over_two_squares,
        won_back_by_checks_is_protection,
        exchange_answered_anywhere,
        newness_in_context,
        exemption_by_capturer,
        pin_renews_chase,
        exchange_needs_acceptance: exception("same_type_exchange")
            .is_some_and(|e| e.get("reclass").is_some()),
        pawn_for_rook_is_gain: flag(material, "pawn_for_rook_is_gain").unwrap_or(false),
        just_crossed_pawn_is_material: flag(material, "just_crossed_pawn_is_material")
            .unwrap_or(true),
        pawn_mutual_attack: exception("pawn_chase").is_some_and(|e| e.get("undo_when").is_some()),
        key_point_scope,
        key_point_defending: exception("defensive_key_point")
            .and_then(|e| e.get("reclass"))
            .and_then(|r| r.get("defending_side"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
        loses_after_further_cycles: seq(doc.get("procedure"))
            .find_map(|e| e.get("loses_after_further_cycles").and_then(Value::as_u64))
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n >= 1),
        protector_chase_needs_gain: seq(doc.get("details"))
            .any(|d| text(d, "name") == "protector_or_pinned_chase"),
        king_answer_idle: exception("king_answer_to_check").is_some()
            || exception("answer_to_check").is_some(),
        kill_avoids_offered: exception("same_type_exchange").is_some_and(|e| {
            flag(e.get("reclass_kill"), "excludes_mates_taking_offered").unwrap_or(false)
        }),
        pawn_by_checks_no_gain: flag(material, "pawn_won_by_checks_is_gain") == Some(false),
        articles,
        class_articles,
        class_zh,
        offer_any_taker,
        interpretations,
        classifier,
        mate_articles,
        stalemate_articles,
        natural_limit_articles,
        cycle_from_first,
        chase_despite_protection,
    })
}

// ---------------------------------------------------------------------------------------------
// Code generation
// ---------------------------------------------------------------------------------------------

/// Rust source that defines `fn build_rule_set(id: &str) -> Option<RuleSet>` constructing each
/// of `sets` (one function per rule set, fields in declaration order, maps sorted), for
/// `include!` in a module where the `ruleset` types are in scope.
pub fn codegen_rule_sets(sets: &[RuleSet]) -> String {
    let mut out = String::new();
    out.push_str(
        "// Generated by xiangqi_spec::ruleset_compile from spec/rules/*.yaml. Do not edit.\n\n",
    );
    out.push_str("/// Builds the compiled rule set `id`.\n");
    out.push_str("pub(crate) fn build_rule_set(id: &str) -> Option<RuleSet> {\n    match id {\n");
    for r in sets {
        let _ = writeln!(out, "        {:?} => Some({}()),", r.id, fn_name(&r.id));
    }
    out.push_str("        _ => None,\n    }\n}\n\n");
    out.push_str("/// The ids of the compiled rule sets.\n");
    out.push_str("pub(crate) const COMPILED_IDS: &[&str] = &[");
    for (i, r) in sets.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{:?}", r.id);
    }
    out.push_str("];\n");
    for r in sets {
        out.push('\n');
        rule_set_fn(&mut out, r);
    }
    out
}

fn fn_name(id: &str) -> String {
    format!("rule_set_{}", id.replace('-', "_"))
}

fn s(v: &str) -> String {
    format!("{v:?}.to_string()")
}

fn strs(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|x| s(x)).collect();
    format!("vec![{}]", items.join(", "))
}

fn opt_strs(v: &Option<Vec<String>>) -> String {
    v.as_ref()
        .map_or("None".to_string(), |v| format!("Some({})", strs(v)))
}

fn matcher_src(m: &Matcher) -> String {
    let groups = m.each_of_groups.as_ref().map_or("None".to_string(), |gs| {
        let gs: Vec<String> = gs.iter().map(|g| strs(g)).collect();
        format!("Some(vec![{}])", gs.join(", "))
    });
    format!(
        "Matcher {{ all_in: {}, each_of: {}, any_in: {}, each_of_groups: {}, otherwise: {} }}",
        opt_strs(&m.all_in),
        opt_strs(&m.each_of),
        opt_strs(&m.any_in),
        groups,
        m.otherwise
    )
}

fn map_src(m: &BTreeMap<String, String>, indent: &str) -> String {
    let mut out = String::from("BTreeMap::from([\n");
    for (k, v) in m {
        let _ = writeln!(out, "{indent}    ({}, {}),", s(k), s(v));
    }
    let _ = write!(out, "{indent}])");
    out
}

fn rule_set_fn(out: &mut String, r: &RuleSet) {
    let _ = writeln!(
        out,
        "/// Rule set `{}`: {}.",
        r.id,
        r.title.replace('\n', " ")
    );
    let _ = writeln!(out, "#[allow(clippy::too_many_lines)]");
    let _ = writeln!(out, "fn {}() -> RuleSet {{", fn_name(&r.id));
    out.push_str("    RuleSet {\n");
    let i = "        ";
    let _ = writeln!(out, "{i}id: {},", s(&r.id));
    let _ = writeln!(out, "{i}title: {},", s(&r.title));
    let _ = writeln!(out, "{i}repetition_count: {},", r.repetition_count);
    let _ = writeln!(out, "{i}natural_limit_moves: {},", r.natural_limit_moves);
    let _ = writeln!(out, "{i}check_cap_moves: {},", r.check_cap_moves);
    let _ = writeln!(out, "{i}kill_search_depth: {},", r.kill_search_depth);
    let _ = writeln!(out, "{i}chase_search_depth: {},", r.chase_search_depth);
    let _ = writeln!(out, "{i}mated_at_once_plies: {},", r.mated_at_once_plies);
    let _ = writeln!(out, "{i}floating_pawn_value: {:?},", r.floating_pawn_value);
    let sev: Vec<String> = r
        .severity
        .iter()
        .map(|c| format!("MoveClass::{c:?}"))
        .collect();
    let _ = writeln!(out, "{i}severity: vec![{}],", sev.join(", "));
    let _ = writeln!(out, "{i}reduce: {},", map_src(&r.reduce, i));
    let _ = writeln!(out, "{i}patterns: vec![");
    for p in &r.patterns {
        let _ = writeln!(
            out,
            "{i}    Pattern {{ id: {}, article: {}, name: {}, zh_name: {}, forbidden: {}, ruling_key: {}, matcher: {} }},",
            s(&p.id),
            s(&p.article),
            s(&p.name),
            s(&p.zh_name),
            p.forbidden,
            s(&p.ruling_key),
            matcher_src(&p.matcher)
        );
    }
    let _ = writeln!(out, "{i}],");
    let _ = writeln!(out, "{i}ruling_table: vec![");
    for row in &r.ruling_table {
        let mc = row
            .must_change
            .as_ref()
            .map_or("None".to_string(), |m| format!("Some({})", s(m)));
        let _ = writeln!(
            out,
            "{i}    RulingRow {{ red: {}, black: {}, result: {}, immediate: {}, must_change: {mc}, articles: {} }},",
            s(&row.red),
            s(&row.black),
            s(&row.result),
            row.immediate,
            strs(&row.articles)
        );
    }
    let _ = writeln!(out, "{i}],");
    match &r.both_forbidden {
        None => {
            let _ = writeln!(out, "{i}both_forbidden: None,");
        }
        Some(bf) => {
            let _ = writeln!(out, "{i}both_forbidden: Some(BothForbidden {{");
            let _ = writeln!(out, "{i}    article: {},", s(&bf.article));
            let _ = writeln!(out, "{i}    step_articles: {},", strs(&bf.step_articles));
            let _ = writeln!(out, "{i}    grave: vec![");
            for g in &bf.grave {
                let _ = writeln!(
                    out,
                    "{i}        GravePattern {{ name: {}, matcher: {} }},",
                    s(&g.name),
                    matcher_src(&g.matcher)
                );
            }
            let _ = writeln!(out, "{i}    ],");
            let _ = writeln!(out, "{i}    pairs: vec![");
            for p in &bf.pairs {
                let _ = writeln!(
                    out,
                    "{i}        SingleAgainstJoint {{ side_a: {}, side_b: {}, article: {}, neither_grave: {} }},",
                    matcher_src(&p.side_a),
                    matcher_src(&p.side_b),
                    s(&p.article),
                    p.neither_grave
                );
            }
            let _ = writeln!(out, "{i}    ],");
            let _ = writeln!(
                out,
                "{i}    qualifier_priority: {},",
                strs(&bf.qualifier_priority)
            );
            let _ = writeln!(out, "{i}}}),");
        }
    }
    let _ = writeln!(out, "{i}chase_forms: {},", strs(&r.chase_forms));
    let _ = writeln!(out, "{i}joint_chase: {},", r.joint_chase);
    let _ = writeln!(out, "{i}joint_chase_renewed: {},", r.joint_chase_renewed);
    let _ = writeln!(
        out,
        "{i}exchange_over_two_squares: {},",
        r.exchange_over_two_squares
    );
    let _ = writeln!(
        out,
        "{i}won_back_by_checks_is_protection: {},",
        r.won_back_by_checks_is_protection
    );
    let _ = writeln!(
        out,
        "{i}exchange_answered_anywhere: {},",
        r.exchange_answered_anywhere
    );
    let _ = writeln!(out, "{i}newness_in_context: {},", r.newness_in_context);
    let _ = writeln!(
        out,
        "{i}exemption_by_capturer: {},",
        r.exemption_by_capturer
    );
    let _ = writeln!(out, "{i}pin_renews_chase: {},", r.pin_renews_chase);
    let _ = writeln!(
        out,
        "{i}exchange_needs_acceptance: {},",
        r.exchange_needs_acceptance
    );
    let _ = writeln!(
        out,
        "{i}pawn_for_rook_is_gain: {},",
        r.pawn_for_rook_is_gain
    );
    let _ = writeln!(
        out,
        "{i}just_crossed_pawn_is_material: {},",
        r.just_crossed_pawn_is_material
    );
    let _ = writeln!(out, "{i}pawn_mutual_attack: {},", r.pawn_mutual_attack);
    let kps = r
        .key_point_scope
        .as_ref()
        .map_or("None".to_string(), |k| format!("Some({})", s(k)));
    let _ = writeln!(out, "{i}key_point_scope: {kps},");
    let _ = writeln!(out, "{i}key_point_defending: {},", r.key_point_defending);
    let _ = writeln!(
        out,
        "{i}protector_chase_needs_gain: {},",
        r.protector_chase_needs_gain
    );
    let _ = writeln!(
        out,
        "{i}loses_after_further_cycles: {:?},",
        r.loses_after_further_cycles
    );
    let _ = writeln!(out, "{i}king_answer_idle: {},", r.king_answer_idle);
    let _ = writeln!(out, "{i}kill_avoids_offered: {},", r.kill_avoids_offered);
    let _ = writeln!(
        out,
        "{i}pawn_by_checks_no_gain: {},",
        r.pawn_by_checks_no_gain
    );
    let _ = writeln!(out, "{i}articles: {},", map_src(&r.articles, i));
    let _ = writeln!(out, "{i}class_articles: {},", map_src(&r.class_articles, i));
    let _ = writeln!(out, "{i}class_zh: {},", map_src(&r.class_zh, i));
    let _ = writeln!(out, "{i}offer_any_taker: {},", r.offer_any_taker);
    let _ = writeln!(out, "{i}interpretations: vec![");
    for it in &r.interpretations {
        let _ = writeln!(
            out,
            "{i}    Interpretation {{ id: {}, article: {}, reading: {}, why: {} }},",
            s(&it.id),
            s(&it.article),
            s(&it.reading),
            s(&it.why)
        );
    }
    let _ = writeln!(out, "{i}],");
    let _ = writeln!(out, "{i}classifier: {},", s(&r.classifier));
    let _ = writeln!(out, "{i}mate_articles: {},", strs(&r.mate_articles));
    let _ = writeln!(
        out,
        "{i}stalemate_articles: {},",
        strs(&r.stalemate_articles)
    );
    let _ = writeln!(
        out,
        "{i}natural_limit_articles: {},",
        strs(&r.natural_limit_articles)
    );
    let _ = writeln!(out, "{i}cycle_from_first: {},", r.cycle_from_first);
    let cdp = r
        .chase_despite_protection
        .as_ref()
        .map_or("None".to_string(), |(t, by)| {
            format!("Some(({}, {}))", s(t), strs(by))
        });
    let _ = writeln!(out, "{i}chase_despite_protection: {cdp},");
    out.push_str("    }\n}\n");
}
