#!/usr/bin/env python3
"""Generator of the protection strata of the AXF peer corpus (tests/peers/axf-protection-corpus.jsonl).

The games of tests/peers/axf-corpus.jsonl are cycles where an attacker follows a fleeing piece, or
checks: none has a protector that a move takes away. This script builds games on purpose for the
readings of protection (spec/rules/axf.yaml, chase conditions protection-taken, protector-cut-off,
same-type; interpretation axf-check-and-chase). Each stratum is a *motif* that one move of the cycle
must show, tested with a small legal-move generator of this script (`legal`, `reaches`; pyffish is
too slow per call for the search, and every kept game is replayed move by move by pyffish when it
rules):

- pinned_protector: an attack X x T stands before and after the move; before it some legal
  recapture on T's point exists, after it none, and a former recapturer still reaches the point by
  its own movement (the move pinned it, or made the recapture leave the kings facing);
- discovered_check: the same, and after the move the capture X x T gives check (discovered or
  x-ray), which the recapture does not stop;
- cut_line: the same, but no former recapturer reaches the point any more (the move changed a
  cannon's screens or blocked a rook's line, a horse's leg or an elephant's eye);
- same_type: the move creates an attack on a piece of the attacker's type that cannot take back;
- check_and_attack: the move checks and also creates an attack on another piece (照兼捉).

Candidates are random sparse positions (kings plus 3-7 pieces a side); for a move with the motif, a
reply that lets both moves be taken back closes a 4-ply cycle, played three times. Cycles where the
motif holds on both moves of the mover are tried first. Our fast judge (`xqrules judge --rules axf
--batch -`) and pyffish rule each game; up to --per-stratum games a stratum are kept.

Usage: axf_protection.py XQRULES_BINARY [--seed S] [--per-stratum K] [--positions N]
(about 15 minutes for 100 games a stratum). The replay of the kept games, with the check that every
disagreement is listed in tests/peers/axf-disagreements.yaml, is part of tests/peers/axf_pyffish.py
(run_pyffish.sh).
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axf_pyffish import ROOT, sf, to_uci, fs_ruling, our_ruling, judge_ours  # noqa: E402

OUT = ROOT / "tests/peers/axf-protection-corpus.jsonl"
MOTIFS = ["pinned_protector", "discovered_check", "cut_line", "same_type", "check_and_attack"]


def sq_xy(s):
    return ord(s[0]) - ord("a"), int(s[1:]) - 1


def board_of(fen):
    """{(file, rank): letter} from a FEN (ranks 0-9)."""
    out = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        r, f = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out[(f, r)] = ch
                f += 1
    return out


def sign(v):
    return (v > 0) - (v < 0)


def reaches(board, frm, to):
    """Can the piece on `frm` move to `to` by its movement rules alone (check and facing kings not
    considered; `to` may hold an enemy piece)? Ranks 0-9, Red at the bottom."""
    p = board.get(frm)
    if p is None or frm == to:
        return False
    red = p.isupper()
    q = board.get(to)
    if q is not None and q.isupper() == red:
        return False
    (f, r), (tf, tr) = frm, to
    dx, dy = tf - f, tr - r
    kind = p.upper()
    if kind in "RC":
        if dx and dy:
            return False
        between = sum(1 for k in range(1, max(abs(dx), abs(dy)))
                      if (f + k * sign(dx), r + k * sign(dy)) in board)
        if kind == "R":
            return between == 0
        return between == 0 if q is None else between == 1
    if kind == "N":
        if sorted((abs(dx), abs(dy))) != [1, 2]:
            return False
        leg = (f + sign(dx), r) if abs(dx) == 2 else (f, r + sign(dy))
        return leg not in board
    if kind == "B":
        own_side = tr <= 4 if red else tr >= 5
        return abs(dx) == 2 and abs(dy) == 2 and own_side and (f + dx // 2, r + dy // 2) not in board
    in_palace = 3 <= tf <= 5 and (tr <= 2 if red else tr >= 7)
    if kind == "A":
        return abs(dx) == 1 and abs(dy) == 1 and in_palace
    if kind == "K":
        return abs(dx) + abs(dy) == 1 and in_palace
    if kind == "P":
        fwd = 1 if red else -1
        crossed = r >= 5 if red else r <= 4
        return (dx == 0 and dy == fwd) or (crossed and dy == 0 and abs(dx) == 1)
    return False


DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
HORSE = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)]


def on_board(f, r):
    return 0 <= f <= 8 and 0 <= r <= 9


def pseudo_targets(board, frm):
    """The points the piece on `frm` may move to by its movement rules (a fast form of
    `reaches` over the whole board)."""
    p = board[frm]
    red = p.isupper()
    kind = p.upper()
    f, r = frm
    out = []

    def free_or_enemy(sq):
        q = board.get(sq)
        return q is None or q.isupper() != red

    if kind in "RC":
        for dx, dy in DIRS:
            x, y, screen = f + dx, r + dy, False
            while on_board(x, y):
                q = board.get((x, y))
                if not screen:
                    if q is None:
                        out.append((x, y))
                    else:
                        if kind == "R":
                            if q.isupper() != red:
                                out.append((x, y))
                            break
                        screen = True
                elif q is not None:
                    if q.isupper() != red:
                        out.append((x, y))
                    break
                x, y = x + dx, y + dy
        return out
    if kind == "N":
        for dx, dy in HORSE:
            to = (f + dx, r + dy)
            leg = (f + dx // 2, r) if abs(dx) == 2 else (f, r + dy // 2)
            if on_board(*to) and leg not in board and free_or_enemy(to):
                out.append(to)
        return out
    for dx in (-2, -1, 0, 1, 2):
        for dy in (-2, -1, 0, 1, 2):
            to = (f + dx, r + dy)
            if on_board(*to) and (dx or dy) and free_or_enemy(to) and reaches(board, frm, to):
                out.append(to)
    return out


def king_of(board, red):
    k = "K" if red else "k"
    for sq, p in board.items():
        if p == k:
            return sq
    return None


def attacked_king(board, red):
    """Is the king of `red` (True: Red) attacked, or facing the other king?"""
    k = king_of(board, red)
    o = king_of(board, not red)
    if k is None or o is None:
        return True
    if k[0] == o[0] and not any((k[0], y) in board for y in range(min(k[1], o[1]) + 1, max(k[1], o[1]))):
        return True
    return any(p.isupper() != red and reaches(board, sq, k) for sq, p in list(board.items()))


def legal(board, red):
    """The legal moves ((from, to) pairs) of `red` (True: Red) on `board`."""
    out = []
    for frm, p in list(board.items()):
        if p.isupper() != red:
            continue
        for to in pseudo_targets(board, frm):
            b = dict(board)
            b[to] = b.pop(frm)
            if not attacked_king(b, red):
                out.append((frm, to))
    return out


def play(board, mv):
    b = dict(board)
    b[mv[1]] = b.pop(mv[0])
    return b


def iccs(mv):
    (f, r), (tf, tr) = mv
    return f"{chr(97 + f)}{r}{chr(97 + tf)}{tr}"


def fen_of(board, red):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if (f, r) in board:
                row += (str(empty) if empty else "") + board[(f, r)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if red else " b") + " - - 0 1"


def captures(board, red):
    """The legal captures of `red` on pieces other than the king."""
    return [m for m in legal(board, red) if m[1] in board and board[m[1]].upper() != "K"]


def recaptures(board, red, c):
    """The legal recaptures of the other side after `red` plays capture `c`."""
    return [m for m in legal(play(board, c), not red) if m[1] == c[1]]


def protected_attacks(board, red):
    """The standing captures of `red` (not by a king or a pawn) whose target has a legal
    recapture: {capture: [recaptures]}."""
    out = {}
    for c in captures(board, red):
        if board[c[0]].upper() in "KP":
            continue
        r = recaptures(board, red, c)
        if r:
            out[c] = r
    return out


def motif(board, red, a, standing, want):
    """The motif move `a` of `red` shows (see the module doc), or None."""
    after = play(board, a)
    check = attacked_king(after, not red)
    now = captures(after, red)
    if check:
        if "check_and_attack" in want and {m[1] for m in now} - {m[1] for m in captures(board, red)}:
            return "check_and_attack"
        return None
    for c, before in standing.items():
        if c not in now or recaptures(after, red, c):
            continue
        taken = play(after, c)
        if attacked_king(taken, not red):
            m = "discovered_check"
        elif any(reaches(taken, r[0], c[1]) for r in before):
            m = "pinned_protector"
        else:
            m = "cut_line"
        return m if m in want else None
    if "same_type" in want:
        old = set(captures(board, red))
        for c in now:
            if c in old:
                continue
            px, pt = after[c[0]], after[c[1]]
            if px.upper() == pt.upper() and px.upper() not in "KP" \
                    and (c[1], c[0]) not in legal(after, not red):
                return "same_type"
    return None


def quiet_moves(board, red):
    return [m for m in legal(board, red) if m[1] not in board]


def closes(board, red, a, b):
    """The 4-ply cycle a, b, back, back when both moves can be taken back, else None."""
    b1 = play(play(board, a), b)
    ra, rb = (a[1], a[0]), (b[1], b[0])
    if ra not in legal(b1, red):
        return None
    if rb not in legal(play(b1, ra), not red):
        return None
    return [a, b, ra, rb]


PALACE_A = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
POINTS_B = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]


def rich_position(rng):
    """A random legal position: both kings and 3-7 of R, N, C, A, B, P a side, neither king
    attacked. Returns (board, red to move)."""
    while True:
        board = {}
        board[(rng.choice([3, 4, 5]), rng.choice([0, 1, 2]))] = "K"
        board[(rng.choice([3, 4, 5]), rng.choice([7, 8, 9]))] = "k"
        for side in "wb":
            pool = ["R", "R", "N", "N", "C", "C", "A", "A", "B", "B", "P", "P", "P"]
            for p in rng.sample(pool, rng.randint(3, 7)):
                if p == "A":
                    sq = rng.choice(PALACE_A)
                elif p == "B":
                    sq = rng.choice(POINTS_B)
                elif p == "P":
                    sq = (rng.randrange(9), rng.randrange(5, 10))
                else:
                    sq = (rng.randrange(9), rng.randrange(10))
                if side == "b" and p in "ABP":
                    sq = (sq[0], 9 - sq[1])
                if sq not in board:
                    board[sq] = p if side == "w" else p.lower()
        if attacked_king(board, True) or attacked_king(board, False):
            continue
        red = rng.random() < 0.5
        if legal(board, red):
            return board, red


def candidates_from(rng, board, red, want):
    """4-ply cycles from the position whose first move shows a motif of `want` (a set), best
    first: the motif also on the mover's second move. Returns (motif, cycle) pairs (at most
    two)."""
    found = []
    moves = quiet_moves(board, red)
    rng.shuffle(moves)
    standing = protected_attacks(board, red)
    for a in moves:
        m = motif(board, red, a, standing, want)
        if m is None:
            continue
        after = play(board, a)
        replies = quiet_moves(after, not red)
        rng.shuffle(replies)
        best = None
        for b in replies[:12]:
            c = closes(board, red, a, b)
            if not c:
                continue
            back = play(play(board, a), b)
            both = motif(back, red, c[2], protected_attacks(back, red), {m}) == m
            if best is None or both:
                best = c
            if both:
                break
        if best:
            found.append((m, best))
            if len(found) >= 2:
                break
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--per-stratum", type=int, default=100)
    ap.add_argument("--positions", type=int, default=60000,
                    help="give up after this many random positions")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    pool = {m: [] for m in MOTIFS}
    # Enough candidates a stratum that, after our judge, --per-stratum remain.
    want_n = int(args.per_stratum * 1.2) + 5
    seen = set()
    for n in range(args.positions):
        want = {m for m in MOTIFS if len(pool[m]) < want_n}
        if not want:
            break
        board, red = rich_position(rng)
        fen = fen_of(board, red)
        for m, cyc in candidates_from(rng, board, red, want):
            key = (fen, tuple(cyc))
            if key in seen or len(pool[m]) >= want_n:
                continue
            seen.add(key)
            full = [iccs(x) for x in cyc + cyc]
            pool[m].append({"fen": fen, "uci": [to_uci(x) for x in full], "moves": full})
        if n % 2000 == 0:
            print(f"{n} positions, {time.time() - t0:.0f}s: "
                  + ", ".join(f"{m} {len(pool[m])}" for m in MOTIFS), file=sys.stderr)
    cases = []
    for m in MOTIFS:
        for i, c in enumerate(pool[m]):
            c["id"] = f"{m}-{i}"
            c["stratum"] = m
            cases.append(c)
    out = judge_ours(args.binary, cases)
    lines = []
    kept = {m: 0 for m in MOTIFS}
    for c in cases:
        v = out.get(c["id"])
        if v is None or "error" in v or kept[c["stratum"]] >= args.per_stratum:
            continue
        j = v["judgement"]
        oply, ours = our_ruling(j)
        fply, theirs = fs_ruling(c["fen"], c["uci"])
        kept[c["stratum"]] += 1
        lines.append({"id": f"p{len(lines)}", "stratum": c["stratum"], "motif": c["stratum"],
                      "fen": c["fen"], "moves": c["moves"], "cycle_from": 0,
                      "ours": {"ruling": ours, "ply": oply, "red_pattern": j.get("red_pattern"),
                               "black_pattern": j.get("black_pattern")},
                      "pyffish": {"ruling": theirs, "ply": fply}})
    OUT.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print(f"{len(cases)} candidates in {time.time() - t0:.0f}s; kept: "
          + ", ".join(f"{m} {kept[m]}" for m in MOTIFS))
    print(f"wrote {len(lines)} games to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
