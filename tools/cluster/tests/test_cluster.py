"""tools/cluster/run against the one-process tools, on local Ray clusters.

Run with the cluster's own Python (tools/cluster/run installs it):
    tools/cluster/.venv/bin/python -m unittest discover -s tools/cluster/tests -v
Needs `cargo build --release --workspace` first.
"""

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

# Before Ray is imported: clusters these tests start use 127.0.0.1 only.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

HERE = Path(__file__).resolve().parent
CLUSTER = HERE.parent
CHECKOUT = CLUSTER.parents[1]
RUN = CLUSTER / "run"
RELEASE = CHECKOUT / "target" / "release"
ARENA = str(RELEASE / "arena")
TABULA = str(RELEASE / "tabula")
LONG = 600


def match_args(games, nodes, extra=()):
    """A deterministic match: node-limited engines, one thread each, seeded openings."""
    return [
        "-engine", f"cmd={TABULA}", "name=full",
        "-engine", f"cmd={TABULA}", "name=weaker", "option.Level=6",
        "-each", f"nodes={nodes}", "option.Threads=1", "option.Hash=8",
        "-variant", "width=5", "height=5", "walls=3",
        "-games", str(games), "-repeat", "-openings", "random", "plies=2", "-seed", "11",
        *extra,
    ]


def one_process(args):
    done = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=LONG)
    assert done.returncode == 0, done.stderr
    return done.stdout


def result_lines(text):
    """The lines of the final block that must agree: score, Elo,
    pentanomial and SPRT lines."""
    keep = ("Score of", "Elo difference", "Ptnml", "LLR", "H0 accepted", "H1 accepted")
    final = text[text.rindex("Final results:"):]
    return [line for line in final.splitlines() if line.startswith(keep)]


def distributed(command, args, where=("--local", "2"), check=True):
    done = subprocess.run([str(RUN), command, *where, "--", *args], capture_output=True, text=True,
                          timeout=LONG, cwd=CHECKOUT)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def record_moves(path):
    """Each PGN record's moves and result, without `;` lines, `{...}`
    comments and move numbers (`2.`, `2...`), one line per game, sorted."""
    lines = [l for l in Path(path).read_text().splitlines() if not l.startswith(("[", ";"))]
    games = re.split(r"\n\s*\n", re.sub(r"\{[^}]*\}", " ", "\n".join(lines)))
    words = lambda game: [w for w in game.split() if not re.fullmatch(r"\d+\.+", w)]
    return sorted(" ".join(words(game)) for game in games if game.strip())


