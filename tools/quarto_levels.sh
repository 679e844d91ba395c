#!/usr/bin/env bash
# Plays each Quarto playing level against the level below with arena and
# prints the score and Elo lines: the evidence behind Quarto's level table.
#   tools/quarto_levels.sh [GAMES] [PAIRINGS...]
# GAMES per pairing (default 200) at 0.2 s per move on the 4x4 board, rule
# level 1; PAIRINGS like "5 4" (default: every level against the one below,
# and full strength against level 9). One game at a time: the levels are
# deterministic for a seed, but the time limit is not.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
cargo build --release --workspace >/dev/null
engine=target/release/tabula
if [ $# -gt 0 ]; then
  pairings=("$@")
else
  pairings=("2 1" "3 2" "4 3" "5 4" "6 5" "7 6" "8 7" "9 8" "10 9")
fi
for pairing in "${pairings[@]}"; do
  read -r upper lower <<<"$pairing"
  echo "level $upper vs level $lower, $games games"
  ./target/release/arena \
    -engine cmd=$engine name=level$upper option.Level=$upper \
    -engine cmd=$engine name=level$lower option.Level=$lower \
    -each st=0.2 -variant game=quarto board=4x4 level=1 -games "$games" -repeat -concurrency 1 \
    -openings random plies=2 -ratinginterval 100000 |
    grep -A1 '^Score of' | tail -2
done
