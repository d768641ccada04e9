//! The nature of one move (著法性質): check, kill, chase, or one of the idle kinds (art. 28.1–28.9;
//! 2011 24.1–24.8), with the exceptions of art. 27 (2011 26.1–26.2) and the severity order of
//! 27.4 (2011 26.4).

use std::collections::{BTreeMap, BTreeSet};

use crate::board::{Board, PieceId};
use crate::coord::{Coord, OMove, Side};

use super::analysis::{
    self, can_capture, capturable_by, is_king, is_material, is_pawn, mate_by_checks, pass,
    reach_of, role_id, strength, threats, value, without, Cover, Ctx, Threat,
};
use super::rules::RuleSet;
use super::{JudgeError, MoveClass};

mod departure;
use departure::{
    departing_targets, departure_costs, line_clears_departure, with_departure_partners, Departure,
    DEPARTURE_COSTS, DEPARTURE_EVEN, DEPARTURE_LEVEL, DEPARTURE_PAWN_GIVEN,
};

/// The nature of one move, with what it aims at and the articles that decided it.
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    /// The move.
    pub mv: OMove,
    /// The side that made it.
    pub side: Side,
    /// Its class, the heaviest nature by the severity order (27.4 / 26.4).
    pub class: MoveClass,
    /// Squares (after the move) of the pieces checked, threatened with mate or chased; for the
    /// idle kinds, the piece exchanged with, offered to, followed or blocked.
    pub targets: Vec<Coord>,
    /// The articles (numbers of the edition) that decided the class.
    pub articles: Vec<String>,
    /// The identity of the moved piece (followed through the game).
    pub piece: PieceId,
    /// The identities of the pieces in `targets`.
    pub target_ids: Vec<PieceId>,
    /// For chases: what each chased piece is (2011 26.8): `rook`, `unprotected`,
    /// `underprotected`, `joint_rook`, `joint_unprotected`.
    pub qualifiers: Vec<String>,
    /// 1999 art. 27.2: the move's only new threats are by pawns; classed idle unless the cycle
    /// turns out to be mutual perpetual attack. The chased squares are in `pawn_targets`.
    pub pawn_chase: bool,
    /// Squares chased by pawns alone (see `pawn_chase`).
    pub pawn_targets: Vec<Coord>,
    /// One sentence in English explaining the class.
    pub note: String,
}

/// "rook e4".
pub(crate) fn piece_name(b: &Board, id: PieceId) -> String {
    match b.square_of(id) {
        Some(sq) => format!("{} {sq}", role_id(b, id)),
        None => role_id(b, id).to_string(),
    }
}

fn push_unique(v: &mut Vec<String>, a: String) {
    if !a.is_empty() && !v.contains(&a) {
        v.push(a);
    }
}

/// The result of the chase test for one move.
struct ChaseTest {
    /// New threats after the exceptions.
    chases: Vec<Threat>,
    /// Threats by pawns alone (1999 27.2).
    pawn_only: Vec<Threat>,
    /// Articles cited.
    articles: Vec<String>,
    /// Explanation.
    note: String,
    /// 2011 26.2: the whole move is idle.
    idle_move: bool,
    /// New threats that are exchange offers (28.5 / 24.4, 2011 26.9, 26.10) rather than chases.
    offers: Vec<Threat>,
}

/// Classifies move `m` played from `before` (art. 28.1–28.9 / 24.1–24.8, exceptions 27.1–27.3 /
/// 26.1–26.5, severity 27.4 / 26.4). `previous` is the class of the opponent's move just
/// before, if known: a block (28.7) is an interposition against a kill threat.
pub fn classify(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
) -> Result<Classification, JudgeError> {
    classify_in_context(rules, before, m, previous, None)
}

