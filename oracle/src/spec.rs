//! Loading and interpreting `spec/*.yaml`.
//!
//! The oracle reads the YAML with its own serde structs (the `Raw*` types below), checks it and
//! turns each piece's `moves:` list into a small list of [`MoveRule`]s. Two tables are derived
//! from those rules at load time, both by the same "moves on an empty board" reading:
//! the points each piece can ever reach (flood fill from its start points, for FEN validation,
//! see [`Spec::reachable`]) and, per start point, the points a piece could move to at all
//! (a shortcut that lets attack tests skip hopeless pieces, see [`Spec::could_move`]).
//!
//! Files are read through a table ([`KNOWN_FILES`]); files the oracle does not interpret yet
//! (for example `spec/rules/*.yaml` or `spec/examples/**`) are listed in
//! [`Spec::uninterpreted_files`] and otherwise ignored.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use crate::board::Board;
use crate::coord::{Coord, Side, FILES, POINTS, RANKS};

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a spec could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file, relative to the spec directory.
        file: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file is not valid YAML or does not have the expected shape.
    #[error("{file}{}: {reason}", location_suffix(*line, *column))]
    Yaml {
        /// The file, relative to the spec directory.
        file: String,
        /// 1-based line, where serde_yaml reports one.
        line: Option<usize>,
        /// 1-based column, where serde_yaml reports one.
        column: Option<usize>,
        /// serde_yaml's message.
        reason: String,
    },
    /// The YAML is well formed but says something the oracle cannot accept.
    #[error("{file}: {entry}: {reason}")]
    Invalid {
        /// The file, relative to the spec directory.
        file: String,
        /// The entry, e.g. `piece horse, move 1`.
        entry: String,
        /// What is wrong.
        reason: String,
    },
}

fn location_suffix(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

impl SpecError {
    /// The file the error is about (relative to the spec directory).
    pub fn file(&self) -> &str {
        match self {
            SpecError::Io { file, .. }
            | SpecError::Yaml { file, .. }
            | SpecError::Invalid { file, .. } => file,
        }
    }

    /// The 1-based line, for YAML errors where serde_yaml gave one.
    pub fn line(&self) -> Option<usize> {
        match self {
            SpecError::Yaml { line, .. } => *line,
            _ => None,
        }
    }
}

fn invalid(file: &str, entry: impl Into<String>, reason: impl Into<String>) -> SpecError {
    SpecError::Invalid {
        file: file.to_string(),
        entry: entry.into(),
        reason: reason.into(),
    }
}

fn parse_yaml<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, SpecError> {
    serde_yaml::from_str(text).map_err(|e| {
        let loc = e.location();
        SpecError::Yaml {
            file: file.to_string(),
            line: loc.as_ref().map(|l| l.line()),
            column: loc.as_ref().map(|l| l.column()),
            reason: e.to_string(),
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Raw YAML shapes (only the fields the oracle interprets; prose fields are ignored, except in
// move entries, which are the movement vocabulary and must not contain anything unknown)
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct RawBoard {
    files: u32,
    ranks: u32,
    file_names: Vec<String>,
    sides: Vec<RawSide>,
    river: RawRiver,
    start_position: RawStart,
}

#[derive(Deserialize)]
struct RawSide {
    id: String,
    fen_case: String,
    forward: i32,
    home_ranks: [u32; 2],
    palace: RawPalace,
    #[serde(default)]
    moves_first: bool,
}

#[derive(Deserialize)]
struct RawPalace {
    files: [String; 2],
    ranks: [u32; 2],
}

#[derive(Deserialize)]
struct RawRiver {
    between_ranks: [u32; 2],
}

#[derive(Deserialize)]
struct RawStart {
    fen: String,
}

#[derive(Deserialize)]
struct RawPieces {
    pieces: Vec<RawPiece>,
    #[serde(default)]
    constraints: Vec<RawConstraint>,
}

#[derive(Deserialize)]
struct RawPiece {
    id: String,
    letter: String,
    #[serde(default)]
    article: Option<String>,
    count: u32,
    zone: String,
    moves: Vec<RawMove>,
}

/// One entry of a piece's `moves:` list: the movement vocabulary. Unknown keys are an error,
/// so that a new vocabulary term is never silently ignored by the oracle.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    kind: String,
    #[serde(default)]
    vectors: Option<Vec<Vec<i64>>>,
    #[serde(default)]
    leaps: Option<Vec<RawLeap>>,
    #[serde(default)]
    directions: Option<Vec<Vec<i64>>>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    screens: Option<u32>,
    #[serde(default)]
    when: Option<String>,
    #[serde(default)]
    article: Option<String>,
    /// Prose, accepted and ignored.
    #[serde(default)]
    #[allow(dead_code)]
    text: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeap {
    to: Vec<i64>,
    #[serde(default)]
    block: Option<Vec<i64>>,
}

#[derive(Deserialize)]
struct RawConstraint {
    id: String,
    #[serde(default)]
    article: Option<String>,
    kind: String,
    #[serde(default)]
    piece: Option<String>,
}

#[derive(Deserialize)]
struct RawMaterial {
    values: Vec<RawValue>,
}

#[derive(Deserialize)]
struct RawValue {
    piece: String,
    #[serde(default)]
    when: Option<String>,
    material: bool,
    #[serde(default)]
    value: Option<serde_yaml::Value>,
    #[serde(default)]
    interpretation: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Interpreted spec
// ---------------------------------------------------------------------------------------------

/// A kind of piece, as an index into [`Spec::roles`] (0 = first entry of `pieces.yaml`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Role(pub u8);

/// Where a piece may stand (`zone:` in `pieces.yaml`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Zone {
    /// Any point.
    Anywhere,
    /// The own palace 九宮 (art. 2.2 king and advisor).
    Palace,
    /// The own half; the piece may not cross the river (art. 2.2 elephant).
    OwnHalf,
}

impl Zone {
    fn parse(s: &str) -> Option<Zone> {
        Some(match s {
            "anywhere" => Zone::Anywhere,
            "palace" => Zone::Palace,
            "own_half" => Zone::OwnHalf,
            _ => return None,
        })
    }

    /// The spec spelling.
    pub fn id(self) -> &'static str {
        match self {
            Zone::Anywhere => "anywhere",
            Zone::Palace => "palace",
            Zone::OwnHalf => "own_half",
        }
    }
}

/// When a move rule applies (`when:`), judged on the point the piece stands on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum When {
    /// Always (the default).
    Always,
    /// Only while the piece stands in its own half.
    BeforeRiver,
    /// Only while the piece stands across the river.
    AfterRiver,
}

impl When {
    fn parse(s: &str) -> Option<When> {
        Some(match s {
            "always" => When::Always,
            "before_river" => When::BeforeRiver,
            "after_river" => When::AfterRiver,
            _ => return None,
        })
    }

    /// The spec spelling.
    pub fn id(self) -> &'static str {
        match self {
            When::Always => "always",
            When::BeforeRiver => "before_river",
            When::AfterRiver => "after_river",
        }
    }
}

/// Whether a move rule may end on an empty point, on an enemy piece, or both (`mode:`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mode {
    /// To an empty point or onto an enemy piece (the default; art. 2.3).
    MoveOrCapture,
    /// Only to an empty point.
    Quiet,
    /// Only onto an enemy piece.
    Capture,
}

impl Mode {
    fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "move_or_capture" => Mode::MoveOrCapture,
            "quiet" => Mode::Quiet,
            "capture" => Mode::Capture,
            _ => return None,
        })
    }

    /// May the move end on an empty point?
    pub fn allows_quiet(self) -> bool {
        self != Mode::Capture
    }

    /// May the move end on an enemy piece?
    pub fn allows_capture(self) -> bool {
        self != Mode::Quiet
    }
}

