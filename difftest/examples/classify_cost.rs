//! Where the classification time of the `classify` benchmark goes: the samples of
//! `benches/judge.rs` (the moves of the 24 bounded seeded games), classified once in order with
//! the caches cleared first (as one measured pass), the slowest listed with their share.
//! `cargo run --release -p xiangqi-difftest --example classify_cost [N]`.
//!
//! Environment switches: `RULES` (classify under that built-in rule set with all its searches,
//! instead of the benchmark's cxa-1999 without the kill search); `PASSES` (default 2); `NORATIO`
//! (no per-move ratios); `MEDIAN` (list the moves around the median ratio); `SAMPLE=i` [`REPEAT`, `PRIM`] (one move classified cold
//! REPEAT times, with PRIM the cost of each primitive in its position); `JUDGE` (the `judge`
//! benchmark's games) with `GAME=i` [`PLY`, `REPEAT`] (one game or one move of it), `KILL_DEPTH`,
//! or `ORACLE` [`ONLY=i`, `OPASSES`] (per game: the fast judge, best of PASSES, against the
//! oracle, best of OPASSES runs, default 1), or `RATIO` [`ROUNDS`] (the benchmark's ratio with
//! the two judges interleaved, median over rounds: steadier than criterion on a busy host);
//! `CHASE_DEPTH` (the classifications' chase search by consecutive checks cut to that many
//! plies, 0 for none).
//! Under `valgrind --tool=callgrind` the difference between two PASSES counts is a deterministic
//! instruction count per pass, unaffected by the load of the host (take passes 2 and 8: the
//! first pass carries one-time setup and table growth); the difference between two OPASSES
//! counts in ORACLE mode is the oracle's count per judgement, without its one-time setup.
use std::time::{Duration, Instant};

use xiangqi_difftest::judge::{bounded, seeded_game};
use xiangqi_rules::judge::{self as f, Builtin};
use xiangqi_rules::{Move, Position, RankConvention};

