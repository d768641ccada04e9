#!/usr/bin/env python3
"""Compare xiangqi-rules' Chinese move notation with the `cchess` PyPI package.

Random games are played with our own move generator (`xqrules convert --legal`); in every
position reached, every legal move is written by both (simplified characters, full-width
digits for Black, the style cchess prints) and each side's text is read back by cchess.

Every disagreement must fall in a category listed in cchess-disagreements.yaml (beside this
file), each with the reason; an unexplained one makes the exit code 1.

Usage: cchess_notation.py XQRULES [--games N] [--plies N] [--seed N] [--report FILE]
"""

import argparse
import json
import os
import random
import subprocess
import sys

try:
    import cchess
    from cchess.common import iccs2pos
except ImportError as e:  # pragma: no cover
    print(f"skip: the cchess package is not installed ({e})")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))

# Besides games from the start position, a few games start from set-ups with pawns sharing
# files (rare in random play from the start), where the conventions differ most.
EXTRA_STARTS = [
    "rnbakabnr/9/1c5c1/2p1p1p2/2P3P2/2p3p2/2P1P1P2/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/9/4P4/4P4/4P4/4P4/9/9/4K4 w - - 0 1",
    "4k4/9/9/4p4/4p4/4p4/4p4/9/9/3K5 b - - 0 1",
    "5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1",
    "5k3/9/9/9/9/4C4/9/4C4/9/3K5 w - - 0 1",
]


def known_categories():
    """The category ids of cchess-disagreements.yaml (read without a YAML library)."""
    ids = []
    with open(os.path.join(HERE, "cchess-disagreements.yaml"), encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s.startswith("- id:"):
                ids.append(s.split(":", 1)[1].strip())
    return ids


def cchess_version():
    try:
        from importlib.metadata import version

        return version("cchess")
    except Exception:
        return "?"


def legal(xqrules, fen):
    out = subprocess.run(
        [xqrules, "convert", "--fen", fen, "--legal", "--to", "chinese", "--simplified",
         "--format", "jsonl"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def board_cells(fen):
    """{(file, rank): letter} of a FEN (file 0 = a, rank 0 = Red's back rank)."""
    cells = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, x = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                cells[(x, rank)] = ch
                x += 1
    return cells


def classify(fen, iccs):
    """The reason why the two may differ on this move, or None if they should agree."""
    cells = board_cells(fen)
    fx, fy = ord(iccs[0]) - ord("a"), int(iccs[1])
    piece = cells.get((fx, fy))
    if piece is None:
        return None
    if piece.lower() != "p":
        return None
    per_file = {}
    for (x, _), p in cells.items():
        if p == piece:
            per_file[x] = per_file.get(x, 0) + 1
    here = per_file.get(fx, 0)
    shared = [x for x, n in per_file.items() if n >= 2]
    if here >= 2 and len(shared) >= 2:
        return "pawns-on-several-shared-files"
    if here >= 4:
        return "four-or-five-pawns-on-a-file"
    return None


def we_read(xqrules, fen, text):
    """Our reading of `text` in ICCS, or None with the reason."""
    r = subprocess.run(
        [xqrules, "convert", "--fen", fen, "--from", "chinese", "--to", "iccs", text],
        capture_output=True, text=True,
    )
    return (r.stdout.strip(), None) if r.returncode == 0 else (None, r.stderr.strip())


def cchess_reads(fen, text, iccs):
    """Does cchess read `text` as the move `iccs`?"""
    board = cchess.ChessBoard(fen)
    try:
        got = cchess.Move.from_text(board, text)
    except Exception:  # cchess raises on some texts it does not know
        return False
    return got is not None and tuple(got[0]) == iccs2pos(iccs)[0] and tuple(got[1]) == iccs2pos(iccs)[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("xqrules")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--plies", type=int, default=160)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--report", help="write the summary as JSON here")
    args = ap.parse_args()

    known = set(known_categories())
    rng = random.Random(args.seed)
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    positions = moves = agree = 0
    ours_read = theirs_read = 0
    explained = {}
    unexplained = []
    starts = [(start, args.plies)] * args.games + [(f, 30) for f in EXTRA_STARTS for _ in range(4)]
    for fen, plies in starts:
        for _ in range(plies):
            entries = legal(args.xqrules, fen)
            if not entries:
                break
            positions += 1
            for e in entries:
                moves += 1
                board = cchess.ChessBoard(fen)
                m = board.move_iccs(e["iccs"])
                theirs = m.to_text() if m is not None else None
                ours = e["text"]
                if ours == theirs:
                    agree += 1
                if cchess_reads(fen, ours, e["iccs"]):
                    ours_read += 1
                if theirs is not None and cchess_reads(fen, theirs, e["iccs"]):
                    theirs_read += 1
                if ours != theirs:
                    why = classify(fen, e["iccs"])
                    rec = {"fen": fen, "iccs": e["iccs"], "ours": ours, "cchess": theirs}
                    if why in known and theirs is not None:
                        bucket = explained.setdefault(
                            why, {"count": 0, "we_read_cchess_text": 0, "examples": []}
                        )
                        bucket["count"] += 1
                        got, why_not = we_read(args.xqrules, fen, theirs)
                        if got == e["iccs"]:
                            bucket["we_read_cchess_text"] += 1
                        elif got is None and "is ambiguous" in why_not:
                            # cchess's text fits several legal moves: we refuse it, rightly.
                            rec["we_read_cchess_text"] = why_not
                        else:
                            rec["we_read_cchess_text"] = got or why_not
                            unexplained.append(rec)
                        if len(bucket["examples"]) < 3:
                            bucket["examples"].append(rec)
                    else:
                        unexplained.append(rec)
            fen = rng.choice(entries)["fen"]

    summary = {
        "positions": positions,
        "moves": moves,
        "identical_text": agree,
        "cchess_reads_our_text": ours_read,
        "cchess_reads_its_own_text": theirs_read,
        "explained_disagreements": explained,
        "unexplained_disagreements": unexplained[:20],
        "unexplained_count": len(unexplained),
    }
    print(
        f"cchess {cchess_version()}: {positions} positions, {moves} moves; "
        f"identical text {agree} ({100.0 * agree / max(moves, 1):.3f}%); "
        f"cchess reads our text for {ours_read}, its own for {theirs_read}"
    )
    for k, v in explained.items():
        print(
            f"  explained ({k}): {v['count']}, of which we read cchess's text as the same move "
            f"for {v['we_read_cchess_text']}; e.g. {v['examples'][0]}"
        )
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False, indent=1)
    if unexplained:
        print(f"UNEXPLAINED disagreements: {len(unexplained)}")
        for r in unexplained[:20]:
            print(f"  {r}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
