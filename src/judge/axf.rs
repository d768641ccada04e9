//! The Asian (AXF) rules (`spec/rules/axf.yaml`, `judge.classifier: axf`) at engine speed: the
//! nature of one move by the piece-pair chase of 第三節 3–9, and the marking of perpetual chases
//! of one piece (第三節 3–5). A port of the oracle's `judge/axf.rs` on the bitboard position:
//! the same classes, targets, articles, qualifiers and notes (differential tests:
//! `tests/classify_diff.rs`, `tests/judge_diff.rs`).
//!
//! The cycle (`cycle_span: all`: every move since the position first occurred), the patterns
//! and the ruling table are those of the generic judge; only the classification differs from
//! the CXA exchange test:
//!
//! - a **check** (照) is a check;
//! - a **chase** (捉) is a new legal attack (absent before the move) by a piece other than the
//!   king or a pawn (第三節 9) on an enemy piece other than the king or an uncrossed pawn
//!   (第三節 3), when the target is unprotected (a false root 假根 protects nothing, 第四節 34),
//!   or is a rook attacked by a horse or a cannon (第三節 6; the spec names the pieces), or is of the attacker's type, cannot
//!   take back and has no true protector (第三節 6–7, 第四節 24, 27); an attack that stood before
//!   the move is a chase too when the move takes the target's true protection away (pins the
//!   protector or makes the recapture illegal, 第四節 34; cuts the protector's line, AXF appendix
//!   "Example of Perpetual Chase", unless the move also parries a chase), a move that parries a
//!   mate on the capture excepted;
//! - a **kill** (殺) threatens mate by consecutive checks; allowed in every AXF pattern;
//! - an **exchange** (兌/獻) creates a same-type attack that the target can answer by taking;
//! - anything else is **idle** (閒), a threat to win material by a check (要抽吃) included
//!   (第三節 10).
//!
//! ```
//! use xiangqi_rules::judge::{judge, Builtin, MoveClass, RuleSet, Ruling, SideName};
//! use xiangqi_rules::{parse_moves, Position, RankConvention};
//!
//! let rules = RuleSet::builtin("axf").unwrap();
//! // A rook chases an unprotected cannon up and down the file (第四節 18): red must change.
//! let start = Position::from_fen("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1").unwrap();
//! let moves = parse_moves(
//!     &start,
//!     "b4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4",
//!     RankConvention::Iccs,
//! )
//! .unwrap();
//! let j = judge(rules, &start, &moves).unwrap();
//! assert_eq!(j.ruling, Ruling::RedLoses);
//! assert_eq!(j.must_change, Some(SideName::Red));
//! assert_eq!(j.red_pattern.as_deref(), Some("perpetual_chase"));
//! // Every red move of the cycle chases the cannon (第三節 3: it is unprotected).
//! assert!(j.cycle.iter().filter(|c| c.side == SideName::Red).all(|c| c.class == MoveClass::Chase
//!     && c.articles.contains(&"axf.general.3".to_string())));
//! ```

use std::collections::BTreeSet;

use super::analysis::{
    captures_on, captures_ordered, is_king, is_material, is_pawn, piece_name, reach_of,
};
use super::analysis::{Analyzer, Threat};
use super::classify::Classification;
use super::track::{PieceId, Tracked};
use super::{MoveClass, RuleSet};
use crate::{Color, Move, MoveList, Role, Square};

