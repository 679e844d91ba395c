#!/usr/bin/env bash
# Plays each Quarto playing level against the level below with arena and
# prints the score and Elo lines: the evidence behind Quarto's level table.
#   tools/quarto_levels.sh [GAMES] [PAIRINGS...]
# GAMES per pairing (default 200) at 0.2 s per move on the 4x4 board;
# PAIRINGS like "5 4" (default: every level against the one below, and full
# strength against level 3). RULES picks the rule level (default 1, lines
# only; docs/strength.md also has a table for 2, lines and 2x2 squares), SEED the
# openings (default 1), CONCURRENCY the games at a time (default 1: the
# levels are deterministic for a seed, but the time limit is not, and the
# strongest levels use most of it).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
cargo build --release --workspace >/dev/null
engine=${TABULA:-target/release/tabula}
if [ $# -gt 0 ]; then
  pairings=("$@")
else
  pairings=("2 1" "3 2" "4 3" "5 4" "6 5" "7 6" "8 7" "9 8" "10 9" "10 3")
fi
for pairing in "${pairings[@]}"; do
  read -r upper lower <<<"$pairing"
  echo "level $upper vs level $lower, $games games, rule level ${RULES:-1}"
  ./target/release/arena \
    -engine cmd=$engine name=level$upper option.Level=$upper \
    -engine cmd=$engine name=level$lower option.Level=$lower \
    -each st=0.2 -variant game=quarto board=4x4 level="${RULES:-1}" -games "$games" -repeat \
    -concurrency "${CONCURRENCY:-1}" -openings random plies=2 -ratinginterval 100000 -seed "${SEED:-1}" |
    grep -A1 '^Score of' | tail -2
done
