"""Ice and Fire: tune ``best``'s numeric weights by SPSA against a sparring pool, on tuning seeds only.

Simultaneous perturbation stochastic approximation, in the form chess engines are tuned with: each
iteration draws a sign for every parameter, plays ``best`` with the parameters moved one step ``c`` up
or down along those signs (``θ+``) and ``best`` moved the other way (``θ-``) against the same opponent
of ``--pool``, on the same seed, in both seats, and moves every parameter by ``rate × c × sign ×
(θ+'s points - θ-'s points)``. Only games that the two settle differently move anything. The seeds are
``--first-seed``, ``--first-seed + 1``, ...; keep them apart from the seeds a result is reported on
(``benchmarks/iceandfire_strength.py --baseline``), so the tuning cannot fit them.

Each iteration is one line of ``--out`` (JSON: the parameters before it, the signs, both results), so a
run that is stopped loses nothing and ``--resume`` goes on from its last line. At the end it prints
the parameters' start, their mean over the second half of the iterations (the estimate: a single
iterate is as noisy as the last few games) and the shift in steps of ``c``, and the ``best(...)``
spec to check on fresh seeds.

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_tune.py --pool turpif,roout \\
        --iterations 600 --first-seed 20001 --out tune1.jsonl

SPSA needs no library: the whole method is the update line in :func:`step` (the packages that offer it,
e.g. ``noisyopt``, want an objective function they call, which a pair of games is not).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from iceandfire_strength import EXT, POINTS, expand_pool, play_one

from gridarena.core.registry import make
from gridarena.games.iceandfire.ai.best import BestBot


@dataclass(frozen=True)
class Param:
    """A tuned weight of ``best``: its step ``c`` and bounds; it starts at ``best``'s default."""

    name: str
    c: float
    low: float
    high: float
    integer: bool = False

    @property
    def start(self) -> float:
        return float(getattr(BestBot, self.name))

    def clip(self, value: float) -> float:
        return min(self.high, max(self.low, value))

    def show(self, value: float) -> str:
        return str(round(value)) if self.integer else f"{value:.3g}"


#: The judge's weights (``ai/judge.py``'s ``evaluate``), the gold kept back, the opening's train
#: threshold and how much claiming values compactness; each step ``c`` about a quarter of its value.
PARAMS = (
    Param("gold_weight", 0.15, 0.0, 3.0),
    Param("unit_weight", 0.15, 0.0, 3.0),
    Param("room_weight", 0.5, 0.0, 8.0),
    Param("hq_danger", 15.0, 0.0, 300.0),
    Param("reserve", 4.0, 0.0, 40.0, integer=True),
    Param("opening_gain", 0.5, -2.0, 6.0),
    Param("compact", 0.1, 0.0, 2.0),
)


def spec(theta: dict[str, float]) -> str:
    """``best(...)`` with these parameters."""
    by_name = {p.name: p for p in PARAMS}
    return "best(" + ",".join(f"{k}={by_name[k].show(v)}" for k, v in theta.items()) + ")"


def step(theta: dict[str, float], signs: dict[str, int], delta: float, rate: float) -> dict[str, float]:
    """The SPSA update: every parameter moves ``rate × c`` per point ``θ+`` took more than ``θ-``,
    along its sign."""
    return {p.name: p.clip(theta[p.name] + rate * p.c * signs[p.name] * delta) for p in PARAMS}


def perturbed(theta: dict[str, float], signs: dict[str, int], direction: int) -> dict[str, float]:
    return {p.name: p.clip(theta[p.name] + direction * p.c * signs[p.name]) for p in PARAMS}


