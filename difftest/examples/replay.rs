//! Replays fuzz inputs (crash artifacts or corpus files) through a fuzz target's entry and
//! prints each divergence as the YAML stub to paste as a regression case:
//!
//! ```sh
//! cargo run --release -p xiangqi-difftest --example replay -- judge_diff fuzz/artifacts/judge_diff/*
//! ```
//!
//! Targets: `judge_diff`, `classify_diff` (stubs for `tests/regressions/judge/`), `fen`,
//! `movegen_diff` (stubs for `tests/regressions/`). The readers' targets `spec_dir` and
//! `engine_replies` have no stub: an input fails when their entry panics, and the panic message
//! is printed instead. Exit status 1 when some input diverges (or panics).
use xiangqi_difftest::judge::{fuzz_classify, fuzz_judge};
use xiangqi_difftest::readers::{fuzz_engine_replies, fuzz_spec};

/// Runs a readers' entry; `Some(message)` when it panics.
fn panics(entry: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
    let payload = std::panic::catch_unwind(entry).err()?;
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".to_string());
    Some(format!("panic: {message}"))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: replay TARGET FILE...");
        std::process::exit(2);
    };
    let mut diverged = 0;
    for path in args {
        let data = match std::fs::read(&path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let stub = match target.as_str() {
            "judge_diff" => fuzz_judge(&data).err().map(|d| d.to_string()),
            "classify_diff" => fuzz_classify(&data).err().map(|d| d.to_string()),
            "fen" => xiangqi_difftest::fuzz_fen(&String::from_utf8_lossy(&data))
                .err()
                .map(|d| d.to_string()),
            "movegen_diff" => xiangqi_difftest::fuzz_movegen(&data)
                .err()
                .map(|d| d.to_string()),
            "spec_dir" => panics(|| {
                fuzz_spec(&data);
            }),
            "engine_replies" => panics(|| {
                fuzz_engine_replies(&data);
            }),
            other => {
                eprintln!("replay: no stub printer for target {other}");
                std::process::exit(2);
            }
        };
        match stub {
            Some(s) => {
                diverged += 1;
                println!("# ---- {path}\n{s}");
            }
            None if matches!(target.as_str(), "spec_dir" | "engine_replies") => {
                eprintln!("{path}: no panic (the artifact may be a timeout or OOM)")
            }
            None => eprintln!("{path}: both sides agree (the artifact may be a timeout or OOM)"),
        }
    }
    std::process::exit(i32::from(diverged > 0));
}
