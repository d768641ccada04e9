//! Serde mirror of `spec/board.yaml`, `spec/pieces.yaml` and `spec/material.yaml`.
//!
//! Free-form vocabulary fields (zones, modes, vectors, ...) are kept as plain strings and
//! integer lists here so that [`crate::load`] can report semantic mistakes with their location
//! rather than as generic deserialisation errors.

use serde::Deserialize;
use std::collections::BTreeMap;

/// `spec/board.yaml`: the board (棋盤), the sides and the start position.
#[derive(Clone, Debug, Deserialize)]
pub struct BoardFile {
    /// Always `board`.
    pub id: String,
    /// Article of the rules this file follows.
    pub article: String,
    /// Prose of the article.
    #[serde(default)]
    pub text: String,
    /// Number of files (must be 9).
    pub files: i64,
    /// Number of ranks (must be 10).
    pub ranks: i64,
    /// Names of the files from Red's left.
    pub file_names: Vec<String>,
    /// The two sides.
    pub sides: Vec<SideSpec>,
    /// The river (河界).
    pub river: RiverSpec,
    /// The start position (art. 1.3).
    pub start_position: StartPosition,
}

/// One side in `board.yaml`.
#[derive(Clone, Debug, Deserialize)]
pub struct SideSpec {
    /// `red` or `black`.
    pub id: String,
    /// Article.
    #[serde(default)]
    pub article: String,
    /// Names in several scripts.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// `upper` or `lower`.
    pub fen_case: String,
    /// +1 or -1: the rank direction of "forward".
    pub forward: i64,
    /// First and last rank of the own half.
    pub home_ranks: Vec<i64>,
    /// The palace (九宮).
    pub palace: PalaceSpec,
    /// Whether this side moves first.
    #[serde(default)]
    pub moves_first: bool,
}

/// A palace rectangle.
#[derive(Clone, Debug, Deserialize)]
pub struct PalaceSpec {
    /// First and last file name.
    pub files: Vec<String>,
    /// First and last rank.
    pub ranks: Vec<i64>,
}

/// The river.
#[derive(Clone, Debug, Deserialize)]
pub struct RiverSpec {
    /// Article.
    #[serde(default)]
    pub article: String,
    /// The two ranks the river lies between.
    pub between_ranks: Vec<i64>,
}

/// The start position.
#[derive(Clone, Debug, Deserialize)]
pub struct StartPosition {
    /// Article.
    #[serde(default)]
    pub article: String,
    /// FEN of the start position.
    pub fen: String,
}

/// `spec/pieces.yaml`.
#[derive(Clone, Debug, Deserialize)]
pub struct PiecesFile {
    /// The seven pieces.
    pub pieces: Vec<PieceSpec>,
    /// Other names per piece id.
    #[serde(default)]
    pub name_variants: BTreeMap<String, Vec<String>>,
    /// Global constraints (facing kings, no self-check); kept loosely typed.
    #[serde(default)]
    pub constraints: Vec<serde_yaml::Value>,
}

/// One piece kind.
#[derive(Clone, Debug, Deserialize)]
pub struct PieceSpec {
    /// `king`, `advisor`, ...
    pub id: String,
    /// FEN letter (upper case).
    pub letter: String,
    /// Article.
    #[serde(default)]
    pub article: String,
    /// English name.
    #[serde(default)]
    pub en: String,
    /// Names per side.
    #[serde(default)]
    pub names: BTreeMap<String, BTreeMap<String, String>>,
    /// How many each side has at most.
    pub count: i64,
    /// Where the piece may stand: `anywhere`, `palace`, `own_half`.
    #[serde(default)]
    pub zone: Option<String>,
    /// The ways it moves.
    pub moves: Vec<MoveSpec>,
}

/// One movement rule.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveSpec {
    /// `step`, `leap` or `slide`.
    pub kind: String,
    /// Step vectors `[file, rank]`.
    #[serde(default)]
    pub vectors: Option<Vec<Vec<i64>>>,
    /// Leaps with their block points.
    #[serde(default)]
    pub leaps: Option<Vec<LeapSpec>>,
    /// Slide directions.
    #[serde(default)]
    pub directions: Option<Vec<Vec<i64>>>,
    /// `move_or_capture` (default), `quiet`, `capture`.
    #[serde(default)]
    pub mode: Option<String>,
    /// For slides: number of pieces to jump (cannon capture: 1).
    #[serde(default)]
    pub screens: Option<i64>,
    /// `always` (default), `before_river`, `after_river`.
    #[serde(default)]
    pub when: Option<String>,
    /// Per-rule zone overriding the piece's.
    #[serde(default)]
    pub zone: Option<String>,
    /// Article.
    #[serde(default)]
    pub article: Option<String>,
}

/// One leap: target vector and the point that must be empty.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeapSpec {
    /// Target offset.
    pub to: Vec<i64>,
    /// Block point offset (horse leg 馬腿, elephant eye 象眼).
    pub block: Vec<i64>,
}

/// `spec/material.yaml`: material (子力) and values, art. 25.3.
#[derive(Clone, Debug, Deserialize)]
pub struct MaterialFile {
    /// Article.
    pub article: String,
    /// Prose.
    #[serde(default)]
    pub text: String,
    /// Values per piece (and condition).
    pub values: Vec<MaterialValue>,
    /// Readings beyond the article's text.
    #[serde(default)]
    pub interpretations: Vec<Interpretation>,
}

/// One value entry.
#[derive(Clone, Debug, Deserialize)]
pub struct MaterialValue {
    /// Piece id.
    pub piece: String,
    /// `before_river` / `after_river`, when the entry only applies then.
    #[serde(default)]
    pub when: Option<String>,
    /// Whether it counts as material (子力).
    pub material: bool,
    /// A number, or `floating`.
    #[serde(default)]
    pub value: Option<serde_yaml::Value>,
    /// Id of an interpretation entry.
    #[serde(default)]
    pub interpretation: Option<String>,
}

/// An interpretation entry.
#[derive(Clone, Debug, Deserialize)]
pub struct Interpretation {
    /// Id referenced from values.
    pub id: String,
    /// Article.
    #[serde(default)]
    pub article: String,
    /// The reading.
    #[serde(default)]
    pub reading: String,
    /// Why.
    #[serde(default)]
    pub why: String,
}
