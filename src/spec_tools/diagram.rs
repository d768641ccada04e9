//! SVG diagrams of the worked examples.
//!
//! Each diagram shows the board (9 files by 10 ranks, the river with 楚河 漢界, the palaces'
//! diagonals, Red at the bottom), the pieces of the example's start position with their
//! traditional Chinese names from `pieces.yaml` (帥仕相傌俥炮兵 in red, 將士象馬車砲卒 in black),
//! and the printed moves (`moves`) as numbered arrows: red arrows for Red's plies, dark ones for
//! Black's. A move played more than once in the printed moves is one arrow with all its
//! numbers (`1,5`); a move and its way back are drawn side by side.
//!
//! Output is deterministic: integer coordinates where possible, one decimal otherwise, pieces
//! in square order, arrows in order of first appearance.

use std::fmt::Write as _;

use xiangqi_oracle::{Coord, OMove, Side};

use super::check::SpecDir;
use super::model::{Example, SideId};

/// Distance between two points of the board, in SVG units.
const CELL: i32 = 50;
/// Left margin (rank numbers).
const LEFT: i32 = 45;
/// Top margin (caption and Black's file numbers).
const TOP: i32 = 98;
/// Width of the whole picture.
pub const WIDTH: i32 = LEFT + 8 * CELL + 35;
/// Height of the whole picture.
pub const HEIGHT: i32 = TOP + 9 * CELL + 62;
/// Radius of a piece.
const PIECE_R: i32 = 21;

const RED: &str = "#c8102e";
const DARK: &str = "#1f1f1f";
const RED_ARROW: &str = "#d7261e";
const DARK_ARROW: &str = "#303a46";
const CJK_FONT: &str = "'Noto Serif CJK TC','Noto Serif TC','Source Han Serif TC','Songti TC','PMingLiU','MingLiU','SimSun','Noto Sans CJK TC',serif";

fn x(file: u8) -> i32 {
    LEFT + CELL * file as i32
}

fn y(rank: u8) -> i32 {
    TOP + CELL * (9 - rank as i32)
}

/// A number with at most one decimal, without `.0` and without `-0`.
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The board lines, river and coordinates (no pieces), as SVG elements.
fn board_elements() -> String {
    let mut s = String::new();
    let (x0, x8, y9, y0) = (x(0), x(8), y(9), y(0));
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="#f2d9a6" stroke="#8a6a3a" stroke-width="1"/>"##,
        x0 - 27,
        y9 - 27,
        8 * CELL + 54,
        9 * CELL + 54
    );
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#5a4020" stroke-width="2.5"/>"##,
        x0 - 5,
        y9 - 5,
        8 * CELL + 10,
        9 * CELL + 10
    );
    s.push_str(r##"<g stroke="#5a4020" stroke-width="1.2" stroke-linecap="square">"##);
    s.push('\n');
    for r in 0..10u8 {
        let _ = writeln!(s, r#"<line x1="{x0}" y1="{0}" x2="{x8}" y2="{0}"/>"#, y(r));
    }
    for f in 0..9u8 {
        if f == 0 || f == 8 {
            let _ = writeln!(s, r#"<line x1="{0}" y1="{y9}" x2="{0}" y2="{y0}"/>"#, x(f));
        } else {
            // Inner files stop at the river (art. 1.1).
            let _ = writeln!(
                s,
                r#"<line x1="{0}" y1="{y9}" x2="{0}" y2="{1}"/>"#,
                x(f),
                y(5)
            );
            let _ = writeln!(
                s,
                r#"<line x1="{0}" y1="{1}" x2="{0}" y2="{y0}"/>"#,
                x(f),
                y(4)
            );
        }
    }
    // The palaces' diagonals (九宮).
    for (r0, r2) in [(0u8, 2u8), (7, 9)] {
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x(3),
            y(r0),
            x(5),
            y(r2)
        );
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            x(5),
            y(r0),
            x(3),
            y(r2)
        );
    }
    s.push_str("</g>\n");
    // The river (河界): 楚河 on Red's left, 漢界 on Red's right.
    let river_y = (y(4) + y(5)) / 2;
    let _ = writeln!(
        s,
        r##"<g font-family="{CJK_FONT}" font-size="26" fill="#6b4a1e" text-anchor="middle" dominant-baseline="central" letter-spacing="14"><text x="{}" y="{river_y}">楚河</text><text x="{}" y="{river_y}">漢界</text></g>"##,
        x(2) + 7,
        x(6) + 7
    );
    // Coordinates: ICCS ranks 0-9 on the left, files a-i under the board; the files as the
    // sides count them: Black's 1-9 above, Red's 九-一 below.
    s.push_str(r##"<g font-family="sans-serif" font-size="12" fill="#6b5a40" text-anchor="middle" dominant-baseline="central">"##);
    s.push('\n');
    for r in 0..10u8 {
        let _ = writeln!(s, r#"<text x="{}" y="{}">{r}</text>"#, x(0) - 36, y(r));
    }
    for (f, c) in "abcdefghi".chars().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{c}</text>"#,
            x(f as u8),
            y(0) + 50
        );
    }
    s.push_str("</g>\n");
    s.push_str(&format!(
        r##"<g font-family="{CJK_FONT}" font-size="14" text-anchor="middle" dominant-baseline="central">"##
    ));
    s.push('\n');
    let red_numerals = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    for f in 0..9u8 {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" fill="{DARK}">{}</text>"##,
            x(f),
            y(9) - 38,
            f + 1
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" fill="{RED}">{}</text>"##,
            x(f),
            y(0) + 35,
            red_numerals[f as usize]
        );
    }
    s.push_str("</g>\n");
    s
}

