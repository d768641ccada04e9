//! The board's symmetries for the invariance tests (`tests/symmetry.rs`, and every constructed
//! position of `tests/concepts_cxa.rs`): the mirror image (files a↔i) and the colour swap (the
//! board turned 180°, colours and the side to move exchanged), and the comparison of a game's
//! judgement with its images' judgements.

use serde_json::Value;
use xiangqi_difftest::judge::{compare_judge_with, Agreed, JudgeCase};

/// A symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Files a↔i.
    Mirror,
    /// Turned 180°, colours and the side to move exchanged.
    ColourSwap,
}

impl Symmetry {
    /// The image of an ICCS point (`e3`).
    pub fn point(self, p: &str) -> String {
        let b = p.as_bytes();
        let (f, r) = (b[0] - b'a', b[1] - b'0');
        let (f, r) = match self {
            Symmetry::Mirror => (8 - f, r),
            Symmetry::ColourSwap => (8 - f, 9 - r),
        };
        format!("{}{}", (b'a' + f) as char, (b'0' + r) as char)
    }

    /// The image of an ICCS move (`h2e2`).
    pub fn mv(self, m: &str) -> String {
        format!("{}{}", self.point(&m[..2]), self.point(&m[2..4]))
    }

    /// The image of a FEN (board, side to move; the clock fields are kept).
    pub fn fen(self, fen: &str) -> String {
        let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        let ranks: Vec<String> = fields[0]
            .split('/')
            .map(|rank| {
                let mut cells: Vec<char> = Vec::new();
                for c in rank.chars() {
                    match c.to_digit(10) {
                        Some(n) => cells.extend(std::iter::repeat_n('1', n as usize)),
                        None => cells.push(c),
                    }
                }
                cells.reverse();
                if self == Symmetry::ColourSwap {
                    for c in &mut cells {
                        *c = if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        };
                    }
                }
                compress(&cells)
            })
            .collect();
        let ranks = match self {
            Symmetry::Mirror => ranks,
            Symmetry::ColourSwap => ranks.into_iter().rev().collect(),
        };
        fields[0] = ranks.join("/");
        if self == Symmetry::ColourSwap {
            fields[1] = if fields[1] == "b" { "w" } else { "b" }.to_string();
        }
        fields.join(" ")
    }

    /// The image of a game.
    pub fn case(self, c: &JudgeCase) -> JudgeCase {
        JudgeCase {
            rules: c.rules.clone(),
            fen: self.fen(&c.fen),
            moves: c.moves.iter().map(|m| self.mv(m)).collect(),
        }
    }

    /// The colour name under the symmetry (`red`, `black`, `red_loses`, …).
    pub fn colour(self, s: &str) -> String {
        if self == Symmetry::Mirror {
            return s.to_string();
        }
        if s.contains("red") {
            s.replace("red", "black")
        } else {
            s.replace("black", "red")
        }
    }
}

/// `1` cells back to FEN digits.
pub fn compress(cells: &[char]) -> String {
    let mut out = String::new();
    let mut run = 0;
    for &c in cells {
        if c == '1' {
            run += 1;
        } else {
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(c);
        }
    }
    if run > 0 {
        out.push_str(&run.to_string());
    }
    out
}

