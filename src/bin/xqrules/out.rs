//! Writing to stdout without panicking when the reader has gone away.
//!
//! `print!` panics when stdout is a closed pipe (`xqrules judge --batch FILE | head -1`). Every
//! command prints through the `out!` and `outln!` macros of `main.rs` instead: a closed
//! pipe ends the process quietly with exit code 141 (128 + SIGPIPE, what a shell reports for a
//! program stopped by a closed pipe), any other write error is reported with exit code 2.

use std::io::Write;

/// The exit code after the reader of stdout closed the pipe: 128 + SIGPIPE (13).
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Writes `args` (and a newline when `newline`) to stdout and flushes it.
pub fn write(args: std::fmt::Arguments<'_>, newline: bool) {
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                stdout.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| stdout.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        eprintln!("xqrules: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}
