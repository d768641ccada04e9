//! Repetition-judge benchmarks (criterion).
//!
//! - group `judge`: whole-game judging over a corpus of generated games with repetition cycles
//!   built in (`xiangqi_difftest::judge::seeded_game`), fast vs oracle (target: fast ≥ 100×);
//! - group `classify`: classifying one move (fast, with and without the kill search at its
//!   rule-set depth) vs generating the legal moves, in the same positions (target: ≤ 10×
//!   without the kill search);
//! - group `adjudicator`: `Adjudicator::push` + `pop` over a game without repetition vs the bare
//!   `Position::play` + hash read + `undo` (target: O(1), near the hash update).
//!
//! Run only the groups you need, briefly, and compare ratios measured in the same run (the
//! machine is shared): `cargo bench --bench judge -- classify --warm-up-time 1
//! --measurement-time 3`. The thread-local caches of the judge (see `src/judge/analysis.rs`)
//! are kept between classifications under one rule set, so the `classify` group measures the
//! per-move work around warm searches (exchange pairs, chase newness, the idle kinds), while
//! the `judge` group alternates rule sets and so measures mostly cold searches (the check
//! lines of 29.1 and the "mated at once" tests of 29.4).
//!
//! Issue 5 (same-run ratios, 2 shared cores): before, classify without the kill search took
//! 44–55× `legal_moves` (3.56 ms vs 81.4 µs) and judge fast was 42× faster than the oracle;
//! after one-piece legal targets, memoised exchange pairs, table-driven recaptures and masked
//! checking moves: 8.0× (650 µs vs 80.9 µs; 8.3× with the kill search) and 46–64× (6.39 ms vs
//! 351 ms on the quietest run); push+pop unchanged (5.0 µs vs 1.9 µs per 100 plies). The judge
//! target (≥ 100×) is not met: what remains is the node count of the oracle's forcing-line
//! searches (each node generates the legal replies and the checking moves), not overhead
//! around them; see docs/ARCHITECTURE.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_difftest::judge::{bounded, seeded_game, JudgeCase};
use xiangqi_oracle as o;
use xiangqi_rules::judge::{self as f, Adjudicator, Builtin, Verdict};
use xiangqi_rules::{Move, Position, RankConvention};

/// Games of the corpus whose oracle judgement is quick enough to measure repeatedly.
const GAMES: u64 = 24;

struct Game {
    case: JudgeCase,
    fast_start: Position,
    fast_moves: Vec<Move>,
    oracle_start: o::Board,
    oracle_moves: Vec<o::OMove>,
}

fn corpus() -> Vec<Game> {
    // Games over the oracle's budget (rich in checks: seconds for the oracle) are left out.
    (0..)
        .map(seeded_game)
        .filter(bounded)
        .take(GAMES as usize)
        .map(|case| Game {
            fast_start: Position::from_fen(&case.fen).unwrap(),
            fast_moves: case
                .moves
                .iter()
                .map(|m| Move::parse_iccs(m, RankConvention::Iccs).unwrap())
                .collect(),
            oracle_start: o::Board::from_fen(o::Spec::embedded(), &case.fen).unwrap(),
            oracle_moves: case.moves.iter().map(|m| m.parse().unwrap()).collect(),
            case,
        })
        .collect()
}

fn judge(c: &mut Criterion) {
    let games = corpus();
    let mut g = c.benchmark_group("judge");
    g.sample_size(10);
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("fast", |b| {
        b.iter(|| {
            for gm in &games {
                let r = f::RuleSet::builtin(&gm.case.rules).unwrap();
                std::hint::black_box(f::judge(r, &gm.fast_start, &gm.fast_moves).unwrap());
            }
        })
    });
    let rules: Vec<o::judge::RuleSet> = games
        .iter()
        .map(|gm| o::judge::RuleSet::embedded(&gm.case.rules).unwrap())
        .collect();
    g.bench_function("oracle", |b| {
        b.iter(|| {
            for (gm, r) in games.iter().zip(&rules) {
                std::hint::black_box(
                    o::judge::judge(r, &gm.oracle_start, &gm.oracle_moves).unwrap(),
                );
            }
        })
    });
    g.finish();
}

/// (position, a legal move) pairs along the corpus games.
fn move_samples() -> Vec<(f::Tracked, Move)> {
    let mut out = Vec::new();
    for gm in corpus() {
        let mut t = f::Tracked::new(gm.fast_start.clone());
        for m in &gm.fast_moves {
            out.push((t.clone(), *m));
            t.play(*m);
        }
    }
    out
}

fn classify(c: &mut Criterion) {
    let samples = move_samples();
    let with_kill = f::RuleSet::builtin("cxa-1999").unwrap();
    let mut no_kill = with_kill.clone();
    no_kill.kill_search_depth = 0;
    let mut g = c.benchmark_group("classify");
    g.throughput(Throughput::Elements(samples.len() as u64));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            for (t, _) in &samples {
                std::hint::black_box(t.position().legal_moves());
            }
        })
    });
    g.bench_function("classify_without_kill_search", |b| {
        b.iter(|| {
            for (t, m) in &samples {
                std::hint::black_box(f::classify(&no_kill, t, *m, None).unwrap());
            }
        })
    });
    g.bench_function("classify", |b| {
        b.iter(|| {
            for (t, m) in &samples {
                std::hint::black_box(f::classify(with_kill, t, *m, None).unwrap());
            }
        })
    });
    g.finish();
}

/// A game of `plies` random moves from the start in which no position repeats.
fn game_without_repetition(plies: usize) -> Vec<Move> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    'retry: loop {
        let mut pos = Position::startpos();
        let mut seen = std::collections::HashSet::from([pos.hash()]);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            let Some(&m) = legal.choose(&mut rng) else {
                continue 'retry;
            };
            pos.play(m);
            if !seen.insert(pos.hash()) || pos.legal_moves().is_empty() {
                continue 'retry;
            }
            moves.push(m);
        }
        return moves;
    }
}

fn adjudicator(c: &mut Criterion) {
    let moves = game_without_repetition(100);
    let rules = f::RuleSet::builtin("cxa-2011").unwrap();
    let mut g = c.benchmark_group("adjudicator");
    g.throughput(Throughput::Elements(moves.len() as u64));
    g.bench_function("play_hash_undo", |b| {
        let mut pos = Position::startpos();
        let mut undos = Vec::with_capacity(moves.len());
        b.iter(|| {
            for m in &moves {
                undos.push(pos.play(*m));
                std::hint::black_box(pos.hash());
            }
            for m in moves.iter().rev() {
                pos.undo(*m, undos.pop().unwrap());
            }
        })
    });
    g.bench_function("push_pop", |b| {
        let mut adj = Adjudicator::new(rules, Position::startpos());
        b.iter(|| {
            for m in &moves {
                let v = adj.push(*m);
                debug_assert_eq!(v, Verdict::Continue);
                std::hint::black_box(v);
            }
            for _ in &moves {
                adj.pop();
            }
        })
    });
    g.finish();
}

criterion_group!(benches, judge, classify, adjudicator);
criterion_main!(benches);
