//! FEN reading and writing, with strict and lenient validation.

use crate::position::{Position, Setup};
use crate::tables::{most_moves, COUNTS, PALACE, REACHABLE};
use crate::MAX_MOVES;
use crate::{Color, Piece, Role, Square};
use std::fmt;

/// A problem with the board field of a FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 10 ranks separated by `/`.
    #[error("expected 10 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank describing more than 9 points.
    #[error("rank {rank} describes more than 9 points")]
    RankTooLong {
        /// Rank (0..9, ICCS).
        rank: u8,
    },
    /// A rank describing fewer than 9 points.
    #[error("rank {rank} describes {points} points instead of 9")]
    RankTooShort {
        /// Rank (0..9, ICCS).
        rank: u8,
        /// Points described.
        points: usize,
    },
    /// A character that is neither a piece letter nor a digit 1..9.
    #[error(
        "rank {rank}: unexpected character {ch:?} (pieces are K A B N R C P, upper case = Red)"
    )]
    BadChar {
        /// Rank (0..9, ICCS).
        rank: u8,
        /// The character.
        ch: char,
    },
}

/// Why a FEN was rejected. `Display` names the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN")]
    Empty,
    /// More than 6 fields.
    #[error("expected at most 6 fields, found {0}")]
    TooManyFields(usize),
    /// The board field.
    #[error("board: {0}")]
    Board(#[from] BoardError),
    /// The side-to-move field is missing.
    #[error("side to move: missing (expected w or b)")]
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move: expected w, r or b, found {0:?}")]
    Side(String),
    /// Field 3 or 4 is not `-`.
    #[error("field {field}: expected \"-\", found {found:?}")]
    Dash {
        /// 3 or 4.
        field: usize,
        /// What was there.
        found: String,
    },
    /// The half-move clock is not a number.
    #[error("halfmove clock: expected a non-negative integer, found {0:?}")]
    Halfmove(String),
    /// The move number is not a positive number.
    #[error("fullmove number: expected a positive integer, found {0:?}")]
    Fullmove(String),
    /// Not exactly one king of a colour.
    #[error("board: {color} has {count} kings (expected exactly one)")]
    KingCount {
        /// Colour.
        color: Color,
        /// Kings found.
        count: usize,
    },
    /// A king outside its palace.
    #[error("board: the {color} king on {square} is outside its palace")]
    KingOutsidePalace {
        /// Colour.
        color: Color,
        /// Where.
        square: Square,
    },
    /// So many pieces on one side that their legal moves could overflow a
    /// [`MoveList`](crate::MoveList): the sum of each piece's most moves
    /// ([`most_moves`]) is above [`MAX_MOVES`]. Only the lenient
    /// readers return it: the spec's counts keep a strict set-up's pieces to 119 moves.
    #[error("board: {color}'s pieces could have up to {bound} moves at once (at most {max} are handled)")]
    TooCrowded {
        /// The side.
        color: Color,
        /// The sum of its pieces' most moves.
        bound: u32,
        /// [`MAX_MOVES`].
        max: usize,
    },
    /// More pieces of a kind than the spec's `count`.
    #[error("board: {} has {found} {}s (at most {max})", piece.color, piece.role)]
    TooMany {
        /// The piece kind.
        piece: Piece,
        /// How many.
        found: usize,
        /// The spec's `count`.
        max: usize,
    },
    /// A piece on a point it can never reach.
    #[error("board: {} {} on {square} stands on a point it can never reach", piece.color, piece.role)]
    Unreachable {
        /// The piece.
        piece: Piece,
        /// Where.
        square: Square,
    },
    /// The kings face each other on an open file.
    #[error("board: the kings face each other on file {file} (將帥對面)")]
    KingsFacing {
        /// File letter.
        file: char,
    },
    /// The side that is not to move is in check.
    #[error("side to move: {color} is not to move but is in check")]
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
}

