//! A line-oriented client for an engine running as a child process.
//!
//! The engine's stdout is read by a thread that forwards every line (lossily decoded, `\r`
//! stripped) through a channel, so that every wait has a deadline: a hanging engine becomes a
//! [`EngineError::Timeout`], a dead one an [`EngineError::Exited`]. The last lines the engine
//! printed (stdout and stderr) are kept for the error messages.
//!
//! The dialogue itself goes through [`EngineIo`], so that everything engine-check reads from an
//! engine can also be read from bytes in memory: [`ReplayEngine`] answers with the lines of any
//! [`BufRead`] (the tests and the `engine_replies` fuzz target use it).
//!
//! ```
//! use std::time::Instant;
//! use xiangqi_rules::conformance::client::{EngineError, EngineIo, ReplayEngine};
//! let mut engine = ReplayEngine::new(&b"id name Toy\r\nuciok\n"[..]);
//! engine.send("uci").unwrap();
//! let mut seen = Vec::new();
//! engine.wait_for("uciok", &mut |line| seen.push(line.to_string())).unwrap();
//! assert_eq!(seen, ["id name Toy"]);
//! // The replies end: waiting for more is an error naming what was expected.
//! let err = engine.next_line(Instant::now(), "`readyok`").unwrap_err();
//! assert!(matches!(err, EngineError::Exited { .. }));
//! assert!(err.to_string().contains("`readyok` after `uci`"), "{err}");
//! ```

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

/// How many recent output lines are kept for error messages.
const RECENT_LINES: usize = 8;

/// Why talking to the engine failed. Every variant names the command being waited for.
#[derive(Debug, Error)]
pub enum EngineError {
    /// `--engine` was empty or had an unterminated quote.
    #[error("cannot parse --engine {command:?}: {reason}")]
    BadCommandLine {
        /// The `--engine` text.
        command: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The program could not be started at all.
    #[error("engine does not start: cannot run {program:?}: {source}")]
    Spawn {
        /// The program name or path.
        program: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// No answer in time.
    #[error("engine hangs: no {expected} within {secs:.1} s (after `{command}`){recent}")]
    Timeout {
        /// The command sent last.
        command: String,
        /// What was expected (`uciok`, the perft total, ...).
        expected: String,
        /// The timeout in seconds.
        secs: f64,
        /// The last lines the engine printed, preformatted.
        recent: Recent,
    },
    /// The engine floods its output with lines that are not part of the protocol.
    #[error("engine prints garbage: {count} unrecognised lines after `{command}` while we waited for {expected}{recent}")]
    Garbage {
        /// The command sent last.
        command: String,
        /// What was expected.
        expected: String,
        /// How many unrecognised lines were read.
        count: usize,
        /// The last lines the engine printed, preformatted.
        recent: Recent,
    },
    /// The engine closed its output or exited.
    #[error(
        "engine crashed: it {status} while we waited for {expected} after `{command}`{recent}"
    )]
    Exited {
        /// The command sent last.
        command: String,
        /// What was expected.
        expected: String,
        /// How it ended (`exited with code 3`, `was killed by a signal`, ...).
        status: String,
        /// The last lines the engine printed, preformatted.
        recent: Recent,
    },
}

/// The last lines an engine printed, displayed as an indented block (or nothing).
#[derive(Debug, Clone, Default)]
pub struct Recent(pub Vec<String>);

impl std::fmt::Display for Recent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return write!(f, "; it printed nothing");
        }
        write!(f, "; its last output lines:")?;
        for line in &self.0 {
            write!(f, "\n    | {line}")?;
        }
        Ok(())
    }
}