/// A `[file, rank]` offset seen from the moving side (+rank = forward).
pub type Vector = (i32, i32);

/// One leap: the offset of the target and, optionally, the point that must be empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leap {
    /// Offset of the target point.
    pub to: Vector,
    /// Offset of the block point (horse leg, elephant eye), if any.
    pub block: Option<Vector>,
}

/// The geometry of one move rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// One step by each vector.
    Step {
        /// The step vectors.
        vectors: Vec<Vector>,
    },
    /// A jump to each `to`, forbidden when `block` is occupied.
    Leap {
        /// The leaps.
        leaps: Vec<Leap>,
    },
    /// Any number of points along each direction; with `screens > 0` exactly that many pieces
    /// must stand between the start and the captured piece, and the move is only a capture.
    Slide {
        /// The directions.
        directions: Vec<Vector>,
        /// Number of screens (砲架) required; 0 for an ordinary slide.
        screens: u32,
    },
}

/// One entry of a piece's `moves:` list, interpreted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveRule {
    /// Geometry.
    pub kind: MoveKind,
    /// Empty target, enemy target or both.
    pub mode: Mode,
    /// When the rule applies.
    pub when: When,
    /// The article cited by the entry, if any.
    pub article: Option<String>,
}

/// A kind of piece and its movement rules (one entry of `pieces.yaml`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RoleRules {
    /// Spec id, e.g. `horse`.
    pub id: String,
    /// Upper-case FEN letter, e.g. `N`.
    pub letter: char,
    /// Number of such pieces each side has at most (art. 1.2).
    pub count: u32,
    /// Where the piece may stand.
    pub zone: Zone,
    /// Movement rules, in spec order.
    pub moves: Vec<MoveRule>,
    /// The article cited by the entry.
    pub article: Option<String>,
}

/// The side-specific geometry of `board.yaml`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SideRules {
    /// The side.
    pub side: Side,
    /// FEN letters are upper case for this side.
    pub upper_case: bool,
    /// Rank direction of "forward": +1 or -1. Vectors are multiplied by it (a 180° turn for -1).
    pub forward: i32,
    /// The own half: ranks `home_ranks.0 ..= home_ranks.1`.
    pub home_ranks: (u8, u8),
    /// Palace files, inclusive.
    pub palace_files: (u8, u8),
    /// Palace ranks, inclusive.
    pub palace_ranks: (u8, u8),
    /// This side moves first (art. 2.1).
    pub moves_first: bool,
}

