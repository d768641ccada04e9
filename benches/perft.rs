//! Perft benchmarks (criterion). Group `fast`: the bitboard implementation, depth 4 from three
//! positions, throughput in leaf nodes per second.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use xiangqi_rules::Position;

const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ),
    (
        "tactical",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    ),
];

const DEPTH: u32 = 4;

fn fast(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast");
    group.sample_size(10);
    for (name, fen) in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let nodes = pos.perft(DEPTH);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("perft{DEPTH}"), name),
            &fen,
            |b, _| {
                b.iter(|| {
                    let n = pos.perft(DEPTH);
                    assert_eq!(n, nodes);
                    n
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, fast);
criterion_main!(benches);
