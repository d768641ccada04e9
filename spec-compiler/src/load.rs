//! Loading and validating the spec directory.

use crate::rules::{Mode, Rule, RuleKind, When, Zone};
use crate::schema::{BoardFile, MaterialFile, PiecesFile};
use crate::vocab::{ByColor, Color, Role};
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where a problem is: file, 1-based line and column (0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    /// The file as it was opened (e.g. `spec/pieces.yaml`).
    pub file: String,
    /// 1-based line, 0 if unknown.
    pub line: usize,
    /// 1-based column, 0 if unknown.
    pub column: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        Ok(())
    }
}

/// A semantic problem in otherwise well-formed YAML.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A zone name outside the vocabulary.
    #[error("unknown zone {0:?} (expected anywhere, palace, own_half)")]
    UnknownZone(String),
    /// A mode name outside the vocabulary.
    #[error("unknown mode {0:?} (expected move_or_capture, quiet, capture)")]
    UnknownMode(String),
    /// A `when` name outside the vocabulary.
    #[error("unknown condition {0:?} (expected always, before_river, after_river)")]
    UnknownWhen(String),
    /// A move kind outside the vocabulary.
    #[error("unknown move kind {0:?} (expected step, leap, slide)")]
    UnknownKind(String),
    /// A malformed vector.
    #[error("bad vector {vector:?}: {why}")]
    BadVector {
        /// The vector as written.
        vector: Vec<i64>,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A leap whose block point is not strictly between start and target.
    #[error("block point {block:?} is not between the start and the target {to:?}")]
    BlockNotBetween {
        /// Leap target.
        to: Vec<i64>,
        /// Block point.
        block: Vec<i64>,
    },
    /// A field that the move kind needs is missing, or one it cannot have is present.
    #[error("{0}")]
    BadRule(String),
    /// Two pieces share a FEN letter.
    #[error("duplicate letter {0:?}")]
    DuplicateLetter(String),
    /// A letter that is not the vocabulary's letter for that piece.
    #[error("letter {found:?} for {piece} does not match the vocabulary letter {expected:?}")]
    WrongLetter {
        /// Piece id.
        piece: String,
        /// Letter in the file.
        found: String,
        /// Letter of the vocabulary.
        expected: char,
    },
    /// A piece id that is not one of the seven.
    #[error("unknown piece {0:?} (expected king, advisor, elephant, horse, rook, cannon, pawn)")]
    UnknownPiece(String),
    /// The same piece described twice.
    #[error("duplicate piece {0:?}")]
    DuplicatePiece(String),
    /// One of the seven pieces is not described.
    #[error("missing piece {0:?}")]
    MissingPiece(String),
    /// A bad piece count.
    #[error("count {0} out of range 1..=16")]
    BadCount(i64),
    /// A board of another size than 9x10.
    #[error("board must be 9 files x 10 ranks, found {files}x{ranks}")]
    BadBoardSize {
        /// Files found.
        files: i64,
        /// Ranks found.
        ranks: i64,
    },
    /// A palace that leaves the board or the own half.
    #[error("palace {0} is outside the board or the own half")]
    PalaceOutsideBoard(String),
    /// Other problems with the sides, river or file names.
    #[error("{0}")]
    BadBoard(String),
    /// An interpretation id that is not defined.
    #[error("unknown interpretation {0:?}")]
    UnknownInterpretation(String),
    /// A bad material value.
    #[error("bad value: {0}")]
    BadValue(String),
    /// A start position the compiler cannot read.
    #[error("bad start position: {0}")]
    BadStart(String),
    /// A rule that the table compiler cannot express.
    #[error("unsupported by the table compiler: {0}")]
    Unsupported(String),
}

/// Any error while loading, validating or compiling the spec.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Io {
        /// Path.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// YAML syntax or type error (location from serde_yaml).
    #[error("{loc}: {reason}")]
    Yaml {
        /// Where.
        loc: Loc,
        /// serde_yaml's message without its location suffix.
        reason: String,
    },
    /// A semantic error.
    #[error("{loc}: {problem}")]
    Invalid {
        /// Where.
        loc: Loc,
        /// The YAML path of the offending node, e.g. `pieces[3].moves[0].zone`.
        path: String,
        /// What is wrong.
        problem: Problem,
    },
}

