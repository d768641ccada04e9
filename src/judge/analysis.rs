//! What a side could do if it were to move: capture with gain (the chase test of art. 28.3,
//! 29.1–29.4; 2011 24.3, 24.15–24.17), force mate by consecutive checks (the kill test of 28.2 /
//! 24.2), and the plain relations the idle kinds need (who can take whom).
//!
//! A port of the oracle's `judge/analysis.rs` to the bitboard [`Position`](crate::Position):
//! every function answers exactly as the oracle's does (same legal moves, same exchange values,
//! same order where the oracle takes "the first" of something), but plays moves with
//! make/unmake on a scratch position, and the mate search keeps a transposition cache.

use std::collections::HashMap;

use super::track::{PieceId, Tracked};
use super::RuleSet;
use crate::moves::MAX_MOVES;
use crate::tables::{CROSSED, LEAPS, MATERIAL, RAYS, RULES, STEP_MOVE_OR_CAPTURE, STEP_QUIET};
use crate::{Color, Move, MoveList, Piece, Role, Square};

/// A set of piece ids (ids are below 90).
pub(crate) type IdSet = u128;

#[inline]
pub(crate) fn id_bit(id: PieceId) -> IdSet {
    1u128 << (id.0 as u32 & 127)
}

/// The ids of a set, in increasing order.
pub(crate) fn ids_in(mut s: IdSet) -> impl Iterator<Item = PieceId> {
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let i = s.trailing_zeros();
        s &= s - 1;
        Some(PieceId(i as u8))
    })
}

/// A short list without heap allocation, for the capturers of one point or the victims of one
/// piece: at most 24 pieces can capture one point (2 per ray, 8 horses, 4 advisors, 4
/// elephants), so 32 never overflows. Derefs to a slice.
#[derive(Clone, Copy)]
pub(crate) struct Short<T: Copy, const N: usize> {
    items: [T; N],
    len: u8,
}

/// The capturers or victims of [`can_capture`] and [`capturable_by`].
pub(crate) type Ids = Short<PieceId, 32>;

/// The capturing moves of [`captures_on`].
pub(crate) type Captures = Short<Move, 32>;

impl<T: Copy, const N: usize> Short<T, N> {
    fn new(fill: T) -> Self {
        Short {
            items: [fill; N],
            len: 0,
        }
    }

    fn push(&mut self, x: T) {
        self.items[self.len as usize] = x;
        self.len += 1;
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for Short<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T: Copy, const N: usize> std::ops::DerefMut for Short<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for Short<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for Short<T, N> {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}

impl<T: Copy, const N: usize> IntoIterator for Short<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len as usize)
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Short<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// "rook e4" (the oracle's `piece_name`): the piece's role and point, formatted where it is
/// written (no string of its own).
pub(crate) fn piece_name(b: &Tracked, id: PieceId) -> PieceName<'_> {
    PieceName(b, id)
}

/// See [`piece_name`].
pub(crate) struct PieceName<'a>(&'a Tracked, PieceId);

impl std::fmt::Display for PieceName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let PieceName(b, id) = *self;
        match b.square_of(id) {
            Some(sq) => write!(f, "{} {sq}", role_id(b, id)),
            None => f.write_str(role_id(b, id)),
        }
    }
}

/// The piece on the board with identity `id` (`None` once captured).
#[inline]
pub(crate) fn piece(b: &Tracked, id: PieceId) -> Option<Piece> {
    b.piece(id)
}

/// The id of the piece on `sq`.
#[inline]
pub(crate) fn id_at(b: &Tracked, sq: Square) -> Option<PieceId> {
    b.id_at(sq)
}

/// Is the piece `id` material (子力, art. 25.3 / 2011 26.6)? King and uncrossed pawn are not.
pub(crate) fn is_material(b: &Tracked, id: PieceId) -> bool {
    let Some(sq) = b.square_of(id) else {
        return false;
    };
    let Some(p) = b.pos.piece_at(sq) else {
        return false;
    };
    MATERIAL[p.role.index()][half(p.color, sq)].0
}

fn half(c: Color, sq: Square) -> usize {
    usize::from(CROSSED[c.index()] & (1u128 << sq.index()) != 0)
}

/// Is the piece a pawn (its value floats, 25.3)?
pub(crate) fn is_pawn(b: &Tracked, id: PieceId) -> bool {
    piece(b, id).is_some_and(|p| p.role == Role::Pawn)
}

/// Is the piece the king?
pub(crate) fn is_king(b: &Tracked, id: PieceId) -> bool {
    piece(b, id).is_some_and(|p| p.role == Role::King)
}

/// The role id (`rook`, `horse`, ...).
pub(crate) fn role_id(b: &Tracked, id: PieceId) -> &'static str {
    piece(b, id).map(|p| p.role.id()).unwrap_or("")
}

/// Exchange value of a piece on the board (material.yaml; a pawn counts `floating_pawn_value`;
/// the king 1000).
pub(crate) fn value(rs: &RuleSet, b: &Tracked, id: PieceId) -> f64 {
    let Some(sq) = b.square_of(id) else {
        return rs.floating_pawn_value;
    };
    let Some(p) = b.pos.piece_at(sq) else {
        return rs.floating_pawn_value;
    };
    piece_value(rs, p, sq)
}

/// [`value`] of the piece `p` standing on `sq`.
fn piece_value(rs: &RuleSet, p: Piece, sq: Square) -> f64 {
    match p.role {
        Role::King => 1000.0,
        Role::Pawn => rs.floating_pawn_value,
        r => MATERIAL[r.index()][half(p.color, sq)]
            .1
            .unwrap_or(rs.floating_pawn_value),
    }
}

/// Could a piece of this kind and colour on `from` ever move to `to` on an empty board
/// (blocks, screens and modes ignored)? The oracle's `Spec::could_move`.
pub(crate) fn could_move(p: Piece, from: Square, to: Square) -> bool {
    could_reach(p, from) & (1u128 << to.index()) != 0
}

/// The points a piece of this kind and colour on `from` could ever move to ([`could_move`]).
fn could_reach(p: Piece, from: Square) -> u128 {
    let (c, r, f) = (p.color.index(), p.role.index(), from.index());
    match p.role {
        Role::Rook | Role::Cannon => RAYS[0][f] | RAYS[1][f] | RAYS[2][f] | RAYS[3][f],
        Role::Horse | Role::Elephant => {
            let g = &LEAPS[c][r][f];
            g.targets[..g.len as usize].iter().fold(0, |a, x| a | x)
        }
        _ => STEP_MOVE_OR_CAPTURE[c][r][f] | STEP_QUIET[c][r][f] | steps_capture(c, r, f),
    }
}

fn steps_capture(c: usize, r: usize, f: usize) -> u128 {
    crate::tables::STEP_CAPTURE[c][r][f]
}

/// The position of a move in the oracle's generation order for its piece: rule, vector,
/// distance (the oracle interprets the spec's rules in order).
fn order_key(b: &Tracked, m: Move) -> u32 {
    let Some(p) = b.pos.piece_at(m.from()) else {
        return u32::MAX;
    };
    let (from, to) = (m.from(), m.to());
    let occupied = b.pos.piece_at(to).is_some();
    let fw = p.color.forward() as i32;
    let (df, dr) = (
        to.file().index() as i32 - from.file().index() as i32,
        to.rank().index() as i32 - from.rank().index() as i32,
    );
    let crossed = half(p.color, from) == 1;
    for (ri, rule) in RULES[p.role.index()].iter().enumerate() {
        let when_ok = match rule.when {
            xiangqi_spec::rules::When::Always => true,
            xiangqi_spec::rules::When::BeforeRiver => !crossed,
            xiangqi_spec::rules::When::AfterRiver => crossed,
        };
        if !when_ok {
            continue;
        }
        let mode_ok = match rule.mode {
            xiangqi_spec::rules::Mode::MoveOrCapture => true,
            xiangqi_spec::rules::Mode::Quiet => !occupied,
            xiangqi_spec::rules::Mode::Capture => occupied,
        };
        if !mode_ok {
            continue;
        }
        for (vi, v) in rule.vectors.iter().enumerate() {
            let (vf, vr) = (v.0 as i32 * fw, v.1 as i32 * fw);
            let dist = match rule.kind {
                xiangqi_spec::rules::RuleKind::Slide => {
                    let k = if vf != 0 { df / vf } else { dr / vr };
                    (k >= 1 && df == k * vf && dr == k * vr).then_some(k as u32)
                }
                _ => (df == vf && dr == vr).then_some(0),
            };
            if let Some(d) = dist {
                return (ri as u32) << 16 | (vi as u32) << 8 | d;
            }
        }
    }
    u32::MAX
}

/// `[color][role][square]` sets of points.
type PerPiece = [[[u128; 90]; 7]; 2];

/// The [`could_move`] relation as tables, built once: `.0[c][r][to]` the points `from` with
/// [`could_move`] of that piece from `from` to `to`; `.1[c][r][from]` the points `to`.
fn could_move_tables() -> &'static (PerPiece, PerPiece) {
    static T: std::sync::OnceLock<Box<(PerPiece, PerPiece)>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new(([[[0u128; 90]; 7]; 2], [[[0u128; 90]; 7]; 2]));
        for c in Color::ALL {
            for (r, &role) in Role::ALL.iter().enumerate() {
                let p = Piece::new(c, role);
                for from in 0..90u8 {
                    let reach = could_reach(p, Square::new_unchecked(from));
                    t.1[c.index()][r][from as usize] = reach;
                    let mut x = reach;
                    while x != 0 {
                        let to = x.trailing_zeros() as usize;
                        x &= x - 1;
                        t.0[c.index()][r][to] |= 1u128 << from;
                    }
                }
            }
        }
        t
    })
}

/// `[color][role][to]`: the points from which that piece could move to `to`.
fn origins() -> &'static PerPiece {
    &could_move_tables().0
}

/// The legal moves of the side to move that capture on `sq`, in id order of the capturers.
pub(crate) fn captures_on(b: &Tracked, sq: Square) -> Captures {
    let us = b.pos.turn();
    let mut v = Captures::new(Move::new(sq, sq));
    match b.pos.piece_at(sq) {
        Some(p) if p.color != us => {}
        _ => return v,
    }
    // The own pieces that could move to `sq` at all ([`could_move`], by table), then the
    // legality test for each.
    let o = origins();
    let mut cand = 0u128;
    for (r, &role) in Role::ALL.iter().enumerate() {
        cand |= b.pos.pieces(Piece::new(us, role)).0 & o[us.index()][r][sq.index()];
    }
    while cand != 0 {
        let from = Square::new_unchecked(cand.trailing_zeros() as u8);
        cand &= cand - 1;
        let m = Move::new(from, sq);
        if b.pos.is_legal(m) {
            v.push(m);
        }
    }
    if v.len() > 1 {
        v.sort_unstable_by_key(|m| b.ids[m.from().index()]);
    }
    v
}

/// The legal captures of the side to move in the oracle's order.
pub(crate) fn captures_ordered(b: &Tracked) -> MoveList {
    let mut v = MoveList::new();
    captures_ordered_into(b, &mut v);
    v
}

/// [`captures_ordered`] into `v` (emptied first; no copy of the list on return).
pub(crate) fn captures_ordered_into(b: &Tracked, v: &mut MoveList) {
    b.pos.legal_captures_into(v);
    sort_oracle(b, v);
}

