//! `xqrules judge`: rule on a position and a move sequence with the repetition rules (棋例) of
//! a rule set (`spec/rules/<id>.yaml`), move by move, with the articles that decide.
//!
//! Exit code 0 for any ruling; 2 for bad input (FEN, a move with its 1-based index, rule set,
//! example id, spec directory) and for `--engine fast`, which does not exist yet.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use xiangqi_oracle::judge::{explain, judge, RuleSet};
use xiangqi_oracle::{Board, OMove, Spec};

/// Arguments of `xqrules judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Rule set: cxa-1999 or cxa-2011 (with --example: defaults to the example's).
    #[arg(long)]
    rules: Option<String>,
    /// Start position in Xiangqi FEN (default: the start position, or the example's).
    #[arg(long)]
    fen: Option<String>,
    /// The moves in ICCS, separated by spaces or commas (default: the example's `moves_full`).
    #[arg(long)]
    moves: Option<String>,
    /// A bundled worked example, e.g. cxa-1999/fig03 or cxa-2011/fig29-var.
    #[arg(long)]
    example: Option<String>,
    /// Which implementation rules (only the oracle exists so far).
    #[arg(long, value_enum, default_value_t = JudgeEngine::Oracle)]
    engine: JudgeEngine,
    /// Output: an explanation in English (text) or the JSON contract (json).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// A spec directory (an amended copy of spec/): rules from DIR/rules, board and pieces from
    /// DIR, read at run time instead of the embedded copy.
    #[arg(long)]
    spec: Option<PathBuf>,
}

/// Which adjudicator answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum JudgeEngine {
    /// The reference implementation (xiangqi-oracle).
    Oracle,
    /// The fast adjudicator (not yet implemented).
    Fast,
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// English explanation with the Chinese terms.
    Text,
    /// The JSON contract (see the README).
    Json,
}

/// The bundled CXA worked examples (`spec/examples/`), by id.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "cxa-1999/fig01",
        include_str!("../../../spec/examples/cxa-1999/fig01.yaml"),
    ),
    (
        "cxa-1999/fig02",
        include_str!("../../../spec/examples/cxa-1999/fig02.yaml"),
    ),
    (
        "cxa-1999/fig03",
        include_str!("../../../spec/examples/cxa-1999/fig03.yaml"),
    ),
    (
        "cxa-1999/fig04",
        include_str!("../../../spec/examples/cxa-1999/fig04.yaml"),
    ),
    (
        "cxa-1999/fig05",
        include_str!("../../../spec/examples/cxa-1999/fig05.yaml"),
    ),
    (
        "cxa-1999/fig06",
        include_str!("../../../spec/examples/cxa-1999/fig06.yaml"),
    ),
    (
        "cxa-1999/fig07",
        include_str!("../../../spec/examples/cxa-1999/fig07.yaml"),
    ),
    (
        "cxa-1999/fig08",
        include_str!("../../../spec/examples/cxa-1999/fig08.yaml"),
    ),
    (
        "cxa-1999/fig09",
        include_str!("../../../spec/examples/cxa-1999/fig09.yaml"),
    ),
    (
        "cxa-1999/fig10",
        include_str!("../../../spec/examples/cxa-1999/fig10.yaml"),
    ),
    (
        "cxa-1999/fig11",
        include_str!("../../../spec/examples/cxa-1999/fig11.yaml"),
    ),
    (
        "cxa-1999/fig12",
        include_str!("../../../spec/examples/cxa-1999/fig12.yaml"),
    ),
    (
        "cxa-1999/fig13",
        include_str!("../../../spec/examples/cxa-1999/fig13.yaml"),
    ),
    (
        "cxa-1999/fig14",
        include_str!("../../../spec/examples/cxa-1999/fig14.yaml"),
    ),
    (
        "cxa-1999/fig15",
        include_str!("../../../spec/examples/cxa-1999/fig15.yaml"),
    ),
    (
        "cxa-1999/fig16",
        include_str!("../../../spec/examples/cxa-1999/fig16.yaml"),
    ),
    (
        "cxa-2011/fig2",
        include_str!("../../../spec/examples/cxa-2011/fig2.yaml"),
    ),
    (
        "cxa-2011/fig3",
        include_str!("../../../spec/examples/cxa-2011/fig3.yaml"),
    ),
    (
        "cxa-2011/fig4",
        include_str!("../../../spec/examples/cxa-2011/fig4.yaml"),
    ),
    (
        "cxa-2011/fig5",
        include_str!("../../../spec/examples/cxa-2011/fig5.yaml"),
    ),
    (
        "cxa-2011/fig6",
        include_str!("../../../spec/examples/cxa-2011/fig6.yaml"),
    ),
    (
        "cxa-2011/fig7",
        include_str!("../../../spec/examples/cxa-2011/fig7.yaml"),
    ),
    (
        "cxa-2011/fig8",
        include_str!("../../../spec/examples/cxa-2011/fig8.yaml"),
    ),
    (
        "cxa-2011/fig9",
        include_str!("../../../spec/examples/cxa-2011/fig9.yaml"),
    ),
    (
        "cxa-2011/fig10",
        include_str!("../../../spec/examples/cxa-2011/fig10.yaml"),
    ),
    (
        "cxa-2011/fig11",
        include_str!("../../../spec/examples/cxa-2011/fig11.yaml"),
    ),
    (
        "cxa-2011/fig12",
        include_str!("../../../spec/examples/cxa-2011/fig12.yaml"),
    ),
    (
        "cxa-2011/fig13",
        include_str!("../../../spec/examples/cxa-2011/fig13.yaml"),
    ),
    (
        "cxa-2011/fig14",
        include_str!("../../../spec/examples/cxa-2011/fig14.yaml"),
    ),
    (
        "cxa-2011/fig15",
        include_str!("../../../spec/examples/cxa-2011/fig15.yaml"),
    ),
    (
        "cxa-2011/fig16",
        include_str!("../../../spec/examples/cxa-2011/fig16.yaml"),
    ),
    (
        "cxa-2011/fig17",
        include_str!("../../../spec/examples/cxa-2011/fig17.yaml"),
    ),
    (
        "cxa-2011/fig18",
        include_str!("../../../spec/examples/cxa-2011/fig18.yaml"),
    ),
    (
        "cxa-2011/fig19",
        include_str!("../../../spec/examples/cxa-2011/fig19.yaml"),
    ),
    (
        "cxa-2011/fig20",
        include_str!("../../../spec/examples/cxa-2011/fig20.yaml"),
    ),
    (
        "cxa-2011/fig21",
        include_str!("../../../spec/examples/cxa-2011/fig21.yaml"),
    ),
    (
        "cxa-2011/fig22",
        include_str!("../../../spec/examples/cxa-2011/fig22.yaml"),
    ),
    (
        "cxa-2011/fig23",
        include_str!("../../../spec/examples/cxa-2011/fig23.yaml"),
    ),
    (
        "cxa-2011/fig24",
        include_str!("../../../spec/examples/cxa-2011/fig24.yaml"),
    ),
    (
        "cxa-2011/fig25",
        include_str!("../../../spec/examples/cxa-2011/fig25.yaml"),
    ),
    (
        "cxa-2011/fig26",
        include_str!("../../../spec/examples/cxa-2011/fig26.yaml"),
    ),
    (
        "cxa-2011/fig27",
        include_str!("../../../spec/examples/cxa-2011/fig27.yaml"),
    ),
    (
        "cxa-2011/fig28",
        include_str!("../../../spec/examples/cxa-2011/fig28.yaml"),
    ),
    (
        "cxa-2011/fig29",
        include_str!("../../../spec/examples/cxa-2011/fig29.yaml"),
    ),
    (
        "cxa-2011/fig30",
        include_str!("../../../spec/examples/cxa-2011/fig30.yaml"),
    ),
    (
        "cxa-2011/fig29-var",
        include_str!("../../../spec/examples/cxa-2011/fig29-var.yaml"),
    ),
    (
        "cxa-2011/fig30-var",
        include_str!("../../../spec/examples/cxa-2011/fig30-var.yaml"),
    ),
];

