//! PGN as used for Xiangqi.
//!
//! Read: tag pairs (`[Name "value"]`, with `\"` and `\\` escapes), the `FEN` tag for the start
//! position and the `Format` tag (`ICCS`, `Chinese`, `WXF`; without it each move is read in
//! the notation it looks like), move numbers (`1.`, `1...`, also glued to the move),
//! comments `{…}` and `; …`, variations `( … )` (skipped, nested to any depth, with comments
//! inside), NAGs (`$1`), `!`/`?` suffixes, `%` escape lines, the results `1-0`, `0-1`,
//! `1/2-1/2`, `*`, and several games per file. Text is UTF-8, or GBK/GB18030 via
//! [`read_pgn_bytes`]. Every error says where: line and column (1-based, in characters).
//!
//! Written: the tags (with `Format`, `FEN` when the game does not start from the start
//! position, and `Result` brought up to date), then the move text in the chosen notation,
//! wrapped at 80 characters, then the result.

use super::{decode_text, GameRecord, GameResult, LosingMove, START_FEN};
use crate::notation::{format_move, parse_move, Format, NotationError, SideNumbering, Style};
use crate::{Color, FenError, IllegalMoveReason, Move, Position};

/// Where and why a PGN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column} (game {game}): {kind}")]
pub struct PgnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// 1-based index of the game in the file.
    pub game: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// The kinds of [`PgnError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// A `{` comment without its `}`.
    #[error("comment opened here is never closed with }}")]
    UnterminatedComment,
    /// A `(` variation without its `)`.
    #[error("variation opened here is never closed with )")]
    UnterminatedVariation,
    /// A `)` without a `(`.
    #[error(") without a variation to close")]
    UnmatchedParen,
    /// A malformed tag pair.
    #[error("bad tag pair: {0}")]
    BadTag(String),
    /// The `FEN` tag is not a valid position.
    #[error("FEN tag: {0}")]
    BadFen(FenError),
    /// A move number that does not follow the record's numbering: the number is not the one
    /// before it plus one, or `N.` stands before black's move or `N...` before red's (a move is
    /// missing or extra).
    #[error("move number {found:?} where {expected:?} was expected: a move is missing or extra")]
    BadMoveNumber {
        /// The number as written (`3.`, `2...`).
        found: String,
        /// The number the moves before it call for.
        expected: String,
    },
    /// A move of the main line could not be read or is illegal.
    #[error("move {index} {text:?}: {error}")]
    BadMove {
        /// 1-based ply index in the main line.
        index: usize,
        /// The token.
        text: String,
        /// Why.
        error: NotationError,
    },
}

/// Text that [`read_games_noting`] skipped: words after a game's result that start no new game
/// (the `=====` line and the site footer that archives append to each game).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: text after the result of game {after_game} starts no game, skipped: {text:?}")]
pub struct PgnWarning {
    /// 1-based line of the first skipped word.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// 1-based index of the game whose result the text follows.
    pub after_game: usize,
    /// The skipped words (the first 60 characters).
    pub text: String,
}

/// Whether a word after a game's result starts a new game without tags: a move number (`1.`)
/// or a legal first move from the start position.
fn starts_game(w: &str) -> bool {
    if strip_move_number(w) != w || GameResult::from_pgn(w).is_some() {
        return true;
    }
    let m = w.trim_end_matches(['!', '?']);
    parse_move(&Position::startpos(), m, Format::detect(m)).is_ok()
}

/// Options of [`write_pgn`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnWriteOptions {
    /// Printing style of the Chinese and WXF notations.
    pub style: Style,
}

