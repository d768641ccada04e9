//! The plain search of what the side to move can win by captures and lines of consecutive
//! checks (the oracle's `best_gain`, `gain_after_answer` and `check_line`): every capture and
//! every line evaluated in full, nothing pruned or cached, optionally asked about one piece
//! ([`Aim`]). The pruned searches of [`super::checks`] and [`super::exchange`] answer the
//! questions without an aim (their tests compare them with these); the question with an aim is
//! rare (the newness of a line of checks, reading `newness-of-a-line-of-checks`), so it is
//! answered plainly.

use super::board::{captures_ordered, id_at, id_bit, ids_on, sort_oracle, squares_of, value};
use super::checks::{First, FirstCapture, Taken};
use super::{Analyzer, Ties, Won};
use crate::judge::track::{PieceId, Tracked};
use crate::{Color, Move, MoveList};

/// The one piece a search is asked about (the oracle's `Ctx::aim`), with its side: the ways of
/// the other side that do not take it count as winning nothing.
#[derive(Clone, Copy)]
pub(super) struct Aim {
    id: PieceId,
    side: Color,
}

impl Aim {
    /// The piece aimed at, when the side to move in `b` is its opponent (the side whose wins
    /// are asked about); `None` for the other side, whose answers count in full.
    fn of(aim: Option<Aim>, b: &Tracked) -> Option<PieceId> {
        aim.filter(|a| a.side != b.pos.turn()).map(|a| a.id)
    }
}

/// The checking moves of the side to move, in the oracle's order.
fn checking_moves_ordered(b: &Tracked) -> MoveList {
    let mut v = b.pos.checking_moves();
    sort_oracle(b, &mut v);
    v
}

/// Is `id` among the pieces of `w`, whose sets hold squares of `b`?
fn wins_on(b: &Tracked, w: &Won, id: PieceId) -> bool {
    b.square_of(id)
        .is_some_and(|sq| w.targets & (1u128 << sq.index()) != 0)
}

