//! The built-in rule sets, compiled from `spec/rules/*.yaml` by `build.rs`
//! (`xiangqi_spec::ruleset_compile`) and built once on first use.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::{
    BothForbidden, Builtin, GravePattern, Interpretation, Matcher, MoveClass, Pattern, RuleSet,
    RulingRow, SingleAgainstJoint,
};

include!(concat!(env!("OUT_DIR"), "/rulesets.rs"));

/// The ids of the rule sets compiled into the library.
pub const BUILTIN_RULE_SETS: &[&str] = COMPILED_IDS;

fn all() -> &'static [RuleSet] {
    static ALL: OnceLock<Vec<RuleSet>> = OnceLock::new();
    ALL.get_or_init(|| {
        COMPILED_IDS
            .iter()
            .filter_map(|id| build_rule_set(id))
            .collect()
    })
}

impl Builtin for RuleSet {
    fn builtin(id: &str) -> Option<&'static RuleSet> {
        all().iter().find(|r| r.id == id)
    }
}