/// [`classify`] knowing also `earlier`, the board before the opponent's move just before (the
/// move `previous` classifies). The newness of a threat is judged in that context (2011 26.1.2,
/// 从捉到捉; rule sets with `newness_in_context`): after a check that a piece other than the
/// king answers, the threats that stood before the check are not new.
pub fn classify_in_context(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
    earlier: Option<&Board>,
) -> Result<Classification, JudgeError> {
    before.check_move(m).map_err(|e| JudgeError::IllegalMove {
        index: 0,
        mv: m.to_string(),
        reason: e.to_string(),
    })?;
    let me = before.side_to_move();
    let them = me.opponent();
    let mover = before.piece_id_at(m.from).expect("legal move has a piece");
    let mut after = before.clone();
    analysis::apply(&mut after, m);
    let king_sq = |b: &Board, side: Side| {
        b.pieces_of(side)
            .find(|p| p.role == b.spec().royal())
            .and_then(|p| p.square)
    };
    // The king answers a check (2011 26.1.2), or, where newness is read in context, a kill
    // (reading `newness-in-context`): the threats that result are idle.
    let king_answers: Option<&'static str> = if !is_king(before, mover) {
        None
    } else if before.in_check(me) {
        Some("check")
    } else if rules.newness_in_context && previous.is_some_and(|p| p.class == MoveClass::Kill) {
        Some("kill")
    } else {
        None
    };
    let answers_check_with_king = king_answers.is_some();
    let mut base = Classification {
        mv: m,
        side: me,
        class: MoveClass::Idle,
        targets: Vec::new(),
        articles: Vec::new(),
        piece: mover,
        target_ids: Vec::new(),
        qualifiers: Vec::new(),
        pawn_chase: false,
        pawn_targets: Vec::new(),
        note: String::new(),
    };
    let mut extra_articles: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut chase_cache: Option<ChaseTest> = None;
    for &class in &rules.severity {
        let art = rules.class_article(class);
        match class {
            MoveClass::Check => {
                if after.in_check(them) {
                    base.class = class;
                    base.targets = king_sq(&after, them).into_iter().collect();
                    base.articles = vec![art];
                    base.note = check_note(&after, mover, "將");
                    return Ok(base);
                }
            }
            MoveClass::Kill => {
                if mate_by_checks(&pass(&after), rules.kill_search_depth) && {
                    // Mates that need the mover to take a piece it offers in exchange are that
                    // exchange (reading `kill-not-by-accepting-exchange`).
                    let avoid = if rules.kill_avoids_offered {
                        offered_pieces(rules, before, &after, mover)
                    } else {
                        BTreeSet::new()
                    };
                    avoid.is_empty()
                        || analysis::mate_by_checks_avoiding(
                            &pass(&after),
                            rules.kill_search_depth,
                            &avoid,
                            mover,
                        )
                } {
                    if answers_check_with_king && rules.king_answer_idle {
                        notes.push(format!(
                            "the mate threat appears only because the king answered a {}: idle",
                            king_answers.unwrap_or("check")
                        ));
                        push_unique(&mut extra_articles, answer_to_check_article(rules));
                        continue;
                    }
                    // A piece other than the king answers a check: the kill counts only if it
                    // is new (2011 26.1.2; reading `newness-in-context`, third part).
                    let elsewhere =
                        rules.newness_in_context && before.in_check(me) && !is_king(before, mover);
                    if let Some(stood) = earlier.filter(|_| elsewhere) {
                        let depth = rules.kill_search_depth;
                        // The positions after every answer to the check, and whether the king
                        // made it (自毙, 24.18 / 26.3).
                        let answers: Vec<(Board, bool)> = before
                            .legal_moves()
                            .into_iter()
                            .map(|r| {
                                let by_king = before
                                    .piece_id_at(r.from)
                                    .is_some_and(|p| is_king(before, p));
                                let mut a = before.clone();
                                analysis::apply(&mut a, r);
                                (pass(&a), by_king)
                            })
                            .collect();
                        if !analysis::kill_is_new(&pass(&after), &pass(stood), &answers, depth) {
                            notes.push(NO_NEW_KILL.to_string());
                            push_unique(&mut extra_articles, answer_to_check_article(rules));
                            let self_inflicted = rules.article("cxa2011.26.3");
                            if !self_inflicted.starts_with("cxa") {
                                push_unique(&mut extra_articles, self_inflicted);
                            }
                            continue;
                        }
                    }
                    base.class = class;
                    base.targets = king_sq(&after, them).into_iter().collect();
                    base.articles = vec![art];
                    base.note = format!(
                        "threatens mate by consecutive checks (殺) within {} plies",
                        rules.kill_search_depth
                    );
                    // 兑（献）兼杀 (27.4 / 2011 26.4): what else the move offers.
                    let mut besides = offered_pieces(rules, before, &after, mover);
                    besides.extend(offered_to(rules, &after, m.to, mover));
                    heavier_nature(rules, &after, &mut base, &besides);
                    return Ok(base);
                }
            }
            MoveClass::Chase => {
                let context = Context {
                    previous_is_kill: previous.is_some_and(|p| p.class == MoveClass::Kill),
                    earlier,
                };
                let t = chase_test(rules, before, &after, m, mover, king_answers, context);
                // 2011 26.9: an exchange of pieces of one kind that the target cannot accept
                // is a chase of it (reading `pinned-target-cannot-accept`).
                let refused: Vec<PieceId> = if king_answers.is_none() && !t.idle_move {
                    refused_offers(rules, before, &after, mover)
                        .into_iter()
                        .filter(|e| !t.chases.iter().any(|c| c.target == *e))
                        .collect()
                } else {
                    Vec::new()
                };
                if !t.chases.is_empty() || !refused.is_empty() {
                    // 兑（献）兼捉 (27.4 / 2011 26.4): what else the move offers.
                    let besides = offered_besides(rules, before, &after, m, mover, &t.offers);
                    base.class = class;
                    base.targets = squares(
                        &after,
                        t.chases
                            .iter()
                            .map(|c| c.target)
                            .chain(refused.iter().copied()),
                    );
                    base.target_ids = t.chases.iter().map(|c| c.target).collect();
                    base.target_ids.extend(refused.iter().copied());
                    base.target_ids.sort();
                    base.target_ids.dedup();
                    base.qualifiers = qualifiers(&after, &t.chases);
                    base.qualifiers.extend(refused_qualifiers(&after, &refused));
                    base.qualifiers.sort();
                    base.qualifiers.dedup();
                    base.articles = vec![art];
                    for a in t.articles {
                        push_unique(&mut base.articles, a);
                    }
                    base.note = t.note;
                    if !refused.is_empty() {
                        push_unique(&mut base.articles, rules.article("cxa2011.26.9"));
                        let line = refused_note(&names(&after, refused.iter().copied()));
                        base.note = if base.note.is_empty() {
                            line
                        } else {
                            format!("{}; {line}", base.note)
                        };
                    }
                    heavier_nature(rules, &after, &mut base, &besides);
                    return Ok(base);
                }
                for a in &t.articles {
                    push_unique(&mut extra_articles, a.clone());
                }
                if !t.note.is_empty() {
                    notes.push(t.note.clone());
                }
                let idle_move = t.idle_move;
                chase_cache = Some(t);
                if idle_move {
                    base.class = MoveClass::Idle;
                    base.articles = vec![rules.class_article(MoveClass::Idle)];
                    base.note = "idle (閒)".to_string();
                    break;
                }
            }
            MoveClass::Exchange => {
                let mut e = exchange_with(rules, before, &after, mover);
                if e.is_empty() {
                    e = chase_cache
                        .as_ref()
                        .map(|t| t.offers.iter().map(|t| t.target).collect())
                        .unwrap_or_default();
                }
                if !e.is_empty() {
                    base.class = class;
                    base.targets = squares(&after, e.iter().copied());
                    base.articles = vec![art];
                    base.note = format!(
                        "offers an exchange of equal material with {} (兑)",
                        names(&after, e.iter().copied())
                    );
                    break;
                }
            }
            MoveClass::Offer => {
                let e = offered_to(rules, &after, m.to, mover);
                if !e.is_empty() {
                    base.class = class;
                    base.targets = squares(&after, e.iter().copied());
                    base.articles = vec![art];
                    base.note = format!(
                        "{} is put unprotected where {}{} can take it (獻)",
                        piece_name(&after, mover),
                        names(&after, e.iter().copied()),
                        if rules.offer_any_taker {
                            ""
                        } else {
                            " of the same kind"
                        }
                    );
                    break;
                }
            }
            MoveClass::Follow => {
                if let Some(e) = followed(rules, before, &after, m, mover) {
                    base.class = class;
                    base.targets = vec![after.square_of(e).expect("on board")];
                    base.articles = vec![art];
                    base.note = format!(
                        "{} keeps the protected {} in view without winning it (跟)",
                        piece_name(&after, mover),
                        piece_name(&after, e)
                    );
                    break;
                }
            }
            MoveClass::Block => {
                let answers_kill = previous.is_some_and(|p| p.class == MoveClass::Kill);
                if answers_kill {
                    let e = blocked(&after, m.to, them);
                    if !e.is_empty() {
                        base.class = class;
                        base.targets = squares(&after, e.iter().copied());
                        base.articles = vec![art];
                        base.note = format!(
                            "{} stands in the way of {} after a kill threat (攔)",
                            piece_name(&after, mover),
                            names(&after, e.iter().copied())
                        );
                        break;
                    }
                }
            }
            MoveClass::Idle => {
                base.class = class;
                base.articles = vec![art];
                base.note = "no check, kill or chase (閒)".to_string();
                break;
            }
        }
    }
    if base.class != MoveClass::Idle && base.articles.is_empty() {
        base.articles = vec![rules.class_article(base.class)];
    }
    if base.articles.is_empty() {
        base.articles = vec![rules.class_article(MoveClass::Idle)];
    }
    for a in extra_articles {
        push_unique(&mut base.articles, a);
    }
    if let Some(t) = chase_cache {
        if !t.pawn_only.is_empty() {
            base.pawn_chase = true;
            base.pawn_targets = squares(&after, t.pawn_only.iter().map(|c| c.target));
        }
    }
    if !notes.is_empty() {
        base.note = format!("{}; {}", base.note, notes.join("; "));
    }
    Ok(base)
}

/// 2011 26.7, second sentence (兵（卒）吃子时产生其他子"将军"，按"捉"处理) and 26.1.1: does the
/// direct capture of threat `x` (the capturer's side to move) give check by a piece other than
/// the capturer? A pawn's or the king's capture made so takes the target with that piece's help.
fn capture_checks_by_another(after: &Board, x: &Threat) -> bool {
    if x.via_checks {
        return false;
    }
    let (Some(from), Some(to)) = (after.square_of(x.attacker), after.square_of(x.target)) else {
        return false;
    };
    let mut a = pass(after);
    let m = OMove::new(from, to);
    if a.check_move(m).is_err() {
        return false;
    }
    let side = a.piece(x.attacker).side;
    analysis::apply(&mut a, m);
    let king = a
        .pieces_of(side.opponent())
        .find(|p| is_king(&a, p.id))
        .and_then(|p| p.square);
    king.is_some_and(|k| a.is_attacked_by_others(k, side, x.attacker))
}

/// The note of a non-king answer to a check whose mates are none of them new (reading
/// `newness-in-context`, third part).
const NO_NEW_KILL: &str =
    "every mate it threatens stood before the opponent's check or follows any \
     answer to that check (the check's own fault, 自毙): no new kill";

fn answer_to_check_article(rules: &RuleSet) -> String {
    ["cxa2011.26.1.2", "cxa1999.27.1.answer-to-check"]
        .iter()
        .map(|id| rules.article(id))
        .find(|a| !a.starts_with("cxa"))
        .unwrap_or_default()
}

/// The note of a check (`zh`: 將, or 照 in the Asian rules) by the move of `mover`: the piece
/// that gives it, or the pieces whose check the move uncovers (a discovered check), or the
/// pieces that give it with the moved piece (a double check).
pub(crate) fn check_note(after: &Board, mover: PieceId, zh: &str) -> String {
    let side = after.piece(mover).side;
    let Some(king) = after
        .pieces_of(side.opponent())
        .find(|p| p.role == after.spec().royal())
        .and_then(|p| p.square)
    else {
        return format!("{} gives check ({zh})", piece_name(after, mover));
    };
    let others: Vec<PieceId> = after
        .pieces_of(side)
        .map(|p| p.id)
        .filter(|q| *q != mover && analysis::guards(after, *q, king))
        .collect();
    let moved = piece_name(after, mover);
    if others.is_empty() {
        format!("{moved} gives check ({zh})")
    } else if analysis::guards(after, mover, king) {
        let others = names(after, others.into_iter());
        format!("{moved} gives double check ({zh}) with {others}")
    } else {
        // The moved piece stands between each checker and the king: it is their screen (炮架),
        // the check is made, not uncovered.
        let m_sq = after.square_of(mover).expect("on board");
        let screens = others.iter().all(|q| {
            after
                .square_of(*q)
                .is_some_and(|q_sq| between(q_sq, king, m_sq))
        });
        let others = names(after, others.into_iter());
        if screens {
            format!("{moved} becomes the screen of a check ({zh}) by {others}")
        } else {
            format!("{moved} uncovers a check ({zh}) by {others}")
        }
    }
}