impl SpecError {
    /// The location, when there is one.
    pub fn loc(&self) -> Option<&Loc> {
        match self {
            SpecError::Io { .. } => None,
            SpecError::Yaml { loc, .. } | SpecError::Invalid { loc, .. } => Some(loc),
        }
    }
    /// The semantic problem, for `Invalid` errors.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            SpecError::Invalid { problem, .. } => Some(problem),
            _ => None,
        }
    }
}

/// One source file: its display name and text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Name used in messages.
    pub name: String,
    /// Full text.
    pub text: String,
}

impl Source {
    /// A semantic error at YAML path `path` of this file.
    pub fn error(&self, path: &str, problem: Problem) -> SpecError {
        let (line, column) = locate(&self.text, path);
        SpecError::Invalid {
            loc: Loc {
                file: self.name.clone(),
                line,
                column,
            },
            path: path.to_string(),
            problem,
        }
    }
}

/// Geometry of one side, interpreted from `board.yaml`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SideGeometry {
    /// +1 or -1.
    pub forward: i8,
    /// First and last rank of the own half (sorted).
    pub home_ranks: (u8, u8),
    /// First and last file of the palace (sorted).
    pub palace_files: (u8, u8),
    /// First and last rank of the palace (sorted).
    pub palace_ranks: (u8, u8),
}

/// Interpreted description of one role.
#[derive(Clone, Debug)]
pub struct RoleSpec {
    /// Maximum number per side.
    pub count: u8,
    /// Default zone.
    pub zone: Zone,
    /// Movement rules.
    pub rules: Vec<Rule>,
}

/// A loaded and validated spec.
#[derive(Clone, Debug)]
pub struct Spec {
    /// `board.yaml` as parsed.
    pub board: BoardFile,
    /// `pieces.yaml` as parsed.
    pub pieces: PiecesFile,
    /// `material.yaml` as parsed.
    pub material: MaterialFile,
    /// The source texts (board, pieces, material), for locating later errors.
    pub sources: [Source; 3],
    /// Per-side geometry.
    pub sides: ByColor<SideGeometry>,
    /// Per-role rules, indexed by [`Role::index`].
    pub roles: Vec<RoleSpec>,
    /// Start position FEN.
    pub start_fen: String,
}

impl Spec {
    /// The rules of `role`.
    pub fn role(&self, role: Role) -> &RoleSpec {
        &self.roles[role.index()]
    }
}

/// Reads `board.yaml`, `pieces.yaml` and `material.yaml` from `dir` and validates them.
///
/// Error messages name the file as `dir.join(name)` is displayed.
pub fn load_dir(dir: &Path) -> Result<Spec, SpecError> {
    let read = |name: &str| -> Result<Source, SpecError> {
        let p: PathBuf = dir.join(name);
        let shown = p.display().to_string();
        let text = std::fs::read_to_string(&p).map_err(|source| SpecError::Io {
            file: shown.clone(),
            source,
        })?;
        Ok(Source { name: shown, text })
    };
    load_sources(
        read("board.yaml")?,
        read("pieces.yaml")?,
        read("material.yaml")?,
    )
}

/// Validates the three texts (board, pieces, material), named for messages.
pub fn load_str(board: &str, pieces: &str, material: &str) -> Result<Spec, SpecError> {
    let s = |n: &str, t: &str| Source {
        name: n.to_string(),
        text: t.to_string(),
    };
    load_sources(
        s("spec/board.yaml", board),
        s("spec/pieces.yaml", pieces),
        s("spec/material.yaml", material),
    )
}

fn parse<T: serde::de::DeserializeOwned>(src: &Source) -> Result<T, SpecError> {
    serde_yaml::from_str(&src.text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        let mut reason = e.to_string();
        if let Some(i) = reason.find(" at line ") {
            reason.truncate(i);
        }
        SpecError::Yaml {
            loc: Loc {
                file: src.name.clone(),
                line,
                column,
            },
            reason,
        }
    })
}