/// Sorts moves into the oracle's order: the moving piece's id, then [`order_key`], which is
/// computed only for the moves of a piece with more than one move in the list (ids differ
/// between pieces, and [`order_key`] between the moves of one piece).
fn sort_oracle(b: &Tracked, v: &mut [Move]) {
    if v.len() < 2 {
        return;
    }
    v.sort_unstable_by_key(|m| b.ids[m.from().index()]);
    let mut i = 0;
    while i < v.len() {
        let from = v[i].from();
        let mut j = i + 1;
        while j < v.len() && v[j].from() == from {
            j += 1;
        }
        if j - i > 1 {
            // One piece has at most 17 targets.
            let mut keyed = [(0u32, v[i]); 32];
            for (slot, &m) in keyed.iter_mut().zip(&v[i..j]) {
                *slot = (order_key(b, m), m);
            }
            keyed[..j - i].sort_unstable_by_key(|x| x.0);
            for (m, x) in v[i..j].iter_mut().zip(&keyed) {
                *m = x.1;
            }
        }
        i = j;
    }
}

/// [`captures_ordered`] from the full legal move list (the reference for the tests).
#[cfg(test)]
fn captures_ordered_from_list(b: &Tracked) -> Vec<Move> {
    let them = b.pos.by_color(b.pos.turn().other()).0;
    let mut v: Vec<(u8, u32, Move)> = b
        .pos
        .legal_moves()
        .iter()
        .filter(|m| them & (1u128 << m.to().index()) != 0)
        .map(|m| (b.ids[m.from().index()], order_key(b, *m), *m))
        .collect();
    v.sort_by_key(|x| (x.0, x.1));
    v.into_iter().map(|x| x.2).collect()
}

/// How a threatened piece stands (24.15, 24.16 / 28.16), seen from the exchange.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cover {
    /// No legal recapture at all (無根子, false roots included).
    Unprotected,
    /// Some recapture, but the exchange still loses (少根子) or the target outweighs the attacker.
    Underprotected,
}

/// One way the side to move can win material (art. 29.1 / 24.3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Threat {
    /// The piece that would be won.
    pub target: PieceId,
    /// The piece that makes the first move of the winning line.
    pub attacker: PieceId,
    /// Net material gain.
    pub gain: f64,
    /// Won only by several pieces together (24.17).
    pub joint: bool,
    /// Won by consecutive checks first (29.1).
    pub via_checks: bool,
    /// Protection of the target.
    pub cover: Cover,
    /// 2011: the pieces without which the gain disappears (24.17), as a set of identities.
    pub necessary: IdSet,
    /// For a line of checks: the piece its first (checking) move captures, if any.
    pub first_capture: Option<PieceId>,
    /// Every piece that captures the target (the oracle's `capturers`) is a king.
    pub captured_by_kings: bool,
    /// Every piece that captures the target is a pawn.
    pub captured_by_pawns: bool,
    /// Every piece the line wins (a direct threat: the target), as identities.
    pub line_wins: IdSet,
}

/// What a line of play wins (the oracle's `Won`): the gain, the pieces won (as squares or as
/// identities, as the caller says), and of these the ones that some piece other than a king,
/// and other than a pawn, captures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Won {
    /// Net material gain.
    pub gain: f64,
    /// The pieces won.
    pub targets: u128,
    /// Of `targets`, those captured by some piece other than a king.
    pub by_non_king: u128,
    /// Of `targets`, those captured by some piece other than a pawn.
    pub by_non_pawn: u128,
}

impl Won {
    /// The three sets mapped by `f` (squares to identities or back).
    fn map(self, f: impl Fn(u128) -> u128) -> Won {
        Won {
            gain: self.gain,
            targets: f(self.targets),
            by_non_king: f(self.by_non_king),
            by_non_pawn: f(self.by_non_pawn),
        }
    }

    /// The capture of the piece on `to` by `capturer`, worth `gain`.
    fn capture(b: &Tracked, capturer: PieceId, to: Square, gain: f64) -> Won {
        let bit = 1u128 << to.index();
        Won {
            gain,
            targets: bit,
            by_non_king: if is_king(b, capturer) { 0 } else { bit },
            by_non_pawn: if is_pawn(b, capturer) { 0 } else { bit },
        }
    }
}

impl Threat {
    /// The identity of a threat for the newness test (29.2): (attacker, target).
    pub fn key(&self) -> (PieceId, PieceId) {
        (self.attacker, self.target)
    }
}

/// A fast hasher for the caches (keys are Zobrist hashes and small integers).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// The move after which threats are asked for ([`Analyzer::with_moved`]).
pub(crate) struct AfterMove {
    /// The piece that has just moved.
    moved: PieceId,
    /// The position before the move, the other side to move: what it could already win then
    /// is no answer within an exchange.
    them_before: Tracked,
    /// Hash and piece identities of `them_before`, for the cache keys.
    key: (u64, u64),
}

/// The searches of one classification: the rule set, the pieces offered in exchange (the
/// oracle's thread-local `OFFERED`) and the transposition caches ([`Caches`]).
pub(crate) struct Analyzer<'a> {
    pub rs: &'a RuleSet,
    /// Pieces excluded from the mates of [`Analyzer::mates_at_once`].
    pub offered: IdSet,
    /// When the threats after a move are asked for: the piece that has just moved and the
    /// position before the move (the oracle's `Ctx::after_move`, reading
    /// `complete-exchange-any-square`).
    pub after_move: Option<AfterMove>,
    /// The transposition caches of the searches.
    caches: Caches,
    /// The last `new_exchange_pairs` answer of this analyzer: (hash before, hash after, mover).
    pub(crate) exchange_pairs_memo: Option<ExchangePairsMemo>,
    /// The rule-set parameters the caches depend on.
    cache_key: CacheKey,
    /// [`Ceilings`] of the rule set (what a search can win at most), made on first use.
    ceilings: Option<Ceilings>,
    /// [`worth_step`] of the rule set, found on first use.
    worth_step: Option<Option<f64>>,
}

/// The most each kind of piece is worth under a rule set (on either half of the board), the
/// most valuable kinds first; the king is left out (it is never taken). A search by captures
/// and checks of `depth` plies makes at most `(depth + 1) / 2` moves of the winning side, each
/// taking at most one piece, and wins no more than the pieces it takes (an exchange never wins
/// more than the piece taken first, and the answers only take away): so it wins at most the
/// worth of the `(depth + 1) / 2` most valuable pieces of the other side
/// ([`Analyzer::gain_ceiling`]).
#[derive(Clone, Copy)]
struct Ceilings([(Role, f64); 6]);

impl Ceilings {
    fn of(rs: &RuleSet) -> Ceilings {
        let mut v = [(Role::Pawn, 0.0); 6];
        let roles = Role::ALL.iter().filter(|r| **r != Role::King);
        for (slot, &role) in v.iter_mut().zip(roles) {
            // [`piece_value`] on either half of the board.
            let most = match role {
                Role::Pawn => rs.floating_pawn_value,
                r => MATERIAL[r.index()]
                    .iter()
                    .map(|m| m.1.unwrap_or(rs.floating_pawn_value))
                    .fold(f64::NEG_INFINITY, f64::max),
            };
            *slot = (role, most);
        }
        v.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ceilings(v)
    }
}

/// The ways of the greatest gain found so far, combined as the oracle's `Won::best_of`: the
/// pieces every such way wins (`sure`), else every piece one of them wins (reading
/// `equal-gains-together`).
#[derive(Default)]
struct Ties {
    /// The greatest gain, and the union of the ways of that gain.
    best: Won,
    /// The pieces won by every way of that gain.
    sure: u128,
}

impl Ties {
    /// Adds a way to win.
    fn add(&mut self, w: Won) {
        if w.gain > self.best.gain {
            self.best = w;
            self.sure = w.targets;
        } else if w.gain == self.best.gain && w.gain > 0.0 {
            self.sure &= w.targets;
            self.best.targets |= w.targets;
            self.best.by_non_king |= w.by_non_king;
            self.best.by_non_pawn |= w.by_non_pawn;
        }
    }

    /// The combination of the ways of the greatest gain.
    fn best_of(self) -> Won {
        if self.sure == 0 {
            self.best
        } else {
            self.best.map(|s| s & self.sure)
        }
    }
}

/// The step of a rule set's worths: the largest of 1, 1/2, 1/4, 1/8 that divides every worth
/// a piece can have (`None` if none does). Every gain and threshold of the searches is then a
/// sum of such worths, exact in `f64`, and a gain of at least `w` is one above `w - step / 2`
/// ([`Analyzer::best_gain`]: the ways of equal gain).
fn worth_step(rs: &RuleSet) -> Option<f64> {
    let king = piece_value(
        rs,
        Piece::new(Color::Red, Role::King),
        Square::new_unchecked(4),
    );
    let worths = || {
        MATERIAL
            .iter()
            .flatten()
            .filter_map(|m| m.1)
            .chain([rs.floating_pawn_value, king])
    };
    [1.0, 0.5, 0.25, 0.125]
        .into_iter()
        .find(|q: &f64| worths().all(|w| (w / q).fract() == 0.0 && w.abs() < 1e9))
}

/// The last few [`Analyzer::captures`] answers, by hash and piece ids: one classification asks
/// for the captures of the same two or three positions several times. A ring of
/// `CAPTURES_KEPT` entries, `next` the next one to replace; kept with the caches, so that an
/// analyzer starts without filling it.
struct CapturesRing {
    entries: [(u64, [u8; 90], FewCaptures); CAPTURES_KEPT],
    next: usize,
}

impl Default for CapturesRing {
    fn default() -> Self {
        // Hash 0 with no piece ids matches no position: the ring starts empty.
        CapturesRing {
            entries: [(0, [super::track::NONE; 90], FewCaptures::new(NO_MOVE)); CAPTURES_KEPT],
            next: 0,
        }
    }
}

/// A filler for move lists (never read as a move).
const NO_MOVE: Move = Move::new(Square::new_unchecked(0), Square::new_unchecked(0));

/// Legal captures kept inline. A game position can have at most 67 (two rooks and two cannons 4
/// each, two horses 8, five pawns 3, the king 4, two advisors and two elephants 4 each) but
/// seldom has more than a dozen: every answer of [`Analyzer::captures`] is copied out of its
/// memo, and a shorter list is a shorter copy (72 inline: 0.4% more instructions on the judge
/// benchmark). A position with more gets a full move list, not remembered.
const FEW_CAPTURES: usize = 24;

/// The captures of a position, without heap allocation (at most `FEW_CAPTURES`).
type FewCaptures = Short<Move, FEW_CAPTURES>;

/// Checking moves kept per position by the checks cache (a game position seldom has 20).
const FEW_CHECKS: usize = 32;

/// The checking moves of one position, without heap allocation.
type FewChecks = Short<Move, FEW_CHECKS>;

/// The moves of one position that a game position has few of: inline (at most `N`), or in a
/// full move list for a lenient set-up crowded with pieces. Derefs to a slice.
pub(crate) enum FewMoves<const N: usize> {
    Few(Short<Move, N>),
    Many(Box<MoveList>),
}

/// The legal captures of one position ([`Analyzer::captures`]).
pub(crate) type CaptureList = FewMoves<FEW_CAPTURES>;

/// The checking moves of one position ([`Analyzer::checking_moves`]).
pub(crate) type CheckList = FewMoves<FEW_CHECKS>;

impl<const N: usize> std::ops::Deref for FewMoves<N> {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        match self {
            FewMoves::Few(l) => l,
            FewMoves::Many(l) => l,
        }
    }
}

impl<const N: usize> std::ops::DerefMut for FewMoves<N> {
    fn deref_mut(&mut self) -> &mut [Move] {
        match self {
            FewMoves::Few(l) => l,
            FewMoves::Many(l) => l,
        }
    }
}

