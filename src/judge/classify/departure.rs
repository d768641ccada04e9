//! 2011 26.5 (做"根"子和被"牵"子捉子; reading `pinned-departure`): what taking a threat's target
//! costs through the point the capturing piece leaves, the threats it leaves idle, and the
//! pinners that take part by keeping the departure's answer off, as the oracle's
//! `judge/classify/departure.rs`.

use super::*;

/// The pieces among `threats` (those of the mover's side after the move) that only direct
/// captures threaten, each of which 2011 26.5 leaves out ([`Departure::Costs`]); none without
/// 26.5 or when the side has no check to give (the oracle's `departing_targets`).
pub(super) fn departing_targets(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    threats: &[Threat],
    mover: PieceId,
    departures: &mut Vec<((PieceId, PieceId), Departure)>,
) -> IdSet {
    if !az.rs.protector_chase_needs_gain || az.checking_moves(&after.passed()).is_empty() {
        return 0;
    }
    let mut out: IdSet = 0;
    let mut seen: IdSet = 0;
    for t in threats {
        if seen & id_bit(t.target) != 0 {
            continue;
        }
        seen |= id_bit(t.target);
        let all_cost = threats.iter().filter(|u| u.target == t.target).all(|u| {
            !u.via_checks
                && departure_once(az, before, after, u, mover, departures) == Departure::Costs
        });
        if all_cost {
            out |= id_bit(t.target);
        }
    }
    out
}

/// [`departure_costs`] of the direct threat `t`, remembered in `departures` by its key.
pub(super) fn departure_once(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    t: &Threat,
    mover: PieceId,
    departures: &mut Vec<((PieceId, PieceId), Departure)>,
) -> Departure {
    if let Some(&(_, d)) = departures.iter().find(|(k, _)| *k == t.key()) {
        return d;
    }
    let d = departure_costs(az, before, after, t, mover);
    departures.push((t.key(), d));
    d
}

/// Does the line of checks `y` win a piece whose direct captures 26.5 leaves out
/// ([`departing_targets`]) at no such loss: after its first check and each answer the piece is
/// won past the departure test ([`won_past_departure`]; the oracle's `line_clears_departure`)?
pub(super) fn line_clears_departure(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    y: &Threat,
    mover: PieceId,
) -> bool {
    let Some(k) = y.line_move else {
        return true;
    };
    let depth = az.rs.chase_search_depth;
    won_after_each_answer(az, before, &after.passed(), k, y, mover, depth)
}

/// For [`line_clears_departure`]: is `y.target` won in `b` (the line's side to move, `depth`
/// plies left) at no loss through the point its capturer leaves: gone already, taken by a
/// capture 26.5 keeps, or won after each answer to a further check (the oracle's
/// `won_past_departure`)?
pub(super) fn won_past_departure(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    b: &Tracked,
    y: &Threat,
    mover: PieceId,
    depth: u32,
) -> bool {
    let Some(x_sq) = b.square_of(y.target) else {
        return true;
    };
    if depth == 0 {
        return false;
    }
    let them = b.passed();
    let moves = b.pos.legal_moves();
    for m in moves.iter().filter(|m| m.to() == x_sq) {
        let mut direct = *y;
        direct.via_checks = false;
        direct.attacker = id_at(b, m.from()).expect("a capturer");
        if departure_costs(az, before, &them, &direct, mover) != Departure::Costs {
            return true;
        }
    }
    if depth < 3 {
        return false;
    }
    let checks = az.checking_moves(b);
    checks
        .iter()
        .any(|&k| won_after_each_answer(az, before, b, k, y, mover, depth))
}

/// For [`won_past_departure`]: after the check `k` in `b` (`depth` plies left before it) and
/// each answer to it, is `y.target` still won past the departure test (the oracle's
/// `won_after_each_answer`)?
pub(super) fn won_after_each_answer(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    b: &Tracked,
    k: Move,
    y: &Threat,
    mover: PieceId,
    depth: u32,
) -> bool {
    let mut checked = b.clone();
    checked.play(k);
    let answers = checked.pos.legal_moves();
    answers.iter().all(|&r| {
        let mut answered = checked.clone();
        answered.play(r);
        won_past_departure(az, before, &answered, y, mover, depth.saturating_sub(2))
    })
}

