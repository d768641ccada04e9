//! Differential testing of the fast implementation (`xiangqi_rules`) against the oracle
//! (`xiangqi_oracle`).
//!
//! The generators and comparisons live here so that the proptest suites in `tests/` and the
//! cargo-fuzz targets in `fuzz/` stay a few lines each. The two implementations are compared
//! only through the shared text formats (FEN, ICCS) and plain outcomes. A divergence prints a
//! ready-to-commit YAML example stub (see [`Divergence`]).

#![forbid(unsafe_code)]

pub mod judge;
pub mod parsers;
pub mod readers;

use std::fmt;

use arbitrary::Unstructured;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use xiangqi_oracle::{Board, Spec, Status};
use xiangqi_rules::{Color, Outcome, Position, RankConvention};

/// The start position (art. 1.3).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A disagreement between the two implementations, with everything needed to reproduce it.
///
/// Its `Display` is a YAML example stub that can be pasted into `tests/regressions/` as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The position where the implementations were compared.
    pub fen: String,
    /// The moves (ICCS) played from `start_fen` to reach `fen`.
    pub moves: Vec<String>,
    /// The position the moves start from.
    pub start_fen: String,
    /// What was compared: `legal_moves`, `check`, `status`, `fen_validity`, `fen_print`.
    pub aspect: &'static str,
    /// The fast implementation's answer.
    pub fast: String,
    /// The oracle's answer.
    pub oracle: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# divergence between fast and oracle: paste into tests/regressions/NAME.yaml"
        )?;
        writeln!(f, "name: TODO-name-this-case")?;
        writeln!(f, "aspect: {}", self.aspect)?;
        writeln!(f, "start_fen: \"{}\"", self.start_fen)?;
        writeln!(f, "moves: [{}]", self.moves.join(", "))?;
        writeln!(f, "fen: \"{}\"", self.fen)?;
        writeln!(f, "fast: \"{}\"", escape(&self.fast))?;
        writeln!(f, "oracle: \"{}\"", escape(&self.oracle))?;
        write!(
            f,
            "expected: TODO  # the correct answer, with the article that decides it"
        )
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The observable state of a position as both implementations report it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Observed {
    legal: Vec<String>,
    check: bool,
    status: String,
}

fn fast_observed(pos: &Position) -> Observed {
    let mut legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_iccs(RankConvention::Iccs))
        .collect();
    legal.sort();
    let status = match pos.outcome() {
        None => "ongoing".to_string(),
        Some(Outcome::Checkmate { winner }) => format!("checkmate, {} loses", color_name(!winner)),
        Some(Outcome::Stalemate { winner }) => format!("stalemate, {} loses", color_name(!winner)),
    };
    Observed {
        legal,
        check: pos.is_check(),
        status,
    }
}

