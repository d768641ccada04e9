//! `xqrules`: the command line of xiangqi-rules.
//!
//! The forms of every sub-command are a contract that other tools rely on: see the README.
//! Errors go to stderr with exit code 2.

mod engines;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use engines::{EngineKind, Ranks};

/// Executable specification of the Xiangqi (Chinese chess) competition rules.
#[derive(Debug, Parser)]
#[command(name = "xqrules", version, about, long_about = None)]
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
}

#[derive(Debug, Args)]
struct PositionArgs {
    /// Position in Xiangqi FEN (default: the start position, art. 1.3).
    #[arg(long)]
    fen: Option<String>,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xqrules: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft(args) => {
            let fen = args.position.fen.as_deref();
            let engine = args.engine.engine();
            let result = engine.perft(fen, args.depth, args.divide, args.ranks)?;
            let mut out = String::new();
            for (mv, count) in &result.divide {
                out.push_str(&format!("{mv}: {count}\n"));
            }
            out.push_str(&format!("{}\n", result.total));
            print!("{out}");
            Ok(())
        }
        Command::Legal(args) => {
            let engine = args.engine.engine();
            let moves = engine.legal(args.position.fen.as_deref(), args.ranks)?;
            let mut out = String::new();
            for mv in moves {
                out.push_str(&mv);
                out.push('\n');
            }
            print!("{out}");
            Ok(())
        }
        Command::Show(args) => {
            let text = engines::show(args.position.fen.as_deref(), args.names == Names::Chinese)?;
            print!("{text}");
            Ok(())
        }
    }
}
