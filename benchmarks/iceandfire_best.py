"""Ice and Fire: ``best``'s searches, fast against plain, on positions of bot games (same process).

``best`` spends its turn in the bots' board (ai/board.py) and the tactics (ai/tactics.py). Each row
times one piece on the same positions (every position a ``best`` turn saw in ``--games`` games
against ``postmortem``, no time limit) beside the plain version it replaced, which stays in the code
as the tests' oracle: median microseconds per call over ``--repeats`` runs, and the ratio.

* chain search: the bucket queue with one-pass minimum levels (``_chain_search``, uncached) against
  the heap and per-cell ``min_level`` (``chain_search_reference``);
* chain play: the opponent's cheapest chain into our active territory played as a threat plays it,
  its activity settled incrementally (``settle``: the simple-point test skips most floods) against
  a full flood of both players (``recompute_activity``, the code before);
* chain score: ``summary_after`` (only the touched cells, unless a flood ran) against ``summary``.

The whole turn: ``best``'s CPU per turn with no time limit (it judges every variant) over the same
games, medians and p90; there is no in-process baseline for that, see docs/iceandfire.md for the
figure measured against the code before the speed-ups.

    .venv/bin/python benchmarks/iceandfire_best.py [--games 8] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.ai import best as B
from gridarena.games.iceandfire.ai.board import OPP, Board
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    _chain_search,
    chain_search_reference,
    chain_steps,
    play_chain,
    summary,
    summary_after,
)
from gridarena.games.iceandfire.geometry import CELLS


def collect(games: int) -> tuple[list[Board], list[float]]:
    """The boards ``best`` planned on in ``games`` games (seeds 1.., both seats) and its CPU per turn."""
    boards: list[Board] = []
    cpu: list[float] = []
    plan = B.BestBot.plan

    def recording(self: B.BestBot, board: Board) -> list[str]:
        boards.append(board.copy())
        start = time.process_time()
        answer = plan(self, board)
        cpu.append(time.process_time() - start)
        return answer

    B.BestBot.plan = recording  # type: ignore[method-assign]
    try:
        game = make("iceandfire")
        for k in range(games):
            names = ["best", "postmortem"] if k % 2 == 0 else ["postmortem", "best"]
            play_game(game, [make_bot(game, n) for n in names], seed=1 + k // 2, clock=game_clock(None, 2))
    finally:
        B.BestBot.plan = plan  # type: ignore[method-assign]
    return boards, cpu


def median_us(calls: list[Callable[[], object]], repeats: int) -> float:
    """Median over ``repeats`` runs of the mean microseconds per call."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for call in calls:
            call()
        runs.append((time.perf_counter() - start) / len(calls) * 1e6)
    return statistics.median(runs)


def threat_chain(board: Board) -> tuple[Board, list[tuple[int, int, int]]] | None:
    """The board with the opponent's gold set to 200 and its cheapest chain into our active territory."""
    base = board.copy()
    base.gold[OPP] = 200
    base.changed()
    chains = chain_search_reference(base, OPP, 200, True)
    targets = [i for i in range(CELLS) if 0 < chains.cost[i] < INF and base.owner[i] == 0 and base.active[i]]
    if not targets:
        return None
    steps = chain_steps(chains, base, min(targets, key=lambda i: (chains.cost[i], i)))
    return (base, steps) if steps else None


def play(base: Board, steps: list[tuple[int, int, int]]) -> Board:
    after = base.copy()
    play_chain(after, steps, OPP)
    return after


def plain_play(base: Board, steps: list[tuple[int, int, int]]) -> Board:
    """:func:`play` with the chain's activity settled by a full flood of both players (as before)."""
    settle = Board.settle
    Board.settle = Board.recompute_activity  # type: ignore[method-assign]
    try:
        return play(base, steps)
    finally:
        Board.settle = settle  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    boards, cpu = collect(args.games)
    chains = [
        (b, chain_steps_input)
        for b in boards
        for chain_steps_input in (threat_chain(b),)
        if chain_steps_input
    ]
    print(f"{len(boards)} positions from {args.games} games; {len(chains)} with a threat chain\n")
    rows = []
    fast = median_us([lambda b=b: _chain_search(b, OPP, 200, True) for b in boards], args.repeats)
    plain = median_us([lambda b=b: chain_search_reference(b, OPP, 200, True) for b in boards], args.repeats)
    rows.append(("chain search", fast, plain))
    played = [(base, steps) for _, (base, steps) in chains]
    fast = median_us([lambda a=a, s=s: play(a, s) for a, s in played], args.repeats)
    plain = median_us([lambda a=a, s=s: plain_play(a, s) for a, s in played], args.repeats)
    rows.append(("chain play + activity", fast, plain))
    scored = []
    for base, steps in played:
        after = play(base, steps)
        touched = {c for s in steps for c in (s[0], s[2]) if c >= 0}
        scored.append((base, summary(base, OPP), after, touched))
    fast = median_us([lambda x=x: summary_after(x[0], x[1], x[2], OPP, x[3]) for x in scored], args.repeats)
    plain = median_us([lambda x=x: summary(x[2], OPP) for x in scored], args.repeats)
    rows.append(("chain score", fast, plain))
    print(f"{'piece':<24} {'fast us':>9} {'plain us':>9} {'ratio':>7}")
    for name, f, p in rows:
        print(f"{name:<24} {f:>9.1f} {p:>9.1f} {p / f:>6.2f}x")
    cpu.sort()
    print(
        f"\nbest, no time limit: {len(cpu)} turns, CPU per turn p50 {statistics.median(cpu) * 1e3:.1f} ms, "
        f"p90 {cpu[int(0.9 * len(cpu))] * 1e3:.1f} ms, total {sum(cpu):.2f} s"
    )
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
