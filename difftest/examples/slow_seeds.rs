//! Times the generated cases of the differential proptests (`tests/judge_diff.rs`), seed by
//! seed, and prints those whose comparison (oracle and fast judge) takes longer than a bound: the
//! proptests draw fresh seeds on every run, so a case that costs the oracle minutes shows up only
//! as a slow run. Arguments: first seed, number of seeds, bound in seconds.
//!
//! ```sh
//! cargo run --release -p xiangqi-difftest --example slow_seeds -- 0 1000 10
//! ```
//!
//! Each seed is tried as a judged game and as a classified line, from random and from sparse
//! starts (`Start::Random`, `Start::Sparse`); a slow one is printed as `SLOW <kind> seed <n>`
//! with its rule set, FEN and moves (`xqrules judge --engine oracle --fen … --moves …` replays a
//! judged game).
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use xiangqi_difftest::judge::{
    classify_case_from, compare_classify, compare_judge, game_from, Start,
};

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let (from, n, bound): (u64, u64, f64) = (arg(1, 0), arg(2, 1000), arg(3, 10.0));
    let kinds = [
        ("judge-random", Start::Random, true),
        ("classify-random", Start::Random, false),
        ("judge-sparse", Start::Sparse, true),
        ("classify-sparse", Start::Sparse, false),
    ];
    let mut worst = (0.0f64, 0u64, "");
    for seed in from..from + n {
        for (kind, start, judge) in kinds {
            let rng = &mut ChaCha8Rng::seed_from_u64(seed);
            let case = if judge {
                game_from(start, rng)
            } else {
                classify_case_from(start, rng)
            };
            let t = Instant::now();
            // Divergences are the proptests' business; only the time is looked at here.
            let _ = if judge {
                compare_judge(&case).map(|_| ())
            } else {
                compare_classify(&case).map(|_| ())
            };
            let s = t.elapsed().as_secs_f64();
            if s > worst.0 {
                worst = (s, seed, kind);
            }
            if s > bound {
                println!(
                    "SLOW {kind} seed {seed}: {s:.1} s\n  rules {}\n  fen {}\n  moves {}",
                    case.rules,
                    case.fen,
                    case.moves.join(" ")
                );
            }
        }
        if (seed - from) % 50 == 49 {
            println!(
                "seeds {from}..={seed}: slowest {:.1} s ({} seed {})",
                worst.0, worst.2, worst.1
            );
        }
    }
    println!(
        "done: slowest {:.1} s ({} seed {})",
        worst.0, worst.2, worst.1
    );
}
