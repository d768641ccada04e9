//! The two implementations behind one interface, so that every sub-command can run on either.

use clap::ValueEnum;
use xiangqi_rules::progress::Progress;
use xiangqi_rules::{Position, RankConvention};

/// Which implementation answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineKind {
    /// Bitboards and tables compiled from the spec by build.rs.
    Fast,
    /// The reference: interprets the spec YAML at run time.
    Oracle,
}

/// Rank numbering of printed and parsed moves. Never guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Ranks {
    /// ICCS / UCCI: ranks 0-9, `h2e2`.
    #[value(name = "0-9")]
    Iccs,
    /// Fairy-Stockfish UCI mode: ranks 1-10, `h3e3`.
    #[value(name = "1-10")]
    FairyStockfish,
}

impl Ranks {
    /// The library's rank convention of this numbering.
    pub fn convention(self) -> RankConvention {
        match self {
            Ranks::Iccs => RankConvention::Iccs,
            Ranks::FairyStockfish => RankConvention::FairyStockfish,
        }
    }
}

/// Where a command starts: a FEN (default: the start position), how strictly it is checked,
/// and moves to play first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Start<'a> {
    /// Position in FEN, or `None` for the start position.
    pub fen: Option<&'a str>,
    /// Space-separated moves to play first.
    pub moves: Option<&'a str>,
    /// Read the FEN leniently (analysis positions); relaxed checks are noted on stderr.
    pub lenient: bool,
}

/// A perft result: per-root-move counts (empty unless asked) and the total.
pub struct Perft {
    pub divide: Vec<(String, u64)>,
    pub total: u64,
}

impl Perft {
    /// A total without a split.
    fn total(total: u64) -> Perft {
        Perft {
            divide: Vec::new(),
            total,
        }
    }

    /// A split per root move, sorted by move, and its sum.
    fn from_split(split: impl Iterator<Item = (String, u64)>) -> Perft {
        let mut divide: Vec<(String, u64)> = split.collect();
        divide.sort();
        let total = divide.iter().map(|(_, n)| n).sum();
        Perft { divide, total }
    }
}

/// Moves as sorted text.
fn sorted(moves: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = moves.collect();
    v.sort();
    v
}

/// What every implementation answers.
pub trait Engine {
    /// Sorted legal moves of the position.
    fn legal(&self, start: &Start<'_>, ranks: Ranks) -> Result<Vec<String>, String>;
    /// Perft to `depth`, with a per-move split when `divide` is set; each root move counted is
    /// a step of `progress`.
    fn perft(
        &self,
        start: &Start<'_>,
        depth: u32,
        divide: bool,
        ranks: Ranks,
        progress: &mut dyn Progress,
    ) -> Result<Perft, String>;
}

impl EngineKind {
    /// The implementation of this kind.
    pub fn engine(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Fast => Box::new(Fast),
            EngineKind::Oracle => Box::new(Oracle),
        }
    }
}

struct Fast;

fn fast_position(start: &Start<'_>, ranks: Ranks) -> Result<Position, String> {
    let mut pos = match start.fen {
        None => Position::startpos(),
        Some(fen) if start.lenient => {
            let (pos, relaxed) =
                Position::from_fen_lenient(fen).map_err(|e| format!("bad FEN: {e}"))?;
            for r in relaxed {
                eprintln!("xqrules: note: lenient FEN, not checked: {r}");
            }
            pos
        }
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
    };
    if let Some(moves) = start.moves {
        let list = xiangqi_rules::parse_moves(&pos, moves, ranks.convention())
            .map_err(|e| format!("bad move list: {e}"))?;
        for m in list {
            pos.play(m);
        }
    }
    Ok(pos)
}

impl Engine for Fast {
    fn legal(&self, start: &Start<'_>, ranks: Ranks) -> Result<Vec<String>, String> {
        let pos = fast_position(start, ranks)?;
        Ok(sorted(
            pos.legal_moves()
                .iter()
                .map(|m| m.to_iccs(ranks.convention())),
        ))
    }

