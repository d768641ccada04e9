//! Judging with either engine and one vocabulary in every mode: the part of `xqrules judge`
//! that any program can call. A [`Judge`] is the fast engine's compiled rule set or the
//! oracle's (with a spec read at run time); every judgement comes out as the same JSON
//! contract ([`contract`]: the engine's fields, then `moves_after_end` and `spec_hash`), from a
//! FEN and moves ([`Judge::moves`]), a batch line ([`batch_case`]) or a game record
//! ([`Judge::game`]).
//!
//! ```
//! use xiangqi_rules::judging::{load_example, Judge};
//! use xiangqi_rules::RankConvention;
//! let ex = load_example("cxa-1999/fig03").unwrap();
//! let judge = Judge::fast(&ex.rules).unwrap();
//! let j = judge.moves(Some(&ex.fen), &ex.moves, RankConvention::Iccs, false, true).unwrap();
//! assert_eq!(j.json["ruling"], "red_loses");
//! assert_eq!(j.json["moves_after_end"], 0);
//! assert_eq!(j.json["spec_hash"], xiangqi_rules::builtin_spec::HASH);
//! assert!(j.text.contains("Ruling"));
//! ```

use std::path::Path;

use serde_json::Value;
use xiangqi_oracle::judge::RuleSet;
use xiangqi_oracle::{Board, OMove, Spec};

use crate::judge::{Builtin, BUILTIN_RULE_SETS};
use crate::record::{GameRecord, GameResult};
use crate::RankConvention;

/// The rule set of every mode when neither the caller nor an example names one.
pub const DEFAULT_RULES: &str = "cxa-1999";

// `EXAMPLES`: every bundled worked example (`spec/examples/<dir>/<name>.yaml`), by id; generated
// by build.rs (xiangqi_spec::examples::examples_table).
include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// What a bundled worked example provides to judge it.
#[derive(Debug, Clone)]
pub struct Example {
    /// Its rule set id.
    pub rules: String,
    /// Its start position.
    pub fen: String,
    /// Its `moves_full`, in ICCS.
    pub moves: Vec<String>,
}

/// The bundled worked example `id` (`cxa-1999/fig03`, `axf/O46`, ...), or an error naming the
/// known ones.
pub fn load_example(id: &str) -> Result<Example, String> {
    let text = EXAMPLES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            format!(
                "unknown example {id:?} (known: {})",
                EXAMPLES
                    .iter()
                    .map(|(i, _)| *i)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let y: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| format!("example {id}: {e}"))?;
    let field = |k: &str| {
        y.get(k)
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("example {id}: no field {k}"))
    };
    let moves = y
        .get("moves_full")
        .and_then(|v| v.as_sequence())
        .ok_or_else(|| format!("example {id}: no moves_full"))?
        .iter()
        .filter_map(|m| m.as_str().map(str::to_string))
        .collect();
    Ok(Example {
        rules: field("rules")?,
        fen: field("fen")?,
        moves,
    })
}

/// Splits a move list written with spaces or commas.
pub fn split_moves(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// One judgement: the JSON contract, the explanation (empty unless asked for), and notes about
/// what a lenient FEN did not check.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The JSON contract.
    pub json: Value,
    /// The explanation in English.
    pub text: String,
    /// The checks a lenient FEN relaxed.
    pub notes: Vec<String>,
}

