//! What the Chinese and WXF notations share: mover-relative files, pieces standing on one
//! file in front of each other, and the search of the legal move a description fits.

use super::NotationError;
use crate::{Color, Move, Piece, Position, Role, Square};

/// The direction word / sign of a move, seen from the mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// 進 / `+`.
    Forward,
    /// 退 / `-`.
    Backward,
    /// 平 / `=`.
    Sideways,
}

impl Dir {
    pub(crate) const ALL: [Dir; 3] = [Dir::Forward, Dir::Backward, Dir::Sideways];
}

/// The file number 1..9 of file index `file` (0 = ICCS `a`), counted from `color`'s right.
pub(crate) fn file_number(color: Color, file: usize) -> u8 {
    match color {
        Color::Red => 9 - file as u8,
        Color::Black => file as u8 + 1,
    }
}

/// The file index of file number `n` (1..9) counted from `color`'s right.
pub(crate) fn file_index(color: Color, n: u8) -> Option<usize> {
    if !(1..=9).contains(&n) {
        return None;
    }
    Some(match color {
        Color::Red => 9 - n as usize,
        Color::Black => n as usize - 1,
    })
}

/// Does the piece move along lines (帥 俥 炮 兵), so that its number counts ranks?
pub(crate) fn moves_straight(role: Role) -> bool {
    matches!(role, Role::King | Role::Rook | Role::Cannon | Role::Pawn)
}

/// The squares of `piece` on file index `file`, front to back as seen by its owner.
pub(crate) fn on_file(pos: &Position, piece: Piece, file: usize) -> Vec<Square> {
    let mut v: Vec<Square> = (0..10u8)
        .map(|r| Square::at(file as u8, r))
        .filter(|&sq| pos.piece_at(sq) == Some(piece))
        .collect();
    if piece.color == Color::Red {
        v.reverse();
    }
    v
}

/// File indices holding two or more of `piece`, from its owner's right to left.
pub(crate) fn tandem_files(pos: &Position, piece: Piece) -> Vec<usize> {
    let mut files: Vec<usize> = (0..9)
        .filter(|&f| on_file(pos, piece, f).len() >= 2)
        .collect();
    if piece.color == Color::Red {
        files.reverse();
    }
    files
}

/// The pieces on the tandem files, numbered file by file from the owner's right, front to
/// back within a file (the 一..五 numbering).
pub(crate) fn numbered(pos: &Position, piece: Piece) -> Vec<Square> {
    tandem_files(pos, piece)
        .into_iter()
        .flat_map(|f| on_file(pos, piece, f))
        .collect()
}

/// Direction and number of a move by `role` of `color` (None if the shape has no notation,
/// which no legal move has).
pub(crate) fn geometry(color: Color, role: Role, from: Square, to: Square) -> Option<(Dir, u8)> {
    let dr = (to.rank().index() as i32 - from.rank().index() as i32) * color.forward() as i32;
    let to_file = file_number(color, to.file().index());
    if moves_straight(role) {
        if dr == 0 {
            Some((Dir::Sideways, to_file))
        } else if from.file() == to.file() && dr.unsigned_abs() <= 9 {
            let n = dr.unsigned_abs() as u8;
            Some((if dr > 0 { Dir::Forward } else { Dir::Backward }, n))
        } else {
            None
        }
    } else if dr > 0 {
        Some((Dir::Forward, to_file))
    } else if dr < 0 {
        Some((Dir::Backward, to_file))
    } else {
        None
    }
}

/// The target of the piece `role` of `color` on `from` moving `dir` with number `n`, or why
/// there is none.
pub(crate) fn target(
    color: Color,
    role: Role,
    from: Square,
    dir: Dir,
    n: u8,
) -> Result<Square, String> {
    let fwd = color.forward() as i32;
    let ff = from.file().index() as i32;
    let fr = from.rank().index() as i32;
    let off = || format!("it would leave the board from {from}");
    if moves_straight(role) {
        match dir {
            Dir::Sideways => {
                let tf = file_index(color, n).ok_or_else(|| format!("no file {n}"))? as i32;
                if tf == ff {
                    return Err(format!(
                        "平 to its own file {n}: a sideways move must change file"
                    ));
                }
                Square::from_xy(tf, fr).ok_or_else(off)
            }
            Dir::Forward | Dir::Backward => {
                let sign = if dir == Dir::Forward { 1 } else { -1 };
                Square::from_xy(ff, fr + sign * fwd * n as i32).ok_or_else(off)
            }
        }
    } else {
        if dir == Dir::Sideways {
            return Err(format!(
                "a{} {} never moves sideways (平)",
                if role == Role::Advisor || role == Role::Elephant {
                    "n"
                } else {
                    ""
                },
                role
            ));
        }
        let tf = file_index(color, n).ok_or_else(|| format!("no file {n}"))? as i32;
        let df = (tf - ff).abs();
        let dr = match (role, df) {
            (Role::Horse, 1) => 2,
            (Role::Horse, 2) => 1,
            (Role::Advisor, 1) => 1,
            (Role::Elephant, 2) => 2,
            _ => {
                return Err(format!(
                    "a {role} cannot reach file {n} from file {}",
                    file_number(color, ff as usize)
                ))
            }
        };
        let sign = if dir == Dir::Forward { 1 } else { -1 };
        Square::from_xy(tf, fr + sign * fwd * dr).ok_or_else(off)
    }
}

/// Finds the one legal move of the pieces on `froms` (all of role `role` of the side to move)
/// moving in one of `dirs` with number `n`.
pub(crate) fn finish(
    pos: &Position,
    text: &str,
    role: Role,
    froms: &[Square],
    dirs: &[Dir],
    n: u8,
) -> Result<Move, NotationError> {
    let color = pos.turn();
    let mut geo = Vec::new();
    let mut why = String::new();
    for &from in froms {
        for &dir in dirs {
            match target(color, role, from, dir, n) {
                Ok(to) => geo.push(Move::new(from, to)),
                Err(e) => why = e,
            }
        }
    }
    geo.sort();
    geo.dedup();
    if geo.is_empty() {
        return Err(NotationError::NoMatch {
            text: text.to_string(),
            reason: why,
        });
    }
    let legal: Vec<Move> = geo.iter().copied().filter(|&m| pos.is_legal(m)).collect();
    match legal.len() {
        1 => Ok(legal[0]),
        0 if geo.len() == 1 => {
            let mv = geo[0];
            match pos.check_move(mv) {
                Err(reason) => Err(NotationError::Illegal {
                    text: text.to_string(),
                    mv,
                    reason,
                }),
                // Unreachable (is_legal said no), but never panic.
                Ok(()) => Ok(mv),
            }
        }
        0 => Err(NotationError::NoMatch {
            text: text.to_string(),
            reason: format!(
                "{} are all illegal",
                geo.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        _ => Err(NotationError::Ambiguous {
            text: text.to_string(),
            candidates: legal,
        }),
    }
}

/// "Red has no cannon on file 二"-style message.
pub(crate) fn none_on_file(color: Color, role: Role, n: u8) -> String {
    format!("{color} has no {role} on file {n}")
}
