//! The shapes of the files the tooling reads beyond what the oracle interprets: worked examples
//! (`examples/<dir>/<name>.yaml`, fields in `spec/examples/README.md`), the AXF item index
//! (`examples/axf/items.yaml`) and the move classes (`rules/terms.yaml`).
//!
//! Unknown fields are rejected (`deny_unknown_fields`) where the README fixes the fields, so a
//! misspelt field name is reported at its line instead of being silently ignored. Free-form
//! annotations (`source`, `verified`, `engine_rulings`, ...) are kept as YAML values.
//!
//! Many fields are read only by the schema check (their presence and type) and by the
//! repetition judge, not by the diagrams or the index; hence `dead_code` is allowed here.

#![allow(dead_code)]

use serde::Deserialize;
use serde_yaml::Value;

/// A side, as written in the example files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    /// 紅.
    Red,
    /// 黑.
    Black,
}

impl SideId {
    /// `red` / `black`.
    pub fn id(self) -> &'static str {
        match self {
            SideId::Red => "red",
            SideId::Black => "black",
        }
    }

    /// The other side.
    pub fn opponent(self) -> SideId {
        match self {
            SideId::Red => SideId::Black,
            SideId::Black => SideId::Red,
        }
    }
}

/// Where an example's position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionSource {
    /// Read from the rule book's own diagram.
    Official,
    /// A 1999 example placed in the position of the 2011 figure with the same moves.
    #[serde(rename = "from_2011")]
    From2011,
    /// Built here (see `construction_note`).
    Constructed,
    /// AXF/WXF cases transcribed by a third party.
    ThirdPartyTranscription,
}

impl PositionSource {
    /// The id as written in the files.
    pub fn id(self) -> &'static str {
        match self {
            PositionSource::Official => "official",
            PositionSource::From2011 => "from_2011",
            PositionSource::Constructed => "constructed",
            PositionSource::ThirdPartyTranscription => "third_party_transcription",
        }
    }
}

/// The ruling after `moves_full`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RulingId {
    /// Red loses.
    RedLoses,
    /// Black loses.
    BlackLoses,
    /// Draw.
    Draw,
}

impl RulingId {
    /// The id as written in the files.
    pub fn id(&self) -> &'static str {
        match self {
            RulingId::RedLoses => "red_loses",
            RulingId::BlackLoses => "black_loses",
            RulingId::Draw => "draw",
        }
    }
}

/// `expected:` of an example.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The ruling, or null when nothing is decided.
    pub ruling: Option<RulingId>,
    /// The side that must vary (變著).
    pub must_change: Option<SideId>,
    /// Outright result (true) or must-change ruling (false).
    pub immediate: Option<bool>,
    /// Red's pattern name (`patterns` of the rule set).
    pub red_pattern: Option<String>,
    /// Black's pattern name.
    pub black_pattern: Option<String>,
    /// 2011 both-forbidden figures: the article that decides (`26.8.1`).
    #[serde(default)]
    pub decided_by: Option<String>,
    /// AXF: when the ruling is made.
    #[serde(default)]
    pub judged_at: Option<String>,
    /// Game ends other than a repetition (AXF 第四節 1, 2): `red_wins` / `black_wins` / `draw`.
    #[serde(default)]
    pub result: Option<String>,
    /// Ids of articles the judgement must cite.
    #[serde(default)]
    pub articles: Vec<String>,
}

/// `cycle:` of an example.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cycle {
    /// Length of the repeated cycle in plies.
    pub plies: u32,
    /// 2011: first ply of the cycle, 1-based.
    #[serde(default)]
    pub first_ply: Option<u32>,
    /// Does the cycle bring back the start position?
    pub returns_to_start: bool,
}

/// One entry of `classes:` (the printed class of one ply).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrintedClass {
    /// 1-based ply.
    pub ply: usize,
    /// The side that plays it.
    pub side: SideId,
    /// The move in ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move as printed in Chinese notation.
    pub cn: String,
    /// The class in Chinese (將 殺 捉 閒 兑 獻 攔 跟).
    pub zh: String,
    /// The machine name of the class (`rules/terms.yaml`).
    pub class: String,
    /// 1999: where the class comes from (`stated`, `implied`, `order_from_2011`).
    #[serde(default)]
    pub basis: Option<String>,
    /// Whether the move gives check (computed).
    pub gives_check: bool,
}

