//! `xqrules`: the command line of xiangqi-rules.
//!
//! The forms of every sub-command are a contract that other tools rely on: see the README.
//! Errors go to stderr with exit code 2.

/// `print!` that ends the process quietly on a closed pipe (see the `out` module).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), false)
    };
}

/// `println!` that ends the process quietly on a closed pipe (see the `out` module).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), true)
    };
}

mod convert;
mod engine_check;
mod engines;
mod judge;
mod out;
mod progress;
mod spec_tools;
mod suite;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use engines::{EngineKind, Ranks};

/// The version line: the crate's version and the hash of the spec built in (the rules every
/// ruling without `--spec` is made under; JSON judgements carry it as `spec_hash`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (spec ",
    env!("XQ_SPEC_HASH"),
    ")"
);

/// Executable specification of the Xiangqi (Chinese chess) competition rules.
#[derive(Debug, Parser)]
#[command(name = "xqrules", version = VERSION, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree to a depth (perft).
    ///
    /// The last line of stdout is the total node count, digits only. With --divide, one
    /// `move: count` line per root move comes first, sorted by move.
    Perft(PerftArgs),
    /// Print the legal moves of a position in ICCS, one per line, sorted.
    Legal(LegalArgs),
    /// Print a position as a text board.
    Show(ShowArgs),
    /// Check a UCI/UCCI engine's move generation against ours (perft with divide descent).
    ///
    /// Exit code 0: all agree; 1: disagreements found; 2: the check could not run.
    EngineCheck(engine_check::EngineCheckArgs),
    /// Export a language-agnostic conformance suite.
    Suite(suite::SuiteArgs),
    /// Rule on a move sequence with the repetition rules (棋例): classes, patterns, ruling.
    ///
    /// Exit code 0 for any result; 2 for bad input (the move index and the reason).
    Judge(judge::JudgeArgs),
    /// Convert moves between notations (ICCS, Chinese 炮二平五, WXF C2=5), one per line.
    ///
    /// The moves are played in sequence; exit code 2 with the move index and reason at the first bad one.
    Convert(convert::ConvertArgs),
    /// Spec tooling for rules committees: `spec check [DIR]`, `spec diff OLD NEW`,
    /// `spec index OUT.html`.
    ///
    /// `spec check` exit code: 0 clean, 1 problems found (`file:line:column: reason` on stderr),
    /// 2 the check could not run. `spec diff`: 0 nothing changed, 1 changes, 2 error.
    Spec(spec_tools::SpecArgs),
    /// Draw every worked example as an SVG diagram, with an HTML index (default: diagrams/).
    Diagram(spec_tools::DiagramArgs),
}

#[derive(Debug, Args)]
struct PositionArgs {
    /// Position in Xiangqi FEN (default: the start position, art. 1.3).
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play from the position first, space-separated (ICCS, in the --ranks numbering).
    /// An illegal move is reported with its 1-based index and the reason.
    #[arg(long)]
    moves: Option<String>,
    /// Accept analysis positions: skip the piece-count, placement and check validations of the
    /// FEN, and say on stderr which ones were relaxed.
    #[arg(long)]
    lenient: bool,
}

impl PositionArgs {
    fn start(&self) -> engines::Start<'_> {
        engines::Start {
            fen: self.fen.as_deref(),
            moves: self.moves.as_deref(),
            lenient: self.lenient,
        }
    }
}

#[derive(Debug, Args)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print one `move: count` line per root move before the total.
    #[arg(long)]
    divide: bool,
    /// Which implementation counts.
    #[arg(long, value_enum, default_value_t = EngineKind::Fast)]
    engine: EngineKind,
    /// Rank numbering of printed moves: 0-9 (ICCS) or 1-10 (Fairy-Stockfish UCI).
    #[arg(long, value_enum, default_value_t = Ranks::Iccs)]
    ranks: Ranks,
}

#[derive(Debug, Args)]
struct LegalArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Which implementation generates the moves.
    #[arg(long, value_enum, default_value_t = EngineKind::Fast)]
    engine: EngineKind,
    /// Rank numbering of printed moves: 0-9 (ICCS) or 1-10 (Fairy-Stockfish UCI).
    #[arg(long, value_enum, default_value_t = Ranks::Iccs)]
    ranks: Ranks,
}

#[derive(Debug, Args)]
struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Piece names: ASCII letters or Chinese characters.
    #[arg(long, value_enum, default_value_t = Names::Letters)]
    names: Names,
}

/// How `show` names the pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Names {
    /// FEN letters, upper case for Red.
    Letters,
    /// Chinese characters (traditional), as printed in the rule book.
    Chinese,
}

/// From this depth on, `perft` shows a progress bar over the root moves (on a terminal).
const DEEP_PERFT: u32 = 4;

/// The spec directory a command reads (`xiangqi_rules::builtin_spec::or_builtin`).
use xiangqi_rules::builtin_spec::or_builtin as spec_dir;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("xqrules: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs a sub-command. `Err` is printed with exit code 2 (bad input); commands with their own
/// exit codes (engine-check, spec, diagram, judge --game) return them.
fn run(cli: Cli) -> Result<ExitCode, String> {
    let done = |()| ExitCode::SUCCESS;
    match cli.command {
        Command::EngineCheck(args) => Ok(engine_check::run(args)),
        Command::Spec(args) => Ok(spec_tools::run_spec(args)),
        Command::Diagram(args) => Ok(spec_tools::run_diagram(args)),
        Command::Suite(args) => suite::run(args).map(done),
        Command::Judge(args) => judge::run(args).map(|all_judged| {
            if all_judged {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }),
        Command::Convert(args) => convert::run(args).map(done),
        Command::Perft(args) => {
            let engine = args.engine.engine();
            // A deep perft shows a bar over the root moves (on a terminal only).
            let mut bar = progress::Bar::unless(args.depth < DEEP_PERFT, "moves");
            let result = engine.perft(
                &args.position.start(),
                args.depth,
                args.divide,
                args.ranks,
                &mut bar,
            )?;
            drop(bar);
            let mut out = String::new();
            for (mv, count) in &result.divide {
                out.push_str(&format!("{mv}: {count}\n"));
            }
            out.push_str(&format!("{}\n", result.total));
            out!("{out}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Legal(args) => {
            let engine = args.engine.engine();
            let moves = engine.legal(&args.position.start(), args.ranks)?;
            let mut out = String::new();
            for mv in moves {
                out.push_str(&mv);
                out.push('\n');
            }
            out!("{out}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Show(args) => {
            let text = engines::show(&args.position.start(), args.names == Names::Chinese)?;
            out!("{text}");
            Ok(ExitCode::SUCCESS)
        }
    }
}
