//! Any bytes: the PGN reader never panics (UTF-8 or GB18030), and every game it reads is
//! written back and read again to the same game: always in ICCS, and in Chinese and WXF
//! whenever those can name every move (they always can with the standard material).
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_rules::notation::Format;
use xiangqi_rules::record::pgn;

fuzz_target!(|data: &[u8]| {
    let text = xiangqi_rules::record::decode_text(data).0;
    for game in pgn::read_games(&text).into_iter().flatten() {
        for format in [Format::Iccs, Format::Chinese, Format::Wxf] {
            let out = match pgn::write_pgn(&game, format, &Default::default()) {
                Ok(out) => out,
                Err(e) if format != Format::Iccs => {
                    let _ = e;
                    continue;
                }
                Err(e) => panic!("a read game writes in ICCS: {e}"),
            };
            let back = pgn::read_pgn(&out).expect("a written game reads");
            assert_eq!(back.len(), 1, "{out}");
            assert_eq!(back[0].moves, game.moves, "{out}");
            assert_eq!(back[0].start_fen, game.start_fen, "{out}");
            assert_eq!(back[0].result, game.result, "{out}");
        }
    }
});
