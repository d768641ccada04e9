//! The machine form of a repetition rule set (棋例, `spec/rules/<id>.yaml` with `terms.yaml`):
//! parameters, patterns, severity, ruling table and the switches of the chase definition and
//! of the exceptions. The fields and their meanings are those of the oracle's `RuleSet`, so that
//! the two judges can be compared field by field.
//!
//! The types are plain owned data, built from the YAML (with `file:line:column` errors) and
//! rendered as Rust source for the build script.

use std::collections::BTreeMap;

/// A move class (著法性質, terms.yaml): the three attacks, idle, and the idle kinds.
///
/// ```
/// use xiangqi_spec::ruleset::MoveClass;
/// assert_eq!(MoveClass::from_name("chase"), Some(MoveClass::Chase));
/// assert_eq!(MoveClass::Chase.zh(), "捉");
/// assert!(MoveClass::Kill.is_attack() && !MoveClass::Offer.is_attack());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum MoveClass {
    /// 將 check (28.1 / 24.1).
    Check,
    /// 殺 kill (28.2 / 24.2).
    Kill,
    /// 捉 chase (28.3 / 24.3).
    Chase,
    /// 兑 exchange (28.5 / 24.4).
    Exchange,
    /// 獻 offer (28.6 / 24.5).
    Offer,
    /// 攔 block (28.7 / 24.6).
    Block,
    /// 跟 follow (28.8 / 24.7).
    Follow,
    /// 閒 idle (28.9 / 24.8).
    Idle,
}

impl MoveClass {
    /// Every class, in declaration order.
    pub const ALL: [MoveClass; 8] = [
        MoveClass::Check,
        MoveClass::Kill,
        MoveClass::Chase,
        MoveClass::Exchange,
        MoveClass::Offer,
        MoveClass::Block,
        MoveClass::Follow,
        MoveClass::Idle,
    ];

    /// The machine name of terms.yaml (`check`, `kill`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Check => "check",
            MoveClass::Kill => "kill",
            MoveClass::Chase => "chase",
            MoveClass::Exchange => "exchange",
            MoveClass::Offer => "offer",
            MoveClass::Block => "block",
            MoveClass::Follow => "follow",
            MoveClass::Idle => "idle",
        }
    }

    /// The class with machine name `n`.
    pub fn from_name(n: &str) -> Option<MoveClass> {
        MoveClass::ALL.into_iter().find(|c| c.name() == n)
    }

    /// Check, kill and chase are attacks (打, 28.4).
    pub const fn is_attack(self) -> bool {
        matches!(self, MoveClass::Check | MoveClass::Kill | MoveClass::Chase)
    }

    /// The Chinese name (traditional).
    pub const fn zh(self) -> &'static str {
        match self {
            MoveClass::Check => "將",
            MoveClass::Kill => "殺",
            MoveClass::Chase => "捉",
            MoveClass::Exchange => "兑",
            MoveClass::Offer => "獻",
            MoveClass::Block => "攔",
            MoveClass::Follow => "跟",
            MoveClass::Idle => "閒",
        }
    }
}

impl serde::Serialize for MoveClass {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One recorded reading of the text (`interpretations:` entries).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Interpretation {
    /// Stable id.
    pub id: String,
    /// Article(s) concerned.
    pub article: String,
    /// The reading chosen.
    pub reading: String,
    /// Why.
    pub why: String,
}

/// A condition on the (reduced or qualified) classes of one side's moves in a cycle
/// (`match:` of a pattern, art. 25.2 / 24.13–24.14).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matcher {
    /// Every move's class is in this set.
    pub all_in: Option<Vec<String>>,
    /// Each of these classes occurs.
    pub each_of: Option<Vec<String>>,
    /// At least one move's class is in this set.
    pub any_in: Option<Vec<String>>,
    /// At least one class of each set occurs.
    pub each_of_groups: Option<Vec<Vec<String>>>,
    /// Matches anything (24.14).
    pub otherwise: bool,
}

