//! Turns a validated [`Spec`] into move tables.
//!
//! Bitboards are `u128` with bit `sq` for square index `sq = rank * 9 + file`.
//! Vectors in the spec are seen from the moving side, so Black's rank components are negated.

#![allow(clippy::needless_range_loop, clippy::type_complexity)] // index loops mirror the table layout

use crate::load::{Problem, Spec, SpecError};
use crate::rules::{Mode, RuleKind, When, Zone};
use crate::vocab::{Color, Piece, Role, Square};

/// Bitboard of one square.
pub const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// A group of leap targets that share one block point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeapGroup {
    /// The block square (horse leg / elephant eye).
    pub block: u8,
    /// Targets reachable when `block` is empty.
    pub targets: u128,
}

/// Step targets of one piece on one square, by mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepTargets {
    /// Empty or enemy-occupied targets.
    pub move_or_capture: u128,
    /// Empty targets only.
    pub quiet: u128,
    /// Enemy-occupied targets only.
    pub capture: u128,
}

impl StepTargets {
    /// All targets regardless of mode.
    pub fn all(&self) -> u128 {
        self.move_or_capture | self.quiet | self.capture
    }
}

/// A slide rule reduced to what the line tables need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlideRule {
    /// Pieces to jump over.
    pub screens: u8,
    /// Allowed targets.
    pub mode: Mode,
    /// Slides along ranks (left/right).
    pub horizontal: bool,
    /// Slides along files (forward/backward).
    pub vertical: bool,
}

/// Everything the fast generator needs, computed from the spec.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Palace per colour.
    pub palace: [u128; 2],
    /// Own half per colour.
    pub own_half: [u128; 2],
    /// Squares across the river per colour (complement of the own half).
    pub crossed: [u128; 2],
    /// `[color][role][square]` step targets (with `when` resolved for that square, zone applied).
    pub steps: Vec<Vec<Vec<StepTargets>>>,
    /// `[color][role][square]` leap groups (all leaps are move-or-capture in the groups;
    /// see `leap_modes_all_default`).
    pub leaps: Vec<Vec<Vec<Vec<LeapGroup>>>>,
    /// `[color][role][square]`: squares from which that piece attacks the square by a step.
    pub step_attackers: Vec<Vec<Vec<u128>>>,
    /// `[color][role][square]`: (block, origins) such that a piece of that kind on an origin
    /// attacks the square when block is empty.
    pub leap_attackers: Vec<Vec<Vec<Vec<LeapGroup>>>>,
    /// Slide rules per role.
    pub slides: Vec<Vec<SlideRule>>,
    /// Largest `screens` of any slide (line tables exist for 0..=max).
    pub max_screens: u8,
    /// `[screens][file][rank occupancy 9 bits]` → reachable files (9-bit mask): the empty
    /// points after exactly `screens` pieces and the next piece, both directions.
    pub rank_slide: Vec<Vec<Vec<u16>>>,
    /// `[screens][rank][file occupancy 10 bits]` → reachable ranks (10-bit mask).
    pub file_slide: Vec<Vec<Vec<u16>>>,
    /// Whether every step and leap rule has mode move_or_capture.
    pub leap_modes_all_default: bool,
    /// `[color][role]`: points a piece can ever stand on (from its start points).
    pub reachable: Vec<Vec<u128>>,
    /// `[color][role]`: whether a piece of this kind, from any point, can attack a point of the
    /// enemy palace.
    pub attacks_enemy_palace: Vec<Vec<bool>>,
    /// Maximum count per role.
    pub counts: [u8; 7],
    /// Zobrist keys `[piece index][square]`.
    pub zobrist: Vec<Vec<u64>>,
    /// Zobrist key for Black to move.
    pub zobrist_turn: u64,
    /// The start position FEN.
    pub start_fen: String,
    /// The interpreted rules per role (for move explanations).
    pub rules: Vec<Vec<crate::rules::Rule>>,
    /// material.yaml per `[role][0 = in the own half, 1 = across the river]`: whether the
    /// piece counts as material (子力, art. 25.3) and its exchange value (`None` when absent or
    /// `floating`).
    pub material: [[(bool, Option<f64>); 2]; 7],
}

/// The seed of the Zobrist keys.
pub const ZOBRIST_SEED: u64 = 0x5851_F42D_4C95_7F2D;