impl SideRules {
    /// Is `c` in this side's own half?
    pub fn in_home(&self, c: Coord) -> bool {
        (self.home_ranks.0..=self.home_ranks.1).contains(&c.rank())
    }

    /// Is `c` inside this side's palace?
    pub fn in_palace(&self, c: Coord) -> bool {
        (self.palace_files.0..=self.palace_files.1).contains(&c.file())
            && (self.palace_ranks.0..=self.palace_ranks.1).contains(&c.rank())
    }
}

/// What a constraint of `pieces.yaml` demands of every legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ConstraintKind {
    /// `no_facing`: after the move the two `piece`s (kings) may not stand on one file with
    /// nothing between them (art. 2.2, 4.1.2).
    NoFacing,
    /// `no_self_check`: after the move the mover's `piece` (king) may not be attacked
    /// (art. 3.1, 4.1.1).
    NoSelfCheck,
}

/// A constraint on legal moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Constraint {
    /// Spec id, e.g. `kings-not-facing`.
    pub id: String,
    /// What it demands.
    pub kind: ConstraintKind,
    /// The piece it protects (defaults to `king`).
    pub piece: Role,
    /// Article cited.
    pub article: Option<String>,
}

/// A material value entry of `material.yaml` (art. 25.3).
#[derive(Clone, PartialEq, Debug)]
pub struct MaterialValue {
    /// The piece.
    pub piece: Role,
    /// Only when the piece stands before/after the river.
    pub when: When,
    /// Does it count as material (子力)?
    pub material: bool,
    /// The value: a number, or `None` when absent or `floating`.
    pub value: Option<f64>,
    /// Id of the recorded interpretation, if any.
    pub interpretation: Option<String>,
}

/// A spec file the oracle knows how to read.
pub struct KnownFile {
    /// Path relative to the spec directory.
    pub path: &'static str,
    /// Must be present.
    pub required: bool,
}

/// The files the oracle interprets, in load order. Later work adds `rules/*.yaml` here.
pub const KNOWN_FILES: &[KnownFile] = &[
    KnownFile {
        path: "board.yaml",
        required: true,
    },
    KnownFile {
        path: "pieces.yaml",
        required: true,
    },
    KnownFile {
        path: "material.yaml",
        required: false,
    },
];

/// The interpreted spec: board geometry, pieces with their move rules, constraints, material.
///
/// A cheap handle (reference counted): cloning it shares the data, so every [`Board`] keeps
/// its own handle to the spec it follows.
#[derive(Clone, Debug)]
pub struct Spec {
    data: Arc<SpecData>,
}

#[derive(Clone, Debug)]
struct SpecData {
    file_names: Vec<String>,
    sides: [SideRules; 2],
    start_fen: String,
    roles: Vec<RoleRules>,
    constraints: Vec<Constraint>,
    material: Vec<MaterialValue>,
    royal: Role,
    /// `reachable[role][side][point]`
    reachable: Vec<[[bool; POINTS]; 2]>,
    /// `geometry[role][side][from]`: bit `to` set when [`Spec::could_move`]
    geometry: Vec<[[u128; POINTS]; 2]>,
    uninterpreted: Vec<PathBuf>,
}

static EMBEDDED: OnceLock<Spec> = OnceLock::new();

const EMBEDDED_BOARD: &str = include_str!("../../spec/board.yaml");
const EMBEDDED_PIECES: &str = include_str!("../../spec/pieces.yaml");
const EMBEDDED_MATERIAL: &str = include_str!("../../spec/material.yaml");

