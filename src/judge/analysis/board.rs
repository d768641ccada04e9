//! The pieces and who can take whom: identities and sets of pieces, exchange values, the
//! [`could_move`] relation, the legal captures on a point or by a piece in the oracle's order,
//! and the plain relations of the idle kinds (blocks, protection on the board).

use super::Cover;
use crate::judge::track::{is_material_on, PieceId, Tracked};
use crate::judge::RuleSet;
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
    pub(super) fn new(fill: T) -> Self {
        Short {
            items: [fill; N],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, x: T) {
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
    b.pos.piece_at(sq).is_some_and(|p| is_material_on(p, sq))
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

/// Exchange value of a piece on the board (material.yaml; a crossed pawn counts
/// `floating_pawn_value`, an uncrossed one, not material, nothing; the king 1000).
pub(crate) fn value(rs: &RuleSet, b: &Tracked, id: PieceId) -> f64 {
    let Some(sq) = b.square_of(id) else {
        return rs.floating_pawn_value;
    };
    value_at(rs, b, sq)
}

/// [`value`] of the piece on `sq`. Taking at once a pawn that has only just crossed is no gain
/// (26.6, reading `just-crossed-pawn`): it counts nothing.
pub(crate) fn value_at(rs: &RuleSet, b: &Tracked, sq: Square) -> f64 {
    let Some(p) = b.pos.piece_at(sq) else {
        return rs.floating_pawn_value;
    };
    if p.role == Role::Pawn
        && !rs.just_crossed_pawn_is_material
        && b.just_crossed()
            .is_some_and(|id| b.square_of(id) == Some(sq))
    {
        return 0.0;
    }
    piece_value(rs, p, sq)
}

/// The worth of a piece in the balance of forces that decides which side holds out for a draw
/// (守和方, 26.2; reading `key-point-2011`): its [`value`], but a crossed pawn at an advisor's
/// worth (the ordinary valuation of 25.3, not the floating value of an exchange).
pub(crate) fn strength(rs: &RuleSet, b: &Tracked, id: PieceId) -> f64 {
    match (b.square_of(id), piece(b, id)) {
        (Some(sq), Some(p)) if p.role == Role::Pawn => MATERIAL[Role::Advisor.index()]
            [half(p.color, sq)]
        .1
        .unwrap_or(rs.floating_pawn_value),
        _ => value(rs, b, id),
    }
}

/// [`value`] of the piece `p` standing on `sq`.
pub(super) fn piece_value(rs: &RuleSet, p: Piece, sq: Square) -> f64 {
    match p.role {
        Role::King => 1000.0,
        // An uncrossed pawn is not material (material.yaml) and counts nothing.
        Role::Pawn if !is_material_on(p, sq) => 0.0,
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
pub(super) fn sort_oracle(b: &Tracked, v: &mut [Move]) {
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

/// The squares of the pieces of `s` on the board.
pub(super) fn squares_of(b: &Tracked, s: IdSet) -> u128 {
    if s == 0 {
        return 0;
    }
    ids_in(s)
        .filter_map(|id| b.square_of(id))
        .fold(0, |a, q| a | (1u128 << q.index()))
}

/// The ids of the pieces on the squares `s`.
pub(super) fn ids_on(b: &Tracked, mut s: u128) -> IdSet {
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

/// How a piece won by a line of consecutive checks stands (the oracle's `cover_on_board`,
/// reading `protection-of-a-piece-won-by-checks`): unprotected only when no other piece of its
/// side guards its point on the board and could legally take back there (a guard whose
/// recapture would leave its king in check or facing the other king is 假根, 24.16).
pub(crate) fn cover_on_board(b: &Tracked, target: PieceId) -> Cover {
    let (Some(sq), Some(p)) = (b.square_of(target), b.piece(target)) else {
        return Cover::Unprotected;
    };
    let guarded = b.ids_of(p.color).any(|q| {
        q != target
            && b.square_of(q)
                .is_some_and(|from| b.pos.guards(from, sq) && could_take_back(b, from, sq, p.color))
    });
    if guarded {
        Cover::Underprotected
    } else {
        Cover::Unprotected
    }
}

/// Could the piece of `side` on `from` take back on `sq` without leaving its king in check or
/// facing the other king (the oracle's `could_take_back`)? The board after the recapture does not
/// depend on the piece taken: the guard on `sq`, its point empty.
fn could_take_back(b: &Tracked, from: Square, sq: Square, side: Color) -> bool {
    let mut a = b.pos.clone();
    a.remove_piece(sq);
    a.play(Move::new(from, sq));
    !a.king_attacked(side) && !a.kings_facing()
}

/// The points piece `id` could move to by its movement rules (for blocks, 28.7).
pub(crate) fn reach_of(b: &Tracked, id: PieceId) -> u128 {
    match b.square_of(id) {
        Some(sq) => b.pos.pseudo_targets(sq),
        None => 0,
    }
}

/// The enemy pieces (not the king) that the piece `p` pins (牵制; the oracle's `pinned_by`):
/// some move of theirs that the movement rules allow would expose their king to `p` (`p` could
/// then take the king), and is legal with `p` off the board.
pub(crate) fn pinned_by(b: &Tracked, p: PieceId) -> IdSet {
    let (Some(p_sq), Some(pc)) = (b.square_of(p), b.piece(p)) else {
        return 0;
    };
    let them = pc.color.other();
    let king = b.pos.king(them);
    // Only a piece whose movement could ever reach the king's point can be exposed to.
    if !could_move(pc, p_sq, king) {
        return 0;
    }
    let t = b.with_turn(them);
    let w = t.without(p_sq);
    let mut a = t.pos.clone();
    let mut out = 0;
    for e in t.ids_of(them) {
        if is_king(&t, e) {
            continue;
        }
        let from = t.square_of(e).expect("on board");
        let mut targets = t.pos.pseudo_targets(from) & !(1u128 << p_sq.index());
        while targets != 0 {
            let to = Square::new_unchecked(targets.trailing_zeros() as u8);
            targets &= targets - 1;
            let m = Move::new(from, to);
            let u = a.play(m);
            let exposed = a.pseudo_targets(p_sq) & (1u128 << king.index()) != 0;
            a.undo(m, u);
            if exposed && w.pos.is_legal(m) {
                out |= id_bit(e);
                break;
            }
        }
    }
    out
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

    /// `gives_check` and `captures_on` agree with playing the moves and with the full legal
    /// move list on positions of random games.
    /// 假根 (24.16): the black rook e7 guards the horse c7 on the board, but the red rook e2 pins
    /// it against its king, so the horse counts as unprotected; with the pinning rook on d2 the
    /// guard is real. The same for a guard whose recapture would let the kings face each other.
    #[test]
    fn a_pinned_guard_is_a_false_protector() {
        let cover = |fen: &str, sq: &str| {
            let t = Tracked::new(crate::Position::from_fen(fen).unwrap());
            let (file, rank) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'0');
            let id = id_at(&t, Square::new_unchecked(rank * 9 + file)).unwrap();
            cover_on_board(&t, id)
        };
        let pinned = "4k4/9/2n1r4/9/9/9/9/2R1R4/9/3K5 w - - 0 1";
        assert_eq!(cover(pinned, "c7"), Cover::Unprotected);
        let free = "4k4/9/2n1r4/9/9/9/9/2RR5/9/3K5 w - - 0 1";
        assert_eq!(cover(free, "c7"), Cover::Underprotected);
        // The advisor e8 stands between the kings: taking back on d7 would let them face.
        let facing = "4k4/4a4/3n5/9/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(cover(facing, "d7"), Cover::Unprotected);
    }

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
