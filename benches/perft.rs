//! Perft benchmarks (criterion), throughput in leaf nodes per second.
//!
//! - group `fast`: the bitboard implementation (bulk counting at the last ply);
//! - group `fast_portable`: the same without the CPU-feature dispatch (justifies its `unsafe`);
//! - group `oracle`: the reference implementation, same positions (the ratio fast/oracle is the
//!   oracle's slowdown, which must stay under 100x so that it can be fuzzed);
//! - group `peer`: Fairy-Stockfish (`go perft`) as a UCI child process in the same run, when
//!   `/usr/games/fairy-stockfish` (Debian package `fairy-stockfish`) or `$XQ_PEER_ENGINE` exists.
//!   The engine is started once; each iteration sends `position` + `go perft N` and waits for
//!   `Nodes searched`, so process start-up is not measured.
//! - group `primitives`: the position-level primitives of the repetition judge's searches
//!   (`checking_moves`, `has_legal_move`) over the positions of random games, each position
//!   also with the other side to move (the judge's "pass" positions), and `has_legal_move` /
//!   `legal_moves` in the positions after each of their checking moves (the mate test).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

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

fn expected_nodes(fen: &str) -> u64 {
    Position::from_fen(fen).expect("valid FEN").perft(DEPTH)
}

/// Benchmarks `perft` of one implementation on every position, in a group named `group`.
fn bench_group(c: &mut Criterion, group: &str, mut perft: impl FnMut(&str) -> u64) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for (name, fen) in POSITIONS {
        let nodes = expected_nodes(fen);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("perft{DEPTH}"), name),
            &fen,
            |b, fen| {
                b.iter(|| {
                    let n = perft(fen);
                    assert_eq!(n, nodes);
                    n
                })
            },
        );
    }
    group.finish();
}

fn fast(c: &mut Criterion) {
    let positions: Vec<(String, Position)> = POSITIONS
        .iter()
        .map(|(_, fen)| (fen.to_string(), Position::from_fen(fen).expect("valid FEN")))
        .collect();
    bench_group(c, "fast", |fen| {
        let mut pos = positions
            .iter()
            .find(|(f, _)| f == fen)
            .expect("known position")
            .1
            .clone();
        pos.perft(DEPTH)
    });
}

/// The portable code path of `fast` (no popcnt/bmi1/lzcnt dispatch): the `fast` / `fast_portable`
/// ratio is the gain that justifies the one `unsafe` call in `src/position.rs`.
fn fast_portable(c: &mut Criterion) {
    bench_group(c, "fast_portable", |fen| {
        Position::from_fen(fen)
            .expect("valid FEN")
            .perft_portable(DEPTH)
    });
}

fn oracle(c: &mut Criterion) {
    let spec = xiangqi_oracle::Spec::embedded();
    bench_group(c, "oracle", |fen| {
        xiangqi_oracle::Board::from_fen(spec, fen)
            .expect("valid FEN")
            .perft(DEPTH)
    });
}

/// A UCI engine kept running for the whole benchmark.
struct Peer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Peer {
    fn start() -> Option<Peer> {
        let path = std::env::var("XQ_PEER_ENGINE")
            .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_string());
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut peer = Peer {
            child,
            input,
            output,
        };
        peer.send("uci");
        peer.wait_for("uciok")?;
        peer.send("setoption name UCI_Variant value xiangqi");
        peer.send("isready");
        peer.wait_for("readyok")?;
        Some(peer)
    }

    fn send(&mut self, line: &str) {
        let _ = writeln!(self.input, "{line}");
        let _ = self.input.flush();
    }

    fn wait_for(&mut self, prefix: &str) -> Option<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.trim_start().starts_with(prefix) {
                return Some(line.trim().to_string());
            }
        }
    }

    fn perft(&mut self, fen: &str, depth: u32) -> Option<u64> {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched")?;
        line.rsplit(' ').next()?.parse().ok()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

fn peer(c: &mut Criterion) {
    let Some(mut engine) = Peer::start() else {
        eprintln!("peer group skipped: no Fairy-Stockfish at /usr/games/fairy-stockfish or $XQ_PEER_ENGINE");
        return;
    };
    for (name, fen) in POSITIONS {
        if engine.perft(fen, DEPTH) != Some(expected_nodes(fen)) {
            eprintln!("peer group skipped: the engine's perft {DEPTH} of {name} differs from ours");
            return;
        }
    }
    bench_group(c, "peer", |fen| engine.perft(fen, DEPTH).unwrap_or(0));
}

/// The positions of seeded random games (and the same with the other side to move, when legal).
fn random_positions() -> Vec<Position> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut pos = Position::startpos();
        for _ in 0..100 {
            out.push(pos.clone());
            let mut fen: Vec<String> = pos.to_fen().split(' ').map(String::from).collect();
            fen[1] = if fen[1] == "w" { "b" } else { "w" }.to_string();
            if let Ok(passed) = Position::from_fen(&fen.join(" ")) {
                out.push(passed);
            }
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play(m);
        }
    }
    out
}

fn primitives(c: &mut Criterion) {
    let positions = random_positions();
    let mut group = c.benchmark_group("primitives");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("checking_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| p.checking_moves().len())
                .sum::<usize>()
        })
    });
    group.bench_function("has_legal_move", |b| {
        b.iter(|| positions.iter().filter(|p| p.has_legal_move()).count())
    });
    // The mate test of the judge's check lines: the positions after each checking move.
    let checked: Vec<Position> = positions
        .iter()
        .flat_map(|p| {
            p.checking_moves()
                .iter()
                .map(|&m| {
                    let mut a = p.clone();
                    a.play(m);
                    a
                })
                .collect::<Vec<_>>()
        })
        .collect();
    group.throughput(Throughput::Elements(checked.len() as u64));
    group.bench_function("has_legal_move_in_check", |b| {
        b.iter(|| checked.iter().filter(|p| p.has_legal_move()).count())
    });
    group.bench_function("legal_moves_in_check", |b| {
        b.iter(|| checked.iter().map(|p| p.legal_moves().len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, fast, fast_portable, oracle, peer, primitives);
criterion_main!(benches);
