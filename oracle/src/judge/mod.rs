//! The repetition rules (棋例) as executable semantics: give a position and a move sequence, get
//! the ruling of the rule book move by move, with the articles that decided it.
//!
//! - [`RuleSet`]: a rule set loaded from `spec/rules/<id>.yaml` (embedded copy, or a directory
//!   with [`RuleSet::load_dir`]), the 2011 overlay resolved. Parameters, patterns, severity
//!   order, ruling table and switches all come from the YAML.
//! - [`classify()`]: the nature of one move (art. 28.1–28.9 / 2011 24.1–24.8) with the exceptions
//!   of 27.1–27.3 (2011 26.1–26.2) and the severity order of 27.4 (2011 26.4).
//! - [`judge`]: plays the moves and stops where the rules end the game (checkmate, stalemate,
//!   natural limit 4.2.4 with the 23.3 check cap, repetition ruled by 24.1–24.3 / 26.1–26.4 at
//!   the third occurrence of a position) or suspend it for a ruling (must change, 24.3).
//! - [`explain`]: the ruling in English with the Chinese terms, move by move.
//!
//! ```
//! use xiangqi_oracle::{judge::{judge, RuleSet}, Board, OMove, Spec};
//! let rules = RuleSet::embedded("cxa-1999").unwrap();
//! let start = Board::from_fen(Spec::embedded(), "2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1").unwrap();
//! let moves: Vec<OMove> = "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8"
//!     .split(' ').map(|m| m.parse().unwrap()).collect();
//! let j = judge(&rules, &start, &moves).unwrap();
//! assert_eq!(j.ruling, xiangqi_oracle::judge::Ruling::RedLoses);
//! assert!(j.immediate); // perpetual check (長將) loses at once, art. 24.1
//! ```

mod analysis;
pub mod axf;
mod classify;
mod cycle;
mod memo;
mod rules;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Serialize, Serializer};

use crate::board::{Board, IllegalMove, Status};
use crate::coord::{OMove, Side};

pub use classify::{classify, classify_in_context, Classification};
pub use cycle::{CycleRuling, SidePattern};
pub use memo::{with_kept_memo, with_memo, without_memo};
pub use rules::{
    BothForbidden, GravePattern, Interpretation, Matcher, Pattern, RuleSet, RulesError, RulingRow,
    RULE_SETS,
};

/// A move class (著法性質, terms.yaml): the four of attack and idle plus the idle kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum MoveClass {
    /// 將 check (28.1 / 24.1).
    Check,
    /// 殺 kill (28.2 / 24.2).
    Kill,
    /// 捉 chase (28.3 / 24.3).
    Chase,
    /// 兑 exchange (28.5 / 24.4).
    Exchange,
    /// 獻 offer (28.6 / 24.5).
    Offer,
    /// 攔 block (28.7 / 24.6).
    Block,
    /// 跟 follow (28.8 / 24.7).
    Follow,
    /// 閒 idle (28.9 / 24.8).
    Idle,
}

impl MoveClass {
    /// The machine name of terms.yaml (`check`, `kill`, ...).
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Check => "check",
            MoveClass::Kill => "kill",
            MoveClass::Chase => "chase",
            MoveClass::Exchange => "exchange",
            MoveClass::Offer => "offer",
            MoveClass::Block => "block",
            MoveClass::Follow => "follow",
            MoveClass::Idle => "idle",
        }
    }

    /// The class with machine name `n`.
    pub fn from_name(n: &str) -> Option<MoveClass> {
        Some(match n {
            "check" => MoveClass::Check,
            "kill" => MoveClass::Kill,
            "chase" => MoveClass::Chase,
            "exchange" => MoveClass::Exchange,
            "offer" => MoveClass::Offer,
            "block" => MoveClass::Block,
            "follow" => MoveClass::Follow,
            "idle" => MoveClass::Idle,
            _ => return None,
        })
    }

    /// Check, kill and chase are attacks (打, 28.4).
    pub fn is_attack(self) -> bool {
        matches!(self, MoveClass::Check | MoveClass::Kill | MoveClass::Chase)
    }

    /// The Chinese name (traditional).
    pub fn zh(self) -> &'static str {
        match self {
            MoveClass::Check => "將",
            MoveClass::Kill => "殺",
            MoveClass::Chase => "捉",
            MoveClass::Exchange => "兑",
            MoveClass::Offer => "獻",
            MoveClass::Block => "攔",
            MoveClass::Follow => "跟",
            MoveClass::Idle => "閒",
        }
    }
}

