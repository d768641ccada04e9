//! What a side could do if it were to move: capture with gain (the chase test of art. 28.3,
//! 29.1–29.4; 2011 24.3, 24.15–24.17), force mate by consecutive checks (the kill test of 28.2 /
//! 24.2), and the plain relations the idle kinds need (who can take whom).
//!
//! A port of the oracle's `judge/analysis/` (`mod.rs`, `lines.rs`, `mate.rs`) to the bitboard
//! [`Position`](crate::Position):
//! every function answers exactly as the oracle's does (same legal moves, same exchange values,
//! same order where the oracle takes "the first" of something), but plays moves with
//! make/unmake on a scratch position, and the mate search keeps a transposition cache.
//!
//! The searches are split along the rule's own concepts:
//! - [`board`]: the pieces and who can take whom (values, the
//!   [`could_move`](board::could_move) relation, capturers and victims, blocks, the oracle's
//!   order of moves);
//! - [`exchange`]: the exchange (兑换): static exchange, the direct threats (a capture with
//!   gain), the best gain a side can force;
//! - [`checks`]: consecutive checks (连续将军): the threats won by a line of checks and its
//!   bounded search;
//! - [`mate`]: mate (杀) by consecutive checks.

use std::collections::HashMap;

use super::track::{PieceId, Tracked};
use super::RuleSet;
use crate::tables::MATERIAL;
use crate::{Color, Move, MoveList, Piece, Role, Square};

mod aimed;
mod board;
mod checks;
mod exchange;
mod mate;

pub(crate) use board::{
    can_capture, capturable_by, captures_on, captures_ordered, cover_on_board, id_at, id_bit,
    ids_in, is_king, is_material, is_pawn, piece_name, pinned_by, reach_of, role_id, strength,
    value, IdSet,
};
use board::{captures_ordered_into, piece_value, sort_oracle, squares_of, Short};
pub(crate) use exchange::{
    capture_made_by_move, capture_needs_the_king, is_screen_for, pawn_trade_is_gain,
};

/// The list of every threat in a threats cache key ([`Analyzer::threats`] without a checker).
const ALL_THREATS: u8 = u8::MAX;
/// The list of the direct threats in a threats cache key ([`Analyzer::direct_threats`]).
const DIRECT_THREATS: u8 = u8::MAX - 1;

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
    /// For a line of checks that [`Analyzer::threats`] names after a greater gain and that
    /// [`Analyzer::hidden_line_threats`] found: the piece it is asked about (the target).
    pub(crate) aim: Option<aimed::Aim>,
    /// For a line of checks: its first (checking) move.
    pub line_move: Option<Move>,
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
    /// For a line of checks: the pieces lost after some answer (the pieces the line attacks);
    /// else the pieces won.
    pub attacked: u128,
}

impl Won {
    /// The four sets mapped by `f` (squares to identities or back).
    fn map(self, f: impl Fn(u128) -> u128) -> Won {
        Won {
            gain: self.gain,
            targets: f(self.targets),
            by_non_king: f(self.by_non_king),
            by_non_pawn: f(self.by_non_pawn),
            attacked: f(self.attacked),
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
            attacked: bit,
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
    /// The last `new_exchange_pairs` answer of this analyzer: (hash before, hash after, mover,
    /// legal take-back).
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
            self.start(w);
        } else if w.gain == self.best.gain && w.gain > 0.0 {
            self.join(w);
        }
    }

    /// Ties starting with the way `w` alone.
    fn start(&mut self, w: Won) {
        self.best = w;
        self.sure = w.targets;
    }

    /// Adds an answer to a line of checks to the answers that leave the checker least so far
    /// (`least`; reading `won-against-the-best-defence`).
    fn add_least(least: &mut Option<Ties>, w: Won) {
        match least {
            Some(t) if w.gain > t.best.gain => {}
            Some(t) if w.gain == t.best.gain => t.join(w),
            _ => least.get_or_insert_with(Ties::default).start(w),
        }
    }

    /// Adds a way of the same gain as the best so far.
    fn join(&mut self, w: Won) {
        self.sure &= w.targets;
        self.best.targets |= w.targets;
        self.best.by_non_king |= w.by_non_king;
        self.best.by_non_pawn |= w.by_non_pawn;
        self.best.attacked |= w.attacked;
    }

    /// The combination of the ways of the greatest gain (`attacked`: what any of them attacks).
    fn best_of(self) -> Won {
        if self.sure == 0 {
            self.best
        } else {
            let s = self.sure;
            Won {
                targets: self.best.targets & s,
                by_non_king: self.best.by_non_king & s,
                by_non_pawn: self.best.by_non_pawn & s,
                ..self.best
            }
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

/// (hash before, hash after, mover, whether the take-back must be legal) and the pairs (own
/// piece, enemy piece) of `new_exchange_pairs`.
pub(crate) type ExchangePairsMemo = ((u64, u64, u8, bool), Vec<(PieceId, PieceId)>);

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

    /// The key of the threat lists cached in [`Caches`]: the position, its pieces' identities,
    /// which list (`list`: a checker's identity, [`ALL_THREATS`] or [`DIRECT_THREATS`]) and the
    /// context ([`Analyzer::context_key`]).
    fn threats_key(&self, b: &Tracked, list: u8) -> (u64, u64, u8, ContextKey) {
        (
            b.value_hash(),
            ids_fingerprint(b),
            list,
            self.context_key(b),
        )
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
}

#[cfg(test)]
mod tests {
    use super::board::checking_moves_ordered;
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
}
