//! What a side could do if it were to move: capture with gain (the chase test of art. 28.3,
//! 29.1–29.4; 2011 24.3, 24.15–24.17), force mate by consecutive checks (the kill test of 28.2 /
//! 24.2), and the plain relations the idle kinds need (who can take whom).
//!
//! Everything is computed by playing legal moves on copies of the board, so pins, facing kings,
//! latent protection (暗根) and false protection (假根) need no special code: a protector that
//! cannot legally recapture simply does not appear among the recaptures.

use std::cell::OnceCell;
use std::collections::BTreeSet;

use crate::board::{Board, PieceId};
use crate::coord::{Coord, OMove, Side};

use super::memo;
use super::rules::RuleSet;

mod lines;
mod mate;
pub(crate) use lines::*;
pub(crate) use mate::*;

/// Plays a move known to be legal (taken from `legal_moves`), without testing it again: the same
/// bookkeeping as `Board::play` (capture removes the piece, clocks, turn).
pub(crate) fn apply(b: &mut Board, m: OMove) {
    b.apply(m);
}

/// The board with the other side to move (a "pass", used to ask what the side that just moved
/// could do next, art. 28.2 / 28.3 "下一著").
pub(crate) fn pass(b: &Board) -> Board {
    let mut p = b.clone();
    p.set_turn(b.st.turn.opponent());
    p
}

/// Is the piece `id` material (子力, art. 25.3 / 2011 26.6)? King and uncrossed pawn are not.
pub(crate) fn is_material(b: &Board, id: PieceId) -> bool {
    let p = b.piece(id);
    p.square
        .is_some_and(|sq| b.is_material_on(p.role, p.side, sq))
}

/// Is the piece a pawn (its value floats, 25.3)?
pub(crate) fn is_pawn(b: &Board, id: PieceId) -> bool {
    b.spec().role(b.piece(id).role).id == "pawn"
}

/// Is the piece the royal piece (帥/將)?
pub(crate) fn is_king(b: &Board, id: PieceId) -> bool {
    b.piece(id).role == b.spec().royal()
}

/// The role id (`rook`, `horse`, ...).
pub(crate) fn role_id(b: &Board, id: PieceId) -> &str {
    &b.spec().role(b.piece(id).role).id
}

/// Exchange value of a piece on the board (material.yaml; a crossed pawn counts
/// `floating_pawn_value`, an uncrossed one, not material, nothing (reading
/// `floating-pawn-exchange-value`); the king cannot be captured and is given a large value).
pub(crate) fn value(rs: &RuleSet, b: &Board, id: PieceId) -> f64 {
    if is_king(b, id) {
        return 1000.0;
    }
    if is_pawn(b, id) {
        // Taking at once a pawn that has only just crossed is no gain (26.6, reading
        // `just-crossed-pawn`).
        let just_crossed = b.st.just_crossed == Some(id) && !rs.just_crossed_pawn_is_material;
        return if is_material(b, id) && !just_crossed {
            rs.floating_pawn_value
        } else {
            0.0
        };
    }
    let p = b.piece(id);
    let sq = p.square.unwrap_or(p.start);
    b.spec()
        .material()
        .iter()
        .filter(|m| m.piece == p.role && b.spec().when_holds(m.when, p.side, sq))
        .find_map(|m| m.value)
        .unwrap_or(rs.floating_pawn_value)
}

/// The worth of a piece in the balance of forces that decides which side holds out for a draw
/// (守和方, 26.2; reading `key-point-2011`): its [`value`], but a crossed pawn at an advisor's
/// worth (the ordinary valuation of 25.3, not the floating value of an exchange).
pub(crate) fn strength(rs: &RuleSet, b: &Board, id: PieceId) -> f64 {
    if !is_pawn(b, id) {
        return value(rs, b, id);
    }
    b.spec()
        .material()
        .iter()
        .find(|m| b.spec().role(m.piece).id == "advisor")
        .and_then(|m| m.value)
        .unwrap_or(rs.floating_pawn_value)
}

/// The context of a search for threats: the rule set, and the pieces the move being classified
/// offers in exchange. A mate that needs the offering side to take one of those pieces is that
/// exchange accepted, not a mate "at once" (reading `kill-not-by-accepting-exchange`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx<'a> {
    /// The rule set.
    pub rs: &'a RuleSet,
    /// Pieces excluded from the mates of [`mates_at_once`].
    pub offered: &'a BTreeSet<PieceId>,
    /// When the threats after a move are asked for: the piece that has just moved and the
    /// board before the move (reading `complete-exchange-any-square`: what the other side
    /// could already win before the move, the moved piece itself and what it guards are no
    /// answer within the exchange).
    pub after_move: Option<(PieceId, &'a Board)>,
    /// The one piece a search for what can be won is asked about (reading
    /// `newness-of-a-line-of-checks`: could a line of checks win this piece?): the ways of its
    /// opponent that do not take it count as winning nothing. `None`: every way counts.
    pub aim: Option<PieceId>,
}

/// No piece offered.
static NONE_OFFERED: BTreeSet<PieceId> = BTreeSet::new();

impl<'a> Ctx<'a> {
    /// The context with no piece offered.
    pub fn new(rs: &'a RuleSet) -> Ctx<'a> {
        Ctx {
            rs,
            offered: &NONE_OFFERED,
            after_move: None,
            aim: None,
        }
    }

    /// The context with the pieces `offered` excluded from the mates of [`mates_at_once`].
    pub fn offering(rs: &'a RuleSet, offered: &'a BTreeSet<PieceId>) -> Ctx<'a> {
        Ctx {
            rs,
            offered,
            after_move: None,
            aim: None,
        }
    }

    /// The same context, asking about the position after `moved` has moved from the board
    /// `before`.
    pub fn after_move_of(self, moved: PieceId, before: &'a Board) -> Ctx<'a> {
        Ctx {
            after_move: Some((moved, before)),
            ..self
        }
    }

    /// The same context, asking only whether the piece `target` can be won (see [`Ctx::aim`]).
    pub fn aiming_at(self, target: PieceId) -> Ctx<'a> {
        Ctx {
            aim: Some(target),
            ..self
        }
    }

    /// The piece aimed at, when the side to move in `b` is its opponent (the side whose wins
    /// are asked about); `None` for the other side, whose answers count in full.
    fn aim_in(&self, b: &Board) -> Option<PieceId> {
        self.aim.filter(|t| b.piece(*t).side != b.side_to_move())
    }

    /// The context of the searches of what a line of play wins ([`see`], [`check_line`],
    /// [`best_gain`]): the same without the piece that has just moved. Those searches count
    /// material along a line of play, where no move is "the one just made"; asked without it,
    /// they are remembered without it too, so one answer serves every ply of a cycle.
    fn searching(self) -> Ctx<'a> {
        Ctx {
            after_move: None,
            ..self
        }
    }
}

/// Does the side to move have a move that mates at once (29.4: "不致被將死")? "At once" is a
/// mate by consecutive checks within `mated_at_once_plies` (readings `mated-at-once`,
/// `mated-at-once-2011`), never taking one of the pieces `cx.offered`.
pub(crate) fn mates_at_once(cx: &Ctx, b: &Board) -> bool {
    mate_by_checks_in(b, cx.rs.mated_at_once_plies, cx.offered)
}

/// The legal moves of the side to move that capture on `sq`.
fn captures_on(b: &Board, sq: Coord) -> Vec<OMove> {
    if b.piece_at(sq).is_none_or(|p| p.side == b.st.turn) {
        return Vec::new();
    }
    b.legal_moves().into_iter().filter(|m| m.to == sq).collect()
}

/// Static exchange on `sq` for the side to move, which may capture or stop: the best net
/// material it can force there (≥ 0), both sides capturing with legal moves only, and a capture
/// after which the other side mates at once never being worth making (29.4, 假根).
/// `only`: when set, the pieces of `side` that may take part (joint chase test, 24.17).
pub(crate) fn see(
    cx: &Ctx,
    b: &Board,
    sq: Coord,
    only: Option<(Side, PieceId)>,
    depth: u32,
) -> f64 {
    let cx = &cx.searching();
    memo::see(cx, b, sq, only, depth, || {
        see_computed(cx, b, sq, only, depth)
    })
}

/// [`see`] computed (asked by the memo for a question it has no answer to yet).
fn see_computed(cx: &Ctx, b: &Board, sq: Coord, only: Option<(Side, PieceId)>, depth: u32) -> f64 {
    let rs = cx.rs;
    if depth == 0 {
        return 0.0;
    }
    let Some(victim) = b.piece_id_at(sq) else {
        return 0.0;
    };
    let v = value(rs, b, victim);
    let mut best = 0.0;
    for m in captures_on(b, sq) {
        let mover = b.piece_id_at(m.from).expect("capture from a piece");
        if let Some((side, id)) = only {
            if side == b.st.turn && mover != id {
                continue;
            }
        }
        let mut a = b.clone();
        apply(&mut a, m);
        let g = v - see(cx, &a, sq, only, depth - 1);
        if g > best && !mates_at_once(cx, &a) {
            best = g;
        }
    }
    best
}

/// [`see`] on `sq` after a capture there by `chaser` (the other side to move), where a crossed pawn
/// of `chaser` that takes back on `sq` and is then taken counts as the piece it took (reading
/// `pawn-given-for-pieces`: a pawn given for a piece is level, 25.3 / 2011 26.6), unless 26.6
/// counts that trade as a gain (a rook). `worth`: what the piece on `sq` counts for when taken,
/// when it is such a pawn.
pub(crate) fn see_pawns_given(
    cx: &Ctx,
    b: &Board,
    sq: Coord,
    chaser: Side,
    worth: Option<f64>,
    depth: u32,
) -> f64 {
    if depth == 0 {
        return 0.0;
    }
    let Some(victim) = b.piece_id_at(sq) else {
        return 0.0;
    };
    // No pawn of the chaser can come to take back there: the plain exchange (no pawn of its is
    // ever given on the point; the same answer, remembered).
    if worth.is_none()
        && !b
            .pieces_of(chaser)
            .any(|p| p.square != Some(sq) && is_pawn(b, p.id) && guards(b, p.id, sq))
    {
        return see(cx, b, sq, None, depth);
    }
    let v = worth.unwrap_or_else(|| value(cx.rs, b, victim));
    let mut best = 0.0;
    for m in captures_on(b, sq) {
        let mover = b.piece_id_at(m.from).expect("capture from a piece");
        let mut a = b.clone();
        apply(&mut a, m);
        // (a pawn that crosses by this capture and is taken at once is worth nothing there in
        // 2011: 26.6's 立即吃掉刚过河的兵, reading `just-crossed-pawn`)
        let given = b.piece(mover).side == chaser
            && is_pawn(&a, mover)
            && value(cx.rs, &a, mover) > 0.0
            && !pawn_trade_is_gain(cx.rs, b, victim);
        let w = given.then(|| value(cx.rs, b, victim).max(value(cx.rs, &a, mover)));
        let g = v - see_pawns_given(cx, &a, sq, chaser, w, depth - 1);
        if g > best && !mates_at_once(cx, &a) {
            best = g;
        }
    }
    best
}