fn load_sources(bsrc: Source, psrc: Source, msrc: Source) -> Result<Spec, SpecError> {
    let board: BoardFile = parse(&bsrc)?;
    let pieces: PiecesFile = parse(&psrc)?;
    let material: MaterialFile = parse(&msrc)?;
    let sides = validate_board(&board, &bsrc)?;
    let roles = validate_pieces(&pieces, &psrc)?;
    validate_material(&material, &msrc)?;
    let start_fen = board.start_position.fen.clone();
    Ok(Spec {
        board,
        pieces,
        material,
        sources: [bsrc, psrc, msrc],
        sides,
        roles,
        start_fen,
    })
}

fn file_index(names: &[String], s: &str) -> Option<u8> {
    names.iter().position(|n| n == s).map(|i| i as u8)
}

fn pair(v: &[i64], lo: i64, hi: i64) -> Option<(u8, u8)> {
    if v.len() != 2 || v.iter().any(|&x| x < lo || x > hi) {
        return None;
    }
    Some((v[0].min(v[1]) as u8, v[0].max(v[1]) as u8))
}

fn validate_board(b: &BoardFile, src: &Source) -> Result<ByColor<SideGeometry>, SpecError> {
    if b.files != 9 || b.ranks != 10 {
        let path = if b.files != 9 { "files" } else { "ranks" };
        return Err(src.error(
            path,
            Problem::BadBoardSize {
                files: b.files,
                ranks: b.ranks,
            },
        ));
    }
    let expected: Vec<String> = (b'a'..=b'i').map(|c| (c as char).to_string()).collect();
    if b.file_names != expected {
        return Err(src.error(
            "file_names",
            Problem::BadBoard("file_names must be [a, b, c, d, e, f, g, h, i]".into()),
        ));
    }
    let mut out: [Option<SideGeometry>; 2] = [None, None];
    for (i, s) in b.sides.iter().enumerate() {
        let color = match s.id.as_str() {
            "red" => Color::Red,
            "black" => Color::Black,
            other => {
                return Err(src.error(
                    &format!("sides[{i}].id"),
                    Problem::BadBoard(format!("unknown side {other:?} (expected red, black)")),
                ))
            }
        };
        if out[color.index()].is_some() {
            return Err(src.error(
                &format!("sides[{i}].id"),
                Problem::BadBoard(format!("duplicate side {:?}", s.id)),
            ));
        }
        let case = if color == Color::Red {
            "upper"
        } else {
            "lower"
        };
        if s.fen_case != case {
            return Err(src.error(
                &format!("sides[{i}].fen_case"),
                Problem::BadBoard(format!("{} must use fen_case {case}", s.id)),
            ));
        }
        if s.forward != color.forward() as i64 {
            return Err(src.error(
                &format!("sides[{i}].forward"),
                Problem::BadBoard(format!(
                    "{} must have forward {} (ranks count from Red's back rank)",
                    s.id,
                    color.forward()
                )),
            ));
        }
        if s.moves_first != (color == Color::Red) {
            return Err(src.error(
                &format!("sides[{i}].moves_first"),
                Problem::BadBoard("Red moves first (art. 2.1)".into()),
            ));
        }
        let home = match pair(&s.home_ranks, 0, 9) {
            Some(h) if h.1 - h.0 == 4 && (h.0 == 0 || h.1 == 9) => h,
            _ => {
                return Err(src.error(
                    &format!("sides[{i}].home_ranks"),
                    Problem::BadBoard(format!(
                        "home_ranks {:?} must be five ranks from the own back rank",
                        s.home_ranks
                    )),
                ))
            }
        };
        if (color == Color::Red) != (home.0 == 0) {
            return Err(src.error(
                &format!("sides[{i}].home_ranks"),
                Problem::BadBoard(format!("{} has the wrong half", s.id)),
            ));
        }
        let pf: Option<Vec<u8>> = s
            .palace
            .files
            .iter()
            .map(|f| file_index(&b.file_names, f))
            .collect();
        let pfiles = pf.and_then(|v| pair(&v.iter().map(|&x| x as i64).collect::<Vec<_>>(), 0, 8));
        let pranks = pair(&s.palace.ranks, 0, 9);
        let desc = format!("files {:?} ranks {:?}", s.palace.files, s.palace.ranks);
        let (pfiles, pranks) = match (pfiles, pranks) {
            (Some(f), Some(r)) if r.0 >= home.0 && r.1 <= home.1 => (f, r),
            (None, _) | (Some(_), Some(_)) => {
                let which = if pfiles.is_none() { "files" } else { "ranks" };
                return Err(src.error(
                    &format!("sides[{i}].palace.{which}"),
                    Problem::PalaceOutsideBoard(desc),
                ));
            }
            (Some(_), None) => {
                return Err(src.error(
                    &format!("sides[{i}].palace.ranks"),
                    Problem::PalaceOutsideBoard(desc),
                ))
            }
        };
        out[color.index()] = Some(SideGeometry {
            forward: color.forward(),
            home_ranks: home,
            palace_files: pfiles,
            palace_ranks: pranks,
        });
    }
    let (Some(red), Some(black)) = (out[0], out[1]) else {
        return Err(src.error(
            "sides",
            Problem::BadBoard("both sides red and black must be described".into()),
        ));
    };
    if red.home_ranks.1 + 1 != black.home_ranks.0 {
        return Err(src.error(
            "sides",
            Problem::BadBoard("the two halves must split the board".into()),
        ));
    }
    match pair(&b.river.between_ranks, 0, 9) {
        Some(r) if r == (red.home_ranks.1, black.home_ranks.0) => {}
        _ => {
            return Err(src.error(
                "river.between_ranks",
                Problem::BadBoard(format!(
                    "the river must lie between ranks {} and {}",
                    red.home_ranks.1, black.home_ranks.0
                )),
            ))
        }
    }
    Ok(ByColor { red, black })
}

