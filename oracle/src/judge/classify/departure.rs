//! 2011 26.5 (做"根"子和被"牵"子捉子; reading `pinned-departure`): what taking a threat's target
//! costs through the point the capturing piece leaves, the threats it leaves idle, and the
//! pinners that take part by keeping the departure's answer off (reading `joint-chase-necessary`).

use super::*;

/// Reading `joint-chase-necessary` through 26.5 (24.17: 缺少其中任何一个都无法吃子; 参考图13's
/// pin): a piece of the chasing side, other than the capturer and the piece moved, that pins
/// (牵制) an enemy piece and without which the capturer's departure would cost more than the
/// chase wins ([`departure_costs`] on the boards before and after the move without it:
/// [`Departure::Costs`], the capture idle by 26.5) takes part in the chase: its pin keeps the
/// answer off. The threat is then joint, the pinner among its necessary pieces.
pub(super) fn with_departure_partners(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    mut x: Threat,
    mover: PieceId,
) -> Threat {
    if !rules.joint_chase || x.via_checks {
        return x;
    }
    let me = after.piece(x.attacker).side;
    let off = |b: &Board, p: PieceId| {
        b.square_of(p)
            .map_or_else(|| b.clone(), |sq| analysis::without(b, sq))
    };
    let partners: Vec<PieceId> = after
        .pieces_of(me)
        .map(|p| p.id)
        .filter(|p| *p != x.attacker && *p != mover && !x.necessary.contains(p))
        .filter(|p| !is_king(after, *p) && !analysis::pinned_by(after, *p).is_empty())
        .filter(|p| {
            departure_costs(rules, &off(before, *p), &off(after, *p), &x, mover) == Departure::Costs
        })
        .collect();
    if !partners.is_empty() {
        x.joint = true;
        if !x.necessary.contains(&x.attacker) {
            x.necessary.push(x.attacker);
        }
        x.necessary.extend(partners);
    }
    x
}

/// 2011 26.5 (做根子和被牵子捉子; reading `pinned-departure`): what taking the target with the
/// threatening piece costs through the square it leaves, against what the chase gains. The other
/// side's captures the departure gives are those it opens (not legal before) and, when the move
/// makes the capture ([`analysis::capture_made_by_the_move`]: the capturer is the piece moved,
/// `mover`, or could not take before the move), those of a piece it guarded which did not win
/// material before (a standing capturer's guard is an answer of the complete exchange already,
/// counted in the threat's gain); each is counted over the exchange on its point. An answer that
/// wins exactly what the chase wins makes it [`Departure::Even`] (价值相当, a chase citing 26.5). A crossed pawn won for a
/// piece is level unless 26.6 counts that trade as a gain, a rook (兵卒价值浮动,
/// 换取其他一子不算得子: [`analysis::pawn_trade_is_gain`]), and so is a crossed pawn given for the
/// piece the chase wins ([`Departure::PawnGiven`], reading `pawn-traded-level`).
pub(super) fn departure_costs(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    t: &Threat,
    mover: PieceId,
) -> Departure {
    if t.via_checks {
        return Departure::Free;
    }
    let (Some(a_sq), Some(t_sq)) = (after.square_of(t.attacker), after.square_of(t.target)) else {
        return Departure::Free;
    };
    let cx = Ctx::new(rules);
    let me = after.piece(t.attacker).side;
    let mut open_before = after.clone();
    open_before.set_turn(me.opponent());
    let existing: Vec<OMove> = open_before.legal_moves();
    // What the other side's capture `m` wins on `b` (the other side to move).
    let wins = |b: &Board, m: OMove| -> Option<f64> {
        let victim = b.piece_id_at(m.to)?;
        let mut c = b.clone();
        analysis::apply(&mut c, m);
        Some(
            value(rules, b, victim)
                - analysis::see_pawns_given(&cx, &c, m.to, b.side_to_move(), None, 8),
        )
    };
    let mut a = after.clone();
    a.set_turn(me);
    analysis::apply(&mut a, OMove::new(a_sq, t_sq));
    let pawn_won = analysis::is_pawn(after, t.target);
    let taken = value(rules, after, t.target);
    let made_by_the_move = analysis::capture_made_by_the_move(
        &cx.after_move_of(mover, before),
        after,
        t.attacker,
        t_sq,
    );
    // A crossed pawn the departure gives for the piece the chase wins is level (26.6): the
    // chase stands (价值相当; reading `pawn-traded-level`), unless 26.6 counts the trade (a rook).
    let mut pawn_given = false;
    // (what the capture `m` wins, the same counted level when 26.6 makes it so)
    let answers: Vec<(f64, f64)> = a
        .legal_moves()
        .into_iter()
        .filter(|m| m.to != t_sq)
        .filter(|m| {
            // (a crossed pawn given for the piece won nothing: reading `pawn-given-for-pieces`)
            !existing.contains(m)
                || (made_by_the_move
                    && analysis::guards(after, t.attacker, m.to)
                    && (wins(&open_before, *m).is_some_and(|g| g <= 0.0)
                        || analysis::pawn_given_by_capture(&cx, &open_before, *m)))
        })
        // An answer that gives a crossed pawn for the piece wins nothing either.
        .filter(|m| !analysis::pawn_given_by_capture(&cx, &a, *m))
        .filter_map(|m| {
            let victim = a.piece_id_at(m.to)?;
            // (beyond what the other side could win of that piece anyway: a piece lost
            // whether or not the capture is made costs the capture nothing)
            let g =
                wins(&a, m)? - analysis::gain_now_on(&cx, &open_before, &BTreeSet::from([victim]));
            let level = pawn_won
                && !analysis::is_pawn(&a, victim)
                && !analysis::pawn_trade_is_gain(rules, &a, victim);
            if !pawn_won
                && analysis::is_pawn(&a, victim)
                && !analysis::pawn_trade_is_gain(rules, after, t.target)
                && g > 0.0
            {
                pawn_given = true;
                return None;
            }
            Some((g, if level { g.min(t.gain) } else { g }))
        })
        .collect();
    // Or a line of consecutive checks that the departure lets the other side make: what it wins
    // beyond what the other side could win anyway, the move made and the capture not (reading
    // `pinned-departure`: a root may guard the point of a check, 抽吃).
    // What it could win anyway is measured on the pieces the line wins: a standing threat to
    // another piece stays after the line.
    let lines = analysis::checking_moves(&a).into_iter().filter_map(|k| {
        // (only a line that nets more than the chase counts below)
        let l = analysis::check_line_above(&cx, &a, k, rules.chase_search_depth, t.gain)?;
        let won = analysis::line_wins(&a, k, &l);
        let mut g = l.gain - analysis::gain_now_on(&cx, &open_before, &won);
        // A line that wins the capturer back counts it once: the chase's gain already gave up
        // what its recapture takes.
        if won.contains(&t.attacker) {
            g -= (taken - t.gain).max(0.0);
        }
        let level = pawn_won
            && !l
                .targets
                .keys()
                .any(|v| analysis::pawn_trade_is_gain(rules, &a, *v));
        Some((g, if level { g.min(t.gain) } else { g }))
    });
    // (a capture that wins as much as the chase: 价值相当)
    let even = answers.iter().any(|&(g, _)| g == t.gain);
    let answers: Vec<(f64, f64)> = answers.into_iter().chain(lines).collect();
    if answers.iter().any(|&(_, counted)| counted > t.gain) {
        Departure::Costs
    } else if answers.iter().any(|&(g, _)| g > t.gain) {
        Departure::Level
    } else if pawn_given {
        Departure::PawnGiven
    } else if even {
        Departure::Even
    } else {
        Departure::Free
    }
}

