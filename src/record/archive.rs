//! Reading whole archives of game records: files, directories and stdin, every game of every
//! file accounted for (see [`read`]).

use std::path::{Path, PathBuf};

use super::GameRecord;

/// What [`read`] found.
#[derive(Debug)]
pub struct Archive {
    /// One entry per game (or per file that could not be read), in path order.
    pub entries: Vec<Entry>,
    /// Text that was skipped, as `file: line L, column C: ...`.
    pub warnings: Vec<String>,
}

/// One game of the input, or the reason it could not be read.
#[derive(Debug)]
pub struct Entry {
    /// The file, as given (`(stdin)` for `-`).
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// The game, or why it could not be read.
    pub record: Result<GameRecord, String>,
}

/// Every *.pgn / *.xqf below a directory (sorted), or the file itself (`-`: stdin).
fn files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.as_os_str() == "-" {
        out.push(path.to_path_buf());
        Ok(())
    } else if path.is_dir() {
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

/// Reads every game of every file of `paths` (files, directories read recursively for `*.pgn`
/// and `*.xqf`, `-` for stdin): a broken file or game becomes an `Err` entry, so that every
/// game is accounted for. Files are recognised by content: the XQF signature, else text as PGN
/// (UTF-8 or GBK), else an error with the offset of the first binary byte. Text skipped after a
/// game's result (an archive's `=====` line and footer) is a warning, `file: where and what`.
/// `Err`: a path that does not exist or a directory that cannot be listed.
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
/// let archive = xiangqi_rules::record::archive::read(&[dir]).unwrap();
/// assert!(archive.entries.len() >= 3);
/// assert!(archive.entries.iter().any(|e| e.record.is_ok()));
/// ```
pub fn read(paths: &[PathBuf]) -> Result<Archive, String> {
    let mut list = Vec::new();
    for p in paths {
        files(p, &mut list)?;
    }
    let mut entries = Vec::new();
    let mut warnings_out = Vec::new();
    for path in list {
        let stdin = path.as_os_str() == "-";
        let file = if stdin {
            "(stdin)".to_string()
        } else {
            path.display().to_string()
        };
        let read = if stdin {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map(|_| bytes)
        } else {
            std::fs::read(&path)
        };
        let bytes = match read {
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
                record: super::xqf::read_xqf(&bytes).map_err(|e| e.to_string()),
            });
            continue;
        }
        if let Some(offset) = super::binary_offset(&bytes) {
            let e = super::RecordError::NotARecord {
                offset,
                byte: bytes[offset],
            };
            entries.push(Entry {
                file,
                game: 1,
                record: Err(e.to_string()),
            });
            continue;
        }
        let (text, _) = super::decode_text(&bytes);
        let (games, warnings) = super::pgn::read_games_noting(&text);
        warnings_out.extend(warnings.iter().map(|w| format!("{file}: {w}")));
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
    Ok(Archive {
        entries,
        warnings: warnings_out,
    })
}
