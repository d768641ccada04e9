//! The text board of `xqrules show`.

use crate::{Color, Position, Square};

/// A text board: rank 9 at the top, Red at the bottom, as printed diagrams show it (art. 1.3),
/// with the side to move, the FEN, and a line when the side to move is in check. Pieces are FEN
/// letters, or with `chinese` their Chinese names.
///
/// ```
/// use xiangqi_rules::{notation::board_text, Position};
/// let text = board_text(&Position::startpos(), false);
/// assert!(text.starts_with("9  r n b a k a b n r"));
/// assert!(text.contains("Red (紅) to move"));
/// assert!(board_text(&Position::startpos(), true).contains("帥"));
/// ```
pub fn board_text(pos: &Position, chinese: bool) -> String {
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        out.push_str(&format!("{rank}  "));
        for file in 0..9u8 {
            let sq = Square::at(file, rank);
            let cell = match pos.piece_at(sq) {
                Some(p) if chinese => p.chinese_name().to_string(),
                Some(p) => format!("{} ", p.fen_char()),
                None if chinese => "\u{FF0E}".to_string(),
                None => ". ".to_string(),
            };
            out.push_str(&cell);
            if chinese {
                out.push(' ');
            }
        }
        out.push('\n');
        if rank == 5 {
            out.push_str("   ~~~~~ river (河界) ~~~~\n");
        }
    }
    out.push_str(if chinese {
        "   a  b  c  d  e  f  g  h  i\n"
    } else {
        "   a b c d e f g h i\n"
    });
    let side = match pos.turn() {
        Color::Red => "Red (紅) to move",
        Color::Black => "Black (黑) to move",
    };
    out.push_str(&format!("{side}\nFEN: {}\n", pos.to_fen()));
    if pos.is_check() {
        out.push_str("The side to move is in check (照將).\n");
    }
    out
}