fn main() {
    let n: usize = std::env::args().nth(1).map_or(15, |a| a.parse().unwrap());
    let cases: Vec<_> = (0..).map(seeded_game).filter(bounded).take(24).collect();
    if std::env::var("JUDGE").is_ok() {
        // The `judge` benchmark's fast side: every game judged cold, PASSES times.
        let passes: usize = std::env::var("PASSES").map_or(2, |v| v.parse().unwrap());
        let games: Vec<_> = cases
            .iter()
            .map(|c| {
                let start = Position::from_fen(&c.fen).unwrap();
                let moves: Vec<Move> = c
                    .moves
                    .iter()
                    .map(|m| Move::parse_iccs(m, RankConvention::Iccs).unwrap())
                    .collect();
                let mut r = f::RuleSet::builtin(&c.rules).unwrap().clone();
                if let Ok(d) = std::env::var("KILL_DEPTH") {
                    r.kill_search_depth = d.parse().unwrap();
                }
                (r, start, moves, c.rules.clone())
            })
            .collect();
        if let Ok(g) = std::env::var("GAME") {
            // One game: its moves, and the time of each move's classification.
            let (r, start, moves, id) = &games[g.parse::<usize>().unwrap()];

            println!(
                "{id} {} {}",
                start.to_fen(),
                cases[g.parse::<usize>().unwrap()].moves.join(" ")
            );
            let mut t = f::Tracked::new(start.clone());
            if let Ok(ply) = std::env::var("PLY") {
                // One move of the game, classified cold REPEAT times (for perf).
                let ply: usize = ply.parse().unwrap();
                for m in &moves[..ply - 1] {
                    t.play(*m);
                }
                let n: usize = std::env::var("REPEAT").map_or(1, |v| v.parse().unwrap());
                let s = Instant::now();
                for _ in 0..n {
                    f::clear_caches();
                    std::hint::black_box(f::classify(r, &t, moves[ply - 1], None).unwrap());
                }
                println!(
                    "ply {ply} {}: {:?} per classification",
                    moves[ply - 1],
                    s.elapsed() / n as u32
                );
                return;
            }
            for m in moves {
                f::clear_caches();
                let s = Instant::now();
                let c = f::classify(r, &t, *m, None).unwrap();
                println!("  {m} {:?} {:?} {}", s.elapsed(), c.class, c.note);
                t.play(*m);
            }
            return;
        }
        if std::env::var("RATIO").is_ok() {
            // The `judge` benchmark's ratio, with the two judges interleaved in one process so
            // that a slow spell of the host hits both: per round, the best of 10 cold fast
            // passes and the better of 2 oracle passes; the median of ROUNDS rounds.
            use xiangqi_oracle as o;
            let rounds: usize = std::env::var("ROUNDS").map_or(15, |v| v.parse().unwrap());
            let oracle_games: Vec<_> = cases
                .iter()
                .map(|c| {
                    let r = xiangqi_difftest::judge::oracle_rules(&c.rules).unwrap();
                    let b = o::Board::from_fen(o::Spec::embedded(), &c.fen).unwrap();
                    let m: Vec<o::OMove> = c.moves.iter().map(|m| m.parse().unwrap()).collect();
                    (r, b, m)
                })
                .collect();
            let fast_pass = || {
                let s = Instant::now();
                for (r, start, moves, _) in &games {
                    f::clear_caches();
                    std::hint::black_box(f::judge(r, start, moves).unwrap());
                }
                s.elapsed()
            };
            let oracle_pass = || {
                let s = Instant::now();
                for (r, b, m) in &oracle_games {
                    std::hint::black_box(o::judge::judge(r, b, m).unwrap());
                }
                s.elapsed()
            };
            let mut rows: Vec<(f64, Duration, Duration)> = (0..rounds)
                .map(|_| {
                    let fast = (0..10).map(|_| fast_pass()).min().unwrap();
                    let oracle = (0..2).map(|_| oracle_pass()).min().unwrap();
                    (oracle.as_secs_f64() / fast.as_secs_f64(), fast, oracle)
                })
                .collect();
            rows.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (ratio, fast, oracle) = rows[rounds / 2];
            println!(
                "median of {rounds} rounds: fast {fast:?} oracle {oracle:?} = {ratio:.1}x \
                 (rounds {:.1}x to {:.1}x)",
                rows[0].0,
                rows[rounds - 1].0
            );
            return;
        }
        if std::env::var("ORACLE").is_ok() {
            // Per game: the fast judge (best of PASSES, cold) against one oracle run.
            use xiangqi_oracle as o;
            let mut rows = Vec::new();
            let (mut tf, mut to) = (Duration::ZERO, Duration::ZERO);
            let only: Option<usize> = std::env::var("ONLY").ok().map(|v| v.parse().unwrap());
            let opasses: usize = std::env::var("OPASSES").map_or(1, |v| v.parse().unwrap());
            for (i, (r, start, moves, id)) in games.iter().enumerate() {
                if only.is_some_and(|o| o != i) {
                    continue;
                }
                let mut best = Duration::MAX;
                for _ in 0..passes {
                    f::clear_caches();
                    let s = Instant::now();
                    std::hint::black_box(f::judge(r, start, moves).unwrap());
                    best = best.min(s.elapsed());
                }
                let orules = xiangqi_difftest::judge::oracle_rules(id).unwrap();
                let ob = o::Board::from_fen(o::Spec::embedded(), &cases[i].fen).unwrap();
                let om: Vec<o::OMove> = cases[i].moves.iter().map(|m| m.parse().unwrap()).collect();
                let mut od = Duration::MAX;
                for _ in 0..opasses {
                    let s = Instant::now();
                    std::hint::black_box(o::judge::judge(orules, &ob, &om).unwrap());
                    od = od.min(s.elapsed());
                }
                tf += best;
                to += od;
                rows.push((best, od, i, id.clone()));
            }
            rows.sort_by_key(|r| std::cmp::Reverse(r.0));
            println!(
                "fast {tf:?} oracle {to:?} ({:.1}x)",
                to.as_secs_f64() / tf.as_secs_f64()
            );
            for (fd, od, i, id) in rows.iter().take(n) {
                println!(
                    "  game {i:>2} {id:<9} fast {fd:>10?} oracle {od:>10?} ({:.0}x)",
                    od.as_secs_f64() / fd.as_secs_f64()
                );
            }
            return;
        }
        for _ in 0..passes {
            let mut times = Vec::new();
            for (i, (r, start, moves, id)) in games.iter().enumerate() {
                f::clear_caches();
                let s = Instant::now();
                std::hint::black_box(f::judge(r, start, moves).unwrap());
                times.push((s.elapsed(), i, id));
            }
            let total: Duration = times.iter().map(|x| x.0).sum();
            println!("judge {} games: {:?}", games.len(), total);
            times.sort_by(|a, b| b.cmp(a));
            for (d, i, id) in times.iter().take(n) {
                println!("  {d:>10?} game {i} ({id})");
            }
        }
        return;
    }
    let mut samples = Vec::new();
    for case in cases {
        let mut t = f::Tracked::new(Position::from_fen(&case.fen).unwrap());
        for m in &case.moves {
            let m = Move::parse_iccs(m, RankConvention::Iccs).unwrap();
            samples.push((t.clone(), m));
            t.play(m);
        }
    }
    // The benchmark's rule set (cxa-1999 without the kill search), or with `RULES=id` a built-in
    // rule set as it is, every search at its own depth.
    let mut no_kill = match std::env::var("RULES") {
        Ok(id) => f::RuleSet::builtin(&id).unwrap().clone(),
        Err(_) => {
            let mut r = f::RuleSet::builtin("cxa-1999").unwrap().clone();
            r.kill_search_depth = 0;
            r
        }
    };
    if let Ok(d) = std::env::var("CHASE_DEPTH") {
        // How much of the classification the chase search by consecutive checks is (0: none).
        no_kill.chase_search_depth = d.parse().unwrap();
    }
    if let Ok(i) = std::env::var("SAMPLE") {
        // One sample, classified cold REPEAT times (for perf).
        let (t, m) = &samples[i.parse::<usize>().unwrap()];
        let n: usize = std::env::var("REPEAT").map_or(1, |v| v.parse().unwrap());
        let s = Instant::now();
        for _ in 0..n {
            f::clear_caches();
            std::hint::black_box(f::classify(&no_kill, t, *m, None).unwrap());
        }
        let c = f::classify(&no_kill, t, *m, None).unwrap();
        if std::env::var("PRIM").is_ok() {
            // The cost of each primitive in this position (best of 5 runs of 20,000 calls).
            let pos = t.position();
            let time = |name: &str, f: &dyn Fn()| {
                let best = (0..5)
                    .map(|_| {
                        let s = Instant::now();
                        for _ in 0..20_000 {
                            f();
                        }
                        s.elapsed() / 20_000
                    })
                    .min()
                    .unwrap();
                println!("  {name}: {best:?}");
            };
            use std::hint::black_box as bb;
            let prims: [(&str, &dyn Fn()); 6] = [
                ("legal_moves", &|| {
                    let _ = bb(bb(pos).legal_moves());
                }),
                ("legal_captures", &|| {
                    let _ = bb(bb(pos).legal_captures());
                }),
                ("checking_moves", &|| {
                    let _ = bb(bb(pos).checking_moves());
                }),
                ("first_legal_move", &|| {
                    let _ = bb(bb(pos).first_legal_move());
                }),
                ("is_check", &|| {
                    let _ = bb(bb(pos).is_check());
                }),
                ("clone", &|| {
                    let _ = bb(bb(t).clone());
                }),
            ];
            for (name, f) in prims {
                time(name, f);
            }
        }
        println!(
            "{} {m}: {:?} per classification; {:?} {}",
            t.position().to_fen(),
            s.elapsed() / n as u32,
            c.class,
            c.note
        );
        return;
    }
    let passes: usize = std::env::var("PASSES").map_or(2, |v| v.parse().unwrap());
    for pass in 0..passes {
        f::clear_caches();
        let mut times: Vec<(Duration, usize)> = Vec::new();
        for (i, (t, m)) in samples.iter().enumerate() {
            let s = Instant::now();
            std::hint::black_box(f::classify(&no_kill, t, *m, None).unwrap());
            times.push((s.elapsed(), i));
        }
        let total: Duration = times.iter().map(|x| x.0).sum();
        let s = Instant::now();
        for (t, _) in &samples {
            std::hint::black_box(t.position().legal_moves());
        }
        let gen = s.elapsed();
        println!(
            "pass {pass}: {} samples, classify {:?}, legal_moves {:?} ({:.1}x)",
            samples.len(),
            total,
            gen,
            total.as_secs_f64() / gen.as_secs_f64()
        );
        if std::env::var("NORATIO").is_ok() {
            continue;
        }
        // Per-move ratio to one legal-move generation of the same position (timed 20 times).
        let mut per: Vec<(f64, usize, Duration)> = times
            .iter()
            .map(|(d, i)| {
                let s = Instant::now();
                for _ in 0..20 {
                    std::hint::black_box(samples[*i].0.position().legal_moves());
                }
                (d.as_secs_f64() / (s.elapsed().as_secs_f64() / 20.0), *i, *d)
            })
            .collect();
        per.sort_by(|a, b| a.0.total_cmp(&b.0));
        if std::env::var("MEDIAN").is_ok() {
            // The moves around the median ratio.
            let mid = per.len() / 2;
            for (r, i, d) in &per[mid.saturating_sub(6)..(mid + 6).min(per.len())] {
                let (t, m) = &samples[*i];
                println!("  {r:>6.1}x {d:>9?} #{i} {} {m}", t.position().to_fen());
            }
        }
        let ratios: Vec<f64> = per.iter().map(|x| x.0).collect();
        let q = |p: f64| ratios[((ratios.len() - 1) as f64 * p) as usize];
        println!(
            "  per move, classify / legal_moves: median {:.1}x, p75 {:.1}x, p90 {:.1}x, p99 {:.1}x; {:.0}% at most 10x",
            q(0.5),
            q(0.75),
            q(0.9),
            q(0.99),
            100.0 * ratios.iter().filter(|r| **r <= 10.0).count() as f64 / ratios.len() as f64
        );
        times.sort_by(|a, b| b.cmp(a));
        let mut cum = Duration::ZERO;
        for (d, i) in times.iter().take(n) {
            cum += *d;
            let (t, m) = &samples[*i];
            println!(
                "  {:>10?} cum {:>5.1}%  #{i} {} {}",
                d,
                100.0 * cum.as_secs_f64() / total.as_secs_f64(),
                t.position().to_fen(),
                m
            );
        }
    }
}
