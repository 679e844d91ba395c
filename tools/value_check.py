#!/usr/bin/env python3
"""Does Tabula keep what a proof knows? Draws random positions with a seed,
asks the engine for its move at a given time, solves the position before
and after that move with `tabula solve`, and prints every position whose
exact value the move dropped (a won position left drawn or lost, a drawn
one left lost), and every `score mate N` that the solver contradicts.

Quarto positions come from `tabula solve game=quarto level=L placed=K
seed=S` (seeded random moves, none that ends the game); Quoridor positions
from the engine's random mover (`Level 1`, `Seed S`) playing `--plies`
moves from the start of the variant.

    tools/value_check.py --tabula target/release/tabula --game quarto \\
        --levels 1 2 3 4 --placed 4 5 6 --count 10 --movetime 1000
    tools/value_check.py --tabula target/release/tabula --game quoridor \\
        --variant width=5 height=5 walls=3 --plies 2 4 6 --count 10 --movetime 1000

`--busy` keeps a second engine searching on the other core meanwhile, as
in a tournament with concurrency. Exit status 1 when a value was dropped
or a mate score contradicted (`mate N lowerbound`, a win in N or fewer,
counts as a claim too). The last line also counts the moves the engine
said were proven (`info string proven ...`).
"""

import argparse
import queue
import re
import subprocess
import sys
import threading
import time

SOLVE_TIMEOUT = 600
RESULT = re.compile(r"^result: (first|second|draw)(?: plies=(\d+))?")


