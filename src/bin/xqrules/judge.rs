//! `xqrules judge`: rule on a position and a move sequence with the repetition rules (棋例) of
//! a rule set (`spec/rules/<id>.yaml`), move by move, with the articles that decide.
//!
//! Two engines give the same rulings (the same JSON, byte for byte; `tests/judge_diff.rs`):
//! `fast` (default, `xiangqi_rules::judge`, rule sets compiled in by build.rs) and `oracle` (the
//! reference, which also reads an amended spec directory at run time with `--spec`).
//!
//! Exit code 0 for any ruling; 2 for bad input (FEN, a move with its 1-based index, rule set,
//! example id, spec directory, `--spec` with the fast engine).

use std::io::BufRead;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use xiangqi_oracle::judge::{explain, judge, RuleSet};
use xiangqi_oracle::{Board, OMove, Spec};

/// Arguments of `xqrules judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Rule set: cxa-1999, cxa-2011 or axf (with --example: defaults to the example's).
    #[arg(long)]
    rules: Option<String>,
    /// Start position in Xiangqi FEN (default: the start position, or the example's).
    #[arg(long)]
    fen: Option<String>,
    /// The moves in ICCS, separated by spaces or commas (default: the example's `moves_full`).
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
    /// Game records to judge: PGN files (several games each, UTF-8 or GBK), XQF files, or
    /// directories (read recursively for *.pgn and *.xqf). With --rules (default cxa-1999).
    /// One game prints its explanation (or JSON); more print one JSON line per game, with a
    /// progress bar on stderr. Exit 1 when a record could not be judged (each is reported).
    #[arg(long, num_args = 1.., conflicts_with_all = ["example", "moves", "fen"])]
    game: Vec<PathBuf>,
    /// Many cases at once, as JSON lines (FILE, or - for stdin): each line an object
    /// `{"id": any, "fen": "...", "moves": "m1 m2 ..." or ["m1", ...]}` (ICCS moves). Prints one
    /// JSON line per case: `{"id": .., "judgement": {..}}` or `{"id": .., "error": ".."}`.
    /// With --rules (default cxa-1999) and --engine (default fast). Exit 1 when some case could
    /// not be judged.
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
}

/// Runs `xqrules judge`; `Err` is printed with exit code 2. `Ok(false)`: some game records
/// could not be judged (reported on stdout), exit code 1.
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
        .ok_or("judge: --rules cxa-1999|cxa-2011|axf (or --example ID) is required")?;
    let fen = args
        .fen
        .clone()
        .or_else(|| example.as_ref().map(|e| e.fen.clone()));
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
    if args.engine() == JudgeEngine::Fast {
        return fast::run(&args, &rules_id, fen.as_deref(), &texts);
    }
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
    let start = match &fen {
        Some(f) => Board::from_fen(&spec, f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Board::start(&spec),
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
    Ok(true)
}

/// The rule set of the engine that judges a batch.
enum BatchRules {
    /// The oracle, with its spec (embedded or `--spec DIR`).
    Oracle(Box<(RuleSet, Spec)>),
    /// The fast engine's compiled rule set.
    Fast(&'static xiangqi_rules::judge::RuleSet),
}

/// One case of `judge --batch`.
fn batch_case(rules: &BatchRules, line: &serde_json::Value) -> Result<serde_json::Value, String> {
    let fen = line
        .get("fen")
        .and_then(|f| f.as_str())
        .ok_or("no \"fen\" string")?;
    let texts: Vec<String> = match line.get("moves") {
        Some(serde_json::Value::String(m)) => m
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        Some(serde_json::Value::Array(a)) => a
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
    match rules {
        BatchRules::Oracle(rs) => {
            let (rules, spec) = &**rs;
            let start = Board::from_fen(spec, fen).map_err(|e| format!("bad FEN: {e}"))?;
            let moves: Vec<OMove> = texts
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    OMove::parse_iccs(t).map_err(|e| format!("move {} {t:?}: {e}", i + 1))
                })
                .collect::<Result<_, _>>()?;
            let j = judge(rules, &start, &moves).map_err(|e| e.to_string())?;
            serde_json::to_value(&j).map_err(|e| e.to_string())
        }
        BatchRules::Fast(rules) => {
            use xiangqi_rules::Position;
            let start = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
            let moves = parse_iccs_moves(&texts)?;
            let j =
                xiangqi_rules::judge::judge(rules, &start, &moves).map_err(|e| e.to_string())?;
            serde_json::to_value(&j).map_err(|e| e.to_string())
        }
    }
}

/// `judge --batch`: JSON lines in, JSON lines out; `Ok(false)` when a case failed.
/// ICCS move texts for the fast engine; an error names the move's number (from 1) and text.
fn parse_iccs_moves<S: AsRef<str>>(texts: &[S]) -> Result<Vec<xiangqi_rules::Move>, String> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let t = t.as_ref();
            xiangqi_rules::Move::parse_iccs(t, xiangqi_rules::RankConvention::Iccs)
                .map_err(|e| format!("move {} {t:?}: {e}", i + 1))
        })
        .collect()
}