/// Arrowhead markers for the two sides (ids `xq-ah-red`, `xq-ah-black`) and the piece discs
/// centred on the origin (ids `xq-pc-red`, `xq-pc-black`).
fn markers() -> String {
    let mut s = String::new();
    for (id, color) in [("red", RED), ("black", DARK)] {
        let _ = writeln!(
            s,
            r##"<g id="xq-pc-{id}"><circle r="{PIECE_R}" fill="#fbf1dc" stroke="{color}" stroke-width="2"/><circle r="{}" fill="none" stroke="{color}" stroke-width="0.8"/></g>"##,
            PIECE_R - 4
        );
    }
    for (id, color) in [("red", RED_ARROW), ("black", DARK_ARROW)] {
        let _ = writeln!(
            s,
            r##"<marker id="xq-ah-{id}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4.5" markerHeight="4.5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{color}"/></marker>"##
        );
    }
    s
}

/// Definitions shared by every inline diagram of a page: the board as a `<symbol>` and the
/// arrowheads. Put once in the page, before the diagrams.
pub fn shared_defs() -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>\n{}<symbol id=\"xq-board\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\n{}</symbol>\n</defs></svg>\n",
        markers(),
        board_elements()
    )
}

/// A diagram that stands alone (an `.svg` file).
pub fn standalone(spec: &SpecDir, ex: &Example) -> Result<String, String> {
    let body = content(spec, ex)?;
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\">\n<title>{}</title>\n<defs>\n{}</defs>\n<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n{}{}</svg>\n",
        esc(&title(ex)),
        markers(),
        board_elements(),
        body
    ))
}

/// A diagram for a page that contains [`shared_defs`] once.
pub fn inline(spec: &SpecDir, ex: &Example) -> Result<String, String> {
    let body = content(spec, ex)?;
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"{}\">\n<use href=\"#xq-board\" width=\"{WIDTH}\" height=\"{HEIGHT}\"/>\n{}</svg>\n",
        esc(&title(ex)),
        body
    ))
}

fn title(ex: &Example) -> String {
    let mut t = ex.id.clone();
    if let Some(fig) = &ex.figure {
        t.push(' ');
        t.push_str(fig);
    }
    t
}

fn side_name(s: SideId) -> &'static str {
    match s {
        SideId::Red => "Red",
        SideId::Black => "Black",
    }
}