impl<const N: usize> FewMoves<N> {
    /// The moves of `all`, inline when they fit.
    #[inline]
    fn of(all: &MoveList) -> FewMoves<N> {
        if all.len() > N {
            return FewMoves::Many(Box::new(all.clone()));
        }
        let mut l = Short::new(NO_MOVE);
        for &m in all.iter() {
            l.push(m);
        }
        FewMoves::Few(l)
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        match self {
            FewMoves::Few(l) => {
                let mut kept = Short::new(NO_MOVE);
                for &m in l.iter().filter(|m| keep(**m)) {
                    kept.push(m);
                }
                *l = kept;
            }
            FewMoves::Many(l) => l.retain(keep),
        }
    }
}

/// How many positions' captures an [`Analyzer`] remembers.
const CAPTURES_KEPT: usize = 4;

/// (hash before, hash after, mover) and the pairs (own piece, enemy piece) of
/// `new_exchange_pairs`.
pub(crate) type ExchangePairsMemo = ((u64, u64, u8), Vec<(PieceId, PieceId)>);

/// The squares of the pieces of `s` on the board.
fn squares_of(b: &Tracked, s: IdSet) -> u128 {
    if s == 0 {
        return 0;
    }
    ids_in(s)
        .filter_map(|id| b.square_of(id))
        .fold(0, |a, q| a | (1u128 << q.index()))
}

/// The ids of the pieces on the squares `s`.
fn ids_on(b: &Tracked, mut s: u128) -> IdSet {
    let mut out = 0;
    while s != 0 {
        let i = s.trailing_zeros() as usize;
        s &= s - 1;
        if let Some(id) = b.id_at(Square::new_unchecked(i as u8)) {
            out |= id_bit(id);
        }
    }
    out
}

/// The part of a cache key that is neither the position nor the rule set
/// ([`Analyzer::context_key`]): the squares of the pieces offered with the square of the piece
/// that has just moved, and the hash and piece identities of the position before its move.
type ContextKey = (u128, u64, u64);

/// The parameters of the rule set the cached functions depend on (exchange values and the
/// "mated at once" depth): caches are kept between classifications while they are equal.
#[derive(Clone, Copy, PartialEq)]
struct CacheKey {
    floating_pawn_value: f64,
    mated_at_once_plies: u32,
    pawn_for_rook_is_gain: bool,
    check_lines: bool,
    chase_search_depth: u32,
    joint_chase: bool,
    pawn_by_checks_no_gain: bool,
    removes_protector: bool,
    won_back_by_checks: bool,
    answered_anywhere: bool,
}

impl CacheKey {
    fn of(rs: &RuleSet) -> CacheKey {
        CacheKey {
            floating_pawn_value: rs.floating_pawn_value,
            mated_at_once_plies: rs.mated_at_once_plies,
            pawn_for_rook_is_gain: rs.pawn_for_rook_is_gain,
            check_lines: rs
                .chase_forms
                .iter()
                .any(|f| f == "capture_after_consecutive_checks"),
            chase_search_depth: rs.chase_search_depth,
            joint_chase: rs.joint_chase,
            pawn_by_checks_no_gain: rs.pawn_by_checks_no_gain,
            removes_protector: rs.exchange_over_two_squares,
            won_back_by_checks: rs.won_back_by_checks_is_protection,
            answered_anywhere: rs.exchange_answered_anywhere,
        }
    }
}

/// A fingerprint of the piece identities (with the Zobrist hash it identifies a tracked
/// position: two pieces of one kind may have traded places).
fn ids_fingerprint(b: &Tracked) -> u64 {
    use std::hash::Hasher;
    let mut h = FxHasher::default();
    for c in b.ids.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        h.write_u64(u64::from_le_bytes(w));
    }
    h.finish()
}

/// The transposition caches of the searches, kept on the thread between classifications (every
/// entry is a function of the position, its arguments and the squares of the offered pieces).
/// The best gain's targets, and through the pawn-for-rook reading of 2011 even its value, are
/// the first of equal results in the oracle's order, which goes by piece identity: those
/// entries are keyed by the identities too (the same points and pieces reached by different
/// pieces of one kind break ties differently).
#[derive(Default)]
struct Caches {
    /// (hash, squares of avoided pieces) -> what the mate search proved there: no mate within
    /// `.0` plies, a mate within `.1` plies (a mate within n plies is one within n + 2).
    mates: FxMap<(u64, u128), (u32, u32)>,
    /// (hash, square, depth, squares of offered pieces) -> static exchange.
    sees: FxMap<(u64, u8, u32, u128), f64>,
    /// (hash, piece ids, depth, context key) -> best gain and the squares of its
    /// targets.
    gains: FxMap<(u64, u64, u32, ContextKey), Won>,
    /// (hash, piece ids, depth, context key) -> bounds on the best gain proved so
    /// far by [`Analyzer::gain_exceeds`]: it is above `.0` and at most `.1`.
    gain_bounds: FxMap<(u64, u64, u32, ContextKey), (f64, f64)>,
    /// (hash, piece ids, checker, context key) -> threats (checker `u8::MAX`:
    /// none given; `u8::MAX - 1`: the direct threats alone).
    threats: FxMap<(u64, u64, u8, ContextKey), Vec<Threat>>,
    /// hash -> the legal checking moves, in the order of
    /// [`Position::checking_moves`](crate::Position::checking_moves): a quarter of the lists a
    /// judgement asks for are of a position it asked about before (a position with more than
    /// `FEW_CHECKS` of them is not kept).
    checks: FxMap<u64, FewChecks>,
    /// The captures memo of [`Analyzer::captures`] (boxed: the caches move in and out of the
    /// thread with every analyzer; made on first use).
    captures: Option<Box<CapturesRing>>,
}

impl Caches {
    /// Empty caches with room for a typical classification.
    fn with_capacity() -> Caches {
        Caches {
            // Small: a judgement fills tens of entries, and clearing a map rewrites its whole
            // control array (the maps grow as a longer search needs and keep that size).
            mates: FxMap::with_capacity_and_hasher(64, Default::default()),
            sees: FxMap::with_capacity_and_hasher(64, Default::default()),
            gains: FxMap::with_capacity_and_hasher(64, Default::default()),
            gain_bounds: FxMap::with_capacity_and_hasher(64, Default::default()),
            threats: FxMap::with_capacity_and_hasher(16, Default::default()),
            checks: FxMap::with_capacity_and_hasher(64, Default::default()),
            captures: None,
        }
    }

    /// Number of entries.
    fn len(&self) -> usize {
        self.mates.len()
            + self.sees.len()
            + self.gains.len()
            + self.gain_bounds.len()
            + self.threats.len()
            + self.checks.len()
    }

    /// Forgets every entry, keeping the memory (`fit`: only the room the entries held still
    /// need, see [`clear_map`]).
    fn clear(&mut self, fit: bool) {
        clear_map(&mut self.mates, fit);
        clear_map(&mut self.sees, fit);
        clear_map(&mut self.gains, fit);
        clear_map(&mut self.gain_bounds, fit);
        clear_map(&mut self.threats, fit);
        clear_map(&mut self.checks, fit);
        if let Some(ring) = &mut self.captures {
            for e in &mut ring.entries {
                e.0 = 0;
            }
        }
    }
}

/// Empties `m`; with `fit`, a map grown by one deep search and then holding few entries
/// shrinks. Clearing a map costs its capacity, not its entries (every bucket's control byte is
/// rewritten): judged one by one after [`clear_caches`], short games that followed a long
/// judgement paid for clearing the large maps (the AXF peer corpus judged after the
/// classification benchmark: +7.6% time). A map its last judgement filled keeps its room. Only
/// [`clear_caches`] fits: the clears between two rule sets keep the memory (fitting there too
/// made classifying the worked examples, which switch rule sets often, 8% slower: the maps
/// grew again and again).
fn clear_map<K, V>(m: &mut FxMap<K, V>, fit: bool)
where
    K: Eq + std::hash::Hash,
{
    let used = m.len().max(MAP_ROOM);
    m.clear();
    if fit && m.capacity() > 8 * used {
        m.shrink_to(2 * used);
    }
}

/// The room of a map that is never shrunk below (entries).
const MAP_ROOM: usize = 64;

/// Entries kept between classifications at most (a few tens of MB).
const CACHE_LIMIT: usize = 1 << 19;

thread_local! {
    static CACHES: std::cell::RefCell<Option<(CacheKey, Caches)>> =
        const { std::cell::RefCell::new(None) };
}

/// Forgets the search caches this thread keeps between classifications under one rule set:
/// the next judgement starts cold, as the first one of a process does.
pub fn clear_caches() {
    // The entries go; the memory stays for the next classification, as much of it as the
    // last one filled.
    let _ = CACHES.try_with(|x| {
        if let Some((_, c)) = x.borrow_mut().as_mut() {
            c.clear(true);
        }
    });
}

impl Drop for Analyzer<'_> {
    fn drop(&mut self) {
        let c = std::mem::take(&mut self.caches);
        if c.len() <= CACHE_LIMIT {
            let key = self.cache_key;
            let _ = CACHES.try_with(|x| *x.borrow_mut() = Some((key, c)));
        }
    }
}

