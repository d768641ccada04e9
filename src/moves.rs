//! Moves, the ICCS notation and move lists.

use crate::{File, Rank, Square};
use std::fmt;

/// How ranks are numbered in move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RankConvention {
    /// ICCS: ranks 0..9 from Red's back rank (`h2e2`).
    Iccs,
    /// Fairy-Stockfish UCI: ranks 1..10 (`h3e3`).
    FairyStockfish,
}

/// A move from one point to another. `Display` prints ICCS (`h2e2`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// Not of the shape `<file><rank><file><rank>`.
    #[error("expected <file><rank><file><rank> such as {example}, found {found:?}")]
    Syntax {
        /// The text.
        found: String,
        /// An example in the convention asked for.
        example: &'static str,
    },
    /// A file letter outside `a`..`i`.
    #[error("file {0:?} is not one of a..i")]
    File(char),
    /// A rank number outside the convention's range.
    #[error("rank {found} is outside {range} ({convention:?} numbering)")]
    Rank {
        /// The number read.
        found: u32,
        /// `0..9` or `1..10`.
        range: &'static str,
        /// The convention asked for.
        convention: RankConvention,
    },
    /// The same point twice.
    #[error("from and to are the same point {0}")]
    SameSquare(Square),
}

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The start point.
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The target point.
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// Parses `h2e2` (ICCS) or `h3e3` (Fairy-Stockfish) in the given convention; never guesses.
    ///
    /// ```
    /// use xiangqi_rules::{Move, RankConvention};
    /// let m = Move::parse_iccs("h2e2", RankConvention::Iccs).unwrap();
    /// assert_eq!(m.to_iccs(RankConvention::FairyStockfish), "h3e3");
    /// assert!(Move::parse_iccs("h0e10", RankConvention::Iccs).is_err());
    /// ```
    pub fn parse_iccs(s: &str, conv: RankConvention) -> Result<Move, MoveParseError> {
        let example = match conv {
            RankConvention::Iccs => "h2e2",
            RankConvention::FairyStockfish => "h3e3",
        };
        let syntax = || MoveParseError::Syntax {
            found: s.to_string(),
            example,
        };
        let b = s.as_bytes();
        let mut i = 0;
        let mut squares = [None, None];
        for slot in &mut squares {
            let fc = *b.get(i).ok_or_else(syntax)? as char;
            if !fc.is_ascii_lowercase() || b.len() < 4 {
                return Err(syntax());
            }
            let file = File::from_char(fc).ok_or(MoveParseError::File(fc))?;
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
                i += 1;
            }
            if i == start {
                return Err(syntax());
            }
            let n: u32 = s[start..i].parse().map_err(|_| syntax())?;
            let (idx, range) = match conv {
                RankConvention::Iccs => (n.checked_sub(0).filter(|&x| x <= 9), "0..9"),
                RankConvention::FairyStockfish => (n.checked_sub(1).filter(|&x| x <= 9), "1..10"),
            };
            let idx = idx.ok_or(MoveParseError::Rank {
                found: n,
                range,
                convention: conv,
            })?;
            *slot = Some(Square::from_coords(file, Rank::new(idx as u8).unwrap()));
        }
        if i != b.len() {
            return Err(syntax());
        }
        let (from, to) = (squares[0].unwrap(), squares[1].unwrap());
        if from == to {
            return Err(MoveParseError::SameSquare(from));
        }
        Ok(Move { from, to })
    }

    /// Prints the move in the given convention.
    pub fn to_iccs(&self, conv: RankConvention) -> String {
        match conv {
            RankConvention::Iccs => {
                let mut s = String::with_capacity(4);
                s.push_str(self.from.name());
                s.push_str(self.to.name());
                s
            }
            RankConvention::FairyStockfish => format!(
                "{}{}{}{}",
                self.from.file().char(),
                self.from.rank().index() + 1,
                self.to.file().char(),
                self.to.rank().index() + 1
            ),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.from.name())?;
        f.write_str(self.to.name())
    }
}

/// Capacity of a [`MoveList`]; no Xiangqi position has more legal moves: a game's pieces have
/// at most 119, and the lenient readers refuse a set-up whose pieces could have more than this
/// many ([`FenError::TooCrowded`](crate::FenError::TooCrowded)).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves. Derefs to `[Move]`.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::new_unchecked(0), Square::new_unchecked(0)); MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in their order.
    #[inline]
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The by-value iterator of a [`MoveList`].
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.next).copied()?;
        self.next += 1;
        Some(m)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}
