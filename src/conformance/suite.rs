//! The conformance suite behind `xqrules suite export DIR`, which any engine can use without
//! Rust ([`export`]).
//!
//! Files written:
//! - `perft.epd`: one line per position, `FEN ;D1 n ;D2 n ...`: the shared positions of
//!   spec/perft.yaml (published counts, and ours up to `--depth` where none is published) and
//!   the generated positions (our fast perft to `--depth`).
//! - `legal_moves.jsonl`: one JSON object per line, `{"id", "fen", "moves"}`, the moves sorted
//!   ICCS strings: the same positions plus every position of the generated games.
//! - `rules.jsonl` ([`RULES_FILE`]): one JSON object per worked example of `--spec` with a
//!   ruling: start FEN, the moves (ICCS), the rule set, the expected ruling (`ruling`,
//!   `must_change`, `immediate`, patterns), the printed per-move classes, the articles, and the
//!   engine question engine-check asks (the position before the last move, the move, what it
//!   means for the mover).
//! - `manifest.json`: what the suite contains and how it was made.
//! - `README.md`: how to run it.
//!
//! Every file is deterministic: the same spec, seed and depth give the same bytes.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::{Position, RankConvention};
use serde::Serialize;
use thiserror::Error;

use super::positions::{
    generated_game, generated_positions, shared_positions, PositionsError, TestPosition,
};

/// The file of rule cases (JSON Lines).
pub const RULES_FILE: &str = "rules.jsonl";

/// Where and how deep [`export`] writes the suite.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// Output directory (created if needed).
    pub dir: PathBuf,
    /// Depth of the counts computed with our perft (generated positions, and shared positions
    /// at depths spec/perft.yaml does not list).
    pub depth: u32,
    /// How many positions to generate by seeded random play.
    pub positions: usize,
    /// Seed of the generated positions.
    pub seed: u64,
    /// The spec directory whose worked examples with a ruling become `rules.jsonl`
    /// ([`crate::builtin_spec::dir`] for the built-in one).
    pub spec: PathBuf,
}

/// Why the export failed.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// The shared positions could not be read.
    #[error(transparent)]
    Positions(#[from] PositionsError),
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The worked examples could not be read.
    #[error("rule cases: {0}")]
    Rules(String),
    /// Our perft contradicts a published count: the suite would be wrong.
    #[error("{id} perft {depth}: our count {ours} differs from the published {published} in spec/perft.yaml; not exporting")]
    Contradiction {
        /// Position id.
        id: String,
        /// Depth.
        depth: u32,
        /// Our count.
        ours: u64,
        /// The published count.
        published: u64,
    },
}

/// One line of legal_moves.jsonl.
#[derive(Serialize)]
struct LegalCase<'a> {
    id: &'a str,
    fen: &'a str,
    moves: Vec<String>,
}

/// manifest.json.
#[derive(Serialize)]
struct Manifest {
    format_version: u32,
    generator: String,
    move_notation: &'static str,
    fen: &'static str,
    seed: String,
    depth: u32,
    files: Vec<ManifestFile>,
}

#[derive(Serialize)]
struct ManifestFile {
    name: &'static str,
    status: &'static str,
    records: usize,
    description: &'static str,
}

