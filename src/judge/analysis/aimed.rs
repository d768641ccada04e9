//! The plain search of what the side to move can win by captures and lines of consecutive
//! checks (the oracle's `best_gain`, `gain_after_answer` and `check_line`): every capture and
//! every line evaluated in full, nothing pruned or cached, optionally asked about one piece
//! ([`Aim`]). The pruned searches of [`super::checks`] and [`super::exchange`] answer the
//! questions without an aim (their tests compare them with these); the question with an aim is
//! rare (the newness of a line of checks, reading `newness-of-a-line-of-checks`), so it is
//! answered plainly.

use super::board::{
    captures_on, captures_ordered, cover_on_board, id_at, id_bit, ids_on, is_material, is_pawn,
    sort_oracle, squares_of, value, IdSet,
};
use super::checks::{First, FirstCapture, Parts, Taken};
use super::{Analyzer, Threat, Ties, Won};
use crate::judge::track::{PieceId, Tracked};
use crate::{Color, Move, MoveList};

/// The one piece a search is asked about (the oracle's `Ctx::aim`), with its side: the ways of
/// the other side that do not take it count as winning nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Aim {
    id: PieceId,
    side: Color,
}

impl Aim {
    /// The piece `id` of `b`, asked about.
    fn at(b: &Tracked, id: PieceId) -> Option<Aim> {
        b.piece(id).map(|p| Aim { id, side: p.color })
    }

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

/// One answer of the checker to a check back, in the plain search.
struct PlainAnswer {
    /// The move.
    mv: Move,
    /// The piece that makes it.
    mover: PieceId,
    /// Whether it takes a piece.
    takes: bool,
    /// What it takes less what the defender then wins.
    gain: f64,
    /// Whether it checks.
    checks: bool,
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

    /// The threats by lines of consecutive checks that [`Analyzer::threats`] leaves unnamed (the
    /// oracle's `hidden_line_threats`; reading `newness-of-a-line-of-checks`, after the move): for
    /// each line of the side to move in `b0` that holds, every piece of the other side it could
    /// win when only the ways that take that piece count, besides the pieces `found` (the
    /// threats of `b0`) already lists, and the pieces `unlisted` though it lists them (their only
    /// direct captures are left out by 26.5; the oracle's `hidden_line_threats`).
    pub(crate) fn hidden_line_threats(
        &mut self,
        b0: &Tracked,
        found: &[Threat],
        unlisted: IdSet,
    ) -> Vec<Threat> {
        let mut out = Vec::new();
        if !self.check_lines_on() {
            return out;
        }
        let listed: IdSet = found.iter().fold(0, |a, t| a | id_bit(t.target)) & !unlisted;
        let unnamed: Vec<PieceId> = b0
            .ids_of(b0.pos.turn().other())
            .filter(|id| is_material(b0, *id) && listed & id_bit(*id) == 0)
            .filter(|id| !(self.rs.pawn_by_checks_no_gain && is_pawn(b0, *id)))
            .collect();
        if unnamed.is_empty() {
            return out;
        }
        let depth = self.rs.chase_search_depth;
        let mut b = b0.clone();
        for k in checking_moves_ordered(&b) {
            if self.check_line(&mut b, k, depth).is_none() {
                continue;
            }
            let attacker = id_at(&b, k.from()).expect("a mover");
            for &x in &unnamed {
                let aim = Aim::at(&b, x);
                let Some(w) = self.check_line_plain(&mut b, k, depth, aim) else {
                    continue;
                };
                if !wins_on(&b, &w, x) {
                    continue;
                }
                let ids = w.map(|sq| ids_on(&b, sq));
                out.push(Threat {
                    target: x,
                    attacker,
                    gain: w.gain,
                    joint: false,
                    via_checks: true,
                    cover: cover_on_board(&b, x),
                    necessary: 0,
                    first_capture: id_at(&b, k.to()),
                    captured_by_kings: ids.by_non_king & id_bit(x) == 0,
                    captured_by_pawns: ids.by_non_pawn & id_bit(x) == 0,
                    line_wins: ids.targets,
                    aim,
                    line_move: Some(k),
                });
            }
        }
        out
    }

