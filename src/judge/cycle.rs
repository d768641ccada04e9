//! From the classes of one cycle to a ruling: the pawn clause of 27.2 (1999), each side's
//! pattern (25.2; 2011 24.13–24.14), the ruling table (24.1–24.3, 26.1–26.4; 2011 4.1.4, 4.1.5,
//! 25.1–25.4) and the 2011 both-forbidden procedure (26.8). A port of the oracle's
//! `judge/cycle.rs`, with the same texts.

use std::borrow::Cow;

use super::analysis::id_bit;
use super::track::PieceId;
use super::{Classification, MoveClass, Pattern, RuleSet, SingleAgainstJoint};
use crate::Color;

/// A side's pattern in a cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct SidePattern<'r> {
    /// The pattern found (first match in the rule set's order).
    pub pattern: Option<&'r Pattern>,
    /// The labels of each of the side's moves (reduced class and qualified chases).
    pub labels: Vec<Vec<Cow<'r, str>>>,
    /// For a perpetual chase: 分捉 (several targets in turn) or 輪捉 (several chasers of one
    /// target), or one piece chasing one piece (jointly or not). Descriptive only (both are 長捉
    /// in CXA). For a side that makes the same kind of idle move throughout: 長兑, 長獻, 長攔 or
    /// 長跟 (28.13 / 24.12).
    pub chase_kind: Option<String>,
}

/// The ruling of a cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct CycleRuling {
    /// `red_loses` | `black_loses` | `draw`.
    pub result: String,
    /// Outright?
    pub immediate: bool,
    /// The side that must change.
    pub must_change: Option<Color>,
    /// Articles.
    pub articles: Vec<String>,
    /// Why, in English.
    pub reason: String,
}

/// 1999 art. 27.2: a pawn's threats are idle unless, counting them as chases, every move of
/// both sides in the cycle is an attack (相互長打); then they are chases.
pub fn apply_pawn_clause(rules: &RuleSet, cycle: &mut [Classification]) {
    if !rules.pawn_mutual_attack || !cycle.iter().any(|c| c.pawn_chase) {
        return;
    }
    if !cycle.iter().all(|c| c.class.is_attack() || c.pawn_chase) {
        return;
    }
    let art = rules.article("cxa1999.27.2");
    for c in cycle
        .iter_mut()
        .filter(|c| c.pawn_chase && !c.class.is_attack())
    {
        c.class = MoveClass::Chase;
        c.targets = c.pawn_targets.clone();
        c.articles = vec![rules.class_article(MoveClass::Chase), art.clone()];
        c.note = format!(
            "a pawn's threat, counted as a chase because both sides attack on every move (相互長打, {art})"
        );
    }
}

/// The labels of one move for pattern matching: the reduced class (28.9) and, for chases, the
/// qualified names `chase.rook`, `chase.unprotected`, ... (2011 26.8). Borrowed from the rule
/// set where they can be (the qualifiers of the classifiers are known names).
pub fn labels<'r>(rules: &'r RuleSet, c: &Classification) -> Vec<Cow<'r, str>> {
    let reduced: &'r str = rules
        .reduce
        .get(c.class.name())
        .map_or(c.class.name(), |r| r.as_str());
    let chase = reduced == "chase";
    let mut out = Vec::with_capacity(if chase {
        1 + c.qualifiers.len().max(1)
    } else {
        1
    });
    out.push(Cow::Borrowed(reduced));
    if chase {
        if c.qualifiers.is_empty() {
            out.push(Cow::Borrowed("chase.other"));
        } else {
            out.extend(c.qualifiers.iter().map(|q| match chase_label(q) {
                Some(l) => Cow::Borrowed(l),
                None => Cow::Owned(format!("chase.{q}")),
            }));
        }
    }
    out
}

/// `chase.{q}` for the qualifiers the classifiers give (2011 26.8 and the AXF chases).
fn chase_label(q: &str) -> Option<&'static str> {
    Some(match q {
        "joint_rook" => "chase.joint_rook",
        "joint_unprotected" => "chase.joint_unprotected",
        "rook" => "chase.rook",
        "unprotected" => "chase.unprotected",
        "underprotected" => "chase.underprotected",
        "persistent" => "chase.persistent",
        "several_targets" => "chase.several_targets",
        _ => return None,
    })
}

