//! `xqrules judge`: rule on a position and a move sequence with the repetition rules (棋例) of
//! a rule set (`spec/rules/<id>.yaml`), move by move, with the articles that decide.
//!
//! Two engines give the same rulings (the same JSON, byte for byte; `tests/judge_diff.rs`):
//! `fast` (default, `xiangqi_rules::judge`, rule sets compiled in by build.rs) and `oracle` (the
//! reference, which also reads an amended spec directory at run time with `--spec`).
//!
//! Every mode reads its input the same way: `--rules` (default cxa-1999, or the example's),
//! `--ranks`, `--lenient`; and every JSON judgement has the same keys in the same order, ending
//! with `moves_after_end` (moves the judge did not look at because the game had ended or was
//! suspended for a ruling) and `spec_hash` (the rules it was made under).
//!
//! Exit code 0 for any ruling; 2 for bad input (FEN, a move with its 1-based index, rule set,
//! example id, spec directory, `--spec` with the fast engine); 1 when some case of `--batch` or
//! record of `--game` could not be judged (each is reported on its own line).

use std::io::BufRead;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::Value;
use xiangqi_rules::judging::{batch_case, load_example, split_moves, Judge, DEFAULT_RULES};

use crate::engines::Ranks;

/// Arguments of `xqrules judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Rule set: cxa-1999, cxa-2011 or axf. Default: the example's with --example, else
    /// cxa-1999 (in every mode; the JSON names it in `rules`).
    #[arg(long)]
    rules: Option<String>,
    /// Start position in Xiangqi FEN (default: the start position, or the example's).
    #[arg(long)]
    fen: Option<String>,
    /// The moves in ICCS (in the --ranks numbering), separated by spaces or commas (default: the
    /// example's `moves_full`).
    #[arg(long)]
    moves: Option<String>,
    /// A bundled worked example, e.g. cxa-1999/fig03, cxa-2011/fig29-var or axf/O46.
    #[arg(long)]
    example: Option<String>,
    /// Which implementation rules: the fast adjudicator or the reference oracle (needed for
    /// --spec). Default: fast (every bundled rule set: cxa-1999, cxa-2011, axf); the oracle
    /// with --spec.
    #[arg(long, value_enum)]
    engine: Option<JudgeEngine>,
    /// Output: an explanation in English (text) or the JSON contract (json).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// A spec directory (an amended copy of spec/): rules from DIR/rules, board and pieces from
    /// DIR, read at run time instead of the embedded copy. Only with --engine oracle (the fast
    /// engine's rule sets are compiled in).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Rank numbering of the moves read (--moves, --batch): 0-9 (ICCS) or 1-10
    /// (Fairy-Stockfish UCI). The output is in ICCS.
    #[arg(long, value_enum, default_value_t = Ranks::Iccs)]
    ranks: Ranks,
    /// Accept analysis positions: skip the piece-count, placement and check validations of the
    /// FEN, and say on stderr which ones were relaxed.
    #[arg(long)]
    lenient: bool,
    /// Game records to judge: PGN files (several games each, UTF-8 or GBK), XQF files (both
    /// recognised by content), directories (read recursively for *.pgn and *.xqf), or - for
    /// stdin. One game prints its explanation (or JSON); more print one JSON line per game,
    /// judged or an error, with a progress bar on stderr. A record whose Result differs from
    /// the ruling is said so. Exit 1 when a record could not be judged.
    #[arg(long, num_args = 1.., conflicts_with_all = ["example", "moves", "fen"])]
    game: Vec<PathBuf>,
    /// Many cases at once, as JSON lines (FILE, or - for stdin): each line an object
    /// `{"id": any, "fen": "...", "moves": "m1 m2 ..." or ["m1", ...]}`. Prints one JSON line
    /// per input line: `{"id": .., "judgement": {..}}` or `{"id": .., "line": N, "error": ".."}`
    /// (a line that is not UTF-8 or not JSON too). Exit 1 when some case could not be judged.
    #[arg(long, conflicts_with_all = ["example", "moves", "fen", "game"])]
    batch: Option<PathBuf>,
}