/// A strict check that [`Position::from_fen_lenient`] waived.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Relaxation {
    /// More pieces of a kind than the spec allows.
    TooMany {
        /// The piece kind.
        piece: Piece,
        /// How many.
        found: usize,
        /// The spec's `count`.
        max: usize,
    },
    /// A piece on a point it can never reach.
    Unreachable {
        /// The piece.
        piece: Piece,
        /// Where.
        square: Square,
    },
    /// The kings face each other.
    KingsFacing,
    /// The side not to move is in check.
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
}

impl fmt::Display for Relaxation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Relaxation::TooMany { piece, found, max } => write!(
                f,
                "{} has {found} {}s (at most {max})",
                piece.color, piece.role
            ),
            Relaxation::Unreachable { piece, square } => write!(
                f,
                "{} {} on {square} stands on a point it can never reach",
                piece.color, piece.role
            ),
            Relaxation::KingsFacing => f.write_str("the kings face each other"),
            Relaxation::OpponentInCheck { color } => {
                write!(f, "{color} is not to move but is in check")
            }
        }
    }
}

/// A move counter: ASCII digits only (no sign, no spaces), fitting in a `u32`.
fn parse_count(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Setup {
    /// Reads a FEN without validating the position (only its syntax).
    ///
    /// Fields: `<board> <side> - - <halfmove> <fullmove>`; the last four may be omitted
    /// (clocks default to `0 1`). Side `w` or `r` is Red, `b` is Black.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 10 {
            return Err(BoardError::RankCount(rows.len()).into());
        }
        let mut board = [None; 90];
        for (i, row) in rows.iter().enumerate() {
            let rank = (9 - i) as u8;
            let mut file = 0usize;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    if file > 9 {
                        return Err(BoardError::RankTooLong { rank }.into());
                    }
                } else if let Some(p) = Piece::from_fen_char(ch) {
                    if file >= 9 {
                        return Err(BoardError::RankTooLong { rank }.into());
                    }
                    board[rank as usize * 9 + file] = Some(p);
                    file += 1;
                } else {
                    return Err(BoardError::BadChar { rank, ch }.into());
                }
            }
            if file != 9 {
                return Err(BoardError::RankTooShort { rank, points: file }.into());
            }
        }
        let turn = match fields.get(1) {
            None => return Err(FenError::MissingSide),
            Some(&"w") | Some(&"r") => Color::Red,
            Some(&"b") => Color::Black,
            Some(s) => return Err(FenError::Side(s.to_string())),
        };
        for field in [3usize, 4] {
            if let Some(s) = fields.get(field - 1) {
                if *s != "-" {
                    return Err(FenError::Dash {
                        field,
                        found: s.to_string(),
                    });
                }
            }
        }
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(s) => parse_count(s).ok_or_else(|| FenError::Halfmove(s.to_string()))?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(s) => parse_count(s)
                .filter(|&n| n >= 1)
                .ok_or_else(|| FenError::Fullmove(s.to_string()))?,
        };
        Ok(Setup {
            board,
            turn,
            halfmoves,
            fullmoves,
        })
    }

    /// Writes the FEN (6 fields).
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[rank * 9 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        format!(
            "{s} {} - - {} {}",
            self.turn.fen_char(),
            self.halfmoves,
            self.fullmoves
        )
    }
}

/// The room check of a lenient set-up: each side's pieces must fit a
/// [`MoveList`](crate::MoveList) whatever they do ([`FenError::TooCrowded`]).
fn check_room(s: &Setup) -> Result<(), FenError> {
    for color in Color::ALL {
        let bound: u32 = s
            .board
            .iter()
            .flatten()
            .filter(|p| p.color == color)
            .map(|p| most_moves(color.index(), p.role.index()))
            .sum();
        if bound as usize > MAX_MOVES {
            return Err(FenError::TooCrowded {
                color,
                bound,
                max: MAX_MOVES,
            });
        }
    }
    Ok(())
}

