//! What one `judge_diff` / `classify_diff` input costs, by kind of start position: the mean and
//! worst time of the comparison (fast + oracle, at the rule sets' depths, as the fuzz targets
//! compare), how many cases the cost estimate ([`xiangqi_difftest::judge::bounded`]) calls
//! costly, and the estimate's own time; with `guarded` as second argument those are skipped
//! (the fuzz targets' old budget, for comparison). For profiling:
//! `cargo build --release -p xiangqi-difftest --example judge_cost` then
//! `perf record -g target/release/examples/judge_cost 40`. With a target name and files, times
//! each fuzz input (e.g. a campaign's corpus) and lists the slowest.
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::judge::{
    bounded, classify_case_from, compare_classify, compare_judge, game_from, Start,
};

/// `judge_cost judge_diff|classify_diff FILE...`: the time of each fuzz input, slowest first.
fn files(target: &str, paths: &[String]) {
    let mut times: Vec<(Duration, &String)> = paths
        .iter()
        .map(|p| {
            let data = std::fs::read(p).expect("read input");
            let t = Instant::now();
            let _ = if target == "judge_diff" {
                xiangqi_difftest::judge::fuzz_judge(&data).map(drop)
            } else {
                xiangqi_difftest::judge::fuzz_classify(&data).map(drop)
            };
            (t.elapsed(), p)
        })
        .collect();
    times.sort_by(|a, b| b.cmp(a));
    let total: Duration = times.iter().map(|t| t.0).sum();
    println!(
        "{target}: {} inputs, {:.1} runs/s",
        times.len(),
        times.len() as f64 / total.as_secs_f64()
    );
    for (t, p) in times.iter().take(5) {
        let data = std::fs::read(p).expect("read input");
        let case = if target == "judge_diff" {
            xiangqi_difftest::judge::judge_case(&data)
        } else {
            xiangqi_difftest::judge::classify_case(&data)
        };
        println!(
            "  {t:?} {p}\n    {} {} [{}]",
            case.rules,
            case.fen,
            case.moves.join(" ")
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(target @ ("judge_diff" | "classify_diff")) = args.first().map(String::as_str) {
        return files(target, &args[1..]);
    }
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let guard_on = std::env::args().nth(2).as_deref() == Some("guarded");
    for kind in ["judge", "classify"] {
        for start in [Start::Initial, Start::Sparse, Start::Random] {
            let (mut guard, mut total, mut worst, mut skipped, mut costly) =
                (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0, 0);
            for seed in 0..n {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let case = if kind == "judge" {
                    game_from(start, &mut rng)
                } else {
                    classify_case_from(start, &mut rng)
                };
                let t = Instant::now();
                let ok = bounded(&case);
                guard += t.elapsed();
                costly += u64::from(!ok);
                if guard_on && !ok {
                    skipped += 1;
                    continue;
                }
                let t = Instant::now();
                if kind == "judge" {
                    let _ = compare_judge(&case);
                } else {
                    let _ = compare_classify(&case);
                }
                let e = t.elapsed();
                total += e;
                worst = worst.max(e);
            }
            let judged = (n - skipped).max(1) as u32;
            println!(
                "{kind:8} {start:?}: {n} cases, {costly} estimated costly, {skipped} skipped, estimate {:?}/case, compare mean {:?} worst {worst:?}",
                guard / n as u32,
                total / judged
            );
        }
    }
}