/// Is `m` strictly between `a` and `b` on their file or rank?
fn between(a: Coord, b: Coord, m: Coord) -> bool {
    let inside = |x: u8, y: u8, z: u8| x.min(y) < z && z < x.max(y);
    (a.file() == b.file() && m.file() == a.file() && inside(a.rank(), b.rank(), m.rank()))
        || (a.rank() == b.rank() && m.rank() == a.rank() && inside(a.file(), b.file(), m.file()))
}

/// The article of the order of severity (27.4 / 2011 26.4: 凡走子兼具多种作用时，应从重裁处),
/// if the rule set has one.
fn severity_article(rules: &RuleSet) -> Option<String> {
    ["cxa2011.26.4", "cxa1999.27.4"]
        .iter()
        .map(|id| rules.article(id))
        .find(|a| !a.starts_with("cxa"))
}

/// The pieces a move judged a chase also offers (兑（献）兼捉, 27.4 / 2011 26.4): the targets
/// of its new threats that are exchange offers (`offers`), the partners of the exchange pairs
/// it creates and the pieces it is put unprotected for ([`offered_to`]).
fn offered_besides(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    m: OMove,
    mover: PieceId,
    offers: &[Threat],
) -> BTreeSet<PieceId> {
    let mut out: BTreeSet<PieceId> = offers.iter().map(|x| x.target).collect();
    out.extend(exchange_with(rules, before, after, mover));
    out.extend(offered_to(rules, after, m.to, mover));
    out
}

/// A move judged a chase or a kill that also offers `besides` (an exchange, 兑, or a piece,
/// 献) is judged by the heavier nature (27.4 / 2011 26.4: 兑（献）兼捉，判捉；兑（献）兼杀，判杀):
/// the article is cited and the note says what else the move does.
fn heavier_nature(
    rules: &RuleSet,
    after: &Board,
    base: &mut Classification,
    besides: &BTreeSet<PieceId>,
) {
    if besides.is_empty() {
        return;
    }
    let Some(art) = severity_article(rules) else {
        return;
    };
    push_unique(&mut base.articles, art);
    base.note = format!(
        "{}; it is also an exchange or offer (兑/獻) with {}: the heavier nature decides (從重)",
        base.note,
        names(after, besides.iter().copied())
    );
}

fn squares(b: &Board, ids: impl Iterator<Item = PieceId>) -> Vec<Coord> {
    let mut v: Vec<Coord> = ids.filter_map(|id| b.square_of(id)).collect();
    v.sort();
    v.dedup();
    v
}

/// The 2011 26.8 qualifiers of a chase's threats.
fn qualifiers(b: &Board, chases: &[Threat]) -> Vec<String> {
    let mut q: Vec<String> = chases
        .iter()
        .map(|t| {
            let rook = role_id(b, t.target) == "rook";
            match (t.joint, rook) {
                (true, true) => "joint_rook",
                (true, false) => "joint_unprotected",
                (false, _) => single_qualifier(rook, t.cover),
            }
            .to_string()
        })
        .collect();
    q.sort();
    q.dedup();
    q
}

/// The 2011 26.8 qualifier of a chase by a single piece: a rook whatever guards it, else by the
/// target's protection on the board (24.15: 无根子 or not).
fn single_qualifier(rook: bool, cover: Cover) -> &'static str {
    match (rook, cover) {
        (true, _) => "rook",
        (false, Cover::Unprotected) => "unprotected",
        (false, Cover::Underprotected) => "underprotected",
    }
}

/// Is `id` one of the side's attacking pieces (rook, horse, cannon, crossed pawn)?
fn is_attacking_piece(b: &Board, id: PieceId) -> bool {
    matches!(role_id(b, id), "rook" | "horse" | "cannon") || (is_pawn(b, id) && is_material(b, id))
}

