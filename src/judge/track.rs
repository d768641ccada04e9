//! A position that follows the identity of every piece through the game, as the oracle's board
//! does: the repetition rules speak of "the same piece" chasing "the same piece" (art. 29.2).

use crate::tables::MATERIAL;
use crate::{Move, Piece, Position, Square, UndoInfo};

/// The identity of one piece for the whole game: assigned when the position is set up (in
/// increasing square order, `a0` first, as the oracle numbers the pieces of a FEN) and never
/// reused.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PieceId(pub u8);

/// "No piece" in the id and square tables.
pub(crate) const NONE: u8 = u8::MAX;

/// A [`Position`] plus the identity of each piece.
///
/// ```
/// use xiangqi_rules::judge::Tracked;
/// use xiangqi_rules::{Move, Position, RankConvention, Square};
///
/// let mut t = Tracked::new(Position::startpos());
/// let rook = t.id_at(Square::parse("a0").unwrap()).unwrap();
/// t.play(Move::parse_iccs("a0a1", RankConvention::Iccs).unwrap());
/// assert_eq!(t.square_of(rook), Square::parse("a1"));
/// assert_eq!(t.id_at(Square::parse("a1").unwrap()), Some(rook));
/// ```
#[derive(Clone, Debug)]
pub struct Tracked {
    pub(crate) pos: Position,
    /// Square index -> piece id (`NONE` when empty).
    pub(crate) ids: [u8; 90],
    /// Piece id -> square index (`NONE` once captured).
    pub(crate) sq: [u8; 90],
    /// Number of ids given out.
    pub(crate) len: u8,
    /// The id of the pawn that crossed the river on the last ply (`NONE`: none; 刚过河的兵,
    /// 2011 26.6): a piece not material before its move and material after it (material.yaml).
    /// Cleared by every other ply, a pass included. Not in [`Position::hash`], which is the
    /// position of repetition; the caches whose answers depend on values key it in with
    /// [`Tracked::value_hash`].
    pub(crate) just_crossed: u8,
}

/// What [`Tracked::undo`] needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrackedUndo {
    u: UndoInfo,
    victim: u8,
    just_crossed: u8,
}

