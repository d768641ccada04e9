//! The memo of the searches: what a search proved about a position, remembered so that the same
//! question is answered once per judgement instead of once per path that reaches it.
//!
//! The searches of [`super::analysis`] (the checking moves of a position, `checking_moves`;
//! mate by consecutive checks, `mate_within`; static exchange, `see`; lines of consecutive checks that win material, `check_line` and
//! `best_gain`; every threat of a position, `threats`) are pure functions of their inputs. Each
//! one asks the memo first: a plain map from the question (the position and every other
//! argument) to the answer, filled in as the search computes answers. No pruning, no move
//! ordering: an answer is either computed by the search itself or copied from an earlier
//! computation of the very same question. A line of checks wanted only above a floor
//! (`check_line_above`) is a question of its own, the floor in its key.
//!
//! Why the memo cannot change an answer: the key holds every input the answer depends on.
//! (The maps hash their keys with a plain word hasher, [`crate::hash`]: a hash only picks where
//! a key is looked for; the map compares whole keys.)
//!
//! - The position: every field of the board's state (the points with the ids of the pieces on
//!   them, the whole piece table with each piece's side, role, start point and point, the side to
//!   move, the pawn that has just crossed the river), except the two clocks (plies since a
//!   capture, move number), which no search reads
//!   (only [`super::judge`] counts plies, outside the searches). The fields are listed by an
//!   exhaustive pattern, so a new field of the state does not compile until it is placed in the
//!   key or left out by name.
//! - The other arguments of the search: remaining depth, the square, the pieces that may take
//!   part, the first checking move, the checker, the pieces to avoid.
//! - The context ([`Ctx`]): the pieces offered in exchange are in the key; the context is
//!   destructured exhaustively, so a new field must be placed too.
//! - The rule set and the spec are the same for the whole memo: a memo belongs to one
//!   [`scope`] (one judgement or one classification), opened with one rule set and one spec.
//!   A search called with another rule set (by address: the scope borrows its rule set, so no
//!   other one can live there meanwhile) or on a board of another spec (the scope holds a handle
//!   to its spec, compared by identity) does not use the memo at all.
//!
//! The memo can also be emptied at any time without changing an answer; it is, when it grows
//! past [`LIMIT`] answers, to bound its memory. For the same reason it can be kept from one
//! scope to the next: [`with_kept_memo`] (used by the differential fuzz entries, which judge
//! many games that share most of their positions) keeps it between calls for a `'static` rule
//! set. [`without_memo`] turns it off (the test
//! `tests/oracle_memo.rs` judges every example and generated games both ways and compares the
//! JSON byte for byte), and so does the environment variable `XIANGQI_ORACLE_MEMO=off` for a
//! whole process (to measure what it saves).

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::hash::Hash;

use crate::board::{Board, Piece, PieceId, State};
use crate::coord::{Coord, OMove, Side, POINTS};
use crate::hash::Map;
use crate::spec::Spec;

use super::analysis::{Ctx, Threat, Won};
use super::rules::RuleSet;

/// At most this many answers are kept (a few hundred bytes each); past it the memo starts again
/// empty. The heaviest generated games need a few hundred thousand.
pub(crate) const LIMIT: usize = 1_000_000;

/// A position as the searches read it: the board's state without the clocks.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Position {
    mailbox: [Option<PieceId>; POINTS],
    table: Box<[Piece]>,
    turn: Side,
    just_crossed: Option<PieceId>,
}

impl Position {
    fn of(b: &Board) -> Position {
        let State {
            mailbox,
            table,
            len,
            turn,
            halfmoves: _,
            fullmoves: _,
            just_crossed,
        } = &b.st;
        Position {
            mailbox: *mailbox,
            table: table[..usize::from(*len)].into(),
            turn: *turn,
            just_crossed: *just_crossed,
        }
    }
}

impl Hash for Position {
    /// The points and the side to move, written at once (hashing field by field costs more
    /// than some searches). The map compares whole keys ([`Eq`]): the hash only picks where
    /// to look.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut points = [0u8; POINTS + 1];
        for (byte, id) in points.iter_mut().zip(&self.mailbox) {
            *byte = id.map_or(u8::MAX, |id| id.0);
        }
        points[POINTS] = self.turn as u8;
        state.write(&points);
    }
}

/// The part of a [`Ctx`] that is not the rule set: the pieces offered in exchange, the piece
/// that has just moved and the position before its move, the piece aimed at.
fn context(cx: &Ctx) -> Context {
    let Ctx {
        rs: _,
        offered,
        after_move,
        aim,
    } = cx;
    (
        (*offered).clone(),
        after_move.map(|(moved, before)| (moved, Position::of(before))),
        *aim,
    )
}

