//! The validated position: bitboards, legal move generation, make/unmake, perft.

use crate::moves::{Move, MoveList};
use crate::tables::*;
use crate::{Color, Piece, Role, Square};

/// One-bit boards by index; a lookup is cheaper than a variable `u128` shift.
static BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

#[inline(always)]
fn bit(sq: usize) -> u128 {
    BIT[sq & 127]
}

/// A file's 10-bit rank mask spread onto file `a` ([`FILE_SPREAD`]); the mask keeps the index
/// in range without a bounds check (the file tables hold 10-bit masks).
#[inline(always)]
fn spread(ranks: u16) -> u128 {
    FILE_SPREAD[ranks as usize & 0x3FF]
}

/// An unvalidated position, as read from a FEN.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces, indexed by [`Square::index`].
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub turn: Color,
    /// Half-moves since the last capture.
    pub halfmoves: u32,
    /// Move number, starting at 1 and incremented after Black's move.
    pub fullmoves: u32,
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UndoInfo {
    captured: Option<Piece>,
    halfmoves: u32,
    hash: u64,
}

impl UndoInfo {
    /// The captured piece, if the move was a capture.
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// Leaf counts of [`Position::perft_detail`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerftDetail {
    /// Leaf nodes (legal move sequences).
    pub nodes: u64,
    /// Leaves whose last move captured.
    pub captures: u64,
    /// Leaves whose last move gives check (facing kings cannot arise from a legal move).
    pub checks: u64,
}

/// How a game ended, for the side to move having no legal move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is in check and has no legal move (將死, art. 3.1/4.1.1).
    Checkmate {
        /// The side that delivered mate.
        winner: Color,
    },
    /// The side to move is not in check and has no legal move: 困毙, a loss (art. 3.2/4.1.3).
    Stalemate {
        /// The side that is not stalemated.
        winner: Color,
    },
}

impl Outcome {
    /// The winner.
    pub fn winner(self) -> Color {
        match self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => winner,
        }
    }
}

/// A validated position: exactly one king per side in its palace; every other invariant depends
/// on whether it came from a strict or a lenient constructor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 90],
    by_color: [u128; 2],
    by_role: [u128; 7],
    occ: u128,
    occ_t: u128,
    kings: [u8; 2],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
}

/// Appends the moves from `from` to each point of `targets`, in increasing point order.
#[inline(always)]
fn push_targets(list: &mut MoveList, from: usize, mut targets: u128) {
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        list.push(Move::new(
            Square::new_unchecked(from as u8),
            Square::new_unchecked(to as u8),
        ));
    }
}

/// The perft recursion, instantiated once portably and once with x86 bit instructions.
macro_rules! perft_body {
    ($self:ident, $depth:ident, $rec:ident) => {
        match $depth {
            0 => 1,
            1 => $self.count_legal_inline(),
            _ => {
                let moves = $self.legal_moves_inline();
                let mut n = 0;
                for &m in moves.iter() {
                    let u = $self.play(m);
                    n += $self.$rec($depth - 1);
                    $self.undo(m, u);
                }
                n
            }
        }
    };
}

/// Per-node legality information for the side to move.
struct Ctx {
    in_check: bool,
    /// Points whose vacating may expose the king (only own pieces matter).
    blockers: u128,
    /// Empty points between the king and an enemy cannon with nothing in between.
    forbidden: u128,
    /// In check: the points where a move of a piece other than the king can answer some check
    /// (capture of a checker, a point between a line checker and the king, a horse leg);
    /// everything when not in check.
    evade_to: u128,
    /// In check: the screens of checking cannons (their moves may answer the check, wherever
    /// they go); nothing when not in check.
    evade_from: u128,
}