impl Serialize for MoveClass {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// How the game stands at the point where judging stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// Red wins.
    RedWins,
    /// Black wins.
    BlackWins,
    /// Drawn.
    Draw,
    /// Not decided (including a must-change ruling and a pending repetition).
    Ongoing,
}

/// The ruling of a position awaiting a ruling (待判局面).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ruling {
    /// Red loses (at once, or if it does not change).
    RedLoses,
    /// Black loses (at once, or if it does not change).
    BlackLoses,
    /// Draw.
    Draw,
    /// No repetition ruling.
    None,
}

/// A side as it appears in JSON: `red` / `black`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SideName {
    /// Red.
    Red,
    /// Black.
    Black,
}

impl From<Side> for SideName {
    fn from(s: Side) -> SideName {
        match s {
            Side::Red => SideName::Red,
            Side::Black => SideName::Black,
        }
    }
}

/// One move of the repeated cycle, as reported (JSON contract).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleMove {
    /// 1-based index into the given moves.
    pub ply: usize,
    /// The move in ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who made it.
    pub side: SideName,
    /// Its class.
    pub class: MoveClass,
    /// Squares of the pieces checked, threatened or chased (idle kinds: the piece concerned).
    pub targets: Vec<String>,
    /// Articles that decided the class.
    pub articles: Vec<String>,
    /// Explanation (not part of the JSON contract).
    #[serde(skip)]
    pub note: String,
}

/// The answer of [`judge`] (its JSON form is a contract, see the README).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    /// Rule set id.
    pub rules: String,
    /// The game's result where judging stopped.
    pub result: GameResult,
    /// Why, in English.
    pub reason: String,
    /// 1-based index of the move after which judging stopped (0: no move).
    pub ply: usize,
    /// Articles that decided.
    pub articles: Vec<String>,
    /// The repetition ruling.
    pub ruling: Ruling,
    /// The side that must change (變著) and loses if it repeats the cycle once more.
    pub must_change: Option<SideName>,
    /// Outright result (perpetual check, draw) rather than a must-change ruling.
    pub immediate: bool,
    /// The moves end after a repetition but before the ruling point; the analysis is what
    /// would apply.
    pub pending: bool,
    /// The repeated cycle, move by move.
    pub cycle: Vec<CycleMove>,
    /// Red's pattern in the cycle (pattern name of the rule set).
    pub red_pattern: Option<String>,
    /// Black's pattern.
    pub black_pattern: Option<String>,
    /// Extra lines for the text explanation (not part of the JSON contract).
    #[serde(skip)]
    pub details: Vec<String>,
}

/// Why judging could not proceed.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// Move `index` (1-based; 0 when classifying a single move) is not legal.
    #[error("move {index} \"{mv}\": {reason}")]
    IllegalMove {
        /// 1-based index.
        index: usize,
        /// The move text.
        mv: String,
        /// Why it is illegal.
        reason: String,
    },
}

/// The key of a position for repetition: the pieces on their points and the side to move
/// (4.2.3 reading `repetition-count-positions`).
fn position_key(b: &Board) -> String {
    let fen = b.to_fen();
    let mut f = fen.split(' ');
    format!("{} {}", f.next().unwrap_or(""), f.next().unwrap_or(""))
}

/// Classifies every move of `moves` from `start` in context (each with the class of the move
/// before), without any cycle-level adjustment.
pub fn classify_all(
    rules: &RuleSet,
    start: &Board,
    moves: &[OMove],
) -> Result<Vec<Classification>, JudgeError> {
    memo::scope(rules, start.spec(), || {
        classify_all_in_scope(rules, start, moves)
    })
}