impl Analyzer<'_> {
    /// Can a line of consecutive checks of the side to move in `b0` win `target`, a piece of
    /// the other side, when at the end of the line only the ways that take it count (the
    /// oracle's `line_can_win`; reading `newness-of-a-line-of-checks`)?
    pub(crate) fn line_can_win(&mut self, b0: &Tracked, target: PieceId) -> bool {
        if !self.check_lines_on()
            || (self.rs.pawn_by_checks_no_gain && super::board::is_pawn(b0, target))
        {
            return false;
        }
        let Some(piece) = b0.piece(target) else {
            return false;
        };
        let aim = Some(Aim {
            id: target,
            side: piece.color,
        });
        let depth = self.rs.chase_search_depth;
        let mut b = b0.clone();
        for k in checking_moves_ordered(&b) {
            if self
                .check_line_plain(&mut b, k, depth, aim)
                .is_some_and(|w| wins_on(&b, &w, target))
            {
                return true;
            }
        }
        false
    }

    /// The oracle's `best_gain`, unpruned and uncached (with `aim`: only the ways that take it).
    pub(super) fn best_gain_plain(&mut self, b: &mut Tracked, depth: u32, aim: Option<Aim>) -> Won {
        if depth == 0 {
            return Won::default();
        }
        let aimed = Aim::of(aim, b);
        let mut ties = Ties::default();
        for m in captures_ordered(b) {
            let Some(target) = id_at(b, m.to()) else {
                continue;
            };
            if aimed.is_some_and(|a| a != target) {
                continue;
            }
            let v = value(self.rs, b, target);
            let capturer = id_at(b, m.from()).expect("a mover");
            let u = b.play_undo(m);
            let gain = v - self.see(b, m.to(), 8);
            let ok = gain > 0.0 && !self.mates_at_once(b);
            b.undo(m, u);
            if ok {
                ties.add(Won::capture(b, capturer, m.to(), gain));
            }
        }
        if depth >= 3 {
            for k in checking_moves_ordered(b) {
                if let Some(line) = self.check_line_plain(b, k, depth, aim) {
                    if aimed.is_none_or(|a| wins_on(b, &line, a)) {
                        ties.add(line);
                    }
                }
            }
        }
        ties.best_of()
    }

    /// The oracle's `gain_after_answer`, unpruned and uncached.
    fn gain_after_answer_plain(&mut self, c: &mut Tracked, depth: u32, aim: Option<Aim>) -> Won {
        if depth < 2 || !c.pos.is_check() {
            return self.best_gain_plain(c, depth, aim);
        }
        let aimed = Aim::of(aim, c);
        let mut ways = Vec::new();
        for &m in c.pos.legal_moves().iter() {
            let victim = id_at(c, m.to());
            let taken = victim.map(|t| value(self.rs, c, t));
            let mover = id_at(c, m.from()).expect("a mover");
            let um = c.play_undo(m);
            let mated = self.mates_at_once(c);
            let back = if mated {
                0.0
            } else {
                self.best_gain_plain(c, depth - 1, aim).gain
            };
            let checks = c.pos.is_check();
            c.undo(m, um);
            if mated {
                continue;
            }
            let mut gain = taken.unwrap_or(0.0) - back;
            // Asked about one piece: taking another wins nothing.
            if aimed.is_some_and(|a| victim != Some(a)) {
                gain = gain.min(0.0);
            }
            ways.push(if taken.is_some() && gain > 0.0 {
                Won::capture(c, mover, m.to(), gain)
            } else {
                Won {
                    gain,
                    ..Won::default()
                }
            });
            if depth >= 3 && checks {
                ways.extend(self.check_line_plain(c, m, depth, aim));
            }
        }
        let most = ways
            .iter()
            .map(|w| w.gain)
            .fold(f64::NEG_INFINITY, f64::max);
        if most <= 0.0 {
            return Won {
                gain: most,
                ..Won::default()
            };
        }
        let mut ties = Ties::default();
        for w in ways {
            ties.add(w);
        }
        ties.best_of()
    }

    /// The oracle's `check_line`, every answer evaluated in full (with `aim`: a line that does
    /// not win it wins nothing).
    pub(super) fn check_line_plain(
        &mut self,
        b: &mut Tracked,
        k: Move,
        depth: u32,
        aim: Option<Aim>,
    ) -> Option<Won> {
        let rs = self.rs;
        let aimed = Aim::of(aim, b);
        let first = First::of(rs, b, k);
        let taking = FirstCapture::of(b, k);
        let uk = b.play_undo(k);
        let replies = b.pos.legal_moves();
        let mut holds = !replies.is_empty();
        // Every answer that keeps the line: what it leaves the checker, and the pieces won.
        let mut answers: Vec<Won> = Vec::new();
        for &r in replies.iter() {
            let taken = Taken::by(rs, b, r, first);
            let ur = b.play_undo(r);
            if !b.pos.has_legal_move() {
                holds = false;
            }
            let sub = self.gain_after_answer_plain(b, depth.saturating_sub(2), aim);
            let total = taken.net(rs, b, first.worth, &sub);
            let sub_ids = sub.map(|sq| ids_on(b, sq));
            // An answer that lets the checker mate is lost for the defender (reading
            // `defence-that-allows-mate`).
            let lost_to_mate =
                total <= 0.0 && self.mate_by_checks_in(b, depth.saturating_sub(2), 0);
            b.undo(r, ur);
            if lost_to_mate {
                continue;
            }
            if total <= 0.0 {
                holds = false;
            }
            answers.push(Won {
                gain: total,
                ..sub_ids
            });
        }
        b.undo(k, uk);
        let every = answers.iter().fold(Won::default(), |u, w| Won {
            targets: u.targets | w.targets,
            by_non_king: u.by_non_king | w.by_non_king,
            by_non_pawn: u.by_non_pawn | w.by_non_pawn,
            ..u
        });
        if !holds || every.targets == 0 {
            return None;
        }
        // The pieces the best answers lose, as ways of equal gain are combined.
        let mut least = None;
        for w in answers {
            Ties::add_least(&mut least, w);
        }
        let mut won = least?.best_of();
        if won.targets == 0 {
            won = taking.won(won.gain, every);
        }
        // Asked about one piece: a line that does not win it wins nothing.
        if aimed.is_some_and(|a| won.targets & id_bit(a) == 0) {
            return None;
        }
        let won = Won {
            attacked: every.targets,
            ..won
        };
        Some(won.map(|ids| squares_of(b, ids)))
    }
}