impl Spec {
    /// Is `other` a handle to the same spec data (not a copy)?
    pub(crate) fn same(&self, other: &Spec) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }

    /// The spec compiled into the crate (`include_str!` of `spec/board.yaml`, `pieces.yaml`,
    /// `material.yaml`). Parsed once.
    ///
    /// # Panics
    /// If the embedded YAML is invalid (caught by the crate's tests).
    pub fn embedded() -> &'static Spec {
        EMBEDDED.get_or_init(|| {
            Spec::from_sources(&[
                ("board.yaml", EMBEDDED_BOARD),
                ("pieces.yaml", EMBEDDED_PIECES),
                ("material.yaml", EMBEDDED_MATERIAL),
            ])
            .unwrap_or_else(|e| panic!("embedded spec is invalid: {e}"))
        })
    }

    /// Loads `board.yaml`, `pieces.yaml` and (if present) `material.yaml` from `dir`, e.g. an
    /// amended copy of `spec/`, without recompiling. Every other file below `dir` is recorded in
    /// [`Spec::uninterpreted_files`] and ignored.
    pub fn load_dir(dir: &Path) -> Result<Spec, SpecError> {
        let mut texts: Vec<(&str, String)> = Vec::new();
        for known in KNOWN_FILES {
            let path = dir.join(known.path);
            match std::fs::read_to_string(&path) {
                Ok(t) => texts.push((known.path, t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && !known.required => {}
                Err(source) => {
                    return Err(SpecError::Io {
                        file: known.path.to_string(),
                        source,
                    })
                }
            }
        }
        let sources: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let mut spec = Spec::from_sources(&sources)?;
        let mut others = Vec::new();
        list_files(dir, dir, &mut others);
        others.retain(|p| !KNOWN_FILES.iter().any(|k| Path::new(k.path) == p));
        others.sort();
        Arc::make_mut(&mut spec.data).uninterpreted = others;
        Ok(spec)
    }

    /// Builds a spec from `(file name, YAML text)` pairs; file names are those of
    /// [`KNOWN_FILES`], unknown names are ignored.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<Spec, SpecError> {
        let get = |name: &str| sources.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
        for known in KNOWN_FILES {
            if known.required && get(known.path).is_none() {
                return Err(SpecError::Io {
                    file: known.path.to_string(),
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, "missing"),
                });
            }
        }
        let board: RawBoard = parse_yaml("board.yaml", get("board.yaml").unwrap_or_default())?;
        let pieces: RawPieces = parse_yaml("pieces.yaml", get("pieces.yaml").unwrap_or_default())?;
        let material: Option<RawMaterial> = match get("material.yaml") {
            Some(t) => Some(parse_yaml("material.yaml", t)?),
            None => None,
        };

        let (file_names, sides, start_fen) = interpret_board(&board)?;
        let roles = interpret_pieces(&pieces)?;
        let role_of = |name: &str| {
            roles
                .iter()
                .position(|r| r.id == name)
                .map(|i| Role(i as u8))
        };
        let mut constraints = Vec::new();
        for c in &pieces.constraints {
            let entry = format!("constraint {}", c.id);
            let kind = match c.kind.as_str() {
                "no_facing" => ConstraintKind::NoFacing,
                "no_self_check" => ConstraintKind::NoSelfCheck,
                other => {
                    return Err(invalid(
                        "pieces.yaml",
                        entry,
                        format!(
                            "unknown constraint kind `{other}` (expected no_facing, no_self_check)"
                        ),
                    ))
                }
            };
            let name = c.piece.as_deref().unwrap_or("king");
            let piece = role_of(name)
                .ok_or_else(|| invalid("pieces.yaml", &entry, format!("unknown piece `{name}`")))?;
            constraints.push(Constraint {
                id: c.id.clone(),
                kind,
                piece,
                article: c.article.clone(),
            });
        }
        // The royal piece (帥/將) is the one protected by the constraints, else `king`.
        let royal = match constraints.first() {
            Some(c) => c.piece,
            None => role_of("king").ok_or_else(|| {
                invalid(
                    "pieces.yaml",
                    "pieces",
                    "no piece with id `king` (the royal piece)",
                )
            })?,
        };
        if let Some(c) = constraints.iter().find(|c| c.piece != royal) {
            return Err(invalid(
                "pieces.yaml",
                format!("constraint {}", c.id),
                "all constraints must protect the same royal piece",
            ));
        }

        let mut values = Vec::new();
        if let Some(m) = &material {
            for (i, v) in m.values.iter().enumerate() {
                let entry = format!("values[{i}] ({})", v.piece);
                let piece = role_of(&v.piece).ok_or_else(|| {
                    invalid(
                        "material.yaml",
                        &entry,
                        format!("unknown piece `{}`", v.piece),
                    )
                })?;
                let when = match &v.when {
                    None => When::Always,
                    Some(w) => When::parse(w).ok_or_else(|| {
                        invalid(
                            "material.yaml",
                            &entry,
                            format!("unknown `when` value `{w}`"),
                        )
                    })?,
                };
                let value = match &v.value {
                    None => None,
                    Some(serde_yaml::Value::Number(n)) => n.as_f64(),
                    Some(serde_yaml::Value::String(s)) if s == "floating" => None,
                    Some(other) => {
                        return Err(invalid(
                            "material.yaml",
                            &entry,
                            format!("value must be a number or `floating`, got {other:?}"),
                        ))
                    }
                };
                values.push(MaterialValue {
                    piece,
                    when,
                    material: v.material,
                    value,
                    interpretation: v.interpretation.clone(),
                });
            }
        }

        let mut spec = Spec {
            data: Arc::new(SpecData {
                file_names,
                sides,
                start_fen,
                reachable: vec![[[true; POINTS]; 2]; roles.len()],
                geometry: Vec::new(),
                roles,
                constraints,
                material: values,
                royal,
                uninterpreted: Vec::new(),
            }),
        };
        let geometry = (0..spec.data.roles.len())
            .map(|r| {
                Side::BOTH.map(|side| {
                    let mut masks = [0u128; POINTS];
                    for from in Coord::all() {
                        for to in spec.empty_board_targets(Role(r as u8), side, from) {
                            masks[from.index()] |= 1u128 << to.index();
                        }
                    }
                    masks
                })
            })
            .collect();
        Arc::make_mut(&mut spec.data).geometry = geometry;
        // Reachable points: flood fill from the start position (parsed without validation).
        let start = Board::from_fen_lenient(&spec, &spec.data.start_fen)
            .map_err(|e| invalid("board.yaml", "start_position", e.to_string()))?
            .0;
        let reachable = (0..spec.data.roles.len())
            .map(|r| {
                let role = Role(r as u8);
                Side::BOTH.map(|side| {
                    let starts: Vec<Coord> = start
                        .pieces()
                        .filter(|p| p.role == role && p.side == side)
                        .map(|p| p.start)
                        .collect();
                    spec.flood_fill(role, side, &starts)
                })
            })
            .collect();
        drop(start);
        Arc::make_mut(&mut spec.data).reachable = reachable;
        // Now the start position must pass the strict checks.
        Board::from_fen(&spec, &spec.data.start_fen)
            .map_err(|e| invalid("board.yaml", "start_position", e.to_string()))?;
        Ok(spec)
    }

    /// The piece kinds, in `pieces.yaml` order; index with [`Role`].
    pub fn roles(&self) -> &[RoleRules] {
        &self.data.roles
    }

    /// The rules of one piece kind.
    pub fn role(&self, role: Role) -> &RoleRules {
        &self.data.roles[role.0 as usize]
    }

    /// The piece kind with the given spec id (`horse`).
    pub fn role_by_id(&self, id: &str) -> Option<Role> {
        self.data
            .roles
            .iter()
            .position(|r| r.id == id)
            .map(|i| Role(i as u8))
    }

    /// The piece kind with the given FEN letter, either case, and the side the case names.
    pub fn role_by_letter(&self, letter: char) -> Option<(Role, Side)> {
        let up = letter.to_ascii_uppercase();
        let role = self.data.roles.iter().position(|r| r.letter == up)?;
        let side = Side::BOTH
            .into_iter()
            .find(|s| self.side(*s).upper_case == letter.is_ascii_uppercase())?;
        Some((Role(role as u8), side))
    }

    /// The FEN letter of a piece of `role` for `side`.
    pub fn letter(&self, role: Role, side: Side) -> char {
        let l = self.role(role).letter;
        if self.side(side).upper_case {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// Side geometry from `board.yaml`.
    pub fn side(&self, side: Side) -> &SideRules {
        &self.data.sides[side.index()]
    }

    /// The side that moves first (art. 2.1).
    pub fn first_mover(&self) -> Side {
        if self.data.sides[1].moves_first {
            Side::Black
        } else {
            Side::Red
        }
    }

    /// File names `a`..`i`.
    pub fn file_names(&self) -> &[String] {
        &self.data.file_names
    }

    /// The start position FEN (art. 1.3).
    pub fn start_fen(&self) -> &str {
        &self.data.start_fen
    }

    /// The constraints on legal moves (art. 2.2, 3.1).
    pub fn constraints(&self) -> &[Constraint] {
        &self.data.constraints
    }

    /// The royal piece (帥/將) that constraints protect and that check is about.
    pub fn royal(&self) -> Role {
        self.data.royal
    }

    /// Material values (art. 25.3); empty when `material.yaml` was absent.
    pub fn material(&self) -> &[MaterialValue] {
        &self.data.material
    }

    /// Files below the spec directory that this version of the oracle does not interpret
    /// (relative paths, sorted). Always empty for [`Spec::embedded`].
    pub fn uninterpreted_files(&self) -> &[PathBuf] {
        &self.data.uninterpreted
    }

    /// May a piece of `role` and `side` ever stand on `c`? Derived by flood-filling the piece's
    /// moves from its start points on an empty board (occupancy ignored, so blocks, screens and
    /// capture-only modes never prevent reaching a point).
    pub fn reachable(&self, role: Role, side: Side, c: Coord) -> bool {
        self.data.reachable[role.0 as usize][side.index()][c.index()]
    }

    /// Is `c` inside `zone` for `side`?
    pub fn in_zone(&self, zone: Zone, side: Side, c: Coord) -> bool {
        match zone {
            Zone::Anywhere => true,
            Zone::Palace => self.side(side).in_palace(c),
            Zone::OwnHalf => self.side(side).in_home(c),
        }
    }

    /// Does `when` hold for a piece of `side` standing on `c`?
    pub fn when_holds(&self, when: When, side: Side, c: Coord) -> bool {
        match when {
            When::Always => true,
            When::BeforeRiver => self.side(side).in_home(c),
            When::AfterRiver => !self.side(side).in_home(c),
        }
    }

    /// Turns a side-relative vector into an absolute board offset (Black's turn 180°).
    pub fn absolute(&self, side: Side, v: Vector) -> (i32, i32) {
        let f = self.side(side).forward;
        (v.0 * f, v.1 * f)
    }

    /// Could a piece of `role` and `side` standing on `from` ever move to `to` by its
    /// movement rules, whatever stands on the board? (Occupancy is ignored: blocks, screens
    /// and modes can only remove moves.) Used to skip hopeless pieces in attack tests.
    pub fn could_move(&self, role: Role, side: Side, from: Coord, to: Coord) -> bool {
        self.data.geometry[role.0 as usize][side.index()][from.index()] & (1u128 << to.index()) != 0
    }

    /// The points a piece of `role` and `side` on `from` could move to on an empty board,
    /// ignoring blocks, screens and modes (every slide point beyond `screens` points counts).
    fn empty_board_targets(&self, role: Role, side: Side, from: Coord) -> Vec<Coord> {
        let rules = self.role(role);
        let mut targets = Vec::new();
        for rule in &rules.moves {
            if !self.when_holds(rule.when, side, from) {
                continue;
            }
            match &rule.kind {
                MoveKind::Step { vectors } => {
                    for v in vectors {
                        let (df, dr) = self.absolute(side, *v);
                        targets.extend(from.offset(df, dr));
                    }
                }
                MoveKind::Leap { leaps } => {
                    for l in leaps {
                        let (df, dr) = self.absolute(side, l.to);
                        targets.extend(from.offset(df, dr));
                    }
                }
                MoveKind::Slide {
                    directions,
                    screens,
                } => {
                    for d in directions {
                        let (df, dr) = self.absolute(side, *d);
                        let mut p = from;
                        let mut dist = 0;
                        while let Some(n) = p.offset(df, dr) {
                            dist += 1;
                            if dist > *screens {
                                targets.push(n);
                            }
                            p = n;
                        }
                    }
                }
            }
        }
        targets.retain(|t| self.in_zone(rules.zone, side, *t));
        targets
    }

    /// Flood fill of [`Spec::empty_board_targets`] from `starts`.
    fn flood_fill(&self, role: Role, side: Side, starts: &[Coord]) -> [bool; POINTS] {
        let mut seen = [false; POINTS];
        let mut todo: Vec<Coord> = starts.to_vec();
        for s in starts {
            seen[s.index()] = true;
        }
        while let Some(c) = todo.pop() {
            for t in self.empty_board_targets(role, side, c) {
                if !seen[t.index()] {
                    seen[t.index()] = true;
                    todo.push(t);
                }
            }
        }
        seen
    }
}

fn list_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            list_files(root, &p, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
    }
}

