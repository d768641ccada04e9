//! The Chinese notation: 炮二平五, 馬８進７, 前俥進一, 中兵平四, 三兵進一.

use super::resolve::{
    file_index, file_number, finish, geometry, none_on_file, numbered, on_file, tandem_files, Dir,
};
use super::{require_legal, BlackDigits, Charset, ChineseStyle, Format, NotationError};
use crate::{Color, Move, Piece, Position, Role, Square};

/// How a Chinese move names its piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sel {
    /// The piece's file number (炮二).
    File(u8),
    /// 前.
    Front,
    /// 中.
    Middle,
    /// 後.
    Rear,
    /// 一..五 of the tandem numbering.
    Nth(u8),
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn numeral_value(c: char) -> Option<u8> {
    if let Some(i) = RED_NUMERALS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

/// Whose numbers a move in Chinese notation is written with: red's (Chinese numerals 一..九)
/// or black's (full-width digits, or ASCII digits in the full form with 進/退/平; the short form
/// 砲25 writes either side's files with ASCII digits); `None` when it tells nothing or has both.
pub(crate) fn numbered_as(text: &str) -> Option<Color> {
    let full_form = text.chars().any(|c| dir_of(c).is_some());
    let mut red = false;
    let mut black = false;
    for c in text.chars() {
        if RED_NUMERALS.contains(&c) {
            red = true;
        } else if ('１'..='９').contains(&c) || (full_form && c.is_ascii_digit()) {
            black = true;
        }
    }
    match (red, black) {
        (true, false) => Some(Color::Red),
        (false, true) => Some(Color::Black),
        _ => None,
    }
}

fn role_of(c: char) -> Option<Role> {
    Some(match c {
        '帥' | '帅' | '將' | '将' => Role::King,
        '仕' | '士' => Role::Advisor,
        '相' | '象' => Role::Elephant,
        '傌' | '馬' | '马' | '䭾' => Role::Horse,
        '俥' | '車' | '车' => Role::Rook,
        '炮' | '砲' | '包' => Role::Cannon,
        '兵' | '卒' => Role::Pawn,
        _ => return None,
    })
}

fn qualifier_of(c: char) -> Option<Sel> {
    match c {
        '前' => Some(Sel::Front),
        '中' => Some(Sel::Middle),
        '後' | '后' => Some(Sel::Rear),
        _ => None,
    }
}

fn dir_of(c: char) -> Option<Dir> {
    match c {
        '進' | '进' => Some(Dir::Forward),
        '退' => Some(Dir::Backward),
        '平' => Some(Dir::Sideways),
        _ => None,
    }
}

fn piece_name(p: Piece, cs: Charset) -> &'static str {
    match cs {
        Charset::Traditional => p.chinese_name(),
        Charset::Book => match p.role {
            Role::Horse => "馬",
            Role::Rook => "車",
            _ => p.chinese_name(),
        },
        Charset::Simplified => match (p.color, p.role) {
            (Color::Red, Role::King) => "帅",
            (Color::Black, Role::King) => "将",
            (_, Role::Horse) => "马",
            (_, Role::Rook) => "车",
            (_, Role::Cannon) => "炮",
            _ => p.chinese_name(),
        },
    }
}

fn number_text(color: Color, n: u8, style: &ChineseStyle) -> char {
    let i = n.clamp(1, 9) as usize - 1;
    match (color, style.black_digits) {
        (Color::Red, _) => RED_NUMERALS[i],
        (Color::Black, BlackDigits::FullWidth) => {
            char::from_u32('１' as u32 + i as u32).unwrap_or('?')
        }
        (Color::Black, BlackDigits::Ascii) => (b'1' + i as u8) as char,
    }
}

fn render(p: Piece, sel: Sel, dir: Dir, n: u8, style: &ChineseStyle) -> String {
    let trad = style.charset != Charset::Simplified;
    let name = piece_name(p, style.charset);
    let mut s = String::new();
    match sel {
        Sel::File(f) => {
            s.push_str(name);
            s.push(number_text(p.color, f, style));
        }
        Sel::Front => {
            s.push('前');
            s.push_str(name);
        }
        Sel::Middle => {
            s.push('中');
            s.push_str(name);
        }
        Sel::Rear => {
            s.push(if trad { '後' } else { '后' });
            s.push_str(name);
        }
        Sel::Nth(k) => {
            s.push(RED_NUMERALS[k.clamp(1, 5) as usize - 1]);
            s.push_str(name);
        }
    }
    s.push(match dir {
        Dir::Forward if trad => '進',
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Sideways => '平',
    });
    s.push(number_text(p.color, n, style));
    s
}

