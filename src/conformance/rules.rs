//! The rule-handling checks of engine-check: repetition cases with known rulings.
//!
//! The cases are the worked examples of the spec directory (`--spec`, default `spec/`) whose
//! `expected.ruling` is set, read with the loader of `xqrules spec check`. For each, the
//! engine is put just before the last move of `moves_full` (the move that makes the third
//! occurrence, where the ruling is made) and asked to search only that move:
//! `position fen F moves M1..Mn-1` then `go depth D searchmoves Mn`. Its last `score` is read
//! from the point of view of the side making that move (the side to move at the root):
//!
//! - UCI (`score mate N` / `score cp X`, UCI protocol of April 2006, "info score": `mate y`
//!   is mate in y moves, negative when the engine is getting mated). Stockfish-family engines
//!   report rule wins and losses as mate scores: Fairy-Stockfish returns a mate value for a
//!   perpetual-check repetition (verified here: Fairy-Stockfish 11.1 answers `score mate 1`
//!   for Black after Red's perpetual check in CXA 1999 圖一), and Pikafish does the same for
//!   its check and chase rules (its repetition judge returns mate-range values, see the
//!   rule reports in official-pikafish/Pikafish issues #27, #28). A draw by repetition is
//!   `score cp 0` give or take the engine's draw randomisation (Stockfish: ±1 cp).
//! - UCCI (`score N`): ElephantEye's scale, where |N| > 9800 (`WIN_VALUE`) is a decided
//!   game, 9900 (`BAN_VALUE`) the perpetual-check loss, and a draw is ±20 (`DRAW_VALUE`).
//!
//! A mover's win or loss (or a draw) is compared with the printed ruling. A score that is
//! neither (an ordinary evaluation) means the engine did not apply a repetition rule there.
//!
//! Engines whose rule handling is known to be partial are checked only on the cases they can
//! decide: Fairy-Stockfish before version 14 has perpetual check but no chase rules
//! (fairy-stockfish/Fairy-Stockfish issues #55, #438), so a case whose cycle has a chase or
//! kill move, or whose classes are not printed, is skipped with that reason.

use std::path::Path;

use crate::{Move, Position, RankConvention};
use clap::ValueEnum;
use serde::Serialize;

use super::client::{EngineError, EngineIo};
use super::protocol::{position_command, to_engine_move, Protocol};
use crate::spec_tools::check::{check, NoJudge};
use crate::spec_tools::model::{Example, SideId};

/// Which rule cases to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleProfile {
    /// By the engine's `id name`: Fairy-Stockfish before 14 is `perpetual-check`, any other
    /// engine `full`.
    Auto,
    /// Every case with a ruling.
    Full,
    /// Only cases decided without chase or kill rules (no chase or kill move in the printed
    /// classes, or, without printed classes, a side that checks on every move and loses).
    PerpetualCheck,
    /// No rule checks.
    Off,
}

/// How the engine's answer reads, for the side making the searched move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineRuling {
    /// The mover wins (a mate score for it).
    MoverWins,
    /// The mover loses.
    MoverLoses,
    /// A draw score.
    Draw,
    /// An ordinary evaluation: no repetition rule applied.
    NoRuling,
}

/// Verdict of one rule case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleResult {
    /// The engine's score gives the printed ruling.
    Agree,
    /// It does not.
    Disagree,
    /// Not checked (see `reason`).
    Skipped,
    /// The engine failed on this case (see the report's `error`).
    Error,
}

/// One rule case in the report.
#[derive(Debug, Clone, Serialize)]
pub struct RuleRecord {
    /// Example id (`cxa-1999/fig01`).
    pub example: String,
    /// Its rule set.
    pub rules: String,
    /// Articles the example illustrates.
    pub articles: Vec<String>,
    /// The printed ruling (`red_loses`, `black_loses`, `draw`).
    pub expected: String,
    /// The side that must change, if the ruling is a must-change ruling.
    pub must_change: Option<String>,
    /// The side making the searched move (`red`, `black`).
    pub mover: String,
    /// The searched move (ICCS).
    #[serde(rename = "move")]
    pub mv: String,
    /// The engine's last score line, as printed (`mate 1`, `cp 0`).
    pub score: Option<String>,
    /// How that score reads.
    pub engine: Option<EngineRuling>,
    /// The verdict.
    pub result: RuleResult,
    /// Why skipped, or what disagrees.
    pub reason: Option<String>,
}

