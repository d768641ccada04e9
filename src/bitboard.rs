//! A set of board points as a `u128` (90 low bits used, bit `rank * 9 + file`).

use crate::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of points: bit `sq` stands for [`Square`] index `sq`. Only the 90 low bits are used.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u128 << sq.index()) != 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest point, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! ops {
    ($tr:ident $f:ident $tra:ident $fa:ident $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
ops!(BitAnd bitand BitAndAssign bitand_assign &);
ops!(BitOr bitor BitOrAssign bitor_assign |);
ops!(BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}