/// Why an attack is (or is not) a chase under the AXF rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AttackVerdict {
    /// 第三節 3: the target has no true protector.
    Unprotected,
    /// 第四節 34: a protector exists but cannot recapture safely (mated in one after it).
    FalseRoot,
    /// 第三節 6: a piece chased whatever its protection, by the spec's pieces (a rook by a horse
    /// or a cannon: 馬或炮…長捉有根車).
    RookByLesser,
    /// 第三節 7 / 第四節 24: same type, the target cannot take back and has no true protector.
    SameTypeCannotAnswer,
    /// 第三節 7 / 第四節 24: same type, the target can take back: an offer, not a chase.
    SameTypeOffer,
    /// 第三節 6–7 / 第四節 27: same type, the target cannot take back but is truly protected.
    SameTypeProtected,
    /// 第三節 6 / 第四節 17: the target is truly protected.
    Protected,
    /// Reading `axf-false-root`: the capturer would be mated at once after the capture, so the
    /// attack threatens nothing (whatever the target's protection).
    CapturerMated,
    /// 第四節 34: an attack that stood before the move, whose target the move leaves without a
    /// true protector while a former protector can still reach its point (pinned, a discovered
    /// check on the recapture, facing kings).
    ProtectionTaken,
    /// AXF appendix "Example of Perpetual Chase": an attack that stood before the move, whose
    /// former true protectors the move cuts off from the target's point (a cannon's screen, a
    /// rook's line, a horse's leg, an elephant's eye).
    ProtectorCutOff,
    /// The same, but the move also removes an enemy attack that was a chase on one of the
    /// mover's pieces: a defensive block or screen move (interpretation `axf-defensive-cut`).
    CutOffDefensive,
}

impl AttackVerdict {
    fn article(self) -> &'static str {
        match self {
            AttackVerdict::Unprotected => "axf.general.3",
            AttackVerdict::FalseRoot => "axf.detail.34",
            AttackVerdict::RookByLesser => "axf.general.6",
            AttackVerdict::SameTypeCannotAnswer => "axf.general.7",
            AttackVerdict::SameTypeOffer => "axf.detail.24",
            AttackVerdict::SameTypeProtected => "axf.detail.27",
            AttackVerdict::Protected => "axf.detail.17",
            AttackVerdict::CapturerMated => "axf.detail.34.mate",
            AttackVerdict::ProtectionTaken => "axf.judge.chase.protection-taken",
            AttackVerdict::ProtectorCutOff => "axf.judge.chase.protector-cut-off",
            AttackVerdict::CutOffDefensive => "axf.judge.not-chase.defensive-cut",
        }
    }

    fn is_chase(self) -> bool {
        matches!(
            self,
            AttackVerdict::Unprotected
                | AttackVerdict::FalseRoot
                | AttackVerdict::RookByLesser
                | AttackVerdict::SameTypeCannotAnswer
                | AttackVerdict::ProtectionTaken
                | AttackVerdict::ProtectorCutOff
        )
    }

    /// A chase that depends on the target having no true protector.
    fn rests_on_protection(self) -> bool {
        matches!(
            self,
            AttackVerdict::Unprotected
                | AttackVerdict::FalseRoot
                | AttackVerdict::SameTypeCannotAnswer
        )
    }

    fn describe(self) -> &'static str {
        match self {
            AttackVerdict::Unprotected => "unprotected",
            AttackVerdict::FalseRoot => "falsely protected (假根)",
            AttackVerdict::RookByLesser => "chased whatever its protection (第三節 6)",
            AttackVerdict::SameTypeCannotAnswer => {
                "of the same type, cannot take back and has no true protector"
            }
            AttackVerdict::SameTypeOffer => "of the same type and can take back: an offer (獻)",
            AttackVerdict::SameTypeProtected => {
                "of the same type and cannot take back, but truly protected (真根)"
            }
            AttackVerdict::Protected => "truly protected (真根)",
            AttackVerdict::CapturerMated => "the capturer would be mated at once: no threat",
            AttackVerdict::ProtectionTaken => {
                "attacked before; the move leaves its protector unable to recapture safely (假根)"
            }
            AttackVerdict::ProtectorCutOff => "attacked before; the move cuts its protector's line",
            AttackVerdict::CutOffDefensive => {
                "attacked before; the move cuts its protector's line, but also parries a chase"
            }
        }
    }
}

/// One attack of the side that just moved: `attacker` can legally take `target` next move.
#[derive(Clone, Copy, Debug)]
struct Attack {
    attacker: PieceId,
    target: PieceId,
    verdict: AttackVerdict,
}