fn write(path: &Path, text: &str) -> Result<(), SuiteError> {
    fs::write(path, text).map_err(|source| SuiteError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Depths below a published one that spec/perft.yaml leaves out are filled in with our perft
/// up to this depth, so that lines have no gaps in the cheap range.
const GAP_FILL_DEPTH: u32 = 4;

/// The EPD line of a position: `FEN ;D1 n ;D2 n ...`.
fn epd_line(
    position: &TestPosition,
    depth: u32,
    counts_out: &mut usize,
) -> Result<String, SuiteError> {
    let mut pos = Position::from_fen(&position.fen).map_err(|e| PositionsError::Fen {
        fen: position.fen.clone(),
        reason: e.to_string(),
    })?;
    let max_depth = position
        .published
        .iter()
        .map(|&(d, _)| d)
        .max()
        .unwrap_or(0)
        .max(depth);
    let mut line = position.fen.clone();
    for d in 1..=max_depth {
        // Ours at every depth up to `depth`, and in the gaps below a published depth while
        // cheap (up to GAP_FILL_DEPTH); published counts beyond.
        let count = if d <= depth || (d <= GAP_FILL_DEPTH && position.published_at(d).is_none()) {
            let ours = pos.perft(d);
            if let Some(published) = position.published_at(d) {
                if published != ours {
                    return Err(SuiteError::Contradiction {
                        id: position.id.clone(),
                        depth: d,
                        ours,
                        published,
                    });
                }
            }
            Some(ours)
        } else {
            position.published_at(d)
        };
        if let Some(n) = count {
            let _ = write!(line, " ;D{d} {n}");
            *counts_out += 1;
        }
    }
    Ok(line)
}

/// Sorted ICCS legal moves of a FEN.
fn legal_moves(fen: &str) -> Result<Vec<String>, SuiteError> {
    let pos = Position::from_fen(fen).map_err(|e| PositionsError::Fen {
        fen: fen.to_string(),
        reason: e.to_string(),
    })?;
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_iccs(RankConvention::Iccs))
        .collect();
    moves.sort();
    Ok(moves)
}

/// One line of rules.jsonl.
#[derive(Serialize)]
struct RuleCaseLine<'a> {
    id: &'a str,
    rules: &'a str,
    fen: &'a str,
    /// `moves_full`: the sequence to play; the ruling is made after the last move.
    moves: &'a [String],
    /// The printed moves whose classes `classes` gives (one cycle, plus a move for CXA 1999).
    printed_moves: &'a [String],
    expected: RuleExpected<'a>,
    /// The printed class of each ply of `printed_moves` (null where the source prints none).
    classes: Option<Vec<RuleClass<'a>>>,
    articles: &'a [String],
    rule_ids: &'a [String],
    /// The question engine-check asks: search `move` from the position after the first
    /// `moves.len() - 1` moves; `mover_result` is what the ruling means for its mover.
    engine_question: EngineQuestion<'a>,
    /// Where xiangqi-rules' own judge still disagrees with the printed ruling (informative).
    known_disagreement: Option<&'a str>,
}

#[derive(Serialize)]
struct RuleExpected<'a> {
    ruling: &'a str,
    must_change: Option<&'static str>,
    immediate: Option<bool>,
    red_pattern: Option<&'a str>,
    black_pattern: Option<&'a str>,
}

#[derive(Serialize)]
struct RuleClass<'a> {
    ply: usize,
    side: &'static str,
    #[serde(rename = "move")]
    mv: &'a str,
    class: &'a str,
    zh: &'a str,
}

#[derive(Serialize)]
struct EngineQuestion<'a> {
    #[serde(rename = "move")]
    mv: &'a str,
    mover: &'static str,
    mover_result: &'static str,
}