fn check_kings(s: &Setup) -> Result<(), FenError> {
    for color in Color::ALL {
        let king = Piece::new(color, Role::King);
        let count = s.board.iter().filter(|&&p| p == Some(king)).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
        let square = s
            .board
            .iter()
            .position(|&p| p == Some(king))
            .expect("one king");
        if PALACE[color.index()] & (1u128 << square) == 0 {
            return Err(FenError::KingOutsidePalace {
                color,
                square: Square::new_unchecked(square as u8),
            });
        }
    }
    Ok(())
}

/// The strict checks, as relaxations, in a fixed order.
fn strict_findings(s: &Setup, pos: &Position) -> Vec<Relaxation> {
    let mut out = Vec::new();
    let mut counts = [[0usize; Role::ALL.len()]; Color::ALL.len()];
    for p in s.board.iter().flatten() {
        counts[p.color.index()][p.role.index()] += 1;
    }
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            let found = counts[color.index()][role.index()];
            let max = COUNTS[role.index()] as usize;
            if found > max {
                out.push(Relaxation::TooMany { piece, found, max });
            }
        }
    }
    for (i, p) in s.board.iter().enumerate() {
        if let Some(p) = *p {
            if REACHABLE[p.color.index()][p.role.index()] & (1u128 << i) == 0 {
                out.push(Relaxation::Unreachable {
                    piece: p,
                    square: Square::new_unchecked(i as u8),
                });
            }
        }
    }
    if pos.kings_facing() {
        out.push(Relaxation::KingsFacing);
    } else if pos.king_attacked(s.turn.other()) {
        out.push(Relaxation::OpponentInCheck {
            color: s.turn.other(),
        });
    }
    out
}

impl Position {
    /// Validates a setup strictly (see [`Position::from_fen`]).
    pub fn from_setup(s: &Setup) -> Result<Position, FenError> {
        // The spec's counts keep a strict set-up's pieces to 119 moves at most: no room check.
        check_kings(s)?;
        let pos = Position::from_setup_unchecked(s);
        if let Some(r) = strict_findings(s, &pos).into_iter().next() {
            return Err(match r {
                Relaxation::TooMany { piece, found, max } => {
                    FenError::TooMany { piece, found, max }
                }
                Relaxation::Unreachable { piece, square } => {
                    FenError::Unreachable { piece, square }
                }
                Relaxation::KingsFacing => FenError::KingsFacing {
                    file: pos.king(Color::Red).file().char(),
                },
                Relaxation::OpponentInCheck { color } => FenError::OpponentInCheck { color },
            });
        }
        Ok(pos)
    }

    /// Validates a setup leniently (see [`Position::from_fen_lenient`]).
    pub fn from_setup_lenient(s: &Setup) -> Result<(Position, Vec<Relaxation>), FenError> {
        check_kings(s)?;
        check_room(s)?;
        let pos = Position::from_setup_unchecked(s);
        let relaxed = strict_findings(s, &pos);
        Ok((pos, relaxed))
    }

    /// Reads a FEN and validates it strictly: exactly one king per side inside its palace, at
    /// most the spec's `count` of each piece, advisors/elephants/pawns only on points they can
    /// reach, kings not facing, and the side not to move not in check.
    ///
    /// ```
    /// use xiangqi_rules::Position;
    /// let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    /// let pos = Position::from_fen(fen).unwrap();
    /// assert_eq!(pos.to_fen(), fen);
    /// assert_eq!(pos, Position::startpos());
    /// let err = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err();
    /// assert_eq!(err.to_string(), "board: the kings face each other on file e (將帥對面)");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(&Setup::from_fen(fen)?)
    }

    /// Reads a FEN, requiring only a parseable FEN with one king per side in its palace; the
    /// other strict checks are waived and reported as [`Relaxation`]s.
    pub fn from_fen_lenient(fen: &str) -> Result<(Position, Vec<Relaxation>), FenError> {
        Position::from_setup_lenient(&Setup::from_fen(fen)?)
    }

    /// The FEN of the position (6 fields).
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }
}