/// The part of a [`Ctx`] that is not the rule set: the pieces offered, the piece that has just
/// moved and the position before its move, the piece aimed at.
type Context = (Pieces, Option<(PieceId, Position)>, Option<PieceId>);

/// The pieces of a side that may take part in an exchange (`see`'s `only`).
type Only = Option<(Side, PieceId)>;

/// The pieces offered in exchange, or to avoid taking.
type Pieces = BTreeSet<PieceId>;

/// The answers, one map per search, keyed by the position and the search's other arguments.
#[derive(Default)]
struct Answers {
    checking_moves: Map<Position, Vec<OMove>>,
    mate_within: Map<(Position, u32, Pieces), bool>,
    see: Map<(Position, Coord, Only, u32, Context), f64>,
    check_line: Map<(Position, OMove, u32, u64, Context), Option<Won>>,
    best_gain: Map<(Position, u32, Context), Won>,
    threats: Map<(Position, Option<PieceId>, Context), Vec<Threat>>,
}

impl Answers {
    fn len(&self) -> usize {
        self.checking_moves.len()
            + self.mate_within.len()
            + self.see.len()
            + self.check_line.len()
            + self.best_gain.len()
            + self.threats.len()
    }
}

/// The memo of one scope.
struct Memo {
    /// The scope's rule set, by address (never dereferenced).
    rules: *const RuleSet,
    /// The scope's spec.
    spec: Spec,
    answers: Answers,
}

impl Memo {
    /// Does a search with `rules` (`None`: one that reads no rule set) on `b` belong here?
    fn serves(&self, rules: Option<&RuleSet>, b: &Board) -> bool {
        self.spec.same(b.spec()) && rules.is_none_or(|r| std::ptr::eq(self.rules, r))
    }
}

thread_local! {
    /// The memo of the scope being run on this thread, if any.
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
    /// Off inside [`without_memo`], and everywhere when the environment variable
    /// `XIANGQI_ORACLE_MEMO` is `off` (to measure what the memo saves).
    static ENABLED: Cell<bool> = Cell::new(std::env::var_os("XIANGQI_ORACLE_MEMO").is_none_or(|v| v != "off"));
}

/// Puts back the memo of the enclosing scope when a scope ends (also by a panic).
struct Restore(Option<Memo>);

impl Drop for Restore {
    fn drop(&mut self) {
        MEMO.set(self.0.take());
    }
}

/// Runs `f` (a judgement or a classification under `rules`, on boards of `spec`) with a memo:
/// the enclosing scope's when it has the same rule set and spec, else a new one, dropped at
/// the end.
pub(crate) fn scope<R>(rules: &RuleSet, spec: &Spec, f: impl FnOnce() -> R) -> R {
    if !ENABLED.get()
        || MEMO.with_borrow(|m| {
            m.as_ref()
                .is_some_and(|m| std::ptr::eq(m.rules, rules) && m.spec.same(spec))
        })
    {
        return f();
    }
    let fresh = Memo {
        rules,
        spec: spec.clone(),
        answers: Answers::default(),
    };
    // Each judgement starts from nothing remembered, the legal moves included: its cost does
    // not depend on what was judged before on the thread (the judge benchmark measures both
    // judges cold).
    crate::board::forget_legal_moves();
    let _restore = Restore(MEMO.replace(Some(fresh)));
    f()
}

/// Runs `f` with one memo for every judgement and classification under `rules` on boards of
/// `spec` inside it (e.g. an example's judgement and then the classification of each of its
/// plies): a question asked by both is searched once. The answers are the same as without it
/// (the key holds every input an answer depends on; see the module's documentation).
pub fn with_memo<R>(rules: &RuleSet, spec: &Spec, f: impl FnOnce() -> R) -> R {
    scope(rules, spec, f)
}

/// At most this many answers stay in a memo kept between scopes ([`with_kept_memo`]); a kept
/// memo that has grown past it is dropped when its scope ends.
pub(crate) const KEPT_LIMIT: usize = 250_000;

