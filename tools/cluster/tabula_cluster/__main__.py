"""Command line of tools/cluster/run: `arena` and `solve` over a Ray cluster.

    run arena [--local N | --address HOST:PORT] [--bin-dir DIR] -- ARENA_ARGS...
    run solve [--local N | --address HOST:PORT] [--bin-dir DIR] [--split P] -- SOLVE_ARGS...
"""

import argparse
import os
import sys

USAGE = __doc__.strip().splitlines()


def parse(argv):
    if "--" in argv:
        split = argv.index("--")
        own, rest = argv[:split], argv[split + 1:]
    else:
        own, rest = argv, []
    parser = argparse.ArgumentParser(
        prog="tools/cluster/run",
        description="Play arena matches and solve positions over a Ray cluster.",
        epilog="Everything after -- goes to arena (or to tabula solve) as on one machine.",
    )
    parser.add_argument("command", choices=["arena", "solve"])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--local", type=int, metavar="N",
                       help="start a Ray cluster of N worker nodes on this machine (127.0.0.1 only)")
    where.add_argument("--address", metavar="HOST:PORT",
                       help="join a running Ray cluster (started with `ray start --head`)")
    parser.add_argument("--bin-dir", metavar="DIR",
                        help="where arena and tabula are (default: the checkout's target/release); "
                             "every node needs them at the same path")
    parser.add_argument("--split", type=int, metavar="P", default=2,
                        help="solve: sub-proofs P plies below the position (default 2); with method=layers in "
                             "SOLVE_ARGS the layered solver runs level by level instead")
    options = parser.parse_args(own)
    if options.local is not None and not 1 <= options.local <= 64:
        parser.error("--local N needs 1 <= N <= 64")
    if not 0 <= options.split <= 6:
        parser.error("--split P needs 0 <= P <= 6")
    if not rest:
        parser.error(f"give the {options.command} arguments after --")
    return options, rest


def main(argv):
    options, rest = parse(argv)
    if options.local is not None:
        # Before Ray is imported: a local cluster then uses 127.0.0.1 only.
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    from . import binaries, cluster
    try:
        tools = binaries.find(options.bin_dir)
    except binaries.Missing as e:
        print(f"tools/cluster: {e}", file=sys.stderr)
        return 2
    with cluster.connect(local=options.local, address=options.address) as nodes:
        print(f"Ray cluster: {nodes} worker CPUs", flush=True)
        if options.command == "arena":
            from .arena import run_match
            return run_match(tools, rest)
        from .solve import run_solve
        return run_solve(tools, rest, options.split, nodes)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
