//! The repetition rules (棋例) at engine speed: the same rulings as the oracle's judge
//! (`xiangqi_oracle::judge`), byte for byte in JSON, on the bitboard [`Position`](crate::Position).
//!
//! - [`RuleSet`]: a rule set compiled from `spec/rules/*.yaml` by `build.rs`
//!   ([`Builtin::builtin`]); the same fields as the oracle's.
//! - [`MoveClass`]: the classes of moves (將 check, 殺 kill, 捉 chase, 閒 idle and the idle
//!   kinds 兑 獻 攔 跟).
//! - [`classify()`]: the class of one move, by the rule set's classifier (`judge.classifier`): the
//!   CXA exchange test (`cxa-1999`, `cxa-2011`) or the Asian rules' piece-pair chase (`axf`,
//!   module `axf`, the oracle's `judge::axf` at engine speed).
//! - [`JudgeError`]: a move that cannot be played.
//!
//! ```
//! use xiangqi_rules::judge::{Builtin, MoveClass, RuleSet};
//! use xiangqi_rules::{Move, Position, RankConvention};
//!
//! // The Asian rules: the rook attacks the unprotected cannon on a5, a chase (捉, 第三節 3).
//! let axf = RuleSet::builtin("axf").unwrap();
//! let pos = Position::from_fen("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1").unwrap();
//! let c = pos.classify(Move::parse_iccs("b4a4", RankConvention::Iccs).unwrap(), axf).unwrap();
//! assert_eq!(c.class, MoveClass::Chase);
//! assert_eq!(c.targets[0].to_string(), "a5");
//! assert!(c.articles.iter().any(|a| a == "axf.general.3"));
//! assert_eq!(c.note, "new attack (捉): rook a4 on cannon a5 (unprotected)");
//! ```

mod analysis;
mod axf;
mod classify;
mod cycle;
mod game;
mod rules;
mod track;

pub use cycle::{apply_pawn_clause, labels, rule, side_pattern, CycleRuling, SidePattern};
pub use game::{
    explain, judge, judge_record, natural_limit_claimant, Adjudicator, CycleMove, GameResult,
    Judgement, Ruling, SideName, Verdict,
};
pub use rules::BUILTIN_RULE_SETS;

pub use analysis::clear_caches;
pub use classify::{classify, Classification};
pub use track::{PieceId, Tracked};

pub use xiangqi_spec::ruleset::{
    BothForbidden, GravePattern, Interpretation, Matcher, MoveClass, Pattern, RuleSet, RulingRow,
    SingleAgainstJoint,
};

/// Why judging could not proceed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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

impl JudgeError {
    /// The same error with its 1-based move index set.
    pub fn with_index(self, index: usize) -> JudgeError {
        match self {
            JudgeError::IllegalMove { mv, reason, .. } => {
                JudgeError::IllegalMove { index, mv, reason }
            }
        }
    }
}

/// The rule sets compiled into the library ([`BUILTIN_RULE_SETS`]).
///
/// ```
/// use xiangqi_rules::judge::{Builtin, RuleSet};
/// let rules = RuleSet::builtin("cxa-2011").unwrap();
/// assert_eq!(rules.repetition_count, 3);
/// assert_eq!(rules.article("cxa1999.25.2.perpetual-chase"), "24.13"); // renumbered
/// assert_eq!(RuleSet::builtin("axf").unwrap().classifier, "axf"); // the Asian rules
/// assert!(RuleSet::builtin("cxa-1899").is_none());
/// ```
pub trait Builtin {
    /// The built-in rule set `id` (`cxa-1999`, `cxa-2011`, `axf`), or `None`.
    fn builtin(id: &str) -> Option<&'static RuleSet>;
}
