//! Consecutive checks (连续将军): the threats won by a line of checks (29.1 second form), the
//! lines that win a capturer back, and the bounded search of a line's worth.

use super::board::{
    captures_on, cover_on_board, id_at, id_bit, ids_in, ids_on, is_king, is_material, is_pawn,
    squares_of, value, IdSet,
};
use super::{Analyzer, Threat, Ties, Won};
use crate::judge::track::{PieceId, Tracked};
use crate::judge::RuleSet;
use crate::{Color, Move, MoveList, Piece, Role, Square};

/// Below any difference of material values (multiples of a half; the oracle's `LEVEL_MARGIN`): a
/// floor this much under a gain lets a search find a line that wins exactly that gain.
const LEVEL_MARGIN: f64 = 1.0 / 64.0;

impl Analyzer<'_> {
    /// Every way the side to move can win material on its next move (the oracle's `threats`).
    pub fn threats(&mut self, b: &Tracked, checker: Option<PieceId>) -> Vec<Threat> {
        let key = self.threats_key(b, checker.map_or(super::ALL_THREATS, |c| c.0));
        if let Some(t) = self.caches.threats.get(&key) {
            return t.clone();
        }
        let out = self.threats_uncached(b, checker);
        self.caches.threats.insert(key, out.clone());
        out
    }

    /// Is `key` (attacker, target) one of [`Analyzer::threats`]`(b, None)`? The same answer,
    /// searching only the lines of checks the attacker opens, and only when the target is no
    /// direct threat (a line of checks counts only for a piece that cannot be won directly).
    pub fn has_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        self.is_direct_threat(b, key) || self.has_check_threat(b, key)
    }

    /// Is `key` (attacker, target) one of the direct threats (not by consecutive checks) of
    /// [`Analyzer::threats`]`(b, None)`?
    pub fn is_direct_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        self.direct_threat_on(b, Some(key.0), key.1)
    }

    /// Is `key` (attacker, target) one of the threats by consecutive checks
    /// (`via_checks`) of [`Analyzer::threats`]`(b, None)`?
    pub fn has_check_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        let (attacker, target) = key;
        self.check_threat_by(b, Some(attacker), target)
    }

    /// Is there a threat by consecutive checks (`via_checks`) of [`Analyzer::threats`]`(b,
    /// None)` to `target`, whichever piece opens it?
    pub fn has_check_threat_to(&mut self, b: &Tracked, target: PieceId) -> bool {
        self.check_threat_by(b, None, target)
    }

    /// A threat by consecutive checks to `target`, opened by `attacker` (any piece: `None`)?
    fn check_threat_by(&mut self, b: &Tracked, attacker: Option<PieceId>, target: PieceId) -> bool {
        if self.direct_threat_on(b, None, target) {
            return false;
        }
        self.check_line_wins(b, attacker, target)
    }

    /// Does a line of consecutive checks opened by `attacker` (any piece: `None`) win `target`
    /// (a threat of [`Analyzer::check_threats`], whatever the direct threats)?
    fn check_line_wins(
        &mut self,
        b0: &Tracked,
        attacker: Option<PieceId>,
        target: PieceId,
    ) -> bool {
        if !self.check_lines_on()
            || (self.rs.pawn_by_checks_no_gain && is_pawn(b0, target))
            || b0.square_of(target).is_none()
        {
            return false;
        }
        let depth = self.rs.chase_search_depth;
        let mut b = b0.clone();
        for &k in self.checking_moves(&b).iter() {
            if attacker.is_some_and(|a| id_at(&b, k.from()) != Some(a)) {
                continue;
            }
            if self.line_wins_piece(&mut b, k, depth, target) {
                return true;
            }
        }
        false
    }

    /// Is `target` one of the pieces [`Analyzer::check_line`] of `k` wins? A line holds when
    /// it is worth more than nothing against every answer, which is what the first-answer test
    /// of [`Analyzer::check_line_tested_first`] looks at before the full evaluation: a line
    /// that holds (the lines asked about here mostly do, as the same pair won after the move)
    /// is not tested answer by answer first and then evaluated again.
    fn line_wins_piece(&mut self, b: &mut Tracked, k: Move, depth: u32, target: PieceId) -> bool {
        let Some(sq) = b.square_of(target) else {
            return false;
        };
        self.check_line_tested_first(b, k, depth)
            .is_some_and(|w| w.targets & (1u128 << sq.index()) != 0)
    }

    /// Does the rule set count lines of consecutive checks as threats (29.1 second form)?
    pub(super) fn check_lines_on(&self) -> bool {
        // `check_lines` is the chase form, read once per analyzer (CacheKey::of).
        self.cache_key.check_lines && self.rs.chase_search_depth >= 3
    }

    fn threats_uncached(&mut self, b: &Tracked, checker: Option<PieceId>) -> Vec<Threat> {
        let mut out = self.direct_threats_cached(b);
        if self.check_lines_on() {
            let direct: IdSet = out.iter().fold(0, |a, t| a | id_bit(t.target));
            let depth = self.rs.chase_search_depth;
            for t in self.check_threats(b, depth, checker) {
                if direct & id_bit(t.target) == 0 {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Lines of consecutive checks that end in a gain of material whatever the defender answers
    /// (29.1 second form). Each threat names the first checking piece and a piece won.
    fn check_threats(&mut self, b0: &Tracked, depth: u32, checker: Option<PieceId>) -> Vec<Threat> {
        let mut b = b0.clone();
        let mut out = Vec::new();
        for &k in self.checking_moves_ordered(&b).iter() {
            let attacker = id_at(&b, k.from()).expect("a mover");
            if checker.is_some_and(|c| c != attacker) {
                continue;
            }
            if let Some(won) = self.check_line_tested_first(&mut b, k, depth) {
                let gain = won.gain;
                let ids = won.map(|sq| ids_on(&b, sq));
                for target in ids_in(ids.targets)
                    .filter(|t| !(self.rs.pawn_by_checks_no_gain && is_pawn(&b, *t)))
                {
                    out.push(Threat {
                        target,
                        attacker,
                        gain,
                        joint: false,
                        via_checks: true,
                        cover: cover_on_board(&b, target),
                        necessary: 0,
                        first_capture: id_at(&b, k.to()),
                        captured_by_kings: ids.by_non_king & id_bit(target) == 0,
                        captured_by_pawns: ids.by_non_pawn & id_bit(target) == 0,
                        line_wins: ids.targets,
                        line_move: Some(k),
                        aim: None,
                    });
                }
            }
        }
        out
    }

    /// Marks the threats by lines of consecutive checks among `threats` (those of `b`) that are
    /// joint chases (24.17; reading `joint-line-of-checks`; the oracle's `mark_joint_lines`):
    /// the pieces that take part are the pieces that give a check on the way to the target and
    /// the pieces that capture it at the end of the line ([`Analyzer::line_parts_of`]); the line
    /// is joint when two or more of them are each needed, the target being won in no other way
    /// (by a capture, or by a line of checks that wins it or could win it,
    /// [`Analyzer::line_can_win`]) without one of them. A line found by
    /// [`Analyzer::hidden_line_threats`] has its parts from the aimed search.
    pub fn mark_joint_lines(&mut self, b: &Tracked, threats: &mut [Threat]) {
        if !self.rs.joint_chase {
            return;
        }
        let depth = self.rs.chase_search_depth;
        let mut b = b.clone();
        // The piece that has just moved is tried too (24.3: 所走动子…与其他子联合吃子), unless
        // it shields its own king (`is_check` counts the kings facing each other; the oracle's
        // `mark_joint_lines`).
        let moved = self
            .after_move
            .as_ref()
            .filter(|m| {
                b.square_of(m.moved)
                    .is_some_and(|sq| !b.without(sq).pos.is_check())
            })
            .map_or(0, |m| id_bit(m.moved));
        for t in threats.iter_mut().filter(|t| t.via_checks) {
            let Some(k) = t.line_move else {
                continue;
            };
            let parts = self.line_parts_of(&mut b, k, depth, t.target, t.aim);
            let takes_part: IdSet =
                ids_in(parts.capturers | parts.checkers | id_bit(t.attacker) | moved)
                    .filter(|p| !is_king(&b, *p))
                    .fold(0, |a, p| a | id_bit(p));
            let n = takes_part.count_ones();
            // Once too few pieces are left to make two needed ones, the others need not be
            // tried.
            let mut needed: IdSet = 0;
            for (i, p) in (0u32..).zip(ids_in(takes_part)) {
                if needed.count_ones() + (n - i) < 2 {
                    break;
                }
                let w = b.without(b.square_of(p).expect("on board"));
                // Without it the other side would stand in check (or the kings face each
                // other) with this side to move, a position no game reaches: it takes part (the
                // oracle's `mark_joint_lines`; `is_check` counts the kings facing).
                let unreachable = w.with_turn(b.pos.turn().other()).pos.is_check();
                if unreachable
                    || (!self.winnable(&w, t.target)
                        && !self.check_line_wins(&w, None, t.target)
                        && !self.line_can_win(&w, t.target))
                {
                    needed |= id_bit(p);
                }
            }
            if needed.count_ones() >= 2 {
                t.joint = true;
                t.necessary = needed;
            }
        }
    }

    /// The pieces that take part in winning `target` by the line of consecutive checks opened
    /// by `k` (the oracle's capturers and checkers of the target in `check_line`): after the
    /// answers that count (those that leave the checker least, or every answer when they lose
    /// nothing after the first capture), the pieces that capture it at the end and the pieces
    /// that give a check on the way, `k`'s included, as identities. For a line that holds.
    ///
    /// With `aim`, the line of [`Analyzer::check_line_plain`] asked about that piece (a line of
    /// [`Analyzer::hidden_line_threats`]): the plain, aimed searches give what each answer leaves.
    pub(super) fn line_parts_of(
        &mut self,
        b: &mut Tracked,
        k: Move,
        depth: u32,
        target: PieceId,
        aim: Option<super::aimed::Aim>,
    ) -> Parts {
        let rs = self.rs;
        let first = First::of(rs, b, k);
        let checker = id_at(b, k.from()).expect("a mover");
        let uk = b.play_undo(k);
        let sub_depth = depth.saturating_sub(2);
        // Per answer that leaves a gain: what it leaves the checker, whether it loses any piece
        // after the first capture, the pieces that take part in winning `target` after it, and
        // whether it lets the checker mate.
        let mut answers: Vec<(f64, bool, Parts, bool)> = Vec::new();
        for r in b.pos.legal_moves() {
            let taken = Taken::by(rs, b, r, first);
            let ur = b.play_undo(r);
            let sub = match aim {
                Some(_) => self.gain_after_answer_plain(b, sub_depth, aim),
                None => self.gain_after_answer(b, sub_depth),
            };
            let total = taken.net(rs, b, first.worth, &sub);
            // Answers that let the checker mate count only when every answer does (reading
            // `defence-that-allows-mate`; those that leave no gain never do, as the line holds),
            // with what they give up at once.
            let mated = total > 0.0 && self.mate_by_checks_in(b, sub_depth, self.offered);
            let wins = match aim {
                _ if !mated => sub.map(|sq| ids_on(b, sq)).targets,
                Some(_) => {
                    self.best_gain_plain(b, 1, aim)
                        .map(|sq| ids_on(b, sq))
                        .targets
                }
                None => self.best_gain(b, 1).map(|sq| ids_on(b, sq)).targets,
            };
            let by = match aim {
                _ if total <= 0.0 || wins & id_bit(target) == 0 => Parts::default(),
                Some(_) if mated => self.gain_parts_plain(b, 1, target, aim),
                None if mated => self.gain_parts_of(b, 1, target),
                Some(_) => self.answer_parts_plain(b, sub_depth, target, aim),
                None => self.answer_parts_of(b, sub_depth, target),
            };
            b.undo(r, ur);
            if total > 0.0 {
                answers.push((total, wins != 0, by, mated));
            }
        }
        // A kill (every answer allows mate) wins what each of its answers gives up.
        let kill = answers.iter().all(|a| a.3);
        if !kill {
            answers.retain(|a| !a.3);
        }
        b.undo(k, uk);
        let least = answers.iter().map(|a| a.0).fold(f64::INFINITY, f64::min);
        let best = answers.iter().filter(|a| a.0 == least);
        let counted: Vec<&(f64, bool, Parts, bool)> = if !kill && best.clone().any(|a| a.1) {
            best.collect()
        } else {
            answers.iter().collect()
        };
        let mut parts = counted.iter().fold(Parts::default(), |p, a| p.with(a.2));
        parts.checkers |= id_bit(checker);
        parts
    }

    /// The pieces that take part in winning `target` in the ways of the best gain of
    /// [`Analyzer::gain_after_answer`] that win it (`c`: the checker to move after the
    /// defender's answer): [`Analyzer::gain_parts_of`], unless the answer checks back; then the
    /// checker's answers of that best gain that win it, the capturing mover of a capture and
    /// the capturers and checkers of a line of checks ([`Analyzer::line_parts_of`]).
    fn answer_parts_of(&mut self, c: &mut Tracked, depth: u32, target: PieceId) -> Parts {
        if depth < 2 || !c.pos.is_check() {
            return self.gain_parts_of(c, depth, target);
        }
        let best = self.gain_after_answer(c, depth);
        let Some(sq) = c.square_of(target) else {
            return Parts::default();
        };
        if best.gain <= 0.0 || best.targets & (1u128 << sq.index()) == 0 {
            return Parts::default();
        }
        let mut by = Parts::default();
        self.for_each_answer_to_check_back(c, depth, |az, c, a| {
            if a.mv.to() == sq && a.gain == best.gain {
                by.capturers |= id_bit(a.mover);
            }
            if a.checks
                && az
                    .check_line(c, a.mv, depth)
                    .is_some_and(|w| w.gain == best.gain && w.targets & (1u128 << sq.index()) != 0)
            {
                by = by.with(az.line_parts_of(c, a.mv, depth, target, None));
            }
        });
        by
    }

    /// The pieces that take part in winning `target` in the ways of the best gain of
    /// [`Analyzer::best_gain`] that win it: the capturers of the captures, and the capturers
    /// and checkers of the lines of checks ([`Analyzer::line_parts_of`]).
    fn gain_parts_of(&mut self, b: &mut Tracked, depth: u32, target: PieceId) -> Parts {
        let best = self.best_gain(b, depth);
        let Some(sq) = b.square_of(target) else {
            return Parts::default();
        };
        if best.gain <= 0.0 || best.targets & (1u128 << sq.index()) == 0 {
            return Parts::default();
        }
        let mut by = Parts::default();
        for m in captures_on(b, sq) {
            if self.capture_gain_above(b, m, 0.0) == Some(best.gain) {
                by.capturers |= id_bit(id_at(b, m.from()).expect("a mover"));
            }
        }
        if depth >= 3 {
            for &k in self.checking_moves(b).iter() {
                if self
                    .check_line(b, k, depth)
                    .is_some_and(|w| w.gain == best.gain && w.targets & (1u128 << sq.index()) != 0)
                {
                    by = by.with(self.line_parts_of(b, k, depth, target, None));
                }
            }
        }
        by
    }

    /// Reading `capture-answered-by-checks` (2011 24.3, 24.15): after a capture (`a`, the other
    /// side to move, the capturer on `capturer_sq`), can the other side answer with a line of
    /// consecutive checks that attacks the capturer (it is lost after some reply) and nets more
    /// than the capture's `gain`, whatever the capturer replies? Then the capture is no gain. A
    /// line that wins the capturer itself must net more than the piece taken (`taken`): the
    /// capturer is counted once.
    /// When the capture took a pawn (`pawn_taken`) and the rule set judges what a capturer's
    /// departure costs (2011 26.5), a line whose best defence loses neither the capturer nor a
    /// rook (26.6) is level and no protection here, as in the oracle.
    pub(super) fn capturer_won_back_by_checks(
        &mut self,
        b0: &Tracked,
        a: &mut Tracked,
        capturer_sq: Square,
        pawn_taken: bool,
        taken: f64,
        gain: f64,
    ) -> bool {
        let rs = self.rs;
        if !rs.won_back_by_checks_is_protection {
            return false;
        }
        let level_for_a_pawn = rs.protector_chase_needs_gain && pawn_taken;
        let bit = 1u128 << capturer_sq.index();
        let depth = rs.chase_search_depth;
        // (a line that wins as much as `gain` may matter: the floor is just below it)
        let floor = gain - LEVEL_MARGIN;
        // The checks the other side had before the capture, on first need.
        let mut before: Option<MoveList> = None;
        for &k in self.checking_moves(a).iter() {
            if !self.line_exceeds(a, k, depth, floor) {
                continue;
            }
            let Some(w) = self.check_line(a, k, depth) else {
                continue;
            };
            if w.attacked & bit == 0 {
                continue;
            }
            let wins_a_rook =
                || ids_in(ids_on(a, w.targets)).any(|v| super::pawn_trade_is_gain(rs, a, v));
            if level_for_a_pawn && w.targets & bit == 0 && !wins_a_rook() {
                continue;
            }
            // A line that wins the capturer back replaces the recapture: weighed against what
            // the capture took, and a level one wins nothing, unless the capture opened it and
            // 26.5 counts a level exchange as a chase (the oracle's
            // `capturer_won_back_by_checks`).
            if w.targets & bit == 0 && k.to() != capturer_sq {
                if w.gain > gain {
                    return true;
                }
                continue;
            }
            let against = taken.max(gain);
            if w.gain > against {
                return true;
            }
            if w.gain == against {
                let opened = rs.protector_chase_needs_gain && {
                    let checks = before.get_or_insert_with(|| b0.passed().pos.checking_moves());
                    !checks.contains(&k)
                };
                if !opened {
                    return true;
                }
            }
        }
        false
    }

    /// Reading `capture-answered-by-checks`, second part (the oracle's `checks_answer_capture`):
    /// after a capture (`b0` before it, the capturing side to move; `a` after it), can the other
    /// side answer with a line of consecutive checks that nets more than the capture's `gain`
    /// beyond what it could already win before the move (before the capture when no move is
    /// given)? When the capturer is the piece that has just moved, only a line the move itself
    /// opened counts (it wins so much before the capture too); one the capture's departure
    /// opens is 26.5's. A line that wins the piece that has just moved is not counted. Not asked
    /// when the capturing side is in check, in `b0` or before the move.
    pub(super) fn checks_answer_capture(
        &mut self,
        b0: &Tracked,
        a: &mut Tracked,
        capturer: PieceId,
        taken: f64,
        gain: f64,
    ) -> bool {
        let rs = self.rs;
        if !rs.won_back_by_checks_is_protection || !rs.exchange_answered_anywhere {
            return false;
        }
        // No check after the capture: no line (the cheap test first).
        if self.checking_moves(a).is_empty() {
            return false;
        }
        let me = b0.pos.turn();
        let moved = self.after_move.as_ref().map(|m| m.moved);
        let mut before = match &self.after_move {
            Some(m) => m.them_before.clone(),
            None => b0.passed(),
        };
        if b0.pos.is_check() || before.pos.king_attacked(me) {
            return false;
        }
        let tau = gain + self.gain_now(&mut before);
        let depth = rs.chase_search_depth;
        // A line that wins the capturer back counts it once (the oracle's `conceded`).
        let conceded = (taken - gain).max(0.0);
        let above = |az: &mut Self, x: &mut Tracked, k: Move, conceded: f64| {
            let cap_bit = x.square_of(capturer).map_or(0, |s| 1u128 << s.index());
            conceded <= 0.0
                || az
                    .check_line(x, k, depth)
                    .is_some_and(|w| w.targets & cap_bit == 0)
                || az.line_exceeds(x, k, depth, tau + conceded)
        };
        // A line that wins the piece that has just moved is that move's own offer (献).
        let a_line_wins = |az: &mut Self, x: &mut Tracked, conceded: f64| {
            let moved_bit = moved
                .and_then(|p| x.square_of(p))
                .map_or(0, |s| 1u128 << s.index());
            az.checking_moves(x).iter().any(|&k| {
                az.line_exceeds(x, k, depth, tau)
                    && above(az, x, k, conceded)
                    && (moved_bit == 0
                        || az
                            .check_line(x, k, depth)
                            .is_some_and(|w| w.targets & moved_bit == 0))
            })
        };
        if !a_line_wins(self, a, conceded) {
            return false;
        }
        if moved != Some(capturer) || a_line_wins(self, &mut b0.passed(), 0.0) {
            return true;
        }
        // Without a departure test (1999), a line that wins a piece the capture uncovered and
        // the capturer did not guard answers it too (the oracle's `checks_answer_capture`).
        if rs.protector_chase_needs_gain {
            return false;
        }
        let Some(cap_sq) = b0.square_of(capturer) else {
            return false;
        };
        let exposed_before = b0
            .passed()
            .pos
            .legal_moves()
            .iter()
            .fold(0u128, |acc, m| acc | (1u128 << m.to().index()));
        let mut uncovered = 0u128;
        for m in a.pos.legal_moves().iter() {
            let sq = m.to();
            if exposed_before & (1u128 << sq.index()) != 0 || b0.pos.guards(cap_sq, sq) {
                continue;
            }
            if id_at(a, sq).is_some_and(|x| x != capturer && is_material(a, x)) {
                uncovered |= 1u128 << sq.index();
            }
        }
        if uncovered == 0 {
            return false;
        }
        let moved_bit = moved
            .and_then(|p| a.square_of(p))
            .map_or(0, |s| 1u128 << s.index());
        self.checking_moves(a).iter().any(|&k| {
            self.line_exceeds(a, k, depth, tau)
                && above(self, a, k, conceded)
                && self
                    .check_line(a, k, depth)
                    .is_some_and(|w| w.targets & moved_bit == 0 && w.targets & uncovered != 0)
        })
    }

    /// Is there a line of consecutive checks of the side to move in `a`, worth more than `gain`,
    /// that attacks the piece on `capturer_sq` (or, with `or_takes_it`, whose first check takes
    /// it)? Only the lines worth more than `gain` are evaluated in full.
    fn line_wins_back(
        &mut self,
        a: &mut Tracked,
        capturer_sq: Square,
        gain: f64,
        or_takes_it: bool,
    ) -> bool {
        self.best_line_on(a, capturer_sq, gain, or_takes_it) > gain
    }

    /// The most a line of consecutive checks of the side to move in `a` wins, above `floor`,
    /// among the lines that win the piece on `sq` after some answer (or, with `or_takes_it`,
    /// whose first check takes it); `floor` if none, or if `sq` is empty. Only the lines worth
    /// more than the best so far are evaluated in full.
    pub(super) fn best_line_on(
        &mut self,
        a: &mut Tracked,
        sq: Square,
        floor: f64,
        or_takes_it: bool,
    ) -> f64 {
        self.best_line_where(a, sq, floor, or_takes_it, &mut |_, _, _| false)
    }

    /// [`Analyzer::best_line_on`], counting also the lines for which `also` holds (given the
    /// analyzer, the position and what the line wins).
    pub(super) fn best_line_where(
        &mut self,
        a: &mut Tracked,
        sq: Square,
        floor: f64,
        or_takes_it: bool,
        also: &mut dyn FnMut(&mut Self, &Tracked, &Won) -> bool,
    ) -> f64 {
        if id_at(a, sq).is_none() {
            return floor;
        }
        let bit = 1u128 << sq.index();
        let depth = self.rs.chase_search_depth;
        let mut best = floor;
        for &k in self.checking_moves(a).iter() {
            if !self.line_exceeds(a, k, depth, best) {
                continue;
            }
            if let Some(won) = self.check_line(a, k, depth) {
                let takes_it = or_takes_it && k.to() == sq;
                if won.gain > best && (takes_it || won.attacked & bit != 0 || also(self, a, &won)) {
                    best = won.gain;
                }
            }
        }
        best
    }

    /// 2011 26.5 (reading `pinned-departure`; the oracle's lines in `departure_costs`): the
    /// lines of consecutive checks of the side to move in `a` that win more than `tau` beyond
    /// what the same side could win of the same pieces in `anyway` (the position after the move,
    /// the capture not made: [`Analyzer::gain_now_on`]), each with whether it wins a piece that
    /// a pawn may be given for (26.6: a rook). `want_pieces`: tell the pieces apart (else every
    /// line says `false`). `capturer`: the capturer's point and what the chase's gain already
    /// gave up of it (a line that wins it back counts it once).
    pub(crate) fn lines_above(
        &mut self,
        a: &mut Tracked,
        anyway: &mut Tracked,
        tau: f64,
        want_pieces: bool,
        capturer: (Square, f64),
    ) -> Vec<bool> {
        let (capturer_sq, conceded) = capturer;
        let depth = self.rs.chase_search_depth;
        let mut out = Vec::new();
        for &k in self.checking_moves(a).iter() {
            if !self.line_exceeds(a, k, depth, tau) {
                continue;
            }
            let Some(w) = self.check_line(a, k, depth) else {
                continue;
            };
            let wins = line_wins(a, k, &w);
            let won = ids_on(a, wins);
            let mut g = w.gain - self.gain_now_on(anyway, won);
            // A line that wins the capturer back counts it once (the oracle's
            // `departure_costs`).
            if wins & (1u128 << capturer_sq.index()) != 0 {
                g -= conceded;
            }
            if g <= tau {
                continue;
            }
            let taken = want_pieces
                && ids_in(ids_on(a, w.targets)).any(|v| super::pawn_trade_is_gain(self.rs, a, v));
            out.push(taken);
        }
        out
    }

    /// The most the side to move can win now (as [`Analyzer::gain_now`]) by a capture with
    /// gain of one of the pieces `ids` or by a line of consecutive checks that takes or wins one
    /// of them ([`line_wins`]); 0 if none (the oracle's `gain_now_on`). A standing threat to
    /// another piece stays after a line and pays nothing for it. A crossed pawn's capture that
    /// gives the pawn for the piece wins nothing ([`Analyzer::capture_gain_above`]).
    pub(crate) fn gain_now_on(&mut self, b: &mut Tracked, ids: IdSet) -> f64 {
        let squares = squares_of(b, ids);
        let depth = self.rs.chase_search_depth;
        let mut best = 0.0f64;
        let mut caps = MoveList::new();
        b.pos.legal_captures_into(&mut caps);
        for &m in caps.iter() {
            if squares & (1u128 << m.to().index()) == 0 {
                continue;
            }
            if let Some(g) = self.capture_gain_above(b, m, best) {
                best = g;
            }
        }
        if depth >= 3 {
            for &k in self.checking_moves(b).iter() {
                if !self.line_exceeds(b, k, depth, best) {
                    continue;
                }
                if let Some(w) = self.check_line(b, k, depth) {
                    if line_wins(b, k, &w) & squares != 0 {
                        best = best.max(w.gain);
                    }
                }
            }
        }
        best
    }

    /// The most the side to move can win now ([`Analyzer::best_gain`] at the depth of the rule
    /// set's lines of checks; the oracle's `gain_now`).
    pub(crate) fn gain_now(&mut self, b: &mut Tracked) -> f64 {
        self.best_gain(b, self.rs.chase_search_depth).gain
    }

    /// 2011 26.9 (子力价值受损; the oracle's `capture_lost_to_checks`): after the piece on
    /// `capturer_sq` took a piece worth `taken` (`a`: the other side to move), can the other side
    /// answer with a line of consecutive checks that takes the capturer or wins it on the way
    /// and nets more than `taken`? (The caller adds what the other side could win anyway.)
    pub(crate) fn capture_lost_to_checks(
        &mut self,
        a: &mut Tracked,
        capturer_sq: Square,
        taken: f64,
    ) -> bool {
        self.line_wins_back(a, capturer_sq, taken, true)
    }

    /// After the checking move `k`, the least gain the checker is sure of against every answer,
    /// with the squares (in `b`) of the pieces the best answers lose in the end and of those
    /// lost after some answer (`attacked`; reading `won-against-the-best-defence`); `None` when
    /// some answer leaves it no gain, or when the check mates.
    pub(super) fn check_line(&mut self, b: &mut Tracked, k: Move, depth: u32) -> Option<Won> {
        let taking = FirstCapture::of(b, k);
        self.after_check(b, k, |az, a, first| {
            az.check_line_after(a, first, taking, depth)
        })
    }

    /// Plays the checking move `k`, runs `f` on the position after it with the worth of the
    /// piece `k` took (0 if none), takes `k` back, and gives the pieces won as their squares.
    #[inline]
    fn after_check(
        &mut self,
        b: &mut Tracked,
        k: Move,
        f: impl FnOnce(&mut Self, &mut Tracked, First) -> Option<Won>,
    ) -> Option<Won> {
        let first = First::of(self.rs, b, k);
        let uk = b.play_undo(k);
        let r = f(self, b, first);
        b.undo(k, uk);
        // The pieces won stand in `b` where they stood after the move (a captured piece never
        // comes back, and the targets are pieces of the side in check).
        r.map(|w| w.map(|ids| squares_of(b, ids)))
    }

    /// [`Analyzer::check_line`], with only the first answer tested before the line is evaluated
    /// in full (most lines that fail fail there): for the lines of [`Analyzer::check_threats`],
    /// about half of which hold at the full depth, testing every answer first
    /// ([`Analyzer::line_exceeds`]) and then evaluating the line again costs more (judge −2%
    /// instructions). The lines of [`Analyzer::capturer_won_back_by_checks`], which must win
    /// at least a given worth, are tested against that worth on every answer first.
    fn check_line_tested_first(&mut self, b: &mut Tracked, k: Move, depth: u32) -> Option<Won> {
        let taking = FirstCapture::of(b, k);
        self.after_check(b, k, |az, a, first| {
            let r0 = a.pos.first_legal_move()?;
            az.answer_leaves(a, r0, first, depth, 0.0)?;
            az.check_line_after(a, first, taking, depth)
        })
    }

    fn check_line_after(
        &mut self,
        a: &mut Tracked,
        first: First,
        taking: FirstCapture,
        depth: u32,
    ) -> Option<Won> {
        let rs = self.rs;
        let mut replies = MoveList::new();
        a.pos.legal_moves_into(&mut replies);
        if replies.is_empty() {
            return None;
        }
        // Any answer that leaves no gain ends the line, so captures (the likeliest refutations)
        // are tried first; the result does not depend on the order.
        replies.sort_by_key(|r| a.pos.piece_at(r.to()).is_none());
        // As identities: the answers that leave the checker least (reading
        // `won-against-the-best-defence`), and every piece lost after some answer; apart, the
        // same of the answers that allow mate and leave a gain, which count only when every
        // answer allows mate (reading `defence-that-allows-mate`).
        let mut least: Option<Ties> = None;
        let mut every = Won::default();
        let mut mated_least: Option<Ties> = None;
        let mut mated_every = Won::default();
        for &r in replies.iter() {
            let taken = Taken::by(rs, a, r, first);
            let ur = a.play_undo(r);
            let sub = self.gain_after_answer(a, depth.saturating_sub(2));
            // An answer after which the checker has no move refutes the line; a gain is a
            // capture or a check (or an answer to a check back), so it proves a move.
            if sub.gain <= 0.0 && !a.pos.has_legal_move() {
                a.undo(r, ur);
                return None;
            }
            let total = taken.net(rs, a, first.worth, &sub);
            // An answer that lets the checker mate is lost for the defender, whatever it keeps
            // or gives (reading `defence-that-allows-mate`): it never refutes the line, and it
            // counts only when every answer allows mate (殺兼捉), with what it gives up at once.
            let lost_to_mate = self.mate_by_checks_in(a, depth.saturating_sub(2), self.offered);
            let sub_ids = if lost_to_mate {
                self.best_gain(a, 1).map(|sq| ids_on(a, sq))
            } else {
                sub.map(|sq| ids_on(a, sq))
            };
            a.undo(r, ur);
            let (least, every) = if lost_to_mate {
                if total <= 0.0 {
                    continue;
                }
                (&mut mated_least, &mut mated_every)
            } else if total <= 0.0 {
                return None;
            } else {
                (&mut least, &mut every)
            };
            every.targets |= sub_ids.targets;
            every.by_non_king |= sub_ids.by_non_king;
            every.by_non_pawn |= sub_ids.by_non_pawn;
            Ties::add_least(
                least,
                Won {
                    gain: total,
                    ..sub_ids
                },
            );
        }
        // Every answer allows mate: a kill (殺兼捉), which wins every piece one of its answers
        // gives up.
        let kill = least.is_none();
        if kill {
            (least, every) = (mated_least, mated_every);
        }
        if every.targets == 0 {
            return None;
        }
        let won = taking.line_won(least?.best_of(), every, kill);
        Some(Won {
            attacked: every.targets,
            ..won
        })
    }

    /// What the checker nets, within `depth` plies, after the defender's answer (`c`, the
    /// checker to move; the oracle's `gain_after_answer`): [`Analyzer::best_gain`], unless the
    /// answer checks back (reading `answer-that-checks-back`, 24.3). The checker must then
    /// answer that check before it can go on, so it nets, by its best answer, what that answer
    /// takes less what the defender then wins ([`Analyzer::best_gain`]), or what a line of
    /// checks that the answer itself opens wins. An answer after which the defender mates at
    /// once is never made (29.4). The result may be negative; `-inf` when every answer is mated
    /// at once. With fewer than two plies left it is [`Analyzer::best_gain`]. Squares as in `c`.
    pub(super) fn gain_after_answer(&mut self, c: &mut Tracked, depth: u32) -> Won {
        if depth < 2 || !c.pos.is_check() {
            return self.best_gain(c, depth);
        }
        let mut most = f64::NEG_INFINITY;
        let mut ties = Ties::default();
        self.for_each_answer_to_check_back(c, depth, |az, c, a| {
            most = most.max(a.gain);
            if a.takes && a.gain > 0.0 {
                ties.add(Won::capture(c, a.mover, a.mv.to(), a.gain));
            }
            if a.checks {
                if let Some(line) = az.check_line(c, a.mv, depth) {
                    most = most.max(line.gain);
                    ties.add(line);
                }
            }
        });
        if most > 0.0 {
            ties.best_of()
        } else {
            Won {
                gain: most,
                ..Won::default()
            }
        }
    }

    /// Runs `f` on each answer of the checker to a check back (`c`: the checker to move, in
    /// check; `depth` ≥ 2 plies left) that is not mated at once (29.4), with what it nets within
    /// `depth` plies: what it takes less the best gain the defender then has
    /// ([`Analyzer::best_gain`] in `depth - 1` plies), and whether it checks with plies left for a
    /// line of checks of its own (the ways of [`Analyzer::gain_after_answer`]).
    fn for_each_answer_to_check_back(
        &mut self,
        c: &mut Tracked,
        depth: u32,
        mut f: impl FnMut(&mut Self, &mut Tracked, CheckBackAnswer),
    ) {
        let rs = self.rs;
        let mut answers = MoveList::new();
        c.pos.legal_moves_into(&mut answers);
        for &mv in answers.iter() {
            let taken = id_at(c, mv.to()).map(|t| value(rs, c, t));
            let mover = id_at(c, mv.from()).expect("a mover");
            let um = c.play_undo(mv);
            let way = if self.mates_at_once(c) {
                None
            } else {
                let gain = taken.unwrap_or(0.0) - self.best_gain(c, depth - 1).gain;
                Some((gain, depth >= 3 && c.pos.is_check()))
            };
            c.undo(mv, um);
            if let Some((gain, checks)) = way {
                let takes = taken.is_some();
                f(
                    self,
                    c,
                    CheckBackAnswer {
                        mv,
                        mover,
                        takes,
                        gain,
                        checks,
                    },
                );
            }
        }
    }

    /// [`Analyzer::answer_leaves`] for an answer that checks back (`a` after it): found in full
    /// with [`Analyzer::gain_after_answer`].
    fn answer_checking_back_leaves(
        &mut self,
        a: &mut Tracked,
        taken: Taken,
        first: f64,
        sub_depth: u32,
        tau: f64,
    ) -> Option<Leaves> {
        let sub = self.gain_after_answer(a, sub_depth);
        // No move at all refutes the line; a gain proves a move.
        if sub.gain <= 0.0 && !a.pos.has_legal_move() {
            return None;
        }
        let total = taken.net(self.rs, a, first, &sub);
        let mated = self.mate_by_checks_in(a, sub_depth, self.offered);
        if total > tau {
            Some(Leaves::Above {
                // What an answer that allows mate gives up at once is found later if need be.
                won: (!mated).then_some(sub.targets != 0),
                mated,
            })
        } else if !mated {
            None
        } else if total > 0.0 {
            Some(Leaves::MatedLow)
        } else {
            Some(Leaves::MatedNothing)
        }
    }

    /// Is [`Analyzer::check_line`] of the checking move `k` a line (`Some`) worth more than
    /// `theta`? Every answer must leave the checker more than `theta` (and a gain), and one
    /// answer at least must leave it a piece won; the first answer that fails ends the search.
    pub(super) fn line_exceeds(
        &mut self,
        b: &mut Tracked,
        k: Move,
        depth: u32,
        theta: f64,
    ) -> bool {
        let tau = theta.max(0.0);
        let Some(first) = self.taken_if_line_may_exceed(b, k, depth, tau) else {
            return false;
        };
        let uk = b.play_undo(k);
        let r = self.line_exceeds_after(b, first, depth, tau);
        b.undo(k, uk);
        r
    }

    /// The worth of the piece the checking move `k` takes (0 if none), if the line of
    /// consecutive checks it opens (a search of `depth` plies) could win more than `tau`: it
    /// wins that piece and what the search after the answer wins, nothing more
    /// ([`Analyzer::gain_ceiling`], where the piece taken is counted too). `None`: the line
    /// need not be searched.
    fn taken_if_line_may_exceed(
        &mut self,
        b: &Tracked,
        k: Move,
        depth: u32,
        tau: f64,
    ) -> Option<First> {
        let first = First::of(self.rs, b, k);
        let most =
            first.worth + self.gain_ceiling(b, b.pos.turn().other(), depth.saturating_sub(2));
        (most > tau).then_some(first)
    }

    fn line_exceeds_after(&mut self, a: &mut Tracked, first: First, depth: u32, tau: f64) -> bool {
        // The answers are independent tests, so their order does not change the result. Most
        // lines are refuted by their first answer, which is therefore found without listing the
        // others.
        let Some(r0) = a.pos.first_legal_move() else {
            return false;
        };
        let mut tally = Tally::default();
        match self.answer_leaves(a, r0, first, depth, tau) {
            None => return false,
            Some(l) => tally.add(l, r0),
        }
        let mut rest = MoveList::new();
        a.pos.legal_moves_into(&mut rest);
        // Captures first, as in [`Analyzer::check_line_after`]: they refute a line most often,
        // and the answers are independent tests, so the order does not change the result.
        rest.sort_by_key(|r| a.pos.piece_at(r.to()).is_none());
        for &r in rest.iter() {
            if r == r0 {
                continue;
            }
            match self.answer_leaves(a, r, first, depth, tau) {
                None => return false,
                Some(l) => tally.add(l, r),
            }
        }
        // The answers that escape the mate count; when every answer allows mate, those that
        // leave a gain do (reading `defence-that-allows-mate`), and one that leaves no more than
        // `tau` holds the line to it.
        let (counted, kill) = if tally.free.any {
            (&tally.free, false)
        } else if tally.mated_low || !tally.mated.any {
            return false;
        } else {
            (&tally.mated, true)
        };
        if counted.won {
            return true;
        }
        // A kill wins what its answers give up at once (reading `defence-that-allows-mate`).
        let sub_depth = if kill { 1 } else { depth.saturating_sub(2) };
        for &r in counted.unknown.iter() {
            let ur = a.play_undo(r);
            let won = self.gain_exceeds(a, sub_depth, 0.0);
            a.undo(r, ur);
            if won {
                return true;
            }
        }
        false
    }

    /// One answer `r` to the check of [`Analyzer::line_exceeds`] (`a` after the check, the
    /// checker having taken a piece worth `first`): `None` when it refutes the line (it leaves
    /// the checker no more than `tau` without letting it mate, or no move at all), else what it
    /// leaves ([`Leaves`]).
    fn answer_leaves(
        &mut self,
        a: &mut Tracked,
        r: Move,
        first: First,
        depth: u32,
        tau: f64,
    ) -> Option<Leaves> {
        let rs = self.rs;
        let sub_depth = depth.saturating_sub(2);
        let taken = Taken::by(rs, a, r, first);
        let first = first.worth;
        let (lost, lost_pawn_only) = (taken.worth, taken.pawn);
        let ur = a.play_undo(r);
        if sub_depth >= 2 && a.pos.is_check() {
            // The answer checks back: its worth is found in full (reading
            // `answer-that-checks-back`; such answers are few).
            let res = self.answer_checking_back_leaves(a, taken, first, sub_depth, tau);
            a.undo(r, ur);
            return res;
        }
        // An answer after which the checker has no move at all refutes the line too. A gain
        // above a threshold ≥ 0 is a capture or a check, so it proves a move. `no_gain`: the
        // answer leaves the checker nothing. An answer that lets the checker mate never refutes
        // the line (reading `defence-that-allows-mate`).
        let (ok, positive, has_move, no_gain) = if lost_pawn_only && rs.pawn_for_rook_is_gain {
            // Whether what follows counts depends on the pieces won (a rook), but it only adds:
            if first - lost > tau {
                // the line holds already (whether it wins a piece is found out later if need
                // be);
                (true, None, false, false)
            } else if first - lost > 0.0 && !self.gain_exceeds(a, sub_depth, tau + lost - first) {
                // not even all that follows would be enough, and the answer leaves a gain;
                (false, None, false, false)
            } else {
                // else in full.
                let sub = self.best_gain(a, sub_depth);
                let total = taken.net(rs, a, first, &sub);
                (
                    total > tau,
                    Some(sub.gain > 0.0),
                    sub.gain > 0.0,
                    total <= 0.0,
                )
            }
        } else if lost_pawn_only {
            // Taking the pawn back is all the line is worth, whatever follows (25.3).
            (first - lost > tau, None, false, first - lost <= 0.0)
        } else {
            let th = tau + lost - first;
            let e = self.gain_exceeds(a, sub_depth, th);
            let no_gain = !e && (tau <= 0.0 || !self.gain_exceeds(a, sub_depth, lost - first));
            (e, (e && th >= 0.0).then_some(true), e && th >= 0.0, no_gain)
        };
        let res = if !(has_move || a.pos.has_legal_move()) {
            None
        } else {
            let mated = self.mate_by_checks_in(a, sub_depth, self.offered);
            if ok {
                Some(Leaves::Above {
                    // What an answer that allows mate gives up at once is found later if need
                    // be.
                    won: positive.filter(|_| !mated),
                    mated,
                })
            } else if !mated {
                None
            } else if no_gain {
                Some(Leaves::MatedNothing)
            } else {
                Some(Leaves::MatedLow)
            }
        };
        a.undo(r, ur);
        res
    }
}

/// What one answer to a check leaves the checker, for [`Analyzer::line_exceeds`].
#[derive(Clone, Copy)]
enum Leaves {
    /// More than the threshold: whether a piece is won after it (`None`: still to be found out)
    /// and whether it lets the checker mate.
    Above { won: Option<bool>, mated: bool },
    /// It lets the checker mate and leaves a gain no more than the threshold.
    MatedLow,
    /// It lets the checker mate and leaves nothing.
    MatedNothing,
}

/// The answers of [`Analyzer::line_exceeds`] so far: those that escape the mate (`free`) and
/// those that allow it and leave more than the threshold (`mated`), and whether an answer allows
/// mate and leaves a gain no more than the threshold (`mated_low`).
#[derive(Default)]
struct Tally {
    free: Answers,
    mated: Answers,
    mated_low: bool,
}

/// Answers of one kind in a [`Tally`]: whether there is one, whether one of them leaves a piece
/// won, and the answers for which that is still unknown.
#[derive(Default)]
struct Answers {
    any: bool,
    won: bool,
    unknown: MoveList,
}

impl Tally {
    /// Counts the answer `r`.
    fn add(&mut self, l: Leaves, r: Move) {
        match l {
            Leaves::Above { won, mated } => {
                let kind = if mated {
                    &mut self.mated
                } else {
                    &mut self.free
                };
                kind.any = true;
                match won {
                    Some(true) => kind.won = true,
                    Some(false) => {}
                    None => kind.unknown.push(r),
                }
            }
            Leaves::MatedLow => self.mated_low = true,
            Leaves::MatedNothing => {}
        }
    }
}

/// The squares of all rooks.
fn rooks(b: &Tracked) -> u128 {
    b.pos.pieces(Piece::new(Color::Red, Role::Rook)).0
        | b.pos.pieces(Piece::new(Color::Black, Role::Rook)).0
}

/// The piece an answer to a check takes, if any: its worth and whether it is a pawn.
#[derive(Clone, Copy)]
pub(super) struct Taken {
    worth: f64,
    pawn: bool,
}

impl Taken {
    /// What the answer `r` in `a` (before it is played) takes, after the check `first`: taking
    /// back a checking pawn that took a piece is worth that piece when the pawn for it is level
    /// (25.3 / 2011 26.6), and is then no pawn given for what follows, as the oracle's
    /// `check_line`.
    pub(super) fn by(rs: &RuleSet, a: &Tracked, r: Move, first: First) -> Taken {
        let piece = id_at(a, r.to());
        // Taking back the checking pawn that took a piece: the trade is level, and the pawn is
        // given for that piece and what follows (一兵换取数子, 25.3 / 2011 26.6).
        let traded = first.pawn_level && r.to() == first.to;
        Taken {
            worth: if traded {
                first.worth
            } else {
                piece.map_or(0.0, |v| value(rs, a, v))
            },
            pawn: traded || piece.is_some_and(|v| is_pawn(a, v)),
        }
    }

    /// What a line of checks nets after this answer (`after`, the position after it): the
    /// piece the check took (`first`) and what the checker wins next (`sub`), less the piece
    /// taken. A pawn given for pieces is no gain (25.3), except for a rook in 2011 (26.6).
    pub(super) fn net(self, rs: &RuleSet, after: &Tracked, first: f64, sub: &Won) -> f64 {
        if self.pawn
            && sub.gain > 0.0
            && !(rs.pawn_for_rook_is_gain && sub.targets & rooks(after) != 0)
        {
            first - self.worth
        } else {
            first + sub.gain - self.worth
        }
    }
}

/// What a checking move takes: the worth of the piece, the point, and whether, the checker being
/// a pawn and the piece not one 26.6 lets a pawn win (a rook in 2011), taking the pawn back
/// makes the trade level (25.3 / 2011 26.6, 送兵换…其他一子不算得子).
#[derive(Clone, Copy)]
pub(super) struct First {
    pub(super) worth: f64,
    to: Square,
    pawn_level: bool,
}

impl First {
    pub(super) fn of(rs: &RuleSet, b: &Tracked, k: Move) -> First {
        let taken = id_at(b, k.to());
        let checker = id_at(b, k.from()).expect("a mover");
        First {
            worth: taken.map_or(0.0, |v| value(rs, b, v)),
            to: k.to(),
            pawn_level: is_pawn(b, checker)
                && taken.is_some_and(|t| !super::pawn_trade_is_gain(rs, b, t)),
        }
    }
}

/// The piece a checking move takes, as a line of checks wins it when the best answers lose
/// nothing after it (reading `won-against-the-best-defence`), with the kind of its taker.
#[derive(Clone, Copy)]
pub(super) struct FirstCapture {
    taken: Option<PieceId>,
    by_non_king: bool,
    by_non_pawn: bool,
}

impl FirstCapture {
    pub(super) fn of(b: &Tracked, k: Move) -> FirstCapture {
        let checker = id_at(b, k.from()).expect("a mover");
        FirstCapture {
            taken: id_at(b, k.to()),
            by_non_king: !is_king(b, checker),
            by_non_pawn: !is_pawn(b, checker),
        }
    }

    /// What a line of checks wins, as identities, from what its best answers lose (`best`,
    /// with the line's gain) and every piece lost after some answer (`every`): a kill (every
    /// answer allows mate) wins every such piece (殺兼捉, reading `defence-that-allows-mate`);
    /// otherwise the best answers' pieces, or, when they lose nothing after the check's own
    /// capture, that piece (reading `won-against-the-best-defence`).
    pub(super) fn line_won(self, best: Won, every: Won, kill: bool) -> Won {
        if kill {
            return Won {
                gain: best.gain,
                ..every
            };
        }
        if best.targets == 0 {
            return self.won(best.gain, every);
        }
        best
    }

    /// What the line wins when its best answers lose nothing more: the piece taken, as
    /// identities; without one, the pieces lost after some answer (`every`).
    pub(super) fn won(self, gain: f64, every: Won) -> Won {
        let Some(t) = self.taken else {
            return Won { gain, ..every };
        };
        let bit = id_bit(t);
        Won {
            gain,
            targets: bit,
            by_non_king: if self.by_non_king { bit } else { 0 },
            by_non_pawn: if self.by_non_pawn { bit } else { 0 },
            attacked: 0,
        }
    }
}

/// The bounded check-line search ([`Analyzer::gain_exceeds`], [`Analyzer::line_exceeds`] and
/// the pruned [`Analyzer::best_gain`]) against the plain search it replaces, which evaluates
/// every capture and every line in full (the oracle's way).
#[cfg(test)]
mod bounded_search_tests {
    use super::super::board::checking_moves;
    use super::super::clear_caches;
    use super::*;
    use crate::judge::Builtin;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// A position with the kings and a few attacking pieces placed at random (lines of checks
    /// are frequent there).
    fn sparse(rng: &mut impl Rng) -> crate::Position {
        use Color::{Black, Red};
        use Role::{Advisor, Cannon, Elephant, Horse, King, Pawn, Rook};
        loop {
            let mut board = [None; 90];
            let at = |rank: usize, file: usize| rank * 9 + file;
            board[at(rng.gen_range(7..10), rng.gen_range(3..6))] = Some(Piece::new(Black, King));
            board[at(rng.gen_range(0..3), rng.gen_range(3..6))] = Some(Piece::new(Red, King));
            let mut pieces = [
                (Red, Rook),
                (Red, Rook),
                (Red, Horse),
                (Red, Cannon),
                (Red, Pawn),
                (Black, Rook),
                (Black, Horse),
                (Black, Cannon),
                (Black, Advisor),
                (Black, Advisor),
                (Black, Elephant),
            ];
            pieces.shuffle(rng);
            for &(c, r) in pieces.iter().take(rng.gen_range(4..9)) {
                let i = rng.gen_range(0..90);
                if board[i].is_none() {
                    board[i] = Some(Piece::new(c, r));
                }
            }
            let turn = if rng.gen_bool(0.5) { Red } else { Black };
            let setup = crate::Setup {
                board,
                turn,
                halfmoves: 0,
                fullmoves: 1,
            };
            if let Ok(p) = crate::Position::from_setup(&setup) {
                if !p.is_check() || rng.gen_bool(0.2) {
                    return p;
                }
            }
        }
    }

    #[test]
    fn bounded_search_gives_the_plain_answers() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut lines, mut won, mut gains, mut ceiling_cuts) = (0, 0, 0, 0);
        for id in ["cxa-1999", "cxa-2011"] {
            let rs = RuleSet::builtin(id).unwrap();
            for _ in 0..600 {
                let mut b = Tracked::new(sparse(&mut rng));
                let fen = b.pos.to_fen();
                clear_caches();
                let mut az = Analyzer::new(rs);
                for depth in [3, 5, 7] {
                    let plain = az.best_gain_plain(&mut b.clone(), depth, None);
                    assert_eq!(az.best_gain(&mut b, depth), plain, "{fen} depth {depth}");
                    let them = b.pos.turn().other();
                    assert!(
                        plain.gain <= az.gain_ceiling(&b, them, depth),
                        "{fen} {depth}"
                    );
                    gains += usize::from(plain.gain > 0.0);
                    for theta in [0.0, 0.5, 1.0, 2.0, 3.5, 4.5, 9.0] {
                        assert_eq!(
                            az.gain_exceeds(&mut b, depth, theta),
                            plain.gain > theta,
                            "{fen} depth {depth} theta {theta}"
                        );
                    }
                    for k in checking_moves(&mut b) {
                        let plain = az.check_line_plain(&mut b.clone(), k, depth, None);
                        let most = id_at(&b, k.to()).map_or(0.0, |v| value(rs, &b, v))
                            + az.gain_ceiling(&b, them, depth - 2);
                        assert!(plain.is_none_or(|w| w.gain <= most), "{fen} {k} {depth}");
                        lines += 1;
                        won += usize::from(plain.is_some());
                        assert_eq!(az.check_line(&mut b, k, depth), plain, "{fen} {k} {depth}");
                        assert_eq!(
                            az.check_line_tested_first(&mut b, k, depth),
                            plain,
                            "{fen} {k} {depth}"
                        );
                        // The pieces the line wins, asked one at a time.
                        for sq in b.pos.by_color(them) {
                            let Some(id) = id_at(&b, sq) else { continue };
                            let wins =
                                plain.is_some_and(|w| w.targets & (1u128 << sq.index()) != 0);
                            assert_eq!(
                                az.line_wins_piece(&mut b, k, depth, id),
                                wins,
                                "{fen} {k} depth {depth} piece {sq}"
                            );
                        }
                        for theta in [0.0, 1.0, 2.0, 4.5, 9.0, 13.0] {
                            let skipped = az.taken_if_line_may_exceed(&b, k, depth, theta);
                            ceiling_cuts += usize::from(skipped.is_none());
                            assert_eq!(
                                az.line_exceeds(&mut b, k, depth, theta),
                                plain.is_some_and(|w| w.gain > theta),
                                "{fen} {k} depth {depth} theta {theta}"
                            );
                        }
                    }
                }
            }
        }
        eprintln!("{lines} lines, {won} won, {gains} gains, {ceiling_cuts} cut by the ceiling");
        // The positions exercise the search: lines that win and lines that do not, and
        // thresholds the ceiling answers without a search.
        assert!(
            lines > 500 && won > 30 && gains > 100 && ceiling_cuts > 100,
            "{lines} lines, {won} won, {gains} gains, {ceiling_cuts} cut by the ceiling"
        );
    }
}

/// An answer of the checker to a check back ([`Analyzer::for_each_answer_to_check_back`]).
#[derive(Clone, Copy)]
struct CheckBackAnswer {
    /// The answer.
    mv: Move,
    /// The piece that makes it.
    mover: PieceId,
    /// Whether it takes a piece.
    takes: bool,
    /// What it takes less what the defender then wins.
    gain: f64,
    /// Whether it checks, with plies left for a line of checks.
    checks: bool,
}

/// The pieces that take part in winning one target (24.17, reading `joint-line-of-checks`):
/// those that capture it and, on a line of consecutive checks, those that give a check on the
/// way, as identities.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Parts {
    /// The pieces that capture it.
    pub(super) capturers: IdSet,
    /// The pieces that give a check on the way.
    pub(super) checkers: IdSet,
}

impl Parts {
    /// Both sets joined with `other`'s.
    pub(super) fn with(self, other: Parts) -> Parts {
        Parts {
            capturers: self.capturers | other.capturers,
            checkers: self.checkers | other.checkers,
        }
    }
}

/// The squares of the pieces a line of checks beginning with `k` in `b` takes or wins: the
/// piece its first check takes, if any, and the pieces its best defence loses (`w`, squares in
/// `b`; the oracle's `line_wins`).
fn line_wins(b: &Tracked, k: Move, w: &Won) -> u128 {
    let first = if b.pos.piece_at(k.to()).is_some() {
        1u128 << k.to().index()
    } else {
        0
    };
    w.targets | first
}
