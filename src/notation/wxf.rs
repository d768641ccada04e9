//! The WXF notation: `C2=5`, `H8+7`, `+C=5` / `C+=5`, and the WXF pawn conventions.

use super::resolve::{
    file_index, file_number, finish, geometry, none_on_file, on_file, tandem_files, Dir,
};
use super::{require_legal, Format, NotationError, Sideways, TandemStyle, WxfStyle};
use crate::{Move, Piece, Position, Role, Square};

/// How a WXF move names its piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sel {
    /// `C2`: the piece on file 2 (on a file with three or five, the middle one).
    File(u8),
    /// `+C` / `C+`: the front piece (the second from the front among four or five pawns).
    Plus,
    /// `-C` / `C-`: the rear piece (the second from the rear among four or five pawns).
    Minus,
    /// `++`: the foremost of four or five pawns.
    PlusPlus,
    /// `--`: the rearmost of four or five pawns.
    MinusMinus,
    /// `3+`: the front pawn on file 3, when two files hold two or more pawns.
    FilePlus(u8),
    /// `3-`: the rear pawn on file 3.
    FileMinus(u8),
    /// `33`: the middle pawn of three on file 3.
    FileMiddle(u8),
}

fn role_letter(r: Role) -> char {
    match r {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

fn role_of(c: char) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        'K' => Role::King,
        // G: guard, as in the English translation of the Asian rules' examples.
        'A' | 'G' => Role::Advisor,
        // M: minister.
        'E' | 'B' | 'M' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Rook,
        'C' => Role::Cannon,
        'P' | 'S' => Role::Pawn,
        _ => return None,
    })
}

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn render(p: Piece, sel: Sel, dir: Dir, n: u8, style: &WxfStyle) -> String {
    let l = role_letter(p.role);
    let prefix = style.tandem == TandemStyle::Prefix;
    let head = match sel {
        Sel::File(f) => format!("{l}{f}"),
        Sel::Plus if prefix => format!("+{l}"),
        Sel::Plus => format!("{l}+"),
        Sel::Minus if prefix => format!("-{l}"),
        Sel::Minus => format!("{l}-"),
        Sel::PlusPlus => "++".to_string(),
        Sel::MinusMinus => "--".to_string(),
        Sel::FilePlus(f) => format!("{f}+"),
        Sel::FileMinus(f) => format!("{f}-"),
        Sel::FileMiddle(f) => format!("{f}{f}"),
    };
    let op = match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Sideways => match style.sideways {
            Sideways::Equals => '=',
            Sideways::Dot => '.',
        },
    };
    format!("{head}{op}{n}")
}

/// The WXF tandem name of the piece on `from`, if it shares its file.
fn tandem_sel(pos: &Position, p: Piece, from: Square) -> Option<Sel> {
    let list = on_file(pos, p, from.file().index());
    let i = list.iter().position(|&s| s == from)?;
    let n = list.len();
    if n < 2 {
        return None;
    }
    let file = file_number(p.color, from.file().index());
    if tandem_files(pos, p).len() == 1 {
        Some(match (n, i) {
            (2 | 3, 0) => Sel::Plus,
            (2, _) | (3, 2) => Sel::Minus,
            (3, _) => Sel::File(file),
            (_, 0) => Sel::PlusPlus,
            (_, 1) => Sel::Plus,
            (_, i) if i == n - 1 => Sel::MinusMinus,
            (_, i) if i == n - 2 => Sel::Minus,
            _ => Sel::File(file),
        })
    } else if i == 0 {
        Some(Sel::FilePlus(file))
    } else if i == n - 1 {
        Some(Sel::FileMinus(file))
    } else {
        Some(Sel::FileMiddle(file))
    }
}

/// Writes a legal move of `pos` in WXF notation.
///
/// ```
/// use xiangqi_rules::notation::{to_wxf, WxfStyle, TandemStyle, Sideways};
/// use xiangqi_rules::{Move, Position, RankConvention};
/// let pos = Position::startpos();
/// let m = Move::parse_iccs("h2e2", RankConvention::Iccs).unwrap();
/// assert_eq!(to_wxf(&pos, m, &WxfStyle::default()).unwrap(), "C2=5");
/// let book = WxfStyle { tandem: TandemStyle::Suffix, sideways: Sideways::Dot };
/// assert_eq!(to_wxf(&pos, m, &book).unwrap(), "C2.5");
/// ```
pub fn to_wxf(pos: &Position, m: Move, style: &WxfStyle) -> Result<String, NotationError> {
    require_legal(pos, m)?;
    let inexpressible = NotationError::Inexpressible {
        mv: m,
        format: Format::Wxf,
    };
    let p = match pos.piece_at(m.from()) {
        Some(p) => p,
        None => return Err(inexpressible),
    };
    let (dir, n) = geometry(p.color, p.role, m.from(), m.to()).ok_or(inexpressible.clone())?;
    let file_sel = Sel::File(file_number(p.color, m.from().file().index()));
    let tandem = tandem_sel(pos, p, m.from());
    let forms: Vec<Sel> = match (p.role, tandem) {
        (Role::King | Role::Advisor | Role::Elephant, Some(t)) => vec![file_sel, t],
        (_, Some(t)) => vec![t, file_sel],
        (_, None) => vec![file_sel],
    };
    for sel in forms {
        // The digit-only pawn forms carry no letter: only for pawns.
        if matches!(
            sel,
            Sel::PlusPlus
                | Sel::MinusMinus
                | Sel::FilePlus(_)
                | Sel::FileMinus(_)
                | Sel::FileMiddle(_)
        ) && p.role != Role::Pawn
        {
            continue;
        }
        let text = render(p, sel, dir, n, style);
        if parse_wxf(pos, &text) == Ok(m) {
            return Ok(text);
        }
    }
    Err(inexpressible)
}

