//! Why a move is illegal, and reading move lists.

use crate::moves::{Move, MoveParseError, RankConvention};
use crate::position::Position;
use crate::tables::{CROSSED, OWN_HALF, PALACE, RULES};
use crate::{Color, Piece, Role, Square};
use std::fmt;
use xiangqi_spec::rules::{Mode, RuleKind, When, Zone};

/// Why a piece cannot make a movement (independent of king safety).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WhyNot {
    /// No rule of the piece has this shape.
    NoSuchMove {
        /// The piece kind.
        role: Role,
    },
    /// A pawn moving backward.
    PawnBackward,
    /// A rule only applies on one side of the river (pawn sideways before the river).
    Condition {
        /// The piece kind.
        role: Role,
        /// The unmet condition.
        when: When,
    },
    /// The target is outside the piece's zone (palace, own half).
    Zone {
        /// The piece kind.
        role: Role,
        /// The zone.
        zone: Zone,
    },
    /// A leap's block point is occupied (horse leg 蹩馬腿, elephant eye 塞象眼).
    Blocked {
        /// The piece kind.
        role: Role,
        /// The occupied block point.
        at: Square,
    },
    /// A slide's path is blocked.
    PathBlocked {
        /// The piece kind.
        role: Role,
        /// The first piece in the way.
        at: Square,
    },
    /// A slide-capture needs a given number of screens (砲打隔子).
    Screens {
        /// The piece kind.
        role: Role,
        /// Screens needed.
        needed: u8,
        /// Screens found.
        found: u8,
    },
    /// The rule only captures, but the target is empty.
    MustCapture {
        /// The piece kind.
        role: Role,
    },
    /// The rule only moves to empty points, but the target holds an enemy piece.
    MustBeQuiet {
        /// The piece kind.
        role: Role,
    },
}

fn article(role: Role) -> &'static str {
    match role {
        Role::Advisor | Role::Elephant => "an",
        _ => "a",
    }
}

impl fmt::Display for WhyNot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            WhyNot::NoSuchMove { role } => {
                let how = match role {
                    Role::King => "moves one point along a file or rank",
                    Role::Advisor => "moves one point diagonally",
                    Role::Elephant => "moves exactly two points diagonally",
                    Role::Horse => "moves one point straight and then one diagonally",
                    Role::Rook | Role::Cannon => "moves along a file or rank",
                    Role::Pawn => "moves one point forward (or sideways after the river)",
                };
                write!(f, "{} {role} {how}", article(role))
            }
            WhyNot::PawnBackward => f.write_str("a pawn cannot move backward"),
            WhyNot::Condition { role, when } => match when {
                When::AfterRiver if role == Role::Pawn => {
                    f.write_str("a pawn cannot move sideways before crossing the river")
                }
                When::AfterRiver => write!(
                    f,
                    "{} {role} moves so only after crossing the river",
                    article(role)
                ),
                When::BeforeRiver => write!(
                    f,
                    "{} {role} moves so only before crossing the river",
                    article(role)
                ),
                When::Always => write!(f, "{} {role} cannot move so", article(role)),
            },
            WhyNot::Zone { role, zone } => match zone {
                Zone::Palace => write!(f, "the {role} cannot leave the palace"),
                Zone::OwnHalf => write!(f, "{} {role} cannot cross the river", article(role)),
                Zone::Anywhere => write!(f, "{} {role} cannot leave the board", article(role)),
            },
            WhyNot::Blocked { role, at } => match role {
                Role::Horse => write!(f, "horse leg blocked at {at}"),
                Role::Elephant => write!(f, "elephant eye blocked at {at}"),
                _ => write!(f, "{role} blocked at {at}"),
            },
            WhyNot::PathBlocked { role, at } => write!(f, "{role} path blocked at {at}"),
            WhyNot::Screens { role, needed, .. } => {
                let n = match needed {
                    1 => "one screen".to_string(),
                    n => format!("{n} screens"),
                };
                write!(f, "{} {role} capture needs exactly {n}", article(role))
            }
            WhyNot::MustCapture { role } => {
                write!(
                    f,
                    "{} {role} can jump over a screen only to capture",
                    article(role)
                )
            }
            WhyNot::MustBeQuiet { role } => {
                write!(f, "{} {role} cannot capture that way", article(role))
            }
        }
    }
}

