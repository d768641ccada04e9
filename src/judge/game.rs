//! Judging a game: the end of the game by checkmate, stalemate, the natural limit and the
//! repetition rules, as [`judge`] (whole game) and [`Adjudicator`] (incremental, for engines).
//! The JSON of a [`Judgement`] and the text of [`explain`] are those of the oracle's judge.

use std::fmt::Write as _;

use serde::Serialize;

use super::classify::{classify_after, is_kill};
use super::cycle::{self, SidePattern};
use super::{Classification, JudgeError, MoveClass, RuleSet, Tracked};
use crate::{Color, Move, Outcome, Position, RankConvention, Square, UndoInfo};

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

impl From<Color> for SideName {
    fn from(c: Color) -> SideName {
        match c {
            Color::Red => SideName::Red,
            Color::Black => SideName::Black,
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

/// The answer of [`judge`]; its JSON form (`serde_json::to_string`) is the oracle's contract.
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

impl Judgement {
    fn new(rules: &RuleSet, ply: usize) -> Judgement {
        Judgement {
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
        }
    }
}

fn winner_of(loser: Color) -> GameResult {
    match loser {
        Color::Red => GameResult::BlackWins,
        Color::Black => GameResult::RedWins,
    }
}

/// The natural limit (4.2.4, 23.3): after `plies` plies without a capture, in which each side
/// gave `checks[side]` checks, the side that can claim the draw, if any. The claimant's checks
/// beyond `check_cap_moves` do not count, and neither do their rounds.
pub fn natural_limit_claimant(rules: &RuleSet, plies: u32, checks: [u32; 2]) -> Option<Color> {
    if rules.natural_limit_moves == 0 {
        return None;
    }
    let limit = 2 * rules.natural_limit_moves;
    [Color::Red, Color::Black].into_iter().find(|s| {
        let excess = checks[s.index()].saturating_sub(rules.check_cap_moves);
        plies.saturating_sub(2 * excess) >= limit
    })
}

fn natural_limit_judgement(rules: &RuleSet, ply: usize, claimant: Color) -> Judgement {
    let mut j = Judgement::new(rules, ply);
    j.result = GameResult::Draw;
    j.reason = format!(
        "{} rounds without a capture (自然限着); {}'s checks counted at most {} times",
        rules.natural_limit_moves,
        claimant.name(),
        rules.check_cap_moves
    );
    j.articles = rules.natural_limit_articles.clone();
    j
}

fn outcome_judgement(rules: &RuleSet, ply: usize, outcome: Outcome) -> Judgement {
    let mut j = Judgement::new(rules, ply);
    let loser = outcome.winner().other();
    j.result = winner_of(loser);
    match outcome {
        Outcome::Checkmate { .. } => {
            j.reason = format!("{} is checkmated (將死)", loser.name());
            j.articles = rules.mate_articles.clone();
        }
        Outcome::Stalemate { .. } => {
            j.reason = format!("{} has no legal move (困毙) and loses", loser.name());
            j.articles = rules.stalemate_articles.clone();
        }
    }
    j
}

thread_local! {
    /// The emptied list of the last cycle classified on this thread, for the next one: a list
    /// of eight classifications is over a kilobyte, and a fresh block of that size sends glibc's
    /// allocator through its slow path (consolidating its freed small blocks first) once per
    /// judged game.
    static SPARE_CYCLE: std::cell::RefCell<Vec<Classification>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Longest spare cycle list kept (longer ones are freed).
const SPARE_CYCLE_KEPT: usize = 64;

/// An empty list for a cycle's classifications (the spare one of this thread, if any).
fn spare_cycle() -> Vec<Classification> {
    SPARE_CYCLE
        .try_with(|c| std::mem::take(&mut *c.borrow_mut()))
        .unwrap_or_default()
}

/// Gives the emptied list back for the next cycle on this thread.
fn recycle_cycle(v: Vec<Classification>) {
    debug_assert!(v.is_empty());
    if v.capacity() <= SPARE_CYCLE_KEPT {
        let _ = SPARE_CYCLE.try_with(|c| *c.borrow_mut() = v);
    }
}

/// Classifies the cycle of plies `from+1 ..= to` of `moves` played from `start` and rules on
/// it (the oracle's `rule_cycle`). The moves must be legal.
fn rule_cycle(
    rules: &RuleSet,
    start: &Position,
    moves: &[Move],
    from: usize,
    to: usize,
    pending: bool,
) -> Judgement {
    // Replay from the start, so that piece identities are those of the whole game.
    let mut t = Tracked::new(start.clone());
    // The position before the move before the cycle: the context of its kill test.
    let mut before_previous: Option<Tracked> = None;
    for (i, m) in moves[..from.saturating_sub(1)].iter().enumerate() {
        if i + 2 == from {
            before_previous = Some(t.clone());
        }
        t.play(*m);
    }
    // The move before the cycle gives context: a block answers the kill just before it (the
    // AXF classifier has no block).
    let mut prev_is_kill = false;
    // The Asian rules: the classification of the opponent's move just before (a cut that
    // parries the chase it made is no chase), the move before the cycle classified without
    // its own context (the oracle's `rule_cycle`).
    let axf = rules.classifier == "axf";
    let mut before_cycle: Option<Classification> = None;
    // The position before the opponent's move just before (newness after a check, 2011
    // 26.1.2); kept only where the rule set reads newness in context.
    let in_context = !axf && rules.newness_in_context;
    let mut earlier: Option<Tracked> = None;
    if from >= 1 {
        if axf {
            before_cycle = Some(super::axf::classify(rules, &t, moves[from - 1], None));
        }
        prev_is_kill = !axf && is_kill(rules, &t, moves[from - 1], before_previous.as_ref());
        if in_context {
            earlier = Some(t.clone());
        }
        t.play(moves[from - 1]);
    }
    let mut cycle = spare_cycle();
    cycle.reserve(to - from);
    // The position the cycle starts from, to see whether the span holds two stretches (CXA,
    // when they differ: `Adjudicator::cycle_start`).
    let from_key = t.pos.hash();
    let mut stretches = 1;
    // A span that runs from the first occurrence (AXF) passes each position of the cycle twice:
    // a move made again from the same pieces on the same points (`ids`: a piece never changes
    // its kind), after the same kind of move, has the classification of its earlier pass. (A
    // span from the previous occurrence (CXA) seldom passes a position twice: it classifies
    // every move.) Under the Asian rules the move before must be the same too: the cycle's
    // move before the `i`-th is `cycle[i - 1]`, or the one before the cycle.
    let reuse = rules.cycle_from_first;
    let mut seen: Vec<(Color, [u8; 90], bool)> =
        Vec::with_capacity(if reuse { to - from } else { 0 });
    for m in &moves[from..to] {
        let now = (t.pos.turn(), t.ids, prev_is_kill);
        let before = |i: usize| match i {
            0 => before_cycle.as_ref(),
            i => cycle.get(i - 1),
        };
        let prev = before(cycle.len()).filter(|_| axf);
        let c = match seen
            .iter()
            .zip(&cycle)
            .enumerate()
            .find(|(i, (k, c))| c.mv == *m && **k == now && (!axf || before(*i) == prev))
        {
            Some((_, (_, c))) => c.clone(),
            None if axf => super::axf::classify(rules, &t, *m, prev),
            None => classify_after(rules, &t, *m, prev_is_kill, earlier.as_ref())
                .expect("moves were checked"),
        };
        if reuse {
            seen.push(now);
        }
        if in_context {
            earlier = Some(t.clone());
        }
        t.play(*m);
        prev_is_kill = c.class == MoveClass::Kill;
        cycle.push(c);
        if t.pos.hash() == from_key && cycle.len() < to - from {
            stretches += 1;
        }
    }
    cycle::apply_pawn_clause(rules, &mut cycle);
    if rules.classifier == "axf" {
        super::axf::mark_persistent_chases(&mut cycle);
    }
    let red = cycle::side_pattern(rules, &cycle, Color::Red);
    let black = cycle::side_pattern(rules, &cycle, Color::Black);
    let ruling = cycle::rule(rules, &red, &black);
    let mut j = Judgement::new(rules, to);
    j.pending = pending;
    let plies = cycle.len();
    // The classifications are not needed after the patterns: their texts move into the report.
    j.cycle = cycle
        .drain(..)
        .enumerate()
        .map(|(k, c)| CycleMove {
            ply: from + 1 + k,
            mv: c.mv.to_iccs(RankConvention::Iccs),
            side: c.side.into(),
            class: c.class,
            targets: c.targets.iter().map(|s| s.name().to_string()).collect(),
            articles: c.articles,
            note: c.note,
        })
        .collect();
    recycle_cycle(cycle);
    j.red_pattern = red.pattern.as_ref().map(|p| p.name.clone());
    j.black_pattern = black.pattern.as_ref().map(|p| p.name.clone());
    for (side, p) in [(Color::Red, &red), (Color::Black, &black)] {
        j.details.extend(pattern_line(side, p));
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
    let count = if pending {
        "repeated"
    } else {
        "repeated three times"
    };
    j.reason = if rules.cycle_from_first {
        // AXF (`cycle_span: all`): every move since the first occurrence is ruled on.
        format!(
            "{} plies since the position first occurred ({}); {}",
            plies,
            if pending {
                "repeated, not yet three times"
            } else {
                "now its third occurrence"
            },
            r.reason
        )
    } else if stretches > 1 {
        // CXA, two stretches that differ: both are ruled on.
        format!(
            "the {} plies of the position's last two repetitions, which differ (both ruled on), now its third occurrence; {}",
            plies, r.reason
        )
    } else {
        format!("cycle of {} plies {count}; {}", plies, r.reason)
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

fn pattern_line(side: Color, p: &SidePattern) -> Option<String> {
    let pat = p.pattern.as_ref()?;
    let status = if pat.forbidden {
        "forbidden 禁止著法"
    } else {
        "allowed 允許著法"
    };
    // "{side}: {name} ({zh_name}), {status} ({article})[; {chase kind}]", built without the
    // formatting machinery (one line per side of every ruled cycle).
    let mut line = String::with_capacity(96 + pat.name.len() + pat.zh_name.len());
    for part in [
        side.name(),
        ": ",
        &pat.name,
        " (",
        &pat.zh_name,
        "), ",
        status,
        " (",
    ] {
        line.push_str(part);
    }
    line.push_str(&pat.article);
    line.push(')');
    if let Some(k) = &p.chase_kind {
        line.push_str("; ");
        line.push_str(k);
    }
    Some(line)
}

/// Judges a game: plays `moves` from `start` and stops at the first position where the rules
/// end the game or suspend it for a ruling:
///
/// - checkmate (將死) or stalemate (困毙): the side to move loses (art. 3, 4.1);
/// - the `repetition_count`-th occurrence of a position (pieces on their points and side to
///   move; 4.2.3, 24): the moves between its last two occurrences are the cycle, each is
///   classified, each side's pattern found (25.2 / 24.13–24.14) and the ruling table applied;
/// - the natural limit: `natural_limit_moves` rounds without a capture (4.2.4), the claimant's
///   checks counted at most `check_cap_moves` times (23.3).
///
/// When the moves end after a repetition short of the ruling point, the analysis that would
/// apply is reported with `pending: true`. A bad move is an error with its 1-based index.
/// The result is the oracle's, JSON byte for byte.
///
/// ```
/// use xiangqi_rules::judge::{judge, Builtin, GameResult, Ruling, RuleSet};
/// use xiangqi_rules::{parse_moves, Position, RankConvention};
///
/// let rules = RuleSet::builtin("cxa-1999").unwrap();
/// let start = Position::from_fen("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1").unwrap();
/// let moves = parse_moves(&start, "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8", RankConvention::Iccs).unwrap();
/// let j = judge(rules, &start, &moves).unwrap();
/// assert_eq!(j.ruling, Ruling::RedLoses);
/// assert!(j.immediate); // perpetual check (長將) loses at once, art. 24.1
/// assert_eq!(j.result, GameResult::BlackWins);
/// ```
pub fn judge(rules: &RuleSet, start: &Position, moves: &[Move]) -> Result<Judgement, JudgeError> {
    let j = judge_until_the_end(rules, start, moves)?;
    moves_after_are_legal(start, moves, j.ply)?;
    Ok(j)
}

/// The moves after ply `ply`, where judging ended, are legal too: judging stops where the
/// rules end the game or rule on it, but a move list with an illegal move after that point is
/// bad input, not a game (the oracle's `moves_after_are_legal`).
fn moves_after_are_legal(start: &Position, moves: &[Move], ply: usize) -> Result<(), JudgeError> {
    if ply >= moves.len() {
        return Ok(());
    }
    let mut pos = start.clone();
    for m in &moves[..ply] {
        pos.play(*m);
    }
    for (i, m) in moves.iter().enumerate().skip(ply) {
        pos.check_move(*m).map_err(|e| JudgeError::IllegalMove {
            index: i + 1,
            mv: m.to_iccs(RankConvention::Iccs),
            reason: e.to_string(),
        })?;
        pos.play(*m);
    }
    Ok(())
}

/// [`judge`] up to the ply where judging ends, the moves after it unread.
fn judge_until_the_end(
    rules: &RuleSet,
    start: &Position,
    moves: &[Move],
) -> Result<Judgement, JudgeError> {
    let mut adj = Adjudicator::new(rules, start.clone());
    for (i, m) in moves.iter().enumerate() {
        let ply = i + 1;
        // Out of check, most moves and most positions are settled without an attack test (the
        // check state is the adjudicator's, O(1)).
        if adj.in_check() || !adj.pos.is_legal_off_king_lines(*m) {
            adj.pos
                .check_move(*m)
                .map_err(|e| JudgeError::IllegalMove {
                    index: ply,
                    mv: m.to_iccs(RankConvention::Iccs),
                    reason: e.to_string(),
                })?;
        }
        let verdict = adj.push(*m);
        let can_move = !adj.in_check() && adj.pos.has_move_off_king_lines();
        if let Some(outcome) = (!can_move).then(|| adj.pos.outcome()).flatten() {
            return Ok(outcome_judgement(rules, ply, outcome));
        }
        if let Verdict::Ends(j) = verdict {
            return Ok(match adj.previous_occurrence() {
                Some(previous) => change_deadline(rules, *j, moves, previous, ply),
                None => *j,
            });
        }
    }
    if let Some(from) = adj.cycle_start() {
        return Ok(rule_cycle(rules, start, moves, from, moves.len(), true));
    }
    let mut j = Judgement::new(rules, moves.len());
    j.reason = "no repetition, no end of game".to_string();
    Ok(j)
}

/// "once more", "2 more times", … (the oracle's `once_more`).
fn once_more(times: u32) -> String {
    match times {
        1 => "once more".to_string(),
        n => format!("{n} more times"),
    }
}

/// The deadline of a must-change ruling (reading `repeat-after-must-change`; 1999 24.3, 2011 4.1.5; the
/// oracle's `change_deadline`): the ruling `j` was made at ply `ply`, the position having
/// occurred last at ply `previous`. When the moves go on with the same stretch as many more
/// times as the rule set's `loses_after_further_cycles`, the side that had to change loses where
/// the last of them ends; otherwise (or without a deadline) the ruling stands as made.
fn change_deadline(
    rules: &RuleSet,
    mut j: Judgement,
    moves: &[Move],
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
        SideName::Red => Color::Red,
        SideName::Black => Color::Black,
    };
    j.result = winner_of(loser);
    j.reason = format!(
        "{}; {} repeated it {} (plies {}-{end}) instead of changing, and loses",
        j.reason,
        loser.name(),
        once_more(times),
        ply + 1
    );
    j.ply = end;
    j
}

/// Judges a game record whose moves may end with a move the movement rules forbid because it
/// exposes the mover's own king (the oracle's `judge_record`): the kings face each other
/// (4.1.2) or the own king is left attacked (3.1, 4.1.6). When the game goes on after `moves`
/// (no end, no ruling; a repetition short of the ruling point decides nothing), such a `last`
/// loses for its maker; a legal `last` is judged as an ordinary move; a `last` illegal for
/// another reason is an error with its 1-based index.
///
/// ```
/// use xiangqi_rules::judge::{judge_record, Builtin, GameResult, RuleSet};
/// use xiangqi_rules::{Move, Position, RankConvention};
/// let rules = RuleSet::builtin("cxa-1999").unwrap();
/// let start = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
/// // The advisor steps aside: the kings face each other (4.1.2), red loses.
/// let last = Move::parse_iccs("e1d2", RankConvention::Iccs).unwrap();
/// let j = judge_record(rules, &start, &[], Some(last)).unwrap();
/// assert_eq!((j.result, j.ply), (GameResult::BlackWins, 1));
/// assert_eq!(j.articles, ["4.1.2"]);
/// ```
pub fn judge_record(
    rules: &RuleSet,
    start: &Position,
    moves: &[Move],
    last: Option<Move>,
) -> Result<Judgement, JudgeError> {
    let j = judge(rules, start, moves)?;
    let Some(m) = last else {
        return Ok(j);
    };
    if j.result != GameResult::Ongoing || (j.ruling != Ruling::None && !j.pending) {
        // The game ended (or awaits a ruling) before the last move.
        return Ok(j);
    }
    let mut end = start.clone();
    for mv in moves {
        end.play(*mv);
    }
    let index = moves.len() + 1;
    let mv = m.to_iccs(RankConvention::Iccs);
    // The texts and constraint ids are the oracle's (spec/pieces.yaml `constraints`).
    let (articles, why) = match end.check_move(m) {
        Ok(()) => {
            let all: Vec<Move> = moves.iter().copied().chain([m]).collect();
            return judge(rules, start, &all);
        }
        Err(crate::IllegalMoveReason::KingsFacing) => (
            vec![rules.article("cxa1999.4.1.2")],
            "the kings would face each other (constraint kings-not-facing)",
        ),
        Err(crate::IllegalMoveReason::LeavesKingInCheck) => (
            vec![rules.article("cxa1999.3.1"), rules.article("cxa1999.4.1.6")],
            "the move leaves the own king in check (constraint king-not-capturable)",
        ),
        Err(e) => {
            return Err(JudgeError::IllegalMove {
                index,
                mv,
                reason: e.to_string(),
            })
        }
    };
    let mover = end.turn();
    let mut out = Judgement::new(rules, index);
    out.result = winner_of(mover);
    out.reason = format!("move {index} {mv}: {why}; {} loses", mover.name());
    out.articles = articles;
    Ok(out)
}

/// What the rules say after a move pushed on an [`Adjudicator`].
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Play on: no repetition ruling and no natural limit here.
    Continue,
    /// The rule set rules here: a repetition reached its ruling point (the [`Judgement`] says
    /// whether a side loses at once, must change, or the game is drawn), or the natural limit
    /// draws the game.
    Ends(Box<Judgement>),
}

/// Bits of a Zobrist key that choose its slot in a [`KeyFilter`].
const FILTER_BITS: u32 = 12;

/// How many keys of the game (the start and every pushed ply) fall in each of 4,096 slots,
/// chosen by a key's top bits (a Zobrist key is uniformly distributed). A slot counted once
/// holds no repetition; only a slot counted twice or more sends [`Adjudicator`] to the keys of
/// its stack. Counts wrap (a slot would need 65,536 keys to be misread).
#[derive(Clone)]
struct KeyFilter(Box<[u16]>);

thread_local! {
    /// Emptied filters of dropped adjudicators, for the next ones on this thread (zeroing 8 KB
    /// for every judged game was 5% of a judgement's instructions as valgrind counts them).
    static SPARE_FILTERS: std::cell::RefCell<Vec<Box<[u16]>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Spare filters kept per thread at most.
const SPARE_FILTERS_KEPT: usize = 4;

impl KeyFilter {
    fn new() -> KeyFilter {
        let spare = SPARE_FILTERS
            .try_with(|f| f.borrow_mut().pop())
            .ok()
            .flatten();
        KeyFilter(spare.unwrap_or_else(|| vec![0; 1 << FILTER_BITS].into_boxed_slice()))
    }

    /// Gives the filter, every key removed (all counts zero), to the next adjudicator.
    fn recycle(&mut self) {
        debug_assert!(self.0.iter().all(|n| *n == 0), "a key left in the filter");
        let f = std::mem::take(&mut self.0);
        let _ = SPARE_FILTERS.try_with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < SPARE_FILTERS_KEPT && f.len() == 1 << FILTER_BITS {
                s.push(f);
            }
        });
    }

    fn slot(key: u64) -> usize {
        (key >> (64 - FILTER_BITS)) as usize
    }

    /// Counts `key`; returns the count of its slot.
    fn add(&mut self, key: u64) -> u16 {
        let n = &mut self.0[Self::slot(key)];
        *n = n.wrapping_add(1);
        *n
    }

    fn remove(&mut self, key: u64) {
        let n = &mut self.0[Self::slot(key)];
        *n = n.wrapping_sub(1);
    }

    /// Could `key` have been counted more than once?
    fn maybe_repeated(&self, key: u64) -> bool {
        self.0[Self::slot(key)] >= 2
    }
}

impl std::fmt::Debug for KeyFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.0.iter().filter(|n| **n != 0).count();
        write!(f, "KeyFilter({used} of {} slots used)", self.0.len())
    }
}

/// One ply on the adjudicator's stack.
#[derive(Clone, Copy, Debug)]
struct Ply {
    mv: Move,
    undo: UndoInfo,
    /// Hash of the position after the move.
    key: u64,
    plies_since_capture: u32,
    checks_since_capture: [u32; 2],
    /// Whether the move gave check.
    check: bool,
}

/// The per-game repetition detector and arbiter (裁判): push and pop moves as a search does,
/// and after each push learn whether the rule set ends the game there, and how.
///
/// A push costs O(1) when nothing repeats: the incremental Zobrist key of the position (pieces
/// and side to move) is counted in a table of 4,096 slots chosen by its top bits (a slot
/// counted twice sends the push to the keys of the game, which tell whether the position
/// itself repeats), with the plies since the last capture and each
/// side's checks since then (for the natural limit 自然限着 and its check cap). Only at the
/// `repetition_count`-th occurrence of a position (4.2.3) are the moves of the cycle classified
/// (將 check, 殺 kill, 捉 chase, 閒 idle, ...) and ruled on (長將 perpetual check, 長捉 perpetual
/// chase, 不變作和 draw ...).
///
/// Checkmate and stalemate are not tested by [`Adjudicator::push`] (a search sees them when it
/// generates no moves); [`judge`] tests them after every move.
///
/// ```
/// use xiangqi_rules::judge::{Adjudicator, Builtin, RuleSet, Ruling, Verdict};
/// use xiangqi_rules::{parse_moves, Position, RankConvention};
///
/// let rules = RuleSet::builtin("cxa-2011").unwrap();
/// let start = Position::from_fen("2b6/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1").unwrap();
/// let moves = parse_moves(&start, "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8", RankConvention::Iccs).unwrap();
/// let mut adj = Adjudicator::new(rules, start);
/// for m in &moves[..7] {
///     assert_eq!(adj.push(*m), Verdict::Continue);
/// }
/// // The third occurrence of the start position: red's perpetual check (長將) loses.
/// let Verdict::Ends(j) = adj.push(moves[7]) else { panic!("a ruling") };
/// assert_eq!(j.ruling, Ruling::RedLoses);
/// // Take the move back and try another one.
/// adj.pop();
/// assert_eq!(adj.len(), 7);
/// ```
#[derive(Clone, Debug)]
pub struct Adjudicator<'r> {
    rules: &'r RuleSet,
    start: Position,
    pos: Position,
    stack: Vec<Ply>,
    counts: KeyFilter,
    start_plies_since_capture: u32,
    /// Whether the king of the side not to move is attacked in `start` (only a lenient setup
    /// allows it): then the first move may leave a check standing wherever it is made.
    start_attacked: bool,
}

impl Drop for Adjudicator<'_> {
    fn drop(&mut self) {
        // The filter counts the start and the stack's keys: removed, it is all zeros again.
        self.counts.remove(self.start.hash());
        for p in &self.stack {
            self.counts.remove(p.key);
        }
        self.counts.recycle();
    }
}

