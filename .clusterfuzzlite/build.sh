#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ and copies it, with its committed seed corpus, to $OUT.
# The layout is the one OSS-Fuzz and ClusterFuzzLite expect of cargo-fuzz projects (the
# builder image's cargo adds the sanitizer flags; Rust supports only `address`).
cd "$SRC/xiangqi-rules"
cargo fuzz build -O --fuzz-dir fuzz
for target in $(cargo fuzz list --fuzz-dir fuzz); do
  cp "fuzz/target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
  if [ -d "fuzz/corpus/$target" ]; then
    (cd "fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
done
# The judge targets run the oracle at the rule sets' full search depths, which can take seconds
# on a position rich in checks (more under the address sanitizer): a longer unit timeout, and the
# memory limit .ci/run passes (ClusterFuzz `.options` files).
for target in judge_diff classify_diff; do
  printf '[libfuzzer]\ntimeout = 300\nrss_limit_mb = 4096\n' > "$OUT/$target.options"
done
