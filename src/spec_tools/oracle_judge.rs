//! The oracle's repetition judge (`xiangqi_oracle::judge`) behind [`ExampleJudge`], and the
//! full verdict on one worked example that `spec diff`, `engine-check` and `suite export` use.
//!
//! Rule sets are read at run time from the spec directory being checked
//! (`RuleSet::load_dir(id, DIR/rules)`), never from the embedded copy, so that an amended spec
//! is judged by its own rules. A rule set the oracle does not implement yet (an id outside
//! `xiangqi_oracle::judge::RULE_SETS` that does not load, e.g. `axf`) is not judged: the
//! adapter answers `None` for its examples.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::Serialize;
use xiangqi_oracle::judge::{classify_all, judge, with_memo, RuleSet, Ruling, SideName, RULE_SETS};
use xiangqi_oracle::{Board, OMove, Side};

use super::check::{start_board, ExampleJudge, JudgeView, SpecDir};
use super::model::Example;

/// The class the oracle gives one ply of an example's `moves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlyClass {
    /// 1-based ply of `moves`.
    pub ply: usize,
    /// The move in ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// `red` or `black`.
    pub side: String,
    /// Machine name of the class (`rules/terms.yaml`).
    pub class: String,
    /// Articles that decided it.
    pub articles: Vec<String>,
}

/// The oracle's verdict on one worked example (after `moves_full`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The rule set judged with.
    pub rules: String,
    /// `red_wins`, `black_wins`, `draw` or `ongoing` (a must-change ruling, a pending one).
    pub result: String,
    /// `red_loses`, `black_loses`, `draw`, or `None`.
    pub ruling: Option<String>,
    /// The side that must change, if any.
    pub must_change: Option<String>,
    /// Outright result rather than a must-change ruling.
    pub immediate: bool,
    /// The moves end short of the ruling point.
    pub pending: bool,
    /// Articles that decided the ruling.
    pub articles: Vec<String>,
    /// Red's pattern in the cycle.
    pub red_pattern: Option<String>,
    /// Black's pattern in the cycle.
    pub black_pattern: Option<String>,
    /// The class of each ply of `moves`.
    pub classes: Vec<PlyClass>,
}

impl Verdict {
    /// The view `spec check` and the index compare with the printed example.
    pub fn view(&self) -> JudgeView {
        JudgeView {
            classes: self.classes.iter().map(|c| Some(c.class.clone())).collect(),
            ruling: self.ruling.clone(),
            must_change: self.must_change.clone(),
            immediate: Some(self.immediate),
        }
    }
}

fn ruling_id(r: Ruling) -> Option<String> {
    match r {
        Ruling::RedLoses => Some("red_loses".to_string()),
        Ruling::BlackLoses => Some("black_loses".to_string()),
        Ruling::Draw => Some("draw".to_string()),
        Ruling::None => None,
    }
}

fn side_id(s: Side) -> &'static str {
    match s {
        Side::Red => "red",
        Side::Black => "black",
    }
}

fn parse_moves(field: &str, moves: &[String]) -> Result<Vec<OMove>, String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| OMove::parse_iccs(m).map_err(|e| format!("{field}[{i}] {m:?}: {e}")))
        .collect()
}

/// Judges `ex` (its `moves_full`) with `rules` on the board and pieces of `oracle`.
///
/// The class of ply `p` of `moves` is the class of the cycle move at the same point of the
/// cycle (a move repeated in `moves_full` is classed where the cycle is analysed, as in
/// `tests/examples.rs`); a ply outside the cycle (2011 图29's first move) is classified in
/// context.
pub fn judge_example(
    rules: &RuleSet,
    oracle: &xiangqi_oracle::Spec,
    ex: &Example,
) -> Result<Verdict, String> {
    let start: Board = start_board(oracle, ex)?;
    let full = parse_moves("moves_full", &ex.moves_full)?;
    // One memo for the judgement and the classification in context: most of their searches
    // are the same questions.
    let (j, all) = with_memo(rules, start.spec(), || {
        let j = judge(rules, &start, &full).map_err(|e| format!("moves_full: {e}"))?;
        let all = classify_all(rules, &start, &full).map_err(|e| format!("moves_full: {e}"))?;
        Ok::<_, String>((j, all))
    })?;
    let len = j.cycle.len().max(1);
    let first_ply = ex.cycle.as_ref().and_then(|c| c.first_ply).unwrap_or(1) as usize;
    let mut classes = Vec::new();
    for (i, text) in ex.moves.iter().enumerate() {
        let p = i + 1;
        let from_cycle = j
            .cycle
            .iter()
            .filter(|_| p >= first_ply)
            .find(|x| x.ply >= p && (x.ply - p).is_multiple_of(len));
        let (class, articles) = match (from_cycle, all.get(i)) {
            (Some(x), _) => (x.class.name().to_string(), x.articles.clone()),
            (None, Some(c)) => (c.class.name().to_string(), c.articles.clone()),
            (None, None) => continue,
        };
        classes.push(PlyClass {
            ply: p,
            mv: text.clone(),
            side: ex.mover(p).id().to_string(),
            class,
            articles,
        });
    }
    Ok(Verdict {
        rules: rules.id.clone(),
        result: serde_json::to_value(j.result)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        ruling: ruling_id(j.ruling),
        must_change: j.must_change.map(|s| {
            match s {
                SideName::Red => side_id(Side::Red),
                SideName::Black => side_id(Side::Black),
            }
            .to_string()
        }),
        immediate: j.immediate,
        pending: j.pending,
        articles: j.articles.clone(),
        red_pattern: j.red_pattern.clone(),
        black_pattern: j.black_pattern.clone(),
        classes,
    })
}

