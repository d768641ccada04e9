//! Compiles spec/board.yaml, spec/pieces.yaml and spec/material.yaml into move tables
//! (`$OUT_DIR/tables.rs`, included by src/tables.rs), the repetition rule sets of spec/rules/
//! into `$OUT_DIR/rulesets.rs` (included by src/judge/rules.rs), and writes
//! `$OUT_DIR/examples.rs`, the `include_str!` table of every worked example
//! (`spec/examples/**/*.yaml`) for `xqrules judge --example`. A spec error fails the build with
//! `file:line:column: reason`.

use std::path::Path;

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    println!("cargo:warning={e}");
    std::process::exit(1);
}

fn main() {
    for f in ["board.yaml", "pieces.yaml", "material.yaml"] {
        println!("cargo:rerun-if-changed=spec/{f}");
    }
    println!("cargo:rerun-if-changed=spec/rules");
    println!("cargo:rerun-if-changed=spec/rules/terms.yaml");
    for id in xiangqi_spec::ruleset_compile::BUILTIN_IDS {
        println!("cargo:rerun-if-changed=spec/rules/{id}.yaml");
    }
    println!("cargo:rerun-if-changed=spec/examples");
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = std::env::var_os("OUT_DIR").expect("OUT_DIR");
    let out_dir = Path::new(&out_dir);
    let code = xiangqi_spec::generate_dir(Path::new("spec")).unwrap_or_else(|e| fail(e));
    std::fs::write(out_dir.join("tables.rs"), code).expect("write tables.rs");
    let rules_dir = Path::new("spec/rules");
    let sets: Vec<_> = xiangqi_spec::ruleset_compile::BUILTIN_IDS
        .iter()
        .map(|id| {
            xiangqi_spec::ruleset_compile::load_rule_set(rules_dir, id).unwrap_or_else(|e| fail(e))
        })
        .collect();
    let code = xiangqi_spec::ruleset_compile::codegen_rule_sets(&sets);
    std::fs::write(out_dir.join("rulesets.rs"), code).expect("write rulesets.rs");
    let examples = xiangqi_spec::examples::examples_table(Path::new("spec/examples"))
        .unwrap_or_else(|e| fail(format!("spec/examples: {e}")));
    std::fs::write(out_dir.join("examples.rs"), examples).expect("write examples.rs");
}
