//! Differential testing of the fast repetition judge (`xiangqi_rules::judge`) against the
//! oracle's (`xiangqi_oracle::judge`): generators of games with repetition cycles built in, and
//! comparisons of the full JSON of the judgement (`serde_json::to_string`), of the explanation
//! text, and of single-move classifications.
//!
//! A divergence ([`JudgeDivergence`]) prints a YAML stub, ready to save as a named regression
//! case in `tests/regressions/judge/` (replayed by `tests/judge_regressions.rs`).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use arbitrary::Unstructured;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use xiangqi_oracle as o;
use xiangqi_rules::judge::{self as f, Builtin};
use xiangqi_rules::{Move, Position, RankConvention};

use crate::{random_valid_fen, START_FEN};

/// The rule sets both judges know.
pub fn rule_set_ids() -> Vec<&'static str> {
    f::BUILTIN_RULE_SETS
        .iter()
        .copied()
        .filter(|id| o::judge::RULE_SETS.contains(id))
        .collect()
}

/// The oracle's rule set `id` (the embedded copy), parsed once per process: parsing the YAML
/// overlays costs milliseconds, more than judging a short game.
pub fn oracle_rules(id: &str) -> Option<&'static o::judge::RuleSet> {
    static RULES: OnceLock<Vec<o::judge::RuleSet>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            o::judge::RULE_SETS
                .iter()
                .filter_map(|id| o::judge::RuleSet::embedded(id).ok())
                .collect()
        })
        .iter()
        .find(|r| r.id == id)
}

/// A game for the judges: a rule set, a start position and moves (ICCS).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeCase {
    /// Rule set id.
    pub rules: String,
    /// Start position.
    pub fen: String,
    /// The moves in ICCS.
    pub moves: Vec<String>,
}

/// The fast and the oracle judge disagree (or one fails where the other does not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeDivergence {
    /// The game.
    pub case: JudgeCase,
    /// What differs: `json`, `explanation`, `error`, `classification`.
    pub aspect: &'static str,
    /// The fast judge's answer.
    pub fast: String,
    /// The oracle's answer.
    pub oracle: String,
    /// The search depths both judges were cut to (kill, chase plies; [`compare_judge_at`]),
    /// `None` for the rule set's own.
    pub depths: Option<(u32, u32)>,
}

impl fmt::Display for JudgeDivergence {
    /// A YAML regression stub (`tests/regressions/judge/`, the schema of
    /// `tests/judge_regressions.rs`) with both answers as comments.
    fn fmt(&self, fm: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.case;
        let side = if c.fen.split(' ').nth(1) == Some("b") {
            "black"
        } else {
            "red"
        };
        let target = if self.aspect == "classification" {
            "classify_diff"
        } else {
            "judge_diff"
        };
        writeln!(
            fm,
            "# divergence between the fast judge and the oracle ({}). Save as",
            self.aspect
        )?;
        writeln!(
            fm,
            "# tests/regressions/judge/NAME.yaml, set `name: NAME`, say in `note` which side was"
        )?;
        writeln!(
            fm,
            "# wrong, record `expected` from the agreed judgement once fixed (drop a field you do"
        )?;
        writeln!(
            fm,
            "# not check), and list NAME in tests/judge_regressions.rs. A case that teaches a rule"
        )?;
        writeln!(
            fm,
            "# also belongs in spec/examples/{}/ (schema: spec/examples/README.md).",
            c.rules
        )?;
        writeln!(fm, "name: TODO-name-this-case")?;
        writeln!(fm, "aspect: {}", self.aspect)?;
        writeln!(fm, "rules: {}", c.rules)?;
        writeln!(fm, "fen: {}", c.fen)?;
        writeln!(fm, "side_to_move: {side}")?;
        writeln!(fm, "moves_full: [{}]", c.moves.join(", "))?;
        if let Some((kill, chase)) = self.depths {
            writeln!(
                fm,
                "search_depths: {{kill: {kill}, chase: {chase}}}  # both judges cut to these plies"
            )?;
        }
        writeln!(
            fm,
            "note: \"found by the {target} fuzz target; TODO: which side was wrong, and the fix\""
        )?;
        writeln!(fm, "expected:")?;
        writeln!(
            fm,
            "  ruling: TODO  # red_loses | black_loses | draw | none"
        )?;
        writeln!(fm, "  must_change: TODO  # red | black | null")?;
        writeln!(fm, "  immediate: TODO  # true | false")?;
        writeln!(fm, "  pending: TODO  # true | false")?;
        for (who, text) in [("fast", &self.fast), ("oracle", &self.oracle)] {
            writeln!(fm, "# {who}:")?;
            for line in text.lines() {
                writeln!(fm, "#   {line}")?;
            }
        }
        Ok(())
    }
}

