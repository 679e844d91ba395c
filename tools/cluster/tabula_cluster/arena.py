"""A match spread over the cluster: each game pair of `arena ARGS` is a
Ray task running `arena ARGS -pair K -results FILE`; the driver collects
the results lines and `arena merge` reports them as one run would.

Pairs are never split, so pentanomial counts merge exactly. A task whose
node dies is retried elsewhere (Ray's own retries, then the driver's); a
pair counts once, when its task returns, so no finished game is lost or
counted twice. An engine crash inside a task is scored by arena itself.
"""

import json
import os
import sys
import tempfile
import time

import ray

from .binaries import run_tool

# Driver resubmissions of one pair after Ray's own retries gave up.
RESUBMITS = 3
# What a task's machine going away looks like; any other error is the
# task's own and ends the match.
LOST = (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError,
        ray.exceptions.OwnerDiedError, ray.exceptions.LocalRayletDiedError)


def _flag(word):
    return word.lstrip("-") if word.startswith("-") and not word.startswith("---") else None


def split_args(args):
    """ARENA_ARGS without what the driver decides itself: returns (task
    args, -pgnout words for `arena merge` (the file, then `min` for minimal
    records) or None, -results file). Refuses -pair and -schedule."""
    kept, pgn_out, minimal, results = [], None, False, None
    i = 0
    while i < len(args):
        flag = _flag(args[i])
        value = args[i + 1] if i + 1 < len(args) else None
        if flag in ("pair", "schedule"):
            raise ValueError(f"-{flag} is the driver's own; leave it out")
        if flag == "pgnout" and value is not None:
            pgn_out = value.split("=", 1)[1] if value.startswith("file=") else value
            i += 2
            while i < len(args) and not args[i].startswith("-"):
                if args[i].startswith("file="):
                    pgn_out = args[i].split("=", 1)[1]
                elif args[i] == "min" or args[i].startswith("min="):
                    minimal = args[i] in ("min", "min=true")
                i += 1
            continue
        if flag in ("results", "concurrency", "log") and value is not None:
            if flag == "results":
                results = value
            elif flag == "log":
                print("tools/cluster: -log is left out: each pair runs on its own node", file=sys.stderr)
            i += 2
            continue
        if flag == "force-concurrency":
            i += 1
            continue
        kept.append(args[i])
        i += 1
    if pgn_out is not None:
        pgn_out = [pgn_out, "min"] if minimal else [pgn_out]
    return kept, pgn_out, results


def is_sprt(args):
    return any(_flag(a) == "sprt" for a in args)


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=False)
def play_pair(arena, args, pair, cwd):
    """One game pair, played by arena on this node: its exit code, results
    lines and printed lines."""
    with tempfile.TemporaryDirectory(prefix="tabula-pair-") as scratch:
        results = os.path.join(scratch, "results.jsonl")
        code, out, err = run_tool([arena, *args, "-pair", str(pair), "-results", results,
                                   "-concurrency", "1"], cwd=cwd)
        lines = open(results, encoding="utf-8").read() if os.path.exists(results) else ""
    return {"pair": pair, "code": code, "results": lines, "stdout": out, "stderr": err[-4000:]}


def schedule(arena, args, cwd):
    """The pairs of the match, by asking arena for its schedule (which also
    checks the arguments)."""
    code, out, err = run_tool([arena, *args, "-schedule"], cwd=cwd, timeout=120)
    if code != 0:
        raise ValueError(err.strip() or f"arena -schedule exited with {code}")
    games = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    pairs = sorted({g["pair"] for g in games})
    return pairs, len(games)


def merge(arena, results, pgn_out=None, cwd=None):
    """`arena merge` of the results file: (exit code, printed lines)."""
    args = [arena, "merge", results]
    if pgn_out:
        args += ["-pgnout", *pgn_out]
    code, out, err = run_tool(args, cwd=cwd, timeout=600)
    return code, out + err


def sprt_decided(merged_output):
    return any(line.startswith(("H0 accepted", "H1 accepted")) for line in merged_output.splitlines())


def run_match(tools, args):
    cwd = os.getcwd()
    try:
        task_args, pgn_out, results_out = split_args(args)
        pairs, games = schedule(tools.arena, task_args, cwd)
    except ValueError as e:
        print(f"tools/cluster arena: {e}", file=sys.stderr)
        return 2
    sprt = is_sprt(task_args)
    width = max(1, int(ray.cluster_resources().get("CPU", 1)))
    print(f"Distributing {games} games in {len(pairs)} pairs over {width} worker CPUs", flush=True)
    scratch = tempfile.TemporaryDirectory(prefix="tabula-match-")
    combined = results_out or os.path.join(scratch.name, "results.jsonl")
    open(combined, "w").close()
    pending, running, done, tries = list(pairs), {}, set(), {}
    ending, began = 0, time.time()

    def submit():
        # A window of a few tasks a CPU: enough to keep nodes busy, few to
        # cancel when an SPRT decides.
        while pending and len(running) < 2 * width:
            pair = pending.pop(0)
            running[play_pair.remote(tools.arena, task_args, pair, cwd)] = pair

    try:
        submit()
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            pair = running.pop(ready[0])
            try:
                answer = ray.get(ready[0])
            except LOST as e:
                tries[pair] = tries.get(pair, 0) + 1
                if tries[pair] > RESUBMITS:
                    print(f"tools/cluster arena: pair {pair} failed {tries[pair]} times: {e}", file=sys.stderr)
                    ending = 2
                    break
                print(f"Warning: pair {pair} lost with its node; played again", flush=True)
                pending.insert(0, pair)
                submit()
                continue
            except ray.exceptions.RayError as e:
                print(f"tools/cluster arena: pair {pair}: {e}", file=sys.stderr)
                ending = 2
                break
            if answer["code"] not in (0, 3):
                print(f"tools/cluster arena: pair {pair}: arena exited with {answer['code']}: "
                      f"{answer['stderr'].strip()[-500:]}", file=sys.stderr)
                ending = 2
                break
            done.add(pair)
            with open(combined, "a", encoding="utf-8") as out:
                out.write(answer["results"])
            for line in answer["stdout"].splitlines():
                if line.startswith(("Finished game", "Warning")):
                    print(line, flush=True)
            if answer["code"] == 3:
                print("An engine crashed or failed to start; stopping (use -recover to go on)", flush=True)
                ending = 3
                break
            if sprt and sprt_decided(merge(tools.arena, combined, cwd=cwd)[1]):
                print("SPRT decided: the remaining pairs are cancelled", flush=True)
                break
            submit()
    except KeyboardInterrupt:
        print("Interrupted: results so far", flush=True)
        ending = 130
    for ref in running:
        ray.cancel(ref, force=True)
    elapsed = time.time() - began
    print(f"Pairs played: {len(done)} of {len(pairs)} in {elapsed:.1f} s", flush=True)
    if not done:
        return ending or 2
    code, text = merge(tools.arena, combined, pgn_out, cwd)
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line == "Final results:"), 0)
    for line in lines[start:]:
        print(line)
    scratch.cleanup()
    return ending or code
