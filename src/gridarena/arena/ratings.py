"""Ratings for many entrants and k-seat games: a batch Plackett–Luce fit, crosstables, standings (section 7).

Each entrant has a strength γ = e^θ and a rating R = 400 · log10 γ on the Elo scale. A game's finishing
order is read as a sequence of choices ("stages"): the winner is chosen from everyone, the second from the
rest, and so on, each with probability γ(chosen) / Σ γ(choice set). With two seats this is Bradley–Terry.
Tied players expand into all their internal orders, equally weighted, so a two-player draw is half a win.
The fit maximises the likelihood over all games at once, so it does not depend on the order of games.

>>> games = [GameRecord(("A", "B"), (1, 2))] * 3 + [GameRecord(("A", "B"), (2, 1))]
>>> fit = fit_ratings(games, prior_games=0, anchor="B")
>>> round(fit.rating("A"), 2)
190.85
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from gridarena.arena.intervals import Z95
from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON, Outcome

ELO_PER_NAT: Final = 400.0 / math.log(10.0)
"""Rating points per unit of θ: R = 400 · log10 e^θ."""


class RatingError(GridArenaError, ValueError):
    """Game records or fit options from which no rating can be computed; the message says why."""


# ---------------------------------------------------------------------------------------------------------
# Game records


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game as the ratings see it: entrants and competition ranks by seat (1 = best).

    >>> GameRecord.from_outcome(("x", "y", "z"), Outcome((5.0, 9.0, 5.0)), block=3)
    GameRecord(entrants=('x', 'y', 'z'), ranks=(2, 1, 2), points=(5.0, 9.0, 5.0), block=3, termination='normal', forfeit_seat=None)
    """

    entrants: tuple[str, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...] = ()
    block: int = 0
    termination: str = "normal"
    forfeit_seat: int | None = None

    def __post_init__(self) -> None:
        where = f"game of block {self.block}"
        if len(self.entrants) < 2:
            raise RatingError(f"{where}: a rated game needs at least two entrants, got {self.entrants}")
        if len(set(self.entrants)) != len(self.entrants):
            raise RatingError(f"{where}: an entrant appears twice in {self.entrants}")
        if len(self.ranks) != len(self.entrants) or any(r < 1 for r in self.ranks):
            raise RatingError(f"{where}: ranks {self.ranks} do not fit entrants {self.entrants}")
        if self.points and len(self.points) != len(self.entrants):
            raise RatingError(f"{where}: points {self.points} do not fit entrants {self.entrants}")
        if self.forfeit_seat is not None and not 0 <= self.forfeit_seat < len(self.entrants):
            raise RatingError(f"{where}: forfeit seat {self.forfeit_seat} is not a seat")

    @classmethod
    def from_outcome(cls, entrants: Sequence[str], outcome: Outcome, block: int = 0) -> GameRecord:
        """The record of a game the arena played, with ranks from the outcome's returns."""
        return cls(
            tuple(entrants),
            outcome.ranks(),
            tuple(outcome.returns),
            block,
            outcome.termination,
            outcome.forfeit_player,
        )

    def groups(self) -> list[tuple[str, ...]]:
        """The finishing order as groups of tied entrants, best first.

        >>> GameRecord(("a", "b", "c"), (2, 1, 2)).groups()
        [('b',), ('a', 'c')]
        """
        by_rank: dict[int, list[str]] = defaultdict(list)
        for name, rank in zip(self.entrants, self.ranks, strict=True):
            by_rank[rank].append(name)
        return [tuple(by_rank[r]) for r in sorted(by_rank)]

    def to_json(self) -> dict[str, JSON]:
        """The record as a JSON object."""
        return {
            "entrants": list(self.entrants),
            "ranks": list(self.ranks),
            "points": list(self.points),
            "block": self.block,
            "termination": self.termination,
            "forfeit_seat": self.forfeit_seat,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> GameRecord:
        """Inverse of :meth:`to_json`."""
        return cls(
            tuple(str(e) for e in data["entrants"]),
            tuple(int(r) for r in data["ranks"]),
            tuple(float(p) for p in data.get("points", ())),
            int(data.get("block", 0)),
            str(data.get("termination", "normal")),
            data.get("forfeit_seat"),
        )


# ---------------------------------------------------------------------------------------------------------
# Stages of the Plackett–Luce likelihood


class Stage(NamedTuple):
    """One choice: ``chosen`` is picked from ``choice_set`` (entrant indices), counted ``weight`` times."""

    choice_set: frozenset[int]
    chosen: int
    weight: float


def game_stages(groups: Sequence[Sequence[int]]) -> Iterator[Stage]:
    """Stages of one finishing order (groups of tied entrants, best first), ties expanded exactly.

    Averaging over the d! orders of a tied group G, the remaining tied set is a given subset S with
    probability 1 / C(d, |S|), and each member of S is picked next with probability 1 / |S|. So the d!
    orders collapse into 2^d − 1 choice sets, which keeps an 8-way tie at 255 sets instead of 40,320 orders.

    >>> sorted((sorted(s.choice_set), s.chosen, s.weight) for s in game_stages([[0, 1], [2]]))
    [([0, 1, 2], 0, 0.5), ([0, 1, 2], 1, 0.5), ([0, 2], 0, 0.5), ([1, 2], 1, 0.5)]
    """
    for position, group in enumerate(groups):
        rest = frozenset(i for later in groups[position + 1 :] for i in later)
        d = len(group)
        for size in range(1, d + 1):
            weight = 1.0 / (math.comb(d, size) * size)
            for subset in itertools.combinations(group, size):
                choice_set = rest.union(subset)
                if len(choice_set) < 2:
                    continue
                for chosen in subset:
                    yield Stage(choice_set, chosen, weight)


def game_stages_by_orders(groups: Sequence[Sequence[int]]) -> Iterator[Stage]:
    """Readable twin of :func:`game_stages`: every order of every tied group, weighted 1 / Π d!."""
    weight = 1.0 / math.prod(math.factorial(len(g)) for g in groups)
    for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = [i for part in orders for i in part]
        for k in range(len(order) - 1):
            yield Stage(frozenset(order[k:]), order[k], weight)


def merge_stages(stages: Iterable[Stage]) -> list[Stage]:
    """Identical (choice set, chosen) stages summed into one, in a fixed order (so fits are reproducible)."""
    totals: dict[tuple[frozenset[int], int], float] = defaultdict(float)
    for stage in stages:
        totals[stage.choice_set, stage.chosen] += stage.weight
    ordered = sorted(totals.items(), key=lambda kv: (sorted(kv[0][0]), kv[0][1]))
    return [Stage(choice_set, chosen, weight) for (choice_set, chosen), weight in ordered]


# ---------------------------------------------------------------------------------------------------------
# The fit


@dataclass(frozen=True, slots=True)
class _Problem:
    """Stages as padded arrays over n entrants plus, at index n, the phantom fixed at θ = 0."""

    n: int
    members: NDArray[np.int64]  # stages × width, padded with -1
    chosen: NDArray[np.int64]
    weight: NDArray[np.float64]

    @classmethod
    def build(cls, n: int, stages: Sequence[Stage]) -> _Problem:
        width = max((len(s.choice_set) for s in stages), default=2)
        members = np.full((len(stages), width), -1, dtype=np.int64)
        for row, stage in enumerate(stages):
            members[row, : len(stage.choice_set)] = sorted(stage.choice_set)
        chosen = np.array([s.chosen for s in stages], dtype=np.int64)
        weight = np.array([s.weight for s in stages], dtype=np.float64)
        return cls(n, members, chosen, weight)

    def probabilities(self, theta: NDArray[np.float64]) -> NDArray[np.float64]:
        """Choice probabilities of every member of every stage (0 on padding)."""
        extended = np.append(theta, 0.0)
        logits = np.where(self.members >= 0, extended[self.members], -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        expo = np.exp(logits)
        return np.asarray(expo / expo.sum(axis=1, keepdims=True), dtype=np.float64)

    def log_likelihood(self, theta: NDArray[np.float64]) -> float:
        """Σ w · log P(chosen | choice set)."""
        p = self.probabilities(theta)
        picked = p[np.arange(len(self.chosen)), np.argmax(self.members == self.chosen[:, None], axis=1)]
        return float(np.sum(self.weight * np.log(picked)))

    def gradient_and_information(
        self, theta: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Gradient Σ w (1[chosen] − p) and observed information Σ w (diag(p) − p pᵀ), phantom dropped."""
        size = self.n + 1
        p = self.probabilities(theta)
        valid = self.members >= 0
        index = np.where(valid, self.members, self.n)
        wp = self.weight[:, None] * p
        grad = np.zeros(size)
        np.add.at(grad, self.chosen, self.weight)
        np.add.at(grad, index, -np.where(valid, wp, 0.0))
        info = np.zeros((size, size))
        np.add.at(info, (index, index), np.where(valid, wp, 0.0))
        outer = wp[:, :, None] * p[:, None, :]
        both = valid[:, :, None] & valid[:, None, :]
        np.add.at(info, (index[:, :, None], index[:, None, :]), -np.where(both, outer, 0.0))
        return grad[: self.n], info[: self.n, : self.n]


@dataclass(frozen=True, slots=True)
class RatingFit:
    """Fitted ratings with 95 % intervals, relative to an anchor entrant or to the entrants' mean."""

    entrants: tuple[str, ...]
    theta: tuple[float, ...]
    ratings: tuple[float, ...]
    halfwidths: tuple[float, ...]
    anchor: str | None
    prior_games: float
    games: int
    iterations: int
    covariance: tuple[tuple[float, ...], ...] = field(repr=False)

    def rating(self, entrant: str) -> float:
        """The rating of ``entrant`` relative to the anchor (or the mean)."""
        return self.ratings[self._index(entrant)]

    def interval(self, entrant: str) -> tuple[float, float]:
        """The 95 % interval of ``entrant``'s rating."""
        i = self._index(entrant)
        return self.ratings[i] - self.halfwidths[i], self.ratings[i] + self.halfwidths[i]

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """R_a − R_b and the half-width of its 95 % interval."""
        i, j = self._index(a), self._index(b)
        c = self.covariance
        var = c[i][i] + c[j][j] - 2.0 * c[i][j]
        return self.ratings[i] - self.ratings[j], Z95 * math.sqrt(max(var, 0.0)) * ELO_PER_NAT

    def _index(self, entrant: str) -> int:
        try:
            return self.entrants.index(entrant)
        except ValueError:
            raise RatingError(f"no entrant named {entrant!r} in {list(self.entrants)}") from None

    def to_json(self) -> dict[str, JSON]:
        """Ratings as JSON: one row per entrant, best first, with ``rating`` and ``ci95``."""
        order = sorted(range(len(self.entrants)), key=lambda i: -self.ratings[i])
        return {
            "model": "plackett-luce",
            "anchor": self.anchor,
            "prior_games": self.prior_games,
            "games": self.games,
            "ratings": [
                {
                    "player": self.entrants[i],
                    "rating": self.ratings[i],
                    "ci95": [self.ratings[i] - self.halfwidths[i], self.ratings[i] + self.halfwidths[i]],
                }
                for i in order
            ],
        }


def _entrant_order(records: Sequence[GameRecord]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for record in records:
        seen.update(dict.fromkeys(record.entrants))
    return tuple(seen)


def _stages_of(records: Sequence[GameRecord], index: Mapping[str, int]) -> Iterator[Stage]:
    for record in records:
        yield from game_stages([[index[name] for name in group] for group in record.groups()])


def _prior_stages(n: int, prior_games: float) -> Iterator[Stage]:
    # Each entrant draws `prior_games` virtual games against the phantom (index n, θ = 0).
    for i in range(n):
        yield Stage(frozenset((i, n)), i, 0.5 * prior_games)
        yield Stage(frozenset((i, n)), n, 0.5 * prior_games)


def check_connected(records: Sequence[GameRecord], entrants: Sequence[str]) -> None:
    """Raise :class:`RatingError` unless the unregularized fit exists (Hunter 2004, assumption 1).

    For every split of the entrants into two groups, someone in each group must have finished ahead of
    (or tied with) someone in the other: the "beat or drew" graph must be strongly connected.
    """
    index = {name: i for i, name in enumerate(entrants)}
    rows: list[int] = []
    cols: list[int] = []
    for record in records:
        for a, ra in zip(record.entrants, record.ranks, strict=True):
            for b, rb in zip(record.entrants, record.ranks, strict=True):
                if a != b and ra <= rb:
                    rows.append(index[a])
                    cols.append(index[b])
    n = len(entrants)
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    count, labels = connected_components(graph, directed=True, connection="strong")
    if count <= 1:
        return
    # A component that nobody outside ever beat or drew with has a rating unbounded above.
    beaten = {int(labels[c]) for r, c in zip(rows, cols, strict=True) if labels[r] != labels[c]}
    top = min(set(range(count)) - beaten)
    group = sorted(entrants[i] for i in range(n) if labels[i] == top)
    others = sorted(entrants[i] for i in range(n) if labels[i] != top)
    raise RatingError(
        f"ratings are unbounded without a prior: nobody in {others} ever beat or drew with anyone in "
        f"{group}; use prior_games > 0 (--prior-games 1) or play more games"
    )


def _newton(problem: _Problem, pinned: bool, tol: float = 1e-10) -> tuple[NDArray[np.float64], int]:
    """Maximise the concave log-likelihood by Newton steps with step halving; θ₀ = 0 when ``pinned``."""
    theta = np.zeros(problem.n)
    free = slice(1, None) if pinned else slice(None)
    current = problem.log_likelihood(theta)
    for iteration in range(1, 201):
        grad, info = problem.gradient_and_information(theta)
        step = np.zeros(problem.n)
        step[free] = np.linalg.solve(info[free, free], grad[free])
        scale = 1.0
        while True:
            candidate = theta + scale * step
            value = problem.log_likelihood(candidate)
            if value >= current - 1e-12 * abs(current) or scale < 1e-8:
                break
            scale /= 2.0
        theta, current = candidate, value
        if float(np.max(np.abs(scale * step), initial=0.0)) < tol:
            return theta, iteration
    raise RatingError("the rating fit did not converge in 200 Newton steps")


def fit_ratings(
    records: Sequence[GameRecord],
    *,
    prior_games: float = 1.0,
    anchor: str | None = None,
    entrants: Sequence[str] | None = None,
) -> RatingFit:
    """Maximum-likelihood Plackett–Luce ratings of all games at once, with 95 % intervals (section 7.2).

    ``prior_games`` virtual draws per entrant against a phantom at θ = 0 keep undefeated and winless
    entrants finite. Ratings are relative to ``anchor`` if named, else to the entrants' mean.

    >>> games = [GameRecord(("A", "B"), (1, 2))] * 3 + [GameRecord(("A", "B"), (2, 1)), GameRecord(("A", "B"), (1, 1))]
    >>> round(fit_ratings(games, prior_games=0, anchor="B").rating("A"), 2)
    147.19
    """
    if prior_games < 0 or not math.isfinite(prior_games):
        raise RatingError(f"prior_games must be a non-negative number, got {prior_games}")
    names = tuple(entrants) if entrants is not None else _entrant_order(records)
    if len(names) < 2 and prior_games == 0:
        raise RatingError(f"ratings need at least two entrants, got {list(names)}")
    unknown = {e for r in records for e in r.entrants} - set(names)
    if unknown:
        raise RatingError(f"games name entrants {sorted(unknown)} missing from {list(names)}")
    if anchor is not None and anchor not in names:
        raise RatingError(f"anchor {anchor!r} is not an entrant: {list(names)}")
    if prior_games == 0:
        check_connected(records, names)
    index = {name: i for i, name in enumerate(names)}
    stages = merge_stages(itertools.chain(_stages_of(records, index), _prior_stages(len(names), prior_games)))
    problem = _Problem.build(len(names), stages)
    theta, iterations = _newton(problem, pinned=prior_games == 0)
    grad, info = problem.gradient_and_information(theta)
    if float(np.max(np.abs(grad))) > 1e-6 * max(1.0, float(problem.weight.sum())):
        raise RatingError(f"the rating fit stopped with gradient {np.max(np.abs(grad)):.3g}, not near 0")
    # Without a prior θ is fixed only up to a constant; the pseudo-inverse gives the right variance
    # for every contrast (anchor or mean), which is all we report.
    cov = np.asarray(
        np.linalg.pinv(info, hermitian=True) if prior_games == 0 else np.linalg.inv(info), np.float64
    )
    return _finish(names, theta, cov, anchor, prior_games, len(records), iterations)


def _finish(
    names: tuple[str, ...],
    theta: NDArray[np.float64],
    cov: NDArray[np.float64],
    anchor: str | None,
    prior_games: float,
    games: int,
    iterations: int,
) -> RatingFit:
    n = len(names)
    if anchor is None:
        contrasts = np.eye(n) - 1.0 / n
    else:
        contrasts = np.eye(n)
        contrasts[:, names.index(anchor)] -= 1.0
    centred = contrasts @ theta
    variances = np.einsum("ij,jk,ik->i", contrasts, cov, contrasts)
    half = Z95 * np.sqrt(np.maximum(variances, 0.0)) * ELO_PER_NAT
    return RatingFit(
        entrants=names,
        theta=tuple(float(x) for x in theta),
        ratings=tuple(float(x) * ELO_PER_NAT + 0.0 for x in centred),
        halfwidths=tuple(float(x) for x in half),
        anchor=anchor,
        prior_games=prior_games,
        games=games,
        iterations=iterations,
        covariance=tuple(tuple(float(x) for x in row) for row in cov),
    )


@dataclass(frozen=True, slots=True)
class BootstrapFit:
    """Percentile intervals from refits on block-resampled games (``--bootstrap B``)."""

    fit: RatingFit
    low: tuple[float, ...]
    high: tuple[float, ...]
    resamples: int
    failed: int

    def to_json(self) -> dict[str, JSON]:
        """The point fit's JSON with each ``ci95`` replaced by the bootstrap percentile interval."""
        data = self.fit.to_json()
        index = {name: i for i, name in enumerate(self.fit.entrants)}
        for row in data["ratings"]:
            i = index[row["player"]]
            row["ci95"] = [self.low[i], self.high[i]]
        data["bootstrap"] = {"resamples": self.resamples, "failed": self.failed}
        return data


def bootstrap_ratings(
    records: Sequence[GameRecord],
    resamples: int,
    rng: np.random.Generator,
    *,
    prior_games: float = 1.0,
    anchor: str | None = None,
) -> BootstrapFit:
    """Refit on ``resamples`` resamples of whole blocks (with replacement) and take 2.5/97.5 percentiles.

    Without a prior, a resample may have no finite fit; it is skipped and counted in ``failed``.
    """
    if resamples < 1:
        raise RatingError(f"bootstrap needs at least 1 resample, got {resamples}")
    fit = fit_ratings(records, prior_games=prior_games, anchor=anchor)
    blocks: dict[int, list[GameRecord]] = defaultdict(list)
    for record in records:
        blocks[record.block].append(record)
    keys = sorted(blocks)
    draws: list[tuple[float, ...]] = []
    for _ in range(resamples):
        chosen = rng.integers(0, len(keys), size=len(keys))
        sample = [r for k in chosen for r in blocks[keys[int(k)]]]
        try:
            refit = fit_ratings(sample, prior_games=prior_games, anchor=anchor, entrants=fit.entrants)
        except RatingError:
            continue
        draws.append(refit.ratings)
    if not draws:
        raise RatingError(f"none of {resamples} bootstrap resamples could be fitted; use a prior")
    table = np.array(draws)
    low = np.percentile(table, 2.5, axis=0)
    high = np.percentile(table, 97.5, axis=0)
    return BootstrapFit(
        fit, tuple(float(x) for x in low), tuple(float(x) for x in high), resamples, resamples - len(draws)
    )


# ---------------------------------------------------------------------------------------------------------
# Crosstable and standings (section 7.1)


@dataclass(frozen=True, slots=True)
class Crosstable:
    """Each row entrant's points against each column entrant (1 for finishing ahead, ½ for a tie)."""

    entrants: tuple[str, ...]
    points: tuple[tuple[float, ...], ...]
    games: tuple[tuple[int, ...], ...]

    def score(self, row: str, col: str) -> float | None:
        """Fraction of points ``row`` took from ``col``; ``None`` if they never met."""
        i, j = self.entrants.index(row), self.entrants.index(col)
        return None if self.games[i][j] == 0 else self.points[i][j] / self.games[i][j]

    def to_json(self) -> dict[str, JSON]:
        """One row per entrant with, per opponent met, the points, games and score."""
        rows: list[JSON] = []
        for i, name in enumerate(self.entrants):
            cells = {
                other: {
                    "points": self.points[i][j],
                    "games": self.games[i][j],
                    "score": self.score(name, other),
                }
                for j, other in enumerate(self.entrants)
                if self.games[i][j]
            }
            rows.append({"player": name, "vs": cells})
        return {"entrants": list(self.entrants), "rows": rows}

    def to_text(self) -> str:
        """A plain-text table: ``points/games`` per cell, ``·`` on the diagonal, ``-`` where none met.

        >>> print(crosstable([GameRecord(("a", "b"), (1, 2)), GameRecord(("a", "b"), (1, 1))]).to_text())
               a      b
        a      ·  1.5/2
        b  0.5/2      ·
        """
        n = len(self.entrants)
        cells = [
            [
                "·"
                if i == j
                else "-"
                if not self.games[i][j]
                else f"{self.points[i][j]:g}/{self.games[i][j]}"
                for j in range(n)
            ]
            for i in range(n)
        ]
        name_width = max(len(e) for e in self.entrants)
        width = max(len(c) for c in (*self.entrants, *(c for row in cells for c in row)))
        lines = [" " * name_width + "".join(f"  {e:>{width}}" for e in self.entrants)]
        for name, row in zip(self.entrants, cells, strict=True):
            lines.append(f"{name:<{name_width}}" + "".join(f"  {c:>{width}}" for c in row))
        return "\n".join(lines)


def crosstable(records: Sequence[GameRecord], entrants: Sequence[str] | None = None) -> Crosstable:
    """Pairwise points of every game: in a k-seat game every two entrants meet once."""
    names = tuple(entrants) if entrants is not None else _entrant_order(records)
    index = {name: i for i, name in enumerate(names)}
    points = np.zeros((len(names), len(names)))
    games = np.zeros((len(names), len(names)), dtype=np.int64)
    for record in records:
        for (a, ra), (b, rb) in itertools.permutations(zip(record.entrants, record.ranks, strict=True), 2):
            i, j = index[a], index[b]
            games[i, j] += 1
            points[i, j] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return Crosstable(
        names,
        tuple(tuple(float(x) for x in row) for row in points),
        tuple(tuple(int(x) for x in row) for row in games),
    )


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One entrant's games from one seat."""

    games: int
    mean_rank: float
    first_share: float
    mean_points: float | None

    def to_json(self) -> dict[str, JSON]:
        """The figures as a JSON object."""
        return {
            "games": self.games,
            "mean_rank": self.mean_rank,
            "first_share": self.first_share,
            "mean_points": self.mean_points,
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """Per-entrant figures of section 7.1: games, mean rank, first-place share, points, forfeits, seats."""

    player: str
    overall: SeatFigures
    seats: Mapping[int, SeatFigures]
    forfeits: Mapping[str, int]

    def to_json(self) -> dict[str, JSON]:
        """The standing as a JSON object (``seats`` keyed by seat number as text)."""
        return {
            "player": self.player,
            **self.overall.to_json(),
            "forfeits": dict(self.forfeits),
            "seats": {str(seat): figures.to_json() for seat, figures in sorted(self.seats.items())},
        }


def _figures(rows: Sequence[tuple[int, float, float | None]]) -> SeatFigures:
    points = [p for _, _, p in rows if p is not None]
    return SeatFigures(
        games=len(rows),
        mean_rank=sum(r for r, _, _ in rows) / len(rows),
        first_share=sum(f for _, f, _ in rows) / len(rows),
        mean_points=sum(points) / len(points) if len(points) == len(rows) else None,
    )


def standings(records: Sequence[GameRecord]) -> list[Standing]:
    """Per-entrant standings in order of first appearance; entrants tied for first share the place.

    >>> rows = standings([GameRecord(("a", "b", "c"), (1, 1, 3)), GameRecord(("c", "a", "b"), (1, 2, 3))])
    >>> [(s.player, s.overall.mean_rank, s.overall.first_share) for s in rows]
    [('a', 1.5, 0.25), ('b', 2.0, 0.25), ('c', 2.0, 0.5)]
    """
    rows: dict[str, list[tuple[int, int, float, float | None]]] = defaultdict(list)
    forfeits: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        firsts = sum(1 for r in record.ranks if r == 1)
        for seat, (name, rank) in enumerate(zip(record.entrants, record.ranks, strict=True)):
            share = 1.0 / firsts if rank == 1 else 0.0
            rows[name].append((seat, rank, share, record.points[seat] if record.points else None))
            if record.forfeit_seat == seat and record.termination != "normal":
                forfeits[name][record.termination] += 1
    result: list[Standing] = []
    for name in _entrant_order(records):
        by_seat: dict[int, list[tuple[int, float, float | None]]] = defaultdict(list)
        for seat, rank, share, pts in rows[name]:
            by_seat[seat].append((rank, share, pts))
        overall = _figures([(rank, share, pts) for _, rank, share, pts in rows[name]])
        seats = {seat: _figures(items) for seat, items in sorted(by_seat.items())}
        result.append(Standing(name, overall, seats, dict(sorted(forfeits[name].items()))))
    return result
