//! Reading the files of a spec directory and pointing at places in them.
//!
//! YAML syntax and type errors carry serde_yaml's location. Semantic errors (a reference to an
//! unknown id, an illegal example move) are located by the node's path in the text with
//! [`xiangqi_spec::locate`], refined to the offending value where it sits on the located line
//! (a flow list such as `applies: [a, b]`).

use std::cell::OnceCell;
use std::path::Path;

use serde::de::DeserializeOwned;
use xiangqi_spec::load::Lines;

use super::diag::Diagnostic;

/// One file of the spec directory, with its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the spec directory, with `/` separators (`examples/axf/O46.yaml`).
    pub rel: String,
    /// The path as shown in diagnostics (the spec directory joined with `rel`).
    pub shown: String,
    /// The whole text.
    pub text: String,
}

impl SourceFile {
    /// Reads `dir/rel`; an unreadable file is a diagnostic at `1:1`.
    pub fn read(dir: &Path, rel: &str) -> Result<SourceFile, Diagnostic> {
        let path = dir.join(rel);
        let shown = path.display().to_string();
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(SourceFile {
                rel: rel.to_string(),
                shown,
                text,
            }),
            Err(e) => Err(Diagnostic::new(shown, 1, 1, format!("cannot read: {e}"))),
        }
    }

    /// Deserializes the text; a syntax or type error becomes a diagnostic at serde_yaml's
    /// location (without serde_yaml's own ` at line N column M` suffix).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Diagnostic> {
        serde_yaml::from_str(&self.text).map_err(|e| {
            let (line, column) = e
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((1, 1));
            let mut reason = e.to_string();
            if let Some(i) = reason.find(" at line ") {
                reason.truncate(i);
            }
            // serde lists every known field; the README is the better reference.
            if let Some(i) = reason.find(", expected one of") {
                reason.truncate(i);
                reason.push_str(" (the fields are listed in spec/examples/README.md and the rules files' headers)");
            }
            Diagnostic::new(&self.shown, line, column, reason)
        })
    }

    /// A diagnostic at the node `path` (e.g. `classes[2].move`).
    pub fn at(&self, path: &str, reason: impl Into<String>) -> Diagnostic {
        self.lines().at(path, reason)
    }

    /// A diagnostic at the node `path`, moved onto `value` when the value is written on the
    /// located line at or after the located column (items of a flow list, aliases).
    pub fn at_value(&self, path: &str, value: &str, reason: impl Into<String>) -> Diagnostic {
        self.lines().at_value(path, value, reason)
    }

    /// A diagnostic at the key `key` of the mapping `section` (for keys that contain dots, which
    /// a path cannot name, e.g. the ids under `renumber:`).
    pub fn at_key(&self, section: &str, key: &str, reason: impl Into<String>) -> Diagnostic {
        self.lines().at_key(section, key, reason)
    }

    /// The file, for placing many diagnostics in it: its [`SourceLines::at`],
    /// [`SourceLines::at_value`] and [`SourceLines::at_key`] are those of the file, splitting
    /// the text into lines once (at the first one) instead of once per diagnostic.
    pub fn lines(&self) -> SourceLines<'_> {
        SourceLines {
            file: self,
            lines: OnceCell::new(),
        }
    }
}

/// A [`SourceFile`] with its text split into lines once ([`SourceFile::lines`]).
#[derive(Clone, Debug)]
pub struct SourceLines<'a> {
    /// The file.
    pub file: &'a SourceFile,
    /// Its lines, split at the first diagnostic.
    lines: OnceCell<Lines<'a>>,
}

impl<'a> SourceLines<'a> {
    fn split(&self) -> &Lines<'a> {
        self.lines.get_or_init(|| Lines::new(&self.file.text))
    }

    /// The 1-based `(line, column)` of the node `path` ([`xiangqi_spec::locate`]).
    pub fn locate(&self, path: &str) -> (usize, usize) {
        self.split().locate(path)
    }

    /// [`SourceFile::at`].
    pub fn at(&self, path: &str, reason: impl Into<String>) -> Diagnostic {
        let (line, column) = self.locate(path);
        Diagnostic::new(&self.file.shown, line, column, reason)
    }

    /// [`SourceFile::at_value`].
    pub fn at_value(&self, path: &str, value: &str, reason: impl Into<String>) -> Diagnostic {
        let (line, column) = self.locate(path);
        let column = self.refine(line, column, value).unwrap_or(column);
        Diagnostic::new(&self.file.shown, line, column, reason)
    }

    /// [`SourceFile::at_key`].
    pub fn at_key(&self, section: &str, key: &str, reason: impl Into<String>) -> Diagnostic {
        let (line, column) = self.locate(section);
        let pat = format!("{key}:");
        let found = self
            .split()
            .lines()
            .iter()
            .enumerate()
            .skip(line)
            .find(|(_, s)| s.trim_start().starts_with(&pat))
            .map(|(l, s)| (l + 1, s.len() - s.trim_start().len() + 1));
        let (line, column) = found.unwrap_or((line, column));
        Diagnostic::new(&self.file.shown, line, column, reason)
    }

    /// The 1-based column of `value` on 1-based `line`, searching from `column`.
    fn refine(&self, line: usize, column: usize, value: &str) -> Option<usize> {
        if line == 0 || value.is_empty() {
            return None;
        }
        let s = self.split().lines().get(line - 1)?;
        let from = column.saturating_sub(1).min(s.len());
        let from = (0..=from)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        s[from..].find(value).map(|i| from + i + 1)
    }
}
