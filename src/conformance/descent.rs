//! Comparing one perft answer with ours, and descending with divide to the exact position and
//! move where the engine goes wrong.
//!
//! At each node both sides split the count by root move. Different move sets pinpoint the bug
//! (missing or extra moves at that position); same moves with a different count for one move
//! send the descent into the position after that move, one ply shallower. Along the way the
//! engine's own consistency is checked: its split must add up to its total, and the count it
//! gives a move inside the tree must be the total it gives from the position after the move.

use std::collections::BTreeMap;

use crate::{Position, RankConvention};

use super::client::{EngineError, EngineIo};
use super::protocol::{engine_perft, position_command, rank_hint, PerftAnswer};
use super::report::{Finding, FindingKind};

/// Our split: canonical ICCS move → count.
pub fn our_divide(pos: &mut Position, depth: u32) -> BTreeMap<String, u64> {
    if depth == 0 {
        return BTreeMap::new();
    }
    pos.perft_divide(depth)
        .into_iter()
        .map(|(m, n)| (m.to_iccs(RankConvention::Iccs), n))
        .collect()
}

/// Plays `iccs` if it is a legal move of `pos`; false otherwise.
pub fn play_iccs(pos: &mut Position, iccs: &str) -> bool {
    let found = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_iccs(RankConvention::Iccs) == iccs);
    match found {
        Some(m) => {
            pos.play(m);
            true
        }
        None => false,
    }
}

/// What the comparison of one node says.
#[derive(Debug, PartialEq, Eq)]
pub enum NodeVerdict {
    /// Same moves, same counts, same total.
    Agree,
    /// The bug is here (or the engine cannot be followed further).
    Found(FindingKind, Vec<String>, Vec<String>, String),
    /// Same moves; this move's count differs: descend into it.
    Descend {
        /// The move (ICCS).
        mv: String,
        /// Our count.
        ours: u64,
        /// The engine's count.
        theirs: u64,
    },
}

