//! Lines of consecutive checks (1999 28.3, 29.1; 2011 24.3): what a line wins against the best
//! defence, answers that check back or allow mate, kills that also win (殺兼捉).

use super::*;

/// Interpretation `defence-that-allows-mate` (28.2, 29.1; 2011 24.2, 24.3; concept F): in a line
/// of consecutive checks, an answer after which the checker mates is lost for the defender. It
/// neither refutes the line nor counts as a defence that keeps the material.
///
/// Red's cannon returns from d8 to h8. From there it can check on h9 through the advisor f9.
/// Black has three answers:
/// - the elephant e7 blocks on g9: the rook checks from e6, the king must step to d9 (the
///   advisor cannot block on e8: the cannon would check over the elephant), and the cannon takes
///   the advisor f9 over the elephant, which, no longer pinned, cannot reach the rook;
/// - the advisor steps to e8, the check is gone, and red still wins a piece of the same worth;
/// - the king steps to e8 and keeps all its material, but the rook g6 then mates on g8.
///
/// Scored as "no gain", the king's step dropped the whole line and the return was idle. As a
/// loss for black, the return is a chase, under both rule sets, of the advisor: the best of the
/// other two answers gives it up (reading `won-against-the-best-defence`). The cannon's step
/// to d8 (ply 5) renews only the rook's standing attack on the elephant: 閒. (With the rook on
/// g7 the rook's check came from e7, where the elephant freed by the cannon's capture took it:
/// that answer then refutes the line, reading `searched-capture-answered-elsewhere`.)
#[test]
fn an_answer_that_allows_mate_does_not_refute_a_line_of_checks() {
    let fen = "4ka3/7C1/4b4/6R2/9/9/7r1/4B4/9/4K4 w - - 0 1";
    let moves = "h8d8 h3d3 d8h8 d3h3 h8d8 h3d3 d8h8 d3h3";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{j}");
        assert_eq!(class_at(&j, 7), "chase", "{j}");
        assert!(targets_at(&j, 7).contains(&"f9".to_string()), "{j}");
    }
}

/// Interpretation `won-against-the-best-defence` (28.3, 29.1; 2011 24.3): a line of consecutive
/// checks wins what the defender's best answers give up, not what a worse answer would lose.
///
/// Built from 2011 参考图3 by taking away what does not matter. Red's rook goes from c6 to a6:
/// then the pawn f8 can take the advisor f9 (the king's protection is not enough), and red has
/// lines of checks in which black could lose the rook g3 or the elephant e7, but only by a
/// worse answer than the best. The move chases the advisor f9 (the book: "可炮打士"), not the
/// rook or the elephant, under both rule sets. (The advisor e8, which a line wins after the pawn
/// takes f9 with check and the king takes it back, is no gain: the pawn is given for both
/// advisors, 26.6's 一兵换取数子; reading `won-against-the-best-defence`.) Listing every piece
/// lost after some answer made it a chase of a rook (26.8) as well.
#[test]
fn a_line_of_checks_wins_only_what_the_best_defence_gives_up() {
    let fen = "4ka3/4aP3/4b4/2R6/9/9/6r2/9/4A4/4KC3 w - - 0 1";
    let moves = "c6a6 e7c9 a6c6 c9e7 c6a6 e7c9 a6c6 c9e7";
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{rules}: {j}");
        assert_eq!(
            cycle_move(&j, 5)["targets"],
            serde_json::json!(["f9"]),
            "{rules}: {j}"
        );
    }
}

