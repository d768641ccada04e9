//! Game records: PGN (as used for Xiangqi: ICCS, Chinese or WXF move text) and XQF (the binary
//! format of most Chinese game archives, including its obfuscated versions).
//!
//! Both import into a [`GameRecord`]: the start position, the main line as legal [`Move`]s,
//! the tags and the result. Variations and comments are skipped. A [`GameRecord`] is what a
//! judge of whole games consumes: replay [`GameRecord::moves`] from
//! [`GameRecord::start_position`] (see [`GameRecord::positions`]).
//!
//! ```
//! use xiangqi_rules::record::{pgn, GameResult};
//! use xiangqi_rules::notation::Format;
//! let text = "[Event \"demo\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 1-0\n";
//! let games = pgn::read_pgn(text).unwrap();
//! assert_eq!(games[0].moves.len(), 3);
//! assert_eq!(games[0].moves[0].to_string(), "h2e2");
//! assert_eq!(games[0].result, GameResult::RedWins);
//! let out = pgn::write_pgn(&games[0], Format::Iccs, &Default::default()).unwrap();
//! assert!(out.contains("1. h2e2 h9g7 2. h0g2 1-0"));
//! ```

pub mod archive;
pub mod pgn;
pub mod xqf;

use crate::{FenError, Move, Position};
use std::fmt;

/// FEN of the start position (art. 1.3).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The result of a game as recorded.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or unfinished.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a PGN result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn from_pgn(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// One game: where it starts, its main line, its tags and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tag pairs in file order (PGN tags, or the XQF header fields under PGN-like names).
    pub tags: Vec<(String, String)>,
    /// The start position in FEN.
    pub start_fen: String,
    /// The main line, every move legal in turn.
    pub moves: Vec<Move>,
    /// The recorded result.
    pub result: GameResult,
    /// A last move of the main line that the movement rules forbid and that therefore ends the
    /// game against the side that made it: the kings left facing (將帥對面, art. 4.1.2) or the
    /// own king left attacked (art. 3.1, 4.1.6). It is not part of `moves`.
    pub losing_move: Option<LosingMove>,
}

/// A forbidden last move of a record (see [`GameRecord::losing_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LosingMove {
    /// 1-based index in the main line (`moves.len() + 1`).
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Why the movement rules forbid it.
    pub reason: crate::IllegalMoveReason,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord {
            tags: Vec::new(),
            start_fen: START_FEN.to_string(),
            moves: Vec::new(),
            result: GameResult::Unknown,
            losing_move: None,
        }
    }
}

impl GameRecord {
    /// The value of the first tag named `name` (ASCII case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing the first one of that name or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The start position. A position that only the lenient FEN reader accepts (as the game
    /// readers do, for archive set-ups) is accepted here too.
    pub fn start_position(&self) -> Result<Position, FenError> {
        Position::from_fen(&self.start_fen).or_else(|e| {
            Position::from_fen_lenient(&self.start_fen)
                .map(|(p, _)| p)
                .map_err(|_| e)
        })
    }

    /// The main line in ICCS, space-separated (`h2e2 h9g7`), as `xqrules judge` and the
    /// other ICCS consumers take it.
    pub fn moves_iccs(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The positions of the game: the start position and the one after each move (so one
    /// more than there are moves). Moves are checked for legality as they are played.
    pub fn positions(&self) -> Result<Vec<Position>, RecordError> {
        let mut pos = self.start_position().map_err(RecordError::Fen)?;
        let mut out = vec![pos.clone()];
        for (i, &m) in self.moves.iter().enumerate() {
            pos.play_checked(m)
                .map_err(|reason| RecordError::IllegalMove {
                    index: i + 1,
                    mv: m,
                    reason,
                })?;
            out.push(pos.clone());
        }
        Ok(out)
    }
}

/// Why a game record could not be imported or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A PGN error (with line and column).
    #[error(transparent)]
    Pgn(#[from] pgn::PgnError),
    /// An XQF error (with byte offset).
    #[error(transparent)]
    Xqf(#[from] xqf::XqfError),
    /// The start position is not valid.
    #[error("start position: {0}")]
    Fen(FenError),
    /// A move of the main line cannot be written in the notation asked for.
    #[error("move {index}: {error}")]
    Notation {
        /// 1-based index in the main line.
        index: usize,
        /// Why.
        error: crate::NotationError,
    },
    /// A move of the main line is illegal.
    #[error("move {index} ({mv}) is illegal: {reason}")]
    IllegalMove {
        /// 1-based index in the main line.
        index: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: crate::IllegalMoveReason,
    },
    /// Neither an XQF file (no `XQ` signature) nor text: a byte no game-record text has.
    #[error("not a game record: no XQF signature (XQ) and not text (byte {byte:#04x} at offset {offset})")]
    NotARecord {
        /// 0-based offset of the first such byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
}

/// The offset of the first byte that game-record text does not have (a NUL or another control
/// character than tab, line feed, carriage return, form feed and the DOS end-of-file mark
/// 0x1A); `None` for text (UTF-8, GBK and GB18030 bytes are all allowed).
///
/// ```
/// use xiangqi_rules::record::binary_offset;
/// assert_eq!(binary_offset("1. 炮二平五 *\r\n".as_bytes()), None);
/// assert_eq!(binary_offset(b"[Event \"x\"]\x00\x01"), Some(11));
/// ```
pub fn binary_offset(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .position(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1A)) || b == 0x7F)
}

/// Reads a game file of either kind, recognised by its content: XQF if it starts with the `XQ`
/// signature, PGN if it is text (UTF-8, or GBK/GB18030 when it is not valid UTF-8), and
/// [`RecordError::NotARecord`] otherwise (whatever the file's name).
pub fn read_games(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    if bytes.starts_with(b"XQ") {
        Ok(vec![xqf::read_xqf(bytes)?])
    } else if let Some(offset) = binary_offset(bytes) {
        Err(RecordError::NotARecord {
            offset,
            byte: bytes[offset],
        })
    } else {
        Ok(pgn::read_pgn_bytes(bytes)?)
    }
}

/// Decodes game-record text: UTF-8 (a byte-order mark is dropped), or GB18030 (a superset of
/// GBK and GB2312) when the bytes are not valid UTF-8. Returns the text and the encoding's name.
///
/// ```
/// use xiangqi_rules::record::decode_text;
/// let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]; // 炮二平五 in GBK
/// assert_eq!(decode_text(&gbk), ("炮二平五".to_string(), "GB18030"));
/// assert_eq!(decode_text("炮二平五".as_bytes()).1, "UTF-8");
/// ```
pub fn decode_text(bytes: &[u8]) -> (String, &'static str) {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(b) {
        Ok(s) => (s.to_string(), "UTF-8"),
        Err(_) => {
            let (text, _, _) = encoding_rs::GB18030.decode(b);
            (text.into_owned(), "GB18030")
        }
    }
}
