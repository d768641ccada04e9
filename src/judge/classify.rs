//! The nature of one move (著法性質): check, kill, chase, or one of the idle kinds (art. 28.1–28.9;
//! 2011 24.1–24.8), with the exceptions of art. 27 (2011 26.1–26.2) and the severity order of
//! 27.4 (2011 26.4).
//!
//! A port of the oracle's `judge/classify.rs`: the same classes, targets, articles, qualifiers
//! and notes, on the bitboard position (differential test: `tests/classify_diff.rs`).

use std::collections::BTreeSet;

use super::analysis::{
    can_capture, capturable_by, capture_made_by_move, capture_needs_the_king, captures_on,
    cover_on_board, id_at, id_bit, ids_in, is_king, is_material, is_pawn, is_screen_for,
    pawn_trade_is_gain, piece_name, pinned_by, reach_of, role_id, strength, value, Analyzer, Cover,
    IdSet, Threat,
};
use super::track::{PieceId, Tracked};
use super::{JudgeError, MoveClass, RuleSet};
use crate::{Color, Move, RankConvention, Square};

mod departure;
use departure::{
    departing_targets, departure_costs, departure_once, line_clears_departure,
    with_departure_partners, Departure, DEPARTURE_COSTS, DEPARTURE_EVEN, DEPARTURE_LEVEL,
    DEPARTURE_PAWN_GIVEN,
};

/// The nature of one move, with what it aims at and the articles that decided it (the oracle's
/// `Classification`, field for field).
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub side: Color,
    /// Its class, the heaviest nature by the severity order (27.4 / 26.4).
    pub class: MoveClass,
    /// Squares (after the move) of the pieces checked, threatened with mate or chased; for the
    /// idle kinds, the piece exchanged with, offered to, followed or blocked.
    pub targets: Vec<Square>,
    /// The articles (numbers of the edition) that decided the class.
    pub articles: Vec<String>,
    /// The identity of the moved piece.
    pub piece: PieceId,
    /// The identities of the pieces in `targets` (chases), sorted.
    pub target_ids: Vec<PieceId>,
    /// For chases: what each chased piece is (2011 26.8): `rook`, `unprotected`,
    /// `underprotected`, `joint_rook`, `joint_unprotected`.
    pub qualifiers: Vec<String>,
    /// 1999 art. 27.2: the move's only new threats are by pawns (see the oracle).
    pub pawn_chase: bool,
    /// Squares chased by pawns alone (see `pawn_chase`).
    pub pawn_targets: Vec<Square>,
    /// One sentence in English explaining the class.
    pub note: String,
}

impl Classification {
    /// An idle move (闲) with no targets, articles or notes yet: where every classifier starts.
    pub(crate) fn idle(mv: Move, side: Color, piece: PieceId) -> Classification {
        Classification {
            mv,
            side,
            class: MoveClass::Idle,
            targets: Vec::new(),
            articles: Vec::new(),
            piece,
            target_ids: Vec::new(),
            qualifiers: Vec::new(),
            pawn_chase: false,
            pawn_targets: Vec::new(),
            note: String::new(),
        }
    }
}

fn push_unique(v: &mut Vec<String>, a: String) {
    if !a.is_empty() && !v.contains(&a) {
        v.push(a);
    }
}

/// The result of the chase test for one move.
struct ChaseTest {
    chases: Vec<Threat>,
    pawn_only: Vec<Threat>,
    articles: Vec<String>,
    note: String,
    idle_move: bool,
    offers: Vec<Threat>,
}

/// Classifies move `m` played from `pos` (art. 28.1–28.9 / 24.1–24.8, exceptions 27.1–27.3 /
/// 26.1–26.5, severity 27.4 / 26.4). `prev` is the classification of the opponent's move just
/// before, if known: a block (28.7) is an interposition against a kill threat.
///
/// ```
/// use xiangqi_rules::judge::{classify, Builtin, MoveClass, RuleSet, Tracked};
/// use xiangqi_rules::{Move, Position, RankConvention};
///
/// let rules = RuleSet::builtin("cxa-1999").unwrap();
/// let pos = Tracked::new(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap());
/// let m = Move::parse_iccs("f0f9", RankConvention::Iccs).unwrap();
/// let c = classify(rules, &pos, m, None).unwrap();
/// assert_eq!(c.class, MoveClass::Check);
/// ```
pub fn classify(
    rules: &RuleSet,
    pos: &Tracked,
    m: Move,
    prev: Option<&Classification>,
) -> Result<Classification, JudgeError> {
    if rules.classifier == "axf" {
        legal(pos, m)?;
        return Ok(super::axf::classify(rules, pos, m, prev));
    }
    classify_after(
        rules,
        pos,
        m,
        prev.is_some_and(|p| p.class == MoveClass::Kill),
        None,
    )
}

/// `m` is legal in `pos`, or the error of an illegal move (index 0: the caller's to set).
fn legal(pos: &Tracked, m: Move) -> Result<(), JudgeError> {
    pos.pos.check_move(m).map_err(|e| JudgeError::IllegalMove {
        index: 0,
        mv: m.to_iccs(RankConvention::Iccs),
        reason: e.to_string(),
    })
}

