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
use xiangqi_oracle::judge::RuleSet;
use xiangqi_oracle::{Board, OMove, Spec};

use crate::engines::Ranks;

/// The rule set of every mode when neither `--rules` nor an example names one.
pub const DEFAULT_RULES: &str = "cxa-1999";

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

// `EXAMPLES`: every bundled worked example (`spec/examples/<dir>/<name>.yaml`), by id; generated
// by build.rs (xiangqi_spec::examples::examples_table).
include!(concat!(env!("OUT_DIR"), "/examples.rs"));

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
        if self.engine() == JudgeEngine::Fast {
            return Ok(Judge::Fast(fast::rule_set(rules_id)?));
        }
        let (rules, spec) = rules_and_spec(self, rules_id)?;
        let hash = match &self.spec {
            Some(dir) => xiangqi_rules::builtin_spec::hash_dir(dir)
                .map_err(|e| format!("spec {}: {e}", dir.display()))?,
            None => xiangqi_rules::builtin_spec::HASH.to_string(),
        };
        Ok(Judge::Oracle(Box::new((rules, spec, hash))))
    }
}

/// Splits a move list written with spaces or commas.
fn split_moves(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
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
    let (j, text) = judge.moves(fen.as_deref(), &texts, args.ranks, args.lenient, true)?;
    print_one(args.format, &j, &text);
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

/// The judge of a command: the fast engine's compiled rule set, or the oracle with its rule
/// set, spec and the spec's hash.
enum Judge {
    /// The oracle, with its spec (embedded or `--spec DIR`) and that spec's hash.
    Oracle(Box<(RuleSet, Spec, String)>),
    /// The fast engine's compiled rule set.
    Fast(&'static xiangqi_rules::judge::RuleSet),
}

/// The JSON contract of a judgement of `total` moves: the engine's fields, then
/// `moves_after_end` and `spec_hash`.
fn contract(j: Value, total: usize, hash: &str) -> Value {
    let mut j = j;
    let ply = j.get("ply").and_then(Value::as_u64).unwrap_or(0) as usize;
    if let Value::Object(map) = &mut j {
        map.insert(
            "moves_after_end".to_string(),
            Value::from(total.saturating_sub(ply)),
        );
        map.insert("spec_hash".to_string(), Value::from(hash));
    }
    j
}

/// Move texts in `ranks` as ICCS (ranks 0-9); an error names the move's number (from 1).
fn to_iccs(texts: &[String], ranks: Ranks) -> Result<Vec<String>, String> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            xiangqi_rules::Move::parse_iccs(t, ranks.convention())
                .map(|m| m.to_iccs(xiangqi_rules::RankConvention::Iccs))
                .map_err(|e| format!("move {} {t:?}: {e}", i + 1))
        })
        .collect()
}

impl Judge {
    /// Judges `texts` (in `ranks`) from `fen` (default: the start position): the JSON contract
    /// and, when `explain`, the explanation.
    fn moves(
        &self,
        fen: Option<&str>,
        texts: &[String],
        ranks: Ranks,
        lenient: bool,
        explain: bool,
    ) -> Result<(Value, String), String> {
        let texts = to_iccs(texts, ranks)?;
        match self {
            Judge::Oracle(rs) => {
                let (rules, spec, hash) = &**rs;
                let start = match fen {
                    None => Board::start(spec),
                    Some(f) if lenient => {
                        let (board, relaxed) = Board::from_fen_lenient(spec, f)
                            .map_err(|e| format!("bad FEN: {e}"))?;
                        for r in relaxed {
                            eprintln!("xqrules: note: lenient FEN, not checked: {}", r.violation);
                        }
                        board
                    }
                    Some(f) => Board::from_fen(spec, f).map_err(|e| format!("bad FEN: {e}"))?,
                };
                let moves: Vec<OMove> = texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        OMove::parse_iccs(t).map_err(|e| format!("move {} {t:?}: {e}", i + 1))
                    })
                    .collect::<Result<_, _>>()?;
                let j = xiangqi_oracle::judge::judge(rules, &start, &moves)
                    .map_err(|e| e.to_string())?;
                let text = if explain {
                    xiangqi_oracle::judge::explain(&j, &start)
                } else {
                    String::new()
                };
                let value = serde_json::to_value(&j).map_err(|e| e.to_string())?;
                Ok((contract(value, texts.len(), hash), text))
            }
            Judge::Fast(rules) => {
                use xiangqi_rules::Position;
                let start = match fen {
                    None => Position::startpos(),
                    Some(f) if lenient => {
                        let (pos, relaxed) =
                            Position::from_fen_lenient(f).map_err(|e| format!("bad FEN: {e}"))?;
                        for r in relaxed {
                            eprintln!("xqrules: note: lenient FEN, not checked: {r}");
                        }
                        pos
                    }
                    Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
                };
                let moves = texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        xiangqi_rules::Move::parse_iccs(t, xiangqi_rules::RankConvention::Iccs)
                            .map_err(|e| format!("move {} {t:?}: {e}", i + 1))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let j = xiangqi_rules::judge::judge(rules, &start, &moves)
                    .map_err(|e| e.to_string())?;
                let text = if explain {
                    xiangqi_rules::judge::explain(&j, &start)
                } else {
                    String::new()
                };
                let value = serde_json::to_value(&j).map_err(|e| e.to_string())?;
                Ok((
                    contract(value, texts.len(), xiangqi_rules::builtin_spec::HASH),
                    text,
                ))
            }
        }
    }
}

