//! Compiles spec/board.yaml, spec/pieces.yaml and spec/material.yaml into move tables
//! (`$OUT_DIR/tables.rs`, included by src/tables.rs). A spec error fails the build with
//! `file:line:column: reason`. Also writes `$OUT_DIR/examples.rs`, the `include_str!` table of
//! every worked example (`spec/examples/**/*.yaml`) for `xqrules judge --example`.

fn main() {
    for f in ["board.yaml", "pieces.yaml", "material.yaml"] {
        println!("cargo:rerun-if-changed=spec/{f}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    let code = match xiangqi_spec::generate_dir(std::path::Path::new("spec")) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            println!("cargo:warning={e}");
            std::process::exit(1);
        }
    };
    let out =
        std::path::Path::new(&std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("tables.rs");
    std::fs::write(&out, code).expect("write tables.rs");
    println!("cargo:rerun-if-changed=spec/examples");
    let examples = xiangqi_spec::examples::examples_table(std::path::Path::new("spec/examples"))
        .unwrap_or_else(|e| {
            eprintln!("error: spec/examples: {e}");
            std::process::exit(1);
        });
    let out = out.with_file_name("examples.rs");
    std::fs::write(&out, examples).expect("write examples.rs");
}