fn run_batch(args: &JudgeArgs, path: &std::path::Path) -> Result<bool, String> {
    let rules_id = args.rules.clone().unwrap_or_else(|| "cxa-1999".to_string());
    let rules = if args.engine() == JudgeEngine::Fast {
        BatchRules::Fast(fast::rule_set(&rules_id)?)
    } else {
        BatchRules::Oracle(Box::new(rules_and_spec(args, &rules_id)?))
    };
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?,
        ))
    };
    let mut ok = true;
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("{}: line {}: {e}", path.display(), n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let out = match serde_json::from_str::<serde_json::Value>(&line) {
            Err(e) => {
                ok = false;
                serde_json::json!({"line": n + 1, "error": format!("not JSON: {e}")})
            }
            Ok(v) => {
                let id = v.get("id").cloned().unwrap_or(serde_json::Value::Null);
                match batch_case(&rules, &v) {
                    Ok(j) => serde_json::json!({"id": id, "judgement": j}),
                    Err(e) => {
                        ok = false;
                        serde_json::json!({"id": id, "line": n + 1, "error": e})
                    }
                }
            }
        };
        println!("{out}");
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
    use std::path::{Path, PathBuf};

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use serde_json::json;
    use xiangqi_oracle::judge::{explain, judge_record, RuleSet};
    use xiangqi_oracle::{Board, OMove, Spec};
    use xiangqi_rules::judge as fast;
    use xiangqi_rules::record::{self, GameRecord};
    use xiangqi_rules::RankConvention;

    use super::{rules_and_spec, Format, JudgeArgs, JudgeEngine};

    /// One game of the input, or the reason it could not be read.
    pub(crate) struct Entry {
        pub(crate) file: String,
        /// 1-based index of the game in its file.
        pub(crate) game: usize,
        pub(crate) record: Result<GameRecord, String>,
    }

    /// Every *.pgn / *.xqf below a directory (sorted), or the file itself.
    fn files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        if path.is_dir() {
            let mut children: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            children.sort();
            for child in children {
                let ext = child
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(str::to_ascii_lowercase);
                if child.is_dir() || matches!(ext.as_deref(), Some("pgn" | "xqf")) {
                    files(&child, out)?;
                }
            }
            Ok(())
        } else if path.exists() {
            out.push(path.to_path_buf());
            Ok(())
        } else {
            Err(format!("{}: no such file or directory", path.display()))
        }
    }

    /// Reads every game of every file; a broken file or game becomes an `Err` entry.
    pub(crate) fn read(paths: &[PathBuf]) -> Result<Vec<Entry>, String> {
        let mut list = Vec::new();
        for p in paths {
            files(p, &mut list)?;
        }
        let mut entries = Vec::new();
        for path in list {
            let file = path.display().to_string();
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    entries.push(Entry {
                        file,
                        game: 1,
                        record: Err(format!("cannot read: {e}")),
                    });
                    continue;
                }
            };
            if bytes.starts_with(b"XQ") {
                entries.push(Entry {
                    file,
                    game: 1,
                    record: record::xqf::read_xqf(&bytes).map_err(|e| e.to_string()),
                });
                continue;
            }
            let (text, _) = record::decode_text(&bytes);
            let games = record::pgn::read_games(&text);
            if games.is_empty() {
                entries.push(Entry {
                    file: file.clone(),
                    game: 1,
                    record: Err("no game in the file".to_string()),
                });
            }
            for (i, g) in games.into_iter().enumerate() {
                entries.push(Entry {
                    file: file.clone(),
                    game: i + 1,
                    record: g.map_err(|e| e.to_string()),
                });
            }
        }
        Ok(entries)
    }

    /// The rule set of the chosen engine.
    enum Rules {
        Oracle(Box<(RuleSet, Spec)>),
        Fast(&'static fast::RuleSet),
    }

    /// Judges one game record (its start position and main line): the judgement as JSON and
    /// its explanation.
    fn judge_game_with(
        rules: &Rules,
        game: &GameRecord,
    ) -> Result<(serde_json::Value, String), String> {
        let json = |j: &dyn erased::Json| j.value();
        match rules {
            Rules::Oracle(rs) => {
                let (rules, spec) = &**rs;
                let (start, j) = judge_game(rules, spec, game)?;
                Ok((json(&j), explain(&j, &start)))
            }
            Rules::Fast(rules) => {
                let start = xiangqi_rules::Position::from_fen(&game.start_fen)
                    .map_err(|e| format!("start position: {e}"))?;
                // A record may end with a move that exposes the mover's king: a loss for its
                // maker (4.1.2, 3.1 / 4.1.6), as in the oracle.
                let last = game.losing_move.as_ref().map(|lm| lm.mv);
                let j = fast::judge_record(rules, &start, &game.moves, last)
                    .map_err(|e| e.to_string())?;
                Ok((json(&j), fast::explain(&j, &start)))
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

    /// Judges one game record: its start position and main line, with the oracle.
    pub(crate) fn judge_game(
        rules: &RuleSet,
        spec: &Spec,
        game: &GameRecord,
    ) -> Result<(Board, xiangqi_oracle::judge::Judgement), String> {
        let start =
            Board::from_fen(spec, &game.start_fen).map_err(|e| format!("start position: {e}"))?;
        let moves: Vec<OMove> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let text = m.to_string();
                OMove::parse_iccs(&text).map_err(|e| format!("move {} {text:?}: {e}", i + 1))
            })
            .collect::<Result<_, _>>()?;
        // A record may end with a move that exposes the mover's king (4.1.2 kings facing, 3.1 /
        // 4.1.6 own king attacked): the oracle rules it as a loss for its maker.
        let last = game
            .losing_move
            .as_ref()
            .map(|lm| {
                let text = lm.mv.to_iccs(RankConvention::Iccs);
                OMove::parse_iccs(&text).map_err(|e| format!("move {} {text:?}: {e}", lm.index))
            })
            .transpose()?;
        let j = judge_record(rules, &start, &moves, last).map_err(|e| e.to_string())?;
        Ok((start, j))
    }

    /// Runs `judge --game`; `Ok(false)` when some record could not be judged.
    pub(super) fn run(args: &JudgeArgs) -> Result<bool, String> {
        let rules_id = args.rules.clone().unwrap_or_else(|| "cxa-1999".to_string());
        let rules = if args.engine() == JudgeEngine::Fast {
            Rules::Fast(super::fast::rule_set(&rules_id)?)
        } else {
            Rules::Oracle(Box::new(rules_and_spec(args, &rules_id)?))
        };
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
            match args.format {
                Format::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?
                ),
                Format::Text => {
                    println!("Game: {} ({})", only.file, tags_line(game));
                    print!("{text}");
                }
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
                           "judgement": j})
                }
                Err(err) => {
                    failed += 1;
                    json!({"file": e.file, "game": e.game, "status": "error", "error": err})
                }
            };
            bar.suspend(|| println!("{line}"));
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

