use std::time::Instant;
use xiangqi_rules::Position;
fn main() {
    let text = std::fs::read_to_string("/tmp/check_fens.txt").unwrap();
    let pos: Vec<Position> = text
        .lines()
        .map(|l| Position::from_fen(l).unwrap())
        .collect();
    let reps: usize = std::env::var("REPS").map_or(200, |v| v.parse().unwrap());
    let only = std::env::var("ONLY").ok();
    let mut n = 0usize;
    for _ in 0..3 {
        if only.as_deref() != Some("legal") {
            let t = Instant::now();
            for _ in 0..reps {
                for p in &pos {
                    n += std::hint::black_box(p).checking_moves().len();
                }
            }
            let c = t.elapsed().as_secs_f64() / (reps * pos.len()) as f64 * 1e9;
            print!("checking_moves {c:.1} ns  ");
        }
        if only.as_deref() != Some("checks") {
            let t = Instant::now();
            for _ in 0..reps {
                for p in &pos {
                    n += std::hint::black_box(p).legal_moves().len();
                }
            }
            let l = t.elapsed().as_secs_f64() / (reps * pos.len()) as f64 * 1e9;
            print!("legal_moves {l:.1} ns");
        }
        println!();
    }
    println!("{n}");
}