fn check_vector(
    v: &[i64],
    src: &Source,
    path: &str,
    allow_zero: bool,
) -> Result<(i8, i8), SpecError> {
    if v.len() != 2 {
        return Err(src.error(
            path,
            Problem::BadVector {
                vector: v.to_vec(),
                why: "a vector has two components [file, rank]",
            },
        ));
    }
    if v[0].abs() > 8 || v[1].abs() > 9 {
        return Err(src.error(
            path,
            Problem::BadVector {
                vector: v.to_vec(),
                why: "longer than the board",
            },
        ));
    }
    if !allow_zero && v[0] == 0 && v[1] == 0 {
        return Err(src.error(
            path,
            Problem::BadVector {
                vector: v.to_vec(),
                why: "the null vector does not move",
            },
        ));
    }
    Ok((v[0] as i8, v[1] as i8))
}

fn between(block: (i8, i8), to: (i8, i8)) -> bool {
    let inside = |b: i8, t: i8| {
        if t >= 0 {
            (0..=t).contains(&b)
        } else {
            (t..=0).contains(&b)
        }
    };
    block != (0, 0) && block != to && inside(block.0, to.0) && inside(block.1, to.1)
}

fn validate_pieces(p: &PiecesFile, src: &Source) -> Result<Vec<RoleSpec>, SpecError> {
    let mut roles: Vec<Option<RoleSpec>> = vec![None; 7];
    let mut letters: Vec<&str> = Vec::new();
    for (i, piece) in p.pieces.iter().enumerate() {
        let at = |f: &str| format!("pieces[{i}].{f}");
        let role = Role::from_id(&piece.id)
            .ok_or_else(|| src.error(&at("id"), Problem::UnknownPiece(piece.id.clone())))?;
        if roles[role.index()].is_some() {
            return Err(src.error(&at("id"), Problem::DuplicatePiece(piece.id.clone())));
        }
        if letters.contains(&piece.letter.as_str()) {
            return Err(src.error(
                &at("letter"),
                Problem::DuplicateLetter(piece.letter.clone()),
            ));
        }
        letters.push(&piece.letter);
        if piece.letter != role.letter().to_string() {
            return Err(src.error(
                &at("letter"),
                Problem::WrongLetter {
                    piece: piece.id.clone(),
                    found: piece.letter.clone(),
                    expected: role.letter(),
                },
            ));
        }
        if !(1..=16).contains(&piece.count) {
            return Err(src.error(&at("count"), Problem::BadCount(piece.count)));
        }
        let zone = match &piece.zone {
            None => Zone::Anywhere,
            Some(z) => Zone::from_id(z)
                .ok_or_else(|| src.error(&at("zone"), Problem::UnknownZone(z.clone())))?,
        };
        let mut rules = Vec::new();
        for (j, m) in piece.moves.iter().enumerate() {
            let mat = |f: &str| format!("pieces[{i}].moves[{j}].{f}");
            let kind = RuleKind::from_id(&m.kind)
                .ok_or_else(|| src.error(&mat("kind"), Problem::UnknownKind(m.kind.clone())))?;
            let mode = match &m.mode {
                None => Mode::MoveOrCapture,
                Some(s) => Mode::from_id(s)
                    .ok_or_else(|| src.error(&mat("mode"), Problem::UnknownMode(s.clone())))?,
            };
            let when = match &m.when {
                None => When::Always,
                Some(s) => When::from_id(s)
                    .ok_or_else(|| src.error(&mat("when"), Problem::UnknownWhen(s.clone())))?,
            };
            let rzone = match &m.zone {
                None => zone,
                Some(z) => Zone::from_id(z)
                    .ok_or_else(|| src.error(&mat("zone"), Problem::UnknownZone(z.clone())))?,
            };
            let bad = |f: &str, msg: String| src.error(&mat(f), Problem::BadRule(msg));
            let (field, wanted) = match kind {
                RuleKind::Step => ("vectors", m.vectors.is_some()),
                RuleKind::Leap => ("leaps", m.leaps.is_some()),
                RuleKind::Slide => ("directions", m.directions.is_some()),
            };
            if !wanted {
                return Err(bad("kind", format!("a {} needs `{field}`", kind.id())));
            }
            for (f, present) in [
                ("vectors", m.vectors.is_some()),
                ("leaps", m.leaps.is_some()),
                ("directions", m.directions.is_some()),
            ] {
                if present && f != field {
                    return Err(bad(
                        f,
                        format!("a {} has no `{f}` (use `{field}`)", kind.id()),
                    ));
                }
            }
            let screens = match (kind, m.screens) {
                (_, None) => 0,
                (RuleKind::Slide, Some(n)) if (0..=8).contains(&n) => n as u8,
                (RuleKind::Slide, Some(n)) => {
                    return Err(bad("screens", format!("screens {n} out of range 0..=8")))
                }
                (_, Some(_)) => return Err(bad("screens", "only a slide has screens".into())),
            };
            let mut vectors = Vec::new();
            let mut blocks = Vec::new();
            match kind {
                RuleKind::Step | RuleKind::Slide => {
                    let vs = m.vectors.as_ref().or(m.directions.as_ref()).unwrap();
                    if vs.is_empty() {
                        return Err(bad(field, format!("`{field}` is empty")));
                    }
                    for (k, v) in vs.iter().enumerate() {
                        let path = format!("pieces[{i}].moves[{j}].{field}[{k}]");
                        let vec = check_vector(v, src, &path, false)?;
                        if kind == RuleKind::Slide && vec.0.abs() + vec.1.abs() != 1 {
                            return Err(src.error(
                                &path,
                                Problem::BadVector {
                                    vector: v.clone(),
                                    why: "a slide direction must be a unit orthogonal vector",
                                },
                            ));
                        }
                        vectors.push(vec);
                    }
                }
                RuleKind::Leap => {
                    let ls = m.leaps.as_ref().unwrap();
                    if ls.is_empty() {
                        return Err(bad("leaps", "`leaps` is empty".into()));
                    }
                    for (k, l) in ls.iter().enumerate() {
                        let base = format!("pieces[{i}].moves[{j}].leaps[{k}]");
                        let to = check_vector(&l.to, src, &format!("{base}.to"), false)?;
                        let block = check_vector(&l.block, src, &format!("{base}.block"), true)?;
                        if !between(block, to) {
                            return Err(src.error(
                                &format!("{base}.block"),
                                Problem::BlockNotBetween {
                                    to: l.to.clone(),
                                    block: l.block.clone(),
                                },
                            ));
                        }
                        vectors.push(to);
                        blocks.push(block);
                    }
                }
            }
            rules.push(Rule {
                kind,
                mode,
                when,
                zone: rzone,
                screens,
                vectors: Cow::Owned(vectors),
                blocks: Cow::Owned(blocks),
            });
        }
        roles[role.index()] = Some(RoleSpec {
            count: piece.count as u8,
            zone,
            rules,
        });
    }
    let mut out = Vec::new();
    for r in Role::ALL {
        match roles[r.index()].take() {
            Some(s) => out.push(s),
            None => return Err(src.error("pieces", Problem::MissingPiece(r.id().to_string()))),
        }
    }
    Ok(out)
}