type BoardParts = (Vec<String>, [SideRules; 2], String);

fn interpret_board(b: &RawBoard) -> Result<BoardParts, SpecError> {
    const F: &str = "board.yaml";
    if b.files != FILES as u32 || b.ranks != RANKS as u32 {
        return Err(invalid(
            F,
            "files/ranks",
            format!(
                "the oracle's mailbox is 9 files x 10 ranks, the spec says {} x {}",
                b.files, b.ranks
            ),
        ));
    }
    if b.file_names.len() != FILES as usize {
        return Err(invalid(F, "file_names", "there must be 9 file names"));
    }
    let file_index = |name: &str, entry: &str| {
        b.file_names
            .iter()
            .position(|n| n == name)
            .map(|i| i as u8)
            .ok_or_else(|| invalid(F, entry, format!("unknown file `{name}`")))
    };
    let rank = |r: u32, entry: &str| {
        if r < RANKS as u32 {
            Ok(r as u8)
        } else {
            Err(invalid(
                F,
                entry,
                format!("rank {r} is off the board (0..9)"),
            ))
        }
    };
    let mut out: [Option<SideRules>; 2] = [None, None];
    for s in &b.sides {
        let entry = format!("side {}", s.id);
        let side = match s.id.as_str() {
            "red" => Side::Red,
            "black" => Side::Black,
            other => {
                return Err(invalid(
                    F,
                    entry,
                    format!("unknown side `{other}` (expected red, black)"),
                ))
            }
        };
        if out[side.index()].is_some() {
            return Err(invalid(F, entry, "side listed twice"));
        }
        let upper_case = match s.fen_case.as_str() {
            "upper" => true,
            "lower" => false,
            other => {
                return Err(invalid(
                    F,
                    entry,
                    format!("fen_case must be upper or lower, got `{other}`"),
                ))
            }
        };
        if s.forward != 1 && s.forward != -1 {
            return Err(invalid(F, entry, "forward must be 1 or -1"));
        }
        let home = (
            rank(s.home_ranks[0], &entry)?,
            rank(s.home_ranks[1], &entry)?,
        );
        let pf = (
            file_index(&s.palace.files[0], &entry)?,
            file_index(&s.palace.files[1], &entry)?,
        );
        let pr = (
            rank(s.palace.ranks[0], &entry)?,
            rank(s.palace.ranks[1], &entry)?,
        );
        if home.0 > home.1 || pf.0 > pf.1 || pr.0 > pr.1 {
            return Err(invalid(F, entry, "ranges must be written low to high"));
        }
        out[side.index()] = Some(SideRules {
            side,
            upper_case,
            forward: s.forward,
            home_ranks: home,
            palace_files: pf,
            palace_ranks: pr,
            moves_first: s.moves_first,
        });
    }
    let [Some(red), Some(black)] = out else {
        return Err(invalid(
            F,
            "sides",
            "both sides red and black must be listed",
        ));
    };
    if red.upper_case == black.upper_case || red.forward == black.forward {
        return Err(invalid(
            F,
            "sides",
            "the sides need different fen_case and opposite forward",
        ));
    }
    if red.moves_first == black.moves_first {
        return Err(invalid(
            F,
            "sides",
            "exactly one side must have moves_first: true",
        ));
    }
    let [lo, hi] = b.river.between_ranks;
    if hi != lo + 1 || hi >= RANKS as u32 {
        return Err(invalid(
            F,
            "river",
            "between_ranks must be two adjacent ranks",
        ));
    }
    // The river separates the two home halves.
    for side in [&red, &black] {
        let (a, z) = side.home_ranks;
        let ok =
            (a as u32 == 0 && z as u32 == lo) || (a as u32 == hi && z as u32 == RANKS as u32 - 1);
        if !ok {
            return Err(invalid(
                F,
                format!("side {}", side.side),
                "home_ranks must run from a back rank to the river",
            ));
        }
    }
    Ok((
        b.file_names.clone(),
        [red, black],
        b.start_position.fen.clone(),
    ))
}