/// The pieces among `threats` (those of the mover's side after the move) that only direct
/// captures threaten, each of which 2011 26.5 leaves out ([`Departure::Costs`]); empty without
/// 26.5 or when the side has no check to give (no line of checks could win them instead).
/// What 26.5 makes of each direct threat asked is kept in `departures`, by the threat's key.
pub(super) fn departing_targets(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    threats: &[Threat],
    mover: PieceId,
    departures: &mut BTreeMap<(PieceId, PieceId), Departure>,
) -> BTreeSet<PieceId> {
    if !rules.protector_chase_needs_gain || analysis::checking_moves(&pass(after)).is_empty() {
        return BTreeSet::new();
    }
    let targets: BTreeSet<PieceId> = threats.iter().map(|t| t.target).collect();
    targets
        .into_iter()
        .filter(|&x| {
            let on_x: Vec<&Threat> = threats.iter().filter(|t| t.target == x).collect();
            on_x.iter().all(|t| {
                !t.via_checks
                    && *departures
                        .entry(t.key())
                        .or_insert_with(|| departure_costs(rules, before, after, t, mover))
                        == Departure::Costs
            })
        })
        .collect()
}

/// Does the line of checks `y` that the check `k` opens win a piece whose direct captures 26.5
/// leaves out ([`departing_targets`]) at no such loss (reading `pinned-departure`)? 26.5 judges
/// the capture at the end of the line as it judges a direct one: after the check and each answer
/// to it, the piece is won at no such loss ([`won_past_departure`]).
pub(super) fn line_clears_departure(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    k: OMove,
    y: &Threat,
    mover: PieceId,
) -> bool {
    won_after_each_answer(
        rules,
        before,
        &pass(after),
        k,
        y,
        mover,
        rules.chase_search_depth,
    )
}

/// For [`line_clears_departure`]: is the piece `y.target` won in `b` (the line's side to move,
/// `depth` plies left) at no loss through the point its capturer leaves: it is gone already,
/// some capture of it costs no more than the line wins ([`departure_costs`]), or the line goes
/// on by a check after each answer to which it is so won (a check that mates wins it too)?
pub(super) fn won_past_departure(
    rules: &RuleSet,
    before: &Board,
    b: &Board,
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
    let them = pass(b);
    let moves = b.legal_moves();
    let costs_nothing = moves.iter().filter(|m| m.to == x_sq).any(|m| {
        let mut direct = y.clone();
        direct.via_checks = false;
        direct.attacker = b.piece_id_at(m.from).expect("a capturer");
        departure_costs(rules, before, &them, &direct, mover) != Departure::Costs
    });
    costs_nothing
        || (depth >= 3
            && analysis::checking_moves(b)
                .into_iter()
                .any(|k| won_after_each_answer(rules, before, b, k, y, mover, depth)))
}

/// For [`won_past_departure`]: after the check `k` in `b` (`depth` plies left before it) and
/// each answer to it, is `y.target` still won past the departure test?
pub(super) fn won_after_each_answer(
    rules: &RuleSet,
    before: &Board,
    b: &Board,
    k: OMove,
    y: &Threat,
    mover: PieceId,
    depth: u32,
) -> bool {
    let mut checked = b.clone();
    analysis::apply(&mut checked, k);
    checked.legal_moves().into_iter().all(|r| {
        let mut answered = checked.clone();
        analysis::apply(&mut answered, r);
        won_past_departure(rules, before, &answered, y, mover, depth.saturating_sub(2))
    })
}

/// What taking a threat's target costs through the point the capturer leaves (2011 26.5).
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
