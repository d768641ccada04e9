//! Invariance of the repetition judge under the board's symmetries (issue "one general reading
//! of 捉"): a reading that depends on which side or which wing a figure is drawn on is wrong.
//!
//! - **Mirror** (files a↔i): the same classes, the targets mirrored, the same ruling.
//! - **Colour swap** (the board turned 180°, colours exchanged, the other side to move): the
//!   same classes, the targets turned, the ruling with the colours exchanged.
//! - **An idle pawn added** (an uncrossed pawn, which is no material (25.3 / 26.6) and attacks
//!   nothing, on a point that no piece reaches, screens or blocks in any position of the game):
//!   the same judgement. A reading that a far, powerless piece changes leans on something the
//!   articles do not name.
//! - **The cycle entered elsewhere** (the record started that many plies later, the same cycle
//!   played from there): each move from the same position after the same move gets the same
//!   class and targets, and the ruling is the same.
//!
//! Every worked example with a position is judged in all four forms by both engines
//! (`compare_judge`: the fast judge must give the oracle's JSON byte for byte on the transformed
//! games too), and generated games (proptest) by the fast judge against its own mirror image,
//! colour swap, idle pawn and cycle entered elsewhere. Rulings, patterns and classes must be invariant; the targets of a move are
//! too except where they depend on the order of move generation (`TARGETS_BY_ORDER`: the first
//! of several lines of equal gain, the first piece a block stands in the way of).

mod common;

use common::symmetry::{compress, differences, fast_only, view, Symmetry};

use proptest::prelude::*;
use serde_json::Value;
use xiangqi_difftest::judge::{seeded_game, JudgeCase};

/// Every worked example with a game: its id, the game, and whether its FEN is read leniently
/// (`fen_problems`).
fn worked_examples() -> Vec<(String, JudgeCase, bool)> {
    common::example_docs()
        .iter()
        .filter_map(|y| {
            let id = common::str_field(y, "id").unwrap_or("?").to_string();
            Some((id, common::judge_case(y)?, y.get("fen_problems").is_some()))
        })
        .collect()
}

#[test]
fn every_worked_example_is_judged_alike_mirrored_and_colour_swapped() {
    let mut failures = Vec::new();
    let mut n = 0;
    for (id, case, lenient) in worked_examples() {
        n += 1;
        failures.extend(differences(&id, &case, lenient, true, false));
        // The targets: where they differ, only in the known cases below.
        for d in differences(&id, &case, lenient, false, true) {
            if !TARGETS_BY_ORDER.iter().any(|k| d.starts_with(k)) {
                failures.push(format!("targets: {d}"));
            }
        }
    }
    assert!(n >= 100, "only {n} examples with a position");
    assert!(
        failures.is_empty(),
        "{} differences in {n} examples under the symmetries:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Examples whose targets (not their classes or rulings) depend on the order in which moves are
/// generated, so that a symmetric image names other targets: among lines of checks of equal
/// gain the first found gives its targets, and a block names the first piece it stands in the
/// way of (both engines alike). A known limit of the reading, listed so that a new case fails.
const TARGETS_BY_ORDER: &[&str] = &[
    "cxa-1999/fig09 ColourSwap",
    "cxa-2011/fig7 ColourSwap",
    "cxa-2011/ref17 Mirror",
    "cxa-2011/ref33 ColourSwap",
];

#[test]
fn the_symmetries_are_involutions_on_a_figure() {
    let fen = "3akab2/3r1c3/2c1b1n2/p5RCp/5R3/9/P3P3P/2rCB1N2/4A4/2BA1K3 w - - 0 1";
    for s in [Symmetry::Mirror, Symmetry::ColourSwap] {
        assert_eq!(s.fen(&s.fen(fen)), fen, "{s:?}");
        assert_eq!(s.mv(&s.mv("f5e5")), "f5e5");
    }
    assert_eq!(Symmetry::Mirror.mv("h2e2"), "b2e2");
    assert_eq!(Symmetry::ColourSwap.mv("h2e2"), "b7e7");
    assert_eq!(
        Symmetry::ColourSwap.fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        "5k3/9/9/9/9/9/9/9/9/4K4 b - - 0 1"
    );
}

/// Generated games whose colour-swapped image was once judged differently, kept as regression
/// cases: both were ties among ways to win of equal gain, where the first way a search met
/// decided the pieces won (reading `equal-gains-together` fixed both).
const ONCE_ASYMMETRIC_SEEDS: &[u64] = &[
    // cxa-2011: ply 14 was a chase by checks in the image, idle in the original.
    234_949_434_096_627_229,
    // cxa-1999: red's ply 7 was a chase in the image, idle in the original.
    11_122_284_830_762_242_007,
];

#[test]
fn games_once_judged_differently_in_their_images_are_judged_alike() {
    for &seed in ONCE_ASYMMETRIC_SEEDS {
        let case = seeded_game(seed);
        let failures = differences(&format!("seed {seed}"), &case, false, true, true);
        assert!(failures.is_empty(), "seed {seed}: {failures:?}");
    }
}

/// A point (file 0-8 from a, rank 0-9) of a board held as FEN characters.
type Point = (usize, usize);

/// The board of a FEN, `[rank][file]`, and each position of the game after it.
fn boards(case: &JudgeCase) -> Vec<[[Option<char>; 9]; 10]> {
    let mut b = [[None; 9]; 10];
    let placement = case.fen.split_whitespace().next().unwrap_or("");
    for (i, row) in placement.split('/').enumerate().take(10) {
        let mut f = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => f += n as usize,
                None => {
                    if f < 9 {
                        b[9 - i][f] = Some(c);
                    }
                    f += 1;
                }
            }
        }
    }
    let point = |s: &[u8]| ((s[0] - b'a') as usize, (s[1] - b'0') as usize);
    let mut out = vec![b];
    for m in &case.moves {
        let ((ff, fr), (tf, tr)) = (point(&m.as_bytes()[..2]), point(&m.as_bytes()[2..4]));
        b[tr][tf] = b[fr][ff].take();
        out.push(b);
    }
    out
}