fn vector(v: &[i64], file: &str, entry: &str, what: &str) -> Result<Vector, SpecError> {
    match v {
        [f, r] if f.abs() <= 9 && r.abs() <= 9 => Ok((*f as i32, *r as i32)),
        _ => Err(invalid(
            file,
            entry,
            format!("bad {what} {v:?}: expected [file, rank] with components in -9..=9"),
        )),
    }
}

fn nonzero(v: Vector, file: &str, entry: &str, what: &str) -> Result<Vector, SpecError> {
    if v == (0, 0) {
        Err(invalid(file, entry, format!("{what} [0, 0] does not move")))
    } else {
        Ok(v)
    }
}

fn interpret_pieces(p: &RawPieces) -> Result<Vec<RoleRules>, SpecError> {
    const F: &str = "pieces.yaml";
    let mut roles: Vec<RoleRules> = Vec::new();
    let mut letters: BTreeMap<char, String> = BTreeMap::new();
    if p.pieces.is_empty() || p.pieces.len() > 64 {
        return Err(invalid(F, "pieces", "expected 1..=64 pieces"));
    }
    for piece in &p.pieces {
        let entry = format!("piece {}", piece.id);
        if roles.iter().any(|r| r.id == piece.id) {
            return Err(invalid(F, entry, "duplicate piece id"));
        }
        let mut chars = piece.letter.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(invalid(
                    F,
                    entry,
                    format!(
                        "letter must be one upper-case ASCII letter, got `{}`",
                        piece.letter
                    ),
                ))
            }
        };
        if let Some(other) = letters.insert(letter, piece.id.clone()) {
            return Err(invalid(
                F,
                entry,
                format!("letter {letter} already used by {other}"),
            ));
        }
        let zone = Zone::parse(&piece.zone).ok_or_else(|| {
            invalid(
                F,
                &entry,
                format!(
                    "unknown zone `{}` (expected anywhere, palace, own_half)",
                    piece.zone
                ),
            )
        })?;
        if piece.moves.is_empty() {
            return Err(invalid(F, entry, "no moves"));
        }
        let mut moves = Vec::new();
        for (i, m) in piece.moves.iter().enumerate() {
            let entry = format!("piece {}, move {}", piece.id, i + 1);
            moves.push(interpret_move(m, &entry)?);
        }
        roles.push(RoleRules {
            id: piece.id.clone(),
            letter,
            count: piece.count,
            zone,
            moves,
            article: piece.article.clone(),
        });
    }
    Ok(roles)
}

