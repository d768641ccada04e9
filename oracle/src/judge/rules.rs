//! Loading a repetition rule set (`spec/rules/<id>.yaml`, with `terms.yaml`) and resolving the
//! 2011 overlay (`extends`, `renumber`, `replace`, `add`, `remove`, `interpretations`), then
//! reading out the machine fields the judge uses: parameters, patterns (25.2 / 24.13–24.14),
//! severity (27.4 / 26.4), the ruling table (24.1–24.3, 26.1–26.4), the 2011 both-forbidden
//! procedure (26.8) and the switches of the chase definition and of the exceptions (27.x / 26.x).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_yaml::{Mapping, Value};

use super::MoveClass;

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The rule set id is not one of the known files.
    #[error("unknown rule set {0:?} (known: cxa-1999, cxa-2011, axf)")]
    Unknown(String),
    /// A file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file is not valid YAML: `file:line:column: reason` (`file: reason` only where
    /// serde_yaml gives no location).
    #[error("{file}{}: {reason}", location_suffix(*line, *column))]
    Yaml {
        /// The file.
        file: String,
        /// 1-based line, where serde_yaml reports one.
        line: Option<usize>,
        /// 1-based column, where serde_yaml reports one.
        column: Option<usize>,
        /// serde_yaml's message, without its own ` at line N column M`.
        reason: String,
    },
    /// A field the judge needs is missing or malformed.
    #[error("{file}: {what}")]
    Invalid {
        /// The rule set or file.
        file: String,
        /// What is wrong.
        what: String,
    },
}

const EMBEDDED: &[(&str, &str)] = &[
    ("terms.yaml", include_str!("../../../spec/rules/terms.yaml")),
    (
        "cxa-1999.yaml",
        include_str!("../../../spec/rules/cxa-1999.yaml"),
    ),
    (
        "cxa-2011.yaml",
        include_str!("../../../spec/rules/cxa-2011.yaml"),
    ),
    ("axf.yaml", include_str!("../../../spec/rules/axf.yaml")),
];

/// Where rule files come from.
enum Source<'a> {
    Embedded,
    Dir(&'a Path),
}

impl Source<'_> {
    fn read(&self, name: &str) -> Result<String, RulesError> {
        match self {
            Source::Embedded => EMBEDDED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| t.to_string())
                .ok_or_else(|| RulesError::Unknown(name.trim_end_matches(".yaml").to_string())),
            Source::Dir(dir) => {
                let path = dir.join(name);
                std::fs::read_to_string(&path).map_err(|source| {
                    if source.kind() == std::io::ErrorKind::NotFound {
                        RulesError::Unknown(name.trim_end_matches(".yaml").to_string())
                    } else {
                        RulesError::Io { file: path, source }
                    }
                })
            }
        }
    }
}

fn parse(file: &str, text: &str) -> Result<Value, RulesError> {
    serde_yaml::from_str(text).map_err(|e| {
        let location = e.location();
        let mut reason = e.to_string();
        if let Some(i) = reason.find(" at line ") {
            reason.truncate(i);
        }
        RulesError::Yaml {
            file: file.to_string(),
            line: location.as_ref().map(|l| l.line()),
            column: location.as_ref().map(|l| l.column()),
            reason,
        }
    })
}

/// `:line:column`, `:line` or nothing.
fn location_suffix(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

fn invalid(file: &str, what: impl Into<String>) -> RulesError {
    RulesError::Invalid {
        file: file.to_string(),
        what: what.into(),
    }
}

/// One recorded reading of the text (`interpretations:` entries).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Interpretation {
    /// Stable id.
    pub id: String,
    /// Article(s) concerned.
    pub article: String,
    /// The reading chosen.
    pub reading: String,
    /// Why.
    pub why: String,
}

/// A condition on the (reduced or qualified) classes of one side's moves in a cycle
/// (`match:` of a pattern, art. 25.2 / 24.13–24.14).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matcher {
    /// Every move's class is in this set.
    pub all_in: Option<Vec<String>>,
    /// Each of these classes occurs.
    pub each_of: Option<Vec<String>>,
    /// At least one move's class is in this set.
    pub any_in: Option<Vec<String>>,
    /// At least one class of each set occurs.
    pub each_of_groups: Option<Vec<Vec<String>>>,
    /// Matches anything (24.14).
    pub otherwise: bool,
}