/// The judge of a command: the fast engine's compiled rule set, or the oracle with its rule
/// set, spec and the spec's hash.
pub enum Judge {
    /// The oracle, with its spec (embedded or `--spec DIR`) and that spec's hash.
    Oracle(Box<(RuleSet, Spec, String)>),
    /// The fast engine's compiled rule set.
    Fast(&'static crate::judge::RuleSet),
}

/// The JSON contract of a judgement of `total` moves: the engine's fields, then
/// `moves_after_end` and `spec_hash`.
pub fn contract(j: Value, total: usize, hash: &str) -> Value {
    let mut j = j;
    let ply = j.get("ply").and_then(Value::as_u64).unwrap_or(0) as usize;
    if let Value::Object(map) = &mut j {
        map.insert(
            "moves_after_end".to_string(),
            Value::from(total.saturating_sub(ply)),
        );
        map.insert("spec_hash".to_string(), Value::from(hash));
    }
    j
}

/// Move texts in `ranks` as ICCS (ranks 0-9); an error names the move's number (from 1).
pub fn to_iccs(texts: &[String], ranks: RankConvention) -> Result<Vec<String>, String> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            crate::Move::parse_iccs(t, ranks)
                .map(|m| m.to_iccs(crate::RankConvention::Iccs))
                .map_err(|e| format!("move {} {t:?}: {e}", i + 1))
        })
        .collect()
}

impl Judge {
    /// Judges `texts` (in `ranks`) from `fen` (default: the start position): the JSON contract
    /// and, when `explain`, the explanation.
    pub fn moves(
        &self,
        fen: Option<&str>,
        texts: &[String],
        ranks: RankConvention,
        lenient: bool,
        explain: bool,
    ) -> Result<Judged, String> {
        let texts = to_iccs(texts, ranks)?;
        let mut notes = Vec::new();
        match self {
            Judge::Oracle(rs) => {
                let (rules, spec, hash) = &**rs;
                let start = match fen {
                    None => Board::start(spec),
                    Some(f) if lenient => {
                        let (board, relaxed) = Board::from_fen_lenient(spec, f)
                            .map_err(|e| format!("bad FEN: {e}"))?;
                        for r in relaxed {
                            notes.push(format!("lenient FEN, not checked: {}", r.violation));
                        }
                        board
                    }
                    Some(f) => Board::from_fen(spec, f).map_err(|e| format!("bad FEN: {e}"))?,
                };
                let moves: Vec<OMove> = texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        OMove::parse_iccs(t).map_err(|e| format!("move {} {t:?}: {e}", i + 1))
                    })
                    .collect::<Result<_, _>>()?;
                let j = xiangqi_oracle::judge::judge(rules, &start, &moves)
                    .map_err(|e| e.to_string())?;
                let text = if explain {
                    xiangqi_oracle::judge::explain(&j, &start)
                } else {
                    String::new()
                };
                let value = serde_json::to_value(&j).map_err(|e| e.to_string())?;
                Ok(Judged {
                    json: contract(value, texts.len(), hash),
                    text,
                    notes,
                })
            }
            Judge::Fast(rules) => {
                use crate::Position;
                let start = match fen {
                    None => Position::startpos(),
                    Some(f) if lenient => {
                        let (pos, relaxed) =
                            Position::from_fen_lenient(f).map_err(|e| format!("bad FEN: {e}"))?;
                        for r in relaxed {
                            notes.push(format!("lenient FEN, not checked: {r}"));
                        }
                        pos
                    }
                    Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
                };
                let moves = texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        crate::Move::parse_iccs(t, crate::RankConvention::Iccs)
                            .map_err(|e| format!("move {} {t:?}: {e}", i + 1))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let j = crate::judge::judge(rules, &start, &moves).map_err(|e| e.to_string())?;
                let text = if explain {
                    crate::judge::explain(&j, &start)
                } else {
                    String::new()
                };
                let value = serde_json::to_value(&j).map_err(|e| e.to_string())?;
                Ok(Judged {
                    json: contract(value, texts.len(), crate::builtin_spec::HASH),
                    text,
                    notes,
                })
            }
        }
    }
}

