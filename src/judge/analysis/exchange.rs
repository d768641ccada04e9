//! The exchange (兑换): the static exchange on a point, the direct threats (a capture with
//! gain, the chase test of 29.1 first form and the exchange forms), and the best gain a side can
//! force by captures and lines of checks, with its bounded variants.

use super::board::{
    captures_on, captures_ordered, could_move, id_at, id_bit, ids_in, ids_on, is_king, is_material,
    is_pawn, pinned_by, reach_of, role_id, squares_of, value, value_at, IdSet,
};
use super::{ids_fingerprint, worth_step, Analyzer, Ceilings, Cover, Threat, Ties, Won};
use crate::judge::track::{PieceId, Tracked};
use crate::judge::RuleSet;
use crate::{Color, Move, MoveList, Piece, Role, Square};

impl Analyzer<'_> {
    /// Static exchange on `sq` for the side to move (the oracle's `see` with no restriction):
    /// the best net material it can force there (≥ 0), a capture after which the other side
    /// mates at once never being worth making (29.4).
    pub fn see(&mut self, b: &mut Tracked, sq: Square, depth: u32) -> f64 {
        if depth == 0 {
            return 0.0;
        }
        let Some(victim) = id_at(b, sq) else {
            return 0.0;
        };
        // Most points asked about cannot be taken at all: that is found without the cache.
        let caps = captures_on(b, sq);
        if caps.is_empty() {
            return 0.0;
        }
        let key = (
            b.value_hash(),
            sq.index() as u8,
            depth,
            squares_of(b, self.offered),
        );
        if let Some(&v) = self.caches.sees.get(&key) {
            return v;
        }
        let v = value(self.rs, b, victim);
        let mut best = 0.0;
        for m in caps {
            let u = b.play_undo(m);
            let g = v - self.see(b, sq, depth - 1);
            if g > best && !self.mates_at_once(b) {
                best = g;
            }
            b.undo(m, u);
        }
        self.caches.sees.insert(key, best);
        best
    }

    /// [`Analyzer::see`] on `sq` after a capture there by `chaser`, where a crossed pawn of
    /// `chaser` that takes back on `sq` and is then taken counts as the piece it took (reading
    /// `pawn-given-for-pieces`; the oracle's `see_pawns_given`). `worth`: what the piece on `sq`
    /// counts for when taken, when it is such a pawn.
    pub(crate) fn see_pawns_given(
        &mut self,
        b: &mut Tracked,
        sq: Square,
        chaser: Color,
        worth: Option<f64>,
        depth: u32,
    ) -> f64 {
        if depth == 0 {
            return 0.0;
        }
        let Some(victim) = id_at(b, sq) else {
            return 0.0;
        };
        // No pawn of the chaser can come to take back there: the plain exchange.
        if worth.is_none()
            && !b
                .pos
                .pieces(Piece::new(chaser, Role::Pawn))
                .any(|p| p != sq && b.pos.guards(p, sq))
        {
            return self.see(b, sq, depth);
        }
        let rs = self.rs;
        let v = worth.unwrap_or_else(|| value(rs, b, victim));
        let mut best = 0.0;
        for m in captures_on(b, sq) {
            let mover = id_at(b, m.from()).expect("capture from a piece");
            let mover_is_chasers = b.pos.piece_at(m.from()).is_some_and(|p| p.color == chaser);
            let took = value(rs, b, victim);
            let rook = pawn_trade_is_gain(rs, b, victim);
            let u = b.play_undo(m);
            // (a pawn that crosses by this capture and is taken at once is worth nothing there
            // in 2011: reading `just-crossed-pawn`)
            let given = mover_is_chasers && is_pawn(b, mover) && value(rs, b, mover) > 0.0 && !rook;
            let w = given.then(|| took.max(value(rs, b, mover)));
            let g = v - self.see_pawns_given(b, sq, chaser, w, depth - 1);
            if g > best && !self.mates_at_once(b) {
                best = g;
            }
            b.undo(m, u);
        }
        best
    }

    /// [`Analyzer::direct_threats`], cached with the threats.
    pub(super) fn direct_threats_cached(&mut self, b: &Tracked) -> Vec<Threat> {
        self.with_direct_threats(b, |d| d.to_vec())
    }

    /// `f` of [`Analyzer::direct_threats`], cached with the threats, without copying them.
    pub(super) fn with_direct_threats<T>(
        &mut self,
        b: &Tracked,
        f: impl FnOnce(&[Threat]) -> T,
    ) -> T {
        let key = self.threats_key(b, super::DIRECT_THREATS);
        if let Some(d) = self.caches.threats.get(&key) {
            return f(d);
        }
        let d = self.direct_threats(b);
        let r = f(&d);
        self.caches.threats.insert(key, d);
        r
    }

    /// Is there a direct threat of [`Analyzer::direct_threats`] to `target` made by `attacker`
    /// (any piece: `None`)? Read from the cached threats when they are known; else only the
    /// captures on the target's point are tried. A direct threat is one capture with gain
    /// ([`Analyzer::capture_threat`]), found or not whatever the other captures are: the joint
    /// chase (24.17) of `direct_threats` marks the threats it finds and removes none, so the
    /// threats of one (attacker, target) pair are those of the capture between their points.
    pub(super) fn direct_threat_on(
        &mut self,
        b0: &Tracked,
        attacker: Option<PieceId>,
        target: PieceId,
    ) -> bool {
        let key = self.threats_key(b0, super::DIRECT_THREATS);
        if let Some(d) = self.caches.threats.get(&key) {
            return d
                .iter()
                .any(|t| t.target == target && attacker.is_none_or(|a| t.attacker == a));
        }
        let Some(sq) = b0.square_of(target) else {
            return false;
        };
        let from = match attacker {
            Some(a) => match b0.square_of(a) {
                Some(s) => Some(s),
                None => return false,
            },
            None => None,
        };
        let caps = captures_on(b0, sq);
        let mut tried = caps
            .into_iter()
            .filter(|m| from.is_none_or(|f| m.from() == f))
            .peekable();
        if tried.peek().is_none() {
            return false;
        }
        let mut b = b0.clone();
        let mut now = WinnableNow::of(self.rs.exchange_over_two_squares);
        tried.any(|m| self.capture_threat(b0, &mut b, m, &mut now).is_some())
    }

    /// Direct captures with gain (29.1 first form and the exchange form).
    fn direct_threats(&mut self, b0: &Tracked) -> Vec<Threat> {
        let rs = self.rs;
        let mut b = b0.clone();
        let me = b.pos.turn();
        let mut out: Vec<Threat> = Vec::new();
        let mut now = WinnableNow::of(rs.exchange_over_two_squares);
        for &m in self.captures(&b).iter() {
            if let Some(t) = self.capture_threat(b0, &mut b, m, &mut now) {
                out.push(t);
            }
        }
        if rs.joint_chase {
            let targets: IdSet = out.iter().fold(0, |a, t| a | id_bit(t.target));
            for target in ids_in(targets) {
                // The target is won by a capture counted on its square, or only across two
                // squares (exchange-removes-protector): a partner is a piece without which it is
                // no longer won that way.
                let across = !self.wins_by_capture(&b, target, false);
                let t_sq = b.square_of(target).expect("on board");
                let protectors: Vec<Square> = b
                    .ids_of(me.other())
                    .filter(|q| *q != target)
                    .filter_map(|q| {
                        let s = b.square_of(q)?;
                        let p = b.pos.piece_at(s)?;
                        could_move(p, s, t_sq).then_some(s)
                    })
                    .collect();
                // The pieces those protectors guard, by geometry, when the target is won only
                // across two squares: the piece that takes one of them at the end is a partner
                // (exchange-removes-protector; reading `joint-chase-necessary`).
                let guarded: Vec<Square> = if across {
                    b.ids_of(me.other())
                        .filter(|x| *x != target)
                        .filter_map(|x| b.square_of(x))
                        .filter(|x| {
                            protectors
                                .iter()
                                .any(|q| b.pos.piece_at(*q).is_some_and(|g| could_move(g, *q, *x)))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let mut candidates: Vec<PieceId> = b
                    .ids_of(me)
                    .filter(|p| !is_king(&b, *p))
                    .filter(|p| {
                        let s = b.square_of(*p).expect("on board");
                        let pc = b.pos.piece_at(s).expect("on board");
                        (could_move(pc, s, t_sq) && reaches_in_the_exchange(&b, *p, t_sq))
                            || self.moved_screen(&b, *p, t_sq)
                            || checks_when_target_taken(&b, *p, t_sq)
                            || protectors
                                .iter()
                                .chain(&guarded)
                                .any(|q| could_move(pc, s, *q))
                    })
                    .collect();
                // And a piece that pins an enemy piece that would otherwise stop the capture:
                // with both off the board the target is won again.
                let rest: Vec<PieceId> = b
                    .ids_of(me)
                    .filter(|p| !is_king(&b, *p) && !candidates.contains(p))
                    .collect();
                for p in rest {
                    let pins = ids_in(pinned_by(&b, p))
                        .any(|e| self.wins_without(&b, &[p, e], target, across));
                    if pins {
                        candidates.push(p);
                    }
                }
                // A piece that serves only by its point (a screen, an obstacle in an enemy line)
                // takes no part; a rook is judged like any other target.
                let capturers: IdSet = out
                    .iter()
                    .filter(|t| t.target == target)
                    .fold(0, |a, t| a | id_bit(t.attacker));
                let mut necessary: IdSet = 0;
                for p in candidates {
                    if self.wins_without(&b, &[p], target, across) {
                        continue;
                    }
                    let w = b.without(b.square_of(p).expect("on board"));
                    if !self.serves_only_by_its_point(&b, &w, target, p, across)
                        && !self.idle_guard_of_unprotected(
                            &b,
                            target,
                            p,
                            capturers,
                            &protectors,
                            across,
                        )
                        && !self.keeps_off_a_mate(&b, target, p)
                    {
                        necessary |= id_bit(p);
                    }
                }
                if let Some(k) = self.king_takes_part(&b, target, across) {
                    necessary |= id_bit(k);
                }
                let joint = necessary.count_ones() >= 2;
                for t in out.iter_mut().filter(|t| t.target == target) {
                    t.joint = joint;
                    t.necessary = necessary;
                }
            }
        }
        out
    }

    /// The threat made by the capture `m` of the side to move (the oracle's `capture_threat`), if
    /// it wins material: the gain after the complete exchange (on the capture square, across two
    /// squares when `now` counts it, or answered elsewhere), no capture after which the
    /// taker is mated at once or that a line of checks answers, no pawn given for a piece. `b0` is
    /// the position, `b` a copy of it to play in (given back as it was).
    fn capture_threat(
        &mut self,
        b0: &Tracked,
        b: &mut Tracked,
        m: Move,
        now: &mut WinnableNow,
    ) -> Option<Threat> {
        let rs = self.rs;
        let target = id_at(b, m.to())?;
        if !is_material(b, target) {
            return None;
        }
        let attacker = id_at(b, m.from()).expect("a mover");
        let tval = value(rs, b, target);
        let attacker_is_pawn = is_pawn(b, attacker);
        let pawn_taken = is_pawn(b, target);
        let pawn_ok = pawn_trade_is_gain(rs, b, target);
        let u = b.play_undo(m);
        let back = self.see_pawns_given(b, m.to(), b0.pos.turn(), None, 8);
        let mut gain = tval - back;
        if gain <= 0.0 {
            if let Some(now) = self.winnable_now(b0, now) {
                gain = gain.max(self.exchange_with_follow_up(b0, b, m, tval, now));
            }
        }
        if rs.exchange_answered_anywhere && gain > 0.0 {
            gain = gain.min(tval - self.answer_elsewhere(b0, b, m.to(), tval));
        }
        let skip = gain <= 0.0
            || self.mates_at_once(b)
            || self.capturer_won_back_by_checks(b0, b, m.to(), pawn_taken, tval, gain)
            || self.checks_answer_capture(b0, b, attacker, tval, gain);
        // Any legal recapture makes the piece protected, if not fully (少根, 24.15), even one after
        // which its side is mated at once (参考图34: 黑方长捉少根子).
        let recaptures = !skip && !captures_on(b, m.to()).is_empty();
        // A crossed pawn given for a piece or several is no gain (25.3; 2011 26.6: except for a
        // rook); an uncrossed one (or one just crossed by the capture, in 2011) is no material
        // and costs nothing (reading `pawn-given-for-pieces`).
        let pawn_given = !skip
            && attacker_is_pawn
            && value(rs, b, attacker) > 0.0
            && !pawn_ok
            && (back > 0.0 || self.pawn_taken_back(b, m.to()));
        b.undo(m, u);
        if skip || pawn_given {
            return None;
        }
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
            necessary: 0,
            first_capture: None,
            captured_by_kings: is_king(b, attacker),
            captured_by_pawns: attacker_is_pawn,
            line_wins: id_bit(target),
            line_move: None,
            aim: None,
        })
    }

    /// Reading `pawn-given-for-pieces`, wherever one capture is weighed on its own (a capture a
    /// search meets, an answer elsewhere, what a side could win anyway; the oracle's
    /// `pawn_given_by_capture`): is the capture `m` of the side to move a crossed pawn given for
    /// the piece it takes (a pawn that counts as material, a piece for which 26.6 does not count
    /// the trade, and the other side can take back), so no gain, as [`Analyzer::capture_threat`]
    /// counts it?
    pub(crate) fn pawn_given_by_capture(&mut self, b: &mut Tracked, m: Move) -> bool {
        let (Some(attacker), Some(target)) = (id_at(b, m.from()), id_at(b, m.to())) else {
            return false;
        };
        if !is_pawn(b, attacker) || pawn_trade_is_gain(self.rs, b, target) {
            return false;
        }
        let side = b.pos.turn();
        let u = b.play_undo(m);
        let given = value(self.rs, b, attacker) > 0.0
            && (self.see_pawns_given(b, m.to(), side, None, 8) > 0.0
                || self.pawn_taken_back(b, m.to()));
        b.undo(m, u);
        given
    }

    /// Can the side to move win the piece on `sq` by a capture there, counted over the exchange
    /// on the point ([`Analyzer::see`]) as its threats count it: a crossed pawn given for the
    /// piece wins nothing ([`Analyzer::pawn_given_by_capture`]; the oracle's `wins_on`)?
    pub(crate) fn wins_on(&mut self, b: &mut Tracked, sq: Square) -> bool {
        let Some(victim) = id_at(b, sq) else {
            return false;
        };
        if self.see(b, sq, 8) <= 0.0 {
            return false;
        }
        let v = value(self.rs, b, victim);
        let side = b.pos.turn();
        for m in captures_on(b, sq) {
            let u = b.play_undo(m);
            let ok = v - self.see_pawns_given(b, sq, side, None, 7) > 0.0 && !self.mates_at_once(b);
            b.undo(m, u);
            if ok && !self.pawn_given_by_capture(b, m) {
                return true;
            }
        }
        false
    }

    /// Reading `pawn-given-for-pieces` (the oracle's `pawn_taken_back`): can the side to move in
    /// `a` take back on `sq` the pawn that has just captured there, by a legal recapture after
    /// which it is not mated at once and by a piece the pawn's side cannot then win with a gain
    /// where winning it makes the trade a gain (a rook in 2011)?
    fn pawn_taken_back(&mut self, a: &mut Tracked, sq: Square) -> bool {
        for r in captures_on(a, sq) {
            let taker = id_at(a, r.from()).expect("a taker");
            let rook = pawn_trade_is_gain(self.rs, a, taker);
            let u = a.play_undo(r);
            let ok = !self.mates_at_once(a) && (!rook || self.see(a, sq, 7) <= 0.0);
            a.undo(r, u);
            if ok {
                return true;
            }
        }
        false
    }

    /// Can the side to move win `target` by capturing it, the gain counted as for its threats
    /// (the oracle's `wins_by_capture`)? `across`: counting the exchange across two squares too.
    pub(crate) fn wins_by_capture(&mut self, b0: &Tracked, target: PieceId, across: bool) -> bool {
        let Some(sq) = b0.square_of(target) else {
            return false;
        };
        let captures = captures_on(b0, sq);
        if captures.is_empty() {
            return false;
        }
        let mut b = b0.clone();
        let mut now = WinnableNow::of(across && self.rs.exchange_over_two_squares);
        captures
            .into_iter()
            .any(|m| self.capture_threat(b0, &mut b, m, &mut now).is_some())
    }

    /// [`Analyzer::wins_by_capture`] on the board without the pieces `removed`, judged against
    /// the position before the move without them too (the oracle's `wins_without`, reading
    /// `joint-chase-necessary`: an answer their absence frees could be made before the move as
    /// well).
    fn wins_without(
        &mut self,
        b: &Tracked,
        removed: &[PieceId],
        target: PieceId,
        across: bool,
    ) -> bool {
        let off = |x: &Tracked| {
            removed
                .iter()
                .filter_map(|id| x.square_of(*id))
                .fold(x.clone(), |y, sq| y.without(sq))
        };
        let w = off(b);
        let Some(m) = &self.after_move else {
            return self.wins_by_capture(&w, target, across);
        };
        let them_before = off(&m.them_before);
        let key = (them_before.pos.hash(), super::ids_fingerprint(&them_before));
        let moved = m.moved;
        let old = self.after_move.replace(super::AfterMove {
            moved,
            them_before,
            key,
        });
        let r = self.wins_by_capture(&w, target, across);
        self.after_move = old;
        r
    }

    /// [`WinnableNow`] of `b0`: the pieces its side to move can win by a direct capture
    /// ([`Analyzer::direct_plain_targets`]), found on the first capture that needs them.
    fn winnable_now(&mut self, b0: &Tracked, now: &mut WinnableNow) -> Option<IdSet> {
        match *now {
            WinnableNow::NotCounted => None,
            WinnableNow::Known(s) => Some(s),
            WinnableNow::Unknown => {
                let s = self.direct_plain_targets(&mut b0.clone());
                *now = WinnableNow::Known(s);
                Some(s)
            }
        }
    }

    /// The pieces the side to move can win by a direct capture now (the targets of the oracle's
    /// `direct_threats_plain`).
    fn direct_plain_targets(&mut self, b: &mut Tracked) -> IdSet {
        let mut out = 0;
        for m in captures_ordered(b) {
            let Some(target) = id_at(b, m.to()) else {
                continue;
            };
            if self.capture_gain_above(b, m, 0.0).is_some() {
                out |= id_bit(target);
            }
        }
        out
    }

    /// The complete exchange across two squares (reading `exchange-removes-protector`): `a` is
    /// the position after the capture `m` of a piece worth `v`; if the other side recaptures,
    /// the capturer may instead take elsewhere a piece it could not win before (not in
    /// `winnable_now`). The net gain the other side's best answer leaves the capturer. `b0` is
    /// the position before the capture.
    fn exchange_with_follow_up(
        &mut self,
        b0: &Tracked,
        a: &mut Tracked,
        m: Move,
        v: f64,
        winnable_now: IdSet,
    ) -> f64 {
        let rs = self.rs;
        let capturer = id_at(a, m.to()).expect("the capturer");
        let vc = value(rs, a, capturer);
        // The pieces a line of checks could already win before the capture, found when a line
        // after the exchange needs them.
        let mut lines_before: Option<IdSet> = None;
        let mut worst = v;
        for r in captures_on(a, m.to()) {
            let ur = a.play_undo(r);
            if self.mates_at_once(a) {
                a.undo(r, ur);
                continue;
            }
            let mut best = self.next_after_recapture(a, m.to(), b0.pos.turn(), winnable_now);
            // Or a line of consecutive checks that wins the piece that took back, or a piece the
            // capturer could not win before (reading `exchange-continued-by-checks`; the
            // oracle's `line_after_exchange`).
            best =
                self.best_line_after_exchange(b0, a, m.to(), best, winnable_now, &mut lines_before);
            a.undo(r, ur);
            worst = worst.min(v - vc + best);
        }
        // Or a trade elsewhere first (中间兑子), the recapture after it.
        if worst > 0.0 {
            worst = self.trade_before_recapture(
                b0,
                a,
                m.to(),
                v,
                winnable_now,
                &mut lines_before,
                worst,
            );
        }
        worst
    }

    /// For [`Analyzer::exchange_with_follow_up`] (the oracle's `next_after_recapture`): what the
    /// capturer (its side `me`, to move in `c` after the other side's recapture on `sq`) nets
    /// next without a line of checks: going on on the same square (a pawn the capturer's side
    /// gives there counted as the piece it takes), or taking a piece it could not win before
    /// (not in `winnable_now`), its guard gone, that capture weighed as those were
    /// ([`Analyzer::capture_gain_above`]: a line its departure opens is an answer to it).
    fn next_after_recapture(
        &mut self,
        c: &mut Tracked,
        sq: Square,
        me: Color,
        winnable_now: IdSet,
    ) -> f64 {
        let mut best = self.see_pawns_given(c, sq, me, None, 7);
        let moves = c.pos.legal_moves();
        for &f in moves.iter() {
            let Some(t) = id_at(c, f.to()) else {
                continue;
            };
            if f.to() == sq || winnable_now & id_bit(t) != 0 || !is_material(c, t) {
                continue;
            }
            // Weighed as the captures that made `winnable_now` are: over its complete
            // exchange, a line its departure opens included.
            if let Some(g) = self.capture_gain_above(c, f, best.max(0.0)) {
                best = g;
            }
        }
        best
    }

    /// Reading `exchange-removes-protector`, the trade in between (中间兑子; the oracle's
    /// `trade_before_recapture`): after the capture on `sq` of a piece worth `v` (`b0` before
    /// it, `a` after it, the other side to move), the other side may first capture elsewhere a
    /// piece whose exchange there costs it nothing, not one it could already win before the
    /// move, never by a capture after which it is mated at once; the capturer answers as it
    /// best can ([`Analyzer::trade_answered`]). Returns `worst` lowered to the least net gain
    /// of the capturer over those answers; exact when positive.
    #[allow(clippy::too_many_arguments)]
    fn trade_before_recapture(
        &mut self,
        b0: &Tracked,
        a: &mut Tracked,
        sq: Square,
        v: f64,
        winnable_now: IdSet,
        lines_before: &mut Option<IdSet>,
        worst: f64,
    ) -> f64 {
        let rs = self.rs;
        let me = b0.pos.turn();
        let vc = value(rs, a, id_at(a, sq).expect("the capturer"));
        // The position the other side could already win in, copied on first need.
        let mut them_before: Option<Tracked> = None;
        let mut worst = worst;
        let caps = self.captures(a);
        for &x in caps.iter() {
            if worst <= 0.0 {
                break;
            }
            let Some(y) = id_at(a, x.to()) else {
                continue;
            };
            if x.to() == sq || !is_material(a, y) {
                continue;
            }
            let vy = value(rs, a, y);
            // The capturer's answer nets at least 0: only a trade of a piece worth more than
            // `v - worst` can lower the least gain.
            let cap = worst - (v - vy);
            if cap <= 0.0 {
                continue;
            }
            let ux = a.play_undo(x);
            let mut ok = vy - self.see(a, x.to(), 8) >= 0.0;
            if ok {
                let before = them_before.get_or_insert_with(|| match &self.after_move {
                    Some(m) => m.them_before.clone(),
                    None => b0.passed(),
                });
                ok = self.see(before, x.to(), 8) <= 0.0 && !self.mates_at_once(a);
            }
            if ok {
                let answer = self.trade_answered(
                    b0,
                    a,
                    x.to(),
                    sq,
                    (me, vc),
                    cap,
                    winnable_now,
                    lines_before,
                );
                worst = worst.min(v - vy + answer);
            }
            a.undo(x, ux);
        }
        worst
    }

    /// For [`Analyzer::trade_before_recapture`] (the oracle's `trade_answered`): the capturer's
    /// best answer (its side and its capturer's worth `mine`, to move in `d`, its capturer on
    /// `sq`) to the other side's capture on `s`: let the trade be (0), take back on `s` (the
    /// other side then goes on there or recaptures on `sq`, and the capturer goes on as after
    /// a recapture), or a line of checks on the trading piece or a piece it could not win
    /// before. At least 0; values above `cap` are not told apart.
    #[allow(clippy::too_many_arguments)]
    fn trade_answered(
        &mut self,
        b0: &Tracked,
        d: &mut Tracked,
        s: Square,
        sq: Square,
        mine: (Color, f64),
        cap: f64,
        winnable_now: IdSet,
        lines_before: &mut Option<IdSet>,
    ) -> f64 {
        let (me, vc) = mine;
        let trader = value(self.rs, d, id_at(d, s).expect("the trading piece"));
        let mut best: f64 = 0.0;
        for z in captures_on(d, s) {
            if best >= cap {
                return best;
            }
            let uz = d.play_undo(z);
            if self.mates_at_once(d) {
                d.undo(z, uz);
                continue;
            }
            // The other side goes on on that point, or recaptures on `sq`, as leaves the
            // capturer least.
            let mut least = trader - self.see(d, s, 7);
            for r in captures_on(d, sq) {
                if least <= best {
                    break;
                }
                let ur = d.play_undo(r);
                if !self.mates_at_once(d) {
                    let mut next = self.next_after_recapture(d, sq, me, winnable_now);
                    if trader - vc + next < least {
                        next = self.best_line_after_exchange(
                            b0,
                            d,
                            sq,
                            next,
                            winnable_now,
                            lines_before,
                        );
                    }
                    least = least.min(trader - vc + next);
                }
                d.undo(r, ur);
            }
            d.undo(z, uz);
            best = best.max(least);
        }
        if best < cap {
            best = self.best_line_after_exchange(b0, d, s, best, winnable_now, lines_before);
        }
        best
    }

    /// The most a line of consecutive checks of the side to move in `a` wins, above `floor`
    /// (`floor` if none), among the lines whose first check takes the piece on `sq` (the piece
    /// that took back), that win it after some answer, or that win against the best defence a
    /// piece the side could not win before the capture (not in `winnable_now`, and not lost
    /// after some answer to one of its lines in `b0`, found once into `lines_before`). The
    /// oracle's `line_after_exchange`.
    fn best_line_after_exchange(
        &mut self,
        b0: &Tracked,
        a: &mut Tracked,
        sq: Square,
        floor: f64,
        winnable_now: IdSet,
        lines_before: &mut Option<IdSet>,
    ) -> f64 {
        self.best_line_where(a, sq, floor, true, &mut |me, a, won| {
            ids_on(a, won.targets) & !winnable_now & !me.lines_win(b0, lines_before) != 0
        })
    }

    /// The pieces the lines of consecutive checks of the side to move in `b0` win after some
    /// answer (the oracle's `lines_win`), found once into `known`.
    fn lines_win(&mut self, b0: &Tracked, known: &mut Option<IdSet>) -> IdSet {
        if let Some(s) = *known {
            return s;
        }
        let depth = self.rs.chase_search_depth;
        let mut b = b0.clone();
        let mut s: IdSet = 0;
        for &k in self.checking_moves(&b).iter() {
            if let Some(won) = self.check_line(&mut b, k, depth) {
                s |= ids_on(&b, won.attacked);
            }
        }
        *known = Some(s);
        s
    }

    /// Reading `king-as-partner` (the oracle's `king_takes_part`; 2011 26.1.1, 24.17): the king of
    /// the side to move takes part in winning `target` when it has just moved and is the screen
    /// through which a piece of its side reaches the target.
    ///
    /// The king also takes part as a capturer when the target is won on its point (`across`
    /// false) and no capture of it wins there without the king's captures (the oracle's
    /// `see_without`).
    fn king_takes_part(&mut self, b: &Tracked, target: PieceId, across: bool) -> Option<PieceId> {
        let king = id_at(b, b.pos.king(b.pos.turn()))?;
        let t_sq = b.square_of(target)?;
        if self.moved_screen(b, king, t_sq) {
            return Some(king);
        }
        if across || reach_of(b, king) & (1u128 << t_sq.index()) == 0 {
            return None;
        }
        let v = value(self.rs, b, target);
        let mut w = b.clone();
        for m in captures_on(b, t_sq) {
            if id_at(b, m.from()) == Some(king) {
                continue;
            }
            let u = w.play_undo(m);
            let wins =
                v - self.see_without(&mut w, t_sq, king, 8) > 0.0 && !self.mates_at_once(&mut w);
            w.undo(m, u);
            if wins {
                return None;
            }
        }
        Some(king)
    }

    /// [`Analyzer::see`] on `sq` with the piece `absent` never capturing (the oracle's
    /// `see_without`).
    fn see_without(&mut self, b: &mut Tracked, sq: Square, absent: PieceId, depth: u32) -> f64 {
        if depth == 0 {
            return 0.0;
        }
        let Some(victim) = id_at(b, sq) else {
            return 0.0;
        };
        let v = value(self.rs, b, victim);
        let mut best = 0.0;
        for m in captures_on(b, sq) {
            if id_at(b, m.from()) == Some(absent) {
                continue;
            }
            let u = b.play_undo(m);
            let g = v - self.see_without(b, sq, absent, depth - 1);
            if g > best && !self.mates_at_once(b) {
                best = g;
            }
            b.undo(m, u);
        }
        best
    }

    /// Is `p` the piece that has just moved, and is it now the screen (炮架) of a piece of its side
    /// that reaches `t_sq`, one whose screen it was not where it stood before the move? (The
    /// oracle's `moved_screen`, reading `joint-chase-necessary`: a screen that slides along the
    /// line of a capture makes nothing.)
    fn moved_screen(&self, b: &Tracked, p: PieceId, t_sq: Square) -> bool {
        let Some(m) = self.after_move.as_ref().filter(|m| m.moved == p) else {
            return false;
        };
        let screened = |x: &Tracked| {
            x.square_of(p)
                .map_or(0, |sq| screened_through(x, &x.without(sq), p, t_sq))
        };
        screened(b) & !screened(&m.them_before) != 0
    }

    /// Does the piece `p` (of the side to move) serve the winning of `target` only by its point,
    /// not by a move of its own (the oracle's `serves_only_by_its_point`, reading
    /// `joint-chase-necessary`)? Either it is the screen (炮架) of a cannon that captures the
    /// target and cannot capture the target itself, or it is an obstacle in an enemy line: some
    /// other piece captures the target, and with `p` then off the board an enemy piece would
    /// reach the target's point or the capturer's king, while with `p` and those enemy pieces off
    /// the board the target is won again; or it stands alone between the two kings. A screen
    /// that has just moved there takes part, wherever it stands. `w` is `b` without `p`.
    fn serves_only_by_its_point(
        &mut self,
        b: &Tracked,
        w: &Tracked,
        target: PieceId,
        p: PieceId,
        across: bool,
    ) -> bool {
        let (Some(t_sq), Some(p_sq), Some(pc)) = (b.square_of(target), b.square_of(p), b.piece(p))
        else {
            return false;
        };
        let me = pc.color;
        let king = b.pos.king(me);
        let reaches =
            |x: &Tracked, id: PieceId, sq: Square| reach_of(x, id) & (1u128 << sq.index()) != 0;
        if is_screen_for(b, w, p, t_sq) {
            // The piece that has just moved there to screen a piece it did not screen before
            // takes part; so does a screen that could take the target itself (legally: a pinned
            // screen cannot).
            return !self.moved_screen(b, p, t_sq)
                && !captures_on(b, t_sq).iter().any(|c| c.from() == p_sq);
        }
        // The piece alone between the two kings keeps them apart (将帅不得照面): the enemy
        // king is the piece whose line it blocks.
        if w.pos.kings_facing() {
            return true;
        }
        // A piece it pins (牵制) is held by its attack on the king, not by its point.
        let pinned = pinned_by(b, p);
        for c in captures_on(b, t_sq) {
            if id_at(b, c.from()) == Some(p) {
                continue;
            }
            let mut a = b.clone();
            a.play(c);
            let aw = a.without(p_sq);
            let opened: Vec<Square> = a
                .ids_of(me.other())
                .filter(|&e| !is_king(&a, e))
                .filter(|&e| {
                    [t_sq, king]
                        .iter()
                        .any(|&sq| !reaches(&a, e, sq) && reaches(&aw, e, sq))
                        || (!reaches(&a, e, t_sq)
                            && pinned & id_bit(e) == 0
                            && opens_an_answer(&a, &aw, e, me))
                })
                .filter_map(|e| a.square_of(e))
                .collect();
            if opened.is_empty() {
                continue;
            }
            let cleared = opened.iter().fold(w.clone(), |x, &sq| x.without(sq));
            if self.wins_by_capture(&cleared, target, across) {
                return true;
            }
        }
        false
    }

    /// Is `p` (of the side to move) needed for winning `target` only because without it the
    /// other side would answer the capture with a mate at once (the oracle's `keeps_off_a_mate`,
    /// reading `joint-chase-necessary`)? It takes no part in the capture, and some capture of the
    /// target by another piece leaves the other side no mate at once with `p` on the board and
    /// one without it: `p` keeps its own king safe and is no partner.
    fn keeps_off_a_mate(&mut self, b: &Tracked, target: PieceId, p: PieceId) -> bool {
        let (Some(t_sq), Some(p_sq), Some(pc)) = (b.square_of(target), b.square_of(p), b.piece(p))
        else {
            return false;
        };
        if (could_move(pc, p_sq, t_sq) && reaches_in_the_exchange(b, p, t_sq))
            || self.moved_screen(b, p, t_sq)
            || pinned_by(b, p) != 0
            || checks_when_target_taken(b, p, t_sq)
        {
            return false;
        }
        captures_on(b, t_sq)
            .into_iter()
            .filter(|c| c.from() != p_sq)
            .any(|c| {
                let mut a = b.clone();
                a.play(c);
                let mut aw = a.without(p_sq);
                !self.mates_at_once(&mut a) && self.mates_at_once(&mut aw)
            })
    }

    /// Is `p` (of the side to move) only a second guard of a target that another piece wins by
    /// its capture (one of `capturers`) and that no enemy piece can then take back, even against
    /// the movement rules' pins (the oracle's `idle_guard_of_unprotected`, reading
    /// `joint-chase-necessary`: 無根, its guard plays no part in the exchange, 图28)? Asked only
    /// of a piece that reaches the target in the exchange and none of its possible
    /// `protectors`, that pins no enemy piece, whose check the capture does not uncover, and
    /// that has not just moved there as a cannon's screen; not when the target is won only
    /// across two squares.
    fn idle_guard_of_unprotected(
        &self,
        b: &Tracked,
        target: PieceId,
        p: PieceId,
        capturers: IdSet,
        protectors: &[Square],
        across: bool,
    ) -> bool {
        let (Some(t_sq), Some(p_sq), Some(pc)) = (b.square_of(target), b.square_of(p), b.piece(p))
        else {
            return false;
        };
        let guard = could_move(pc, p_sq, t_sq) && reaches_in_the_exchange(b, p, t_sq);
        if !guard
            || protectors.iter().any(|q| could_move(pc, p_sq, *q))
            || across
            || pinned_by(b, p) != 0
            || checks_when_target_taken(b, p, t_sq)
            || self.moved_screen(b, p, t_sq)
        {
            return false;
        }
        let them = pc.color.other();
        captures_on(b, t_sq)
            .into_iter()
            .filter(|c| id_at(b, c.from()).is_some_and(|x| x != p && capturers & id_bit(x) != 0))
            .any(|c| {
                let mut a = b.clone();
                a.play(c);
                let takes_back = a
                    .ids_of(them)
                    .any(|e| reach_of(&a, e) & (1u128 << t_sq.index()) != 0);
                !takes_back
            })
    }

    /// Can the side to move win `target` by a direct capture and the exchange that follows?
    pub(super) fn winnable(&mut self, b0: &Tracked, target: PieceId) -> bool {
        let Some(sq) = b0.square_of(target) else {
            return false;
        };
        let mut b = b0.clone();
        let v = value(self.rs, &b, target);
        for m in captures_on(&b, sq) {
            let u = b.play_undo(m);
            let won = v - self.see(&mut b, sq, 8) > 0.0
                && !(self.rs.exchange_answered_anywhere
                    && v - self.answer_elsewhere(b0, &mut b, sq, v) <= 0.0);
            b.undo(m, u);
            if won {
                return true;
            }
        }
        false
    }

    /// Reading `complete-exchange-any-square` (the oracle's `answer_elsewhere`): after a
    /// capture on `sq` (`b` before it, `a` after it, the other side to move), the best net
    /// material the other side can win instead of recapturing, by taking elsewhere a piece that
    /// is newly en prise: taken by a piece that already attacked its point, not winnable before
    /// the move (before the capture when no move is given), not the piece that has just moved,
    /// and not guarded before by the capturer when the move makes the capture
    /// ([`capture_made_by_the_move`](Self::capture_made_by_the_move): 26.5 judges it).
    ///
    /// The search stops once the answer reaches `enough` (the worth of the piece the capture
    /// took): the capture then wins nothing, whatever the exact answer. A crossed pawn won for
    /// that piece counts as much (reading `pawn-traded-level`: the trade is level, unless 26.6
    /// counts it, a pawn for a rook).
    fn answer_elsewhere(&mut self, b: &Tracked, a: &mut Tracked, sq: Square, enough: f64) -> f64 {
        let rs = self.rs;
        let capturer = id_at(a, sq).expect("the capturer");
        let capturer_was_on = b.square_of(capturer);
        let moved = self.after_move.as_ref().map(|m| m.moved);
        // Whether the move makes the capture (asked on first need).
        let mut made_by_the_move: Option<bool> = None;
        let mut allowed = |this: &mut Self, c: Move, answerer: PieceId, victim: PieceId| {
            // A line the capture opens (the capturer was a shield, 被牵) is the departure
            // test's (26.5) when the move makes the capture, and an answer here when it does
            // not; always an answer where the rule set has no departure test (1999).
            if reach_of(b, answerer) & (1u128 << c.to().index()) == 0 {
                let opened = !rs.protector_chase_needs_gain
                    || !*made_by_the_move
                        .get_or_insert_with(|| this.capture_made_by_the_move(b, capturer, sq));
                if !opened {
                    return false;
                }
            }
            if moved == Some(victim) && !this.exposed_before_the_move(answerer, victim) {
                return false;
            }
            !(capturer_was_on.is_some_and(|g| b.pos.guards(g, c.to()))
                && *made_by_the_move
                    .get_or_insert_with(|| this.capture_made_by_the_move(b, capturer, sq)))
        };
        self.best_answer_elsewhere(b, a, sq, enough, true, &mut allowed)
    }

    /// Reading `searched-capture-answered-elsewhere` (the oracle's
    /// `answer_elsewhere_in_search`): a capture on `sq` that a search meets (`b` before it, `a`
    /// after it) is answered elsewhere as a capture with no move given is, by taking any piece
    /// the other side could not win before the capture (a guard left, or a line the capture
    /// opens: the capturer was a shield, 被牵). Stops once the answer reaches `enough`.
    pub(super) fn answer_elsewhere_in_search(
        &mut self,
        b: &Tracked,
        a: &mut Tracked,
        sq: Square,
        enough: f64,
    ) -> f64 {
        self.best_answer_elsewhere(b, a, sq, enough, false, &mut |_, _, _, _| true)
    }

    /// The best net material the side to move in `a` (after a capture on `sq`; `b` before it)
    /// wins by a capture elsewhere that `allowed` admits (the move, its answering piece and its
    /// victim), of a piece it could not win before (the position before the move when
    /// `move_context` and a move is given, and before the capture too; else before the capture;
    /// the other side to move: a piece already en prise, and not rescued by the move, is a
    /// threat of its own; [`Analyzer::wins_on`]). Each is counted over the exchange on its
    /// point, one after which the capturing side mates at once is never made
    /// ([`better_answer`](Self::better_answer)), and a crossed pawn given for the piece it takes
    /// wins nothing. A crossed pawn won for the piece the capture
    /// took counts as much (reading `pawn-traded-level`: the trade is level, unless 26.6 counts
    /// it, a pawn for a rook). The search stops once the answer reaches `enough`.
    fn best_answer_elsewhere(
        &mut self,
        b: &Tracked,
        a: &mut Tracked,
        sq: Square,
        enough: f64,
        move_context: bool,
        allowed: &mut dyn FnMut(&mut Self, Move, PieceId, PieceId) -> bool,
    ) -> f64 {
        let rs = self.rs;
        let target = id_at(b, sq).expect("the piece taken");
        // Whether a crossed pawn won for the target is a level trade (not a rook in 2011).
        let pawn_levels = !pawn_trade_is_gain(rs, b, target);
        // The position the other side could already win in, copied on first need.
        let mut them_before: Option<Tracked> = None;
        // Before the capture, the other side to move (asked only in the move's context, and
        // copied on first need).
        let in_context = move_context && self.after_move.is_some();
        let mut before_capture: Option<Tracked> = None;
        let mut best = 0.0;
        let captures = self.captures(a);
        for &c in captures.iter() {
            if best >= enough {
                break;
            }
            if c.to() == sq {
                continue;
            }
            let Some(victim) = id_at(a, c.to()) else {
                continue;
            };
            if !is_material(a, victim) {
                continue;
            }
            // An answer wins at most the piece it takes; a crossed pawn won for the piece the
            // capture takes counts as that piece (reading `pawn-traded-level`, 26.6).
            let vt = value(rs, a, victim);
            let floats = pawn_levels && is_pawn(a, victim);
            if (if floats { enough } else { vt }) <= best {
                continue;
            }
            let answerer = id_at(a, c.from()).expect("a mover");
            // (a crossed pawn given for the piece it takes wins nothing: reading
            // `pawn-given-for-pieces`)
            if !allowed(self, c, answerer, victim) || self.pawn_given_by_capture(a, c) {
                continue;
            }
            let before = them_before.get_or_insert_with(|| match &self.after_move {
                Some(m) if move_context => m.them_before.clone(),
                _ => b.passed(),
            });
            // (and still could before the capture: a piece the move rescues is an answer)
            if self.wins_on(before, c.to())
                && (!in_context
                    || self.wins_on(before_capture.get_or_insert_with(|| b.passed()), c.to()))
            {
                continue;
            }
            if floats {
                if self.better_answer(a, c, vt, 0.0) > 0.0 {
                    best = enough;
                }
            } else {
                best = self.better_answer(a, c, vt, best);
            }
        }
        best
    }

    /// Reading `pinned-departure` (26.5, 做根子和被牵子捉子; the oracle's
    /// `capture_made_by_the_move`): does the move just made make the capture of `sq` by
    /// `capturer` (`b` before it): the capturer is the piece that has just moved or, with 26.5
    /// in force, the capture was no legal move of its side before the move? Its exchange is then
    /// judged by 26.5 on what the capturer's departure costs.
    pub(crate) fn capture_made_by_the_move(
        &self,
        b: &Tracked,
        capturer: PieceId,
        sq: Square,
    ) -> bool {
        self.after_move.as_ref().is_some_and(|m| {
            capture_made_by_move(self.rs, m.moved, &m.them_before, b, capturer, sq)
        })
    }

    /// For [`answer_elsewhere`](Self::answer_elsewhere) (the oracle's `exposed_before_the_move`):
    /// did the piece that has just moved (`moved`) already stand where `answerer` attacked it
    /// before the move, without the other side being able to win it there? Then the move did not
    /// put it en prise, and it is an answer like any other.
    fn exposed_before_the_move(&mut self, answerer: PieceId, moved: PieceId) -> bool {
        let Some(m) = self.after_move.as_ref() else {
            return false;
        };
        let Some(old) = m.them_before.square_of(moved) else {
            return false;
        };
        if reach_of(&m.them_before, answerer) & (1u128 << old.index()) == 0 {
            return false;
        }
        let mut before = m.them_before.clone();
        !self.wins_on(&mut before, old)
    }

    /// `best`, or what the capture `c` (of a piece worth `worth`) wins if more: counted over the
    /// exchange on its point, and only if it is not mated at once (an answer of
    /// [`answer_elsewhere`](Self::answer_elsewhere) or of an exchange's acceptance).
    pub(crate) fn better_answer(&mut self, a: &mut Tracked, c: Move, worth: f64, best: f64) -> f64 {
        let side = a.pos.turn();
        let u = a.play_undo(c);
        let g = worth - self.see_pawns_given(a, c.to(), side, None, 8);
        let better = if g > best && !self.mates_at_once(a) {
            g
        } else {
            best
        };
        a.undo(c, u);
        better
    }

    /// The best gain (≥ 0) the side to move can force now: a direct capture with gain or a check
    /// line, with the squares of the pieces it wins. Ways of equal gain are combined as the
    /// oracle's `Won::best_of` does ([`Ties`], reading `equal-gains-together`).
    pub(super) fn best_gain(&mut self, b: &mut Tracked, depth: u32) -> Won {
        if depth == 0 {
            return Won::default();
        }
        let key = (
            b.value_hash(),
            ids_fingerprint(b),
            depth,
            self.context_key(b),
        );
        if let Some(&r) = self.caches.gains.get(&key) {
            return r;
        }
        // Only ways worth at least the best so far are evaluated: with the step of the worths
        // (every built-in rule set has one), those above half a step below it.
        let step = *self.worth_step.get_or_insert_with(|| worth_step(self.rs));
        let floor = |best: f64| match step {
            Some(q) if best > 0.0 => best - q / 2.0,
            _ => best,
        };
        let mut ties = Ties::default();
        // The greatest gain and the ways of that gain do not depend on the order in which the
        // ways are tried ([`Ties`]), so the captures go by the worth of the piece taken, the
        // most valuable first: once a piece is worth no more than the floor, neither is any
        // after it (an exchange never wins more than the piece taken first), and the list
        // ends there, without the exchange and "mated at once" tests of the captures of
        // lesser pieces.
        let mut caps = MoveList::new();
        b.pos.legal_captures_into(&mut caps);
        let rs = self.rs;
        let worth = |b: &Tracked, m: Move| {
            b.pos
                .piece_at(m.to())
                .map_or(0.0, |_| value_at(rs, b, m.to()))
        };
        caps.sort_unstable_by(|x, y| worth(b, *y).total_cmp(&worth(b, *x)));
        for &m in caps.iter() {
            let f = floor(ties.best.gain);
            if worth(b, m) <= f {
                break;
            }
            if let Some(gain) = self.capture_gain_above(b, m, f) {
                let capturer = id_at(b, m.from()).expect("a mover");
                ties.add(Won::capture(b, capturer, m.to(), gain));
            }
        }
        if depth >= 3 {
            // In any order too: the position's checking moves as listed.
            for &k in self.checking_moves(b).iter() {
                if !self.line_exceeds(b, k, depth, floor(ties.best.gain)) {
                    continue;
                }
                if let Some(line) = self.check_line(b, k, depth) {
                    ties.add(line);
                }
            }
        }
        let best = ties.best_of();
        self.caches.gains.insert(key, best);
        best
    }

    /// Is [`Analyzer::best_gain`] above `theta`? The same answer, found without evaluating
    /// every capture and check line in full: a capture of a piece worth at most `theta` is
    /// skipped, the first capture or line above `theta` ends the search, and a line is refuted
    /// by its first answer that leaves no more than `theta` ([`Analyzer::line_exceeds`]).
    pub(super) fn gain_exceeds(&mut self, b: &mut Tracked, depth: u32, theta: f64) -> bool {
        if theta < 0.0 {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = (
            b.value_hash(),
            ids_fingerprint(b),
            depth,
            self.context_key(b),
        );
        if let Some(&Won { gain: g, .. }) = self.caches.gains.get(&key) {
            return g > theta;
        }
        let (lo, hi) = self
            .caches
            .gain_bounds
            .get(&key)
            .copied()
            .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        if lo >= theta {
            return true;
        }
        if hi <= theta {
            return false;
        }
        let mut found = self.capture_exceeds(b, theta);
        if !found && depth >= 3 {
            for &k in self.checking_moves(b).iter() {
                if self.line_exceeds(b, k, depth, theta) {
                    found = true;
                    break;
                }
            }
        }
        let e = self
            .caches
            .gain_bounds
            .entry(key)
            .or_insert((f64::NEG_INFINITY, f64::INFINITY));
        if found {
            e.0 = e.0.max(theta);
        } else {
            e.1 = e.1.min(theta);
        }
        found
    }

    /// The most [`Analyzer::best_gain`] of `depth` plies can win for the side that is not
    /// `victims` ([`Ceilings`]): the worth of the `(depth + 1) / 2` most valuable pieces of
    /// `victims` other than its king.
    pub(super) fn gain_ceiling(&mut self, b: &Tracked, victims: Color, depth: u32) -> f64 {
        let rs = self.rs;
        let ceilings = self.ceilings.get_or_insert_with(|| Ceilings::of(rs));
        let mut takes = depth.div_ceil(2);
        let mut most = 0.0;
        for &(role, worth) in &ceilings.0 {
            if takes == 0 {
                break;
            }
            let n = b
                .pos
                .pieces(Piece::new(victims, role))
                .0
                .count_ones()
                .min(takes);
            most += f64::from(n) * worth;
            takes -= n;
        }
        most
    }

    /// Does a capture with gain (the exchange on its point, no mate at once after it) win more
    /// than `theta` (≥ 0)? Only pieces worth more than `theta` are tried: the exchange never
    /// wins more than the piece taken first.
    fn capture_exceeds(&mut self, b: &mut Tracked, theta: f64) -> bool {
        // Most of these questions come with a threshold no piece of the other side is worth
        // (more than half of them in the classification benchmark, in sparse endings): only the
        // captures on the points of the pieces worth more are listed, no capture at all when
        // there is none. Its king is never taken: the searches ask after a legal move of that
        // side, which leaves its king unattacked. The answer is whether any capture wins more,
        // so the order in which they are tried does not change it.
        let pos = &b.pos;
        let them = pos.turn().other();
        let kings = pos.pieces(Piece::new(them, Role::King)).0;
        let mut victims = pos.by_color(them).0 & !kings;
        while victims != 0 {
            let sq = Square::new_unchecked(victims.trailing_zeros() as u8);
            victims &= victims - 1;
            if value_at(self.rs, b, sq) <= theta {
                continue;
            }
            for m in captures_on(b, sq) {
                if self.capture_gain_above(b, m, theta).is_some() {
                    return true;
                }
            }
        }
        false
    }

    /// The gain of the capture `m` (the piece taken less the exchange that follows on its
    /// point) when it is above `floor` (≥ 0) and the other side cannot mate at once after it
    /// (the oracle's `direct_threats_plain`). Where the rule set answers an exchange anywhere,
    /// the other side may take instead a piece it could not win before (reading
    /// `searched-capture-answered-elsewhere`,
    /// [`answer_elsewhere_in_search`](Self::answer_elsewhere_in_search)). A piece worth at most
    /// `floor` is not tried: the exchange never wins more than the piece taken first. A crossed
    /// pawn given for the piece wins nothing ([`Analyzer::pawn_given_by_capture`]).
    pub(super) fn capture_gain_above(
        &mut self,
        b: &mut Tracked,
        m: Move,
        floor: f64,
    ) -> Option<f64> {
        let v = value(self.rs, b, id_at(b, m.to())?);
        if v <= floor || self.pawn_given_by_capture(b, m) {
            return None;
        }
        let side = b.pos.turn();
        let u = b.play_undo(m);
        let gain = v - self.see_pawns_given(b, m.to(), side, None, 8);
        let ok = gain > floor && !self.mates_at_once(b);
        b.undo(m, u);
        if !ok {
            return None;
        }
        if !self.rs.exchange_answered_anywhere {
            return Some(gain);
        }
        let mut a = b.clone();
        a.play(m);
        let g = gain.min(v - self.answer_elsewhere_in_search(b, &mut a, m.to(), v - floor));
        (g > floor).then_some(g)
    }
}

/// For the exchange across two squares (reading `exchange-removes-protector`): the pieces the
/// side to move could already win by a direct capture before its capture, which a follow-up
/// capture elsewhere does not count. They matter only to a capture the exchange on its own point
/// leaves without gain ([`Analyzer::capture_threat`]), so they are found on the first such
/// capture: a position whose captures all gain there never needs them.
#[derive(Clone, Copy)]
enum WinnableNow {
    /// The exchange across two squares is not counted.
    NotCounted,
    /// Counted, the pieces not found yet.
    Unknown,
    /// Counted, the pieces found.
    Known(IdSet),
}

impl WinnableNow {
    fn of(counted: bool) -> WinnableNow {
        if counted {
            WinnableNow::Unknown
        } else {
            WinnableNow::NotCounted
        }
    }
}

/// Is giving up pawns for `target` a gain? (25.3: never; 2011 26.6: for a rook.)
pub(crate) fn pawn_trade_is_gain(rs: &RuleSet, b: &Tracked, target: PieceId) -> bool {
    rs.pawn_for_rook_is_gain && role_id(b, target) == "rook"
}

/// Is `p` the screen (炮架) through which another piece of its side reaches `t_sq`: it reaches
/// it in `b` and not in `w` (`b` without `p`)? (The oracle's `is_screen_for`.)
pub(crate) fn is_screen_for(b: &Tracked, w: &Tracked, p: PieceId, t_sq: Square) -> bool {
    screened_through(b, w, p, t_sq) != 0
}

/// Reading `king-as-partner` (the oracle's `capture_needs_the_king`): does the direct capture of
/// threat `t` (`b`, its side to move) win only because the facing kings (将帅不得照面) forbid the
/// other side's recapture on the point, a recapture that would give the capturer for the target
/// (a pawn for a piece, 25.3 / 26.6, or a piece worth as much)? Made with the king's power.
pub(crate) fn capture_needs_the_king(rs: &RuleSet, b: &Tracked, t: &Threat) -> bool {
    if t.via_checks {
        return false;
    }
    let (Some(a_sq), Some(t_sq)) = (b.square_of(t.attacker), b.square_of(t.target)) else {
        return false;
    };
    let gives_up = if is_pawn(b, t.attacker) {
        !pawn_trade_is_gain(rs, b, t.target)
    } else {
        value(rs, b, t.attacker) >= value(rs, b, t.target)
    };
    if !gives_up {
        return false;
    }
    let mut a = b.clone();
    a.play(Move::new(a_sq, t_sq));
    let them = a.pos.turn();
    let bit = 1u128 << t_sq.index();
    let forbidden_only_by_the_kings = a
        .ids_of(them)
        .filter_map(|q| a.square_of(q))
        .filter(|&s| a.pos.pseudo_targets(s) & bit != 0)
        .any(|from| {
            let mut c = a.pos.clone();
            c.play(Move::new(from, t_sq));
            c.kings_facing() && !c.king_attacked_by_pieces(them)
        });
    forbidden_only_by_the_kings
}

/// The pieces of `p`'s side that reach `t_sq` in `b` through `p` as their screen (炮架): they
/// reach it in `b` and not in `w` (`b` without `p`; the oracle's `screened_through`).
fn screened_through(b: &Tracked, w: &Tracked, p: PieceId, t_sq: Square) -> IdSet {
    let Some(pc) = b.piece(p) else {
        return 0;
    };
    let bit = 1u128 << t_sq.index();
    b.ids_of(pc.color)
        .filter(|&q| q != p && reach_of(b, q) & bit != 0 && reach_of(w, q) & bit == 0)
        .fold(0, |s, q| s | id_bit(q))
}

/// Does `p` take part in the exchange on `t_sq` (the oracle's `reaches_in_the_exchange`, reading
/// `joint-chase-necessary`): could it move there now, or once every other piece (kings apart)
/// that reaches `t_sq` itself, of either side, has left its point?
fn reaches_in_the_exchange(b: &Tracked, p: PieceId, t_sq: Square) -> bool {
    let Some(p_sq) = b.square_of(p) else {
        return false;
    };
    if b.pos.guards(p_sq, t_sq) {
        return true;
    }
    let mut cleared = b.clone();
    for q in b.ids_of(Color::Red).chain(b.ids_of(Color::Black)) {
        if q == p || is_king(b, q) {
            continue;
        }
        if let Some(s) = b
            .square_of(q)
            .filter(|&s| s != t_sq && b.pos.guards(s, t_sq))
        {
            cleared = cleared.without(s);
        }
    }
    cleared.pos.guards(p_sq, t_sq)
}

/// Does the enemy piece `e` (no protector of the point taken) answer a capture only because a
/// piece of `me` is off the board: in `aw` (the board after the capture without that piece) it
/// reaches a point it does not reach in `a`, to which it may legally move (its own king neither
/// checked nor facing the other) and where it takes a piece of `me` or checks `me`'s king (the
/// oracle's `opens_an_answer`, reading `joint-chase-necessary`)?
fn opens_an_answer(a: &Tracked, aw: &Tracked, e: PieceId, me: Color) -> bool {
    let Some(from) = aw.square_of(e) else {
        return false;
    };
    let mut newly = reach_of(aw, e) & !reach_of(a, e);
    while newly != 0 {
        let sq = Square::new_unchecked(newly.trailing_zeros() as u8);
        newly &= newly - 1;
        let takes = aw.pos.piece_at(sq).map(|x| x.color);
        if takes == Some(me.other()) {
            continue;
        }
        let mut x = aw.with_turn(me.other());
        x.play(Move::new(from, sq));
        // `king_attacked` counts the facing kings: the move is legal when its side's king is not.
        if !x.pos.king_attacked(me.other())
            && (takes == Some(me) || x.pos.king_attacked_by_pieces(me))
        {
            return true;
        }
    }
    false
}

/// [`Analyzer::capture_made_by_the_move`] for the move of `moved` from the position
/// `them_before` (the position before the move, the other side to move).
pub(crate) fn capture_made_by_move(
    rs: &RuleSet,
    moved: PieceId,
    them_before: &Tracked,
    b: &Tracked,
    capturer: PieceId,
    sq: Square,
) -> bool {
    if moved == capturer {
        return true;
    }
    let Some(from) = b.square_of(capturer) else {
        return false;
    };
    if !rs.protector_chase_needs_gain || them_before.square_of(capturer) != Some(from) {
        return false;
    }
    let mut before = them_before.pos.clone();
    before.set_turn(b.piece(capturer).expect("on board").color);
    !before.is_legal(Move::new(from, sq))
}

/// Does `p` give check once another piece of its side takes the piece on `t_sq`: the capture
/// uncovers its check (the oracle's `checks_when_target_taken`, reading `joint-chase-necessary`)?
fn checks_when_target_taken(b: &Tracked, p: PieceId, t_sq: Square) -> bool {
    let Some(p_sq) = b.square_of(p) else {
        return false;
    };
    let king = b.pos.king(b.pos.turn().other());
    if b.pos.guards(p_sq, king) {
        return false;
    }
    let mut a = b.clone();
    captures_on(b, t_sq)
        .iter()
        .filter(|m| m.from() != p_sq)
        .any(|&m| {
            let u = a.play_undo(m);
            let checks = a.pos.guards(p_sq, king);
            a.undo(m, u);
            checks
        })
}