/// The pattern of `side`'s moves in the cycle (25.2 / 24.13–24.14): the first pattern of the
/// rule set that matches.
pub fn side_pattern<'r>(
    rules: &'r RuleSet,
    cycle: &[Classification],
    side: Color,
) -> SidePattern<'r> {
    let moves: Vec<&Classification> = cycle.iter().filter(|c| c.side == side).collect();
    let labels: Vec<Vec<Cow<'r, str>>> = moves.iter().map(|c| labels(rules, c)).collect();
    let pattern = rules
        .patterns
        .iter()
        .find(|p| p.matcher.matches_labels(&labels));
    let chase_kind = match &pattern {
        Some(p) if p.name == "perpetual_chase" => {
            // Pieces are followed by identity, not by square (sets of ids, as bits).
            let ids = |it: &mut dyn Iterator<Item = PieceId>| it.fold(0, |a, id| a | id_bit(id));
            let targets =
                ids(&mut moves.iter().flat_map(|c| c.target_ids.iter().copied())).count_ones();
            let chasers = ids(&mut moves.iter().map(|c| c.piece)).count_ones();
            Some(if targets > 1 {
                format!("分捉: {targets} different pieces chased in turn")
            } else if chasers > 1 {
                format!("輪捉: one piece chased by {chasers} pieces in turn")
            } else {
                one_chaser(&moves)
            })
        }
        _ => perpetual_idle_kind(rules, &moves),
    };
    SidePattern {
        pattern,
        labels,
        chase_kind,
    }
}

/// 28.13 / 2011 24.12: a side whose every move in the cycle is the same kind of idle move makes
/// 長兑 (likewise 長獻, 長攔, 長跟: "類似解釋也適用于"); descriptive only, each is idle. `None`
/// for other patterns and for a rule set without the term (the Asian rules).
fn perpetual_idle_kind(rules: &RuleSet, moves: &[&Classification]) -> Option<String> {
    let first = moves.first()?.class;
    let (zh, what) = match first {
        MoveClass::Exchange => ("長兑", "an exchange offered"),
        MoveClass::Offer => ("長獻", "a piece offered"),
        MoveClass::Block => ("長攔", "a block"),
        MoveClass::Follow => ("長跟", "a follow"),
        _ => return None,
    };
    let article = rules.article("cxa1999.28.13");
    (moves.iter().all(|c| c.class == first) && !article.starts_with("cxa"))
        .then(|| format!("{zh}: {what} on every move ({article})"))
}

/// The kind of a perpetual chase of one piece by one moved piece: a joint chase (24.17) on
/// every move or on some of them is named so (聯合捉子), since its partners chase too.
fn one_chaser(moves: &[&Classification]) -> String {
    let joint = |c: &&Classification| c.qualifiers.iter().any(|q| q.starts_with("joint"));
    if moves.iter().all(joint) {
        "one piece chased jointly (聯合捉子)".to_string()
    } else if moves.iter().any(joint) {
        "one piece chased by one piece, jointly on some moves (聯合捉子)".to_string()
    } else {
        "one piece chased by one piece".to_string()
    }
}

fn loses(side: Color) -> String {
    format!("{}_loses", side.name())
}