/// What an example provides.
struct Example {
    rules: String,
    fen: String,
    moves: Vec<String>,
}

fn load_example(id: &str) -> Result<Example, String> {
    let text = EXAMPLES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            format!(
                "unknown example {id:?} (known: {})",
                EXAMPLES
                    .iter()
                    .map(|(i, _)| *i)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let y: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| format!("example {id}: {e}"))?;
    let field = |k: &str| {
        y.get(k)
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("example {id}: no field {k}"))
    };
    let moves = y
        .get("moves_full")
        .and_then(|v| v.as_sequence())
        .ok_or_else(|| format!("example {id}: no moves_full"))?
        .iter()
        .filter_map(|m| m.as_str().map(str::to_string))
        .collect();
    Ok(Example {
        rules: field("rules")?,
        fen: field("fen")?,
        moves,
    })
}

/// Runs `xqrules judge`; `Err` is printed with exit code 2.
pub fn run(args: JudgeArgs) -> Result<(), String> {
    if args.engine == JudgeEngine::Fast {
        return Err("judge --engine fast: not yet implemented: use --engine oracle".to_string());
    }
    let example = args.example.as_deref().map(load_example).transpose()?;
    let rules_id = args
        .rules
        .clone()
        .or_else(|| example.as_ref().map(|e| e.rules.clone()))
        .ok_or("judge: --rules cxa-1999|cxa-2011 (or --example ID) is required")?;
    let (rules, spec) = match &args.spec {
        Some(dir) => (
            RuleSet::load_dir(&rules_id, &dir.join("rules")).map_err(|e| e.to_string())?,
            Spec::load_dir(dir).map_err(|e| format!("spec {}: {e}", dir.display()))?,
        ),
        None => (
            RuleSet::embedded(&rules_id).map_err(|e| e.to_string())?,
            Spec::embedded().clone(),
        ),
    };
    let fen = args
        .fen
        .clone()
        .or_else(|| example.as_ref().map(|e| e.fen.clone()));
    let start = match &fen {
        Some(f) => Board::from_fen(&spec, f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Board::start(&spec),
    };
    let texts: Vec<String> = match (&args.moves, &example) {
        (Some(m), _) => m
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        (None, Some(e)) => e.moves.clone(),
        (None, None) => {
            return Err("judge: --moves \"m1 m2 ...\" (or --example ID) is required".into())
        }
    };
    let moves: Vec<OMove> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| OMove::parse_iccs(t).map_err(|e| format!("move {} {t:?}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let j = judge(&rules, &start, &moves).map_err(|e| e.to_string())?;
    match args.format {
        Format::Json => {
            let s = serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?;
            println!("{s}");
        }
        Format::Text => print!("{}", explain(&j, &start)),
    }
    Ok(())
}
