#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 30) each with cargo fuzz, from
# the seed inputs in tools/fuzz/seeds (new finds go to a scratch corpus, not
# into the repository). Needs nightly Rust; installs cargo-fuzz from
# crates.io when missing. Exits non-zero on the first crash, which cargo
# fuzz saves under tools/fuzz/artifacts/<target>/.
#   tools/fuzz/run.sh [SECONDS]
set -euo pipefail
seconds=${1:-30}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain; skipped (tests/it/fuzz_inputs.rs runs the same checks on stable)" >&2
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  if ! cargo install --locked cargo-fuzz; then
    echo "fuzz: cargo-fuzz could not be installed; skipped (tests/it/fuzz_inputs.rs runs the same checks on stable)" >&2
    exit 0
  fi
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in protocol_line quoridor_text quarto_text move_notation; do
  mkdir -p "$scratch/$target"
  cp tools/fuzz/seeds/"$target"/* "$scratch/$target"/
  echo "fuzz: $target for ${seconds}s"
  status=0
  cargo +nightly fuzz run --fuzz-dir tools/fuzz --release "$target" "$scratch/$target" -- \
    -max_total_time="$seconds" -max_len=512 -print_final_stats=1 >"$scratch/$target.log" 2>&1 || status=$?
  grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)' "$scratch/$target.log" || true
  if [ "$status" -ne 0 ]; then
    tail -40 "$scratch/$target.log" >&2
    echo "fuzz: $target failed; see tools/fuzz/artifacts/$target/" >&2
    exit 1
  fi
done