impl Matcher {
    /// Does a side's list of move labels match? Each move has a set of labels: its reduced
    /// class (`chase`) and, for chases, qualified names (`chase.rook`); a label set satisfies
    /// "class in S" when any of its labels is in S. An empty list matches nothing.
    ///
    /// ```
    /// use xiangqi_spec::ruleset::Matcher;
    /// let m = Matcher { all_in: Some(vec!["check".into()]), ..Matcher::default() };
    /// assert!(m.matches(&[vec!["check".into()], vec!["check".into()]]));
    /// assert!(!m.matches(&[vec!["check".into()], vec!["idle".into()]]));
    /// assert!(!m.matches(&[]));
    /// ```
    pub fn matches(&self, moves: &[Vec<String>]) -> bool {
        self.matches_labels(moves)
    }

    /// [`Matcher::matches`] for labels of any string type (borrowed from the rule set, say).
    ///
    /// ```
    /// use xiangqi_spec::ruleset::Matcher;
    /// let m = Matcher { any_in: Some(vec!["chase".into()]), ..Matcher::default() };
    /// assert!(m.matches_labels(&[vec!["idle"], vec!["chase", "chase.rook"]]));
    /// assert!(!m.matches_labels(&[vec!["idle"]]));
    /// ```
    pub fn matches_labels<S: AsRef<str>>(&self, moves: &[Vec<S>]) -> bool {
        if moves.is_empty() {
            return false;
        }
        if self.otherwise {
            return true;
        }
        let has = |m: &[S], set: &[String]| m.iter().any(|l| set.iter().any(|x| x == l.as_ref()));
        if let Some(all) = &self.all_in {
            if !moves.iter().all(|m| has(m, all)) {
                return false;
            }
        }
        if let Some(each) = &self.each_of {
            if !each
                .iter()
                .all(|c| moves.iter().any(|m| m.iter().any(|l| l.as_ref() == c)))
            {
                return false;
            }
        }
        if let Some(any) = &self.any_in {
            if !moves.iter().any(|m| has(m, any)) {
                return false;
            }
        }
        if let Some(groups) = &self.each_of_groups {
            if !groups.iter().all(|g| moves.iter().any(|m| has(m, g))) {
                return false;
            }
        }
        true
    }
}

/// A named pattern of one side's moves in a cycle (art. 25.2; 2011 24.13, 24.14).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Spec id.
    pub id: String,
    /// Article as printed in the edition.
    pub article: String,
    /// Machine name (`perpetual_check`, `chases_and_idle`, ...).
    pub name: String,
    /// Chinese name.
    pub zh_name: String,
    /// `forbidden` (禁止著法) or `allowed` (允許著法).
    pub forbidden: bool,
    /// Key into the ruling table (`perpetual_check` | `forbidden` | `allowed`).
    pub ruling_key: String,
    /// The condition.
    pub matcher: Matcher,
}

/// One row of the ruling table (art. 24.1–24.3, 26.1–26.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulingRow {
    /// Red's ruling key.
    pub red: String,
    /// Black's ruling key.
    pub black: String,
    /// `red_loses` | `black_loses` | `draw`.
    pub result: String,
    /// Outright result?
    pub immediate: bool,
    /// `red` | `black` | none.
    pub must_change: Option<String>,
    /// Articles that decide.
    pub articles: Vec<String>,
}

/// A grave pattern of 2011 art. 26.8.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravePattern {
    /// Name.
    pub name: String,
    /// Condition on qualified classes.
    pub matcher: Matcher,
}

/// A step of 26.8.2 / 26.8.3 (单方长捉…对方联合捉…前者变着): a side whose labels match `side_a`
/// (a perpetual chase with single pieces) against one whose labels match `side_b` (a joint chase)
/// must change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleAgainstJoint {
    /// The changing side's labels.
    pub side_a: Matcher,
    /// The other side's labels.
    pub side_b: Matcher,
    /// The step's article (`26.8.2`).
    pub article: String,
    /// `neither_grave: true`: the step decides only when neither side's pattern is grave by
    /// 26.8.1 (the joint side is no 单方长捉 itself); otherwise it is only cited beside a 26.8.1
    /// ruling that it agrees with.
    pub neither_grave: bool,
}