    fn perft(
        &self,
        start: &Start<'_>,
        depth: u32,
        divide: bool,
        ranks: Ranks,
        progress: &mut dyn Progress,
    ) -> Result<Perft, String> {
        let mut pos = fast_position(start, ranks)?;
        if depth == 0 {
            return Ok(Perft::total(pos.perft(0)));
        }
        let split = pos
            .perft_divide_with(depth, progress)
            .into_iter()
            .map(|(m, n)| (m.to_iccs(ranks.convention()), n));
        let perft = Perft::from_split(split);
        Ok(if divide {
            perft
        } else {
            Perft::total(perft.total)
        })
    }
}

struct Oracle;

fn oracle_board(start: &Start<'_>, ranks: Ranks) -> Result<xiangqi_oracle::Board, String> {
    let spec = xiangqi_oracle::Spec::embedded();
    let mut board = match start.fen {
        None => xiangqi_oracle::Board::start(spec),
        Some(fen) if start.lenient => {
            let (board, relaxed) = xiangqi_oracle::Board::from_fen_lenient(spec, fen)
                .map_err(|e| format!("bad FEN: {e}"))?;
            for r in relaxed {
                eprintln!("xqrules: note: lenient FEN, not checked: {}", r.violation);
            }
            board
        }
        Some(fen) => {
            xiangqi_oracle::Board::from_fen(spec, fen).map_err(|e| format!("bad FEN: {e}"))?
        }
    };
    let conv = match ranks {
        Ranks::Iccs => xiangqi_oracle::RankConvention::Iccs,
        Ranks::FairyStockfish => xiangqi_oracle::RankConvention::FairyStockfish,
    };
    for (i, text) in start.moves.unwrap_or("").split_whitespace().enumerate() {
        let index = i + 1;
        let m = xiangqi_oracle::OMove::parse(text, conv)
            .map_err(|e| format!("bad move list: move {index} \"{text}\": {e}"))?;
        board
            .play(m)
            .map_err(|e| format!("bad move list: move {index} \"{text}\": {e}"))?;
    }
    Ok(board)
}

fn oracle_move(m: &xiangqi_oracle::OMove, ranks: Ranks) -> String {
    match ranks {
        Ranks::Iccs => m.to_string(),
        Ranks::FairyStockfish => m.to_iccs_ranks_1_to_10(),
    }
}

impl Engine for Oracle {
    fn legal(&self, start: &Start<'_>, ranks: Ranks) -> Result<Vec<String>, String> {
        let board = oracle_board(start, ranks)?;
        Ok(sorted(
            board.legal_moves().iter().map(|m| oracle_move(m, ranks)),
        ))
    }

    fn perft(
        &self,
        start: &Start<'_>,
        depth: u32,
        divide: bool,
        ranks: Ranks,
        progress: &mut dyn Progress,
    ) -> Result<Perft, String> {
        let board = oracle_board(start, ranks)?;
        if depth == 0 {
            return Ok(Perft::total(board.perft(0)));
        }
        // The oracle's divide, one root move at a time for the progress.
        let moves = board.legal_moves();
        progress.start(moves.len() as u64);
        let mut split = Vec::with_capacity(moves.len());
        for m in moves {
            let text = oracle_move(&m, ranks);
            progress.message(text.clone());
            let mut child = board.clone();
            child
                .play(m)
                .map_err(|e| format!("internal: the oracle's own move {text}: {e}"))?;
            split.push((text, child.perft(depth - 1)));
            progress.inc();
        }
        progress.finish();
        let perft = Perft::from_split(split.into_iter());
        Ok(if divide {
            perft
        } else {
            Perft::total(perft.total)
        })
    }
}

/// A text board: rank 9 at the top, Red at the bottom (`xiangqi_rules::notation::board_text`).
pub fn show(start: &Start<'_>, chinese: bool) -> Result<String, String> {
    let pos = fast_position(start, Ranks::Iccs)?;
    Ok(xiangqi_rules::notation::board_text(&pos, chinese))
}
