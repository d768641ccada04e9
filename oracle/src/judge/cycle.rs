//! From the classes of one cycle to a ruling: the pawn clause of 27.2 (1999), each side's
//! pattern (25.2; 2011 24.13–24.14), the ruling table (24.1–24.3, 26.1–26.4; 2011 4.1.4, 4.1.5,
//! 25.1–25.4) and the 2011 both-forbidden procedure (26.8).

use crate::coord::Side;

use super::classify::Classification;
use super::rules::{Pattern, RuleSet, SingleAgainstJoint};
use super::MoveClass;

/// A side's pattern in a cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct SidePattern {
    /// The pattern found (first match in the rule set's order).
    pub pattern: Option<Pattern>,
    /// The labels of each of the side's moves (reduced class and qualified chases).
    pub labels: Vec<Vec<String>>,
    /// For a perpetual chase: 分捉 (several targets in turn) or 輪捉 (several chasers of one
    /// target), or one piece chasing one piece. Descriptive only (both are 長捉 in CXA).
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
    pub must_change: Option<Side>,
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
    let all_attack = cycle.iter().all(|c| c.class.is_attack() || c.pawn_chase);
    if all_attack {
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
}

/// The labels of one move for pattern matching: the reduced class (28.9) and, for chases, the
/// qualified names `chase.rook`, `chase.unprotected`, ... (2011 26.8).
pub fn labels(rules: &RuleSet, c: &Classification) -> Vec<String> {
    let reduced = rules
        .reduce
        .get(c.class.name())
        .cloned()
        .unwrap_or_else(|| c.class.name().to_string());
    let mut l = vec![reduced.clone()];
    if reduced == "chase" {
        for q in &c.qualifiers {
            l.push(format!("chase.{q}"));
        }
        if c.qualifiers.is_empty() {
            l.push("chase.other".to_string());
        }
    }
    l
}