fn classify_all_in_scope(
    rules: &RuleSet,
    start: &Board,
    moves: &[OMove],
) -> Result<Vec<Classification>, JudgeError> {
    let mut out: Vec<Classification> = Vec::new();
    let mut b = start.clone();
    let mut earlier: Option<Board> = None;
    for (i, m) in moves.iter().enumerate() {
        let c = classify_with_context(rules, &b, *m, out.last(), earlier.as_ref())
            .map_err(|e| with_index(e, i + 1))?;
        earlier = Some(b.clone());
        analysis::apply(&mut b, *m);
        out.push(c);
    }
    Ok(out)
}

/// Classifies one move with the rule set's classifier (`judge.classifier`: the CXA exchange test
/// of [`classify()`], or the AXF piece-pair chase of [`axf::classify`]).
pub fn classify_with(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
) -> Result<Classification, JudgeError> {
    classify_with_context(rules, before, m, previous, None)
}

/// [`classify_with`] knowing also `earlier`, the board before the opponent's move just before
/// (see [`classify_in_context`]).
pub fn classify_with_context(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
    earlier: Option<&Board>,
) -> Result<Classification, JudgeError> {
    memo::scope(rules, before.spec(), || {
        classify_with_context_in_scope(rules, before, m, previous, earlier)
    })
}

fn classify_with_context_in_scope(
    rules: &RuleSet,
    before: &Board,
    m: OMove,
    previous: Option<&Classification>,
    earlier: Option<&Board>,
) -> Result<Classification, JudgeError> {
    if rules.classifier == "axf" {
        axf::classify(rules, before, m, previous)
    } else {
        classify_in_context(rules, before, m, previous, earlier)
    }
}

fn with_index(e: JudgeError, index: usize) -> JudgeError {
    match e {
        JudgeError::IllegalMove { mv, reason, .. } => JudgeError::IllegalMove { index, mv, reason },
    }
}

fn side_loses(s: Side) -> Ruling {
    match s {
        Side::Red => Ruling::RedLoses,
        Side::Black => Ruling::BlackLoses,
    }
}

fn winner(loser: Side) -> GameResult {
    match loser {
        Side::Red => GameResult::BlackWins,
        Side::Black => GameResult::RedWins,
    }
}

/// Judges a game: plays `moves` from `start` and stops at the first position where the rules
/// end the game or suspend it for a ruling:
///
/// - checkmate (將死) or stalemate (困毙): the side to move loses (art. 3, 4.1);
/// - the natural limit: `natural_limit_moves` rounds without a capture (4.2.4), the claimant's
///   checks counted at most `check_cap_moves` times (23.3, reading `check-cap-reading`);
/// - the `repetition_count`-th occurrence of a position (4.2.3, 24): the moves between the
///   last two occurrences are the cycle; each is classified ([`classify()`]), each side's pattern
///   found (25.2 / 24.13–24.14) and the ruling table applied (24.1–24.3, 26.1–26.4; 2011 4.1.4,
///   4.1.5, 25.1–25.4 and 26.8).
///
/// When the moves end after a repetition short of the ruling point, the analysis that would
/// apply is reported with `pending: true`. A bad move is an error with its 1-based index.
pub fn judge(rules: &RuleSet, start: &Board, moves: &[OMove]) -> Result<Judgement, JudgeError> {
    let j = memo::scope(rules, start.spec(), || judge_in_scope(rules, start, moves))?;
    moves_after_are_legal(start, moves, j.ply)?;
    Ok(j)
}

/// The moves after ply `ply`, where judging ended, are legal too: judging stops where the
/// rules end the game or rule on it, but a move list with an illegal move after that point is
/// bad input, not a game.
fn moves_after_are_legal(start: &Board, moves: &[OMove], ply: usize) -> Result<(), JudgeError> {
    if ply >= moves.len() {
        return Ok(());
    }
    let mut b = start.clone();
    for (i, m) in moves.iter().enumerate() {
        if i >= ply {
            b.check_move(*m).map_err(|e| JudgeError::IllegalMove {
                index: i + 1,
                mv: m.to_string(),
                reason: e.to_string(),
            })?;
        }
        analysis::apply(&mut b, *m);
    }
    Ok(())
}