fn interpret_move(m: &RawMove, entry: &str) -> Result<MoveRule, SpecError> {
    const F: &str = "pieces.yaml";
    let mode = match &m.mode {
        None => Mode::MoveOrCapture,
        Some(s) => Mode::parse(s).ok_or_else(|| {
            invalid(
                F,
                entry,
                format!("unknown mode `{s}` (expected move_or_capture, quiet, capture)"),
            )
        })?,
    };
    let when = match &m.when {
        None => When::Always,
        Some(s) => When::parse(s).ok_or_else(|| {
            invalid(
                F,
                entry,
                format!("unknown when `{s}` (expected always, before_river, after_river)"),
            )
        })?,
    };
    let only = |allowed: &[&str]| -> Result<(), SpecError> {
        let present = [
            ("vectors", m.vectors.is_some()),
            ("leaps", m.leaps.is_some()),
            ("directions", m.directions.is_some()),
            ("screens", m.screens.is_some()),
        ];
        for (name, is) in present {
            if is && !allowed.contains(&name) {
                return Err(invalid(
                    F,
                    entry,
                    format!("`{name}` does not belong to a {} move", m.kind),
                ));
            }
        }
        Ok(())
    };
    let vectors = |list: &Option<Vec<Vec<i64>>>, what: &str| -> Result<Vec<Vector>, SpecError> {
        let list = list
            .as_ref()
            .ok_or_else(|| invalid(F, entry, format!("a {} move needs `{what}`", m.kind)))?;
        if list.is_empty() {
            return Err(invalid(F, entry, format!("`{what}` is empty")));
        }
        list.iter()
            .map(|v| nonzero(vector(v, F, entry, "vector")?, F, entry, "vector"))
            .collect()
    };
    let kind = match m.kind.as_str() {
        "step" => {
            only(&["vectors"])?;
            MoveKind::Step {
                vectors: vectors(&m.vectors, "vectors")?,
            }
        }
        "leap" => {
            only(&["leaps"])?;
            let raw = m
                .leaps
                .as_ref()
                .ok_or_else(|| invalid(F, entry, "a leap move needs `leaps`"))?;
            if raw.is_empty() {
                return Err(invalid(F, entry, "`leaps` is empty"));
            }
            let mut leaps = Vec::new();
            for l in raw {
                let to = nonzero(
                    vector(&l.to, F, entry, "leap target")?,
                    F,
                    entry,
                    "leap target",
                )?;
                let block = match &l.block {
                    None => None,
                    Some(b) => {
                        let b =
                            nonzero(vector(b, F, entry, "block point")?, F, entry, "block point")?;
                        if b == to {
                            return Err(invalid(F, entry, "the block point is the target"));
                        }
                        Some(b)
                    }
                };
                leaps.push(Leap { to, block });
            }
            MoveKind::Leap { leaps }
        }
        "slide" => {
            only(&["directions", "screens"])?;
            let directions = vectors(&m.directions, "directions")?;
            let screens = m.screens.unwrap_or(0);
            if screens > 0 && mode == Mode::Quiet {
                return Err(invalid(
                    F,
                    entry,
                    "a slide with screens is a capture; `mode: quiet` contradicts it",
                ));
            }
            MoveKind::Slide {
                directions,
                screens,
            }
        }
        other => {
            return Err(invalid(
                F,
                entry,
                format!("unknown move kind `{other}` (expected step, leap, slide)"),
            ))
        }
    };
    // A slide with screens is only a capture (vocabulary of pieces.yaml).
    let mode = match kind {
        MoveKind::Slide { screens, .. } if screens > 0 => Mode::Capture,
        _ => mode,
    };
    Ok(MoveRule {
        kind,
        mode,
        when,
        article: m.article.clone(),
    })
}