/// The rule checks' part of the report.
#[derive(Debug, Serialize)]
pub struct RuleChecks {
    /// Whether any case was run.
    pub checked: bool,
    /// The profile applied.
    pub profile: RuleProfile,
    /// Why no case ran, or a remark on the profile.
    pub reason: String,
    /// One record per case with a ruling.
    pub cases: Vec<RuleRecord>,
}

impl RuleChecks {
    /// Cases that agree / disagree / were skipped.
    pub fn counts(&self) -> (usize, usize, usize) {
        let n = |r: RuleResult| self.cases.iter().filter(|c| c.result == r).count();
        (
            n(RuleResult::Agree),
            n(RuleResult::Disagree),
            n(RuleResult::Skipped),
        )
    }
}

/// A rule case ready to send.
pub struct RuleCase {
    /// The example.
    pub example: Example,
}

/// The cases of `spec_dir` with a ruling, in the loader's order (by directory, then natural
/// file order).
pub fn load_cases(spec_dir: &Path) -> Result<Vec<RuleCase>, String> {
    let (spec, report) = check(spec_dir, &NoJudge).map_err(|e| e.to_string())?;
    if let Some(first) = report.diagnostics.first() {
        return Err(format!(
            "{} problem(s) in {}; the first: {first} (run `xqrules spec check {}`)",
            report.diagnostics.len(),
            spec_dir.display(),
            spec_dir.display()
        ));
    }
    Ok(spec
        .examples
        .into_iter()
        .filter(|le| le.example.expected.ruling.is_some() && !le.example.moves_full.is_empty())
        .map(|le| RuleCase {
            example: le.example,
        })
        .collect())
}

/// The profile `Auto` resolves to for an engine name.
pub fn resolve_profile(profile: RuleProfile, name: Option<&str>) -> RuleProfile {
    if profile != RuleProfile::Auto {
        return profile;
    }
    match name {
        Some(n) if fairy_stockfish_before_14(n) => RuleProfile::PerpetualCheck,
        _ => RuleProfile::Full,
    }
}

fn fairy_stockfish_before_14(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("Fairy-Stockfish ") else {
        return false;
    };
    let major: String = rest.chars().take_while(char::is_ascii_digit).collect();
    // Versions are either "11.1" style or dates ("150822"): only small majors are old.
    matches!(major.parse::<u32>(), Ok(v) if v < 14)
}

/// Why `ex` is outside what a perpetual-check-only engine decides, or `None` when inside.
pub fn perpetual_check_skip(ex: &Example) -> Option<String> {
    match &ex.classes {
        Some(classes) => {
            let attacks: Vec<String> = classes
                .iter()
                .filter(|c| c.class == "chase" || c.class == "kill")
                .map(|c| format!("ply {} {} {}", c.ply, c.mv, c.class))
                .collect();
            (!attacks.is_empty()).then(|| {
                format!(
                    "needs chase/kill rules, which this engine does not have ({})",
                    attacks.join(", ")
                )
            })
        }
        None => {
            // No printed classes: in scope only when the losing side checks on every move of
            // the cycle (a perpetual check decided by checks alone).
            let loser = match ex.expected.ruling.as_ref().map(|r| r.id()) {
                Some("red_loses") => SideId::Red,
                Some("black_loses") => SideId::Black,
                _ => {
                    return Some(
                        "no printed classes: a draw here may depend on chase rules, which this engine does not have"
                            .to_string(),
                    )
                }
            };
            match loser_checks_throughout(ex, loser) {
                Ok(true) => None,
                Ok(false) => Some(format!(
                    "no printed classes and {} does not check on every move: the ruling depends on chase rules, which this engine does not have",
                    loser.id()
                )),
                Err(e) => Some(format!("cannot replay the moves: {e}")),
            }
        }
    }
}