/// Compares the engine's answer at a node with ours (`ours` split at `depth`, `our_total`).
pub fn compare_node(
    ours: &BTreeMap<String, u64>,
    our_total: u64,
    answer: &PerftAnswer,
    depth: u32,
    ranks: RankConvention,
) -> NodeVerdict {
    if !answer.is_clean() {
        let mut parts = Vec::new();
        if !answer.unreadable_moves.is_empty() {
            let mut part = format!(
                "moves that are not moves on the board in ranks {}: {}",
                ranks_name(ranks),
                answer.unreadable_moves.join(" ")
            );
            if let Some(hint) = rank_hint(&answer.unreadable_moves, ranks) {
                part.push_str(&format!(" ({hint})"));
            }
            parts.push(part);
        }
        if !answer.duplicate_moves.is_empty() {
            parts.push(format!(
                "moves listed twice: {}",
                answer.duplicate_moves.join(" ")
            ));
        }
        if !answer.malformed.is_empty() {
            parts.push(format!(
                "lines without a count: {}",
                answer
                    .malformed
                    .iter()
                    .map(|l| format!("{l:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        return NodeVerdict::Found(
            FindingKind::Unreadable,
            Vec::new(),
            Vec::new(),
            format!(
                "The engine's perft output cannot be read: {}.",
                parts.join("; ")
            ),
        );
    }
    if answer.divide.is_empty() && !ours.is_empty() && answer.total != 0 {
        if answer.total == our_total {
            return NodeVerdict::Agree;
        }
        return NodeVerdict::Found(
            FindingKind::NoDivide,
            Vec::new(),
            Vec::new(),
            format!(
                "The engine counts {} nodes at depth {depth} where there are {our_total}, but prints no `move: count` lines, so the descent stops here.",
                answer.total
            ),
        );
    }
    let missing: Vec<String> = ours
        .keys()
        .filter(|m| !answer.divide.contains_key(*m))
        .cloned()
        .collect();
    let extra: Vec<String> = answer
        .divide
        .keys()
        .filter(|m| !ours.contains_key(*m))
        .cloned()
        .collect();
    if !missing.is_empty() || !extra.is_empty() {
        let mut what = Vec::new();
        if !missing.is_empty() {
            what.push(format!("misses the legal move(s) {}", missing.join(" ")));
        }
        if !extra.is_empty() {
            what.push(format!("lists the illegal move(s) {}", extra.join(" ")));
        }
        return NodeVerdict::Found(
            FindingKind::MoveSet,
            missing,
            extra,
            format!("Here the engine {}.", what.join(" and ")),
        );
    }
    let sum: u64 = answer
        .divide
        .values()
        .fold(0u64, |acc, &n| acc.saturating_add(n));
    if sum != answer.total {
        return NodeVerdict::Found(
            FindingKind::DivideSum,
            Vec::new(),
            Vec::new(),
            format!(
                "The engine's `move: count` lines add up to {sum} but it reports a total of {}.",
                answer.total
            ),
        );
    }
    for (mv, &n) in ours {
        let theirs = answer.divide.get(mv).copied().unwrap_or(0);
        if theirs != n {
            if depth <= 1 {
                return NodeVerdict::Found(
                    FindingKind::LeafCount,
                    Vec::new(),
                    Vec::new(),
                    format!("At depth 1 the engine counts {theirs} for {mv}; a move counts 1."),
                );
            }
            return NodeVerdict::Descend {
                mv: mv.clone(),
                ours: n,
                theirs,
            };
        }
    }
    NodeVerdict::Agree
}

fn ranks_name(ranks: RankConvention) -> &'static str {
    match ranks {
        RankConvention::Iccs => "0-9",
        RankConvention::FairyStockfish => "1-10",
    }
}

/// Descends from a disagreeing answer at `root_fen`/`depth` to the finding. `first` is the
/// engine's answer at the root. `on_step` is told about each position visited (for progress).
pub fn descend(
    engine: &mut dyn EngineIo,
    ranks: RankConvention,
    root_fen: &str,
    depth: u32,
    first: PerftAnswer,
    mut on_step: impl FnMut(&[String]),
) -> Result<Finding, EngineError> {
    let mut pos = match Position::from_fen(root_fen) {
        Ok(p) => p,
        Err(e) => {
            return Ok(Finding {
                kind: FindingKind::Unreadable,
                path: Vec::new(),
                fen: root_fen.to_string(),
                depth,
                missing: Vec::new(),
                extra: Vec::new(),
                message: format!("internal: our library rejects the FEN it printed: {e}"),
            })
        }
    };
    let mut path: Vec<String> = Vec::new();
    let mut d = depth;
    let mut answer = first;
    // The engine's count for the move just played, as it gave it in the parent's split.
    let mut parent_claim: Option<u64> = None;
    loop {
        let ours = our_divide(&mut pos, d);
        let our_total: u64 = ours.values().sum();
        let fen = pos.to_fen();
        let finding = |kind, missing, extra, message| Finding {
            kind,
            path: path.clone(),
            fen: fen.clone(),
            depth: d,
            missing,
            extra,
            message,
        };
        let verdict = match compare_node(&ours, our_total, &answer, d, ranks) {
            // No split printed: find the differing move by asking the total of each child.
            NodeVerdict::Found(FindingKind::NoDivide, ..) if d >= 2 => {
                match child_totals(engine, ranks, root_fen, &path, &ours, d)? {
                    Some((mv, ours, theirs)) => NodeVerdict::Descend { mv, ours, theirs },
                    None => NodeVerdict::Found(
                        FindingKind::NoDivide,
                        Vec::new(),
                        Vec::new(),
                        format!(
                            "The engine counts {} nodes at depth {d} where there are {our_total}, yet from each position after a legal move it counts right; it prints no `move: count` lines.",
                            answer.total
                        ),
                    ),
                }
            }
            NodeVerdict::Found(FindingKind::NoDivide, ..) => NodeVerdict::Found(
                FindingKind::NoDivide,
                Vec::new(),
                Vec::new(),
                format!(
                    "The engine counts {} legal moves here where there are {our_total} ({}); it prints no `move: count` lines, so which move it gets wrong is not known.",
                    answer.total,
                    ours.keys().cloned().collect::<Vec<_>>().join(" ")
                ),
            ),
            other => other,
        };
        match verdict {
            NodeVerdict::Found(kind, missing, extra, message) => {
                return Ok(finding(kind, missing, extra, message));
            }
            NodeVerdict::Agree => {
                let message = match (parent_claim, path.last()) {
                    (Some(claim), Some(mv)) => format!(
                        "Inside the tree the engine counts {claim} for {mv} at depth {}, but from the position after {mv} (set up with `position ... moves`) it counts {} at depth {d}, which is right: its make/unmake during perft differs from setting up the position.",
                        d + 1,
                        answer.total
                    ),
                    _ => "The engine's counts agree on a second look: its answers are not reproducible.".to_string(),
                };
                return Ok(finding(
                    FindingKind::Inconsistent,
                    Vec::new(),
                    Vec::new(),
                    message,
                ));
            }
            NodeVerdict::Descend { mv, theirs, .. } => {
                if !play_iccs(&mut pos, &mv) {
                    let message = format!("internal: our own move {mv} does not replay");
                    return Ok(finding(
                        FindingKind::Unreadable,
                        Vec::new(),
                        Vec::new(),
                        message,
                    ));
                }
                path.push(mv);
                d -= 1;
                parent_claim = Some(theirs);
                on_step(&path);
                let command = position_command(root_fen, &path, ranks);
                answer = engine_perft(engine, &command, d, ranks)?;
            }
        }
    }
}

/// For an engine that prints only totals: asks the total from the position after each of our
/// moves (depth `d - 1`) and returns the first move whose count differs (move, ours, theirs).
fn child_totals(
    engine: &mut dyn EngineIo,
    ranks: RankConvention,
    root_fen: &str,
    path: &[String],
    ours: &BTreeMap<String, u64>,
    d: u32,
) -> Result<Option<(String, u64, u64)>, EngineError> {
    for (mv, &n) in ours {
        let mut child_path = path.to_vec();
        child_path.push(mv.clone());
        let command = position_command(root_fen, &child_path, ranks);
        let answer = engine_perft(engine, &command, d - 1, ranks)?;
        if answer.total != n {
            return Ok(Some((mv.clone(), n, answer.total)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(divide: &[(&str, u64)], total: u64) -> PerftAnswer {
        PerftAnswer {
            divide: divide.iter().map(|&(m, n)| (m.to_string(), n)).collect(),
            total,
            ..PerftAnswer::default()
        }
    }

    fn ours(divide: &[(&str, u64)]) -> BTreeMap<String, u64> {
        divide.iter().map(|&(m, n)| (m.to_string(), n)).collect()
    }

    #[test]
    fn same_split_agrees() {
        let o = ours(&[("a0a1", 3), ("b0c2", 4)]);
        let a = answer(&[("a0a1", 3), ("b0c2", 4)], 7);
        assert_eq!(
            compare_node(&o, 7, &a, 2, RankConvention::Iccs),
            NodeVerdict::Agree
        );
    }

    #[test]
    fn missing_and_extra_moves_are_pinpointed() {
        let o = ours(&[("a0a1", 1), ("b0c2", 1)]);
        let a = answer(&[("a0a1", 1), ("b0d1", 1)], 2);
        match compare_node(&o, 2, &a, 1, RankConvention::Iccs) {
            NodeVerdict::Found(FindingKind::MoveSet, missing, extra, _) => {
                assert_eq!(missing, ["b0c2"]);
                assert_eq!(extra, ["b0d1"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn count_difference_descends_into_the_first_differing_move() {
        let o = ours(&[("a0a1", 3), ("b0c2", 4)]);
        let a = answer(&[("a0a1", 3), ("b0c2", 5)], 8);
        assert_eq!(
            compare_node(&o, 7, &a, 2, RankConvention::Iccs),
            NodeVerdict::Descend {
                mv: "b0c2".into(),
                ours: 4,
                theirs: 5
            }
        );
    }

    #[test]
    fn inconsistent_totals_and_missing_divide_are_reported() {
        let o = ours(&[("a0a1", 3), ("b0c2", 4)]);
        let a = answer(&[("a0a1", 3), ("b0c2", 4)], 9);
        assert!(matches!(
            compare_node(&o, 7, &a, 2, RankConvention::Iccs),
            NodeVerdict::Found(FindingKind::DivideSum, ..)
        ));
        let a = answer(&[], 9);
        assert!(matches!(
            compare_node(&o, 7, &a, 2, RankConvention::Iccs),
            NodeVerdict::Found(FindingKind::NoDivide, ..)
        ));
        let a = answer(&[], 7);
        assert_eq!(
            compare_node(&o, 7, &a, 2, RankConvention::Iccs),
            NodeVerdict::Agree
        );
        let a = answer(&[("a0a1", 1), ("b0c2", 2)], 3);
        let o1 = ours(&[("a0a1", 1), ("b0c2", 1)]);
        assert!(matches!(
            compare_node(&o1, 2, &a, 1, RankConvention::Iccs),
            NodeVerdict::Found(FindingKind::LeafCount, ..)
        ));
    }

    #[test]
    fn unreadable_moves_hint_at_the_rank_numbering() {
        let o = ours(&[("b9c7", 1)]);
        let mut a = answer(&[], 1);
        a.unreadable_moves.push("b10c8".into());
        match compare_node(&o, 1, &a, 1, RankConvention::Iccs) {
            NodeVerdict::Found(FindingKind::Unreadable, _, _, message) => {
                assert!(message.contains("--ranks 1-10"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