/// Readings `capture-answered-by-checks` and `pinned-departure` (24.3, 26.5): a line of checks
/// that wins the capturer back counts it once.
///
/// Red's cannon steps to b3, between black's rook b9 and red's horse b0, and attacks over the pawn
/// c3 the rook h3, which black's horse g5 protects. Taking it (+4) lets black take the horse b0
/// with check and, after the forced block, the cannon: a rook for a horse and a cannon, level
/// (价值相当): a chase citing 26.5, whether the horse a1 or a5 protects the cannon. With a horse
/// on h3 instead of the rook, the same line wins more than the capture (得不偿失): idle.
#[test]
fn a_line_that_wins_the_capturer_back_counts_it_once() {
    let moves = "b2b3 g9i7 b3b2 i7g9 b2b3 g9i7 b3b2 i7g9";
    for fen in [
        "1r2kab2/4a4/9/9/6n2/9/2P4r1/1C7/N3A4/1N2KAB2 w - - 0 1",
        "1r2kab2/4a4/9/9/N5n2/9/2P4r1/1C7/4A4/1N2KAB2 w - - 0 1",
    ] {
        let j = judged("cxa-2011", fen, moves);
        assert_eq!(class_at(&j, 5), "chase", "{j}");
        assert_eq!(cycle_move(&j, 5)["targets"][0], "h3", "{j}");
        assert!(cites(&j, 5, "26.5"), "{j}");
    }
    let horse = judged(
        "cxa-2011",
        "1r2kab2/4a4/9/9/6n2/9/2P4n1/1C7/N3A4/1N2KAB2 w - - 0 1",
        moves,
    );
    assert_eq!(class_at(&horse, 5), "idle", "{horse}");
}

/// Reading `capture-answered-by-checks` (24.3 得子): a line of checks that wins the capturer back
/// and ends level answers the capture as a recapture that ends level does, unless the capture
/// opened it (26.5, `a_line_that_wins_the_capturer_back_counts_it_once`).
///
/// Red's horse steps to f4 and attacks the cannon d3. Taking it lets black's horse a2 check from
/// c1 (the advisor d2 blocks the horse's way back to c1) and take the horse on d3: a cannon for
/// a horse, idle, as with a black horse on e5 that simply takes back.
#[test]
fn a_level_line_that_wins_the_capturer_back_wins_nothing() {
    let moves = "h3f4 c9e7 f4h3 e7c9 h3f4 c9e7 f4h3 e7c9";
    for (rules, fen) in [
        (
            "cxa-2011",
            "1rba1kb2/4a4/9/p3p3p/9/P1P5P/3c3N1/n2A5/9/4KAB2 w - - 0 1",
        ),
        (
            "cxa-1999",
            "1rba1kb2/4a4/9/p3p3p/9/P1P5P/3c3N1/n2A5/9/4KAB2 w - - 0 1",
        ),
        (
            "cxa-2011",
            "1rba1kb2/4a4/9/p3p3p/4n4/P1P5P/3c3N1/3A5/9/4KAB2 w - - 0 1",
        ),
    ] {
        let j = judged(rules, fen, moves);
        assert_eq!(class_at(&j, 5), "idle", "{rules} {fen}: {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {fen}: {j}");
    }
}

/// Reading `answer-that-checks-back` (24.3: a line of consecutive checks wins only what the
/// checker keeps against the best defence): when the defender answers a check with a check of
/// its own, the checker must answer it before it can go on; what it then loses counts against
/// the line.
///
/// (图7 without black's advisor d9.) Black's rook h8 could take the cannon h0 with check, but red
/// blocks with the rook f8-f0, which uncovers the horse's check from g8; black's king must step
/// to d9 and the rook f0 takes the rook h0. The line loses the rook for the cannon, so the rook's
/// moves only stand in the way of red's kill (拦), as in the book's 图7 (不能离线吃炮). Red kills
/// on every move and must change.
#[test]
fn an_answer_that_checks_back_wins_the_line_back() {
    let fen = "2b1k1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1";
    let j = judged("cxa-2011", fen, "i0h0 i8h8 h0i0 h8i8 i0h0 i8h8 h0i0 h8i8");
    for ply in [5, 7] {
        assert_eq!(class_at(&j, ply), "kill", "{j}");
    }
    for ply in [6, 8] {
        assert_eq!(class_at(&j, ply), "block", "{j}");
    }
    assert_eq!(j["ruling"], "red_loses", "{j}");
}

