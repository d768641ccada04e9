//! Records a generated game (`game_from(START, seed)`) as a named regression case for
//! `tests/regressions/judge/`, with `expected` taken from the judgement both judges agree on
//! (exit status 1, and the divergence stub, when they do not):
//!
//! ```sh
//! cargo run --release -p xiangqi-difftest --example record_case -- sparse 8 perpetual-check-1999 \
//!   > tests/regressions/judge/perpetual-check-1999.yaml
//! ```
//!
//! START is `initial`, `sparse` or `random`.
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::judge::{bounded, compare_judge, game_from, Start};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [start, seed, name] = args.as_slice() else {
        eprintln!("usage: record_case initial|sparse|random SEED NAME");
        std::process::exit(2);
    };
    let start = match start.as_str() {
        "initial" => Start::Initial,
        "sparse" => Start::Sparse,
        "random" => Start::Random,
        other => {
            eprintln!("record_case: unknown start {other}");
            std::process::exit(2);
        }
    };
    let Ok(seed) = seed.parse::<u64>() else {
        eprintln!("record_case: SEED must be a number");
        std::process::exit(2);
    };
    let case = game_from(start, &mut ChaCha8Rng::seed_from_u64(seed));
    if !bounded(&case) {
        eprintln!("record_case: over the oracle's budget; choose another seed");
        std::process::exit(2);
    }
    let agreed = match compare_judge(&case) {
        Ok(a) => a,
        Err(d) => {
            println!("{d}");
            std::process::exit(1);
        }
    };
    let j: serde_json::Value = serde_json::from_str(&agreed.json).expect("the judgement JSON");
    let side = if case.fen.split(' ').nth(1) == Some("b") {
        "black"
    } else {
        "red"
    };
    let yaml = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "null".to_string(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let classes: Vec<String> = j["cycle"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| yaml(&c["class"]))
        .collect();
    println!("name: {name}");
    println!("aspect: none");
    println!("rules: {}", case.rules);
    println!("fen: {}", case.fen);
    println!("side_to_move: {side}");
    println!("moves_full: [{}]", case.moves.join(", "));
    println!(
        "note: \"generated (game_from({start:?}, seed {seed})); no divergence: recorded from the output both judges agree on, to pin it ({} / {}; cycle classes {})\"",
        yaml(&j["red_pattern"]),
        yaml(&j["black_pattern"]),
        classes.join(", ")
    );
    println!("expected:");
    for k in ["ruling", "must_change", "immediate", "pending"] {
        println!("  {k}: {}", yaml(&j[k]));
    }
    println!("  red_pattern: {}", yaml(&j["red_pattern"]));
    println!("  black_pattern: {}", yaml(&j["black_pattern"]));
    // JSON's array of strings is YAML too (and keeps "24.1" a string).
    println!("  articles: {}", j["articles"]);
}
