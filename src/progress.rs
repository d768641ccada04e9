//! Progress of the long operations of the library (`spec check`, `spec diff`, the diagrams and
//! the index, deep perft, engine-check), for a progress bar or a GUI to show.
//!
//! The library only reports: each stage says how many steps it has ([`Progress::start`]), what
//! it works on ([`Progress::message`]) and when a step is done ([`Progress::inc`]). Drawing is
//! the caller's business (the `xqrules` binary draws an `indicatif` bar on stderr when stderr
//! is a terminal); [`NoProgress`] ignores everything.
//!
//! ```
//! use xiangqi_rules::progress::Progress;
//! use xiangqi_rules::Position;
//!
//! /// Remembers the count after each step.
//! #[derive(Default)]
//! struct Steps {
//!     len: u64,
//!     done: Vec<u64>,
//! }
//! impl Progress for Steps {
//!     fn start(&mut self, len: u64) {
//!         self.len = len;
//!     }
//!     fn message(&mut self, _text: String) {}
//!     fn inc(&mut self) {
//!         self.done.push(self.done.len() as u64 + 1);
//!     }
//!     fn finish(&mut self) {}
//! }
//!
//! let mut steps = Steps::default();
//! let divide = Position::startpos().perft_divide_with(2, &mut steps);
//! assert_eq!(steps.len, 44);
//! assert_eq!(steps.done, (1..=44).collect::<Vec<u64>>());
//! assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 1920);
//! ```

/// Where a long operation reports its progress (a progress bar, a GUI); [`NoProgress`]
/// ignores it. An operation may run several stages, each from [`Progress::start`] to
/// [`Progress::finish`], with exactly `len` calls of [`Progress::inc`] in between unless it
/// stops early on an error.
pub trait Progress {
    /// A stage of `len` steps begins.
    fn start(&mut self, len: u64);
    /// What is being worked on now (shown beside the bar).
    fn message(&mut self, text: String);
    /// One step is done.
    fn inc(&mut self);
    /// The stage ends.
    fn finish(&mut self);
}

/// Progress that nobody watches.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&mut self, _len: u64) {}
    fn message(&mut self, _text: String) {}
    fn inc(&mut self) {}
    fn finish(&mut self) {}
}