/// Which adjudicator answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum JudgeEngine {
    /// The reference implementation (xiangqi-oracle).
    Oracle,
    /// The fast adjudicator (xiangqi_rules::judge), the default.
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

impl JudgeArgs {
    /// The engine that rules: the one asked for, else the oracle with `--spec` (an amended
    /// spec is read at run time), else the fast engine (an unknown rule set is then an error
    /// naming the compiled ones).
    fn engine(&self) -> JudgeEngine {
        match self.engine {
            Some(e) => e,
            None if self.spec.is_some() => JudgeEngine::Oracle,
            None => JudgeEngine::Fast,
        }
    }

    /// The judge of these arguments for rule set `rules_id`.
    fn judge(&self, rules_id: &str) -> Result<Judge, String> {
        match self.engine() {
            JudgeEngine::Fast => Judge::fast(rules_id),
            JudgeEngine::Oracle => Judge::oracle(rules_id, self.spec.as_deref()),
        }
    }
}

/// Runs `xqrules judge`; `Err` is printed with exit code 2. `Ok(false)`: some cases or game
/// records could not be judged (each reported on stdout), exit code 1.
pub fn run(args: JudgeArgs) -> Result<bool, String> {
    if args.engine == Some(JudgeEngine::Fast) {
        if let Some(dir) = &args.spec {
            return Err(format!(
                "judge --spec {}: the fast engine's rule sets are compiled in from spec/rules at \
                 build time; to judge with an amended spec directory use --engine oracle",
                dir.display()
            ));
        }
    }
    if !args.game.is_empty() {
        return games::run(&args);
    }
    if let Some(path) = &args.batch {
        return run_batch(&args, path);
    }
    let example = args.example.as_deref().map(load_example).transpose()?;
    let rules_id = args
        .rules
        .clone()
        .or_else(|| example.as_ref().map(|e| e.rules.clone()))
        .unwrap_or_else(|| DEFAULT_RULES.to_string());
    let fen = args
        .fen
        .clone()
        .or_else(|| example.as_ref().map(|e| e.fen.clone()));
    let texts: Vec<String> = match (&args.moves, &example) {
        (Some(m), _) => split_moves(m),
        (None, Some(e)) => e.moves.clone(),
        (None, None) => {
            return Err(
                "judge: --moves \"m1 m2 ...\" (or --example ID, --game, --batch) is required"
                    .into(),
            )
        }
    };
    let judge = args.judge(&rules_id)?;
    let j = judge.moves(
        fen.as_deref(),
        &texts,
        args.ranks.convention(),
        args.lenient,
        true,
    )?;
    for note in &j.notes {
        eprintln!("xqrules: note: {note}");
    }
    print_one(args.format, &j.json, &j.text);
    Ok(true)
}

/// Prints one judgement: the JSON contract, or the explanation with a warning on stderr for
/// the moves after the end.
fn print_one(format: Format, j: &Value, text: &str) {
    match format {
        Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        ),
        Format::Text => {
            out!("{text}");
            let after = j
                .get("moves_after_end")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            if after > 0 {
                let ply = j.get("ply").and_then(Value::as_u64).unwrap_or(0);
                eprintln!(
                    "xqrules: warning: {after} move{} after ply {ply} not judged: judging ends \
                     where the rules end the game or suspend it for a ruling",
                    if after == 1 { "" } else { "s" }
                );
            }
        }
    }
}