/// The tandem name (前/中/後 or 一..五) of the piece on `from`, if it shares its file.
fn tandem_sel(pos: &Position, p: Piece, from: Square) -> Option<Sel> {
    let list = on_file(pos, p, from.file().index());
    let i = list.iter().position(|&s| s == from)?;
    if list.len() < 2 {
        return None;
    }
    let files = tandem_files(pos, p);
    if files.len() == 1 {
        Some(match (list.len(), i) {
            (2, 0) | (3, 0) => Sel::Front,
            (2, _) | (3, 2) => Sel::Rear,
            (3, _) => Sel::Middle,
            _ => Sel::Nth(i as u8 + 1),
        })
    } else {
        let k = numbered(pos, p).iter().position(|&s| s == from)?;
        Some(Sel::Nth(k as u8 + 1))
    }
}

/// Writes a legal move of `pos` in Chinese notation (see the [module](super) documentation
/// for the conventions).
///
/// ```
/// use xiangqi_rules::notation::{to_chinese, ChineseStyle, Charset, BlackDigits};
/// use xiangqi_rules::{Move, Position, RankConvention};
/// let mut pos = Position::startpos();
/// let m = Move::parse_iccs("h2e2", RankConvention::Iccs).unwrap();
/// assert_eq!(to_chinese(&pos, m, &ChineseStyle::default()).unwrap(), "炮二平五");
/// pos.play(m);
/// let m = Move::parse_iccs("h9g7", RankConvention::Iccs).unwrap();
/// assert_eq!(to_chinese(&pos, m, &ChineseStyle::default()).unwrap(), "馬８進７");
/// let simplified = ChineseStyle { charset: Charset::Simplified, black_digits: BlackDigits::Ascii };
/// assert_eq!(to_chinese(&pos, m, &simplified).unwrap(), "马8进7");
/// // Red's horse: 傌 by default, 馬 as the rule book prints it.
/// let start = Position::startpos();
/// let horse = Move::parse_iccs("h0g2", RankConvention::Iccs).unwrap();
/// assert_eq!(to_chinese(&start, horse, &ChineseStyle::default()).unwrap(), "傌二進三");
/// let book = ChineseStyle { charset: Charset::Book, ..ChineseStyle::default() };
/// assert_eq!(to_chinese(&start, horse, &book).unwrap(), "馬二進三");
/// ```
pub fn to_chinese(pos: &Position, m: Move, style: &ChineseStyle) -> Result<String, NotationError> {
    require_legal(pos, m)?;
    let inexpressible = NotationError::Inexpressible {
        mv: m,
        format: Format::Chinese,
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
        let text = render(p, sel, dir, n, style);
        if parse_chinese(pos, &text) == Ok(m) {
            return Ok(text);
        }
    }
    Err(inexpressible)
}

