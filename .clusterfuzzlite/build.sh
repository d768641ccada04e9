#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ and copies it, with its committed seed corpus, to $OUT.
# The layout is the one OSS-Fuzz and ClusterFuzzLite expect of cargo-fuzz projects.
cd "$SRC/xiangqi-rules"
cargo fuzz build -O --fuzz-dir fuzz
for target in $(cargo fuzz list --fuzz-dir fuzz); do
  cp "fuzz/target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
  if [ -d "fuzz/corpus/$target" ]; then
    (cd "fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
done