thread_local! {
    /// The memos kept between scopes by [`with_kept_memo`], one per rule set and spec.
    static KEPT: RefCell<Vec<Memo>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the memo that earlier calls of `with_kept_memo` on this thread left for the same
/// rule set and spec (a new one the first time), and keeps that memo for the next call instead
/// of dropping it: a search one of them already answered is not searched again (a fuzz entry
/// judges many games that share most of their positions, one after another). The answers are
/// the same as without it: the key holds every input an answer depends on, and the rule set is
/// `'static`, so no other rule set can ever live at its address (the memo compares rule sets by
/// address). A kept memo of more than 250,000 answers (`KEPT_LIMIT`) is dropped when the call ends; the
/// memo of legal moves is kept as well (it empties itself past its own limit).
pub fn with_kept_memo<R>(rules: &'static RuleSet, spec: &Spec, f: impl FnOnce() -> R) -> R {
    if !ENABLED.get() {
        return f();
    }
    let kept = KEPT.with_borrow_mut(|kept| {
        let i = kept
            .iter()
            .position(|m| std::ptr::eq(m.rules, rules) && m.spec.same(spec))?;
        Some(kept.swap_remove(i))
    });
    let memo = kept.unwrap_or_else(|| Memo {
        rules,
        spec: spec.clone(),
        answers: Answers::default(),
    });
    let restore = Restore(MEMO.replace(Some(memo)));
    let r = f();
    if let Some(m) = MEMO.take() {
        if m.answers.len() <= KEPT_LIMIT {
            KEPT.with_borrow_mut(|kept| kept.push(m));
        }
    }
    drop(restore);
    r
}

/// Runs `f` with the memo off: every search computes its answer (for the test that the memo
/// changes no judgement, and to measure what it saves).
pub fn without_memo<R>(f: impl FnOnce() -> R) -> R {
    struct On(bool);
    impl Drop for On {
        fn drop(&mut self) {
            ENABLED.set(self.0);
        }
    }
    let _on = On(ENABLED.replace(false));
    let _restore = Restore(MEMO.take());
    f()
}

/// The answer to `key` in the map `map` of the current memo, or `search()` (remembered), or
/// just `search()` when no memo serves `rules` and `b`.
fn remember<K: Hash + Eq, V: Clone>(
    rules: Option<&RuleSet>,
    b: &Board,
    map: fn(&mut Answers) -> &mut Map<K, V>,
    key: impl FnOnce(Position) -> K,
    search: impl FnOnce() -> V,
) -> V {
    let looked_up = MEMO.with_borrow_mut(|m| {
        let m = m.as_mut().filter(|m| m.serves(rules, b))?;
        let key = key(Position::of(b));
        Some(match map(&mut m.answers).get(&key) {
            Some(answer) => Err(answer.clone()),
            None => Ok(key),
        })
    });
    let key = match looked_up {
        None => return search(),
        Some(Err(answer)) => return answer,
        Some(Ok(key)) => key,
    };
    let answer = search();
    MEMO.with_borrow_mut(|m| {
        if let Some(m) = m.as_mut().filter(|m| m.serves(rules, b)) {
            if m.answers.len() >= LIMIT {
                m.answers = Answers::default();
            }
            map(&mut m.answers).insert(key, answer.clone());
        }
    });
    answer
}

/// `mate_within(b, plies, avoid)`, remembered.
pub(crate) fn mate_within(
    b: &Board,
    plies: u32,
    avoid: &BTreeSet<PieceId>,
    search: impl FnOnce() -> bool,
) -> bool {
    remember(
        None,
        b,
        |a| &mut a.mate_within,
        |p| (p, plies, avoid.clone()),
        search,
    )
}

/// `see(cx, b, sq, only, depth)`, remembered.
pub(crate) fn see(
    cx: &Ctx,
    b: &Board,
    sq: Coord,
    only: Option<(Side, PieceId)>,
    depth: u32,
    search: impl FnOnce() -> f64,
) -> f64 {
    remember(
        Some(cx.rs),
        b,
        |a| &mut a.see,
        |p| (p, sq, only, depth, context(cx)),
        search,
    )
}

/// `check_line_above(cx, b, k, depth, floor)`, remembered (the floor by its bits).
pub(crate) fn check_line(
    cx: &Ctx,
    b: &Board,
    k: OMove,
    depth: u32,
    floor: f64,
    search: impl FnOnce() -> Option<Won>,
) -> Option<Won> {
    remember(
        Some(cx.rs),
        b,
        |a| &mut a.check_line,
        |p| (p, k, depth, floor.to_bits(), context(cx)),
        search,
    )
}

/// `best_gain(cx, b, depth)`, remembered.
pub(crate) fn best_gain(cx: &Ctx, b: &Board, depth: u32, search: impl FnOnce() -> Won) -> Won {
    remember(
        Some(cx.rs),
        b,
        |a| &mut a.best_gain,
        |p| (p, depth, context(cx)),
        search,
    )
}

/// `threats(cx, b, checker)`, remembered.
pub(crate) fn threats(
    cx: &Ctx,
    b: &Board,
    checker: Option<PieceId>,
    search: impl FnOnce() -> Vec<Threat>,
) -> Vec<Threat> {
    remember(
        Some(cx.rs),
        b,
        |a| &mut a.threats,
        |p| (p, checker, context(cx)),
        search,
    )
}

/// `checking_moves(b)`, remembered.
pub(crate) fn checking_moves(b: &Board, search: impl FnOnce() -> Vec<OMove>) -> Vec<OMove> {
    remember(None, b, |a| &mut a.checking_moves, |p| p, search)
}
