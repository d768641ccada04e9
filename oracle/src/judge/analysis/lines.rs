//! Lines of consecutive checks and captures with gain (2011 24.3, 24.15–24.17; 1999 28.3,
//! 29.1–29.4): what a line of checks (抽將, 連將) wins against the best defence, what a side can
//! win now (a capture with gain or such a line), and the checking moves they start from.

use std::collections::{BTreeMap, BTreeSet};

use crate::board::{Board, PieceId};
use crate::coord::OMove;

use super::*;
/// The legal moves of the side to move that give check.
pub(crate) fn checking_moves(b: &Board) -> Vec<OMove> {
    memo::checking_moves(b, || checking_moves_computed(b))
}

/// [`checking_moves`] computed (asked by the memo for a question it has no answer to yet).
pub(super) fn checking_moves_computed(b: &Board) -> Vec<OMove> {
    let them = b.st.turn.opponent();
    b.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut a = b.clone();
            apply(&mut a, *m);
            a.in_check(them)
        })
        .collect()
}

/// What a line of play wins: the gain, and each piece won with the pieces that capture it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Won {
    /// Net material gain.
    pub gain: f64,
    /// The pieces won, each with the pieces that capture it. For a line of checks: the pieces
    /// the defender's best answers lose (reading `won-against-the-best-defence`).
    pub targets: BTreeMap<PieceId, BTreeSet<PieceId>>,
    /// For a line of checks: each piece of `targets` with the pieces that give a check on the
    /// way to it (the first checking piece and the checkers of the lines after the answers
    /// that count); empty for a direct capture.
    pub checkers: BTreeMap<PieceId, BTreeSet<PieceId>>,
    /// For a line of checks: the pieces lost after some answer (the pieces the line attacks,
    /// whether or not the best defence gives them up); else the same pieces as `targets`.
    pub attacked: BTreeSet<PieceId>,
}

/// After the checking move `k`, the least gain the checker is sure of against every answer,
/// with the pieces the best answers lose in the end, each with the pieces that capture it, and
/// the pieces lost after some answer (reading `won-against-the-best-defence`); `None` when some
/// answer leaves it no gain, when no answer loses a piece after the first capture, or when the
/// check mates (a kill, not a chase).
pub(crate) fn check_line(cx: &Ctx, b: &Board, k: OMove, depth: u32) -> Option<Won> {
    check_line_above(cx, b, k, depth, f64::NEG_INFINITY)
}

/// [`check_line`] when only a line that nets more than `floor` is wanted: the same answer when
/// the line nets more, else `None`. An answer that holds the checker to at most `floor` settles
/// it, and the other answers are not searched (the line nets the least of what its answers
/// leave).
pub(crate) fn check_line_above(
    cx: &Ctx,
    b: &Board,
    k: OMove,
    depth: u32,
    floor: f64,
) -> Option<Won> {
    let cx = &cx.searching();
    memo::check_line(cx, b, k, depth, floor, || {
        check_line_computed(cx, b, k, depth, floor)
    })
}