/// A rule set as loaded: `Ok(None)` when the oracle does not implement it.
type Loaded = Result<Option<RuleSet>, String>;

/// Rule sets loaded from spec directories, by (directory, id), each loaded once.
#[derive(Default)]
pub struct RuleSets {
    loaded: Mutex<BTreeMap<(PathBuf, String), Loaded>>,
}

impl RuleSets {
    /// Rule set `id` of the spec directory `dir` (`dir/rules/<id>.yaml`). `Ok(None)`: the oracle
    /// does not implement `id` (not in `RULE_SETS`, and it does not load). `Err`: a rule set
    /// the oracle implements does not load.
    pub fn get(&self, dir: &Path, id: &str) -> Result<Option<RuleSet>, String> {
        let key = (dir.to_path_buf(), id.to_string());
        // Held while loading, so that each rule set is read once however many threads ask.
        let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        loaded
            .entry(key)
            .or_insert_with(|| match RuleSet::load_dir(id, &dir.join("rules")) {
                Ok(r) => Ok(Some(r)),
                Err(_) if !RULE_SETS.contains(&id) => Ok(None),
                Err(e) => Err(format!("rule set {id} of {}: {e}", dir.display())),
            })
            .clone()
    }
}

/// A verdict as [`OracleJudge::verdict`] gives it.
type Answer = Option<Result<Verdict, String>>;

/// The oracle's judge as an [`ExampleJudge`]. Like its rule sets (read once per directory), it
/// remembers each verdict, by directory and the example's whole content, so that `diagram` and
/// `spec index` judge each example once for the check and the page together.
#[derive(Default)]
pub struct OracleJudge {
    rules: RuleSets,
    verdicts: Mutex<BTreeMap<(PathBuf, String), Answer>>,
}

impl OracleJudge {
    /// The verdict on `ex` with its own rule set read from `spec`'s directory. `None`: the
    /// oracle does not implement the rule set.
    pub fn verdict(&self, spec: &SpecDir, ex: &Example) -> Answer {
        // The key is the example's every field (its `Debug` text), not only its id.
        let key = (spec.dir.clone(), format!("{ex:?}"));
        let known = self
            .verdicts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        if let Some(answer) = known {
            return answer;
        }
        let answer = self.judge_now(spec, ex);
        self.verdicts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, answer.clone());
        answer
    }

    fn judge_now(&self, spec: &SpecDir, ex: &Example) -> Answer {
        let rules = match self.rules.get(&spec.dir, &ex.rules) {
            Ok(Some(r)) => r,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let Some(oracle) = spec.oracle.as_ref() else {
            return Some(Err(
                "the board and pieces of the spec do not load".to_string()
            ));
        };
        Some(judge_example(&rules, oracle, ex))
    }
}

impl ExampleJudge for OracleJudge {
    fn name(&self) -> &str {
        "oracle judge"
    }

    fn judge(&self, spec: &SpecDir, example: &Example) -> Option<Result<JudgeView, String>> {
        self.verdict(spec, example).map(|r| r.map(|v| v.view()))
    }
}

/// Judges one game record, its start position and main line, with the oracle; a last move that
/// exposes the mover's king is ruled a loss for its maker. Returns the start and the judgement.
pub fn judge_game(
    rules: &RuleSet,
    spec: &xiangqi_oracle::Spec,
    game: &crate::record::GameRecord,
) -> Result<(Board, xiangqi_oracle::judge::Judgement), String> {
    let start =
        Board::from_fen(spec, &game.start_fen).map_err(|e| format!("start position: {e}"))?;
    let moves: Vec<OMove> = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let text = m.to_string();
            OMove::parse_iccs(&text).map_err(|e| format!("move {} {text:?}: {e}", i + 1))
        })
        .collect::<Result<_, _>>()?;
    // A record may end with a move that exposes the mover's king (4.1.2 kings facing, 3.1 /
    // 4.1.6 own king attacked): the oracle rules it as a loss for its maker.
    let last = game
        .losing_move
        .as_ref()
        .map(|lm| {
            let text = lm.mv.to_iccs(crate::RankConvention::Iccs);
            OMove::parse_iccs(&text).map_err(|e| format!("move {} {text:?}: {e}", lm.index))
        })
        .transpose()?;
    let j = xiangqi_oracle::judge::judge_record(rules, &start, &moves, last)
        .map_err(|e| e.to_string())?;
    Ok((start, j))
}
