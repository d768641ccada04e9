//! Regression cases found by differential fuzzing: every `tests/regressions/*.yaml` (the stub a
//! divergence prints, completed with `expected`) is replayed through both implementations,
//! which must now agree.

mod common;

use xiangqi_difftest::Pair;

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    start_fen: String,
    #[serde(default)]
    moves: Vec<String>,
    expected: String,
}

#[test]
fn every_regression_case_now_agrees() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions");
    let mut count = 0;
    for path in common::yaml_files(std::path::Path::new(dir)) {
        let text = std::fs::read_to_string(&path).expect("read case");
        let case: Case =
            serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let pair = match Pair::new(&case.start_fen) {
            Ok(pair) => pair,
            Err(d) => panic!("{}: still diverges:\n{d}", case.name),
        };
        match (&pair, case.expected.as_str()) {
            (None, "invalid") => {}
            (Some(_), "invalid") => panic!("{}: both accept a FEN expected invalid", case.name),
            (None, _) => panic!("{}: both reject the start FEN", case.name),
            (Some(_), _) => {}
        }
        if let Some(mut pair) = pair {
            for m in &case.moves {
                if let Err(d) = pair.compare().and_then(|_| pair.play(m)) {
                    panic!("{}: still diverges:\n{d}", case.name);
                }
            }
            if let Err(d) = pair.compare() {
                panic!("{}: still diverges:\n{d}", case.name);
            }
        }
        count += 1;
    }
    assert!(count >= 1, "no regression cases found in {dir}");
}
