//! The spec the library was built from, carried inside it.
//!
//! `build.rs` embeds every file of `spec/` ([`FILES`]) and fingerprints them ([`HASH`]), so that
//! a program built from this crate needs no `spec/` directory at run time: the spec tooling
//! (check, diff, diagrams, the conformance suite, engine-check) reads a directory, and
//! [`dir`] writes the embedded copy to one in the system's temporary directory. A ruling is
//! reproducible only with the rules it was made under: [`HASH`] names them.
//!
//! ```
//! use xiangqi_rules::builtin_spec;
//! assert_eq!(builtin_spec::HASH.len(), 16);
//! assert!(builtin_spec::file("rules/cxa-1999.yaml").unwrap().contains("repetition"));
//! let dir = builtin_spec::dir().unwrap();
//! assert!(dir.join("board.yaml").is_file());
//! assert!(dir.join("examples/cxa-1999/fig03.yaml").is_file());
//! ```

use std::io;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/spec_files.rs"));

/// The spec hash: 64-bit FNV-1a over every file of the embedded spec (its path relative to
/// `spec/`, a 0 byte, its length as 8 little-endian bytes, its bytes; in path order), as 16
/// hexadecimal digits. Two builds from the same spec files have the same hash.
pub const HASH: &str = env!("XQ_SPEC_HASH");

/// The spec hash of a spec directory (an amended copy), computed as [`HASH`] is: equal to
/// [`HASH`] for a copy of the built-in spec.
///
/// ```
/// use xiangqi_rules::builtin_spec;
/// let dir = builtin_spec::dir().unwrap();
/// assert_eq!(builtin_spec::hash_dir(&dir).unwrap(), builtin_spec::HASH);
/// ```
pub fn hash_dir(dir: &Path) -> io::Result<String> {
    xiangqi_spec::fingerprint::hash_dir(dir)
}

/// The spec directory a tool reads: `given` (an amended copy), else the built-in spec written
/// to a directory by [`dir`].
pub fn or_builtin(given: Option<&Path>) -> Result<PathBuf, String> {
    match given {
        Some(d) => Ok(d.to_path_buf()),
        None => dir()
            .map_err(|e| format!("cannot write the built-in spec to a temporary directory: {e}")),
    }
}

/// How a spec directory is named in messages: `built-in spec (HASH)` for the copy [`dir`]
/// writes, its path otherwise.
pub fn describe(spec_dir: &Path) -> String {
    match dir() {
        Ok(builtin) if builtin == spec_dir => format!("built-in spec ({HASH})"),
        _ => spec_dir.display().to_string(),
    }
}

/// The text of the embedded file `rel` (relative to `spec/`, with `/` separators).
pub fn file(rel: &str) -> Option<&'static str> {
    FILES.iter().find(|(r, _)| *r == rel).map(|(_, text)| *text)
}

/// Writes every embedded file below `dir` (creating the directories it needs).
pub fn write_to(dir: &Path) -> io::Result<()> {
    for (rel, text) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(())
}

/// Whether `dir` holds every embedded file with the embedded text.
fn holds_copy(dir: &Path) -> bool {
    FILES
        .iter()
        .all(|(rel, text)| std::fs::read(dir.join(rel)).is_ok_and(|bytes| bytes == text.as_bytes()))
}

/// A directory holding the embedded spec: `xqrules-spec-<HASH>` in the system's temporary
/// directory, written on first use (and rewritten if a file there was changed), so that tools
/// that read a spec directory work from any working directory.
pub fn dir() -> io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("xqrules-spec-{HASH}"));
    if holds_copy(&dir) {
        return Ok(dir);
    }
    // Written beside it and renamed, so that a concurrent reader never sees half a copy. The
    // name is unique to this call: threads of one process (parallel tests) may write at once.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = std::env::temp_dir().join(format!(
        "xqrules-spec-{HASH}.{}.{call}.tmp",
        std::process::id()
    ));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp)?;
    }
    write_to(&tmp)?;
    if dir.exists() && !holds_copy(&dir) {
        // Another thread may be replacing it too: whether this removal or theirs wins, the
        // copy is checked below.
        let _ = std::fs::remove_dir_all(&dir);
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another process put its copy there first.
        std::fs::remove_dir_all(&tmp)?;
        if !holds_copy(&dir) {
            return Err(io::Error::other(format!(
                "{}: could not write the built-in spec there",
                dir.display()
            )));
        }
    }
    Ok(dir)
}