/// The chase test (28.3, 29.1–29.4; 2011 24.3) with the newness rule (29.2) and the
/// exceptions 27.1–27.3 (2011 26.1, 26.1.1, 26.1.2, 26.2).
fn chase_test(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    m: OMove,
    mover: PieceId,
    king_answer: Option<&'static str>,
    context: Context,
) -> ChaseTest {
    let me = before.side_to_move();
    // Lines of checks by any piece of the mover count (reading `chase-check-line-any`).
    let checker = None;
    let old = OldThreats::of(rules, before, mover, context);
    let exchange_partners: BTreeSet<PieceId> =
        new_exchange_pairs(rules, before, after, mover, true)
            .into_iter()
            .map(|(_, e)| e)
            .collect();
    let none = BTreeSet::new();
    let offering = if rules.kill_avoids_offered {
        &exchange_partners
    } else {
        &none
    };
    let cx_after = Ctx::offering(rules, offering).after_move_of(mover, before);
    let mut after_threats = threats(&cx_after, &pass(after), checker);
    // The pieces a line could win that the line's name hides (reading
    // `newness-of-a-line-of-checks`), and those whose every direct capture 26.5 leaves out: a
    // line of checks may win them still (reading `pinned-departure`).
    // What 26.5 makes of each direct threat, computed once (reading `pinned-departure`).
    let mut departures: BTreeMap<(PieceId, PieceId), Departure> = BTreeMap::new();
    let unlisted = departing_targets(rules, before, after, &after_threats, mover, &mut departures);
    let hidden = analysis::hidden_line_threats(&cx_after, &pass(after), &after_threats, &unlisted)
        .into_iter()
        .filter(|(k, y)| {
            !unlisted.contains(&y.target)
                || line_clears_departure(rules, before, after, *k, y, mover)
        })
        .map(|(_, y)| y);
    after_threats.extend(hidden);
    analysis::mark_joint_lines(&cx_after, &pass(after), &mut after_threats);
    // Each threat's acceptance (24.4, 26.9, 26.10), asked once: the offers, and the direct
    // threats the moved piece joins as 26.10.2's added participant.
    let mut added: BTreeSet<(PieceId, PieceId)> = BTreeSet::new();
    let (offers, now): (Vec<Threat>, Vec<Threat>) = after_threats
        .into_iter()
        .filter(|t| is_material(after, t.target))
        .partition(|t| match acceptance(rules, before, after, t, mover) {
            Acceptance::Offer => true,
            Acceptance::AddedParticipant => {
                added.insert(t.key());
                false
            }
            _ => false,
        });
    let chase_art = rules.class_article(MoveClass::Chase);
    let new_art = rules.article("cxa1999.29.2");
    let mut t = ChaseTest {
        chases: Vec::new(),
        pawn_only: Vec::new(),
        articles: Vec::new(),
        note: String::new(),
        idle_move: false,
        offers: Vec::new(),
    };
    let mut them_after = after.clone();
    them_after.set_turn(me.opponent());
    let participates = |x: &Threat| x.attacker == mover || x.necessary.contains(&mover);
    // A line of checks that starts by taking the piece offered in exchange is that exchange,
    // not a further chase (reading `exchange-offer-not-chase`); one that wins it later, after
    // checks that keep the offering piece, wins it (兑兼捉, 26.4).
    // The pieces offered are those of the threats classed as offers and those of the exchange
    // pairs the move creates (e.g. the moved piece becomes the screen of two cannons, 2011 图13).
    let mut offered: BTreeSet<PieceId> = offers.iter().map(|x| x.target).collect();
    offered.extend(exchange_partners);
    let now: Vec<Threat> = now
        .into_iter()
        .filter(|x| !x.first_capture.is_some_and(|c| offered.contains(&c)))
        .collect();
    t.offers = offers.into_iter().filter(|x| !old.contains(x)).collect();
    // A standing threat to a piece the mover keeps pinned is renewed by the move, jointly with
    // the capturer (reading `pinned-target-cannot-accept`), unless only the king or only pawns
    // take the target: the exemption belongs to the pieces that win it (reading
    // `exemption-by-capturer`, 26.1, 26.7).
    let taken_by_king_or_pawns = |x: &Threat| {
        rules.exemption_by_capturer
            && !x.capturers.is_empty()
            && (x.capturers.iter().all(|c| is_king(after, *c))
                || x.capturers.iter().all(|c| is_pawn(after, *c)))
    };
    let renewed_by_pin = |x: &Threat| {
        rules.pin_renews_chase
            && !x.via_checks
            && !x.capturers.contains(&mover)
            && !taken_by_king_or_pawns(x)
            && keeps_pinned(rules, after, x.target, mover)
    };
    // A pawn's or the king's standing capture that now gives another piece's check, and did
    // not before the move: the capture was exempt (26.1, 26.7 first sentence) and the move
    // makes it a chase (26.7 second sentence, 26.1.1), a chase that did not stand (reading
    // `exemption-by-capturer`: newness compares chases, not only attacker and target).
    let check_added = |x: &Threat| {
        rules.exemption_by_capturer
            && !x.via_checks
            && (is_pawn(after, x.attacker) || is_king(after, x.attacker))
            && capture_checks_by_another(after, x)
            && !capture_checks_by_another(&pass(before), x)
    };
    // A threat whose gain the moved piece joins as 26.10.2's added participant (reading
    // `exchange-offer-not-chase`, added-participant clause) is made by the move (29.2:
    // 捉产生于刚走的这着棋), whatever stood on the same target before.
    // (a threat by lines of checks is never an offer: its acceptance is `None`)
    let added_participant = |x: &Threat| !x.via_checks && added.contains(&x.key());
    let mut pinned = false;
    let mut new: Vec<Threat> = Vec::new();
    // Whether the context of the move (2011 26.1.2, reading `newness-in-context`) decided the
    // newness of a threat: it is then cited.
    let mut by_context = false;
    for x in &now {
        // A joint chase is renewed by a move of a piece it needs; a line of checks is judged by
        // what it can win (reading `joint-chase-renewed`; 参考图8).
        let joint_renewed =
            rules.joint_chase_renewed && x.joint && !x.via_checks && participates(x);
        by_context |= !joint_renewed && old.by_context(x);
        if joint_renewed || !old.contains(x) || check_added(x) || added_participant(x) {
            new.push(x.clone());
        } else if renewed_by_pin(x) {
            let mut y = x.clone();
            y.joint = true;
            if !y.necessary.contains(&mover) {
                y.necessary.push(mover);
            }
            pinned = true;
            new.push(y);
        }
    }
    if pinned {
        t.articles.push(rules.article("cxa2011.26.9"));
    }
    // 2011 26.5: a chase by a piece whose departure opens a capture for the other side that
    // costs more than the chase wins (a pinned or root piece) is idle.
    // The new threats 26.5 leaves out: they did not stand before the move.
    let mut departing: Vec<(PieceId, PieceId)> = Vec::new();
    // The threats kept only because a pawn for one piece is level (26.6).
    let mut levelled: Vec<(PieceId, PieceId)> = Vec::new();
    // The threats whose capture gives up as much as it wins through the point the capturer
    // leaves (26.5: 价值相当, a chase).
    let mut evened: Vec<(PieceId, PieceId)> = Vec::new();
    // The threats whose capture gives a crossed pawn for the piece it wins through the point the
    // capturer leaves (26.6: level, so a chase by 26.5).
    let mut pawn_given: Vec<(PieceId, PieceId)> = Vec::new();
    if rules.protector_chase_needs_gain {
        let mut kept = Vec::new();
        for x in new {
            let d = if x.via_checks {
                departure_costs(rules, before, after, &x, mover)
            } else {
                *departures
                    .entry(x.key())
                    .or_insert_with(|| departure_costs(rules, before, after, &x, mover))
            };
            // (a piece that pins the answer the departure would give takes part: reading
            // `joint-chase-necessary`, the pin through 26.5)
            let x = if d == Departure::Costs {
                x
            } else {
                with_departure_partners(rules, before, after, x, mover)
            };
            match d {
                Departure::Costs => departing.push(x.key()),
                Departure::Level => {
                    levelled.push(x.key());
                    kept.push(x);
                }
                Departure::PawnGiven => {
                    pawn_given.push(x.key());
                    kept.push(x);
                }
                Departure::Even => {
                    evened.push(x.key());
                    kept.push(x);
                }
                Departure::Free => kept.push(x),
            }
        }
        new = kept;
        if !departing.is_empty() {
            t.articles.push(rules.article("cxa2011.26.5"));
            t.note = DEPARTURE_COSTS.to_string();
        }
    }
    let context_art = answer_to_check_article(rules);
    if new.is_empty() {
        let stood: Vec<&Threat> = now
            .iter()
            .filter(|x| !departing.contains(&x.key()))
            .collect();
        if !stood.is_empty() {
            t.articles.push(new_art);
            if by_context {
                t.articles.push(context_art);
            }
            t.note = format!(
                "{}the threat to {} already existed before the move (從捉到捉): not a chase",
                if departing.is_empty() {
                    String::new()
                } else {
                    format!("{}; ", t.note)
                },
                names(after, stood.iter().map(|x| x.target))
            );
        }
        return t;
    }
    // 27.1 / 26.1: threats made by the king alone (or, 27.2 / 26.1, by pawns alone) are idle;
    // with another piece (joint) they are chases (26.1.1).
    // With `exemption_by_capturer` (2011 26.1, 26.7) the exemption belongs to the pieces that
    // win the material, not to the first piece of a line of checks.
    let credited = |x: &Threat, is: fn(&Board, PieceId) -> bool| {
        if rules.exemption_by_capturer {
            !x.capturers.is_empty() && x.capturers.iter().all(|c| is(after, *c))
        } else {
            is(after, x.attacker)
        }
    };
    // A pawn (or the king) that wins a piece at the end of other pieces' checks takes it with
    // their help, and is idle all the same (2011 26.7: 兵借其他子抽吃, reading
    // `joint-line-of-checks`).
    // A pawn's (or the king's) capture that gives another piece's check takes the target with
    // that piece's help: a chase (2011 26.7 second sentence, 26.1.1). Each such direct threat.
    let discovered: Vec<(PieceId, PieceId)> = if rules.exemption_by_capturer {
        new.iter()
            .filter(|x| {
                (is_pawn(after, x.attacker) || is_king(after, x.attacker))
                    && capture_checks_by_another(after, x)
            })
            .map(|x| (x.attacker, x.target))
            .collect()
    } else {
        Vec::new()
    };
    let helped_by_check =
        |x: &Threat| !x.via_checks && discovered.contains(&(x.attacker, x.target));
    // A capture that wins only because the facing kings forbid the recapture is made with the
    // king's power (1999 27.1 借帥之力, 2011 26.1.1; reading `king-as-partner`): not a pawn's
    // alone.
    let cx0 = Ctx::new(rules);
    let kings_power = |x: &Threat| analysis::capture_needs_the_king(&cx0, &pass(after), x);
    let alone = |x: &Threat| {
        (!x.joint || (rules.exemption_by_capturer && x.via_checks))
            && !helped_by_check(x)
            && !kings_power(x)
    };
    let by_king = |x: &Threat| credited(x, is_king) && alone(x);
    let by_pawn = |x: &Threat| credited(x, is_pawn) && alone(x);
    if new.iter().all(|x| by_king(x) || by_pawn(x)) {
        let pawns: Vec<Threat> = new.iter().filter(|x| by_pawn(x)).cloned().collect();
        let id = if pawns.is_empty() {
            "cxa1999.27.1"
        } else {
            "cxa1999.27.2"
        };
        let art = ["cxa2011.26.1", id]
            .iter()
            .map(|i| rules.article(i))
            .find(|a| !a.starts_with("cxa"))
            .unwrap_or_default();
        t.articles.push(art);
        // A pawn (or the king) that takes at the end of other pieces' checks (26.7).
        let helped = new.iter().any(|x| x.via_checks && x.joint);
        if helped {
            push_edition_article(rules, &mut t.articles, &["cxa2011.26.7"]);
        }
        t.note = format!(
            "the threat to {} is made by the king or a pawn {}: idle",
            names(after, new.iter().map(|x| x.target)),
            if helped {
                "at the end of other pieces' checks (兵借其他子抽吃)"
            } else {
                "alone"
            }
        );
        if rules.pawn_mutual_attack {
            t.pawn_only = pawns;
        }
        return t;
    }
    // King answering a check (2011 26.1.2; 1999 reading king-answer-to-check-1999).
    if let (Some(king_answer), true) = (king_answer, rules.king_answer_idle) {
        t.articles.push(answer_to_check_article(rules));
        t.note = format!(
            "the threat appears only because the king answered a {}: idle",
            king_answer
        );
        return t;
    }
    // The king's and the pawns' own threats stay idle beside another piece's chase (27.1, 27.2 /
    // 26.1; reading `king-pawn-alone`): they are not among the pieces chased.
    let mut chases = new;
    chases.retain(|x| !(by_king(x) || by_pawn(x)));
    // 27.3 / 26.2: the single attacking piece on a key point; its incidental threats to
    // advisors and elephants are idle.
    if let Some(scope) = &rules.key_point_scope {
        let attackers: Vec<PieceId> = after
            .pieces_of(me)
            .map(|p| p.id)
            .filter(|id| is_attacking_piece(after, *id))
            .collect();
        let minor = |x: &Threat| matches!(role_id(after, x.target), "advisor" | "elephant");
        // 守和方: only the side holding out for a draw, whose opponent attacks with more, or with
        // as much and has at least as much material in all (readings `key-point-2011`,
        // `defensive-key-point`).
        let force = |side: Side, attacking_only: bool| -> f64 {
            after
                .pieces_of(side)
                .map(|p| p.id)
                .filter(|id| is_material(after, *id))
                .filter(|id| !attacking_only || is_attacking_piece(after, *id))
                .map(|id| strength(rules, after, id))
                .sum()
        };
        let defending = || {
            let (theirs, mine) = (force(me.opponent(), true), force(me, true));
            theirs > mine || (theirs == mine && force(me.opponent(), false) >= force(me, false))
        };
        if attackers == [mover]
            && chases.iter().all(minor)
            && (!rules.key_point_defending || defending())
        {
            let art = ["cxa2011.26.2", "cxa1999.27.3"]
                .iter()
                .map(|i| rules.article(i))
                .find(|a| !a.starts_with("cxa"))
                .unwrap_or_default();
            t.articles.push(art);
            t.note = format!(
                "the last attacking piece holds a key point; its threat to {} is incidental: idle{}",
                names(after, chases.iter().map(|x| x.target)),
                if scope == "move" { "" } else { " (the move keeps its other natures)" }
            );
            let _ = m;
            t.idle_move = scope == "move";
            chases.clear();
            return t;
        }
    }
    let mut note = format!(
        "new threat (從沒捉到捉) to win {}",
        chases
            .iter()
            .map(|x| {
                let how = match (x.via_checks, x.joint) {
                    (true, true) => "; won jointly by consecutive checks",
                    (true, false) => "; won by consecutive checks",
                    (false, true) => "; chased jointly",
                    (false, false) => "",
                };
                format!(
                    "{} ({}{how})",
                    piece_name(after, x.target),
                    match x.cover {
                        Cover::Unprotected => "unprotected",
                        Cover::Underprotected => "not fully protected",
                    }
                )
            })
            // One entry per target and way of winning it (several lines may win the same piece).
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if chases.iter().any(|x| x.joint) {
        push_unique(&mut t.articles, rules.article("cxa2011.24.17"));
    }
    // 26.10.2: a piece added to a standing exchange makes a new exchange-plus-chase; an
    // exchange the target cannot accept at no cost is no offer.
    let cited: Vec<&str> = chases
        .iter()
        .filter_map(|x| acceptance(rules, before, after, x, mover).article())
        .collect();
    for id in ["cxa2011.26.10", "cxa2011.26.9"] {
        if cited.contains(&id) {
            push_edition_article(rules, &mut t.articles, &[id]);
        }
    }
    // 26.1.1 (1999 27.1, second sentence, for the king): the king or a pawn moved, and the
    // chase is another piece's or made together with others.
    if !chases.is_empty() {
        if is_king(after, mover) {
            push_edition_article(rules, &mut t.articles, &["cxa2011.26.1.1", "cxa1999.27.1"]);
        } else if is_pawn(after, mover) {
            push_edition_article(rules, &mut t.articles, &["cxa2011.26.1.1"]);
        }
    }
    // A pawn's or the king's capture made with the king's power, a chase for that reason
    // (1999 27.1, second sentence; 2011 26.1.1).
    if chases
        .iter()
        .any(|x| (credited(x, is_king) || credited(x, is_pawn)) && kings_power(x))
    {
        push_edition_article(rules, &mut t.articles, &["cxa2011.26.1.1", "cxa1999.27.1"]);
    }
    // A pawn's or the king's capture that gives another piece's check (26.7, second sentence).
    if chases.iter().any(helped_by_check) {
        push_edition_article(rules, &mut t.articles, &["cxa2011.26.7", "cxa1999.27.2"]);
    }
    if by_context {
        push_unique(&mut t.articles, context_art);
    }
    if chases.iter().any(|x| levelled.contains(&x.key())) {
        push_unique(&mut t.articles, rules.article("cxa2011.26.5"));
        push_unique(&mut t.articles, rules.article("cxa2011.26.6"));
        note.push_str(DEPARTURE_LEVEL);
    } else if chases.iter().any(|x| pawn_given.contains(&x.key())) {
        push_unique(&mut t.articles, rules.article("cxa2011.26.5"));
        push_unique(&mut t.articles, rules.article("cxa2011.26.6"));
        note.push_str(DEPARTURE_PAWN_GIVEN);
    } else if chases.iter().any(|x| evened.contains(&x.key())) {
        push_unique(&mut t.articles, rules.article("cxa2011.26.5"));
        note.push_str(DEPARTURE_EVEN);
    }
    note.push_str(&format!(": chase ({chase_art})"));
    t.note = note;
    t.chases = chases;
    t
}

/// What the classification of a move knows of the moves before it.
#[derive(Clone, Copy)]
struct Context<'a> {
    /// The opponent's move just before was a kill (殺).
    previous_is_kill: bool,
    /// The board before the opponent's move just before.
    earlier: Option<&'a Board>,
}