/// splitmix64 step.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn orient(color: Color, v: (i8, i8)) -> (i32, i32) {
    (v.0 as i32, v.1 as i32 * color.forward() as i32)
}

/// Line slide mask: from `pos` on a line of `len` points with occupancy `occ`, the points
/// reachable after exactly `screens` pieces (empty points, plus the next piece).
pub fn line_slide(pos: usize, len: usize, occ: u32, screens: u8) -> u16 {
    let mut out = 0u16;
    for dir in [-1i32, 1] {
        let mut passed = 0u8;
        let mut p = pos as i32 + dir;
        while p >= 0 && (p as usize) < len {
            let occupied = occ & (1 << p) != 0;
            if passed == screens {
                out |= 1 << p;
            }
            if occupied {
                if passed == screens {
                    break;
                }
                passed += 1;
            }
            p += dir;
        }
    }
    out
}

/// Compiles the tables. Fails with a located error for rules the tables cannot express.
pub fn compile(spec: &Spec) -> Result<Tables, SpecError> {
    let psrc = &spec.sources[1];
    let bsrc = &spec.sources[0];
    let mut palace = [0u128; 2];
    let mut own_half = [0u128; 2];
    for c in Color::ALL {
        let g = spec.sides[c];
        for sq in 0..90 {
            let (f, r) = ((sq % 9) as u8, (sq / 9) as u8);
            if (g.home_ranks.0..=g.home_ranks.1).contains(&r) {
                own_half[c.index()] |= bit(sq);
                if (g.palace_files.0..=g.palace_files.1).contains(&f)
                    && (g.palace_ranks.0..=g.palace_ranks.1).contains(&r)
                {
                    palace[c.index()] |= bit(sq);
                }
            }
        }
    }
    let all = (1u128 << 90) - 1;
    let crossed = [all & !own_half[0], all & !own_half[1]];
    let zone_mask = |c: Color, z: Zone| match z {
        Zone::Anywhere => all,
        Zone::Palace => palace[c.index()],
        Zone::OwnHalf => own_half[c.index()],
    };

    let mut steps = vec![vec![vec![StepTargets::default(); 90]; 7]; 2];
    let mut leaps = vec![vec![vec![Vec::<LeapGroup>::new(); 90]; 7]; 2];
    let mut slides = vec![Vec::new(); 7];
    let mut leap_modes_all_default = true;
    let mut max_screens = 0u8;
    for role in Role::ALL {
        for (j, rule) in spec.role(role).rules.iter().enumerate() {
            if rule.kind != RuleKind::Slide && rule.mode != Mode::MoveOrCapture {
                leap_modes_all_default = false;
                if rule.kind == RuleKind::Leap {
                    let i = spec
                        .pieces
                        .pieces
                        .iter()
                        .position(|p| p.id == role.id())
                        .unwrap_or(0);
                    return Err(psrc.error(
                        &format!("pieces[{i}].moves[{j}].mode"),
                        Problem::Unsupported(
                            "a leap with a mode other than move_or_capture".into(),
                        ),
                    ));
                }
            }
            if rule.kind == RuleKind::Slide {
                let i = spec
                    .pieces
                    .pieces
                    .iter()
                    .position(|p| p.id == role.id())
                    .unwrap_or(0);
                let horizontal = rule.vectors.iter().any(|v| v.1 == 0);
                let vertical = rule.vectors.iter().any(|v| v.0 == 0);
                let symmetric = rule
                    .vectors
                    .iter()
                    .all(|v| rule.vectors.contains(&(-v.0, -v.1)));
                if !symmetric || rule.when != When::Always || rule.zone != Zone::Anywhere {
                    return Err(psrc.error(
                        &format!("pieces[{i}].moves[{j}]"),
                        Problem::Unsupported(
                            "slides must go both ways along a line, always, anywhere".into(),
                        ),
                    ));
                }
                max_screens = max_screens.max(rule.screens);
                slides[role.index()].push(SlideRule {
                    screens: rule.screens,
                    mode: rule.mode,
                    horizontal,
                    vertical,
                });
                continue;
            }
            for c in Color::ALL {
                let zm = zone_mask(c, rule.zone);
                for from in 0..90usize {
                    let sq = Square::new(from as u8).unwrap();
                    let ok = match rule.when {
                        When::Always => true,
                        When::BeforeRiver => own_half[c.index()] & bit(from) != 0,
                        When::AfterRiver => own_half[c.index()] & bit(from) == 0,
                    };
                    if !ok {
                        continue;
                    }
                    for (k, &v) in rule.vectors.iter().enumerate() {
                        let (df, dr) = orient(c, v);
                        let Some(to) = sq.offset(df, dr) else {
                            continue;
                        };
                        if zm & bit(to.index()) == 0 {
                            continue;
                        }
                        match rule.kind {
                            RuleKind::Step => {
                                let t = &mut steps[c.index()][role.index()][from];
                                match rule.mode {
                                    Mode::MoveOrCapture => t.move_or_capture |= bit(to.index()),
                                    Mode::Quiet => t.quiet |= bit(to.index()),
                                    Mode::Capture => t.capture |= bit(to.index()),
                                }
                            }
                            RuleKind::Leap => {
                                let (bf, br) = orient(c, rule.blocks[k]);
                                let block =
                                    sq.offset(bf, br).expect("block between start and target");
                                let groups = &mut leaps[c.index()][role.index()][from];
                                match groups.iter_mut().find(|g| g.block == block.to_u8()) {
                                    Some(g) => g.targets |= bit(to.index()),
                                    None => groups.push(LeapGroup {
                                        block: block.to_u8(),
                                        targets: bit(to.index()),
                                    }),
                                }
                            }
                            RuleKind::Slide => unreachable!(),
                        }
                    }
                }
            }
        }
    }
    for per_color in leaps.iter_mut() {
        for per_role in per_color.iter_mut() {
            for groups in per_role.iter_mut() {
                groups.sort_by_key(|g| g.block);
            }
        }
    }

    // Reverse tables.
    let mut step_attackers = vec![vec![vec![0u128; 90]; 7]; 2];
    let mut leap_attackers = vec![vec![vec![Vec::<LeapGroup>::new(); 90]; 7]; 2];
    for c in 0..2 {
        for r in 0..7 {
            for from in 0..90 {
                let t = steps[c][r][from].move_or_capture | steps[c][r][from].capture;
                for to in 0..90 {
                    if t & bit(to) != 0 {
                        step_attackers[c][r][to] |= bit(from);
                    }
                }
                for g in &leaps[c][r][from] {
                    for to in 0..90 {
                        if g.targets & bit(to) != 0 {
                            let groups = &mut leap_attackers[c][r][to];
                            match groups.iter_mut().find(|x| x.block == g.block) {
                                Some(x) => x.targets |= bit(from),
                                None => groups.push(LeapGroup {
                                    block: g.block,
                                    targets: bit(from),
                                }),
                            }
                        }
                    }
                }
            }
            for groups in leap_attackers[c][r].iter_mut() {
                groups.sort_by_key(|g| g.block);
            }
        }
    }

    // Line tables.
    let mut rank_slide = Vec::new();
    let mut file_slide = Vec::new();
    for s in 0..=max_screens {
        rank_slide.push(
            (0..9)
                .map(|f| (0..512u32).map(|o| line_slide(f, 9, o, s)).collect())
                .collect(),
        );
        file_slide.push(
            (0..10)
                .map(|r| (0..1024u32).map(|o| line_slide(r, 10, o, s)).collect())
                .collect(),
        );
    }

    // Start position and reachability.
    let start = parse_start(&spec.start_fen)
        .map_err(|why| bsrc.error("start_position.fen", Problem::BadStart(why)))?;
    let mut reachable = vec![vec![0u128; 7]; 2];
    let mut attacks_enemy_palace = vec![vec![false; 7]; 2];
    for c in Color::ALL {
        for role in Role::ALL {
            let mut set = 0u128;
            for (sq, p) in start.iter().enumerate() {
                if *p == Some(Piece::new(c, role)) {
                    set |= bit(sq);
                }
            }
            if role == Role::King {
                set |= palace[c.index()] & zone_mask(c, spec.role(role).zone);
            }
            let mut frontier = set;
            while frontier != 0 {
                let mut next = 0u128;
                for from in 0..90 {
                    if frontier & bit(from) == 0 {
                        continue;
                    }
                    let (ci, ri) = (c.index(), role.index());
                    next |= steps[ci][ri][from].all();
                    for g in &leaps[ci][ri][from] {
                        next |= g.targets;
                    }
                    if !slides[ri].is_empty() {
                        let sq = Square::new(from as u8).unwrap();
                        for rs in &slides[ri] {
                            for (df, dr, on) in [
                                (1, 0, rs.horizontal),
                                (-1, 0, rs.horizontal),
                                (0, 1, rs.vertical),
                                (0, -1, rs.vertical),
                            ] {
                                if !on {
                                    continue;
                                }
                                let mut t = sq.offset(df, dr);
                                while let Some(x) = t {
                                    next |= bit(x.index());
                                    t = x.offset(df, dr);
                                }
                            }
                        }
                    }
                }
                frontier = next & !set;
                set |= next;
            }
            reachable[c.index()][role.index()] = set;
            // Attack reach: any target from any point (lenient positions may place pieces
            // on points they cannot reach).
            let mut targets = 0u128;
            for from in 0..90 {
                targets |= steps[c.index()][role.index()][from].all();
                for g in &leaps[c.index()][role.index()][from] {
                    targets |= g.targets;
                }
            }
            attacks_enemy_palace[c.index()][role.index()] =
                !slides[role.index()].is_empty() || targets & palace[c.other().index()] != 0;
        }
    }

    let mut counts = [0u8; 7];
    for r in Role::ALL {
        counts[r.index()] = spec.role(r).count;
    }
    let mut state = ZOBRIST_SEED;
    let zobrist: Vec<Vec<u64>> = (0..14)
        .map(|_| (0..90).map(|_| splitmix64(&mut state)).collect())
        .collect();
    let zobrist_turn = splitmix64(&mut state);
    let mut material = [[(false, None); 2]; 7];
    for r in Role::ALL {
        for (half, when_ok) in [(0, "before_river"), (1, "after_river")] {
            let entries: Vec<_> = spec
                .material
                .values
                .iter()
                .filter(|m| m.piece == r.id())
                .filter(|m| m.when.as_deref().is_none_or(|w| w == when_ok))
                .collect();
            material[r.index()][half] = (
                entries.iter().any(|m| m.material),
                entries
                    .iter()
                    .find_map(|m| m.value.as_ref().and_then(|v| v.as_f64())),
            );
        }
    }
    Ok(Tables {
        palace,
        own_half,
        crossed,
        steps,
        leaps,
        step_attackers,
        leap_attackers,
        slides,
        max_screens,
        rank_slide,
        file_slide,
        leap_modes_all_default,
        reachable,
        attacks_enemy_palace,
        counts,
        zobrist,
        zobrist_turn,
        start_fen: spec.start_fen.clone(),
        rules: spec.roles.iter().map(|r| r.rules.clone()).collect(),
        material,
    })
}