/// Is `p` out of every piece's reach in `b`: empty; on no rank or file of a rook, cannon or king
/// with fewer than two pieces between (so it is neither attacked, nor a screen, nor a block);
/// at least three points (king's steps) from a horse or an elephant (their moves and legs or
/// eyes) and two from an advisor, a king or a pawn?
fn out_of_reach(b: &[[Option<char>; 9]; 10], (f, r): Point) -> bool {
    if b[r][f].is_some() {
        return false;
    }
    for (pr, row) in b.iter().enumerate() {
        for (pf, c) in row.iter().enumerate() {
            let Some(c) = c else { continue };
            let near = pf.abs_diff(f).max(pr.abs_diff(r));
            let between = if pf == f {
                (pr.min(r) + 1..pr.max(r))
                    .filter(|&q| b[q][f].is_some())
                    .count()
            } else if pr == r {
                (pf.min(f) + 1..pf.max(f))
                    .filter(|&q| b[r][q].is_some())
                    .count()
            } else {
                usize::MAX
            };
            let reaches = match c.to_ascii_uppercase() {
                'R' | 'C' | 'K' if between < 2 => true,
                'N' | 'B' => near <= 2,
                'A' | 'K' | 'P' => near <= 1,
                _ => false,
            };
            if reaches {
                return false;
            }
        }
    }
    true
}

/// The points where an idle pawn may be added to `case`: uncrossed pawn points off the palace
/// files (a, c, g, i on ranks 3-4 for red, 5-6 for black) out of every piece's reach in every
/// position of the game, for a colour with fewer than five pawns; `(is_red, point)`.
fn idle_pawn_points(case: &JudgeCase) -> Vec<(bool, Point)> {
    let all = boards(case);
    let mut out = Vec::new();
    for red in [true, false] {
        let pawn = if red { 'P' } else { 'p' };
        let pawns = all[0]
            .iter()
            .flatten()
            .filter(|&&c| c == Some(pawn))
            .count();
        if pawns >= 5 {
            continue;
        }
        let ranks = if red { [3, 4] } else { [5, 6] };
        for f in [0, 2, 6, 8] {
            for r in ranks {
                if all.iter().all(|b| out_of_reach(b, (f, r))) {
                    out.push((red, (f, r)));
                }
            }
        }
    }
    out
}

