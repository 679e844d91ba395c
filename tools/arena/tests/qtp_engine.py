#!/usr/bin/env python3
"""A small QTP engine for arena's tests, written from the protocol's
specification with rules of its own (in QTP's coordinates: columns A.. from
the left, rows 1.. from the bottom, black starting on the top row and
moving first).

It checks every move it is told and answers `?` to an illegal one, so a
controller that translates moves wrongly is caught. Its own moves step
along a shortest path to its goal row. The first argument picks a fault
for its `genmove`:

  none     legal moves
  timeout  never answers
  illegal  a square it cannot reach
  refuse   `? no move`
  crash    exits

and `unended` ends its `list_commands` reply without the empty line the
specification asks for (as some engines of the Athens competition do),
playing legal moves otherwise.
"""

import sys
from collections import deque

FAULT = sys.argv[1] if len(sys.argv) > 1 else "none"


class Game:
    def __init__(self, size, walls):
        self.size = size
        self.start_walls = walls
        self.clear()

    def clear(self):
        n = self.size
        self.pawns = [(n // 2, n), (n // 2, 1)]  # black, white: (column, row)
        self.hands = [self.start_walls, self.start_walls]
        self.walls = set()  # ((column, row), vertical)

    def on_board(self, sq):
        return 0 <= sq[0] < self.size and 1 <= sq[1] <= self.size

    def blocked(self, a, b):
        if a[0] == b[0]:
            top = max(a[1], b[1])
            return ((a[0], top), False) in self.walls or ((a[0] - 1, top), False) in self.walls
        left = min(a[0], b[0])
        return ((left, a[1]), True) in self.walls or ((left, a[1] + 1), True) in self.walls

    def steps(self, sq):
        out = []
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            to = (sq[0] + dc, sq[1] + dr)
            if self.on_board(to) and not self.blocked(sq, to):
                out.append(to)
        return out

    def pawn_moves(self, seat):
        me, other = self.pawns[seat], self.pawns[1 - seat]
        moves = []
        for nxt in self.steps(me):
            if nxt != other:
                moves.append(nxt)
                continue
            behind = (2 * other[0] - me[0], 2 * other[1] - me[1])
            if self.on_board(behind) and not self.blocked(other, behind):
                moves.append(behind)
            else:
                moves.extend(s for s in self.steps(other) if s != me)
        return moves

    def goal(self, seat):
        return 1 if seat == 0 else self.size

    def distance(self, seat, start):
        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            sq, d = queue.popleft()
            if sq[1] == self.goal(seat):
                return d
            for nxt in self.steps(sq):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, d + 1))
        return None

    def wall_fits(self, seat, at, vertical):
        c, r = at
        if self.hands[seat] == 0 or not (0 <= c < self.size - 1 and 2 <= r <= self.size):
            return False
        if (at, True) in self.walls or (at, False) in self.walls:
            return False
        near = [((c, r + 1), True), ((c, r - 1), True)] if vertical else [((c - 1, r), False), ((c + 1, r), False)]
        if any(w in self.walls for w in near):
            return False
        self.walls.add((at, vertical))
        ok = all(self.distance(s, self.pawns[s]) is not None for s in (0, 1))
        self.walls.discard((at, vertical))
        return ok

    def winner(self):
        for seat in (0, 1):
            if self.pawns[seat][1] == self.goal(seat):
                return seat
        return None


def vertex(text, size):
    try:
        col = ord(text[0].upper()) - ord("A")
        row = int(text[1:])
    except (ValueError, IndexError):
        return None
    return (col, row)


def name(sq):
    return "%s%d" % (chr(ord("A") + sq[0]), sq[1])


def main():
    game = Game(9, 10)
    for raw in sys.stdin:
        words = raw.split("#")[0].split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        seat = {"black": 0, "b": 0, "white": 1, "w": 1}.get(args[0].lower()) if args else None
        reply = None
        if cmd == "name":
            reply = "= scripted"
        elif cmd == "list_commands":
            reply = "= name\nlist_commands\nboardsize\nclear_board\nwalls\nplaymove\nplaywall\ngenmove\nquit"
            if FAULT == "unended":
                print(reply, flush=True)
                continue
        elif cmd == "boardsize":
            game = Game(int(args[0]), game.start_walls)
            reply = "="
        elif cmd == "clear_board":
            game.clear()
            reply = "="
        elif cmd == "walls":
            game.start_walls = int(args[0])
            game.hands = [game.start_walls, game.start_walls]
            reply = "="
        elif cmd == "playmove" and seat is not None and len(args) == 2:
            to = vertex(args[1], game.size)
            if game.winner() is None and to in game.pawn_moves(seat):
                game.pawns[seat] = to
                reply = "="
            else:
                reply = "? illegal move"
        elif cmd == "playwall" and seat is not None and len(args) == 3:
            at = vertex(args[1], game.size)
            vertical = args[2].lower() in ("v", "vertical")
            if at is not None and game.winner() is None and game.wall_fits(seat, at, vertical):
                game.walls.add((at, vertical))
                game.hands[seat] -= 1
                reply = "="
            else:
                reply = "? illegal move"
        elif cmd == "genmove" and seat is not None:
            if FAULT == "timeout":
                continue
            if FAULT == "crash":
                sys.exit(1)
            if FAULT == "refuse":
                reply = "? no move"
            elif FAULT == "illegal":
                c, r = game.pawns[seat]
                reply = "= " + name((c, r - 3 if seat == 0 else r + 3))
            else:
                moves = game.pawn_moves(seat)
                best = min(moves, key=lambda m: (game.distance(seat, m) or 999, m))
                game.pawns[seat] = best
                reply = "= " + name(best)
        elif cmd == "quit":
            print("=\n", flush=True)
            return
        else:
            reply = "? unknown command"
        print(reply + "\n", flush=True)


main()