/// The outcome of judging one case with both judges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreed {
    /// The common JSON (or the error, when both reject the same move).
    pub json: String,
    /// Did a repetition cycle get ruled on (or pending)?
    pub cycle: bool,
}

/// Judges `case` with both judges and compares the JSON, byte for byte, and the explanation
/// text. Both may reject a move, at the same index.
pub fn compare_judge(case: &JudgeCase) -> Result<Agreed, Box<JudgeDivergence>> {
    compare_judge_with(case, false)
}

/// [`compare_judge`], with both sides reading the FEN leniently when `lenient` (a worked
/// example whose transcription has a known slip, `fen_problems`, e.g. a pawn on a point no
/// pawn can reach: `Position::from_fen_lenient` and `Board::from_fen_lenient`).
pub fn compare_judge_with(case: &JudgeCase, lenient: bool) -> Result<Agreed, Box<JudgeDivergence>> {
    compare(case, lenient, None)
}

/// Both rule sets, with their kill search and chase search by checks cut alike to `depths`
/// (kill, chase plies) when given; borrowed as they are otherwise.
fn cut_to<'a>(
    frules: &'a f::RuleSet,
    orules: &'a o::judge::RuleSet,
    depths: Option<(u32, u32)>,
) -> (Cow<'a, f::RuleSet>, Cow<'a, o::judge::RuleSet>) {
    let Some((kill, chase)) = depths else {
        return (Cow::Borrowed(frules), Cow::Borrowed(orules));
    };
    let (mut fr, mut or) = (frules.clone(), orules.clone());
    (fr.kill_search_depth, fr.chase_search_depth) = (kill, chase);
    (or.kill_search_depth, or.chase_search_depth) = (kill, chase);
    (Cow::Owned(fr), Cow::Owned(or))
}

/// [`compare_judge`] with both judges' searches cut to `kill` plies (the kill search,
/// `kill_search_depth`) and `chase` plies (the chase search by consecutive checks,
/// `chase_search_depth`): at shallow depths the oracle judges in milliseconds even the games
/// rich in checks that take it seconds at the rule sets' depths (the fuzz entries' option
/// [`FUZZ_CUT_ENV`]; the replay of a divergence found that way). The rulings differ from the
/// rule sets' own; both judges read the same cut parameters.
pub fn compare_judge_at(
    case: &JudgeCase,
    kill: u32,
    chase: u32,
) -> Result<Agreed, Box<JudgeDivergence>> {
    compare(case, false, Some((kill, chase)))
}