/// The threats that stood before the move (29.2 从捉到捉), against which the newness of the
/// threats after it is judged: (attacker, target) of each.
struct OldThreats<'a> {
    /// The rule set and the position before the move (for [`analysis::line_can_win`]).
    rules: &'a RuleSet,
    before: &'a Board,
    /// (attacker, target) of each threat that stood.
    keys: BTreeSet<(PieceId, PieceId)>,
    /// The threats whose standing the context changed: those that stood before the check, and
    /// the captures that did not parry the kill.
    context: BTreeSet<(PieceId, PieceId)>,
    /// The pieces that a line of consecutive checks could win before the move, whichever
    /// piece opens it (reading `newness-of-a-line-of-checks`).
    by_checks: BTreeSet<PieceId>,
}

impl<'a> OldThreats<'a> {
    /// The threats of the mover's side in `before`; with `newness_in_context` (2011 26.1.2,
    /// reading `newness-in-context`) also those that stood before the opponent's check that a
    /// piece other than the king answers (the check only interrupted them), and, after the
    /// opponent's kill (殺), without the captures that do not parry the mate (they win
    /// nothing: the game is lost first).
    fn of(
        rules: &'a RuleSet,
        before: &'a Board,
        mover: PieceId,
        context: Context,
    ) -> OldThreats<'a> {
        let cx = Ctx::new(rules);
        let me = before.side_to_move();
        let mut found = threats(&cx, before, None);
        let plain: BTreeSet<(PieceId, PieceId)> = found.iter().map(Threat::key).collect();
        let by_checks = found
            .iter()
            .filter(|t| t.via_checks)
            .map(|t| t.target)
            .collect();
        // The lines of checks the opponent's check laid open (自毙), when they are asked.
        let mut laid_open = BTreeSet::new();
        if rules.newness_in_context {
            if context.previous_is_kill {
                found.retain(|t| t.via_checks || !capture_allows_mate(rules, before, t));
            }
            if let Some(earlier) = context.earlier {
                if before.in_check(me) && !is_king(before, mover) {
                    let mut e = earlier.clone();
                    e.set_turn(me);
                    found.extend(threats(&cx, &e, None));
                    laid_open = laid_open_by_the_check(rules, before);
                }
            }
        }
        let mut keys: BTreeSet<(PieceId, PieceId)> = found.iter().map(Threat::key).collect();
        keys.extend(laid_open);
        let context = plain.symmetric_difference(&keys).copied().collect();
        OldThreats {
            rules,
            before,
            keys,
            context,
            by_checks,
        }
    }

    /// Did the context of the move decide whether the threat `t` stood before it?
    fn by_context(&self, t: &Threat) -> bool {
        self.context.contains(&t.key())
    }

    /// Did the threat `t` stand before the move: the same attacker and target; or, for a line
    /// of consecutive checks, a line (by whichever piece) that won the same piece, or could win
    /// it were it the only piece the line's end counts (reading `newness-of-a-line-of-checks`)?
    fn contains(&self, t: &Threat) -> bool {
        self.keys.contains(&t.key())
            || (t.via_checks
                && (self.by_checks.contains(&t.target)
                    || analysis::line_can_win(&Ctx::new(self.rules), self.before, t.target)))
    }
}

