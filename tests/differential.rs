//! Differential tests: the fast implementation and the oracle must report the same legal-move
//! sets, check status and game-end status (art. 3.1, 3.2, 4.1.1–4.1.3) on positions reached by
//! random play and on random valid FENs. A failure prints a YAML stub for tests/regressions/.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use xiangqi_difftest::{play_and_compare, random_placement_fen, Pair, START_FEN};

fn check(result: Result<usize, Box<xiangqi_difftest::Divergence>>) -> usize {
    match result {
        Ok(n) => n,
        Err(d) => panic!("fast and oracle disagree:\n{d}"),
    }
}

#[test]
fn random_games_from_the_start_agree_at_every_position() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0001);
    let mut compared = 0;
    for _game in 0..120 {
        let mut plies = 0;
        compared += check(play_and_compare(START_FEN, |n| {
            plies += 1;
            (plies <= 150).then(|| rand::Rng::gen_range(&mut rng, 0..n))
        }));
    }
    assert!(compared >= 10_000, "only {compared} positions compared");
}

#[test]
fn random_valid_placements_agree_on_validity_and_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0002);
    let mut valid = 0;
    let mut tried = 0;
    while valid < 5000 {
        tried += 1;
        assert!(
            tried < 100_000,
            "generator produced too few valid positions"
        );
        let fen = random_placement_fen(&mut rng);
        let pair = match Pair::new(&fen) {
            Ok(Some(pair)) => pair,
            Ok(None) => continue,
            Err(d) => panic!("fast and oracle disagree:\n{d}"),
        };
        valid += 1;
        if let Err(d) = pair.compare() {
            panic!("fast and oracle disagree:\n{d}");
        }
    }
}

#[test]
fn short_random_games_from_random_placements_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0003);
    let mut compared = 0;
    let mut games = 0;
    while games < 150 {
        let fen = random_placement_fen(&mut rng);
        let mut plies = 0;
        let n = check(play_and_compare(&fen, |n| {
            plies += 1;
            (plies <= 20).then(|| rand::Rng::gen_range(&mut rng, 0..n))
        }));
        if n > 0 {
            games += 1;
            compared += n;
        }
    }
    assert!(compared >= 1500, "only {compared} positions compared");
}

#[test]
fn shallow_perft_agrees_on_the_shared_positions() {
    // Depth 2 node counts from every shared perft position, both implementations.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/perft.yaml"))
        .expect("spec/perft.yaml");
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).expect("perft yaml");
    let mut fens: Vec<String> = doc["perft"]
        .as_sequence()
        .expect("perft list")
        .iter()
        .map(|e| e["fen"].as_str().expect("fen").to_string())
        .collect();
    fens.dedup();
    for fen in fens {
        let mut fast = xiangqi_rules::Position::from_fen(&fen).expect("fast accepts shared FEN");
        let oracle = xiangqi_oracle::Board::from_fen(xiangqi_oracle::Spec::embedded(), &fen)
            .expect("oracle accepts shared FEN");
        assert_eq!(fast.perft(2), oracle.perft(2), "perft 2 of {fen}");
    }
}