fn compare(
    case: &JudgeCase,
    lenient: bool,
    depths: Option<(u32, u32)>,
) -> Result<Agreed, Box<JudgeDivergence>> {
    let diverge = |aspect, fast: String, oracle: String| {
        Box::new(JudgeDivergence {
            case: case.clone(),
            aspect,
            fast,
            oracle,
            depths,
        })
    };
    let frules = f::RuleSet::builtin(&case.rules);
    let orules = oracle_rules(&case.rules);
    let (Some(frules), Some(orules)) = (frules, orules) else {
        return Err(diverge(
            "rule set",
            format!("{:?}", frules.map(|r| &r.id)),
            "(see RuleSet::embedded)".into(),
        ));
    };
    let (fr, or) = cut_to(frules, orules, depths);
    let (frules, orules) = (&*fr, &*or);
    let (fstart, ostart) = if lenient {
        (
            Position::from_fen_lenient(&case.fen)
                .map(|(p, _)| p)
                .map_err(|e| e.to_string()),
            o::Board::from_fen_lenient(o::Spec::embedded(), &case.fen)
                .map(|(b, _)| b)
                .map_err(|e| e.to_string()),
        )
    } else {
        (
            Position::from_fen(&case.fen).map_err(|e| e.to_string()),
            o::Board::from_fen(o::Spec::embedded(), &case.fen).map_err(|e| e.to_string()),
        )
    };
    let (fstart, ostart) = match (fstart, ostart) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(_), Err(_)) => {
            return Ok(Agreed {
                json: "bad FEN".into(),
                cycle: false,
            })
        }
        (a, b) => {
            return Err(diverge(
                "fen",
                format!("{:?}", a.err()),
                format!("{:?}", b.err()),
            ))
        }
    };
    // Moves both can parse; a text that is not ICCS stops the list for both.
    let mut fmoves = Vec::new();
    let mut omoves = Vec::new();
    for m in &case.moves {
        match (
            Move::parse_iccs(m, RankConvention::Iccs),
            m.parse::<o::OMove>(),
        ) {
            (Ok(a), Ok(b)) => {
                fmoves.push(a);
                omoves.push(b);
            }
            _ => break,
        }
    }
    let fj = f::judge(frules, &fstart, &fmoves);
    let oj = o::judge::judge(orules, &ostart, &omoves);
    match (fj, oj) {
        (Ok(fj), Ok(oj)) => {
            let fs = serde_json::to_string(&fj).expect("serialises");
            let os = serde_json::to_string(&oj).expect("serialises");
            if fs != os {
                return Err(diverge("json", fs, os));
            }
            let fe = f::explain(&fj, &fstart);
            let oe = o::judge::explain(&oj, &ostart);
            if fe != oe {
                return Err(diverge("explanation", fe, oe));
            }
            Ok(Agreed {
                json: fs,
                cycle: !fj.cycle.is_empty(),
            })
        }
        (Err(f::JudgeError::IllegalMove { index: fi, .. }), Err(oe)) => {
            let o::JudgeError::IllegalMove { index: oi, .. } = &oe;
            if fi != *oi {
                return Err(diverge("error", format!("move {fi}"), oe.to_string()));
            }
            Ok(Agreed {
                json: format!("illegal move {fi}"),
                cycle: false,
            })
        }
        (fj, oj) => Err(diverge(
            "error",
            fj.map(|j| serde_json::to_string(&j).unwrap_or_default())
                .unwrap_or_else(|e| e.to_string()),
            oj.map(|j| serde_json::to_string(&j).unwrap_or_default())
                .unwrap_or_else(|e| e.to_string()),
        )),
    }
}

/// Random choices for the generator: from fuzz bytes or from a seeded RNG.
pub trait Chooser {
    /// An index below `n` (`n > 0`), or `None` when the source is exhausted.
    fn index(&mut self, n: usize) -> Option<usize>;
}

impl Chooser for Unstructured<'_> {
    fn index(&mut self, n: usize) -> Option<usize> {
        if self.is_empty() {
            None
        } else {
            self.choose_index(n).ok()
        }
    }
}

impl Chooser for ChaCha8Rng {
    fn index(&mut self, n: usize) -> Option<usize> {
        Some(self.gen_range(0..n))
    }
}

fn reverse(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// Finds a reversible pair (a move of the side to move and a reply, neither a capture, each
/// of which can be taken back by moving the piece back) in `pos`.
fn reversible_pair(pos: &Position, ch: &mut dyn Chooser, checks_first: bool) -> Option<[Move; 4]> {
    let mut firsts: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| pos.piece_at(m.to()).is_none())
        .collect();
    if firsts.is_empty() {
        return None;
    }
    // Start at a chosen move and try the others in turn; checking moves first if asked.
    let k = ch.index(firsts.len())?;
    firsts.rotate_left(k);
    if checks_first {
        firsts.sort_by_key(|m| {
            let mut p = pos.clone();
            p.play(*m);
            !p.is_check()
        });
    }
    for m1 in firsts.into_iter().take(24) {
        let mut p1 = pos.clone();
        p1.play(m1);
        let mut replies: Vec<Move> = p1
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| p1.piece_at(m.to()).is_none())
            .collect();
        if replies.is_empty() {
            continue;
        }
        let k = ch.index(replies.len()).unwrap_or(0);
        replies.rotate_left(k);
        for m2 in replies.into_iter().take(12) {
            let mut p2 = p1.clone();
            p2.play(m2);
            let r1 = reverse(m1);
            if !p2.is_legal(r1) {
                continue;
            }
            let mut p3 = p2.clone();
            p3.play(r1);
            let r2 = reverse(m2);
            if p3.is_legal(r2) {
                return Some([m1, m2, r1, r2]);
            }
        }
    }
    None
}

