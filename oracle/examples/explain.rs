//! Prints why moves are illegal: `cargo run -p xiangqi-oracle --example explain -- FEN MOVE...`.
use xiangqi_oracle::{Board, OMove, Spec};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = Spec::embedded();
    let (board, moves) = match args.first() {
        Some(fen) if fen.contains('/') => {
            (Board::from_fen(spec, fen).expect("valid FEN"), &args[1..])
        }
        _ => (Board::start(spec), &args[..]),
    };
    for text in moves {
        match OMove::parse_iccs(text) {
            Err(e) => println!("{text}: {e}"),
            Ok(m) => match board.check_move(m) {
                Ok(()) => println!("{m}: legal"),
                Err(e) => println!("{m}: {e}"),
            },
        }
    }
}
