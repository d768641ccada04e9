//! The board: a mailbox of piece ids plus a piece table, the movement interpreter, legality,
//! check, checkmate, stalemate and perft.

use std::cell::RefCell;
use std::fmt;

use crate::coord::{Coord, OMove, Side, POINTS};
use crate::spec::{ConstraintKind, MoveKind, MoveRule, Role, Spec, Vector, When, Zone};

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
    /// The pawn that crossed the river on the last ply, if any (刚过河的兵, 2011 26.6): a piece
    /// that was not material before its move and is after it (material.yaml). Cleared by every
    /// other ply, a pass included ([`Board::set_turn`]). Not part of the position for
    /// repetition, which compares the pieces and the side to move.
    pub(crate) just_crossed: Option<PieceId>,
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
                just_crossed: None,
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
    pub fn pieces(&self) -> impl Iterator<Item = &Piece> + Clone {
        self.st.table[..self.st.len as usize].iter()
    }

    /// The pieces of `side` still on the board.
    pub fn pieces_of(&self, side: Side) -> impl Iterator<Item = &Piece> + Clone {
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
    ///
    /// The same test decides whether a move is legal by its movement rule ([`Board::check_move`])
    /// and whether a piece attacks a point ([`Board::is_attacked`]).
    fn check_rule(&self, p: &Piece, rule: &MoveRule, to: Coord) -> Result<(), Violation> {
        let from = p.square.expect("piece on board");
        let side = p.side;
        let spec = &self.spec;
        let on = |c: Coord| self.st.mailbox[c.index()].is_some();
        // 1. Geometry: does one of the rule's vectors, leaps or directions lead from the start
        //    to the target at all?
        let lands = |v: Vector| {
            let (df, dr) = spec.absolute(side, v);
            from.offset(df, dr) == Some(to)
        };
        let fits = match &rule.kind {
            MoveKind::Step { vectors } => vectors.iter().any(|v| lands(*v)),
            MoveKind::Leap { leaps } => leaps.iter().any(|l| lands(l.to)),
            MoveKind::Slide { directions, .. } => directions
                .iter()
                .any(|d| steps_along(from, to, spec.absolute(side, *d)).is_some()),
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
        // 4. What stands in the way: the move is allowed when one of the ways that lead to the
        //    target (step 1) is clear; otherwise the first blocked way says why not.
        let mut first_obstacle = None;
        match &rule.kind {
            MoveKind::Step { .. } => return Ok(()),
            MoveKind::Leap { leaps } => {
                for l in leaps.iter().filter(|l| lands(l.to)) {
                    let block = l.block.and_then(|b| {
                        let (bf, br) = spec.absolute(side, b);
                        from.offset(bf, br)
                    });
                    match block {
                        Some(b) if on(b) => {
                            first_obstacle.get_or_insert(Violation::Blocked { at: b });
                        }
                        _ => return Ok(()),
                    }
                }
            }
            MoveKind::Slide {
                directions,
                screens,
            } => {
                for d in directions {
                    let (df, dr) = spec.absolute(side, *d);
                    let Some(steps) = steps_along(from, to, (df, dr)) else {
                        continue;
                    };
                    // The points strictly between the start and the target.
                    let mut between = (1..steps).map(|i| {
                        from.offset(i * df, i * dr)
                            .expect("between two points of the board")
                    });
                    let obstacle = if *screens == 0 {
                        between
                            .find(|c| on(*c))
                            .map(|at| Violation::PathBlocked { at })
                    } else {
                        let found = between.filter(|c| on(*c)).count() as u32;
                        (found != *screens).then_some(Violation::ScreenCount {
                            needed: *screens,
                            found,
                        })
                    };
                    match obstacle {
                        Some(v) => {
                            first_obstacle.get_or_insert(v);
                        }
                        None => return Ok(()),
                    }
                }
            }
        }
        Err(first_obstacle.expect("step 1 found a way to the target"))
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
    /// movement rules (whoever is to move)? Each piece's move onto `c` is tested as
    /// [`Board::check_move`] tests it (the same rule test, `check_rule`).
    pub fn is_attacked(&self, c: Coord, by: Side) -> bool {
        self.attacked_by(c, by, self.pieces_of(by))
    }

    /// Is point `c` attacked by a piece of `by` other than `except` (the whole board as it
    /// stands, `except` included as a blocker or a screen)?
    pub fn is_attacked_by_others(&self, c: Coord, by: Side, except: PieceId) -> bool {
        self.attacked_by(c, by, self.pieces_of(by).filter(|p| p.id != except))
    }

    /// Is point `c` attacked by one of `attackers` (pieces of `by`; captured ones are skipped)?
    fn attacked_by<'a>(
        &'a self,
        c: Coord,
        by: Side,
        attackers: impl IntoIterator<Item = &'a Piece>,
    ) -> bool {
        // No piece may move onto a piece of its own side (art. 2.3).
        if self.piece_at(c).is_some_and(|q| q.side == by) {
            return false;
        }
        attackers.into_iter().any(|p| {
            let Some(from) = p.square else { return false };
            // Skip pieces that could not reach `c` even on an empty board (a pure shortcut).
            self.spec.could_move(p.role, p.side, from, c)
                && self
                    .spec
                    .role(p.role)
                    .moves
                    .iter()
                    .any(|rule| self.check_rule(p, rule, c).is_ok())
        })
    }

    /// The pieces with the identities `ids`, in that order.
    fn by_ids<'a>(&'a self, ids: &'a [PieceId]) -> impl Iterator<Item = &'a Piece> + Clone {
        ids.iter().map(|id| self.piece(*id))
    }

    /// `side`'s kings (the royal pieces), captured ones included.
    fn royals(&self, side: Side) -> impl Iterator<Item = &Piece> + Clone {
        let royal = self.spec.royal();
        self.pieces()
            .filter(move |p| p.role == royal && p.side == side)
    }

    /// Is `side`'s king in check (照將, art. 3.1): could an enemy piece move onto it?
    pub fn in_check(&self, side: Side) -> bool {
        self.king_attacked(side, self.royals(side), self.pieces_of(side.opponent()))
    }

    /// Is one of `kings` (`side`'s, captured ones skipped) attacked by one of `enemies`?
    fn king_attacked<'a>(
        &'a self,
        side: Side,
        kings: impl IntoIterator<Item = &'a Piece>,
        enemies: impl IntoIterator<Item = &'a Piece> + Clone,
    ) -> bool {
        kings
            .into_iter()
            .filter_map(|k| k.square)
            .any(|c| self.attacked_by(c, side.opponent(), enemies.clone()))
    }

    /// Do two kings (the royal pieces) of opposite sides stand on one file with no piece
    /// between them (將帥對面, art. 2.2)?
    pub fn kings_facing(&self) -> bool {
        self.facing_from(self.royals(Side::Red))
    }

    /// Does one of the red kings `red_kings` (captured ones skipped) face a black king: looking
    /// along its file, up or down, is the first piece met a black king?
    fn facing_from<'a>(&'a self, red_kings: impl IntoIterator<Item = &'a Piece>) -> bool {
        let royal = self.spec.royal();
        red_kings.into_iter().filter_map(|k| k.square).any(|k| {
            [1, -1].into_iter().any(|dr| {
                let mut cur = k;
                while let Some(t) = cur.offset(0, dr) {
                    if let Some(q) = self.piece_at(t) {
                        return q.role == royal && q.side == Side::Black;
                    }
                    cur = t;
                }
                false
            })
        })
    }

    /// Checks the spec's constraints on the position after a move by `mover`; `cast` was taken
    /// from the board before the move (or after it: the same pieces, see [`Cast`]).
    fn check_constraints(&self, mover: Side, cast: &Cast) -> Result<(), IllegalMove> {
        for c in self.spec.constraints() {
            match c.kind {
                ConstraintKind::NoFacing => {
                    if self.facing_from(self.by_ids(&cast.red_kings)) {
                        return Err(IllegalMove::KingsWouldFace {
                            constraint: c.id.clone(),
                        });
                    }
                }
                ConstraintKind::NoSelfCheck => {
                    if self.king_attacked(
                        mover,
                        self.by_ids(&cast.kings),
                        self.by_ids(&cast.enemies),
                    ) {
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
    /// clocks, notes a pawn that crosses the river ([`State::just_crossed`]) and passes the
    /// turn.
    pub(crate) fn apply(&mut self, m: OMove) {
        let id = self.st.mailbox[m.from.index()].expect("a piece on the from point");
        let p = self.piece(id);
        self.st.just_crossed = (!self.is_material_on(p.role, p.side, m.from)
            && self.is_material_on(p.role, p.side, m.to))
        .then_some(id);
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

    /// Is a piece of `role` and `side` standing on `c` material (子力, material.yaml: 25.3 /
    /// 2011 26.6; the king and an uncrossed pawn are not)?
    pub(crate) fn is_material_on(&self, role: Role, side: Side, c: Coord) -> bool {
        self.spec()
            .material()
            .iter()
            .filter(|m| m.piece == role && self.spec().when_holds(m.when, side, c))
            .any(|m| m.material)
    }

    /// Gives the move to `side`. A change of side is a ply (a pass): the pawn that had just
    /// crossed no longer has ([`State::just_crossed`]).
    pub(crate) fn set_turn(&mut self, side: Side) {
        if side != self.st.turn {
            self.st.just_crossed = None;
        }
        self.st.turn = side;
    }

    /// Is `m` legal for the side to move? `Ok` or the reason it is not.
    pub fn check_move(&self, m: OMove) -> Result<(), IllegalMove> {
        self.check_movement(m)?;
        let cast = Cast::of(self, self.st.turn);
        let mut after = self.clone();
        after.apply(m);
        after.check_constraints(self.st.turn, &cast)
    }

    /// Is `m` legal for the side to move?
    pub fn is_legal(&self, m: OMove) -> bool {
        self.check_move(m).is_ok()
    }

    /// All legal moves of the side to move: the pseudo-legal moves after which no constraint
    /// of the spec is broken (own king not attacked, kings not facing).
    ///
    /// Remembered per position on each thread (the memo `LegalMemo` of this module): a
    /// position asked again gets a copy of the list computed the first time. The judge empties
    /// the memo at the start of each judgement.
    pub fn legal_moves(&self) -> Vec<OMove> {
        if !LEGAL_MEMO_ENABLED.with(|on| *on) {
            return self.legal_moves_computed();
        }
        let key = self.legal_key();
        let known = LEGAL_MEMO.with(|memo| memo.borrow_mut().get(&self.spec, &key));
        if let Some(moves) = known {
            return moves;
        }
        let moves = self.legal_moves_computed();
        LEGAL_MEMO.with(|memo| memo.borrow_mut().insert(&self.spec, key, &moves));
        moves
    }

    /// Has the side to move a legal move? The same as `!self.legal_moves().is_empty()`: the
    /// remembered list if there is one, else the pseudo-legal moves tried in order until one
    /// keeps the spec's constraints (the list is not made, so nothing is remembered).
    pub fn has_legal_move(&self) -> bool {
        if LEGAL_MEMO_ENABLED.with(|on| *on) {
            let key = self.legal_key();
            if let Some(moves) = LEGAL_MEMO.with(|memo| memo.borrow_mut().get(&self.spec, &key)) {
                return !moves.is_empty();
            }
        }
        self.pseudo_legal_moves()
            .iter()
            .any(self.keeps_constraints())
    }

    /// What the legal moves depend on besides the spec (see [`LegalKey`]).
    fn legal_key(&self) -> LegalKey {
        let mut points = [0u32; POINTS];
        for (code, id) in points.iter_mut().zip(&self.st.mailbox) {
            if let Some(id) = id {
                let p = self.piece(*id);
                *code = 1 + p.side.index() as u32 + 2 * u32::from(p.role.0) + 512 * u32::from(id.0);
            }
        }
        LegalKey {
            turn: self.st.turn,
            points,
        }
    }

    /// [`Board::legal_moves`] computed: every pseudo-legal move is played on a scratch copy of
    /// the board and kept if the spec's constraints hold afterwards.
    fn legal_moves_computed(&self) -> Vec<OMove> {
        let mut moves = self.pseudo_legal_moves();
        moves.retain(self.keeps_constraints());
        moves
    }

    /// The legality trial of a pseudo-legal move: played on a scratch copy of the board (one
    /// copy, reset before every trial), does it keep the spec's constraints?
    fn keeps_constraints(&self) -> impl FnMut(&OMove) -> bool + '_ {
        let cast = Cast::of(self, self.st.turn);
        let mut after = self.clone();
        move |m| {
            after.st = self.st;
            after.apply(*m);
            after.check_constraints(self.st.turn, &cast).is_ok()
        }
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
        if self.has_legal_move() {
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

/// The pieces the constraints look at after a move by `mover`, by identity: `mover`'s kings (the
/// royal pieces), the red kings (for facing kings) and the pieces of `mover`'s opponent. A move
/// changes no piece's side or kind, so the lists taken before a move are the lists after it,
/// except for a piece the move captures, which has no point any more and is skipped.
struct Cast {
    kings: Vec<PieceId>,
    red_kings: Vec<PieceId>,
    enemies: Vec<PieceId>,
}

impl Cast {
    /// The lists of board `b` for a move by `mover`.
    fn of(b: &Board, mover: Side) -> Cast {
        let ids = |pieces: &mut dyn Iterator<Item = &Piece>| pieces.map(|p| p.id).collect();
        Cast {
            kings: ids(&mut b.royals(mover)),
            red_kings: ids(&mut b.royals(Side::Red)),
            enemies: ids(&mut b.pieces_of(mover.opponent())),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The legal moves remembered
// ---------------------------------------------------------------------------------------------

/// At most this many positions are remembered by [`LegalMemo`] (a few hundred bytes each); past
/// it the memo starts again empty.
const LEGAL_LIMIT: usize = 100_000;

/// Everything the legal moves of a position depend on, besides the spec: the side to move and
/// the piece on each point, with its kind and its identity (`0` for an empty point, else
/// `1 + side index + 2 * role + 512 * id`). The movement rules and the constraints read the
/// kinds; the identities give the order of the list (the pieces are taken in the order of the
/// piece table), which the judge's searches depend on where lines tie. Nothing else is read: not
/// the start points, not the clocks.
#[derive(Clone, PartialEq, Eq, Hash)]
struct LegalKey {
    turn: Side,
    points: [u32; POINTS],
}

/// The legal moves of the positions met on this thread, all under one spec: a plain map from
/// the position ([`LegalKey`]) to its legal moves as [`Board::legal_moves`] computed them. It
/// cannot change an answer, because the key holds every input of the computation and the spec
/// is held too (compared by identity: a board of another spec empties the memo first). It can
/// be emptied at any time; it is, past [`LEGAL_LIMIT`] positions, to bound its memory. The
/// environment variable `XIANGQI_ORACLE_MEMO=off` turns it off (as it does the judge's memo).
#[derive(Default)]
struct LegalMemo {
    spec: Option<Spec>,
    moves: crate::hash::Map<LegalKey, Vec<OMove>>,
}

impl LegalMemo {
    /// The remembered moves of `key` under `spec`, if any.
    fn get(&mut self, spec: &Spec, key: &LegalKey) -> Option<Vec<OMove>> {
        if !self.spec.as_ref().is_some_and(|s| s.same(spec)) {
            return None;
        }
        self.moves.get(key).cloned()
    }

    /// Remembers the moves of `key` under `spec`.
    fn insert(&mut self, spec: &Spec, key: LegalKey, moves: &[OMove]) {
        if !self.spec.as_ref().is_some_and(|s| s.same(spec)) || self.moves.len() >= LEGAL_LIMIT {
            self.moves.clear();
            self.spec = Some(spec.clone());
        }
        self.moves.insert(key, moves.to_vec());
    }
}

/// Empties this thread's memo of legal moves (the judge does at the start of each judgement).
pub(crate) fn forget_legal_moves() {
    LEGAL_MEMO.with(|memo| memo.borrow_mut().moves.clear());
}

thread_local! {
    static LEGAL_MEMO: RefCell<LegalMemo> = RefCell::new(LegalMemo::default());
    static LEGAL_MEMO_ENABLED: bool =
        std::env::var_os("XIANGQI_ORACLE_MEMO").is_none_or(|v| v != "off");
}

/// The number of steps `k >= 1` by the absolute vector `(df, dr)` (not zero) that lead from
/// `from` to `to` (`to = from + k * (df, dr)`), if any: is `to` on that ray from `from`?
fn steps_along(from: Coord, to: Coord, (df, dr): (i32, i32)) -> Option<i32> {
    let dx = i32::from(to.file()) - i32::from(from.file());
    let dy = i32::from(to.rank()) - i32::from(from.rank());
    let k = if df != 0 { dx / df } else { dy / dr };
    (k >= 1 && k * df == dx && k * dr == dy).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 刚过河的兵 (2011 26.6): a pawn's crossing move marks it; the next ply, a pass included,
    /// clears the mark, and a move along the far side of the river does not set it.
    #[test]
    fn a_pawn_has_just_crossed_only_on_the_ply_after_its_crossing_move() {
        let spec = Spec::embedded();
        let mut b = Board::from_fen(spec, "4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1").unwrap();
        let pawn = b.st.mailbox[Coord::new(4, 4).expect("e4").index()].expect("the pawn e4");
        b.play("e4e5".parse().unwrap()).unwrap();
        assert_eq!(b.st.just_crossed, Some(pawn));
        let mut passed = b.clone();
        passed.set_turn(Side::Red);
        assert_eq!(passed.st.just_crossed, None, "a pass is a ply");
        let mut same = b.clone();
        same.set_turn(Side::Black);
        assert_eq!(same.st.just_crossed, Some(pawn), "no ply passed");
        b.play("e9f9".parse().unwrap()).unwrap();
        assert_eq!(b.st.just_crossed, None);
        b.play("e5d5".parse().unwrap()).unwrap();
        assert_eq!(b.st.just_crossed, None, "already across");
    }

    /// Along random games from the start and from positions rich in checks: `is_attacked`
    /// (the empty-board shortcut, then each piece's move onto the point tested by the rule
    /// test) agrees with generating every target of every piece, `kings_facing` with comparing
    /// the two kings' files and the points between, and the remembered legal moves with the
    /// computed ones.
    #[test]
    fn attack_facing_and_legal_memo_agree_with_plain_definitions() {
        let spec = Spec::embedded();
        let fens = [
            spec.start_fen(),
            "1P1a1k1P1/4a4/2PR3R1/p5pN1/6c1p/5N2P/1Cc6/C3B4/4A4/2B2K3 b - - 0 1",
            "1P2k1N2/9/5C1n1/1r2P3N/2pP2c2/2B5p/2p4c1/8B/pR1K5/3A5 b - - 0 1",
            "4R2R1/7r1/b2k2P1b/5n2P/1NP6/c6p1/7np/1p1A1Ac2/5K3/7p1 w - - 0 1",
            "1N1a1kb2/5P3/8n/4p2rp/2C3P2/p2p3p1/7R1/5K2B/2rRA4/3A5 b - - 0 1",
        ];
        let mut seed: u64 = 12345;
        for fen in fens {
            let mut board = Board::from_fen(spec, fen).unwrap();
            for _ply in 0..120 {
                for by in Side::BOTH {
                    for c in Coord::all() {
                        let brute = board
                            .pieces_of(by)
                            .any(|p| board.for_each_target(p, &mut |t| t == c));
                        assert_eq!(board.is_attacked(c, by), brute, "{c} by {by} in {board:?}");
                    }
                }
                let royal = spec.royal();
                let king = |side| {
                    board
                        .pieces_of(side)
                        .find(|p| p.role == royal)
                        .and_then(|p| p.square)
                        .unwrap()
                };
                let (r, b) = (king(Side::Red), king(Side::Black));
                let open_file = r.file() == b.file()
                    && (r.rank().min(b.rank()) + 1..r.rank().max(b.rank())).all(|rank| {
                        let c = Coord::new(i32::from(r.file()), i32::from(rank)).unwrap();
                        board.piece_at(c).is_none()
                    });
                assert_eq!(board.kings_facing(), open_file, "{board:?}");
                let computed = board.legal_moves_computed();
                assert_eq!(board.legal_moves(), computed, "{board:?}");
                assert_eq!(board.legal_moves(), computed, "{board:?}");
                if computed.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = computed[(seed >> 33) as usize % computed.len()];
                board.play(m).unwrap();
            }
        }
    }

    /// Two positions alike but for two like pieces swapped list their moves in different orders
    /// (the order of the piece table); the remembered moves keep each position's own order.
    #[test]
    fn remembered_legal_moves_keep_the_order_of_the_piece_table() {
        let spec = Spec::embedded();
        let board = Board::start(spec);
        let mut swapped = board.clone();
        let (a, i) = (Coord::A0, Coord::new(8, 0).unwrap());
        let (ra, ri) = (swapped.st.mailbox[a.index()], swapped.st.mailbox[i.index()]);
        swapped.st.mailbox[a.index()] = ri;
        swapped.st.mailbox[i.index()] = ra;
        swapped.st.table[ra.unwrap().0 as usize].square = Some(i);
        swapped.st.table[ri.unwrap().0 as usize].square = Some(a);
        assert_ne!(board.legal_moves_computed(), swapped.legal_moves_computed());
        assert_eq!(board.legal_moves(), board.legal_moves_computed());
        assert_eq!(swapped.legal_moves(), swapped.legal_moves_computed());
    }

    /// Facing kings: the same file and nothing between, whatever stands beyond them.
    #[test]
    fn kings_face_on_an_open_file_only() {
        let spec = Spec::embedded();
        for (fen, facing) in [
            ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", true),
            ("4k4/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1", false),
            ("4k4/9/9/9/4p4/9/9/9/9/4K4 w - - 0 1", false),
            ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", false),
            ("4r4/4k4/9/9/9/9/9/9/4K4/4R4 b - - 0 1", true),
        ] {
            let (board, _) = Board::from_fen_lenient(spec, fen).unwrap();
            assert_eq!(board.kings_facing(), facing, "{fen}");
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
