//! The shared vocabulary: colours, roles, pieces and board coordinates.
//!
//! These types are used both by the build script (to name what the tables describe) and at run
//! time by the fast implementation. They are tiny `Copy` newtypes with `const fn` constructors.

use std::fmt;

/// A side (方). Red (紅) moves first (art. 2.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (紅方), upper-case FEN letters, starts on ranks 0..=4.
    Red = 0,
    /// Black (黑方), lower-case FEN letters, starts on ranks 5..=9.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Inverse of [`Color::index`]; `None` for indices above 1.
    pub const fn from_index(i: usize) -> Option<Color> {
        match i {
            0 => Some(Color::Red),
            1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The rank direction of "forward" for this side: +1 for Red, -1 for Black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// The FEN side-to-move letter: `w` for Red, `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// English name in lower case (`red`, `black`), as used for ids in the spec.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "Red",
            Color::Black => "Black",
        })
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    /// The opponent.
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

/// A value for each colour, indexable by [`Color`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds the pair by calling `f` for Red then Black.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            red: f(Color::Red),
            black: f(Color::Black),
        }
    }

    /// The value for `color`.
    #[inline]
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// The value for `color`, mutably.
    #[inline]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    fn index(&self, c: Color) -> &T {
        self.get(c)
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, c: Color) -> &mut T {
        self.get_mut(c)
    }
}

/// The kind of a piece (棋子), independent of its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King / general: 帥 (Red), 將 (Black). FEN `K`.
    King = 0,
    /// Advisor / guard: 仕 (Red), 士 (Black). FEN `A`.
    Advisor = 1,
    /// Elephant / minister: 相 (Red), 象 (Black). FEN `B`.
    Elephant = 2,
    /// Horse / knight: 傌 (Red), 馬 (Black). FEN `N`.
    Horse = 3,
    /// Rook / chariot: 俥 (Red), 車 (Black). FEN `R`.
    Rook = 4,
    /// Cannon: 炮 (Red), 砲 (Black). FEN `C`.
    Cannon = 5,
    /// Pawn / soldier: 兵 (Red), 卒 (Black). FEN `P`.
    Pawn = 6,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    /// 0..7 in the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Inverse of [`Role::index`].
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 7 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// Upper-case FEN letter: K A B N R C P.
    pub const fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The role for a FEN letter of either case.
    pub const fn from_letter(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'K' => Some(Role::King),
            'A' => Some(Role::Advisor),
            'B' => Some(Role::Elephant),
            'N' => Some(Role::Horse),
            'R' => Some(Role::Rook),
            'C' => Some(Role::Cannon),
            'P' => Some(Role::Pawn),
            _ => None,
        }
    }

    /// The piece id used in the spec files (`king`, `advisor`, ...).
    pub const fn id(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }

    /// The role with spec id `id`.
    pub fn from_id(id: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.id() == id)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A coloured piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// The side owning it.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// 0..14: `color * 7 + role`.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::Red => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (upper case = Red).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match Role::from_letter(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