impl Matcher {
    fn from_value(v: &Value) -> Matcher {
        let list = |k: &str| {
            v.get(k).and_then(Value::as_sequence).map(|s| {
                s.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect::<Vec<_>>()
            })
        };
        Matcher {
            all_in: list("all_in"),
            each_of: list("each_of"),
            any_in: list("any_in"),
            each_of_groups: v
                .get("each_of_groups")
                .and_then(Value::as_sequence)
                .map(|gs| {
                    gs.iter()
                        .map(|g| {
                            g.as_sequence()
                                .map(|s| {
                                    s.iter()
                                        .filter_map(|x| x.as_str().map(str::to_string))
                                        .collect()
                                })
                                .unwrap_or_default()
                        })
                        .collect()
                }),
            otherwise: v.get("otherwise").and_then(Value::as_bool).unwrap_or(false),
        }
    }

    /// Does a side's list of move labels match? Each move has a set of labels: its reduced
    /// class (`chase`) and, for chases, qualified names (`chase.rook`); a label set satisfies
    /// "class in S" when any of its labels is in S.
    pub fn matches(&self, moves: &[Vec<String>]) -> bool {
        if moves.is_empty() {
            return false;
        }
        let has = |m: &Vec<String>, set: &[String]| m.iter().any(|l| set.contains(l));
        if self.otherwise {
            return true;
        }
        if let Some(all) = &self.all_in {
            if !moves.iter().all(|m| has(m, all)) {
                return false;
            }
        }
        if let Some(each) = &self.each_of {
            if !each.iter().all(|c| moves.iter().any(|m| m.contains(c))) {
                return false;
            }
        }
        if let Some(any) = &self.any_in {
            if !moves.iter().any(|m| has(m, any)) {
                return false;
            }
        }
        if let Some(groups) = &self.each_of_groups {
            if !groups.iter().all(|g| moves.iter().any(|m| has(m, g))) {
                return false;
            }
        }
        true
    }
}

/// A named pattern of one side's moves in a cycle (art. 25.2; 2011 24.13, 24.14).
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// Spec id.
    pub id: String,
    /// Article as printed in the edition.
    pub article: String,
    /// Machine name (`perpetual_check`, `chases_and_idle`, ...).
    pub name: String,
    /// Chinese name.
    pub zh_name: String,
    /// `forbidden` (禁止著法) or `allowed` (允許著法).
    pub forbidden: bool,
    /// Key into the ruling table (`perpetual_check` | `forbidden` | `allowed`).
    pub ruling_key: String,
    /// The condition.
    pub matcher: Matcher,
}

/// One row of the ruling table (art. 24.1–24.3, 26.1–26.4).
#[derive(Clone, Debug, PartialEq)]
pub struct RulingRow {
    /// Red's ruling key.
    pub red: String,
    /// Black's ruling key.
    pub black: String,
    /// `red_loses` | `black_loses` | `draw`.
    pub result: String,
    /// Outright result?
    pub immediate: bool,
    /// `red` | `black` | none.
    pub must_change: Option<String>,
    /// Articles that decide.
    pub articles: Vec<String>,
}

/// A grave pattern of 2011 art. 26.8.1.
#[derive(Clone, Debug, PartialEq)]
pub struct GravePattern {
    /// Name.
    pub name: String,
    /// Condition on qualified classes.
    pub matcher: Matcher,
}

/// A step of 26.8.2 / 26.8.3 (单方长捉…对方联合捉…前者变着): a side whose labels match `side_a`
/// (a perpetual chase with single pieces) against one whose labels match `side_b` (a joint chase)
/// must change.
#[derive(Clone, Debug, PartialEq)]
pub struct SingleAgainstJoint {
    /// The changing side's labels.
    pub side_a: Matcher,
    /// The other side's labels.
    pub side_b: Matcher,
    /// The step's article (`26.8.2`).
    pub article: String,
    /// `neither_grave: true`: the step decides only when neither side's pattern is grave by
    /// 26.8.1 (the joint side is no 单方长捉 itself); otherwise it is only cited beside a 26.8.1
    /// ruling that it agrees with.
    pub neither_grave: bool,
}

/// The 2011 procedure for both sides forbidden (art. 26.8.1–26.8.4).
#[derive(Clone, Debug, PartialEq)]
pub struct BothForbidden {
    /// Article of the whole procedure (`26.8`).
    pub article: String,
    /// Articles of the steps in order (`26.8.1` .. `26.8.4`).
    pub step_articles: Vec<String>,
    /// 26.8.1.
    pub grave: Vec<GravePattern>,
    /// 26.8.2 / 26.8.3, in order.
    pub pairs: Vec<SingleAgainstJoint>,
    /// Priority of chase qualifiers when one chase has several targets.
    pub qualifier_priority: Vec<String>,
}