/// The note of the first move of `moves` from `fen` (cxa-2011), by the fast classifier, once
/// both classifiers are shown to classify every move alike, notes included.
fn first_note(fen: &str, moves: &str) -> String {
    use xiangqi_rules::judge::{self, Builtin};
    use xiangqi_rules::{Move, Position, RankConvention};
    let case = JudgeCase {
        rules: "cxa-2011".to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(str::to_string).collect(),
    };
    xiangqi_difftest::judge::compare_classify(&case).unwrap_or_else(|d| panic!("{d:?}"));
    let rules = judge::RuleSet::builtin("cxa-2011").expect("a bundled rule set");
    let b = judge::Tracked::new(Position::from_fen(fen).expect("a valid FEN"));
    let m = Move::parse_iccs(&case.moves[0], RankConvention::Iccs).expect("ICCS");
    judge::classify(rules, &b, m, None)
        .expect("a legal move")
        .note
}

/// The note of a check names the piece that gives it (24.1): a discovered check is the rook's,
/// uncovered by the horse, a double check is named as one, and a cannon's check made by a piece
/// stepping in as its screen is the cannon's, screened by that piece.
#[test]
fn a_discovered_or_double_check_names_the_checking_pieces() {
    let moves = "e4g5 e9f9 g5e4 f9e9 e4g5 e9f9 g5e4 f9e9";
    let fen = "2bak4/9/9/9/9/4N4/9/9/4R4/3K5 w - - 0 1";
    assert_eq!(class_at(&judged("cxa-2011", fen, moves), 5), "check");
    assert_eq!(
        first_note(fen, moves),
        "horse g5 uncovers a check (將) by rook e1"
    );
    let moves = "e5f7 e9f9 f7e5 f9e9 e5f7 e9f9 f7e5 f9e9";
    let fen = "2bak4/9/9/9/4N4/9/9/9/4R4/3K5 w - - 0 1";
    assert_eq!(
        first_note(fen, moves),
        "horse f7 gives double check (將) with rook e1"
    );
    // A piece that steps between a cannon and the king makes the check as its screen (炮架);
    // leaving one of two screens (the advisor e8 stays) uncovers it.
    let moves = "g4e5 f9e8 e5g4 e8f9 g4e5 f9e8 e5g4 e8f9";
    let fen = "2bakab2/r7r/1cn3nc1/p1p3p1p/9/6N2/P1P3P1P/1C2C4/9/RNBAKAB1R w - - 0 1";
    assert_eq!(
        first_note(fen, moves),
        "horse e5 becomes the screen of a check (將) by cannon e2"
    );
    let after = "2bak1b2/r3a3r/1cn3nc1/p1p3p1p/4N4/9/P1P3P1P/1C2C4/9/RNBAKAB1R w - - 0 1";
    assert_eq!(
        first_note(after, "e5g4 e8f9 g4e5 f9e8 e5g4 e8f9 g4e5 f9e8"),
        "horse g4 uncovers a check (將) by cannon e2"
    );
}

/// Reading `defence-that-allows-mate` (24.2, 24.3; 1999 28.2, 29.1): an answer to a check that
/// lets the checker mate is no defence, whatever material it keeps or gives.
///
/// Red's cannon checks from e2 over the pawn e3; with the rook on f1 guarding f9, black's only
/// answer is the horse's block on e7, which the cannon takes. The rook steps to i1: now the
/// king may step to f9 too, giving up the cannon d9 to the horse b8, but 车i1-f1+ then mates.
/// The best defence still loses the horse, as before: nothing new can be won, idle. Counted at
/// its material value, the king's step named the cannon d9 among what the line wins, and the
/// rook's move was a new chase of it. When every answer allows mate, the line is a kill that
/// wins besides what the answers give up (殺兼捉): the rook d7 makes 炮e2+ mate (the king's step
/// meets 车f7#, the block 车×马e7+ and mate), and its step to d3, which only gives the mate up
/// while the cannon still wins the horse, is no new chase (一殺一閒, a draw; counting only the
/// answers that escape the mate made the horse's loss new and red change).
#[test]
fn an_answer_that_allows_mate_is_no_defence() {
    let kill_given_up = judged(
        "cxa-2011",
        "rn1ck3r/6n2/b2R4b/p1p3p1p/9/9/P1P1P1P1P/1C4N2/8R/2BAKAB2 w - - 0 1",
        "d7d3 i9h9 d3d7 h9i9 d7d3 i9h9 d3d7 h9i9",
    );
    assert_eq!(class_at(&kill_given_up, 5), "idle", "{kill_given_up}");
    assert_eq!(class_at(&kill_given_up, 7), "kill", "{kill_given_up}");
    assert_eq!(kill_given_up["ruling"], "draw", "{kill_given_up}");
    let moves = "f1i1 i9i8 i1f1 i8i9 f1i1 i9i8 i1f1 i8i9";
    for fen in [
        "3ck3r/1N4n2/8b/9/9/9/4P4/1C7/5R3/4K4 w - - 0 1",
        "rn1ck3r/1N4n2/b7b/p1p3p1p/9/9/P1P1P1P1P/1C7/5R3/R1BAKABN1 w - - 0 1",
    ] {
        for rules in ["cxa-2011", "cxa-1999"] {
            let j = judged(rules, fen, moves);
            assert_eq!(class_at(&j, 5), "idle", "{rules} {fen} {j}");
            assert_eq!(class_at(&j, 7), "idle", "{rules} {fen} {j}");
            assert_eq!(j["ruling"], "draw", "{rules} {fen} {j}");
        }
    }
}

