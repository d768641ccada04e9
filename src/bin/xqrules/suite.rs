//! `xqrules suite export DIR`: the arguments and the printing of
//! `xiangqi_rules::conformance::suite`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use xiangqi_rules::conformance::positions;
use xiangqi_rules::conformance::suite::{export, ExportOptions};

/// The language-agnostic conformance suite.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    #[command(subcommand)]
    pub command: SuiteCommand,
}

/// What `xqrules suite` does.
#[derive(Debug, Subcommand)]
pub enum SuiteCommand {
    /// Write the conformance suite (perft.epd, legal_moves.jsonl, manifest.json, README.md)
    /// into DIR, creating it if needed.
    Export(ExportArgs),
}

/// Where and how deep to export.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output directory.
    pub dir: PathBuf,
    /// Depth of the counts computed with our perft (generated positions, and shared positions
    /// at depths spec/perft.yaml does not list).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// How many positions to generate by seeded random play.
    #[arg(long, default_value_t = positions::DEFAULT_GENERATED)]
    pub positions: usize,
    /// Seed of the generated positions (decimal or 0x-hexadecimal); the default is the one
    /// engine-check uses.
    #[arg(long, default_value = positions::DEFAULT_SEED, value_parser = crate::engine_check::parse_seed)]
    pub seed: u64,
    /// The spec directory whose worked examples with a ruling become `rules.jsonl` (default: the
    /// spec built into xqrules).
    #[arg(long)]
    pub spec: Option<PathBuf>,
}

/// Runs `xqrules suite ...`.
pub fn run(args: SuiteArgs) -> Result<(), String> {
    match args.command {
        SuiteCommand::Export(a) => {
            let options = ExportOptions {
                spec: crate::spec_dir(a.spec.as_deref())?,
                dir: a.dir,
                depth: a.depth,
                positions: a.positions,
                seed: a.seed,
            };
            let summary = export(&options).map_err(|e| e.to_string())?;
            outln!("{summary}");
            Ok(())
        }
    }
}
