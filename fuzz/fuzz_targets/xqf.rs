//! Any bytes: the XQF reader never panics, and a file it reads is written back (plain and
//! obfuscated) and read again to the same moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use xiangqi_rules::record::xqf::{read_xqf, write_xqf, XqfWriteOptions};

fuzz_target!(|data: &[u8]| {
    if let Ok(game) = read_xqf(data) {
        for version in [10, 18] {
            let opts = XqfWriteOptions {
                version,
                key_seed: data.len() as u8,
            };
            let bytes = write_xqf(&game, &opts).expect("a read game writes");
            let back = read_xqf(&bytes).expect("a written game reads");
            assert_eq!(back.moves, game.moves);
            assert_eq!(back.start_fen, game.start_fen);
            assert_eq!(back.result, game.result);
        }
    }
});