/// How a threatened piece stands (24.15, 24.16 / 28.16), seen from the exchange.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cover {
    /// No legal recapture at all (無根子, false roots included).
    Unprotected,
    /// Some recapture, but the exchange still loses (少根子) or the target outweighs the attacker.
    Underprotected,
}

/// One way the side to move can win material (art. 29.1 / 24.3).
#[derive(Clone, Debug)]
pub(crate) struct Threat {
    /// The piece that would be won.
    pub target: PieceId,
    /// The piece that makes the first move of the winning line: the capturer, or the first
    /// checking piece.
    pub attacker: PieceId,
    /// Net material gain.
    pub gain: f64,
    /// Won only by several pieces together (24.17): no single piece wins it alone.
    pub joint: bool,
    /// Won by consecutive checks first (29.1).
    pub via_checks: bool,
    /// Protection of the target.
    pub cover: Cover,
    /// 2011: the pieces without which the gain disappears (24.17).
    pub necessary: Vec<PieceId>,
    /// For a line of checks: the piece its first (checking) move captures, if any.
    pub first_capture: Option<PieceId>,
    /// The pieces that win the target (2011 26.1, 26.7: the pawn and king exemptions belong to
    /// the piece that captures): the capturer of a direct threat; for a line of checks, every
    /// piece that captures the target at the end of one of the answers.
    pub capturers: BTreeSet<PieceId>,
    /// For a line of checks: every piece that gives a check on the way to the target, the first
    /// checking piece included (24.17, reading `joint-line-of-checks`); empty for a direct threat.
    pub checkers: BTreeSet<PieceId>,
    /// Every piece the line wins (for a direct threat, the target): a line of checks that wins
    /// a piece offered in exchange is that exchange accepted (reading
    /// `exchange-offer-not-chase`).
    pub line_wins: BTreeSet<PieceId>,
}

impl Threat {
    /// The identity of a threat for the newness test (29.2): (attacker, target).
    pub fn key(&self) -> (PieceId, PieceId) {
        (self.attacker, self.target)
    }
}

/// Every way the side to move in `b` can win material on its next move: a direct capture with
/// gain after the complete exchange, or a line of consecutive checks ending in such a capture
/// (29.1; 2011 24.3), never one after which it is mated at once (29.4).
///
/// With `checker`, only lines of checks that start with that piece are followed; the judge
/// passes `None` (reading `chase-check-line-any`).
pub(crate) fn threats(cx: &Ctx, b: &Board, checker: Option<PieceId>) -> Vec<Threat> {
    memo::threats(cx, b, checker, || threats_computed(cx, b, checker))
}

/// [`threats`] computed (asked by the memo for a question it has no answer to yet).
fn threats_computed(cx: &Ctx, b: &Board, checker: Option<PieceId>) -> Vec<Threat> {
    let rs = cx.rs;
    let mut out = direct_threats(cx, b);
    if rs
        .chase_forms
        .iter()
        .any(|f| f == "capture_after_consecutive_checks")
        && rs.chase_search_depth >= 3
    {
        let direct: BTreeSet<PieceId> = out.iter().map(|t| t.target).collect();
        for t in check_threats(cx, b, rs.chase_search_depth, checker) {
            if !direct.contains(&t.target) {
                out.push(t);
            }
        }
    }
    out
}

