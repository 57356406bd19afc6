"""The numpy geometry (step table, arrivals, regions) against plain-Python twins, and its cost on the
largest legal map (1000 x 1000): a map's tables must not take seconds or gigabytes (issue 23, item 10)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rxt_formats import valid_maps

from gridarena.games.reversixt.formats import DX, DY, HOLE, ReversiMap, is_stone
from gridarena.games.reversixt.geometry import arrivals, plain_and_glue, step_table
from gridarena.games.reversixt.mapinfo import describe


def twin_step(m: ReversiMap, i: int, d: int) -> int:
    """The single step (neighbour or transition) on the initial board, packed as the table packs it (-1: nowhere)."""
    if m.cells[i] == HOLE:
        return -1
    y, x = divmod(i, m.width)
    nx, ny = x + DX[d], y + DY[d]
    if 0 <= nx < m.width and 0 <= ny < m.height and m.cells[ny * m.width + nx] != HOLE:
        return (ny * m.width + nx) * 8 + d
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        for (ax, ay, ad), (bx, by, bd) in (((x1, y1, d1), (x2, y2, d2)), ((x2, y2, d2), (x1, y1, d1))):
            if (ax, ay, ad) == (x, y, d) and m.cells[by * m.width + bx] != HOLE:
                return (by * m.width + bx) * 8 + (bd + 4) % 8
    return -1


@st.composite
def one_sided_maps(draw: st.DrawFn) -> ReversiMap:
    """Maps as ``strict=False`` reads them: transitions anywhere, also where the plain neighbour is a field."""
    m = draw(valid_maps())
    ends = [(x, y, d) for y in range(m.height) for x in range(m.width) for d in range(8)]
    picks = draw(st.lists(st.sampled_from(ends), min_size=0, max_size=6, unique=True))
    extra = tuple((*picks[2 * n], *picks[2 * n + 1]) for n in range(len(picks) // 2))
    return ReversiMap(m.players, 0, 0, 0, m.height, m.width, m.cells, extra)


@settings(max_examples=150, deadline=None)
@given(st.one_of(valid_maps(), one_sided_maps()))
def test_the_step_table_is_the_specs_step(m: ReversiMap) -> None:
    table = step_table(m)
    assert [table[k] for k in range(len(table))] == [
        twin_step(m, i, d) for i in range(len(m.cells)) for d in range(8)
    ]
    plain, glue = plain_and_glue(m)
    assert len(plain) == len(glue) == 8 * len(m.cells)


@settings(max_examples=150, deadline=None)
@given(st.one_of(valid_maps(), one_sided_maps()))
def test_arrivals_hold_every_cell_that_steps_onto_a_cell(m: ReversiMap) -> None:
    n = len(m.cells)
    into: list[set[int]] = [set() for _ in range(n)]
    for i in range(n):
        for d in range(8):
            t = twin_step(m, i, d)
            if t >= 0:
                into[t >> 3].add(i)
    got = arrivals(m)
    assert len(got) == n
    for j in range(n):
        assert into[j] <= set(got[j])
        if not got.one_sided:  # every loadable map: exactly the cells that step onto j
            assert into[j] == set(got[j])


def twin_regions(m: ReversiMap) -> list[tuple[int, tuple[int, ...], int, tuple[int, int]]]:
    """Breadth-first search over steps in Python: (size, players, expansion stones, first field)."""
    seen = [False] * len(m.cells)
    out = []
    adjacent: list[set[int]] = [set() for _ in m.cells]
    for i in range(len(m.cells)):
        for d in range(8):
            t = twin_step(m, i, d)
            if t >= 0:
                adjacent[i].add(t >> 3)
                adjacent[t >> 3].add(i)
    for start in range(len(m.cells)):
        if m.cells[start] == HOLE or seen[start]:
            continue
        seen[start], queue, members = True, deque([start]), []
        while queue:
            i = queue.popleft()
            members.append(i)
            for j in adjacent[i]:
                if not seen[j]:
                    seen[j] = True
                    queue.append(j)
        players = tuple(sorted({m.cells[i] for i in members if is_stone(m.cells[i])}))
        out.append((len(members), players, sum(m.cells[i] == 12 for i in members), m.xy(start)))
    return out


@settings(max_examples=150, deadline=None)
@given(st.one_of(valid_maps(), one_sided_maps()))
def test_mapinfo_regions_are_the_breadth_first_twins(m: ReversiMap) -> None:
    info = describe(m)
    assert [(r.size, r.players, r.expansions, r.first) for r in info.regions] == twin_regions(m)
    assert info.reachable == tuple(
        sum(r.size for r in info.regions if k in r.players) for k in range(1, m.players + 1)
    )


PEAK = """
import resource, sys, time
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.mapinfo import describe
side = 1000
rows = [["0"] * side for _ in range(side)]
rows[499][499] = rows[500][500] = "1"
rows[499][500] = rows[500][499] = "2"
text = "2 0 0 0 1000 1000\\n" + "\\n".join(" ".join(r) for r in rows)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
info = describe(parse_map(text))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"regions": len(info.regions), "fields": info.fields, "mb": (peak - base) / 1024}))
"""


def test_mapinfo_of_the_largest_legal_map_stays_within_a_few_hundred_mb() -> None:
    # It took 410 MB and 12 s (a tuple of Python ints per step, a walk in Python); now numpy and scipy.
    out = subprocess.run(
        [sys.executable, "-c", "import json\n" + PEAK], capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(out)
    assert data["regions"] == 1 and data["fields"] == 1_000_000
    assert data["mb"] < 250, data