impl Position {
    /// Builds the bitboards from a setup without any validation beyond one king per side
    /// (callers check the rest). Panics if a side has no king.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn from_setup_unchecked(s: &Setup) -> Position {
        let mut p = Position {
            board: s.board,
            by_color: [0; 2],
            by_role: [0; 7],
            occ: 0,
            occ_t: 0,
            kings: [0; 2],
            turn: s.turn,
            halfmoves: s.halfmoves,
            fullmoves: s.fullmoves,
            hash: 0,
        };
        for sq in 0..90 {
            if let Some(pc) = s.board[sq] {
                p.by_color[pc.color.index()] |= bit(sq);
                p.by_role[pc.role.index()] |= bit(sq);
                p.occ |= bit(sq);
                p.occ_t |= TBIT[sq];
                if pc.role == Role::King {
                    p.kings[pc.color.index()] = sq as u8;
                }
            }
        }
        p.hash = p.compute_hash();
        p
    }

    /// The setup (unvalidated form) of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The start position (board.yaml `start_position`).
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the spec's start position is valid")
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Half-moves since the last capture.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Move number (starts at 1, incremented after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The king square of `color`.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        Square::new_unchecked(self.kings[color.index()])
    }

    /// All pieces as a bitboard.
    pub fn occupied(&self) -> crate::Bitboard {
        crate::Bitboard(self.occ)
    }

    /// Pieces of one colour.
    pub fn by_color(&self, c: Color) -> crate::Bitboard {
        crate::Bitboard(self.by_color[c.index()])
    }

    /// Pieces of one kind and colour.
    pub fn pieces(&self, p: Piece) -> crate::Bitboard {
        crate::Bitboard(self.by_color[p.color.index()] & self.by_role[p.role.index()])
    }

    /// Incrementally maintained Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist hash computed from scratch (equals [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                h ^= ZOBRIST[p.index()][sq];
            }
        }
        if self.turn == Color::Black {
            h ^= ZOBRIST_TURN;
        }
        h
    }

    // -----------------------------------------------------------------------------------------
    // Attacks.

    #[inline(always)]
    fn slide(occ: u128, occ_t: u128, sq: usize, screens: usize) -> u128 {
        let (r, f) = (sq / 9, sq % 9);
        let rocc = ((occ >> (r * 9)) as usize) & 0x1FF;
        let focc = ((occ_t >> (f * 10)) as usize) & 0x3FF;
        ((RANK_SLIDE[screens][f][rocc] as u128) << (r * 9))
            | (spread(FILE_SLIDE[screens][r][focc]) << f)
    }

    /// Whether point `k` is attacked by `them`, with the given occupancy and with the enemy
    /// pieces restricted to `emask`. The enemy king counts as attacking along an open file
    /// (facing kings, 將帥對面).
    #[inline(always)]
    fn attacked(&self, k: usize, them: Color, occ: u128, occ_t: u128, emask: u128) -> bool {
        let enemy = self.by_color[them.index()] & emask;
        let (r, f) = (k / 9, k % 9);
        let rocc = ((occ >> (r * 9)) as usize) & 0x1FF;
        let focc = ((occ_t >> (f * 10)) as usize) & 0x3FF;
        let file0 = spread(FILE_SLIDE[0][r][focc]) << f;
        let line0 = ((RANK_SLIDE[0][f][rocc] as u128) << (r * 9)) | file0;
        let kings_rooks = (self.by_role[Role::Rook as usize] & enemy)
            | (file0 & self.by_role[Role::King as usize] & enemy);
        if line0 & kings_rooks != 0 {
            return true;
        }
        let cannons = self.by_role[Role::Cannon as usize] & enemy;
        if cannons != 0 {
            let line1 = ((RANK_SLIDE[1][f][rocc] as u128) << (r * 9))
                | (spread(FILE_SLIDE[1][r][focc]) << f);
            if line1 & cannons != 0 {
                return true;
            }
        }
        let horses = self.by_role[Role::Horse as usize] & enemy;
        if horses != 0 {
            let g = &LEAP_ATTACKERS[them.index()][Role::Horse as usize][k];
            for i in 0..g.len as usize {
                if g.targets[i] & horses != 0 && occ & bit(g.blocks[i] as usize) == 0 {
                    return true;
                }
            }
        }
        STEP_ATTACKERS[them.index()][Role::Pawn as usize][k]
            & self.by_role[Role::Pawn as usize]
            & enemy
            != 0
    }

    /// Whether the side to move is in check (including facing kings).
    pub fn is_check(&self) -> bool {
        let us = self.turn;
        self.attacked(
            self.kings[us.index()] as usize,
            us.other(),
            self.occ,
            self.occ_t,
            !0,
        )
    }

    /// Whether `color`'s king is attacked in the current position.
    pub fn king_attacked(&self, color: Color) -> bool {
        self.attacked(
            self.kings[color.index()] as usize,
            color.other(),
            self.occ,
            self.occ_t,
            !0,
        )
    }

    /// Whether `color`'s king is attacked by an enemy piece other than the enemy king: the
    /// attacks of [`Position::king_attacked`], the facing kings apart.
    pub(crate) fn king_attacked_by_pieces(&self, color: Color) -> bool {
        let them = color.other();
        self.attacked(
            self.kings[color.index()] as usize,
            them,
            self.occ,
            self.occ_t,
            !bit(self.kings[them.index()] as usize),
        )
    }

    /// Whether the two kings stand on one file with nothing between them.
    pub fn kings_facing(&self) -> bool {
        Self::facing_with(self.kings[0] as usize, self.kings[1] as usize, self.occ_t)
    }

    pub(crate) fn facing_with(k0: usize, k1: usize, occ_t: u128) -> bool {
        if k0 % 9 != k1 % 9 {
            return false;
        }
        let f = k0 % 9;
        let focc = ((occ_t >> (f * 10)) as usize) & 0x3FF;
        FILE_SLIDE[0][k0 / 9][focc] & (1 << (k1 / 9)) != 0
    }

    /// Whether the move (assumed pseudo-legal) leaves the two kings facing.
    pub(crate) fn move_makes_facing(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        let occ_t = (self.occ_t & !TBIT[from]) | TBIT[to];
        let us = self.turn.index();
        let mut k = [self.kings[0] as usize, self.kings[1] as usize];
        if from == k[us] {
            k[us] = to;
        }
        Self::facing_with(k[0], k[1], occ_t)
    }

    /// Full legality test of a pseudo-legal move by the side to move.
    #[inline(always)]
    fn legal_full(&self, from: usize, to: usize) -> bool {
        let us = self.turn;
        let tb = bit(to);
        let occ = (self.occ & !bit(from)) | tb;
        let occ_t = (self.occ_t & !TBIT[from]) | TBIT[to];
        let ks = self.kings[us.index()] as usize;
        let k = if from == ks { to } else { ks };
        !self.attacked(k, us.other(), occ, occ_t, !tb)
    }

    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn ctx(&self) -> Ctx {
        let us = self.turn;
        let them = us.other();
        let k = self.kings[us.index()] as usize;
        let enemy = self.by_color[them.index()];
        let rooks = self.by_role[Role::Rook as usize] & enemy;
        let cannons = self.by_role[Role::Cannon as usize] & enemy;
        let eking = self.by_role[Role::King as usize] & enemy;
        let mut in_check = false;
        let mut blockers = 0u128;
        let mut forbidden = 0u128;
        let mut evade_to = 0u128;
        let mut evade_from = 0u128;
        for d in 0..4 {
            let ray = RAYS[d][k];
            let sliders = if d % 2 == 0 { rooks | eking } else { rooks };
            if ray & (sliders | cannons) == 0 {
                continue;
            }
            let mut on = ray & self.occ;
            let next = |x: u128| -> usize {
                if d < 2 {
                    x.trailing_zeros() as usize
                } else {
                    127 - x.leading_zeros() as usize
                }
            };
            let p1 = next(on);
            on &= !bit(p1);
            if sliders & bit(p1) != 0 {
                in_check = true;
                evade_to |= ray & !RAYS[d][p1];
                continue;
            }
            if cannons & bit(p1) != 0 {
                forbidden |= ray & !RAYS[d][p1] & !bit(p1);
            }
            if on == 0 {
                continue;
            }
            let p2 = next(on);
            on &= !bit(p2);
            if sliders & bit(p2) != 0 {
                blockers |= bit(p1);
            } else if cannons & bit(p2) != 0 {
                in_check = true;
                evade_to |= ray & !RAYS[d][p2] & !bit(p1);
                evade_from |= bit(p1);
                continue;
            }
            if on == 0 {
                continue;
            }
            let p3 = next(on);
            if cannons & bit(p3) != 0 {
                blockers |= bit(p1) | bit(p2);
            }
        }
        let horses = self.by_role[Role::Horse as usize] & enemy;
        if horses != 0 {
            let g = &LEAP_ATTACKERS[them.index()][Role::Horse as usize][k];
            for i in 0..g.len as usize {
                if g.targets[i] & horses != 0 {
                    let b = bit(g.blocks[i] as usize);
                    if self.occ & b == 0 {
                        in_check = true;
                        evade_to |= (g.targets[i] & horses) | b;
                    } else {
                        blockers |= b;
                    }
                }
            }
        }
        let pawns = STEP_ATTACKERS[them.index()][Role::Pawn as usize][k]
            & self.by_role[Role::Pawn as usize];
        if pawns & enemy != 0 {
            in_check = true;
            evade_to |= pawns & enemy;
        }
        if !in_check {
            evade_to = !0;
        }
        Ctx {
            in_check,
            blockers,
            forbidden,
            evade_to,
            evade_from,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Move generation.

    /// Pseudo-legal targets of the piece `role` of the side to move on `from`.
    #[inline(always)]
    fn targets(&self, role: Role, from: usize) -> u128 {
        let c = self.turn.index();
        let own = self.by_color[c];
        match role {
            Role::King | Role::Advisor | Role::Pawn => {
                let r = role as usize;
                let mut t = STEP_MOVE_OR_CAPTURE[c][r][from] & !own;
                if !STEP_MODES_ALL_DEFAULT {
                    t |= STEP_QUIET[c][r][from] & !self.occ;
                    t |= STEP_CAPTURE[c][r][from] & self.by_color[1 - c];
                }
                t
            }
            Role::Elephant | Role::Horse => {
                let g = &LEAPS[c][role as usize][from];
                let mut t = 0;
                for i in 0..g.len as usize {
                    if self.occ & bit(g.blocks[i] as usize) == 0 {
                        t |= g.targets[i];
                    }
                }
                t & !own
            }
            Role::Rook => Self::slide(self.occ, self.occ_t, from, 0) & !own,
            Role::Cannon => {
                (Self::slide(self.occ, self.occ_t, from, 0) & !self.occ)
                    | (Self::slide(self.occ, self.occ_t, from, 1) & self.by_color[1 - c])
            }
        }
    }

    /// Whether the piece `role` of the side to move on `from` has `to` among its
    /// [`Position::targets`], testing only that point: a leap looks at the groups holding `to`,
    /// a slide at the one line through both points, in the same tables.
    #[inline(always)]
    fn can_reach(&self, role: Role, from: usize, to: usize) -> bool {
        let c = self.turn.index();
        let tb = bit(to);
        if self.by_color[c] & tb != 0 {
            return false;
        }
        match role {
            Role::King | Role::Advisor | Role::Pawn if STEP_MODES_ALL_DEFAULT => {
                STEP_MOVE_OR_CAPTURE[c][role as usize][from] & tb != 0
            }
            Role::Elephant | Role::Horse if STEP_MODES_ALL_DEFAULT => {
                let g = &LEAPS[c][role as usize][from];
                (0..g.len as usize)
                    .any(|i| g.targets[i] & tb != 0 && self.occ & bit(g.blocks[i] as usize) == 0)
            }
            Role::Rook | Role::Cannon => {
                // A cannon moves over no screen onto an empty point and over one onto a piece
                // (an enemy's: own points were refused above).
                let screens = usize::from(role == Role::Cannon && self.occ & tb != 0);
                let (r, f) = (from / 9, from % 9);
                let line = if to / 9 == r {
                    let rocc = ((self.occ >> (r * 9)) as usize) & 0x1FF;
                    (RANK_SLIDE[screens][f][rocc] as u128) << (r * 9)
                } else if to % 9 == f {
                    let focc = ((self.occ_t >> (f * 10)) as usize) & 0x3FF;
                    spread(FILE_SLIDE[screens][r][focc]) << f
                } else {
                    return false;
                };
                line & tb != 0
            }
            _ => self.targets(role, from) & tb != 0,
        }
    }

    /// Calls `f(from, targets)` for every own piece with its legal targets.
    #[inline(always)]
    fn for_each_legal(&self, f: impl FnMut(usize, u128)) {
        self.for_each_legal_in(!0, f)
    }

    /// Calls `f(from, targets)` for every own piece with its legal targets within `mask`
    /// (only those are tested).
    #[inline(always)]
    fn for_each_legal_in(&self, mask: u128, mut f: impl FnMut(usize, u128)) {
        let ctx = self.ctx();
        self.role_legal::<0>(&ctx, mask, &mut f);
        self.role_legal::<1>(&ctx, mask, &mut f);
        self.role_legal::<2>(&ctx, mask, &mut f);
        self.role_legal::<3>(&ctx, mask, &mut f);
        self.role_legal::<4>(&ctx, mask, &mut f);
        self.role_legal::<5>(&ctx, mask, &mut f);
        self.role_legal::<6>(&ctx, mask, &mut f);
    }

    /// Legal targets within `mask` of every own piece of role index `R`.
    #[inline(always)]
    fn role_legal<const R: usize>(&self, ctx: &Ctx, mask: u128, f: &mut impl FnMut(usize, u128)) {
        let role = Role::ALL[R];
        let us = self.turn.index();
        let mut pieces = self.by_color[us] & self.by_role[R];
        // Pieces whose moves need the full test: all when in check, the king, blockers.
        let slow = if ctx.in_check || R == Role::King as usize {
            pieces
        } else {
            pieces & ctx.blockers
        };
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            if mask != !0 && REACH[us][R][from] & mask == 0 {
                // A restricted generation (the captures): this piece cannot reach the mask.
                continue;
            }
            let mut t = if R == Role::Cannon as usize && mask & !self.occ == 0 {
                // Only occupied points asked for (the captures): a cannon's moves onto empty
                // points, a slide of their own, are not computed.
                Self::slide(self.occ, self.occ_t, from, 1) & self.by_color[1 - us] & mask
            } else {
                self.targets(role, from) & mask
            };
            if R != Role::King as usize && ctx.evade_from & bit(from) == 0 {
                // In check, only a capture or an interposition can answer it.
                t &= ctx.evade_to;
            }
            if slow & bit(from) != 0 {
                let mut legal = 0;
                let mut tt = t;
                while tt != 0 {
                    let to = tt.trailing_zeros() as usize;
                    tt &= tt - 1;
                    if self.legal_full(from, to) {
                        legal |= bit(to);
                    }
                }
                f(from, legal);
            } else {
                f(from, t & !ctx.forbidden);
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    #[inline(always)]
    fn legal_moves_inline(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal(|from, t| push_targets(&mut list, from, t));
        list
    }

    /// The legal captures (moves onto an enemy piece), in the order of
    /// [`Position::legal_moves`].
    ///
    /// ```
    /// let pos = xiangqi_rules::Position::from_fen(
    ///     "4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1",
    /// ).unwrap();
    /// let caps: Vec<String> = pos.legal_captures().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(caps, ["e1e5"]);
    /// ```
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_captures_into(&mut list);
        list
    }

    /// [`Position::legal_moves`] into `list` (emptied first). Returning a list by value copies
    /// it (the generator's closure borrows it, so the copy is not elided); the judge's searches
    /// fill a list on their own stack instead.
    pub(crate) fn legal_moves_into(&self, list: &mut MoveList) {
        self.legal_into(!0, list);
    }

    /// [`Position::legal_captures`] into `list` (emptied first; see
    /// [`Position::legal_moves_into`]).
    pub(crate) fn legal_captures_into(&self, list: &mut MoveList) {
        self.legal_into(self.by_color[self.turn.other().index()], list);
    }

    /// The legal moves onto the points of `mask` into `list` (emptied first). One copy of the
    /// generator serves the whole list and the captures: the judge's searches call both by
    /// turns, and separate inlined copies (18 KB of code each) crowd the instruction cache.
    #[inline(never)]
    fn legal_into(&self, mask: u128, list: &mut MoveList) {
        list.clear();
        self.for_each_legal_in(mask, |from, t| push_targets(list, from, t));
    }

    /// Number of legal moves (bulk count, no list).
    pub fn count_legal(&self) -> u64 {
        self.count_legal_inline()
    }

    #[inline(always)]
    fn count_legal_inline(&self) -> u64 {
        let mut n = 0u64;
        self.for_each_legal(|_, t| n += t.count_ones() as u64);
        n
    }

    /// Whether `m` is legal for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        match self.board[from] {
            Some(p) if p.color == self.turn => {
                self.can_reach(p.role, from, to) && self.legal_full(from, to)
            }
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Make / unmake.

    /// Plays `m` without any legality check. `m.from()` must hold a piece of the side to move
    /// and `m.to()` must not hold one of its own pieces (true for every legal move).
    #[inline]
    pub fn play(&mut self, m: Move) -> UndoInfo {
        let (from, to) = (m.from().index(), m.to().index());
        let p = self.board[from].expect("play: no piece on the from-square");
        let captured = self.board[to];
        let u = UndoInfo {
            captured,
            halfmoves: self.halfmoves,
            hash: self.hash,
        };
        let (fb, tb) = (bit(from), bit(to));
        if let Some(c) = captured {
            self.by_color[c.color.index()] ^= tb;
            self.by_role[c.role.index()] ^= tb;
            self.hash ^= ZOBRIST[c.index()][to];
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.by_color[p.color.index()] ^= fb | tb;
        self.by_role[p.role.index()] ^= fb | tb;
        self.occ = (self.occ ^ fb) | tb;
        self.occ_t = (self.occ_t ^ TBIT[from]) | TBIT[to];
        self.board[to] = Some(p);
        self.board[from] = None;
        if p.role == Role::King {
            self.kings[p.color.index()] = to as u8;
        }
        self.hash ^= ZOBRIST[p.index()][from] ^ ZOBRIST[p.index()][to] ^ ZOBRIST_TURN;
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
        u
    }

    /// Takes back `m`, which must be the last move played, with the [`UndoInfo`] it returned.
    #[inline]
    pub fn undo(&mut self, m: Move, u: UndoInfo) {
        let (from, to) = (m.from().index(), m.to().index());
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        let p = self.board[to].expect("undo: no piece on the to-square");
        let (fb, tb) = (bit(from), bit(to));
        self.by_color[p.color.index()] ^= fb | tb;
        self.by_role[p.role.index()] ^= fb | tb;
        self.board[from] = Some(p);
        self.board[to] = u.captured;
        if let Some(c) = u.captured {
            self.by_color[c.color.index()] |= tb;
            self.by_role[c.role.index()] |= tb;
            self.occ |= fb;
            self.occ_t |= TBIT[from];
        } else {
            self.occ = (self.occ & !tb) | fb;
            self.occ_t = (self.occ_t & !TBIT[to]) | TBIT[from];
        }
        if p.role == Role::King {
            self.kings[p.color.index()] = from as u8;
        }
        self.hash = u.hash;
        self.halfmoves = u.halfmoves;
    }

    /// Checks `m` and plays it if legal.
    pub fn play_checked(&mut self, m: Move) -> Result<UndoInfo, crate::IllegalMoveReason> {
        self.check_move(m)?;
        Ok(self.play(m))
    }

    /// `Some` when the side to move has no legal move: checkmate, or stalemate (困毙), which
    /// is also a loss for the side to move.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let winner = self.turn.other();
        Some(if self.is_check() {
            Outcome::Checkmate { winner }
        } else {
            Outcome::Stalemate { winner }
        })
    }

    // -----------------------------------------------------------------------------------------
    // Perft.

    /// Number of legal move sequences of length `depth` (bulk-counted at the last ply).
    ///
    /// ```
    /// let mut pos = xiangqi_rules::Position::startpos();
    /// assert_eq!(pos.perft(1), 44);
    /// assert_eq!(pos.perft(3), 79666);
    /// ```
    pub fn perft(&mut self, depth: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                // SAFETY: `perft_x86_bits` only needs the CPU features popcnt, bmi1 and lzcnt,
                // which were detected just above. (Without them, u128 popcounts compile to a
                // slow bit-twiddling sequence: about 15% of the perft time.)
                #[allow(unsafe_code)]
                return unsafe { self.perft_x86_bits(depth) };
            }
        }
        self.perft_portable(depth)
    }

    /// [`Position::perft`] without the run-time CPU-feature dispatch: the portable code path.
    /// The `perft` benchmark compares both, which is what justifies the one `unsafe` call.
    pub fn perft_portable(&mut self, depth: u32) -> u64 {
        perft_body!(self, depth, perft_portable)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt")]
    fn perft_x86_bits(&mut self, depth: u32) -> u64 {
        perft_body!(self, depth, perft_x86_bits)
    }

    /// Perft with leaf details: how many leaf moves capture and how many give check
    /// (no bulk counting, so much slower than [`Position::perft`]).
    ///
    /// ```
    /// let mut pos = xiangqi_rules::Position::startpos();
    /// let d = pos.perft_detail(2);
    /// assert_eq!((d.nodes, d.captures, d.checks), (1920, 72, 6));
    /// ```
    pub fn perft_detail(&mut self, depth: u32) -> PerftDetail {
        let mut out = PerftDetail::default();
        if depth == 0 {
            out.nodes = 1;
            return out;
        }
        let moves = self.legal_moves();
        for &m in moves.iter() {
            if depth == 1 {
                out.nodes += 1;
                if self.board[m.to().index()].is_some() {
                    out.captures += 1;
                }
                let u = self.play(m);
                if self.is_check() {
                    out.checks += 1;
                }
                self.undo(m, u);
            } else {
                let u = self.play(m);
                let d = self.perft_detail(depth - 1);
                self.undo(m, u);
                out.nodes += d.nodes;
                out.captures += d.captures;
                out.checks += d.checks;
            }
        }
        out
    }

    /// Perft per legal move at the root, sorted by ICCS text.
    pub fn perft_divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        self.perft_divide_with(depth, &mut crate::progress::NoProgress)
    }

    /// [`Position::perft_divide`], reporting each root move counted to `progress` (one stage of
    /// as many steps as there are legal moves; none at depth 0).
    pub fn perft_divide_with(
        &mut self,
        depth: u32,
        progress: &mut dyn crate::progress::Progress,
    ) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let moves = self.legal_moves();
        progress.start(moves.len() as u64);
        let mut out: Vec<(Move, u64)> = moves
            .iter()
            .map(|&m| {
                progress.message(m.to_string());
                let u = self.play(m);
                let n = self.perft(depth - 1);
                self.undo(m, u);
                progress.inc();
                (m, n)
            })
            .collect();
        progress.finish();
        out.sort_by_key(|(m, _)| m.to_string());
        out
    }
}