fn oracle_observed(board: &Board) -> Observed {
    let mut legal: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    let status = match board.status() {
        Status::Ongoing => "ongoing".to_string(),
        Status::Checkmate { loser } => format!("checkmate, {} loses", side_name(loser)),
        Status::Stalemate { loser } => format!("stalemate, {} loses", side_name(loser)),
    };
    Observed {
        legal,
        check: board.in_check(board.side_to_move()),
        status,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn side_name(s: xiangqi_oracle::Side) -> &'static str {
    match s {
        xiangqi_oracle::Side::Red => "red",
        xiangqi_oracle::Side::Black => "black",
    }
}

/// A game in progress in both implementations at once.
pub struct Pair {
    start_fen: String,
    moves: Vec<String>,
    fast: Position,
    oracle: Board,
}

impl Pair {
    /// Both implementations at `fen`. Fails with a divergence if they disagree on whether the
    /// FEN is valid, or print it differently.
    pub fn new(fen: &str) -> Result<Option<Pair>, Box<Divergence>> {
        let fast = Position::from_fen(fen);
        let oracle = Board::from_fen(Spec::embedded(), fen);
        let divergence = |aspect, fast: String, oracle: String| {
            Box::new(Divergence {
                fen: fen.to_string(),
                moves: Vec::new(),
                start_fen: fen.to_string(),
                aspect,
                fast,
                oracle,
            })
        };
        match (fast, oracle) {
            (Ok(fast), Ok(oracle)) => {
                if fast.to_fen() != oracle.to_fen() {
                    return Err(divergence("fen_print", fast.to_fen(), oracle.to_fen()));
                }
                Ok(Some(Pair {
                    start_fen: fen.to_string(),
                    moves: Vec::new(),
                    fast,
                    oracle,
                }))
            }
            (Err(_), Err(_)) => Ok(None),
            (Ok(_), Err(e)) => Err(divergence(
                "fen_validity",
                "valid".into(),
                format!("invalid: {e}"),
            )),
            (Err(e), Ok(_)) => Err(divergence(
                "fen_validity",
                format!("invalid: {e}"),
                "valid".into(),
            )),
        }
    }

    /// Compares legal moves, check and game status; returns the sorted legal moves (ICCS).
    pub fn compare(&self) -> Result<Vec<String>, Box<Divergence>> {
        let f = fast_observed(&self.fast);
        let o = oracle_observed(&self.oracle);
        let fen = self.fast.to_fen();
        let diverge = |aspect, fast: String, oracle: String| {
            Box::new(Divergence {
                fen: fen.clone(),
                moves: self.moves.clone(),
                start_fen: self.start_fen.clone(),
                aspect,
                fast,
                oracle,
            })
        };
        if fen != self.oracle.to_fen() {
            return Err(diverge("fen_print", fen.clone(), self.oracle.to_fen()));
        }
        if f.legal != o.legal {
            let only_fast: Vec<&String> = f.legal.iter().filter(|m| !o.legal.contains(m)).collect();
            let only_oracle: Vec<&String> =
                o.legal.iter().filter(|m| !f.legal.contains(m)).collect();
            return Err(diverge(
                "legal_moves",
                format!("{} moves; only here: {:?}", f.legal.len(), only_fast),
                format!("{} moves; only here: {:?}", o.legal.len(), only_oracle),
            ));
        }
        if f.check != o.check {
            return Err(diverge("check", f.check.to_string(), o.check.to_string()));
        }
        if f.status != o.status {
            return Err(diverge("status", f.status, o.status));
        }
        Ok(f.legal)
    }

    /// Plays an ICCS move (known legal) in both implementations.
    pub fn play(&mut self, iccs: &str) -> Result<(), Box<Divergence>> {
        let fen = self.fast.to_fen();
        let fail = |who: &str, e: String| {
            Box::new(Divergence {
                fen: fen.clone(),
                moves: self.moves.clone(),
                start_fen: self.start_fen.clone(),
                aspect: "play",
                fast: if who == "fast" {
                    e.clone()
                } else {
                    "ok".into()
                },
                oracle: if who == "oracle" { e } else { "ok".into() },
            })
        };
        let m = xiangqi_rules::Move::parse_iccs(iccs, RankConvention::Iccs)
            .map_err(|e| fail("fast", e.to_string()))?;
        self.fast
            .play_checked(m)
            .map_err(|e| fail("fast", e.to_string()))?;
        let om =
            xiangqi_oracle::OMove::parse_iccs(iccs).map_err(|e| fail("oracle", e.to_string()))?;
        self.oracle
            .play(om)
            .map_err(|e| fail("oracle", e.to_string()))?;
        self.moves.push(iccs.to_string());
        Ok(())
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }
}

/// Plays a game chosen by `pick` (given the number of legal moves, returns an index, or `None`
/// to stop) from `fen`, comparing the two implementations at every position.
/// Returns the number of positions compared.
pub fn play_and_compare(
    fen: &str,
    mut pick: impl FnMut(usize) -> Option<usize>,
) -> Result<usize, Box<Divergence>> {
    let Some(mut pair) = Pair::new(fen)? else {
        return Ok(0);
    };
    let mut compared = 0;
    loop {
        let legal = pair.compare()?;
        compared += 1;
        if legal.is_empty() {
            return Ok(compared);
        }
        let Some(i) = pick(legal.len()) else {
            return Ok(compared);
        };
        pair.play(&legal[i % legal.len()])?;
    }
}

/// Fuzz entry: bytes choose a start (the start position or a random valid placement) and then
/// move indices; the implementations must agree at every step.
pub fn fuzz_movegen(data: &[u8]) -> Result<usize, Box<Divergence>> {
    let mut u = Unstructured::new(data);
    let fen = match u.int_in_range(0u8..=3).unwrap_or(0) {
        0 => START_FEN.to_string(),
        _ => {
            let seed: u64 = u.arbitrary().unwrap_or(0);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            random_valid_fen(&mut rng)
        }
    };
    play_and_compare(&fen, |n| {
        if u.is_empty() {
            None
        } else {
            u.choose_index(n).ok()
        }
    })
}

/// Fuzz entry for FEN text: neither parser panics; they agree on validity; a valid FEN
/// round-trips through both printers; a set-up the fast lenient reader accepts has its legal
/// moves listed in full (they fit a move list) for either side to move.
pub fn fuzz_fen(text: &str) -> Result<(), Box<Divergence>> {
    if let Ok((p, _)) = Position::from_fen_lenient(text) {
        let mut s = p.to_setup();
        for _ in 0..2 {
            if let Ok((q, _)) = Position::from_setup_lenient(&s) {
                // The fast engine against itself: the listed moves against the bulk count.
                let (listed, counted) = (q.legal_moves().len() as u64, q.count_legal());
                if listed != counted {
                    return Err(Box::new(Divergence {
                        fen: q.to_fen(),
                        moves: Vec::new(),
                        start_fen: text.to_string(),
                        aspect: "lenient_moves",
                        fast: format!("{listed} moves listed, {counted} counted"),
                        oracle: "-".into(),
                    }));
                }
            }
            s.turn = s.turn.other();
        }
    }
    if let Some(pair) = Pair::new(text)? {
        let printed = pair.fast.to_fen();
        let again = Position::from_fen(&printed).map_err(|e| {
            Box::new(Divergence {
                fen: printed.clone(),
                moves: Vec::new(),
                start_fen: text.to_string(),
                aspect: "fen_roundtrip",
                fast: format!("reparse failed: {e}"),
                oracle: "-".into(),
            })
        })?;
        if again.to_fen() != printed {
            return Err(Box::new(Divergence {
                fen: printed.clone(),
                moves: Vec::new(),
                start_fen: text.to_string(),
                aspect: "fen_roundtrip",
                fast: again.to_fen(),
                oracle: printed,
            }));
        }
    }
    Ok(())
}

/// Positions reached by seeded random play from the start: `games` games of up to `plies`
/// plies each. Returns the FENs (with repetition, since games may converge).
pub fn random_play_fens(seed: u64, games: usize, plies: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            out.push(pos.to_fen());
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play(m);
        }
    }
    out
}