/// `case` with a pawn of that colour added on `point`.
fn with_pawn(case: &JudgeCase, red: bool, (f, r): Point) -> JudgeCase {
    let mut fields: Vec<String> = case.fen.split_whitespace().map(str::to_string).collect();
    let mut ranks: Vec<Vec<char>> = fields[0]
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['1'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    ranks[9 - r][f] = if red { 'P' } else { 'p' };
    fields[0] = ranks
        .iter()
        .map(|c| compress(c))
        .collect::<Vec<_>>()
        .join("/");
    JudgeCase {
        rules: case.rules.clone(),
        fen: fields.join(" "),
        moves: case.moves.clone(),
    }
}

/// The differences made by each idle pawn of [`idle_pawn_points`] (at most `most` of them, taken
/// evenly over the list), judged by the fast judge, and how many pawns were tried. Only games
/// ruled on a repetition cycle are tried: a game that ends in mate or stalemate (困毙) does change
/// when the side with no move gets a pawn that can move.
fn idle_pawn_differences(
    id: &str,
    case: &JudgeCase,
    lenient: bool,
    most: usize,
) -> (usize, Vec<String>) {
    let judge = |c: &JudgeCase| -> Result<Value, String> {
        let a = fast_only(c, lenient)?;
        serde_json::from_str(&a.json).map_err(|e| format!("{e}: {}", a.json))
    };
    let original = match judge(case) {
        Ok(j) if j["cycle"].as_array().is_some_and(|c| !c.is_empty()) => view(&j, None, true),
        Ok(_) => return (0, Vec::new()),
        Err(e) => return (0, vec![format!("{id}: {e}")]),
    };
    let points = idle_pawn_points(case);
    let step = points.len().div_ceil(most.max(1)).max(1);
    let mut out = Vec::new();
    let mut tried = 0;
    for &(red, p) in points.iter().step_by(step) {
        tried += 1;
        let added = with_pawn(case, red, p);
        match judge(&added) {
            Ok(j) => {
                let got = view(&j, None, true);
                if got != original {
                    out.push(format!(
                        "{id} with a pawn on {}{} ({} {}): {:?}",
                        (b'a' + p.0 as u8) as char,
                        p.1,
                        added.fen,
                        added.moves.join(" "),
                        original
                            .iter()
                            .zip(&got)
                            .filter(|(a, b)| a != b)
                            .map(|(a, b)| format!("{a} / with the pawn: {b}"))
                            .collect::<Vec<_>>()
                    ));
                }
            }
            Err(e) => out.push(format!("{id} with a pawn: {e}")),
        }
    }
    (tried, out)
}

#[test]
fn an_idle_pawn_added_changes_no_judgement_of_a_worked_example() {
    let (mut n, mut tried) = (0, 0);
    let mut failures = Vec::new();
    for (id, case, lenient) in worked_examples() {
        n += 1;
        let (t, f) = idle_pawn_differences(&id, &case, lenient, 4);
        tried += t;
        failures.extend(f);
    }
    // The filter must leave room: most figures are crowded, but not all.
    assert!(tried >= 150, "only {tried} idle pawns in {n} examples");
    assert!(
        failures.is_empty(),
        "{} judgements changed by an idle pawn:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_idle_pawn_points_leave_out_what_a_piece_reaches() {
    let case = |fen: &str| JudgeCase {
        rules: "cxa-2011".to_string(),
        fen: fen.to_string(),
        moves: vec![],
    };
    // Rook a0 (its file), horse h2 (the points around it), kings e0 and e9.
    let open = case("4k4/9/9/9/9/9/9/7N1/9/R3K4 w - - 0 1");
    let points = idle_pawn_points(&open);
    assert!(!points.contains(&(true, (0, 3))), "on the rook's file");
    assert!(!points.contains(&(true, (6, 3))), "next to the horse");
    assert!(points.contains(&(true, (2, 3))));
    assert!(points.contains(&(false, (8, 6))));
    assert_eq!(
        with_pawn(&open, true, (2, 3)).fen,
        "4k4/9/9/9/9/9/2P6/7N1/9/R3K4 w - - 0 1"
    );
    // Two pieces between the rook and the point: it neither reaches nor screens through it.
    let screened = case("4k4/R8/p8/p8/9/9/9/9/9/4K4 w - - 0 1");
    assert!(idle_pawn_points(&screened).contains(&(true, (0, 3))));
    let one_between = case("4k4/R8/9/p8/9/9/9/9/9/4K4 w - - 0 1");
    assert!(!idle_pawn_points(&one_between).contains(&(true, (0, 3))));
    // A move of the game that brings a piece near counts too.
    let moved = JudgeCase {
        moves: vec!["a0c0".to_string()],
        ..case("4k4/9/9/9/9/9/9/7N1/9/R3K4 w - - 0 1")
    };
    assert!(!idle_pawn_points(&moved).contains(&(true, (2, 3))));
}

proptest! {
    // A fixed seed: the 512 generated games are the same on every run, so that CI is repeatable
    // (for a new search, change the number).
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_202),
        // The seed that failed is the one reported (a shrunk seed is another game).
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    })]

    /// Generated games that end in a repetition cycle, under every rule set: the images are
    /// judged alike (classes, targets, patterns and ruling).
    #[test]
    fn generated_cycles_are_judged_alike_mirrored_and_colour_swapped(seed in any::<u64>()) {
        let case = seeded_game(seed);
        let failures =
            differences(&format!("seed {seed} {}", case.rules), &case, false, false, true);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The same games: an idle pawn added changes nothing (classes, targets, patterns and
    /// ruling). About a third of them leave a point out of every piece's reach.
    #[test]
    fn an_idle_pawn_added_changes_no_judgement_of_a_generated_game(seed in any::<u64>()) {
        let case = seeded_game(seed);
        let (_, failures) =
            idle_pawn_differences(&format!("seed {seed} {}", case.rules), &case, false, 2);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// The position after the first `plies` moves of `case`.
fn replayed(case: &JudgeCase, lenient: bool, plies: usize) -> xiangqi_rules::Position {
    use xiangqi_rules::{Move, Position, RankConvention};
    let mut pos = if lenient {
        Position::from_fen_lenient(&case.fen).map(|(p, _)| p)
    } else {
        Position::from_fen(&case.fen)
    }
    .expect("a worked example's FEN reads");
    for m in &case.moves[..plies] {
        pos.play(Move::parse_iccs(m, RankConvention::Iccs).expect("an ICCS move"));
    }
    pos
}

/// The position (board and side to move, without the clocks) before each move of `case`.
fn positions_of(case: &JudgeCase, lenient: bool) -> Vec<String> {
    use xiangqi_rules::{Move, RankConvention};
    let mut pos = replayed(case, lenient, 0);
    let key =
        |p: &xiangqi_rules::Position| p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let mut out = Vec::with_capacity(case.moves.len());
    for m in &case.moves {
        out.push(key(&pos));
        pos.play(Move::parse_iccs(m, RankConvention::Iccs).expect("an ICCS move"));
    }
    out
}

/// The class and targets of each move of a judged cycle, keyed by the position before it and
/// the move.
fn classes_by_position(
    case: &JudgeCase,
    judged: &Value,
    lenient: bool,
) -> std::collections::BTreeMap<(String, String), String> {
    let positions = positions_of(case, lenient);
    let mut out = std::collections::BTreeMap::new();
    for c in judged["cycle"].as_array().into_iter().flatten() {
        let ply = c["ply"].as_u64().expect("a ply") as usize;
        let mut targets: Vec<&str> = c["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        targets.sort_unstable();
        out.insert(
            (
                positions[ply - 1].clone(),
                c["move"].as_str().unwrap_or("?").to_string(),
            ),
            format!("{} [{}]", c["class"], targets.join(",")),
        );
    }
    out
}

/// The game `case` entered at each other position of its cycle (`len` plies, periodic from ply
/// `skip`): the same moves, started that many plies later, the cycle played from there. Judged
/// by both engines or the fast judge alone; the differences in class, targets or ruling against
/// `original` (the judgement of `case`), and the number of moves compared.
fn rotation_differences(
    id: &str,
    case: &JudgeCase,
    original: &Value,
    lenient: bool,
    (skip, len): (usize, usize),
    both_engines: bool,
) -> (usize, Vec<String>) {
    use common::symmetry::judged_json;
    let m = &case.moves;
    let classes = classes_by_position(case, original, lenient);
    let ruling = |j: &Value| {
        ["ruling", "must_change", "red_pattern", "black_pattern"].map(|k| j[k].to_string())
    };
    let (mut compared, mut failures) = (0, Vec::new());
    for k in 1..len {
        let rotated = JudgeCase {
            rules: case.rules.clone(),
            fen: replayed(case, lenient, skip + k).to_fen(),
            moves: (0..m.len() - skip)
                .map(|i| m[skip + (k + i) % len].clone())
                .collect(),
        };
        let judged = match judged_json(&rotated, lenient, both_engines) {
            Ok(j) => j,
            Err(e) => {
                failures.push(format!("{id} entered {k} plies later: {e}"));
                continue;
            }
        };
        if ruling(&judged) != ruling(original) {
            failures.push(format!(
                "{id} entered {k} plies later: ruling {:?}, not {:?}",
                ruling(&judged),
                ruling(original)
            ));
        }
        for (at, class) in classes_by_position(&rotated, &judged, lenient) {
            if let Some(before) = classes.get(&at) {
                compared += 1;
                if *before != class {
                    failures.push(format!(
                        "{id} entered {k} plies later: {} from {}: {class}, not {before}",
                        at.1, at.0
                    ));
                }
            }
        }
    }
    (compared, failures)
}

/// Is `moves[skip..]` periodic with period `len`, repeated at least twice?
fn periodic(moves: &[String], skip: usize, len: usize) -> bool {
    len > 0
        && moves.len() >= skip + 2 * len
        && (skip..moves.len() - len).all(|i| moves[i] == moves[i + len])
}

/// A repeated cycle has no first position: the game that enters it at another of its positions
/// (the same moves, started that many plies later, the cycle played from there) makes the same
/// moves from the same positions after the same moves, so each must get the same class and
/// targets, and the ruling must be the same. A reading that depends on where the record starts
/// (beyond the move before each move, which both games have) is wrong. Both engines, every
/// worked example whose record repeats its cycle (not the open sequence of 参考图10).
#[test]
fn every_repeated_cycle_is_judged_alike_from_each_of_its_positions() {
    use common::symmetry::judged_json;
    let (mut games, mut compared) = (0, 0);
    let mut failures = Vec::new();
    for y in common::example_docs() {
        let id = common::str_field(&y, "id").unwrap_or("?").to_string();
        let (Some(case), Some(cycle)) = (common::judge_case(&y), y.get("cycle")) else {
            continue;
        };
        let lenient = y.get("fen_problems").is_some();
        let ply_field = |k: &str| cycle.get(k).and_then(serde_yaml::Value::as_u64);
        let (Some(len), first) = (ply_field("plies"), ply_field("first_ply").unwrap_or(1)) else {
            continue;
        };
        let (len, skip) = (len as usize, first as usize - 1);
        if !periodic(&case.moves, skip, len) {
            continue;
        }
        let original = match judged_json(&case, lenient, true) {
            Ok(j) => j,
            Err(e) => {
                failures.push(format!("{id}: {e}"));
                continue;
            }
        };
        games += len - 1;
        let (n, f) = rotation_differences(&id, &case, &original, lenient, (skip, len), true);
        compared += n;
        failures.extend(f);
    }
    eprintln!("{games} rotated games, {compared} moves compared");
    assert!(games >= 200, "only {games} rotated games");
    assert!(compared >= 800, "only {compared} moves compared");
    assert!(
        failures.is_empty(),
        "{} differences when a cycle is entered elsewhere:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_203),
        max_shrink_iters: 0,
        ..ProptestConfig::default()
    })]

    /// Generated games that end in a repetition cycle, under every rule set, entered at each
    /// other position of the cycle (the last `len` plies repeated twice at least): the fast
    /// judge gives each move the same class and targets, and the same ruling.
    #[test]
    fn generated_cycles_are_judged_alike_from_each_of_their_positions(seed in any::<u64>()) {
        let mut case = seeded_game(seed);
        let Ok(original) = common::symmetry::judged_json(&case, false, false) else {
            return Ok(());
        };
        let Some(last) = original["cycle"].as_array().and_then(|c| c.last()) else {
            return Ok(());
        };
        let span = original["cycle"].as_array().map_or(0, Vec::len);
        let to = last["ply"].as_u64().unwrap_or(0) as usize;
        case.moves.truncate(to);
        // The shortest period of the judged span (an AXF span from the first occurrence passes
        // the cycle twice).
        let len = (1..span)
            .find(|&p| periodic(&case.moves, to - span, p))
            .unwrap_or(span);
        // The periodic tail: as far back as the moves repeat.
        let mut skip = to.saturating_sub(2 * len);
        while skip > 0 && periodic(&case.moves, skip - 1, len) {
            skip -= 1;
        }
        if !periodic(&case.moves, skip, len) {
            return Ok(());
        }
        // The moves after `to` are after the ruling: the judgement of the truncated game is
        // `original`.
        let (_, failures) = rotation_differences(
            &format!("seed {seed} {}", case.rules), &case, &original, false, (skip, len), false);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