/// Reads a move in Chinese notation, checked against the legal moves of `pos`.
///
/// Traditional and simplified characters, the variant piece names, Chinese numerals and
/// ASCII or full-width digits are all read, for either side.
///
/// ```
/// use xiangqi_rules::notation::{parse_chinese, NotationError};
/// use xiangqi_rules::Position;
/// let pos = Position::startpos();
/// assert_eq!(parse_chinese(&pos, "炮二平五").unwrap().to_string(), "h2e2");
/// assert_eq!(parse_chinese(&pos, "砲25").unwrap().to_string(), "h2e2"); // 簡寫記錄
/// assert!(matches!(parse_chinese(&pos, "炮三平五"), Err(NotationError::NoSuchPiece { .. })));
/// ```
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let syntax = |reason: String| NotationError::Syntax {
        text: text.to_string(),
        format: Format::Chinese,
        reason,
    };
    let cs: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if cs.len() < 3 {
        return Err(syntax(
            "expected four characters such as 炮二平五 (or three, 砲25)".into(),
        ));
    }
    let (role, sel) = if let (Some(q), Some(r)) = (qualifier_of(cs[0]), role_of(cs[1])) {
        (r, q)
    } else if let (Some(k), Some(r)) = (numeral_value(cs[0]), role_of(cs[1])) {
        if k > 5 {
            return Err(syntax(format!(
                "{:?} before the piece numbers pieces 一..五 on shared files",
                cs[0]
            )));
        }
        (r, Sel::Nth(k))
    } else if let Some(r) = role_of(cs[0]) {
        let f = numeral_value(cs[1]).ok_or_else(|| {
            syntax(format!(
                "expected a file number after {:?}, found {:?}",
                cs[0], cs[1]
            ))
        })?;
        (r, Sel::File(f))
    } else if qualifier_of(cs[0]).is_some() || numeral_value(cs[0]).is_some() {
        return Err(syntax(format!("{:?} is not a piece name", cs[1])));
    } else {
        return Err(syntax(format!(
            "{:?} is not a piece name or 前/中/後",
            cs[0]
        )));
    };
    let rest = &cs[2..];
    let (dirs, nc): (Vec<Dir>, char) = match rest {
        [d, n] => (
            vec![dir_of(*d).ok_or_else(|| syntax(format!("{d:?} is not 進, 退 or 平")))?],
            *n,
        ),
        [n] => (Dir::ALL.to_vec(), *n),
        _ => {
            return Err(syntax(format!(
                "expected 進/退/平 and a number after the piece, found {:?}",
                rest.iter().collect::<String>()
            )))
        }
    };
    let n = numeral_value(nc).ok_or_else(|| syntax(format!("{nc:?} is not a number 1..9")))?;
    let color = pos.turn();
    let piece = Piece::new(color, role);
    let froms = select(pos, piece, sel).map_err(|reason| NotationError::NoSuchPiece {
        text: text.to_string(),
        reason,
    })?;
    finish(pos, text, role, &froms, &dirs, n)
}

fn chinese_file(color: Color, idx: usize) -> String {
    let n = file_number(color, idx);
    match color {
        Color::Red => RED_NUMERALS[n as usize - 1].to_string(),
        Color::Black => n.to_string(),
    }
}

/// The squares a selector names.
fn select(pos: &Position, piece: Piece, sel: Sel) -> Result<Vec<Square>, String> {
    let (color, role) = (piece.color, piece.role);
    match sel {
        Sel::File(n) => {
            let idx = file_index(color, n).ok_or_else(|| format!("no file {n}"))?;
            let v = on_file(pos, piece, idx);
            if v.is_empty() {
                Err(none_on_file(color, role, n))
            } else {
                Ok(v)
            }
        }
        Sel::Front | Sel::Middle | Sel::Rear => {
            let files = tandem_files(pos, piece);
            let word = match sel {
                Sel::Front => "前",
                Sel::Middle => "中",
                _ => "後",
            };
            if files.is_empty() {
                return Err(format!(
                    "{word} needs two or more {color} {role}s on one file"
                ));
            }
            // With several shared files, 前 names the front piece of each, and the rest of
            // the move must tell them apart (else the move is ambiguous).
            let mut out = Vec::new();
            for &f in &files {
                let v = on_file(pos, piece, f);
                match sel {
                    Sel::Front => out.push(v[0]),
                    Sel::Rear => out.push(v[v.len() - 1]),
                    _ if v.len() % 2 == 1 => out.push(v[v.len() / 2]),
                    _ => {}
                }
            }
            if out.is_empty() {
                Err(format!(
                    "中 needs three (or five) {color} {role}s on one file, {}",
                    files
                        .iter()
                        .map(|&f| format!(
                            "file {} has {}",
                            chinese_file(color, f),
                            on_file(pos, piece, f).len()
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            } else {
                Ok(out)
            }
        }
        Sel::Nth(k) => {
            let v = numbered(pos, piece);
            if v.is_empty() {
                return Err(format!(
                    "numbering needs two or more {color} {role}s on one file"
                ));
            }
            v.get(k as usize - 1).map(|&s| vec![s]).ok_or_else(|| {
                format!(
                    "{color} has only {} {role}s on shared files, not {k}",
                    v.len()
                )
            })
        }
    }
}