/// Caption, pieces and arrows.
fn content(spec: &SpecDir, ex: &Example) -> Result<String, String> {
    let oracle = spec
        .oracle
        .as_ref()
        .ok_or("the board and pieces of the spec do not load")?;
    let board = super::check::start_board(oracle, ex)?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<text x="{}" y="22" font-family="{CJK_FONT}" font-size="17" fill="#222" text-anchor="middle">{}</text>"##,
        WIDTH / 2,
        esc(&title(ex))
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="41" font-family="sans-serif" font-size="12" fill="#555" text-anchor="middle">{} to move · {} plies shown · rules {}</text>"##,
        WIDTH / 2,
        side_name(ex.side_to_move),
        ex.moves.len(),
        esc(&ex.rules)
    );
    // Pieces, in square order.
    s.push_str(&format!(
        r##"<g font-family="{CJK_FONT}" font-size="25" font-weight="bold" text-anchor="middle" dominant-baseline="central">"##
    ));
    s.push('\n');
    for c in Coord::all() {
        let Some(p) = board.piece_at(c) else { continue };
        let role = &oracle.role(p.role).id;
        let names = spec
            .names
            .get(role)
            .ok_or_else(|| format!("no Chinese name for piece {role:?} in pieces.yaml"))?;
        let (name, color, id) = match p.side {
            Side::Red => (&names[0], RED, "red"),
            Side::Black => (&names[1], DARK, "black"),
        };
        let (cx, cy) = (x(c.file()), y(c.rank()));
        let _ = writeln!(
            s,
            r##"<use href="#xq-pc-{id}" x="{cx}" y="{cy}"/><text x="{cx}" y="{cy}" fill="{color}">{}</text>"##,
            esc(name)
        );
    }
    s.push_str("</g>\n");
    s.push_str(&arrows(ex)?);
    Ok(s)
}

/// One arrow: a move and the plies that play it.
struct Arrow {
    mv: OMove,
    side: SideId,
    plies: Vec<usize>,
}

fn arrows(ex: &Example) -> Result<String, String> {
    let mut list: Vec<Arrow> = Vec::new();
    for (i, text) in ex.moves.iter().enumerate() {
        let mv = OMove::parse_iccs(text).map_err(|e| format!("moves[{i}]: {e}"))?;
        let side = ex.mover(i + 1);
        match list.iter_mut().find(|a| a.mv == mv && a.side == side) {
            Some(a) => a.plies.push(i + 1),
            None => list.push(Arrow {
                mv,
                side,
                plies: vec![i + 1],
            }),
        }
    }
    let mut lines = String::new();
    let mut labels = String::new();
    for a in &list {
        let (x0, y0) = (x(a.mv.from.file()) as f64, y(a.mv.from.rank()) as f64);
        let (x1, y1) = (x(a.mv.to.file()) as f64, y(a.mv.to.rank()) as f64);
        let len = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        if len == 0.0 {
            continue;
        }
        let (ux, uy) = ((x1 - x0) / len, (y1 - y0) / len);
        // Offset to the right of the direction of travel, so a move and its way back do not
        // overlap.
        let (nx, ny) = (-uy * 5.0, ux * 5.0);
        let (sx, sy) = (x0 + ux * 9.0 + nx, y0 + uy * 9.0 + ny);
        let (ex_, ey) = (x1 - ux * 7.0 + nx, y1 - uy * 7.0 + ny);
        let (color, id) = match a.side {
            SideId::Red => (RED_ARROW, "red"),
            SideId::Black => (DARK_ARROW, "black"),
        };
        let _ = writeln!(
            lines,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{color}" stroke-width="3.5" stroke-opacity="0.85" stroke-linecap="round" marker-end="url(#xq-ah-{id})"/>"##,
            num(sx),
            num(sy),
            num(ex_),
            num(ey)
        );
        let text = a
            .plies
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",");
        // The number sits beside the shaft, on the side of the offset, so that short arrows
        // (one point) and their way back keep both numbers and arrowheads visible.
        let (lx, ly) = (
            sx + (ex_ - sx) * 0.4 + nx * 2.4,
            sy + (ey - sy) * 0.4 + ny * 2.4,
        );
        let w = 8.0 + 7.0 * text.len() as f64;
        let _ = writeln!(
            labels,
            r##"<rect x="{}" y="{}" width="{}" height="16" rx="8" fill="{color}" stroke="#ffffff" stroke-width="1"/><text x="{}" y="{}">{text}</text>"##,
            num(lx - w / 2.0),
            num(ly - 8.0),
            num(w),
            num(lx),
            num(ly)
        );
    }
    Ok(format!(
        "<g>\n{lines}</g>\n<g font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\" dominant-baseline=\"central\">\n{labels}</g>\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_fixed_format() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(-3.45), "-3.5");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
