//! `xqrules suite export DIR`: a conformance suite that any engine can use without Rust.
//!
//! Files written:
//! - `perft.epd`: one line per position, `FEN ;D1 n ;D2 n ...`: the shared positions of
//!   spec/perft.yaml (published counts, and ours up to `--depth` where none is published) and
//!   the generated positions (our fast perft to `--depth`).
//! - `legal_moves.jsonl`: one JSON object per line, `{"id", "fen", "moves"}`, the moves sorted
//!   ICCS strings: the same positions plus every position of the generated games.
//! - `manifest.json`: what the suite contains and how it was made.
//! - `README.md`: how to run it.
//!
//! Extension point: the rule cases (repetition, perpetual check, chase) will be a further file,
//! [`RULES_FILE`], written by [`write_rule_cases`] once rule sets exist.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use serde::Serialize;
use thiserror::Error;
use xiangqi_rules::{Position, RankConvention};

use crate::engine_check::positions::{
    self, generated_game, generated_positions, shared_positions, PositionsError, TestPosition,
};

/// The future file of rule cases (JSON Lines), named here so that the manifest and the README
/// already point to it.
pub const RULES_FILE: &str = "rules.jsonl";

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
}

/// Why the export failed.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// The shared positions could not be read.
    #[error(transparent)]
    Positions(#[from] PositionsError),
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Our perft contradicts a published count: the suite would be wrong.
    #[error("{id} perft {depth}: our count {ours} differs from the published {published} in spec/perft.yaml; not exporting")]
    Contradiction {
        /// Position id.
        id: String,
        /// Depth.
        depth: u32,
        /// Our count.
        ours: u64,
        /// The published count.
        published: u64,
    },
}

/// Runs `xqrules suite ...`.
pub fn run(args: SuiteArgs) -> Result<(), String> {
    match args.command {
        SuiteCommand::Export(export_args) => {
            let summary = export(&export_args).map_err(|e| e.to_string())?;
            println!("{summary}");
            Ok(())
        }
    }
}

/// One line of legal_moves.jsonl.
#[derive(Serialize)]
struct LegalCase<'a> {
    id: &'a str,
    fen: &'a str,
    moves: Vec<String>,
}

/// manifest.json.
#[derive(Serialize)]
struct Manifest {
    format_version: u32,
    generator: String,
    move_notation: &'static str,
    fen: &'static str,
    seed: String,
    depth: u32,
    files: Vec<ManifestFile>,
}

#[derive(Serialize)]
struct ManifestFile {
    name: &'static str,
    status: &'static str,
    records: usize,
    description: &'static str,
}