fn judge_in_scope(
    rules: &RuleSet,
    start: &Board,
    moves: &[OMove],
) -> Result<Judgement, JudgeError> {
    let mut boards = vec![start.clone()];
    let mut seen: HashMap<String, Vec<usize>> = HashMap::new();
    seen.entry(position_key(start)).or_default().push(0);
    let mut checks_since_capture = [0u32; 2];
    let mut plies_since_capture = start.halfmoves();
    let base = |ply: usize| Judgement {
        rules: rules.id.clone(),
        result: GameResult::Ongoing,
        reason: String::new(),
        ply,
        articles: Vec::new(),
        ruling: Ruling::None,
        must_change: None,
        immediate: false,
        pending: false,
        cycle: Vec::new(),
        red_pattern: None,
        black_pattern: None,
        details: Vec::new(),
    };
    for (i, m) in moves.iter().enumerate() {
        let ply = i + 1;
        let b = boards.last().expect("non-empty");
        b.check_move(*m).map_err(|e| JudgeError::IllegalMove {
            index: ply,
            mv: m.to_string(),
            reason: e.to_string(),
        })?;
        let mover = b.side_to_move();
        let capture = b.piece_at(m.to).is_some();
        let mut next = b.clone();
        analysis::apply(&mut next, *m);
        if capture {
            checks_since_capture = [0, 0];
            plies_since_capture = 0;
        } else {
            plies_since_capture += 1;
        }
        if next.in_check(mover.opponent()) {
            checks_since_capture[mover.index()] += 1;
        }
        let status = next.status();
        let key = position_key(&next);
        boards.push(next);
        let occ = seen.entry(key).or_default();
        occ.push(ply);
        let occurrences = occ.len();
        let previous = occ.get(occurrences.wrapping_sub(2)).copied();
        match status {
            Status::Checkmate { loser } => {
                let mut j = base(ply);
                j.result = winner(loser);
                j.reason = format!("{loser} is checkmated (將死)");
                j.articles = rules.mate_articles.clone();
                return Ok(j);
            }
            Status::Stalemate { loser } => {
                let mut j = base(ply);
                j.result = winner(loser);
                j.reason = format!("{loser} has no legal move (困毙) and loses");
                j.articles = rules.stalemate_articles.clone();
                return Ok(j);
            }
            Status::Ongoing => {}
        }
        if occurrences as u32 >= rules.repetition_count {
            let from = if rules.cycle_from_first {
                occ[0]
            } else {
                // The last stretch, or, when the stretch before it is not the same moves, both
                // (reading `repetition-count-positions`).
                let previous = previous.expect("two occurrences at least");
                match occurrences.checked_sub(3).map(|i| occ[i]) {
                    Some(earlier) if moves[earlier..previous] != moves[previous..ply] => earlier,
                    _ => previous,
                }
            };
            let j = rule_cycle(rules, &boards, moves, from, ply, false);
            let previous = previous.expect("two occurrences at least");
            return Ok(change_deadline(rules, j, moves, previous, ply));
        }
        // Natural limit (4.2.4) with the claimant's checks capped (23.3).
        {
            if let Some(claimant) =
                natural_limit_claimant(rules, plies_since_capture, checks_since_capture)
            {
                let mut j = base(ply);
                j.result = GameResult::Draw;
                j.reason = format!(
                    "{} rounds without a capture (自然限着); {claimant}'s checks counted at most {} times",
                    rules.natural_limit_moves, rules.check_cap_moves
                );
                j.articles = rules.natural_limit_articles.clone();
                return Ok(j);
            }
        }
    }
    let ply = moves.len();
    let last = position_key(boards.last().expect("non-empty"));
    let occ = &seen[&last];
    if occ.len() >= 2 {
        let from = if rules.cycle_from_first {
            occ[0]
        } else {
            occ[occ.len() - 2]
        };
        return Ok(rule_cycle(rules, &boards, moves, from, ply, true));
    }
    let mut j = base(ply);
    j.reason = "no repetition, no end of game".to_string();
    Ok(j)
}

/// "once more", "2 more times", … in a judgement's reason.
fn once_more(times: u32) -> String {
    match times {
        1 => "once more".to_string(),
        n => format!("{n} more times"),
    }
}