#[derive(Debug)]
enum Tok {
    Tag(String, String),
    Word(String),
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
    at_line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            at_line_start: true,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
            self.at_line_start = true;
        } else {
            self.column += 1;
            if !c.is_whitespace() {
                self.at_line_start = false;
            }
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// Skips a `{…}` comment whose `{` was just read; `false` when it is never closed: the
    /// text ends, or a line opens with a tag pair (the next game's header), where reading
    /// goes on, so that one unclosed comment costs only its own game.
    fn skip_comment(&mut self) -> bool {
        loop {
            if self.at_tag_line() {
                return false;
            }
            match self.bump() {
                Some('}') => return true,
                Some(_) => {}
                None => return false,
            }
        }
    }

    /// Does a tag pair (`[Name "`) start here, as the first character of its line after white
    /// space? (Asked before each character is read: white space answers no at once, so a long
    /// run of it costs no more than reading it.)
    fn at_tag_line(&self) -> bool {
        if !self.at_line_start || self.chars.clone().next() != Some('[') {
            return false;
        }
        let mut rest = self.chars.clone().skip(1).peekable();
        if !rest.peek().is_some_and(char::is_ascii_alphabetic) {
            return false;
        }
        while rest
            .next_if(|c| c.is_ascii_alphanumeric() || *c == '_')
            .is_some()
        {}
        rest.find(|c| !c.is_whitespace()) == Some('"')
    }

    /// The next token with its line and column, or an error kind with its position.
    #[allow(clippy::type_complexity)]
    fn next(&mut self) -> Option<Result<(Tok, usize, usize), (PgnErrorKind, usize, usize)>> {
        loop {
            let c = *self.chars.peek()?;
            let (line, col) = (self.line, self.column);
            if c.is_whitespace() {
                self.bump();
                continue;
            }
            if c == '%' && self.at_line_start {
                self.skip_line();
                continue;
            }
            match c {
                '{' => {
                    self.bump();
                    if !self.skip_comment() {
                        return Some(Err((PgnErrorKind::UnterminatedComment, line, col)));
                    }
                }
                ';' => self.skip_line(),
                '(' => {
                    self.bump();
                    let mut depth = 1usize;
                    while depth > 0 {
                        if self.at_tag_line() {
                            return Some(Err((PgnErrorKind::UnterminatedVariation, line, col)));
                        }
                        match self.bump() {
                            None => {
                                return Some(Err((PgnErrorKind::UnterminatedVariation, line, col)))
                            }
                            Some('(') => depth += 1,
                            Some(')') => depth -= 1,
                            Some('{') => {
                                let (l, cc) = (self.line, self.column - 1);
                                if !self.skip_comment() {
                                    return Some(Err((PgnErrorKind::UnterminatedComment, l, cc)));
                                }
                            }
                            Some(';') => self.skip_line(),
                            Some(_) => {}
                        }
                    }
                }
                ')' => {
                    self.bump();
                    return Some(Err((PgnErrorKind::UnmatchedParen, line, col)));
                }
                '[' => {
                    self.bump();
                    return Some(
                        self.tag()
                            .map(|(k, v)| (Tok::Tag(k, v), line, col))
                            .map_err(|why| (PgnErrorKind::BadTag(why), line, col)),
                    );
                }
                _ => {
                    let mut w = String::new();
                    while let Some(&c) = self.chars.peek() {
                        if c.is_whitespace() || "{}();[".contains(c) {
                            break;
                        }
                        w.push(c);
                        self.bump();
                    }
                    if w.is_empty() {
                        // A lone ']' or similar: consume it as a word.
                        if let Some(c) = self.bump() {
                            w.push(c);
                        }
                    }
                    return Some(Ok((Tok::Word(w), line, col)));
                }
            }
        }
    }

    /// Reads `Name "value"]` after the `[`.
    fn tag(&mut self) -> Result<(String, String), String> {
        while self
            .chars
            .peek()
            .is_some_and(|c| c.is_whitespace() && *c != '\n')
        {
            self.bump();
        }
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err("missing tag name".into());
        }
        while self
            .chars
            .peek()
            .is_some_and(|c| c.is_whitespace() && *c != '\n')
        {
            self.bump();
        }
        if self.bump() != Some('"') {
            return Err(format!("tag {name}: expected a quoted value"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(format!("tag {name}: value not closed with \"")),
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => return Err(format!("tag {name}: value not closed with \"")),
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self
            .chars
            .peek()
            .is_some_and(|c| c.is_whitespace() && *c != '\n')
        {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(format!("tag {name}: expected ] after the value"));
        }
        Ok((name, value))
    }
}

/// The move number glued to the front of a word (`12.` → 12, not black's; `12...`, `12…` →
/// black's), as [`strip_move_number`] finds it; `None` for a word with none. A number too large
/// to read is `u64::MAX`.
fn move_number(w: &str) -> Option<(u64, bool)> {
    let rest = strip_move_number(w);
    if rest.len() == w.len() {
        return None;
    }
    let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = w[..digits].parse().unwrap_or(u64::MAX);
    let dots = &w[digits..w.len() - rest.len()];
    Some((n, dots.chars().count() > 1 || dots.contains('…')))
}

/// The numbering of a record's moves (`1. 炮二平五 馬８進７ 2. …`): the first number sets the
/// count, each later one must follow it (the full-move count advances after black's move), `N.`
/// before red's move and `N...` before black's (the first may be `N.` for black's).
#[derive(Debug, Default)]
struct MoveNumbers {
    /// The first number less the full moves played before it.
    offset: Option<u64>,
    /// Full moves completed (black's moves played).
    full: u64,
    /// The number read before the next move, if any: (number, black's, the word, its line and
    /// column).
    pending: Option<(u64, bool, String, usize, usize)>,
}

impl MoveNumbers {
    /// Checks the pending number, if any, against the move about to be played with `turn` to
    /// move; `Err((found, expected, line, column))` when it does not follow.
    fn check(&mut self, turn: Color) -> Result<(), (String, String, usize, usize)> {
        let Some((n, black, word, line, column)) = self.pending.take() else {
            return Ok(());
        };
        let first = self.offset.is_none();
        let offset = *self.offset.get_or_insert(n.saturating_sub(self.full));
        let want = offset.saturating_add(self.full);
        let want_black = turn == Color::Black;
        // (a record that begins with black's move may number it `1.`)
        if n == want && (black == want_black || (first && want_black)) {
            return Ok(());
        }
        let expected = format!("{want}{}", if want_black { "..." } else { "." });
        let found = word.chars().take(20).collect();
        Err((found, expected, line, column))
    }

    /// A move was played by `turn`.
    fn played(&mut self, turn: Color) {
        if turn == Color::Black {
            self.full = self.full.saturating_add(1);
        }
    }
}

/// Strips a move number (`12.`, `12...`, `12…`) glued to the front of a word.
fn strip_move_number(w: &str) -> &str {
    let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return w;
    }
    let rest = &w[digits..];
    let after = rest.trim_start_matches(['.', '…', '。']);
    if after.len() == rest.len() {
        return w; // no dot: a WXF pawn form such as 33=4 or 3+.4
    }
    if after.starts_with(|c: char| c.is_ascii_digit()) && after.chars().count() < 4 {
        return w; // 33.4: a WXF move with the '.' sign (but 1.33.4 is move 1, 33.4)
    }
    after
}

struct Builder {
    game: usize,
    tags: Vec<(String, String)>,
    pos: Option<Position>,
    start_fen: String,
    moves: Vec<Move>,
    result: Option<GameResult>,
    format: Option<Format>,
    touched: bool,
    /// A forbidden move that ends the game, with the error to report if more moves follow it.
    losing: Option<(LosingMove, PgnError)>,
    /// Whether the moves (in Chinese notation) are written with their side's numbers.
    numbering: SideNumbering,
    /// The move numbers read so far.
    numbers: MoveNumbers,
}

impl Builder {
    fn new(game: usize) -> Self {
        Builder {
            game,
            tags: Vec::new(),
            pos: None,
            start_fen: START_FEN.to_string(),
            moves: Vec::new(),
            result: None,
            format: None,
            touched: false,
            losing: None,
            numbering: SideNumbering::default(),
            numbers: MoveNumbers::default(),
        }
    }

    fn position(&mut self) -> &mut Position {
        self.pos.get_or_insert_with(Position::startpos)
    }

    fn finish(self) -> GameRecord {
        let tag_result = self
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Result"))
            .and_then(|(_, v)| GameResult::from_pgn(v.trim()));
        GameRecord {
            tags: self.tags,
            start_fen: self.start_fen,
            moves: self.moves,
            result: self.result.or(tag_result).unwrap_or_default(),
            losing_move: self.losing.map(|(m, _)| m),
        }
    }
}

/// Reads every game of a PGN text. Each game is read independently: a bad game gives an
/// error and reading goes on with the next one (a game starts at a tag pair after move text
/// or after a result). Text after a result that starts no game is skipped (see
/// [`read_games_noting`], which also says where).
pub fn read_games(text: &str) -> Vec<Result<GameRecord, PgnError>> {
    read_games_noting(text).0
}

/// [`read_games`], with a warning for each stretch of text skipped after a game's result: words
/// that are neither a move number nor a first move (an archive's `=====` line and site footer)
/// up to the next tag pair, instead of a broken game.
///
/// ```
/// use xiangqi_rules::record::pgn::read_games_noting;
/// let text = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n======\nwww.example.org\n\
///             [Event \"b\"]\n1. b2e2 *\n";
/// let (games, warnings) = read_games_noting(text);
/// assert_eq!(games.len(), 2);
/// assert!(games.iter().all(|g| g.is_ok()));
/// assert_eq!(warnings.len(), 1);
/// assert_eq!((warnings[0].line, warnings[0].after_game), (3, 1));
/// assert!(warnings[0].text.starts_with("====== www.example.org"));
/// ```
pub fn read_games_noting(text: &str) -> (Vec<Result<GameRecord, PgnError>>, Vec<PgnWarning>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    // After a result and before anything of the next game: words here may be a trailer.
    let mut after_result = false;
    let mut trailer: Option<PgnWarning> = None;
    let skip = |trailer: &mut Option<PgnWarning>, game: usize, line, column, w: &str| {
        let t = trailer.get_or_insert_with(|| PgnWarning {
            line,
            column,
            after_game: game,
            text: String::new(),
        });
        if t.text.chars().count() < 60 {
            if !t.text.is_empty() {
                t.text.push(' ');
            }
            t.text.extend(w.chars().take(60));
            if t.text.chars().count() > 60 {
                t.text = t.text.chars().take(60).collect();
            }
        }
    };
    let mut lx = Lexer::new(text);
    let mut b = Builder::new(1);
    let mut failed: Option<PgnError> = None;
    let mut in_moves = false;
    let err = |b: &Builder, kind, line, column| PgnError {
        line,
        column,
        game: b.game,
        kind,
    };
    while let Some(tok) = lx.next() {
        let (tok, line, col) = match tok {
            Ok(t) => t,
            Err((kind, line, col)) => {
                if after_result && !b.touched {
                    skip(&mut trailer, b.game - 1, line, col, &kind.to_string());
                    continue;
                }
                if failed.is_none() {
                    failed = Some(err(&b, kind, line, col));
                }
                continue;
            }
        };
        match tok {
            Tok::Tag(name, value) => {
                after_result = false;
                warnings.extend(trailer.take());
                if in_moves {
                    // A new game starts.
                    let next = Builder::new(b.game + 1);
                    let done = std::mem::replace(&mut b, next);
                    out.push(match failed.take() {
                        Some(e) => Err(e),
                        None => Ok(done.finish()),
                    });
                    in_moves = false;
                }
                b.touched = true;
                if failed.is_none() {
                    if name.eq_ignore_ascii_case("FEN") {
                        let parsed = Position::from_fen(value.trim()).or_else(|e| {
                            Position::from_fen_lenient(value.trim())
                                .map(|(p, _)| p)
                                .map_err(|_| e)
                        });
                        match parsed {
                            Ok(p) => {
                                b.start_fen = p.to_fen();
                                b.pos = Some(p);
                            }
                            Err(e) => failed = Some(err(&b, PgnErrorKind::BadFen(e), line, col)),
                        }
                    } else if name.eq_ignore_ascii_case("Format") {
                        let v = value.trim().to_ascii_lowercase();
                        b.format = match v.as_str() {
                            "iccs" => Some(Format::Iccs),
                            "chinese" | "chn" | "cn" | "zh" => Some(Format::Chinese),
                            "wxf" => Some(Format::Wxf),
                            _ => {
                                let why = format!(
                                    "Format {value:?} is none of ICCS, Chinese, WXF (leave the tag out to read each move in the notation it looks like)"
                                );
                                failed = Some(err(&b, PgnErrorKind::BadTag(why), line, col));
                                None
                            }
                        };
                    }
                }
                b.tags.push((name, value));
            }
            Tok::Word(w) => {
                if after_result && !b.touched {
                    if starts_game(&w) {
                        after_result = false;
                        warnings.extend(trailer.take());
                    } else {
                        skip(&mut trailer, b.game - 1, line, col, &w);
                        continue;
                    }
                }
                in_moves = true;
                b.touched = true;
                if let Some(r) = GameResult::from_pgn(&w) {
                    b.result = Some(r);
                    let next = Builder::new(b.game + 1);
                    let done = std::mem::replace(&mut b, next);
                    out.push(match failed.take() {
                        Some(e) => Err(e),
                        None => Ok(done.finish()),
                    });
                    in_moves = false;
                    after_result = true;
                    continue;
                }
                if failed.is_some() || w.starts_with('$') {
                    continue;
                }
                if let Some((n, black)) = move_number(&w) {
                    let number = &w[..w.len() - strip_move_number(&w).len()];
                    b.numbers.pending = Some((n, black, number.to_string(), line, col));
                }
                let m = strip_move_number(&w).trim_end_matches(['!', '?']);
                // A bare move number (`2`), or dots standing alone (`...`); not `33.4` (WXF).
                let bare_number = m.chars().all(|c| c.is_ascii_digit());
                let bare_dots = m.chars().all(|c| matches!(c, '.' | '…'));
                if let (true, Some(p)) = (bare_dots && !m.is_empty(), &mut b.numbers.pending) {
                    // `1. ...`: black's number, its dots written apart.
                    p.1 = true;
                    p.2.push_str(m);
                }
                if m.is_empty() || bare_number || bare_dots {
                    continue;
                }
                if let Some((_, e)) = b.losing.take() {
                    // A move after a forbidden move: the record went on after the game ended.
                    failed = Some(e);
                    continue;
                }
                let format = b.format.unwrap_or_else(|| Format::detect(m));
                let index = b.moves.len() + 1;
                let turn = b.position().turn();
                if let Err((found, expected, at_line, at_col)) = b.numbers.check(turn) {
                    let kind = PgnErrorKind::BadMoveNumber { found, expected };
                    failed = Some(err(&b, kind, at_line, at_col));
                    continue;
                }
                let pos = b.position();
                match parse_move(pos, m, format) {
                    Ok(mv) => {
                        pos.play(mv);
                        b.moves.push(mv);
                        b.numbers.played(turn);
                        if let Err((index, error)) = b.numbering.check(index, m, format, turn) {
                            let text = match &error {
                                NotationError::OtherSidesNumbers { text, .. } => text.clone(),
                                _ => m.to_string(),
                            };
                            let kind = PgnErrorKind::BadMove { index, text, error };
                            failed = Some(err(&b, kind, line, col));
                        }
                    }
                    Err(error) => {
                        let ends_game = match &error {
                            NotationError::Illegal { mv, reason, .. }
                                if matches!(
                                    reason,
                                    IllegalMoveReason::KingsFacing
                                        | IllegalMoveReason::LeavesKingInCheck
                                ) =>
                            {
                                Some(LosingMove {
                                    index,
                                    mv: *mv,
                                    reason: reason.clone(),
                                })
                            }
                            _ => None,
                        };
                        let e = err(
                            &b,
                            PgnErrorKind::BadMove {
                                index,
                                text: m.to_string(),
                                error,
                            },
                            line,
                            col,
                        );
                        match ends_game {
                            Some(lm) => b.losing = Some((lm, e)),
                            None => failed = Some(e),
                        }
                    }
                }
            }
        }
    }
    if b.touched || failed.is_some() {
        out.push(match failed {
            Some(e) => Err(e),
            None => Ok(b.finish()),
        });
    }
    warnings.extend(trailer);
    (out, warnings)
}

/// Reads every game of a PGN text, stopping at the first error.
pub fn read_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    read_games(text).into_iter().collect()
}

