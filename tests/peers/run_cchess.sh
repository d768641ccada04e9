#!/usr/bin/env bash
# Peer check: our Chinese move notation against the `cchess` PyPI package on random positions.
# Exit 0: agreement (every disagreement explained in tests/peers/cchess-disagreements.yaml), or
# skipped with a printed reason when PyPI (or python3 -m venv) is not available.
# Exit 1: an unexplained disagreement.
set -uo pipefail
cd "$(dirname "$0")/../.."
venv="${PEERS_VENV:-target/peers-venv}"
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    echo "skip: python3 -m venv is not available"; exit 0
  fi
fi
if ! "$venv/bin/python" -c 'import cchess' >/dev/null 2>&1; then
  if ! timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check cchess >/dev/null 2>&1; then
    echo "skip: cannot install cchess from PyPI (unreachable?)"; exit 0
  fi
fi
set -e
cargo build --quiet --bin xqrules
bin="${CARGO_TARGET_DIR:-target}/debug/xqrules"
"$venv/bin/python" tests/peers/cchess_notation.py "$bin" "$@"
