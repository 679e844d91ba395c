"""Quoridor's layered method spread over the cluster, level by level.

`tabula solve ARGS stage=plan` lists every level's layers (wall sets and
hands) in a plan file. Levels are then valued from the most walls down:
each level is cut into slices, each slice a Ray task running `tabula solve
ARGS stage=values added=K part=I/N` in a scratch directory of its own,
given the plan and the level below's values from Ray's object store (so
the machines share no disk). A level starts only when the one below it is
complete: a barrier per level. Last, `tabula solve ARGS stage=combine`
reads every level back and prints what one process prints.
"""

import os
import re
import sys
import tempfile
import time

import ray

from .binaries import print_solve_output, run_tool

PLAN = "plan.layers"
# Slices per worker CPU in a level: enough for a node that dies to cost
# little, few enough that each task values many layers.
SLICES_PER_CPU = 2
# Layers a slice has at least (small levels are one task).
MIN_LAYERS = 64


def with_keys(args, keys):
    """SOLVE_ARGS with `keys` added before any `moves ...`."""
    at = args.index("moves") if "moves" in args else len(args)
    return [*args[:at], *keys, *args[at:]]


def slice_name(added, part, parts):
    return f"level-{added}-part-{part}-of-{parts}.values"


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=False)
def value_slice(tabula, args, plan, added, part, parts, *below):
    """Values slice `part` of `parts` of level `added`; `below` holds the
    next level's slices as (file name, bytes). Returns the slice's bytes."""
    with tempfile.TemporaryDirectory(prefix="tabula-layers-") as scratch:
        with open(os.path.join(scratch, PLAN), "wb") as file:
            file.write(plan)
        for name, data in below:
            with open(os.path.join(scratch, name), "wb") as file:
                file.write(data)
        stage = ["stage=values", f"added={added}", f"part={part}/{parts}", f"dir={scratch}"]
        code, out, err = run_tool([tabula, "solve", *with_keys(args, stage)])
        if code != 0:
            return {"error": err.strip()[-2000:] or f"exit code {code}"}
        with open(os.path.join(scratch, slice_name(added, part, parts)), "rb") as file:
            return {"name": slice_name(added, part, parts), "data": file.read(), "line": out.strip()}


def slices_for(layers, cpus):
    return max(1, min(max(1, cpus) * SLICES_PER_CPU, layers // MIN_LAYERS))


def run_layered(tools, args, cpus):
    """The layered solve of SOLVE_ARGS (which name method=layers) on the
    cluster; returns the exit code."""
    began = time.time()
    args = with_keys([a for a in args if not a.startswith("threads=")], ["threads=1"])
    with tempfile.TemporaryDirectory(prefix="tabula-layers-") as scratch:
        code, out, err = run_tool([tools.tabula, "solve", *with_keys(args, ["stage=plan", f"dir={scratch}"])])
        planned = re.search(r"^plan levels=(\d+) layers=([\d,]+)", out, re.M)
        if code != 0 or not planned:
            print(f"tools/cluster solve: {err.strip() or out.strip()}", file=sys.stderr)
            return code or 2
        layers = [int(n) for n in planned.group(2).split(",")]
        print(f"layers: {len(layers)} levels, {sum(layers)} layers ({planned.group(2)})", flush=True)
        with open(os.path.join(scratch, PLAN), "rb") as file:
            plan = ray.put(file.read())
        below = []
        for added in reversed(range(len(layers))):
            parts = slices_for(layers[added], cpus)
            refs = [value_slice.remote(tools.tabula, args, plan, added, part, parts, *below)
                    for part in range(parts)]
            # The barrier: the level above needs every slice of this one.
            done = ray.get(refs)
            failed = [d["error"] for d in done if "error" in d]
            if failed:
                print(f"tools/cluster solve: level {added}: {failed[0]}", file=sys.stderr)
                return 1
            for d in done:
                with open(os.path.join(scratch, d["name"]), "wb") as file:
                    file.write(d["data"])
            # Owned by the driver from here: a lost worker loses no level.
            below = [ray.put((d["name"], d["data"])) for d in done]
            print(f"level {added}: {layers[added]} layers in {parts} tasks, "
                  f"{time.time() - began:.1f} s", flush=True)
        code, out, err = run_tool([tools.tabula, "solve", *with_keys(args, ["stage=combine", f"dir={scratch}"])])
    if code != 0:
        print(f"tools/cluster solve: {err.strip()}", file=sys.stderr)
        return code
    print_solve_output(out, began)
    return 0
