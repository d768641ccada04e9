//! The board: a mailbox of piece ids plus a piece table, the movement interpreter, legality,
//! check, checkmate, stalemate and perft.

use std::fmt;

use crate::coord::{Coord, OMove, Side, POINTS};
use crate::spec::{ConstraintKind, MoveKind, MoveRule, Role, Spec, When, Zone};

/// The identity of one piece for the whole game: assigned when the board is set up and never
/// reused, so a piece can be followed through moves and captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PieceId(pub u8);

/// One entry of the piece table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its identity (index into the piece table).
    pub id: PieceId,
    /// Its owner.
    pub side: Side,
    /// Its kind.
    pub role: Role,
    /// The point it stood on when the board was set up.
    pub start: Coord,
    /// The point it stands on now; `None` once captured (art. 2.3: removed from the board).
    pub square: Option<Coord>,
}

impl Piece {
    /// Has it been captured?
    pub fn is_captured(&self) -> bool {
        self.square.is_none()
    }
}

const NO_PIECE: Piece = Piece {
    id: PieceId(0),
    side: Side::Red,
    role: Role(0),
    start: Coord::A0,
    square: None,
};

/// The outcome of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// The side to move has at least one legal move.
    Ongoing,
    /// The side to move is in check (照將, art. 3.1) and has no legal move: it is checkmated
    /// (將死, art. 3.1) and loses (art. 4.1.1).
    Checkmate {
        /// The side to move, which loses.
        loser: Side,
    },
    /// The side to move is not in check and has no legal move: it is stalemated (困毙,
    /// art. 3.2) and loses (art. 4.1.3).
    Stalemate {
        /// The side to move, which loses.
        loser: Side,
    },
}

/// How a move breaks the movement rule of its piece (art. 2.2, 2.3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Violation {
    /// No rule of the piece goes from the start to the target at all.
    NoSuchMove,
    /// The leap's block point is occupied (horse leg 蹩馬腿, elephant eye 塞象眼).
    Blocked {
        /// The occupied block point.
        at: Coord,
    },
    /// A slide without screens passes an occupied point.
    PathBlocked {
        /// The first occupied point on the way.
        at: Coord,
    },
    /// A slide capture with screens (砲打隔子) has the wrong number of pieces in between.
    ScreenCount {
        /// Screens required.
        needed: u32,
        /// Pieces found between start and target.
        found: u32,
    },
    /// The only rule that fits is capture-only, but the target is empty.
    CaptureOnly,
    /// The only rule that fits may not capture, but the target holds an enemy piece.
    QuietOnly,
    /// The target lies outside the piece's zone (palace, own half).
    OutOfZone {
        /// The zone.
        zone: Zone,
    },
    /// The rule only applies before / after crossing the river.
    WrongTime {
        /// The condition that does not hold.
        when: When,
    },
}

