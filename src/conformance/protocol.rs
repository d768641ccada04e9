//! The conventions of the two protocols (UCI, UCCI) and the reading of `go perft` output.
//!
//! Moves inside engine-check are canonical ICCS strings (ranks 0-9). Conversion to and from
//! the engine's rank numbering happens only here, and only as asked with `--ranks`.

use std::collections::BTreeMap;
use std::time::Instant;

use clap::ValueEnum;
use serde::Serialize;

use super::client::{EngineError, EngineIo};
use crate::RankConvention;

/// The engine protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCI (`uci`/`uciok`, `setoption name N value V`), as Pikafish and Fairy-Stockfish speak it.
    Uci,
    /// UCCI (`ucci`/`ucciok`, `setoption N V`), as ElephantEye speaks it.
    Ucci,
}

impl Protocol {
    /// The handshake command.
    pub fn hello(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }

    /// The handshake answer.
    pub fn hello_ok(self) -> &'static str {
        match self {
            Protocol::Uci => "uciok",
            Protocol::Ucci => "ucciok",
        }
    }

    /// The command that sets an option.
    pub fn setoption(self, name: &str, value: &str) -> String {
        match self {
            Protocol::Uci => format!("setoption name {name} value {value}"),
            Protocol::Ucci => format!("setoption {name} {value}"),
        }
    }
}

/// Converts a canonical ICCS move (`h2e2`) to the engine's rank numbering (`h3e3` for 1-10).
/// Text that is not a move is returned unchanged.
pub fn to_engine_move(iccs: &str, ranks: RankConvention) -> String {
    match (ranks, parse_move(iccs, RankConvention::Iccs)) {
        (RankConvention::FairyStockfish, Some((f1, r1, f2, r2))) => {
            format!("{f1}{}{f2}{}", r1 + 1, r2 + 1)
        }
        _ => iccs.to_string(),
    }
}

/// Reads a move in the engine's rank numbering and returns it as canonical ICCS, or `None` when
/// the text is not a move on the 9x10 board in that numbering.
pub fn from_engine_move(text: &str, ranks: RankConvention) -> Option<String> {
    parse_move(text, ranks).map(|(f1, r1, f2, r2)| format!("{f1}{r1}{f2}{r2}"))
}

/// Splits `h2e2` / `h10e10` into files and 0-based ranks.
fn parse_move(text: &str, ranks: RankConvention) -> Option<(char, u8, char, u8)> {
    let (f1, rest) = split_square(text, ranks)?;
    let (f2, rest) = split_square(rest, ranks)?;
    if !rest.is_empty() {
        return None;
    }
    Some((f1.0, f1.1, f2.0, f2.1))
}

/// Reads one square from the front of `text`: a file letter and a rank number.
fn split_square(text: &str, ranks: RankConvention) -> Option<((char, u8), &str)> {
    let mut chars = text.char_indices();
    let (_, file) = chars.next()?;
    if !('a'..='i').contains(&file) {
        return None;
    }
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let digits = &text[1..digits_end];
    if digits.is_empty() || digits.len() > 2 || (digits.len() == 2 && digits.starts_with('0')) {
        return None;
    }
    let number: u8 = digits.parse().ok()?;
    let rank = match ranks {
        RankConvention::Iccs => number,
        RankConvention::FairyStockfish => number.checked_sub(1)?,
    };
    (rank <= 9).then_some(((file, rank), &text[digits_end..]))
}

/// What one line of `go perft` output is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerftLine {
    /// `h2e2: 44`: a root move and its count (move still in the engine's numbering).
    Divide(String, u64),
    /// `Nodes searched: 1920` (also `Nodes: N`, `Total: N`, `Perft N: N`): the total, the end.
    Total(u64),
    /// Blank, `info ...`, timing lines: ignored.
    Ignored,
    /// A line of the form `X: Y` where X looks like a move but Y is not a count.
    Malformed(String),
    /// Anything else.
    Unrecognised(String),
}

