//! # xiangqi-rules: the fast implementation
//!
//! Bitboard move generation for Xiangqi (象棋) following the CXA 1999 rules, with all movement
//! geometry compiled from `spec/*.yaml` by `build.rs` (crate `xiangqi-spec`).
//!
//! * [`Position`]: a validated position with legal move generation (pins, checks, facing
//!   kings 將帥對面), make/unmake, Zobrist hashing, [`Position::perft`].
//! * FEN via [`Position::from_fen`] / [`Position::from_fen_lenient`] / [`Position::to_fen`].
//! * ICCS moves via [`Move::parse_iccs`], [`parse_moves`], and typed [`IllegalMoveReason`]s.
//!
//! ```
//! use xiangqi_rules::{Position, Move, RankConvention};
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let m = Move::parse_iccs("h2e2", RankConvention::Iccs).unwrap();
//! let undo = pos.play(m);
//! assert_eq!(pos.hash(), pos.compute_hash());
//! pos.undo(m, undo);
//! assert_eq!(pos, Position::startpos());
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
pub mod builtin_spec;
pub mod conformance;
mod explain;
mod fen;
pub mod judge;
pub mod judging;
mod moves;
pub mod notation;
mod position;
pub mod progress;
pub mod record;
pub mod spec_tools;
/// The generated tables (from spec/*.yaml) and board geometry.
pub mod tables;

pub use bitboard::Bitboard;
pub use explain::{parse_moves, IllegalMoveReason, MoveListError, MoveListErrorKind, WhyNot};
pub use fen::{BoardError, FenError, Relaxation};
pub use moves::{Move, MoveList, MoveListIntoIter, MoveParseError, RankConvention, MAX_MOVES};
pub use notation::{Format, NotationError};
pub use position::{Outcome, PerftDetail, Position, Setup, UndoInfo};
pub use record::{GameRecord, GameResult};
pub use xiangqi_spec::vocab::{ByColor, Color, File, Piece, Rank, Role, Square};

#[cfg(test)]
mod tests;