    /// [`Analyzer::line_parts_of`] of an aimed line after the defender's answer (`c`: the checker to move):
    /// the pieces that take part in winning `target` in the ways of the best gain of
    /// [`Analyzer::gain_after_answer_plain`] that win it.
    pub(super) fn answer_parts_plain(
        &mut self,
        c: &mut Tracked,
        depth: u32,
        target: PieceId,
        aim: Option<Aim>,
    ) -> Parts {
        if depth < 2 || !c.pos.is_check() {
            return self.gain_parts_plain(c, depth, target, aim);
        }
        let best = self.gain_after_answer_plain(c, depth, aim);
        let Some(sq) = c.square_of(target) else {
            return Parts::default();
        };
        if best.gain <= 0.0 || best.targets & (1u128 << sq.index()) == 0 {
            return Parts::default();
        }
        let mut by = Parts::default();
        for a in self.answers_to_check_back_plain(c, depth, aim) {
            if a.mv.to() == sq && a.takes && a.gain == best.gain {
                by.capturers |= id_bit(a.mover);
            }
            if depth >= 3 && a.checks {
                let wins = self
                    .check_line_plain(c, a.mv, depth, aim)
                    .is_some_and(|w| w.gain == best.gain && wins_on(c, &w, target));
                if wins {
                    by = by.with(self.line_parts_of(c, a.mv, depth, target, aim));
                }
            }
        }
        by
    }

    /// The checker's answers to a check back (`c`, the checker to move and in check), in the
    /// order of the legal moves, without those after which the defender mates at once (29.4):
    /// each with what it takes less what the defender then wins ([`Analyzer::best_gain_plain`];
    /// with `aim`, taking another piece wins nothing) and whether it checks.
    fn answers_to_check_back_plain(
        &mut self,
        c: &mut Tracked,
        depth: u32,
        aim: Option<Aim>,
    ) -> Vec<PlainAnswer> {
        let aimed = Aim::of(aim, c);
        let mut out = Vec::new();
        for &mv in c.pos.legal_moves().iter() {
            let victim = id_at(c, mv.to());
            let taken = victim.map(|t| value(self.rs, c, t));
            let mover = id_at(c, mv.from()).expect("a mover");
            let um = c.play_undo(mv);
            let mated = self.mates_at_once(c);
            let back = if mated {
                0.0
            } else {
                self.best_gain_plain(c, depth - 1, aim).gain
            };
            let checks = c.pos.is_check();
            c.undo(mv, um);
            if mated {
                continue;
            }
            let mut gain = taken.unwrap_or(0.0) - back;
            // Asked about one piece: taking another wins nothing.
            if aimed.is_some_and(|a| victim != Some(a)) {
                gain = gain.min(0.0);
            }
            out.push(PlainAnswer {
                mv,
                mover,
                takes: taken.is_some(),
                gain,
                checks,
            });
        }
        out
    }

