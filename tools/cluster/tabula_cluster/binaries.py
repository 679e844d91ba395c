"""Where the Rust tools are, and how a task runs one of them."""

import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[3]
# What one tool run may print before it is cut off (a whole match of one
# pair prints a few KiB; a solve's progress a few MiB at most).
MAX_OUTPUT = 64 << 20


class Missing(Exception):
    pass


@dataclass(frozen=True)
class Tools:
    arena: str
    tabula: str


def find(bin_dir=None):
    """The arena and tabula binaries, by default in the checkout's target/release."""
    where = Path(bin_dir) if bin_dir else CHECKOUT / "target" / "release"
    tools = Tools(arena=str((where / "arena").resolve()), tabula=str((where / "tabula").resolve()))
    for path in (tools.arena, tools.tabula):
        if not os.access(path, os.X_OK):
            raise Missing(f"{path} is missing: build with `cargo build --release --workspace`")
    return tools


def _die_with_parent():
    """In the child: killed when the Ray worker that started it dies, so a
    task whose node is removed leaves no match playing on."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def run_tool(args, cwd=None, timeout=None):
    """Runs one tool to its end; returns (exit code, stdout, stderr), each
    output cut to MAX_OUTPUT bytes."""
    if cwd is not None and not os.path.isdir(cwd):
        cwd = None
    with subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=_die_with_parent) as child:
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
            err += b"\ntools/cluster: timed out\n"
        return (child.returncode, out[:MAX_OUTPUT].decode("utf-8", "replace"),
                err[-MAX_OUTPUT:].decode("utf-8", "replace"))


def print_solve_output(out, began):
    """Prints a solve's standard output, its `result:` line timed from
    `began` (the whole distributed run) instead of the last step alone."""
    for line in out.splitlines():
        if line.startswith("result: "):
            line = line.split(" time=")[0] + f" time={time.time() - began:.2f}"
        print(line)