/// [`check_line_above`] computed (asked by the memo for a question it has no answer to yet).
pub(super) fn check_line_computed(
    cx: &Ctx,
    b: &Board,
    k: OMove,
    depth: u32,
    floor: f64,
) -> Option<Won> {
    let rs = cx.rs;
    let first = b.piece_id_at(k.to).map(|v| value(rs, b, v)).unwrap_or(0.0);
    // A pawn's check that takes a piece, the pawn then taken back: a pawn given for that piece,
    // level unless it is a rook in 2011 (25.3 / 2011 26.6, 送兵换…其他一子不算得子).
    let pawn_level = is_pawn(b, b.piece_id_at(k.from).expect("a mover"))
        && b.piece_id_at(k.to)
            .is_some_and(|t| !pawn_trade_is_gain(rs, b, t));
    let mut a = b.clone();
    apply(&mut a, k);
    let replies = a.legal_moves();
    if replies.is_empty() {
        return None;
    }
    // Each answer that neither refutes the line nor lets the checker mate: what the checker
    // nets after it, and the pieces it then wins.
    let mut answers: Vec<Won> = Vec::new();
    // The answers that allow mate and leave the checker a gain: they count only when every
    // answer allows mate.
    let mut mated_answers: Vec<Won> = Vec::new();
    for r in replies {
        let lost_piece = a.piece_id_at(r.to);
        // Taking back the checking pawn that took a piece: the trade is level, and the pawn is
        // given for that piece and what follows (一兵换取数子, 25.3 / 2011 26.6).
        let traded = pawn_level && r.to == k.to;
        let lost = if traded {
            first
        } else {
            lost_piece.map(|v| value(rs, &a, v)).unwrap_or(0.0)
        };
        let lost_pawn_only = traded || lost_piece.is_some_and(|v| is_pawn(&a, v));
        let mut c = a.clone();
        apply(&mut c, r);
        // The answer mates or stalemates the checker: no gain (29.4).
        if c.legal_moves().is_empty() {
            return None;
        }
        let sub = gain_after_answer(cx, &c, depth.saturating_sub(2));
        let mut total = first + sub.gain - lost;
        // A pawn sacrificed to win a piece is no gain (25.3), except for a rook in 2011 (26.6).
        if lost_pawn_only
            && sub.gain > 0.0
            && !sub.targets.keys().any(|t| pawn_trade_is_gain(rs, &c, *t))
        {
            total = first - lost;
        }
        // An answer after which the checker mates by consecutive checks is lost for the
        // defender, whatever material it keeps or gives (reading `defence-that-allows-mate`):
        // it never refutes the line, and while another answer escapes the mate it is no
        // defence, so the pieces it gives up are not what the line wins. When every answer
        // allows mate, the line is a kill that also wins what the answers keeping material give
        // up (殺兼捉). A mate that takes a piece offered in exchange is that exchange accepted,
        // no mate (reading `kill-not-by-accepting-exchange`).
        // What such an answer gives up is what the checker can take at once after it (a capture
        // with gain), not what a further line could collect by declining the mate (reading
        // `defence-that-allows-mate`).
        if mate_by_checks_in(&c, depth.saturating_sub(2), cx.offered) {
            if total > 0.0 {
                let at_once = best_gain(cx, &c, 1);
                mated_answers.push(Won {
                    gain: total,
                    targets: at_once.targets,
                    attacked: at_once.attacked,
                    checkers: BTreeMap::new(),
                });
            }
            continue;
        }
        if total <= 0.0 || total <= floor {
            return None;
        }
        answers.push(Won { gain: total, ..sub });
    }
    // Every answer allows mate: the line is a kill (殺兼捉), and it wins every piece one of
    // its answers gives up, as the defender saves none of them by being mated.
    let kill = answers.is_empty();
    if kill {
        answers = mated_answers;
        if answers.iter().any(|w| w.gain <= floor) {
            return None;
        }
    }
    // Every piece lost after some answer, with its capturers.
    let mut every = Won::default();
    for w in &answers {
        for (t, by) in &w.targets {
            every
                .targets
                .entry(*t)
                .or_default()
                .extend(by.iter().copied());
        }
        for (t, by) in &w.checkers {
            every
                .checkers
                .entry(*t)
                .or_default()
                .extend(by.iter().copied());
        }
    }
    let attacked: BTreeSet<PieceId> = every.targets.keys().copied().collect();
    if attacked.is_empty() {
        return None;
    }
    // The defender picks the answers that leave the checker least: what they lose is what the
    // line wins (reading `won-against-the-best-defence`), combined as ways of equal gain are.
    let gain = answers.iter().map(|w| w.gain).fold(f64::INFINITY, f64::min);
    let mut won = if kill {
        Won {
            targets: every.targets.clone(),
            checkers: every.checkers.clone(),
            ..Won::default()
        }
    } else {
        Won::together(answers.into_iter().filter(|w| w.gain == gain).collect())
    };
    let checker = b.piece_id_at(k.from).expect("a mover");
    if won.targets.is_empty() {
        // The best answers lose nothing after the piece the check took: that piece is what the
        // line wins, taken by the checking piece (a pawn so won is no gain: check_threats).
        won = match b.piece_id_at(k.to) {
            Some(taken) => Won {
                targets: BTreeMap::from([(taken, BTreeSet::from([checker]))]),
                ..Won::default()
            },
            None => every,
        };
    }
    // Asked about one piece: a line that does not win it wins nothing.
    if cx
        .aim_in(b)
        .is_some_and(|aim| !won.targets.contains_key(&aim))
    {
        return None;
    }
    // The checking piece takes part in the way to every piece the line wins.
    for t in won.targets.keys() {
        won.checkers.entry(*t).or_default().insert(checker);
    }
    Some(Won {
        gain,
        attacked,
        ..won
    })
}