impl<'r> Adjudicator<'r> {
    /// An adjudicator for a game from `start` (its half-move clock counts towards the natural
    /// limit, as in [`judge`]).
    pub fn new(rules: &'r RuleSet, start: Position) -> Adjudicator<'r> {
        let mut counts = KeyFilter::new();
        counts.add(start.hash());
        Adjudicator {
            rules,
            start_plies_since_capture: start.halfmoves(),
            start_attacked: start.king_attacked(start.turn().other()),
            pos: start.clone(),
            start,
            stack: Vec::with_capacity(16),
            counts,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves pushed so far.
    pub fn moves(&self) -> Vec<Move> {
        self.stack.iter().map(|p| p.mv).collect()
    }

    /// Number of moves pushed.
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// No move pushed yet?
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// Is the side to move in check? Known from the last push (O(1)); the start position is
    /// tested.
    ///
    /// ```
    /// use xiangqi_rules::judge::{Adjudicator, Builtin, RuleSet};
    /// use xiangqi_rules::{Move, Position, RankConvention};
    ///
    /// let rules = RuleSet::builtin("cxa-1999").unwrap();
    /// let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap();
    /// let mut adj = Adjudicator::new(rules, start);
    /// assert!(!adj.in_check());
    /// let m = Move::parse_iccs("a0e0", RankConvention::Iccs).unwrap();
    /// assert!(adj.position().is_legal(m));
    /// adj.push(m);
    /// assert!(adj.in_check()); // the rook checks along the e-file
    /// adj.pop();
    /// assert!(!adj.in_check());
    /// ```
    pub fn in_check(&self) -> bool {
        self.stack
            .last()
            .map_or_else(|| self.pos.is_check(), |p| p.check)
    }

    /// How often the current position (pieces and side to move) has occurred in this game.
    pub fn occurrences(&self) -> u32 {
        let key = self.pos.hash();
        if self.counts.maybe_repeated(key) {
            self.count_of(key)
        } else {
            1
        }
    }

    /// How many positions of the game (the start and after each pushed move) have `key`.
    fn count_of(&self, key: u64) -> u32 {
        let later = self.stack.iter().filter(|p| p.key == key).count() as u32;
        later + u32::from(self.start.hash() == key)
    }

    /// Plies since the last capture (counting the start position's half-move clock).
    pub fn plies_since_capture(&self) -> u32 {
        self.stack
            .last()
            .map_or(self.start_plies_since_capture, |p| p.plies_since_capture)
    }

    /// Plays `m`, which must be legal in the current position (not checked; see
    /// [`Position::check_move`]), and says whether the rule set ends the game here: the
    /// repetition ruling at the `repetition_count`-th occurrence of the position, or the draw
    /// by the natural limit. The repetition is tested first, as in [`judge`].
    pub fn push(&mut self, m: Move) -> Verdict {
        let mover = self.pos.turn();
        let capture = self.pos.piece_at(m.to()).is_some();
        let (mut plies, mut checks) = self
            .stack
            .last()
            .map_or((self.start_plies_since_capture, [0, 0]), |p| {
                (p.plies_since_capture, p.checks_since_capture)
            });
        // Incremental check information: the king of the side not to move is not attacked
        // before a move (the other side's move was legal), so a move that touches neither its
        // rank, its file nor the box around it leaves it unattacked, and is not tested.
        let may_check =
            self.pos.touches_king_lines(m) || (self.stack.is_empty() && self.start_attacked);
        let undo = self.pos.play(m);
        if capture {
            plies = 0;
            checks = [0, 0];
        } else {
            plies += 1;
        }
        let check = may_check && self.pos.is_check();
        if check {
            checks[mover.index()] += 1;
        }
        let key = self.pos.hash();
        self.stack.push(Ply {
            mv: m,
            undo,
            key,
            plies_since_capture: plies,
            checks_since_capture: checks,
            check,
        });
        if self.counts.add(key) >= 2 && self.count_of(key) >= self.rules.repetition_count {
            let from = self.cycle_start().expect("two occurrences at least");
            let moves = self.moves();
            return Verdict::Ends(Box::new(rule_cycle(
                self.rules,
                &self.start,
                &moves,
                from,
                moves.len(),
                false,
            )));
        }
        if let Some(claimant) = natural_limit_claimant(self.rules, plies, checks) {
            return Verdict::Ends(Box::new(natural_limit_judgement(
                self.rules,
                self.stack.len(),
                claimant,
            )));
        }
        Verdict::Continue
    }

    /// Takes back the last move pushed (`None` when there is none).
    pub fn pop(&mut self) -> Option<Move> {
        let p = self.stack.pop()?;
        self.counts.remove(p.key);
        self.pos.undo(p.mv, p.undo);
        Some(p.mv)
    }

    /// The ply (0 = the start) of the previous occurrence of the current position, if it
    /// occurred before. Scans the stack: called only when a position repeats.
    fn previous_occurrence(&self) -> Option<usize> {
        let key = self.pos.hash();
        if !self.counts.maybe_repeated(key) {
            return None;
        }
        (0..self.stack.len())
            .rev()
            .find(|&ply| self.key_at(ply) == key)
    }

    /// The key of the position after ply `ply` (0 = the start).
    fn key_at(&self, ply: usize) -> u64 {
        if ply == 0 {
            self.start.hash()
        } else {
            self.stack[ply - 1].key
        }
    }

    /// Where the cycle to rule on starts (a ply; 0 = the start) when the current position
    /// occurred before: its previous occurrence, or its first with `cycle_from_first` (AXF).
    ///
    /// Without `cycle_from_first` (CXA), when the position occurred before `previous` too and
    /// the moves of that earlier stretch differ from the last stretch's, the cycle is both
    /// stretches, from that earlier occurrence (reading `repetition-count-positions`: the
    /// patterns are those of every move of the repetition; the oracle's `judge`).
    fn cycle_start(&self) -> Option<usize> {
        let previous = self.previous_occurrence()?;
        let key = self.pos.hash();
        if !self.rules.cycle_from_first {
            let last = &self.stack[previous..];
            let Some(earlier) = (0..previous).rev().find(|&ply| self.key_at(ply) == key) else {
                return Some(previous);
            };
            let same = self.stack[earlier..previous]
                .iter()
                .map(|p| p.mv)
                .eq(last.iter().map(|p| p.mv));
            return Some(if same { previous } else { earlier });
        }
        (0..=previous).find(|&ply| self.key_at(ply) == key)
    }

    /// The ruling on the game so far as [`judge`] would give it after the last move (a
    /// repetition short of its ruling point is reported `pending`), without the checkmate and
    /// stalemate tests.
    pub fn judgement(&self) -> Judgement {
        let moves = self.moves();
        let ply = moves.len();
        let plies = self.plies_since_capture();
        let checks = self.stack.last().map_or([0, 0], |p| p.checks_since_capture);
        let occ = self.occurrences();
        if let Some(from) = self.cycle_start() {
            let pending = occ < self.rules.repetition_count;
            return rule_cycle(self.rules, &self.start, &moves, from, ply, pending);
        }
        if ply > 0 {
            if let Some(c) = natural_limit_claimant(self.rules, plies, checks) {
                return natural_limit_judgement(self.rules, ply, c);
            }
        }
        let mut j = Judgement::new(self.rules, ply);
        j.reason = "no repetition, no end of game".to_string();
        j
    }
}

/// The oracle's board diagram: rank 9 at the top, then the FEN.
fn diagram(p: &Position) -> String {
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        let _ = write!(out, "{rank} ");
        for file in 0..9u8 {
            out.push(
                p.piece_at(Square::at(file, rank))
                    .map_or('.', |pc| pc.fen_char()),
            );
        }
        out.push('\n');
    }
    out.push_str("  abcdefghi\n");
    out.push_str(&p.to_fen());
    out
}

/// The ruling explained in English with the Chinese terms: the cycle move by move (class,
/// targets, articles, why), each side's pattern, and the ruling with its articles. The text is
/// the oracle's.
pub fn explain(j: &Judgement, start: &Position) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Rules: {}", j.rules);
    let _ = writeln!(out, "Start position:\n{}\n", diagram(start));
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
    let change = match (j.must_change, j.immediate) {
        (Some(_), _) if j.result != GameResult::Ongoing => {
            " (it had to change, 變著, and repeated the cycle)"
        }
        (Some(SideName::Red), _) => " unless red changes (變著, must change)",
        (Some(SideName::Black), _) => " unless black changes (變著, must change)",
        (None, true) => " (at once)",
        _ => "",
    };
    let _ = writeln!(out, "Ruling: {ruling}{change}");
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
