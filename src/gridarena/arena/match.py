"""A two-entrant match: its Elo figures, pentanomial when paired, and its optional SPRT.

:class:`MatchStats` is what the report shows for two entrants: the ``standings`` and ``match`` objects of
the JSON report, and (through :func:`gridarena.arena.text.format_report`) the report's text lines.

>>> from gridarena.arena.counts import Trinomial
>>> stats = match_stats(Trinomial(6, 0, 0), names=("new", "old"))
>>> [(row["player"], row["elo"], row["elo_ci95"][0] is None) for row in stats.standings()]
[('new', None, False), ('old', None, True)]
"""

from __future__ import annotations

from dataclasses import dataclass

from gridarena.arena.counts import Sample
from gridarena.arena.elo import EloFigures, figures
from gridarena.arena.sprt import SprtConfig, SprtResult, sprt
from gridarena.core.types import JSON

_NOT_IN_MATCH = frozenset({"games", "variance", "counts"})  # figures the report's `match` object leaves out


@dataclass(frozen=True, slots=True)
class MatchStats:
    """A two-entrant match's figures (pentanomial when paired) with its optional SPRT."""

    figures: EloFigures
    sprt: SprtResult | None = None
    names: tuple[str, str] = ("A", "B")

    def standings(self) -> list[dict[str, JSON]]:
        """The ``standings`` list of the JSON report: the candidate first, then the opponent."""
        f = self.figures
        games = f.counts
        rows: list[dict[str, JSON]] = []
        for side, name in enumerate(self.names):
            sign = 1.0 if side == 0 else -1.0
            counts = None if games is None else (games if side == 0 else games.swapped())
            low, high = (f.elo_low, f.elo_high) if side == 0 else (_neg(f.elo_high), _neg(f.elo_low))
            rows.append(
                {
                    "player": name,
                    "games": f.games,
                    "wins": None if counts is None else counts.wins,
                    "losses": None if counts is None else counts.losses,
                    "draws": None if counts is None else counts.draws,
                    "score": f.score if side == 0 else 1.0 - f.score,
                    "elo": None if f.elo is None else sign * f.elo + 0.0,
                    "elo_ci95": [low, high],
                }
            )
        return rows

    def to_json(self) -> dict[str, JSON]:
        """The report as one JSON object: ``standings`` and ``match``."""
        match = {k: v for k, v in self.figures.to_json().items() if k not in _NOT_IN_MATCH}
        match["sprt"] = None if self.sprt is None else self.sprt.to_json()
        return {"standings": self.standings(), "match": match}


def _neg(value: float | None) -> float | None:
    return None if value is None else -value + 0.0


def match_stats(
    sample: Sample,
    sprt_config: SprtConfig | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> MatchStats:
    """Figures (and SPRT, if configured) for a trinomial or pentanomial sample."""
    return MatchStats(figures(sample), None if sprt_config is None else sprt(sprt_config, sample), names)