def read_log(out: Path) -> list[dict[str, Any]]:
    """The iterations of a log to resume; a line that is not one of them (a run killed in the middle of
    writing it) is named, with its number, in a SystemExit."""
    names = {p.name for p in PARAMS}
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(out.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            complete = set(row["after"]) == names and row["k"] == len(rows)
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"--out {out}, line {number}: not an iteration of this tuner ({exc})") from None
        if not complete:
            raise SystemExit(f"--out {out}, line {number}: not iteration {len(rows)} of these parameters")
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pool", default="turpif,roout", help="opponents, comma-separated, taken in turn")
    parser.add_argument("--iterations", type=int, default=600, help="iterations (four games each)")
    parser.add_argument("--first-seed", type=int, default=20001, help="the first tuning seed")
    parser.add_argument("--rate", type=float, default=0.15, help="steps of c per point of difference")
    parser.add_argument("--out", required=True, metavar="FILE", help="one JSON line per iteration")
    parser.add_argument("--resume", action="store_true", help="go on from the last line of --out")
    parser.add_argument("--time", default="1/0.05", help="the time control (default CodinGame's 1/0.05)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--rules", default="contest")
    parser.add_argument("--league", default="bronze")
    parser.add_argument("--ext", default=EXT, help="where the public contest bots were built")
    parser.add_argument("--quiet", action="store_true", help="no line per iteration on stderr")
    args = parser.parse_args()
    game = make("iceandfire", rules=args.rules, league=args.league)
    specs = expand_pool(args.pool, args.ext)
    out = Path(args.out)
    rows: list[dict[str, Any]] = []
    if args.resume and out.exists():
        rows = read_log(out)
    elif out.exists() and out.stat().st_size:
        raise SystemExit(f"--out {out}: exists; --resume to go on from it, or name another file")
    theta = dict(rows[-1]["after"]) if rows else {p.name: p.start for p in PARAMS}
    play_args = argparse.Namespace(time=args.time, clock=args.clock, quiet=True)
    start = time.perf_counter()
    with out.open("a") as log:
        for k in range(len(rows), args.iterations):
            opponent = specs[k % len(specs)]
            seed = args.first_seed + k // len(specs)
            # Each iteration's signs from its own number: a resumed run draws what an unbroken one would.
            rng = random.Random(args.first_seed * 7919 + k)
            signs = {p.name: rng.choice((-1, 1)) for p in PARAMS}
            plus, minus = spec(perturbed(theta, signs, 1)), spec(perturbed(theta, signs, -1))
            points = {"plus": 0.0, "minus": 0.0}
            for seat in (0, 1):
                points["plus"] += POINTS[play_one(game, play_args, plus, opponent, seed, seat)["result"]]
                points["minus"] += POINTS[play_one(game, play_args, minus, opponent, seed, seat)["result"]]
            after = step(theta, signs, points["plus"] - points["minus"], args.rate)
            row = {"k": k, "opponent": opponent.split("=", 1)[0], "seed": seed, "before": theta}
            row.update(signs=signs, plus=points["plus"], minus=points["minus"], after=after)
            log.write(json.dumps(row) + "\n")
            log.flush()
            rows.append(row)
            theta = after
            if not args.quiet:
                print(
                    f"{k + 1}/{args.iterations} {row['opponent']} seed {seed}: θ+ {points['plus']:g}, "
                    f"θ- {points['minus']:g}; {spec(theta)}",
                    file=sys.stderr,
                )
    half = rows[len(rows) // 2 :]
    moved = sum(1 for r in rows if r["plus"] != r["minus"])
    print(
        f"SPSA over {args.pool}: {len(rows)} iterations ({4 * len(rows)} games, {moved} moved θ) from seed "
        f"{args.first_seed}, rate {args.rate:g}, {args.time} on the {args.clock} clock; "
        f"{time.perf_counter() - start:.0f} s this run"
    )
    print("| parameter | start | c | mean of the second half | shift in c | last |")
    print("| --- | --- | --- | --- | --- | --- |")
    mean = {p.name: sum(r["after"][p.name] for r in half) / max(1, len(half)) for p in PARAMS}
    for p in PARAMS:
        print(
            f"| {p.name} | {p.show(p.start)} | {p.c:g} | {mean[p.name]:.3g} | "
            f"{(mean[p.name] - p.start) / p.c:+.2f} | {p.show(theta[p.name])} |"
        )
    print(f"\nto check on fresh seeds: {spec(mean)}")


if __name__ == "__main__":
    main()