/// Points where each kind of piece can stand, for Red (Black's are rotated by 180 degrees).
/// Written out here, independently of both implementations, to generate placements.
const ADVISOR_POINTS: [(u8, u8); 5] = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)];
const ELEPHANT_POINTS: [(u8, u8); 7] = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];

fn pawn_points() -> Vec<(u8, u8)> {
    let mut v = Vec::new();
    for rank in 3..=4u8 {
        for file in [0u8, 2, 4, 6, 8] {
            v.push((file, rank));
        }
    }
    for rank in 5..=9u8 {
        for file in 0..9u8 {
            v.push((file, rank));
        }
    }
    v
}

/// A random FEN whose placement obeys the static rules (one king per side in its palace,
/// piece counts, reachable points). The side not to move may be in check and the kings may
/// face each other, so the result is valid only most of the time: callers compare validity.
pub fn random_placement_fen(rng: &mut impl Rng) -> String {
    let mut board: [Option<char>; 90] = [None; 90];
    let place = |board: &mut [Option<char>; 90],
                 points: &[(u8, u8)],
                 red: bool,
                 c: char,
                 rng: &mut dyn rand::RngCore| {
        let free: Vec<(u8, u8)> = points
            .iter()
            .map(|&(f, r)| if red { (f, r) } else { (8 - f, 9 - r) })
            .filter(|&(f, r)| board[(r as usize) * 9 + f as usize].is_none())
            .collect();
        if let Some(&(f, r)) = free.choose(rng) {
            let ch = if red { c } else { c.to_ascii_lowercase() };
            board[(r as usize) * 9 + f as usize] = Some(ch);
        }
    };
    let anywhere: Vec<(u8, u8)> = (0..10u8)
        .flat_map(|r| (0..9u8).map(move |f| (f, r)))
        .collect();
    let palace: Vec<(u8, u8)> = (0..3u8)
        .flat_map(|r| (3..6u8).map(move |f| (f, r)))
        .collect();
    let pawns = pawn_points();
    for red in [true, false] {
        place(&mut board, &palace, red, 'K', rng);
        for _ in 0..rng.gen_range(0..=2) {
            place(&mut board, &ADVISOR_POINTS, red, 'A', rng);
        }
        for _ in 0..rng.gen_range(0..=2) {
            place(&mut board, &ELEPHANT_POINTS, red, 'B', rng);
        }
        for c in ['N', 'R', 'C'] {
            for _ in 0..rng.gen_range(0..=2) {
                place(&mut board, &anywhere, red, c, rng);
            }
        }
        for _ in 0..rng.gen_range(0..=5) {
            place(&mut board, &pawns, red, 'P', rng);
        }
    }
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board[rank * 9 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.gen_bool(0.5) {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

/// A sparse random position: a random valid placement ([`random_valid_fen`]) thinned to at
/// most `attackers` rooks, horses, cannons and pawns per side (the pieces that give check), so
/// that lines of consecutive checks stay few and the oracle's kill and chase searches cheap.
pub fn sparse_valid_fen(rng: &mut impl Rng, attackers: usize) -> String {
    loop {
        let fen = random_placement_fen(rng);
        let (board, rest) = fen.split_once(' ').expect("placement and fields");
        let mut cells: Vec<char> = Vec::new();
        for c in board.chars() {
            match c.to_digit(10) {
                Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                None => cells.push(c),
            }
        }
        for side in ["RNCP", "rncp"] {
            let mut at: Vec<usize> = (0..cells.len())
                .filter(|&i| side.contains(cells[i]))
                .collect();
            at.shuffle(rng);
            for &i in at.iter().skip(attackers) {
                cells[i] = '.';
            }
        }
        let mut placement = String::new();
        let mut empty = 0;
        // The rank separators stay cells of their own ('/' is no piece): a run of empty
        // points is written before each.
        for c in cells {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
                empty = 0;
            }
            placement.push(c);
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        let fen = format!("{placement} {rest}");
        if Position::from_fen(&fen).is_ok() {
            return fen;
        }
    }
}

/// A random placement that the fast implementation accepts as valid (retries until it does).
pub fn random_valid_fen(rng: &mut impl Rng) -> String {
    loop {
        let fen = random_placement_fen(rng);
        if Position::from_fen(&fen).is_ok() {
            return fen;
        }
    }
}
