//! XQF, the binary game format of XQStudio (象棋演播室) used by most Chinese game archives.
//!
//! The layout read and written here (all numbers little-endian, offsets in bytes):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 2 | signature `XQ` |
//! | 2 | 1 | version (10 = 0x0A and below: plain; 11..=18: obfuscated) |
//! | 3 | 1 | key mask |
//! | 4 | 4 | product id |
//! | 8 | 4 | key-or bytes A, B, C, D |
//! | 12 | 4 | key sum, key XY (piece places), key XYf (move origin), key XYt (move target); the four add up to 0 mod 256 |
//! | 16 | 32 | the 32 pieces' places: `file * 10 + rank` (file 0 = ICCS `a`, rank 0 = Red's back rank), 90 and above = not on the board; Red 俥傌相仕帥仕相傌俥炮炮兵兵兵兵兵, then Black likewise |
//! | 50 | 1 | side to move (0 Red, 1 Black) |
//! | 51 | 1 | result (0 unknown, 1 Red wins, 2 Black wins, 3 draw) |
//! | 52 | 4 | number of move records |
//! | 80, 208, 272, 288, 304, 320, 336, 464, 480 | 64, 64, 16, 16, 16, 16, 64, 16, 16 | length-prefixed GBK strings: title, event, date, site, Red, Black, time rule, annotator, author |
//! | 1024 | … | move records |
//!
//! A move record is four bytes: origin + 0x18, target + 0x20 (places as above), a flag byte,
//! and one unused byte. In versions up to 10 the flag's high nibble means "has a next move"
//! and its low nibble "has a variation", and a four-byte comment length and the comment
//! always follow; from version 11 on, bit 0x80 means "has a next move", 0x40 "has a
//! variation", and the comment length (plus the key `KeyRMKSize`) follows only if bit 0x20
//! is set. The records are the move tree in pre-order: a move, the subtree of its next move,
//! then its variation. The first record is the root (no move); the main line is the chain of
//! next moves from it.
//!
//! Obfuscation (versions 11..=18): keys are derived from the header bytes with
//! `k(b, c) = ((((b²·3 + 9)·3 + 8)·2 + 1)·3 + 8)·c mod 256`: KeyXY = k(XY, XY),
//! KeyXYf = k(XYf, KeyXY), KeyXYt = k(XYt, KeyXYf), KeyRMKSize = (sum·256 + XY) mod 32000 + 767.
//! Piece places are stored plus KeyXY, and from version 12 on also rotated by KeyXY + 1
//! places. Move origins and targets are stored plus KeyXYf and KeyXYt. Every byte from offset
//! 1024 on is stored plus a 32-byte key indexed by the offset mod 32, which is the ASCII text
//! `[(C) Copyright Mr. Dong Shiwei.]` masked with four key bytes
//! `(header key & key mask) | key-or`.

use super::{GameRecord, GameResult};
use crate::{Color, FenError, IllegalMoveReason, Move, Piece, Position, Role, Setup, Square};

/// Size of the header; move records start here.
pub const HEADER_LEN: usize = 1024;
const SEED: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
const SLOTS: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];
/// (tag name, offset, field size) of the header's strings.
const STRINGS: [(&str, usize, usize); 9] = [
    ("Title", 80, 64),
    ("Event", 208, 64),
    ("Date", 272, 16),
    ("Site", 288, 16),
    ("Red", 304, 16),
    ("Black", 320, 16),
    ("TimeRule", 336, 64),
    ("Annotator", 464, 16),
    ("Author", 480, 16),
];

/// Where and why an XQF file could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {kind}")]
pub struct XqfError {
    /// Byte offset in the file (0 for errors of writing).
    pub offset: usize,
    /// What is wrong.
    pub kind: XqfErrorKind,
}

/// The kinds of [`XqfError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XqfErrorKind {
    /// The file ends inside the header or a record.
    #[error("file ends early: {0}")]
    Truncated(&'static str),
    /// Not `XQ`.
    #[error("not an XQF file (signature is not \"XQ\")")]
    BadSignature,
    /// A version this reader does not know.
    #[error("XQF version {0} is not supported (at most 18)")]
    UnsupportedVersion(u8),
    /// The four header keys do not add up to 0 mod 256.
    #[error("header keys add up to {0} mod 256, not 0")]
    BadChecksum(u8),
    /// Two pieces on one place.
    #[error("pieces {first} and {second} are both on {square}")]
    SamePlace {
        /// Slot of the first piece (0..32).
        first: usize,
        /// Slot of the second piece.
        second: usize,
        /// The place.
        square: Square,
    },
    /// The start position is not valid.
    #[error("start position: {0}")]
    BadPosition(FenError),
    /// A move record names a place off the board.
    #[error("move {index}: place {value} is off the board")]
    BadPlace {
        /// 1-based index in the main line.
        index: usize,
        /// The decoded place byte.
        value: u8,
    },
    /// A move of the main line is illegal.
    #[error("move {index} ({mv}) is illegal: {reason}")]
    IllegalMove {
        /// 1-based index in the main line.
        index: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: IllegalMoveReason,
    },
    /// A comment length that does not fit in the file.
    #[error("comment length {0} does not fit in the file")]
    BadCommentLength(i64),
    /// Writing: a start position with more pieces of a kind than XQF has places for.
    #[error("{0} has more pieces of a kind than an XQF file can hold")]
    TooManyPieces(Color),
    /// Writing: a version outside 1..=18.
    #[error("cannot write XQF version {0} (1..=18)")]
    BadVersion(u8),
}

