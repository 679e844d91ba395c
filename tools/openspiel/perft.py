#!/usr/bin/env python3
"""Quoridor perft through OpenSpiel's C++ move generator (pyspiel binding).

Baseline for Tabula's own perft benchmark. Install: `pip install open_spiel`.

Notation mapping (found by applying actions and reading OpenSpiel's printed
board; `--selftest` re-checks it for every square and wall of the board):

  * OpenSpiel 2.0.2 game parameters: "board_size", "wall_count", "players"
    (not "num_players") and "ansi_color_output"; nothing else is accepted.
  * Columns agree: a.. from the west in both.
  * Rows are numbered the other way round. OpenSpiel prints row 1 at the top
    and row N at the bottom; its first player (id 0, drawn "0") starts at
    e9 (bottom/south) and runs to row 1; the second (id 1, drawn "@") starts
    at e1 and runs to row N. Reading its picture with south at the bottom, the
    geometry is the same as ours (our player 1 = OpenSpiel player 0, starts
    south, moves first); only the row labels differ:
        our row r  ==  OpenSpiel row N + 1 - r.
  * Pawn move (destination square):  ours xR  ->  OpenSpiel x(N+1-R).
  * OpenSpiel wall "xKh" lies between its rows K and K+1 and spans columns x
    and x+1; "xKv" lies between columns x and x+1 and spans its rows K and
    K+1. Both are named after the square on their north-west (printed
    top-left) side. Ours are named after the south-west square, so
        ours xRh -> OpenSpiel x(N-R)h,   ours xRv -> OpenSpiel x(N-R)v.
    Example (9x9): ours e3h (between our rows 3|4) = OpenSpiel e6h
    (between its rows 6|7).

Rules as implemented by OpenSpiel (see its quoridor.cc): straight jump over an
adjacent pawn; diagonal (side) jumps only when a wall or the board edge is
behind the jumped pawn; walls may not overlap or cross and must leave every
player a path; a pawn on its goal row ends the game (terminal, 0 moves here);
a player with no legal move gets a single "pass" action; the game is drawn
after 4*N*N plies (324 on 9x9; irrelevant at perft depths).
"""

import argparse
import sys
import time

import pyspiel


def load(board_size, players, walls):
    return pyspiel.load_game(
        "quoridor",
        {"board_size": board_size, "players": players, "wall_count": walls},
    )


def ours_to_os(move, n):
    """Our notation -> OpenSpiel action string."""
    m = move.strip()
    col = m[0]
    kind = m[-1] if m[-1] in "hv" else ""
    row = int(m[1:len(m) - len(kind)])
    if not ("a" <= col < chr(ord("a") + n)):
        raise ValueError(f"bad column in {move!r}")
    if kind:
        if not (1 <= row <= n - 1 and col < chr(ord("a") + n - 1)):
            raise ValueError(f"wall off the board: {move!r}")
        return f"{col}{n - row}{kind}"
    if not 1 <= row <= n:
        raise ValueError(f"square off the board: {move!r}")
    return f"{col}{n + 1 - row}"


def os_to_ours(move, n):
    """OpenSpiel action string -> our notation (the mapping is an involution)."""
    return ours_to_os(move, n)


def apply_ours(state, move, n):
    want = ours_to_os(move, n)
    for a in state.legal_actions():
        if state.action_to_string(a) == want:
            state.apply_action(a)
            return
    raise ValueError(f"illegal move {move!r} (OpenSpiel {want!r}) in\n{state}")


def perft(state, depth):
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        total += perft(state.child(a), depth - 1)
    return total


def _perft_job(args):
    board_size, players, walls, moves, first, depth = args
    game = load(board_size, players, walls)
    state = game.new_initial_state()
    for mv in moves:
        apply_ours(state, mv, board_size)
    return perft(state.child(first), depth - 1)


