//! FEN reading and writing.
//!
//! Six fields `<board> <side> - - <halfmove> <fullmove>`; the board lists rank 9 first, letters
//! come from `pieces.yaml` (upper case = the side whose `fen_case` is `upper`). Side `w` or `r`
//! = Red, `b` = Black. Fields 3 and 4 must be `-`; missing clock fields default to `0 1`.

use crate::board::Board;
use crate::coord::{Coord, Side, FILES, RANKS};
use crate::spec::Spec;

/// The FEN field an error is about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FenField {
    /// The whole string (field count).
    Whole,
    /// Field 1, the piece placement.
    Board,
    /// Field 2, the side to move.
    Side,
    /// Field 3, kept for chess compatibility, must be `-`.
    Castling,
    /// Field 4, kept for chess compatibility, must be `-`.
    EnPassant,
    /// Field 5, the halfmove clock.
    Halfmove,
    /// Field 6, the fullmove number.
    Fullmove,
}

impl std::fmt::Display for FenField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FenField::Whole => "FEN",
            FenField::Board => "board field",
            FenField::Side => "side field",
            FenField::Castling => "field 3",
            FenField::EnPassant => "field 4",
            FenField::Halfmove => "halfmove field",
            FenField::Fullmove => "fullmove field",
        })
    }
}

/// Why a FEN was rejected. Every variant names its field (see [`FenError::field`]).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum FenError {
    /// Not 2 to 6 space-separated fields.
    #[error("FEN: expected 2 to 6 fields, found {found}")]
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// The board does not have 10 ranks.
    #[error("board field: expected 10 ranks separated by '/', found {found}")]
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank does not describe exactly 9 points.
    #[error("board field: rank {rank} describes {width} points, expected 9")]
    RankWidth {
        /// The rank (0..9; the first rank of the field is 9).
        rank: u8,
        /// Points described.
        width: usize,
    },
    /// A character that is neither a digit 1-9 nor a piece letter of the spec.
    #[error("board field: rank {rank}: unknown piece letter {ch:?}")]
    BadPieceChar {
        /// The rank.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// The side field is not `w`, `r` or `b`.
    #[error("side field: expected w, r or b, found {found:?}")]
    BadSide {
        /// The text found.
        found: String,
    },
    /// Field 3 or 4 is not `-`.
    #[error("{field}: must be '-', found {found:?}")]
    NotDash {
        /// Which field.
        field: FenField,
        /// The text found.
        found: String,
    },
    /// A clock field is not a number (the fullmove number must be at least 1).
    #[error("{field}: expected a number{}, found {found:?}", if *field == FenField::Fullmove { " >= 1" } else { "" })]
    BadClock {
        /// Which field.
        field: FenField,
        /// The text found.
        found: String,
    },
    /// A side has no king (art. 1.2: one king each).
    #[error("board field: {side} has no {king}")]
    MissingKing {
        /// The side.
        side: Side,
        /// Spec id of the royal piece.
        king: String,
    },
    /// More pieces of one kind than the spec's count (art. 1.2).
    #[error("board field: {side} has {found} {piece} pieces, at most {max} allowed")]
    TooMany {
        /// The side.
        side: Side,
        /// Spec id of the piece.
        piece: String,
        /// Pieces found.
        found: u32,
        /// The spec's count.
        max: u32,
    },
    /// The king stands outside its palace (art. 2.2).
    #[error("board field: {side} {king} on {at} is outside its palace")]
    KingOutsidePalace {
        /// The side.
        side: Side,
        /// Spec id of the royal piece.
        king: String,
        /// Where it stands.
        at: Coord,
    },
    /// A piece stands on a point it can never reach from its start points (e.g. an elephant
    /// across the river, an advisor off the palace diagonals, a pawn behind its start rank).
    #[error("board field: a {side} {piece} can never stand on {at}")]
    Unreachable {
        /// The side.
        side: Side,
        /// Spec id of the piece.
        piece: String,
        /// Where it stands.
        at: Coord,
    },
    /// The side not to move is in check: the previous move left its king attacked.
    #[error("side field: {side} is not to move but is in check")]
    OpponentInCheck {
        /// The side not to move.
        side: Side,
    },
    /// The kings face each other on an open file (art. 2.2): no legal move leads there.
    #[error("board field: the kings face each other")]
    KingsFacing,
}

impl FenError {
    /// The field the error is about.
    pub fn field(&self) -> FenField {
        match self {
            FenError::FieldCount { .. } => FenField::Whole,
            FenError::BadSide { .. } | FenError::OpponentInCheck { .. } => FenField::Side,
            FenError::NotDash { field, .. } | FenError::BadClock { field, .. } => *field,
            _ => FenField::Board,
        }
    }
}

/// A group of validations that [`Board::from_fen_lenient`] skips.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Validation {
    /// One king per side; no more pieces of a kind than the spec's count.
    PieceCount,
    /// The king in its palace; every piece on a point it can reach.
    Placement,
    /// The side not to move is not in check and the kings do not face each other.
    Check,
}

/// A validation that failed and was skipped by the lenient reader.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Relaxation {
    /// Which group of validations.
    pub validation: Validation,
    /// The error the strict reader would have returned.
    pub violation: FenError,
}