/// Does `side` give check with each of its moves in the last cycle of `moves_full`?
fn loser_checks_throughout(ex: &Example, side: SideId) -> Result<bool, String> {
    let (mut pos, _) = Position::from_fen_lenient(&ex.fen).map_err(|e| e.to_string())?;
    let mut checks = Vec::new();
    for (i, text) in ex.moves_full.iter().enumerate() {
        let m = Move::parse_iccs(text, RankConvention::Iccs).map_err(|e| e.to_string())?;
        pos.play_checked(m).map_err(|e| format!("{text}: {e}"))?;
        checks.push((ex.mover(i + 1), pos.is_check()));
    }
    let len = ex
        .cycle
        .as_ref()
        .map_or(4, |c| c.plies as usize)
        .clamp(1, checks.len());
    Ok(checks[checks.len() - len..]
        .iter()
        .filter(|(s, _)| *s == side)
        .all(|(_, check)| *check))
}

/// Reads an `info ... score ...` line: the score text and how it reads for the side to move.
pub fn read_score(
    line: &str,
    protocol: Protocol,
    draw_margin: i64,
) -> Option<(String, EngineRuling)> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    // `info string ...` is free text, whatever it says.
    if words.first() == Some(&"string") {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    match (words.get(at + 1), words.get(at + 2)) {
        (Some(&"mate"), Some(n)) => {
            let n: i64 = n.parse().ok()?;
            let ruling = match n.signum() {
                1 => EngineRuling::MoverWins,
                -1 => EngineRuling::MoverLoses,
                _ => return None,
            };
            Some((format!("mate {n}"), ruling))
        }
        (Some(&"cp"), Some(n)) => {
            let cp: i64 = n.parse().ok()?;
            Some((format!("cp {cp}"), cp_ruling(cp, draw_margin, None)))
        }
        (Some(n), _) if protocol == Protocol::Ucci => {
            let v: i64 = n.parse().ok()?;
            // ElephantEye: beyond WIN_VALUE (9800) the game is decided.
            Some((format!("{v}"), cp_ruling(v, draw_margin, Some(9800))))
        }
        _ => None,
    }
}

fn cp_ruling(v: i64, draw_margin: i64, decided: Option<i64>) -> EngineRuling {
    match decided {
        Some(limit) if v > limit => EngineRuling::MoverWins,
        Some(limit) if v < -limit => EngineRuling::MoverLoses,
        _ if v.abs() <= draw_margin => EngineRuling::Draw,
        _ => EngineRuling::NoRuling,
    }
}

/// What the printed ruling means for the mover.
fn expected_for(ex: &Example, mover: SideId) -> EngineRuling {
    match ex.expected.ruling.as_ref().map(|r| r.id()) {
        Some("draw") => EngineRuling::Draw,
        Some("red_loses") if mover == SideId::Red => EngineRuling::MoverLoses,
        Some("black_loses") if mover == SideId::Black => EngineRuling::MoverLoses,
        Some(_) => EngineRuling::MoverWins,
        None => EngineRuling::NoRuling,
    }
}

fn ruling_words(r: EngineRuling) -> &'static str {
    match r {
        EngineRuling::MoverWins => "the mover wins",
        EngineRuling::MoverLoses => "the mover loses",
        EngineRuling::Draw => "a draw",
        EngineRuling::NoRuling => "no ruling (an ordinary evaluation)",
    }
}

/// The parameters of one run of the rule checks.
pub struct RuleRun {
    /// The protocol spoken.
    pub protocol: Protocol,
    /// The engine's rank numbering.
    pub ranks: RankConvention,
    /// Search depth of `go depth`.
    pub depth: u32,
    /// |cp| at most this is a draw.
    pub draw_margin: i64,
}

/// The record of a case before the engine is asked.
pub fn new_record(case: &RuleCase) -> RuleRecord {
    let ex = &case.example;
    let n = ex.moves_full.len();
    RuleRecord {
        example: ex.id.clone(),
        rules: ex.rules.clone(),
        articles: ex.articles.clone(),
        expected: ex
            .expected
            .ruling
            .as_ref()
            .map(|r| r.id().to_string())
            .unwrap_or_default(),
        must_change: ex.expected.must_change.map(|s| s.id().to_string()),
        mover: ex.mover(n).id().to_string(),
        mv: ex.moves_full.last().cloned().unwrap_or_default(),
        score: None,
        engine: None,
        result: RuleResult::Error,
        reason: None,
    }
}

