#!/usr/bin/env bash
# Writes tests/data/quoridor.solved: the value of the start of every
# two-player board of area 20 or less (2 to 6 columns, at least 3 rows),
# 0 to 10 walls each, by the layered method (`method=layers`, its own copy
# of the rules). tests/it/solve_proof.rs checks the proof search against it.
# About 3 minutes on one core.
#
# usage: tools/layered_values.sh [path/to/tabula]   (default: target/release/tabula)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tabula=${1:-$here/target/release/tabula}
out=$here/tests/data/quoridor.solved
{
  echo "# The start of each two-player board of area 20 or less, 0 to 10 walls each,"
  echo "# by the layered solver (tools/layered_values.sh writes this file): the words"
  echo "# of its \`result:\` line, a tab, and the position text, as in a leaves file"
  echo "# (docs/solver.md)."
  for width in 2 3 4 5 6; do
    for height in 3 4 5 6 7 8 9 10; do
      [ $((width * height)) -le 20 ] || continue
      for walls in 0 1 2 3 4 5 6 7 8 9 10; do
        solved=$("$tabula" solve width=$width height=$height walls=$walls method=layers threads=1 2>/dev/null)
        text=$(sed -n 's/^solving //p' <<<"$solved")
        # The value's words only: the count and the time vary.
        words=$(sed -n 's/^result: \(first plies=[0-9]*\|second plies=[0-9]*\|draw\).*/\1/p' <<<"$solved")
        printf '%s\t%s\n' "$words" "$text"
      done
    done
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