/// What must be the same (up to the symmetry) in two judgements: ruling, side that must change,
/// immediacy, pending, result, each side's pattern, and per cycle move its ply, side and class;
/// with `targets`, also the targets of each move (as a set of points).
pub fn view(j: &Value, s: Option<Symmetry>, with_targets: bool) -> Vec<String> {
    let colour = |v: &Value| {
        let t = v.as_str().unwrap_or("null").to_string();
        s.map_or(t.clone(), |s| s.colour(&t))
    };
    let mut out = vec![
        format!("ruling {}", colour(&j["ruling"])),
        format!("must_change {}", colour(&j["must_change"])),
        format!("immediate {}", j["immediate"]),
        format!("pending {}", j["pending"]),
        format!("result {}", colour(&j["result"])),
    ];
    let (red, black) = match s {
        Some(Symmetry::ColourSwap) => ("black_pattern", "red_pattern"),
        _ => ("red_pattern", "black_pattern"),
    };
    out.push(format!("red_pattern {}", j[red]));
    out.push(format!("black_pattern {}", j[black]));
    for c in j["cycle"].as_array().into_iter().flatten() {
        let mut targets: Vec<String> = c["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|p| s.map_or(p.to_string(), |s| s.point(p)))
            .collect();
        targets.sort();
        if !with_targets {
            targets.clear();
        }
        out.push(format!(
            "ply {} {} {} [{}]",
            c["ply"],
            colour(&c["side"]),
            c["class"].as_str().unwrap_or("?"),
            targets.join(",")
        ));
    }
    out
}

/// Judges `case` and its images under both symmetries; every difference, described. With
/// `with_targets`, the targets of each move are compared too.
pub fn differences(
    id: &str,
    case: &JudgeCase,
    lenient: bool,
    both_engines: bool,
    with_targets: bool,
) -> Vec<String> {
    let judge = |c: &JudgeCase| judged_json(c, lenient, both_engines);
    match judge(case) {
        Ok(original) => image_differences(id, case, &original, lenient, both_engines, with_targets),
        Err(e) => vec![format!("{id}: {e}")],
    }
}

/// The JSON judgement of `c`: by both engines (which must agree byte for byte), or by the fast
/// judge alone.
pub fn judged_json(c: &JudgeCase, lenient: bool, both_engines: bool) -> Result<Value, String> {
    let a = if both_engines {
        compare_judge_with(c, lenient).map_err(|d| format!("fast ≠ oracle: {d:?}"))?
    } else {
        fast_only(c, lenient)?
    };
    serde_json::from_str(&a.json).map_err(|e| format!("{e}: {}", a.json))
}

/// As [`differences`], with the judgement of `case` itself already made (`original`, its JSON):
/// only the two images are judged.
pub fn image_differences(
    id: &str,
    case: &JudgeCase,
    original: &Value,
    lenient: bool,
    both_engines: bool,
    with_targets: bool,
) -> Vec<String> {
    let judge = |c: &JudgeCase| judged_json(c, lenient, both_engines);
    let mut out = Vec::new();
    for s in [Symmetry::Mirror, Symmetry::ColourSwap] {
        let image = s.case(case);
        match judge(&image) {
            Ok(j) => {
                // The original's view mapped by the symmetry, against the image's own view.
                let want = view(original, None, with_targets);
                let got = view(&j, Some(s), with_targets);
                if want != got {
                    out.push(format!(
                        "{id} {s:?} ({} {}): {:?}",
                        image.fen,
                        image.moves.join(" "),
                        want.iter()
                            .zip(&got)
                            .filter(|(a, b)| a != b)
                            .map(|(a, b)| format!("{a} / image: {b}"))
                            .collect::<Vec<_>>()
                    ));
                }
            }
            Err(e) => out.push(format!("{id} {s:?}: {e}")),
        }
    }
    out
}

/// The fast judge's JSON alone (for the generated games, where the oracle would dominate the
/// test's time; the differential proptests compare the engines on games of the same kind).
pub fn fast_only(c: &JudgeCase, lenient: bool) -> Result<Agreed, String> {
    use xiangqi_rules::judge::{judge, Builtin, RuleSet};
    use xiangqi_rules::{Move, Position, RankConvention};
    let rules = RuleSet::builtin(&c.rules).ok_or_else(|| format!("rule set {}", c.rules))?;
    let start = if lenient {
        Position::from_fen_lenient(&c.fen).map(|(p, _)| p)
    } else {
        Position::from_fen(&c.fen)
    }
    .map_err(|e| format!("FEN {}: {e}", c.fen))?;
    let moves: Vec<Move> = c
        .moves
        .iter()
        .map(|m| Move::parse_iccs(m, RankConvention::Iccs).map_err(|e| format!("{m}: {e}")))
        .collect::<Result<_, _>>()?;
    let j = judge(rules, &start, &moves).map_err(|e| e.to_string())?;
    Ok(Agreed {
        json: serde_json::to_string(&j).map_err(|e| e.to_string())?,
        cycle: !j.cycle.is_empty(),
    })
}