/// Does a piece of role `attacker` chase one of role `target` whatever the target's protection
/// (第三節 6: 馬或炮如長捉有根車亦作負; the pieces are the spec's: the chase condition's
/// `target_piece` and `attacker_pieces`)?
fn chases_despite_protection(rules: &RuleSet, attacker: Role, target: Role) -> bool {
    rules
        .chase_despite_protection
        .as_ref()
        .is_some_and(|(t, by)| target.id() == t && by.iter().any(|a| a == attacker.id()))
}

/// The legal captures (attacker, target, move) of the side to move in `b` on enemy material,
/// in the oracle's order (pieces by id, then each piece's movement rules in order).
fn captures(b: &Tracked) -> Vec<(PieceId, PieceId, Move)> {
    captures_ordered(b)
        .into_iter()
        .filter_map(|m| {
            let t = b.id_at(m.to())?;
            let a = b.id_at(m.from())?;
            is_material(b, t).then_some((a, t, m))
        })
        .collect()
}

/// The verdict on one attack: `b` has the attacking side to move, `m` is the capture.
fn verdict(
    az: &mut Analyzer<'_>,
    b: &Tracked,
    attacker: PieceId,
    target: PieceId,
    m: Move,
) -> AttackVerdict {
    let mut taken = b.clone();
    taken.play(m);
    // A capture after which the capturer is mated at once is no threat at all.
    if az.mates_at_once(&mut taken) {
        return AttackVerdict::CapturerMated;
    }
    let (Some(pa), Some(pt)) = (b.piece(attacker), b.piece(target)) else {
        return AttackVerdict::Protected;
    };
    if pa.role == pt.role {
        // Could the target take the attacker where it stands (the other side to move)?
        let answers = b
            .square_of(attacker)
            .is_some_and(|a_sq| b.with_turn(pt.color).pos.is_legal(Move::new(m.to(), a_sq)));
        if answers {
            return AttackVerdict::SameTypeOffer;
        }
        // It cannot: judged like any other target, by its protection (第三節 6–7, 第四節 27).
        return match protection(az, &taken, m.to()) {
            Protection::True => AttackVerdict::SameTypeProtected,
            Protection::None | Protection::False => AttackVerdict::SameTypeCannotAnswer,
        };
    }
    if chases_despite_protection(az.rs, pa.role, pt.role) {
        return AttackVerdict::RookByLesser;
    }
    match protection(az, &taken, m.to()) {
        Protection::None => AttackVerdict::Unprotected,
        Protection::False => AttackVerdict::FalseRoot,
        Protection::True => AttackVerdict::Protected,
    }
}

/// How a piece taken on a point is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protection {
    /// No legal recapture.
    None,
    /// Legal recaptures, each answered by mate in one (假根, 第四節 34).
    False,
    /// A legal recapture after which the recapturer is not mated at once (真根).
    True,
}

/// Protection of the piece just taken on `sq` in `taken`: a legal recapture after which the
/// recapturer is not mated at once is a true root.
fn protection(az: &mut Analyzer<'_>, taken: &Tracked, sq: Square) -> Protection {
    let recaptures = captures_on(taken, sq);
    if recaptures.is_empty() {
        return Protection::None;
    }
    let true_root = recaptures.into_iter().any(|r| {
        let mut c = taken.clone();
        c.play(r);
        !az.mates_at_once(&mut c)
    });
    if true_root {
        Protection::True
    } else {
        Protection::False
    }
}

/// The pieces that truly protect the piece just taken on `sq` in `taken` (the protecting side
/// to move): those with a legal recapture after which the recapturer is not mated at once.
fn true_protectors(az: &mut Analyzer<'_>, taken: &Tracked, sq: Square) -> Vec<PieceId> {
    let mut out = Vec::new();
    for r in captures_on(taken, sq) {
        let mut c = taken.clone();
        c.play(r);
        if !az.mates_at_once(&mut c) {
            out.extend(taken.id_at(r.from()));
        }
    }
    out
}