/// The deadline of a must-change ruling (reading `repeat-after-must-change`; 1999 24.3 若再重復一次循環，即判負,
/// 2011 4.1.5 應變著而不變): the ruling `j` was made at ply `ply`, the position having occurred
/// last at ply `previous`. When the moves go on with the same stretch (the plies from `previous`
/// to `ply`, played again from the same position) as many more times as the rule set's
/// `loses_after_further_cycles`, the side that had to change has not changed and loses where the
/// last of them ends. Otherwise (or without a deadline in the rule set) the ruling stands as
/// made.
fn change_deadline(
    rules: &RuleSet,
    mut j: Judgement,
    moves: &[OMove],
    previous: usize,
    ply: usize,
) -> Judgement {
    let Some(side) = j.must_change else {
        return j;
    };
    if j.result != GameResult::Ongoing || j.pending {
        return j;
    }
    let Some(times) = rules.loses_after_further_cycles else {
        return j;
    };
    let stretch = &moves[previous..ply];
    let end = ply + stretch.len() * times as usize;
    let Some(after) = moves.get(ply..end) else {
        return j;
    };
    if !after.chunks(stretch.len()).all(|c| c == stretch) {
        return j;
    }
    let loser = match side {
        SideName::Red => Side::Red,
        SideName::Black => Side::Black,
    };
    j.result = winner(loser);
    j.reason = format!(
        "{}; {loser} repeated it {} (plies {}-{end}) instead of changing, and loses",
        j.reason,
        once_more(times),
        ply + 1
    );
    j.ply = end;
    j
}

/// Judges a game record whose moves may end with a move the movement rules forbid because it
/// exposes the mover's own king: the kings face each other (4.1.2) or the own king is left
/// attacked (3.1, 4.1.6). Game records keep such a move: it ends the game, lost by its maker.
///
/// `moves` are the record's legal moves and `last` the move after them that the record ends
/// with, if it is one the judge should try (a legal `last` is judged as an ordinary move). When
/// the game goes on after `moves` (no end, no ruling; a repetition short of the ruling point
/// decides nothing), a `last` that
/// exposes the own king loses for its maker, with the articles of the rule set (entries
/// `cxa1999.4.1.2`, `cxa1999.3.1`, `cxa1999.4.1.6`); a `last` illegal for another reason is an
/// error with its 1-based index.
///
/// ```
/// use xiangqi_oracle::{judge::{judge_record, GameResult, RuleSet}, Board, Spec};
/// let rules = RuleSet::embedded("cxa-1999").unwrap();
/// let start = Board::from_fen(Spec::embedded(), "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
/// // The advisor steps aside: the kings face each other (4.1.2), red loses.
/// let j = judge_record(&rules, &start, &[], Some("e1d2".parse().unwrap())).unwrap();
/// assert_eq!((j.result, j.ply), (GameResult::BlackWins, 1));
/// assert_eq!(j.articles, ["4.1.2"]);
/// ```
pub fn judge_record(
    rules: &RuleSet,
    start: &Board,
    moves: &[OMove],
    last: Option<OMove>,
) -> Result<Judgement, JudgeError> {
    let Some(m) = last else {
        return judge(rules, start, moves);
    };
    let j = judge(rules, start, moves)?;
    if j.result != GameResult::Ongoing || (j.ruling != Ruling::None && !j.pending) {
        // The game ended (or awaits a ruling) before the last move.
        return Ok(j);
    }
    let mut end = start.clone();
    for mv in moves {
        analysis::apply(&mut end, *mv);
    }
    let index = moves.len() + 1;
    let Err(e) = end.check_move(m) else {
        let all: Vec<OMove> = moves.iter().copied().chain([m]).collect();
        return judge(rules, start, &all);
    };
    let articles = match e {
        IllegalMove::KingsWouldFace { .. } => vec![rules.article("cxa1999.4.1.2")],
        IllegalMove::LeavesKingInCheck { .. } => {
            vec![rules.article("cxa1999.3.1"), rules.article("cxa1999.4.1.6")]
        }
        _ => {
            return Err(JudgeError::IllegalMove {
                index,
                mv: m.to_string(),
                reason: e.to_string(),
            })
        }
    };
    let mover = end.side_to_move();
    // A repetition short of the ruling point decides nothing: the forbidden move does.
    let mut j = Judgement {
        ruling: Ruling::None,
        must_change: None,
        immediate: false,
        pending: false,
        cycle: Vec::new(),
        red_pattern: None,
        black_pattern: None,
        details: Vec::new(),
        ..j
    };
    j.result = winner(mover);
    j.ply = index;
    j.reason = format!("move {index} {m}: {e}; {mover} loses");
    j.articles = articles;
    Ok(j)
}