/// `judge --batch`: JSON lines in, one JSON line out per input line; `Ok(false)` when a case
/// failed.
fn run_batch(args: &JudgeArgs, path: &std::path::Path) -> Result<bool, String> {
    let rules_id = args.rules.as_deref().unwrap_or(DEFAULT_RULES);
    let judge = args.judge(rules_id)?;
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?,
        ))
    };
    let mut ok = true;
    // Lines are read as bytes: a line that is not UTF-8 is one bad case, not the end of the
    // batch.
    for (n, line) in reader.split(b'\n').enumerate() {
        let line = match line {
            Ok(bytes) => bytes,
            Err(e) => {
                // The input itself failed (not one line of it): report where, and stop.
                let error = format!("cannot read {}: {e}", path.display());
                outln!(
                    "{}",
                    serde_json::json!({"id": null, "line": n + 1, "error": error})
                );
                return Ok(false);
            }
        };
        let line = match String::from_utf8(line) {
            Ok(text) => text,
            Err(e) => {
                ok = false;
                let at = e.utf8_error().valid_up_to();
                let error = format!(
                    "not UTF-8 text: byte {:#04x} at column {}",
                    e.as_bytes()[at],
                    at + 1
                );
                outln!(
                    "{}",
                    serde_json::json!({"id": null, "line": n + 1, "error": error})
                );
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let out = match serde_json::from_str::<Value>(&line) {
            Err(e) => {
                ok = false;
                serde_json::json!({"id": null, "line": n + 1, "error": format!("not JSON: {e}")})
            }
            Ok(v) => {
                let id = v.get("id").cloned().unwrap_or(Value::Null);
                match batch_case(&judge, &v, args.ranks.convention(), args.lenient) {
                    Ok(j) => serde_json::json!({"id": id, "judgement": j}),
                    Err(e) => {
                        ok = false;
                        serde_json::json!({"id": id, "line": n + 1, "error": e})
                    }
                }
            }
        };
        outln!("{out}");
    }
    Ok(ok)
}

/// `judge --game`: whole games and archives.
pub(crate) mod games {
    use std::path::PathBuf;

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use serde_json::json;
    use xiangqi_rules::judging::{result_agrees, DEFAULT_RULES};
    use xiangqi_rules::record::{self, GameRecord};

    use super::{print_one, Format, JudgeArgs};

    /// Reads every game of `paths` (`xiangqi_rules::record::archive::read`), printing the
    /// warnings about skipped text on stderr.
    pub(crate) fn read(paths: &[PathBuf]) -> Result<Vec<record::archive::Entry>, String> {
        let archive = record::archive::read(paths)?;
        for w in &archive.warnings {
            eprintln!("xqrules: warning: {w}");
        }
        Ok(archive.entries)
    }

    /// Runs `judge --game`; `Ok(false)` when some record could not be judged.
    pub(super) fn run(args: &JudgeArgs) -> Result<bool, String> {
        let rules = args.judge(args.rules.as_deref().unwrap_or(DEFAULT_RULES))?;
        let entries = read(&args.game)?;
        if entries.is_empty() {
            return Err("judge --game: no *.pgn or *.xqf file found".to_string());
        }
        if let [only] = entries.as_slice() {
            let game = only
                .record
                .as_ref()
                .map_err(|e| format!("{}: {e}", only.file))?;
            let (j, text) = rules
                .game(game)
                .map_err(|e| format!("{}: {e}", only.file))?;
            if args.format == Format::Text {
                outln!("Game: {} ({})", only.file, tags_line(game));
            }
            print_one(args.format, &j, &text);
            if result_agrees(game, &j) == Some(false) {
                eprintln!(
                    "xqrules: warning: {}: the record's Result {} differs from the ruling ({})",
                    only.file,
                    game.result,
                    j["result"].as_str().unwrap_or("?")
                );
            }
            return Ok(true);
        }
        let bar =
            ProgressBar::with_draw_target(Some(entries.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let (mut judged, mut failed) = (0usize, 0usize);
        for e in &entries {
            let outcome = e
                .record
                .clone()
                .and_then(|g| rules.game(&g).map(|(j, _)| (g, j)));
            let line = match outcome {
                Ok((g, j)) => {
                    judged += 1;
                    json!({"file": e.file, "game": e.game, "status": "judged",
                           "tags": g.tags.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
                           "record_result": g.result.pgn(),
                           "result_agrees": result_agrees(&g, &j),
                           "judgement": j})
                }
                Err(err) => {
                    failed += 1;
                    json!({"file": e.file, "game": e.game, "status": "error", "error": err})
                }
            };
            bar.suspend(|| outln!("{line}"));
            bar.inc(1);
        }
        bar.finish_and_clear();
        eprintln!(
            "xqrules: {} games: {judged} judged, {failed} not judged (reported above)",
            entries.len()
        );
        Ok(failed == 0)
    }

    fn tags_line(game: &GameRecord) -> String {
        let tag = |k: &str| game.tag(k).unwrap_or("?").to_string();
        format!("{}, result {}", tag("Event"), tag("Result"))
    }
}
