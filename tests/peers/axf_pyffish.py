#!/usr/bin/env python3
"""Peer check of the AXF repetition rulings: `xqrules judge --rules axf` against Fairy-Stockfish
(PyPI `pyffish`, variant `xiangqi`, whose repetition rules follow the Asian rules in part).

The corpus tests/peers/axf-corpus.jsonl holds seeded games, each a start position (a random
opening of 0-30 plies or a random sparse position, sometimes with the side to move in check),
an optional prefix of 1-6 random plies, then a reversible 4-ply cycle played three times (so that
the position before it occurs a third time). The cycles are searched for checks (an evasion then a
check again), chases (a piece attacked and fleeing, its attacker following), mutual attacks or any
reversible pair. `--regenerate` draws the candidates, judges them with our fast judge and keeps up
to --per-stratum games in each stratum (see `stratum`): draw, perpetual_check, perpetual_chase,
mutual (both sides forbidden), kill (a kill among the moves ruled on), late_cycle (prefix before
the cycle); each line stores fen, moves, cycle_from, our ruling and pyffish's.

A replay (the default) judges every corpus game again: ours through one `xqrules judge --rules axf
--batch -` process (JSON lines), pyffish by asking `is_optional_game_end` after every ply; the two
rulings (red_loses, black_loses, draw, none) and the plies where they stop are compared. The replay
also runs `--engine oracle` on every --oracle-every-th game (it must print the same JSON as the fast
engine) and fails when a ruling or stratum drifted from the stored corpus. `--random N` adds N fresh
random games.

Each disagreement must be listed in tests/peers/axf-disagreements.yaml (by fen and moves); the
listed entries carry both rulings, the category, which side is right and why. The script prints
the agreement per stratum and exits 1 on a disagreement not listed. `--write` rewrites the file's
entries (keeping category, right, axf_item and reason) for review.

Usage: axf_pyffish.py XQRULES_BINARY [--random N] [--seed S] [--oracle-every K] [--write]
       axf_pyffish.py XQRULES_BINARY --regenerate [--candidates N] [--chase-candidates N] [--per-stratum K]
"""
import argparse
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pyffish as sf
import yaml

VARIANT = "xiangqi"
ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "tests/peers/axf-disagreements.yaml"
CORPUS = ROOT / "tests/peers/axf-corpus.jsonl"
# Games built on purpose for the readings of protection (tests/peers/axf_protection.py): a motif
# (pinned protector, discovered check on the recapture, cut line, same-type target that cannot take
# back, check that also attacks) shown by a move of the cycle; the stratum is the motif.
PROTECTION_CORPUS = ROOT / "tests/peers/axf-protection-corpus.jsonl"
HEADER = "".join(l + "\n" for l in LIST.read_text().splitlines() if l.startswith("#")) if LIST.exists() else ""


