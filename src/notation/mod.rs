//! Move notations: Chinese (炮二平五, 馬８進７), WXF (C2=5, H8+7) and ICCS (h2e2).
//!
//! Every notation here is *relative to a position*: a text is read by finding the legal move
//! it describes, and a move is written in the shortest form that names it uniquely. Parsing
//! never guesses: text that fits no legal move, or more than one, is a typed
//! [`NotationError`] saying why.
//!
//! ```
//! use xiangqi_rules::notation::{format_move, parse_move, Format, Style};
//! use xiangqi_rules::{Move, Position, RankConvention};
//!
//! let pos = Position::startpos();
//! let m = parse_move(&pos, "炮二平五", Format::Chinese).unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(format_move(&pos, m, Format::Chinese, &Style::default()).unwrap(), "炮二平五");
//! assert_eq!(format_move(&pos, m, Format::Wxf, &Style::default()).unwrap(), "C2=5");
//! // The simplified characters and ASCII digits are read as well.
//! assert_eq!(parse_move(&pos, "炮2平5", Format::Chinese).unwrap(), m);
//! ```
//!
//! # The reading of the Chinese notation
//!
//! A move is four characters (CXA 1999 rules, art. 7.5, 完整記錄): the piece, the file it stands
//! on, the direction 進 (forward) / 退 (back) / 平 (sideways), and a number.
//!
//! * **Files** are counted from the mover's right (art. 1.1): Red writes 一..九 (so Red's
//!   file 一 is ICCS file `i`), Black writes 1..9 (Black's file 1 is ICCS file `a`). Black's
//!   digits are printed full-width (１..９) as in the rule book's example, or ASCII on request.
//!   On input either colour may use Chinese numerals, ASCII or full-width digits.
//! * **The number** is the number of ranks moved for a piece moving along its file (帥 俥 炮
//!   兵), and the target file for 平 and for the pieces moving obliquely (仕 相 傌).
//! * **Several pieces of one kind on one file** (俥 傌 炮 兵): 前 (front) and 後 (rear), seen
//!   from the mover, replace the file: 前炮平五. Three pawns on one file: 前兵 中兵 後兵.
//!   Four or five pawns on one file: 一兵 … 五兵, numbered from the front.
//! * **Pawns on several files** with two or more on each: the pawns of those files are
//!   numbered 一..五, file by file from the mover's right, and front to back within a file;
//!   the number replaces the file (三兵平四). This is the common practice of the Chinese game
//!   records and of the CXA rules' recording article; 前/中/後 are printed only when a single
//!   file holds the pawns in question. On input, 前兵 with several shared files names the
//!   front pawn of each, and is read when only one of them can make the move.
//! * Input is read leniently where this names one legal move: 炮五平九 with two cannons on file
//!   五 is read if only one of them can go to file 九, and is [`NotationError::Ambiguous`]
//!   otherwise.
//! * 仕 相 帥 always name their file: the direction alone tells two advisors (or elephants) on
//!   one file apart (仕六進五 is the lower one, 仕六退五 the upper one). 前/後 is still read.
//! * The rule book's short form (簡寫記錄, 砲25, 馬87) without the direction is read when
//!   exactly one legal move fits it.
//!
//! Output uses the traditional characters of `spec/pieces.yaml` by default (帥 仕 相 傌 俥 炮 兵
//! for Red, 將 士 象 馬 車 砲 卒 for Black, 進 退 平, 前 中 後), or the simplified ones
//! (帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒, 进 退 平, 前 中 后) with
//! [`Charset::Simplified`]. Input accepts all of these and the variants 包 and 䭾, without
//! checking which colour a character belongs to (game records often write 車 馬 砲 for both
//! sides): the side to move decides.
//!
//! # The WXF notation
//!
//! Piece letter (K A E H R C P; also read: G (guard) for A, B and M (minister) for E, N for
//! H, S (soldier) for P; in either case), file 1..9 from the mover's right, `+` forward /
//! `-` back / `=` or `.` sideways, and the same number as in the Chinese notation. Two pieces on a file: `+` (front) and `-` (rear) replace the file; this is
//! printed before the letter (`+C=5`, [`TandemStyle::Prefix`], the default) or after it
//! (`C+=5`, [`TandemStyle::Suffix`], the WXF book's form); both are read. Pawns follow the
//! WXF book: three on a file are `+P`, `P<file>` (the middle one) and `-P`; four or five are
//! `++`, `+P`, (`P<file>`), `-P`, `--`; on two files with two or more pawns each, the file
//! digit replaces the letter: `3+`, `33` (middle), `3-`, then the direction and number
//! (`3+=4`).