class Engine:
    """A tabula process spoken to in its UCI-style protocol, every wait bounded."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for(lambda l: l == "uciok", 30)

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, done, seconds):
        """Lines up to and including the first that `done` accepts."""
        deadline = time.time() + seconds
        seen = []
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise RuntimeError("no answer in %d s after: %s" % (seconds, seen[-3:]))
            line = self.lines.get(timeout=left)
            if line is None:
                raise RuntimeError("the engine ended")
            seen.append(line)
            if done(line):
                return seen

    def ready(self):
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", 30)

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()


def solve(tabula, text, moves=()):
    """(winner, plies) of a position, the winner `first` (the side to move),
    `second` or `draw`."""
    command = [tabula, "solve", "position=" + text]
    if moves:
        command += ["moves", *moves]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SOLVE_TIMEOUT)
    for line in reversed(done.stdout.splitlines()):
        m = RESULT.match(line)
        if m:
            return m.group(1), int(m.group(2)) if m.group(2) else None
    raise RuntimeError("no result for %s %s: %s" % (text, " ".join(moves), done.stderr.strip()[-300:]))


def quarto_positions(tabula, levels, placed, count, seed):
    for level in levels:
        for k in placed:
            for i in range(count):
                s = seed + i
                done = subprocess.run([tabula, "solve", "game=quarto", "level=%d" % level, "placed=%d" % k,
                                       "seed=%d" % s], capture_output=True, text=True, timeout=SOLVE_TIMEOUT)
                first = done.stdout.splitlines()[0] if done.stdout else ""
                if not first.startswith("solving "):
                    raise RuntimeError("no position for level %d placed %d seed %d: %s" % (
                        level, k, s, done.stderr.strip()[-300:]))
                result = [RESULT.match(l) for l in done.stdout.splitlines()]
                value = next(((m.group(1), int(m.group(2)) if m.group(2) else None)
                              for m in reversed(result) if m), None)
                yield "level=%d placed=%d seed=%d" % (level, k, s), first[len("solving "):], value


def quoridor_positions(tabula, variant, plies, count, seed):
    keys = dict(w.split("=", 1) for w in variant)
    options = {"width": "BoardWidth", "height": "BoardHeight", "walls": "Walls"}
    mover = Engine(tabula)
    try:
        for key, value in keys.items():
            if key not in options:
                raise SystemExit("--variant: %s= is not one of %s" % (key, ", ".join(options)))
            mover.send("setoption name %s value %s" % (options[key], value))
        mover.send("setoption name Level value 1")
        for n in plies:
            for i in range(count):
                s = seed + i
                mover.send("setoption name Seed value %d" % s)
                mover.send("ucinewgame")
                moves = []
                for _ in range(n):
                    mover.send("position startpos moves " + " ".join(moves))
                    mover.send("go nodes 1")
                    best = mover.wait_for(lambda l: l.startswith("bestmove"), 30)[-1].split()[1]
                    if best == "(none)":
                        break
                    moves.append(best)
                mover.send("position startpos moves " + " ".join(moves))
                mover.send("d")
                text = next(l for l in mover.wait_for(lambda l: l.startswith("Position: "), 30)
                            if l.startswith("Position: "))[len("Position: "):]
                yield "plies=%d seed=%d" % (n, s), text, None
    finally:
        mover.close()


def engine_move(engine, text, movetime):
    """The move and the last score the engine gave, with any `info string`."""
    engine.send("ucinewgame")
    engine.send("position fen " + text)
    engine.ready()
    engine.send("go movetime %d" % movetime)
    lines = engine.wait_for(lambda l: l.startswith("bestmove"), movetime / 1000 + 60)
    score = None
    notes = []
    for line in lines:
        m = re.search(r" score (cp|mate) (-?\d+)", line)
        # A bound is no value, but `mate N lowerbound` (a win in N or
        # fewer) is a claim the solver can check like any mate score.
        claim = m and m.group(1) == "mate" and int(m.group(2)) > 0 and " lowerbound" in line
        if m and (claim or (" lowerbound" not in line and " upperbound" not in line)):
            score = (m.group(1), int(m.group(2)))
        if line.startswith("info string"):
            notes.append(line[len("info string "):])
    return lines[-1].split()[1], score, notes


def kept(before, after):
    """Whether the move kept the position's value: `after` is the value
    with the opponent to move."""
    if before[0] == "first":
        return after[0] == "second"
    if before[0] == "draw":
        return after[0] in ("draw", "second")
    return True


def mate_contradicted(score, before):
    if not score or score[0] != "mate":
        return False
    n = score[1]
    winner, plies = before
    if n > 0:
        return winner != "first" or (plies is not None and plies > 2 * n - 1)
    return winner != "second" or (plies is not None and plies > 2 * -n)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tabula", required=True)
    parser.add_argument("--game", choices=["quarto", "quoridor"], required=True)
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4], help="Quarto rule levels")
    parser.add_argument("--placed", type=int, nargs="+", default=[4, 5, 6], help="Quarto pieces placed")
    parser.add_argument("--variant", nargs="+", default=["width=5", "height=5", "walls=3"],
                        help="Quoridor: width= height= walls=")
    parser.add_argument("--plies", type=int, nargs="+", default=[2, 4, 6], help="Quoridor random plies")
    parser.add_argument("--count", type=int, default=10, help="positions for each level and count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds a move")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option (Threads=1 and Hash=64 unless given)")
    parser.add_argument("--busy", action="store_true", help="keep a second engine searching meanwhile")
    args = parser.parse_args()

    options = {"Threads": "1", "Hash": "64"}
    options.update(o.split("=", 1) for o in args.option)
    engine = Engine(args.tabula)
    for name, value in options.items():
        engine.send("setoption name %s value %s" % (name, value))
    busy = None
    if args.busy:
        busy = Engine(args.tabula)
        busy.send("setoption name Threads value 1")
        busy.send("position startpos")
        busy.send("go infinite")
    if args.game == "quarto":
        positions = quarto_positions(args.tabula, args.levels, args.placed, args.count, args.seed)
    else:
        positions = quoridor_positions(args.tabula, args.variant, args.plies, args.count, args.seed)
    checked = dropped = contradicted = proven = 0
    try:
        for name, text, before in positions:
            before = before or solve(args.tabula, text)
            move, score, notes = engine_move(engine, text, args.movetime)
            if move == "(none)":
                continue
            after = solve(args.tabula, text, [move])
            checked += 1
            proven += any(n.startswith("proven") for n in notes)
            bad = []
            if not kept(before, after):
                dropped += 1
                bad.append("dropped the value: %s %s before, %s %s after %s" % (
                    before[0], before[1], after[0], after[1], move))
            if mate_contradicted(score, before):
                contradicted += 1
                bad.append("score mate %d but the solver says %s %s" % (score[1], before[0], before[1]))
            for why in bad:
                print("%s: %s: %s (score %s%s)" % (name, text, why, score,
                                                  "; " + "; ".join(notes) if notes else ""), flush=True)
    finally:
        engine.close()
        if busy:
            busy.send("stop")
            busy.close()
    print("checked %d positions at %d ms a move%s: %d dropped the value, %d mate scores contradicted; "
          "the engine said %d moves were proven" % (
              checked, args.movetime, " with the other core busy" if args.busy else "", dropped, contradicted,
              proven))
    return 1 if dropped or contradicted else 0


if __name__ == "__main__":
    sys.exit(main())
