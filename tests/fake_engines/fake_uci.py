#!/usr/bin/env python3
"""A fake UCI Xiangqi engine for testing `xqrules engine-check` (Python 3, standard library only).

It answers `go perft N` like a Stockfish-family engine (`move: count` lines, then
`Nodes searched: N`). The counts come from our own `xqrules perft --divide` binary (path given
with --xqrules or the XQRULES_BIN environment variable), so the honest mode is right by
construction, and each other mode misbehaves in one precise way:

  correct     answers correctly
  drop        at the position reached by --target-moves from the start position, the move
              --bad-move is missing (and every count above that position is short accordingly)
  add         at that position, the illegal move --bad-move is listed as legal
  hang        answers the handshake, then never answers `go perft` number --after
  crash       prints a few lines of `go perft` number --after, then exits with code 3
  no-uciok    prints its id and never `uciok`
  garbage     answers `go perft` number --after with an endless stream of noise
  exit        exits at once, before reading anything, with a message on stderr
  inconsistent  counts --bad-move one too many in the split of a position given without
              `moves`, but right from the position after it (an unmake bug, in effect)

With --no-divide it prints only the `Nodes searched: N` line, as some engines do.

Rule cases: `go depth N searchmoves M` is answered from --rules-file (the `rules.jsonl` of
`xqrules suite export`): when the position and M are a case's question, the score is the
printed ruling for the mover (`mate 1` win, `mate -1` loss, `cp 0` draw); --wrong-rule ID gets
that case wrong (win and loss swapped, a draw answered as a win). Anything else: `cp 13`.

Only the board part of the FEN is needed to follow moves, so the script plays moves by moving
letters on a 10x9 grid; all legality comes from xqrules.
"""

import argparse
import os
import subprocess
import sys
import time

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# ---- FEN and moves -------------------------------------------------------------------------

def parse_board(fen):
    """The board of a FEN as 10 rows (rank 9 first) of 9 cells, and the side to move."""
    fields = fen.split()
    rows = []
    for row in fields[0].split("/"):
        cells = []
        for ch in row:
            if ch.isdigit():
                cells.extend(["."] * int(ch))
            else:
                cells.append(ch)
        rows.append(cells)
    side = fields[1] if len(fields) > 1 else "w"
    return rows, ("b" if side == "b" else "w")


def board_fen(rows, side):
    parts = []
    for cells in rows:
        text, empty = "", 0
        for c in cells:
            if c == ".":
                empty += 1
            else:
                if empty:
                    text += str(empty)
                    empty = 0
                text += c
        if empty:
            text += str(empty)
        parts.append(text)
    return "/".join(parts) + " " + side + " - - 0 1"


def square(text):
    """ICCS square `e2` -> (row, column) in the grid."""
    return 9 - int(text[1:]), ord(text[0]) - ord("a")


def split_move(move):
    """`h2e2` -> ("h2", "e2"); ranks may have one or two digits."""
    for i in range(2, len(move)):
        if move[i].isalpha():
            return move[:i], move[i:]
    raise ValueError("not a move: " + move)


def play(fen, move):
    """The FEN after an ICCS move (no legality check)."""
    rows, side = parse_board(fen)
    a, b = split_move(move)
    (r1, c1), (r2, c2) = square(a), square(b)
    rows[r2][c2] = rows[r1][c1]
    rows[r1][c1] = "."
    return board_fen(rows, "b" if side == "w" else "w")


def key(fen):
    rows, side = parse_board(fen)
    return board_fen(rows, side)


def to_iccs(move, ranks):
    if ranks == "0-9":
        return move
    a, b = split_move(move)
    return "%s%d%s%d" % (a[0], int(a[1:]) - 1, b[0], int(b[1:]) - 1)


def from_iccs(move, ranks):
    if ranks == "0-9":
        return move
    a, b = split_move(move)
    return "%s%d%s%d" % (a[0], int(a[1:]) + 1, b[0], int(b[1:]) + 1)


# ---- counts from xqrules -------------------------------------------------------------------