/// Where a generated game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The initial position (art. 1.3).
    Initial,
    /// A sparse random placement: at most three rooks, horses, cannons and pawns a side
    /// ([`crate::sparse_valid_fen`]); endgame-like, cheap for the oracle, rich in chases.
    Sparse,
    /// A full random placement ([`random_valid_fen`]); some are rich in checks and costly for
    /// the oracle (see [`bounded`]).
    Random,
}

impl Start {
    /// The starts, in the order the fuzz bytes choose them (sparse twice as likely).
    const CHOICES: [Start; 4] = [Start::Initial, Start::Sparse, Start::Sparse, Start::Random];

    /// A start position of this kind.
    fn fen(self, ch: &mut dyn Chooser) -> String {
        let seed = (0..8).fold(0u64, |s, _| (s << 8) | ch.index(256).unwrap_or(0) as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match self {
            Start::Initial => START_FEN.to_string(),
            Start::Sparse => {
                let attackers = rng.gen_range(1..=3);
                crate::sparse_valid_fen(&mut rng, attackers)
            }
            Start::Random => random_valid_fen(&mut rng),
        }
    }
}

/// Generates a game with a repetition cycle built in: a start (the initial position, a sparse
/// or a full random placement), a random prefix, then a reversible cycle of two or four moves
/// per side played until its start occurs a third time (or stopped short, for pending rulings),
/// and sometimes a few random moves after it.
pub fn game_with_cycles(ch: &mut dyn Chooser) -> JudgeCase {
    let start = Start::CHOICES[ch.index(Start::CHOICES.len()).unwrap_or(0)];
    game_from(start, ch)
}

/// As [`game_with_cycles`], from a start of kind `start`.
pub fn game_from(start: Start, ch: &mut dyn Chooser) -> JudgeCase {
    let ids = rule_set_ids();
    let rules = ids[ch.index(ids.len()).unwrap_or(0)].to_string();
    let fen = start.fen(ch);
    let mut pos = Position::from_fen(&fen).expect("valid by construction");
    let mut moves = Vec::new();
    let prefix = ch.index(12).unwrap_or(0);
    for _ in 0..prefix {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[ch.index(legal.len()).unwrap_or(0)];
        pos.play(m);
        moves.push(m);
    }
    let checks_first = ch.index(2) == Some(0);
    if let Some(a) = reversible_pair(&pos, ch, checks_first) {
        // One pair, or two pairs after each other (a cycle of eight plies).
        let mut cycle = a.to_vec();
        if ch.index(3) == Some(0) {
            // A second pair from the cycle's middle position.
            let mut mid = pos.clone();
            mid.play(a[0]);
            mid.play(a[1]);
            if let Some(b) = reversible_pair(&mid, ch, checks_first) {
                cycle = vec![a[0], a[1], b[0], b[1], b[2], b[3], a[2], a[3]];
            }
        }
        let full = 2 * cycle.len();
        let cut = match ch.index(4) {
            Some(0) => ch.index(full).unwrap_or(0) + 1,
            _ => full,
        };
        for m in cycle.iter().cycle().take(cut) {
            moves.push(*m);
        }
    }
    let mut pos = Position::from_fen(&fen).expect("valid");
    for m in &moves {
        pos.play(*m);
    }
    for _ in 0..ch.index(3).unwrap_or(0) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[ch.index(legal.len()).unwrap_or(0)];
        pos.play(m);
        moves.push(m);
    }
    JudgeCase {
        rules,
        fen,
        moves: moves
            .iter()
            .map(|m| m.to_iccs(RankConvention::Iccs))
            .collect(),
    }
}