fn err(offset: usize, kind: XqfErrorKind) -> XqfError {
    XqfError { offset, kind }
}

fn calkey(b: u8, c: u8) -> u8 {
    let b = b as u32;
    let base = (((b * b * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    (base.wrapping_mul(c as u32) & 0xFF) as u8
}

/// The keys of a file, all zero for the plain versions.
#[derive(Clone, Debug)]
struct Keys {
    xy: u8,
    xyf: u8,
    xyt: u8,
    rmk: u32,
    f32: [u8; 32],
}

impl Keys {
    fn from_header(h: &[u8]) -> Keys {
        let version = h[2];
        if version <= 10 {
            return Keys {
                xy: 0,
                xyf: 0,
                xyt: 0,
                rmk: 0,
                f32: [0; 32],
            };
        }
        let (mask, or) = (h[3], [h[8], h[9], h[10], h[11]]);
        let (sum, hxy, hxyf, hxyt) = (h[12], h[13], h[14], h[15]);
        let xy = calkey(hxy, hxy);
        let xyf = calkey(hxyf, xy);
        let xyt = calkey(hxyt, xyf);
        let rmk = ((sum as u32 * 256 + hxy as u32) % 32000) + 767;
        let kb = [
            (sum & mask) | or[0],
            (hxy & mask) | or[1],
            (hxyf & mask) | or[2],
            (hxyt & mask) | or[3],
        ];
        let mut f32 = [0u8; 32];
        for (i, k) in f32.iter_mut().enumerate() {
            *k = SEED[i] & kb[i % 4];
        }
        Keys {
            xy,
            xyf,
            xyt,
            rmk,
            f32,
        }
    }
}

/// Reads the record bytes from offset 1024 on, undoing the byte obfuscation.
struct Body<'a> {
    data: &'a [u8],
    keys: &'a Keys,
    at: usize,
}

impl Body<'_> {
    fn bytes<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], XqfError> {
        let mut out = [0u8; N];
        if self.at + N > self.data.len() {
            return Err(err(self.at, XqfErrorKind::Truncated(what)));
        }
        for (i, o) in out.iter_mut().enumerate() {
            let p = self.at + i;
            *o = self.data[p].wrapping_sub(self.keys.f32[p % 32]);
        }
        self.at += N;
        Ok(out)
    }
}

fn place(v: u8) -> Option<Square> {
    if v < 90 {
        Some(Square::at(v / 10, v % 10))
    } else {
        None
    }
}

fn read_string(h: &[u8], offset: usize, size: usize) -> String {
    let len = (h[offset] as usize).min(size - 1);
    let bytes = &h[offset + 1..offset + 1 + len];
    let (text, _, _) = encoding_rs::GB18030.decode(bytes);
    text.trim_end_matches('\0').trim().to_string()
}

