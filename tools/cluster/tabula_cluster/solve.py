"""An exact solve spread over the cluster. With `method=layers`, level by
level (see layers.py). Otherwise `tabula solve ARGS split=P`
lists the sub-proofs P plies below the position (each symmetry class
once), each is a Ray task running `tabula solve position=TEXT`, and
`tabula solve ARGS split=P leaves=FILE` combines their values by minimax
into the same `result:` line one process gives.
"""

import os
import sys
import tempfile
import time

import ray

from .binaries import print_solve_output, run_tool

# The keys of SOLVE_ARGS that say how to solve, passed on to every sub-proof.
HOW_KEYS = ("method", "memory", "threads")


def how_args(args):
    """The method, memory and threads keys of SOLVE_ARGS (before `moves`)."""
    keys = args[: args.index("moves")] if "moves" in args else args
    return [a for a in keys if a.split("=", 1)[0] in HOW_KEYS]


def result_words(stdout):
    """The words after `result:` of a solve's last result line, or None."""
    lines = [line for line in stdout.splitlines() if line.startswith("result: ")]
    return lines[-1][len("result: "):] if lines else None


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=False)
def solve_leaf(tabula, text, how):
    code, out, err = run_tool([tabula, "solve", f"position={text}", *how])
    return {"text": text, "code": code, "result": result_words(out), "stderr": err[-2000:]}


def layered(args):
    """Whether SOLVE_ARGS ask for the layered method (solved level by level)."""
    return "method=layers" in (args[: args.index("moves")] if "moves" in args else args)


def run_solve(tools, args, plies, cpus):
    if layered(args):
        from .layers import run_layered
        return run_layered(tools, args, cpus)
    began = time.time()
    split = [f"split={plies}"]
    code, out, err = run_tool([tools.tabula, "solve", *split, *args], timeout=600)
    if code != 0:
        print(f"tools/cluster solve: {err.strip()}", file=sys.stderr)
        return code or 2
    texts = [line[len("position="):] for line in out.splitlines() if line.startswith("position=")]
    print(out.splitlines()[0] if out else "", flush=True)
    how = how_args(args)
    if not any(a.startswith("threads=") for a in how):
        how.append("threads=1")
    refs = [solve_leaf.remote(tools.tabula, text, how) for text in texts]
    leaves, failed = [], None
    while refs:
        ready, refs = ray.wait(refs, num_returns=1)
        answer = ray.get(ready[0])
        if answer["code"] != 0 or answer["result"] is None:
            failed = answer
            break
        leaves.append(f"{answer['result']}\t{answer['text']}")
        print(f"sub-proof {len(leaves)} of {len(texts)}: {answer['result']}", flush=True)
    if failed is not None:
        for ref in refs:
            ray.cancel(ref, force=True)
        print(f"tools/cluster solve: the sub-proof {failed['text']} failed: {failed['stderr'].strip()}",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="tabula-solve-") as scratch:
        path = os.path.join(scratch, "leaves.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(leaves) + "\n")
        code, out, err = run_tool([tools.tabula, "solve", *split, f"leaves={path}", *args], timeout=600)
    if code != 0:
        print(f"tools/cluster solve: {err.strip()}", file=sys.stderr)
        return code
    print_solve_output(out, began)
    return 0