mod board;
mod chinese;
mod iccs;
mod resolve;
mod wxf;

use crate::{Color, IllegalMoveReason, Move, Position};
use std::fmt;

pub use board::board_text;
pub use chinese::{parse_chinese, to_chinese};
pub use iccs::{parse_iccs, to_iccs};
pub use wxf::{parse_wxf, to_wxf};

/// A move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// ICCS coordinates, `h2e2` (also read: `H2-E2`).
    Iccs,
    /// Chinese: 炮二平五, 馬８進７.
    Chinese,
    /// WXF: `C2=5`, `H8+7`.
    Wxf,
}

impl Format {
    /// Guesses the notation of a move text: Chinese if it holds a CJK character, ICCS if it
    /// looks like `h2e2` / `H2-E2`, WXF otherwise.
    ///
    /// ```
    /// use xiangqi_rules::notation::Format;
    /// assert_eq!(Format::detect("炮二平五"), Format::Chinese);
    /// assert_eq!(Format::detect("H2-E2"), Format::Iccs);
    /// assert_eq!(Format::detect("C2=5"), Format::Wxf);
    /// ```
    pub fn detect(text: &str) -> Format {
        let t = text.trim();
        if !t.is_ascii() {
            return Format::Chinese;
        }
        let b: Vec<u8> = t.bytes().filter(|&c| c != b'-').collect();
        let is_iccs = b.len() == 4
            && b[0].is_ascii_alphabetic()
            && b[1].is_ascii_digit()
            && b[2].is_ascii_alphabetic()
            && b[3].is_ascii_digit();
        if is_iccs {
            Format::Iccs
        } else {
            Format::Wxf
        }
    }

    /// The name used in PGN `[Format "…"]` tags and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Iccs => "ICCS",
            Format::Chinese => "Chinese",
            Format::Wxf => "WXF",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which Chinese characters are printed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Charset {
    /// 帥 仕 相 傌 俥 炮 兵 / 將 士 象 馬 車 砲 卒, 進 退 平, 前 中 後 (the default).
    #[default]
    Traditional,
    /// 帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒, 进 退 平, 前 中 后.
    Simplified,
    /// The traditional characters with one name for the horse and the rook of both sides, as
    /// the CXA rule book prints them: 帥 仕 相 馬 車 炮 兵 / 將 士 象 馬 車 砲 卒.
    Book,
}

/// How Black's numbers are printed in the Chinese notation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlackDigits {
    /// Full-width digits １..９, as printed in the rule book (the default).
    #[default]
    FullWidth,
    /// ASCII digits 1..9.
    Ascii,
}

/// Options of the Chinese notation printer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChineseStyle {
    /// Traditional or simplified characters.
    pub charset: Charset,
    /// Full-width or ASCII digits for Black.
    pub black_digits: BlackDigits,
}

/// Where the `+`/`-` of two pieces on one file goes in WXF.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum TandemStyle {
    /// Before the letter: `+C=5` (the default).
    #[default]
    Prefix,
    /// In place of the file digit, as in the WXF book: `C+=5`.
    Suffix,
}

/// The sideways sign in WXF.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sideways {
    /// `=` (the default): `C2=5`.
    #[default]
    Equals,
    /// `.` (the WXF book): `C2.5`.
    Dot,
}

/// Options of the WXF notation printer.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WxfStyle {
    /// Where tandem signs go.
    pub tandem: TandemStyle,
    /// The sideways sign.
    pub sideways: Sideways,
}

/// All printing options.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// For [`Format::Chinese`].
    pub chinese: ChineseStyle,
    /// For [`Format::Wxf`].
    pub wxf: WxfStyle,
}