impl Piece {
    /// Traditional Chinese name as printed on the piece: 帥 仕 相 傌 俥 炮 兵 for Red,
    /// 將 士 象 馬 車 砲 卒 for Black (the names of pieces.yaml).
    pub const fn chinese_name(self) -> &'static str {
        match (self.color, self.role) {
            (Color::Red, Role::King) => "帥",
            (Color::Red, Role::Advisor) => "仕",
            (Color::Red, Role::Elephant) => "相",
            (Color::Red, Role::Horse) => "傌",
            (Color::Red, Role::Rook) => "俥",
            (Color::Red, Role::Cannon) => "炮",
            (Color::Red, Role::Pawn) => "兵",
            (Color::Black, Role::King) => "將",
            (Color::Black, Role::Advisor) => "士",
            (Color::Black, Role::Elephant) => "象",
            (Color::Black, Role::Horse) => "馬",
            (Color::Black, Role::Rook) => "車",
            (Color::Black, Role::Cannon) => "砲",
            (Color::Black, Role::Pawn) => "卒",
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A file (vertical line), `a`..`i` = 0..8 from Red's left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// The file with index `i` (0..9).
    pub const fn new(i: u8) -> Option<File> {
        if i < 9 {
            Some(File(i))
        } else {
            None
        }
    }

    /// 0..9.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter `a`..`i`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file for a letter `a`..`i`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'i' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }
}

/// A rank (horizontal line), 0..9 from Red's back rank (ICCS numbering).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with index `i` (0..10).
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 10 {
            Some(Rank(i))
        } else {
            None
        }
    }

    /// 0..10.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A point (交叉點) of the board: `rank * 9 + file`, 0..90 (`a0` = 0, `i9` = 89).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points.
    pub const COUNT: usize = 90;

    /// The square with index `i` (0..90).
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 90 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i`. The caller guarantees `i < 90` (checked in debug builds).
    #[inline]
    pub const fn new_unchecked(i: u8) -> Square {
        debug_assert!(i < 90);
        Square(i)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The square on file index `file` (0..9) and rank index `rank` (0..10).
    ///
    /// Panics (at compile time in const contexts) if either is off the board.
    pub const fn at(file: u8, rank: u8) -> Square {
        assert!(file < 9 && rank < 10, "square off the board");
        Square(rank * 9 + file)
    }

    /// The square with file and rank indices, if both are on the board.
    pub const fn from_xy(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// Its file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// Its rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Index as `u8`.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// Its ICCS name, file letter and rank digit (`Square::at(4, 0).name() == "e0"`); the same
    /// text as `to_string`, without formatting.
    #[inline]
    pub const fn name(self) -> &'static str {
        SQUARE_NAMES[self.0 as usize]
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_xy((self.0 % 9) as i32 + df, (self.0 / 9) as i32 + dr)
    }

    /// Parses ICCS coordinates such as `e0` or `h9`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = File::from_char(b[0] as char)?;
        if !b[1].is_ascii_digit() {
            return None;
        }
        Some(Square::from_coords(f, Rank(b[1] - b'0')))
    }
}

/// The ICCS names of the 90 points, by index.
const SQUARE_NAMES: [&str; 90] = [
    "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "a1", "b1", "c1", "d1", "e1", "f1", "g1",
    "h1", "i1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "a3", "b3", "c3", "d3", "e3",
    "f3", "g3", "h3", "i3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "a5", "b5", "c5",
    "d5", "e5", "f5", "g5", "h5", "i5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6", "a7",
    "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
    "i8", "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9",
];

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(Square::parse("a0").unwrap().index(), 0);
        assert_eq!(Square::parse("i9").unwrap().index(), 89);
        assert_eq!(Square::parse("e0").unwrap().to_string(), "e0");
        for i in 0..90u8 {
            let sq = Square::new(i).unwrap();
            let built = format!("{}{}", sq.file().char(), sq.rank().index());
            assert_eq!(sq.name(), built);
            assert_eq!(Square::parse(sq.name()), Some(sq));
        }
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::new(90), None);
        assert_eq!(
            Square::parse("b0")
                .unwrap()
                .offset(1, 2)
                .unwrap()
                .to_string(),
            "c2"
        );
        assert_eq!(Square::parse("a0").unwrap().offset(-1, 0), None);
    }

    #[test]
    fn pieces() {
        for c in Color::ALL {
            for r in Role::ALL {
                let p = Piece::new(c, r);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
                assert_eq!(Role::from_id(r.id()), Some(r));
            }
        }
        assert_eq!(
            Piece::from_fen_char('n'),
            Some(Piece::new(Color::Black, Role::Horse))
        );
        assert_eq!(Color::Red.other(), Color::Black);
        let bc = ByColor { red: 1, black: 2 };
        assert_eq!(bc[Color::Black], 2);
    }
}