impl Violation {
    /// How much of the rule fitted before it failed (used to pick the most telling reason).
    fn specificity(&self) -> u8 {
        match self {
            Violation::NoSuchMove => 0,
            Violation::CaptureOnly | Violation::QuietOnly => 1,
            _ => 2,
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// There is no piece on the from point.
    #[error("{from} is empty")]
    EmptySquare {
        /// The from point.
        from: Coord,
    },
    /// The piece on the from point belongs to the side not to move (art. 2.1).
    #[error("the piece on {from} is not {to_move}'s")]
    NotYourPiece {
        /// The from point.
        from: Coord,
        /// The side to move.
        to_move: Side,
    },
    /// The target holds a piece of the mover's own side (art. 2.3).
    #[error("{to} holds a piece of the mover's own side")]
    OwnPieceOnTarget {
        /// The target point.
        to: Coord,
    },
    /// The piece does not move like that (art. 2.2, 2.3).
    #[error("{}", movement_message(piece, *from, *to, violation))]
    MovementRule {
        /// Spec id of the piece, e.g. `horse`.
        piece: String,
        /// From point.
        from: Coord,
        /// Target point.
        to: Coord,
        /// What is wrong.
        violation: Violation,
    },
    /// After the move the mover's king would be attacked (art. 3.1, constraint `no_self_check`).
    #[error("the move leaves the own king in check (constraint {constraint})")]
    LeavesKingInCheck {
        /// The spec id of the constraint.
        constraint: String,
    },
    /// After the move the kings would face each other on an open file (art. 2.2, 4.1.2,
    /// constraint `no_facing`).
    #[error("the kings would face each other (constraint {constraint})")]
    KingsWouldFace {
        /// The spec id of the constraint.
        constraint: String,
    },
}

fn count_word(n: u32) -> String {
    match n {
        1 => "one screen".to_string(),
        n => format!("{n} screens"),
    }
}

/// "a horse", "an advisor".
fn with_article(piece: &str) -> String {
    let vowel = piece
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {piece}", if vowel { "an" } else { "a" })
}

fn movement_message(piece: &str, from: Coord, to: Coord, v: &Violation) -> String {
    let a_piece = with_article(piece);
    match v {
        Violation::NoSuchMove => format!("{a_piece} cannot move from {from} to {to}"),
        Violation::Blocked { at } => {
            format!("{piece} leap {from}{to} blocked at {at} (the block point is occupied)")
        }
        Violation::PathBlocked { at } => format!("{piece} path {from}{to} blocked at {at}"),
        Violation::ScreenCount { needed, found } => format!(
            "{a_piece} capture needs exactly {}, found {found} between {from} and {to}",
            count_word(*needed)
        ),
        Violation::CaptureOnly => {
            format!("{a_piece} may move from {from} to {to} only to capture")
        }
        Violation::QuietOnly => format!("{a_piece} cannot capture on {to} that way"),
        Violation::OutOfZone { zone } => format!(
            "{a_piece} may not leave {}: {to} is outside",
            match zone {
                Zone::Anywhere => "the board",
                Zone::Palace => "its palace",
                Zone::OwnHalf => "its own half",
            }
        ),
        Violation::WrongTime { when } => format!(
            "{a_piece} may move from {from} to {to} only {}",
            match when {
                When::Always => "always",
                When::BeforeRiver => "before crossing the river",
                When::AfterRiver => "after crossing the river",
            }
        ),
    }
}

/// A position: mailbox `[Option<PieceId>; 90]`, the piece table with identities, the side to
/// move and the two FEN clocks, plus a handle to the [`Spec`] it follows. Legality is tested
/// on clones.
#[derive(Clone)]
pub struct Board {
    pub(crate) spec: Spec,
    pub(crate) st: State,
}

/// Everything about a position except the spec: small and `Copy`.
#[derive(Clone, Copy)]
pub(crate) struct State {
    pub(crate) mailbox: [Option<PieceId>; POINTS],
    pub(crate) table: [Piece; POINTS],
    pub(crate) len: u8,
    pub(crate) turn: Side,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl fmt::Display for Board {
    /// A diagram, rank 9 at the top, then the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let c = Coord::new(file, rank).expect("on board");
                let ch = match self.piece_at(c) {
                    Some(p) => self.spec.letter(p.role, p.side),
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  abcdefghi")?;
        write!(f, "{}", self.to_fen())
    }
}

impl Board {
    /// An empty board with `turn` to move and clocks `0 1`.
    pub(crate) fn empty(spec: &Spec, turn: Side) -> Board {
        Board {
            spec: spec.clone(),
            st: State {
                mailbox: [None; POINTS],
                table: [NO_PIECE; POINTS],
                len: 0,
                turn,
                halfmoves: 0,
                fullmoves: 1,
            },
        }
    }

    /// Puts a new piece on an empty point and gives it the next id.
    pub(crate) fn put(&mut self, c: Coord, side: Side, role: Role) {
        debug_assert!(self.st.mailbox[c.index()].is_none());
        let id = PieceId(self.st.len);
        self.st.table[self.st.len as usize] = Piece {
            id,
            side,
            role,
            start: c,
            square: Some(c),
        };
        self.st.len += 1;
        self.st.mailbox[c.index()] = Some(id);
    }

    /// The start position of the spec (art. 1.3).
    pub fn start(spec: &Spec) -> Board {
        Board::from_fen(spec, spec.start_fen()).expect("the spec's start FEN was validated at load")
    }

    /// The spec this board follows.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.st.turn
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmoves(&self) -> u32 {
        self.st.halfmoves
    }

    /// Move number, starting at 1, incremented after Black's move (FEN field 6).
    pub fn fullmoves(&self) -> u32 {
        self.st.fullmoves
    }

    /// The id of the piece on `c`, if any. Ids survive moves.
    pub fn piece_id_at(&self, c: Coord) -> Option<PieceId> {
        self.st.mailbox[c.index()]
    }

    /// The piece on `c`, if any.
    pub fn piece_at(&self, c: Coord) -> Option<&Piece> {
        self.piece_id_at(c).map(|id| self.piece(id))
    }

    /// The piece-table entry of `id` (also for captured pieces).
    ///
    /// # Panics
    /// If `id` was never given out on this board.
    pub fn piece(&self, id: PieceId) -> &Piece {
        assert!(id.0 < self.st.len, "unknown piece id {}", id.0);
        &self.st.table[id.0 as usize]
    }

    /// Where piece `id` stands, or `None` once captured.
    pub fn square_of(&self, id: PieceId) -> Option<Coord> {
        self.piece(id).square
    }

    /// All pieces ever on this board, captured ones included, in id order.
    pub fn pieces(&self) -> impl Iterator<Item = &Piece> {
        self.st.table[..self.st.len as usize].iter()
    }

    /// The pieces of `side` still on the board.
    pub fn pieces_of(&self, side: Side) -> impl Iterator<Item = &Piece> {
        self.pieces()
            .filter(move |p| p.side == side && !p.is_captured())
    }

    // -----------------------------------------------------------------------------------------
    // Movement interpreter (art. 2.2, 2.3)
    // -----------------------------------------------------------------------------------------

    /// Calls `f` with every point piece `p` (on the board) may move to by its movement rules,
    /// never onto an own piece (art. 2.3); check and facing kings are not considered.
    /// Stops early, returning `true`, when `f` returns `true`.
    fn for_each_target(&self, p: &Piece, f: &mut impl FnMut(Coord) -> bool) -> bool {
        let Some(from) = p.square else { return false };
        let rules = self.spec.role(p.role);
        for rule in &rules.moves {
            if !self.spec.when_holds(rule.when, p.side, from) {
                continue;
            }
            // A target is allowed if it is in the zone, and empty (quiet move) or held by an
            // enemy piece (capture), as the rule's mode permits.
            let allowed = |t: Coord| {
                self.spec.in_zone(rules.zone, p.side, t)
                    && match self.st.mailbox[t.index()] {
                        None => rule.mode.allows_quiet(),
                        Some(q) => self.piece(q).side != p.side && rule.mode.allows_capture(),
                    }
            };
            match &rule.kind {
                MoveKind::Step { vectors } => {
                    for v in vectors {
                        let (df, dr) = self.spec.absolute(p.side, *v);
                        if let Some(t) = from.offset(df, dr) {
                            if allowed(t) && f(t) {
                                return true;
                            }
                        }
                    }
                }
                MoveKind::Leap { leaps } => {
                    for leap in leaps {
                        let (df, dr) = self.spec.absolute(p.side, leap.to);
                        let Some(t) = from.offset(df, dr) else {
                            continue;
                        };
                        if let Some(b) = leap.block {
                            let (bf, br) = self.spec.absolute(p.side, b);
                            if let Some(bc) = from.offset(bf, br) {
                                if self.st.mailbox[bc.index()].is_some() {
                                    continue; // blocked
                                }
                            }
                        }
                        if allowed(t) && f(t) {
                            return true;
                        }
                    }
                }
                MoveKind::Slide {
                    directions,
                    screens,
                } => {
                    for d in directions {
                        let (df, dr) = self.spec.absolute(p.side, *d);
                        let mut passed = 0; // pieces passed so far
                        let mut cur = from;
                        while let Some(t) = cur.offset(df, dr) {
                            cur = t;
                            if self.st.mailbox[t.index()].is_none() {
                                // Quiet slides end on empty points before any piece.
                                if passed == 0 && *screens == 0 && allowed(t) && f(t) {
                                    return true;
                                }
                            } else if passed == *screens {
                                // The first piece after exactly `screens` pieces: a capture.
                                if allowed(t) && f(t) {
                                    return true;
                                }
                                break;
                            } else {
                                passed += 1;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Why one rule of piece `p` does not take it to `to` (which is empty or enemy-held).
    fn check_rule(&self, p: &Piece, rule: &MoveRule, to: Coord) -> Result<(), Violation> {
        let from = p.square.expect("piece on board");
        let side = p.side;
        let spec = &self.spec;
        let on = |c: Coord| self.st.mailbox[c.index()].is_some();
        // 1. Geometry, and the points strictly between start and target for slides.
        let mut between: Vec<Coord> = Vec::new();
        let mut block_point = None;
        let fits = match &rule.kind {
            MoveKind::Step { vectors } => vectors.iter().any(|v| {
                let (df, dr) = spec.absolute(side, *v);
                from.offset(df, dr) == Some(to)
            }),
            MoveKind::Leap { leaps } => leaps.iter().any(|l| {
                let (df, dr) = spec.absolute(side, l.to);
                let hit = from.offset(df, dr) == Some(to);
                if hit {
                    block_point = l.block.and_then(|b| {
                        let (bf, br) = spec.absolute(side, b);
                        from.offset(bf, br)
                    });
                }
                hit
            }),
            MoveKind::Slide { directions, .. } => directions.iter().any(|d| {
                let (df, dr) = spec.absolute(side, *d);
                let mut path = Vec::new();
                let mut cur = from;
                while let Some(t) = cur.offset(df, dr) {
                    if t == to {
                        between = path;
                        return true;
                    }
                    path.push(t);
                    cur = t;
                }
                false
            }),
        };
        if !fits {
            return Err(Violation::NoSuchMove);
        }
        // 2. Conditions on the start and the target point.
        if !spec.when_holds(rule.when, side, from) {
            return Err(Violation::WrongTime { when: rule.when });
        }
        let zone = spec.role(p.role).zone;
        if !spec.in_zone(zone, side, to) {
            return Err(Violation::OutOfZone { zone });
        }
        // 3. Quiet move or capture.
        let capture = on(to);
        if !capture && !rule.mode.allows_quiet() {
            return Err(Violation::CaptureOnly);
        }
        if capture && !rule.mode.allows_capture() {
            return Err(Violation::QuietOnly);
        }
        // 4. What stands in the way.
        match &rule.kind {
            MoveKind::Step { .. } => Ok(()),
            MoveKind::Leap { .. } => match block_point {
                Some(b) if on(b) => Err(Violation::Blocked { at: b }),
                _ => Ok(()),
            },
            MoveKind::Slide { screens, .. } => {
                let found = between.iter().filter(|c| on(**c)).count() as u32;
                if *screens == 0 {
                    match between.iter().find(|c| on(**c)) {
                        Some(at) => Err(Violation::PathBlocked { at: *at }),
                        None => Ok(()),
                    }
                } else if found != *screens {
                    Err(Violation::ScreenCount {
                        needed: *screens,
                        found,
                    })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Does the movement rule of the piece on `m.from` allow `m` (ignoring check and facing
    /// kings)? If not, the most telling reason.
    fn check_movement(&self, m: OMove) -> Result<(), IllegalMove> {
        let id = self
            .piece_id_at(m.from)
            .ok_or(IllegalMove::EmptySquare { from: m.from })?;
        let p = self.piece(id);
        if p.side != self.st.turn {
            return Err(IllegalMove::NotYourPiece {
                from: m.from,
                to_move: self.st.turn,
            });
        }
        if let Some(q) = self.piece_at(m.to) {
            if q.side == p.side {
                return Err(IllegalMove::OwnPieceOnTarget { to: m.to });
            }
        }
        let mut best: Option<Violation> = None;
        for rule in &self.spec.role(p.role).moves {
            match self.check_rule(p, rule, m.to) {
                Ok(()) => return Ok(()),
                Err(v) => {
                    if best
                        .as_ref()
                        .is_none_or(|b| v.specificity() > b.specificity())
                    {
                        best = Some(v);
                    }
                }
            }
        }
        Err(IllegalMove::MovementRule {
            piece: self.spec.role(p.role).id.clone(),
            from: m.from,
            to: m.to,
            violation: best.unwrap_or(Violation::NoSuchMove),
        })
    }

    /// Every move the side to move could make by the movement rules alone (art. 2.2, 2.3),
    /// check and facing kings not considered.
    pub fn pseudo_legal_moves(&self) -> Vec<OMove> {
        let mut out = Vec::with_capacity(64);
        for p in self.pieces_of(self.st.turn) {
            let from = p.square.expect("on board");
            // Two rules may lead to the same point; a move is counted once.
            let mut seen: u128 = 0;
            self.for_each_target(p, &mut |to| {
                if seen & (1u128 << to.index()) == 0 {
                    seen |= 1u128 << to.index();
                    out.push(OMove { from, to });
                }
                false
            });
        }
        out
    }

    // -----------------------------------------------------------------------------------------
    // Check, facing kings, legality (art. 2.2, 3.1, 4.1)
    // -----------------------------------------------------------------------------------------

    /// Is point `c` attacked by `by`, i.e. does some piece of `by` have a move onto `c` by its
    /// movement rules (whoever is to move)?
    pub fn is_attacked(&self, c: Coord, by: Side) -> bool {
        self.pieces_of(by).any(|p| {
            // Skip pieces that could not reach `c` even on an empty board (a pure shortcut).
            self.spec
                .could_move(p.role, p.side, p.square.expect("on board"), c)
                && self.for_each_target(p, &mut |t| t == c)
        })
    }

    /// Is `side`'s king in check (照將, art. 3.1): could an enemy piece move onto it?
    pub fn in_check(&self, side: Side) -> bool {
        let royal = self.spec.royal();
        self.pieces_of(side)
            .filter(|p| p.role == royal)
            .any(|k| self.is_attacked(k.square.expect("on board"), side.opponent()))
    }

    /// Do two kings (the royal pieces) of opposite sides stand on one file with no piece
    /// between them (將帥對面, art. 2.2)?
    pub fn kings_facing(&self) -> bool {
        let royal = self.spec.royal();
        let reds = self.pieces_of(Side::Red).filter(|p| p.role == royal);
        reds.into_iter().any(|r| {
            let a = r.square.expect("on board");
            self.pieces_of(Side::Black)
                .filter(|p| p.role == royal)
                .any(|b| {
                    let b = b.square.expect("on board");
                    if a.file() != b.file() {
                        return false;
                    }
                    let (lo, hi) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
                    ((lo + 1)..hi).all(|r| {
                        let c = Coord::new(a.file() as i32, r as i32).expect("on board");
                        self.st.mailbox[c.index()].is_none()
                    })
                })
        })
    }

    /// Checks the spec's constraints on the position after a move by `mover`.
    fn check_constraints(&self, mover: Side) -> Result<(), IllegalMove> {
        for c in self.spec.constraints() {
            match c.kind {
                ConstraintKind::NoFacing => {
                    if self.kings_facing() {
                        return Err(IllegalMove::KingsWouldFace {
                            constraint: c.id.clone(),
                        });
                    }
                }
                ConstraintKind::NoSelfCheck => {
                    if self.in_check(mover) {
                        return Err(IllegalMove::LeavesKingInCheck {
                            constraint: c.id.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Moves the piece without any check: captures whatever stands on `m.to`, updates the
    /// clocks and passes the turn.
    fn apply(&mut self, m: OMove) {
        let id = self.st.mailbox[m.from.index()].expect("a piece on the from point");
        if let Some(victim) = self.st.mailbox[m.to.index()] {
            self.st.table[victim.0 as usize].square = None;
            self.st.halfmoves = 0;
        } else {
            self.st.halfmoves += 1;
        }
        self.st.mailbox[m.to.index()] = Some(id);
        self.st.mailbox[m.from.index()] = None;
        self.st.table[id.0 as usize].square = Some(m.to);
        if self.st.turn == Side::Black {
            self.st.fullmoves += 1;
        }
        self.st.turn = self.st.turn.opponent();
    }

    /// Is `m` legal for the side to move? `Ok` or the reason it is not.
    pub fn check_move(&self, m: OMove) -> Result<(), IllegalMove> {
        self.check_movement(m)?;
        let mut after = self.clone();
        after.apply(m);
        after.check_constraints(self.st.turn)
    }

    /// Is `m` legal for the side to move?
    pub fn is_legal(&self, m: OMove) -> bool {
        self.check_move(m).is_ok()
    }

    /// All legal moves of the side to move: the pseudo-legal moves after which no constraint
    /// of the spec is broken (own king not attacked, kings not facing).
    pub fn legal_moves(&self) -> Vec<OMove> {
        let mut moves = self.pseudo_legal_moves();
        let mut after = self.clone(); // one scratch board, reset before every trial
        moves.retain(|m| {
            after.st = self.st;
            after.apply(*m);
            after.check_constraints(self.st.turn).is_ok()
        });
        moves
    }

    /// Plays `m` if it is legal, otherwise says why not and leaves the board unchanged.
    pub fn play(&mut self, m: OMove) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.apply(m);
        Ok(())
    }

    /// The board after `m`, if legal.
    pub fn after(&self, m: OMove) -> Result<Board, IllegalMove> {
        let mut b = self.clone();
        b.play(m)?;
        Ok(b)
    }

    /// Checkmate (將死, art. 3.1, 4.1.1), stalemate (困毙, art. 3.2, 4.1.3; also a loss) or
    /// ongoing, for the side to move.
    pub fn status(&self) -> Status {
        if !self.legal_moves().is_empty() {
            Status::Ongoing
        } else if self.in_check(self.st.turn) {
            Status::Checkmate {
                loser: self.st.turn,
            }
        } else {
            Status::Stalemate {
                loser: self.st.turn,
            }
        }
    }

    /// Number of legal move sequences of length `depth` (plain recursion on copies).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut b = self.clone();
                b.apply(*m);
                b.perft(depth - 1)
            })
            .sum()
    }

    /// [`Board::perft`] split by first move, sorted by ICCS text.
    pub fn perft_divide(&self, depth: u32) -> Vec<(OMove, u64)> {
        let mut out: Vec<(OMove, u64)> = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut b = self.clone();
                b.apply(m);
                (m, b.perft(depth.saturating_sub(1)))
            })
            .collect();
        out.sort_by_key(|(m, _)| m.to_string());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty-board shortcut in `is_attacked` never changes its answer.
    #[test]
    fn attack_shortcut_is_exact() {
        let spec = Spec::embedded();
        let mut board = Board::start(spec);
        let mut seed: u64 = 12345;
        for _ply in 0..120 {
            for by in Side::BOTH {
                for c in Coord::all() {
                    let brute = board
                        .pieces_of(by)
                        .any(|p| board.for_each_target(p, &mut |t| t == c));
                    assert_eq!(board.is_attacked(c, by), brute, "{c} by {by} in {board:?}");
                }
            }
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            board.play(m).unwrap();
        }
    }

    #[test]
    fn pieces_keep_their_ids_in_the_table() {
        let board = Board::start(Spec::embedded());
        for (i, p) in board.pieces().enumerate() {
            assert_eq!(p.id, PieceId(i as u8));
            assert_eq!(p.square, Some(p.start));
        }
        // Ids are given in point order: a0 first.
        assert_eq!(board.piece_id_at(Coord::A0), Some(PieceId(0)));
    }
}
