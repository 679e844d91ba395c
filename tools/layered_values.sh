#!/usr/bin/env bash
# Writes tests/data/quoridor.solved: the value of the start of every
# two-player board of area 20 or less (2 to 6 columns, at least 3 rows),
# 0 to 10 walls each, by the layered method (`method=layers`, its own copy
# of the rules). tests/solve_proof.rs checks the proof search against it.
# About 4 minutes on one core.
#
# usage: tools/layered_values.sh [path/to/tabula]   (default: target/release/tabula)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tabula=${1:-$here/target/release/tabula}
out=$here/tests/data/quoridor.solved
{
  echo "# The start of each board by the layered solver (tools/layered_values.sh):"
  echo "# WIDTHxHEIGHT WALLS first|second|draw PLIES (who wins from the start: the"
  echo "# player who moves first, the other, or nobody; PLIES 0 for a draw)."
  for width in 2 3 4 5 6; do
    for height in 3 4 5 6 7 8 9 10; do
      [ $((width * height)) -le 20 ] || continue
      for walls in 0 1 2 3 4 5 6 7 8 9 10; do
        result=$("$tabula" solve width=$width height=$height walls=$walls method=layers threads=1 2>/dev/null | grep '^result:')
        read -r _ who plies _ <<<"$result"
        case $plies in plies=*) plies=${plies#plies=} ;; *) plies=0 ;; esac
        echo "${width}x$height $walls $who $plies"
      done
    done
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