/// One worked example (`examples/<dir>/<name>.yaml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// `<dir>/<file name>`.
    pub id: String,
    /// Figure as printed (CXA).
    #[serde(default)]
    pub figure: Option<String>,
    /// 1999: 棋例細則 item number.
    #[serde(default)]
    pub rule_item: Option<u32>,
    /// Ids of the rule entries the example illustrates.
    #[serde(default)]
    pub rule_ids: Vec<String>,
    /// Why `rule_ids` is as it is, where that needs saying.
    #[serde(default)]
    pub rule_ids_note: Option<String>,
    /// Rule set to judge with (`rules/<rules>.yaml`).
    pub rules: String,
    /// Where the FEN comes from.
    pub position: PositionSource,
    /// Start position.
    pub fen: String,
    /// Side to move in the FEN.
    pub side_to_move: SideId,
    /// The printed moves in ICCS.
    pub moves: Vec<String>,
    /// The printed moves in Chinese notation (CXA).
    #[serde(default)]
    pub moves_cn: Option<Vec<String>>,
    /// The printed moves in WXF notation (AXF items).
    #[serde(default)]
    pub moves_wxf: Option<Vec<String>>,
    /// AXF training cases: moves appended to `moves` to reach the third occurrence.
    #[serde(default)]
    pub moves_appended: Option<Vec<String>>,
    /// The full sequence to feed a judge.
    pub moves_full: Vec<String>,
    /// Where the move order comes from when not printed as a list.
    #[serde(default)]
    pub moves_from: Option<String>,
    /// The repeated cycle.
    #[serde(default)]
    pub cycle: Option<Cycle>,
    /// The ruling after `moves_full`.
    pub expected: Expected,
    /// 2011 only: what the 1999 ruling table would give.
    #[serde(default)]
    pub ruling_1999_table: Option<Value>,
    /// Where the printed classes come from.
    #[serde(default)]
    pub classes_from: Option<String>,
    /// Remark on the classes.
    #[serde(default)]
    pub classes_note: Option<String>,
    /// The printed class of each ply of `moves` (null for AXF).
    #[serde(default)]
    pub classes: Option<Vec<PrintedClass>>,
    /// 2011 figures decided by 26.8: what each side's chases target.
    #[serde(default)]
    pub chase_qualifiers: Option<Value>,
    /// 1999 fig15/fig16 annotation.
    #[serde(default)]
    pub defensive_key_point: Option<Value>,
    /// Articles the example illustrates.
    #[serde(default)]
    pub articles: Vec<String>,
    /// 1999: the rule sentence as printed.
    #[serde(default)]
    pub rule_sentence_zh: Option<String>,
    /// 1999: the explanation as printed.
    #[serde(default)]
    pub explanation_zh: Option<String>,
    /// 2011: the printed verdict phrase.
    #[serde(default)]
    pub verdict_phrase_zh: Option<String>,
    /// 2011: summary of the figure's reasoning.
    #[serde(default)]
    pub key_point_en: Option<String>,
    /// AXF training cases: the source suite's comment.
    #[serde(default)]
    pub label: Option<String>,
    /// AXF training cases: engines' expectations.
    #[serde(default)]
    pub engine_rulings: Option<Value>,
    /// AXF training cases: whether the engines agree.
    #[serde(default)]
    pub engines_agree: Option<bool>,
    /// AXF diagrams the case illustrates.
    #[serde(default)]
    pub axf_diagrams: Option<Vec<u32>>,
    /// AXF detail items the case illustrates.
    #[serde(default)]
    pub axf_items: Option<Vec<u32>>,
    /// How the AXF mapping was found.
    #[serde(default)]
    pub item_mapping: Option<String>,
    /// Source of the example.
    #[serde(default)]
    pub source: Option<Value>,
    /// How a constructed position was built.
    #[serde(default)]
    pub construction_note: Option<String>,
    /// Remarks.
    #[serde(default)]
    pub note: Option<String>,
    /// Problems with the FEN noted by the transcriber (e.g. a piece on a point it can never
    /// reach); each one excuses one failed FEN validation.
    #[serde(default)]
    pub fen_problems: Option<Vec<String>>,
    /// What was checked with other tools.
    #[serde(default)]
    pub verified: Option<Value>,
    /// Where the oracle's judge still disagrees with the printed ruling or classes: why.
    #[serde(default)]
    pub known_disagreement: Option<String>,
}

impl Example {
    /// The side that plays ply `ply` (1-based) of `moves`.
    pub fn mover(&self, ply: usize) -> SideId {
        if ply % 2 == 1 {
            self.side_to_move
        } else {
            self.side_to_move.opponent()
        }
    }
}

/// `examples/axf/items.yaml`: for each AXF detail item, the examples that cover it.
#[derive(Clone, Debug, Deserialize)]
pub struct ItemIndex {
    /// The items.
    pub items: Vec<Item>,
}

/// One AXF detail item of the index.
#[derive(Clone, Debug, Deserialize)]
pub struct Item {
    /// Item number.
    pub item: u32,
    /// `axf.detail.N`.
    pub rule_id: String,
    /// Example ids (`axf/<file>`).
    #[serde(default)]
    pub covered_by: Vec<String>,
}

/// `rules/terms.yaml` (the parts the tooling uses).
#[derive(Clone, Debug, Deserialize)]
pub struct Terms {
    /// The move classes, in severity order.
    pub classes: Vec<TermClass>,
}

/// One move class.
#[derive(Clone, Debug, Deserialize)]
pub struct TermClass {
    /// Stable id.
    pub id: String,
    /// Machine name (`check`, `kill`, ...).
    pub name: String,
    /// Name in the rule book (traditional).
    pub zh_name: String,
    /// Simplified name where it differs.
    #[serde(default)]
    pub zh_simplified: Option<String>,
    /// Is the class an attack (打)?
    pub attack: bool,
}