impl<'a> Analyzer<'a> {
    /// An analyzer for `rs`, with the caches of the previous one on this thread when they
    /// hold for the same parameters.
    pub fn new(rs: &'a RuleSet) -> Analyzer<'a> {
        let key = CacheKey::of(rs);
        let c = match CACHES.try_with(|x| x.borrow_mut().take()).ok().flatten() {
            Some((k, c)) if k == key => c,
            // Entries computed under other parameters do not hold: only the memory is reused.
            Some((_, mut c)) => {
                c.clear(false);
                c
            }
            None => Caches::with_capacity(),
        };
        Analyzer {
            rs,
            offered: 0,
            after_move: None,
            caches: c,
            exchange_pairs_memo: None,
            cache_key: key,
            ceilings: None,
            worth_step: None,
        }
    }

    /// [`captures_ordered`], remembered for the last few positions of this analyzer.
    pub(crate) fn captures(&mut self, b: &Tracked) -> CaptureList {
        let h = b.pos.hash();
        let ring = self.caches.captures.get_or_insert_with(Box::default);
        if let Some((_, _, l)) = ring
            .entries
            .iter()
            .find(|(k, ids, _)| *k == h && *ids == b.ids)
        {
            return FewMoves::Few(*l);
        }
        let mut v = MoveList::new();
        captures_ordered_into(b, &mut v);
        // A position with more than FEW_CAPTURES captures (seldom in a game): not remembered.
        let list = CaptureList::of(&v);
        if let FewMoves::Few(l) = list {
            ring.entries[ring.next] = (h, b.ids, l);
            ring.next = (ring.next + 1) % CAPTURES_KEPT;
        }
        list
    }

    /// The legal checking moves of the side to move
    /// ([`Position::checking_moves`](crate::Position::checking_moves)), remembered by position
    /// for the rest of the judgement.
    pub(crate) fn checking_moves(&mut self, b: &Tracked) -> CheckList {
        // One lookup: the slot of a position not seen yet is filled below.
        let slot = match self.caches.checks.entry(b.pos.hash()) {
            std::collections::hash_map::Entry::Occupied(e) => return FewMoves::Few(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => e,
        };
        // Filled in place, without a full move list to fill and copy.
        let mut l = FewChecks::new(NO_MOVE);
        let mut n = 0;
        b.pos.checking_moves_each(|m| {
            if n < FEW_CHECKS {
                l.push(m);
            }
            n += 1;
        });
        if n > FEW_CHECKS {
            // Only a lenient set-up crowded with pieces has too many: not remembered.
            return CheckList::of(&b.pos.checking_moves());
        }
        slot.insert(l);
        FewMoves::Few(l)
    }

    /// [`Analyzer::checking_moves`] in the oracle's order (pieces by id, then each piece's
    /// rules in order), where the first of equal results is kept.
    fn checking_moves_ordered(&mut self, b: &Tracked) -> CheckList {
        let mut v = self.checking_moves(b);
        sort_oracle(b, &mut v);
        v
    }

    /// Does the side to move have a move that mates at once (29.4)? Within
    /// `mated_at_once_plies`, never taking a piece of `offered`.
    pub fn mates_at_once(&mut self, b: &mut Tracked) -> bool {
        let o = self.offered;
        self.mate_by_checks_in(b, self.rs.mated_at_once_plies, o)
    }

    /// Runs `f` asking about the position after `moved` has moved from `before` (the oracle's
    /// `Ctx::after_move_of`).
    pub fn with_moved<T>(
        &mut self,
        moved: PieceId,
        before: &Tracked,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let them_before = before.passed();
        let key = (them_before.pos.hash(), ids_fingerprint(&them_before));
        let old = self.after_move.replace(AfterMove {
            moved,
            them_before,
            key,
        });
        let r = f(self);
        self.after_move = old;
        r
    }

    /// The part of a cache key that is neither the position nor the rule set: the squares of
    /// the pieces offered and (above them) the square of the piece that has just moved; with
    /// the hash and piece identities of the position before its move.
    fn context_key(&self, b: &Tracked) -> ContextKey {
        let (moved, (before_hash, before_ids)) = match &self.after_move {
            Some(m) => (
                b.square_of(m.moved)
                    .map_or(127u128 << 96, |sq| (sq.index() as u128 + 1) << 96),
                m.key,
            ),
            None => (0, (0, 0)),
        };
        (squares_of(b, self.offered) | moved, before_hash, before_ids)
    }

    /// Runs `f` with the pieces `offered` excluded from the mates of `mates_at_once`.
    pub fn with_offered<T>(&mut self, offered: IdSet, f: impl FnOnce(&mut Self) -> T) -> T {
        let old = std::mem::replace(&mut self.offered, offered);
        let r = f(self);
        self.offered = old;
        r
    }

    /// Static exchange on `sq` for the side to move (the oracle's `see` with no restriction):
    /// the best net material it can force there (≥ 0), a capture after which the other side
    /// mates at once never being worth making (29.4).
    pub fn see(&mut self, b: &mut Tracked, sq: Square, depth: u32) -> f64 {
        if depth == 0 {
            return 0.0;
        }
        let Some(victim) = id_at(b, sq) else {
            return 0.0;
        };
        // Most points asked about cannot be taken at all: that is found without the cache.
        let caps = captures_on(b, sq);
        if caps.is_empty() {
            return 0.0;
        }
        let key = (
            b.pos.hash(),
            sq.index() as u8,
            depth,
            squares_of(b, self.offered),
        );
        if let Some(&v) = self.caches.sees.get(&key) {
            return v;
        }
        let v = value(self.rs, b, victim);
        let mut best = 0.0;
        for m in caps {
            let u = b.play_undo(m);
            let g = v - self.see(b, sq, depth - 1);
            if g > best && !self.mates_at_once(b) {
                best = g;
            }
            b.undo(m, u);
        }
        self.caches.sees.insert(key, best);
        best
    }

    /// Every way the side to move can win material on its next move (the oracle's `threats`).
    pub fn threats(&mut self, b: &Tracked, checker: Option<PieceId>) -> Vec<Threat> {
        let key = (
            b.pos.hash(),
            ids_fingerprint(b),
            checker.map_or(u8::MAX, |c| c.0),
            self.context_key(b),
        );
        if let Some(t) = self.caches.threats.get(&key) {
            return t.clone();
        }
        let out = self.threats_uncached(b, checker);
        self.caches.threats.insert(key, out.clone());
        out
    }

    /// Is `key` (attacker, target) one of [`Analyzer::threats`]`(b, None)`? The same answer,
    /// searching only the lines of checks the attacker opens, and only when the target is no
    /// direct threat (a line of checks counts only for a piece that cannot be won directly).
    pub fn has_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        self.with_direct_threats(b, |d| d.iter().any(|t| t.key() == key))
            || self.has_check_threat(b, key)
    }

    /// Is `key` (attacker, target) one of the direct threats (not by consecutive checks) of
    /// [`Analyzer::threats`]`(b, None)`?
    pub fn is_direct_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        self.with_direct_threats(b, |d| d.iter().any(|t| t.key() == key))
    }

    /// Is `key` (attacker, target) one of the threats by consecutive checks
    /// (`via_checks`) of [`Analyzer::threats`]`(b, None)`?
    pub fn has_check_threat(&mut self, b: &Tracked, key: (PieceId, PieceId)) -> bool {
        let (attacker, target) = key;
        self.check_threat_by(b, Some(attacker), target)
    }

    /// Is there a threat by consecutive checks (`via_checks`) of [`Analyzer::threats`]`(b,
    /// None)` to `target`, whichever piece opens it?
    pub fn has_check_threat_to(&mut self, b: &Tracked, target: PieceId) -> bool {
        self.check_threat_by(b, None, target)
    }

    /// A threat by consecutive checks to `target`, opened by `attacker` (any piece: `None`)?
    fn check_threat_by(&mut self, b: &Tracked, attacker: Option<PieceId>, target: PieceId) -> bool {
        if self.with_direct_threats(b, |d| d.iter().any(|t| t.target == target)) {
            return false;
        }
        self.check_line_wins(b, attacker, target)
    }

    /// Does a line of consecutive checks opened by `attacker` (any piece: `None`) win `target`
    /// (a threat of [`Analyzer::check_threats`], whatever the direct threats)?
    fn check_line_wins(
        &mut self,
        b0: &Tracked,
        attacker: Option<PieceId>,
        target: PieceId,
    ) -> bool {
        if !self.check_lines_on()
            || (self.rs.pawn_by_checks_no_gain && is_pawn(b0, target))
            || b0.square_of(target).is_none()
        {
            return false;
        }
        let depth = self.rs.chase_search_depth;
        let mut b = b0.clone();
        for &k in self.checking_moves(&b).iter() {
            if attacker.is_some_and(|a| id_at(&b, k.from()) != Some(a)) {
                continue;
            }
            if self.line_wins_piece(&mut b, k, depth, target) {
                return true;
            }
        }
        false
    }

    /// Is `target` one of the pieces [`Analyzer::check_line`] of `k` wins? Those are the pieces
    /// won after each answer, so once the line is known to hold, the answers are evaluated
    /// only until one wins `target`.
    fn line_wins_piece(&mut self, b: &mut Tracked, k: Move, depth: u32, target: PieceId) -> bool {
        if !self.line_exceeds(b, k, depth, 0.0) {
            return false;
        }
        let rs = self.rs;
        let first = id_at(b, k.to()).map_or(0.0, |v| value(rs, b, v));
        let uk = b.play_undo(k);
        let mut found = false;
        for r in b.pos.legal_moves() {
            let taken = Taken::by(rs, b, r);
            let ur = b.play_undo(r);
            let won = self.best_gain(b, depth.saturating_sub(2));
            // As in `check_line_after`. The line holds, so an answer that leaves the checker
            // nothing is one that lets it mate: it adds no piece won.
            let total = taken.net(rs, b, first, &won);
            found = total > 0.0 && ids_on(b, won.targets) & id_bit(target) != 0;
            b.undo(r, ur);
            if found {
                break;
            }
        }
        b.undo(k, uk);
        found
    }

    /// Does the rule set count lines of consecutive checks as threats (29.1 second form)?
    fn check_lines_on(&self) -> bool {
        // `check_lines` is the chase form, read once per analyzer (CacheKey::of).
        self.cache_key.check_lines && self.rs.chase_search_depth >= 3
    }

    /// [`Analyzer::direct_threats`], cached with the threats.
    fn direct_threats_cached(&mut self, b: &Tracked) -> Vec<Threat> {
        self.with_direct_threats(b, |d| d.to_vec())
    }

    /// `f` of [`Analyzer::direct_threats`], cached with the threats, without copying them.
    fn with_direct_threats<T>(&mut self, b: &Tracked, f: impl FnOnce(&[Threat]) -> T) -> T {
        let key = (
            b.pos.hash(),
            ids_fingerprint(b),
            u8::MAX - 1,
            self.context_key(b),
        );
        if let Some(d) = self.caches.threats.get(&key) {
            return f(d);
        }
        let d = self.direct_threats(b);
        let r = f(&d);
        self.caches.threats.insert(key, d);
        r
    }