/// [`classify`] under the Chinese rules (the Asian rules' classifier, which needs the
/// opponent's move before itself, is `axf::classify`), knowing only whether the opponent's move
/// just before was a kill (a block answers a kill; newness after a kill) and `earlier`, the
/// position before that move (newness after a check, 2011 26.1.2; the oracle's
/// `classify_in_context`).
pub(crate) fn classify_after(
    rules: &RuleSet,
    pos: &Tracked,
    m: Move,
    prev_is_kill: bool,
    earlier: Option<&Tracked>,
) -> Result<Classification, JudgeError> {
    legal(pos, m)?;
    debug_assert_ne!(
        rules.classifier, "axf",
        "the Asian rules classify in axf::classify"
    );
    let before = pos;
    let mut az = Analyzer::new(rules);
    let me = before.pos.turn();
    let them = me.other();
    let mover = before.id_at(m.from()).expect("legal move has a piece");
    let mut after = before.clone();
    after.play(m);
    let king_sq = |b: &Tracked, side: Color| b.pos.king(side);
    // The king answers a check (2011 26.1.2), or, where newness is read in context, a kill
    // (reading `newness-in-context`): the threats that result are idle.
    let king_answers: Option<&'static str> = if !is_king(before, mover) {
        None
    } else if before.pos.is_check() {
        Some("check")
    } else if rules.newness_in_context && prev_is_kill {
        Some("kill")
    } else {
        None
    };
    let answers_check_with_king = king_answers.is_some();
    let mut base = Classification::idle(m, me, mover);
    let mut extra_articles: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut chase_cache: Option<ChaseTest> = None;
    let mut after_check: Option<bool> = None;
    for &class in &rules.severity {
        let art = || rules.class_article(class);
        match class {
            MoveClass::Check => {
                if *after_check.get_or_insert_with(|| after.pos.is_check()) {
                    base.class = class;
                    base.targets = vec![king_sq(&after, them)];
                    base.articles = vec![art()];
                    base.note = check_note(&after, mover, "將");
                    return Ok(base);
                }
            }
            MoveClass::Kill => {
                if threatens_mate(&mut az, before, &after, mover) {
                    if answers_check_with_king && rules.king_answer_idle {
                        notes.push(format!(
                            "the mate threat appears only because the king answered a {}: idle",
                            king_answers.unwrap_or("check")
                        ));
                        push_unique(&mut extra_articles, answer_to_check_article(rules));
                        continue;
                    }
                    if let Some(stood) =
                        earlier.filter(|_| answers_check_elsewhere(rules, before, mover))
                    {
                        if !kill_is_new(&mut az, before, &after, stood) {
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
                    base.targets = vec![king_sq(&after, them)];
                    base.articles = vec![art()];
                    base.note = format!(
                        "threatens mate by consecutive checks (殺) within {} plies",
                        rules.kill_search_depth
                    );
                    // 兑（献）兼杀 (27.4 / 2011 26.4): what else the move offers.
                    let besides = offered_pieces(&mut az, before, &after, mover)
                        | offered_to(&mut az, &after, m.to(), mover)
                            .into_iter()
                            .fold(0, |a, e| a | id_bit(e));
                    heavier_nature(rules, &after, &mut base, besides);
                    return Ok(base);
                }
            }
            MoveClass::Chase => {
                let context = Context {
                    previous_is_kill: prev_is_kill,
                    earlier,
                };
                let t = chase_test(&mut az, before, &after, mover, king_answers, context);
                // 2011 26.9: an exchange of pieces of one kind that the target cannot accept
                // is a chase of it (the oracle's `refused_offers`).
                let refused: Vec<PieceId> = if king_answers.is_none() && !t.idle_move {
                    refused_offers(&mut az, before, &after, mover)
                        .into_iter()
                        .filter(|e| !t.chases.iter().any(|c| c.target == *e))
                        .collect()
                } else {
                    Vec::new()
                };
                if !t.chases.is_empty() || !refused.is_empty() {
                    // 兑（献）兼捉 (27.4 / 2011 26.4): what else the move offers.
                    let besides = offered_besides(&mut az, before, &after, m, mover, &t.offers);
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
                    base.articles = vec![art()];
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
                    heavier_nature(rules, &after, &mut base, besides);
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
                let mut e = exchange_with(&mut az, before, &after, mover);
                if e.is_empty() {
                    e = chase_cache
                        .as_ref()
                        .map(|t| t.offers.iter().map(|t| t.target).collect())
                        .unwrap_or_default();
                }
                if !e.is_empty() {
                    base.class = class;
                    base.targets = squares(&after, e.iter().copied());
                    base.articles = vec![art()];
                    base.note = format!(
                        "offers an exchange of equal material with {} (兑)",
                        names(&after, e.iter().copied())
                    );
                    break;
                }
            }
            MoveClass::Offer => {
                let e = offered_to(&mut az, &after, m.to(), mover);
                if !e.is_empty() {
                    base.class = class;
                    base.targets = squares(&after, e.iter().copied());
                    base.articles = vec![art()];
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
                if let Some(e) = followed(&mut az, before, &after, m, mover) {
                    base.class = class;
                    base.targets = vec![after.square_of(e).expect("on board")];
                    base.articles = vec![art()];
                    base.note = format!(
                        "{} keeps the protected {} in view without winning it (跟)",
                        piece_name(&after, mover),
                        piece_name(&after, e)
                    );
                    break;
                }
            }
            MoveClass::Block => {
                let answers_kill = prev_is_kill;
                if answers_kill {
                    let e = blocked(&after, m.to(), them);
                    if !e.is_empty() {
                        base.class = class;
                        base.targets = squares(&after, e.iter().copied());
                        base.articles = vec![art()];
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
                base.articles = vec![art()];
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

/// The kill test (28.2 / 2011 24.2): with the other side passing, could the mover force mate
/// by consecutive checks within `kill_search_depth` plies (2011: not by taking a piece the move
/// offers in exchange, unless the moved piece opens the mate)?
fn threatens_mate(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
) -> bool {
    let rules = az.rs;
    let passed = after.passed();
    az.mate_by_checks(&passed, rules.kill_search_depth) && {
        let avoid = if rules.kill_avoids_offered {
            offered_pieces(az, before, after, mover)
        } else {
            0
        };
        avoid == 0 || az.mate_by_checks_avoiding(&passed, rules.kill_search_depth, avoid, mover)
    }
}

/// Does the move of `mover` answer a check with a piece other than the king, under a rule set
/// that reads newness in context (2011 26.1.2: 走动其他棋子应将后产生新的捉或杀)?
fn answers_check_elsewhere(rules: &RuleSet, before: &Tracked, mover: PieceId) -> bool {
    rules.newness_in_context && before.pos.is_check() && !is_king(before, mover)
}

/// Reading `newness-in-context`, third part: is the kill after a non-king answer to a check new
/// against the position before the opponent's checking move and against the mates that follow
/// every answer to that check (自毙; [`Analyzer::kill_is_new`])? `before`: the position in check.
fn kill_is_new(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    earlier: &Tracked,
) -> bool {
    let depth = az.rs.kill_search_depth;
    az.kill_is_new(&after.passed(), &earlier.passed(), before, depth)
}

/// 2011 26.7, second sentence (兵（卒）吃子时产生其他子"将军"，按"捉"处理) and 26.1.1: does the
/// direct capture of threat `x` (the capturer's side to move) give check by a piece other than
/// the capturer? (The oracle's `capture_checks_by_another`.)
fn capture_checks_by_another(after: &Tracked, x: &Threat) -> bool {
    if x.via_checks {
        return false;
    }
    let (Some(from), Some(to)) = (after.square_of(x.attacker), after.square_of(x.target)) else {
        return false;
    };
    let mut a = after.passed();
    let m = Move::new(from, to);
    if !a.pos.is_legal(m) {
        return false;
    }
    let side = a.pos.turn();
    a.play(m);
    let king = 1u128 << a.pos.king(side.other()).index();
    let checked = a.ids_of(side).any(|q| {
        q != x.attacker
            && a.square_of(q)
                .is_some_and(|s| a.pos.pseudo_targets(s) & king != 0)
    });
    checked
}

/// The note of a non-king answer to a check whose mates are none of them new (the oracle's
/// `NO_NEW_KILL`).
const NO_NEW_KILL: &str =
    "every mate it threatens stood before the opponent's check or follows any \
     answer to that check (the check's own fault, 自毙): no new kill";

/// Is the class of move `m` (legal in `pos`) a kill (殺)? The same answer as
/// `classify_after(rules, pos, m, false, earlier)?.class == MoveClass::Kill`, without the tests
/// of the classes after the kill in the order of severity (the block test of the next move
/// needs only this). `earlier` is the position before the opponent's move just before.
pub(crate) fn is_kill(rules: &RuleSet, pos: &Tracked, m: Move, earlier: Option<&Tracked>) -> bool {
    if rules.classifier == "axf" {
        return classify(rules, pos, m, None).is_ok_and(|c| c.class == MoveClass::Kill);
    }
    let mut after = pos.clone();
    after.play(m);
    let Some(mover) = pos.id_at(m.from()) else {
        return false;
    };
    for &class in &rules.severity {
        match class {
            MoveClass::Check if after.pos.is_check() => return false,
            MoveClass::Check => {}
            MoveClass::Kill => {
                let answers_check_with_king = pos.pos.is_check() && is_king(pos, mover);
                let mut az = Analyzer::new(rules);
                return threatens_mate(&mut az, pos, &after, mover)
                    && !(answers_check_with_king && rules.king_answer_idle)
                    && earlier
                        .filter(|_| answers_check_elsewhere(rules, pos, mover))
                        .is_none_or(|e| kill_is_new(&mut az, pos, &after, e));
            }
            // Another class before the kill: the full classification decides.
            _ => {
                return classify_after(rules, pos, m, false, earlier)
                    .is_ok_and(|c| c.class == MoveClass::Kill)
            }
        }
    }
    false
}

fn answer_to_check_article(rules: &RuleSet) -> String {
    ["cxa2011.26.1.2", "cxa1999.27.1.answer-to-check"]
        .iter()
        .map(|id| rules.article(id))
        .find(|a| !a.starts_with("cxa"))
        .unwrap_or_default()
}

/// The note of a check (`zh`: 將, or 照 in the Asian rules) by the move of `mover`: the piece
/// that gives it, the pieces whose check it uncovers, or those that give it with the moved piece
/// (the oracle's `check_note`).
pub(crate) fn check_note(after: &Tracked, mover: PieceId, zh: &str) -> String {
    let Some(side) = after.piece(mover).map(|p| p.color) else {
        return String::new();
    };
    let king = 1u128 << after.pos.king(side.other()).index();
    let gives = |q: PieceId| {
        after
            .square_of(q)
            .is_some_and(|s| after.pos.pseudo_targets(s) & king != 0)
    };
    let others: IdSet = after
        .ids_of(side)
        .filter(|q| *q != mover && gives(*q))
        .fold(0, |a, q| a | id_bit(q));
    let moved = piece_name(after, mover);
    if others == 0 {
        format!("{moved} gives check ({zh})")
    } else if gives(mover) {
        let others = names(after, ids_in(others));
        format!("{moved} gives double check ({zh}) with {others}")
    } else {
        // The moved piece stands between each checker and the king: it is their screen (炮架),
        // the check is made, not uncovered.
        let (Some(m_sq), k_sq) = (after.square_of(mover), after.pos.king(side.other())) else {
            return String::new();
        };
        let screens = ids_in(others).all(|q| {
            after
                .square_of(q)
                .is_some_and(|q_sq| between(q_sq, k_sq, m_sq))
        });
        let others = names(after, ids_in(others));
        if screens {
            format!("{moved} becomes the screen of a check ({zh}) by {others}")
        } else {
            format!("{moved} uncovers a check ({zh}) by {others}")
        }
    }
}

/// Is `m` strictly between `a` and `b` on their file or rank (the oracle's `between`)?
fn between(a: Square, b: Square, m: Square) -> bool {
    fn inside<T: Ord + Copy>(x: T, y: T, z: T) -> bool {
        x.min(y) < z && z < x.max(y)
    }
    (a.file() == b.file() && m.file() == a.file() && inside(a.rank(), b.rank(), m.rank()))
        || (a.rank() == b.rank() && m.rank() == a.rank() && inside(a.file(), b.file(), m.file()))
}

/// The article of the order of severity (27.4 / 2011 26.4), if the rule set has one (the
/// oracle's `severity_article`).
fn severity_article(rules: &RuleSet) -> Option<String> {
    ["cxa2011.26.4", "cxa1999.27.4"]
        .iter()
        .map(|id| rules.article(id))
        .find(|a| !a.starts_with("cxa"))
}

/// The pieces a move judged a chase also offers (兑（献）兼捉; the oracle's `offered_besides`):
/// the targets of its new threats that are exchange offers (`offers`), the partners of the
/// exchange pairs it creates and the pieces it is put unprotected for ([`offered_to`]).
fn offered_besides(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    m: Move,
    mover: PieceId,
    offers: &[Threat],
) -> IdSet {
    offers
        .iter()
        .map(|x| x.target)
        .chain(exchange_with(az, before, after, mover))
        .chain(offered_to(az, after, m.to(), mover))
        .fold(0, |a, e| a | id_bit(e))
}

/// A move judged a chase or a kill that also offers `besides` is judged by the heavier nature
/// (27.4 / 2011 26.4: 兑（献）兼捉，判捉；兑（献）兼杀，判杀; the oracle's `heavier_nature`): the
/// article is cited and the note says what else the move does.
fn heavier_nature(rules: &RuleSet, after: &Tracked, base: &mut Classification, besides: IdSet) {
    if besides == 0 {
        return;
    }
    let Some(art) = severity_article(rules) else {
        return;
    };
    push_unique(&mut base.articles, art);
    base.note = format!(
        "{}; it is also an exchange or offer (兑/獻) with {}: the heavier nature decides (從重)",
        base.note,
        names(after, ids_in(besides))
    );
}

fn squares(b: &Tracked, ids: impl Iterator<Item = PieceId>) -> Vec<Square> {
    let mut v: Vec<Square> = ids.filter_map(|id| b.square_of(id)).collect();
    v.sort();
    v.dedup();
    v
}

/// The 2011 26.8 qualifiers of a chase's threats.
fn qualifiers(b: &Tracked, chases: &[Threat]) -> Vec<String> {
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
fn is_attacking_piece(b: &Tracked, id: PieceId) -> bool {
    matches!(role_id(b, id), "rook" | "horse" | "cannon") || (is_pawn(b, id) && is_material(b, id))
}

/// The chase test (28.3, 29.1–29.4; 2011 24.3) with the newness rule (29.2) and the
/// exceptions 27.1–27.3 (2011 26.1, 26.1.1, 26.1.2, 26.2).
fn chase_test(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
    king_answer: Option<&'static str>,
    context: Context,
) -> ChaseTest {
    let rules = az.rs;
    let me = before.pos.turn();
    let checker = None;
    let exchange_partners: IdSet = new_exchange_pairs(az, before, after, mover, true)
        .into_iter()
        .fold(0, |a, (_, e)| a | id_bit(e));
    let passed = after.passed();
    // The threats are found, and the joint lines of checks marked, in the context of the move.
    let in_context = |az: &mut Analyzer<'_>, f: &mut dyn FnMut(&mut Analyzer<'_>)| {
        az.with_moved(mover, before, |az| {
            if rules.kill_avoids_offered {
                az.with_offered(exchange_partners, |az| f(az))
            } else {
                f(az)
            }
        })
    };
    let mut after_threats = Vec::new();
    in_context(az, &mut |az| after_threats = az.threats(&passed, checker));
    // The pieces a line could win that the line's name hides (reading
    // `newness-of-a-line-of-checks`), and those whose every direct capture 26.5 leaves out: a
    // line of checks may win them still (reading `pinned-departure`).
    // What 26.5 makes of each direct threat, computed once (the oracle's `departures`).
    let mut departures: Vec<((PieceId, PieceId), Departure)> = Vec::new();
    let unlisted = departing_targets(az, before, after, &after_threats, mover, &mut departures);
    let mut hidden = Vec::new();
    in_context(az, &mut |az| {
        hidden = az.hidden_line_threats(&passed, &after_threats, unlisted);
    });
    hidden.retain(|y| {
        unlisted & id_bit(y.target) == 0 || line_clears_departure(az, before, after, y, mover)
    });
    after_threats.extend(hidden);
    in_context(az, &mut |az| {
        az.mark_joint_lines(&passed, &mut after_threats)
    });
    // Each threat's acceptance, asked once (the oracle's `added`).
    let mut offers = Vec::new();
    let mut now = Vec::new();
    let mut added: Vec<(PieceId, PieceId)> = Vec::new();
    for t in after_threats
        .into_iter()
        .filter(|t| is_material(after, t.target))
    {
        match acceptance(az, before, after, &t, mover) {
            Acceptance::Offer => offers.push(t),
            Acceptance::AddedParticipant => {
                added.push(t.key());
                now.push(t);
            }
            _ => now.push(t),
        }
    }
    let mut t = ChaseTest {
        chases: Vec::new(),
        pawn_only: Vec::new(),
        articles: Vec::new(),
        note: String::new(),
        idle_move: false,
        offers: Vec::new(),
    };
    let participates = |x: &Threat| x.attacker == mover || x.necessary & id_bit(mover) != 0;
    let mut offered: IdSet = offers.iter().fold(0, |a, x| a | id_bit(x.target));
    offered |= exchange_partners;
    let now: Vec<Threat> = now
        .into_iter()
        .filter(|x| x.first_capture.is_none_or(|c| offered & id_bit(c) == 0))
        .collect();
    // Newness (29.2): was the threat one of the threats before the move? Asked only of the
    // threats there are now.
    for x in offers {
        if !stood_before(az, before, mover, context, &x).0 {
            t.offers.push(x);
        }
    }
    // A pawn's or the king's standing capture that now gives another piece's check, and did
    // not before the move: a chase the move makes (the oracle's `check_added`).
    let check_added = |x: &Threat| {
        rules.exemption_by_capturer
            && !x.via_checks
            && (is_pawn(after, x.attacker) || is_king(after, x.attacker))
            && capture_checks_by_another(after, x)
            && !capture_checks_by_another(&before.passed(), x)
    };
    let mut new: Vec<Threat> = Vec::new();
    let mut pinned = false;
    // Whether the context of the move decided the newness of a threat (the oracle's
    // `by_context`): it is then cited.
    let mut by_context = false;
    for x in &now {
        // A joint chase is renewed by a move of a piece it needs; a line of checks is judged by
        // what it can win (reading `joint-chase-renewed`; the oracle's `chase_test`).
        let joint_renewed =
            rules.joint_chase_renewed && x.joint && !x.via_checks && participates(x);
        let stood = if joint_renewed {
            true
        } else {
            let (stood, context_decided) = stood_before(az, before, mover, context, x);
            by_context |= context_decided;
            stood
        };
        if joint_renewed || !stood || check_added(x) || (!x.via_checks && added.contains(&x.key()))
        {
            new.push(*x);
        } else if rules.pin_renews_chase
            && !x.via_checks
            && x.attacker != mover
            && !(rules.exemption_by_capturer && (x.captured_by_kings || x.captured_by_pawns))
            && keeps_pinned(az, after, x.target, mover)
        {
            // A standing threat to a piece the mover keeps pinned is renewed by the move,
            // jointly with the capturer (reading `pinned-target-cannot-accept`), unless only
            // the king or only pawns take the target (reading `exemption-by-capturer`).
            let mut y = *x;
            y.joint = true;
            y.necessary |= id_bit(mover);
            pinned = true;
            new.push(y);
        }
    }
    if pinned {
        t.articles.push(rules.article("cxa2011.26.9"));
    }
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
        let mut kept = Vec::with_capacity(new.len());
        for x in new {
            let d = if x.via_checks {
                departure_costs(az, before, after, &x, mover)
            } else {
                departure_once(az, before, after, &x, mover, &mut departures)
            };
            // (a piece that pins the answer the departure would give takes part: reading
            // `joint-chase-necessary`, the pin through 26.5)
            let x = if d == Departure::Costs {
                x
            } else {
                with_departure_partners(az, before, after, x, mover)
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
    // The article of newness in context, looked up only when the context decided.
    let context_art = || answer_to_check_article(rules);
    if new.is_empty() {
        let stood: Vec<&Threat> = now
            .iter()
            .filter(|x| !departing.contains(&x.key()))
            .collect();
        if !stood.is_empty() {
            t.articles.push(rules.article("cxa1999.29.2"));
            if by_context {
                t.articles.push(context_art());
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
    // With `exemption_by_capturer` (2011 26.1, 26.7) the exemption belongs to the pieces that
    // win the material, not to the first piece of a line of checks.
    // A pawn (or the king) that wins a piece at the end of other pieces' checks takes it with
    // their help, and is idle all the same (2011 26.7: 兵借其他子抽吃, reading
    // `joint-line-of-checks`).
    let by_capturer = rules.exemption_by_capturer;
    // A pawn's (or the king's) capture that gives another piece's check takes the target with
    // that piece's help: a chase (2011 26.7 second sentence, 26.1.1). Each such direct threat,
    // tested once (the oracle's `discovered`).
    let discovered: Vec<(PieceId, PieceId)> = if by_capturer {
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
    // Asked only of threats credited to a pawn or the king (the position with the mover to
    // move made on first need).
    let mover_to_move = std::cell::OnceCell::new();
    let kings_power =
        |x: &Threat| capture_needs_the_king(rules, mover_to_move.get_or_init(|| after.passed()), x);
    let alone = |x: &Threat| {
        (!x.joint || (by_capturer && x.via_checks)) && !helped_by_check(x) && !kings_power(x)
    };
    let credited_to_king = |x: &Threat| {
        if by_capturer {
            x.captured_by_kings
        } else {
            is_king(after, x.attacker)
        }
    };
    let credited_to_pawn = |x: &Threat| {
        if by_capturer {
            x.captured_by_pawns
        } else {
            is_pawn(after, x.attacker)
        }
    };
    let by_king = |x: &Threat| credited_to_king(x) && alone(x);
    let by_pawn = |x: &Threat| credited_to_pawn(x) && alone(x);
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
    if let Some(scope) = &rules.key_point_scope {
        let attackers: Vec<PieceId> = after
            .ids_of(me)
            .filter(|id| is_attacking_piece(after, *id))
            .collect();
        let minor = |x: &Threat| matches!(role_id(after, x.target), "advisor" | "elephant");
        // 守和方: only the side holding out for a draw, whose opponent attacks with more, or with
        // as much and has at least as much material in all (readings `key-point-2011`,
        // `defensive-key-point`).
        let force = |side: Color, attacking_only: bool| -> f64 {
            after
                .ids_of(side)
                .filter(|id| {
                    is_material(after, *id) && (!attacking_only || is_attacking_piece(after, *id))
                })
                .map(|id| strength(rules, after, id))
                .sum()
        };
        let defending = || {
            let (theirs, mine) = (force(me.other(), true), force(me, true));
            theirs > mine || (theirs == mine && force(me.other(), false) >= force(me, false))
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
            .collect::<BTreeSet<_>>()
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
        .filter_map(|x| acceptance(az, before, after, x, mover).article())
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
        .any(|x| (credited_to_king(x) || credited_to_pawn(x)) && kings_power(x))
    {
        push_edition_article(rules, &mut t.articles, &["cxa2011.26.1.1", "cxa1999.27.1"]);
    }
    // A pawn's or the king's capture that gives another piece's check (26.7, second sentence).
    if chases.iter().any(helped_by_check) {
        push_edition_article(rules, &mut t.articles, &["cxa2011.26.7", "cxa1999.27.2"]);
    }
    if by_context {
        push_unique(&mut t.articles, context_art());
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
    note.push_str(&format!(
        ": chase ({})",
        rules.class_article(MoveClass::Chase)
    ));
    t.note = note;
    t.chases = chases;
    t
}

/// What the classification of a move knows of the moves before it (the oracle's `Context`).
#[derive(Clone, Copy)]
struct Context<'a> {
    /// The opponent's move just before was a kill (殺).
    previous_is_kill: bool,
    /// The position before the opponent's move just before.
    earlier: Option<&'a Tracked>,
}

/// Did the threat `key` (attacker, target) stand before the move (29.2 从捉到捉; the oracle's
/// `OldThreats`), and did the context of the move decide it (`OldThreats::by_context`)? A threat of the mover's side in `before`, except, after the opponent's kill
/// with `newness_in_context`, a direct capture that does not parry the mate; or (also with
/// `newness_in_context`) a threat that stood before the opponent's check that a piece other
/// than the king answers (2011 26.1.2, reading `newness-in-context`).
fn stood_before(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    mover: PieceId,
    context: Context,
    x: &Threat,
) -> (bool, bool) {
    let key = x.key();
    let in_context = az.rs.newness_in_context;
    let direct = az.is_direct_threat(before, key);
    if direct {
        let undone = in_context && context.previous_is_kill && capture_allows_mate(az, before, key);
        if !undone {
            return (true, false);
        }
        // The capture won nothing (the game was lost first), but a line of checks that could
        // win the piece still stood (reading `newness-of-a-line-of-checks`; the oracle's
        // `OldThreats::contains`).
        return (x.via_checks && az.line_can_win(before, key.1), true);
    }
    if az.has_check_threat(before, key) {
        return (true, false);
    }
    // A line of checks that won the same piece before, whichever piece opened it, or could win
    // it were it the only piece the line's end counts (reading `newness-of-a-line-of-checks`).
    let won_by_a_line = |az: &mut Analyzer<'_>| {
        x.via_checks && (az.has_check_threat_to(before, key.1) || az.line_can_win(before, key.1))
    };
    if !in_context || !before.pos.is_check() || is_king(before, mover) {
        return (won_by_a_line(az), false);
    }
    if context
        .earlier
        .is_some_and(|e| az.has_threat(&e.passed(), key))
    {
        return (true, true);
    }
    if context.earlier.is_some() && laid_open_by_the_check(az, before, key) {
        return (true, true);
    }
    (won_by_a_line(az), false)
}

/// Reading `newness-in-context`, fourth part, for chases (24.18 自毙, 26.3; the oracle's
/// `laid_open_by_the_check`): is `key` (attacker, target) a threat by a line of consecutive checks
/// of the side in check in `before` that the opponent's check laid open, as its mates are: one its
/// side has after an answer of the king (which adds nothing of its own, 26.1.2) or after every
/// legal answer, that answer leaving it a mate by consecutive checks (24.18's killed state)? It is
/// the checker's fault, no new chase of a non-king answer; a direct capture the check laid open,
/// or a line without the killed state, is (24.18: the answer may be a chase).
fn laid_open_by_the_check(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    key: (PieceId, PieceId),
) -> bool {
    let plies = az.rs.kill_search_depth;
    let mut every = true;
    let mut any = false;
    for &r in before.pos.legal_moves().iter() {
        let by_king = id_at(before, r.from()).is_some_and(|p| is_king(before, p));
        let mut a = before.clone();
        a.play(r);
        let a = a.passed();
        let has = az.mate_by_checks(&a, plies) && az.has_check_threat(&a, key);
        if has && by_king {
            return true;
        }
        every &= has;
        any = true;
    }
    any && every
}

/// Does the direct capture `key` (attacker, target) in `b` (its side to move) leave the other
/// side a mate by consecutive checks within the kill search (24.2)? It does not parry a kill.
fn capture_allows_mate(az: &mut Analyzer<'_>, b: &Tracked, key: (PieceId, PieceId)) -> bool {
    let (Some(from), Some(to)) = (b.square_of(key.0), b.square_of(key.1)) else {
        return false;
    };
    let mut a = b.clone();
    a.play(Move::new(from, to));
    let plies = az.rs.kill_search_depth;
    az.mate_by_checks(&a, plies)
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

fn names(b: &Tracked, ids: impl Iterator<Item = PieceId>) -> String {
    let mut v: Vec<String> = ids.map(|id| piece_name(b, id).to_string()).collect();
    v.sort();
    v.dedup();
    v.join(", ")
}

/// 28.5 / 24.4 and 2011 26.9: a threat between two pieces of equal value that can take each
/// other is an exchange offer (兑), not a chase, unless accepting it loses the accepting side
/// material or gets it mated at once. The partner the target takes may be a second attacker
/// (2011 26.10.2), unless the gain needs a further piece besides the partner and one other
/// (车方增加其他参与子力并产生新的兑兼捉: a chase).
fn is_exchange_offer(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    t: &Threat,
    mover: PieceId,
) -> bool {
    acceptance(az, before, after, t, mover) == Acceptance::Offer
}

/// Whether the target of a threat can accept an exchange instead (24.4, 26.9, 26.10.2), as the
/// oracle's `acceptance`.
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
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    t: &Threat,
    mover: PieceId,
) -> Acceptance {
    let rules = az.rs;
    if t.via_checks || is_pawn(after, t.target) {
        return Acceptance::None;
    }
    let Some(t_sq) = after.square_of(t.target) else {
        return Acceptance::None;
    };
    let Some(me) = after.piece(t.attacker).map(|p| p.color) else {
        return Acceptance::None;
    };
    let them = me.other();
    let v = value(rules, after, t.target);
    // The pieces in contact with the target (产生接触): those that can take it.
    let contact = can_capture(after, me, t_sq);
    let contact_set = contact.iter().fold(0, |a, &q| a | id_bit(q));
    let mut found = Acceptance::None;
    for p in contact {
        let p_sq = after.square_of(p).expect("on board");
        let partner = value(rules, after, p) == v
            && can_capture(after, them, p_sq).contains(&t.target)
            && (p == t.attacker || (t.joint && t.necessary & id_bit(mover) != 0));
        if !partner {
            continue;
        }
        // The needed pieces in contact besides the partner (the rook of 26.10); a screen or a
        // piece that pins a protector is not in contact.
        let others = (t.necessary & contact_set & !id_bit(p)).count_ones();
        if !accepts(az, after, t.target, p) {
            // Taking the partner costs the target's side (其"根"有损失): no offer.
            if found == Acceptance::None {
                found = Acceptance::Refused {
                    jointly: others > 0,
                    same_kind: role_id(after, p) == role_id(after, t.target),
                };
            }
        } else if others <= 1 && !added_elsewhere(az, before, after, t, p, mover, contact_set) {
            return Acceptance::Offer;
        } else {
            found = Acceptance::AddedParticipant;
        }
    }
    found
}

/// 2011 26.10.2 (增加其他参与子力并产生新的兑兼捉) and 26.4 (兑兼捉): the threat is won only
/// the moved piece is neither the partner `p`, nor in contact with the target, nor the screen of
/// a piece that reaches it; it is needed for a gain won only across two squares or takes part in
/// what is won after the like exchange; and the pair stood as an exchange before the move (the
/// oracle's `added_elsewhere`).
fn added_elsewhere(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    t: &Threat,
    p: PieceId,
    mover: PieceId,
    contact: IdSet,
) -> bool {
    let (Some(t_sq), Some(m_sq)) = (after.square_of(t.target), after.square_of(mover)) else {
        return false;
    };
    mover != p
        && contact & id_bit(mover) == 0
        && !is_screen_for(after, &after.without(m_sq), mover, t_sq)
        && ((t.necessary & id_bit(mover) != 0
            && !az.wins_by_capture(&after.passed(), t.target, false))
            || takes_part_after_the_exchange(before, after, t.target, p))
        && !new_exchange_pairs(az, before, after, mover, true).contains(&(p, t.target))
}

/// The oracle's `takes_part_after_the_exchange`: after the partner `p` takes `target` and the
/// other side takes back there, has the mover's side a capture elsewhere that the same
/// exchange played before the move does not give it?
fn takes_part_after_the_exchange(
    before: &Tracked,
    after: &Tracked,
    target: PieceId,
    p: PieceId,
) -> bool {
    let b = after.passed();
    let (Some(t_sq), Some(p_sq)) = (b.square_of(target), b.square_of(p)) else {
        return false;
    };
    let take = Move::new(p_sq, t_sq);
    if before.square_of(p) != Some(p_sq)
        || before.square_of(target) != Some(t_sq)
        || !before.pos.is_legal(take)
    {
        return false;
    }
    // The captures of the side to move in `x`, but for one on `t_sq`: (capturer, captured).
    let captures = |x: &Tracked| -> Vec<(PieceId, PieceId)> {
        x.pos
            .legal_moves()
            .iter()
            .filter(|m| m.to() != t_sq)
            .filter_map(|m| Some((id_at(x, m.from())?, id_at(x, m.to())?)))
            .collect()
    };
    let mut e = b.clone();
    e.play(take);
    let mut e_before = before.clone();
    e_before.play(take);
    let recaptures = e.pos.legal_moves();
    recaptures.iter().filter(|r| r.to() == t_sq).any(|&r| {
        if !e_before.pos.is_legal(r) {
            return false;
        }
        let mut now = e.clone();
        now.play(r);
        let mut then = e_before.clone();
        then.play(r);
        let old = captures(&then);
        captures(&now).iter().any(|c| !old.contains(c))
    })
}

/// The enemy pieces the move offers in exchange: the partners of the exchange pairs it creates
/// and the targets of its threats that are exchange offers: the moved piece's own, and another
/// piece's that did not stand before the move (the oracle's `offered_pieces`).
fn offered_pieces(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
) -> IdSet {
    let mut out: IdSet = new_exchange_pairs(az, before, after, mover, true)
        .into_iter()
        .fold(0, |a, (_, e)| a | id_bit(e));
    let passed = after.passed();
    for t in az.with_moved(mover, before, |az| az.threats(&passed, None)) {
        // (another piece's offer that stood before the move is not the move's: 从捉到捉)
        if is_material(after, t.target)
            && is_exchange_offer(az, before, after, &t, mover)
            && (t.attacker == mover || !az.is_direct_threat(before, t.key()))
        {
            out |= id_bit(t.target);
        }
    }
    out
}

/// 28.5 / 24.4 exchange: the moved piece (or a new pair the move makes) and an enemy piece of
/// equal material value can take each other; the enemy pieces, as the oracle's `exchange_with`.
fn exchange_with(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
) -> Vec<PieceId> {
    // 2011 26.9: a pair whose target cannot accept is no exchange (the oracle's
    // `exchange_with`).
    let mut new = new_exchange_pairs(az, before, after, mover, true);
    if az.rs.exchange_needs_acceptance {
        new.retain(|&(x, e)| accepts(az, after, e, x));
    }
    // The pairs of the moved piece if there are any, else all (every one of them: which pair is
    // listed first depends on the order of the pieces, so on the side and the wing).
    let own = new.iter().any(|(x, _)| *x == mover);
    new.into_iter()
        .filter(|(x, _)| !own || *x == mover)
        .map(|(_, e)| e)
        .collect()
}

/// The pairs (own piece, enemy piece) of equal material value that can take each other after
/// the move and could not before (or are offered anew). With `legal_take_back` the enemy
/// piece's capture back must be a legal move; without, its movement rule allowing it is enough
/// (26.9: a target pinned to its king is offered the exchange and cannot accept it).
fn new_exchange_pairs(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
    legal_take_back: bool,
) -> Vec<(PieceId, PieceId)> {
    // One classification asks for the pairs up to three times (chase, exchange, kill).
    let key = (
        before.value_hash(),
        after.value_hash(),
        mover.0,
        legal_take_back,
    );
    if let Some((k, v)) = &az.exchange_pairs_memo {
        if *k == key {
            return v.clone();
        }
    }
    let rules = az.rs;
    let me = after.piece(mover).expect("mover on board").color;
    let pairs = |az: &mut Analyzer<'_>, b: &Tracked| -> Vec<(PieceId, PieceId)> {
        // Every capture of `me` once (in the oracle's order: by the capturer's id, then by
        // `capturable_by`), kept when the two pieces are material of equal value and the enemy
        // piece could take back the other way.
        let mut theirs: Option<Tracked> = None;
        let mut out = Vec::new();
        for &m in az.captures(&b.with_turn(me)).iter() {
            let (Some(x), Some(e)) = (id_at(b, m.from()), id_at(b, m.to())) else {
                continue;
            };
            let takes_back = |theirs: &mut Option<Tracked>| {
                if legal_take_back {
                    theirs
                        .get_or_insert_with(|| b.with_turn(me.other()))
                        .pos
                        .is_legal(Move::new(m.to(), m.from()))
                } else {
                    reach_of(b, e) & (1u128 << m.from().index()) != 0
                }
            };
            if is_material(b, x)
                && !is_pawn(b, x)
                && is_material(b, e)
                && value(rules, b, e) == value(rules, b, x)
                && takes_back(&mut theirs)
            {
                out.push((x, e));
            }
        }
        out
    };
    let old = pairs(az, before);
    // Can the other side win `x` by taking it (in any order: a yes/no answer)?
    let won = |az: &mut Analyzer<'_>, b: &Tracked, x: PieceId| {
        let mut t = b.with_turn(me.other());
        let sq = b.square_of(x).expect("on board");
        let vx = value(rules, b, x);
        for m in captures_on(&t, sq) {
            let u = t.play_undo(m);
            let g = vx - az.see(&mut t, sq, 8);
            t.undo(m, u);
            if g > 0.0 {
                return true;
            }
        }
        false
    };
    let mut out = Vec::new();
    for p in pairs(az, after) {
        if !old.contains(&p) || (won(az, before, p.0) && !won(az, after, p.0)) {
            out.push(p);
        }
    }
    az.exchange_pairs_memo = Some((key, out.clone()));
    out
}

/// 2011 26.9: the enemy pieces of the new pairs of one kind that cannot accept the exchange;
/// the move chases them (the oracle's `refused_offers`).
fn refused_offers(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    mover: PieceId,
) -> Vec<PieceId> {
    if !az.rs.exchange_needs_acceptance {
        return Vec::new();
    }
    let mut out: Vec<PieceId> = Vec::new();
    // The pairs whose target may not legally take back too (a target pinned to its king cannot
    // accept).
    for (x, e) in new_exchange_pairs(az, before, after, mover, false) {
        if role_id(after, x) == role_id(after, e) && !accepts(az, after, e, x) {
            out.push(e);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The 2011 26.8 qualifiers of the chases by exchanges the target cannot accept (26.9; the
/// oracle's `refused_qualifiers`): a rook, or by what protects the target on the board (24.15).
fn refused_qualifiers(b: &Tracked, refused: &[PieceId]) -> Vec<String> {
    refused
        .iter()
        .map(|e| single_qualifier(role_id(b, *e) == "rook", cover_on_board(b, *e)).to_string())
        .collect()
}

/// The note of a chase by an exchange the target cannot accept (2011 26.9; the oracle's
/// `refused_note`).
fn refused_note(names: &str) -> String {
    format!(
        "offers {names} an exchange of pieces of one kind that it cannot accept (taking is \
         illegal, loses value or is mated at once: 兑子后立即被杀或子力价值受损): chase (26.9)"
    )
}

/// 2011 26.9: can `e` take `x` (its equal) so that its side loses no value in the exchange that
/// follows and is not then killed (杀: mated by consecutive checks within the kill search)? (The
/// oracle's `accepts`.)
fn accepts(az: &mut Analyzer<'_>, b: &Tracked, e: PieceId, x: PieceId) -> bool {
    let (Some(e_sq), Some(x_sq), Some(pe)) = (b.square_of(e), b.square_of(x), b.piece(e)) else {
        return false;
    };
    let mut a = b.with_turn(pe.color);
    let m = Move::new(e_sq, x_sq);
    if !a.pos.is_legal(m) {
        return false;
    }
    let v = value(az.rs, b, x);
    a.play(m);
    // 兑子后立即被杀 (26.9): where the rule set reads 26.9, the acceptance must not leave the
    // other side a kill (杀, 24.2: a mate by consecutive checks within the kill search), not
    // only a mate at once (reading `exchange-acceptance-kill`).
    if v - az.see(&mut a, x_sq, 8) < 0.0 {
        return false;
    }
    let killed = if az.rs.exchange_needs_acceptance {
        az.mate_by_checks(&a, az.rs.kill_search_depth)
    } else {
        az.mates_at_once(&mut a)
    };
    if killed {
        return false;
    }
    let Some(px) = b.piece(x) else {
        return true;
    };
    let mut standing = b.with_turn(px.color);
    if answer_opened_by(az, &mut standing, &mut a, x_sq, v) > v {
        return false;
    }
    // A line of checks after the acceptance must win more than the piece taken and what the
    // offering side could win anyway (the oracle's `accepts`); that is asked only of a line
    // that wins more than the piece.
    if !az.capture_lost_to_checks(&mut a, x_sq, v) {
        return true;
    }
    let anyway = az.gain_now(&mut standing);
    !az.capture_lost_to_checks(&mut a, x_sq, v + anyway)
}

/// What the offering side wins at best by answering an acceptance elsewhere than on the
/// partner's point `sq` (the oracle's `answer_opened_by`): a capture in `a` (after the
/// acceptance) that did not win material in `standing` (the offer standing, the offering side
/// to move), counted over the exchange on its point, not mated at once. Exact up to `enough`:
/// once an answer wins more, the rest are not tried (an answer wins at most the piece it takes,
/// so a capture worth no more than the best so far is not tried either).
fn answer_opened_by(
    az: &mut Analyzer<'_>,
    standing: &mut Tracked,
    a: &mut Tracked,
    sq: Square,
    enough: f64,
) -> f64 {
    let mut best = 0.0;
    let captures = az.captures(a);
    for &c in captures.iter() {
        if best > enough {
            break;
        }
        let Some(victim) = id_at(a, c.to()).filter(|&v| c.to() != sq && is_material(a, v)) else {
            continue;
        };
        let worth = value(az.rs, a, victim);
        if worth <= best || az.wins_on(standing, c.to()) {
            continue;
        }
        best = az.better_answer(a, c, worth, best);
    }
    best
}

/// Does `mover`, where it stands in `after`, hold `target` on its square? (The oracle's
/// `keeps_pinned`, reading `pinned-target-cannot-accept`: every move of the target is illegal
/// because of the mover, or lets the mover mate at once or win more than the move took plus
/// what the mover could win elsewhere.)
fn keeps_pinned(az: &mut Analyzer<'_>, after: &Tracked, target: PieceId, mover: PieceId) -> bool {
    let (Some(sq), Some(m_sq), Some(p)) = (
        after.square_of(target),
        after.square_of(mover),
        after.piece(target),
    ) else {
        return false;
    };
    if is_king(after, mover) {
        return false;
    }
    let rules = az.rs;
    let by_mover = |x: &[Threat]| {
        x.iter()
            .filter(|x| x.attacker == mover)
            .map(|x| x.gain)
            .fold(0.0, f64::max)
    };
    let stay = after.with_turn(p.color.other());
    // Only the mover's threats count here: asked with the mover as the checker, the lines of
    // checks other pieces open are not searched (the direct threats are all found, as they
    // decide which lines count, and a line's worth does not depend on the others).
    let elsewhere: Vec<Threat> = az
        .threats(&stay, Some(mover))
        .into_iter()
        .filter(|x| x.target != target && x.line_wins & id_bit(target) == 0)
        .collect();
    let elsewhere = by_mover(&elsewhere);
    let t = after.with_turn(p.color);
    let free = t.without(m_sq);
    let mut departures = t.pos.pseudo_targets(sq);
    if departures == 0 {
        return false;
    }
    while departures != 0 {
        let to = Square::new_unchecked(departures.trailing_zeros() as u8);
        departures &= departures - 1;
        let d = Move::new(sq, to);
        if !t.pos.is_legal(d) {
            if !free.pos.is_legal(d) {
                return false;
            }
            continue;
        }
        let took = id_at(&t, to).map_or(0.0, |v| value(rules, &t, v));
        let mut a = t.clone();
        a.play(d);
        if az.mate_opened_by(&a, rules.mated_at_once_plies, 0, mover)
            || by_mover(&az.threats(&a, Some(mover))) > took + elsewhere
        {
            continue;
        }
        return false;
    }
    true
}

/// 28.6 / 24.5 offer: the moved piece, unprotected, can be taken by an enemy piece (of the same
/// type under 1999 28.6; any under 2011 24.5, `offer_any_taker`), and taking it costs the taker
/// nothing at once. Every such taker (none: no offer).
fn offered_to(az: &mut Analyzer<'_>, after: &Tracked, to: Square, mover: PieceId) -> Vec<PieceId> {
    let rules = az.rs;
    if !is_material(after, mover) || rules.floating_pawn_value < 0.0 {
        return Vec::new();
    }
    let Some(mp) = after.piece(mover) else {
        return Vec::new();
    };
    let (me, role) = (mp.color, mp.role);
    can_capture(after, me.other(), to)
        .into_iter()
        .filter(|e| {
            after
                .piece(*e)
                .is_some_and(|p| rules.offer_any_taker || p.role == role)
                && {
                    let from = after.square_of(*e).expect("on board");
                    let mut a = after.clone();
                    a.play(Move::new(from, to));
                    can_capture(&a, me, to).is_empty() && !az.mates_at_once(&mut a)
                }
        })
        .collect()
}

/// 28.8 / 24.7 follow: the moved piece now keeps in view a protected enemy piece (it could
/// take it, without gain) that it did not before.
fn followed(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    m: Move,
    mover: PieceId,
) -> Option<PieceId> {
    let rules = az.rs;
    let me = after.piece(mover)?.color;
    let mine = after.with_turn(me);
    let earlier = capturable_by(before, m.from());
    let in_view = capturable_by(&mine, m.to());
    in_view.into_iter().find(|e| {
        is_material(after, *e) && !earlier.contains(e) && {
            let sq = after.square_of(*e).expect("on board");
            let mut a = mine.clone();
            a.play(Move::new(m.to(), sq));
            let protected = !can_capture(&a, me.other(), sq).is_empty();
            let open = mine.without(sq);
            let behind = capturable_by(&open, m.to()).into_iter().any(|x| {
                x != *e && !is_king(after, x) && !in_view.contains(&x) && {
                    let xs = open.square_of(x).expect("on board");
                    let vx = value(rules, &open, x);
                    let mut c = open.clone();
                    c.play(Move::new(m.to(), xs));
                    vx - az.see(&mut c, xs, 8) > 0.0
                }
            });
            protected && behind && held(az, after, sq, m.to()) && rules.floating_pawn_value >= 0.0
        }
    })
}

/// 牵 (28.8 / 24.7, reading `follow-pin`): the piece on `sq` cannot step aside without loss:
/// after each of its legal moves, the follower on `follower` can win material with a capture
/// (gain after the complete exchange, not mated at once, 29.4 / 24.3).
fn held(az: &mut Analyzer<'_>, after: &Tracked, sq: Square, follower: Square) -> bool {
    let rules = az.rs;
    let mut a = after.clone();
    let departures: Vec<Move> = a
        .pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|d| d.from() == sq)
        .collect();
    for d in departures {
        let ud = a.play_undo(d);
        let takes: Vec<Move> = a
            .pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|c| c.from() == follower)
            .collect();
        let mut wins = false;
        for c in takes {
            let Some(victim) = id_at(&a, c.to()) else {
                continue;
            };
            let v = value(rules, &a, victim);
            let uc = a.play_undo(c);
            let ok = v - az.see(&mut a, c.to(), 8) > 0.0 && !az.mates_at_once(&mut a);
            a.undo(c, uc);
            if ok {
                wins = true;
                break;
            }
        }
        a.undo(d, ud);
        if !wins {
            return false;
        }
    }
    true
}

/// 28.7 / 24.6 block: the enemy pieces the moved piece stands in the way of, all of them (the
/// oracle's `blocked`).
fn blocked(after: &Tracked, to: Square, them: Color) -> Vec<PieceId> {
    let open = after.without(to);
    let tb = 1u128 << to.index();
    after
        .ids_of(them)
        .filter(|id| !is_king(after, *id))
        .filter(|id| {
            let now = reach_of(after, *id);
            let free = reach_of(&open, *id);
            free & !tb & !now != 0
        })
        .collect()
}

impl crate::Position {
    /// The class of move `m` in this position under `rules` (art. 28 / 2011 24), without the
    /// context of earlier moves: pieces are numbered afresh (see [`Tracked::new`]) and no
    /// previous move is known, so a block (攔, which answers a kill) is never found.
    ///
    /// ```
    /// use xiangqi_rules::judge::{Builtin, MoveClass, RuleSet};
    /// use xiangqi_rules::{Move, Position, RankConvention};
    ///
    /// let rules = RuleSet::builtin("cxa-2011").unwrap();
    /// // The rook attacks the unprotected horse on g7: a chase (捉).
    /// let pos = Position::from_fen("3aka3/9/6n2/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
    /// let m = Move::parse_iccs("f0f7", RankConvention::Iccs).unwrap();
    /// let c = pos.classify(m, rules).unwrap();
    /// assert_eq!(c.class, MoveClass::Chase);
    /// assert_eq!(c.qualifiers, ["unprotected"]);
    /// ```
    pub fn classify(&self, m: Move, rules: &RuleSet) -> Result<Classification, JudgeError> {
        classify(rules, &Tracked::new(self.clone()), m, None)
    }
}