/// Why a move text could not be read, or a move could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not of the notation's shape.
    #[error("{text:?} is not a {format} move: {reason}")]
    Syntax {
        /// The text read.
        text: String,
        /// The notation asked for.
        format: Format,
        /// What is wrong with it.
        reason: String,
    },
    /// The text names no single piece of the side to move: none on that file, or 前/中/後
    /// (`+`/`-`) where no file (or more than one file) holds several of that kind.
    #[error("{text:?}: {reason}")]
    NoSuchPiece {
        /// The text read.
        text: String,
        /// Which piece is missing.
        reason: String,
    },
    /// The named piece cannot move as written.
    #[error("{text:?}: no legal move fits: {reason}")]
    NoMatch {
        /// The text read.
        text: String,
        /// Why not.
        reason: String,
    },
    /// The text describes exactly one move, and that move is illegal.
    #[error("{text:?} is {mv}, which is illegal: {reason}")]
    Illegal {
        /// The text read.
        text: String,
        /// The move described.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalMoveReason,
    },
    /// The text fits several legal moves.
    #[error("{text:?} is ambiguous: it fits {}", list(candidates))]
    Ambiguous {
        /// The text read.
        text: String,
        /// The legal moves it fits (sorted).
        candidates: Vec<Move>,
    },
    /// A move to print is not legal in the position.
    #[error("cannot write {mv}: {reason}")]
    NotLegal {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalMoveReason,
    },
    /// A record in Chinese notation writes red's moves with Chinese numerals (一..九) and
    /// black's with digits, and this move is written with the other side's numbers: a ply is
    /// missing or extra before it, so every move from there on would be read for the wrong side.
    #[error(
        "{text:?} is written with {numbered}'s numbers, but it is {turn}'s move: the record \
         numbers red's moves 一..九 and black's 1..9, so a ply is missing or extra before it"
    )]
    OtherSidesNumbers {
        /// The text read.
        text: String,
        /// Whose numbers it is written with.
        numbered: Color,
        /// The side to move.
        turn: Color,
    },
    /// No text of the notation names the move uniquely (only in unusual set-ups, such as
    /// three rooks of one side).
    #[error("{mv} cannot be written unambiguously in {format} notation")]
    Inexpressible {
        /// The move.
        mv: Move,
        /// The notation asked for.
        format: Format,
    },
}

fn list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads one move in `format`, checked against the legal moves of `pos`.
///
/// ```
/// use xiangqi_rules::notation::{parse_move, Format, NotationError};
/// use xiangqi_rules::Position;
/// let pos = Position::startpos();
/// assert_eq!(parse_move(&pos, "H2+3", Format::Wxf).unwrap().to_string(), "h0g2");
/// // 帥五平四 is e0f0, onto the own advisor.
/// assert!(matches!(
///     parse_move(&pos, "帥五平四", Format::Chinese),
///     Err(NotationError::Illegal { .. })
/// ));
/// // Off the board.
/// assert!(matches!(
///     parse_move(&pos, "炮二進八", Format::Chinese),
///     Err(NotationError::NoMatch { .. })
/// ));
/// ```
pub fn parse_move(pos: &Position, text: &str, format: Format) -> Result<Move, NotationError> {
    match format {
        Format::Iccs => parse_iccs(pos, text),
        Format::Chinese => parse_chinese(pos, text),
        Format::Wxf => parse_wxf(pos, text),
    }
}

/// Reads one move in the notation [`Format::detect`] guesses.
pub fn parse_move_auto(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_move(pos, text, Format::detect(text))
}

/// Writes a legal move of `pos` in `format`.
pub fn format_move(
    pos: &Position,
    m: Move,
    format: Format,
    style: &Style,
) -> Result<String, NotationError> {
    match format {
        Format::Iccs => to_iccs(pos, m),
        Format::Chinese => to_chinese(pos, m, &style.chinese),
        Format::Wxf => to_wxf(pos, m, &style.wxf),
    }
}