    /// [`Analyzer::line_parts_of`] of an aimed line where the side to move has no check to answer: the
    /// pieces that take part in winning `target` in the ways of the best gain of
    /// [`Analyzer::best_gain_plain`] that win it.
    pub(super) fn gain_parts_plain(
        &mut self,
        b: &mut Tracked,
        depth: u32,
        target: PieceId,
        aim: Option<Aim>,
    ) -> Parts {
        let best = self.best_gain_plain(b, depth, aim);
        let Some(sq) = b.square_of(target) else {
            return Parts::default();
        };
        if best.gain <= 0.0 || best.targets & (1u128 << sq.index()) == 0 {
            return Parts::default();
        }
        let aimed = Aim::of(aim, b);
        let mut by = Parts::default();
        if aimed.is_none_or(|a| a == target) {
            for m in captures_on(b, sq) {
                let capturer = id_at(b, m.from()).expect("a mover");
                if self.capture_gain_above(b, m, 0.0) == Some(best.gain) {
                    by.capturers |= id_bit(capturer);
                }
            }
        }
        if depth >= 3 {
            for k in checking_moves_ordered(b) {
                let wins = self.check_line_plain(b, k, depth, aim).is_some_and(|w| {
                    w.gain == best.gain
                        && wins_on(b, &w, target)
                        && aimed.is_none_or(|a| wins_on(b, &w, a))
                });
                if wins {
                    by = by.with(self.line_parts_of(b, k, depth, target, aim));
                }
            }
        }
        by
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
            let capturer = id_at(b, m.from()).expect("a mover");
            if let Some(gain) = self.capture_gain_above(b, m, 0.0) {
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
    pub(super) fn gain_after_answer_plain(
        &mut self,
        c: &mut Tracked,
        depth: u32,
        aim: Option<Aim>,
    ) -> Won {
        if depth < 2 || !c.pos.is_check() {
            return self.best_gain_plain(c, depth, aim);
        }
        let mut ways = Vec::new();
        for a in self.answers_to_check_back_plain(c, depth, aim) {
            ways.push(if a.takes && a.gain > 0.0 {
                Won::capture(c, a.mover, a.mv.to(), a.gain)
            } else {
                Won {
                    gain: a.gain,
                    ..Won::default()
                }
            });
            if depth >= 3 && a.checks {
                ways.extend(self.check_line_plain(c, a.mv, depth, aim));
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
        // Every answer that keeps the line: what it leaves the checker, and the pieces won; apart,
        // the answers that allow mate and leave a gain, which count only when every answer
        // allows mate (reading `defence-that-allows-mate`). One answer that refutes the line (it
        // mates or stalemates the checker, or leaves it no gain without letting it mate) settles
        // it: the others are not searched.
        let mut answers: Vec<Won> = Vec::new();
        let mut mated_answers: Vec<Won> = Vec::new();
        let mut holds = !replies.is_empty();
        for &r in replies.iter() {
            let taken = Taken::by(rs, b, r, first);
            let ur = b.play_undo(r);
            if !b.pos.has_legal_move() {
                b.undo(r, ur);
                holds = false;
                break;
            }
            let sub = self.gain_after_answer_plain(b, depth.saturating_sub(2), aim);
            let total = taken.net(rs, b, first.worth, &sub);
            // An answer that lets the checker mate is lost for the defender, whatever it keeps
            // or gives; it gives up what the checker can take at once after it.
            let lost_to_mate = self.mate_by_checks_in(b, depth.saturating_sub(2), self.offered);
            let sub_ids = if lost_to_mate {
                self.best_gain_plain(b, 1, aim).map(|sq| ids_on(b, sq))
            } else {
                sub.map(|sq| ids_on(b, sq))
            };
            b.undo(r, ur);
            let way = Won {
                gain: total,
                ..sub_ids
            };
            if lost_to_mate {
                if total > 0.0 {
                    mated_answers.push(way);
                }
                continue;
            }
            if total <= 0.0 {
                holds = false;
                break;
            }
            answers.push(way);
        }
        b.undo(k, uk);
        if !holds {
            return None;
        }
        // Every answer allows mate: a kill, which wins every piece one of its answers gives up.
        let kill = answers.is_empty();
        if kill {
            answers = mated_answers;
        }
        let every = answers.iter().fold(Won::default(), |u, w| Won {
            targets: u.targets | w.targets,
            by_non_king: u.by_non_king | w.by_non_king,
            by_non_pawn: u.by_non_pawn | w.by_non_pawn,
            ..u
        });
        if every.targets == 0 {
            return None;
        }
        // The pieces the best answers lose, as ways of equal gain are combined.
        let mut least = None;
        for w in answers {
            Ties::add_least(&mut least, w);
        }
        let won = taking.line_won(least?.best_of(), every, kill);
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