/// 2011 26.5 (做根子和被牵子捉子; reading `pinned-departure`): what taking the target with the
/// threatening piece costs through the square it leaves, against what the chase gains. The other
/// side's captures the departure gives are those it opens (not legal before) and, when the move
/// makes the capture ([`capture_made_by_move`]: the capturer is the piece moved, `mover`, or could
/// not take before the move), those of a piece it guarded which did not win material before (a
/// standing capturer's guard is an answer of the complete exchange already, counted in the
/// threat's gain); each is counted over the exchange on its point. An answer that wins exactly
/// what the chase wins makes it [`Departure::Even`] (价值相当, a chase citing 26.5). A crossed pawn won for a
/// piece is level unless 26.6 counts that trade as a gain (a rook), and so is a crossed pawn
/// given for the piece the chase wins ([`Departure::PawnGiven`]), as the oracle's
/// `departure_costs`.
pub(super) fn departure_costs(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    t: &Threat,
    mover: PieceId,
) -> Departure {
    let rules = az.rs;
    if t.via_checks {
        return Departure::Free;
    }
    let (Some(a_sq), Some(t_sq)) = (after.square_of(t.attacker), after.square_of(t.target)) else {
        return Departure::Free;
    };
    let me = after.piece(t.attacker).expect("on board").color;
    let mut open_before = after.with_turn(me.other());
    let existing = open_before.pos.legal_moves();
    let mut a = after.with_turn(me);
    a.play(Move::new(a_sq, t_sq));
    let pawn_won = is_pawn(after, t.target);
    let made_by_the_move =
        capture_made_by_move(rules, mover, &before.passed(), after, t.attacker, t_sq);
    // The most an answer wins, as counted (26.6) and as it is.
    let (mut lost, mut raw) = (0.0f64, 0.0f64);
    // Whether an answer wins as much as the chase (价值相当).
    let mut even = false;
    // Whether an answer wins a crossed pawn given for the piece the chase wins: level (26.6;
    // reading `pawn-traded-level`), unless 26.6 counts the trade (a rook).
    let mut pawn_given = false;
    let pawn_trade_level = !pawn_won && !pawn_trade_is_gain(rules, after, t.target);
    let moves = a.pos.legal_moves();
    for &m in moves.iter() {
        if m.to() == t_sq {
            continue;
        }
        let Some(victim) = id_at(&a, m.to()) else {
            continue;
        };
        if existing.contains(&m) {
            // A capture the other side had before: counted when the moved capturer guarded
            // its point and it won nothing then.
            if !made_by_the_move || !after.pos.guards(a_sq, m.to()) {
                continue;
            }
            // (a crossed pawn given for the piece won nothing: reading `pawn-given-for-pieces`)
            let vb = value(rules, &open_before, victim);
            let u = open_before.play_undo(m);
            let before = vb - az.see_pawns_given(&mut open_before, m.to(), me.other(), None, 8);
            open_before.undo(m, u);
            if before > 0.0 && !az.pawn_given_by_capture(&mut open_before, m) {
                continue;
            }
        }
        // An answer that gives a crossed pawn for the piece wins nothing either.
        if az.pawn_given_by_capture(&mut a, m) {
            continue;
        }
        let vv = value(rules, &a, victim);
        let u = a.play_undo(m);
        let g = vv - az.see_pawns_given(&mut a, m.to(), me.other(), None, 8);
        a.undo(m, u);
        if pawn_trade_level && is_pawn(&a, victim) {
            pawn_given = pawn_given
                || (g > 0.0 && g - az.gain_now_on(&mut open_before, id_bit(victim)) > 0.0);
            continue;
        }
        // (beyond what the other side could win of that piece anyway; only a capture that wins
        // as much as the chase or more can matter, so only its baseline is searched)
        if g < t.gain {
            continue;
        }
        let g = g - az.gain_now_on(&mut open_before, id_bit(victim));
        if g == t.gain {
            even = true;
        }
        if g <= t.gain {
            continue;
        }
        let level = pawn_won && !is_pawn(&a, victim) && !pawn_trade_is_gain(rules, &a, victim);
        lost = lost.max(if level { g.min(t.gain) } else { g });
        raw = raw.max(g);
    }
    // Or a line of consecutive checks that the departure lets the other side make: what it wins
    // beyond what the other side could win of the same pieces anyway (the oracle's `lines`).
    // Only whether one wins more than the chase matters.
    if lost <= t.gain && !az.checking_moves(&a).is_empty() {
        let conceded = (value(rules, after, t.target) - t.gain).max(0.0);
        for rook in az.lines_above(&mut a, &mut open_before, t.gain, pawn_won, (t_sq, conceded)) {
            // (a line is above the chase: level only for a pawn won, when it wins no rook)
            raw = f64::INFINITY;
            if !pawn_won || rook {
                lost = f64::INFINITY;
            }
        }
    }
    if lost > t.gain {
        Departure::Costs
    } else if raw > t.gain {
        Departure::Level
    } else if pawn_given {
        Departure::PawnGiven
    } else if even {
        Departure::Even
    } else {
        Departure::Free
    }
}