fn write(path: &Path, text: &str) -> Result<(), SuiteError> {
    fs::write(path, text).map_err(|source| SuiteError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Depths below a published one that spec/perft.yaml leaves out are filled in with our perft
/// up to this depth, so that lines have no gaps in the cheap range.
const GAP_FILL_DEPTH: u32 = 4;

/// The EPD line of a position: `FEN ;D1 n ;D2 n ...`.
fn epd_line(
    position: &TestPosition,
    depth: u32,
    counts_out: &mut usize,
) -> Result<String, SuiteError> {
    let mut pos = Position::from_fen(&position.fen).map_err(|e| PositionsError::Fen {
        fen: position.fen.clone(),
        reason: e.to_string(),
    })?;
    let max_depth = position
        .published
        .iter()
        .map(|&(d, _)| d)
        .max()
        .unwrap_or(0)
        .max(depth);
    let mut line = position.fen.clone();
    for d in 1..=max_depth {
        // Ours at every depth up to `depth`, and in the gaps below a published depth while
        // cheap (up to GAP_FILL_DEPTH); published counts beyond.
        let count = if d <= depth || (d <= GAP_FILL_DEPTH && position.published_at(d).is_none()) {
            let ours = pos.perft(d);
            if let Some(published) = position.published_at(d) {
                if published != ours {
                    return Err(SuiteError::Contradiction {
                        id: position.id.clone(),
                        depth: d,
                        ours,
                        published,
                    });
                }
            }
            Some(ours)
        } else {
            position.published_at(d)
        };
        if let Some(n) = count {
            let _ = write!(line, " ;D{d} {n}");
            *counts_out += 1;
        }
    }
    Ok(line)
}

/// Sorted ICCS legal moves of a FEN.
fn legal_moves(fen: &str) -> Result<Vec<String>, SuiteError> {
    let pos = Position::from_fen(fen).map_err(|e| PositionsError::Fen {
        fen: fen.to_string(),
        reason: e.to_string(),
    })?;
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_iccs(RankConvention::Iccs))
        .collect();
    moves.sort();
    Ok(moves)
}

/// The rule cases. Rule sets do not exist yet: nothing is written. When they do, this writes
/// [`RULES_FILE`] (one JSON object per case: start FEN, moves, expected verdict, rule id) and
/// returns the number of cases.
fn write_rule_cases(_dir: &Path) -> Result<Option<usize>, SuiteError> {
    Ok(None)
}

/// Writes the suite into `args.dir`; returns a one-line summary.
pub fn export(args: &ExportArgs) -> Result<String, SuiteError> {
    fs::create_dir_all(&args.dir).map_err(|source| SuiteError::Io {
        path: args.dir.clone(),
        source,
    })?;
    let shared = shared_positions()?;
    let generated = generated_positions(args.seed, args.positions);

    let mut epd = String::new();
    let mut counts = 0;
    for position in shared.iter().chain(&generated) {
        epd.push_str(&epd_line(position, args.depth, &mut counts)?);
        epd.push('\n');
    }

    let mut jsonl = String::new();
    let mut seen = HashSet::new();
    let mut cases = 0;
    let mut push_case = |id: &str, fen: &str, out: &mut String| -> Result<(), SuiteError> {
        if !seen.insert(fen.to_string()) {
            return Ok(());
        }
        let case = LegalCase {
            id,
            fen,
            moves: legal_moves(fen)?,
        };
        // Serialising plain strings cannot fail; keep the error path total anyway.
        let line = serde_json::to_string(&case).unwrap_or_default();
        out.push_str(&line);
        out.push('\n');
        cases += 1;
        Ok(())
    };
    for position in shared.iter().chain(&generated) {
        push_case(&position.id, &position.fen, &mut jsonl)?;
    }
    for game in 0..args.positions {
        let g = generated_game(args.seed, game);
        for (ply, fen) in g.fens.iter().enumerate() {
            push_case(&format!("game-{game}-ply-{ply}"), fen, &mut jsonl)?;
        }
    }

    let rules = write_rule_cases(&args.dir)?;
    let positions_count = shared.len() + generated.len();
    let manifest = Manifest {
        format_version: 1,
        generator: format!("xqrules {} suite export", env!("CARGO_PKG_VERSION")),
        move_notation: "ICCS: file a-i from Red's left, rank 0-9 from Red's back rank (h2e2); Fairy-Stockfish UCI uses ranks 1-10 (h3e3)",
        fen: "<board> <side w|b> - - <halfmoves> <fullmoves>, rank 9 first, K A B N R C P, upper case Red",
        seed: format!("{:#x}", args.seed),
        depth: args.depth,
        files: vec![
            ManifestFile {
                name: "perft.epd",
                status: "present",
                records: positions_count,
                description: "FEN ;D1 n ;D2 n ...: leaf-node counts of the legal-move tree",
            },
            ManifestFile {
                name: "legal_moves.jsonl",
                status: "present",
                records: cases,
                description: "{\"id\", \"fen\", \"moves\"}: the legal moves, sorted ICCS",
            },
            ManifestFile {
                name: RULES_FILE,
                status: if rules.is_some() { "present" } else { "planned" },
                records: rules.unwrap_or(0),
                description: "rule cases (repetition, perpetual check, chase): not yet written",
            },
        ],
    };
    let manifest_text = serde_json::to_string_pretty(&manifest).unwrap_or_default();

    write(&args.dir.join("perft.epd"), &epd)?;
    write(&args.dir.join("legal_moves.jsonl"), &jsonl)?;
    write(&args.dir.join("manifest.json"), &(manifest_text + "\n"))?;
    write(
        &args.dir.join("README.md"),
        &readme(args, shared.len(), generated.len(), cases),
    )?;
    Ok(format!(
        "wrote {}: perft.epd ({positions_count} positions, {counts} counts), legal_moves.jsonl ({cases} positions), manifest.json, README.md",
        args.dir.display()
    ))
}

fn readme(args: &ExportArgs, shared: usize, generated: usize, cases: usize) -> String {
    format!(
        r#"# Xiangqi move-generation conformance suite

Exported by `xqrules suite export` (xiangqi-rules {version}). Everything here is plain text: any
engine, in any language, can check itself against it.

## Conventions

- FEN: `<board> <side> - - <halfmoves> <fullmoves>`; the board lists rank 9 (Black's back rank)
  first; letters K A B N R C P (king, advisor, elephant/bishop, horse/knight, rook, cannon,
  pawn), upper case Red; side `w` = Red, `b` = Black.
- Moves: ICCS coordinates, from-square then to-square: file `a`-`i` from Red's left, rank `0`-`9`
  from Red's back rank. `h2e2` is 炮二平五. Fairy-Stockfish's UCI mode numbers ranks 1-10
  (`h3e3`): add 1 to both ranks to compare with it.

## perft.epd

One position per line: `FEN ;D1 n1 ;D2 n2 ...`, where `nK` is the number of legal move
sequences of length K from the position (perft K). The first {shared} lines are the shared
positions of spec/perft.yaml (published counts, cross-checked with xiangqi-rules; depths the
file does not list are computed up to {depth}); the next {generated} are positions reached by
seeded random play from the start position (seed {seed:#x}), counted with xiangqi-rules to
depth {depth}.

To run it: for each line, split on ` ;`, set up the FEN, and compare your perft at each depth
with the number. A shell loop for a Stockfish-family engine that answers `go perft` (here
Fairy-Stockfish, which needs its variant option; put your engine's command and options):

```sh
depth=2
while IFS= read -r line; do
  fen=${{line%% ;*}}
  expected=$(printf '%s\n' "$line" | sed -n "s/.*;D$depth \([0-9]*\).*/\1/p")
  [ -n "$expected" ] || continue
  got=$(printf 'setoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\n' "$fen" "$depth" \
        | fairy-stockfish | sed -n 's/^Nodes searched: //p')
  [ "$got" = "$expected" ] || echo "perft $depth differs: $fen (expected $expected, got $got)"
done < perft.epd
```

## legal_moves.jsonl

One JSON object per line: `{{"id": "...", "fen": "...", "moves": ["a0a1", ...]}}`, the legal
moves sorted as strings. {cases} positions: the ones of perft.epd, then every position of the
seeded random games (`game-G-ply-P`). Compare your sorted legal-move list with `moves`: any
difference is a move-generation bug at exactly that position.

## Checking a UCI/UCCI engine directly

With xiangqi-rules installed, `xqrules engine-check --engine "CMD ARGS"` runs these checks on a
live engine and descends to the exact position and move of any disagreement, e.g.

```sh
xqrules engine-check --engine /usr/games/fairy-stockfish --setoption UCI_Variant=xiangqi --ranks 1-10
```

## Rule cases ({rules})

Move generation is only half of the rules. The rule-handling cases (repetition, perpetual
check, chase) will be added as `{rules}`, one JSON object per case,
once the rule sets exist. `manifest.json` lists it with status `planned` until then.
"#,
        version = env!("CARGO_PKG_VERSION"),
        depth = args.depth,
        seed = args.seed,
        rules = RULES_FILE,
    )
}
