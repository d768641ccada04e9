//! Diagnostics of `xqrules spec check`: `file:line:column: reason`, sortable and deduplicated.

use std::fmt;

/// One problem found in a spec directory.
///
/// `Display` is the contract of `xqrules spec check`: `file:line:column: reason`, with the file
/// as the spec directory joined with the file's relative path (e.g. `spec/examples/axf/O46.yaml`)
/// and a 1-based line and column. A location that cannot be found is printed as `1:1`, never
/// left out, so every line has the same shape for editors and scripts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// The file, as displayed (spec directory joined with the relative path).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, in one line.
    pub reason: String,
}

impl Diagnostic {
    /// A diagnostic at `(line, column)`; zeros (unknown) become 1.
    pub fn new(
        file: impl Into<String>,
        line: usize,
        column: usize,
        reason: impl Into<String>,
    ) -> Self {
        let reason: String = reason.into();
        Diagnostic {
            file: file.into(),
            line: line.max(1),
            column: column.max(1),
            // One diagnostic, one line: a multi-line message is folded.
            reason: reason.split_whitespace().collect::<Vec<_>>().join(" "),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.reason
        )
    }
}

/// Sorts by file, line, column and reason, and drops exact duplicates.
pub fn normalize(diags: &mut Vec<Diagnostic>) {
    diags.sort();
    diags.dedup();
}
