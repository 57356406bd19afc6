"""The match report as text."""

from __future__ import annotations

from gridarena.arena.counts import Pentanomial
from gridarena.arena.match import match_stats
from gridarena.arena.sprt import SprtConfig
from gridarena.arena.text import format_report


def test_pentanomial_split_gives_the_reported_game_counts() -> None:
    stats = match_stats(Pentanomial(13, 37, 50, 25, 3, wl=20), SprtConfig(0, 5))
    assert format_report(stats) == [
        "Elo: -43.66 +/- 29.43, nElo: -63.97 +/- 42.56",
        "LOS: 0.16 %, DrawRatio: 47.7 %, PairsRatio: 0.56",
        "Games: 256, Wins: 51, Losses: 83, Draws: 122, Points: 112.0 (43.75 %)",
        "Ptnml(0-2): [13, 37, 50, 25, 3]",
        "LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]",
    ]
