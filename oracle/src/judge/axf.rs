//! The Asian (AXF) rules (`spec/rules/axf.yaml`): the nature of one move by the piece-pair chase
//! of 第三節 3–9, and the marking of perpetual chases of one piece (第三節 3–5).
//!
//! The cycle, the patterns and the ruling table are those of the generic judge
//! ([`judge`](super::judge)); only the classification of single moves differs from the CXA
//! exchange test ([`classify`](fn@super::classify)):
//!
//! - a **check** (照) is a check;
//! - a **chase** (捉) is a new legal attack (absent before the move) by a piece other than the king
//!   or a pawn (第三節 9) on an enemy piece other than the king or an uncrossed pawn (第三節 3), when
//!   the target is unprotected (a false root 假根 protects nothing, 第四節 34), or is a rook
//!   attacked by a horse or a cannon (第三節 6), or is of the attacker's type, cannot take back and has
//!   no true protector (第三節 6–7, 第四節 24, 27); an attack that stood before the move is a chase
//!   too when the move takes the target's true protection away (pins the protector or makes the
//!   recapture illegal, 第四節 34; cuts the protector's line, AXF appendix "Example of Perpetual
//!   Chase", unless the move also parries a chase), a move that parries a mate on the capture
//!   excepted;
//! - a **kill** (殺) threatens mate by consecutive checks; allowed in every AXF pattern;
//! - an **exchange** (兌/獻) creates a same-type attack that the target can answer by taking;
//! - anything else is **idle** (閒), a threat to win material by a check (要抽吃) included
//!   (第三節 10).
//!
//! ```
//! use xiangqi_oracle::{judge::{judge, RuleSet, Ruling, SideName}, Board, OMove, Spec};
//! let rules = RuleSet::embedded("axf").unwrap();
//! // A rook chases an unprotected cannon up and down the file (第四節 18): red must change.
//! let start = Board::from_fen(Spec::embedded(), "2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1").unwrap();
//! let moves: Vec<OMove> = "b4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4"
//!     .split(' ').map(|m| m.parse().unwrap()).collect();
//! let j = judge(&rules, &start, &moves).unwrap();
//! assert_eq!(j.ruling, Ruling::RedLoses);
//! assert_eq!(j.must_change, Some(SideName::Red));
//! ```

use std::collections::BTreeSet;

use crate::board::{Board, PieceId};
use crate::coord::{Coord, OMove, Side};

use super::analysis::{self, is_king, is_material, is_pawn, mate_by_checks, pass, role_id};
use super::classify::{check_note, piece_name, Classification};
use super::rules::RuleSet;
use super::{JudgeError, MoveClass};

/// Why an attack is (or is not) a chase under the AXF rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// 第三節 3: the target has no true protector.
    Unprotected,
    /// 第四節 34: a protector exists but cannot recapture safely (pinned, or mated in one).
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

impl Verdict {
    fn article(self) -> &'static str {
        match self {
            Verdict::Unprotected => "axf.general.3",
            Verdict::FalseRoot => "axf.detail.34",
            Verdict::RookByLesser => "axf.general.6",
            Verdict::SameTypeCannotAnswer => "axf.general.7",
            Verdict::SameTypeOffer => "axf.detail.24",
            Verdict::SameTypeProtected => "axf.detail.27",
            Verdict::Protected => "axf.detail.17",
            Verdict::CapturerMated => "axf.detail.34.mate",
            Verdict::ProtectionTaken => "axf.judge.chase.protection-taken",
            Verdict::ProtectorCutOff => "axf.judge.chase.protector-cut-off",
            Verdict::CutOffDefensive => "axf.judge.not-chase.defensive-cut",
        }
    }

    fn is_chase(self) -> bool {
        matches!(
            self,
            Verdict::Unprotected
                | Verdict::FalseRoot
                | Verdict::RookByLesser
                | Verdict::SameTypeCannotAnswer
                | Verdict::ProtectionTaken
                | Verdict::ProtectorCutOff
        )
    }

    /// A chase that depends on the target having no true protector.
    fn rests_on_protection(self) -> bool {
        matches!(
            self,
            Verdict::Unprotected | Verdict::FalseRoot | Verdict::SameTypeCannotAnswer
        )
    }

    fn describe(self) -> &'static str {
        match self {
            Verdict::Unprotected => "unprotected",
            Verdict::FalseRoot => "falsely protected (假根)",
            Verdict::RookByLesser => "chased whatever its protection (第三節 6)",
            Verdict::SameTypeCannotAnswer => {
                "of the same type, cannot take back and has no true protector"
            }
            Verdict::SameTypeOffer => "of the same type and can take back: an offer (獻)",
            Verdict::SameTypeProtected => {
                "of the same type and cannot take back, but truly protected (真根)"
            }
            Verdict::Protected => "truly protected (真根)",
            Verdict::CapturerMated => "the capturer would be mated at once: no threat",
            Verdict::ProtectionTaken => {
                "attacked before; the move leaves its protector unable to recapture safely (假根)"
            }
            Verdict::ProtectorCutOff => "attacked before; the move cuts its protector's line",
            Verdict::CutOffDefensive => {
                "attacked before; the move cuts its protector's line, but also parries a chase"
            }
        }
    }
}

