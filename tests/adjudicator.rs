//! The incremental `Adjudicator` agrees with the whole-game `judge` (itself compared with the
//! oracle in tests/judge_diff.rs), and push/pop restore the game exactly.

use xiangqi_difftest::judge::seeded_game;
use xiangqi_rules::judge::{judge, Adjudicator, Builtin, RuleSet, Verdict};
use xiangqi_rules::{Move, Position, RankConvention};

#[test]
fn push_verdicts_and_judgement_equal_judge() {
    let mut ended = 0;
    for seed in 100..160 {
        let case = seeded_game(seed);
        let rules = RuleSet::builtin(&case.rules).unwrap();
        let start = Position::from_fen(&case.fen).unwrap();
        let moves: Vec<Move> = case
            .moves
            .iter()
            .map(|m| Move::parse_iccs(m, RankConvention::Iccs).unwrap())
            .collect();
        let mut adj = Adjudicator::new(rules, start.clone());
        for (i, m) in moves.iter().enumerate() {
            let v = adj.push(*m);
            let j = judge(rules, &start, &moves[..=i]).unwrap();
            let mate = adj.position().outcome().is_some();
            match &v {
                Verdict::Ends(a) if !mate => {
                    assert_eq!(
                        serde_json::to_string(&**a).unwrap(),
                        serde_json::to_string(&j).unwrap(),
                        "seed {seed} ply {}",
                        i + 1
                    );
                    ended += 1;
                }
                Verdict::Continue if !mate => {
                    // Nothing decided here: judge agrees (at most a pending repetition).
                    assert_eq!(j.ply, i + 1);
                    assert!(j.pending || j.cycle.is_empty(), "seed {seed} ply {}", i + 1);
                    let a = adj.judgement();
                    assert_eq!(
                        serde_json::to_string(&a).unwrap(),
                        serde_json::to_string(&j).unwrap()
                    );
                }
                _ => {}
            }
            if matches!(v, Verdict::Ends(_)) || mate {
                break;
            }
        }
        // Popping everything gives back the start.
        while adj.pop().is_some() {}
        assert_eq!(adj.position(), &start);
        assert_eq!(adj.occurrences(), 1);
        assert!(adj.is_empty());
    }
    assert!(ended >= 20, "only {ended} games reached a ruling");
}

#[test]
fn natural_limit_is_found_incrementally() {
    let rules = RuleSet::builtin("cxa-1999").unwrap();
    // Lone kings and rooks: shuffle without captures from a high half-move clock.
    let start = Position::from_fen("3k5/9/9/9/9/9/9/9/r8/4K3R w - - 115 60").unwrap();
    let mut adj = Adjudicator::new(rules, start.clone());
    let line = ["i0i1", "a1a2", "i1i2", "a2a3", "i2i3"];
    let mut moves = Vec::new();
    let mut verdicts = Vec::new();
    for t in line {
        let m = Move::parse_iccs(t, RankConvention::Iccs).unwrap();
        moves.push(m);
        verdicts.push(adj.push(m));
    }
    let j = judge(rules, &start, &moves).unwrap();
    let ended = verdicts
        .iter()
        .position(|v| matches!(v, Verdict::Ends(_)))
        .expect("the natural limit (120 plies) is reached");
    assert_eq!(ended + 1, 5, "115 + 5 = 120 plies");
    assert_eq!(j.ply, 5);
    assert_eq!(j.result, xiangqi_rules::judge::GameResult::Draw);
    let Verdict::Ends(a) = &verdicts[ended] else {
        unreachable!()
    };
    assert_eq!(**a, j);
}

/// The check state the adjudicator keeps per ply (tested only for moves that touch the king's
/// lines) is the position's own, along random games and after a lenient start in which the
/// side not to move is in check.
#[test]
fn incremental_check_state_is_the_positions() {
    let rules = RuleSet::builtin("cxa-1999").unwrap();
    let mut checks = 0;
    for seed in 0..100 {
        let case = seeded_game(seed);
        let mut adj = Adjudicator::new(rules, Position::from_fen(&case.fen).unwrap());
        assert_eq!(adj.in_check(), adj.position().is_check());
        for m in &case.moves {
            adj.push(Move::parse_iccs(m, RankConvention::Iccs).unwrap());
            assert_eq!(
                adj.in_check(),
                adj.position().is_check(),
                "seed {seed} after {m}"
            );
            checks += usize::from(adj.in_check());
        }
        while adj.pop().is_some() {
            assert_eq!(adj.in_check(), adj.position().is_check(), "seed {seed}");
        }
    }
    assert!(checks >= 30, "the games give checks ({checks})");
    // Black's king stands attacked by the rook with red to move (lenient): a move far from it
    // leaves the check, and the first push must still see it.
    let (start, _) = Position::from_fen_lenient("4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1").unwrap();
    let mut adj = Adjudicator::new(rules, start);
    adj.push(Move::parse_iccs("d0d1", RankConvention::Iccs).unwrap());
    assert!(adj.position().is_check());
    assert!(adj.in_check());
}

/// The occurrence counts and repetition verdicts of the adjudicator (a 4,096-slot filter over
/// the keys' top bits, the stack scanned only for a slot counted twice) are those of a plain
/// count over the positions' keys, along long random games where different positions share
/// slots.
#[test]
fn occurrences_are_counted_exactly_despite_shared_slots() {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let rules = RuleSet::builtin("cxa-1999").unwrap();
    let (mut shared, mut repeated) = (0, 0);
    for seed in 0..12 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut pos = Position::startpos();
        let mut keys = vec![pos.hash()];
        let mut adj = Adjudicator::new(rules, pos.clone());
        for ply in 1..=400 {
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play(m);
            let key = pos.hash();
            let n = keys.iter().filter(|k| **k == key).count() as u32 + 1;
            shared += usize::from(keys.iter().any(|k| *k != key && k >> 52 == key >> 52));
            keys.push(key);
            let v = adj.push(m);
            assert_eq!(adj.occurrences(), n, "seed {seed} ply {ply}");
            repeated += usize::from(n >= 2);
            match v {
                Verdict::Ends(j) if n >= rules.repetition_count => {
                    assert!(!j.cycle.is_empty(), "seed {seed} ply {ply}: a cycle");
                    break;
                }
                Verdict::Ends(j) => {
                    // Only the natural limit may end a game without a repetition.
                    assert!(j.cycle.is_empty(), "seed {seed} ply {ply}: no repetition");
                    break;
                }
                Verdict::Continue => {
                    assert!(n < rules.repetition_count, "seed {seed} ply {ply}: missed");
                }
            }
        }
        // Taking everything back restores the counts.
        while adj.pop().is_some() {
            keys.pop();
            let key = adj.position().hash();
            let n = keys.iter().filter(|k| **k == key).count() as u32;
            assert_eq!(adj.occurrences(), n, "seed {seed} after pop");
        }
    }
    assert!(shared >= 20, "positions sharing a slot: {shared}");
    assert!(repeated >= 5, "repeated positions: {repeated}");
    eprintln!("positions sharing a slot with an earlier one: {shared}; repeated: {repeated}");
}