/// Reading `newness-in-context`, fourth part, for chases (24.18 自毙, 26.3 "一方形成自毙，应由己方
/// 负责，不得视为另一方造成"): the threats (attacker, target) by lines of consecutive checks of the
/// side in check in `before` that the opponent's check laid open, as its mates are: those its side
/// has after every legal answer to the check, or after an answer of the king (which adds nothing
/// of its own, 26.1.2), when that answer leaves it a mate by consecutive checks (the killed state
/// of 24.18, 被杀状态). They are the checker's fault, no new chase of a non-king answer. A direct
/// capture the check laid open is not, nor a line without the killed state (24.18: the answer
/// may be a chase, 捉).
fn laid_open_by_the_check(rules: &RuleSet, before: &Board) -> BTreeSet<(PieceId, PieceId)> {
    let cx = Ctx::new(rules);
    let mut every: Option<BTreeSet<(PieceId, PieceId)>> = None;
    let mut by_king = BTreeSet::new();
    for r in before.legal_moves() {
        let king = before
            .piece_id_at(r.from)
            .is_some_and(|p| is_king(before, p));
        let mut a = before.clone();
        analysis::apply(&mut a, r);
        let a = pass(&a);
        let keys: BTreeSet<(PieceId, PieceId)> = if mate_by_checks(&a, rules.kill_search_depth) {
            threats(&cx, &a, None)
                .iter()
                .filter(|t| t.via_checks)
                .map(Threat::key)
                .collect()
        } else {
            BTreeSet::new()
        };
        if king {
            by_king.extend(keys.iter().copied());
        }
        every = Some(match every {
            None => keys,
            Some(e) => e.intersection(&keys).copied().collect(),
        });
    }
    by_king.extend(every.unwrap_or_default());
    by_king
}

/// Does the direct capture of threat `t` in `b` (its side to move) leave the other side a mate
/// by consecutive checks within the kill search (24.2)? Such a capture does not parry a kill.
fn capture_allows_mate(rules: &RuleSet, b: &Board, t: &Threat) -> bool {
    let (Some(from), Some(to)) = (b.square_of(t.attacker), b.square_of(t.target)) else {
        return false;
    };
    let mut a = b.clone();
    analysis::apply(&mut a, OMove::new(from, to));
    mate_by_checks(&a, rules.kill_search_depth)
}

/// Adds the article of the first of `ids` this rule set's edition has (none: nothing).
fn push_edition_article(rules: &RuleSet, articles: &mut Vec<String>, ids: &[&str]) {
    if let Some(a) = ids
        .iter()
        .map(|i| rules.article(i))
        .find(|a| !a.starts_with("cxa"))
    {
        push_unique(articles, a);
    }
}

fn names(b: &Board, ids: impl Iterator<Item = PieceId>) -> String {
    let mut v: Vec<String> = ids.map(|id| piece_name(b, id)).collect();
    v.sort();
    v.dedup();
    v.join(", ")
}

/// 28.5 / 24.4 and 2011 26.9: a threat between two pieces of equal value that can take each
/// other is an exchange offer (兑), not a chase, unless accepting it (the target taking the
/// attacker) loses the accepting side material or gets it mated at once.
///
/// The piece the target can take back need not be the first attacker: a rook and a horse
/// touching a protected horse offer the horses' exchange (2011 26.10.2). But when the gain needs
/// a further piece besides the partner and one other (车方增加其他参与子力并产生新的兑兼捉), the
/// threat is no offer: it is a chase.
fn is_exchange_offer(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    t: &Threat,
    mover: PieceId,
) -> bool {
    acceptance(rules, before, after, t, mover) == Acceptance::Offer
}

/// Whether the target of a threat can accept an exchange instead (24.4, 26.9, 26.10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Acceptance {
    /// No equal partner the target can take at no cost: the threat stands.
    None,
    /// The threat is an exchange offer.
    Offer,
    /// The target could take an equal partner at no cost, but the gain needs a piece besides
    /// the partner and one other: 26.10.2's added participant, a chase (cited).
    AddedParticipant,
    /// The target could take an equal partner in contact, but not at no cost ([`accepts`]): a
    /// chase, citing 26.10 when the gain needs another piece in contact besides the partner
    /// (车马同时与马, 26.10.2 其"根"有损失) and 26.9 when the partner is alone and of the
    /// target's kind (同兵种邀兑…子力价值受损).
    Refused {
        /// Another needed piece is in contact with the target.
        jointly: bool,
        /// The partner is of the target's kind.
        same_kind: bool,
    },
}

impl Acceptance {
    /// The article a chase so decided cites (its id in the 2011 rules), if any.
    fn article(self) -> Option<&'static str> {
        match self {
            Acceptance::AddedParticipant | Acceptance::Refused { jointly: true, .. } => {
                Some("cxa2011.26.10")
            }
            Acceptance::Refused {
                jointly: false,
                same_kind: true,
            } => Some("cxa2011.26.9"),
            _ => None,
        }
    }
}

fn acceptance(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    t: &Threat,
    mover: PieceId,
) -> Acceptance {
    if t.via_checks || is_pawn(after, t.target) {
        return Acceptance::None;
    }
    let Some(t_sq) = after.square_of(t.target) else {
        return Acceptance::None;
    };
    let me = after.piece(t.attacker).side;
    let them = me.opponent();
    let v = value(rules, after, t.target);
    // The pieces of the threatening side the target could take, of equal value, that can
    // themselves take the target.
    // The pieces in contact with the target (产生接触): those that can take it.
    let contact = can_capture(after, me, t_sq);
    let mut found = Acceptance::None;
    for &p in &contact {
        let p_sq = after.square_of(p).expect("on board");
        let partner = value(rules, after, p) == v
            && can_capture(after, them, p_sq).contains(&t.target)
            && (p == t.attacker || (t.joint && t.necessary.contains(&mover)));
        if !partner {
            continue;
        }
        // The needed pieces in contact besides the partner (the rook of 26.10); a screen or a
        // piece that pins a protector is not in contact.
        let others = t
            .necessary
            .iter()
            .filter(|&&q| q != p && contact.contains(&q))
            .count();
        if !accepts(rules, after, t.target, p) {
            // Taking the partner costs the target's side (其"根"有损失): no offer.
            if found == Acceptance::None {
                found = Acceptance::Refused {
                    jointly: others > 0,
                    same_kind: role_id(after, p) == role_id(after, t.target),
                };
            }
        } else if others <= 1 && !added_elsewhere(rules, before, after, t, p, mover, &contact) {
            return Acceptance::Offer;
        } else {
            found = Acceptance::AddedParticipant;
        }
    }
    found
}

/// 2011 26.10.2 (车方增加其他参与子力并产生新的兑兼捉) and 26.4 (兑兼捉, 判捉), read generally
/// (reading `exchange-offer-not-chase`, the added-participant clause): the moved piece is
/// neither the partner `p`, nor in contact with the target, nor the screen through which a piece
/// of its side reaches it; it takes part in the gain (it is needed for a gain won only across
/// two squares, the exchange on the target's point alone winning nothing, reading
/// `exchange-removes-protector`; or it takes part in what is won after the like exchange,
/// [`takes_part_after_the_exchange`]); and the pair stood as an exchange before the move (the
/// move neither makes it nor offers it anew, [`new_exchange_pairs`]: that is the offer of 26.10.2's
/// first sentence, as 图30's 炮八进四). The target's acceptance is then one answer to a new chase,
/// not the whole of the move.
fn added_elsewhere(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    t: &Threat,
    p: PieceId,
    mover: PieceId,
    contact: &[PieceId],
) -> bool {
    let (Some(t_sq), Some(m_sq)) = (after.square_of(t.target), after.square_of(mover)) else {
        return false;
    };
    let needed_across = || {
        t.necessary.contains(&mover)
            && !analysis::wins_by_capture(&Ctx::new(rules), &pass(after), t.target, false)
    };
    mover != p
        && !contact.contains(&mover)
        && !analysis::is_screen_for(after, &analysis::without(after, m_sq), mover, t_sq)
        && (needed_across() || takes_part_after_the_exchange(before, after, t.target, p))
        && !new_exchange_pairs(rules, before, after, mover, true).contains(&(p, t.target))
}

