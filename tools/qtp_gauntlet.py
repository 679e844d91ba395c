#!/usr/bin/env python3
"""Tabula against QTP engines, played by the QTP referee itself.

The University of Athens' referee (`quoridor_referee.py`) and the engines
of its yearly competition come from a checkout of the public repository
pavlosdais/Quoridor, built by its own makefile outside this tree (`make
final`); nothing of it is part of Tabula. This script runs the referee as
its makefile does (`--black`/`--white`, `--size`, `--games`, its default
time and memory limits), Tabula in one seat and each engine in the other,
both colours, and prints a markdown table: Tabula's wins and losses, the
games the referee could not finish, and every fault the referee reports
(unexpected output, time-outs, invalid moves, memory, an engine that stops
responding), for Tabula and for its opponent.

    tools/qtp_gauntlet.py --quoridor ../Quoridor --tabula target/release/tabula \\
        --sizes 9 7 --games 2

The referee starts `./PATH -seed N` in its working directory; the script
runs it in a scratch directory holding links to the referee, the engines
and Tabula.

With `--arena target/release/arena` the same engines play Tabula under
arena instead (`-tournament gauntlet`, the engines as `proto=qtp` started
with `-seed N` as the referee starts them, the referee's walls and its
game time, 20 s a row, as arena's `tc=`, and `-recover` so that an engine that
crashes loses that game and the gauntlet goes on); the script prints arena's own
lines (the score of each pairing and the table of faults by engine).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time


def engines(quoridor):
    found = []
    ip = os.path.join(quoridor, "bin", "ipquoridor")
    if os.access(ip, os.X_OK):
        found.append(("ipquoridor", ip))
    others = os.path.join(quoridor, "otherProgs")
    for name in sorted(os.listdir(others)):
        path = os.path.join(others, name)
        if os.access(path, os.X_OK):
            found.append((name, path))
    return found


def run_referee(scratch, referee, black, white, size, games, seed, timeout):
    command = [
        sys.executable, referee, "--black", black, "--white", white, "--size", str(size),
        "--games", str(games), "--verbose", "1", "--seed", str(seed),
    ]
    started = time.time()
    try:
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, timeout=timeout,
                              errors="replace")
        out, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        code = "timeout"
    return out, code, time.time() - started


FAULTS = [
    ("unexpected output", re.compile(r"^unexpected output from (.*) \((black|white) player\)")),
    ("no reply in time", re.compile(r"^time out waiting for .* from (.*) \((black|white) player\)")),
    ("lost on time", re.compile(r"^(.*) \((black|white) player\) ran out of time")),
    ("invalid move", re.compile(r"^(.*) \((black|white) player\) tried an invalid move")),
    ("memory", re.compile(r"^(.*) \((black|white) player\) exceeded the memory limit")),
    ("not responding", re.compile(r"^(.*) \((black|white) player\) is not responding")),
]
WIN = re.compile(r"^(.*) \((black|white) player\) wins game (\d+)")
TOOK = re.compile(r"^(.*) \((black|white) player\) took ([\d.]+)s to decide its moves")


def referee_walls(size):
    """The referee's default walls: 7/4 * size - 23/4, rounded down."""
    return (7 * size - 23) // 4


def arena_gauntlet(arena, scratch, players, size, games, seed, pgn):
    """One arena gauntlet on a size x size board: Tabula (UCI) first, then
    every QTP engine; returns arena's output and exit status."""
    command = [arena, "-tournament", "gauntlet",
               "-engine", "cmd=" + os.path.join(scratch, "tabula"), "name=Tabula"]
    for name, link in players:
        command += ["-engine", "cmd=" + os.path.join(scratch, link), "name=" + name, "proto=qtp",
                    "arg=-seed", "arg=%d" % seed, "dir=" + scratch]
    command += ["-each", "tc=%d" % (20 * size), "-variant", "width=%d" % size, "height=%d" % size,
                "walls=%d" % referee_walls(size), "-games", str(2 * games), "-concurrency", "1",
                "-ratinginterval", "0", "-recover"]
    if pgn:
        command += ["-pgnout", pgn]
    done = subprocess.run(command, capture_output=True, text=True, errors="replace")
    return done.stdout + done.stderr, done.returncode