def selftest(n):
    """Check the mapping against OpenSpiel's printed board, square by square."""
    game = load(n, 2, max(1, n * n // 8))
    init = game.new_initial_state()
    # Printed board: line 0 = header, line 1 = column letters, then
    # 2N-1 lines (OpenSpiel y = 0..2N-2), OpenSpiel row k at line 2 + 2(k-1).
    def lines(state):
        return str(state).split("\n")[2:2 + 2 * n - 1]
    # Cell centre of column c (0-based) in a printed line is at 3 + 4c.
    def cx(c):
        return 3 + 4 * c
    # Our square (c, r) -> printed line index (row r is line 2(n - r)).
    def ly(r):
        return 2 * (n - r)
    base = lines(init)
    # Start squares: our player 1 ('0') at middle of our row 1, player 2 at row n.
    mid = n // 2  # OpenSpiel: centre column, right of centre if N is even
    assert base[ly(1)][cx(mid)] == "0", "player 1 not on our row 1"
    assert base[ly(n)][cx(mid)] == "@", "player 2 not on our row n"
    assert init.current_player() == 0
    checked = 0
    for c in range(n - 1):
        for r in range(1, n):
            for kind in "hv":
                ours = f"{chr(ord('a') + c)}{r}{kind}"
                st = init.clone()
                apply_ours(st, ours, n)
                got = lines(st)
                if kind == "h":
                    # between our rows r and r+1: printed line between them,
                    # covering columns c and c+1 ("---+---").
                    ln = got[ly(r) - 1]
                    seg = ln[cx(c) - 1:cx(c + 1) + 2]
                    ok = seg == "---+---"
                else:
                    # between columns c and c+1, on our rows r and r+1.
                    x = cx(c) + 2
                    ok = (got[ly(r)][x] == "|" and got[ly(r + 1)][x] == "|"
                          and got[ly(r) - 1][x] == "+")
                diff = sum(a != b for la, lb in zip(base, got)
                           for a, b in zip(la, lb))
                assert ok and diff == 3 + (kind == "h") * 4, (ours, str(st))
                checked += 1
    # Pawn moves of player 1 from the start: north (our row 2) must be legal.
    st = init.clone()
    apply_ours(st, f"{chr(ord('a') + mid)}2", n)
    assert lines(st)[ly(2)][cx(mid)] == "0"
    print(f"selftest {n}x{n}: {checked} walls + pawn mapping OK")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("depth", type=int, nargs="?", default=3)
    p.add_argument("-n", "--board-size", type=int, default=9)
    p.add_argument("-w", "--walls", type=int, default=None,
                   help="walls per player (default: 10 on 9x9, else N*N//8)")
    p.add_argument("-p", "--players", type=int, default=2)
    p.add_argument("-m", "--moves", default="",
                   help="space separated moves in OUR notation from the start")
    p.add_argument("--divide", action="store_true",
                   help="print the count below each root move")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="processes (split over root moves); default 1")
    p.add_argument("--show", action="store_true", help="print the position")
    p.add_argument("--selftest", action="store_true",
                   help="check the notation mapping and exit")
    a = p.parse_args()
    n = a.board_size
    walls = a.walls if a.walls is not None else n * n // 8
    if a.selftest:
        for size in sorted({5, 7, 9, n}):
            selftest(size)
        return
    game = load(n, a.players, walls)
    state = game.new_initial_state()
    moves = a.moves.split()
    for mv in moves:
        apply_ours(state, mv, n)
    if a.show:
        print(state)
        print("OpenSpiel's picture: row 1 on top = our row", n,
              "; OpenSpiel player 0 ('0') = our player 1")
    t0 = time.perf_counter()
    if a.depth <= 0:
        total = 1
    elif state.is_terminal():
        total = 0
    elif a.depth == 1 and not a.divide:
        total = len(state.legal_actions())
    elif a.jobs > 1 or a.divide:
        actions = state.legal_actions()
        names = [os_to_ours(state.action_to_string(x), n) for x in actions]
        if a.jobs > 1:
            import multiprocessing as mp
            jobs = [(n, a.players, walls, moves, x, a.depth) for x in actions]
            with mp.Pool(a.jobs) as pool:
                counts = pool.map(_perft_job, jobs, chunksize=1)
        else:
            counts = [perft(state.child(x), a.depth - 1) if a.depth > 1 else 1
                      for x in actions]
        if a.divide:
            for name, c in sorted(zip(names, counts)):
                print(f"{name} {c}")
        total = sum(counts)
    else:
        total = perft(state, a.depth)
    dt = time.perf_counter() - t0
    rate = total / dt if dt > 0 else float("inf")
    print(f"perft({a.depth}) = {total}  time {dt:.3f} s  "
          f"{rate:,.0f} leaves/s  [{n}x{n}, {walls} walls, "
          f"{len(moves)} moves applied, jobs={a.jobs}]")


if __name__ == "__main__":
    sys.exit(main())