/// Splits an `--engine` text into program and arguments: whitespace separates words; single
/// quotes keep everything literally; double quotes keep everything except `\"` and `\\`;
/// outside quotes a backslash keeps the next character.
pub fn split_command_line(text: &str) -> Result<Vec<String>, EngineError> {
    let bad = |reason| EngineError::BadCommandLine {
        command: text.to_string(),
        reason,
    };
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(bad("unterminated single quote")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(bad("unterminated double quote")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(bad("unterminated double quote")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(bad("trailing backslash")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(bad("no program given"));
    }
    Ok(words)
}

/// What the reader thread forwards.
enum Event {
    Line(String),
    Eof,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    /// Recent stdout lines.
    recent_out: VecDeque<String>,
    /// Recent stderr lines, filled by the stderr thread.
    recent_err: Arc<Mutex<VecDeque<String>>>,
    /// The last command sent, for messages.
    last_command: String,
    /// Set once the output ended; later waits fail at once.
    ended: bool,
    /// Default time to wait for an answer.
    pub timeout: Duration,
}

fn push_recent(buf: &mut VecDeque<String>, line: &str) {
    if buf.len() == RECENT_LINES {
        buf.pop_front();
    }
    let mut line = line.to_string();
    if line.len() > 200 {
        let mut cut = 200;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push('…');
    }
    buf.push_back(line);
}

/// Longer lines are cut into pieces of this many bytes, so that an engine printing without
/// line ends cannot make us buffer without limit.
const MAX_LINE: u64 = 64 * 1024;

/// Reads the next line of `reader`, lossily decoded, without the line end (`\n`, `\r\n`); a
/// line longer than [`MAX_LINE`] bytes comes in pieces. `None` at the end of the input or on a
/// read error.
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    match reader.by_ref().take(MAX_LINE).read_until(b'\n', buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            Some(String::from_utf8_lossy(buf).into_owned())
        }
    }
}

/// Reads `reader` line by line (see [`read_line`]) until `f` returns false.
fn for_each_line(reader: impl Read, mut f: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(reader);
    let mut buf = Vec::new();
    while let Some(line) = read_line(&mut reader, &mut buf) {
        if !f(line) {
            return;
        }
    }
}

/// The dialogue with an engine as engine-check conducts it: commands out, lines in, each wait
/// with a deadline. [`EngineProcess`] talks to a child process, [`ReplayEngine`] replays
/// replies from memory.
pub trait EngineIo {
    /// Sends one command line.
    fn send(&mut self, command: &str) -> Result<(), EngineError>;

    /// Waits for the next output line, at most until `deadline`. `expected` names what the
    /// caller waits for, for the error message.
    fn next_line(&mut self, deadline: Instant, expected: &str) -> Result<String, EngineError>;

    /// The deadline for an answer to a command sent now.
    fn deadline(&self) -> Instant;

    /// The last command sent, for messages.
    fn last_command(&self) -> &str;

    /// The last lines the engine printed, for messages.
    fn recent_lines(&self) -> Recent;

    /// The error for an engine that printed `count` unrecognised lines while we waited for
    /// `expected`.
    fn garbage_error(&self, expected: &str, count: usize) -> EngineError {
        EngineError::Garbage {
            command: self.last_command().to_string(),
            expected: expected.to_string(),
            count,
            recent: self.recent_lines(),
        }
    }

    /// Reads lines until one equal to `token` (trimmed), passing the others (trimmed) to
    /// `other`. Fails after the timeout, when the output ends, or after [`MAX_OTHER_LINES`]
    /// other lines (garbage).
    fn wait_for(&mut self, token: &str, other: &mut dyn FnMut(&str)) -> Result<(), EngineError> {
        let expected = format!("`{token}`");
        let deadline = self.deadline();
        for _ in 0..MAX_OTHER_LINES {
            let line = self.next_line(deadline, &expected)?;
            let line = line.trim();
            if line == token {
                return Ok(());
            }
            other(line);
        }
        Err(self.garbage_error(&expected, MAX_OTHER_LINES))
    }
}

/// [`EngineIo::wait_for`] gives up after this many lines that are not the awaited token.
pub const MAX_OTHER_LINES: usize = 10_000;

/// An engine's replies read from memory (or any [`BufRead`]): every command is accepted and
/// remembered for messages, every line comes from the reader as it would from a process (cut
/// at 64 KiB, lossily decoded, `\r` stripped), and the end of the input is an engine that
/// closed its output ([`EngineError::Exited`]). Deadlines are not waited for: nothing blocks.
#[derive(Debug)]
pub struct ReplayEngine<R> {
    reader: R,
    buf: Vec<u8>,
    recent: VecDeque<String>,
    last_command: String,
    /// Every command sent, in order.
    pub sent: Vec<String>,
}

impl<R: BufRead> ReplayEngine<R> {
    /// Replays the lines of `reader`.
    pub fn new(reader: R) -> Self {
        ReplayEngine {
            reader,
            buf: Vec::new(),
            recent: VecDeque::new(),
            last_command: "(start)".to_string(),
            sent: Vec::new(),
        }
    }

    /// The last lines read, for messages.
    pub fn recent(&self) -> Recent {
        Recent(self.recent.iter().cloned().collect())
    }
}

impl<R: BufRead> EngineIo for ReplayEngine<R> {
    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.last_command = command.to_string();
        self.sent.push(command.to_string());
        Ok(())
    }

    fn next_line(&mut self, _deadline: Instant, expected: &str) -> Result<String, EngineError> {
        match read_line(&mut self.reader, &mut self.buf) {
            Some(line) => {
                push_recent(&mut self.recent, &line);
                Ok(line)
            }
            None => Err(EngineError::Exited {
                command: self.last_command.clone(),
                expected: expected.to_string(),
                status: "closed its output".to_string(),
                recent: self.recent(),
            }),
        }
    }

    fn deadline(&self) -> Instant {
        Instant::now()
    }

    fn last_command(&self) -> &str {
        &self.last_command
    }

    fn recent_lines(&self) -> Recent {
        self.recent()
    }
}

