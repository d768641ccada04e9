//! `xiangqi-spec`: the vocabulary, YAML loader, validator and table compiler of xiangqi-rules.
//!
//! * [`vocab`]: [`Color`], [`Role`], [`Piece`], [`Square`], [`File`], [`Rank`].
//! * [`schema`] + [`load`]: serde structs for `spec/*.yaml` and [`load_dir`], which validates
//!   them and reports every problem as `file:line:column: reason`.
//! * [`compile`]: move tables (steps, leaps with block points, slide line tables, zones,
//!   reachability, Zobrist keys).
//! * [`codegen`]: Rust source for the build script.
//! * [`examples`]: the table of bundled worked examples for the CLI.
//! * [`ruleset`]: the machine form of a repetition rule set (棋例), [`ruleset::RuleSet`];
//!   [`ruleset_compile`] loads it from `spec/rules/` (resolving overlays) and generates Rust.
//!
//! ```
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
//! let spec = xiangqi_spec::load_dir(&dir).unwrap();
//! let tables = xiangqi_spec::compile::compile(&spec).unwrap();
//! assert_eq!(tables.counts[xiangqi_spec::Role::Pawn.index()], 5);
//! ```

#![warn(missing_docs)]

pub mod codegen;
pub mod compile;
pub mod examples;
pub mod fingerprint;
pub mod load;
pub mod rules;
pub mod ruleset;
pub mod ruleset_compile;
pub mod schema;
pub mod vocab;

pub use load::{load_dir, load_str, locate, Loc, Problem, Spec, SpecError};
pub use vocab::{ByColor, Color, File, Piece, Rank, Role, Square};

/// Loads `dir`, compiles the tables and returns the generated Rust source.
pub fn generate_dir(dir: &std::path::Path) -> Result<String, SpecError> {
    let spec = load_dir(dir)?;
    let tables = compile::compile(&spec)?;
    Ok(codegen::generate(&tables))
}

#[cfg(test)]
mod tests;