/// An attack that stood before the move (`before`, mover to move) and still stands after it
/// (`mine`, mover to move again; `m` the capture there): is it a new chase because the move
/// took the target's protection away (第四節 34; AXF appendix "Example of Perpetual Chase")?
/// The oracle's `protection_lost`: only a chase that rests on protection is renewed so; before
/// the move the capture was not answered by mate and some true protector could recapture,
/// after it none can. A former protector that still reaches the point by its movement gives
/// [`AttackVerdict::ProtectionTaken`]; none gives [`AttackVerdict::ProtectorCutOff`], or
/// [`AttackVerdict::CutOffDefensive`] when the move also parries a chase.
fn protection_lost(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    mine: &Tracked,
    attacker: PieceId,
    target: PieceId,
    m: Move,
    prev: Option<&Classification>,
) -> Option<AttackVerdict> {
    let from = before.square_of(attacker)?;
    let to = before.square_of(target)?;
    let mut taken0 = before.clone();
    taken0.play(Move::new(from, to));
    // No legal recapture before the move, so no true protector: asked first, as it is cheap
    // and settles most standing attacks (the oracle asks it last, the answer is the same).
    if captures_on(&taken0, to).is_empty() {
        return None;
    }
    if !verdict(az, mine, attacker, target, m).rests_on_protection() {
        return None;
    }
    // A capture answered by mate before the move: the move that parries that mate is no chase.
    if az.mates_at_once(&mut taken0) {
        return None;
    }
    let protectors = true_protectors(az, &taken0, to);
    if protectors.is_empty() {
        return None;
    }
    let mut taken = mine.clone();
    taken.play(m);
    let to_bit = 1u128 << to.index();
    let still_reaches = protectors
        .iter()
        .any(|&p| reach_of(&taken, p) & to_bit != 0);
    if still_reaches {
        return Some(AttackVerdict::ProtectionTaken);
    }
    if parries_a_chase(az, before, mine, prev) {
        return Some(AttackVerdict::CutOffDefensive);
    }
    Some(AttackVerdict::ProtectorCutOff)
}

/// Does the move (from `before`, mover to move, to `mine`, mover to move again) parry a chase:
/// remove an enemy attack on one of the mover's pieces that the opponent's move just before
/// (`prev`) made as a chase of that piece (the attacker not a king or a pawn, the verdict a
/// chase)? The oracle's `parries_a_chase`.
fn parries_a_chase(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    mine: &Tracked,
    prev: Option<&Classification>,
) -> bool {
    let Some(chased) = prev
        .filter(|p| p.class == MoveClass::Chase)
        .map(|p| &p.target_ids)
    else {
        return false;
    };
    let theirs = before.passed();
    let now = mine.passed();
    let now_caps: Vec<(PieceId, PieceId)> =
        captures(&now).into_iter().map(|(a, t, _)| (a, t)).collect();
    for (a, t, m) in captures(&theirs) {
        if is_king(&theirs, a)
            || is_pawn(&theirs, a)
            || now_caps.contains(&(a, t))
            || !chased.contains(&t)
        {
            continue;
        }
        if verdict(az, &theirs, a, t, m).is_chase() {
            return true;
        }
    }
    false
}

