"""Every request generator ("sequencer") of the course and the 2016 tournament, seed-exact with Java.

A sequencer is an immutable value: :meth:`Sequencer.next` returns the request and the sequencer that
follows, so the request stream can live inside an immutable game state. The generator is stored as
the 48-bit ``java.util.Random`` state, and each class draws in exactly the order of its Java original,
so the same seed gives the same stream as ``java pentos.sim.Simulator -s NAME -i SEED``.

>>> seq = make_sequencer("random", 869)
>>> [b.shape_name() for b in take(seq, 3)]
['N', '2×2', 'I']

Sequencers that Java seeds from the clock (``new Random()``: g3, g8, g9, onebyone) are seeded here from
the given seed anyway, so runs repeat; those streams are not Java's, only distributed like them. Without
a seed every sequencer draws its seed from OS entropy, as ``new Random()`` does.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from gridarena.core.errors import StateFormatError, UnknownNameError
from gridarena.core.javarandom import JavaRandom, scramble
from gridarena.core.types import JSON
from gridarena.games.pentocity.buildings import (
    G2,
    G3,
    I_H,
    PENTO,
    T_DOWN,
    T_RIGHT,
    TANK_A,
    TANK_B,
    U_3S,
    Building,
    Cell,
    X,
    rect,
    residence,
)

SIDE: Final = 50

Changes = dict[str, int | float | bool]


def grid_neighbours(cell: Cell, side: int = SIDE) -> list[Cell]:
    """Java's ``Cell.neighbors()``: in-grid cells right, left, down, up, in that order.

    >>> grid_neighbours((0, 0))
    [(0, 1), (1, 0)]
    """
    i, j = cell
    out = [(i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)]
    return [(a, b) for a, b in out if 0 <= a < side and 0 <= b < side]


def trace_back(previous: dict[Cell, Cell | None], end: Cell) -> frozenset[Cell]:
    """The cells of a breadth-first search's path to ``end`` (``previous`` links each cell to where it came from).

    >>> sorted(trace_back({(0, 0): None, (0, 1): (0, 0), (1, 1): (0, 1)}, (1, 1)))
    [(0, 0), (0, 1), (1, 1)]
    """
    path: list[Cell] = []
    cell: Cell | None = end
    while cell is not None:
        path.append(cell)
        cell = previous[cell]
    return frozenset(path)


def walk(rng: JavaRandom) -> Building:
    """The random-walk residence: four steps from (0, 0), one ``nextInt`` each, never revisiting a cell.

    >>> rng = JavaRandom(869); _ = rng.next_double()  # random's first request: u <= 0.7, a residence
    >>> walk(rng).order
    ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1))
    """
    cells = [(0, 0)]
    tail = (0, 0)
    for _ in range(4):
        candidates = [p for p in grid_neighbours(tail) if p not in cells]
        tail = candidates[rng.next_int(len(candidates))]  # a draw even when only one candidate is left
        cells.append(tail)
    return residence(cells)


def entropy_seed() -> int:
    """A fresh signed 64-bit seed from OS entropy: what Java's ``new Random()`` amounts to."""
    return random.SystemRandom().getrandbits(64) - (1 << 63)


@dataclass(frozen=True, slots=True)
class Sequencer:
    """Base class: the generator state plus each subclass's counters, all plain numbers."""

    NAME: ClassVar[str] = ""
    #: "seeded" (Java's stream from the seed), "deterministic" (no randomness in the output) or
    #: "distribution" (Java uses an unseeded generator: only the distribution is reproduced).
    REPRODUCIBLE: ClassVar[str] = "seeded"

    rng_state: int = 0

    @classmethod
    def create(cls, seed: int | None) -> Sequencer:
        """The sequencer after Java's ``init(seed)``; a None seed is drawn from OS entropy."""
        return cls(rng_state=scramble(entropy_seed() if seed is None else seed))

    def next(self) -> tuple[Building, Sequencer]:
        """The next request and the sequencer that produces the ones after it."""
        rng = JavaRandom.from_state(self.rng_state)
        building, changes = self._draw(rng)
        return building, dataclasses.replace(self, rng_state=rng.state, **changes)

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        raise NotImplementedError

    def to_json(self) -> dict[str, JSON]:
        """The sequencer's name and fields, for a saved game state."""
        return {"name": self.NAME, **dataclasses.asdict(self)}


