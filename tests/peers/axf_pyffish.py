#!/usr/bin/env python3
"""Peer check of the AXF repetition rulings: `xqrules judge --rules axf` against Fairy-Stockfish
(PyPI `pyffish`, variant `xiangqi`, whose repetition rules follow the Asian rules in part).

Seeded random games: a random opening of 0-30 plies (even games) or a random sparse legal
position with one to three pieces a side besides the kings (odd games), then a cycle forced in: a random reversible
move of the side to move, a random reversible answer, both moves taken back, and the four plies
played twice, so that the position before the cycle occurs a third time. Both judges rule on
the whole game: ours through one `xqrules judge --rules axf --batch -` process (JSON lines),
pyffish by asking `is_optional_game_end` after every ply. The two rulings (red_loses,
black_loses, draw, none) and the plies where they stop are compared.

Each disagreement must be listed in tests/peers/axf-disagreements.yaml (by fen and moves); the
listed entries carry both rulings, the category and the AXF item that supports ours. The
script prints the agreement rate and the number of cycles compared, and exits 1 when a
disagreement is not listed. `--write` rewrites the file's entries (keeping the categories'
reasons) for review.

Usage: axf_pyffish.py XQRULES_BINARY [--games N] [--seed S] [--write]
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


def sparse_position(rng):
    """A random legal position with both kings and one to three of R, N, C, A, P per side."""
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
            if sf.validate_fen(fen, VARIANT) != 1 or sf.gives_check(VARIANT, fen, []):
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


def cycle(rng, fen):
    """A random reversible 4-ply cycle from `fen`, or None. By the seeded mode: checks on both
    moves of the side to move (a perpetual check), attacks on one enemy piece that flees on
    both moves (a chase back and forth, as in 第四節 18), or any reversible pair."""
    mode = rng.choice(["check", "check", "chase", "chase", "random"])
    a_moves = quiet(fen)
    rng.shuffle(a_moves)
    if mode == "check":
        for a in [m for m in a_moves if sf.gives_check(VARIANT, fen, [m])][:6]:
            after_a = sf.get_fen(VARIANT, fen, [a])
            b_moves = quiet(after_a)
            rng.shuffle(b_moves)
            for b in b_moves[:12]:
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    start = sf.start_fen(VARIANT)
    cases = []
    for g in range(args.games):
        if g % 2:
            fen = sparse_position(rng)
        else:
            fen = start
            for _ in range(rng.randint(0, 30)):
                legal = sf.legal_moves(VARIANT, fen, [])
                if not legal:
                    break
                fen = sf.get_fen(VARIANT, fen, [rng.choice(legal)])
        if not sf.legal_moves(VARIANT, fen, []):
            continue
        cyc = cycle(rng, fen)
        if cyc is None:
            continue
        full = cyc + cyc
        cases.append({"id": g, "fen": fen, "uci": full, "moves": [to_iccs(m) for m in full]})
    t1 = time.time()
    # Our rulings: one process, JSON lines.
    inp = "".join(json.dumps({"id": c["id"], "fen": c["fen"], "moves": c["moves"]}) + "\n" for c in cases)
    proc = subprocess.run([args.binary, "judge", "--rules", "axf", "--batch", "-"], input=inp,
                          capture_output=True, text=True)
    t2 = time.time()
    out = {}
    for line in proc.stdout.splitlines():
        v = json.loads(line)
        out[v["id"]] = v
    listed = {}
    doc = {}
    if LIST.exists():
        doc = yaml.safe_load(LIST.read_text()) or {}
        for e in doc.get("entries") or []:
            listed[(e["fen"], " ".join(e["moves"]))] = e
    agree = 0
    compared = 0
    cats = Counter()
    fresh = []
    unlisted = []
    errors = 0
    kinds = Counter()
    for c in cases:
        v = out.get(c["id"])
        if v is None or "error" in v:
            errors += 1
            print(f"error: game {c['id']}: {v}", file=sys.stderr)
            continue
        j = v["judgement"]
        oply, ours = our_ruling(j)
        fply, theirs = fs_ruling(c["fen"], c["uci"])
        compared += 1
        kinds[f"{ours} (red {j.get('red_pattern')}, black {j.get('black_pattern')})"] += 1
        if (oply, ours) == (fply, theirs):
            agree += 1
            continue
        cat = category(j, ours, theirs)
        cats[cat] += 1
        key = (c["fen"], " ".join(c["moves"]))
        entry = listed.get(key)
        new = {
            "fen": c["fen"],
            "moves": c["moves"],
            "ours": {"ruling": ours, "ply": oply, "red_pattern": j.get("red_pattern"),
                     "black_pattern": j.get("black_pattern"), "articles": j.get("articles")},
            "pyffish": {"ruling": theirs, "ply": fply},
            "category": cat,
            "classes": " ".join(f"{m['move']}:{m['class']}" for m in j.get("cycle", [])),
        }
        if entry is not None:
            new["axf_item"] = entry.get("axf_item")
            new["reason"] = entry.get("reason")
        fresh.append(new)
        if entry is None or entry.get("ours", {}).get("ruling") != ours \
                or entry.get("pyffish", {}).get("ruling") != theirs:
            unlisted.append(new)
    rate = agree / compared if compared else 0.0
    print(f"pyffish {sf.version()}: {compared} random games with a forced 4-ply cycle played "
          f"three times compared; agreement {agree}/{compared} = {100 * rate:.1f}%")
    print(f"  time: games {t1 - t0:.1f}s, xqrules {t2 - t1:.1f}s, pyffish rulings {time.time() - t2:.1f}s")
    for k, n in sorted(kinds.items()):
        print(f"  ours: {k}: {n}")
    for cat, n in sorted(cats.items()):
        print(f"  disagreement category {cat}: {n}")
    if args.write:
        doc["entries"] = fresh
        LIST.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=110))
        print(f"wrote {len(fresh)} entries to {LIST}")
        return 0
    if errors:
        print(f"{errors} games could not be judged by xqrules", file=sys.stderr)
        return 1
    if unlisted:
        for u in unlisted:
            print("unlisted disagreement:\n" + yaml.safe_dump(u, allow_unicode=True, sort_keys=False), file=sys.stderr)
        print(f"{len(unlisted)} disagreement(s) not in {LIST.relative_to(ROOT)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