/// Whether the moves of a record in Chinese notation are numbered by side (1999 and 2011
/// books, most archives: red's with Chinese numerals 一..九, black's with digits), checked move
/// by move. A record that uses both kinds of numbers is numbered by side, and a move written
/// with the other side's numbers is an error ([`NotationError::OtherSidesNumbers`]): a ply is
/// missing or extra, and every later move would be read for the wrong side. Full-width digits
/// are black's; ASCII digits are black's in the full form (馬8進7) but tell nothing in the short
/// form (砲25, either side). A record that uses one kind only is not checked.
///
/// ```
/// use xiangqi_rules::notation::{Format, NotationError, SideNumbering};
/// use xiangqi_rules::Position;
/// let mut pos = Position::startpos();
/// let mut numbering = SideNumbering::default();
/// // A record that lost its first ply: 馬８進７ (black's numbers) read on red's turn.
/// for (i, text) in ["馬８進７", "炮二平五"].iter().enumerate() {
///     let m = xiangqi_rules::notation::parse_move(&pos, text, Format::Chinese).unwrap();
///     let checked = numbering.check(i + 1, text, Format::Chinese, pos.turn());
///     if let Err((index, e)) = checked {
///         assert_eq!(index, 1);
///         assert!(matches!(e, NotationError::OtherSidesNumbers { .. }));
///         return;
///     }
///     pos.play(m);
/// }
/// panic!("not found");
/// ```
#[derive(Clone, Debug, Default)]
pub struct SideNumbering {
    /// Moves seen written with red's numbers, and with black's.
    seen: [bool; 2],
    /// The first move written with the other side's numbers: its 1-based index and error.
    first_wrong: Option<(usize, NotationError)>,
}

impl SideNumbering {
    /// Checks the move `text` (the `index`-th, 1-based, read in `format` with `turn` to move).
    /// Returns the first wrongly numbered move (its index and error) once the record is known
    /// to be numbered by side, which may be at a later move than that one.
    pub fn check(
        &mut self,
        index: usize,
        text: &str,
        format: Format,
        turn: Color,
    ) -> Result<(), (usize, NotationError)> {
        if format != Format::Chinese {
            return Ok(());
        }
        let Some(numbered) = chinese::numbered_as(text) else {
            return Ok(());
        };
        self.seen[numbered.index()] = true;
        if numbered != turn && self.first_wrong.is_none() {
            self.first_wrong = Some((
                index,
                NotationError::OtherSidesNumbers {
                    text: text.to_string(),
                    numbered,
                    turn,
                },
            ));
        }
        match &self.first_wrong {
            Some(wrong) if self.seen == [true, true] => Err(wrong.clone()),
            _ => Ok(()),
        }
    }
}

/// Reads whitespace-separated moves in `format` (or each in the notation it looks like, for
/// `None`) played in sequence from `pos`. The error carries the 1-based index of the first
/// bad move. Moves in Chinese notation are checked for their side's numbers
/// ([`SideNumbering`]).
///
/// ```
/// use xiangqi_rules::notation::parse_move_list;
/// use xiangqi_rules::Position;
/// let moves = parse_move_list(&Position::startpos(), "炮二平五 馬８進７ H2+3", None).unwrap();
/// assert_eq!(moves.len(), 3);
/// let err = parse_move_list(&Position::startpos(), "炮二平五 砲３平５", None).unwrap_err();
/// assert_eq!(err.0, 2);
/// ```
pub fn parse_move_list(
    pos: &Position,
    text: &str,
    format: Option<Format>,
) -> Result<Vec<Move>, (usize, NotationError)> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    let mut numbering = SideNumbering::default();
    for (i, t) in text.split_whitespace().enumerate() {
        let f = format.unwrap_or_else(|| Format::detect(t));
        let m = parse_move(&p, t, f).map_err(|e| (i + 1, e))?;
        numbering.check(i + 1, t, f, p.turn())?;
        p.play(m);
        out.push(m);
    }
    Ok(out)
}

/// Checks that `m` is legal in `pos`, as every printer requires.
fn require_legal(pos: &Position, m: Move) -> Result<(), NotationError> {
    pos.check_move(m)
        .map_err(|reason| NotationError::NotLegal { mv: m, reason })
}