/// Why a move is illegal in a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalMoveReason {
    /// No piece on the from-point.
    #[error("there is no piece on {from}")]
    EmptyFrom {
        /// The from-point.
        from: Square,
    },
    /// The piece belongs to the side not to move.
    #[error("the piece on {from} belongs to {}, but {} is to move", piece.color, piece.color.other())]
    NotYourPiece {
        /// The from-point.
        from: Square,
        /// The piece there.
        piece: Piece,
    },
    /// From and to are the same point.
    #[error("from and to are the same point {0}")]
    NullMove(Square),
    /// The target holds a piece of the mover's side.
    #[error("cannot capture own piece on {to}")]
    CapturesOwn {
        /// The target.
        to: Square,
    },
    /// The piece cannot move like that.
    #[error("no piece can move from {from} to {to} ({why})")]
    CannotMove {
        /// The piece.
        piece: Piece,
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// The piece-specific reason.
        why: WhyNot,
    },
    /// The move would leave the kings facing (將帥對面, art. 2.2 / 4.1.2).
    #[error("the kings would face each other (將帥對面)")]
    KingsFacing,
    /// The move would leave the own king attacked (art. 3.1).
    #[error("leaves own king in check")]
    LeavesKingInCheck,
}

fn oriented(c: Color, v: (i8, i8)) -> (i32, i32) {
    (v.0 as i32, v.1 as i32 * c.forward() as i32)
}

fn zone_ok(c: Color, zone: Zone, sq: Square) -> bool {
    let b = 1u128 << sq.index();
    match zone {
        Zone::Anywhere => true,
        Zone::Palace => PALACE[c.index()] & b != 0,
        Zone::OwnHalf => OWN_HALF[c.index()] & b != 0,
    }
}

fn when_ok(c: Color, when: When, sq: Square) -> bool {
    let b = 1u128 << sq.index();
    match when {
        When::Always => true,
        When::BeforeRiver => OWN_HALF[c.index()] & b != 0,
        When::AfterRiver => CROSSED[c.index()] & b != 0,
    }
}

impl Position {
    /// Checks the movement of the piece on `from` against the spec's rules, ignoring king
    /// safety. Returns the most relevant reason when it cannot move so.
    pub fn explain_shape(&self, from: Square, to: Square) -> Result<(), WhyNot> {
        let Some(p) = self.piece_at(from) else {
            return Err(WhyNot::NoSuchMove { role: Role::King });
        };
        let c = p.color;
        let target = self.piece_at(to);
        let enemy_target = matches!(target, Some(t) if t.color != c);
        let delta = (
            to.file().index() as i32 - from.file().index() as i32,
            to.rank().index() as i32 - from.rank().index() as i32,
        );
        // (error, whether the rule's mode fits the target)
        let mut errors: Vec<(WhyNot, bool)> = Vec::new();
        for rule in RULES[p.role.index()].iter() {
            let mode_fits = match rule.mode {
                Mode::MoveOrCapture => true,
                Mode::Quiet => target.is_none(),
                Mode::Capture => enemy_target,
            };
            let mode_err = || match rule.mode {
                Mode::Quiet => WhyNot::MustBeQuiet { role: p.role },
                _ => WhyNot::MustCapture { role: p.role },
            };
            match rule.kind {
                RuleKind::Step | RuleKind::Leap => {
                    for (k, &v) in rule.vectors.iter().enumerate() {
                        if oriented(c, v) != delta {
                            continue;
                        }
                        let err = if !when_ok(c, rule.when, from) {
                            Some(WhyNot::Condition {
                                role: p.role,
                                when: rule.when,
                            })
                        } else if !zone_ok(c, rule.zone, to) {
                            Some(WhyNot::Zone {
                                role: p.role,
                                zone: rule.zone,
                            })
                        } else if rule.kind == RuleKind::Leap && {
                            let b = oriented(c, rule.blocks[k]);
                            from.offset(b.0, b.1)
                                .and_then(|s| self.piece_at(s))
                                .is_some()
                        } {
                            let b = oriented(c, rule.blocks[k]);
                            Some(WhyNot::Blocked {
                                role: p.role,
                                at: from.offset(b.0, b.1).unwrap(),
                            })
                        } else if !mode_fits {
                            Some(mode_err())
                        } else {
                            None
                        };
                        match err {
                            None => return Ok(()),
                            Some(e) => errors.push((e, mode_fits)),
                        }
                    }
                }
                RuleKind::Slide => {
                    for &v in rule.vectors.iter() {
                        let (ux, uy) = oriented(c, v);
                        let steps = if ux != 0 { delta.0 / ux } else { delta.1 / uy };
                        if steps <= 0 || (ux * steps, uy * steps) != delta {
                            continue;
                        }
                        let mut between = Vec::new();
                        for i in 1..steps {
                            let s = from.offset(ux * i, uy * i).unwrap();
                            if self.piece_at(s).is_some() {
                                between.push(s);
                            }
                        }
                        let err = if between.len() != rule.screens as usize {
                            if rule.screens == 0 {
                                Some(WhyNot::PathBlocked {
                                    role: p.role,
                                    at: between[0],
                                })
                            } else {
                                Some(WhyNot::Screens {
                                    role: p.role,
                                    needed: rule.screens,
                                    found: between.len() as u8,
                                })
                            }
                        } else if !mode_fits {
                            Some(mode_err())
                        } else {
                            None
                        };
                        match err {
                            None => return Ok(()),
                            Some(e) => errors.push((e, mode_fits)),
                        }
                    }
                }
            }
        }
        if let Some((e, _)) = errors.iter().find(|(_, fits)| *fits).or(errors.first()) {
            return Err(e.clone());
        }
        if p.role == Role::Pawn && delta.1 * (c.forward() as i32) < 0 {
            return Err(WhyNot::PawnBackward);
        }
        Err(WhyNot::NoSuchMove { role: p.role })
    }