impl Board {
    /// Reads a FEN and validates it: one king per side inside its palace, piece counts within
    /// the spec's counts, every piece on a point it can reach, the side not to move not in
    /// check, the kings not facing.
    pub fn from_fen(spec: &Spec, fen: &str) -> Result<Board, FenError> {
        let board = parse(spec, fen)?;
        match board.validate().into_iter().next() {
            Some(r) => Err(r.violation),
            None => Ok(board),
        }
    }

    /// Reads a FEN checking only its syntax; returns the board and every validation of
    /// [`Board::from_fen`] that failed and was skipped (empty when the FEN is strictly valid).
    pub fn from_fen_lenient(spec: &Spec, fen: &str) -> Result<(Board, Vec<Relaxation>), FenError> {
        let board = parse(spec, fen)?;
        let skipped = board.validate();
        Ok((board, skipped))
    }

    /// All failed validations, in the order the strict reader checks them.
    fn validate(&self) -> Vec<Relaxation> {
        let spec = &self.spec;
        let mut out = Vec::new();
        let mut push = |validation, violation| {
            out.push(Relaxation {
                validation,
                violation,
            })
        };
        let royal = spec.royal();
        for side in Side::BOTH {
            for (r, rules) in spec.roles().iter().enumerate() {
                let n = self
                    .pieces_of(side)
                    .filter(|p| p.role.0 as usize == r)
                    .count() as u32;
                if r == royal.0 as usize && n == 0 {
                    push(
                        Validation::PieceCount,
                        FenError::MissingKing {
                            side,
                            king: rules.id.clone(),
                        },
                    );
                }
                if n > rules.count {
                    push(
                        Validation::PieceCount,
                        FenError::TooMany {
                            side,
                            piece: rules.id.clone(),
                            found: n,
                            max: rules.count,
                        },
                    );
                }
            }
        }
        for p in self.pieces() {
            let at = p.square.expect("fresh board");
            if p.role == royal && !spec.side(p.side).in_palace(at) {
                push(
                    Validation::Placement,
                    FenError::KingOutsidePalace {
                        side: p.side,
                        king: spec.role(royal).id.clone(),
                        at,
                    },
                );
            } else if !spec.reachable(p.role, p.side, at) {
                push(
                    Validation::Placement,
                    FenError::Unreachable {
                        side: p.side,
                        piece: spec.role(p.role).id.clone(),
                        at,
                    },
                );
            }
        }
        let waiting = self.st.turn.opponent();
        if self.in_check(waiting) {
            push(
                Validation::Check,
                FenError::OpponentInCheck { side: waiting },
            );
        }
        if self.kings_facing() {
            push(Validation::Check, FenError::KingsFacing);
        }
        out
    }

    /// Writes the position as FEN, e.g.
    /// `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..RANKS as i32).rev() {
            let mut empty = 0;
            for file in 0..FILES as i32 {
                let c = Coord::new(file, rank).expect("on board");
                match self.piece_at(c) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(self.spec.letter(p.role, p.side));
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.st.turn {
            Side::Red => 'w',
            Side::Black => 'b',
        };
        format!("{s} {side} - - {} {}", self.st.halfmoves, self.st.fullmoves)
    }
}

/// Syntax only: fields, ranks, letters, side, placeholders, clocks.
fn parse(spec: &Spec, fen: &str) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(2..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount {
            found: fields.len(),
        });
    }
    let turn = match fields[1] {
        "w" | "r" => Side::Red,
        "b" => Side::Black,
        other => {
            return Err(FenError::BadSide {
                found: other.to_string(),
            })
        }
    };
    for (i, field) in [(2, FenField::Castling), (3, FenField::EnPassant)] {
        if let Some(t) = fields.get(i) {
            if *t != "-" {
                return Err(FenError::NotDash {
                    field,
                    found: t.to_string(),
                });
            }
        }
    }
    let clock = |i: usize, field: FenField, default: u32, min: u32| match fields.get(i) {
        None => Ok(default),
        Some(t) => t
            .parse::<u32>()
            .ok()
            .filter(|n| *n >= min && t.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| FenError::BadClock {
                field,
                found: t.to_string(),
            }),
    };
    let halfmoves = clock(4, FenField::Halfmove, 0, 0)?;
    let fullmoves = clock(5, FenField::Fullmove, 1, 1)?;

    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    let mut placed = Vec::new();
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let mut file: usize = 0;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
            } else if let Some((role, side)) = spec.role_by_letter(ch) {
                if file < FILES as usize {
                    placed.push((
                        Coord::new(file as i32, rank as i32).expect("on board"),
                        side,
                        role,
                    ));
                }
                file += 1;
            } else {
                return Err(FenError::BadPieceChar { rank, ch });
            }
        }
        if file != FILES as usize {
            return Err(FenError::RankWidth { rank, width: file });
        }
    }
    placed.sort_by_key(|(c, _, _)| *c);
    let mut board = Board::empty(spec, turn);
    for (c, side, role) in placed {
        board.put(c, side, role);
    }
    board.st.halfmoves = halfmoves;
    board.st.fullmoves = fullmoves;
    Ok(board)
}