/// Reading `joint-chase-necessary` through 26.5 (the oracle's `with_departure_partners`): a
/// piece of the chasing side, other than the capturer and the piece moved, that pins an enemy
/// piece and without which the capturer's departure would cost more than the chase wins
/// ([`departure_costs`] without it: [`Departure::Costs`]) takes part in the chase; the threat
/// is then joint.
pub(super) fn with_departure_partners(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mut x: Threat,
    mover: PieceId,
) -> Threat {
    if !az.rs.joint_chase || x.via_checks {
        return x;
    }
    let Some(me) = after.piece(x.attacker).map(|p| p.color) else {
        return x;
    };
    let off =
        |b: &Tracked, p: PieceId| b.square_of(p).map_or_else(|| b.clone(), |sq| b.without(sq));
    let mut partners: IdSet = 0;
    for p in after.ids_of(me) {
        if p == x.attacker
            || p == mover
            || x.necessary & id_bit(p) != 0
            || is_king(after, p)
            || pinned_by(after, p) == 0
        {
            continue;
        }
        if departure_costs(az, &off(before, p), &off(after, p), &x, mover) == Departure::Costs {
            partners |= id_bit(p);
        }
    }
    if partners != 0 {
        x.joint = true;
        x.necessary |= id_bit(x.attacker) | partners;
    }
    x
}

/// What taking a threat's target costs through the point the capturer leaves (2011 26.5), as
/// the oracle's `Departure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Departure {
    /// No more than the chase wins.
    Free,
    /// More, but only a piece (not a rook) for the pawn the chase wins: level by 26.6.
    Level,
    /// A crossed pawn for the piece (not a rook) the chase wins: level by 26.6, a chase by 26.5.
    PawnGiven,
    /// As much as the chase wins (价值相当): a chase by 26.5.
    Even,
    /// More than the chase wins (得不偿失): the threat is idle.
    Costs,
}

/// The note of a move whose threats 26.5 leaves idle.
pub(super) const DEPARTURE_COSTS: &str =
    "capturing would cost more than it wins through the point it leaves (a root or pinned piece): idle";

/// Added to the note of a chase whose capture gives up as much as it wins (26.5).
pub(super) const DEPARTURE_EVEN: &str =
    "; taking it gives up as much through the point the capturer leaves (价值相当, a root or pinned piece)";

/// Added to the note of a chase whose capture gives a crossed pawn for the piece it wins (26.5,
/// 26.6).
pub(super) const DEPARTURE_PAWN_GIVEN: &str =
    "; taking it gives a crossed pawn through the point the capturer leaves, level for a piece (兵卒价值浮动)";

/// Added to the note of a chase kept by 26.6 against 26.5.
pub(super) const DEPARTURE_LEVEL: &str =
    "; taking it costs a piece the capturer's departure leaves, level for a pawn (兵卒价值浮动)";
