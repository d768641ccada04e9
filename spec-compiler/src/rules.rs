//! The interpreted movement vocabulary of `pieces.yaml`, shared by the compiler and (through
//! generated `static`s) by the fast implementation's move explanations.

use std::borrow::Cow;
use std::fmt;

/// Where a piece may stand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// The whole board.
    Anywhere,
    /// The own palace (九宮).
    Palace,
    /// The own half: the piece may not cross the river (河界).
    OwnHalf,
}

impl Zone {
    /// The spelling used in the spec.
    pub const fn id(self) -> &'static str {
        match self {
            Zone::Anywhere => "anywhere",
            Zone::Palace => "palace",
            Zone::OwnHalf => "own_half",
        }
    }
    /// Parses the spec spelling.
    pub fn from_id(s: &str) -> Option<Zone> {
        [Zone::Anywhere, Zone::Palace, Zone::OwnHalf]
            .into_iter()
            .find(|z| z.id() == s)
    }
}

/// Which target points a rule may move to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// An empty point or an enemy piece (default).
    MoveOrCapture,
    /// An empty point only.
    Quiet,
    /// An enemy piece only.
    Capture,
}

impl Mode {
    /// The spelling used in the spec.
    pub const fn id(self) -> &'static str {
        match self {
            Mode::MoveOrCapture => "move_or_capture",
            Mode::Quiet => "quiet",
            Mode::Capture => "capture",
        }
    }
    /// Parses the spec spelling.
    pub fn from_id(s: &str) -> Option<Mode> {
        [Mode::MoveOrCapture, Mode::Quiet, Mode::Capture]
            .into_iter()
            .find(|z| z.id() == s)
    }
}

/// When a rule applies, depending on where the piece stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// Always (default).
    Always,
    /// Only while the piece stands in its own half.
    BeforeRiver,
    /// Only once the piece stands across the river (過河).
    AfterRiver,
}

impl When {
    /// The spelling used in the spec.
    pub const fn id(self) -> &'static str {
        match self {
            When::Always => "always",
            When::BeforeRiver => "before_river",
            When::AfterRiver => "after_river",
        }
    }
    /// Parses the spec spelling.
    pub fn from_id(s: &str) -> Option<When> {
        [When::Always, When::BeforeRiver, When::AfterRiver]
            .into_iter()
            .find(|z| z.id() == s)
    }
}

/// The three movement kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// One step by a vector.
    Step,
    /// A jump by a vector, blocked by an occupied block point.
    Leap,
    /// Any distance along a direction, over exactly `screens` pieces.
    Slide,
}

impl RuleKind {
    /// The spelling used in the spec.
    pub const fn id(self) -> &'static str {
        match self {
            RuleKind::Step => "step",
            RuleKind::Leap => "leap",
            RuleKind::Slide => "slide",
        }
    }
    /// Parses the spec spelling.
    pub fn from_id(s: &str) -> Option<RuleKind> {
        [RuleKind::Step, RuleKind::Leap, RuleKind::Slide]
            .into_iter()
            .find(|z| z.id() == s)
    }
}

/// One movement rule of a piece, with vectors seen from Red (`+rank` = forward).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Step, leap or slide.
    pub kind: RuleKind,
    /// Allowed targets.
    pub mode: Mode,
    /// Condition on the start point.
    pub when: When,
    /// Where the piece may stand after the move.
    pub zone: Zone,
    /// For slides: the number of pieces jumped (砲打隔子: 1); 0 otherwise.
    pub screens: u8,
    /// Step vectors, leap targets or slide directions, `(file, rank)`.
    pub vectors: Cow<'static, [(i8, i8)]>,
    /// For leaps: the block point of each vector (same order); empty otherwise.
    pub blocks: Cow<'static, [(i8, i8)]>,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.kind.id(), self.vectors)?;
        if self.mode != Mode::MoveOrCapture {
            write!(f, " mode={}", self.mode.id())?;
        }
        if self.screens != 0 {
            write!(f, " screens={}", self.screens)?;
        }
        if self.when != When::Always {
            write!(f, " when={}", self.when.id())?;
        }
        write!(f, " zone={}", self.zone.id())
    }
}