/// The environment variable that cuts the fuzz entries' searches: `KILL,CHASE` (plies of the
/// kill search and of the chase search by consecutive checks, e.g. `5,5`), both judges cut alike
/// ([`compare_judge_at`]). Unset (the default), [`fuzz_judge`] and [`fuzz_classify`] compare
/// every input at the rule sets' own depths. For a user's own campaign that wants many more
/// runs a second on positions rich in checks, at the price of comparing other rulings than the
/// rule sets' (a divergence found that way prints the depths in its stub).
pub const FUZZ_CUT_ENV: &str = "XIANGQI_FUZZ_CUT";

/// The cut depths (kill, chase plies) of [`FUZZ_CUT_ENV`], read once per process; `None` when
/// it is unset.
///
/// # Panics
/// If the variable is set but is not two numbers `KILL,CHASE`.
pub fn fuzz_cut() -> Option<(u32, u32)> {
    static CUT: OnceLock<Option<(u32, u32)>> = OnceLock::new();
    *CUT.get_or_init(|| {
        let v = std::env::var(FUZZ_CUT_ENV).ok()?;
        let parsed = v
            .split_once(',')
            .and_then(|(k, c)| Some((k.trim().parse().ok()?, c.trim().parse().ok()?)));
        Some(
            parsed.unwrap_or_else(|| {
                panic!("{FUZZ_CUT_ENV}={v}: expected KILL,CHASE plies, e.g. 5,5")
            }),
        )
    })
}

/// Fuzz entry `judge_diff`: bytes -> a game with repetition cycles -> both judges -> the JSON
/// and the explanation must be equal. Every game is judged at the rule set's own search depths
/// (or cut alike to [`fuzz_cut`], when [`FUZZ_CUT_ENV`] is set).
pub fn fuzz_judge(data: &[u8]) -> Result<Agreed, Box<JudgeDivergence>> {
    let case = judge_case(data);
    keeping_memo(&case, || compare(&case, false, fuzz_cut()))
}

/// Runs `f` (one fuzz input's comparison) inside the oracle's memo kept from the earlier inputs
/// of the same rule set ([`o::judge::with_kept_memo`]): libFuzzer mutates one input several
/// times in a row, so consecutive games share most of their positions. The oracle's answers are
/// the same either way (its memo's key holds every input of an answer, `tests/oracle_memo.rs`);
/// with [`FUZZ_CUT_ENV`] (rule sets cut to other depths) or an unknown rule set, as before.
fn keeping_memo<R>(case: &JudgeCase, f: impl FnOnce() -> R) -> R {
    match oracle_rules(&case.rules) {
        Some(rules) if fuzz_cut().is_none() => {
            o::judge::with_kept_memo(rules, o::Spec::embedded(), f)
        }
        _ => f(),
    }
}

/// The input of `judge_diff`: bytes -> [`game_with_cycles`], except that a full random
/// placement whose searches the cost estimate calls costly is replaced by a sparse placement
/// drawn from the same bytes (see [`fuzz_case`]).
pub fn judge_case(data: &[u8]) -> JudgeCase {
    fuzz_case(data, game_from)
}

/// The case of a fuzz input: the bytes choose a start (one of the choices of `Start`), then
/// `make` draws the rest from the following bytes. A full random placement whose searches
/// [`bounded`] calls costly (at the depths the fuzz entries compare: the rule set's, or
/// [`fuzz_cut`]'s) is drawn again from the same bytes as a sparse placement. Such positions, rich in checks, take the
/// instrumented oracle seconds to minutes each and would leave the fuzz targets a run a second
/// or less; the proptests of `tests/judge_diff.rs` judge them at full depth (docs/fuzzing.md).
pub fn fuzz_case(data: &[u8], make: fn(Start, &mut dyn Chooser) -> JudgeCase) -> JudgeCase {
    let draw = |sparse: bool| {
        let mut u = Unstructured::new(data);
        let chosen = Start::CHOICES[Chooser::index(&mut u, Start::CHOICES.len()).unwrap_or(0)];
        let start = if sparse { Start::Sparse } else { chosen };
        (start, make(start, &mut u))
    };
    let (start, case) = draw(false);
    let cheap = || match fuzz_cut() {
        Some((kill, chase)) => bounded_at(&case, kill, chase),
        None => bounded(&case),
    };
    if start == Start::Random && !cheap() {
        draw(true).1
    } else {
        case
    }
}