def to_uci(m):
    """ICCS (ranks 0-9) to Fairy-Stockfish UCI (ranks 1-10)."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def to_iccs(u):
    """Fairy-Stockfish UCI (ranks 1-10) to ICCS (ranks 0-9)."""
    f1, rest = u[0], u[1:]
    i = 1
    while rest[i].isdigit():
        i += 1
    r1, f2, r2 = int(rest[:i]), rest[i], int(rest[i + 1:])
    return f"{f1}{r1 - 1}{f2}{r2 - 1}"


def from_sq(u):
    i = 1
    while u[i].isdigit():
        i += 1
    return u[:i]


def reverse(u):
    i = 1
    while u[i].isdigit():
        i += 1
    return u[i:] + u[:i]


def piece_on(fen, sq):
    """The FEN letter on UCI square `sq` (e.g. 'h3'), or None."""
    rows = fen.split()[0].split("/")
    file = ord(sq[0]) - ord("a")
    rank = int(sq[1:]) - 1
    row = rows[9 - rank]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
    return None


def sparse_position(rng, in_check=False):
    """A random legal position with both kings and one to three of R, N, C, A, P per side; the
    side to move is in check when `in_check`, else not."""
    while True:
        board = {}
        board[(rng.choice([3, 4, 5]), rng.choice([0, 1, 2]))] = "K"
        board[(rng.choice([3, 4, 5]), rng.choice([7, 8, 9]))] = "k"
        for side in "wb":
            for p in rng.sample(["R", "N", "C", "R", "N", "C", "A", "P"], rng.randint(1, 3)):
                sq = (rng.randrange(9), rng.randrange(10))
                if p == "A":
                    sq = rng.choice([(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)])
                    if side == "b":
                        sq = (sq[0], 9 - sq[1])
                if p == "P" and (sq[1] < 5 if side == "w" else sq[1] > 4):
                    continue
                if sq not in board:
                    board[sq] = p if side == "w" else p.lower()
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
        fen = "/".join(rows) + " " + rng.choice("wb") + " - - 0 1"
        try:
            if sf.validate_fen(fen, VARIANT) != 1 or sf.gives_check(VARIANT, fen, []) != in_check:
                continue
            if sf.legal_moves(VARIANT, fen, []):
                return fen
        except Exception:
            continue


def flipped(fen):
    f = fen.split()
    f[1] = "b" if f[1] == "w" else "w"
    return " ".join(f)


def is_capture(fen, m):
    """Does move `m` (UCI) take a piece in `fen`? (Read off the board, no engine call.)"""
    return piece_on(fen, m[len(from_sq(m)):]) is not None


def capture_targets(fen):
    """Squares the side to move in `fen` can capture on."""
    return {m[len(from_sq(m)):] for m in sf.legal_moves(VARIANT, fen, []) if is_capture(fen, m)}


def closes(fen, a, b):
    """The 4-ply cycle a, b, back, back when both moves can be taken back, else None."""
    ra, rb = reverse(a), reverse(b)
    if ra not in sf.legal_moves(VARIANT, fen, [a, b]):
        return None
    if rb not in sf.legal_moves(VARIANT, fen, [a, b, ra]):
        return None
    return [a, b, ra, rb]


def quiet(fen):
    return [m for m in sf.legal_moves(VARIANT, fen, []) if not is_capture(fen, m)]


def attacks_new(fen, m):
    """Does move `m` (of the side to move in `fen`) check, or create a capture threat on a
    piece that was not attacked before?"""
    if sf.gives_check(VARIANT, fen, [m]):
        return True
    after = sf.get_fen(VARIANT, fen, [m])
    return bool(capture_targets(flipped(after)) - capture_targets(fen))


def cycle(rng, fen, mode=None):
    """A random reversible 4-ply cycle from `fen`, or None. By the mode: checks on both
    moves of the side to move (a perpetual check), attacks on one enemy piece that flees on
    both moves (a chase back and forth, as in 第四節 18), both sides' moves checking or
    attacking (mutual), or any reversible pair."""
    mode = mode or rng.choice(["check", "check", "chase", "chase", "random"])
    a_moves = quiet(fen)
    rng.shuffle(a_moves)
    if mode == "check":
        for a in [m for m in a_moves if sf.gives_check(VARIANT, fen, [m])]:
            after_a = sf.get_fen(VARIANT, fen, [a])
            b_moves = quiet(after_a)
            rng.shuffle(b_moves)
            for b in b_moves:
                c = closes(fen, a, b)
                if c and sf.gives_check(VARIANT, fen, [a, b, c[2]]):
                    return c
    if mode == "chase":
        before = capture_targets(fen)
        attackers = [m for m in a_moves if (piece_on(fen, from_sq(m)) or "x").lower() in "rnc"]
        for a in attackers[:8]:
            after_a = sf.get_fen(VARIANT, fen, [a])
            if sf.gives_check(VARIANT, fen, [a]):
                continue
            new = capture_targets(flipped(after_a)) - before
            if not new:
                continue
            flee = [m for m in quiet(after_a) if from_sq(m) in new]
            rng.shuffle(flee)
            for b in flee[:6]:
                c = closes(fen, a, b)
                if not c:
                    continue
                back = sf.get_fen(VARIANT, fen, [a, b, c[2]])
                if b[len(from_sq(b)):] in capture_targets(flipped(back)):
                    return c
    if mode == "evade":
        # The side to move is in check: it evades, the checker checks again, both go back (the
        # position before the cycle is the first check again).
        for a in a_moves:
            after_a = sf.get_fen(VARIANT, fen, [a])
            b_moves = [m for m in quiet(after_a) if sf.gives_check(VARIANT, after_a, [m])]
            rng.shuffle(b_moves)
            if rng.random() < 0.5:
                b_moves.sort(key=lambda m: not attacks_new(fen, a))
            for b in b_moves:
                c = closes(fen, a, b)
                if c:
                    return c
    if mode == "flee":
        # A piece of the side to move is attacked: it flees, the attacker follows, both go back.
        threatened = capture_targets(flipped(fen))
        for a in [m for m in a_moves if from_sq(m) in threatened]:
            after_a = sf.get_fen(VARIANT, fen, [a])
            to = a[len(from_sq(a)):]
            b_moves = [m for m in quiet(after_a) if to in capture_targets(flipped(sf.get_fen(VARIANT, after_a, [m])))]
            rng.shuffle(b_moves)
            for b in b_moves[:8]:
                c = closes(fen, a, b)
                if c:
                    return c
    if mode == "mutual":
        for a in [m for m in a_moves[:30] if attacks_new(fen, m)][:8]:
            after_a = sf.get_fen(VARIANT, fen, [a])
            b_moves = quiet(after_a)
            rng.shuffle(b_moves)
            for b in [m for m in b_moves[:30] if attacks_new(after_a, m)][:8]:
                c = closes(fen, a, b)
                if c and attacks_new(sf.get_fen(VARIANT, fen, [a, b]), c[2]) \
                        and attacks_new(sf.get_fen(VARIANT, fen, [a, b, c[2]]), c[3]):
                    return c
    for a in a_moves[:6]:
        after_a = sf.get_fen(VARIANT, fen, [a])
        b_moves = quiet(after_a)
        rng.shuffle(b_moves)
        for b in b_moves[:6]:
            c = closes(fen, a, b)
            if c:
                return c
    return None


def fs_ruling(fen, moves):
    """First ply (1-based) where Fairy-Stockfish ends the game, and its ruling. The moves are
    legal and each position before the last has a move, so only the last can be a mate."""
    for k in range(1, len(moves) + 1):
        cur = moves[:k]
        ended, value = sf.is_optional_game_end(VARIANT, fen, cur)
        if not ended and k == len(moves) and not sf.legal_moves(VARIANT, fen, cur):
            ended, value = True, -sf.VALUE_MATE
        if ended:
            red_to_move = sf.get_fen(VARIANT, fen, cur).split()[1] == "w"
            if value == 0:
                return k, "draw"
            mover_wins = value > 0
            red_wins = mover_wins == red_to_move
            return k, "black_loses" if red_wins else "red_loses"
    return len(moves), "none"


def our_ruling(j):
    if j["ruling"] != "none":
        return j["ply"], j["ruling"]
    if j["result"] == "red_wins":
        return j["ply"], "black_loses"
    if j["result"] == "black_wins":
        return j["ply"], "red_loses"
    if j["result"] == "draw":
        return j["ply"], "draw"
    return j["ply"], "none"


def category(j, ours, theirs):
    """A coarse class of a disagreement, from our judgement."""
    classes = Counter(c["class"] for c in j.get("cycle", []))
    pats = (j.get("red_pattern"), j.get("black_pattern"))
    if "perpetual_chase" in pats and theirs == "draw":
        return "we_rule_perpetual_chase"
    if theirs in ("red_loses", "black_loses") and ours == "draw":
        if classes.get("chase"):
            return "fs_rules_chase_we_allow"
        return "fs_rules_loss_without_chase"
    if "perpetual_check" in pats:
        return "perpetual_check"
    return "other"


STRATA = ["draw", "perpetual_check", "perpetual_chase", "mutual", "kill", "late_cycle"]


def stratum(j, prefix):
    """The corpus stratum of a game, from our judgement: both sides forbidden (mutual), a kill
    among the moves ruled on, a cycle not from the start (prefix plies before it), one side's
    perpetual check, one side's perpetual chase, or a draw with both sides allowed."""
    pats = {j.get("red_pattern"), j.get("black_pattern")}
    if None not in pats and "allowed" not in pats:
        return "mutual"
    if any(m["class"] == "kill" for m in j.get("cycle", [])):
        return "kill"
    if prefix:
        return "late_cycle"
    if "perpetual_check" in pats:
        return "perpetual_check"
    if "perpetual_chase" in pats:
        return "perpetual_chase"
    if j.get("result") == "draw":
        return "draw"
    return None


