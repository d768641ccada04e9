//! Mate by consecutive checks (the kill test of 1999 28.2, 2011 24.2: 殺), and whether a kill is
//! new (從殺到殺).

use std::collections::BTreeSet;

use crate::board::{Board, PieceId};
use crate::coord::OMove;

use super::*;
/// Does the checking move `k` of the side to move begin a mate by consecutive checks within
/// `plies` plies: after it the other side has no move, or every answer is mated within
/// `plies - 2`?
pub(crate) fn check_begins_mate(b: &Board, k: OMove, plies: u32) -> bool {
    let mut a = b.clone();
    apply(&mut a, k);
    if plies < 3 {
        return !a.has_legal_move();
    }
    let replies = a.legal_moves();
    replies.is_empty()
        || replies.into_iter().all(|r| {
            let mut c = a.clone();
            apply(&mut c, r);
            mate_by_checks(&c, plies - 2)
        })
}

/// The checking moves of the side to move that begin a mate by consecutive checks within
/// `plies` plies ([`check_begins_mate`]): the first moves of the kills (杀法) that 2011 26.1.2's
/// newness compares (reading `newness-in-context`, third part).
pub(crate) fn mating_first_moves(b: &Board, plies: u32) -> Vec<OMove> {
    if plies == 0 {
        return Vec::new();
    }
    checking_moves(b)
        .into_iter()
        .filter(|k| check_begins_mate(b, *k, plies))
        .collect()
}

/// Reading `newness-in-context`, third part (2011 26.1.2, 26.3, 24.18): after a piece other than
/// the king answered a check, does the mover (`after`, the other side passing) threaten a mate
/// whose first move began no mate before the opponent's checking move (`earlier`, passing as
/// well) and was not laid open by that check? `answers`: the position after each legal answer to
/// the check (passing too), with whether the king made it. A mate whose first move begins a mate
/// after every answer, or after an answer of the king (which adds nothing of its own, 26.1.2),
/// is one the check laid open (自毙), the checker's fault; the other mates are the answer's new
/// ones.
pub(crate) fn kill_is_new(
    after: &Board,
    earlier: &Board,
    answers: &[(Board, bool)],
    plies: u32,
) -> bool {
    let stood = mating_first_moves(earlier, plies);
    let each: Vec<(Vec<OMove>, bool)> = answers
        .iter()
        .map(|(a, by_king)| (mating_first_moves(a, plies), *by_king))
        .collect();
    let laid_open = |k: &OMove| {
        (!each.is_empty() && each.iter().all(|(s, _)| s.contains(k)))
            || each.iter().any(|(s, by_king)| *by_king && s.contains(k))
    };
    plies > 0
        && checking_moves(after)
            .into_iter()
            .any(|k| !stood.contains(&k) && !laid_open(&k) && check_begins_mate(after, k, plies))
}

/// Can the side to move force mate with consecutive checks within `plies` plies (its own moves
/// and the answers; a mate in one needs 1 ply)? (28.2 kill, parameter `kill_search_depth`.)
pub(crate) fn mate_by_checks(b: &Board, plies: u32) -> bool {
    mate_by_checks_in(b, plies, &BTreeSet::new())
}

/// As [`mate_by_checks`], with the checking side never capturing one of the pieces `avoid`
/// (the pieces offered in exchange: taking one is accepting the exchange, not a kill), except
/// in lines that the piece `own` opens with a check of its own that takes no such piece (the
/// offering piece is then part of a mating net, 2011 26.9; reading
/// `kill-not-by-accepting-exchange`).
pub(crate) fn mate_by_checks_avoiding(
    b: &Board,
    plies: u32,
    avoid: &BTreeSet<PieceId>,
    own: PieceId,
) -> bool {
    mate_opened_by(b, plies, avoid, own) || mate_by_checks_in(b, plies, avoid)
}

/// Does a check by the piece `own` (taking no piece of `avoid`) open a mate by consecutive
/// checks within `plies`?
pub(crate) fn mate_opened_by(
    b: &Board,
    plies: u32,
    avoid: &BTreeSet<PieceId>,
    own: PieceId,
) -> bool {
    checking_moves(b).into_iter().any(|k| {
        b.piece_id_at(k.from) == Some(own)
            && b.piece_id_at(k.to).is_none_or(|v| !avoid.contains(&v))
            && check_begins_mate(b, k, plies)
    })
}

pub(super) fn mate_by_checks_in(b: &Board, plies: u32, avoid: &BTreeSet<PieceId>) -> bool {
    // Iterative deepening: short mates are found without exploring the long lines.
    let mut d = 1;
    while d <= plies {
        if mate_within(b, d, avoid) {
            return true;
        }
        d += 2;
    }
    false
}

pub(super) fn mate_within(b: &Board, plies: u32, avoid: &BTreeSet<PieceId>) -> bool {
    memo::mate_within(b, plies, avoid, || mate_within_computed(b, plies, avoid))
}

/// [`mate_within`] computed (asked by the memo for a question it has no answer to yet).
pub(super) fn mate_within_computed(b: &Board, plies: u32, avoid: &BTreeSet<PieceId>) -> bool {
    if plies == 0 {
        return false;
    }
    for k in checking_moves(b) {
        if b.piece_id_at(k.to).is_some_and(|v| avoid.contains(&v)) {
            continue;
        }
        let mut a = b.clone();
        apply(&mut a, k);
        if plies < 3 {
            // Mated at once or not: only whether an answer exists.
            if !a.has_legal_move() {
                return true;
            }
            continue;
        }
        let replies = a.legal_moves();
        if replies.is_empty() {
            return true;
        }
        if replies.iter().all(|r| {
            let mut c = a.clone();
            apply(&mut c, *r);
            mate_within(&c, plies - 2, avoid)
        }) {
            return true;
        }
    }
    false
}
