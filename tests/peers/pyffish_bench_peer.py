#!/usr/bin/env python3
"""The peer of the `peer` group of benches/judge.rs: Fairy-Stockfish (PyPI `pyffish`, variant
`xiangqi`) adjudicating the games of tests/peers/axf-corpus.jsonl the way an engine asks, ply by
ply, as tests/peers/axf_pyffish.py does for the peer check: `is_optional_game_end` after every ply
until one ends the game (and, at the last ply, whether the side to move has a move at all).

Protocol (one child process per benchmark run, so Python starts once): the corpus path is the
first argument; the script prints `ready N` (N games) and then, for each line `run` on standard
input, judges every game once and prints `done E P`: E games ended by the rules, P plies asked.
A line `last` asks only once per game, at the ply where the last `run` found it ended (the
cost of one ruling, without pyffish's replay of the game for every earlier ply), and prints
`done E P` likewise. Anything else, or the end of the input, ends it.
"""
import json
import sys

import pyffish as sf

VARIANT = "xiangqi"


def to_uci(m):
    """ICCS (ranks 0-9) to Fairy-Stockfish UCI (ranks 1-10)."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def adjudicate(fen, moves):
    """The first ply after which pyffish ends the game (0 when it never does), plies asked."""
    for k in range(1, len(moves) + 1):
        ended, _ = sf.is_optional_game_end(VARIANT, fen, moves[:k])
        if not ended and k == len(moves) and not sf.legal_moves(VARIANT, fen, moves[:k]):
            ended = True
        if ended:
            return k, k
    return 0, len(moves)


def main():
    games = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.strip():
                g = json.loads(line)
                games.append((g["fen"], [to_uci(m) for m in g["moves"]]))
    print(f"ready {len(games)}", flush=True)
    ends = [0] * len(games)
    for line in sys.stdin:
        cmd = line.strip()
        ended = plies = 0
        if cmd == "run":
            for i, (fen, moves) in enumerate(games):
                k, asked = adjudicate(fen, moves)
                ends[i] = k
                ended += k > 0
                plies += asked
        elif cmd == "last":
            for (fen, moves), k in zip(games, ends):
                if k > 0:
                    ended += sf.is_optional_game_end(VARIANT, fen, moves[:k])[0]
                    plies += k
        else:
            break
        print(f"done {ended} {plies}", flush=True)


if __name__ == "__main__":
    main()