@dataclass(frozen=True, slots=True)
class RandomSequencer(Sequencer):
    """``random``: 30 % factories with sides 2..4, else a random walk."""

    NAME: ClassVar[str] = "random"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.7:
            rows = rng.next_int(3) + 2
            cols = rng.next_int(3) + 2
            return rect(rows, cols), {}
        return walk(rng), {}


def _tail_side(rng: JavaRandom) -> int:
    """tailheavy's factory side: ``k = floor(v*v / 0.2)``, k = 0 gives 5, k = 1..4 gives 1..4."""
    v = rng.next_double()
    k = math.floor((v * v) / 0.2)  # Java's Math.pow(v, 2) equals v * v
    return ((k + 4) % 5) + 1


@dataclass(frozen=True, slots=True)
class TailHeavySequencer(Sequencer):
    """``tailheavy``: like ``random``, but factory sides lean to 5."""

    NAME: ClassVar[str] = "tailheavy"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.7:
            rows = _tail_side(rng)
            cols = _tail_side(rng)
            return rect(rows, cols), {}
        return walk(rng), {}


@dataclass(frozen=True, slots=True)
class StarsAndBlocksSequencer(Sequencer):
    """``starsandblocks``: 10 % 5×5 factories, else the X pentomino."""

    NAME: ClassVar[str] = "starsandblocks"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        return (rect(5, 5) if rng.next_double() > 0.9 else X), {}


@dataclass(frozen=True, slots=True)
class IndustrializationSequencer(Sequencer):
    """``industrialization``: residences thin out (ratio 0.99·0.994^t) and factories grow with time."""

    NAME: ClassVar[str] = "industrialization"

    turn: int = 0
    ratio: float = 0.99

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        turn = self.turn + 1
        ratio = self.ratio * 0.994  # accumulated product, as Java does, not 0.994 ** turn
        changes: Changes = {"turn": turn, "ratio": ratio}
        if rng.next_double() > ratio:
            rows = 5 - math.floor(math.pow(rng.next_double(), turn / 50.0) / 0.2)
            cols = 5 - math.floor(math.pow(rng.next_double(), turn / 50.0) / 0.2)
            return rect(rows, cols), changes
        return walk(rng), changes


@dataclass(frozen=True, slots=True)
class MisfitsSequencer(Sequencer):
    """``misfits``: 5×1 and 1×5 bars, X and T pentominoes."""

    NAME: ClassVar[str] = "misfits"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.5:
            return (rect(5, 1) if rng.next_double() > 0.5 else rect(1, 5)), {}
        if rng.next_double() > 0.5:
            return X, {}
        return (T_DOWN if rng.next_double() > 0.5 else T_RIGHT), {}


@dataclass(frozen=True, slots=True)
class TanksSequencer(Sequencer):
    """``tanks``: half 5×5 factories, half P pentominoes of either handedness."""

    NAME: ClassVar[str] = "tanks"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.5:
            return rect(5, 5), {}
        return (TANK_A if rng.next_double() > 0.5 else TANK_B), {}


@dataclass(frozen=True, slots=True)
class OneByOneSequencer(Sequencer):
    """``onebyone``: always a 1×1 factory (Java draws three unused numbers from an unseeded generator)."""

    NAME: ClassVar[str] = "onebyone"
    REPRODUCIBLE: ClassVar[str] = "deterministic"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        rng.next_double()
        rng.next_int(4)
        rng.next_int(4)
        return rect(1, 1), {}