fn validate_material(m: &MaterialFile, src: &Source) -> Result<(), SpecError> {
    for (i, v) in m.values.iter().enumerate() {
        if Role::from_id(&v.piece).is_none() {
            return Err(src.error(
                &format!("values[{i}].piece"),
                Problem::UnknownPiece(v.piece.clone()),
            ));
        }
        if let Some(w) = &v.when {
            if When::from_id(w).is_none() {
                return Err(src.error(
                    &format!("values[{i}].when"),
                    Problem::UnknownWhen(w.clone()),
                ));
            }
        }
        if let Some(id) = &v.interpretation {
            if !m.interpretations.iter().any(|x| &x.id == id) {
                return Err(src.error(
                    &format!("values[{i}].interpretation"),
                    Problem::UnknownInterpretation(id.clone()),
                ));
            }
        }
        match &v.value {
            None => {}
            Some(serde_yaml::Value::Number(n)) if n.as_u64().is_some() => {}
            Some(serde_yaml::Value::String(s)) if s == "floating" => {}
            Some(other) => {
                return Err(src.error(
                    &format!("values[{i}].value"),
                    Problem::BadValue(format!(
                        "{} (expected a non-negative integer or `floating`)",
                        serde_yaml::to_string(other).unwrap_or_default().trim()
                    )),
                ))
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Locating YAML paths in the text.

#[derive(Debug, PartialEq)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn segments(path: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Seg::Key(key));
        }
        while let Some(stripped) = rest.strip_prefix('[') {
            let end = stripped.find(']').unwrap_or(stripped.len());
            if let Ok(n) = stripped[..end].parse() {
                out.push(Seg::Index(n));
            }
            rest = stripped.get(end + 1..).unwrap_or("");
        }
    }
    out
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Finds the 1-based `(line, column)` of the YAML node at `path` (e.g. `pieces[3].moves[0].zone`)
/// in block-style YAML text. The column points at the value of a `key: value` pair when it is
/// on the same line, else at the key or the `- ` of a sequence item. Keys inside a flow mapping
/// on one line (`{to: [2, 2], block: [1, 1]}`) are found too. When a segment cannot be found,
/// the location of the deepest node found is returned (`(0, 0)` if none).
pub fn locate(text: &str, path: &str) -> (usize, usize) {
    Lines::new(text).locate(path)
}

/// A text split into lines once, each with its indent, for a caller that locates many paths in
/// one text ([`Lines::locate`] is [`locate`] without splitting and measuring the lines again).
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    /// `text.lines()`.
    lines: Vec<&'a str>,
    /// The indent of each line, `None` for a blank or comment line.
    indents: Vec<Option<usize>>,
}

impl<'a> Lines<'a> {
    /// Splits `text` into its lines (`text.lines()`).
    pub fn new(text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        let indents = lines
            .iter()
            .map(|s| (!is_blank(s)).then(|| indent(s)))
            .collect();
        Lines { lines, indents }
    }

    /// The lines, in order (line `n` is at index `n - 1`).
    pub fn lines(&self) -> &[&'a str] {
        &self.lines
    }

    /// [`locate`] in this text.
    pub fn locate(&self, path: &str) -> (usize, usize) {
        locate_lines(self, path)
    }
}

fn locate_lines(text: &Lines<'_>, path: &str) -> (usize, usize) {
    let lines = &text.lines;
    #[derive(Clone, Copy)]
    enum Node {
        Root,
        Key { line: usize, col: usize },
        Item { line: usize, content: usize },
    }
    let mut node = Node::Root;
    let mut best = (0usize, 0usize);
    for seg in segments(path) {
        // (first child line, inline header (line, from col), block-children predicate bound)
        let (start, header, bound) = match node {
            Node::Root => (0, None, 0),
            Node::Key { line, col } => (line + 1, Some((line, col)), col + 1),
            Node::Item { line, content } => (line + 1, Some((line, content)), content),
        };
        let found: Option<(usize, usize, Node)> = match seg {
            Seg::Key(k) => {
                let pat = format!("{k}:");
                let mut hit = None;
                if let Some((l, from)) = header {
                    let s = lines[l];
                    let mut at = from.min(s.len());
                    while let Some(p) = s[at..].find(&pat) {
                        let abs = at + p;
                        if abs == 0 || matches!(s.as_bytes()[abs - 1], b' ' | b'{' | b',') {
                            hit = Some((l, abs));
                            break;
                        }
                        at = abs + 1;
                    }
                }
                if hit.is_none() {
                    let mut child = None;
                    for (l, ind) in text.indents.iter().enumerate().skip(start) {
                        let Some(ind) = *ind else { continue };
                        let s = lines[l];
                        if ind < bound {
                            break;
                        }
                        let ci = *child.get_or_insert(ind);
                        if ind < ci {
                            break;
                        }
                        if ind == ci && s[ind..].starts_with(&pat) {
                            hit = Some((l, ind));
                            break;
                        }
                    }
                }
                hit.map(|(l, c)| {
                    let s = lines[l];
                    let after = c + pat.len();
                    let vcol = s[after..]
                        .find(|ch: char| ch != ' ')
                        .map(|o| after + o)
                        .filter(|&v| !s[v..].starts_with('#'))
                        .unwrap_or(c);
                    (l, vcol, Node::Key { line: l, col: c })
                })
            }
            Seg::Index(n) => {
                // A block sequence may sit at its key's own indent.
                let bound = match node {
                    Node::Key { col, .. } => col,
                    _ => bound,
                };
                let mut hit = None;
                let mut dash = None;
                let mut count = 0;
                for (l, ind) in text.indents.iter().enumerate().skip(start) {
                    let Some(ind) = *ind else { continue };
                    let s = lines[l];
                    let is_item = s[ind..].starts_with("- ") || &s[ind..] == "-";
                    if ind < bound || (dash.is_none() && !is_item) {
                        break;
                    }
                    let di = *dash.get_or_insert(ind);
                    if ind < di || (ind == di && !is_item) {
                        break;
                    }
                    if ind == di {
                        if count == n {
                            hit = Some((l, ind));
                            break;
                        }
                        count += 1;
                    }
                }
                hit.map(|(l, c)| {
                    (
                        l,
                        c,
                        Node::Item {
                            line: l,
                            content: c + 2,
                        },
                    )
                })
            }
        };
        match found {
            Some((l, c, n)) => {
                best = (l + 1, c + 1);
                node = n;
            }
            None => break,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const Y: &str = "\
# comment
id: board
pieces:
  - id: king
    zone: palace
    moves:
      - kind: step
        vectors: [[0, 1]]
  - id: advisor
    palace: {files: [d, f], ranks: [0, 2]}
    moves:
      - kind: leap
        leaps:
          - {to: [2, 2], block: [1, 1]}
          - {to: [2, -2], block: [3, -1]}
list:
- a
- b
";

    #[test]
    fn locate_paths() {
        assert_eq!(locate(Y, "id"), (2, 5));
        assert_eq!(locate(Y, "pieces"), (3, 1));
        assert_eq!(locate(Y, "pieces[0]"), (4, 3));
        assert_eq!(locate(Y, "pieces[0].zone"), (5, 11));
        assert_eq!(locate(Y, "pieces[0].moves[0].kind"), (7, 15));
        assert_eq!(locate(Y, "pieces[0].moves[0].vectors"), (8, 18));
        assert_eq!(locate(Y, "pieces[1].id"), (9, 9));
        assert_eq!(locate(Y, "pieces[1].palace.ranks"), (10, 36));
        assert_eq!(locate(Y, "pieces[1].moves[0].leaps[1].block"), (15, 34));
        assert_eq!(locate(Y, "list[1]"), (18, 1));
        // Missing segment: deepest node found.
        assert_eq!(locate(Y, "pieces[1].nothing"), (9, 3));
        assert_eq!(locate(Y, "nothing"), (0, 0));
    }

    #[test]
    fn segments_parse() {
        assert_eq!(
            segments("a[3].b[0][1]"),
            vec![
                Seg::Key("a"),
                Seg::Index(3),
                Seg::Key("b"),
                Seg::Index(0),
                Seg::Index(1)
            ]
        );
    }
}