/// Asks the engine about one case; fills `record`. `Err`: the engine failed (stop the run).
pub fn run_case(
    engine: &mut dyn EngineIo,
    run: &RuleRun,
    case: &RuleCase,
    record: &mut RuleRecord,
) -> Result<(), EngineError> {
    let ex = &case.example;
    let n = ex.moves_full.len();
    let before = &ex.moves_full[..n - 1];
    engine.send(&position_command(&ex.fen, before, run.ranks))?;
    engine.send(&format!(
        "go depth {} searchmoves {}",
        run.depth,
        to_engine_move(&record.mv, run.ranks)
    ))?;
    let mut last: Option<(String, EngineRuling)> = None;
    let deadline = engine.deadline();
    loop {
        let line = engine.next_line(deadline, "`bestmove`")?;
        let line = line.trim();
        if line.starts_with("bestmove") {
            break;
        }
        if let Some(score) = read_score(line, run.protocol, run.draw_margin) {
            last = Some(score);
        }
    }
    let want = expected_for(ex, ex.mover(n));
    match last {
        None => {
            record.result = RuleResult::Disagree;
            record.reason = Some("the engine printed no score before `bestmove`".to_string());
        }
        Some((text, got)) => {
            record.score = Some(text);
            record.engine = Some(got);
            if got == want {
                record.result = RuleResult::Agree;
            } else {
                record.result = RuleResult::Disagree;
                record.reason = Some(format!(
                    "expected {} ({} by {}), the engine's score means {}",
                    ruling_words(want),
                    record.expected,
                    rule_articles(ex),
                    ruling_words(got)
                ));
            }
        }
    }
    Ok(())
}

fn rule_articles(ex: &Example) -> String {
    if ex.articles.is_empty() {
        ex.rules.clone()
    } else {
        format!("{} art. {}", ex.rules, ex.articles.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_and_ucci_scores() {
        let r = |l| read_score(l, Protocol::Uci, 10).map(|(_, r)| r);
        assert_eq!(
            r("info depth 1 seldepth 1 multipv 1 score mate 1 nodes 1 pv f9e9"),
            Some(EngineRuling::MoverWins)
        );
        assert_eq!(
            r("info depth 3 score mate -2 pv a0a1"),
            Some(EngineRuling::MoverLoses)
        );
        assert_eq!(
            r("info depth 3 score cp -1 pv a0a1"),
            Some(EngineRuling::Draw)
        );
        assert_eq!(
            r("info depth 3 score cp 250 pv a0a1"),
            Some(EngineRuling::NoRuling)
        );
        assert_eq!(r("info string score mate 1"), None);
        assert_eq!(r("info depth 3 nodes 5"), None);
        let u = |l| read_score(l, Protocol::Ucci, 20).map(|(_, r)| r);
        assert_eq!(
            u("info depth 1 score -9900 pv a0a1"),
            Some(EngineRuling::MoverLoses)
        );
        assert_eq!(
            u("info depth 1 score -20 pv a0a1"),
            Some(EngineRuling::Draw)
        );
        assert_eq!(
            u("info depth 1 score 300 pv a0a1"),
            Some(EngineRuling::NoRuling)
        );
    }

    #[test]
    fn profiles_by_engine_name() {
        let p = |n| resolve_profile(RuleProfile::Auto, Some(n));
        assert_eq!(p("Fairy-Stockfish 11.1 LB 64"), RuleProfile::PerpetualCheck);
        assert_eq!(p("Fairy-Stockfish 14.0.1 LB"), RuleProfile::Full);
        assert_eq!(p("Pikafish 2024-06-01"), RuleProfile::Full);
        assert_eq!(
            resolve_profile(RuleProfile::Off, Some("Fairy-Stockfish 11.1")),
            RuleProfile::Off
        );
    }
}