@dataclass(frozen=True, slots=True)
class Single3sSequencer(Sequencer):
    """``single3s``: always the U pentomino."""

    NAME: ClassVar[str] = "single3s"
    REPRODUCIBLE: ClassVar[str] = "deterministic"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        return U_3S, {}


@dataclass(frozen=True, slots=True)
class G1Sequencer(Sequencer):
    """``g1``: 80 % residences (X or horizontal I); small factories until request 140, then 5×5."""

    NAME: ClassVar[str] = "g1"

    count: int = 0

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        count = self.count + 1
        if rng.next_double() < 0.8:
            return (X if rng.next_double() < 0.6 else I_H), {"count": count}
        if count <= 140:
            return rect(1, rng.next_int(2) + 1), {"count": count}
        return rect(5, 5), {"count": count}


@dataclass(frozen=True, slots=True)
class G2Sequencer(Sequencer):
    """``g2``: a fixed cycle, residence G2[k] and 1×1 factory alternately; no randomness."""

    NAME: ClassVar[str] = "g2"
    REPRODUCIBLE: ClassVar[str] = "deterministic"

    factory_next: bool = True
    k: int = 0

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        factory_next = not self.factory_next
        if factory_next:
            return rect(1, 1), {"factory_next": True}
        return G2[self.k], {"factory_next": False, "k": (self.k + 1) % 10}


@dataclass(frozen=True, slots=True)
class G3Sequencer(Sequencer):
    """``g3``: coin flips between cycling residences (G3) and alternating 5×5 / 1×1 factories.

    Java flips the coins with an unseeded generator; here they come from the given seed.
    """

    NAME: ClassVar[str] = "g3"
    REPRODUCIBLE: ClassVar[str] = "distribution"

    flag: int = 1
    flag_factory: int = 1

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.5:
            building = rect(1, 1) if self.flag_factory % 2 == 0 else rect(5, 5)
            return building, {"flag_factory": self.flag_factory + 1}
        return G3[self.flag], {"flag": (self.flag + 1) % 6}


@dataclass(frozen=True, slots=True)
class G4Sequencer(Sequencer):
    """``g4``: eleven 5×5 factories then random squares; eleven random walks then X pentominoes."""

    NAME: ClassVar[str] = "g4"

    factories: int = 0
    residences: int = 0

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.5:
            if self.factories < 11:
                return rect(5, 5), {"factories": self.factories + 1}
            side = rng.next_int(5) + 1
            return rect(side, side), {}
        if self.residences < 11:
            return walk(rng), {"residences": self.residences + 1}
        return X, {}


@dataclass(frozen=True, slots=True)
class G5Sequencer(Sequencer):
    """``g5``: odd requests f (F mirrored) or 1×1, even requests F or 5×5."""

    NAME: ClassVar[str] = "g5"

    i: int = 0

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        i = (self.i + 1) % 2
        if rng.next_double() > 0.5:  # here "> 0.5" means a residence
            return (PENTO[2] if i == 1 else PENTO[1]), {"i": i}
        return (rect(1, 1) if i == 1 else rect(5, 5)), {"i": i}


@dataclass(frozen=True, slots=True)
class G6Sequencer(Sequencer):
    """``g6``: always the horizontal I pentomino (one ignored draw per request)."""

    NAME: ClassVar[str] = "g6"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        rng.next_double()
        return I_H, {}


@dataclass(frozen=True, slots=True)
class G8Sequencer(Sequencer):
    """``g8``: the 18 one-sided pentominoes in turn for 105 requests, then random factories for ever.

    The first 105 requests are Java's exactly; the factories after them come from the given seed.
    """

    NAME: ClassVar[str] = "g8"
    REPRODUCIBLE: ClassVar[str] = "distribution"

    count: int = 0

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if self.count < 105:
            return PENTO[self.count % 18], {"count": self.count + 1}
        rows = rng.next_int(5) + 1
        cols = rng.next_int(5) + 1
        return rect(rows, cols), {}