/// The 2011 procedure for both sides forbidden (art. 26.8.1–26.8.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BothForbidden {
    /// Article of the whole procedure (`26.8`).
    pub article: String,
    /// Articles of the steps in order (`26.8.1` .. `26.8.4`).
    pub step_articles: Vec<String>,
    /// 26.8.1.
    pub grave: Vec<GravePattern>,
    /// 26.8.2 / 26.8.3, in order.
    pub pairs: Vec<SingleAgainstJoint>,
    /// Priority of chase qualifiers when one chase has several targets.
    pub qualifier_priority: Vec<String>,
}

/// The machine form of one repetition rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSet {
    /// `cxa-1999` or `cxa-2011`.
    pub id: String,
    /// Title.
    pub title: String,
    /// 4.2.3: occurrences of one position that make a position awaiting a ruling.
    pub repetition_count: u32,
    /// 4.2.4: rounds without capture for the natural limit (0 = no limit).
    pub natural_limit_moves: u32,
    /// 23.3: the claimant's checks counted at most.
    pub check_cap_moves: u32,
    /// 28.2: plies of the kill search.
    pub kill_search_depth: u32,
    /// 28.3: plies of forcing sequences in the chase search.
    pub chase_search_depth: u32,
    /// 29.4 / 2011 24.3: plies of the "mated at once" search (1 = mate in one).
    pub mated_at_once_plies: u32,
    /// Exchange value of a crossed or uncrossed pawn (its value floats, 25.3 / 26.6).
    pub floating_pawn_value: f64,
    /// Severity order, heaviest first (27.4 / 26.4).
    pub severity: Vec<MoveClass>,
    /// How the idle kinds are reduced before pattern matching (28.9).
    pub reduce: BTreeMap<String, String>,
    /// Patterns in the order tried.
    pub patterns: Vec<Pattern>,
    /// The ruling table.
    pub ruling_table: Vec<RulingRow>,
    /// 2011: the both-forbidden procedure that replaces the (forbidden, forbidden) row.
    pub both_forbidden: Option<BothForbidden>,
    /// Forms of chase (29.1 / 24.3): `direct_capture`, `capture_after_consecutive_checks`,
    /// `gain_by_exchange_sequence`, `joint_capture`, `discovered_attack`.
    pub chase_forms: Vec<String>,
    /// Classify joint chases (24.17) with a qualifier.
    pub joint_chase: bool,
    /// 24.17: a joint threat counts on every move of a piece taking part in it.
    pub joint_chase_renewed: bool,
    /// 24.3: a complete exchange may run over two squares, taking away another piece's
    /// protector (`exchange_over_two_squares`, reading `exchange-removes-protector`).
    pub exchange_over_two_squares: bool,
    /// 24.3 / 24.15: a capture that the other side's consecutive checks win back is no gain
    /// (`won_back_by_checks_is_protection`, reading `capture-answered-by-checks`).
    pub won_back_by_checks_is_protection: bool,
    /// 24.3 / 29.1: the other side answers a capture by the best exchange it can start anywhere on
    /// the board, not only by recapturing (`exchange_answered_anywhere`, reading
    /// `complete-exchange-any-square`).
    pub exchange_answered_anywhere: bool,
    /// 2011 26.1.2 and 从捉到捉 in context (`newness_in_context`, reading `newness-in-context`):
    /// after a check answered by a piece other than the king, the threats that stood before
    /// the check are not new; after a kill, a capture that does not parry the mate won nothing
    /// before.
    pub newness_in_context: bool,
    /// 2011 26.1, 26.7 (`exemption_by_capturer`, reading `exemption-by-capturer`): the king and
    /// pawn exemptions belong to the pieces that capture, not to the first piece of a line.
    pub exemption_by_capturer: bool,
    /// 24.4, 26.9, 26.10 (`pin_renews_chase`, reading `pinned-target-cannot-accept`): a standing
    /// threat to a piece that cannot leave its square without its side being mated at once is
    /// renewed, as a joint chase, by each move of the piece that keeps it so pinned.
    pub pin_renews_chase: bool,
    /// 2011 26.9 (the `same_type_exchange` exception's `reclass`): a pair of equal pieces that
    /// can take each other is an exchange (兑) only if the target can accept it: the capture
    /// loses it no value and does not let it be mated at once.
    pub exchange_needs_acceptance: bool,
    /// 26.6: giving up crossed pawns to win a rook is a gain.
    pub pawn_for_rook_is_gain: bool,
    /// 26.6 (`just_crossed_pawn_is_material`, reading `just-crossed-pawn`): a pawn taken on the
    /// ply after its crossing move counts its floating value (true; absent: the 1999 text) or
    /// nothing (false: 立即吃掉刚过河的兵也不算得子).
    pub just_crossed_pawn_is_material: bool,
    /// 27.2: pawn threats count as chases in mutual perpetual attack.
    pub pawn_mutual_attack: bool,
    /// 27.3 / 26.2: the key-point exception: `targets` (only the advisor/elephant chases become
    /// idle, the rest of the move keeps its nature) or `move` (the move is idle).
    pub key_point_scope: Option<String>,
    /// 27.3 / 26.2 `defending_side`: the exception holds only for the side holding out for a draw
    /// (守和方): the opponent's attacking pieces are worth more than the mover's last one, or as
    /// much with at least as much material in all (reading `key-point-2011`).
    pub key_point_defending: bool,
    /// 2011 26.5: a protector's or pinned piece's chase that loses value is idle.
    pub protector_chase_needs_gain: bool,
    /// After a must-change ruling, how many more times the side that had to change may repeat
    /// the cycle before it loses where the last of them ends (`procedure`, the must-change
    /// entry's `loses_after_further_cycles`; 1999 24.3, 2011 4.1.5: once, reading
    /// `repeat-after-must-change`); `None`: judging stops at the ruling.
    pub loses_after_further_cycles: Option<u32>,
    /// King-answers-check exception (2011 26.1.2; 1999 reading).
    pub king_answer_idle: bool,
    /// 2011 26.9: a mate that needs the mover to take a piece it offers in exchange is no kill.
    pub kill_avoids_offered: bool,
    /// 25.3 / 26.6: a pawn won by a line of consecutive checks is no gain.
    pub pawn_by_checks_no_gain: bool,
    /// Article numbers by entry id (after renumbering), for citations.
    pub articles: BTreeMap<String, String>,
    /// Article of each class definition (`check` -> `28.1`).
    pub class_articles: BTreeMap<String, String>,
    /// Chinese names of the classes.
    pub class_zh: BTreeMap<String, String>,
    /// 28.6 / 24.5 offer (献): any enemy piece may take the offered piece (`taker_2011: any`),
    /// not only one of the same type (1999: 對方同兵種子).
    pub offer_any_taker: bool,
    /// Every interpretation recorded in the rule set (base and overlay).
    pub interpretations: Vec<Interpretation>,
    /// How single moves are classified (`judge.classifier`): `cxa` (the exchange test of
    /// 28.3 / 29) or `axf` (the piece-pair chase of the Asian rules).
    pub classifier: String,
    /// Articles of a checkmate (`judge.mate_articles`; CXA 3.1, 4.1.1).
    pub mate_articles: Vec<String>,
    /// Articles of a stalemate (`judge.stalemate_articles`; CXA 3.2, 4.1.3).
    pub stalemate_articles: Vec<String>,
    /// Articles of the natural limit (`judge.natural_limit_articles`; CXA 4.2.4, 23.3).
    pub natural_limit_articles: Vec<String>,
    /// `judge.cycle_span: all`: the moves ruled on are all those since the first occurrence of
    /// the repeated position (AXF); otherwise (CXA) those since its previous occurrence.
    pub cycle_from_first: bool,
    /// A piece whose chase by certain pieces counts whatever its protection (AXF 第三節 6:
    /// 馬或炮如長捉有根車亦作負; the chase condition's `target_piece` and `attacker_pieces`):
    /// (target, attackers), piece ids of `pieces.yaml`.
    pub chase_despite_protection: Option<(String, Vec<String>)>,
}

impl RuleSet {
    /// The article number of a spec entry id, after the edition's renumbering (the id itself
    /// when unknown).
    pub fn article(&self, id: &str) -> String {
        self.articles
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    /// The article defining a move class in this edition (e.g. chase: 28.3 / 24.3); empty
    /// when the rule set does not say.
    pub fn class_article(&self, class: MoveClass) -> String {
        self.class_articles
            .get(class.name())
            .cloned()
            .unwrap_or_default()
    }
}
