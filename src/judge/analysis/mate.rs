//! Mate (杀) by consecutive checks: the kill test of 28.2 / 24.2 and the mate at once of 29.4,
//! with the transposition cache of the mate search.

use super::board::{id_at, id_bit, ids_in, IdSet};
use super::Analyzer;
use crate::judge::track::{PieceId, Tracked};
use crate::{Move, MoveList, Role};

impl Analyzer<'_> {
    /// Does the side to move have a move that mates at once (29.4)? Within
    /// `mated_at_once_plies`, never taking a piece of `offered`.
    pub fn mates_at_once(&mut self, b: &mut Tracked) -> bool {
        let o = self.offered;
        self.mate_by_checks_in(b, self.rs.mated_at_once_plies, o)
    }

    /// Can the side to move force mate with consecutive checks within `plies` plies?
    pub fn mate_by_checks(&mut self, b: &Tracked, plies: u32) -> bool {
        let mut b = b.clone();
        self.mate_by_checks_in(&mut b, plies, 0)
    }

    /// As [`Analyzer::mate_by_checks`], never capturing a piece of `avoid`, except in lines
    /// that `own` opens with a check of its own that takes no such piece.
    pub fn mate_by_checks_avoiding(
        &mut self,
        b0: &Tracked,
        plies: u32,
        avoid: IdSet,
        own: PieceId,
    ) -> bool {
        self.mate_opened_by(b0, plies, avoid, own) || {
            let mut b = b0.clone();
            self.mate_by_checks_in(&mut b, plies, avoid)
        }
    }

    /// Does a check by the piece `own` (taking no piece of `avoid`) open a mate by consecutive
    /// checks within `plies`? (The oracle's `mate_opened_by`.)
    pub(crate) fn mate_opened_by(
        &mut self,
        b0: &Tracked,
        plies: u32,
        avoid: IdSet,
        own: PieceId,
    ) -> bool {
        let mut b = b0.clone();
        self.checking_moves(&b).iter().any(|&k| {
            id_at(&b, k.from()) == Some(own)
                && id_at(&b, k.to()).is_none_or(|v| avoid & id_bit(v) == 0)
                && self.check_begins_mate(&mut b, k, plies)
        })
    }

    /// Does the checking move `k` of the side to move begin a mate by consecutive checks within
    /// `plies` plies: after it the other side has no move, or every answer is mated within
    /// `plies - 2`? (The oracle's `check_begins_mate`.)
    fn check_begins_mate(&mut self, b: &mut Tracked, k: Move, plies: u32) -> bool {
        let uk = b.play_undo(k);
        let mut replies = MoveList::new();
        b.pos.legal_moves_into(&mut replies);
        let mates = replies.is_empty()
            || (plies >= 3
                && replies.iter().all(|&r| {
                    let ur = b.play_undo(r);
                    let ok = self.mate_within(b, plies - 2, 0);
                    b.undo(r, ur);
                    ok
                }));
        b.undo(k, uk);
        mates
    }

    /// Reading `newness-in-context`, third part (2011 26.1.2, 26.3, 24.18; the oracle's
    /// `kill_is_new`): after a piece other than the king answered a check, does the mover
    /// (`after`, the other side passing) threaten a mate whose first move began no mate before
    /// the opponent's checking move (`earlier`, passing as well) and was not laid open by that
    /// check (自毙): the first move of a mate after every answer to it, or after an answer of the
    /// king (the legal moves of `in_check`, each followed by a pass)? The answers are played only
    /// for a mate that is new against `earlier`.
    pub fn kill_is_new(
        &mut self,
        after: &Tracked,
        earlier: &Tracked,
        in_check: &Tracked,
        plies: u32,
    ) -> bool {
        if plies == 0 {
            return false;
        }
        let mut e = earlier.clone();
        let mut stood = Vec::new();
        for &k in self.checking_moves(&e).iter() {
            if self.check_begins_mate(&mut e, k, plies) {
                stood.push(k);
            }
        }
        let mut a = after.clone();
        let candidates: Vec<Move> = self
            .checking_moves(&a)
            .iter()
            .copied()
            .filter(|k| !stood.contains(k))
            .collect();
        // The positions after each answer, with whether the king made it.
        let mut answers: Option<Vec<(Tracked, bool)>> = None;
        for k in candidates {
            if !self.check_begins_mate(&mut a, k, plies) {
                continue;
            }
            let answers = answers.get_or_insert_with(|| {
                in_check
                    .pos
                    .legal_moves()
                    .iter()
                    .map(|&r| {
                        let by_king = in_check
                            .pos
                            .piece_at(r.from())
                            .is_some_and(|p| p.role == Role::King);
                        let mut b = in_check.clone();
                        b.play(r);
                        (b.passed(), by_king)
                    })
                    .collect()
            });
            let mut every = !answers.is_empty();
            let mut after_king = false;
            for (r, by_king) in answers.iter_mut() {
                let mates =
                    self.checking_moves(r).contains(&k) && self.check_begins_mate(r, k, plies);
                every &= mates;
                after_king |= mates && *by_king;
            }
            // Laid open by the check: no new kill of this answer.
            if !(every || after_king) {
                return true;
            }
        }
        false
    }

    pub(super) fn mate_by_checks_in(&mut self, b: &mut Tracked, plies: u32, avoid: IdSet) -> bool {
        // The oracle deepens one check at a time (1, 3, 5, ... plies) and stops at the first
        // mate; a mate within d plies is one within d + 2, so that is the answer of the deepest
        // search alone. The mate in one is tried first: it is cheap and often decides.
        self.mate_within_first(b, plies, avoid, true)
    }

    fn mate_within(&mut self, b: &mut Tracked, plies: u32, avoid: IdSet) -> bool {
        self.mate_within_first(b, plies, avoid, false)
    }

    /// Can the side to move mate within `plies` plies by consecutive checks, never taking a
    /// piece of `avoid`? With `one_first`, every check is first tried as a mate in one, from
    /// the same list of checking moves as the deeper search.
    fn mate_within_first(
        &mut self,
        b: &mut Tracked,
        plies: u32,
        avoid: IdSet,
        one_first: bool,
    ) -> bool {
        if plies == 0 {
            return false;
        }
        let avoid_sq: u128 = ids_in(avoid)
            .filter_map(|id| b.square_of(id))
            .fold(0, |a, s| a | (1u128 << s.index()));
        let key = (b.pos.hash(), avoid_sq);
        // (no mate within this many plies, a mate within this many plies)
        let mut known = (0, u32::MAX);
        if let Some(&k) = self.caches.mates.get(&key) {
            if plies <= k.0 {
                return false;
            }
            if plies >= k.1 {
                return true;
            }
            known = k;
        }
        let mut checks = self.checking_moves(b);
        if avoid != 0 {
            checks.retain(|k| id_at(b, k.to()).is_none_or(|v| avoid & id_bit(v) == 0));
        }
        let mut r = None;
        if (one_first || plies < 3) && known.0 < 1 {
            let one = checks.iter().any(|&k| {
                let uk = b.play_undo(k);
                let mated = !b.pos.has_legal_move();
                b.undo(k, uk);
                mated
            });
            self.record_mate(key, 1, one);
            if one || plies < 3 {
                r = Some(one);
            }
        }
        r.unwrap_or_else(|| {
            let deep = self.mate_within_deep(b, &checks, plies, avoid);
            self.record_mate(key, plies, deep);
            deep
        })
    }

    /// Records in the cache that the position of `key` has (`mate`) or has not a mate within
    /// `plies` plies.
    fn record_mate(&mut self, key: (u64, u128), plies: u32, mate: bool) {
        let e = self.caches.mates.entry(key).or_insert((0, u32::MAX));
        if mate {
            e.1 = e.1.min(plies);
        } else {
            e.0 = e.0.max(plies);
        }
    }

    /// The search of [`Analyzer::mate_within_first`] for `plies` ≥ 3 over the (allowed)
    /// checking moves `checks`: some check after which every answer is mated in time.
    fn mate_within_deep(
        &mut self,
        b: &mut Tracked,
        checks: &[Move],
        plies: u32,
        avoid: IdSet,
    ) -> bool {
        for &k in checks {
            let uk = b.play_undo(k);
            // Every answer must be mated in time. The first answer found (a king's step if
            // there is one) escapes most often, so it is tried before the answers are listed.
            let found = match b.pos.first_legal_move() {
                None => true,
                Some(r0) => {
                    let escapes = |az: &mut Self, b: &mut Tracked, r: Move| {
                        let ur = b.play_undo(r);
                        let ok = az.mate_within(b, plies - 2, avoid);
                        b.undo(r, ur);
                        !ok
                    };
                    !escapes(self, b, r0) && {
                        let mut replies = MoveList::new();
                        b.pos.legal_moves_into(&mut replies);
                        !replies.iter().any(|&r| r != r0 && escapes(self, b, r))
                    }
                }
            };
            b.undo(k, uk);
            if found {
                return true;
            }
        }
        false
    }
}