/// For [`added_elsewhere`]: after the partner `p` takes `target` and the other side takes back
/// on that point, has the mover's side a capture elsewhere that the same exchange played before
/// the move does not give it (the moved piece takes, or is the screen of the piece that takes, or
/// its departure opened that piece's line)? An exchange the partner could not make before the
/// move is one the move offers: no.
fn takes_part_after_the_exchange(
    before: &Board,
    after: &Board,
    target: PieceId,
    p: PieceId,
) -> bool {
    let b = pass(after);
    let (Some(t_sq), Some(p_sq)) = (b.square_of(target), b.square_of(p)) else {
        return false;
    };
    let take = OMove::new(p_sq, t_sq);
    if before.square_of(p) != Some(p_sq)
        || before.square_of(target) != Some(t_sq)
        || before.check_move(take).is_err()
    {
        return false;
    }
    // The captures of the side to move in `x`, but for one on `t_sq`: (capturer, captured).
    let captures = |x: &Board| -> BTreeSet<(PieceId, PieceId)> {
        x.legal_moves()
            .into_iter()
            .filter(|m| m.to != t_sq)
            .filter_map(|m| Some((x.piece_id_at(m.from)?, x.piece_id_at(m.to)?)))
            .collect()
    };
    let mut e = b.clone();
    analysis::apply(&mut e, take);
    let mut e_before = before.clone();
    analysis::apply(&mut e_before, take);
    let recaptures: Vec<OMove> = e
        .legal_moves()
        .into_iter()
        .filter(|m| m.to == t_sq)
        .collect();
    recaptures.into_iter().any(|r| {
        if e_before.check_move(r).is_err() {
            return false;
        }
        let mut now = e.clone();
        analysis::apply(&mut now, r);
        let mut then = e_before.clone();
        analysis::apply(&mut then, r);
        !captures(&now).is_subset(&captures(&then))
    })
}

/// The enemy pieces the move offers in exchange: the partners of the exchange pairs it creates
/// and the targets of its threats that are exchange offers (28.5 / 24.4, 2011 26.9, 26.10): the
/// moved piece's own, and another piece's that did not stand before the move (another piece's
/// standing offer is not the move's: 从捉到捉, as its chases are judged).
fn offered_pieces(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    mover: PieceId,
) -> BTreeSet<PieceId> {
    let mut out: BTreeSet<PieceId> = new_exchange_pairs(rules, before, after, mover, true)
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    let offers: Vec<Threat> = threats(
        &Ctx::new(rules).after_move_of(mover, before),
        &pass(after),
        None,
    )
    .into_iter()
    .filter(|t| is_material(after, t.target) && is_exchange_offer(rules, before, after, t, mover))
    .collect();
    if !offers.is_empty() {
        let stood: BTreeSet<(PieceId, PieceId)> = threats(&Ctx::new(rules), before, None)
            .iter()
            .filter(|y| !y.via_checks)
            .map(Threat::key)
            .collect();
        out.extend(
            offers
                .into_iter()
                .filter(|t| t.attacker == mover || !stood.contains(&t.key()))
                .map(|t| t.target),
        );
    }
    out
}

/// 28.5 / 24.4 exchange: the moved piece and an enemy piece of equal material value can take
/// each other.
///
/// Also when the move makes such a pair of other pieces (e.g. it becomes the screen through
/// which two cannons face each other, 2011 图13): the pair must be new. The enemy pieces of the
/// moved piece's new pairs, or of every new pair when it has none.
fn exchange_with(rules: &RuleSet, before: &Board, after: &Board, mover: PieceId) -> Vec<PieceId> {
    // 2011 26.9: a pair whose target cannot accept is no exchange (it stays an offer for the
    // kill test; the attack on the target is judged as a threat, reading
    // `pinned-target-cannot-accept`).
    let new: Vec<(PieceId, PieceId)> = new_exchange_pairs(rules, before, after, mover, true)
        .into_iter()
        .filter(|(x, e)| !rules.exchange_needs_acceptance || accepts(rules, after, *e, *x))
        .collect();
    // The pairs of the moved piece if there are any, else all (every one of them: which pair is
    // listed first depends on the order of the pieces, so on the side and the wing).
    let own = new.iter().any(|(x, _)| *x == mover);
    new.into_iter()
        .filter(|(x, _)| !own || *x == mover)
        .map(|(_, e)| e)
        .collect()
}

/// The pairs (own piece, enemy piece) of equal material value that can take each other after
/// the move and could not before. With `legal_take_back` the enemy piece's capture back must be
/// a legal move; without, its movement rule allowing it is enough (26.9: a target pinned to its
/// king is offered the exchange and cannot accept it).
fn new_exchange_pairs(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    mover: PieceId,
    legal_take_back: bool,
) -> Vec<(PieceId, PieceId)> {
    let me = after.piece(mover).side;
    let pairs = |b: &Board| -> Vec<(PieceId, PieceId)> {
        let mut out = Vec::new();
        for x in b.pieces_of(me) {
            if !is_material(b, x.id) || is_pawn(b, x.id) {
                continue;
            }
            let xs = x.square.expect("on board");
            let mut mine = b.clone();
            mine.set_turn(me);
            for e in capturable_by(&mine, xs) {
                let takes_back = || {
                    if legal_take_back {
                        can_capture(b, me.opponent(), xs).contains(&e)
                    } else {
                        analysis::reach_of(b, e).contains(&xs)
                    }
                };
                if is_material(b, e) && value(rules, b, e) == value(rules, b, x.id) && takes_back()
                {
                    out.push((x.id, e));
                }
            }
        }
        out
    };
    let old = pairs(before);
    // A pair that existed is offered anew when the move protects its own piece: before it the
    // other side won that piece, now taking it is an even exchange (2011 26.10.2; reading
    // `exchange-offer-not-chase`).
    let won = |b: &Board, x: PieceId| {
        let mut t = b.clone();
        t.set_turn(me.opponent());
        let sq = b.square_of(x).expect("on board");
        t.legal_moves().into_iter().filter(|m| m.to == sq).any(|m| {
            let mut a = t.clone();
            analysis::apply(&mut a, m);
            value(rules, b, x) - analysis::see(&Ctx::new(rules), &a, sq, None, 8) > 0.0
        })
    };
    pairs(after)
        .into_iter()
        .filter(|p| !old.contains(p) || (won(before, p.0) && !won(after, p.0)))
        .collect()
}

