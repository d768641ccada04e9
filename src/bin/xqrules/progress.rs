//! Progress bars on stderr for the long commands (`engine-check`, `spec check`, `spec diff`,
//! `spec index`, `diagram`, deep `perft`): the library reports through
//! [`xiangqi_rules::progress::Progress`], this draws it with `indicatif`, only when stderr is a
//! terminal, so that nothing reaches a pipe, a file or a JSON consumer.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xiangqi_rules::progress::Progress;

/// A bar per stage, counting `unit`s (`checks`, `examples`, `moves`); draws nothing when
/// stderr is not a terminal or when made quiet with [`Bar::unless`].
pub struct Bar {
    unit: &'static str,
    shown: bool,
    bar: Option<ProgressBar>,
}

impl Bar {
    /// A bar counting `unit`s, drawn when stderr is a terminal.
    pub fn new(unit: &'static str) -> Self {
        Bar {
            unit,
            shown: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    /// A bar counting `unit`s unless `quiet` (e.g. JSON output was asked for).
    pub fn unless(quiet: bool, unit: &'static str) -> Self {
        let mut bar = Bar::new(unit);
        bar.shown &= !quiet;
        bar
    }
}

impl Progress for Bar {
    fn start(&mut self, len: u64) {
        self.finish();
        if !self.shown {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        let template = format!(
            "{{bar:30}} {{pos}}/{{len}} {} {{elapsed_precise}} {{msg}}",
            self.unit
        );
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        self.bar = Some(bar);
    }

    fn message(&mut self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    fn inc(&mut self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
