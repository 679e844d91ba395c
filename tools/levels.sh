#!/usr/bin/env bash
# Plays each measured playing level against the level below with arena and
# prints the score lines: the evidence behind the strength table in README.
#   tools/levels.sh [GAMES]      (default 200 games per pairing, 0.2 s per move)
# Levels 1-3 are the seed report's scripted players; 10 is full strength.
# Levels 4-9 are not graded yet (they play at full strength).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
cargo build --release --workspace >/dev/null
engine=target/release/tabula
pairings=("2 1" "3 2" "10 3")
for pairing in "${pairings[@]}"; do
  read -r upper lower <<<"$pairing"
  ./target/release/arena \
    -engine cmd=$engine name=level$upper option.Level=$upper \
    -engine cmd=$engine name=level$lower option.Level=$lower \
    -each st=0.2 -variant game=quoridor -games "$games" -repeat -concurrency 2 \
    -openings random plies=2 -ratinginterval 100000 |
    grep -A1 '^Score of' | tail -2
done