def random_start(rng, g, sparse_share=2, in_check=False):
    """A random opening of 0-30 plies (when g % sparse_share == 0) or a random sparse position
    (in check when `in_check`)."""
    if g % sparse_share or in_check:
        return sparse_position(rng, in_check)
    fen = sf.start_fen(VARIANT)
    for _ in range(rng.randint(0, 30)):
        legal = sf.legal_moves(VARIANT, fen, [])
        if not legal:
            break
        fen = sf.get_fen(VARIANT, fen, [rng.choice(legal)])
    return fen


def make_games(rng, n, modes=None, late=0.0, sparse_share=2):
    """n seeded candidate games: a start position, an optional prefix of 1-6 random plies
    (with probability `late`), then a 4-ply cycle (mode drawn from `modes`) played twice more."""
    cases = []
    for g in range(n):
        mode = rng.choice(modes) if modes else None
        fen = random_start(rng, g, sparse_share, mode == "evade")
        if not sf.legal_moves(VARIANT, fen, []):
            continue
        prefix = []
        if mode != "evade" and rng.random() < late:
            for _ in range(rng.randint(1, 6)):
                legal = sf.legal_moves(VARIANT, fen, prefix)
                if not legal:
                    break
                prefix.append(rng.choice(legal))
            if not sf.legal_moves(VARIANT, fen, prefix):
                continue
        here = sf.get_fen(VARIANT, fen, prefix) if prefix else fen
        cyc = cycle(rng, here, mode)
        if cyc is None:
            continue
        full = prefix + cyc + cyc
        cases.append({"id": g, "fen": fen, "prefix": len(prefix), "uci": full,
                      "moves": [to_iccs(m) for m in full]})
    return cases