def tally(out, tabula_color):
    result = {"wins": 0, "losses": 0, "faults": {}, "their_faults": {}, "tabula_seconds": []}
    for line in out.splitlines():
        line = line.strip()
        m = WIN.match(line)
        if m:
            result["wins" if m.group(2) == tabula_color else "losses"] += 1
        m = TOOK.match(line)
        if m and m.group(2) == tabula_color:
            result["tabula_seconds"].append(float(m.group(3)))
        for name, pattern in FAULTS:
            m = pattern.match(line)
            if m:
                key = "faults" if m.group(2) == tabula_color else "their_faults"
                result[key][name] = result[key].get(name, 0) + 1
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quoridor", required=True, help="a built checkout of pavlosdais/Quoridor")
    parser.add_argument("--tabula", required=True)
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 7])
    parser.add_argument("--games", type=int, default=2, help="games per colour")
    parser.add_argument("--only", nargs="*", help="engine names to play (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="a file for the referee's (or arena's) whole output")
    parser.add_argument("--arena", help="play under this arena binary instead of the referee")
    parser.add_argument("--pgnout", help="arena: the games' records (SIZE is put before .pgn)")
    args = parser.parse_args()

    quoridor = os.path.abspath(args.quoridor)
    referee = os.path.join(quoridor, "quoridor_referee.py")
    scratch = tempfile.mkdtemp(prefix="qtp-gauntlet-")
    os.symlink(os.path.abspath(args.tabula), os.path.join(scratch, "tabula"))
    log = open(args.log, "a") if args.log else None
    if args.arena:
        players = []
        for name, path in engines(quoridor):
            if args.only and name not in args.only:
                continue
            link = "engine-" + name.replace(".", "_")
            os.symlink(path, os.path.join(scratch, link))
            players.append((name, link))
        for size in args.sizes:
            pgn = args.pgnout.replace(".pgn", "-%d.pgn" % size) if args.pgnout else None
            out, code = arena_gauntlet(os.path.abspath(args.arena), scratch, players, size, args.games,
                                       args.seed, pgn)
            if log:
                log.write("### arena %dx%d: exit %s\n%s\n" % (size, size, code, out))
                log.flush()
            final = out[out.rfind("Final results:"):] if "Final results:" in out else out[-3000:]
            print("%dx%d, %d walls (exit %s):\n%s" % (size, size, referee_walls(size), code, final), flush=True)
        return
    print("| engine | board | Tabula won | Tabula lost | unfinished | Tabula's faults | the engine's faults | Tabula's time a game |")
    print("|---|---|---|---|---|---|---|---|")
    for name, path in engines(quoridor):
        if args.only and name not in args.only:
            continue
        link = "engine-" + name.replace(".", "_")
        os.symlink(path, os.path.join(scratch, link))
        for size in args.sizes:
            total = {"wins": 0, "losses": 0, "faults": {}, "their_faults": {}, "tabula_seconds": []}
            unfinished = 0
            for tabula_color in ("black", "white"):
                black, white = ("tabula", link) if tabula_color == "black" else (link, "tabula")
                # Each game may take its two players' whole game time and more.
                timeout = args.games * (2 * 20 * size + 120)
                out, code, seconds = run_referee(scratch, referee, black, white, size, args.games,
                                                 args.seed, timeout)
                if log:
                    log.write("### %s size %d Tabula %s: exit %s after %.0f s\n%s\n" % (
                        name, size, tabula_color, code, seconds, out))
                    log.flush()
                got = tally(out, tabula_color)
                for key in ("wins", "losses"):
                    total[key] += got[key]
                for key in ("faults", "their_faults"):
                    for fault, n in got[key].items():
                        total[key][fault] = total[key].get(fault, 0) + n
                total["tabula_seconds"] += got["tabula_seconds"]
                unfinished += args.games - got["wins"] - got["losses"]
            describe = lambda faults: ", ".join("%s %d" % kv for kv in sorted(faults.items())) or "none"
            secs = sorted(total["tabula_seconds"])
            median = "%.0f s" % secs[len(secs) // 2] if secs else "-"
            print("| %s | %dx%d | %d | %d | %d | %s | %s | %s |" % (
                name, size, size, total["wins"], total["losses"], unfinished,
                describe(total["faults"]), describe(total["their_faults"]), median), flush=True)


main()