/// Reads an XQF file: the start position, the main line (variations and comments are
/// skipped), the header strings as tags, and the result.
///
/// ```
/// use xiangqi_rules::record::{xqf, GameRecord};
/// use xiangqi_rules::notation::parse_move_list;
/// use xiangqi_rules::Position;
/// let mut game = GameRecord::default();
/// game.moves = parse_move_list(&Position::startpos(), "炮二平五 馬８進７", None).unwrap();
/// let bytes = xqf::write_xqf(&game, &xqf::XqfWriteOptions { version: 18, key_seed: 7 }).unwrap();
/// assert_eq!(&bytes[..3], b"XQ\x12");
/// assert_eq!(xqf::read_xqf(&bytes).unwrap().moves, game.moves);
/// ```
pub fn read_xqf(data: &[u8]) -> Result<GameRecord, XqfError> {
    if data.len() < HEADER_LEN {
        return Err(err(data.len(), XqfErrorKind::Truncated("header")));
    }
    let h = &data[..HEADER_LEN];
    if &h[..2] != b"XQ" {
        return Err(err(0, XqfErrorKind::BadSignature));
    }
    let version = h[2];
    if version > 18 {
        return Err(err(2, XqfErrorKind::UnsupportedVersion(version)));
    }
    if version > 10 {
        let sum = h[12]
            .wrapping_add(h[13])
            .wrapping_add(h[14])
            .wrapping_add(h[15]);
        if sum != 0 {
            return Err(err(12, XqfErrorKind::BadChecksum(sum)));
        }
    }
    let keys = Keys::from_header(h);

    // Pieces.
    let mut places = [0u8; 32];
    places.copy_from_slice(&h[16..48]);
    if version >= 12 {
        let raw = places;
        for (i, &v) in raw.iter().enumerate() {
            places[(i + keys.xy as usize + 1) % 32] = v;
        }
    }
    let mut board: [Option<Piece>; 90] = [None; 90];
    let mut slot_at = [usize::MAX; 90];
    for (i, &v) in places.iter().enumerate() {
        let v = v.wrapping_sub(keys.xy);
        if let Some(sq) = place(v) {
            let color = if i < 16 { Color::Red } else { Color::Black };
            let p = Piece::new(color, SLOTS[i % 16]);
            if let Some(first) = board[sq.index()].map(|_| slot_at[sq.index()]) {
                return Err(err(
                    16,
                    XqfErrorKind::SamePlace {
                        first,
                        second: i,
                        square: sq,
                    },
                ));
            }
            board[sq.index()] = Some(p);
            slot_at[sq.index()] = i;
        }
    }

    // Move records: the main line is the chain of "next" flags from the root.
    let mut body = Body {
        data,
        keys: &keys,
        at: HEADER_LEN,
    };
    let mut raw_moves: Vec<(usize, u8, u8)> = Vec::new();
    let mut first = true;
    loop {
        let start = body.at;
        if first && start >= data.len() {
            break; // no records at all: an empty game
        }
        let [f, t, flags, _] = body.bytes::<4>("move record")?;
        let (has_next, has_comment) = if version <= 10 {
            (flags & 0xF0 != 0, true)
        } else {
            (flags & 0x80 != 0, flags & 0x20 != 0)
        };
        if has_comment {
            let at = body.at;
            match body.bytes::<4>("comment length") {
                Ok(len) => {
                    let len = i32::from_le_bytes(len) as i64 - keys.rmk as i64;
                    if len < 0 || body.at as i64 + len > data.len() as i64 {
                        return Err(err(at, XqfErrorKind::BadCommentLength(len)));
                    }
                    body.at += len as usize;
                }
                // The last record of some files lacks its comment length.
                Err(e) if !has_next && !first => {
                    let _ = e;
                }
                Err(e) => return Err(e),
            }
        }
        if !first {
            raw_moves.push((
                start,
                f.wrapping_sub(0x18).wrapping_sub(keys.xyf),
                t.wrapping_sub(0x20).wrapping_sub(keys.xyt),
            ));
        }
        first = false;
        if !has_next {
            break;
        }
    }

    // The side to move: the header's, unless the first move says otherwise.
    let mut turn = if h[50] == 1 { Color::Black } else { Color::Red };
    if let Some(&(_, f, _)) = raw_moves.first() {
        if let Some(p) = place(f).and_then(|sq| board[sq.index()]) {
            turn = p.color;
        }
    }
    let setup = Setup {
        board,
        turn,
        halfmoves: 0,
        fullmoves: 1,
    };
    let mut pos = Position::from_setup(&setup)
        .or_else(|e| {
            Position::from_setup_lenient(&setup)
                .map(|(p, _)| p)
                .map_err(|_| e)
        })
        .map_err(|e| err(16, XqfErrorKind::BadPosition(e)))?;
    let start_fen = pos.to_fen();
    let mut moves = Vec::new();
    for (i, &(offset, f, t)) in raw_moves.iter().enumerate() {
        let index = i + 1;
        let from = place(f).ok_or(err(offset, XqfErrorKind::BadPlace { index, value: f }))?;
        let to = place(t).ok_or(err(offset + 1, XqfErrorKind::BadPlace { index, value: t }))?;
        let mv = Move::new(from, to);
        pos.play_checked(mv)
            .map_err(|reason| err(offset, XqfErrorKind::IllegalMove { index, mv, reason }))?;
        moves.push(mv);
    }

    let mut tags = Vec::new();
    for (name, offset, size) in STRINGS {
        let v = read_string(h, offset, size);
        if !v.is_empty() {
            tags.push((name.to_string(), v));
        }
    }
    tags.push(("XQFVersion".to_string(), version.to_string()));
    let result = match h[51] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    Ok(GameRecord {
        tags,
        start_fen,
        moves,
        result,
        losing_move: None,
    })
}

/// Options of [`write_xqf`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct XqfWriteOptions {
    /// The version byte: 10 or below writes a plain file, 11..=18 an obfuscated one.
    pub version: u8,
    /// Chooses the header keys of an obfuscated file (any value).
    pub key_seed: u8,
}

