//! Compiles spec/board.yaml, spec/pieces.yaml and spec/material.yaml into move tables
//! (`$OUT_DIR/tables.rs`, included by src/tables.rs). A spec error fails the build with
//! `file:line:column: reason`.

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
}
