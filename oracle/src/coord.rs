//! Points of the board, the two sides and moves in ICCS notation.

use std::fmt;

/// Number of files (vertical lines) of the board (art. 1.1).
pub const FILES: u8 = 9;
/// Number of ranks (horizontal lines) of the board (art. 1.1).
pub const RANKS: u8 = 10;
/// Number of points of the board (art. 1.1: 90 intersections).
pub const POINTS: usize = 90;

/// One of the 90 points of the board.
///
/// Files `a`..`i` are 0..8 from Red's left, ranks 0..9 from Red's back rank (ICCS);
/// the index is `rank * 9 + file`, so `a0` is 0 and `i9` is 89.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord(u8);

impl fmt::Debug for Coord {
    /// `Coord(e0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Coord({self})")
    }
}

impl Coord {
    /// The point `a0` (index 0).
    pub const A0: Coord = Coord(0);

    /// The point on `file` (0..9) and `rank` (0..10), or `None` off the board.
    pub fn new(file: i32, rank: i32) -> Option<Coord> {
        if (0..FILES as i32).contains(&file) && (0..RANKS as i32).contains(&rank) {
            Some(Coord((rank * FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    /// The point with index `rank * 9 + file`, or `None` when `index >= 90`.
    pub fn from_index(index: usize) -> Option<Coord> {
        (index < POINTS).then_some(Coord(index as u8))
    }

    /// The index `rank * 9 + file` (0..90).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) ..= 8 (`i`).
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, 0 (Red's back rank) ..= 9 (Black's back rank).
    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The point `df` files and `dr` ranks away (absolute, not side-relative), if on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Coord> {
        Coord::new(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// All 90 points in index order.
    pub fn all() -> impl Iterator<Item = Coord> {
        (0..POINTS as u8).map(Coord)
    }

    /// Parses a point such as `e0` with the given rank convention.
    pub fn parse(s: &str, conv: RankConvention) -> Option<Coord> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !('a'..='i').contains(&f) {
            return None;
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty() || !rank_text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let r: i32 = rank_text.parse().ok()?;
        let r = match conv {
            RankConvention::Iccs if rank_text.len() == 1 => r,
            RankConvention::FairyStockfish
                if (1..=10).contains(&r) && !rank_text.starts_with('0') =>
            {
                r - 1
            }
            _ => return None,
        };
        Coord::new(f as i32 - 'a' as i32, r)
    }

    /// Prints the point, e.g. `e0` (ICCS) or `e1` (Fairy-Stockfish).
    pub fn to_string_with(self, conv: RankConvention) -> String {
        let f = (b'a' + self.file()) as char;
        match conv {
            RankConvention::Iccs => format!("{f}{}", self.rank()),
            RankConvention::FairyStockfish => format!("{f}{}", self.rank() + 1),
        }
    }
}

impl fmt::Display for Coord {
    /// ICCS spelling, e.g. `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_with(RankConvention::Iccs))
    }
}

impl std::str::FromStr for Coord {
    type Err = MoveParseError;
    /// Parses an ICCS point such as `e0`.
    fn from_str(s: &str) -> Result<Coord, MoveParseError> {
        Coord::parse(s, RankConvention::Iccs).ok_or_else(|| MoveParseError::Syntax {
            text: s.to_string(),
            example: "e0",
            convention: "ICCS, ranks 0-9",
        })
    }
}

/// One of the two sides (art. 1.2: 紅 Red and 黑 Black).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Red (紅), upper-case letters in FEN, moves first (art. 2.1).
    Red,
    /// Black (黑), lower-case letters in FEN.
    Black,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    pub fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Black => 1,
        }
    }

    /// The spec id of the side: `red` or `black`.
    pub fn id(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }

    /// Both sides, Red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Black];
}

impl fmt::Display for Side {
    /// `red` or `black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How ranks are numbered in move text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RankConvention {
    /// ICCS: ranks 0..9 (`h2e2`). The default.
    #[default]
    Iccs,
    /// Fairy-Stockfish UCI: ranks 1..10 (`h3e3`). Only used when asked for explicitly.
    FairyStockfish,
}

/// A move from one point to another (no piece information), e.g. `h2e2`.
///
/// `Display` prints ICCS (ranks 0..9).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OMove {
    /// The point the moving piece leaves.
    pub from: Coord,
    /// The point the moving piece arrives at.
    pub to: Coord,
}

/// Why move text could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not two points such as `h2e2` (or, for a lone point, not like `e0`).
    #[error("{text:?}: expected something like {example} ({convention})")]
    Syntax {
        /// The text given.
        text: String,
        /// A well-formed example for the convention.
        example: &'static str,
        /// The convention used, described.
        convention: &'static str,
    },
    /// Both points are the same.
    #[error("move {text:?}: the from and to points are the same")]
    NullMove {
        /// The text given.
        text: String,
    },
}

impl OMove {
    /// A move from `from` to `to`.
    pub fn new(from: Coord, to: Coord) -> OMove {
        OMove { from, to }
    }