impl Default for XqfWriteOptions {
    fn default() -> Self {
        XqfWriteOptions {
            version: 18,
            key_seed: 0x5A,
        }
    }
}

fn write_string(h: &mut [u8], offset: usize, size: usize, value: &str) {
    let (bytes, _, _) = encoding_rs::GB18030.encode(value);
    // Cut at a character boundary of the GBK text.
    let mut len = 0;
    for c in value.chars() {
        let mut buf = [0u8; 4];
        let (b, _, _) = encoding_rs::GB18030.encode(c.encode_utf8(&mut buf));
        if len + b.len() > size - 1 {
            break;
        }
        len += b.len();
    }
    h[offset] = len as u8;
    h[offset + 1..offset + 1 + len].copy_from_slice(&bytes[..len]);
}

/// Writes a game as XQF (its main line, the tags named in the layout table, and the result).
pub fn write_xqf(game: &GameRecord, opts: &XqfWriteOptions) -> Result<Vec<u8>, XqfError> {
    let version = opts.version;
    if !(1..=18).contains(&version) {
        return Err(err(0, XqfErrorKind::BadVersion(version)));
    }
    let start = game
        .start_position()
        .map_err(|e| err(0, XqfErrorKind::BadPosition(e)))?;
    let mut h = vec![0u8; HEADER_LEN];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = version;
    if version > 10 {
        let s = opts.key_seed;
        h[3] = s | 0xA5; // key mask
        h[8] = s & 0x0F;
        h[9] = s >> 4;
        h[10] = s.rotate_left(3) & 0x33;
        h[11] = 0;
        h[13] = s.wrapping_mul(7).wrapping_add(3);
        h[14] = s.wrapping_mul(13).wrapping_add(5);
        h[15] = s.wrapping_mul(29).wrapping_add(11);
        h[12] = 0u8.wrapping_sub(h[13].wrapping_add(h[14]).wrapping_add(h[15]));
    }
    let keys = Keys::from_header(&h);

    // Pieces, in the slot order.
    let mut places = [0xFFu8; 32];
    let mut used = [false; 32];
    for i in 0..90u8 {
        let sq = Square::new_unchecked(i);
        if let Some(p) = start.piece_at(sq) {
            let base = if p.color == Color::Red { 0 } else { 16 };
            let slot = (0..16)
                .map(|j| base + j)
                .find(|&j| SLOTS[j - base] == p.role && !used[j])
                .ok_or(err(0, XqfErrorKind::TooManyPieces(p.color)))?;
            used[slot] = true;
            places[slot] = (sq.file().index() * 10 + sq.rank().index()) as u8;
        }
    }
    let enc: Vec<u8> = places.iter().map(|v| v.wrapping_add(keys.xy)).collect();
    for i in 0..32 {
        h[16 + i] = if version >= 12 {
            enc[(i + keys.xy as usize + 1) % 32]
        } else {
            enc[i]
        };
    }
    h[50] = if start.turn() == Color::Black { 1 } else { 0 };
    h[51] = match game.result {
        GameResult::Unknown => 0,
        GameResult::RedWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    };
    h[52..56].copy_from_slice(&(game.moves.len() as u32 + 1).to_le_bytes());
    for (name, offset, size) in STRINGS {
        if let Some(v) = game.tag(name) {
            write_string(&mut h, offset, size, v);
        }
    }

    // Records: the root, then the main line.
    let mut body = Vec::new();
    let n = game.moves.len();
    let mut pos = start;
    for i in 0..=n {
        let (f, t) = if i == 0 {
            (0u8, 0u8)
        } else {
            let m = game.moves[i - 1];
            pos.play_checked(m).map_err(|reason| {
                err(
                    0,
                    XqfErrorKind::IllegalMove {
                        index: i,
                        mv: m,
                        reason,
                    },
                )
            })?;
            let xy = |s: Square| (s.file().index() * 10 + s.rank().index()) as u8;
            (xy(m.from()), xy(m.to()))
        };
        let has_next = i < n;
        body.push(f.wrapping_add(0x18).wrapping_add(keys.xyf));
        body.push(t.wrapping_add(0x20).wrapping_add(keys.xyt));
        if version <= 10 {
            body.push(if has_next { 0xF0 } else { 0 });
            body.push(0);
            body.extend_from_slice(&0u32.to_le_bytes());
        } else {
            body.push(if has_next { 0x80 } else { 0 });
            body.push(0);
        }
    }
    let mut out = h;
    for (i, b) in body.into_iter().enumerate() {
        let p = HEADER_LEN + i;
        out.push(b.wrapping_add(keys.f32[p % 32]));
    }
    Ok(out)
}