/// Direct captures with gain (29.1 first form and the exchange form).
fn direct_threats(cx: &Ctx, b: &Board) -> Vec<Threat> {
    let rs = cx.rs;
    let me = b.st.turn;
    let mut out: Vec<Threat> = Vec::new();
    let winnable_now: BTreeSet<PieceId> = direct_threats_plain(cx, b)
        .into_iter()
        .map(|(t, _, _)| t)
        .collect();
    for m in b.legal_moves() {
        if let Some(t) = capture_threat(cx, b, m, Some(&winnable_now)) {
            out.push(t);
        }
    }
    // Joint chase (24.17): the gain needs two or more of the side's pieces: taking any one of
    // them away (a capturer, a second capturer, the piece that pins the protector) leaves no
    // gain; a piece that serves only by its point (a cannon's screen, an obstacle in an enemy
    // line) takes no part (reading `joint-chase-necessary`). A chase of a rook is judged so too:
    // no rule makes a rook chased by a lesser piece single by its kind.
    if rs.joint_chase {
        let targets: BTreeSet<PieceId> = out.iter().map(|t| t.target).collect();
        for target in targets {
            // The target is won by a capture counted on its square, or only across two squares
            // (exchange-removes-protector): a partner is a piece without which it is no longer
            // won that way.
            let across = !wins_by_capture(cx, b, target, false);
            let t_sq = b.square_of(target).expect("on board");
            let spec = b.spec();
            // The pieces whose capture of the target wins it.
            let capturers: BTreeSet<PieceId> = out
                .iter()
                .filter(|t| t.target == target)
                .map(|t| t.attacker)
                .collect();
            // The target's possible protectors, by geometry.
            let protectors: Vec<Coord> = b
                .pieces_of(me.opponent())
                .filter(|q| q.id != target)
                .filter_map(|q| {
                    let s = q.square?;
                    spec.could_move(q.role, q.side, s, t_sq).then_some(s)
                })
                .collect();
            // The pieces those protectors guard, by geometry, when the target is won only across
            // two squares: the piece that takes one of them at the end is a partner
            // (exchange-removes-protector; reading `joint-chase-necessary`).
            let guarded: Vec<Coord> = if across {
                b.pieces_of(me.opponent())
                    .filter(|x| x.id != target)
                    .filter_map(|x| x.square)
                    .filter(|x| {
                        protectors.iter().any(|q| {
                            b.piece_id_at(*q).is_some_and(|g| {
                                let g = b.piece(g);
                                spec.could_move(g.role, g.side, *q, *x)
                            })
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            // Candidates: pieces that reach the target in the exchange on its point or whose lines
            // reach one of its protectors or a piece one guards, and pinners.
            let necessary: Vec<PieceId> = b
                .pieces_of(me)
                .filter(|p| !is_king(b, p.id))
                .filter(|p| {
                    let s = p.square.expect("on board");
                    (spec.could_move(p.role, p.side, s, t_sq)
                        && reaches_in_the_exchange(b, p.id, t_sq))
                        || moved_screen(cx, b, p.id, t_sq)
                        || checks_when_target_taken(b, p.id, target)
                        || protectors
                            .iter()
                            .chain(&guarded)
                            .any(|q| spec.could_move(p.role, p.side, s, *q))
                        || pinned_by(b, p.id).into_iter().any(|e| {
                            // A piece that pins an enemy piece that would otherwise stop the
                            // capture: with both off the board the target is won again.
                            wins_without(cx, b, &[p.id, e], target, across)
                        })
                })
                .map(|p| p.id)
                .filter(|p| !wins_without(cx, b, &[*p], target, across))
                .filter(|p| !serves_only_by_its_point(cx, b, target, *p, across))
                .filter(|p| {
                    !idle_guard_of_unprotected(cx, b, target, *p, &capturers, &protectors, across)
                })
                .filter(|p| !keeps_off_a_mate(cx, b, target, *p))
                .chain(king_takes_part(cx, b, target, across))
                .collect();
            let joint = necessary.len() >= 2;
            for t in out.iter_mut().filter(|t| t.target == target) {
                t.joint = joint;
                t.necessary = necessary.clone();
            }
        }
    }
    out
}

/// Reading `king-as-partner` (2011 26.1.1: 走动帅（将）…与其他子配合; 24.17): the king of the side
/// to move takes part in winning `target` when it has just moved and is the screen (炮架) through
/// which a piece of its side reaches the target ([`moved_screen`]). (The king cannot be taken off
/// the board for the removal test; a guard the facing kings pin is a false root, 24.16, and its
/// target unprotected: no partner.)
///
/// The king also takes part as a capturer (24.17: 两个或两个以上棋子共同擒捉…缺少其中任何一个都
/// 无法吃子) when the target is won on its point (`across` false) and no capture of it wins there
/// without the king's captures ([`see_without`]): the king takes back at the end of the exchange.
fn king_takes_part(cx: &Ctx, b: &Board, target: PieceId, across: bool) -> Option<PieceId> {
    let king = b.pieces_of(b.st.turn).find(|p| is_king(b, p.id))?.id;
    let t_sq = b.square_of(target)?;
    let capturer = || {
        let v = value(cx.rs, b, target);
        reach_of(b, king).contains(&t_sq)
            && !captures_on(b, t_sq)
                .into_iter()
                .filter(|m| b.piece_id_at(m.from) != Some(king))
                .any(|m| {
                    let mut a = b.clone();
                    apply(&mut a, m);
                    v - see_without(cx, &a, t_sq, king, 8) > 0.0 && !mates_at_once(cx, &a)
                })
    };
    (moved_screen(cx, b, king, t_sq) || (!across && capturer())).then_some(king)
}

/// [`see`] on `sq` with the piece `absent` never capturing (the removal test of 24.17 for the
/// king, which cannot be taken off the board).
fn see_without(cx: &Ctx, b: &Board, sq: Coord, absent: PieceId, depth: u32) -> f64 {
    if depth == 0 {
        return 0.0;
    }
    let Some(victim) = b.piece_id_at(sq) else {
        return 0.0;
    };
    let v = value(cx.rs, b, victim);
    let mut best = 0.0;
    for m in captures_on(b, sq) {
        if b.piece_id_at(m.from) == Some(absent) {
            continue;
        }
        let mut a = b.clone();
        apply(&mut a, m);
        let g = v - see_without(cx, &a, sq, absent, depth - 1);
        if g > best && !mates_at_once(cx, &a) {
            best = g;
        }
    }
    best
}

/// Reading `king-as-partner`: does the direct capture of threat `t` (`b`, its side to move) win
/// only because the facing kings (将帅不得照面) forbid the other side's recapture on the point, a
/// recapture that would give the capturer for the target (a pawn for a piece, 25.3 / 26.6, or a
/// piece worth as much)? The capture is then made with the king's power (借帥之力).
pub(crate) fn capture_needs_the_king(cx: &Ctx, b: &Board, t: &Threat) -> bool {
    if t.via_checks {
        return false;
    }
    let (Some(a_sq), Some(t_sq)) = (b.square_of(t.attacker), b.square_of(t.target)) else {
        return false;
    };
    let rs = cx.rs;
    let gives_up = if is_pawn(b, t.attacker) {
        !pawn_trade_is_gain(rs, b, t.target)
    } else {
        value(rs, b, t.attacker) >= value(rs, b, t.target)
    };
    if !gives_up {
        return false;
    }
    let them = b.st.turn.opponent();
    let mut a = b.clone();
    apply(&mut a, OMove::new(a_sq, t_sq));
    a.pseudo_legal_moves()
        .into_iter()
        .filter(|r| r.to == t_sq)
        .any(|r| {
            let mut c = a.clone();
            apply(&mut c, r);
            c.kings_facing() && !c.in_check(them)
        })
}

/// The threat made by the capture `m` of the side to move, if it wins material (29.1 / 24.3 as the
/// rule set reads them): the gain after the complete exchange (on the capture square, across two
/// squares, or answered elsewhere), no capture after which the taker is mated at once (29.4) or
/// that a line of checks answers, no pawn given for a piece (25.3; 2011 26.6). `winnable_now`:
/// the pieces the side could already win before the capture, for the exchange across two
/// squares (`None`: counted on the capture square and answered elsewhere only).
fn capture_threat(
    cx: &Ctx,
    b: &Board,
    m: OMove,
    winnable_now: Option<&BTreeSet<PieceId>>,
) -> Option<Threat> {
    let rs = cx.rs;
    let target = b.piece_id_at(m.to)?;
    if !is_material(b, target) {
        return None;
    }
    let attacker = b.piece_id_at(m.from).expect("a mover");
    let mut a = b.clone();
    apply(&mut a, m);
    let exchange_depth = 8;
    let back = see_pawns_given(cx, &a, m.to, b.st.turn, None, exchange_depth);
    let v = value(rs, b, target);
    // What decides alone, whatever the exchange wins: a capture after which the taker is mated
    // at once is never made (29.4); a crossed pawn given for a piece is no gain (25.3; 2011
    // 26.6: except for a rook), an uncrossed one (or one just crossed by the capture, in 2011)
    // is no material and costs nothing (reading `pawn-given-for-pieces`).
    if mates_at_once(cx, &a)
        || (is_pawn(b, attacker)
            && value(rs, &a, attacker) > 0.0
            && !pawn_trade_is_gain(rs, b, target)
            && (back > 0.0 || pawn_taken_back(cx, &a, m.to)))
    {
        return None;
    }
    // The most the capture can net when the other side answers elsewhere (answer_elsewhere).
    let ceiling = if rs.exchange_answered_anywhere {
        v - answer_elsewhere(cx, b, &a, m.to)
    } else {
        f64::INFINITY
    };
    let mut gain = (v - back).min(ceiling);
    if let (true, true, Some(now)) = (v - back <= 0.0, ceiling > 0.0, winnable_now) {
        gain = exchange_with_follow_up(cx, b, &a, m, now, ceiling);
    }
    if gain <= 0.0 {
        return None;
    }
    if capturer_won_back_by_checks(cx, b, &a, attacker, is_pawn(b, target), v, gain)
        || checks_answer_capture(cx, b, &a, attacker, v, gain)
    {
        return None;
    }
    // Any legal recapture makes the piece protected, if not fully (少根, 24.15), even one after
    // which its side is mated at once (参考图34: 黑方长捉少根子).
    let recaptures = !captures_on(&a, m.to).is_empty();
    Some(Threat {
        target,
        attacker,
        gain,
        joint: false,
        via_checks: false,
        cover: if recaptures {
            Cover::Underprotected
        } else {
            Cover::Unprotected
        },
        necessary: Vec::new(),
        first_capture: None,
        capturers: BTreeSet::from([attacker]),
        checkers: BTreeSet::new(),
        line_wins: BTreeSet::from([target]),
    })
}

/// The enemy pieces (not the king) that the piece `p` pins (牵制): some move of theirs that the
/// movement rules allow would expose their king to `p` (`p` could then take the king), and is
/// legal with `p` off the board.
pub(crate) fn pinned_by(b: &Board, p: PieceId) -> BTreeSet<PieceId> {
    let Some(p_sq) = b.square_of(p) else {
        return BTreeSet::new();
    };
    let them = b.piece(p).side.opponent();
    let mut t = b.clone();
    t.set_turn(them);
    let w = without(&t, p_sq);
    // After the move, can `p` take the king of `them`?
    let exposes = |m: &OMove| {
        let mut a = t.clone();
        apply(&mut a, *m);
        let reach = reach_of(&a, p);
        let kings: Vec<Coord> = a
            .pieces_of(them)
            .filter(|k| is_king(&a, k.id))
            .filter_map(|k| k.square)
            .collect();
        kings.iter().any(|k| reach.contains(k))
    };
    t.pseudo_legal_moves()
        .into_iter()
        .filter(|m| m.to != p_sq && w.is_legal(*m) && exposes(m))
        .filter_map(|m| t.piece_id_at(m.from))
        .filter(|e| !is_king(&t, *e))
        .collect()
}

/// Can the side to move win `target` by capturing it, the gain counted as for its threats
/// ([`capture_threat`]: the complete exchange, 24.3)? `across`: counting the exchange across two
/// squares too (else on the capture square and answered elsewhere). The measure of the
/// joint-chase test (24.17: without a partner, the target is no longer won the same way).
pub(crate) fn wins_by_capture(cx: &Ctx, b: &Board, target: PieceId, across: bool) -> bool {
    let Some(sq) = b.square_of(target) else {
        return false;
    };
    let captures = captures_on(b, sq);
    if captures.is_empty() {
        return false;
    }
    let winnable_now: Option<BTreeSet<PieceId>> = across.then(|| {
        direct_threats_plain(cx, b)
            .into_iter()
            .map(|(t, _, _)| t)
            .collect()
    });
    captures
        .into_iter()
        .any(|m| capture_threat(cx, b, m, winnable_now.as_ref()).is_some())
}

/// [`wins_by_capture`] on the board without the pieces `removed`, judged against the position
/// before the move without them too (the removal test of 24.17: the position is asked about as
/// if those pieces had never stood there, so an answer their absence frees is one the other
/// side could make before the move as well, not a new one; reading `joint-chase-necessary`).
fn wins_without(cx: &Ctx, b: &Board, removed: &[PieceId], target: PieceId, across: bool) -> bool {
    let off = |x: &Board| {
        removed
            .iter()
            .filter_map(|id| x.square_of(*id))
            .fold(x.clone(), |y, sq| without(&y, sq))
    };
    let before = cx.after_move.map(|(moved, before)| (moved, off(before)));
    let cx = Ctx {
        after_move: before.as_ref().map(|(moved, before)| (*moved, before)),
        ..*cx
    };
    wins_by_capture(&cx, &off(b), target, across)
}

/// The complete exchange of 24.3 / 29.1 across two squares (reading `exchange-removes-protector`):
/// the side to move captures with `m` (`a` is the board after it); if the other side recaptures
/// on that square, the capturer may, instead of going on there, take a piece elsewhere that it
/// could not win before and wins now (the exchange took its protector away; `winnable_now` are
/// the pieces it could already win, which are threats of their own). Only where the rule set has
/// that interpretation. The other side picks the answer (no recapture, or
/// the recapture) that leaves the capturer least; a capture after which the taker is mated at once
/// is never made (29.4). Returns the net gain of the capturer, at most `ceiling` (what it nets
/// when the other side answers elsewhere), when that is positive; else some value ≤ 0, the
/// capture winning nothing.
///
/// The other side may also, instead of recapturing at once, first trade elsewhere a piece whose
/// exchange there costs it nothing (中间兑子: [`trade_before_recapture`]); the capturer answers
/// that trade, and the other side then recaptures on the first square if it still can.
///
/// The answers are tried from the one that leaves the capturer least before any line of checks
/// after it; a line of checks is searched only where it could still lower the least net gain
/// (a line only raises the net gain after its answer), and once that is at most 0 the capture
/// wins nothing whatever the other answers. Neither step changes what the caller concludes.
fn exchange_with_follow_up(
    cx: &Ctx,
    b: &Board,
    a: &Board,
    m: OMove,
    winnable_now: &BTreeSet<PieceId>,
    ceiling: f64,
) -> f64 {
    let rs = cx.rs;
    if !rs.exchange_over_two_squares {
        return f64::NEG_INFINITY;
    }
    let Some(victim) = b.piece_id_at(m.to) else {
        return f64::NEG_INFINITY;
    };
    let capturer = b.piece_id_at(m.from).expect("a mover");
    let v = value(rs, b, victim);
    // Each recapture (one after which the capturer mates at once is never made), with what the
    // capturer nets after it without a line of checks.
    let mut answers: Vec<(Board, f64)> = Vec::new();
    for r in captures_on(a, m.to) {
        let mut c = a.clone();
        apply(&mut c, r);
        if mates_at_once(cx, &c) {
            continue;
        }
        let best = next_after_recapture(cx, &c, m.to, b.st.turn, winnable_now);
        answers.push((c, best));
    }
    // What the capturer nets after a recapture: what it took, less the capturer, plus what it
    // wins next.
    let net = |next: f64| v - value(rs, a, capturer) + next;
    answers.sort_by(|x, y| x.1.total_cmp(&y.1));
    // The pieces a line of checks could already win before the capture (lost after some answer
    // of one of its lines), asked only when a line after the exchange needs it.
    let lines_before: OnceCell<BTreeSet<PieceId>> = OnceCell::new();
    let fresh = |t: PieceId| {
        !winnable_now.contains(&t) && !lines_before.get_or_init(|| lines_win(cx, b)).contains(&t)
    };
    let mut worst = v.min(ceiling);
    for (c, best) in answers {
        if net(best) >= worst {
            break;
        }
        // Or a line of consecutive checks that wins the piece that took back, or a piece the
        // capturer could not win before: wanted only when it wins more than `best` and leaves
        // the capturer a gain.
        let floor = best.max(-net(0.0));
        let line = line_after_exchange(cx, &c, m.to, floor, &fresh);
        worst = worst.min(net(best.max(line)));
        if worst <= 0.0 {
            break;
        }
    }
    if worst > 0.0 {
        worst = trade_before_recapture(cx, b, a, m.to, winnable_now, &fresh, worst);
    }
    worst
}

/// For [`exchange_with_follow_up`]: what the capturer (its side `me`, to move in `c`, after the
/// other side's recapture on `sq`) nets next without a line of checks: going on on the same
/// square, as in `see` (a pawn the capturer's side gives there counted as the piece it takes:
/// `see_pawns_given`), or taking a piece the recapturer protected, now left without it (one it
/// could not win before: not in `winnable_now`), that capture weighed as those were
/// ([`search_capture_gain`]: a line its departure opens is an answer to it).
fn next_after_recapture(
    cx: &Ctx,
    c: &Board,
    sq: Coord,
    me: Side,
    winnable_now: &BTreeSet<PieceId>,
) -> f64 {
    let mut best = see_pawns_given(cx, c, sq, me, None, 7);
    for f in c.legal_moves() {
        let Some(t) = c.piece_id_at(f.to) else {
            continue;
        };
        if f.to == sq || winnable_now.contains(&t) || !is_material(c, t) {
            continue;
        }
        // Weighed as the capture that made `winnable_now` is: over its complete exchange, a
        // line its departure opens included.
        if let Some(g) = search_capture_gain(cx, c, f) {
            best = best.max(g);
        }
    }
    best
}

/// Reading `exchange-removes-protector`, the trade in between (中间兑子): after the capture on
/// `sq` (`b` before it, `a` after it, the other side to move), the other side may first capture
/// elsewhere a piece whose exchange there costs it nothing (level or better: what it takes is
/// worth at least what the capturer can win back on that point), not one it could already win
/// before (a threat of its own, as in [`answer_elsewhere`]), and never by a capture after which
/// it is mated at once. The capturer answers as it best can: it lets the trade be (counted as
/// keeping what it took), or takes back on that point (the other side then goes on there or
/// recaptures on `sq` if it still can, and the capturer goes on as after a recapture:
/// [`next_after_recapture`], [`line_after_exchange`]), or gives a line of consecutive checks
/// that takes the trading piece, wins it, or wins a piece it could not win before
/// ([`line_after_exchange`]). Returns `worst` lowered to the least net gain of the capturer
/// over those answers; exact when positive.
fn trade_before_recapture(
    cx: &Ctx,
    b: &Board,
    a: &Board,
    sq: Coord,
    winnable_now: &BTreeSet<PieceId>,
    fresh: &dyn Fn(PieceId) -> bool,
    worst: f64,
) -> f64 {
    let rs = cx.rs;
    let me = b.st.turn;
    let v = value(rs, b, b.piece_id_at(sq).expect("the piece taken"));
    let vc = value(rs, a, a.piece_id_at(sq).expect("the capturer"));
    let them_before = match cx.after_move {
        Some((_, before)) => pass(before),
        None => pass(b),
    };
    let mut worst = worst;
    for x in a.legal_moves() {
        if worst <= 0.0 {
            break;
        }
        let Some(y) = a.piece_id_at(x.to) else {
            continue;
        };
        if x.to == sq || !is_material(a, y) {
            continue;
        }
        let vy = value(rs, a, y);
        // The capturer's answer nets at least 0 (it lets the trade be): only a trade of a piece
        // worth more than `v - worst` can lower the least gain.
        let cap = worst - (v - vy);
        if cap <= 0.0 {
            continue;
        }
        let mut d = a.clone();
        apply(&mut d, x);
        if vy - see(cx, &d, x.to, None, 8) < 0.0
            || see(cx, &them_before, x.to, None, 8) > 0.0
            || mates_at_once(cx, &d)
        {
            continue;
        }
        let answer = trade_answered(cx, &d, x.to, sq, me, vc, cap, winnable_now, fresh);
        worst = worst.min(v - vy + answer);
    }
    worst
}

/// For [`trade_before_recapture`]: the capturer's best answer (its side `me`, to move in `d`)
/// to the other side's capture on `s`, its own capturer (worth `vc`) standing on `sq`: what it
/// nets from here on, at least 0 (it lets the trade be); values above `cap` are not told apart.
#[allow(clippy::too_many_arguments)]
fn trade_answered(
    cx: &Ctx,
    d: &Board,
    s: Coord,
    sq: Coord,
    me: Side,
    vc: f64,
    cap: f64,
    winnable_now: &BTreeSet<PieceId>,
    fresh: &dyn Fn(PieceId) -> bool,
) -> f64 {
    let rs = cx.rs;
    let trader = value(rs, d, d.piece_id_at(s).expect("the trading piece"));
    let mut best: f64 = 0.0;
    for z in captures_on(d, s) {
        if best >= cap {
            return best;
        }
        let mut e = d.clone();
        apply(&mut e, z);
        if mates_at_once(cx, &e) {
            continue;
        }
        // The other side goes on on that point, or recaptures on `sq`, as leaves the capturer
        // least.
        let mut least = trader - see(cx, &e, s, None, 7);
        for r in captures_on(&e, sq) {
            if least <= best {
                break;
            }
            let mut f = e.clone();
            apply(&mut f, r);
            if mates_at_once(cx, &f) {
                continue;
            }
            let mut next = next_after_recapture(cx, &f, sq, me, winnable_now);
            if trader - vc + next < least {
                next = next.max(line_after_exchange(cx, &f, sq, next, fresh));
            }
            least = least.min(trader - vc + next);
        }
        best = best.max(least);
    }
    if best < cap {
        best = best.max(line_after_exchange(cx, d, s, best, fresh));
    }
    best
}

/// Reading `exchange-continued-by-checks`: the most a line of consecutive checks of the side to
/// move in `c` wins, above `floor` (0 if none), among the lines whose first check takes the piece
/// on `sq` (the piece that took back), that win it after some answer, or that win against the
/// best defence a piece the side could not win before the capture (`fresh`): the complete
/// exchange on `sq` (24.3, 通过完整互吃交换后吃掉对方子且得子; 抽吃子) goes on by checks instead of by
/// a capture there.
fn line_after_exchange(
    cx: &Ctx,
    c: &Board,
    sq: Coord,
    floor: f64,
    fresh: &dyn Fn(PieceId) -> bool,
) -> f64 {
    let Some(taker) = c.piece_id_at(sq) else {
        return 0.0;
    };
    lines_on(cx, c, taker, floor, |l| l.targets.keys().any(|t| fresh(*t))).fold(0.0, f64::max)
}

/// The pieces the lines of consecutive checks of the side to move in `b` win after some answer.
fn lines_win(cx: &Ctx, b: &Board) -> BTreeSet<PieceId> {
    checking_moves(b)
        .into_iter()
        .filter_map(|k| check_line(cx, b, k, cx.rs.chase_search_depth))
        .flat_map(|l| l.attacked)
        .collect()
}

/// The gains of the lines of consecutive checks of the side to move in `a` whose first check
/// takes `p`, that win it after some answer, or for which `also` holds, among those that net
/// more than `floor`.
fn lines_on<'a>(
    cx: &'a Ctx,
    a: &'a Board,
    p: PieceId,
    floor: f64,
    also: impl Fn(&Won) -> bool + 'a,
) -> impl Iterator<Item = f64> + 'a {
    let sq = a.square_of(p);
    let checks = if sq.is_some() {
        checking_moves(a)
    } else {
        Vec::new()
    };
    checks.into_iter().filter_map(move |k| {
        check_line_above(cx, a, k, cx.rs.chase_search_depth, floor)
            .filter(|l| Some(k.to) == sq || l.attacked.contains(&p) || also(l))
            .map(|l| l.gain)
    })
}

/// Below any difference of material values (multiples of a half): a floor this much under a gain
/// lets a search return a line that wins exactly that gain.
const LEVEL_MARGIN: f64 = 1.0 / 64.0;

/// Reading `capture-answered-by-checks`: after the capture (`a`, the other side to move), can the
/// other side answer with a line of consecutive checks that attacks the capturing piece (it is
/// lost after some reply) and nets more than the capture's `gain`, whatever the capturer
/// replies? Then the capture is no gain (the protector of the captured piece is that line: 有根).
/// A line that wins the capturer itself takes it instead of the recapture that `gain` already
/// counts: it must net more than the piece taken (`taken`), so the capturer is counted once.
///
/// When the capture took a pawn (`pawn_taken`) and the rule set judges what a capturer's
/// departure costs (2011 26.5), a line whose best defence loses neither the capturer nor a
/// piece a pawn may be given for (26.6: a rook) wins back only another piece for the pawn:
/// level (兵卒价值浮动), so it is no protection here; 26.5 counts it as what the departure costs
/// (`pinned-departure`).
fn capturer_won_back_by_checks(
    cx: &Ctx,
    b: &Board,
    a: &Board,
    capturer: PieceId,
    pawn_taken: bool,
    taken: f64,
    gain: f64,
) -> bool {
    let rs = cx.rs;
    if !rs.won_back_by_checks_is_protection {
        return false;
    }
    let level = |l: &Won| {
        rs.protector_chase_needs_gain
            && pawn_taken
            && !l.targets.contains_key(&capturer)
            && !l.targets.keys().any(|v| pawn_trade_is_gain(rs, a, *v))
    };
    // The checks the other side had before the capture (a line that begins with another one
    // was opened by the capture: 26.5 judges it when it ends level).
    let before = OnceCell::new();
    // (a line that wins as much as `gain` may matter: the floor is just below it)
    let floor = gain - LEVEL_MARGIN;
    checking_moves(a).into_iter().any(|k| {
        check_line_above(cx, a, k, rs.chase_search_depth, floor).is_some_and(|l| {
            if !l.attacked.contains(&capturer) || level(&l) {
                return false;
            }
            // A line that wins the capturer back replaces the recapture: it is weighed against
            // what the capture took, not against the gain that already gave the capturer up,
            // and a level one wins nothing, as a recapture that ends level does; unless the
            // capture opened it and 26.5 counts a level exchange as a chase.
            if !line_wins(a, k, &l).contains(&capturer) {
                return l.gain > gain;
            }
            let against = taken.max(gain);
            // (opened: its first check was no check of that side before the capture)
            let opened = || !before.get_or_init(|| checking_moves(&pass(b))).contains(&k);
            l.gain > against || (l.gain == against && !(rs.protector_chase_needs_gain && opened()))
        })
    })
}

/// Reading `capture-answered-by-checks`, second part: after the capture (`b` before it, the
/// capturing side to move; `a` after it), can the other side answer with a line of consecutive
/// checks (抽吃 included) that nets more than the capture's `gain` beyond what it could already
/// win before the move (before the capture when no move is given), as a piece newly en prise is
/// an answer of the complete exchange (`answer_elsewhere`)? When the capturer is the piece that
/// has just moved, only a line that the move itself opened counts here (it wins so much before
/// the capture too); one that the capture's departure opens is 26.5's (`pinned-departure`). A
/// line that wins the piece that has just moved is not counted. Not asked when the capturing
/// side is in check, in `b` or before the move.
fn checks_answer_capture(
    cx: &Ctx,
    b: &Board,
    a: &Board,
    capturer: PieceId,
    taken: f64,
    gain: f64,
) -> bool {
    let rs = cx.rs;
    if !rs.won_back_by_checks_is_protection || !rs.exchange_answered_anywhere {
        return false;
    }
    // No check after the capture: no line.
    if checking_moves(a).is_empty() {
        return false;
    }
    let me = b.st.turn;
    let (moved, them_before) = match cx.after_move {
        Some((moved, before)) => (Some(moved), pass(before)),
        None => (None, pass(b)),
    };
    if b.in_check(me) || them_before.in_check(me) {
        return false;
    }
    let tau = gain + gain_now(cx, &them_before);
    // A line that wins the capturer back counts it once: the capture's gain already gave up
    // what the recapture takes (`conceded`, as in the departure test of 26.5).
    let conceded = (taken - gain).max(0.0);
    let above = |x: &Board, k: OMove, l: &Won, conceded: f64| {
        l.gain > tau
            && (conceded <= 0.0
                || !l.targets.contains_key(&capturer)
                || check_line_above(cx, x, k, rs.chase_search_depth, tau + conceded)
                    .is_some_and(|m| m.gain > tau + conceded))
    };
    // A line that wins the piece that has just moved is that move's own offer (献), as a piece
    // it puts en prise is (complete-exchange-any-square, condition (3)).
    let a_line_wins = |x: &Board, conceded: f64| {
        checking_moves(x).into_iter().any(|k| {
            check_line_above(cx, x, k, rs.chase_search_depth, tau).is_some_and(|l| {
                above(x, k, &l, conceded) && moved.is_none_or(|p| !l.targets.contains_key(&p))
            })
        })
    };
    // Where the rule set has no departure test (1999), the complete exchange of a capture the
    // move makes names no side either: a line that wins a piece the capture uncovered (the
    // capturer stood between it and an enemy piece, 被牵, and did not guard it) answers it, as
    // the capture that piece now allows does (`answer_elsewhere`; reading
    // `complete-exchange-any-square`, condition (1)). A root's departure (細則4) is no answer.
    let uncovered_line = || {
        if rs.protector_chase_needs_gain {
            return false;
        }
        let exposed_before: BTreeSet<Coord> =
            pass(b).legal_moves().into_iter().map(|m| m.to).collect();
        let uncovered: BTreeSet<PieceId> = a
            .legal_moves()
            .into_iter()
            .filter(|m| !exposed_before.contains(&m.to) && !guards(b, capturer, m.to))
            .filter_map(|m| a.piece_id_at(m.to))
            .filter(|x| *x != capturer && is_material(a, *x))
            .collect();
        !uncovered.is_empty()
            && checking_moves(a).into_iter().any(|k| {
                check_line_above(cx, a, k, rs.chase_search_depth, tau).is_some_and(|l| {
                    above(a, k, &l, conceded)
                        && moved.is_none_or(|p| !l.targets.contains_key(&p))
                        && l.targets.keys().any(|x| uncovered.contains(x))
                })
            })
    };
    a_line_wins(a, conceded)
        && (moved != Some(capturer) || a_line_wins(&pass(b), 0.0) || uncovered_line())
}

/// The most the side to move can win now ([`best_gain`] at the depth of the rule set's lines of
/// checks).
pub(crate) fn gain_now(cx: &Ctx, b: &Board) -> f64 {
    best_gain(cx, b, cx.rs.chase_search_depth).gain
}

/// The pieces a line of checks beginning with `k` in `b` takes or wins: the piece its first check
/// takes, if any, and the pieces its best defence loses (`l`).
pub(crate) fn line_wins(b: &Board, k: OMove, l: &Won) -> BTreeSet<PieceId> {
    l.targets
        .keys()
        .copied()
        .chain(b.piece_id_at(k.to))
        .collect()
}

/// The most the side to move can win now (as [`gain_now`]) by a capture with gain of one of
/// `pieces` or by a line of consecutive checks that takes or wins one of them ([`line_wins`]);
/// 0 if none. What a line of checks wins that the other side could win anyway is measured by it
/// (reading `pinned-departure`, `capture-answered-by-checks`): a standing threat to another piece
/// stays after the line and pays nothing for it. A crossed pawn's capture that gives the pawn for
/// the piece wins nothing ([`pawn_given_by_capture`]).
pub(crate) fn gain_now_on(cx: &Ctx, b: &Board, pieces: &BTreeSet<PieceId>) -> f64 {
    let depth = cx.rs.chase_search_depth;
    let captures = direct_threats_plain(cx, b)
        .into_iter()
        .filter(|(target, _, _)| pieces.contains(target))
        .map(|(_, gain, _)| gain);
    let checks = if depth >= 3 {
        checking_moves(b)
    } else {
        Vec::new()
    };
    let lines = checks.into_iter().filter_map(|k| {
        let l = check_line(cx, b, k, depth)?;
        (!line_wins(b, k, &l).is_disjoint(pieces)).then_some(l.gain)
    });
    captures.chain(lines).fold(0.0, f64::max)
}

/// 2011 26.9 (子力价值受损, reading `pinned-target-cannot-accept`): after `capturer` took a piece
/// worth `taken` (`a`: the other side to move), can the other side answer with a line of
/// consecutive checks that takes the capturer or wins it on the way and nets more than `taken`?
/// Then the capture loses value, counted over the complete exchange (24.3), as a recapture that
/// wins more would. (The caller adds to `taken` what the other side could win anyway.)
pub(crate) fn capture_lost_to_checks(cx: &Ctx, a: &Board, capturer: PieceId, taken: f64) -> bool {
    lines_on(cx, a, capturer, taken, |_| false).any(|g| g > taken)
}

/// Does the piece `p` (of the side to move) serve the winning of `target` only by its point, not
/// by a move of its own (reading `joint-chase-necessary`)? Either it is the screen (炮架) of a
/// cannon that captures the target and cannot capture the target itself, or it is an obstacle
/// in an enemy line: some other piece captures the target, and with `p` then off the board an
/// enemy piece would reach the target's point (a recapture: 断根) or the capturer's king (the
/// capture would expose it), or, being no protector of the target nor a piece `p` pins, would
/// take a piece of its side or check its king ([`opens_an_answer`]: `p` keeps its own piece
/// protected or its king safe), while with `p` and those enemy pieces off the board the target
/// is won again; or it stands alone between the two kings (the enemy king's line to its own:
/// the king cannot be taken off, and the piece cannot leave the file to capture). Such a piece is
/// no partner of a joint chase (24.17: the partners seize the target together); a screen that
/// has just moved there is one, wherever it stands.
fn serves_only_by_its_point(
    cx: &Ctx,
    b: &Board,
    target: PieceId,
    p: PieceId,
    across: bool,
) -> bool {
    let (Some(t_sq), Some(p_sq)) = (b.square_of(target), b.square_of(p)) else {
        return false;
    };
    let me = b.piece(p).side;
    let Some(king) = king_square(b, me) else {
        return false;
    };
    let reaches = |x: &Board, id: PieceId, sq: Coord| reach_of(x, id).contains(&sq);
    let w = without(b, p_sq);
    // The screen (炮架) of a cannon that captures the target serves by its point too, unless
    // it could legally capture the target itself (a pinned screen cannot) or has just moved
    // there to screen a piece it did not screen before ([`moved_screen`]; 24.3:
    // 所走动子…与其他子联合吃子).
    if is_screen_for(b, &w, p, t_sq) {
        return !moved_screen(cx, b, p, t_sq)
            && !captures_on(b, t_sq).iter().any(|c| c.from == p_sq);
    }
    // The piece alone between the two kings keeps them apart (将帅不得照面): with it off the
    // board every capture would leave them facing. The enemy king is the enemy piece whose line
    // it blocks; it cannot leave that file, so it takes no part in the capture.
    if w.kings_facing() {
        return true;
    }
    // A piece it pins (牵制) is held by its attack on the king, not by its point.
    let pinned = pinned_by(b, p);
    captures_on(b, t_sq)
        .into_iter()
        .filter(|c| b.piece_id_at(c.from) != Some(p))
        .any(|c| {
            let mut a = b.clone();
            apply(&mut a, c);
            let aw = without(&a, p_sq);
            let opened: Vec<Coord> = a
                .pieces_of(me.opponent())
                .filter(|e| !is_king(&a, e.id))
                .filter(|e| {
                    [t_sq, king]
                        .iter()
                        .any(|&sq| !reaches(&a, e.id, sq) && reaches(&aw, e.id, sq))
                        || (!reaches(&a, e.id, t_sq)
                            && !pinned.contains(&e.id)
                            && opens_an_answer(&a, &aw, e.id, me))
                })
                .filter_map(|e| e.square)
                .collect();
            if opened.is_empty() {
                return false;
            }
            let cleared = opened.iter().fold(w.clone(), |x, &sq| without(&x, sq));
            wins_by_capture(cx, &cleared, target, across)
        })
}

/// Is `p` (of the side to move) only a second guard of a target that another piece wins by its
/// capture (one of `capturers`) and that no enemy piece can then take back, even against the
/// movement rules' pins (無根; reading `joint-chase-necessary`)? Its guard plays no part in the
/// exchange on the point, so when the target is not won without it, it keeps something else
/// safe by its point (its king's line shut: 图28, where each of two attackers of the rook is
/// needed only to keep the cannon's line to its king closed, 黑方长捉车) and takes no part in the
/// seizing. Asked only of a piece that reaches the target in the exchange and none of its
/// possible `protectors` (one that attacks a piece that might answer the capture takes part by
/// that attack: 图9's horse), that pins no enemy piece (参考图13), whose check the capture does
/// not uncover (26.7), and that has not just moved there as a cannon's screen; not when the
/// target is won only across two squares.
fn idle_guard_of_unprotected(
    cx: &Ctx,
    b: &Board,
    target: PieceId,
    p: PieceId,
    capturers: &BTreeSet<PieceId>,
    protectors: &[Coord],
    across: bool,
) -> bool {
    let (Some(t_sq), Some(p_sq)) = (b.square_of(target), b.square_of(p)) else {
        return false;
    };
    let spec = b.spec();
    let role = b.piece(p).role;
    let side = b.piece(p).side;
    let guard = spec.could_move(role, side, p_sq, t_sq) && reaches_in_the_exchange(b, p, t_sq);
    if !guard
        || protectors
            .iter()
            .any(|q| spec.could_move(role, side, p_sq, *q))
        || across
        || !pinned_by(b, p).is_empty()
        || checks_when_target_taken(b, p, target)
        || moved_screen(cx, b, p, t_sq)
    {
        return false;
    }
    let them = b.piece(p).side.opponent();
    captures_on(b, t_sq)
        .into_iter()
        .filter(|c| {
            b.piece_id_at(c.from)
                .is_some_and(|x| x != p && capturers.contains(&x))
        })
        .any(|c| {
            let mut a = b.clone();
            apply(&mut a, c);
            let takes_back = a
                .pieces_of(them)
                .any(|e| reach_of(&a, e.id).contains(&t_sq));
            !takes_back
        })
}

/// Is `p` (of the side to move) needed for winning `target` only because without it the other
/// side would answer the capture with a mate at once (reading `joint-chase-necessary`; 24.3:
/// 得子后不致立即被对方将死; 24.17: the partners seize the target together)? It takes no part in
/// the capture (it does not reach the target in the exchange, is no screen that has just moved,
/// pins no enemy piece and uncovers no check when the target is taken), and some capture of the
/// target by another piece leaves the other side no mate at once with `p` on the board and one
/// without it: `p` keeps its own king safe, by its point or by its guard, as a shield does, and
/// is no partner.
fn keeps_off_a_mate(cx: &Ctx, b: &Board, target: PieceId, p: PieceId) -> bool {
    let (Some(t_sq), Some(p_sq)) = (b.square_of(target), b.square_of(p)) else {
        return false;
    };
    let spec = b.spec();
    let role = b.piece(p).role;
    let side = b.piece(p).side;
    if (spec.could_move(role, side, p_sq, t_sq) && reaches_in_the_exchange(b, p, t_sq))
        || moved_screen(cx, b, p, t_sq)
        || !pinned_by(b, p).is_empty()
        || checks_when_target_taken(b, p, target)
    {
        return false;
    }
    captures_on(b, t_sq)
        .into_iter()
        .filter(|c| c.from != p_sq)
        .any(|c| {
            let mut a = b.clone();
            apply(&mut a, c);
            !mates_at_once(cx, &a) && mates_at_once(cx, &without(&a, p_sq))
        })
}

/// Does the enemy piece `e` (no protector of the point taken) answer a capture only because a
/// piece of `me` is off the board: in `aw` (the board after the capture without that piece) it
/// reaches a point it does not reach in `a` (with the piece), to which it may legally move (its
/// own king neither checked nor facing the other) and where it takes a piece of `me` or checks
/// `me`'s king (reading `joint-chase-necessary`: a piece that keeps its own piece protected or
/// its king safe serves by its point; a move its side may not play answers nothing)?
fn opens_an_answer(a: &Board, aw: &Board, e: PieceId, me: Side) -> bool {
    let before = reach_of(a, e);
    let from = aw.square_of(e).expect("on board");
    reach_of(aw, e).difference(&before).any(|&sq| {
        let takes = aw.piece_id_at(sq).map(|x| aw.piece(x).side);
        if takes == Some(me.opponent()) {
            return false;
        }
        let mut x = aw.clone();
        x.set_turn(me.opponent());
        apply(&mut x, OMove::new(from, sq));
        let legal = !x.in_check(me.opponent()) && !x.kings_facing();
        legal && (takes == Some(me) || x.in_check(me))
    })
}

/// Does `p` take part in the exchange on `t_sq` (reading `joint-chase-necessary`: the capturers
/// are partners): could it move there now (a cannon over its screen), or once every other piece
/// (kings apart) that reaches `t_sq` itself, of either side, has left its point? A piece behind
/// the first capturer (a rook behind a rook, a cannon whose line opens) takes part; a piece whose
/// line stays closed by pieces that play no part in the exchange does not, whatever else it
/// guards (a guard of another piece is no partner).
fn reaches_in_the_exchange(b: &Board, p: PieceId, t_sq: Coord) -> bool {
    if guards(b, p, t_sq) {
        return true;
    }
    let others: Vec<Coord> = [Side::Red, Side::Black]
        .into_iter()
        .flat_map(|side| b.pieces_of(side))
        .filter(|q| q.id != p && !is_king(b, q.id))
        .filter_map(|q| q.square.filter(|&s| s != t_sq && guards(b, q.id, t_sq)))
        .collect();
    let cleared = others.iter().fold(b.clone(), |x, &s| without(&x, s));
    guards(&cleared, p, t_sq)
}

/// The point of `side`'s king, if it is on the board.
fn king_square(b: &Board, side: Side) -> Option<Coord> {
    b.pieces_of(side)
        .find(|k| is_king(b, k.id))
        .and_then(|k| k.square)
}

/// Does `p` give check once another piece of its side takes `target`: the capture uncovers its
/// check, so the other side must answer it before taking back (reading `joint-chase-necessary`;
/// 26.7, second sentence: 吃子时产生其他子"将军")?
fn checks_when_target_taken(b: &Board, p: PieceId, target: PieceId) -> bool {
    let Some(t_sq) = b.square_of(target) else {
        return false;
    };
    let Some(king) = king_square(b, b.piece(target).side) else {
        return false;
    };
    !guards(b, p, king)
        && captures_on(b, t_sq)
            .into_iter()
            .filter(|m| b.piece_id_at(m.from) != Some(p))
            .any(|m| {
                let mut a = b.clone();
                apply(&mut a, m);
                guards(&a, p, king)
            })
}

/// Is `p` the piece that has just moved (`cx.after_move`), and is it now the screen (炮架) of a
/// piece of its side that reaches `t_sq`, one whose screen it was not where it stood before the
/// move (reading `joint-chase-necessary`: the moved piece takes part, 24.3 所走动子…与其他子联合吃子)?
/// A screen that slides along the line of a capture keeps that capture as it was; its move makes
/// nothing. One that was another piece's screen before, on another line, makes the new capture.
fn moved_screen(cx: &Ctx, b: &Board, p: PieceId, t_sq: Coord) -> bool {
    let Some((moved, before)) = cx.after_move else {
        return false;
    };
    let screened = |x: &Board| {
        x.square_of(p).map_or_else(BTreeSet::new, |sq| {
            screened_through(x, &without(x, sq), p, t_sq)
        })
    };
    moved == p && !screened(b).is_subset(&screened(before))
}

/// Is `p` the screen (炮架) through which another piece of its side reaches `t_sq` ([`screened_through`])?
pub(crate) fn is_screen_for(b: &Board, w: &Board, p: PieceId, t_sq: Coord) -> bool {
    !screened_through(b, w, p, t_sq).is_empty()
}

/// The pieces of `p`'s side that reach `t_sq` in `b` through `p` as their screen (炮架): they
/// reach it in `b` and not in `w` (`b` without `p`).
fn screened_through(b: &Board, w: &Board, p: PieceId, t_sq: Coord) -> BTreeSet<PieceId> {
    b.pieces_of(b.piece(p).side)
        .filter(|q| {
            q.id != p && reach_of(b, q.id).contains(&t_sq) && !reach_of(w, q.id).contains(&t_sq)
        })
        .map(|q| q.id)
        .collect()
}

/// Can the side to move win `target` by a direct capture and the exchange that follows? (The
/// material count only: whether the taker is then mated is a separate condition, 29.4, and
/// taking a defender off the board must not count as taking part in the chase.)
fn winnable(cx: &Ctx, b: &Board, target: PieceId) -> bool {
    let rs = cx.rs;
    let Some(sq) = b.square_of(target) else {
        return false;
    };
    captures_on(b, sq).into_iter().any(|m| {
        let mut a = b.clone();
        apply(&mut a, m);
        let v = value(rs, b, target);
        v - see(cx, &a, sq, None, 8) > 0.0
            && !(rs.exchange_answered_anywhere && v - answer_elsewhere(cx, b, &a, sq) <= 0.0)
    })
}

/// Reading `complete-exchange-any-square` (24.3, 29.1: the complete exchange): after a capture
/// on `sq` (`b` before it, the capturing side to move; `a` after it), the best net material the
/// other side can win instead of recapturing, by taking elsewhere a piece that is newly en prise:
/// - the answering piece already attacked that point before the capture (the capture took a
///   guard away: the capturer itself, or the screen of a guarding cannon); a line the capture
///   opens is judged by the departure test (26.5) when the move makes the capture, and is an
///   answer here otherwise (always, where the rule set has no departure test);
/// - the other side could not already win the piece before the move (`cx.after_move`; before
///   the capture when no move is given): a piece already en prise is a threat of its own;
/// - it is not the piece that has just moved: a piece the move puts en prise is the move's own
///   offer (献), classed as such, and the heavier class decides (献兼捉, 参考图24); unless the
///   answering piece already attacked it where it stood before the move, and the other side
///   could not win it there ([`exposed_before_the_move`]): the move did not put it en prise;
/// - when the move makes the capture ([`capture_made_by_the_move`]: the capturer has just moved,
///   or, with 26.5 in force, could not take before the move), the capturer did not guard it: a
///   root piece (根子) that chases is judged by 26.5 on what its departure costs, not here (图22,
///   printed 捉).
///
/// Each exchange is counted like the one on `sq` ([`see`] on its point), and one after which the
/// capturing side mates at once is never made (29.4). A crossed pawn so won for the piece the
/// capture takes counts as that piece (reading `pawn-traded-level`: the trade is level, unless
/// 26.6 counts it, a pawn for a rook). At least 0: the other side may also do nothing of the
/// kind.
fn answer_elsewhere(cx: &Ctx, b: &Board, a: &Board, sq: Coord) -> f64 {
    let rs = cx.rs;
    // What the other side could already win before the move (before the capture when no move
    // is given) is no answer.
    let (moved, them_before) = match cx.after_move {
        Some((moved, before)) => (Some(moved), pass(before)),
        None => (None, pass(b)),
    };
    let capturer = a.piece_id_at(sq).expect("the capturer");
    // A line the capture opens (the capturer was a shield, 被牵) is the departure test's (26.5)
    // when the move makes the capture, and an answer here when it does not; always an answer
    // where the rule set has no departure test (1999: the complete exchange names no side).
    let opened = !rs.protector_chase_needs_gain || !capture_made_by_the_move(cx, b, capturer, sq);
    best_answer_elsewhere(cx, b, a, sq, &them_before, |c: OMove, answerer, victim| {
        (opened || reach_of(b, answerer).contains(&c.to))
            && (moved != Some(victim) || exposed_before_the_move(cx, answerer, victim))
            && !(guards(b, capturer, c.to) && capture_made_by_the_move(cx, b, capturer, sq))
    })
}

/// Reading `searched-capture-answered-elsewhere` (24.3, the complete exchange; 2011 26.5,
/// 被牵子捉子): a capture on `sq` that a search meets (what a side can win now, the end of a line
/// of checks; `b` before it, `a` after it, the other side to move) is answered elsewhere as a
/// capture with no move given is ([`answer_elsewhere`]), by taking any piece the other side
/// could not win before the capture: one a guard left (the capturer, or a cannon's screen) or
/// one whose line the capture opens (the capturer stood between, a shield). The most the other
/// side so nets; 0 if nothing.
pub(crate) fn answer_elsewhere_in_search(cx: &Ctx, b: &Board, a: &Board, sq: Coord) -> f64 {
    best_answer_elsewhere(cx, b, a, sq, &pass(b), |_: OMove, _, _| true)
}

/// The best net material the side to move in `a` (after a capture on `sq`; `b` before it) wins
/// by a capture elsewhere that `allowed` admits (the move, its answering piece and its victim),
/// of a piece it could not win in `them_before` and in `b` (a piece already en prise, and not
/// rescued by the move, is a threat of its own; [`wins_on`]). Each exchange is counted like the
/// one on `sq` ([`see`] on its point), and one after which the capturing side mates at once is
/// never made (29.4); a crossed pawn given for the piece it takes wins nothing. A crossed pawn so won for the
/// piece the capture takes counts as that piece (reading `pawn-traded-level`: the trade is level,
/// unless 26.6 counts it, a pawn for a rook). At least 0: the other side may also do nothing of
/// the kind.
fn best_answer_elsewhere(
    cx: &Ctx,
    b: &Board,
    a: &Board,
    sq: Coord,
    them_before: &Board,
    allowed: impl Fn(OMove, PieceId, PieceId) -> bool,
) -> f64 {
    let rs = cx.rs;
    let target = b.piece_id_at(sq).expect("the piece taken");
    let mut best = 0.0;
    for c in a.legal_moves() {
        if c.to == sq {
            continue;
        }
        let Some(victim) = a.piece_id_at(c.to) else {
            continue;
        };
        if !is_material(a, victim) {
            continue;
        }
        let answerer = a.piece_id_at(c.from).expect("a mover");
        // (a crossed pawn given for the piece it takes wins nothing: reading
        // `pawn-given-for-pieces`)
        if !allowed(c, answerer, victim) || pawn_given_by_capture(cx, a, c) {
            continue;
        }
        let mut d = a.clone();
        apply(&mut d, c);
        let mut g = value(rs, a, victim) - see_pawns_given(cx, &d, c.to, a.st.turn, None, 8);
        if g > 0.0 && is_pawn(a, victim) && !pawn_trade_is_gain(rs, b, target) {
            // A crossed pawn won for the piece the capture takes: the pawn's value floats, the
            // trade is level (reading `pawn-traded-level`; 25.3, 2011 26.6).
            g = g.max(value(rs, b, target));
        }
        // (a piece the other side could win before, and still could before the capture, is no
        // answer: a threat of its own; asked only of a better one)
        let standing = || wins_on(cx, them_before, c.to) && wins_on(cx, &pass(b), c.to);
        if g > best && !standing() && !mates_at_once(cx, &d) {
            best = g;
        }
    }
    best
}

/// Reading `pinned-departure` (26.5, 做根子和被牵子捉子): is the capture of the point `sq` by
/// `capturer` (`b` before it) one that the move just made (`cx.after_move`) makes: the capturer is
/// the piece that has just moved or, with 26.5 in force, the capture was no legal move of its side
/// before the move (the move opened its line, or freed it from a pin)? The exchange of such a
/// capture is judged by 26.5 on what the capturer's departure costs, not here.
pub(crate) fn capture_made_by_the_move(cx: &Ctx, b: &Board, capturer: PieceId, sq: Coord) -> bool {
    let Some((moved, before)) = cx.after_move else {
        return false;
    };
    if moved == capturer {
        return true;
    }
    cx.rs.protector_chase_needs_gain
        && b.square_of(capturer).is_some_and(|from| {
            before.square_of(capturer) == Some(from)
                && !before.legal_moves().contains(&OMove::new(from, sq))
        })
}

/// For [`answer_elsewhere`]: did the piece that has just moved (`moved`) already stand where
/// `answerer` attacked it before the move, without the other side being able to win it there?
/// Then the move did not put it en prise (it is no offer of the move), and a capture that takes
/// its guard away exposes it as it exposed it before: an answer like any other.
fn exposed_before_the_move(cx: &Ctx, answerer: PieceId, moved: PieceId) -> bool {
    let Some((_, before)) = cx.after_move else {
        return false;
    };
    let Some(old) = before.square_of(moved) else {
        return false;
    };
    before.square_of(answerer).is_some()
        && reach_of(before, answerer).contains(&old)
        && !wins_on(cx, &pass(before), old)
}

/// Reading `pawn-given-for-pieces` (25.3; 2011 26.6, 换取其他一子或数子均不算得子): can the side
/// to move in `a` take back on `sq` the pawn that has just captured there, so that the pawn is
/// given for pieces, whatever else the exchange on the point then wins? A legal recapture after
/// which it is not mated at once (29.4), by a piece the pawn's side cannot then win with a gain
/// where winning it would make the trade a gain (a rook in 2011: 主动送兵换车). Taking back may
/// cost the other side more by value (the pawn's side then takes the piece that took back): a
/// pawn given for several pieces is no gain either.
fn pawn_taken_back(cx: &Ctx, a: &Board, sq: Coord) -> bool {
    captures_on(a, sq).into_iter().any(|r| {
        let taker = a.piece_id_at(r.from).expect("a taker");
        let mut c = a.clone();
        apply(&mut c, r);
        !mates_at_once(cx, &c)
            && (!pawn_trade_is_gain(cx.rs, a, taker) || see(cx, &c, sq, None, 7) <= 0.0)
    })
}

/// Reading `pawn-given-for-pieces`, wherever one capture is weighed on its own (a capture a search
/// meets, an answer elsewhere, what a side could win anyway): is the capture `m` of the side to
/// move in `b` a crossed pawn given for the piece it takes? The pawn counts as material, 26.6
/// does not count the trade (in 2011 it counts a rook), and the other side can take the pawn
/// back ([`pawn_taken_back`]) or wins by the exchange on the point: no gain, as
/// [`capture_threat`] counts it.
pub(crate) fn pawn_given_by_capture(cx: &Ctx, b: &Board, m: OMove) -> bool {
    let (Some(attacker), Some(target)) = (b.piece_id_at(m.from), b.piece_id_at(m.to)) else {
        return false;
    };
    if !is_pawn(b, attacker) || pawn_trade_is_gain(cx.rs, b, target) {
        return false;
    }
    let mut a = b.clone();
    apply(&mut a, m);
    value(cx.rs, &a, attacker) > 0.0
        && (see_pawns_given(cx, &a, m.to, b.st.turn, None, 8) > 0.0
            || pawn_taken_back(cx, &a, m.to))
}

/// Can the side to move in `b` win the piece on `sq` by a capture there, counted over the
/// exchange on the point ([`see`]) as its threats count it: a crossed pawn given for the piece
/// wins nothing ([`pawn_given_by_capture`]; reading `pawn-given-for-pieces`)?
pub(crate) fn wins_on(cx: &Ctx, b: &Board, sq: Coord) -> bool {
    let Some(victim) = b.piece_id_at(sq) else {
        return false;
    };
    let v = value(cx.rs, b, victim);
    see(cx, b, sq, None, 8) > 0.0
        && captures_on(b, sq).into_iter().any(|m| {
            let mut a = b.clone();
            apply(&mut a, m);
            v - see_pawns_given(cx, &a, sq, b.st.turn, None, 7) > 0.0
                && !mates_at_once(cx, &a)
                && !pawn_given_by_capture(cx, b, m)
        })
}

/// Is giving up pawns for `target` a gain? (25.3: never; 2011 26.6: for a rook.)
pub(crate) fn pawn_trade_is_gain(rs: &RuleSet, b: &Board, target: PieceId) -> bool {
    rs.pawn_for_rook_is_gain && role_id(b, target) == "rook"
}

/// Lines of consecutive checks that end in a gain of material whatever the defender answers
/// (29.1 second form). Each threat names the first checking piece and a piece won.
fn check_threats(cx: &Ctx, b: &Board, depth: u32, checker: Option<PieceId>) -> Vec<Threat> {
    let rs = cx.rs;
    let mut out = Vec::new();
    for k in checking_moves(b) {
        let attacker = b.piece_id_at(k.from).expect("a mover");
        if checker.is_some_and(|c| c != attacker) {
            continue;
        }
        if let Some(line) = check_line(cx, b, k, depth) {
            let Won {
                gain,
                targets,
                mut checkers,
                ..
            } = line;
            let line_wins: BTreeSet<PieceId> = targets.keys().copied().collect();
            // A pawn won by a line of checks is no gain: its value floats (25.3 / 2011 26.6;
            // reading `floating-pawn-by-checks`).
            for (target, capturers) in targets
                .into_iter()
                .filter(|(t, _)| !(rs.pawn_by_checks_no_gain && is_pawn(b, *t)))
            {
                out.push(Threat {
                    target,
                    attacker,
                    gain,
                    joint: false,
                    via_checks: true,
                    cover: cover_on_board(b, target),
                    necessary: Vec::new(),
                    first_capture: b.piece_id_at(k.to),
                    capturers,
                    checkers: checkers.remove(&target).unwrap_or_default(),
                    line_wins: line_wins.clone(),
                });
            }
        }
    }
    out
}

/// Can a line of consecutive checks of the side to move in `b` win `target`, a piece of the
/// other side: a line that holds against the best defence with `target` among the pieces it
/// wins, when at the end of the line only the ways that take `target` count (reading
/// `newness-of-a-line-of-checks`: a greater gain elsewhere, such as a capture that stood anyway,
/// does not hide that the line wins it)? A pawn is never won by a line where a pawn so won is no
/// gain (`floating-pawn-by-checks`).
pub(crate) fn line_can_win(cx: &Ctx, b: &Board, target: PieceId) -> bool {
    if cx.rs.pawn_by_checks_no_gain && is_pawn(b, target) {
        return false;
    }
    let cx = cx.aiming_at(target);
    checking_moves(b).into_iter().any(|k| {
        check_line(&cx, b, k, cx.rs.chase_search_depth)
            .is_some_and(|w| w.targets.contains_key(&target))
    })
}

/// The threats by lines of consecutive checks that [`threats`] leaves unnamed (reading
/// `newness-of-a-line-of-checks`, after the move): a line is named after the greatest gain at its
/// end, so a piece it could also win hides behind a greater capture that the line's end offers
/// too. For each line of the side to move in `b` that holds ([`check_line`]), every piece of the
/// other side that it could win when only the ways that take that piece count (the question of
/// [`line_can_win`]), besides the pieces `found` (the threats of `b`) already lists, with the
/// pieces that take part in winning it as that aimed line finds them, each with the check that
/// opens its line. The pieces `unlisted` are asked about though `found` lists them: their only
/// direct captures are left out by 26.5 (a line of checks behind such a capture may win the
/// piece all the same; reading `pinned-departure`).
pub(crate) fn hidden_line_threats(
    cx: &Ctx,
    b: &Board,
    found: &[Threat],
    unlisted: &BTreeSet<PieceId>,
) -> Vec<(OMove, Threat)> {
    let rs = cx.rs;
    let lines_count = rs
        .chase_forms
        .iter()
        .any(|f| f == "capture_after_consecutive_checks")
        && rs.chase_search_depth >= 3;
    if !lines_count {
        return Vec::new();
    }
    let listed: BTreeSet<PieceId> = found
        .iter()
        .map(|t| t.target)
        .filter(|t| !unlisted.contains(t))
        .collect();
    let unnamed: Vec<PieceId> = b
        .pieces_of(b.side_to_move().opponent())
        .map(|p| p.id)
        .filter(|id| is_material(b, *id) && !listed.contains(id))
        .filter(|id| !(rs.pawn_by_checks_no_gain && is_pawn(b, *id)))
        .collect();
    let depth = rs.chase_search_depth;
    let mut out = Vec::new();
    if unnamed.is_empty() {
        return out;
    }
    for k in checking_moves(b) {
        if check_line(cx, b, k, depth).is_none() {
            continue;
        }
        let attacker = b.piece_id_at(k.from).expect("a mover");
        for &x in &unnamed {
            let Some(mut w) = check_line(&cx.aiming_at(x), b, k, depth) else {
                continue;
            };
            let Some(capturers) = w.targets.get(&x).cloned() else {
                continue;
            };
            out.push((
                k,
                Threat {
                    target: x,
                    attacker,
                    gain: w.gain,
                    joint: false,
                    via_checks: true,
                    cover: cover_on_board(b, x),
                    necessary: Vec::new(),
                    first_capture: b.piece_id_at(k.to),
                    capturers,
                    checkers: w.checkers.remove(&x).unwrap_or_default(),
                    line_wins: w.targets.keys().copied().collect(),
                },
            ));
        }
    }
    out
}

/// Marks the threats by lines of consecutive checks among `threats` (those of `b`) that are
/// joint chases (24.17; reading `joint-line-of-checks`): the pieces that take part are the pieces
/// that give a check on the way to the target ([`Threat::checkers`]) and the pieces that capture
/// it at the end of the line ([`Threat::capturers`]); it is joint when two or more of them are each needed, the target
/// being won in no other way (by a capture, or by a line of checks that wins it or could win it,
/// [`line_can_win`]) without one of them. Asked for
/// the threats of the move being classified only: no other question reads it.
pub(crate) fn mark_joint_lines(cx: &Ctx, b: &Board, threats: &mut [Threat]) {
    if !cx.rs.joint_chase {
        return;
    }
    let depth = cx.rs.chase_search_depth;
    // The piece that has just moved is tried too (24.3: 所走动子…与其他子联合吃子), unless it
    // shields its own king: without it its side would be in check or the kings would face each
    // other, and a piece that keeps its king safe takes no part (参考图23, "九路车捉炮").
    let moved = cx.after_move.map(|(m, _)| m).filter(|m| {
        b.square_of(*m).is_some_and(|sq| {
            let w = without(b, sq);
            !w.in_check(b.piece(*m).side) && !w.kings_facing()
        })
    });
    for t in threats.iter_mut().filter(|t| t.via_checks) {
        let takes_part: BTreeSet<PieceId> = t
            .capturers
            .iter()
            .chain(&t.checkers)
            .copied()
            .chain([t.attacker])
            .chain(moved)
            .filter(|p| !is_king(b, *p))
            .collect();
        // Once too few pieces are left to make two needed ones, the others need not be tried.
        let mut needed = Vec::new();
        for (i, p) in takes_part.iter().enumerate() {
            if needed.len() + (takes_part.len() - i) < 2 {
                break;
            }
            let rest = without(b, b.square_of(*p).expect("on board"));
            // Without it the other side would stand in check (or the kings face each other)
            // with this side to move, a position no game reaches: the piece shields the other
            // king from this side's check (the front piece of a discovered check) and takes
            // part; what could be won there says nothing (reading `joint-line-of-checks`).
            let unreachable = rest.in_check(b.side_to_move().opponent()) || rest.kings_facing();
            if unreachable
                || !(winnable(cx, &rest, t.target)
                    || line_wins_target(cx, &rest, depth, t.target)
                    || line_can_win(cx, &rest, t.target))
            {
                needed.push(*p);
            }
        }
        if needed.len() >= 2 {
            t.joint = true;
            t.necessary = needed;
        }
    }
}

/// Does some line of consecutive checks of the side to move win `target` ([`check_line`])?
fn line_wins_target(cx: &Ctx, b: &Board, depth: u32, target: PieceId) -> bool {
    checking_moves(b)
        .into_iter()
        .any(|k| check_line(cx, b, k, depth).is_some_and(|l| l.targets.contains_key(&target)))
}

/// How a piece won by a line of consecutive checks stands (24.15, reading
/// `protection-of-a-piece-won-by-checks`): unprotected (無根) only when no other piece of its
/// side guards its point on the board; a line of checks may win a protected piece too. A guard
/// that could not legally take back there (its king would then be in check or face the other
/// king) is a false protector (假根, 2011 24.16, 1999 28.16) and does not count.
pub(crate) fn cover_on_board(b: &Board, target: PieceId) -> Cover {
    let Some(sq) = b.square_of(target) else {
        return Cover::Unprotected;
    };
    let side = b.piece(target).side;
    if b.pieces_of(side)
        .any(|q| q.id != target && guards(b, q.id, sq) && could_take_back(b, q.id, sq))
    {
        Cover::Underprotected
    } else {
        Cover::Unprotected
    }
}

/// Could `guard` take back on `sq` without leaving its king in check or facing the other king,
/// were an enemy piece to capture there (whatever that piece, the board after the recapture is
/// the same: `guard` on `sq`, its point empty)?
fn could_take_back(b: &Board, guard: PieceId, sq: Coord) -> bool {
    let Some(from) = b.square_of(guard) else {
        return false;
    };
    let side = b.piece(guard).side;
    let mut a = b.clone();
    apply(&mut a, OMove { from, to: sq });
    !a.in_check(side) && !a.kings_facing()
}

/// The enemy pieces the piece on `from` could legally capture (side to move's piece).
pub(crate) fn capturable_by(b: &Board, from: Coord) -> Vec<PieceId> {
    b.legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .filter_map(|m| b.piece_id_at(m.to))
        .collect()
}

/// The points an enemy piece could move to by its movement rules (for blocks, 28.7).
pub(crate) fn reach_of(b: &Board, id: PieceId) -> BTreeSet<Coord> {
    let side = b.piece(id).side;
    let mut t = b.clone();
    t.set_turn(side);
    let from = b.square_of(id).expect("on board");
    t.pseudo_legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| m.to)
        .collect()
}

/// Does `guard` (on the board `b`) protect the point `sq`: could it capture there if an enemy
/// piece stood on it? (Its own piece on `sq` is taken as an enemy's for the test.)
pub(crate) fn guards(b: &Board, guard: PieceId, sq: Coord) -> bool {
    let mut t = b.clone();
    let side = t.piece(guard).side;
    if let Some(id) = t.piece_id_at(sq) {
        t.st.table[id.0 as usize].side = side.opponent();
    }
    reach_of(&t, guard).contains(&sq)
}

/// The board without the piece on `c` (for blocks: what would the enemy reach without it?).
pub(crate) fn without(b: &Board, c: Coord) -> Board {
    let mut t = b.clone();
    if let Some(id) = t.st.mailbox[c.index()] {
        t.st.mailbox[c.index()] = None;
        t.st.table[id.0 as usize].square = None;
    }
    t
}

/// Can `side` legally capture the piece on `sq` (with `side` to move)?
pub(crate) fn can_capture(b: &Board, side: Side, sq: Coord) -> Vec<PieceId> {
    let mut t = b.clone();
    t.set_turn(side);
    captures_on(&t, sq)
        .into_iter()
        .filter_map(|m| t.piece_id_at(m.from))
        .collect()
}
