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
    println!("cargo:rerun-if-changed=spec");
    let (code, hash) = spec_files(Path::new("spec")).unwrap_or_else(|e| fail(format!("spec: {e}")));
    std::fs::write(out_dir.join("spec_files.rs"), code).expect("write spec_files.rs");
    println!("cargo:rustc-env=XQ_SPEC_HASH={hash}");
}

/// Rust source of `FILES`, the `include_str!` table of every file of the spec directory, and
/// the spec hash: 64-bit FNV-1a over each file's relative path, a 0 byte, its length (8 bytes,
/// little endian) and its bytes, in path order, as 16 hexadecimal digits.
fn spec_files(dir: &Path) -> std::io::Result<(String, String)> {
    let files = xiangqi_spec::fingerprint::spec_files(dir)?;
    let mut hash = xiangqi_spec::fingerprint::SpecHash::default();
    let mut code = String::from(
        "/// Every file of the spec directory the library was built from: `(path relative to \
         spec/, text)`, sorted by path.\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for (rel, path) in &files {
        let bytes = std::fs::read(path)?;
        if std::str::from_utf8(&bytes).is_err() {
            return Err(std::io::Error::other(format!("{rel}: not UTF-8 text")));
        }
        hash.file(rel, &bytes);
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            std::fs::canonicalize(path)?.display().to_string()
        ));
    }
    code.push_str("];\n");
    Ok((code, hash.hex()))
}