/// Does a step of 26.8.2 / 26.8.3 hold for a side: its labels match `side_a` (a perpetual chase
/// with single pieces) and the other side's match `side_b` (a joint chase)?
fn single_against_joint(
    step: &SingleAgainstJoint,
    mine: &[Vec<Cow<'_, str>>],
    theirs: &[Vec<Cow<'_, str>>],
) -> bool {
    step.side_a.matches_labels(mine) && step.side_b.matches_labels(theirs)
}

/// The ruling for two side patterns (ruling table; 2011: 26.8 for both forbidden).
pub fn rule(
    rules: &RuleSet,
    red: &SidePattern<'_>,
    black: &SidePattern<'_>,
) -> Option<CycleRuling> {
    let rk = red.pattern.as_ref()?.ruling_key.as_str();
    let bk = black.pattern.as_ref()?.ruling_key.as_str();
    if let (Some(bf), "forbidden", "forbidden") = (&rules.both_forbidden, rk, bk) {
        let grave = |labels: &[Vec<Cow<'_, str>>]| {
            bf.grave
                .iter()
                .find(|g| g.matcher.matches_labels(labels))
                .map(|g| g.name.clone())
        };
        let (gr, gb) = (grave(&red.labels), grave(&black.labels));
        let step = |i: usize| bf.step_articles.get(i).cloned().unwrap_or_default();
        let lone = match (&gr, &gb) {
            (Some(g), None) => Some((Color::Red, g)),
            (None, Some(g)) => Some((Color::Black, g)),
            _ => None,
        };
        if let Some((side, g)) = lone {
            let s = side.name();
            // The later steps that say the same (26.8.2 / 26.8.3) are cited too.
            let (mine, theirs) = if side == Color::Red {
                (&red.labels, &black.labels)
            } else {
                (&black.labels, &red.labels)
            };
            let also: Vec<String> = bf
                .pairs
                .iter()
                .filter(|p| single_against_joint(p, mine, theirs))
                .map(|p| p.article.clone())
                .collect();
            let mut articles = vec![bf.article.clone(), step(0)];
            articles.extend(also.iter().cloned());
            let against_joint = if also.is_empty() {
                String::new()
            } else {
                format!(
                    "; it chases with single pieces against a joint chase ({})",
                    also.join(", ")
                )
            };
            return Some(CycleRuling {
                result: loses(side),
                immediate: false,
                must_change: Some(side),
                articles,
                reason: format!(
                    "both sides forbidden; only {s}'s pattern is grave ({g}){against_joint}: {s} must change ({})",
                    step(0)
                ),
            });
        }
        // 26.8.2 / 26.8.3 name a side whose chase is joint (对方联合捉): with `neither_grave` (the
        // shipped steps), a side that makes a grave pattern of its own with single pieces is not
        // that side, so two grave sides draw (26.8.4). The shipped steps then only add their
        // article to a 26.8.1 ruling; they decide alone only if an amended 26.8.1 no longer makes
        // the single chaser grave. A step that holds for both sides decides nothing.
        let neither_grave = gr.is_none() && gb.is_none();
        for p in bf
            .pairs
            .iter()
            .filter(|p| neither_grave || !p.neither_grave)
        {
            let red_changes = single_against_joint(p, &red.labels, &black.labels);
            let black_changes = single_against_joint(p, &black.labels, &red.labels);
            if red_changes != black_changes {
                let side = if red_changes {
                    Color::Red
                } else {
                    Color::Black
                };
                let (s, art) = (side.name(), &p.article);
                return Some(CycleRuling {
                    result: loses(side),
                    immediate: false,
                    must_change: Some(side),
                    articles: vec![bf.article.clone(), art.clone()],
                    reason: format!(
                        "both sides forbidden; {s} chases with single pieces against a joint chase: {s} must change ({art})"
                    ),
                });
            }
        }
        let last = bf.step_articles.last().cloned().unwrap_or_default();
        let which = if gr.is_some() {
            "both grave"
        } else {
            "neither grave"
        };
        return Some(CycleRuling {
            result: "draw".to_string(),
            immediate: true,
            must_change: None,
            articles: vec![bf.article.clone(), last.clone()],
            reason: format!("both sides forbidden and {which}: draw ({last})"),
        });
    }
    let row = rules
        .ruling_table
        .iter()
        .find(|r| r.red == rk && r.black == bk)?;
    let must_change = match row.must_change.as_deref() {
        Some("red") => Some(Color::Red),
        Some("black") => Some(Color::Black),
        _ => None,
    };
    let reason = match (row.result.as_str(), must_change) {
        ("draw", _) => format!("red {rk}, black {bk}: draw if neither changes"),
        (_, Some(s)) => format!(
            "red {rk}, black {bk}: {} must change (變著) and loses if it repeats the cycle",
            s.name()
        ),
        (r, None) => format!("red {rk}, black {bk}: {}", r.replace('_', " ")),
    };
    Some(CycleRuling {
        result: row.result.clone(),
        immediate: row.immediate,
        must_change,
        articles: row.articles.clone(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Builtin;

    /// A side's pattern from its moves' labels, as `side_pattern` finds it.
    fn side<'r>(rules: &'r RuleSet, moves: &[&[&'static str]]) -> SidePattern<'r> {
        let labels: Vec<Vec<Cow<'r, str>>> = moves
            .iter()
            .map(|m| m.iter().map(|&l| Cow::Borrowed(l)).collect())
            .collect();
        let pattern = rules
            .patterns
            .iter()
            .find(|p| p.matcher.matches_labels(&labels));
        SidePattern {
            pattern,
            labels,
            chase_kind: None,
        }
    }

    /// `neither_grave` of a 26.8.2 / 26.8.3 step is the spec's (the oracle's test of the same
    /// name): both sides grave, the shipped steps draw by 26.8.4; with `neither_grave: false`
    /// 26.8.3 makes the single chaser change, whichever colour it is.
    #[test]
    fn the_26_8_steps_decide_between_grave_sides_only_as_the_spec_says() {
        let shipped = RuleSet::builtin("cxa-2011").expect("cxa-2011");
        let one: &[&str] = &["chase", "chase.unprotected"];
        let single: &[&[&str]] = &[one, one];
        let joint: &[&[&str]] = &[
            &["check"],
            &["chase", "chase.unprotected", "chase.joint_unprotected"],
        ];
        let r = rule(shipped, &side(shipped, single), &side(shipped, joint)).expect("a ruling");
        assert_eq!((r.result.as_str(), r.must_change), ("draw", None), "{r:?}");
        assert!(r.articles.iter().any(|a| a == "26.8.4"), "{r:?}");
        let mut amended = shipped.clone();
        for step in &mut amended.both_forbidden.as_mut().expect("26.8").pairs {
            step.neither_grave = false;
        }
        let (red, black) = (side(&amended, single), side(&amended, joint));
        let r = rule(&amended, &red, &black).expect("a ruling");
        assert_eq!(r.result, "red_loses", "{r:?}");
        assert_eq!(r.must_change, Some(Color::Red), "{r:?}");
        assert!(r.articles.iter().any(|a| a == "26.8.3"), "{r:?}");
        let r = rule(&amended, &black, &red).expect("a ruling");
        assert_eq!(r.must_change, Some(Color::Black), "{r:?}");
        let mixed: &[&str] = &["chase", "chase.unprotected", "chase.joint_unprotected"];
        let both: &[&[&str]] = &[mixed, mixed];
        let r = rule(&amended, &side(&amended, both), &side(&amended, both)).expect("a ruling");
        assert_eq!(r.result, "draw", "{r:?}");
    }
}