class Oracle:
    def __init__(self, binary):
        self.binary = binary
        self.cache = {}

    def run(self, *args):
        result = subprocess.run([self.binary] + list(args), capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("xqrules %s failed: %s" % (" ".join(args), result.stderr.strip()))
        return result.stdout.split("\n")

    def divide(self, fen, depth):
        lines = self.run("perft", "--fen", key(fen), "--depth", str(depth), "--divide")
        split = []
        for line in lines:
            if ":" in line:
                move, count = line.split(":")
                split.append((move.strip(), int(count)))
        return split

    def perft(self, fen, depth):
        k = (key(fen), depth)
        if k not in self.cache:
            lines = [l for l in self.run("perft", "--fen", key(fen), "--depth", str(depth)) if l]
            self.cache[k] = int(lines[-1])
        return self.cache[k]

    def legal(self, fen):
        return [l for l in self.run("legal", "--fen", key(fen)) if l]


# ---- the corruption ------------------------------------------------------------------------

def pieces(fen):
    rows, _ = parse_board(fen)
    counts = {}
    for cells in rows:
        for c in cells:
            if c != ".":
                counts[c] = counts.get(c, 0) + 1
    return counts


def may_reach(fen, target, plies):
    """Whether `target` could be reached from `fen` in at most `plies` moves (a cheap filter:
    each move changes at most two points, captured pieces never come back, sides alternate)."""
    rows, side = parse_board(fen)
    trows, tside = parse_board(target)
    diff = sum(1 for r in range(10) for c in range(9) if rows[r][c] != trows[r][c])
    have, need = pieces(fen), pieces(target)
    if any(need[p] > have.get(p, 0) for p in need):
        return False
    for j in range(plies + 1):
        if (j % 2 == 0) == (side == tside) and diff <= 2 * j:
            return True
    return False


class Corruption:
    def __init__(self, oracle, target, bad_move, sign):
        self.oracle = oracle
        self.target = key(target)
        self.bad = bad_move
        self.sign = sign  # -1 drop, +1 add
        self.memo = {}

    def bad_count(self, depth):
        """Leaves under the bad move at the target with `depth` plies left (including it)."""
        if depth == 1:
            return 1
        return self.oracle.perft(play(self.target, self.bad), depth - 1)

    def delta(self, fen, depth):
        """How far the fake count of `fen` at `depth` is from the truth."""
        if depth <= 0 or not may_reach(fen, self.target, depth - 1):
            return 0
        k = (key(fen), depth)
        if k in self.memo:
            return self.memo[k]
        total = 0
        if key(fen) == self.target:
            total += self.sign * self.bad_count(depth)
        if depth >= 2:
            for move in self.oracle.legal(fen):
                total += self.delta(play(fen, move), depth - 1)
        self.memo[k] = total
        return total

    def divide(self, fen, depth):
        split = []
        for move, count in self.oracle.divide(fen, depth):
            if key(fen) == self.target and move == self.bad and self.sign < 0:
                continue
            split.append((move, count + self.delta(play(fen, move), depth - 1)))
        if key(fen) == self.target and self.sign > 0:
            split.append((self.bad, self.bad_count(depth)))
        return split


# ---- the UCI loop --------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="correct",
                        choices=["correct", "drop", "add", "hang", "crash", "no-uciok",
                                 "garbage", "exit", "inconsistent"])
    parser.add_argument("--no-divide", action="store_true",
                        help="print only the total, no `move: count` lines")
    parser.add_argument("--xqrules", default=os.environ.get("XQRULES_BIN"))
    parser.add_argument("--ranks", default="0-9", choices=["0-9", "1-10"])
    parser.add_argument("--target-moves", default="",
                        help="comma-separated ICCS moves from the start to the corrupted position")
    parser.add_argument("--bad-move", default="", help="ICCS move dropped or added there")
    parser.add_argument("--rules-file", default="",
                        help="rules.jsonl of an exported suite, to answer rule cases")
    parser.add_argument("--wrong-rule", default="", help="example id answered wrongly")
    parser.add_argument("--after", type=int, default=1,
                        help="hang/crash/garbage at this `go perft` command (1 = the first)")
    args = parser.parse_args()

    if args.mode == "exit":
        sys.stderr.write("fake engine: cannot open my evaluation file\n")
        sys.exit(5)
    if args.mode in ("correct", "drop", "add", "inconsistent") and not args.xqrules:
        sys.stderr.write("fake engine: give --xqrules or set XQRULES_BIN\n")
        sys.exit(4)

    oracle = Oracle(args.xqrules) if args.xqrules else None
    corruption = None
    if args.mode in ("drop", "add"):
        target = START_FEN
        for move in [m for m in args.target_moves.split(",") if m]:
            target = play(target, move)
        corruption = Corruption(oracle, target, args.bad_move, -1 if args.mode == "drop" else 1)

    rule_answers = {}
    if args.rules_file:
        import json
        with open(args.rules_file, encoding="utf-8") as f:
            for line in f:
                case = json.loads(line)
                key_ = (case["fen"], tuple(case["moves"][:-1]), case["moves"][-1])
                result = case["engine_question"]["mover_result"]
                wrong = case["id"] == args.wrong_rule
                if wrong:
                    result = {"win": "loss", "loss": "win", "draw": "win"}[result]
                # Examples may share a position and moves (a 1999 figure placed in a 2011
                # position): the wrong answer wins, so that the chosen case is really wrong.
                if wrong or key_ not in rule_answers:
                    rule_answers[key_] = {"win": "mate 1", "loss": "mate -1", "draw": "cp 0"}[result]

    fen = START_FEN
    base_fen, played = START_FEN, []
    set_up_with_moves = False
    perfts = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            out("id name Fake %s" % args.mode)
            out("id author xiangqi-rules tests")
            if args.mode == "no-uciok":
                continue
            out("option name Hash type spin default 16 min 1 max 1024")
            out("uciok")
        elif command == "isready":
            out("readyok")
        elif command == "setoption":
            pass
        elif command == "position":
            if len(words) > 1 and words[1] == "startpos":
                fen, rest = START_FEN, words[2:]
            else:
                fen, rest = " ".join(words[2:8]), words[8:]
            set_up_with_moves = bool(rest[1:]) if rest else False
            base_fen, played = fen, []
            if rest and rest[0] == "moves":
                for move in rest[1:]:
                    played.append(to_iccs(move, args.ranks))
                    fen = play(fen, to_iccs(move, args.ranks))
        elif command == "go" and "searchmoves" in words:
            move = words[words.index("searchmoves") + 1]
            score = rule_answers.get((base_fen, tuple(played), to_iccs(move, args.ranks)), "cp 13")
            out("info depth 1 score %s nodes 1 pv %s" % (score, move))
            out("bestmove %s" % move)
        elif command == "go" and len(words) >= 3 and words[1] == "perft":
            perfts += 1
            depth = int(words[2])
            if perfts == args.after and args.mode == "hang":
                time.sleep(3600)
            if perfts == args.after and args.mode == "crash":
                out("a0a1: 1")
                out("b0c2: 1")
                sys.stderr.write("fake engine: segmentation fault (simulated)\n")
                sys.stderr.flush()
                os._exit(3)
            if perfts == args.after and args.mode == "garbage":
                while True:
                    out("\x01#%% garbage ~~ \xff line")
            if oracle is None:
                out("Nodes searched: 0")
                continue
            split = corruption.divide(fen, depth) if corruption else oracle.divide(fen, depth)
            if args.mode == "inconsistent" and not set_up_with_moves and depth >= 2:
                split = [(m, c + 1 if m == args.bad_move else c) for m, c in split]
            for move, count in split:
                if not args.no_divide:
                    out("%s: %d" % (from_iccs(move, args.ranks), count))
            out("")
            out("Nodes searched: %d" % sum(c for _, c in split))
            out("")
        elif command == "quit":
            return
        else:
            out("Unknown command: %s" % raw.strip())


if __name__ == "__main__":
    main()