/// One attack of the side that just moved: `attacker` can legally take `target` next move.
#[derive(Clone, Debug)]
struct Attack {
    attacker: PieceId,
    target: PieceId,
    verdict: Verdict,
}

/// Does `attacker` chase `target` whatever the target's protection (第三節 6: 馬或炮如長捉有根車亦作負;
/// the pieces are the spec's: the chase condition's `target_piece` and `attacker_pieces`)?
fn chases_despite_protection(
    rules: &RuleSet,
    b: &Board,
    attacker: PieceId,
    target: PieceId,
) -> bool {
    rules
        .chase_despite_protection
        .as_ref()
        .is_some_and(|(t, by)| {
            role_id(b, target) == t && by.iter().any(|a| a == role_id(b, attacker))
        })
}

/// The legal captures (attacker, target) of the side to move in `b` on enemy material.
fn captures(b: &Board) -> Vec<(PieceId, PieceId, OMove)> {
    b.legal_moves()
        .into_iter()
        .filter_map(|m| {
            let t = b.piece_id_at(m.to)?;
            let a = b.piece_id_at(m.from)?;
            is_material(b, t).then_some((a, t, m))
        })
        .collect()
}

/// The verdict on one attack: `b` has the attacking side to move, `m` is the capture.
fn verdict(rules: &RuleSet, b: &Board, attacker: PieceId, target: PieceId, m: OMove) -> Verdict {
    let mut taken = b.clone();
    analysis::apply(&mut taken, m);
    // A capture after which the capturer is mated at once is no threat at all.
    if analysis::mates_at_once(&analysis::Ctx::new(rules), &taken) {
        return Verdict::CapturerMated;
    }
    if b.piece(attacker).role == b.piece(target).role {
        // Could the target take the attacker where it stands (the other side to move)?
        let answers = pass(b)
            .legal_moves()
            .into_iter()
            .any(|r| r.from == m.to && Some(r.to) == b.square_of(attacker));
        if answers {
            return Verdict::SameTypeOffer;
        }
        // It cannot: judged like any other target, by its protection (第三節 6–7, 第四節 27).
        return match protection(rules, &taken, m.to) {
            Protection::True => Verdict::SameTypeProtected,
            Protection::None | Protection::False => Verdict::SameTypeCannotAnswer,
        };
    }
    if chases_despite_protection(rules, b, attacker, target) {
        return Verdict::RookByLesser;
    }
    match protection(rules, &taken, m.to) {
        Protection::None => Verdict::Unprotected,
        Protection::False => Verdict::FalseRoot,
        Protection::True => Verdict::Protected,
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

/// The pieces that truly protect the piece just taken on `sq` in `taken` (the protecting side
/// to move): those with a legal recapture after which the recapturer is not mated at once.
fn true_protectors(rules: &RuleSet, taken: &Board, sq: Coord) -> Vec<PieceId> {
    let mut out: Vec<PieceId> = taken
        .legal_moves()
        .into_iter()
        .filter(|r| r.to == sq)
        .filter(|r| {
            let mut c = taken.clone();
            analysis::apply(&mut c, *r);
            !analysis::mates_at_once(&analysis::Ctx::new(rules), &c)
        })
        .filter_map(|r| taken.piece_id_at(r.from))
        .collect();
    out.dedup();
    out
}

/// Protection of the piece just taken on `sq` in `taken`: a legal recapture after which the
/// recapturer is not mated at once is a true root.
fn protection(rules: &RuleSet, taken: &Board, sq: Coord) -> Protection {
    let recaptures: Vec<OMove> = taken
        .legal_moves()
        .into_iter()
        .filter(|r| r.to == sq)
        .collect();
    if recaptures.is_empty() {
        return Protection::None;
    }
    let true_root = recaptures.iter().any(|r| {
        let mut c = taken.clone();
        analysis::apply(&mut c, *r);
        !analysis::mates_at_once(&analysis::Ctx::new(rules), &c)
    });
    if true_root {
        Protection::True
    } else {
        Protection::False
    }
}

/// An attack that stood before the move (`before`, mover to move) and still stands after it
/// (`mine`, mover to move again; `m` the capture there): is it a new chase because the move took
/// the target's protection away (第四節 34; AXF appendix "Example of Perpetual Chase")?
///
/// Only a chase that rests on protection is renewed so: before the move the capture was not
/// answered by mate and some true protector could recapture; after it none can. When one of those
/// protectors can still reach the target's point by its own movement, its recapture has become
/// illegal or unsafe (pinned, a discovered check, facing kings): [`Verdict::ProtectionTaken`].
/// When none can, the move has cut their lines: [`Verdict::ProtectorCutOff`], unless it also
/// parries the chase of one of the mover's pieces that the opponent's move just before made
/// ([`parries_a_chase`]: [`Verdict::CutOffDefensive`], no chase).
fn protection_lost(
    rules: &RuleSet,
    before: &Board,
    mine: &Board,
    attacker: PieceId,
    target: PieceId,
    m: OMove,
    previous: Option<&Classification>,
) -> Option<Verdict> {
    if !verdict(rules, mine, attacker, target, m).rests_on_protection() {
        return None;
    }
    let from = before.square_of(attacker)?;
    let to = before.square_of(target)?;
    let mut taken0 = before.clone();
    analysis::apply(&mut taken0, OMove { from, to });
    // A capture answered by mate before the move: the move that parries that mate is no chase.
    if analysis::mates_at_once(&analysis::Ctx::new(rules), &taken0) {
        return None;
    }
    let protectors = true_protectors(rules, &taken0, to);
    if protectors.is_empty() {
        return None;
    }
    let mut taken = mine.clone();
    analysis::apply(&mut taken, m);
    let still_reaches = protectors
        .iter()
        .any(|&p| taken.square_of(p).is_some() && analysis::reach_of(&taken, p).contains(&to));
    if still_reaches {
        return Some(Verdict::ProtectionTaken);
    }
    if parries_a_chase(rules, before, mine, previous) {
        return Some(Verdict::CutOffDefensive);
    }
    Some(Verdict::ProtectorCutOff)
}

/// Does the move (from `before`, mover to move, to `mine`, mover to move again) parry a chase:
/// remove an enemy attack on one of the mover's pieces that the opponent's move just before
/// (`previous`) made as a chase of that piece (the attacker not a king or a pawn, the verdict a
/// chase)? Without that move (the first of a record) there is no chase to parry.
fn parries_a_chase(
    rules: &RuleSet,
    before: &Board,
    mine: &Board,
    previous: Option<&Classification>,
) -> bool {
    let theirs = pass(before);
    let now = pass(mine);
    let now_caps: BTreeSet<(PieceId, PieceId)> =
        captures(&now).into_iter().map(|(a, t, _)| (a, t)).collect();
    captures(&theirs).into_iter().any(|(a, t, m)| {
        !is_king(&theirs, a)
            && !is_pawn(&theirs, a)
            && !now_caps.contains(&(a, t))
            && previous.is_some_and(|p| p.class == MoveClass::Chase && p.target_ids.contains(&t))
            && verdict(rules, &theirs, a, t, m).is_chase()
    })
}

/// The new attacks of the move (`before` with the mover to move, `after` the position after it),
/// with their verdicts, and the threats to win material by a check (要抽吃).
fn new_attacks(
    rules: &RuleSet,
    before: &Board,
    after: &Board,
    previous: Option<&Classification>,
) -> (Vec<Attack>, bool) {
    let old: BTreeSet<(PieceId, PieceId)> = captures(before)
        .into_iter()
        .map(|(a, t, _)| (a, t))
        .collect();
    let mine = pass(after);
    let mut out = Vec::new();
    for (a, t, m) in captures(&mine) {
        if is_king(&mine, a) || is_pawn(&mine, a) {
            continue;
        }
        if old.contains(&(a, t)) {
            if let Some(verdict) = protection_lost(rules, before, &mine, a, t, m, previous) {
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
            verdict: verdict(rules, &mine, a, t, m),
        });
    }
    let old_checks: BTreeSet<(PieceId, PieceId)> =
        analysis::threats(&analysis::Ctx::new(rules), before, None)
            .iter()
            .filter(|t| t.via_checks)
            .map(|t| t.key())
            .collect();
    let check_threat = analysis::threats(&analysis::Ctx::new(rules), &mine, None)
        .iter()
        .any(|t| t.via_checks && !old_checks.contains(&t.key()));
    (out, check_threat)
}

/// Classifies move `m` played from `before` under the AXF rules (see the module doc); the order
/// of the natures is the rule set's `severity` (check, chase, kill, exchange, idle).
/// `previous` (the opponent's move before) tells whether a cut parries the chase it made
/// (interpretation `axf-defensive-cut`).
pub fn classify(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
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
    let king_sq = after
        .pieces_of(them)
        .find(|p| p.role == after.spec().royal())
        .and_then(|p| p.square);
    let mut c = Classification {
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
    let mut attacks: Option<(Vec<Attack>, bool)> = None;
    let mut non_chase_notes: Vec<String> = Vec::new();
    for &class in &rules.severity {
        let art = rules.class_article(class);
        match class {
            MoveClass::Check => {
                if after.in_check(them) {
                    c.class = class;
                    c.targets = king_sq.into_iter().collect();
                    c.articles = vec![art];
                    c.note = check_note(&after, mover, "照");
                    return Ok(c);
                }
            }
            MoveClass::Chase => {
                let (list, _) =
                    attacks.get_or_insert_with(|| new_attacks(rules, before, &after, previous));
                let chases: Vec<&Attack> = list.iter().filter(|a| a.verdict.is_chase()).collect();
                if !chases.is_empty() {
                    c.class = class;
                    c.articles = vec![art];
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
                    return Ok(c);
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
                if mate_by_checks(&pass(&after), rules.kill_search_depth) {
                    c.class = class;
                    c.targets = king_sq.into_iter().collect();
                    c.articles = vec![art, "axf.general.2".to_string()];
                    c.note = format!(
                        "threatens mate by consecutive checks (殺) within {} plies: allowed",
                        rules.kill_search_depth
                    );
                    break;
                }
            }
            MoveClass::Exchange | MoveClass::Offer => {
                let (list, _) =
                    attacks.get_or_insert_with(|| new_attacks(rules, before, &after, previous));
                if let Some(a) = list.iter().find(|a| a.verdict == Verdict::SameTypeOffer) {
                    c.class = class;
                    c.targets = after.square_of(a.target).into_iter().collect();
                    c.articles = vec![art, Verdict::SameTypeOffer.article().to_string()];
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
                let (_, check_threat) =
                    attacks.get_or_insert_with(|| new_attacks(rules, before, &after, previous));
                c.class = class;
                c.articles = vec![art];
                if *check_threat {
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
    Ok(c)
}

/// 第三節 3–5: a side chases perpetually when every one of its moves in the cycle is a chase and
/// one enemy piece (followed by identity) is chased on all of them. Such chases get the
/// qualifier `persistent` (pattern label `chase.persistent`); chases of different pieces in turn
/// (分捉, 第三節 4) get `several_targets`.
pub fn mark_persistent_chases(cycle: &mut [Classification]) {
    for side in Side::BOTH {
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