/// Reads a move in WXF notation, checked against the legal moves of `pos`.
///
/// ```
/// use xiangqi_rules::notation::parse_wxf;
/// use xiangqi_rules::Position;
/// let pos = Position::startpos();
/// assert_eq!(parse_wxf(&pos, "C2=5").unwrap().to_string(), "h2e2");
/// assert_eq!(parse_wxf(&pos, "C2.5").unwrap().to_string(), "h2e2");
/// assert!(parse_wxf(&pos, "C2=9").is_err());
/// ```
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let syntax = |reason: String| NotationError::Syntax {
        text: text.to_string(),
        format: Format::Wxf,
        reason,
    };
    let cs: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if cs.len() != 4 {
        return Err(syntax(
            "expected four characters such as C2=5, H8+7 or +C=5".into(),
        ));
    }
    let (role, sel) = match (cs[0], cs[1]) {
        ('+', '+') => (Role::Pawn, Sel::PlusPlus),
        ('-', '-') => (Role::Pawn, Sel::MinusMinus),
        ('+', c) => (
            role_of(c).ok_or_else(|| syntax(format!("{c:?} is not a piece letter")))?,
            Sel::Plus,
        ),
        ('-', c) => (
            role_of(c).ok_or_else(|| syntax(format!("{c:?} is not a piece letter")))?,
            Sel::Minus,
        ),
        (a, b) if digit(a).is_some() => {
            let f = digit(a).unwrap_or(1);
            match b {
                '+' => (Role::Pawn, Sel::FilePlus(f)),
                '-' => (Role::Pawn, Sel::FileMinus(f)),
                _ if digit(b) == Some(f) => (Role::Pawn, Sel::FileMiddle(f)),
                _ => {
                    return Err(syntax(format!(
                        "after the pawn file {a}, expected +, - or {a} (middle pawn), found {b:?}"
                    )))
                }
            }
        }
        (a, b) => {
            let r = role_of(a).ok_or_else(|| syntax(format!("{a:?} is not a piece letter")))?;
            match b {
                '+' => (r, Sel::Plus),
                '-' => (r, Sel::Minus),
                _ => (
                    r,
                    Sel::File(digit(b).ok_or_else(|| {
                        syntax(format!(
                            "expected a file 1..9, + or - after {a:?}, found {b:?}"
                        ))
                    })?),
                ),
            }
        }
    };
    let dir = match cs[2] {
        '+' => Dir::Forward,
        '-' => Dir::Backward,
        '=' | '.' => Dir::Sideways,
        c => return Err(syntax(format!("{c:?} is not +, - or ="))),
    };
    let n = digit(cs[3]).ok_or_else(|| syntax(format!("{:?} is not a number 1..9", cs[3])))?;
    let piece = Piece::new(pos.turn(), role);
    let froms = select(pos, piece, sel).map_err(|reason| NotationError::NoSuchPiece {
        text: text.to_string(),
        reason,
    })?;
    finish(pos, text, role, &froms, &[dir], n)
}

fn select(pos: &Position, piece: Piece, sel: Sel) -> Result<Vec<Square>, String> {
    let (color, role) = (piece.color, piece.role);
    let file_list = |f: u8| -> Result<Vec<Square>, String> {
        let idx = file_index(color, f).ok_or_else(|| format!("no file {f}"))?;
        let v = on_file(pos, piece, idx);
        if v.is_empty() {
            Err(none_on_file(color, role, f))
        } else {
            Ok(v)
        }
    };
    match sel {
        Sel::File(f) => {
            let v = file_list(f)?;
            // WXF: of three or five on a file, the plain form is the middle one.
            if v.len() == 3 || v.len() == 5 {
                Ok(vec![v[v.len() / 2]])
            } else {
                Ok(v)
            }
        }
        Sel::Plus | Sel::Minus | Sel::PlusPlus | Sel::MinusMinus => {
            let files = tandem_files(pos, piece);
            if files.is_empty() {
                return Err(format!("+/- needs two or more {color} {role}s on one file"));
            }
            // With several shared files, the sign names one piece on each, and the rest of
            // the move must tell them apart (else the move is ambiguous).
            Ok(files
                .iter()
                .map(|&f| {
                    let v = on_file(pos, piece, f);
                    let n = v.len();
                    let i = match sel {
                        Sel::PlusPlus => 0,
                        Sel::MinusMinus => n - 1,
                        Sel::Plus if n >= 4 => 1,
                        Sel::Plus => 0,
                        _ if n >= 4 => n - 2,
                        _ => n - 1,
                    };
                    v[i]
                })
                .collect())
        }
        Sel::FilePlus(f) | Sel::FileMinus(f) | Sel::FileMiddle(f) => {
            let v = file_list(f)?;
            let n = v.len();
            if n < 2 {
                return Err(format!("{color} has only one {role} on file {f}"));
            }
            match sel {
                Sel::FilePlus(_) => Ok(vec![v[0]]),
                Sel::FileMinus(_) => Ok(vec![v[n - 1]]),
                _ if n % 2 == 1 => Ok(vec![v[n / 2]]),
                _ => Err(format!(
                    "{f}{f} names the middle {role} of three on file {f}, which has {n}"
                )),
            }
        }
    }
}