@dataclass(frozen=True, slots=True)
class G9Sequencer(Sequencer):
    """``g9``: 1×1 factory or horizontal I, 50/50.

    Java builds a fresh unseeded generator for every request; one seeded stream has the same distribution.
    """

    NAME: ClassVar[str] = "g9"
    REPRODUCIBLE: ClassVar[str] = "distribution"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        return (rect(1, 1) if rng.next_double() > 0.5 else I_H), {}


@dataclass(frozen=True, slots=True)
class G10Sequencer(Sequencer):
    """``g10``: 80 % square factories with sides cycling 2, 3, 4, 1; else X."""

    NAME: ClassVar[str] = "g10"

    last: int = 1

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        if rng.next_double() > 0.2:
            n = (self.last + 1) % 5
            n = 1 if n == 0 else n
            return rect(n, n), {"last": n}
        return X, {}


#: Sequencers by their Java folder name.
SEQUENCERS: Final[dict[str, type[Sequencer]]] = {
    cls.NAME: cls
    for cls in (
        RandomSequencer,
        TailHeavySequencer,
        StarsAndBlocksSequencer,
        IndustrializationSequencer,
        MisfitsSequencer,
        TanksSequencer,
        OneByOneSequencer,
        Single3sSequencer,
        G1Sequencer,
        G2Sequencer,
        G3Sequencer,
        G4Sequencer,
        G5Sequencer,
        G6Sequencer,
        G8Sequencer,
        G9Sequencer,
        G10Sequencer,
    )
}

#: The 14 sequencers of the 2016 tournament, in the order of its results file.
TOURNAMENT_SEQUENCERS: Final = (
    "g1",
    "g2",
    "g3",
    "g4",
    "g5",
    "g6",
    "g8",
    "g9",
    "g10",
    "random",
    "tailheavy",
    "starsandblocks",
    "industrialization",
    "misfits",
)

#: The ten seeds of the 2016 tournament.
TOURNAMENT_SEEDS: Final = (869, 84, 400, 260, 800, 431, 911, 182, 264, 146)


def sequencer_class(name: str) -> type[Sequencer]:
    """The class registered as ``name``; UnknownNameError with close matches otherwise."""
    if name not in SEQUENCERS:
        raise UnknownNameError("sequencer", name, difflib.get_close_matches(name, SEQUENCERS))
    return SEQUENCERS[name]


def make_sequencer(name: str, seed: int | None) -> Sequencer:
    """The sequencer ``name`` after ``init(seed)``.

    >>> make_sequencer("g6", 1).next()[0].shape_name()
    'I'
    """
    return sequencer_class(name).create(seed)


def iter_requests(sequencer: Sequencer) -> Iterator[Building]:
    """The endless request stream of ``sequencer``."""
    while True:
        building, sequencer = sequencer.next()
        yield building


def take(sequencer: Sequencer, count: int) -> list[Building]:
    """The first ``count`` requests of ``sequencer``.

    >>> [b.shape_name() for b in take(make_sequencer("g10", 869), 4)]
    ['2×2', '3×3', '4×4', '1×1']
    """
    stream = iter_requests(sequencer)
    return [next(stream) for _ in range(count)]


def sequencer_from_json(data: Mapping[str, JSON]) -> Sequencer:
    """Inverse of :meth:`Sequencer.to_json`; StateFormatError naming the bad field."""
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise StateFormatError("sequencer: expected an object with a string 'name'")
    cls = sequencer_class(data["name"])
    fields = {f.name: f.type for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "name":
            continue
        if key not in fields:
            raise StateFormatError(f"sequencer {cls.NAME}: unknown field {key!r}")
        if isinstance(value, bool) != (fields[key] == "bool") or not isinstance(value, int | float):
            raise StateFormatError(f"sequencer {cls.NAME}: field {key!r} has the wrong type: {value!r}")
        values[key] = value
    return cls(**values)