/// What [`Position::checking_moves`] computes once per call about the enemy king (not attacked
/// now) and the side to move's pieces.
struct CheckGeometry {
    /// `[role]`: the points from which a piece of that role attacks the king once there (the
    /// cannon entry holds only for a cannon off the king's rank and file).
    direct: [u128; 7],
    /// Empty points between the king and an own cannon with nothing between (any piece but
    /// that cannon moving there makes its screen).
    screens: u128,
    /// Origins whose moves need [`Position::special_checks`].
    special: u128,
    /// Own cannons on the king's rank or file.
    cannons_on_lines: u128,
    /// Own cannons seeing the king with no screen (the points between are in `screens`).
    zero_screen: u128,
    /// Origins (up to 2 per ray) of discovered rook or cannon checks: `disc_sq[..nd]`, with the
    /// targets that discover the check from them in `disc_mask`.
    disc_sq: [u8; 8],
    disc_mask: [u128; 8],
    nd: usize,
    /// Own pieces on the leg of an own horse's attack on the king: every move discovers it.
    horse_legs: u128,
    /// The enemy king's point.
    k: usize,
}

/// For each square: its rank, its file and the 5x5 box around it (see `gives_check`).
static NEAR_KING: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = (sq % 9, sq / 9);
            let (df, dr) = (f - kf, r - kr);
            if f == kf || r == kr || (df >= -2 && df <= 2 && dr >= -2 && dr <= 2) {
                t[k] |= 1u128 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    t
};