/// The machine form of one repetition rule set.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// `cxa-1999` or `cxa-2011`.
    pub id: String,
    /// Title.
    pub title: String,
    /// 4.2.3: occurrences of one position that make a position awaiting a ruling.
    pub repetition_count: u32,
    /// 4.2.4: rounds without capture for the natural limit (0 = no limit).
    pub natural_limit_moves: u32,
    /// 23.3: the claimant's checks counted at most.
    pub check_cap_moves: u32,
    /// 28.2: plies of the kill search.
    pub kill_search_depth: u32,
    /// 28.3: plies of forcing sequences in the chase search.
    pub chase_search_depth: u32,
    /// 29.4 / 2011 24.3: plies of the "mated at once" search (1 = mate in one).
    pub mated_at_once_plies: u32,
    /// Exchange value of a crossed or uncrossed pawn (its value floats, 25.3 / 26.6).
    pub floating_pawn_value: f64,
    /// Severity order, heaviest first (27.4 / 26.4).
    pub severity: Vec<MoveClass>,
    /// How the idle kinds are reduced before pattern matching (28.9).
    pub reduce: BTreeMap<String, String>,
    /// Patterns in the order tried.
    pub patterns: Vec<Pattern>,
    /// The ruling table.
    pub ruling_table: Vec<RulingRow>,
    /// 2011: the both-forbidden procedure that replaces the (forbidden, forbidden) row.
    pub both_forbidden: Option<BothForbidden>,
    /// Forms of chase (29.1 / 24.3): `direct_capture`, `capture_after_consecutive_checks`,
    /// `gain_by_exchange_sequence`, `joint_capture`, `discovered_attack`.
    pub chase_forms: Vec<String>,
    /// Classify joint chases (24.17) with a qualifier.
    pub joint_chase: bool,
    /// 24.17: a joint threat counts on every move of a piece taking part in it.
    pub joint_chase_renewed: bool,
    /// 24.3: a complete exchange may run over two squares, taking away another piece's
    /// protector (`exchange_over_two_squares`, reading `exchange-removes-protector`).
    pub exchange_over_two_squares: bool,
    /// 24.3 / 24.15: a capture that the other side's consecutive checks win back is no gain
    /// (`won_back_by_checks_is_protection`, reading `capture-answered-by-checks`).
    pub won_back_by_checks_is_protection: bool,
    /// 24.3 / 29.1: the other side answers a capture by the best exchange it can start anywhere on
    /// the board, not only by recapturing (`exchange_answered_anywhere`, reading
    /// `complete-exchange-any-square`).
    pub exchange_answered_anywhere: bool,
    /// 2011 26.1.2 and 从捉到捉 in context (`newness_in_context`, reading `newness-in-context`):
    /// after a check answered by a piece other than the king, the threats that stood before
    /// the check are not new; after a kill, a capture that does not parry the mate won nothing
    /// before.
    pub newness_in_context: bool,
    /// 2011 26.1, 26.7 (`exemption_by_capturer`, reading `exemption-by-capturer`): the king and
    /// pawn exemptions belong to the pieces that capture, not to the first piece of a line.
    pub exemption_by_capturer: bool,
    /// 24.4, 26.9, 26.10 (`pin_renews_chase`, reading `pinned-target-cannot-accept`): a standing
    /// threat to a piece that cannot leave its square without its side being mated at once is
    /// renewed, as a joint chase, by each move of the piece that keeps it so pinned.
    pub pin_renews_chase: bool,
    /// 2011 26.9 (the `same_type_exchange` exception's `reclass`): a pair of equal pieces that
    /// can take each other is an exchange (兑) only if the target can accept it: the capture
    /// loses it no value and does not let it be mated at once.
    pub exchange_needs_acceptance: bool,
    /// 26.6: giving up crossed pawns to win a rook is a gain.
    pub pawn_for_rook_is_gain: bool,
    /// 26.6 (`just_crossed_pawn_is_material`, reading `just-crossed-pawn`): is a pawn taken on
    /// the ply after the one on which it crossed the river worth its floating value (true,
    /// the 1999 text, which does not say) or nothing (false: 立即吃掉刚过河的兵也不算得子)?
    pub just_crossed_pawn_is_material: bool,
    /// 27.2: pawn threats count as chases in mutual perpetual attack.
    pub pawn_mutual_attack: bool,
    /// 27.3 / 26.2: the key-point exception: `targets` (only the advisor/elephant chases become
    /// idle, the rest of the move keeps its nature) or `move` (the move is idle).
    pub key_point_scope: Option<String>,
    /// 27.3 / 26.2 `defending_side`: the exception holds only for the side holding out for a draw
    /// (守和方): the opponent's attacking pieces are worth more than the mover's last one, or as
    /// much with at least as much material in all (reading `key-point-2011`).
    pub key_point_defending: bool,
    /// 2011 26.5: a protector's or pinned piece's chase that loses value is idle.
    pub protector_chase_needs_gain: bool,
    /// After a must-change ruling, how many more times the side that had to change may repeat
    /// the cycle before it loses where the last of them ends (`procedure`, the must-change
    /// entry's `loses_after_further_cycles`; 1999 24.3, 2011 4.1.5: once, reading
    /// `repeat-after-must-change`); `None`: judging stops at the ruling.
    pub loses_after_further_cycles: Option<u32>,
    /// King-answers-check exception (2011 26.1.2; 1999 reading).
    pub king_answer_idle: bool,
    /// 2011 26.9: a mate that needs the mover to take a piece it offers in exchange is no kill.
    pub kill_avoids_offered: bool,
    /// 25.3 / 26.6: a pawn won by a line of consecutive checks is no gain.
    pub pawn_by_checks_no_gain: bool,
    /// Article numbers by entry id (after renumbering), for citations.
    pub articles: BTreeMap<String, String>,
    /// Article of each class definition (`check` -> `28.1`).
    pub class_articles: BTreeMap<String, String>,
    /// Chinese names of the classes.
    pub class_zh: BTreeMap<String, String>,
    /// 28.6 / 24.5 offer (献): any enemy piece may take the offered piece (`taker_2011: any`),
    /// not only one of the same type (1999: 對方同兵種子).
    pub offer_any_taker: bool,
    /// Every interpretation recorded in the rule set (base and overlay).
    pub interpretations: Vec<Interpretation>,
    /// How single moves are classified (`judge.classifier`): `cxa` (the exchange test of
    /// 28.3 / 29, [`classify`](fn@super::classify)) or `axf` (the piece-pair chase of the Asian
    /// rules, [`axf::classify`](super::axf::classify)).
    pub classifier: String,
    /// Articles of a checkmate (`judge.mate_articles`; CXA 3.1, 4.1.1).
    pub mate_articles: Vec<String>,
    /// Articles of a stalemate (`judge.stalemate_articles`; CXA 3.2, 4.1.3).
    pub stalemate_articles: Vec<String>,
    /// Articles of the natural limit (`judge.natural_limit_articles`; CXA 4.2.4, 23.3).
    pub natural_limit_articles: Vec<String>,
    /// `judge.cycle_span: all`: the moves ruled on are all those since the first occurrence of
    /// the repeated position (AXF); otherwise (`last`, CXA) those since its previous occurrence,
    /// or, when the stretch before that one is not the same moves, both stretches (reading
    /// `repetition-count-positions`).
    pub cycle_from_first: bool,
    /// A piece whose chase by certain pieces counts whatever its protection (AXF 第三節 6:
    /// 馬或炮如長捉有根車亦作負; the chase condition's `target_piece` and `attacker_pieces`, as
    /// piece ids): (target, attackers). None when no condition names one.
    pub chase_despite_protection: Option<(String, Vec<String>)>,
}