/// Reading `defence-that-allows-mate` (1999 27.4, 2011 26.4 殺兼捉): a kill wins every piece
/// one of its answers gives up, whatever is asked.
///
/// With the rook on d1, 炮b2-e2+ mates after every answer: the king's step, the block 马g8-e7
/// (which gives the horse) and the block 车a5-e5 (which gives the rook). The rook's step to i1
/// gives the kill up; the block 车a5-e5 then escapes the mate and loses the rook. The rook a5
/// was won by the kill already: the step makes nothing new, idle, and red (一殺一閒) draws.
/// Named after the least of its mated answers only (the horse), the kill did not win the rook,
/// so the step was a new chase of a5 and red had to change.
#[test]
fn a_kill_wins_every_piece_its_answers_give_up() {
    for rules in ["cxa-2011", "cxa-1999"] {
        let j = judged(
            rules,
            "1n1ck3r/6n2/3R2N1b/9/r8/9/4P4/1C7/3R5/4K4 w - - 0 1",
            "d1i1 i9i8 i1d1 i8i9 d1i1 i9i8 i1d1 i8i9",
        );
        assert_eq!(class_at(&j, 5), "idle", "{rules} {j}");
        assert_eq!(class_at(&j, 7), "kill", "{rules} {j}");
        assert_eq!(j["ruling"], "draw", "{rules} {j}");
    }
}

/// Reading `defence-that-allows-mate` (1999 27.4, 2011 26.4 殺兼捉): what a kill's answer gives up
/// is what the checker can take at once after it, not what a further line could collect by
/// declining a mate.
///
/// 炮b5-b6 lets the block 车a5-e5 answer 炮b2-e2+ and lose the rook: a new chase of a5, and red
/// (一殺一捉) must change. With the horse b8, one of red's kills (车h7-h9+ 将e8 车h8+ 将e7 马b8×c6+
/// 将f7) could take the rook a5 instead of mating; counting that as given up made the rook won
/// already, the step idle and the game a draw. The horse changes nothing: both positions are
/// judged alike.
#[test]
fn a_kill_wins_only_what_its_answers_give_up_at_once() {
    let moves = "b5b6 i9h9 b6b5 h9i9 b5b6 i9h9 b6b5 h9i9";
    for fen in [
        "n3k3c/1N7/7Rb/p1p3p1p/rC7/9/P3P1P1P/1C7/9/2BK2B2 w - - 0 1",
        "4k3c/1N7/7Rb/p1p3p1p/rC7/9/P3P1P1P/1C7/9/2BK2B2 w - - 0 1",
    ] {
        for rules in ["cxa-2011", "cxa-1999"] {
            let j = judged(rules, fen, moves);
            assert_eq!(class_at(&j, 5), "chase", "{rules} {fen} {j}");
            assert_eq!(targets_at(&j, 5), ["a5"], "{rules} {fen} {j}");
            assert_eq!(class_at(&j, 7), "kill", "{rules} {fen} {j}");
            assert_eq!(j["ruling"], "red_loses", "{rules} {fen} {j}");
        }
    }
}