/// The natural limit (4.2.4, 23.3): after `plies` plies without a capture, in which each side
/// gave `checks[side]` checks, can a side claim the draw? The claimant's checks beyond
/// `check_cap_moves` do not count, and neither do their rounds (reading `check-cap-reading`;
/// either side may claim, reading `natural-limit-claimant`).
pub(crate) fn natural_limit_claimant(
    rules: &RuleSet,
    plies: u32,
    checks: [u32; 2],
) -> Option<Side> {
    if rules.natural_limit_moves == 0 {
        return None;
    }
    let limit = 2 * rules.natural_limit_moves;
    Side::BOTH.into_iter().find(|s| {
        let excess = checks[s.index()].saturating_sub(rules.check_cap_moves);
        plies.saturating_sub(2 * excess) >= limit
    })
}

/// Classifies the cycle `from+1 ..= to` (plies) and rules on it.
fn rule_cycle(
    rules: &RuleSet,
    boards: &[Board],
    moves: &[OMove],
    from: usize,
    to: usize,
    pending: bool,
) -> Judgement {
    let mut cycle: Vec<Classification> = Vec::new();
    // The move before the cycle gives context (a block answers the kill just before it), read
    // in its own context (the board before the move before it).
    let mut prev: Option<Classification> = if from >= 1 {
        let earlier = from.checked_sub(2).map(|i| &boards[i]);
        classify_with_context(rules, &boards[from - 1], moves[from - 1], None, earlier).ok()
    } else {
        None
    };
    for ply in from + 1..=to {
        let earlier = ply.checked_sub(2).map(|i| &boards[i]);
        let c = classify_with_context(
            rules,
            &boards[ply - 1],
            moves[ply - 1],
            prev.as_ref(),
            earlier,
        )
        .expect("moves were checked");
        prev = Some(c.clone());
        cycle.push(c);
    }
    cycle::apply_pawn_clause(rules, &mut cycle);
    if rules.classifier == "axf" {
        axf::mark_persistent_chases(&mut cycle);
    }
    let red = cycle::side_pattern(rules, &cycle, Side::Red);
    let black = cycle::side_pattern(rules, &cycle, Side::Black);
    let ruling = cycle::rule(rules, &red, &black);
    let mut j = Judgement {
        rules: rules.id.clone(),
        result: GameResult::Ongoing,
        reason: String::new(),
        ply: to,
        articles: Vec::new(),
        ruling: Ruling::None,
        must_change: None,
        immediate: false,
        pending,
        cycle: cycle
            .iter()
            .enumerate()
            .map(|(k, c)| CycleMove {
                ply: from + 1 + k,
                mv: c.mv.to_string(),
                side: c.side.into(),
                class: c.class,
                targets: c.targets.iter().map(|t| t.to_string()).collect(),
                articles: c.articles.clone(),
                note: c.note.clone(),
            })
            .collect(),
        red_pattern: red.pattern.as_ref().map(|p| p.name.clone()),
        black_pattern: black.pattern.as_ref().map(|p| p.name.clone()),
        details: Vec::new(),
    };
    for (side, p) in [(Side::Red, &red), (Side::Black, &black)] {
        if let Some(pat) = &p.pattern {
            let mut line = format!(
                "{side}: {} ({}), {} ({})",
                pat.name,
                pat.zh_name,
                if pat.forbidden {
                    "forbidden 禁止著法"
                } else {
                    "allowed 允許著法"
                },
                pat.article
            );
            if let Some(k) = &p.chase_kind {
                let _ = write!(line, "; {k}");
            }
            j.details.push(line);
        }
    }
    let Some(r) = ruling else {
        j.reason = "repetition, but no pattern or ruling row applies".to_string();
        return j;
    };
    j.ruling = match r.result.as_str() {
        "red_loses" => Ruling::RedLoses,
        "black_loses" => Ruling::BlackLoses,
        _ => Ruling::Draw,
    };
    j.must_change = r.must_change.map(SideName::from);
    j.immediate = r.immediate;
    j.articles = r.articles.clone();
    if let Some(s) = r.must_change {
        debug_assert_eq!(j.ruling, side_loses(s));
    }
    let count = if pending {
        "repeated"
    } else {
        "repeated three times"
    };
    j.reason = if rules.cycle_from_first {
        // AXF (`cycle_span: all`): every move since the first occurrence is ruled on.
        format!(
            "{} plies since the position first occurred ({}); {}",
            cycle.len(),
            if pending {
                "repeated, not yet three times"
            } else {
                "now its third occurrence"
            },
            r.reason
        )
    } else if (from + 1..to).any(|k| position_key(&boards[k]) == position_key(&boards[from])) {
        // CXA, two stretches that differ: both are ruled on.
        format!(
            "the {} plies of the position's last two repetitions, which differ (both ruled on), now its third occurrence; {}",
            cycle.len(),
            r.reason
        )
    } else {
        format!("cycle of {} plies {count}; {}", cycle.len(), r.reason)
    };
    if !pending && r.immediate {
        j.result = match j.ruling {
            Ruling::RedLoses => GameResult::BlackWins,
            Ruling::BlackLoses => GameResult::RedWins,
            _ => GameResult::Draw,
        };
    }
    j
}

