#!/usr/bin/env python3
"""Fit the value of walls in hand from finished 9x9 Quoridor games.

Reads `arena -pgnout` files and, for every position after the sixth ply,
records the side to move's lead in shortest-path steps (pawns ignored), the
walls each side holds, whether the side to move is the engine named by
--hero, and whether the side to move went on to win. A logistic regression
of the winner on those numbers gives each wall count a value in steps; the
table it prints (in centi-steps, as in src/games/quoridor/eval.rs) is how
much holding k walls is worth against holding none.

    python3 tools/wall_values.py --hero level10 games1.pgn games2.pgn

Positions where nobody holds a wall are left out (the race is then counted
exactly), as are positions with ten walls in hand (the opening, where the
lead says little). Pure Python, no packages; 100 000 positions take about a
minute.
"""

import argparse
import math
import re
from collections import deque

SIZE = 9


def square(text):
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def distance(pawn, goal_row, north_blocked, east_blocked):
    """Breadth-first steps from `pawn` to `goal_row`; walls block edges."""
    seen = {pawn: 0}
    queue = deque([pawn])
    while queue:
        col, row = queue.popleft()
        if row == goal_row:
            return seen[(col, row)]
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nc, nr = col + dc, row + dr
            if not (0 <= nc < SIZE and 0 <= nr < SIZE) or (nc, nr) in seen:
                continue
            if (dr == 1 and (col, row) in north_blocked) or (dr == -1 and (nc, nr) in north_blocked):
                continue
            if (dc == 1 and (col, row) in east_blocked) or (dc == -1 and (nc, nr) in east_blocked):
                continue
            seen[(nc, nr)] = seen[(col, row)] + 1
            queue.append((nc, nr))
    return None


def positions(path, hero):
    """(lead, my walls, their walls, hero to move, mover won) per position."""
    text = open(path).read()
    for game in text.split("[Game ")[1:]:
        first = re.search(r'\[P1 "([^"]+)"', game).group(1)
        result = re.search(r'\[Result "([^"]+)"', game).group(1)
        variant = re.search(r'\[Variant "([^"]+)"', game)
        if result not in ("1-0", "0-1") or (variant and "9x9" not in variant.group(1)):
            continue
        if variant and "players=4" in variant.group(1):
            continue
        body = [l for l in game.split("\n")[1:] if l and not l.startswith(("[", ";"))]
        moves = body[0].split()
        winner = 0 if result == "1-0" else 1
        pawns, walls = [(4, 0), (4, 8)], [10, 10]
        north_blocked, east_blocked = set(), set()
        for ply, move in enumerate(moves, start=1):
            mover = (ply - 1) % 2
            if move[-1] in "hv":
                col, row = square(move[:-1])
                walls[mover] -= 1
                if move[-1] == "h":
                    north_blocked |= {(col, row), (col + 1, row)}
                else:
                    east_blocked |= {(col, row), (col, row + 1)}
            else:
                pawns[mover] = square(move)
            to_move = 1 - mover
            if ply < 6 or ply >= len(moves):
                continue
            mine = distance(pawns[to_move], 8 if to_move == 0 else 0, north_blocked, east_blocked)
            theirs = distance(pawns[mover], 8 if mover == 0 else 0, north_blocked, east_blocked)
            if mine is None or theirs is None:
                continue
            if walls[to_move] + walls[mover] == 0 or max(walls) >= 10:
                continue
            hero_moves = (first == hero) == (to_move == 0)
            yield theirs - mine, walls[to_move], walls[mover], hero_moves, winner == to_move


def features(lead, mine, theirs, hero_moves):
    row = [float(lead), 1.0 if hero_moves else -1.0, 1.0]
    row += [float(mine >= k) - float(theirs >= k) for k in range(1, 10)]
    return row


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [matrix[i][:] + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def fit(rows, outcomes, iterations=12):
    """Logistic regression by Newton's method."""
    n = len(rows[0])
    weights = [0.0] * n
    for _ in range(iterations):
        gradient = [0.0] * n
        hessian = [[1e-6 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for row, won in zip(rows, outcomes):
            z = sum(w * x for w, x in zip(weights, row))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(n):
                gradient[i] += (p - won) * row[i]
                scaled = p * (1 - p) * row[i]
                for j in range(i, n):
                    hessian[i][j] += scaled * row[j]
        for i in range(n):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hero", required=True, help="engine name whose strength gets its own term")
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    rows, outcomes = [], []
    for path in args.pgn:
        for lead, mine, theirs, hero_moves, won in positions(path, args.hero):
            rows.append(features(lead, mine, theirs, hero_moves))
            outcomes.append(1.0 if won else 0.0)
    weights = fit(rows, outcomes)
    step = weights[0]
    table, total = [0], 0.0
    for value in weights[3:]:
        total += value
        table.append(round(100 * total / step))
    print(f"positions: {len(rows)}")
    print(f"side to move: {100 * weights[2] / step:.0f} centi-steps")
    print(f"walls in hand 0..9 (centi-steps): {table}")


if __name__ == "__main__":
    main()