/// A seeded game (for proptest and benchmarks).
pub fn seeded_game(seed: u64) -> JudgeCase {
    game_with_cycles(&mut ChaCha8Rng::seed_from_u64(seed))
}

/// Every field of an oracle classification, one `name value` text each, in the order of
/// [`fast_view`]: move, side, class, targets, articles, piece, target ids, qualifiers, pawn
/// chase, pawn targets, note.
pub fn oracle_view(c: &o::judge::Classification) -> Vec<String> {
    vec![
        format!("mv {}", c.mv),
        format!("side {:?}", c.side).to_lowercase(),
        format!("class {}", c.class.name()),
        format!("targets {:?}", texts(&c.targets)),
        format!("articles {:?}", c.articles),
        format!("piece {}", c.piece.0),
        format!(
            "target_ids {:?}",
            c.target_ids.iter().map(|i| i.0).collect::<Vec<_>>()
        ),
        format!("qualifiers {:?}", c.qualifiers),
        format!("pawn_chase {}", c.pawn_chase),
        format!("pawn_targets {:?}", texts(&c.pawn_targets)),
        format!("note {}", c.note),
    ]
}

/// Every field of a fast classification, as [`oracle_view`] writes the oracle's.
pub fn fast_view(c: &f::Classification) -> Vec<String> {
    vec![
        format!("mv {}", c.mv.to_iccs(RankConvention::Iccs)),
        format!("side {:?}", c.side).to_lowercase(),
        format!("class {}", c.class.name()),
        format!("targets {:?}", texts(&c.targets)),
        format!("articles {:?}", c.articles),
        format!("piece {}", c.piece.0),
        format!(
            "target_ids {:?}",
            c.target_ids.iter().map(|i| i.0).collect::<Vec<_>>()
        ),
        format!("qualifiers {:?}", c.qualifiers),
        format!("pawn_chase {}", c.pawn_chase),
        format!("pawn_targets {:?}", texts(&c.pawn_targets)),
        format!("note {}", c.note),
    ]
}

fn texts<T: fmt::Display>(items: &[T]) -> Vec<String> {
    items.iter().map(|t| t.to_string()).collect()
}

/// Classifies move `mv` after `moves` from `fen` with both implementations (each with the
/// class of the move before as context) and compares every field ([`fast_view`],
/// [`oracle_view`]). `Ok` holds the last move's fields, joined with `; `.
pub fn compare_classify(case: &JudgeCase) -> Result<Option<String>, Box<JudgeDivergence>> {
    classify_both(case, None)
}

/// [`compare_classify`] with both classifiers' searches cut to `kill` and `chase` plies (see
/// [`compare_judge_at`]).
pub fn compare_classify_at(
    case: &JudgeCase,
    kill: u32,
    chase: u32,
) -> Result<Option<String>, Box<JudgeDivergence>> {
    classify_both(case, Some((kill, chase)))
}