/// One case of `judge --batch`.
fn batch_case(args: &JudgeArgs, judge: &Judge, line: &Value) -> Result<Value, String> {
    let fen = line
        .get("fen")
        .and_then(|f| f.as_str())
        .ok_or("no \"fen\" string")?;
    let texts: Vec<String> = match line.get("moves") {
        Some(Value::String(m)) => split_moves(m),
        Some(Value::Array(a)) => a
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or("a move is not a string")
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
        Some(_) => return Err("\"moves\" is neither a string nor a list".into()),
    };
    judge
        .moves(Some(fen), &texts, args.ranks, args.lenient, false)
        .map(|(j, _)| j)
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
                match batch_case(args, &judge, &v) {
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

/// The rule set and spec named by the arguments (embedded, or read from `--spec DIR`).
fn rules_and_spec(args: &JudgeArgs, rules_id: &str) -> Result<(RuleSet, Spec), String> {
    match &args.spec {
        Some(dir) => Ok((
            RuleSet::load_dir(rules_id, &dir.join("rules")).map_err(|e| e.to_string())?,
            Spec::load_dir(dir).map_err(|e| format!("spec {}: {e}", dir.display()))?,
        )),
        None => Ok((
            RuleSet::embedded(rules_id).map_err(|e| e.to_string())?,
            Spec::embedded().clone(),
        )),
    }
}

/// `judge --game`: whole games and archives.
pub(crate) mod games {
    use std::path::PathBuf;

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use serde_json::json;
    use serde_json::Value;
    use xiangqi_oracle::judge::explain;
    use xiangqi_rules::judge as fast;
    use xiangqi_rules::record::{self, GameRecord, GameResult};
    use xiangqi_rules::spec_tools::oracle_judge::judge_game;

    use super::{contract, print_one, Format, Judge, JudgeArgs, DEFAULT_RULES};

    /// Reads every game of `paths` (`xiangqi_rules::record::archive::read`), printing the
    /// warnings about skipped text on stderr.
    pub(crate) fn read(paths: &[PathBuf]) -> Result<Vec<record::archive::Entry>, String> {
        let archive = record::archive::read(paths)?;
        for w in &archive.warnings {
            eprintln!("xqrules: warning: {w}");
        }
        Ok(archive.entries)
    }

    /// Judges one game record (its start position and main line): the JSON contract and the
    /// explanation.
    fn judge_game_with(judge: &Judge, game: &GameRecord) -> Result<(Value, String), String> {
        let json = |j: &dyn erased::Json| j.value();
        // A losing last move (below) is one more move of the record.
        let total = game.moves.len() + usize::from(game.losing_move.is_some());
        match judge {
            Judge::Oracle(rs) => {
                let (rules, spec, hash) = &**rs;
                let (start, j) = judge_game(rules, spec, game)?;
                Ok((contract(json(&j), total, hash), explain(&j, &start)))
            }
            Judge::Fast(rules) => {
                let start = xiangqi_rules::Position::from_fen(&game.start_fen)
                    .map_err(|e| format!("start position: {e}"))?;
                // A record may end with a move that exposes the mover's king: a loss for its
                // maker (4.1.2, 3.1 / 4.1.6), as in the oracle.
                let last = game.losing_move.as_ref().map(|lm| lm.mv);
                let j = fast::judge_record(rules, &start, &game.moves, last)
                    .map_err(|e| e.to_string())?;
                Ok((
                    contract(json(&j), total, xiangqi_rules::builtin_spec::HASH),
                    fast::explain(&j, &start),
                ))
            }
        }
    }

    /// Serialisation of either engine's judgement.
    mod erased {
        /// A judgement that serialises.
        pub(super) trait Json {
            fn value(&self) -> serde_json::Value;
        }
        impl<T: serde::Serialize> Json for T {
            fn value(&self) -> serde_json::Value {
                serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
            }
        }
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
            let (j, text) =
                judge_game_with(&rules, game).map_err(|e| format!("{}: {e}", only.file))?;
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
                .and_then(|g| judge_game_with(&rules, &g).map(|(j, _)| (g, j)));
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

    /// Whether the record's result is the judge's: `None` when either is undecided (`*`, or
    /// a game the rules did not end, such as one lost on time or by resignation).
    fn result_agrees(game: &GameRecord, j: &Value) -> Option<bool> {
        let ruled = match j.get("result").and_then(Value::as_str)? {
            "red_wins" => GameResult::RedWins,
            "black_wins" => GameResult::BlackWins,
            "draw" => GameResult::Draw,
            _ => return None,
        };
        (game.result != GameResult::Unknown).then(|| game.result == ruled)
    }

    fn tags_line(game: &GameRecord) -> String {
        let tag = |k: &str| game.tag(k).unwrap_or("?").to_string();
        format!("{}, result {}", tag("Event"), tag("Result"))
    }
}

/// The fast engine (`xiangqi_rules::judge`).
mod fast {
    use xiangqi_rules::judge::{Builtin, RuleSet, BUILTIN_RULE_SETS};

    /// The compiled rule set `id`, or an error naming the known ones.
    pub(super) fn rule_set(id: &str) -> Result<&'static RuleSet, String> {
        RuleSet::builtin(id).ok_or_else(|| {
            format!(
                "unknown rule set {id:?} (known: {})",
                BUILTIN_RULE_SETS.join(", ")
            )
        })
    }
}