/// The ruling explained in English with the Chinese terms: the cycle move by move (class,
/// targets, articles, why), each side's pattern, and the ruling with its articles.
pub fn explain(j: &Judgement, start: &Board) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Rules: {}", j.rules);
    let _ = writeln!(out, "Start position:\n{start}\n");
    if !j.cycle.is_empty() {
        let _ = writeln!(
            out,
            "Repeated cycle (plies {}-{}):",
            j.cycle.first().map_or(0, |c| c.ply),
            j.cycle.last().map_or(0, |c| c.ply)
        );
        let _ = writeln!(
            out,
            "{:>4}  {:<5}  {:<5}  {:<12}  {:<10}  articles",
            "ply", "side", "move", "class", "targets"
        );
        for c in &j.cycle {
            let class = format!("{} {}", c.class.name(), c.class.zh());
            let side = match c.side {
                SideName::Red => "red",
                SideName::Black => "black",
            };
            let _ = writeln!(
                out,
                "{:>4}  {:<5}  {:<5}  {:<12}  {:<10}  {}",
                c.ply,
                side,
                c.mv,
                class,
                c.targets.join(","),
                c.articles.join(", ")
            );
            let _ = writeln!(out, "      {}", c.note);
        }
        out.push('\n');
    }
    for d in &j.details {
        let _ = writeln!(out, "{d}");
    }
    let ruling = match j.ruling {
        Ruling::RedLoses => "red loses",
        Ruling::BlackLoses => "black loses",
        Ruling::Draw => "draw",
        Ruling::None => "none",
    };
    let _ = writeln!(
        out,
        "Ruling: {ruling}{}",
        match (j.must_change, j.immediate) {
            (Some(_), _) if j.result != GameResult::Ongoing => {
                " (it had to change, 變著, and repeated the cycle)"
            }
            (Some(SideName::Red), _) => " unless red changes (變著, must change)",
            (Some(SideName::Black), _) => " unless black changes (變著, must change)",
            (None, true) => " (at once)",
            _ => "",
        }
    );
    if j.pending {
        let _ = writeln!(
            out,
            "(pending: the position has not yet occurred three times)"
        );
    }
    let result = match j.result {
        GameResult::RedWins => "red wins",
        GameResult::BlackWins => "black wins",
        GameResult::Draw => "draw",
        GameResult::Ongoing => "ongoing",
    };
    let _ = writeln!(out, "Result after ply {}: {result}", j.ply);
    let _ = writeln!(out, "Reason: {}", j.reason);
    let _ = writeln!(out, "Articles: {}", j.articles.join(", "));
    out
}