/// Reads the board field of a FEN into a mailbox (only for the compiler's own use).
pub fn parse_start(fen: &str) -> Result<Vec<Option<Piece>>, String> {
    let board = fen.split_whitespace().next().ok_or("empty FEN")?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 10 {
        return Err(format!("{} ranks instead of 10", rows.len()));
    }
    let mut out = vec![None; 90];
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i;
        let mut file = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as usize;
            } else {
                let p = Piece::from_fen_char(ch).ok_or(format!("bad letter {ch:?}"))?;
                if file >= 9 {
                    return Err(format!("rank {rank} is too long"));
                }
                out[rank * 9 + file] = Some(p);
                file += 1;
            }
        }
        if file != 9 {
            return Err(format!("rank {rank} has {file} files"));
        }
    }
    Ok(out)
}

impl Tables {
    /// Targets of the step rules for a piece (all modes).
    pub fn step_targets(&self, p: Piece, sq: Square) -> u128 {
        self.steps[p.color.index()][p.role.index()][sq.index()].all()
    }

    /// `(target, block)` pairs of the leap rules for a piece, sorted by target.
    pub fn leap_targets(&self, p: Piece, sq: Square) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        for g in &self.leaps[p.color.index()][p.role.index()][sq.index()] {
            for t in 0..90 {
                if g.targets & bit(t) != 0 {
                    out.push((Square::new(t as u8).unwrap(), Square::new(g.block).unwrap()));
                }
            }
        }
        out.sort();
        out
    }
}