/// Classifies one output line of `go perft`. Never panics, whatever the text.
pub fn classify_perft_line(line: &str) -> PerftLine {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return PerftLine::Ignored;
    }
    let first = trimmed.split_whitespace().next().unwrap_or("");
    let lower_first = first.to_ascii_lowercase();
    if matches!(lower_first.as_str(), "info" | "time" | "nps" | "readyok")
        || lower_first.starts_with("time")
        || lower_first.starts_with("nodes/s")
    {
        return PerftLine::Ignored;
    }
    let Some((key, value)) = trimmed.split_once(':') else {
        return PerftLine::Unrecognised(trimmed.to_string());
    };
    let key = key.trim();
    let value = value.trim();
    let count = value.parse::<u64>().ok();
    let key_lower = key.to_ascii_lowercase();
    let is_total_key = matches!(
        key_lower.as_str(),
        "nodes searched" | "nodes" | "total" | "total nodes"
    ) || key_lower.starts_with("perft");
    let looks_like_move = !key.contains(char::is_whitespace)
        && (4..=6).contains(&key.len())
        && key.chars().all(|c| c.is_ascii_alphanumeric());
    match (count, is_total_key, looks_like_move) {
        (Some(n), true, _) => PerftLine::Total(n),
        (Some(n), false, true) => PerftLine::Divide(key.to_string(), n),
        (None, _, true) | (None, true, _) => PerftLine::Malformed(trimmed.to_string()),
        _ => PerftLine::Unrecognised(trimmed.to_string()),
    }
}

/// The engine's answer to one `go perft`: the per-move split (canonical ICCS) and the total.
#[derive(Debug, Clone, Default)]
pub struct PerftAnswer {
    /// Root moves and counts, keyed by canonical ICCS.
    pub divide: BTreeMap<String, u64>,
    /// The total the engine printed.
    pub total: u64,
    /// Divide lines whose move is not a move in the chosen rank numbering.
    pub unreadable_moves: Vec<String>,
    /// Moves printed twice.
    pub duplicate_moves: Vec<String>,
    /// `X: Y` lines with a move-like X but no count.
    pub malformed: Vec<String>,
    /// Other lines that are not part of the perft protocol.
    pub unrecognised: Vec<String>,
}

impl PerftAnswer {
    /// True when the engine printed nothing it should not have.
    pub fn is_clean(&self) -> bool {
        self.unreadable_moves.is_empty()
            && self.duplicate_moves.is_empty()
            && self.malformed.is_empty()
    }
}

/// More unrecognised lines than this in one perft answer: the engine is printing garbage.
pub const MAX_GARBAGE_LINES: usize = 1000;

/// Sends `position` and `go perft depth`, and reads until the total line. The timeout applies
/// to each silence, so a long perft that keeps printing its split lines is not cut off.
pub fn engine_perft(
    engine: &mut dyn EngineIo,
    position_command: &str,
    depth: u32,
    ranks: RankConvention,
) -> Result<PerftAnswer, EngineError> {
    const EXPECTED: &str = "further perft output (`move: count` or `Nodes searched: N`)";
    engine.send(position_command)?;
    engine.send(&format!("go perft {depth}"))?;
    let mut answer = PerftAnswer::default();
    let mut garbage = 0usize;
    loop {
        // The timeout is for silence: a long perft that keeps printing its split is not hung.
        let deadline: Instant = engine.deadline();
        let line = engine.next_line(deadline, EXPECTED)?;
        match classify_perft_line(&line) {
            PerftLine::Total(n) => {
                answer.total = n;
                return Ok(answer);
            }
            PerftLine::Divide(mv, n) => match from_engine_move(&mv, ranks) {
                Some(iccs) => {
                    if answer.divide.insert(iccs, n).is_some() {
                        answer.duplicate_moves.push(mv);
                    }
                }
                None => answer.unreadable_moves.push(mv),
            },
            PerftLine::Ignored => {}
            PerftLine::Malformed(text) => answer.malformed.push(text),
            PerftLine::Unrecognised(text) => {
                garbage += 1;
                if garbage > MAX_GARBAGE_LINES {
                    return Err(engine.garbage_error(EXPECTED, garbage));
                }
                if answer.unrecognised.len() < 20 {
                    answer.unrecognised.push(text);
                }
            }
        }
    }
}