def judge_ours(binary, cases, engine="fast"):
    """Our judgements through one `xqrules judge --rules axf --batch -` process (JSON lines)."""
    inp = "".join(json.dumps({"id": c["id"], "fen": c["fen"], "moves": c["moves"]}) + "\n" for c in cases)
    proc = subprocess.run([binary, "judge", "--rules", "axf", "--engine", engine, "--batch", "-"],
                          input=inp, capture_output=True, text=True)
    out = {}
    for line in proc.stdout.splitlines():
        v = json.loads(line)
        out[v["id"]] = v
    return out


def regenerate(args):
    """Generate candidates, judge them (fast), keep up to --per-stratum per stratum, add
    pyffish's answer and write the corpus (JSON lines)."""
    rng = random.Random(args.seed)
    t0 = time.time()
    cases = make_games(rng, args.candidates, ["evade", "evade", "evade", "flee", "flee", "chase", "mutual", "mutual", "random"],
                       late=0.2, sparse_share=4)
    # A second pass aimed at chases (rare in the first): fleeing pieces and mutual attacks.
    for c in make_games(rng, args.chase_candidates, ["flee", "flee", "chase", "mutual"], late=0.2, sparse_share=4):
        c["id"] = f"c{c['id']}"
        cases.append(c)
    out = judge_ours(args.binary, cases)
    by = {s: [] for s in STRATA}
    for c in cases:
        v = out.get(c["id"])
        if v is None or "error" in v:
            continue
        s = stratum(v["judgement"], c["prefix"])
        if s is not None:
            by[s].append((c, v["judgement"]))
    lines = []
    for s in STRATA:
        pool = by[s]
        rng.shuffle(pool)
        for c, j in pool[:args.per_stratum]:
            oply, ours = our_ruling(j)
            fply, theirs = fs_ruling(c["fen"], c["uci"])
            lines.append({"id": len(lines), "stratum": s, "fen": c["fen"], "moves": c["moves"],
                          "cycle_from": c["prefix"],
                          "ours": {"ruling": ours, "ply": oply, "red_pattern": j.get("red_pattern"),
                                   "black_pattern": j.get("black_pattern")},
                          "pyffish": {"ruling": theirs, "ply": fply}})
    CORPUS.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    print(f"{len(cases)} candidates in {time.time() - t0:.0f}s; kept per stratum: "
          + ", ".join(f"{s} {min(len(by[s]), args.per_stratum)}/{len(by[s])}" for s in STRATA))
    print(f"wrote {len(lines)} games to {CORPUS.relative_to(ROOT)}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--random", type=int, default=0,
                    help="also compare N fresh seeded random games (the corpus is always replayed)")
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--oracle-every", type=int, default=1,
                    help="compare --engine oracle with fast on every k-th corpus game (0: never)")
    ap.add_argument("--regenerate", action="store_true", help="rewrite the corpus file")
    ap.add_argument("--candidates", type=int, default=700)
    ap.add_argument("--chase-candidates", type=int, default=500)
    ap.add_argument("--per-stratum", type=int, default=30)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.regenerate:
        return regenerate(args)
    t0 = time.time()
    cases = []
    lines = CORPUS.read_text().splitlines()
    if PROTECTION_CORPUS.exists():
        lines += PROTECTION_CORPUS.read_text().splitlines()
    for x in map(json.loads, lines):
        x["uci"] = [to_uci(m) for m in x["moves"]]
        x["prefix"] = x["cycle_from"]
        cases.append(x)
    if args.random:
        for c in make_games(random.Random(args.seed), args.random):
            c["id"] = f"random-{c['id']}"
            c["stratum"] = "random"
            cases.append(c)
    t1 = time.time()
    out = judge_ours(args.binary, cases)
    t2 = time.time()
    oracle_diff = []
    sample = [c for i, c in enumerate(cases) if args.oracle_every and i % args.oracle_every == 0]
    if sample:
        orc = judge_ours(args.binary, sample, "oracle")
        for c in sample:
            a, b = out.get(c["id"]), orc.get(c["id"])
            if a != b:
                oracle_diff.append(c["id"])
    t3 = time.time()
    listed = {}
    doc = {}
    if LIST.exists():
        doc = yaml.safe_load(LIST.read_text()) or {}
        for e in doc.get("entries") or []:
            listed[(e["fen"], " ".join(e["moves"]))] = e
    per = {}
    cats = Counter()
    fresh = []
    unlisted = []
    drift = []
    errors = 0
    for c in cases:
        v = out.get(c["id"])
        if v is None or "error" in v:
            errors += 1
            print(f"error: game {c['id']}: {v}", file=sys.stderr)
            continue
        j = v["judgement"]
        oply, ours = our_ruling(j)
        fply, theirs = fs_ruling(c["fen"], c["uci"])
        if "ours" in c and ((c["ours"]["ruling"], c["ours"]["ply"]) != (ours, oply)
                            or (c["pyffish"]["ruling"], c["pyffish"]["ply"]) != (theirs, fply)
                            or ("motif" not in c and stratum(j, c["prefix"]) != c["stratum"])):
            drift.append(c["id"])
        st = per.setdefault(c["stratum"], [0, 0])
        st[1] += 1
        if (oply, ours) == (fply, theirs):
            st[0] += 1
            continue
        cat = category(j, ours, theirs)
        key = (c["fen"], " ".join(c["moves"]))
        entry = listed.get(key)
        cats[f"{(entry or {}).get('category', cat)} (right: {(entry or {}).get('right', 'unlisted')})"] += 1
        new = {
            "fen": c["fen"],
            "moves": c["moves"],
            "stratum": c["stratum"],
            "ours": {"ruling": ours, "ply": oply, "red_pattern": j.get("red_pattern"),
                     "black_pattern": j.get("black_pattern"), "articles": j.get("articles")},
            "pyffish": {"ruling": theirs, "ply": fply},
            "category": cat,
            "classes": " ".join(f"{m['move']}:{m['class']}" for m in j.get("cycle", [])),
        }
        if entry is not None:
            for k in ("category", "right", "axf_item", "reason"):
                if k in entry:
                    new[k] = entry[k]
        fresh.append(new)
        if entry is None or entry.get("ours", {}).get("ruling") != ours \
                or entry.get("pyffish", {}).get("ruling") != theirs:
            unlisted.append(new)
    agree = sum(a for a, _ in per.values())
    compared = sum(n for _, n in per.values())
    print(f"pyffish {sf.version()}: {compared} games with a forced 4-ply cycle played three times "
          f"({CORPUS.relative_to(ROOT)}, {PROTECTION_CORPUS.relative_to(ROOT)}"
          f"{f' + {args.random} random' if args.random else ''}); "
          f"agreement {agree}/{compared} = {100 * agree / max(compared, 1):.1f}%")
    for s, (a, n) in per.items():
        print(f"  {s}: {a}/{n} agree")
    for cat, n in sorted(cats.items()):
        print(f"  disagreement category {cat}: {n}")
    print(f"  oracle vs fast on {len(sample)} games: {len(sample) - len(oracle_diff)} identical")
    print(f"  time: load {t1 - t0:.1f}s, xqrules fast {t2 - t1:.1f}s, oracle {t3 - t2:.1f}s, "
          f"pyffish rulings {time.time() - t3:.1f}s")
    if args.write:
        doc["entries"] = fresh
        LIST.write_text(HEADER + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=110))
        print(f"wrote {len(fresh)} entries to {LIST}")
        return 0
    status = 0
    if errors:
        print(f"{errors} games could not be judged by xqrules", file=sys.stderr)
        status = 1
    if oracle_diff:
        print(f"oracle and fast differ on corpus games {oracle_diff}", file=sys.stderr)
        status = 1
    if drift:
        print(f"rulings or strata differ from the stored corpus on games {drift}; regenerate with "
              "`bash tests/peers/run_pyffish.sh --regenerate` and review the diff", file=sys.stderr)
        status = 1
    if unlisted:
        for u in unlisted:
            print("unlisted disagreement:\n" + yaml.safe_dump(u, allow_unicode=True, sort_keys=False), file=sys.stderr)
        print(f"{len(unlisted)} disagreement(s) not in {LIST.relative_to(ROOT)}", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
