"""Plackett–Luce ratings for many entrants and k-seat games: one batch fit, and its bootstrap.

Each entrant has a strength γ = e^θ and a rating R = 400 · log10 γ on the Elo scale. A game's finishing
order is read as a sequence of choices ("stages"): the winner is chosen from everyone, the second from the
rest, and so on, each with probability γ(chosen) / Σ γ(choice set). With two seats this is Bradley–Terry.
Tied players expand into all their internal orders, equally weighted, so a two-player draw is half a win.
The fit maximises the likelihood over all games at once, so it does not depend on the order of games.

>>> games = [RatedGame(("A", "B"), (1, 2))] * 3 + [RatedGame(("A", "B"), (2, 1))]
>>> fit = fit_ratings(games, prior_games=0, anchor="B")
>>> round(fit.rating("A"), 2)
190.85
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from gridarena.arena.intervals import Z95, symmetric
from gridarena.arena.rated import RatedGame, RatingError, entrant_order
from gridarena.core.types import JSON

ELO_PER_NAT: Final = 400.0 / math.log(10.0)
"""Rating points per unit of θ: R = 400 · log10 e^θ."""


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
        return symmetric(self.ratings[i], self.halfwidths[i])

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """R_a − R_b and the half-width of its 95 % interval."""
        i, j = self._index(a), self._index(b)
        c = self.covariance
        var = c[i][i] + c[j][j] - 2.0 * c[i][j]
        return self.ratings[i] - self.ratings[j], float(_halfwidths(var))

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
                    "ci95": list(symmetric(self.ratings[i], self.halfwidths[i])),
                }
                for i in order
            ],
        }


def _stages_of(records: Sequence[RatedGame], index: Mapping[str, int]) -> Iterator[Stage]:
    for record in records:
        yield from game_stages([[index[name] for name in group] for group in record.groups()])


def _prior_stages(n: int, prior_games: float) -> Iterator[Stage]:
    # Each entrant draws `prior_games` virtual games against the phantom (index n, θ = 0).
    for i in range(n):
        yield Stage(frozenset((i, n)), i, 0.5 * prior_games)
        yield Stage(frozenset((i, n)), n, 0.5 * prior_games)


def check_connected(records: Sequence[RatedGame], entrants: Sequence[str]) -> None:
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
    records: Sequence[RatedGame],
    *,
    prior_games: float = 1.0,
    anchor: str | None = None,
    entrants: Sequence[str] | None = None,
) -> RatingFit:
    """Maximum-likelihood Plackett–Luce ratings of all games at once, with 95 % intervals.

    ``prior_games`` virtual draws per entrant against a phantom at θ = 0 keep undefeated and winless
    entrants finite. Ratings are relative to ``anchor`` if named, else to the entrants' mean.

    >>> games = [RatedGame(("A", "B"), (1, 2))] * 3 + [RatedGame(("A", "B"), (2, 1)), RatedGame(("A", "B"), (1, 1))]
    >>> round(fit_ratings(games, prior_games=0, anchor="B").rating("A"), 2)
    147.19
    """
    if prior_games < 0 or not math.isfinite(prior_games):
        raise RatingError(f"prior_games must be a non-negative number, got {prior_games}")
    names = tuple(entrants) if entrants is not None else entrant_order(records)
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
    half = _halfwidths(variances)
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


def _halfwidths(variances: ArrayLike) -> NDArray[np.float64]:
    """Half-widths of 95 % intervals on the rating scale for variances of θ (rounding's negatives as 0)."""
    return np.asarray(Z95 * np.sqrt(np.maximum(variances, 0.0)) * ELO_PER_NAT, dtype=np.float64)


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
    records: Sequence[RatedGame],
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
    blocks: dict[int, list[RatedGame]] = defaultdict(list)
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