/// The `position` command for a FEN and the moves played from it (canonical ICCS).
pub fn position_command(fen: &str, moves: &[String], ranks: RankConvention) -> String {
    let mut command = format!("position fen {fen}");
    if !moves.is_empty() {
        command.push_str(" moves");
        for m in moves {
            command.push(' ');
            command.push_str(&to_engine_move(m, ranks));
        }
    }
    command
}

/// A hint when unreadable moves look like the other rank numbering.
pub fn rank_hint(unreadable: &[String], ranks: RankConvention) -> Option<&'static str> {
    let other = match ranks {
        RankConvention::Iccs => RankConvention::FairyStockfish,
        RankConvention::FairyStockfish => RankConvention::Iccs,
    };
    let all_other = !unreadable.is_empty()
        && unreadable
            .iter()
            .all(|m| from_engine_move(m, other).is_some());
    all_other.then_some(match ranks {
        RankConvention::Iccs => "these moves have ranks 1-10: try --ranks 1-10",
        RankConvention::FairyStockfish => "these moves have ranks 0-9: try --ranks 0-9",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_rank_numbering_both_ways() {
        assert_eq!(
            to_engine_move("h2e2", RankConvention::FairyStockfish),
            "h3e3"
        );
        assert_eq!(
            to_engine_move("a9a0", RankConvention::FairyStockfish),
            "a10a1"
        );
        assert_eq!(to_engine_move("a9a0", RankConvention::Iccs), "a9a0");
        assert_eq!(
            from_engine_move("b10c8", RankConvention::FairyStockfish).as_deref(),
            Some("b9c7")
        );
        assert_eq!(
            from_engine_move("h3e3", RankConvention::Iccs).as_deref(),
            Some("h3e3")
        );
        assert_eq!(from_engine_move("b10c8", RankConvention::Iccs), None);
        assert_eq!(
            from_engine_move("a0a1", RankConvention::FairyStockfish),
            None
        );
        assert_eq!(from_engine_move("j1a1", RankConvention::Iccs), None);
        assert_eq!(from_engine_move("a01a1", RankConvention::Iccs), None);
        assert_eq!(from_engine_move("a1a1x", RankConvention::Iccs), None);
        assert_eq!(from_engine_move("", RankConvention::Iccs), None);
        assert_eq!(from_engine_move("é1a1", RankConvention::Iccs), None);
        assert_eq!(from_engine_move("aé", RankConvention::Iccs), None);
    }

    #[test]
    fn classifies_stockfish_perft_output() {
        assert_eq!(
            classify_perft_line("b3b10: 41"),
            PerftLine::Divide("b3b10".into(), 41)
        );
        assert_eq!(
            classify_perft_line("Nodes searched: 1920"),
            PerftLine::Total(1920)
        );
        assert_eq!(classify_perft_line(""), PerftLine::Ignored);
        assert_eq!(classify_perft_line("info depth 1"), PerftLine::Ignored);
        assert_eq!(
            classify_perft_line("h2e2: lots"),
            PerftLine::Malformed("h2e2: lots".into())
        );
        assert_eq!(
            classify_perft_line("@@ garbage"),
            PerftLine::Unrecognised("@@ garbage".into())
        );
        assert_eq!(
            classify_perft_line("hello world: 3"),
            PerftLine::Unrecognised("hello world: 3".into())
        );
        assert_eq!(
            classify_perft_line("h2e2: 99999999999999999999999"),
            PerftLine::Malformed("h2e2: 99999999999999999999999".into())
        );
    }

    #[test]
    fn builds_position_commands_in_the_engine_numbering() {
        let moves = vec!["h2e2".to_string(), "h9g7".to_string()];
        assert_eq!(
            position_command("F", &moves, RankConvention::FairyStockfish),
            "position fen F moves h3e3 h10g8"
        );
        assert_eq!(
            position_command("F", &[], RankConvention::Iccs),
            "position fen F"
        );
        assert_eq!(Protocol::Ucci.setoption("Hash", "16"), "setoption Hash 16");
    }

    #[test]
    fn hints_at_the_other_rank_numbering() {
        let fsf = vec!["h10g8".to_string()];
        assert!(rank_hint(&fsf, RankConvention::Iccs).is_some());
        assert!(rank_hint(&["zz".to_string()], RankConvention::Iccs).is_none());
    }
}
