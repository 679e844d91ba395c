#!/usr/bin/env bash
# Four-player Quoridor: best-reply search against paranoid search, two seats
# each, every opening played in all four seat rotations. Prints the standings:
# the evidence behind the default of FourPlayerSearch (protocol.md).
#   tools/four_players.sh [GAMES] [SECONDS_PER_MOVE]   (default 100 games, 0.2 s)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
st=${2:-0.2}
cargo build --release --workspace >/dev/null
engine=target/release/tabula
./target/release/arena \
  -engine cmd=$engine name=brs-1 option.FourPlayerSearch=brs \
  -engine cmd=$engine name=paranoid-1 option.FourPlayerSearch=paranoid \
  -engine cmd=$engine name=brs-2 option.FourPlayerSearch=brs \
  -engine cmd=$engine name=paranoid-2 option.FourPlayerSearch=paranoid \
  -each st="$st" -variant game=quoridor players=4 walls=5 -games "$games" -repeat -concurrency 2 \
  -openings random plies=4 -ratinginterval 100000