class Matches(unittest.TestCase):
    def test_a_distributed_match_gives_the_one_process_result_and_records(self):
        with tempfile.TemporaryDirectory() as scratch:
            pgn = os.path.join(scratch, "cluster.pgn")
            results = os.path.join(scratch, "cluster.jsonl")
            args = match_args(8, 3000)
            alone = one_process(args + ["-pgnout", os.path.join(scratch, "alone.pgn")])
            spread = distributed("arena", args + ["-pgnout", pgn, "min", "-results", results]).stdout
            self.assertTrue(result_lines(alone)[0].startswith("Score of full vs weaker"), alone)
            self.assertEqual(result_lines(spread), result_lines(alone), spread)
            self.assertIn("Pairs played: 4 of 4", spread)
            games = Path(pgn).read_text().count("[Game ")
            self.assertEqual(games, 8)
            self.assertEqual(len(Path(results).read_text().splitlines()), 8)
            # The records hold the same games, move for move (the comments
            # after moves hold times, which differ).
            self.assertEqual(record_moves(pgn), record_moves(os.path.join(scratch, "alone.pgn")))
            # `-pgnout FILE min` reaches arena merge: no comments.
            self.assertNotIn("{", Path(pgn).read_text())
            self.assertNotIn(";", Path(pgn).read_text())

    def test_a_qtp_engine_plays_on_the_cluster_as_on_one_machine(self):
        # arena's scripted QTP engine (deterministic: a shortest path) against
        # Tabula limited by nodes: the same games wherever they are played.
        scripted = str(CHECKOUT / "tools" / "arena" / "tests" / "qtp_engine.py")
        args = [
            "-engine", "cmd=python3", f"arg={scripted}", "proto=qtp", "name=scripted", "st=0.5",
            "-engine", f"cmd={TABULA}", "name=tabula", "nodes=2000", "option.Threads=1", "option.Hash=8",
            "-variant", "width=5", "height=5", "walls=3",
            "-games", "4", "-repeat", "-openings", "random", "plies=2", "-seed", "5",
        ]
        alone = one_process(args)
        spread = distributed("arena", args).stdout
        self.assertTrue(result_lines(alone)[0].startswith("Score of scripted vs tabula: 0 - 4 - 0"), alone)
        self.assertEqual(result_lines(spread), result_lines(alone), spread)
        self.assertIn("Pairs played: 2 of 2", spread)

    def test_an_sprt_stops_handing_out_pairs_once_decided(self):
        args = [
            "-engine", f"cmd={TABULA}", "name=full",
            "-engine", f"cmd={TABULA}", "name=level1", "option.Level=1",
            "-each", "nodes=2000", "option.Threads=1", "option.Hash=8",
            "-variant", "width=5", "height=5", "walls=3",
            "-games", "400", "-repeat", "-openings", "random", "plies=2", "-seed", "3",
            "-sprt", "elo0=0", "elo1=100", "alpha=0.05", "beta=0.05",
        ]
        spread = distributed("arena", args).stdout
        self.assertIn("H1 accepted", spread)
        played = re.search(r"Pairs played: (\d+) of 200", spread)
        self.assertIsNotNone(played, spread)
        self.assertLess(int(played.group(1)), 50, spread)

    def test_bad_arguments_are_refused_before_any_game(self):
        done = distributed("arena", ["-engine", "cmd=x"], check=False)
        self.assertEqual(done.returncode, 2)
        self.assertIn("engines", done.stderr)
        done = distributed("arena", match_args(2, 100, ["-pair", "1"]), check=False)
        self.assertEqual(done.returncode, 2)