/// The new attacks of the move (`before` with the mover to move, `after` the position after
/// it), with their verdicts.
fn new_attacks(
    az: &mut Analyzer<'_>,
    before: &Tracked,
    after: &Tracked,
    prev: Option<&Classification>,
) -> Vec<Attack> {
    // The attacks before the move, as capture moves there (an attack (a, t) is old when the
    // capture from a's point to t's point was legal before the move and t was material).
    let mut old = MoveList::new();
    before.pos.legal_captures_into(&mut old);
    let was_attack = |a: PieceId, t: PieceId| match (before.square_of(a), before.square_of(t)) {
        (Some(from), Some(to)) => old.contains(&Move::new(from, to)) && is_material(before, t),
        _ => false,
    };
    let mine = after.passed();
    let mut out = Vec::new();
    for (a, t, m) in captures(&mine) {
        if is_king(&mine, a) || is_pawn(&mine, a) {
            continue;
        }
        if was_attack(a, t) {
            if let Some(verdict) = protection_lost(az, before, &mine, a, t, m, prev) {
                out.push(Attack {
                    attacker: a,
                    target: t,
                    verdict,
                });
            }
            continue;
        }
        out.push(Attack {
            attacker: a,
            target: t,
            verdict: verdict(az, &mine, a, t, m),
        });
    }
    out
}

/// Does the move create a threat to win material by a check (要抽吃, 第三節 10): a line of
/// consecutive checks that wins material, by a (checker, target) pair absent before the move?
fn new_check_threat(az: &mut Analyzer<'_>, before: &Tracked, after: &Tracked) -> bool {
    // The threats before the move are asked only about the lines of checks there are after it.
    let now: Vec<(PieceId, PieceId)> = az
        .threats(&after.passed(), None)
        .iter()
        .filter(|t| t.via_checks)
        .map(Threat::key)
        .collect();
    now.into_iter().any(|key| !az.has_check_threat(before, key))
}

