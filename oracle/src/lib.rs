//! # xiangqi-oracle
//!
//! The reference implementation of the Xiangqi (Chinese chess) rules of xiangqi-rules. It reads
//! the spec (`spec/*.yaml`) itself at run time and applies it directly, written to be obviously
//! right rather than fast:
//!
//! - [`Spec`] — the interpreted YAML: the board and sides (art. 1.1–1.3), the pieces and their
//!   movement rules (art. 2.2, 2.3), the constraints on legal moves (art. 2.2, 3.1) and material
//!   values (art. 25.3). [`Spec::embedded`] is compiled in; [`Spec::load_dir`] reads an amended
//!   copy without recompiling.
//! - [`Board`] — a mailbox `[Option<PieceId>; 90]` plus a piece table in which every piece keeps
//!   its identity ([`PieceId`]) for the whole game, so captured pieces are marked, never reused.
//! - Legal moves: the spec's movement vocabulary (step, leap with a block point, slide with
//!   modes and screens, zones, `when`) applied to the board, never onto an own piece; a move
//!   is legal when, after it, every constraint holds (own king not attacked, kings not facing).
//! - [`Board::status`]: checkmate (將死) or stalemate (困毙, also a loss).
//! - FEN ([`Board::from_fen`], [`Board::to_fen`]) and ICCS moves ([`OMove`]).
//! - [`mod@judge`]: the repetition rules (棋例) of CXA 1999 and 2011 from `spec/rules/*.yaml`:
//!   move classes, cycle patterns and rulings, with the articles that decide them.
//!
//! It never uses the fast implementation (`xiangqi-spec`, `src/`, build output); the two meet
//! only through the spec files and the text formats.
//!
//! ```
//! use xiangqi_oracle::{Board, Spec};
//! let board = Board::start(Spec::embedded());
//! assert_eq!(board.legal_moves().len(), 44);
//! assert_eq!(board.perft(2), 1920);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod board;
mod coord;
mod fen;
mod hash;
pub mod judge;
mod spec;

pub use board::{Board, IllegalMove, Piece, PieceId, Status, Violation};
pub use coord::{Coord, MoveParseError, OMove, RankConvention, Side, FILES, POINTS, RANKS};
pub use fen::{FenError, FenField, Relaxation, Validation};
pub use judge::{judge, JudgeError, Judgement, RuleSet};
pub use spec::{
    Constraint, ConstraintKind, KnownFile, Leap, MaterialValue, Mode, MoveKind, MoveRule, Role,
    RoleRules, SideRules, Spec, SpecError, Vector, When, Zone, KNOWN_FILES,
};