/// 2011 26.9 (同兵种邀兑，被邀兑方兑子后立即被杀或子力价值受损，邀兑方按"捉"处理): the enemy
/// pieces of the new pairs of one kind ([`new_exchange_pairs`]) that cannot accept the
/// exchange ([`accepts`]: the capture is illegal, loses value or is mated at once). The move
/// chases them (reading `pinned-target-cannot-accept`). Only where the rule set reads the
/// acceptance (`exchange_needs_acceptance`).
fn refused_offers(rules: &RuleSet, before: &Board, after: &Board, mover: PieceId) -> Vec<PieceId> {
    if !rules.exchange_needs_acceptance {
        return Vec::new();
    }
    // The pairs whose target may not legally take back too (a target pinned to its king cannot
    // accept).
    let mut out: Vec<PieceId> = new_exchange_pairs(rules, before, after, mover, false)
        .into_iter()
        .filter(|(x, e)| role_id(after, *x) == role_id(after, *e) && !accepts(rules, after, *e, *x))
        .map(|(_, e)| e)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The 2011 26.8 qualifiers of the chases by exchanges the target cannot accept (26.9): as any
/// chase's, by what the target is (a rook) and what protects it on the board (24.15: 无根子 when
/// no other piece of its side can take back on its point, [`analysis::cover_on_board`]).
fn refused_qualifiers(b: &Board, refused: &[PieceId]) -> Vec<String> {
    refused
        .iter()
        .map(|e| {
            single_qualifier(role_id(b, *e) == "rook", analysis::cover_on_board(b, *e)).to_string()
        })
        .collect()
}

/// The note of a chase by an exchange the target cannot accept (2011 26.9).
fn refused_note(names: &str) -> String {
    format!(
        "offers {names} an exchange of pieces of one kind that it cannot accept (taking is \
         illegal, loses value or is mated at once: 兑子后立即被杀或子力价值受损): chase (26.9)"
    )
}

/// The acceptance of an exchange (24.4, 2011 26.9 子力价值受损, 26.10.2 其"根"无损失; reading
/// `pinned-target-cannot-accept`): can `e` take `x` (its equal) so that its side loses no value
/// in the exchange that follows and is not mated at once? The offering side answers by the
/// recapture, by a capture elsewhere that the acceptance opens ([`answer_opened_by`]: a line
/// the taker blocked, a piece it guarded), or by a line of consecutive checks that wins the
/// taker back and more than the offering side could win anyway
/// ([`analysis::capture_lost_to_checks`]). A piece that cannot leave its line cannot accept:
/// the offer is a chase.
fn accepts(rules: &RuleSet, b: &Board, e: PieceId, x: PieceId) -> bool {
    let (Some(e_sq), Some(x_sq)) = (b.square_of(e), b.square_of(x)) else {
        return false;
    };
    let mut a = b.clone();
    a.set_turn(b.piece(e).side);
    if a.check_move(OMove::new(e_sq, x_sq)).is_err() {
        return false;
    }
    let v = value(rules, b, x);
    analysis::apply(&mut a, OMove::new(e_sq, x_sq));
    let cx = Ctx::new(rules);
    // What the offering side could win anyway, with the offer standing: a line of checks after
    // the acceptance must win more than the piece taken and that.
    let mut standing = b.clone();
    standing.set_turn(b.piece(x).side);
    let back =
        analysis::see(&cx, &a, x_sq, None, 8).max(answer_opened_by(&cx, &standing, &a, x_sq));
    v - back >= 0.0
        // 兑子后立即被杀 (26.9): where the rule set reads 26.9, a kill (杀, 24.2: a mate by
        // consecutive checks within the kill search), not only a mate at once (reading
        // `exchange-acceptance-kill`).
        && !(if rules.exchange_needs_acceptance {
            mate_by_checks(&a, rules.kill_search_depth)
        } else {
            analysis::mates_at_once(&cx, &a)
        })
        && !analysis::capture_lost_to_checks(&cx, &a, e, v + analysis::gain_now(&cx, &standing))
}

/// What the offering side wins at best by answering an acceptance elsewhere than on the
/// partner's point `sq`: a capture in `a` (after the acceptance, the offering side to move)
/// that did not win material in `standing` (the offer standing, the offering side to move),
/// counted over the exchange on its point, not mated at once. The acceptance opened it: a line
/// the taker blocked (its own protector behind it, 其"根"), a piece the taker guarded.
fn answer_opened_by(cx: &Ctx, standing: &Board, a: &Board, sq: Coord) -> f64 {
    let mut best = 0.0;
    for c in a.legal_moves() {
        let Some(victim) = a
            .piece_id_at(c.to)
            .filter(|v| c.to != sq && is_material(a, *v))
        else {
            continue;
        };
        if analysis::wins_on(cx, standing, c.to) {
            continue;
        }
        let mut d = a.clone();
        analysis::apply(&mut d, c);
        let g = value(cx.rs, a, victim)
            - analysis::see_pawns_given(cx, &d, c.to, a.side_to_move(), None, 8);
        if g > best && !analysis::mates_at_once(cx, &d) {
            best = g;
        }
    }
    best
}

/// 24.4, 26.9, 26.10 (reading `pinned-target-cannot-accept`): does `mover`, where it stands in
/// `after`, hold `target` on its square (使…不能离线)? Every move of the target is either illegal
/// because of the mover (a move that is legal with the mover off the board) or lets the mover
/// punish it: a check of the mover's that mates at once, or a threat of the mover's (a capture
/// or a line of checks that it opens, [`threats`]) that wins more than the move took plus the
/// most the mover could win elsewhere with the target staying.
fn keeps_pinned(rules: &RuleSet, after: &Board, target: PieceId, mover: PieceId) -> bool {
    let (Some(sq), Some(m_sq)) = (after.square_of(target), after.square_of(mover)) else {
        return false;
    };
    if is_king(after, mover) {
        return false;
    }
    let side = after.piece(target).side;
    let cx = Ctx::new(rules);
    let none = BTreeSet::new();
    let by_mover = |x: &[Threat]| {
        x.iter()
            .filter(|x| x.attacker == mover)
            .map(|x| x.gain)
            .fold(0.0, f64::max)
    };
    let mut stay = after.clone();
    stay.set_turn(side.opponent());
    let elsewhere: Vec<Threat> = threats(&cx, &stay, None)
        .into_iter()
        .filter(|x| x.target != target && !x.line_wins.contains(&target))
        .collect();
    let elsewhere = by_mover(&elsewhere);
    let mut t = after.clone();
    t.set_turn(side);
    let free = without(&t, m_sq);
    let departures: Vec<OMove> = t
        .pseudo_legal_moves()
        .into_iter()
        .filter(|m| m.from == sq)
        .collect();
    !departures.is_empty()
        && departures.iter().all(|&d| {
            if !t.is_legal(d) {
                return free.is_legal(d);
            }
            let took = t.piece_id_at(d.to).map_or(0.0, |v| value(rules, &t, v));
            let mut a = t.clone();
            analysis::apply(&mut a, d);
            analysis::mate_opened_by(&a, rules.mated_at_once_plies, &none, mover)
                || by_mover(&threats(&cx, &a, None)) > took + elsewhere
        })
}

/// 28.6 / 24.5 offer: the moved piece, unprotected, can be taken by an enemy piece (of the same
/// type under 1999 28.6; any under 2011 24.5, `offer_any_taker`), and taking it costs the taker
/// nothing at once. Every such taker (none: no offer).
fn offered_to(rules: &RuleSet, after: &Board, to: Coord, mover: PieceId) -> Vec<PieceId> {
    if !is_material(after, mover) || rules.floating_pawn_value < 0.0 {
        return Vec::new();
    }
    let me = after.piece(mover).side;
    let role = after.piece(mover).role;
    can_capture(after, me.opponent(), to)
        .into_iter()
        .filter(|e| {
            (rules.offer_any_taker || after.piece(*e).role == role) && {
                // Taking must be free: after the capture the offering side cannot take back.
                let from = after.square_of(*e).expect("on board");
                let mut a = after.clone();
                analysis::apply(&mut a, OMove::new(from, to));
                can_capture(&a, me, to).is_empty() && !analysis::mates_at_once(&Ctx::new(rules), &a)
            }
        })
        .collect()
}

/// 28.8 / 24.7 follow: the moved piece now keeps in view a protected enemy piece (it could
/// take it, without gain) that it did not before.
fn followed(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    m: OMove,
    mover: PieceId,
) -> Option<PieceId> {
    let me = after.piece(mover).side;
    let mut mine = after.clone();
    mine.set_turn(me);
    let earlier: Vec<PieceId> = capturable_by(before, m.from);
    capturable_by(&mine, m.to).into_iter().find(|e| {
        is_material(after, *e) && !earlier.contains(e) && {
            let sq = after.square_of(*e).expect("on board");
            let mut a = mine.clone();
            analysis::apply(&mut a, OMove::new(m.to, sq));
            // protected: the other side can take back
            let protected = !can_capture(&a, me.opponent(), sq).is_empty();
            // held (牵): were it to step aside, the follower would reach another enemy piece
            // (not the king) behind it on the same line (reading `follow-pin`).
            let open = without(&mine, sq);
            let in_view = capturable_by(&mine, m.to);
            let behind = capturable_by(&open, m.to).into_iter().any(|x| {
                x != *e && !is_king(after, x) && !in_view.contains(&x) && {
                    // ... and could win it: the followed piece is held (牵) by that loss.
                    let xs = open.square_of(x).expect("on board");
                    let mut c = open.clone();
                    analysis::apply(&mut c, OMove::new(m.to, xs));
                    value(rules, &open, x) - analysis::see(&Ctx::new(rules), &c, xs, None, 8) > 0.0
                }
            });
            protected && behind && held(rules, after, sq, m.to) && rules.floating_pawn_value >= 0.0
        }
    })
}

/// 牵 (28.8 / 24.7, reading `follow-pin`): the piece on `sq` cannot step aside without loss:
/// after each of its legal moves, the follower on `follower` can win material with a capture
/// (gain after the complete exchange, not mated at once, 29.4 / 24.3). A departure that protects
/// the piece behind, or that threatens mate so that taking costs the game, frees it.
fn held(rules: &RuleSet, after: &Board, sq: Coord, follower: Coord) -> bool {
    after
        .legal_moves()
        .into_iter()
        .filter(|d| d.from == sq)
        .all(|d| {
            let mut a = after.clone();
            analysis::apply(&mut a, d);
            a.legal_moves()
                .into_iter()
                .filter(|c| c.from == follower)
                .any(|c| {
                    let Some(victim) = a.piece_id_at(c.to) else {
                        return false;
                    };
                    let mut b = a.clone();
                    analysis::apply(&mut b, c);
                    value(rules, &a, victim) - analysis::see(&Ctx::new(rules), &b, c.to, None, 8)
                        > 0.0
                        && !analysis::mates_at_once(&Ctx::new(rules), &b)
                })
        })
}

/// 28.7 / 24.6 block: the enemy pieces the moved piece stands in the way of (a line, a horse's
/// leg, an elephant's eye or a cannon's screen); all of them, so that the targets do not depend on
/// the order in which the pieces are listed.
fn blocked(after: &Board, to: Coord, them: Side) -> Vec<PieceId> {
    let open = without(after, to);
    after
        .pieces_of(them)
        .map(|p| p.id)
        .filter(|id| !is_king(after, *id))
        .filter(|id| {
            let now = reach_of(after, *id);
            let free = reach_of(&open, *id);
            free.iter().any(|c| *c != to && !now.contains(c))
        })
        .collect()
}