/// The rule set ids bundled with the crate.
pub const RULE_SETS: &[&str] = &["cxa-1999", "cxa-2011", "axf"];

impl RuleSet {
    /// The embedded copy (`include_str!` of `spec/rules/`) of rule set `id`.
    pub fn embedded(id: &str) -> Result<RuleSet, RulesError> {
        RuleSet::load_from(id, &Source::Embedded)
    }

    /// Loads rule set `id` from `dir` (a copy of `spec/rules/`), so that an amended spec is
    /// evaluated without recompiling.
    pub fn load_dir(id: &str, dir: &Path) -> Result<RuleSet, RulesError> {
        RuleSet::load_from(id, &Source::Dir(dir))
    }

    fn load_from(id: &str, src: &Source) -> Result<RuleSet, RulesError> {
        if id.contains('/') || id.contains("..") || id == "terms" {
            return Err(RulesError::Unknown(id.to_string()));
        }
        let doc = resolve(id, src, 0)?;
        let terms = parse("terms.yaml", &src.read("terms.yaml")?)?;
        extract(id, &doc, &terms)
    }

    /// The article number of a spec entry id, after the edition's renumbering.
    pub fn article(&self, id: &str) -> String {
        self.articles
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// The article defining a move class in this edition (e.g. chase: 28.3 / 24.3).
    pub fn class_article(&self, class: MoveClass) -> String {
        self.class_articles
            .get(class.name())
            .cloned()
            .unwrap_or_default()
    }
}

// ---------------------------------------------------------------------------------------------
// Overlay resolution
// ---------------------------------------------------------------------------------------------

fn resolve(id: &str, src: &Source, depth: u32) -> Result<Value, RulesError> {
    let file = format!("{id}.yaml");
    if depth > 4 {
        return Err(invalid(&file, "extends chain too long"));
    }
    let doc = parse(&file, &src.read(&file)?)?;
    let Some(base_id) = doc.get("extends").and_then(Value::as_str) else {
        return Ok(doc);
    };
    let mut base = resolve(base_id, src, depth + 1)?;
    apply_overlay(&mut base, &doc, &file)?;
    Ok(base)
}

/// Visits every mapping with an `id` in the document.
fn for_each_entry(v: &mut Value, f: &mut impl FnMut(&mut Mapping)) {
    match v {
        Value::Mapping(m) => {
            if m.contains_key("id") {
                f(m);
            }
            for (_, child) in m.iter_mut() {
                for_each_entry(child, f);
            }
        }
        Value::Sequence(s) => {
            for child in s {
                for_each_entry(child, f);
            }
        }
        _ => {}
    }
}

fn id_of(v: &Value) -> Option<&str> {
    v.get("id").and_then(Value::as_str)
}

/// Applies a 2011-style overlay to its base document (the schema in the head of cxa-2011.yaml).
fn apply_overlay(base: &mut Value, overlay: &Value, file: &str) -> Result<(), RulesError> {
    let root = base
        .as_mapping_mut()
        .ok_or_else(|| invalid(file, "base is not a mapping"))?;
    for key in ["ruleset", "title", "source", "extends"] {
        if let Some(v) = overlay.get(key) {
            root.insert(Value::from(key), v.clone());
        }
    }
    // renumber: the entry keeps its id and content, its article changes.
    if let Some(ren) = overlay.get("renumber").and_then(Value::as_mapping) {
        let map: BTreeMap<String, String> = ren
            .iter()
            .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.as_str()?.to_string())))
            .collect();
        for_each_entry(base, &mut |m| {
            let id = m.get("id").and_then(Value::as_str).map(str::to_string);
            if let Some(new) = id.and_then(|id| map.get(&id)) {
                m.insert(
                    Value::from("article_base"),
                    m.get("article").cloned().unwrap_or(Value::Null),
                );
                m.insert(Value::from("article"), Value::from(new.as_str()));
            }
        });
    }
    let root = base.as_mapping_mut().expect("checked");
    // replace
    for r in overlay
        .get("replace")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let target = r
            .get("replaces")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(file, "replace entry without `replaces`"))?;
        let section = r
            .get("section")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(file, format!("replace {target}: no section")))?;
        let entry = r
            .get("entry")
            .ok_or_else(|| invalid(file, format!("replace {target}: no entry")))?;
        let sec = root
            .get_mut(section)
            .ok_or_else(|| invalid(file, format!("replace {target}: no section {section}")))?;
        match sec {
            Value::Sequence(s) => {
                let pos = s
                    .iter()
                    .position(|e| id_of(e) == Some(target))
                    .ok_or_else(|| invalid(file, format!("replace: {target} not in {section}")))?;
                s[pos] = entry.clone();
            }
            Value::Mapping(m) => {
                if m.get("id").and_then(Value::as_str) != Some(target) {
                    return Err(invalid(file, format!("replace: {section} is not {target}")));
                }
                for (k, v) in entry.as_mapping().into_iter().flatten() {
                    m.insert(k.clone(), v.clone());
                }
            }
            _ => {
                return Err(invalid(
                    file,
                    format!("replace: section {section} is not a list or map"),
                ))
            }
        }
    }
    // add
    for a in overlay
        .get("add")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let section = a
            .get("section")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(file, "add entry without section"))?;
        let entry = a
            .get("entry")
            .ok_or_else(|| invalid(file, "add entry without entry"))?
            .clone();
        let after = a.get("after").and_then(Value::as_str);
        let sec = root
            .entry(Value::from(section))
            .or_insert_with(|| Value::Sequence(Vec::new()));
        // A map section (e.g. `chase`) collects additions under `added`.
        let list = match sec {
            Value::Sequence(s) => s,
            Value::Mapping(m) => match m
                .entry(Value::from("added"))
                .or_insert_with(|| Value::Sequence(Vec::new()))
            {
                Value::Sequence(s) => s,
                _ => return Err(invalid(file, format!("add: {section}.added is not a list"))),
            },
            _ => {
                return Err(invalid(
                    file,
                    format!("add: section {section} is not a list or map"),
                ))
            }
        };
        let pos = after
            .and_then(|id| list.iter().position(|e| id_of(e) == Some(id)))
            .map(|p| p + 1)
            .unwrap_or(list.len());
        list.insert(pos, entry);
    }
    // remove
    let removed: Vec<String> = overlay
        .get("remove")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .filter_map(|r| id_of(r).map(str::to_string))
        .collect();
    fn prune(v: &mut Value, removed: &[String]) {
        match v {
            Value::Sequence(s) => {
                s.retain(|e| id_of(e).is_none_or(|id| !removed.iter().any(|r| r == id)));
                for e in s {
                    prune(e, removed);
                }
            }
            Value::Mapping(m) => {
                for (_, c) in m.iter_mut() {
                    prune(c, removed);
                }
            }
            _ => {}
        }
    }
    prune(base, &removed);
    // interpretations add to the base list; a top-level section replaced wholesale
    let root = base.as_mapping_mut().expect("checked");
    if let Some(extra) = overlay.get("interpretations").and_then(Value::as_sequence) {
        let list = root
            .entry(Value::from("interpretations"))
            .or_insert_with(|| Value::Sequence(Vec::new()));
        if let Value::Sequence(s) = list {
            s.extend(extra.iter().cloned());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Extraction of the machine fields
// ---------------------------------------------------------------------------------------------

fn s(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn extract(id: &str, doc: &Value, terms: &Value) -> Result<RuleSet, RulesError> {
    let file = format!("{id}.yaml");
    let param = |name: &str| -> Result<f64, RulesError> {
        doc.get("parameters")
            .and_then(Value::as_sequence)
            .into_iter()
            .flatten()
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name))
            .and_then(|p| p.get("value"))
            .and_then(Value::as_f64)
            .ok_or_else(|| invalid(&file, format!("parameter {name} missing")))
    };
    // Article numbers of every entry with an id.
    let mut articles = BTreeMap::new();
    let mut doc_copy = doc.clone();
    for_each_entry(&mut doc_copy, &mut |m| {
        if let (Some(i), Some(a)) = (m.get("id"), m.get("article")) {
            let a = match a {
                Value::String(t) => t.clone(),
                Value::Number(n) => n.to_string(),
                _ => return,
            };
            if let Some(i) = i.as_str() {
                articles.insert(i.to_string(), a);
            }
        }
    });
    let edition_2011 = doc
        .get("ruleset")
        .and_then(Value::as_str)
        .is_some_and(|r| r.contains("2011"));
    // Classes: terms.yaml (with the 2011 numbers when the rule set says so).
    let mut class_articles = BTreeMap::new();
    let mut class_zh = BTreeMap::new();
    for c in terms
        .get("classes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let name = s(c, "name");
        let art = if edition_2011 {
            s(c, "article_2011")
        } else {
            s(c, "article")
        };
        class_articles.insert(name.clone(), art);
        class_zh.insert(name, s(c, "zh_name"));
    }
    // 28.6 / 24.5: which enemy piece may take an offered piece, in this rule set's edition.
    let offer_any_taker = terms
        .get("classes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .find(|c| s(c, "name") == "offer")
        .is_some_and(|c| s(c, if edition_2011 { "taker_2011" } else { "taker" }) == "any");
    // A rule set with its own `classes` (AXF) cites its own term ids.
    for c in doc
        .get("classes")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        let (name, cid) = (s(c, "same_as"), s(c, "id"));
        if !name.is_empty() && !cid.is_empty() {
            class_articles.insert(name, cid);
        }
    }
    let reduce: BTreeMap<String, String> = terms
        .get("reduce_for_patterns")
        .and_then(|r| r.get("map"))
        .and_then(Value::as_mapping)
        .ok_or_else(|| invalid("terms.yaml", "reduce_for_patterns.map missing"))?
        .iter()
        .filter_map(|(k, v)| Some((k.as_str()?.to_string(), v.as_str()?.to_string())))
        .collect();
    // Severity.
    let severity: Vec<MoveClass> = strings(doc.get("severity").and_then(|s| s.get("order")))
        .iter()
        .map(|n| {
            MoveClass::from_name(n)
                .ok_or_else(|| invalid(&file, format!("severity: unknown class {n}")))
        })
        .collect::<Result<_, _>>()?;
    if severity.is_empty() {
        return Err(invalid(&file, "severity.order missing"));
    }
    // Patterns.
    let patterns: Vec<Pattern> = doc
        .get("patterns")
        .and_then(Value::as_sequence)
        .ok_or_else(|| invalid(&file, "patterns missing"))?
        .iter()
        .map(|p| Pattern {
            id: s(p, "id"),
            article: s(p, "article"),
            name: s(p, "name"),
            zh_name: s(p, "zh_name"),
            forbidden: s(p, "status") == "forbidden",
            ruling_key: s(p, "ruling_key"),
            matcher: p.get("match").map(Matcher::from_value).unwrap_or_default(),
        })
        .collect();
    // Ruling table.
    let ruling_table: Vec<RulingRow> = doc
        .get("ruling_table")
        .and_then(|t| t.get("rows"))
        .and_then(Value::as_sequence)
        .ok_or_else(|| invalid(&file, "ruling_table.rows missing"))?
        .iter()
        .map(|r| RulingRow {
            red: s(r, "red"),
            black: s(r, "black"),
            result: s(r, "result"),
            immediate: r.get("immediate").and_then(Value::as_bool).unwrap_or(false),
            must_change: r
                .get("must_change")
                .and_then(Value::as_str)
                .map(str::to_string),
            articles: strings(r.get("articles")),
        })
        .collect();
    // Both forbidden (2011 26.8).
    let both_forbidden = doc
        .get("both_forbidden")
        .and_then(Value::as_sequence)
        .and_then(|s| s.first())
        .map(|bf| {
            let steps = bf
                .get("steps")
                .and_then(Value::as_sequence)
                .cloned()
                .unwrap_or_default();
            let mut grave = Vec::new();
            let mut pairs = Vec::new();
            let mut step_articles = Vec::new();
            for st in &steps {
                step_articles.push(s(st, "article"));
                for g in st
                    .get("grave_patterns")
                    .and_then(Value::as_sequence)
                    .into_iter()
                    .flatten()
                {
                    grave.push(GravePattern {
                        name: s(g, "name"),
                        matcher: g.get("match").map(Matcher::from_value).unwrap_or_default(),
                    });
                }
                if let Some(cond) = st.get("rule").and_then(|r| r.get("if")) {
                    if let (Some(a), Some(b)) = (cond.get("side_a"), cond.get("side_b")) {
                        pairs.push(SingleAgainstJoint {
                            side_a: Matcher::from_value(a),
                            side_b: Matcher::from_value(b),
                            article: s(st, "article"),
                            neither_grave: cond.get("neither_grave").and_then(Value::as_bool)
                                == Some(true),
                        });
                    }
                }
            }
            BothForbidden {
                article: s(bf, "article"),
                step_articles,
                grave,
                pairs,
                qualifier_priority: strings(bf.get("qualifier_priority")),
            }
        });
    // Chase forms and switches.
    let chase = doc
        .get("chase")
        .ok_or_else(|| invalid(&file, "chase missing"))?;
    let mut chase_forms = strings(chase.get("forms"));
    for c in chase
        .get("conditions")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
    {
        chase_forms.extend(strings(c.get("forms")));
    }
    let chase_despite_protection = chase
        .get("conditions")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .find_map(|c| {
            let target = c.get("target_piece")?.as_str()?.to_string();
            Some((target, strings(c.get("attacker_pieces"))))
        });
    let joint_chase = chase
        .get("added")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .any(|e| s(e, "chase_qualifier") == "joint");
    let joint_chase_renewed = chase
        .get("added")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .any(|e| {
            e.get("counts_when_participant_moves")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        });
    let chase_flag = |key: &str| chase.get(key).and_then(Value::as_bool).unwrap_or(false);
    let exchange_over_two_squares = chase_flag("exchange_over_two_squares");
    let won_back_by_checks_is_protection = chase_flag("won_back_by_checks_is_protection");
    let exchange_answered_anywhere = chase_flag("exchange_answered_anywhere");
    let newness_in_context = chase_flag("newness_in_context");
    let exemption_by_capturer = chase_flag("exemption_by_capturer");
    let pin_renews_chase = chase_flag("pin_renews_chase");
    let material = doc.get("material");
    let material_flag = |key: &str| material.and_then(|m| m.get(key)).and_then(Value::as_bool);
    let pawn_for_rook_is_gain = material_flag("pawn_for_rook_is_gain").unwrap_or(false);
    let just_crossed_pawn_is_material =
        material_flag("just_crossed_pawn_is_material").unwrap_or(true);
    let exceptions: Vec<Value> = doc
        .get("exceptions")
        .and_then(Value::as_sequence)
        .cloned()
        .unwrap_or_default();
    let exception = |name: &str| exceptions.iter().find(|e| s(e, "name") == name).cloned();
    let pawn_mutual_attack = exception("pawn_chase").is_some_and(|e| e.get("undo_when").is_some());
    let key_point_scope = exception("defensive_key_point").map(|e| {
        e.get("reclass")
            .and_then(|r| r.get("scope"))
            .and_then(Value::as_str)
            .unwrap_or("move")
            .to_string()
    });
    let key_point_defending = exception("defensive_key_point")
        .and_then(|e| {
            e.get("reclass")
                .and_then(|r| r.get("defending_side"))
                .cloned()
        })
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let king_answer_idle =
        exception("king_answer_to_check").is_some() || exception("answer_to_check").is_some();
    let pawn_by_checks_no_gain = material_flag("pawn_won_by_checks_is_gain").is_some_and(|g| !g);
    let kill_avoids_offered = exception("same_type_exchange").is_some_and(|e| {
        e.get("reclass_kill")
            .and_then(|r| r.get("excludes_mates_taking_offered"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    });
    let exchange_needs_acceptance =
        exception("same_type_exchange").is_some_and(|e| e.get("reclass").is_some());
    let loses_after_further_cycles = doc
        .get("procedure")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .find_map(|e| e.get("loses_after_further_cycles").and_then(Value::as_u64))
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n >= 1);
    let protector_chase_needs_gain = doc
        .get("details")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .any(|d| s(d, "name") == "protector_or_pinned_chase");
    let interpretations = doc
        .get("interpretations")
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .map(|i| Interpretation {
            id: s(i, "id"),
            article: s(i, "article"),
            reading: s(i, "reading"),
            why: s(i, "why"),
        })
        .collect();
    let judge = doc.get("judge");
    let judge_list = |key: &str, default: &[&str]| {
        let v = strings(judge.and_then(|j| j.get(key)));
        if v.is_empty() {
            default.iter().map(|a| a.to_string()).collect()
        } else {
            v
        }
    };
    let classifier = judge
        .and_then(|j| j.get("classifier"))
        .and_then(Value::as_str)
        .unwrap_or("cxa")
        .to_string();
    if !matches!(classifier.as_str(), "cxa" | "axf") {
        return Err(invalid(
            &file,
            format!("judge.classifier: unknown classifier {classifier:?} (known: cxa, axf)"),
        ));
    }
    let natural_default = ["cxa1999.4.2.4", "cxa1999.23.3"]
        .map(|i| articles.get(i).cloned().unwrap_or_else(|| i.to_string()));
    let natural_default: Vec<&str> = natural_default.iter().map(String::as_str).collect();
    let mate_articles = judge_list("mate_articles", &["3.1", "4.1.1"]);
    let stalemate_articles = judge_list("stalemate_articles", &["3.2", "4.1.3"]);
    let natural_limit_articles = judge_list("natural_limit_articles", &natural_default);
    let cycle_from_first = match judge
        .and_then(|j| j.get("cycle_span"))
        .and_then(Value::as_str)
        .unwrap_or("last")
    {
        "last" => false,
        "all" => true,
        other => {
            return Err(invalid(
                &file,
                format!("judge.cycle_span: {other:?} is not last or all"),
            ))
        }
    };
    Ok(RuleSet {
        id: id.to_string(),
        title: s(doc, "title"),
        repetition_count: param("repetition_count")? as u32,
        natural_limit_moves: param("natural_limit_moves")? as u32,
        check_cap_moves: param("check_cap_moves")? as u32,
        kill_search_depth: param("kill_search_depth")? as u32,
        chase_search_depth: param("chase_search_depth")? as u32,
        mated_at_once_plies: param("mated_at_once_plies")? as u32,
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
        exchange_answered_anywhere,
        won_back_by_checks_is_protection,
        newness_in_context,
        exemption_by_capturer,
        pin_renews_chase,
        exchange_needs_acceptance,
        pawn_for_rook_is_gain,
        just_crossed_pawn_is_material,
        pawn_mutual_attack,
        key_point_scope,
        key_point_defending,
        protector_chase_needs_gain,
        loses_after_further_cycles,
        king_answer_idle,
        kill_avoids_offered,
        pawn_by_checks_no_gain,
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