impl Tracked {
    /// Numbers the pieces of `pos` in increasing square order.
    pub fn new(pos: Position) -> Tracked {
        let mut t = Tracked {
            pos,
            ids: [NONE; 90],
            sq: [NONE; 90],
            len: 0,
            just_crossed: NONE,
        };
        for i in 0..90u8 {
            if t.pos.piece_at(Square::new_unchecked(i)).is_some() {
                t.ids[i as usize] = t.len;
                t.sq[t.len as usize] = i;
                t.len += 1;
            }
        }
        t
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The identity of the piece on `sq`.
    pub fn id_at(&self, sq: Square) -> Option<PieceId> {
        match self.ids[sq.index()] {
            NONE => None,
            i => Some(PieceId(i)),
        }
    }

    /// Where piece `id` stands, or `None` once captured (or never given out).
    pub fn square_of(&self, id: PieceId) -> Option<Square> {
        match self.sq.get(id.0 as usize) {
            Some(&s) if s != NONE => Some(Square::new_unchecked(s)),
            _ => None,
        }
    }

    /// The piece `id` (kind and colour), while it is on the board.
    pub fn piece(&self, id: PieceId) -> Option<Piece> {
        self.square_of(id).and_then(|s| self.pos.piece_at(s))
    }

    /// Plays `m`, which must be legal (or at least move a piece of the side to move onto a
    /// point without an own piece).
    pub fn play(&mut self, m: Move) {
        let _ = self.play_undo(m);
    }

    /// Plays `m` (see [`Tracked::play`]) and returns what [`Tracked::undo`] needs.
    #[inline]
    pub(crate) fn play_undo(&mut self, m: Move) -> TrackedUndo {
        let (from, to) = (m.from().index(), m.to().index());
        let mover = self.ids[from];
        let victim = self.ids[to];
        let just_crossed = self.just_crossed;
        self.just_crossed = match self.pos.piece_at(m.from()) {
            Some(p) if !is_material_on(p, m.from()) && is_material_on(p, m.to()) => mover,
            _ => NONE,
        };
        if victim != NONE {
            self.sq[victim as usize] = NONE;
        }
        self.ids[to] = mover;
        self.ids[from] = NONE;
        if mover != NONE {
            self.sq[mover as usize] = to as u8;
        }
        let u = self.pos.play(m);
        TrackedUndo {
            u,
            victim,
            just_crossed,
        }
    }

    /// Takes back `m`, the last move played with [`Tracked::play_undo`].
    #[inline]
    pub(crate) fn undo(&mut self, m: Move, u: TrackedUndo) {
        let (from, to) = (m.from().index(), m.to().index());
        self.pos.undo(m, u.u);
        self.just_crossed = u.just_crossed;
        let mover = self.ids[to];
        self.ids[from] = mover;
        if mover != NONE {
            self.sq[mover as usize] = from as u8;
        }
        self.ids[to] = u.victim;
        if u.victim != NONE {
            self.sq[u.victim as usize] = to as u8;
        }
    }

    /// The same pieces with the other side to move (a "pass").
    pub(crate) fn passed(&self) -> Tracked {
        self.with_turn(self.pos.turn().other())
    }

    /// The same pieces with `c` to move. A change of side is a ply (a pass): the pawn that had
    /// just crossed no longer has.
    pub(crate) fn with_turn(&self, c: crate::Color) -> Tracked {
        let mut t = self.clone();
        if c != self.pos.turn() {
            t.just_crossed = NONE;
        }
        t.pos.set_turn(c);
        t
    }

    /// The piece that crossed the river on the last ply ([`Tracked::just_crossed`]).
    pub(crate) fn just_crossed(&self) -> Option<PieceId> {
        (self.just_crossed != NONE).then_some(PieceId(self.just_crossed))
    }

    /// The position's hash with the pawn that has just crossed keyed in: the key of the caches
    /// whose answers depend on the values of the pieces (26.6).
    pub(crate) fn value_hash(&self) -> u64 {
        match self.just_crossed {
            NONE => self.pos.hash(),
            id => self.pos.hash() ^ (u64::from(id) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        }
    }

    /// Without the piece on `sq`.
    pub(crate) fn without(&self, sq: Square) -> Tracked {
        let mut t = self.clone();
        let i = sq.index();
        if t.pos.remove_piece(sq).is_some() {
            let id = t.ids[i];
            t.ids[i] = NONE;
            if id != NONE {
                t.sq[id as usize] = NONE;
            }
        }
        t
    }

    /// The pieces of `c` on the board, in id order.
    pub(crate) fn ids_of(&self, c: crate::Color) -> impl Iterator<Item = PieceId> + '_ {
        (0..self.len).filter_map(move |i| {
            let s = self.sq[i as usize];
            (s != NONE
                && self
                    .pos
                    .piece_at(Square::new_unchecked(s))
                    .is_some_and(|p| p.color == c))
            .then_some(PieceId(i))
        })
    }
}

/// Is a piece `p` standing on `sq` material (子力, material.yaml: 25.3 / 2011 26.6; the king and
/// an uncrossed pawn are not)?
#[inline]
pub(crate) fn is_material_on(p: Piece, sq: Square) -> bool {
    let crossed = crate::tables::CROSSED[p.color.index()] & (1u128 << sq.index()) != 0;
    MATERIAL[p.role.index()][usize::from(crossed)].0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 刚过河的兵 (2011 26.6): as the oracle's board, a pawn's crossing move marks it, the next
    /// ply or a pass clears the mark, taking the move back restores it, and only the caches'
    /// value hash (not the position's) sees it.
    #[test]
    fn a_pawn_has_just_crossed_only_on_the_ply_after_its_crossing_move() {
        let mut t =
            Tracked::new(Position::from_fen("4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1").unwrap());
        let pawn = t.id_at(Square::at(4, 4));
        let mv = |s: &str| Move::parse_iccs(s, crate::RankConvention::Iccs).unwrap();
        let plain = t.value_hash();
        let cross = mv("e4e5");
        let u = t.play_undo(cross);
        assert_eq!(t.just_crossed(), pawn);
        assert_ne!(t.value_hash(), t.pos.hash());
        assert_eq!(t.passed().just_crossed(), None, "a pass is a ply");
        assert_eq!(
            t.with_turn(t.pos.turn()).just_crossed(),
            pawn,
            "no ply passed"
        );
        let mut later = t.clone();
        later.play(mv("e9f9"));
        assert_eq!(later.just_crossed(), None);
        later.play(mv("e5d5"));
        assert_eq!(later.just_crossed(), None, "already across");
        t.undo(cross, u);
        assert_eq!(t.just_crossed(), None);
        assert_eq!(t.value_hash(), plain);
    }
}
