"""The map generator of the Java referee, bit-exact for a CodinGame seed (``GameState.generateMap``).

Two separate ``java.util.Random`` objects are built from the same seed: ``R1`` draws the contest's
number of mine spots (and nothing else), ``R2`` draws the noise, the corridor picks and the spot
positions. The steps, their loop orders and the recursive DFS of ``linkComponents`` are kept exactly,
because every draw of ``R2`` depends on them. The steps, as the docstrings below number them: 0 the
contest's spot count (``R1``), 1 the noise, 2 the HQ corner and the first spot pair, 3 the cellular
automaton (three passes), 4 the swap, 5 the symmetry, 6 the neutral 3x3 HQ corners, 7 joining the
components (``linkComponents``), 8 the mine spots.

>>> m = generate(1)
>>> m.rows[0], len(m.spots)
('...#########', 12)
>>> print(format_map(m).splitlines()[-1])
spots (contest, bronze): (1,0) (9,1) (9,3) (10,3) (4,4) (7,4) (4,7) (7,7) (1,8) (2,8) (2,10) (10,11)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gridarena.core.javarandom import JavaRandom
from gridarena.games.iceandfire.formats import check_league, check_rules
from gridarena.games.iceandfire.geometry import SIZE

LONG_MIN: Final = -(2**63)
LONG_MAX: Final = 2**63 - 1
_NOISE_LIMIT: Final = 7549747  # 0.45f == 7549747 / 2^24: nextFloat() > 0.45f iff next(24) > this
_BANNED_SPOTS: Final = frozenset({(0, 0), (11, 11), (0, 1), (11, 10)})


def java_long(seed: int) -> int:
    """``seed`` as a Java ``long``: values in [-2^63, 2^63) unchanged, others wrapped modulo 2^64.

    The arena draws seeds as unsigned 64-bit numbers; the wrap is what Java's ``(long)`` cast does.

    >>> java_long(2**64 - 1), java_long(5)
    (-1, 5)
    """
    seed &= (1 << 64) - 1
    return seed - (1 << 64) if seed > LONG_MAX else seed


def has_spots(league: str) -> bool:
    """Mine spots exist from Wood 1 up (none are sent in Wood 3 and Wood 2)."""
    return league in ("wood1", "bronze")


@dataclass(frozen=True, slots=True)
class GeneratedMap:
    """A generated map: the 12 rows (``#`` void, ``.`` neutral; row y, character x) and the mine spots
    as (x, y) in input order (by y, then x), with the seed and options that made it."""

    seed: int
    rules: str
    league: str
    rows: tuple[str, ...]
    spots: tuple[tuple[int, int], ...]

    def is_void(self, x: int, y: int) -> bool:
        """Whether (x, y) is void."""
        return self.rows[y][x] == "#"


def contest_spot_count(seed: int) -> int:
    """Step 0: the contest's spot count, from its own ``Random(seed)`` (``2 * Math.round(v / 2.0f)``).

    >>> contest_spot_count(1), contest_spot_count(42)
    (12, 8)
    """
    v = JavaRandom(seed).next_int(13) + 8
    return v if v % 2 == 0 else v + 1


def _noise(rng: JavaRandom) -> list[list[bool]]:
    """Step 1: ``g[x][y]`` neutral (True) when ``nextFloat() > 0.45f``, x outer."""
    return [[rng.next(24) > _NOISE_LIMIT for _ in range(SIZE)] for _ in range(SIZE)]


def _automaton(g: list[list[bool]]) -> list[list[bool]]:
    """Step 3, one synchronous pass: neutral iff >= 6 of the 3x3 block (outside counts) are neutral."""
    new = [[False] * SIZE for _ in range(SIZE)]
    for x in range(SIZE):
        for y in range(SIZE):
            count = 0
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < SIZE and 0 <= ny < SIZE) or g[nx][ny]:
                        count += 1
            new[x][y] = count >= 6
    return new


def components(g: list[list[bool]]) -> list[list[tuple[int, int]]]:
    """Step 7's components, in discovery order (x outer), each in the recursive DFS's pre-order.

    The DFS tries LEFT, RIGHT, UP, DOWN and tests each neighbour when it reaches it; this iterative
    version keeps (cell, next direction) on a stack, which gives the same pre-order.
    """
    seen = [[False] * SIZE for _ in range(SIZE)]
    found: list[list[tuple[int, int]]] = []
    directions = ((-1, 0), (1, 0), (0, -1), (0, 1))
    for x0 in range(SIZE):
        for y0 in range(SIZE):
            if not g[x0][y0] or seen[x0][y0]:
                continue
            comp = [(x0, y0)]
            seen[x0][y0] = True
            stack = [(x0, y0, 0)]
            while stack:
                x, y, d = stack.pop()
                while d < 4:
                    nx, ny = x + directions[d][0], y + directions[d][1]
                    d += 1
                    if 0 <= nx < SIZE and 0 <= ny < SIZE and g[nx][ny] and not seen[nx][ny]:
                        stack.append((x, y, d))
                        comp.append((nx, ny))
                        seen[nx][ny] = True
                        stack.append((nx, ny, 0))
                        break
            found.append(comp)
    return found


def _rows(g: list[list[bool]]) -> tuple[str, ...]:
    return tuple("".join("." if g[x][y] else "#" for x in range(SIZE)) for y in range(SIZE))


def _carve(g: list[list[bool]], x: int, y: int) -> None:
    g[x][y] = True
    g[SIZE - 1 - x][SIZE - 1 - y] = True


def generate(
    seed: int, rules: str = "contest", league: str = "bronze", trace: list[tuple[str, object]] | None = None
) -> GeneratedMap:
    """The map of ``seed`` (a Java long; other integers are wrapped) under ``rules`` and ``league``.

    ``trace``, when given, receives the generator's steps for debugging: ``("unjoined",
    rows)``, ``("components", [(size, first cell), ...])``, ``("picks", cells)``, ``("spot count",
    n)`` and one ``("spot", ((x, y), verdict))`` per spot draw (``accepted``, ``void``, ``taken`` or
    ``banned``).
    """
    note = trace.append if trace is not None else lambda _: None
    check_rules(rules)
    check_league(league)
    seed = java_long(seed)
    spots_wanted = has_spots(league)
    nb_spots = contest_spot_count(seed) if rules == "contest" and spots_wanted else 0
    rng = JavaRandom(seed)
    g = _noise(rng)
    for i, j in ((0, 0), (1, 0), (0, 1), (1, 1)):
        g[i][j] = True
    spot = [[False] * SIZE for _ in range(SIZE)]
    if spots_wanted:
        spot[1][0] = spot[10][11] = True
    for _ in range(3):
        g = _automaton(g)
    g = [[not cell for cell in column] for column in g]
    for x in range(SIZE):
        for y in range(x + 1):
            g[SIZE - 1 - x][SIZE - 1 - y] = g[x][y]
    for i in range(3):
        for j in range(3):
            g[i][j] = True
            g[SIZE - 1 - i][SIZE - 1 - j] = True
    note(("unjoined", _rows(g)))
    comps = components(g)
    note(("components", [(len(comp), comp[0]) for comp in comps]))
    if len(comps) >= 2:
        picks = [comp[rng.next_int(len(comp))] for comp in comps]
        note(("picks", picks))
        for i, (x1, y1) in enumerate(picks):
            for x2, y2 in picks[i + 1 :]:
                for x in range(min(x1, x2), max(x1, x2) + 1):
                    _carve(g, x, y2)
                for y in range(min(y1, y2), max(y1, y2) + 1):
                    _carve(g, x1, y)
    if spots_wanted:
        if rules == "multi":
            n = sum(cell for column in g for cell in column)
            most = max(6, (3 * n) // 20)
            v = rng.next_int(most - 6 + 1) + 6
            nb_spots = 2 * (v // 2)
        note(("spot count", nb_spots))
        for _ in range(nb_spots // 2 - 1):
            x, y = rng.next_int(SIZE), rng.next_int(SIZE)
            while not g[x][y] or spot[x][y] or (x, y) in _BANNED_SPOTS:
                verdict = "void" if not g[x][y] else "taken" if spot[x][y] else "banned"
                note(("spot", ((x, y), verdict)))
                x, y = rng.next_int(SIZE), rng.next_int(SIZE)
            note(("spot", ((x, y), "accepted")))
            spot[x][y] = spot[SIZE - 1 - x][SIZE - 1 - y] = True
    rows = _rows(g)
    spots = tuple((x, y) for y in range(SIZE) for x in range(SIZE) if spot[x][y])
    return GeneratedMap(seed, rules, league, rows, spots)


def format_map(generated: GeneratedMap) -> str:
    """The map as text: numbered rows (``#`` void, ``.`` neutral), then the spot list.

    >>> print(format_map(generate(42, league="wood2")), end="")
    seed 42
     0 .........###
     1 ..........##
     2 ...........#
     3 #..........#
     4 ......##....
     5 ....####....
     6 ....####....
     7 ....##......
     8 #..........#
     9 #...........
    10 ##..........
    11 ###.........
    numberMineSpots = 0
    spots (contest, wood2):
    """
    lines = [f"seed {generated.seed}"]
    lines += [f"{y:2d} {row}" for y, row in enumerate(generated.rows)]
    lines.append(f"numberMineSpots = {len(generated.spots)}")
    spots = " ".join(f"({x},{y})" for x, y in generated.spots)
    lines.append(f"spots ({generated.rules}, {generated.league}): {spots}".rstrip())
    return "\n".join(lines) + "\n"