    /// Parses `h2e2` (ICCS, ranks 0..9) or, with [`RankConvention::FairyStockfish`], `h3e3`.
    /// Letters must be lower case; surrounding whitespace is ignored.
    pub fn parse(text: &str, conv: RankConvention) -> Result<OMove, MoveParseError> {
        let t = text.trim();
        let syntax = || MoveParseError::Syntax {
            text: text.to_string(),
            example: match conv {
                RankConvention::Iccs => "h2e2",
                RankConvention::FairyStockfish => "h3e3",
            },
            convention: match conv {
                RankConvention::Iccs => "ICCS, ranks 0-9",
                RankConvention::FairyStockfish => "Fairy-Stockfish, ranks 1-10",
            },
        };
        // The second point starts at the second letter a..i.
        let split = t
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i)
            .ok_or_else(syntax)?;
        let from = Coord::parse(&t[..split], conv).ok_or_else(syntax)?;
        let to = Coord::parse(&t[split..], conv).ok_or_else(syntax)?;
        if from == to {
            return Err(MoveParseError::NullMove {
                text: text.to_string(),
            });
        }
        Ok(OMove { from, to })
    }

    /// Parses ICCS text `h2e2` (ranks 0..9).
    pub fn parse_iccs(text: &str) -> Result<OMove, MoveParseError> {
        OMove::parse(text, RankConvention::Iccs)
    }

    /// Prints the move with the given rank convention.
    pub fn to_string_with(self, conv: RankConvention) -> String {
        format!(
            "{}{}",
            self.from.to_string_with(conv),
            self.to.to_string_with(conv)
        )
    }
}

impl OMove {
    /// The move with Fairy-Stockfish ranks 1..10 (`h3e3` for ICCS `h2e2`); the same as
    /// `to_string_with(RankConvention::FairyStockfish)`.
    pub fn to_iccs_ranks_1_to_10(&self) -> String {
        self.to_string_with(RankConvention::FairyStockfish)
    }
}

impl fmt::Display for OMove {
    /// ICCS, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl std::str::FromStr for OMove {
    type Err = MoveParseError;
    /// Parses ICCS (ranks 0..9).
    fn from_str(s: &str) -> Result<OMove, MoveParseError> {
        OMove::parse_iccs(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coords_round_trip() {
        for c in Coord::all() {
            assert_eq!(Coord::parse(&c.to_string(), RankConvention::Iccs), Some(c));
            let fsf = c.to_string_with(RankConvention::FairyStockfish);
            assert_eq!(Coord::parse(&fsf, RankConvention::FairyStockfish), Some(c));
        }
        assert_eq!(Coord::parse("a0", RankConvention::Iccs).unwrap().index(), 0);
        assert_eq!(
            Coord::parse("i9", RankConvention::Iccs).unwrap().index(),
            89
        );
        assert_eq!(Coord::parse("i10", RankConvention::Iccs), None);
        assert_eq!(Coord::parse("a0", RankConvention::FairyStockfish), None);
        assert_eq!(Coord::parse("a01", RankConvention::FairyStockfish), None);
        assert_eq!(Coord::parse("j1", RankConvention::Iccs), None);
    }

    #[test]
    fn moves_parse_and_print() {
        let m = OMove::parse_iccs("h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.to_string_with(RankConvention::FairyStockfish), "h3e3");
        let f = OMove::parse("h3e3", RankConvention::FairyStockfish).unwrap();
        assert_eq!(f, m);
        let t = OMove::parse("a10a9", RankConvention::FairyStockfish).unwrap();
        assert_eq!(t.to_string(), "a9a8");
        assert!(OMove::parse_iccs("h2e").is_err());
        assert!(OMove::parse_iccs("h2e22").is_err());
        assert!(OMove::parse_iccs("a10a9").is_err());
        assert!(matches!(
            OMove::parse_iccs("e0e0"),
            Err(MoveParseError::NullMove { .. })
        ));
    }
}