// Helpers for the repetition judge (src/judge/analysis/): "what could the other side do if
// it were to move" and "what would this piece reach without that one" need a turn switch
// without a move, a removed piece and a piece's movement targets whoever is to move.
impl Position {
    /// Sets the side to move without a move (the hash follows).
    pub(crate) fn set_turn(&mut self, c: Color) {
        if self.turn != c {
            self.turn = c;
            self.hash ^= ZOBRIST_TURN;
        }
    }

    /// Removes the piece on `sq` (if any). Removing a king leaves the king squares stale: only
    /// [`Position::pseudo_targets`] may be asked of such a position.
    pub(crate) fn remove_piece(&mut self, sq: Square) -> Option<Piece> {
        let i = sq.index();
        let p = self.board[i]?;
        let b = bit(i);
        self.by_color[p.color.index()] &= !b;
        self.by_role[p.role.index()] &= !b;
        self.occ &= !b;
        self.occ_t &= !TBIT[i];
        self.hash ^= ZOBRIST[p.index()][i];
        self.board[i] = None;
        Some(p)
    }

    /// Does the piece on `guard` protect the point `sq`: could it move there by its movement
    /// rules if the piece on `sq` were an enemy's (check and facing kings not considered)?
    pub(crate) fn guards(&self, guard: Square, sq: Square) -> bool {
        let i = sq.index();
        let (Some(g), Some(p)) = (self.board[guard.index()], self.board[i]) else {
            return false;
        };
        let mut t = self.clone();
        if p.color == g.color {
            let b = bit(i);
            let q = Piece::new(p.color.other(), p.role);
            t.by_color[p.color.index()] &= !b;
            t.by_color[q.color.index()] |= b;
            t.board[i] = Some(q);
        }
        t.pseudo_targets(guard) & bit(i) != 0
    }

