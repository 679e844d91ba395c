#!/usr/bin/env bash
# Plays each measured playing level against the level below with arena and
# prints the score lines: the evidence behind the strength tables in docs/strength.md.
#   tools/levels.sh [GAMES]      (default 200 games per pairing, 0.2 s per move)
# Levels 1-3 are the seed report's scripted players, 4-9 the search with a
# handicap (depth, nodes, leaf noise, root bonus), 10 full strength.
#   tools/levels.sh 200 "5 4" "10 9"   runs only the pairings named.
# Each pairing runs GAMES games with seats swapped on GAMES/2 random 2-ply
# openings (seed SEED, default 11), concurrency 2.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
cargo build --release --workspace >/dev/null
# TABULA=path/to/binary measures another build (the arena is this checkout's);
# SEED picks the openings (the tables in docs/strength.md used 11).
engine=${TABULA:-target/release/tabula}
seed=${SEED:-11}
shift || true
pairings=("2 1" "3 2" "4 3" "5 4" "6 5" "7 6" "8 7" "9 8" "10 9" "10 3")
if [ $# -gt 0 ]; then pairings=("$@"); fi
for pairing in "${pairings[@]}"; do
  read -r upper lower <<<"$pairing"
  ./target/release/arena \
    -engine cmd=$engine name=level$upper option.Level=$upper \
    -engine cmd=$engine name=level$lower option.Level=$lower \
    -each st=0.2 -variant game=quoridor -games "$games" -repeat -concurrency 2 \
    -openings random plies=2 -ratinginterval 100000 -seed "$seed" |
    grep -A1 '^Score of' | tail -2
done