/// Reads every game of PGN bytes in UTF-8 or GBK/GB18030 (see [`decode_text`]).
///
/// ```
/// use xiangqi_rules::record::pgn::read_pgn_bytes;
/// // "1. 炮二平五 *" in GBK
/// let mut bytes = b"1. ".to_vec();
/// bytes.extend([0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5]);
/// bytes.extend(b" *");
/// assert_eq!(read_pgn_bytes(&bytes).unwrap()[0].moves[0].to_string(), "h2e2");
/// ```
pub fn read_pgn_bytes(bytes: &[u8]) -> Result<Vec<GameRecord>, PgnError> {
    read_pgn(&decode_text(bytes).0)
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// Writes a game as PGN with its moves in `format`.
pub fn write_pgn(
    game: &GameRecord,
    format: Format,
    opts: &PgnWriteOptions,
) -> Result<String, super::RecordError> {
    let start = game.start_position().map_err(super::RecordError::Fen)?;
    let is_start = start == Position::startpos();
    let mut tags: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(k, _)| {
            !(k.eq_ignore_ascii_case("Format")
                || k.eq_ignore_ascii_case("FEN")
                || k.eq_ignore_ascii_case("Result"))
        })
        .cloned()
        .collect();
    tags.push(("Result".into(), game.result.pgn().into()));
    if !is_start {
        tags.push(("FEN".into(), start.to_fen()));
    }
    tags.push(("Format".into(), format.name().into()));
    let mut out = String::new();
    for (k, v) in &tags {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');

    let mut pos = start;
    let mut words: Vec<String> = Vec::new();
    let mut number = pos.fullmoves().max(1);
    for (i, &m) in game.moves.iter().enumerate() {
        let text = format_move(&pos, m, format, &opts.style).map_err(|error| {
            super::RecordError::Notation {
                index: i + 1,
                error,
            }
        })?;
        if pos.turn() == crate::Color::Red {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(text);
        if pos.turn() == crate::Color::Black {
            number += 1;
        }
        pos.play(m);
    }
    if let Some(lm) = &game.losing_move {
        // Notations describe legal moves only; the forbidden last move is kept as a comment.
        words.push(format!(
            "{{forbidden last move {}: {}}}",
            lm.mv.to_iccs(crate::RankConvention::Iccs),
            lm.reason
        ));
    }
    words.push(game.result.pgn().to_string());
    let mut line_len = 0;
    for w in words {
        let n = w.chars().count();
        if line_len > 0 && line_len + 1 + n > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&w);
        line_len += n;
    }
    out.push('\n');
    Ok(out)
}