fn classify_both(
    case: &JudgeCase,
    depths: Option<(u32, u32)>,
) -> Result<Option<String>, Box<JudgeDivergence>> {
    let diverge = |aspect, fast: String, oracle: String| {
        Box::new(JudgeDivergence {
            case: case.clone(),
            aspect,
            fast,
            oracle,
            depths,
        })
    };
    let (Some(frules), Some(orules)) =
        (f::RuleSet::builtin(&case.rules), oracle_rules(&case.rules))
    else {
        return Ok(None);
    };
    let (fr, or) = cut_to(frules, orules, depths);
    let (frules, orules) = (&*fr, &*or);
    let (Ok(fpos), Ok(mut ob)) = (
        Position::from_fen(&case.fen),
        o::Board::from_fen(o::Spec::embedded(), &case.fen),
    ) else {
        return Ok(None);
    };
    // One oracle memo for every ply (each classification would otherwise start its own): the
    // positions before and after consecutive moves share their searches.
    o::judge::with_memo(orules, o::Spec::embedded(), || {
        let mut fb = f::Tracked::new(fpos);
        let mut fprev = None;
        let mut oprev = None;
        let mut last = None;
        for m in &case.moves {
            let (Ok(fm), Ok(om)) = (
                Move::parse_iccs(m, RankConvention::Iccs),
                m.parse::<o::OMove>(),
            ) else {
                break;
            };
            let fc = f::classify(frules, &fb, fm, fprev.as_ref());
            let oc = o::judge::classify_with(orules, &ob, om, oprev.as_ref());
            match (fc, oc) {
                (Ok(fc), Ok(oc)) => {
                    let (fv, ov) = (fast_view(&fc).join("; "), oracle_view(&oc).join("; "));
                    if fv != ov {
                        return Err(diverge("classification", fv, ov));
                    }
                    last = Some(fv);
                    fprev = Some(fc);
                    oprev = Some(oc);
                }
                (Err(_), Err(_)) => break,
                (fc, oc) => {
                    return Err(diverge(
                        "classification",
                        format!("{:?}", fc.map(|c| fast_view(&c).join("; "))),
                        format!("{:?}", oc.map(|c| oracle_view(&c).join("; "))),
                    ))
                }
            }
            fb.play(fm);
            if ob.play(om).is_err() {
                break;
            }
        }
        Ok(last)
    })
}

/// The input of `classify_diff`: bytes -> a rule set, a start of any kind ([`Start`]) and up to
/// sixteen moves (chosen by the bytes while they last, then by a seeded RNG); a full random
/// placement that the cost estimate calls costly is replaced by a sparse one ([`fuzz_case`]).
pub fn classify_case(data: &[u8]) -> JudgeCase {
    fuzz_case(data, classify_case_from)
}

/// As [`classify_case`], from a start of kind `start`.
pub fn classify_case_from(start: Start, ch: &mut dyn Chooser) -> JudgeCase {
    let ids = rule_set_ids();
    let rules = ids[ch.index(ids.len()).unwrap_or(0)].to_string();
    let fen = start.fen(ch);
    let seed = (0..8).fold(0u64, |s, _| (s << 8) | ch.index(256).unwrap_or(0) as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::from_fen(&fen).expect("valid");
    let mut moves = Vec::new();
    let plies = ch.index(16).unwrap_or(0) + 1;
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let Some(&m) = (match ch.index(legal.len().max(1)) {
            Some(i) => legal.get(i),
            None => legal.choose(&mut rng),
        }) else {
            break;
        };
        pos.play(m);
        moves.push(m.to_iccs(RankConvention::Iccs));
    }
    JudgeCase { rules, fen, moves }
}

/// Fuzz entry `classify_diff`: [`classify_case`], then every move's classification must
/// agree ([`compare_classify`]), at the rule set's own search depths (or cut alike to
/// [`fuzz_cut`], when [`FUZZ_CUT_ENV`] is set). `Ok(None)` when no move was classified.
pub fn fuzz_classify(data: &[u8]) -> Result<Option<String>, Box<JudgeDivergence>> {
    let case = classify_case(data);
    keeping_memo(&case, || classify_both(&case, fuzz_cut()))
}

/// How many move generations a case may let the oracle's consecutive-check search
/// (`mate_within`, to the rule set's `kill_search_depth`) spend from any one position of the
/// game; see [`bounded`] (a cost estimate for corpora, e.g. the benchmark's; the fuzz entries
/// and the proptests judge every case).
pub const CHECK_TREE_BUDGET: usize = 2_000;