/// Writes [`RULES_FILE`] from the worked examples with a ruling; returns the number of cases.
fn write_rule_cases(dir: &Path, cases: &[super::rules::RuleCase]) -> Result<usize, SuiteError> {
    let mut out = String::new();
    for case in cases {
        let ex = &case.example;
        let ruling = ex.expected.ruling.as_ref().map(|r| r.id()).unwrap_or("");
        let n = ex.moves_full.len();
        let mover = ex.mover(n);
        let mover_result = match (ruling, mover.id()) {
            ("draw", _) => "draw",
            ("red_loses", "red") | ("black_loses", "black") => "loss",
            _ => "win",
        };
        let line = RuleCaseLine {
            id: &ex.id,
            rules: &ex.rules,
            fen: &ex.fen,
            moves: &ex.moves_full,
            printed_moves: &ex.moves,
            expected: RuleExpected {
                ruling,
                must_change: ex.expected.must_change.map(|s| s.id()),
                immediate: ex.expected.immediate,
                red_pattern: ex.expected.red_pattern.as_deref(),
                black_pattern: ex.expected.black_pattern.as_deref(),
            },
            classes: ex.classes.as_ref().map(|cs| {
                cs.iter()
                    .map(|c| RuleClass {
                        ply: c.ply,
                        side: c.side.id(),
                        mv: &c.mv,
                        class: &c.class,
                        zh: &c.zh,
                    })
                    .collect()
            }),
            articles: &ex.articles,
            rule_ids: &ex.rule_ids,
            engine_question: EngineQuestion {
                mv: ex.moves_full.last().map(String::as_str).unwrap_or(""),
                mover: mover.id(),
                mover_result,
            },
            known_disagreement: ex.known_disagreement.as_deref(),
        };
        out.push_str(&serde_json::to_string(&line).map_err(|e| SuiteError::Rules(e.to_string()))?);
        out.push('\n');
    }
    write(&dir.join(RULES_FILE), &out)?;
    Ok(cases.len())
}

/// Writes the suite into `args.dir`; returns a one-line summary. The rule cases are read
/// before the directory is created: a bad spec leaves nothing behind.
///
/// ```
/// use xiangqi_rules::builtin_spec;
/// use xiangqi_rules::conformance::suite::{export, ExportOptions};
/// let dir = std::env::temp_dir().join(format!("suite-doctest-{}", std::process::id()));
/// let options = ExportOptions {
///     dir: dir.clone(),
///     depth: 1,
///     positions: 2,
///     seed: 7,
///     spec: builtin_spec::dir().unwrap(),
/// };
/// let summary = export(&options).unwrap();
/// assert!(summary.contains("rules.jsonl"));
/// assert!(std::fs::read_to_string(dir.join("perft.epd")).unwrap().contains(";D1 44"));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn export(args: &ExportOptions) -> Result<String, SuiteError> {
    // Everything that can fail on bad input is read before the directory is created, so that a
    // failed export leaves nothing behind.
    let rule_cases = super::rules::load_cases(&args.spec).map_err(|e| {
        SuiteError::Rules(format!(
            "{}: {e}",
            crate::builtin_spec::describe(&args.spec)
        ))
    })?;
    fs::create_dir_all(&args.dir).map_err(|source| SuiteError::Io {
        path: args.dir.clone(),
        source,
    })?;
    let shared = shared_positions()?;
    let generated = generated_positions(args.seed, args.positions);

    let mut epd = String::new();
    let mut counts = 0;
    for position in shared.iter().chain(&generated) {
        epd.push_str(&epd_line(position, args.depth, &mut counts)?);
        epd.push('\n');
    }

    let mut jsonl = String::new();
    let mut seen = HashSet::new();
    let mut cases = 0;
    let mut push_case = |id: &str, fen: &str, out: &mut String| -> Result<(), SuiteError> {
        if !seen.insert(fen.to_string()) {
            return Ok(());
        }
        let case = LegalCase {
            id,
            fen,
            moves: legal_moves(fen)?,
        };
        // Serialising plain strings cannot fail; keep the error path total anyway.
        let line = serde_json::to_string(&case).unwrap_or_default();
        out.push_str(&line);
        out.push('\n');
        cases += 1;
        Ok(())
    };
    for position in shared.iter().chain(&generated) {
        push_case(&position.id, &position.fen, &mut jsonl)?;
    }
    for game in 0..args.positions {
        let g = generated_game(args.seed, game);
        for (ply, fen) in g.fens.iter().enumerate() {
            push_case(&format!("game-{game}-ply-{ply}"), fen, &mut jsonl)?;
        }
    }

    let rules = write_rule_cases(&args.dir, &rule_cases)?;
    let positions_count = shared.len() + generated.len();
    let manifest = Manifest {
        format_version: 1,
        generator: format!("xqrules {} suite export", env!("CARGO_PKG_VERSION")),
        move_notation: "ICCS: file a-i from Red's left, rank 0-9 from Red's back rank (h2e2); Fairy-Stockfish UCI uses ranks 1-10 (h3e3)",
        fen: "<board> <side w|b> - - <halfmoves> <fullmoves>, rank 9 first, K A B N R C P, upper case Red",
        seed: format!("{:#x}", args.seed),
        depth: args.depth,
        files: vec![
            ManifestFile {
                name: "perft.epd",
                status: "present",
                records: positions_count,
                description: "FEN ;D1 n ;D2 n ...: leaf-node counts of the legal-move tree",
            },
            ManifestFile {
                name: "legal_moves.jsonl",
                status: "present",
                records: cases,
                description: "{\"id\", \"fen\", \"moves\"}: the legal moves, sorted ICCS",
            },
            ManifestFile {
                name: RULES_FILE,
                status: "present",
                records: rules,
                description: "rule cases (repetition, perpetual check, chase): worked examples with their printed ruling and classes",
            },
        ],
    };
    let manifest_text = serde_json::to_string_pretty(&manifest).unwrap_or_default();

    write(&args.dir.join("perft.epd"), &epd)?;
    write(&args.dir.join("legal_moves.jsonl"), &jsonl)?;
    write(&args.dir.join("manifest.json"), &(manifest_text + "\n"))?;
    write(
        &args.dir.join("README.md"),
        &readme(args, shared.len(), generated.len(), cases, rules),
    )?;
    Ok(format!(
        "wrote {}: perft.epd ({positions_count} positions, {counts} counts), legal_moves.jsonl ({cases} positions), {RULES_FILE} ({rules} cases), manifest.json, README.md",
        args.dir.display()
    ))
}

