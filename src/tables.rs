//! The generated tables (`$OUT_DIR/tables.rs`, written by build.rs from spec/*.yaml) plus
//! board-geometry helpers, and compile-time checks that the spec matches what the fast
//! generator hardcodes (which table serves which role).

#![allow(clippy::unreadable_literal, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Transposed square index `file * 10 + rank`, as a one-bit `u128`.
pub static TBIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = 1u128 << ((sq % 9) * 10 + sq / 9);
        sq += 1;
    }
    t
};

/// A 10-bit rank mask (bit r = rank r) spread onto file `a` of a bitboard.
pub static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m & (1 << r) != 0 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// Rays from a square: `RAYS[0]` = +rank (north), `[1]` = +file (east), `[2]` = -rank, `[3]` = -file.
pub static RAYS: [[u128; 90]; 4] = {
    let mut t = [[0u128; 90]; 4];
    let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 90 {
            let mut f = (sq % 9) as i32 + dirs[d].0;
            let mut r = (sq / 9) as i32 + dirs[d].1;
            while f >= 0 && f < 9 && r >= 0 && r < 10 {
                t[d][sq] |= 1u128 << (r * 9 + f);
                f += dirs[d].0;
                r += dirs[d].1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
};

/// Every point a piece of role index `r` and colour index `c` on a point could ever move to
/// (`REACH[c][r][from]`): its step and leap targets whatever the blocks, and the whole rank
/// and file for the sliders. A superset of its pseudo-legal targets, so a piece whose reach
/// misses a mask has no move into it (the generators skip it without computing its targets).
pub static REACH: [[[u128; 90]; 7]; 2] = {
    let mut t = [[[0u128; 90]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 7 {
            let mut sq = 0;
            while sq < 90 {
                let mut m =
                    STEP_MOVE_OR_CAPTURE[c][r][sq] | STEP_QUIET[c][r][sq] | STEP_CAPTURE[c][r][sq];
                let g = &LEAPS[c][r][sq];
                let mut i = 0;
                while i < g.len as usize {
                    m |= g.targets[i];
                    i += 1;
                }
                if !SLIDES[r].is_empty() {
                    m |= RAYS[0][sq] | RAYS[1][sq] | RAYS[2][sq] | RAYS[3][sq];
                }
                t[c][r][sq] = m;
                sq += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
};

/// The most moves a piece of role index `r` and colour index `c` can ever have at once: the
/// largest [`REACH`] over the points (a rook or cannon 17, a horse 8). A side's pieces together
/// never have more legal moves than the sum of theirs, whatever the position, so a set-up whose
/// sums fit a [`MoveList`](crate::MoveList) keeps fitting it for the rest of the game (pieces
/// are only ever taken off).
pub fn most_moves(c: usize, r: usize) -> u32 {
    REACH[c][r]
        .iter()
        .map(|t| t.count_ones())
        .max()
        .unwrap_or(0)
}

const fn slide_is(r: &SlideRule, screens: u8, mode: Mode) -> bool {
    r.screens == screens
        && r.horizontal
        && r.vertical
        && match (r.mode, mode) {
            (Mode::MoveOrCapture, Mode::MoveOrCapture)
            | (Mode::Quiet, Mode::Quiet)
            | (Mode::Capture, Mode::Capture) => true,
            _ => false,
        }
}

const fn no_steps(role: usize) -> bool {
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            if STEP_MOVE_OR_CAPTURE[c][role][sq]
                | STEP_QUIET[c][role][sq]
                | STEP_CAPTURE[c][role][sq]
                != 0
            {
                return false;
            }
            sq += 1;
        }
        c += 1;
    }
    true
}

const fn no_leaps(role: usize) -> bool {
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            if LEAPS[c][role][sq].len != 0 {
                return false;
            }
            sq += 1;
        }
        c += 1;
    }
    true
}

// The fast generator uses: steps for king, advisor, pawn; leaps for elephant and horse;
// the 0-screen line tables for rooks (and facing kings); 0-screen quiet plus 1-screen capture
// for cannons. A spec that moves pieces otherwise fails the build here.
const _: () = {
    assert!(SLIDES[4].len() == 1 && slide_is(&SLIDES[4][0], 0, Mode::MoveOrCapture));
    assert!(
        SLIDES[5].len() == 2
            && slide_is(&SLIDES[5][0], 0, Mode::Quiet)
            && slide_is(&SLIDES[5][1], 1, Mode::Capture)
    );
    assert!(MAX_SCREENS == 1);
    assert!(SLIDES[0].is_empty() && SLIDES[1].is_empty() && SLIDES[2].is_empty());
    assert!(SLIDES[3].is_empty() && SLIDES[6].is_empty());
    assert!(no_steps(2) && no_steps(3) && no_steps(4) && no_steps(5));
    assert!(no_leaps(0) && no_leaps(1) && no_leaps(4) && no_leaps(5) && no_leaps(6));
    // King, advisor and elephant can never attack the enemy palace, so the check test skips them.
    let mut c = 0;
    while c < 2 {
        assert!(!ATTACKS_ENEMY_PALACE[c][0]);
        assert!(!ATTACKS_ENEMY_PALACE[c][1]);
        assert!(!ATTACKS_ENEMY_PALACE[c][2]);
        c += 1;
    }
};