@contextlib.contextmanager
def two_worker_cluster():
    """A head without CPUs and two one-CPU worker nodes, all on 127.0.0.1."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "include_dashboard": False, "node_ip_address": "127.0.0.1",
        "object_store_memory": 80 << 20})
    workers = [cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1",
                                object_store_memory=80 << 20) for _ in range(2)]
    cluster.wait_for_nodes()
    try:
        yield cluster, workers
    finally:
        ray.shutdown()
        cluster.shutdown()


def run_removing_a_node(cluster, worker, command, args, when):
    """Runs `tools/cluster/run COMMAND --address ... -- ARGS` and removes
    `worker` (no grace) at the first output line that `when` accepts.
    Returns the exit code, the output lines, standard error, and how many
    lines had come when the node went (None if it never went)."""
    driver = subprocess.Popen([str(RUN), command, "--address", cluster.address, "--", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=CHECKOUT)
    lines, removed_after = [], []

    def read():
        for line in driver.stdout:
            lines.append(line.rstrip("\n"))
            if not removed_after and when(line):
                removed_after.append(len(lines))
                cluster.remove_node(worker, allow_graceful=False)

    reader = threading.Thread(target=read)
    reader.start()
    driver.wait(timeout=LONG)
    reader.join(timeout=60)
    err = driver.stderr.read()
    driver.stdout.close()
    driver.stderr.close()
    return driver.returncode, lines, err, (removed_after or [None])[0]


class Faults(unittest.TestCase):
    def test_a_worker_node_removed_mid_match_loses_and_doubles_nothing(self):
        with two_worker_cluster() as (cluster, workers):
            self.assert_listens_on_loopback_only()
            # Games of a few seconds, so that both nodes are playing when one goes:
            # after the first pair, while the others play.
            args = match_args(8, 150000)
            code, lines, err, removed_after = run_removing_a_node(
                cluster, workers[0], "arena", args, lambda line: line.startswith("Finished game"))
            text = "\n".join(lines)
            self.assertEqual(code, 0, text + err)
            self.assertIsNotNone(removed_after, text)
            # Removed with pairs still to play on both nodes.
            finished_before = sum(l.startswith("Finished game") for l in lines[:removed_after])
            self.assertLessEqual(finished_before, 2, text)
            self.assertIn("Pairs played: 4 of 4", text)
            finished = [l for l in lines if l.startswith("Finished game")]
            numbers = sorted(int(l.split()[2]) for l in finished)
            self.assertEqual(numbers, list(range(1, 9)), text)
            self.assertEqual(result_lines(text), result_lines(one_process(args)), text)
            # The removed node's match was killed with it.
            playing = subprocess.run(["pgrep", "-f", f"{ARENA} .*-pair"], capture_output=True, text=True)
            self.assertEqual(playing.stdout, "", "an arena of a removed node still runs")

    def test_a_worker_node_removed_mid_level_costs_no_layer(self):
        with two_worker_cluster() as (cluster, workers):
            # The deepest level done, the next one's tasks handed out: a node goes.
            args = ["width=5", "height=5", "walls=2", "method=layers"]
            code, lines, err, removed_after = run_removing_a_node(
                cluster, workers[0], "solve", args, lambda line: line.startswith("level "))
            text = "\n".join(lines)
            self.assertEqual(code, 0, text + err)
            self.assertIsNotNone(removed_after, text)
            self.assertEqual(sum(l.startswith("level ") for l in lines), 5, text)
            self.assertEqual(settled(text), settled(Solves().run_alone(args)), text)

    def assert_listens_on_loopback_only(self):
        """Every socket Ray's processes listen on is bound to 127.0.0.1."""
        listening = subprocess.run(["ss", "-tlnpH"], capture_output=True, text=True).stdout.splitlines()
        ray_sockets = [l for l in listening if re.search(r'"(raylet|gcs_server|ray::[^"]*|python)"', l)]
        if not ray_sockets:
            self.skipTest("ss shows no process names here")
        for line in ray_sockets:
            local = line.split()[3]
            self.assertTrue(local.startswith(("127.0.0.1:", "[::ffff:127.0.0.1]:")), line)


class Solves(unittest.TestCase):
    def run_alone(self, args):
        done = subprocess.run([TABULA, "solve", *args], capture_output=True, text=True, timeout=LONG)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def solve_alone(self, args):
        return value_words(self.run_alone(args))

    def test_distributed_solves_equal_tabula_solve(self):
        for args in (["width=3", "height=4", "walls=2"], ["width=5", "height=3", "walls=2", "moves", "b1"],
                     ["game=quarto", "board=3x3", "level=1"], ["game=quarto", "level=2", "placed=9", "seed=4"]):
            spread = distributed("solve", args).stdout
            self.assertEqual(value_words(spread), self.solve_alone(args), spread)
            self.assertRegex(spread, r"sub-proof \d+ of \d+")

    def test_a_layered_solve_level_by_level_equals_tabula_solve(self):
        for args in (["width=4", "height=3", "walls=2", "method=layers"],
                     ["width=3", "height=5", "walls=2", "method=layers", "moves", "b2"]):
            spread = distributed("solve", args).stdout
            # The same method: the same positions counted, the same line.
            self.assertEqual(settled(spread), settled(self.run_alone(args)), spread)
            self.assertRegex(spread, r"level 0: 1 layers in 1 tasks")


def settled(stdout):
    """A solve's own lines from `solving` on, without times and memory (a
    node removed mid-run makes Ray print its own notice in between)."""
    own = ("solving ", "positions ", "line: ", "result: ")
    lines = stdout[stdout.index("solving "):].splitlines()
    return [l.split(" time=")[0].split(", ")[0] for l in lines if l.startswith(own)]


def value_words(stdout):
    """`first plies=N`, `second plies=N` or `draw` from the result line."""
    line = [l for l in stdout.splitlines() if l.startswith("result: ")][-1]
    return " ".join(w for w in line.split()[1:] if not w.startswith(("positions=", "time=")))


if __name__ == "__main__":
    unittest.main()