/// What the checker nets, within `depth` plies, after the defender's answer `c` to its check
/// (the checker to move): [`best_gain`], unless the answer checks back (reading
/// `answer-that-checks-back`, 24.3). The checker must then answer that check before it can go
/// on, so it nets, by its best answer, what that answer takes less what the defender then wins
/// ([`best_gain`]: a capture, or a line of checks that wins material back), or what a line of
/// checks that the answer itself opens wins. An answer after which the defender mates at once is
/// never made (29.4). The result may be negative (the checker loses material); it is `-inf`
/// when every answer is mated at once. With fewer than two plies left (no ply for the defender
/// after the checker's answer) it is [`best_gain`].
pub(super) fn gain_after_answer(cx: &Ctx, c: &Board, depth: u32) -> Won {
    if depth < 2 || !c.in_check(c.side_to_move()) {
        return best_gain(cx, c, depth);
    }
    let rs = cx.rs;
    let mut ways: Vec<Won> = Vec::new();
    for m in c.legal_moves() {
        let mut d = c.clone();
        apply(&mut d, m);
        if mates_at_once(cx, &d) {
            continue;
        }
        let taken = c.piece_id_at(m.to);
        let mut gain = taken.map_or(0.0, |t| value(rs, c, t)) - best_gain(cx, &d, depth - 1).gain;
        // Asked about one piece: taking another wins nothing.
        if cx.aim_in(c).is_some_and(|aim| taken != Some(aim)) {
            gain = gain.min(0.0);
        }
        let mut way = Won {
            gain,
            ..Won::default()
        };
        if let Some(t) = taken.filter(|_| gain > 0.0) {
            let mover = c.piece_id_at(m.from).expect("a mover");
            way.targets.insert(t, BTreeSet::from([mover]));
            way.attacked.insert(t);
        }
        ways.push(way);
        if depth >= 3 && d.in_check(d.side_to_move()) {
            ways.extend(check_line(cx, c, m, depth));
        }
    }
    let most = ways
        .iter()
        .map(|w| w.gain)
        .fold(f64::NEG_INFINITY, f64::max);
    if most > 0.0 {
        Won::best_of(ways)
    } else {
        Won {
            gain: most,
            ..Won::default()
        }
    }
}

/// The best gain (≥ 0) the side to move can force now: a direct capture with gain or a check
/// line, with the pieces it wins and the pieces that capture them ([`Won::best_of`]).
pub(super) fn best_gain(cx: &Ctx, b: &Board, depth: u32) -> Won {
    let cx = &cx.searching();
    memo::best_gain(cx, b, depth, || best_gain_computed(cx, b, depth))
}

/// [`best_gain`] computed (asked by the memo for a question it has no answer to yet).
pub(super) fn best_gain_computed(cx: &Ctx, b: &Board, depth: u32) -> Won {
    if depth == 0 {
        return Won::default();
    }
    let mut ways: Vec<Won> = direct_threats_plain(cx, b)
        .into_iter()
        .map(|(target, gain, capturer)| Won {
            gain,
            targets: BTreeMap::from([(target, BTreeSet::from([capturer]))]),
            attacked: BTreeSet::from([target]),
            checkers: BTreeMap::new(),
        })
        .collect();
    if depth >= 3 {
        ways.extend(
            checking_moves(b)
                .into_iter()
                .filter_map(|k| check_line(cx, b, k, depth)),
        );
    }
    if let Some(aim) = cx.aim_in(b) {
        ways.retain(|w| w.targets.contains_key(&aim));
    }
    Won::best_of(ways)
}