/// The oracle's kill search, replayed on the fast board with a budget of move generations
/// (the unit of its cost): the side to move mates by consecutive checks within `plies`?
/// `None` when the budget runs out. Same tree as the oracle's `mate_within` without its memo, so the
/// count bounds the oracle's cost up to move order.
fn mate_by_checks(pos: &Position, plies: u32, budget: &mut usize) -> Option<bool> {
    if plies == 0 {
        return Some(false);
    }
    *budget = budget.checked_sub(1)?;
    for &k in pos.legal_moves().iter() {
        let mut a = pos.clone();
        a.play(k);
        if !a.is_check() {
            continue;
        }
        *budget = budget.checked_sub(1)?;
        let replies = a.legal_moves();
        if replies.is_empty() {
            return Some(true);
        }
        if plies >= 3 {
            let mut all = true;
            for &r in replies.iter() {
                let mut c = a.clone();
                c.play(r);
                if !mate_by_checks(&c, plies - 2, budget)? {
                    all = false;
                    break;
                }
            }
            if all {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// The oracle's chase search by checks (`check_line`, to `chase_search_depth` plies): every
/// line of consecutive checks, all answers, no early exit. `None` when the budget runs out.
fn check_lines(pos: &Position, plies: u32, budget: &mut usize) -> Option<()> {
    if plies == 0 {
        return Some(());
    }
    *budget = budget.checked_sub(1)?;
    for &k in pos.legal_moves().iter() {
        let mut a = pos.clone();
        a.play(k);
        if !a.is_check() || plies < 3 {
            continue;
        }
        *budget = budget.checked_sub(1)?;
        for &r in a.legal_moves().iter() {
            let mut c = a.clone();
            c.play(r);
            check_lines(&c, plies - 2, budget)?;
        }
    }
    Some(())
}

/// `pos` with the other side to move (what the judge asks of a move's threats), when valid.
fn pass(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut parts: Vec<&str> = fen.split(' ').collect();
    let side = parts.get_mut(1)?;
    *side = if *side == "b" { "w" } else { "b" };
    Position::from_fen(&parts.join(" ")).ok()
}

/// Does judging `case` stay cheap for the oracle? Its cost is dominated by its searches along
/// consecutive checks (the kill search to `kill_search_depth` plies, 9 or 13, and the chase
/// search to `chase_search_depth`), which explode in positions rich in checks: even with the
/// oracle's memo one generated game in a few dozen takes it seconds. Every position of the game
/// is probed for both sides (the kill search and the chase search, and the chase search after
/// each capture), each probe with [`CHECK_TREE_BUDGET`] move generations. A cost estimate, for
/// corpora that must stay quick (the benchmark's, `benches/judge.rs`) and to pick check-rich
/// games (`tests/judge_diff.rs`); the fuzz entries and the proptests judge every case, at full
/// depth. The probes replay the oracle's trees on the fast board, so they bound its cost only up
/// to move order and the searches from positions off the game's line. Invalid cases (a bad FEN
/// or move) are bounded: both judges reject them quickly.
pub fn bounded(case: &JudgeCase) -> bool {
    let Some(rules) = f::RuleSet::builtin(&case.rules) else {
        return true;
    };
    bounded_at(case, rules.kill_search_depth, rules.chase_search_depth)
}

/// [`bounded`] for searches cut to `kill` plies (the kill search) and `chase` plies (the chase
/// search by checks), as [`compare_judge_at`] judges.
pub fn bounded_at(case: &JudgeCase, kill: u32, chase: u32) -> bool {
    let Ok(mut pos) = Position::from_fen(&case.fen) else {
        return true;
    };
    let cheap = |p: &Position| {
        let mut budget = CHECK_TREE_BUDGET;
        (1..=kill)
            .step_by(2)
            .try_for_each(|d| mate_by_checks(p, d, &mut budget).map(drop))
            .is_some()
            && check_lines(p, chase, &mut budget).is_some()
    };
    // The chase search also starts after captures (is the capture answered by checks that win
    // the capturer back?), so the replies to each capture are probed too.
    let after_captures = |p: &Position| {
        let mut budget = CHECK_TREE_BUDGET;
        p.legal_moves()
            .iter()
            .filter(|m| p.piece_at(m.to()).is_some())
            .try_for_each(|&m| {
                let mut a = p.clone();
                a.play(m);
                check_lines(&a, chase, &mut budget)
            })
            .is_some()
    };
    let probe = |p: &Position| {
        cheap(p) && after_captures(p) && pass(p).is_none_or(|q| cheap(&q) && after_captures(&q))
    };
    if !probe(&pos) {
        return false;
    }
    for m in &case.moves {
        let Ok(m) = Move::parse_iccs(m, RankConvention::Iccs) else {
            break;
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.play(m);
        if !probe(&pos) {
            return false;
        }
    }
    true
}