fn readme(
    args: &ExportOptions,
    shared: usize,
    generated: usize,
    cases: usize,
    rule_cases: usize,
) -> String {
    format!(
        r#"# Xiangqi move-generation conformance suite

Exported by `xqrules suite export` (xiangqi-rules {version}). Everything here is plain text: any
engine, in any language, can check itself against it.

## Conventions

- FEN: `<board> <side> - - <halfmoves> <fullmoves>`; the board lists rank 9 (Black's back rank)
  first; letters K A B N R C P (king, advisor, elephant/bishop, horse/knight, rook, cannon,
  pawn), upper case Red; side `w` = Red, `b` = Black.
- Moves: ICCS coordinates, from-square then to-square: file `a`-`i` from Red's left, rank `0`-`9`
  from Red's back rank. `h2e2` is 炮二平五. Fairy-Stockfish's UCI mode numbers ranks 1-10
  (`h3e3`): add 1 to both ranks to compare with it.

## perft.epd

One position per line: `FEN ;D1 n1 ;D2 n2 ...`, where `nK` is the number of legal move
sequences of length K from the position (perft K). The first {shared} lines are the shared
positions of spec/perft.yaml (published counts, cross-checked with xiangqi-rules; depths the
file does not list are computed up to {depth}); the next {generated} are positions reached by
seeded random play from the start position (seed {seed:#x}), counted with xiangqi-rules to
depth {depth}.

To run it: for each line, split on ` ;`, set up the FEN, and compare your perft at each depth
with the number. A shell loop for a Stockfish-family engine that answers `go perft` (here
Fairy-Stockfish, which needs its variant option; put your engine's command and options):

```sh
depth=2
while IFS= read -r line; do
  fen=${{line%% ;*}}
  expected=$(printf '%s\n' "$line" | sed -n "s/.*;D$depth \([0-9]*\).*/\1/p")
  [ -n "$expected" ] || continue
  got=$(printf 'setoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\n' "$fen" "$depth" \
        | fairy-stockfish | sed -n 's/^Nodes searched: //p')
  [ "$got" = "$expected" ] || echo "perft $depth differs: $fen (expected $expected, got $got)"
done < perft.epd
```

## legal_moves.jsonl

One JSON object per line: `{{"id": "...", "fen": "...", "moves": ["a0a1", ...]}}`, the legal
moves sorted as strings. {cases} positions: the ones of perft.epd, then every position of the
seeded random games (`game-G-ply-P`). Compare your sorted legal-move list with `moves`: any
difference is a move-generation bug at exactly that position.

## Checking a UCI/UCCI engine directly

With xiangqi-rules installed, `xqrules engine-check --engine "CMD ARGS"` runs these checks on a
live engine and descends to the exact position and move of any disagreement, e.g.

```sh
xqrules engine-check --engine /usr/games/fairy-stockfish --setoption UCI_Variant=xiangqi --ranks 1-10
```

## Rule cases ({rules})

{rule_cases} worked examples of the repetition rules (棋例: perpetual check 長將, chase 長捉,
kill 殺, idle 閒) with the ruling the rule book prints: CXA 1999 (rules `cxa-1999`), CXA 2011
(`cxa-2011`) and the Asian Xiangqi Federation cases (`axf`). One JSON object per line:

| field | meaning |
| --- | --- |
| `id`, `rules` | example id (`cxa-1999/fig01`) and rule set |
| `fen`, `moves` | start position and the moves to play (ICCS); the ruling is made after the last move, at the third occurrence of a position |
| `printed_moves`, `classes` | the printed moves and the printed class of each (`check`, `kill`, `chase`, `idle`, `exchange`, `offer`, `block`, `follow`; `zh` in Chinese); `classes` is null where the source prints none (AXF) |
| `expected` | `ruling` (`red_loses`, `black_loses`, `draw`), `must_change` (the side that must vary, 變著, and loses if it repeats once more), `immediate` (outright result rather than must-change), the pattern of each side |
| `articles`, `rule_ids` | the articles of the edition and the spec entries the example illustrates |
| `engine_question` | `move`, `mover`, `mover_result`: searching only the last move from the position before it, the mover should get a `win`, a `loss` or a `draw` |
| `known_disagreement` | where xiangqi-rules' own judge still differs from the printed ruling (informative) |

To run it against a UCI engine without Rust: for each line, send
`position fen <fen> moves <moves except the last>` and `go depth 1 searchmoves <last move>`
(Fairy-Stockfish UCI: add 1 to every rank), read the last `score` before `bestmove` and
compare: `score mate N` with N > 0 is a `win` for the mover, N < 0 a `loss`, `score cp 0` (give
or take the engine's draw noise) a `draw`. With Python 3 and no other tool:

```python
import json, subprocess
eng = subprocess.Popen(["fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(cmd, until):
    eng.stdin.write(cmd + "\n"); eng.stdin.flush()
    lines = []
    while not (line := eng.stdout.readline()).startswith(until): lines.append(line)
    return lines
ask("uci", "uciok"); ask("setoption name UCI_Variant value xiangqi\nisready", "readyok")
up = lambda m: m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)   # ranks 0-9 -> 1-10
for case in map(json.loads, open("{rules}")):
    *before, last = case["moves"]
    lines = ask("position fen %s moves %s\ngo depth 1 searchmoves %s" % (
        case["fen"], " ".join(map(up, before)), up(last)), "bestmove")
    score = [l.split("score ")[1].split()[:2] for l in lines if " score " in l][-1]
    got = ("win" if int(score[1]) > 0 else "loss") if score[0] == "mate" else "draw" if abs(int(score[1])) <= 20 else "none"
    print(case["id"], case["engine_question"]["mover_result"], got)
```

An engine without chase rules (Fairy-Stockfish 11) can only be expected to get the cases
whose `classes` have no `chase` or `kill`. `xqrules engine-check` does all this, with per-engine
profiles and a report.
"#,
        version = env!("CARGO_PKG_VERSION"),
        depth = args.depth,
        seed = args.seed,
        rules = RULES_FILE,
        rule_cases = rule_cases,
    )
}