    /// Why `m` is illegal for the side to move (`Ok` if it is legal).
    ///
    /// ```
    /// use xiangqi_rules::{Move, Position, RankConvention};
    /// let pos = Position::startpos();
    /// let m = Move::parse_iccs("b0c2", RankConvention::Iccs).unwrap();
    /// assert!(pos.check_move(m).is_ok());
    /// let m = Move::parse_iccs("b0d1", RankConvention::Iccs).unwrap();
    /// assert_eq!(
    ///     pos.check_move(m).unwrap_err().to_string(),
    ///     "no piece can move from b0 to d1 (horse leg blocked at c0)"
    /// );
    /// ```
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMoveReason> {
        // A legal move passes every test below; only an illegal one needs the reason.
        if self.is_legal(m) {
            return Ok(());
        }
        let (from, to) = (m.from(), m.to());
        if from == to {
            return Err(IllegalMoveReason::NullMove(from));
        }
        let Some(p) = self.piece_at(from) else {
            return Err(IllegalMoveReason::EmptyFrom { from });
        };
        if p.color != self.turn() {
            return Err(IllegalMoveReason::NotYourPiece { from, piece: p });
        }
        if matches!(self.piece_at(to), Some(t) if t.color == p.color) {
            return Err(IllegalMoveReason::CapturesOwn { to });
        }
        if let Err(why) = self.explain_shape(from, to) {
            return Err(IllegalMoveReason::CannotMove {
                piece: p,
                from,
                to,
                why,
            });
        }
        if self.move_makes_facing(m) {
            Err(IllegalMoveReason::KingsFacing)
        } else {
            Err(IllegalMoveReason::LeavesKingInCheck)
        }
    }
}

/// Why a list of moves could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} \"{text}\": {kind}")]
pub struct MoveListError {
    /// 1-based index of the move in the list.
    pub index: usize,
    /// The move text.
    pub text: String,
    /// What is wrong.
    pub kind: MoveListErrorKind,
}

/// The two ways a move in a list can fail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveListErrorKind {
    /// Not a move text.
    #[error("{0}")]
    Parse(#[from] MoveParseError),
    /// Not legal in the position reached.
    #[error("{0}")]
    Illegal(#[from] IllegalMoveReason),
}

/// Reads whitespace-separated moves played from `pos`, checking each for legality.
///
/// ```
/// use xiangqi_rules::{parse_moves, Position, RankConvention};
/// let pos = Position::startpos();
/// let moves = parse_moves(&pos, "h2e2 h9g7", RankConvention::Iccs).unwrap();
/// assert_eq!(moves.len(), 2);
/// let err = parse_moves(&pos, "h2e2 h9g7 e2e9", RankConvention::Iccs).unwrap_err();
/// assert_eq!(err.index, 3);
/// assert_eq!(
///     err.to_string(),
///     "move 3 \"e2e9\": no piece can move from e2 to e9 (a cannon capture needs exactly one screen)"
/// );
/// ```
pub fn parse_moves(
    pos: &Position,
    moves: &str,
    conv: RankConvention,
) -> Result<Vec<Move>, MoveListError> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let err = |kind: MoveListErrorKind| MoveListError {
            index: i + 1,
            text: text.to_string(),
            kind,
        };
        let m = Move::parse_iccs(text, conv).map_err(|e| err(e.into()))?;
        p.play_checked(m).map_err(|e| err(e.into()))?;
        out.push(m);
    }
    Ok(out)
}
