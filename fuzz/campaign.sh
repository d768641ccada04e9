#!/usr/bin/env bash
# A long fuzzing campaign for one cargo-fuzz target, keeping its corpus between runs:
#
#   fuzz/campaign.sh TARGET [MINUTES=60] [JOBS=2]
#
# Runs libFuzzer in fork mode with JOBS parallel workers for MINUTES minutes, continuing after a
# divergence (-ignore_crashes) so that one bug does not end the campaign. The judge targets
# compare at the rule sets' full search depths: a line rich in checks can take the oracle tens of
# seconds on a loaded machine, hence a unit timeout of 300 s (a hang, not a slow input). The growing corpus is
# kept in fuzz/campaign/TARGET/ (git-ignored; the committed seeds fuzz/corpus/TARGET/seed-* are
# read too), crashes in fuzz/artifacts/TARGET/. At the end every artifact is replayed
# (difftest/examples/replay.rs) and each divergence is printed as a YAML stub, ready to save as a
# named regression case (tests/regressions/judge/ for judge_diff and classify_diff, see
# tests/judge_regressions.rs; tests/regressions/ for fen and movegen_diff).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: fuzz/campaign.sh TARGET [MINUTES] [JOBS]}
minutes=${2:-60}
jobs=${3:-2}
corpus="fuzz/campaign/$target"
artifacts="fuzz/artifacts/$target"
mkdir -p "$corpus" "$artifacts"

# The differential targets spend their time in the judges' searches, where tracing every
# comparison for libFuzzer made each run 2.3-2.5 times slower (docs/fuzzing.md); their inputs are
# choices drawn from the bytes, which comparison tracing does little to guide.
trace=()
case "$target" in
  judge_diff | classify_diff) trace=(--no-trace-compares) ;;
esac

cargo fuzz run --fuzz-dir fuzz --sanitizer none "${trace[@]}" "$target" "$corpus" "fuzz/corpus/$target" -- \
  -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time=$((minutes * 60)) -timeout=300 -rss_limit_mb=4096 \
  -artifact_prefix="$artifacts/" || true

echo "corpus: $(find "$corpus" -type f | wc -l) inputs in $corpus"
shopt -s nullglob
found=("$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-*)
if [ ${#found[@]} -eq 0 ]; then
  echo "no divergence, timeout or OOM in $artifacts"
  exit 0
fi
echo "${#found[@]} artifact(s) in $artifacts; divergences as YAML stubs:"
case "$target" in
  judge_diff | classify_diff | fen | movegen_diff)
    cargo run --quiet --release -p xiangqi-difftest --example replay -- "$target" "${found[@]}" ;;
  *)
    echo "(no stub printer for $target: reproduce with cargo fuzz run --fuzz-dir fuzz $target FILE)" ;;
esac
