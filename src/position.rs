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
    /// When in check: the points a piece other than the king must move to for its move to
    /// possibly answer every check (the checkers, the points between a rook, cannon or facing
    /// king and the king, the legs of checking horses).
    evasions: u128,
    /// When in check: the screens of checking cannons (moving one away may answer the check,
    /// wherever it goes).
    screens: u128,
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
            | (FILE_SPREAD[FILE_SLIDE[screens][r][focc] as usize] << f)
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
        let file0 = FILE_SPREAD[FILE_SLIDE[0][r][focc] as usize] << f;
        let line0 = ((RANK_SLIDE[0][f][rocc] as u128) << (r * 9)) | file0;
        let kings_rooks = (self.by_role[Role::Rook as usize] & enemy)
            | (file0 & self.by_role[Role::King as usize] & enemy);
        if line0 & kings_rooks != 0 {
            return true;
        }
        let cannons = self.by_role[Role::Cannon as usize] & enemy;
        if cannons != 0 {
            let line1 = ((RANK_SLIDE[1][f][rocc] as u128) << (r * 9))
                | (FILE_SPREAD[FILE_SLIDE[1][r][focc] as usize] << f);
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
        let mut evasions = 0u128;
        let mut screens = 0u128;
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
                evasions |= ray & !RAYS[d][p1];
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
                evasions |= ray & !RAYS[d][p2] & !bit(p1);
                screens |= bit(p1);
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
                        evasions |= b | (g.targets[i] & horses);
                    } else {
                        blockers |= b;
                    }
                }
            }
        }
        let pawns = STEP_ATTACKERS[them.index()][Role::Pawn as usize][k]
            & self.by_role[Role::Pawn as usize]
            & enemy;
        if pawns != 0 {
            in_check = true;
            evasions |= pawns;
        }
        Ctx {
            in_check,
            blockers,
            forbidden,
            evasions,
            screens,
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

    /// Calls `f(from, targets)` for every own piece with its legal targets.
    #[inline(always)]
    fn for_each_legal(&self, mut f: impl FnMut(usize, u128)) {
        let ctx = self.ctx();
        self.role_legal::<0>(&ctx, &mut f);
        self.role_legal::<1>(&ctx, &mut f);
        self.role_legal::<2>(&ctx, &mut f);
        self.role_legal::<3>(&ctx, &mut f);
        self.role_legal::<4>(&ctx, &mut f);
        self.role_legal::<5>(&ctx, &mut f);
        self.role_legal::<6>(&ctx, &mut f);
    }

    /// Legal targets of every own piece of role index `R`.
    #[inline(always)]
    fn role_legal<const R: usize>(&self, ctx: &Ctx, f: &mut impl FnMut(usize, u128)) {
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
            let t = self.targets(role, from);
            if slow & bit(from) != 0 {
                let mut legal = 0;
                let mut tt = t;
                if ctx.in_check && R != Role::King as usize && ctx.screens & bit(from) == 0 {
                    // Any other move must take a checker or stand in a check's way.
                    tt &= ctx.evasions;
                }
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
        self.legal_moves_inline()
    }

    #[inline(always)]
    fn legal_moves_inline(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal(|from, mut t| {
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                list.push(Move::new(
                    Square::new_unchecked(from as u8),
                    Square::new_unchecked(to as u8),
                ));
            }
        });
        list
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
                self.targets(p.role, from) & bit(to) != 0 && self.legal_full(from, to)
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
        if self.count_legal() > 0 {
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
        if depth == 0 {
            return Vec::new();
        }
        let moves = self.legal_moves();
        let mut out: Vec<(Move, u64)> = moves
            .iter()
            .map(|&m| {
                let u = self.play(m);
                let n = self.perft(depth - 1);
                self.undo(m, u);
                (m, n)
            })
            .collect();
        out.sort_by_key(|(m, _)| m.to_string());
        out
    }
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

// Helpers for the repetition judge (src/judge/analysis.rs): "what could the other side do if
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

    /// The legal moves of the side to move that give check ([`Position::gives_check`]), in the
    /// order of [`Position::legal_moves`]. `origins[r]` must hold every point from which a
    /// piece of role index `r` of the side to move could move onto the enemy king's point on
    /// an empty board (a superset of its direct checks), and `reach[r][from]` every point such
    /// a piece could move to from `from` on an empty board (a superset of its targets).
    ///
    /// Only candidates [`Position::gives_check`] could accept are tested, and legality only for
    /// those that give check. When the enemy king is not attacked now, a move gives check only
    /// directly (its destination on the king's rank or file or in `origins`) or by discovery,
    /// which needs its origin on the king's rank or file (rook, cannon, facing kings) or on a
    /// leg point of a horse attack on the king, or a new cannon screen on the king's rank or
    /// file (pawn attacks do not depend on other pieces). Otherwise every move within
    /// `NEAR_KING` (the filter of `gives_check`) is tested.
    pub(crate) fn checking_moves(&self, origins: &[u128; 7], reach: &[[u128; 90]; 7]) -> Vec<Move> {
        let us = self.turn.index();
        let k = self.kings[1 - us] as usize;
        let near = NEAR_KING[k];
        let attacked_now = self.attacked(k, self.turn, self.occ, self.occ_t, !0);
        let lines = RAYS[0][k] | RAYS[1][k] | RAYS[2][k] | RAYS[3][k];
        let mut disc_from = lines;
        let g = &LEAP_ATTACKERS[us][Role::Horse as usize][k];
        for i in 0..g.len as usize {
            disc_from |= bit(g.blocks[i] as usize);
        }
        let mut out = Vec::new();
        for (r, &role) in Role::ALL.iter().enumerate() {
            let mut pieces = self.by_color[us] & self.by_role[r];
            let direct = lines | origins[r];
            while pieces != 0 {
                let from = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let mask = if attacked_now {
                    if near & bit(from) == 0 {
                        near
                    } else {
                        !0
                    }
                } else if disc_from & bit(from) == 0 {
                    direct
                } else {
                    !0
                };
                if reach[r][from] & mask == 0 {
                    continue;
                }
                let mut t = self.targets(role, from) & mask;
                while t != 0 {
                    let to = t.trailing_zeros() as usize;
                    t &= t - 1;
                    let m = Move::new(
                        Square::new_unchecked(from as u8),
                        Square::new_unchecked(to as u8),
                    );
                    if self.gives_check(m) && self.legal_full(from, to) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// Whether the side to move has a legal move (king steps first, then the bulk count).
    pub(crate) fn has_legal_move(&self) -> bool {
        let k = self.kings[self.turn.index()] as usize;
        let mut t = self.targets(Role::King, k);
        while t != 0 {
            let to = t.trailing_zeros() as usize;
            t &= t - 1;
            if self.legal_full(k, to) {
                return true;
            }
        }
        self.count_legal() > 0
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
        // Every way of giving check moves a piece from or to the king's rank or file or the
        // 5x5 box around it (direct attack, discovered line, new cannon screen, horse leg).
        if NEAR_KING[k] & (bit(from) | bit(to)) == 0 {
            return false;
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