    fn threats_uncached(&mut self, b: &Tracked, checker: Option<PieceId>) -> Vec<Threat> {
        let mut out = self.direct_threats_cached(b);
        if self.check_lines_on() {
            let direct: IdSet = out.iter().fold(0, |a, t| a | id_bit(t.target));
            let depth = self.rs.chase_search_depth;
            for t in self.check_threats(b, depth, checker) {
                if direct & id_bit(t.target) == 0 {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Direct captures with gain (29.1 first form and the exchange form).
    fn direct_threats(&mut self, b0: &Tracked) -> Vec<Threat> {
        let rs = self.rs;
        let mut b = b0.clone();
        let me = b.pos.turn();
        let mut out: Vec<Threat> = Vec::new();
        let follow_up = rs.exchange_over_two_squares;
        let winnable_now = if follow_up {
            self.direct_plain_targets(&mut b)
        } else {
            0
        };
        for &m in self.captures(&b).iter() {
            let Some(target) = id_at(&b, m.to()) else {
                continue;
            };
            if !is_material(&b, target) {
                continue;
            }
            let attacker = id_at(&b, m.from()).expect("a mover");
            let tval = value(rs, &b, target);
            let attacker_is_pawn = is_pawn(&b, attacker);
            let pawn_ok = pawn_trade_is_gain(rs, &b, target);
            let u = b.play_undo(m);
            let back = self.see(&mut b, m.to(), 8);
            let mut gain = tval - back;
            if gain <= 0.0 && follow_up {
                gain = gain.max(self.exchange_with_follow_up(&mut b, m, tval, winnable_now));
            }
            if rs.exchange_answered_anywhere && gain > 0.0 {
                gain = gain.min(tval - self.answer_elsewhere(b0, &mut b, m.to(), tval));
            }
            let skip = gain <= 0.0
                || self.mates_at_once(&mut b)
                || self.capturer_won_back_by_checks(&mut b, m.to(), gain);
            let recaptures = !skip && !captures_on(&b, m.to()).is_empty();
            b.undo(m, u);
            if skip {
                continue;
            }
            if attacker_is_pawn && back > 0.0 && !pawn_ok {
                continue;
            }
            out.push(Threat {
                target,
                attacker,
                gain,
                joint: false,
                via_checks: false,
                cover: if recaptures {
                    Cover::Underprotected
                } else {
                    Cover::Unprotected
                },
                necessary: 0,
                first_capture: None,
                captured_by_kings: is_king(&b, attacker),
                captured_by_pawns: attacker_is_pawn,
                line_wins: id_bit(target),
            });
        }
        if rs.joint_chase {
            let targets: IdSet = out.iter().fold(0, |a, t| a | id_bit(t.target));
            for target in ids_in(targets) {
                // A piece won only across two squares (exchange-removes-protector) is no joint
                // chase.
                if !self.winnable(&b, target) {
                    continue;
                }
                let t_sq = b.square_of(target).expect("on board");
                let protectors: Vec<Square> = b
                    .ids_of(me.other())
                    .filter(|q| *q != target)
                    .filter_map(|q| {
                        let s = b.square_of(q)?;
                        let p = b.pos.piece_at(s)?;
                        could_move(p, s, t_sq).then_some(s)
                    })
                    .collect();
                let candidates: Vec<PieceId> = b
                    .ids_of(me)
                    .filter(|p| !is_king(&b, *p))
                    .filter(|p| {
                        let s = b.square_of(*p).expect("on board");
                        let pc = b.pos.piece_at(s).expect("on board");
                        could_move(pc, s, t_sq) || protectors.iter().any(|q| could_move(pc, s, *q))
                    })
                    .collect();
                let mut necessary: IdSet = 0;
                for p in candidates {
                    if only_blocks(&b, target, p) {
                        continue;
                    }
                    let w = b.without(b.square_of(p).expect("on board"));
                    if !self.winnable(&w, target) {
                        necessary |= id_bit(p);
                    }
                }
                let lesser = role_id(&b, target) == "rook"
                    && out.iter().any(|t| {
                        t.target == target && value(rs, &b, t.attacker) < value(rs, &b, target)
                    });
                let joint = necessary.count_ones() >= 2 && !lesser;
                for t in out.iter_mut().filter(|t| t.target == target) {
                    t.joint = joint;
                    t.necessary = necessary;
                }
            }
        }
        out
    }

    /// The pieces the side to move can win by a direct capture now (the targets of the oracle's
    /// `direct_threats_plain`).
    fn direct_plain_targets(&mut self, b: &mut Tracked) -> IdSet {
        let mut out = 0;
        for m in captures_ordered(b) {
            let Some(target) = id_at(b, m.to()) else {
                continue;
            };
            let v = value(self.rs, b, target);
            let u = b.play_undo(m);
            let ok = v - self.see(b, m.to(), 8) > 0.0 && !self.mates_at_once(b);
            b.undo(m, u);
            if ok {
                out |= id_bit(target);
            }
        }
        out
    }

    /// The complete exchange across two squares (reading `exchange-removes-protector`): `a` is
    /// the position after the capture `m` of a piece worth `v`; if the other side recaptures,
    /// the capturer may instead take elsewhere a piece it could not win before (not in
    /// `winnable_now`). The net gain the other side's best answer leaves the capturer.
    fn exchange_with_follow_up(
        &mut self,
        a: &mut Tracked,
        m: Move,
        v: f64,
        winnable_now: IdSet,
    ) -> f64 {
        let rs = self.rs;
        let capturer = id_at(a, m.to()).expect("the capturer");
        let vc = value(rs, a, capturer);
        let mut worst = v;
        for r in captures_on(a, m.to()) {
            let ur = a.play_undo(r);
            if self.mates_at_once(a) {
                a.undo(r, ur);
                continue;
            }
            let mut best = self.see(a, m.to(), 7);
            let moves = a.pos.legal_moves();
            for &f in moves.iter() {
                let Some(t) = id_at(a, f.to()) else {
                    continue;
                };
                if f.to() == m.to() || winnable_now & id_bit(t) != 0 || !is_material(a, t) {
                    continue;
                }
                let vt = value(rs, a, t);
                let uf = a.play_undo(f);
                let g = vt - self.see(a, f.to(), 8);
                if g > best && !self.mates_at_once(a) {
                    best = g;
                }
                a.undo(f, uf);
            }
            a.undo(r, ur);
            worst = worst.min(v - vc + best);
        }
        worst
    }

    /// Can the side to move win `target` by a direct capture and the exchange that follows?
    fn winnable(&mut self, b0: &Tracked, target: PieceId) -> bool {
        let Some(sq) = b0.square_of(target) else {
            return false;
        };
        let mut b = b0.clone();
        let v = value(self.rs, &b, target);
        for m in captures_on(&b, sq) {
            let u = b.play_undo(m);
            let won = v - self.see(&mut b, sq, 8) > 0.0
                && !(self.rs.exchange_answered_anywhere
                    && v - self.answer_elsewhere(b0, &mut b, sq, v) <= 0.0);
            b.undo(m, u);
            if won {
                return true;
            }
        }
        false
    }

    /// Reading `complete-exchange-any-square` (the oracle's `answer_elsewhere`): after a
    /// capture on `sq` (`b` before it, `a` after it, the other side to move), the best net
    /// material the other side can win instead of recapturing, by taking elsewhere a piece that
    /// is newly en prise: taken by a piece that already attacked its point, not winnable before
    /// the move (before the capture when no move is given), not the piece that has just moved,
    /// and not guarded before by a capturer that is that piece.
    ///
    /// The search stops once the answer reaches `enough` (the piece the capture took): the
    /// capture then wins nothing, whatever the exact answer.
    fn answer_elsewhere(&mut self, b: &Tracked, a: &mut Tracked, sq: Square, enough: f64) -> f64 {
        let rs = self.rs;
        let capturer = id_at(a, sq).expect("the capturer");
        let capturer_was_on = b.square_of(capturer);
        let moved = self.after_move.as_ref().map(|m| m.moved);
        let capturer_is_moved = moved == Some(capturer);
        // What the other side could already win before the move (before the capture when no
        // move is given) is no answer: that position, with the other side to move, copied on
        // first need.
        let mut them_before: Option<Tracked> = None;
        let mut best = 0.0;
        let captures = self.captures(a);
        for &c in captures.iter() {
            if best >= enough {
                break;
            }
            if c.to() == sq {
                continue;
            }
            let Some(victim) = id_at(a, c.to()) else {
                continue;
            };
            if !is_material(a, victim) || moved == Some(victim) {
                continue;
            }
            // An answer wins at most the piece it takes.
            let vt = value(rs, a, victim);
            if vt <= best {
                continue;
            }
            let answerer = id_at(a, c.from()).expect("a mover");
            if reach_of(b, answerer) & (1u128 << c.to().index()) == 0 {
                continue;
            }
            if capturer_is_moved && capturer_was_on.is_some_and(|g| b.pos.guards(g, c.to())) {
                continue;
            }
            let before = them_before.get_or_insert_with(|| match &self.after_move {
                Some(m) => m.them_before.clone(),
                None => b.passed(),
            });
            if self.see(before, c.to(), 8) > 0.0 {
                continue;
            }
            let u = a.play_undo(c);
            let g = vt - self.see(a, c.to(), 8);
            if g > best && !self.mates_at_once(a) {
                best = g;
            }
            a.undo(c, u);
        }
        best
    }

    /// Lines of consecutive checks that end in a gain of material whatever the defender answers
    /// (29.1 second form). Each threat names the first checking piece and a piece won.
    fn check_threats(&mut self, b0: &Tracked, depth: u32, checker: Option<PieceId>) -> Vec<Threat> {
        let mut b = b0.clone();
        let mut out = Vec::new();
        for &k in self.checking_moves_ordered(&b).iter() {
            let attacker = id_at(&b, k.from()).expect("a mover");
            if checker.is_some_and(|c| c != attacker) {
                continue;
            }
            if let Some(won) = self.check_line_tested_first(&mut b, k, depth) {
                let gain = won.gain;
                let ids = won.map(|sq| ids_on(&b, sq));
                for target in ids_in(ids.targets)
                    .filter(|t| !(self.rs.pawn_by_checks_no_gain && is_pawn(&b, *t)))
                {
                    out.push(Threat {
                        target,
                        attacker,
                        gain,
                        joint: false,
                        via_checks: true,
                        cover: cover_on_board(&b, target),
                        necessary: 0,
                        first_capture: id_at(&b, k.to()),
                        captured_by_kings: ids.by_non_king & id_bit(target) == 0,
                        captured_by_pawns: ids.by_non_pawn & id_bit(target) == 0,
                        line_wins: ids.targets,
                    });
                }
            }
        }
        out
    }

    /// Reading `capture-answered-by-checks` (2011 24.3, 24.15): after a capture (`a`, the other
    /// side to move, the capturer on `capturer_sq`), can the other side answer with a line of
    /// consecutive checks that wins the capturer back and nets more than the capture's `gain`,
    /// whatever the capturer replies? Then the capture is no gain.
    fn capturer_won_back_by_checks(
        &mut self,
        a: &mut Tracked,
        capturer_sq: Square,
        gain: f64,
    ) -> bool {
        let rs = self.rs;
        if !rs.won_back_by_checks_is_protection {
            return false;
        }
        if id_at(a, capturer_sq).is_none() {
            return false;
        }
        // Only the lines worth more than `gain` are evaluated in full.
        let bit = 1u128 << capturer_sq.index();
        let depth = rs.chase_search_depth;
        for &k in self.checking_moves(a).iter() {
            if !self.line_exceeds(a, k, depth, gain) {
                continue;
            }
            if let Some(won) = self.check_line(a, k, depth) {
                if won.gain > gain && won.targets & bit != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// After the checking move `k`, the least gain the checker is sure of against every answer,
    /// with the squares (in `b`) of the pieces it wins in the end; `None` when some answer
    /// leaves it no gain, or when the check mates.
    fn check_line(&mut self, b: &mut Tracked, k: Move, depth: u32) -> Option<Won> {
        self.after_check(b, k, |az, a, first| az.check_line_after(a, first, depth))
    }

    /// Plays the checking move `k`, runs `f` on the position after it with the worth of the
    /// piece `k` took (0 if none), takes `k` back, and gives the pieces won as their squares.
    #[inline]
    fn after_check(
        &mut self,
        b: &mut Tracked,
        k: Move,
        f: impl FnOnce(&mut Self, &mut Tracked, f64) -> Option<Won>,
    ) -> Option<Won> {
        let first = id_at(b, k.to())
            .map(|v| value(self.rs, b, v))
            .unwrap_or(0.0);
        let uk = b.play_undo(k);
        let r = f(self, b, first);
        b.undo(k, uk);
        // The pieces won stand in `b` where they stood after the move (a captured piece never
        // comes back, and the targets are pieces of the side in check).
        r.map(|w| w.map(|ids| squares_of(b, ids)))
    }

    /// [`Analyzer::check_line`], with only the first answer tested before the line is evaluated
    /// in full (most lines that fail fail there): for the lines of [`Analyzer::check_threats`],
    /// about half of which hold at the full depth, testing every answer first
    /// ([`Analyzer::line_exceeds`]) and then evaluating the line again costs more (judge −2%
    /// instructions). The lines of [`Analyzer::capturer_won_back_by_checks`], which must win
    /// at least a given worth, are tested against that worth on every answer first.
    fn check_line_tested_first(&mut self, b: &mut Tracked, k: Move, depth: u32) -> Option<Won> {
        self.after_check(b, k, |az, a, first| {
            let r0 = a.pos.first_legal_move()?;
            az.answer_leaves(a, r0, first, depth, 0.0)?;
            az.check_line_after(a, first, depth)
        })
    }

    fn check_line_after(&mut self, a: &mut Tracked, first: f64, depth: u32) -> Option<Won> {
        let rs = self.rs;
        let mut replies = MoveList::new();
        a.pos.legal_moves_into(&mut replies);
        if replies.is_empty() {
            return None;
        }
        // Any answer that leaves no gain ends the line, so captures (the likeliest refutations)
        // are tried first; the result does not depend on the order.
        replies.sort_by_key(|r| a.pos.piece_at(r.to()).is_none());
        let mut worst: Option<f64> = None;
        // As identities.
        let mut won = Won::default();
        for &r in replies.iter() {
            let taken = Taken::by(rs, a, r);
            let ur = a.play_undo(r);
            if !a.pos.has_legal_move() {
                a.undo(r, ur);
                return None;
            }
            let sub = self.best_gain(a, depth.saturating_sub(2));
            let total = taken.net(rs, a, first, &sub);
            let sub_ids = sub.map(|sq| ids_on(a, sq));
            // An answer that leaves no gain but lets the checker mate is lost for the defender
            // (reading `defence-that-allows-mate`): it neither refutes the line nor adds a
            // piece won.
            let lost_to_mate =
                total <= 0.0 && self.mate_by_checks_in(a, depth.saturating_sub(2), 0);
            a.undo(r, ur);
            if lost_to_mate {
                continue;
            }
            if total <= 0.0 {
                return None;
            }
            worst = Some(worst.map_or(total, |w: f64| w.min(total)));
            won.targets |= sub_ids.targets;
            won.by_non_king |= sub_ids.by_non_king;
            won.by_non_pawn |= sub_ids.by_non_pawn;
        }
        if won.targets == 0 {
            return None;
        }
        worst.map(|gain| Won { gain, ..won })
    }

    /// The best gain (≥ 0) the side to move can force now: a direct capture with gain or a check
    /// line, with the squares of the pieces it wins. Ways of equal gain are combined as the
    /// oracle's `Won::best_of` does ([`Ties`], reading `equal-gains-together`).
    fn best_gain(&mut self, b: &mut Tracked, depth: u32) -> Won {
        if depth == 0 {
            return Won::default();
        }
        let key = (b.pos.hash(), ids_fingerprint(b), depth, self.context_key(b));
        if let Some(&r) = self.caches.gains.get(&key) {
            return r;
        }
        // Only ways worth at least the best so far are evaluated: with the step of the worths
        // (every built-in rule set has one), those above half a step below it.
        let step = *self.worth_step.get_or_insert_with(|| worth_step(self.rs));
        let floor = |best: f64| match step {
            Some(q) if best > 0.0 => best - q / 2.0,
            _ => best,
        };
        let mut ties = Ties::default();
        let mut caps = MoveList::new();
        captures_ordered_into(b, &mut caps);
        for &m in caps.iter() {
            if let Some(gain) = self.capture_gain_above(b, m, floor(ties.best.gain)) {
                let capturer = id_at(b, m.from()).expect("a mover");
                ties.add(Won::capture(b, capturer, m.to(), gain));
            }
        }
        if depth >= 3 {
            for &k in self.checking_moves_ordered(b).iter() {
                if !self.line_exceeds(b, k, depth, floor(ties.best.gain)) {
                    continue;
                }
                if let Some(line) = self.check_line(b, k, depth) {
                    ties.add(line);
                }
            }
        }
        let best = ties.best_of();
        self.caches.gains.insert(key, best);
        best
    }

    /// Is [`Analyzer::best_gain`] above `theta`? The same answer, found without evaluating
    /// every capture and check line in full: a capture of a piece worth at most `theta` is
    /// skipped, the first capture or line above `theta` ends the search, and a line is refuted
    /// by its first answer that leaves no more than `theta` ([`Analyzer::line_exceeds`]).
    fn gain_exceeds(&mut self, b: &mut Tracked, depth: u32, theta: f64) -> bool {
        if theta < 0.0 {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = (b.pos.hash(), ids_fingerprint(b), depth, self.context_key(b));
        if let Some(&Won { gain: g, .. }) = self.caches.gains.get(&key) {
            return g > theta;
        }
        let (lo, hi) = self
            .caches
            .gain_bounds
            .get(&key)
            .copied()
            .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        if lo >= theta {
            return true;
        }
        if hi <= theta {
            return false;
        }
        let mut found = self.capture_exceeds(b, theta);
        if !found && depth >= 3 {
            for &k in self.checking_moves(b).iter() {
                if self.line_exceeds(b, k, depth, theta) {
                    found = true;
                    break;
                }
            }
        }
        let e = self
            .caches
            .gain_bounds
            .entry(key)
            .or_insert((f64::NEG_INFINITY, f64::INFINITY));
        if found {
            e.0 = e.0.max(theta);
        } else {
            e.1 = e.1.min(theta);
        }
        found
    }

    /// The most [`Analyzer::best_gain`] of `depth` plies can win for the side that is not
    /// `victims` ([`Ceilings`]): the worth of the `(depth + 1) / 2` most valuable pieces of
    /// `victims` other than its king.
    fn gain_ceiling(&mut self, b: &Tracked, victims: Color, depth: u32) -> f64 {
        let rs = self.rs;
        let ceilings = self.ceilings.get_or_insert_with(|| Ceilings::of(rs));
        let mut takes = depth.div_ceil(2);
        let mut most = 0.0;
        for &(role, worth) in &ceilings.0 {
            if takes == 0 {
                break;
            }
            let n = b
                .pos
                .pieces(Piece::new(victims, role))
                .0
                .count_ones()
                .min(takes);
            most += f64::from(n) * worth;
            takes -= n;
        }
        most
    }

    /// Does a capture with gain (the exchange on its point, no mate at once after it) win more
    /// than `theta` (≥ 0)? Only pieces worth more than `theta` are tried: the exchange never
    /// wins more than the piece taken first.
    fn capture_exceeds(&mut self, b: &mut Tracked, theta: f64) -> bool {
        // Most of these questions come with a threshold no piece of the other side is worth
        // (more than half of them in the classification benchmark, in sparse endings): then no
        // capture is listed at all.
        if !self.has_piece_above(b, theta) {
            return false;
        }
        let mut caps = MoveList::new();
        b.pos.legal_captures_into(&mut caps);
        caps.iter()
            .any(|&m| self.capture_gain_above(b, m, theta).is_some())
    }

    /// Has the side not to move a piece worth more than `theta` other than its king (a piece
    /// [`Analyzer::capture_gain_above`] would try)? Its king is never taken: the searches ask
    /// after a legal move of that side, which leaves its king unattacked.
    fn has_piece_above(&self, b: &Tracked, theta: f64) -> bool {
        let pos = &b.pos;
        let them = pos.turn().other();
        debug_assert!(!pos.king_attacked(them));
        let kings = pos.pieces(Piece::new(them, Role::King)).0;
        (crate::Bitboard(pos.by_color(them).0 & !kings)).any(|sq| {
            let p = pos.piece_at(sq).expect("a piece of the side");
            piece_value(self.rs, p, sq) > theta
        })
    }

    /// The gain of the capture `m` (the piece taken less the exchange that follows on its
    /// point) when it is above `floor` (≥ 0) and the other side cannot mate at once after it.
    /// A piece worth at most `floor` is not tried: the exchange never wins more than the piece
    /// taken first.
    fn capture_gain_above(&mut self, b: &mut Tracked, m: Move, floor: f64) -> Option<f64> {
        let v = value(self.rs, b, id_at(b, m.to())?);
        if v <= floor {
            return None;
        }
        let u = b.play_undo(m);
        let gain = v - self.see(b, m.to(), 8);
        let ok = gain > floor && !self.mates_at_once(b);
        b.undo(m, u);
        ok.then_some(gain)
    }

    /// Is [`Analyzer::check_line`] of the checking move `k` a line (`Some`) worth more than
    /// `theta`? Every answer must leave the checker more than `theta` (and a gain), and one
    /// answer at least must leave it a piece won; the first answer that fails ends the search.
    fn line_exceeds(&mut self, b: &mut Tracked, k: Move, depth: u32, theta: f64) -> bool {
        let tau = theta.max(0.0);
        let Some(first) = self.taken_if_line_may_exceed(b, k, depth, tau) else {
            return false;
        };
        let uk = b.play_undo(k);
        let r = self.line_exceeds_after(b, first, depth, tau);
        b.undo(k, uk);
        r
    }

    /// The worth of the piece the checking move `k` takes (0 if none), if the line of
    /// consecutive checks it opens (a search of `depth` plies) could win more than `tau`: it
    /// wins that piece and what the search after the answer wins, nothing more
    /// ([`Analyzer::gain_ceiling`], where the piece taken is counted too). `None`: the line
    /// need not be searched.
    fn taken_if_line_may_exceed(
        &mut self,
        b: &Tracked,
        k: Move,
        depth: u32,
        tau: f64,
    ) -> Option<f64> {
        let first = id_at(b, k.to()).map_or(0.0, |v| value(self.rs, b, v));
        let most = first + self.gain_ceiling(b, b.pos.turn().other(), depth.saturating_sub(2));
        (most > tau).then_some(first)
    }

    fn line_exceeds_after(&mut self, a: &mut Tracked, first: f64, depth: u32, tau: f64) -> bool {
        // The answers are independent tests, so their order does not change the result. Most
        // lines are refuted by their first answer, which is therefore found without listing the
        // others.
        let Some(r0) = a.pos.first_legal_move() else {
            return false;
        };
        // Whether some answer leaves the checker a piece won (the line's targets are not empty),
        // and the answers for which that is still unknown (`r0`, then indices into `rest`; a
        // bit set, so that the search allocates nothing).
        let mut won = false;
        let r0_unknown = match self.answer_leaves(a, r0, first, depth, tau) {
            None => return false,
            Some(p) => {
                won |= p == Some(true);
                p.is_none()
            }
        };
        let mut rest = MoveList::new();
        a.pos.legal_moves_into(&mut rest);
        let mut unknown = [0u128; MAX_MOVES / 128];
        for (i, &r) in rest.iter().enumerate() {
            if r == r0 {
                continue;
            }
            match self.answer_leaves(a, r, first, depth, tau) {
                None => return false,
                Some(Some(true)) => won = true,
                Some(Some(false)) => {}
                Some(None) => unknown[i / 128] |= 1 << (i % 128),
            }
        }
        if won {
            return true;
        }
        let sub_depth = depth.saturating_sub(2);
        let pending = std::iter::once(r0).filter(|_| r0_unknown).chain(
            rest.iter()
                .enumerate()
                .filter(|(i, _)| unknown[i / 128] & (1 << (i % 128)) != 0)
                .map(|(_, &r)| r),
        );
        for r in pending {
            let ur = a.play_undo(r);
            won = self.gain_exceeds(a, sub_depth, 0.0);
            a.undo(r, ur);
            if won {
                break;
            }
        }
        won
    }

    /// One answer `r` to the check of [`Analyzer::line_exceeds`] (`a` after the check, the
    /// checker having taken a piece worth `first`): `None` when it refutes the line (it leaves
    /// the checker no more than `tau`, or no move at all), else whether it leaves the checker a
    /// piece won (`None` inside when that is still to be found out).
    fn answer_leaves(
        &mut self,
        a: &mut Tracked,
        r: Move,
        first: f64,
        depth: u32,
        tau: f64,
    ) -> Option<Option<bool>> {
        let rs = self.rs;
        let sub_depth = depth.saturating_sub(2);
        let taken = Taken::by(rs, a, r);
        let (lost, lost_pawn_only) = (taken.worth, taken.pawn);
        let ur = a.play_undo(r);
        // An answer after which the checker has no move at all refutes the line too. A gain
        // above a threshold ≥ 0 is a capture or a check, so it proves a move. `no_gain`: the
        // answer leaves the checker nothing (then it refutes the line unless the checker can
        // mate after it, reading `defence-that-allows-mate`).
        let (ok, positive, has_move, no_gain) = if lost_pawn_only && rs.pawn_for_rook_is_gain {
            // Whether what follows counts depends on the pieces won (a rook), but it only adds:
            if first - lost > tau {
                // the line holds already (whether it wins a piece is found out later if need
                // be);
                (true, None, false, false)
            } else if first - lost > 0.0 && !self.gain_exceeds(a, sub_depth, tau + lost - first) {
                // not even all that follows would be enough, and the answer leaves a gain;
                (false, None, false, false)
            } else {
                // else in full.
                let sub = self.best_gain(a, sub_depth);
                let total = taken.net(rs, a, first, &sub);
                (
                    total > tau,
                    Some(sub.gain > 0.0),
                    sub.gain > 0.0,
                    total <= 0.0,
                )
            }
        } else if lost_pawn_only {
            // Taking the pawn back is all the line is worth, whatever follows (25.3).
            (first - lost > tau, None, false, first - lost <= 0.0)
        } else {
            let th = tau + lost - first;
            let e = self.gain_exceeds(a, sub_depth, th);
            let no_gain = !e && (tau <= 0.0 || !self.gain_exceeds(a, sub_depth, lost - first));
            (e, (e && th >= 0.0).then_some(true), e && th >= 0.0, no_gain)
        };
        let res = if !(has_move || a.pos.has_legal_move()) {
            None
        } else if ok {
            Some(positive)
        } else if no_gain && self.mate_by_checks_in(a, sub_depth, 0) {
            Some(Some(false))
        } else {
            None
        };
        a.undo(r, ur);
        res
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
        for &k in self.checking_moves(&b).iter() {
            if id_at(&b, k.from()) != Some(own)
                || id_at(&b, k.to()).is_some_and(|v| avoid & id_bit(v) != 0)
            {
                continue;
            }
            let uk = b.play_undo(k);
            let replies = b.pos.legal_moves();
            let mut found = replies.is_empty();
            if !found && plies >= 3 {
                found = true;
                for &r in replies.iter() {
                    let ur = b.play_undo(r);
                    let ok = self.mate_by_checks_in(&mut b, plies - 2, 0);
                    b.undo(r, ur);
                    if !ok {
                        found = false;
                        break;
                    }
                }
            }
            b.undo(k, uk);
            if found {
                return true;
            }
        }
        false
    }

    fn mate_by_checks_in(&mut self, b: &mut Tracked, plies: u32, avoid: IdSet) -> bool {
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

/// The squares of all rooks.
fn rooks(b: &Tracked) -> u128 {
    b.pos.pieces(Piece::new(Color::Red, Role::Rook)).0
        | b.pos.pieces(Piece::new(Color::Black, Role::Rook)).0
}

/// Is giving up pawns for `target` a gain? (25.3: never; 2011 26.6: for a rook.)
pub(crate) fn pawn_trade_is_gain(rs: &RuleSet, b: &Tracked, target: PieceId) -> bool {
    rs.pawn_for_rook_is_gain && role_id(b, target) == "rook"
}

/// The piece an answer to a check takes, if any: its worth and whether it is a pawn.
#[derive(Clone, Copy)]
struct Taken {
    worth: f64,
    pawn: bool,
}

impl Taken {
    /// What the answer `r` in `a` (before it is played) takes.
    fn by(rs: &RuleSet, a: &Tracked, r: Move) -> Taken {
        let piece = id_at(a, r.to());
        Taken {
            worth: piece.map_or(0.0, |v| value(rs, a, v)),
            pawn: piece.is_some_and(|v| is_pawn(a, v)),
        }
    }

    /// What a line of checks nets after this answer (`after`, the position after it): the
    /// piece the check took (`first`) and what the checker wins next (`sub`), less the piece
    /// taken. A pawn given for pieces is no gain (25.3), except for a rook in 2011 (26.6).
    fn net(self, rs: &RuleSet, after: &Tracked, first: f64, sub: &Won) -> f64 {
        if self.pawn
            && sub.gain > 0.0
            && !(rs.pawn_for_rook_is_gain && sub.targets & rooks(after) != 0)
        {
            first - self.worth
        } else {
            first + sub.gain - self.worth
        }
    }
}

/// The legal moves of the side to move that give check (a capture of the king is none: the
/// oracle finds no king in check once it is gone), uncached (the searches ask
/// [`Analyzer::checking_moves`]).
#[cfg(test)]
pub(crate) fn checking_moves(b: &mut Tracked) -> MoveList {
    b.pos.checking_moves()
}

/// [`checking_moves`] in the oracle's order (pieces by id, then each piece's rules in order),
/// where the first of equal results is kept.
#[cfg(test)]
pub(crate) fn checking_moves_ordered(b: &mut Tracked) -> MoveList {
    let mut v = checking_moves(b);
    sort_oracle(b, &mut v);
    v
}

/// The enemy pieces the piece on `from` could legally capture (side to move's piece), in the
/// oracle's order.
pub(crate) fn capturable_by(b: &Tracked, from: Square) -> Ids {
    // The legal targets of that one piece (a legal move never lands on an own piece, so an
    // occupied target holds an enemy piece): the same set as filtering the full move list.
    let mut t = b.pos.legal_targets_in(from, b.pos.occupied().0);
    let mut v = [(0u32, PieceId(0)); 32];
    let mut n = 0;
    while t != 0 {
        let to = Square::new_unchecked(t.trailing_zeros() as u8);
        t &= t - 1;
        if let Some(id) = id_at(b, to) {
            v[n] = (order_key(b, Move::new(from, to)), id);
            n += 1;
        }
    }
    v[..n].sort_unstable_by_key(|x| x.0);
    let mut out = Ids::new(PieceId(0));
    for x in &v[..n] {
        out.push(x.1);
    }
    out
}

/// [`capturable_by`] from the full legal move list (the reference for the tests).
#[cfg(test)]
fn capturable_by_from_list(b: &Tracked, from: Square) -> Vec<PieceId> {
    let mut v: Vec<(u32, PieceId)> = b
        .pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .filter_map(|m| id_at(b, m.to()).map(|id| (order_key(b, *m), id)))
        .collect();
    v.sort_unstable_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// Does the piece `p` (of the side to move) only stand in the way of a protector of `target`
/// (断根; the oracle's `only_blocks`, reading `joint-chase-necessary`)? After a capture of the
/// target by another piece, the other side could take back if `p` were not there; and `p`
/// neither captures the target nor screens a piece that does.
fn only_blocks(b: &Tracked, target: PieceId, p: PieceId) -> bool {
    let (Some(t_sq), Some(p_sq), Some(pc)) = (b.square_of(target), b.square_of(p), b.piece(p))
    else {
        return false;
    };
    let me = pc.color;
    let bit = 1u128 << t_sq.index();
    let reaches = |x: &Tracked, id: PieceId| reach_of(x, id) & bit != 0;
    if reaches(b, p) {
        return false;
    }
    let w = b.without(p_sq);
    if b.ids_of(me)
        .any(|q| q != p && reaches(b, q) && !reaches(&w, q))
    {
        return false;
    }
    captures_on(b, t_sq).iter().any(|&c| {
        let mut a = b.clone();
        a.play(c);
        let aw = a.without(p_sq);
        let opens = a
            .ids_of(me.other())
            .any(|q| !reaches(&a, q) && reaches(&aw, q));
        opens
    })
}

/// How a piece won by a line of consecutive checks stands (the oracle's `cover_on_board`,
/// reading `protection-of-a-piece-won-by-checks`): unprotected only when no other piece of its
/// side guards its point on the board.
fn cover_on_board(b: &Tracked, target: PieceId) -> Cover {
    let (Some(sq), Some(p)) = (b.square_of(target), b.piece(target)) else {
        return Cover::Unprotected;
    };
    let guarded = b
        .ids_of(p.color)
        .any(|q| q != target && b.square_of(q).is_some_and(|from| b.pos.guards(from, sq)));
    if guarded {
        Cover::Underprotected
    } else {
        Cover::Unprotected
    }
}

/// The points piece `id` could move to by its movement rules (for blocks, 28.7).
pub(crate) fn reach_of(b: &Tracked, id: PieceId) -> u128 {
    match b.square_of(id) {
        Some(sq) => b.pos.pseudo_targets(sq),
        None => 0,
    }
}

/// The pieces of `side` that can legally capture the piece on `sq` (with `side` to move), in
/// id order.
pub(crate) fn can_capture(b: &Tracked, side: Color, sq: Square) -> Ids {
    let t = if b.pos.turn() == side {
        std::borrow::Cow::Borrowed(b)
    } else {
        std::borrow::Cow::Owned(b.with_turn(side))
    };
    let mut out = Ids::new(PieceId(0));
    for m in captures_on(&t, sq) {
        if let Some(id) = id_at(&t, m.from()) {
            out.push(id);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// The ceilings list each kind's largest worth, the most valuable first, and the step of
    /// the worths is found (or none, and then no threshold relies on it).
    #[test]
    fn ceilings_and_the_step_of_the_worths() {
        use crate::judge::Builtin;
        for id in ["cxa-1999", "cxa-2011", "axf"] {
            let rs = RuleSet::builtin(id).unwrap();
            let c = Ceilings::of(rs);
            assert_eq!(worth_step(rs), Some(0.5), "{id}: the pawn counts 1/2");
            assert_eq!(c.0[0], (Role::Rook, 4.0), "{id}");
            assert!(c.0.windows(2).all(|w| w[0].1 >= w[1].1), "{id}");
            assert_eq!(c.0.iter().find(|r| r.0 == Role::Pawn).unwrap().1, 0.5);
        }
        let mut odd = RuleSet::builtin("cxa-1999").unwrap().clone();
        odd.floating_pawn_value = 0.3;
        assert_eq!(worth_step(&odd), None);
        odd.floating_pawn_value = 0.75;
        assert_eq!(worth_step(&odd), Some(0.25));
    }

    /// A cache map keeps the room its last judgement filled, and gives back the room a
    /// judgement before that grew it to (clearing costs the capacity, not the entries).
    #[test]
    fn a_cleared_map_keeps_only_the_room_last_used() {
        let mut m: FxMap<u64, u64> = FxMap::default();
        m.extend((0..10_000).map(|k| (k, k)));
        clear_map(&mut m, true);
        assert!(m.is_empty() && m.capacity() >= 10_000, "filled: kept");
        m.extend((0..10).map(|k| (k, k)));
        clear_map(&mut m, false);
        assert!(m.capacity() >= 10_000, "not fitted: kept");
        m.extend((0..10).map(|k| (k, k)));
        clear_map(&mut m, true);
        assert!(m.is_empty());
        assert!(
            (MAP_ROOM..=4 * MAP_ROOM).contains(&m.capacity()),
            "barely used: shrunk to {}",
            m.capacity()
        );
        m.extend((0..100).map(|k| (k, k)));
        clear_map(&mut m, true);
        assert!(m.capacity() >= 100, "never below the room just used");
    }

    /// A lenient set-up may have far more captures than a game position (here 123, with 25
    /// horses and 13 pawns among elephants and advisors; found by a seeded annealing search):
    /// the captures memo hands them out in full, and classifying under every rule set does not
    /// overflow (it did, in a fixed-size list, before review).
    #[test]
    fn a_crowded_lenient_setup_has_all_its_captures() {
        use crate::judge::Builtin;
        let fen = "aPbPkPbPb/PbP1N1N1N/bPaNaNaNb/2N1N1N1P/bNaNbNaNb/N1N1N1N1P/bNaNbNbNb/\
                   P1N1P1N1P/bN1NaN1Na/bbbbKbba1 w - - 0 1";
        let (pos, _) = crate::Position::from_fen_lenient(fen).unwrap();
        let t = Tracked::new(pos.clone());
        let rules = RuleSet::builtin("cxa-2011").unwrap();
        let mut az = Analyzer::new(rules);
        let caps = az.captures(&t);
        assert_eq!(caps.len(), 123);
        assert!(caps.len() > FEW_CAPTURES);
        assert_eq!(*caps, *captures_ordered(&t));
        drop(az);
        for id in ["cxa-1999", "cxa-2011", "axf"] {
            let rules = RuleSet::builtin(id).unwrap();
            for &m in pos.legal_moves().iter().take(2) {
                assert!(pos.classify(m, rules).is_ok(), "{id} {m}");
            }
        }
    }

    /// The [`could_move`] tables hold exactly the relation, both ways.
    #[test]
    fn could_move_tables_are_the_relation() {
        let (to_from, from_to) = could_move_tables();
        for c in Color::ALL {
            for (r, &role) in Role::ALL.iter().enumerate() {
                let p = Piece::new(c, role);
                for from in 0..90u8 {
                    for to in 0..90u8 {
                        let (fs, ts) = (Square::new_unchecked(from), Square::new_unchecked(to));
                        let expected = could_move(p, fs, ts);
                        assert_eq!(
                            to_from[c.index()][r][to as usize] >> from & 1 == 1,
                            expected
                        );
                        assert_eq!(
                            from_to[c.index()][r][from as usize] >> to & 1 == 1,
                            expected
                        );
                    }
                }
            }
        }
    }

    /// The analyzer's checking moves, listed or remembered (a position asked about again along
    /// one judgement), are the position's, in both orders.
    #[test]
    fn remembered_checking_moves_are_the_positions() {
        use crate::judge::Builtin;
        let rs = RuleSet::builtin("cxa-1999").unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut az = Analyzer::new(rs);
        let mut asked = 0;
        for _ in 0..10 {
            let mut pos = crate::Position::startpos();
            for _ in 0..120 {
                let t = Tracked::new(pos.clone());
                for pass in [false, true] {
                    let b = if pass { t.passed() } else { t.clone() };
                    for _ in 0..2 {
                        assert_eq!(*az.checking_moves(&b), *b.pos.checking_moves());
                        assert_eq!(
                            *az.checking_moves_ordered(&b),
                            *checking_moves_ordered(&mut b.clone())
                        );
                        asked += 1;
                    }
                }
                let moves = pos.legal_moves();
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                pos.play(m);
            }
        }
        assert!(asked > 2_000, "{asked}");
    }

    /// `gives_check` and `captures_on` agree with playing the moves and with the full legal
    /// move list on positions of random games.
    #[test]
    fn shortcuts_agree_with_the_move_list() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checks = 0;
        for _ in 0..40 {
            let mut pos = crate::Position::startpos();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                let t = Tracked::new(pos.clone());
                let checking: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| pos.gives_check(*m))
                    .collect();
                assert_eq!(*pos.checking_moves(), checking, "{}", pos.to_fen());
                // The same with the other side to move (the "pass" positions of the analysis,
                // where the enemy king may stand attacked).
                let mut passed = pos.clone();
                passed.set_turn(pos.turn().other());
                let checking: Vec<Move> = passed
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| passed.gives_check(*m))
                    .collect();
                assert_eq!(*passed.checking_moves(), checking, "{}", passed.to_fen());
                let mut ordered: Vec<(u8, u32, Move)> = pos
                    .legal_moves()
                    .iter()
                    .filter(|m| pos.gives_check(**m))
                    .map(|m| (t.ids[m.from().index()], order_key(&t, *m), *m))
                    .collect();
                ordered.sort_by_key(|x| (x.0, x.1));
                let ordered: Vec<Move> = ordered.into_iter().map(|x| x.2).collect();
                assert_eq!(
                    *checking_moves_ordered(&mut t.clone()),
                    ordered,
                    "{}",
                    pos.to_fen()
                );
                assert_eq!(
                    *captures_ordered(&Tracked::new(pos.clone())),
                    captures_ordered_from_list(&Tracked::new(pos.clone())),
                    "{}",
                    pos.to_fen()
                );
                for &m in moves.iter() {
                    let mut a = pos.clone();
                    a.play(m);
                    assert_eq!(pos.gives_check(m), a.is_check(), "{} {m}", pos.to_fen());
                    checks += usize::from(a.is_check());
                }
                for i in 0..90u8 {
                    let sq = Square::new_unchecked(i);
                    let mut all: Vec<Move> =
                        moves.iter().copied().filter(|m| m.to() == sq).collect();
                    if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
                        all.clear();
                    }
                    all.sort_by_key(|m| t.ids[m.from().index()]);
                    assert_eq!(*captures_on(&t, sq), all, "{} {sq}", pos.to_fen());
                    assert_eq!(
                        *capturable_by(&t, sq),
                        capturable_by_from_list(&t, sq),
                        "{} {sq}",
                        pos.to_fen()
                    );
                }
                let Some(&m) = moves.choose(&mut rng) else {
                    break;
                };
                pos.play(m);
            }
        }
        assert!(checks > 50, "too few checks seen: {checks}");
    }
}

/// The bounded check-line search ([`Analyzer::gain_exceeds`], [`Analyzer::line_exceeds`] and
/// the pruned [`Analyzer::best_gain`]) against the plain search it replaces, which evaluates
/// every capture and every line in full (the oracle's way).
#[cfg(test)]
mod bounded_search_tests {
    use super::*;
    use crate::judge::Builtin;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The oracle's `best_gain`, unpruned and uncached.
    fn best_gain_plain(az: &mut Analyzer<'_>, b: &mut Tracked, depth: u32) -> Won {
        if depth == 0 {
            return Won::default();
        }
        let mut ties = Ties::default();
        for m in captures_ordered(b) {
            let Some(target) = id_at(b, m.to()) else {
                continue;
            };
            let v = value(az.rs, b, target);
            let capturer = id_at(b, m.from()).expect("a mover");
            let u = b.play_undo(m);
            let gain = v - az.see(b, m.to(), 8);
            let ok = gain > 0.0 && !az.mates_at_once(b);
            b.undo(m, u);
            if ok {
                ties.add(Won::capture(b, capturer, m.to(), gain));
            }
        }
        if depth >= 3 {
            for k in checking_moves_ordered(b) {
                if let Some(line) = check_line_plain(az, b, k, depth) {
                    ties.add(line);
                }
            }
        }
        ties.best_of()
    }

    /// The oracle's `check_line`, every answer evaluated in full.
    fn check_line_plain(
        az: &mut Analyzer<'_>,
        b: &mut Tracked,
        k: Move,
        depth: u32,
    ) -> Option<Won> {
        let rs = az.rs;
        let first = id_at(b, k.to()).map(|v| value(rs, b, v)).unwrap_or(0.0);
        let uk = b.play_undo(k);
        let replies = b.pos.legal_moves();
        let mut out = if replies.is_empty() {
            None
        } else {
            Some(Won {
                gain: f64::INFINITY,
                ..Won::default()
            })
        };
        for &r in replies.iter() {
            let taken = Taken::by(rs, b, r);
            let ur = b.play_undo(r);
            if !b.pos.has_legal_move() {
                out = None;
            }
            let sub = best_gain_plain(az, b, depth.saturating_sub(2));
            let total = taken.net(rs, b, first, &sub);
            let sub_ids = sub.map(|sq| ids_on(b, sq));
            // An answer that lets the checker mate is lost for the defender (reading
            // `defence-that-allows-mate`).
            let lost_to_mate = total <= 0.0 && az.mate_by_checks_in(b, depth.saturating_sub(2), 0);
            b.undo(r, ur);
            if lost_to_mate {
                continue;
            }
            if total <= 0.0 {
                out = None;
            }
            out = out.map(|w| Won {
                gain: w.gain.min(total),
                targets: w.targets | sub_ids.targets,
                by_non_king: w.by_non_king | sub_ids.by_non_king,
                by_non_pawn: w.by_non_pawn | sub_ids.by_non_pawn,
            });
        }
        b.undo(k, uk);
        out.filter(|w| w.targets != 0)
            .map(|w| w.map(|ids| squares_of(b, ids)))
    }

    /// A position with the kings and a few attacking pieces placed at random (lines of checks
    /// are frequent there).
    fn sparse(rng: &mut impl Rng) -> crate::Position {
        use Color::{Black, Red};
        use Role::{Advisor, Cannon, Elephant, Horse, King, Pawn, Rook};
        loop {
            let mut board = [None; 90];
            let at = |rank: usize, file: usize| rank * 9 + file;
            board[at(rng.gen_range(7..10), rng.gen_range(3..6))] = Some(Piece::new(Black, King));
            board[at(rng.gen_range(0..3), rng.gen_range(3..6))] = Some(Piece::new(Red, King));
            let mut pieces = [
                (Red, Rook),
                (Red, Rook),
                (Red, Horse),
                (Red, Cannon),
                (Red, Pawn),
                (Black, Rook),
                (Black, Horse),
                (Black, Cannon),
                (Black, Advisor),
                (Black, Advisor),
                (Black, Elephant),
            ];
            pieces.shuffle(rng);
            for &(c, r) in pieces.iter().take(rng.gen_range(4..9)) {
                let i = rng.gen_range(0..90);
                if board[i].is_none() {
                    board[i] = Some(Piece::new(c, r));
                }
            }
            let turn = if rng.gen_bool(0.5) { Red } else { Black };
            let setup = crate::Setup {
                board,
                turn,
                halfmoves: 0,
                fullmoves: 1,
            };
            if let Ok(p) = crate::Position::from_setup(&setup) {
                if !p.is_check() || rng.gen_bool(0.2) {
                    return p;
                }
            }
        }
    }

    #[test]
    fn bounded_search_gives_the_plain_answers() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut lines, mut won, mut gains, mut ceiling_cuts) = (0, 0, 0, 0);
        for id in ["cxa-1999", "cxa-2011"] {
            let rs = RuleSet::builtin(id).unwrap();
            for _ in 0..600 {
                let mut b = Tracked::new(sparse(&mut rng));
                let fen = b.pos.to_fen();
                clear_caches();
                let mut az = Analyzer::new(rs);
                for depth in [3, 5, 7] {
                    let plain = best_gain_plain(&mut az, &mut b.clone(), depth);
                    assert_eq!(az.best_gain(&mut b, depth), plain, "{fen} depth {depth}");
                    let them = b.pos.turn().other();
                    assert!(
                        plain.gain <= az.gain_ceiling(&b, them, depth),
                        "{fen} {depth}"
                    );
                    gains += usize::from(plain.gain > 0.0);
                    for theta in [0.0, 0.5, 1.0, 2.0, 3.5, 4.5, 9.0] {
                        assert_eq!(
                            az.gain_exceeds(&mut b, depth, theta),
                            plain.gain > theta,
                            "{fen} depth {depth} theta {theta}"
                        );
                    }
                    for k in checking_moves(&mut b) {
                        let plain = check_line_plain(&mut az, &mut b.clone(), k, depth);
                        let most = id_at(&b, k.to()).map_or(0.0, |v| value(rs, &b, v))
                            + az.gain_ceiling(&b, them, depth - 2);
                        assert!(plain.is_none_or(|w| w.gain <= most), "{fen} {k} {depth}");
                        lines += 1;
                        won += usize::from(plain.is_some());
                        assert_eq!(az.check_line(&mut b, k, depth), plain, "{fen} {k} {depth}");
                        assert_eq!(
                            az.check_line_tested_first(&mut b, k, depth),
                            plain,
                            "{fen} {k} {depth}"
                        );
                        // The pieces the line wins, asked one at a time.
                        for sq in b.pos.by_color(them) {
                            let Some(id) = id_at(&b, sq) else { continue };
                            let wins =
                                plain.is_some_and(|w| w.targets & (1u128 << sq.index()) != 0);
                            assert_eq!(
                                az.line_wins_piece(&mut b, k, depth, id),
                                wins,
                                "{fen} {k} depth {depth} piece {sq}"
                            );
                        }
                        for theta in [0.0, 1.0, 2.0, 4.5, 9.0, 13.0] {
                            let skipped = az.taken_if_line_may_exceed(&b, k, depth, theta);
                            ceiling_cuts += usize::from(skipped.is_none());
                            assert_eq!(
                                az.line_exceeds(&mut b, k, depth, theta),
                                plain.is_some_and(|w| w.gain > theta),
                                "{fen} {k} depth {depth} theta {theta}"
                            );
                        }
                    }
                }
            }
        }
        eprintln!("{lines} lines, {won} won, {gains} gains, {ceiling_cuts} cut by the ceiling");
        // The positions exercise the search: lines that win and lines that do not, and
        // thresholds the ceiling answers without a search.
        assert!(
            lines > 500 && won > 30 && gains > 100 && ceiling_cuts > 100,
            "{lines} lines, {won} won, {gains} gains, {ceiling_cuts} cut by the ceiling"
        );
    }
}