/// One case of `judge --batch`, `{"fen": "...", "moves": "m1 m2" or ["m1", ...]}`: the
/// judgement's JSON contract.
pub fn batch_case(
    judge: &Judge,
    line: &Value,
    ranks: RankConvention,
    lenient: bool,
) -> Result<Value, String> {
    let fen = line
        .get("fen")
        .and_then(|f| f.as_str())
        .ok_or("no \"fen\" string")?;
    let texts: Vec<String> = match line.get("moves") {
        Some(Value::String(m)) => split_moves(m),
        Some(Value::Array(a)) => a
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or("a move is not a string")
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
        Some(_) => return Err("\"moves\" is neither a string nor a list".into()),
    };
    judge
        .moves(Some(fen), &texts, ranks, lenient, false)
        .map(|j| j.json)
}

impl Judge {
    /// The fast engine with the compiled rule set `id`, or an error naming the known ones.
    pub fn fast(id: &str) -> Result<Judge, String> {
        crate::judge::RuleSet::builtin(id)
            .map(Judge::Fast)
            .ok_or_else(|| {
                format!(
                    "unknown rule set {id:?} (known: {})",
                    BUILTIN_RULE_SETS.join(", ")
                )
            })
    }

    /// The oracle with rule set `id` of the spec directory `spec_dir` (rules from
    /// `spec_dir/rules`), or of the embedded spec.
    pub fn oracle(id: &str, spec_dir: Option<&Path>) -> Result<Judge, String> {
        let (rules, spec, hash) = match spec_dir {
            Some(dir) => (
                RuleSet::load_dir(id, &dir.join("rules")).map_err(|e| e.to_string())?,
                Spec::load_dir(dir).map_err(|e| format!("spec {}: {e}", dir.display()))?,
                crate::builtin_spec::hash_dir(dir)
                    .map_err(|e| format!("spec {}: {e}", dir.display()))?,
            ),
            None => (
                RuleSet::embedded(id).map_err(|e| e.to_string())?,
                Spec::embedded().clone(),
                crate::builtin_spec::HASH.to_string(),
            ),
        };
        Ok(Judge::Oracle(Box::new((rules, spec, hash))))
    }

    /// Judges one game record (its start position and main line): the JSON contract and the
    /// explanation.
    pub fn game(&self, game: &GameRecord) -> Result<(Value, String), String> {
        let json = |j: &dyn erased::Json| j.value();
        // A losing last move (below) is one more move of the record.
        let total = game.moves.len() + usize::from(game.losing_move.is_some());
        match self {
            Judge::Oracle(rs) => {
                let (rules, spec, hash) = &**rs;
                let (start, j) = crate::spec_tools::oracle_judge::judge_game(rules, spec, game)?;
                Ok((
                    contract(json(&j), total, hash),
                    xiangqi_oracle::judge::explain(&j, &start),
                ))
            }
            Judge::Fast(rules) => {
                let start = crate::Position::from_fen(&game.start_fen)
                    .map_err(|e| format!("start position: {e}"))?;
                // A record may end with a move that exposes the mover's king: a loss for its
                // maker (4.1.2, 3.1 / 4.1.6), as in the oracle.
                let last = game.losing_move.as_ref().map(|lm| lm.mv);
                let j = crate::judge::judge_record(rules, &start, &game.moves, last)
                    .map_err(|e| e.to_string())?;
                Ok((
                    contract(json(&j), total, crate::builtin_spec::HASH),
                    crate::judge::explain(&j, &start),
                ))
            }
        }
    }
}

/// Whether the record's result is the judge's: `None` when either is undecided (`*`, or
/// a game the rules did not end, such as one lost on time or by resignation).
pub fn result_agrees(game: &GameRecord, j: &Value) -> Option<bool> {
    let ruled = match j.get("result").and_then(Value::as_str)? {
        "red_wins" => GameResult::RedWins,
        "black_wins" => GameResult::BlackWins,
        "draw" => GameResult::Draw,
        _ => return None,
    };
    (game.result != GameResult::Unknown).then(|| game.result == ruled)
}

/// Serialisation of either engine's judgement.
mod erased {
    /// A judgement that serialises.
    pub(super) trait Json {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
        }
    }
}
