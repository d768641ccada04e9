//! Times the oracle's perft: `cargo run --release -p xiangqi-oracle --example perft -- [depth] [fen]`.
use std::time::Instant;
use xiangqi_oracle::{Board, Spec};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(4);
    let spec = Spec::embedded();
    let board = match args.get(2) {
        Some(fen) => Board::from_fen(spec, fen).expect("valid FEN"),
        None => Board::start(spec),
    };
    let t = Instant::now();
    let nodes = board.perft(depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {secs:.3} s = {:.2} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}