/// The fast engine (`xiangqi_rules::judge`).
mod fast {
    use xiangqi_rules::judge::{explain, judge, Builtin, RuleSet, BUILTIN_RULE_SETS};
    use xiangqi_rules::Position;

    use super::{parse_iccs_moves, Format, JudgeArgs};

    /// The compiled rule set `id`, or an error naming the known ones.
    pub(super) fn rule_set(id: &str) -> Result<&'static RuleSet, String> {
        RuleSet::builtin(id).ok_or_else(|| {
            format!(
                "unknown rule set {id:?} (known: {})",
                BUILTIN_RULE_SETS.join(", ")
            )
        })
    }

    /// Judges `texts` (ICCS) from `fen` (default: the start position) and prints the result.
    pub(super) fn run(
        args: &JudgeArgs,
        rules_id: &str,
        fen: Option<&str>,
        texts: &[String],
    ) -> Result<bool, String> {
        let rules = rule_set(rules_id)?;
        let start = match fen {
            Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::startpos(),
        };
        let moves = parse_iccs_moves(texts)?;
        let j = judge(rules, &start, &moves).map_err(|e| e.to_string())?;
        match args.format {
            Format::Json => {
                let s = serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?;
                println!("{s}");
            }
            Format::Text => print!("{}", explain(&j, &start)),
        }
        Ok(true)
    }
}