impl EngineProcess {
    /// Starts `argv[0]` with the other words as arguments, stdin/stdout/stderr piped.
    pub fn spawn(argv: &[String], timeout: Duration) -> Result<EngineProcess, EngineError> {
        let (program, args) = argv.split_first().ok_or(EngineError::BadCommandLine {
            command: String::new(),
            reason: "no program given",
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                program: program.clone(),
                source,
            })?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            thread::spawn(move || {
                for_each_line(stdout, |line| tx.send(Event::Line(line)).is_ok());
                let _ = tx.send(Event::Eof);
            });
        } else {
            let _ = tx.send(Event::Eof);
        }
        let recent_err = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(stderr) = child.stderr.take() {
            let sink = Arc::clone(&recent_err);
            thread::spawn(move || {
                for_each_line(stderr, |line| {
                    if let Ok(mut buf) = sink.lock() {
                        push_recent(&mut buf, &line);
                    }
                    true
                })
            });
        }
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            recent_out: VecDeque::new(),
            recent_err,
            last_command: "(start)".to_string(),
            ended: false,
            timeout,
        })
    }

    /// The last lines printed, stdout first, then stderr lines marked `stderr:`.
    pub fn recent(&self) -> Recent {
        let mut lines: Vec<String> = self.recent_out.iter().cloned().collect();
        if let Ok(err) = self.recent_err.lock() {
            lines.extend(err.iter().map(|l| format!("stderr: {l}")));
        }
        Recent(lines)
    }

    /// Builds the error for an engine whose output ended: waits briefly for its exit status.
    fn exited_error(&mut self, expected: &str) -> EngineError {
        self.ended = true;
        let status = self.wait_for_exit(Duration::from_millis(500));
        let status = match status {
            Some(s) => describe_status(s),
            None => "closed its output".to_string(),
        };
        // Give the stderr thread a moment to collect the last words.
        thread::sleep(Duration::from_millis(50));
        EngineError::Exited {
            command: self.last_command.clone(),
            expected: expected.to_string(),
            status,
            recent: self.recent(),
        }
    }

    /// Polls for the exit status for at most `limit`.
    fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Asks the engine to quit, then ends it if it has not within a second.
    pub fn shutdown(&mut self, quit_command: &str) {
        if !self.ended {
            if let Some(stdin) = self.stdin.as_mut() {
                let _ = writeln!(stdin, "{quit_command}").and_then(|()| stdin.flush());
            }
        }
        self.stdin = None; // closing stdin also tells well-behaved engines to stop
        if self.wait_for_exit(Duration::from_secs(1)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl EngineIo for EngineProcess {
    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.last_command = command.to_string();
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited_error("its input to accept the command")),
        }
    }

    fn next_line(&mut self, deadline: Instant, expected: &str) -> Result<String, EngineError> {
        if self.ended {
            return Err(self.exited_error(expected));
        }
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(line)) => {
                push_recent(&mut self.recent_out, &line);
                Ok(line)
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Err(self.exited_error(expected))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                command: self.last_command.clone(),
                expected: expected.to_string(),
                secs: self.timeout.as_secs_f64(),
                recent: self.recent(),
            }),
        }
    }

    fn last_command(&self) -> &str {
        &self.last_command
    }

    fn recent_lines(&self) -> Recent {
        self.recent()
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.timeout
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `exited with code 3`, `was killed by signal 11`, ...
fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    "exited".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_command_line(s).expect("splits")
    }

    #[test]
    fn splits_plain_words_and_quotes() {
        assert_eq!(words("  engine  -x "), ["engine", "-x"]);
        assert_eq!(
            words(r#"python3 'a b.py' --fen "r n\"b" x\ y"#),
            ["python3", "a b.py", "--fen", "r n\"b", "x y"]
        );
        assert_eq!(words("''"), [""]);
    }

    #[test]
    fn rejects_empty_and_unterminated() {
        assert!(split_command_line("   ").is_err());
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a\\").is_err());
    }
}