impl Won {
    /// The best of several ways to win (captures, lines of checks): the greatest gain, and the
    /// pieces won by every way of that gain, each with all its capturers; when no piece is won
    /// by every such way (the side chooses which piece to win, a fork), every piece one of them
    /// wins. Which way a search meets first depends on the order of the moves, so on the side
    /// and the wing; the result does not (reading `equal-gains-together`).
    fn best_of(ways: Vec<Won>) -> Won {
        let gain = ways.iter().map(|w| w.gain).fold(0.0, f64::max);
        if gain <= 0.0 {
            return Won::default();
        }
        Won::together(ways.into_iter().filter(|w| w.gain == gain).collect())
    }

    /// Ways of the same gain together: the pieces every way wins, each with all its
    /// capturers; when no piece is won by every way, every piece one of them wins.
    fn together(tied: Vec<Won>) -> Won {
        let gain = tied.first().map_or(0.0, |w| w.gain);
        let in_every = |t: &PieceId| tied.iter().all(|w| w.targets.contains_key(t));
        let sure: BTreeSet<PieceId> = tied
            .iter()
            .flat_map(|w| w.targets.keys())
            .copied()
            .filter(in_every)
            .collect();
        let mut best = Won {
            gain,
            targets: BTreeMap::new(),
            attacked: tied
                .iter()
                .flat_map(|w| w.attacked.iter())
                .copied()
                .collect(),
            checkers: BTreeMap::new(),
        };
        let kept = |t: &PieceId| sure.is_empty() || sure.contains(t);
        for w in tied {
            for (t, by) in w.targets {
                if kept(&t) {
                    best.targets.entry(t).or_default().extend(by);
                }
            }
            for (t, by) in w.checkers {
                if kept(&t) {
                    best.checkers.entry(t).or_default().extend(by);
                }
            }
        }
        best
    }
}

/// Direct captures with gain, without the bookkeeping of [`direct_threats`]: (target, gain,
/// capturer), each weighed by [`search_capture_gain`].
pub(super) fn direct_threats_plain(cx: &Ctx, b: &Board) -> Vec<(PieceId, f64, PieceId)> {
    let mut out = Vec::new();
    for m in b.legal_moves() {
        let Some(target) = b.piece_id_at(m.to) else {
            continue;
        };
        if let Some(gain) = search_capture_gain(cx, b, m) {
            out.push((target, gain, b.piece_id_at(m.from).expect("a mover")));
        }
    }
    out
}

/// The gain of the capture `m` of the side to move in `b`, when positive, as a search weighs one
/// capture (what a side can win now): counted over the complete exchange, answers elsewhere
/// included ([`answer_elsewhere_in_search`]: a guard the capturer leaves, a line its departure
/// opens); none after which the other side mates at once; a crossed pawn given for the piece
/// wins nothing ([`pawn_given_by_capture`], reading `pawn-given-for-pieces`).
pub(super) fn search_capture_gain(cx: &Ctx, b: &Board, m: OMove) -> Option<f64> {
    let rs = cx.rs;
    let target = b.piece_id_at(m.to)?;
    if pawn_given_by_capture(cx, b, m) {
        return None;
    }
    let mut a = b.clone();
    apply(&mut a, m);
    let v = value(rs, b, target);
    let mut gain = v - see_pawns_given(cx, &a, m.to, b.st.turn, None, 8);
    // The complete exchange: the other side may answer elsewhere (reading
    // `searched-capture-answered-elsewhere`).
    if gain > 0.0 && rs.exchange_answered_anywhere {
        gain = gain.min(v - answer_elsewhere_in_search(cx, b, &a, m.to));
    }
    (gain > 0.0 && !mates_at_once(cx, &a)).then_some(gain)
}
