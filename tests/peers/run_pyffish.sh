#!/usr/bin/env bash
# Peer check: the AXF repetition rulings of `xqrules judge --rules axf` against Fairy-Stockfish
# (PyPI pyffish, pinned) on the stratified corpus tests/peers/axf-corpus.jsonl (seeded games with
# forced 4-ply repetition cycles; see the header of axf_pyffish.py) and on the protection strata
# tests/peers/axf-protection-corpus.jsonl (pinned protector, discovered check on the recapture, cut
# line, same-type target that cannot take back, check that also attacks; 100 games each, built by
# tests/peers/axf_protection.py), plus the oracle on every game.
# Regenerate the corpus (about 10 minutes, then review the diff and the disagreements):
#   bash tests/peers/run_pyffish.sh --regenerate
# Regenerate the protection strata (about 15 minutes):
#   target/pyffish-venv/bin/python tests/peers/axf_protection.py target/debug/xqrules
# Exit 0: every disagreement is listed in tests/peers/axf-disagreements.yaml, or skipped with a
# printed reason when PyPI (or python3 -m venv) is not available.
# Exit 1: a disagreement that is not listed, or a game xqrules could not judge.
set -uo pipefail
cd "$(dirname "$0")/../.."
venv="${PYFFISH_VENV:-target/pyffish-venv}"
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    echo "skip: python3 -m venv is not available"; exit 0
  fi
fi
if ! "$venv/bin/python" -c 'import pyffish, yaml' >/dev/null 2>&1; then
  if ! timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check pyffish==0.0.90 pyyaml >/dev/null 2>&1; then
    echo "skip: cannot install pyffish from PyPI (unreachable?)"; exit 0
  fi
fi
set -e
cargo build --quiet --bin xqrules
bin="${CARGO_TARGET_DIR:-target}/debug/xqrules"
"$venv/bin/python" tests/peers/axf_pyffish.py "$bin" "$@"