/// Classifies move `m` played from `pos` under the AXF rules (see the module doc); the order of
/// the natures is the rule set's `severity` (check, chase, kill, exchange, idle). `prev` (the
/// opponent's move before) tells whether a cut parries the chase it made (interpretation
/// `axf-defensive-cut`). The oracle's
/// `judge::axf::classify`, field for field. `m` is legal (checked by the caller,
/// [`classify`](fn@super::classify)).
pub(crate) fn classify(
    rules: &RuleSet,
    pos: &Tracked,
    m: Move,
    prev: Option<&Classification>,
) -> Classification {
    let before = pos;
    let mut az = Analyzer::new(rules);
    let me = before.pos.turn();
    let them: Color = me.other();
    let mover = before.id_at(m.from()).expect("legal move has a piece");
    let mut after = before.clone();
    after.play(m);
    let king_sq = after.pos.king(them);
    let mut c = Classification::idle(m, me, mover);
    let mut attacks: Option<Vec<Attack>> = None;
    let mut non_chase_notes: Vec<String> = Vec::new();
    for &class in &rules.severity {
        // The class's article, looked up only for the class found.
        let art = || rules.class_article(class);
        match class {
            MoveClass::Check => {
                if after.pos.is_check() {
                    c.class = class;
                    c.targets = vec![king_sq];
                    c.articles = vec![art()];
                    c.note = super::classify::check_note(&after, mover, "照");
                    return c;
                }
            }
            MoveClass::Chase => {
                let list =
                    attacks.get_or_insert_with(|| new_attacks(&mut az, before, &after, prev));
                let chases: Vec<&Attack> = list.iter().filter(|a| a.verdict.is_chase()).collect();
                if !chases.is_empty() {
                    c.class = class;
                    c.articles = vec![art()];
                    let mut ids: Vec<PieceId> = chases.iter().map(|a| a.target).collect();
                    ids.sort();
                    ids.dedup();
                    c.targets = ids.iter().filter_map(|id| after.square_of(*id)).collect();
                    c.targets.sort();
                    c.target_ids = ids;
                    for a in &chases {
                        let art = a.verdict.article().to_string();
                        if !c.articles.contains(&art) {
                            c.articles.push(art);
                        }
                    }
                    c.note = format!(
                        "new attack (捉): {}",
                        chases
                            .iter()
                            .map(|a| format!(
                                "{} on {} ({})",
                                piece_name(&after, a.attacker),
                                piece_name(&after, a.target),
                                a.verdict.describe()
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    return c;
                }
                for a in list.iter() {
                    non_chase_notes.push(format!(
                        "{} attacks {} ({}): no chase ({})",
                        piece_name(&after, a.attacker),
                        piece_name(&after, a.target),
                        a.verdict.describe(),
                        a.verdict.article()
                    ));
                }
            }
            MoveClass::Kill => {
                if az.mate_by_checks(&after.passed(), rules.kill_search_depth) {
                    c.class = class;
                    c.targets = vec![king_sq];
                    c.articles = vec![art(), "axf.general.2".to_string()];
                    c.note = format!(
                        "threatens mate by consecutive checks (殺) within {} plies: allowed",
                        rules.kill_search_depth
                    );
                    break;
                }
            }
            MoveClass::Exchange | MoveClass::Offer => {
                let list =
                    attacks.get_or_insert_with(|| new_attacks(&mut az, before, &after, prev));
                if let Some(a) = list
                    .iter()
                    .find(|a| a.verdict == AttackVerdict::SameTypeOffer)
                {
                    c.class = class;
                    c.targets = after.square_of(a.target).into_iter().collect();
                    c.articles = vec![art(), AttackVerdict::SameTypeOffer.article().to_string()];
                    c.note = format!(
                        "{} and {} can take each other (兌/獻)",
                        piece_name(&after, a.attacker),
                        piece_name(&after, a.target)
                    );
                    break;
                }
            }
            MoveClass::Block | MoveClass::Follow => {}
            MoveClass::Idle => {
                c.class = class;
                c.articles = vec![art()];
                if new_check_threat(&mut az, before, &after) {
                    c.articles.push("axf.general.10".to_string());
                    c.note =
                        "threatens to win material by a check (要抽吃): idle (閒), allowed".into();
                } else {
                    c.note = "no check, chase or kill (閒)".to_string();
                }
                break;
            }
        }
    }
    if c.articles.is_empty() {
        c.articles = vec![rules.class_article(MoveClass::Idle)];
        c.note = "no check, chase or kill (閒)".to_string();
    }
    if !non_chase_notes.is_empty() {
        c.note = format!("{}; {}", c.note, non_chase_notes.join("; "));
    }
    c
}

/// 第三節 3–5: a side chases perpetually when every one of its moves in the cycle is a chase
/// and one enemy piece (followed by identity) is chased on all of them. Such chases get the
/// qualifier `persistent` (pattern label `chase.persistent`); chases of different pieces in
/// turn (分捉, 第三節 4) get `several_targets`. The oracle's `judge::axf::mark_persistent_chases`.
pub(crate) fn mark_persistent_chases(cycle: &mut [Classification]) {
    for side in [Color::Red, Color::Black] {
        let moves: Vec<usize> = (0..cycle.len())
            .filter(|&i| cycle[i].side == side)
            .collect();
        if moves.is_empty() {
            continue;
        }
        let all_chase = moves.iter().all(|&i| cycle[i].class == MoveClass::Chase);
        let mut common: Option<BTreeSet<PieceId>> = None;
        if all_chase {
            for &i in &moves {
                let t: BTreeSet<PieceId> = cycle[i].target_ids.iter().copied().collect();
                common = Some(match common {
                    None => t,
                    Some(c) => c.intersection(&t).copied().collect(),
                });
            }
        }
        let persistent = common.is_some_and(|c| !c.is_empty());
        for &i in &moves {
            if cycle[i].class == MoveClass::Chase {
                cycle[i].qualifiers = vec![if persistent {
                    "persistent".to_string()
                } else {
                    "several_targets".to_string()
                }];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Builtin;
    use crate::{Position, RankConvention};

    fn classify_one(fen: &str, mv: &str) -> Classification {
        classify_after_move(fen, mv, None)
    }

    /// Classifies `mv` in `fen`, the opponent's move before classified as `prev`.
    fn classify_after_move(fen: &str, mv: &str, prev: Option<&Classification>) -> Classification {
        let rules = RuleSet::builtin("axf").expect("axf is built in");
        let pos = Tracked::new(Position::from_fen(fen).expect("FEN"));
        let m = Move::parse_iccs(mv, RankConvention::Iccs).expect("ICCS");
        super::super::classify(rules, &pos, m, prev).expect("legal")
    }

    fn art(class: MoveClass) -> String {
        RuleSet::builtin("axf").unwrap().class_article(class)
    }

    #[test]
    fn a_horse_attacking_a_protected_rook_chases_it() {
        // 第三節 6: the rook on c5 is protected by the elephant on e7, but a horse chases it.
        let c = classify_one("4k4/9/4b4/9/2r6/9/9/9/2N6/4K4 w - - 0 1", "c1b3");
        assert_eq!(c.class, MoveClass::Chase);
        assert_eq!(c.articles, [art(MoveClass::Chase), "axf.general.6".into()]);
        assert_eq!(c.targets[0].to_string(), "c5");
        assert_eq!(
            c.note,
            "new attack (捉): horse b3 on rook c5 (chased whatever its protection (第三節 6))"
        );
    }

    #[test]
    fn an_elephant_attacking_a_protected_rook_does_not_chase_it() {
        // 第三節 6 names only the horse and the cannon: the cannon f3 steps aside and opens the
        // elephant e2's eye onto the rook g4, which the horse h6 protects truly.
        let c = classify_one("4k4/9/9/7n1/9/6r2/5C3/4B3B/9/3K5 w - - 0 1", "f3h3");
        assert_eq!(c.class, MoveClass::Idle, "{}", c.note);
        assert!(c.note.contains("truly protected"), "{}", c.note);
        // Without the horse the rook is unprotected: a chase like any other (第三節 3).
        let c = classify_one("4k4/9/9/9/9/6r2/5C3/4B3B/9/3K5 w - - 0 1", "f3h3");
        assert_eq!(c.class, MoveClass::Chase, "{}", c.note);
        assert_eq!(c.articles, [art(MoveClass::Chase), "axf.general.3".into()]);
    }

    #[test]
    fn a_rook_that_can_take_back_is_offered_not_chased() {
        // 第四節 24: the rooks on a5 and d5 can take each other: an exchange, not a chase.
        let c = classify_one("4k4/9/9/9/3r5/R8/9/9/9/5K3 w - - 0 1", "a4a5");
        assert_eq!(c.class, MoveClass::Exchange);
        assert_eq!(
            c.articles,
            [art(MoveClass::Exchange), "axf.detail.24".into()]
        );
        assert_eq!(
            c.note,
            "rook a5 and rook d5 can take each other (兌/獻); rook a5 attacks rook d5 (of the same \
             type and can take back: an offer (獻)): no chase (axf.detail.24)"
        );
    }

    #[test]
    fn a_pinned_rook_of_the_same_type_is_chased() {
        // 第三節 7: the rook on e7 cannot leave the e-file (its king would be exposed to the rook
        // on e2), so it cannot take the rook on a7 back. The attack from e2 is not new.
        let c = classify_one("4k4/9/4r4/R8/9/9/9/4R4/9/3K5 w - - 0 1", "a6a7");
        assert_eq!(c.class, MoveClass::Chase);
        assert_eq!(c.articles, [art(MoveClass::Chase), "axf.general.7".into()]);
        assert_eq!(c.target_ids.len(), 1);
    }

    #[test]
    fn pinning_the_protector_renews_a_standing_attack() {
        // 第四節 34 (example item34-pinned-protector): the rook on b0 attacks the cannon on b7
        // before and after; the horse leaving e6 pins its protector (the rook on e7) to the king.
        let c = classify_one("9/4k4/1c2r4/4N4/9/9/9/9/9/1R2RK3 w - - 0 1", "e6g5");
        assert_eq!(c.class, MoveClass::Chase);
        assert_eq!(
            c.articles,
            [
                art(MoveClass::Chase),
                "axf.judge.chase.protection-taken".into()
            ]
        );
        assert_eq!(c.targets[0].to_string(), "b7");
    }

    #[test]
    fn cutting_a_cannon_protector_renews_a_standing_attack() {
        // AXF appendix (example appendix-protector-cut-off): the pawn on c6 gives the protecting
        // cannon on c9 a second screen.
        let c = classify_one("2c1k4/9/9/3P5/9/9/2p6/9/R1n6/5K3 w - - 0 1", "d6c6");
        assert_eq!(c.class, MoveClass::Chase);
        assert_eq!(
            c.articles,
            [
                art(MoveClass::Chase),
                "axf.judge.chase.protector-cut-off".into()
            ]
        );
    }

    #[test]
    fn a_cut_that_parries_a_chase_is_no_chase() {
        // The cannon d8-e8 chases the horse on e1 over the screen e3. The horse leaves e3 and
        // lands on d5, cutting the rook on i5 from the cannon on a5 it protects: it parries
        // that chase, no chase.
        let chase = classify_one("5k3/3c5/9/9/c7r/9/4N4/9/4N4/R2K5 b - - 0 1", "d8e8");
        assert_eq!(chase.class, MoveClass::Chase, "{}", chase.note);
        let cut = "5k3/4c4/9/9/c7r/9/4N4/9/4N4/R2K5 w - - 0 1";
        let c = classify_after_move(cut, "e3d5", Some(&chase));
        assert_eq!(c.class, MoveClass::Idle);
        assert!(c.note.contains("parries a chase"), "{}", c.note);
        // The same cut with no chase made just before (the attack on e1 stood, or the mover
        // opened it itself): it renews the attack on the rook as a chase.
        let c = classify_one(cut, "e3d5");
        assert_eq!(c.class, MoveClass::Chase, "{}", c.note);
    }

    #[test]
    fn an_attack_whose_capture_is_mated_at_once_names_the_mate() {
        // Reading `axf-false-root`: the cannon e2 attacks the unprotected rook a2, but taking it
        // leaves the e-file and the rook d3 mates on d0. The note says so, not "protected".
        let c = classify_one("3k5/9/9/9/9/2p1C4/3r5/r1p6/6p2/5K3 w - - 0 1", "e4e2");
        assert_eq!(c.class, MoveClass::Idle);
        assert!(c.note.contains("mated at once"), "{}", c.note);
        assert!(!c.note.contains("protected"), "{}", c.note);
        assert!(c.note.contains("(axf.detail.34.mate)"), "{}", c.note);
        // Without the pawn g1 there is no mate: the attack on the rook is a chase.
        let c = classify_one("3k5/9/9/9/9/2p1C4/3r5/r1p6/9/5K3 w - - 0 1", "e4e2");
        assert_eq!(c.class, MoveClass::Chase, "{}", c.note);
    }

    #[test]
    fn a_protected_same_type_target_that_cannot_take_back_is_not_chased() {
        // 第四節 27 (example item27-same-type-protected): the pinned rook on e7 cannot take the
        // rook on a7 back, but the horse on g8 protects it.
        let c = classify_one("4k4/6n2/4r4/R8/9/9/9/9/4R4/3K5 w - - 0 1", "a6a7");
        assert_eq!(c.class, MoveClass::Idle);
        assert!(c.note.contains("truly protected"), "{}", c.note);
    }

    #[test]
    fn persistent_chases_need_one_piece_chased_on_every_move() {
        let base = classify_one("4k4/9/4b4/9/2r6/9/9/9/2N6/4K4 w - - 0 1", "c1b3");
        let other = Classification {
            target_ids: vec![PieceId(99)],
            ..base.clone()
        };
        let mut same = vec![base.clone(), base.clone()];
        mark_persistent_chases(&mut same);
        assert!(same.iter().all(|c| c.qualifiers == ["persistent"]));
        let mut several = vec![base.clone(), other];
        mark_persistent_chases(&mut several);
        assert!(several.iter().all(|c| c.qualifiers == ["several_targets"]));
    }
}