    /// The points the piece on `sq` may move to by its movement rules (never onto an own
    /// piece), check and facing kings not considered, whoever is to move; 0 for an empty point.
    pub(crate) fn pseudo_targets(&self, sq: Square) -> u128 {
        let Some(p) = self.board[sq.index()] else {
            return 0;
        };
        if p.color == self.turn {
            self.targets(p.role, sq.index())
        } else {
            let mut t = self.clone();
            t.turn = p.color;
            t.targets(p.role, sq.index())
        }
    }

    /// The legal targets of the piece on `from` within `mask` if it belongs to the side to move
    /// (the points of `mask` that [`Position::legal_moves`] lists for it), else 0. One piece's
    /// moves, without generating the whole list; only the points of `mask` are tested.
    pub(crate) fn legal_targets_in(&self, from: Square, mask: u128) -> u128 {
        let f = from.index();
        match self.board[f] {
            Some(p) if p.color == self.turn => {
                let mut t = self.targets(p.role, f) & mask;
                let mut out = 0;
                while t != 0 {
                    let to = t.trailing_zeros() as usize;
                    t &= t - 1;
                    if self.legal_full(f, to) {
                        out |= bit(to);
                    }
                }
                out
            }
            _ => 0,
        }
    }

    /// The legal moves of the side to move after which the other side is in check (as
    /// [`Position::is_check`] would say after [`Position::play`]; facing kings count, a capture
    /// of the king is no check), in the order of [`Position::legal_moves`].
    ///
    /// When the enemy king is not attacked now, the checking targets of each piece are
    /// computed exactly, without playing or testing each move: direct checks from the
    /// attack sets of the king's point (a horse's origins with a free leg, a pawn's step
    /// origins, the rook line and the one-screen cannon line from the king; for a cannon already
    /// on the king's rank or file, whose move changes its own screens, the one-screen line
    /// without it), then discovered checks (the only blocker between an own rook and the king,
    /// one of the two screens of an own cannon, an own piece on the leg of an own horse's
    /// attack) and new cannon screens (an empty point between the king and an own cannon with
    /// nothing between). Legality is tested only for the checking moves. When the king is
    /// attacked already (a position with the turn switched), a move from and to points off the
    /// king's lines and 5x5 box keeps the check and every other move is played out on the
    /// bitboards by the one-move check test.
    ///
    /// ```
    /// // The horse on e1 is the only blocker between the rook on e0 and the king on e9:
    /// // each of its moves discovers check.
    /// let pos = xiangqi_rules::Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/3KR4 w - - 0 1")
    ///     .unwrap();
    /// let checks: Vec<String> = pos.checking_moves().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(checks, ["e1c0", "e1g0", "e1c2", "e1g2", "e1d3", "e1f3"]);
    /// ```
    pub fn checking_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.checking_moves_each(|m| out.push(m));
        out
    }

    /// Calls `f` with each move of [`Position::checking_moves`], in its order: the judge's
    /// searches keep the few checking moves of a position in a short list of their own, without
    /// a full move list to fill and copy.
    #[inline(always)]
    pub(crate) fn checking_moves_each(&self, mut f: impl FnMut(Move)) {
        let us = self.turn;
        let c = us.index();
        let k = self.kings[1 - c] as usize;
        let kb = bit(k);
        let own = self.by_color[c];
        // Legality is tested by `legal_full` on the few checking moves only.
        // Filled in place: returning the geometry by value copied it at every call.
        let mut g = CheckGeometry {
            direct: [0; 7],
            screens: 0,
            special: 0,
            cannons_on_lines: 0,
            zero_screen: 0,
            disc_sq: [0; 8],
            disc_mask: [0; 8],
            nd: 0,
            horse_legs: 0,
            k,
        };
        if !self.check_geometry(k, &mut g) {
            return self.checking_moves_king_attacked(k, &mut f);
        }
        let g = &g;
        for (r, &role) in Role::ALL.iter().enumerate() {
            let mut pieces = own & self.by_role[r];
            if g.direct[r] | g.screens == 0 {
                // Only the special pieces of this role can give check.
                pieces &= g.special;
            }
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let fb = bit(from);
                let checks = if g.special & fb == 0 {
                    g.direct[r] | g.screens
                } else {
                    self.special_checks(g, r, from)
                } & !kb;
                if REACH[c][r][from] & checks == 0 {
                    // No point it could ever move to checks: its targets are not computed.
                    continue;
                }
                let mut t = self.targets(role, from) & checks;
                while t != 0 {
                    let to = t.trailing_zeros() as usize;
                    t &= t - 1;
                    if self.legal_full(from, to) {
                        f(Move::new(
                            Square::new_unchecked(from as u8),
                            Square::new_unchecked(to as u8),
                        ));
                    }
                }
            }
        }
    }

    /// [`Position::checking_moves`] when the enemy king on `k` is attacked already (a position
    /// the judge's threat analysis builds by letting one side move twice): no check geometry,
    /// each move is tested.
    #[inline(never)]
    fn checking_moves_king_attacked(&self, k: usize, f: &mut dyn FnMut(Move)) {
        let c = self.turn.index();
        let kb = bit(k);
        let own = self.by_color[c];
        let near = NEAR_KING[k];
        for (r, &role) in Role::ALL.iter().enumerate() {
            let mut pieces = own & self.by_role[r];
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                // A move from and to points off the king's lines and box changes no attack
                // on it: the check stays.
                let keeps = if near & bit(from) == 0 { !near } else { 0 };
                let mut t = self.targets(role, from) & !kb;
                while t != 0 {
                    let to = t.trailing_zeros() as usize;
                    t &= t - 1;
                    let m = Move::new(
                        Square::new_unchecked(from as u8),
                        Square::new_unchecked(to as u8),
                    );
                    if (keeps & bit(to) != 0 || self.gives_check(m)) && self.legal_full(from, to) {
                        f(m);
                    }
                }
            }
        }
    }

    /// The checking targets of the piece of role index `r` on `from`, a point of
    /// `g.special`.
    #[inline]
    fn special_checks(&self, g: &CheckGeometry, r: usize, from: usize) -> u128 {
        let fb = bit(from);
        if g.horse_legs & fb != 0 {
            return !0;
        }
        let k = g.k;
        let mut exact = if g.cannons_on_lines & fb != 0 {
            // A cannon moving along the king's line changes its own screens: the points with
            // exactly one piece between them and the king once it has left. (It cannot reach
            // the king's other line.)
            Self::slide(self.occ & !fb, self.occ_t & !TBIT[from], k, 1)
        } else {
            g.direct[r]
        };
        let mut screens = g.screens;
        if g.zero_screen & fb != 0 {
            // A piece between this cannon and the king is its screen, not a check by it.
            for ray in &RAYS {
                if ray[k] & fb != 0 {
                    screens &= !(ray[k] & !ray[from]);
                }
            }
        }
        exact |= screens;
        for i in 0..g.nd {
            if g.disc_sq[i] as usize == from {
                exact |= g.disc_mask[i];
            }
        }
        exact
    }

    /// Fills `g` (zeroed, its `k` set) with the check geometry of the side to move against the
    /// enemy king on `k` (see [`Position::checking_moves`]); false when that king is attacked
    /// now (`g` is then left partly filled).
    #[allow(clippy::needless_range_loop)]
    fn check_geometry(&self, k: usize, g: &mut CheckGeometry) -> bool {
        let c = self.turn.index();
        let own = self.by_color[c];
        let occ = self.occ;
        let rooks = own & self.by_role[Role::Rook as usize];
        let cannons = own & self.by_role[Role::Cannon as usize];
        let horses = own & self.by_role[Role::Horse as usize];
        g.direct[Role::Rook as usize] = Self::slide(occ, self.occ_t, k, 0);
        g.direct[Role::Cannon as usize] = Self::slide(occ, self.occ_t, k, 1);
        g.direct[Role::Pawn as usize] = STEP_ATTACKERS[c][Role::Pawn as usize][k];
        let lg = &LEAP_ATTACKERS[c][Role::Horse as usize][k];
        for i in 0..lg.len as usize {
            let leg = bit(lg.blocks[i] as usize);
            if occ & leg == 0 {
                g.direct[Role::Horse as usize] |= lg.targets[i];
            } else if lg.targets[i] & horses != 0 && own & leg != 0 {
                g.horse_legs |= leg;
            }
        }
        // Attacked now: exactly the attack test of `attacked` (facing kings included).
        let own_king = own & self.by_role[Role::King as usize] & (RAYS[0][k] | RAYS[2][k]);
        if g.direct[Role::Rook as usize] & (rooks | own_king) != 0
            || g.direct[Role::Cannon as usize] & cannons != 0
            || g.direct[Role::Horse as usize] & horses != 0
            || g.direct[Role::Pawn as usize] & own & self.by_role[Role::Pawn as usize] != 0
        {
            return false;
        }
        g.cannons_on_lines = cannons & (RAYS[0][k] | RAYS[1][k] | RAYS[2][k] | RAYS[3][k]);
        let mut nd = 0;
        for d in 0..4 {
            let ray = RAYS[d][k];
            let mut on = ray & occ;
            if on == 0 || ray & (rooks | cannons) == 0 {
                // Without an own rook or cannon on the ray nothing below applies.
                continue;
            }
            let next = |x: u128| -> usize {
                if d < 2 {
                    x.trailing_zeros() as usize
                } else {
                    127 - x.leading_zeros() as usize
                }
            };
            // Points strictly between the king and `p` on this ray.
            let between = |p: usize| ray & !RAYS[d][p] & !bit(p);
            let p1 = next(on);
            on &= !bit(p1);
            if cannons & bit(p1) != 0 {
                // A cannon with an empty line: a new piece between makes its screen.
                g.zero_screen |= bit(p1);
                g.screens |= between(p1);
            }
            if on == 0 {
                continue;
            }
            let p2 = next(on);
            on &= !bit(p2);
            if own & bit(p1) != 0 && rooks & bit(p2) != 0 {
                // The only blocker of an own rook: any move off the segment discovers it.
                g.disc_sq[nd] = p1 as u8;
                g.disc_mask[nd] = !between(p2);
                nd += 1;
            }
            if on == 0 {
                continue;
            }
            let p3 = next(on);
            if cannons & bit(p3) != 0 {
                // Two screens: one leaving (not onto an empty point between) leaves one.
                let keep = !(between(p3) & !occ);
                for p in [p1, p2] {
                    if own & bit(p) != 0 {
                        g.disc_sq[nd] = p as u8;
                        g.disc_mask[nd] = keep;
                        nd += 1;
                    }
                }
            }
        }
        g.special = g.horse_legs | g.cannons_on_lines | g.zero_screen;
        for &p in &g.disc_sq[..nd] {
            g.special |= bit(p as usize);
        }
        g.nd = nd;
        true
    }

    /// Whether the side to move has a legal move. Stops at the first one found: the king's
    /// steps are tried first; then, when not in check, any piece that shields its king from
    /// nothing and has a target outside the points a cannon forbids suffices.
    ///
    /// ```
    /// let pos = xiangqi_rules::Position::startpos();
    /// assert!(pos.has_legal_move());
    /// // Black is mated: the rook on d8 checks, is protected by the rook on d7, and e9 faces
    /// // the red king.
    /// let mated = xiangqi_rules::Position::from_fen("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")
    ///     .unwrap();
    /// assert!(!mated.has_legal_move());
    /// ```
    pub fn has_legal_move(&self) -> bool {
        self.first_legal_move().is_some()
    }

    /// The first legal move found, the king's steps tried first; `None` when the side to move
    /// has none (mated or stalemated). As cheap as [`Position::has_legal_move`]: the moves are
    /// not listed.
    ///
    /// ```
    /// let pos = xiangqi_rules::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    /// let m = pos.first_legal_move().unwrap();
    /// assert!(pos.legal_moves().contains(&m));
    /// ```
    pub fn first_legal_move(&self) -> Option<Move> {
        const OTHERS: [usize; 6] = [
            Role::Rook as usize,
            Role::Cannon as usize,
            Role::Horse as usize,
            Role::Pawn as usize,
            Role::Advisor as usize,
            Role::Elephant as usize,
        ];
        let mv = |from: usize, to: usize| {
            Some(Move::new(
                Square::new_unchecked(from as u8),
                Square::new_unchecked(to as u8),
            ))
        };
        // The king's steps first (a few full tests, no node context), then the others.
        let k = self.kings[self.turn.index()] as usize;
        let mut t = self.targets(Role::King, k);
        while t != 0 {
            let to = t.trailing_zeros() as usize;
            t &= t - 1;
            if self.legal_full(k, to) {
                return mv(k, to);
            }
        }
        let ctx = self.ctx();
        let c = self.turn.index();
        let own = self.by_color[c];
        for r in OTHERS {
            let role = Role::ALL[r];
            let mut pieces = own & self.by_role[r];
            let slow = if ctx.in_check {
                pieces
            } else {
                pieces & ctx.blockers
            };
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let must_evade = ctx.evade_from & bit(from) == 0;
                if must_evade && ctx.in_check && REACH[c][r][from] & ctx.evade_to == 0 {
                    // In check, a piece that can reach no point answering it is not asked for
                    // its targets.
                    continue;
                }
                let mut t = self.targets(role, from);
                if must_evade {
                    t &= ctx.evade_to;
                }
                if slow & bit(from) == 0 {
                    let free = t & !ctx.forbidden;
                    if free != 0 {
                        return mv(from, free.trailing_zeros() as usize);
                    }
                    continue;
                }
                while t != 0 {
                    let to = t.trailing_zeros() as usize;
                    t &= t - 1;
                    if self.legal_full(from, to) {
                        return mv(from, to);
                    }
                }
            }
        }
        None
    }

    /// Is `m` a legal move, known without the attack test? Only when the side to move is not in
    /// check (the caller knows it): then a move of a piece other than the king that starts and
    /// ends off its own king's rank, file and 5x5 box is legal as soon as the piece can make it.
    /// Every way of exposing one's king (a line opened, a new cannon screen, a horse's leg
    /// freed, the kings facing) passes through those points. `false` means "test it".
    pub(crate) fn is_legal_off_king_lines(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        if self.near_king(self.turn, m) {
            return false;
        }
        match self.board[from] {
            Some(p) if p.color == self.turn && p.role != Role::King => {
                self.targets(p.role, from) & bit(to) != 0
            }
            _ => false,
        }
    }

    /// Has the side to move a legal move, found without the attack test? Only when it is not in
    /// check (the caller knows it): a piece other than the king standing off its king's rank,
    /// file and 5x5 box that can move to a point also off them has one
    /// ([`Position::is_legal_off_king_lines`]). `false` means "look further"
    /// ([`Position::has_legal_move`]).
    pub(crate) fn has_move_off_king_lines(&self) -> bool {
        let c = self.turn.index();
        let near = NEAR_KING[self.kings[c] as usize];
        let mut pieces = self.by_color[c] & !near & !self.by_role[Role::King as usize];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let Some(p) = self.board[from] else {
                continue;
            };
            if self.targets(p.role, from) & !near != 0 {
                return true;
            }
        }
        false
    }

    /// Does the move start or end on the rank or file of the other side's king, or in the 5x5
    /// box around it? Every move that changes whether that king is attacked does (see
    /// [`Position::gives_check`]); any other move leaves its attacks as they are.
    pub(crate) fn touches_king_lines(&self, m: Move) -> bool {
        self.near_king(self.turn.other(), m)
    }

    /// Does `m` start or end on the rank or file of `side`'s king, or in the 5x5 box around it?
    #[inline]
    fn near_king(&self, side: Color, m: Move) -> bool {
        let k = self.kings[side.index()] as usize;
        NEAR_KING[k] & (bit(m.from().index()) | bit(m.to().index())) != 0
    }

    /// Whether the move (legal for the side to move) leaves the other side in check, as
    /// [`Position::is_check`] would say after [`Position::play`], without playing it. A capture
    /// of the king gives no check.
    pub(crate) fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        let Some(p) = self.board[from] else {
            return false;
        };
        if self.board[to].is_some_and(|q| q.role == Role::King) {
            return false;
        }
        let us = p.color;
        let c = us.index();
        let k = self.kings[us.other().index()] as usize;
        // Every way of giving check (or of ending one) moves a piece from or to the king's rank
        // or file or the 5x5 box around it (direct attack, discovered line, new cannon screen,
        // horse leg); any other move leaves the king as attacked as it is.
        if !self.touches_king_lines(m) {
            return self.attacked(k, us, self.occ, self.occ_t, !0);
        }
        let kb = bit(k);
        let occ = (self.occ & !bit(from)) | bit(to);
        let occ_t = (self.occ_t & !TBIT[from]) | TBIT[to];
        let direct = match p.role {
            Role::Rook => Self::slide(occ, occ_t, to, 0) & kb != 0,
            Role::Cannon => Self::slide(occ, occ_t, to, 1) & kb != 0,
            Role::Horse | Role::Elephant => {
                let g = &LEAPS[c][p.role as usize][to];
                (0..g.len as usize)
                    .any(|i| g.targets[i] & kb != 0 && occ & bit(g.blocks[i] as usize) == 0)
            }
            Role::King => {
                (STEP_MOVE_OR_CAPTURE[c][p.role as usize][to]
                    | STEP_CAPTURE[c][p.role as usize][to])
                    & kb
                    != 0
                    || Self::facing_with(to, k, occ_t)
            }
            _ => {
                (STEP_MOVE_OR_CAPTURE[c][p.role as usize][to]
                    | STEP_CAPTURE[c][p.role as usize][to])
                    & kb
                    != 0
            }
        };
        direct || self.attacked(k, us, occ, occ_t, !bit(from) & !bit(to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The definitions the shortcuts must meet, from the legal move list and `play`.
    fn check_primitives(pos: &Position, seen: &mut [usize; 4]) {
        let moves = pos.legal_moves();
        let ek = pos.king(pos.turn().other());
        let checking: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut a = pos.clone();
                a.play(m);
                m.to() != ek && a.is_check()
            })
            .collect();
        let fen = pos.to_fen();
        assert_eq!(*pos.checking_moves(), checking, "checking_moves {fen}");
        assert_eq!(
            pos.has_legal_move(),
            !moves.is_empty(),
            "has_legal_move {fen}"
        );
        match pos.first_legal_move() {
            Some(m) => assert!(moves.contains(&m), "first_legal_move {m} {fen}"),
            None => assert!(moves.is_empty(), "first_legal_move none {fen}"),
        }
        let them = pos.by_color(pos.turn().other());
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| them.contains(m.to()))
            .collect();
        assert_eq!(*pos.legal_captures(), captures, "legal_captures {fen}");
        seen[0] += checking.len();
        seen[1] += usize::from(moves.is_empty());
        seen[2] += usize::from(pos.king_attacked(pos.turn().other()));
        // Discovered checks: the moved piece alone (on an otherwise empty board but the kings)
        // would not attack the king.
        seen[3] += checking
            .iter()
            .filter(|m| {
                let mut lone = Setup {
                    board: [None; 90],
                    ..pos.to_setup()
                };
                for sq in [pos.king(Color::Red), pos.king(Color::Black), m.from()] {
                    lone.board[sq.index()] = pos.piece_at(sq);
                }
                let mut lone = Position::from_setup_unchecked(&lone);
                lone.play(**m);
                !lone.king_attacked(pos.turn().other())
            })
            .count();
    }

    /// The same position with the other side to move (the judge's "pass" positions).
    fn passed(pos: &Position) -> Position {
        let mut p = pos.clone();
        p.set_turn(pos.turn().other());
        p
    }

    /// `checking_moves`, `has_legal_move`, `first_legal_move` and `legal_captures` against their
    /// definitions on the positions of random games, each also with the other side to move.
    #[test]
    fn primitives_agree_on_random_games() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let mut seen = [0; 4];
        let mut n = 0;
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                check_primitives(&pos, &mut seen);
                check_primitives(&passed(&pos), &mut seen);
                n += 2;
                let Some(&m) = pos.legal_moves().choose(&mut rng) else {
                    break;
                };
                pos.play(m);
            }
        }
        assert!(n > 5000, "{n} positions");
        assert!(
            seen[0] > 1000 && seen[1] > 5 && seen[2] > 100 && seen[3] > 20,
            "{seen:?}"
        );
    }

    /// `REACH` holds every pseudo-legal target of every piece (the generators skip a piece whose
    /// reach misses their mask), on the positions of random games with either side to move.
    #[test]
    fn reach_covers_every_target() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        let mut targets = 0u32;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                for p in [pos.clone(), passed(&pos)] {
                    let c = p.turn().index();
                    for (r, &role) in Role::ALL.iter().enumerate() {
                        let mut pieces = p.by_color[c] & p.by_role[r];
                        while pieces != 0 {
                            let from = pieces.trailing_zeros() as usize;
                            pieces &= pieces - 1;
                            let t = p.targets(role, from);
                            assert_eq!(t & !REACH[c][r][from], 0, "{role:?} {from} {}", p.to_fen());
                            targets += t.count_ones();
                        }
                    }
                }
                let Some(&m) = pos.legal_moves().choose(&mut rng) else {
                    break;
                };
                pos.play(m);
            }
        }
        assert!(targets > 50_000, "{targets} targets");
    }

    /// The same on random sparse positions: a few pieces anywhere, kings in their palaces
    /// (often facing or attacked), cannons with 0, 1 or 2 screens, horses with blocked legs.
    #[test]
    fn primitives_agree_on_sparse_positions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
        let palace = |c: Color| -> Vec<usize> {
            let ranks = if c == Color::Red { 0..3 } else { 7..10 };
            ranks.flat_map(|r| (3..6).map(move |f| r * 9 + f)).collect()
        };
        let mut seen = [0; 4];
        for i in 0..20000 {
            let mut board = [None; 90];
            for c in Color::ALL {
                let k = *palace(c).choose(&mut rng).unwrap();
                board[k] = Some(Piece::new(c, Role::King));
            }
            // Near the kings' files most of the time, so that lines and legs matter.
            for _ in 0..rng.gen_range(1..9) {
                let sq = if rng.gen_bool(0.6) {
                    rng.gen_range(0..10) * 9 + rng.gen_range(3..6)
                } else {
                    rng.gen_range(0..90)
                };
                if board[sq].is_some() {
                    continue;
                }
                let role = [
                    Role::Rook,
                    Role::Cannon,
                    Role::Horse,
                    Role::Pawn,
                    Role::Advisor,
                    Role::Elephant,
                ][rng.gen_range(0..6)];
                let c = Color::ALL[rng.gen_range(0..2)];
                board[sq] = Some(Piece::new(c, role));
            }
            let setup = Setup {
                board,
                turn: Color::ALL[i % 2],
                halfmoves: 0,
                fullmoves: 1,
            };
            let pos = Position::from_setup_unchecked(&setup);
            check_primitives(&pos, &mut seen);
        }
        assert!(
            seen[0] > 5000 && seen[1] > 50 && seen[2] > 1000 && seen[3] > 200,
            "{seen:?}"
        );
    }

    #[test]
    fn start_perft() {
        let mut p = Position::startpos();
        assert_eq!(p.to_fen(), START);
        assert_eq!(p.perft(1), 44);
        assert_eq!(p.perft(2), 1920);
        assert_eq!(p.perft(3), 79666);
        assert_eq!(p.perft(4), 3290240);
    }
}
