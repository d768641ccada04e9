//! Chinese move notation (記譜法) generated from ICCS, for examples that print no Chinese
//! moves (the AXF cases).
//!
//! Traditional characters, with the piece names of `pieces.yaml` (Red 俥傌炮…, Black 車馬砲…):
//! the piece, its file as the mover counts it (Red 一–九 from its right, Black １–９ from its
//! right), 進 forward / 退 back / 平 along the rank, then the new file (平, and for the
//! diagonal movers horse, advisor, elephant) or the number of ranks moved. Two or more
//! pieces of one kind on one file are told apart by 前/中/後 (front to back, as the mover
//! sees it) in place of the file. The rule books print their own mixture of characters, so
//! printed `moves_cn` are always shown as printed; this notation is only used where there is
//! none.

use xiangqi_oracle::{Board, OMove, Side};

use super::check::SpecDir;

const RED_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const BLACK_NUMERALS: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];

fn numeral(side: Side, n: u8) -> &'static str {
    let i = (n.clamp(1, 9) - 1) as usize;
    match side {
        Side::Red => RED_NUMERALS[i],
        Side::Black => BLACK_NUMERALS[i],
    }
}

/// The file number of 0-based ICCS file `f` as `side` counts it.
fn file_number(side: Side, f: u8) -> u8 {
    match side {
        Side::Red => 9 - f,
        Side::Black => f + 1,
    }
}

/// The move `mv` on `board` (before it is played) in Chinese notation, or `None` when there is
/// no piece of the side to move on its from-point or the spec names no such piece.
pub fn chinese(spec: &SpecDir, board: &Board, mv: OMove) -> Option<String> {
    let oracle = board.spec();
    let piece = board.piece_at(mv.from)?;
    let side = piece.side;
    let role = &oracle.role(piece.role).id;
    let names = spec.names.get(role)?;
    let name = match side {
        Side::Red => &names[0],
        Side::Black => &names[1],
    };
    let forward = oracle.side(side).forward;
    // Pieces of the same kind on the same file, front (farthest forward) first.
    let mut same: Vec<i32> = board
        .pieces_of(side)
        .filter(|p| p.role == piece.role)
        .filter_map(|p| p.square)
        .filter(|c| c.file() == mv.from.file())
        .map(|c| c.rank() as i32 * forward)
        .collect();
    same.sort_unstable_by(|a, b| b.cmp(a));
    let head = if same.len() > 1 {
        let pos = same
            .iter()
            .position(|&r| r == mv.from.rank() as i32 * forward)
            .unwrap_or(0);
        let tag = match (same.len(), pos) {
            (_, 0) => "前".to_string(),
            (n, p) if p + 1 == n => "後".to_string(),
            (3, 1) => "中".to_string(),
            (_, p) => numeral(Side::Red, p as u8 + 1).to_string(),
        };
        format!("{tag}{name}")
    } else {
        format!("{name}{}", numeral(side, file_number(side, mv.from.file())))
    };
    let dr = (mv.to.rank() as i32 - mv.from.rank() as i32) * forward;
    let diagonal = mv.from.file() != mv.to.file() && dr != 0;
    let (verb, n) = if dr == 0 {
        ("平", file_number(side, mv.to.file()))
    } else if diagonal {
        (
            if dr > 0 { "進" } else { "退" },
            file_number(side, mv.to.file()),
        )
    } else {
        (if dr > 0 { "進" } else { "退" }, dr.unsigned_abs() as u8)
    };
    Some(format!("{head}{verb}{}", numeral(side, n)))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::spec_tools::check::{check, start_board, NoJudge};

    /// The rule books print a mixture of characters (1999: 車馬砲 for both sides and 帅;
    /// 2011: simplified); fold them onto one spelling before comparing.
    fn fold(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                '俥' | '车' => '車',
                '傌' | '马' => '馬',
                '炮' => '砲',
                '帥' | '帅' | '将' => '將',
                '进' => '進',
                '后' => '後',
                other => other,
            })
            .collect()
    }

    #[test]
    fn generated_notation_matches_the_printed_moves() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
        let (spec, report) = check(&dir, &NoJudge).expect("spec loads");
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
        let oracle = spec.oracle.as_ref().expect("oracle spec");
        let (mut compared, mut differ) = (0, Vec::new());
        for le in &spec.examples {
            let ex = &le.example;
            let Some(printed) = &ex.moves_cn else {
                continue;
            };
            let mut board = start_board(oracle, ex).expect("start position");
            for (text, cn) in ex.moves.iter().zip(printed) {
                let mv = OMove::parse_iccs(text).expect("ICCS");
                let ours = chinese(&spec, &board, mv).expect("a piece to move");
                compared += 1;
                if fold(&ours) != fold(cn) {
                    differ.push(format!("{}: {text}: {ours} vs printed {cn}", ex.id));
                }
                board.play(mv).expect("legal");
            }
        }
        assert!(compared > 200, "only {compared} printed moves");
        // 1999 圖十三 has two red pawns on file 八 and prints the rear one's move once as
        // 兵八平七 and once as 後八平七; the standard form is 後兵平七.
        assert!(
            differ
                .iter()
                .all(|d| d.starts_with("cxa-1999/fig13: b5c5: 後兵平七")),
            "{differ:#?}"
        );
    }
}