/// The pattern of `side`'s moves in the cycle (25.2 / 24.13–24.14): the first pattern of the
/// rule set that matches.
pub fn side_pattern(rules: &RuleSet, cycle: &[Classification], side: Side) -> SidePattern {
    let moves: Vec<&Classification> = cycle.iter().filter(|c| c.side == side).collect();
    let labels: Vec<Vec<String>> = moves.iter().map(|c| labels(rules, c)).collect();
    let pattern = rules
        .patterns
        .iter()
        .find(|p| p.matcher.matches(&labels))
        .cloned();
    let chase_kind = pattern
        .as_ref()
        .filter(|p| p.name == "perpetual_chase")
        .map(|_| {
            // Pieces are followed by identity, not by square (a rook chased from i9 to h9
            // is one piece).
            let targets: std::collections::BTreeSet<_> =
                moves.iter().flat_map(|c| c.target_ids.clone()).collect();
            let chasers: std::collections::BTreeSet<_> = moves.iter().map(|c| c.piece).collect();
            match (targets.len() > 1, chasers.len() > 1) {
                (true, _) => format!("分捉: {} different pieces chased in turn", targets.len()),
                (false, true) => {
                    format!("輪捉: one piece chased by {} pieces in turn", chasers.len())
                }
                (false, false) => {
                    // A joint chase (24.17) on every move or on some of them is named so
                    // (聯合捉子): its partners chase too.
                    let joint =
                        |c: &&Classification| c.qualifiers.iter().any(|q| q.starts_with("joint"));
                    if moves.iter().all(joint) {
                        "one piece chased jointly (聯合捉子)".to_string()
                    } else if moves.iter().any(joint) {
                        "one piece chased by one piece, jointly on some moves (聯合捉子)"
                            .to_string()
                    } else {
                        "one piece chased by one piece".to_string()
                    }
                }
            }
        })
        .or_else(|| perpetual_idle_kind(rules, &moves));
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

fn side_of(result_side: &str) -> Option<Side> {
    match result_side {
        "red" => Some(Side::Red),
        "black" => Some(Side::Black),
        _ => None,
    }
}

fn loses(side: Side) -> String {
    format!("{side}_loses")
}

/// The ruling for two side patterns (ruling table; 2011: 26.8 for both forbidden).
pub fn rule(rules: &RuleSet, red: &SidePattern, black: &SidePattern) -> Option<CycleRuling> {
    let rk = red.pattern.as_ref()?.ruling_key.clone();
    let bk = black.pattern.as_ref()?.ruling_key.clone();
    if let (Some(bf), "forbidden", "forbidden") = (&rules.both_forbidden, rk.as_str(), bk.as_str())
    {
        let grave = |labels: &[Vec<String>]| {
            bf.grave
                .iter()
                .find(|g| g.matcher.matches(labels))
                .map(|g| g.name.clone())
        };
        let gr = grave(&red.labels);
        let gb = grave(&black.labels);
        let step = |i: usize| bf.step_articles.get(i).cloned().unwrap_or_default();
        match (&gr, &gb) {
            (Some(g), None) | (None, Some(g)) => {
                let side = if gr.is_some() { Side::Red } else { Side::Black };
                // The later steps that say the same (26.8.2 / 26.8.3: a single chase against
                // the other side's joint chase) are cited too: the book reasons by them.
                let (la, lb) = if side == Side::Red {
                    (&red.labels, &black.labels)
                } else {
                    (&black.labels, &red.labels)
                };
                let also: Vec<String> = bf
                    .pairs
                    .iter()
                    .filter(|p| single_against_joint(p, la, lb))
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
                        "both sides forbidden; only {side}'s pattern is grave ({g}){against_joint}: {side} must change ({})",
                        step(0)
                    ),
                });
            }
            _ => {}
        }
        // 26.8.2 / 26.8.3 name a side whose chase is joint (对方联合捉). A step marked
        // `neither_grave` (the shipped ones) decides only when neither side is grave: a side that
        // makes a grave pattern of its own with single pieces is not that side, so two grave sides
        // draw (26.8.4). A step that holds for both sides decides nothing.
        let neither_grave = gr.is_none() && gb.is_none();
        for step in &bf.pairs {
            if step.neither_grave && !neither_grave {
                continue;
            }
            let red_changes = single_against_joint(step, &red.labels, &black.labels);
            let black_changes = single_against_joint(step, &black.labels, &red.labels);
            let side = match (red_changes, black_changes) {
                (true, false) => Side::Red,
                (false, true) => Side::Black,
                _ => continue,
            };
            let art = &step.article;
            return Some(CycleRuling {
                result: loses(side),
                immediate: false,
                must_change: Some(side),
                articles: vec![bf.article.clone(), art.clone()],
                reason: format!(
                    "both sides forbidden; {side} chases with single pieces against a joint chase: {side} must change ({art})"
                ),
            });
        }
        let last = bf.step_articles.last().cloned().unwrap_or_default();
        return Some(CycleRuling {
            result: "draw".to_string(),
            immediate: true,
            must_change: None,
            articles: vec![bf.article.clone(), last.clone()],
            reason: format!(
                "both sides forbidden and {}: draw ({last})",
                if gr.is_some() {
                    "both grave"
                } else {
                    "neither grave"
                }
            ),
        });
    }
    let row = rules
        .ruling_table
        .iter()
        .find(|r| r.red == rk && r.black == bk)?;
    let must_change = row.must_change.as_deref().and_then(side_of);
    let reason = match (row.result.as_str(), must_change) {
        ("draw", _) => format!("red {rk}, black {bk}: draw if neither changes"),
        (_, Some(s)) => format!(
            "red {rk}, black {bk}: {s} must change (變著) and loses if it repeats the cycle"
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

/// Does a step of 26.8.2 / 26.8.3 hold for a side: its labels match `side_a` (a perpetual chase
/// with single pieces) and the other side's match `side_b` (a joint chase)?
fn single_against_joint(
    step: &SingleAgainstJoint,
    mine: &[Vec<String>],
    theirs: &[Vec<String>],
) -> bool {
    step.side_a.matches(mine) && step.side_b.matches(theirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side's pattern from its moves' labels, as `side_pattern` finds it.
    fn side(rules: &RuleSet, moves: &[&[&str]]) -> SidePattern {
        let labels: Vec<Vec<String>> = moves
            .iter()
            .map(|m| m.iter().map(|l| l.to_string()).collect())
            .collect();
        let pattern = rules
            .patterns
            .iter()
            .find(|p| p.matcher.matches(&labels))
            .cloned();
        SidePattern {
            pattern,
            labels,
            chase_kind: None,
        }
    }

    /// `neither_grave` of a 26.8.2 / 26.8.3 step is the spec's: red chases unprotected pieces
    /// with single pieces; black checks, then chases an unprotected piece alone and jointly.
    /// Both are grave (长捉无根子, 一将一捉无根子): the shipped steps leave it to 26.8.4 (draw);
    /// with `neither_grave: false` 26.8.3 makes red change, and black in the colour swap.
    #[test]
    fn the_26_8_steps_decide_between_grave_sides_only_as_the_spec_says() {
        let shipped = RuleSet::embedded("cxa-2011").expect("cxa-2011");
        let one: &[&str] = &["chase", "chase.unprotected"];
        let single: &[&[&str]] = &[one, one];
        let joint: &[&[&str]] = &[
            &["check"],
            &["chase", "chase.unprotected", "chase.joint_unprotected"],
        ];
        let (red, black) = (side(&shipped, single), side(&shipped, joint));
        let r = rule(&shipped, &red, &black).expect("a ruling");
        assert_eq!((r.result.as_str(), r.must_change), ("draw", None), "{r:?}");
        assert!(r.articles.contains(&"26.8.4".to_string()), "{r:?}");
        let mut amended = shipped.clone();
        for step in &mut amended.both_forbidden.as_mut().expect("26.8").pairs {
            step.neither_grave = false;
        }
        let r = rule(&amended, &red, &black).expect("a ruling");
        assert_eq!(r.result, "red_loses", "{r:?}");
        assert_eq!(r.must_change, Some(Side::Red), "{r:?}");
        assert!(r.articles.contains(&"26.8.3".to_string()), "{r:?}");
        let r = rule(&amended, &black, &red).expect("a ruling");
        assert_eq!(r.must_change, Some(Side::Black), "{r:?}");
        // A step that holds for both sides decides nothing.
        let mixed: &[&str] = &["chase", "chase.unprotected", "chase.joint_unprotected"];
        let both: &[&[&str]] = &[mixed, mixed];
        let r = rule(&amended, &side(&shipped, both), &side(&shipped, both)).expect("a ruling");
        assert_eq!(r.result, "draw", "{r:?}");
    }
}
