#!/usr/bin/env python3
"""Writes spec/examples/cxa-2011/ref<N>.yaml from ../shared/cases/cxa2011-reference-train.yaml.

The released half of the CXA 2011 第八章 棋例参考图 (and the variation of 参考图47 the text
describes) as executable examples, in the schema of spec/examples/README.md. Patterns are
computed from the printed classes with the 2011 pattern list (spec/rules/cxa-2011.yaml), the
cycle is played until a position occurs a third time (moves_full). Run from the repository root:

    python3 tests/gen_examples_cxa2011_ref.py ../shared/cases/cxa2011-reference-train.yaml
"""
import sys
import yaml

ZH = {"将": "check", "杀": "kill", "捉": "chase", "闲": "idle", "兑": "exchange",
      "献": "offer", "拦": "block", "跟": "follow"}
REDUCE = {"check": "check", "kill": "kill", "chase": "chase", "idle": "idle",
          "exchange": "idle", "offer": "idle", "block": "idle", "follow": "idle"}
# 2011 patterns in the order they are tried (spec/rules/cxa-1999.yaml patterns with the 2011
# overlay): all_in, each_of, any_in.
PATTERNS = [
    ("perpetual_check", {"check"}, set()),
    ("perpetual_kill", {"kill"}, set()),
    ("perpetual_chase", {"chase"}, set()),
    ("check_kill", {"check", "kill"}, {"check", "kill"}),
    ("check_chase", {"check", "chase"}, {"check", "chase"}),
    ("kill_chase", {"kill", "chase"}, {"kill", "chase"}),
    ("perpetual_attack", {"check", "kill", "chase"}, set()),
    ("idle", {"idle"}, set()),
    ("checks_and_idle", {"check", "idle"}, {"check", "idle"}),
    ("kills_and_idle", {"kill", "idle"}, {"kill", "idle"}),
    ("chases_and_idle", {"chase", "idle"}, {"chase", "idle"}),
]


def pattern(classes):
    got = {REDUCE[c] for c in classes}
    for name, all_in, each_of in PATTERNS:
        if got <= all_in and each_of <= got:
            return name
    return "allowed_otherwise"


# Where the judge still disagrees with the book (ruling or a printed class), and why; kept in
# the example as `known_disagreement` (tests/examples.rs asserts it is still there).
KNOWN = {
    "ref47": "every class agrees, the ruling not: the book calls red's horse-and-cannon chase of the "
             "pinned cannon d8 长捉无根子 here but 联合捉无根子 (joint) in 参考图47's variation and in "
             "参考图48, where the same horse moves hold the same cannon. The judge marks a chase renewed "
             "by a pin as joint (the pinning piece is a partner, 24.17) in all three; joint chases are not "
             "grave (reading grave-joint, 图10), so here neither side is grave under 26.8.1: draw.",
}


class Dumper(yaml.SafeDumper):
    pass


def rule_ids():
    """Every entry id of the 2011 rule file (an article with no entry of its own is not cited)."""
    import re
    text = open("spec/rules/cxa-2011.yaml", encoding="utf-8").read()
    return set(re.findall(r"\bid: (cxa2011\.[\w.-]+)", text))


def main(path):
    ids = rule_ids()
    data = yaml.safe_load(open(path, encoding="utf-8"))
    for c in data["cases"]:
        num = c["id"].removeprefix("cxa2011-ref")
        eid = f"cxa-2011/ref{num}"
        moves = c["moves_iccs"]
        cn = c["moves_cn"]
        classes_cn = c["move_classes_cn"]
        plies = c.get("cycle_plies") or len(moves)
        first_ply = 1
        full = list(moves) + list(moves)
        note = c.get("note")
        if not c.get("cycle_returns_to_start"):
            # 参考图10: an open sequence; its repeated part is the 4-ply chase of plies 5-12. The
            # example plays the printed moves up to ply 12 and the 4-ply cycle once more, so that
            # the position after ply 8 occurs a third time; plies 13-16 are not part of it.
            first_ply = 5
            moves = moves[:12]
            cn = cn[:12]
            classes_cn = classes_cn[:12]
            full = list(moves) + list(moves[8:12])
        side0 = c["side_to_move"]
        other = "black" if side0 == "red" else "red"
        cls = []
        for i, (m, mc, z) in enumerate(zip(moves, cn, classes_cn)):
            side = side0 if i % 2 == 0 else other
            cls.append({"ply": i + 1, "side": side, "move": m, "cn": mc, "zh": z,
                        "class": ZH[z], "gives_check": z == "将"})
        cyc = [x for x in cls if x["ply"] >= first_ply][:plies] if first_ply > 1 else cls[-plies:]
        red = [x["class"] for x in cyc if x["side"] == "red"]
        black = [x["class"] for x in cyc if x["side"] == "black"]
        verdict = c["verdict"]
        must = None
        if c["unless_changes"]:
            must = "red" if verdict == "red_loses" else "black"
        immediate = not c["unless_changes"]
        out = {
            "id": eid,
            "figure": c["figure"],
            "rules": "cxa-2011",
            "position": "official" if c.get("confidence") == "verbatim" else "constructed",
            "fen": c["fen"],
            "side_to_move": side0,
            "moves": list(moves),
            "moves_cn": list(cn),
            "moves_full": full,
            "cycle": {"plies": plies, "first_ply": first_ply,
                      "returns_to_start": bool(c.get("cycle_returns_to_start"))},
            "expected": {"ruling": verdict, "must_change": must, "immediate": immediate,
                         "red_pattern": pattern(red), "black_pattern": pattern(black)},
            "classes_from": "printed_2011" if c.get("confidence") == "verbatim" else "text_conclusion",
            "classes": cls,
            "articles": [str(a) for a in c.get("articles", [])],
            "rule_ids": [i for i in (f"cxa2011.{a}" for a in c.get("articles", [])) if i in ids],
            "verdict_phrase_zh": c.get("verdict_phrase_zh"),
            "key_point_en": c.get("key_point_en"),
            "source": {"text": c["source"], "case": f"shared/cases/cxa2011-reference-train.yaml#{c['id']}",
                       "confidence": c.get("confidence")},
        }
        if out["position"] == "constructed":
            out["construction_note"] = c.get("confidence_note")
            out["moves_from"] = "text description (variation sentence of " + c["figure"] + ")"
        notes = [n for n in (note, c.get("confidence_note")) if n]
        if not c.get("cycle_returns_to_start"):
            notes.append("Printed as an open sequence of 16 plies (no position occurs three times): "
                         "the example keeps plies 1-12 and repeats the 4-ply cycle of plies 9-12 once "
                         "more, so that the chase cycle is ruled as the book rules it (红方长捉).")
        if notes:
            out["note"] = " ".join(notes)
        if f"ref{num}" in KNOWN:
            out["known_disagreement"] = KNOWN[f"ref{num}"]
        name = eid.split("/")[1]
        with open(f"spec/examples/cxa-2011/{name}.yaml", "w", encoding="utf-8") as f:
            yaml.dump(out, f, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100)
        print(eid, out["expected"]["red_pattern"], out["expected"]["black_pattern"])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/cases/cxa2011-reference-train.yaml")
