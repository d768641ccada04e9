//! The files of a spec directory and their fingerprint (the spec hash), shared by `build.rs`
//! (which embeds the files and the hash of the built-in spec) and the library (which hashes an
//! amended copy the same way).

use std::io;
use std::path::{Path, PathBuf};

/// Every file below `dir` as `(path relative to dir with / separators, path)`, sorted by the
/// relative path.
pub fn spec_files(dir: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) -> io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if entry.file_type()?.is_dir() {
                walk(&entry.path(), &rel, out)?;
            } else {
                out.push((rel, entry.path()));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, "", &mut files)?;
    files.sort();
    Ok(files)
}

/// The spec hash under construction: 64-bit FNV-1a over each file's relative path, a 0 byte,
/// its length (8 bytes, little endian) and its bytes, fed in path order.
#[derive(Clone, Copy, Debug)]
pub struct SpecHash(u64);

impl Default for SpecHash {
    fn default() -> Self {
        SpecHash(0xcbf2_9ce4_8422_2325)
    }
}

impl SpecHash {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds one file: its relative path and its bytes.
    pub fn file(&mut self, rel: &str, bytes: &[u8]) {
        self.feed(rel.as_bytes());
        self.feed(&[0]);
        self.feed(&(bytes.len() as u64).to_le_bytes());
        self.feed(bytes);
    }

    /// The hash as 16 hexadecimal digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The spec hash of the directory `dir`.
pub fn hash_dir(dir: &Path) -> io::Result<String> {
    let mut h = SpecHash::default();
    for (rel, path) in spec_files(dir)? {
        h.file(&rel, &std::fs::read(path)?);
    }
    Ok(h.hex())
}