impl fmt::Display for Role {
    /// The index, e.g. `3`; use [`Spec::role`] for the name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "role#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_reachable(spec: &Spec, id: &str, side: Side) -> usize {
        let role = spec.role_by_id(id).unwrap();
        Coord::all()
            .filter(|c| spec.reachable(role, side, *c))
            .count()
    }

    #[test]
    fn embedded_spec_loads() {
        let spec = Spec::embedded();
        assert_eq!(spec.roles().len(), 7);
        assert_eq!(spec.role(spec.royal()).id, "king");
        assert_eq!(spec.first_mover(), Side::Red);
        assert_eq!(spec.constraints().len(), 2);
        assert_eq!(spec.material().len(), 8);
        let cannon = spec.role(spec.role_by_id("cannon").unwrap());
        assert_eq!(cannon.moves[1].mode, Mode::Capture);
        assert_eq!(
            spec.role_by_letter('n'),
            Some((spec.role_by_id("horse").unwrap(), Side::Black))
        );
    }

    #[test]
    fn reachability_is_derived_from_the_moves() {
        let spec = Spec::embedded();
        for side in Side::BOTH {
            assert_eq!(count_reachable(spec, "king", side), 9);
            assert_eq!(count_reachable(spec, "advisor", side), 5);
            assert_eq!(count_reachable(spec, "elephant", side), 7);
            // 5 points on each of the two ranks before the river, 45 across it.
            assert_eq!(count_reachable(spec, "pawn", side), 55);
            assert_eq!(count_reachable(spec, "horse", side), 90);
            assert_eq!(count_reachable(spec, "rook", side), 90);
            assert_eq!(count_reachable(spec, "cannon", side), 90);
        }
        let e = spec.role_by_id("elephant").unwrap();
        assert!(spec.reachable(e, Side::Black, Coord::new(6, 5).unwrap()));
        assert!(!spec.reachable(e, Side::Black, Coord::new(6, 4).unwrap()));
    }

    #[test]
    fn black_vectors_are_rotated() {
        let spec = Spec::embedded();
        assert_eq!(spec.absolute(Side::Red, (1, 2)), (1, 2));
        assert_eq!(spec.absolute(Side::Black, (1, 2)), (-1, -2));
        let pawn = spec.role_by_id("pawn").unwrap();
        let e6 = Coord::new(4, 6).unwrap();
        let e5 = Coord::new(4, 5).unwrap();
        assert!(spec.could_move(pawn, Side::Black, e6, e5));
        assert!(!spec.could_move(pawn, Side::Red, e6, e5));
    }
}
