//! `xqrules convert`: move notations (ICCS, Chinese, WXF) from one to another.

use clap::{Args, ValueEnum};
use xiangqi_rules::notation::{
    format_move, parse_move, BlackDigits, Charset, ChineseStyle, Format, SideNumbering, Style,
    WxfStyle,
};
use xiangqi_rules::Position;

/// Arguments of `convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Position in Xiangqi FEN (default: the start position, art. 1.3).
    #[arg(long)]
    fen: Option<String>,
    /// Notation of the input moves (auto: guessed per move).
    #[arg(long, value_enum, default_value_t = From::Auto)]
    from: From,
    /// Notation to print.
    #[arg(long, value_enum)]
    to: To,
    /// Print simplified Chinese characters (马 车 进 后) instead of the traditional ones.
    #[arg(long)]
    simplified: bool,
    /// Name Red's horse and rook 馬 and 車, as the CXA rule book prints them (default: 傌 and
    /// 俥, the characters of spec/pieces.yaml that tell the sides apart).
    #[arg(long, conflicts_with = "simplified")]
    book_names: bool,
    /// Print Black's numbers as ASCII digits instead of full-width ones (Chinese output).
    #[arg(long)]
    ascii_digits: bool,
    /// Instead of MOVES, print every legal move of the position (sorted by ICCS).
    #[arg(long)]
    legal: bool,
    /// Output: one converted move per line (text), or one JSON object per line with the
    /// ICCS move, the converted text and the FEN after the move (jsonl).
    #[arg(long, value_enum, default_value_t = OutFormat::Text)]
    format: OutFormat,
    /// The moves, played in sequence from the position.
    moves: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum From {
    Iccs,
    Chinese,
    Wxf,
    Auto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum To {
    Iccs,
    Chinese,
    Wxf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutFormat {
    Text,
    Jsonl,
}

fn format_of(to: To) -> Format {
    match to {
        To::Iccs => Format::Iccs,
        To::Chinese => Format::Chinese,
        To::Wxf => Format::Wxf,
    }
}

fn line(
    out: &mut String,
    fmt: OutFormat,
    iccs: &str,
    text: &str,
    after: &Position,
) -> Result<(), String> {
    match fmt {
        OutFormat::Text => {
            out.push_str(text);
            out.push('\n');
        }
        OutFormat::Jsonl => {
            let v = serde_json::json!({ "iccs": iccs, "text": text, "fen": after.to_fen() });
            out.push_str(&serde_json::to_string(&v).map_err(|e| e.to_string())?);
            out.push('\n');
        }
    }
    Ok(())
}

/// Runs `convert`: exit 2 (through the caller) with the 1-based index and the reason at the
/// first bad move.
pub fn run(args: ConvertArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("--fen: {e}"))?,
        None => Position::startpos(),
    };
    let style = Style {
        chinese: ChineseStyle {
            charset: if args.simplified {
                Charset::Simplified
            } else if args.book_names {
                Charset::Book
            } else {
                Charset::Traditional
            },
            black_digits: if args.ascii_digits {
                BlackDigits::Ascii
            } else {
                BlackDigits::FullWidth
            },
        },
        wxf: WxfStyle::default(),
    };
    let to = format_of(args.to);
    let mut out = String::new();
    if args.legal {
        if !args.moves.is_empty() {
            return Err("--legal takes no MOVES".to_string());
        }
        let mut moves: Vec<_> = pos.legal_moves().to_vec();
        moves.sort();
        for m in moves {
            let text = format_move(&pos, m, to, &style).map_err(|e| e.to_string())?;
            let mut after = pos.clone();
            after.play(m);
            line(&mut out, args.format, &m.to_string(), &text, &after)?;
        }
        out!("{out}");
        return Ok(());
    }
    let mut p = pos;
    let mut numbering = SideNumbering::default();
    for (i, text) in args.moves.iter().enumerate() {
        let from = match args.from {
            From::Iccs => Format::Iccs,
            From::Chinese => Format::Chinese,
            From::Wxf => Format::Wxf,
            From::Auto => Format::detect(text),
        };
        let bad = |e: String| {
            // Print what was converted before the bad move, then fail.
            out!("{out}");
            format!("move {} {text:?}: {e}", i + 1)
        };
        let m = parse_move(&p, text, from).map_err(|e| bad(e.to_string()))?;
        if let Err((index, e)) = numbering.check(i + 1, text, from, p.turn()) {
            out!("{out}");
            return Err(format!("move {index}: {e}"));
        }
        let converted = format_move(&p, m, to, &style).map_err(|e| bad(e.to_string()))?;
        p.play(m);
        line(&mut out, args.format, &m.to_string(), &converted, &p)?;
    }
    out!("{out}");
    Ok(())
}
