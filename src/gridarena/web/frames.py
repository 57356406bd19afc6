"""A replay as the viewer sees it: the positions rebuilt with the engine, one SVG picture per ply.

The viewer draws on the server, with each game's own ``render_svg`` from the registry (see
docs/web.md for why): :func:`load_view` replays the stored actions with the engine once and keeps
every position, :meth:`ReplayView.frame` draws any of them. A game without a renderer, or a
replay the engine cannot follow (another version's rules), still shows: its frames are the
stored text of each position, with the problem named in :attr:`ReplayView.problem`.

>>> from gridarena.arena.replay import Replay, make_header
>>> from gridarena import make
>>> state = make("isolation(width=4,height=4)").new_initial_state()
>>> header = make_header("isolation", {"width": 4, "height": 4}, 1, ["a", "b"], state.to_text())
>>> view = view_of(Replay(header, [{"ply": 0, "player": 0, "action": "a1"}]))
>>> view.plies, 'data-board="1.../..../..../...."' in view.frame(1)
(1, True)
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from gridarena.arena.replay import Replay, replay_positions
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import TimeSpec, TimeSpecError
from gridarena.core.registry import game_words, has_renderer, make_for_request, renderer
from gridarena.core.specs import parse_spec
from gridarena.core.types import JSON, Game, GameState, Outcome
from gridarena.core.words import Ending, Words, describe, option_rows, options

VIEW_CACHE_BYTES: Final = 64 * 1024**2
"""The estimated memory the viewer's rebuilt replays may hold (:class:`ViewCache`)."""
SAMPLED: Final = 8
"""Positions and turns measured to estimate a view's size (shared objects counted once)."""


@dataclass(slots=True)
class ReplayView:
    """A replay with its positions: ``states[n]`` is the position after ``n`` plies, for every ply
    the engine could rebuild (all of them unless :attr:`problem` says otherwise)."""

    replay: Replay
    game: Game[Any] | None
    states: list[GameState[Any]]
    actions: list[Any]
    problem: str | None

    @property
    def plies(self) -> int:
        """Number of plies in the replay (frames run from 0, the start, to ``plies``)."""
        return len(self.replay.turns)

    def clamp(self, ply: int) -> int:
        """``ply`` within 0 .. :attr:`plies`."""
        return max(0, min(self.plies, ply))

    def frame(self, ply: int) -> str:
        """The SVG picture of the position after ``ply`` plies (clamped to the game)."""
        ply = self.clamp(ply)
        if self.game is not None and ply < len(self.states) and has_renderer(self.game.name):
            last = self.actions[ply - 1] if ply > 0 else None
            svg: str = renderer(self.game.name)(self.states[ply], last_action=last)
            return svg
        return text_svg(self._text(ply), str(self.replay.header.get("game", "")), ply)

    def _text(self, ply: int) -> str:
        if self.game is not None and ply < len(self.states):
            return self.states[ply].to_text()
        if ply == 0:
            return str(self.replay.header.get("initial_state") or "")
        return str(self.replay.turns[ply - 1].get("state") or "(this replay stores no position for this ply)")

    def frames(self) -> list[str]:
        """Every frame, from the start to the end (for the one-file HTML export)."""
        return [self.frame(ply) for ply in range(self.plies + 1)]

    def payload(self, **source: JSON) -> dict[str, JSON]:
        """What the viewer's script reads: header, turns, result, plies, problem, per-move limit, and the
        game's words (:meth:`words`)."""
        header = self.replay.header
        return {
            "header": header,
            "turns": self.replay.turns,
            "result": self.replay.result,
            "plies": self.plies,
            "seed_text": None if header.get("seed") is None else str(header.get("seed")),
            "problem": self.problem,
            "limit_ms": move_limit_ms(header.get("time_control")),
            "words": self.words(),
            "source": dict(source),
        }

    def words(self) -> dict[str, JSON]:
        """What the page says in words: the result as a sentence, the parameters as rows, each seat's
        colour as its board draws it and its spec, and the plies played before the first stored one
        (an opening: ``first_ply`` of them, listed in ``opening`` where the replay recorded them)."""
        header = self.replay.header
        words = game_words(str(header.get("game", "")))
        names = player_names(header)
        specs = header.get("players_specs")
        rows = options(words, self.game) if self.game is not None else option_rows(_options(header))
        opening = header.get("opening") if isinstance(header.get("opening"), list) else []
        assert isinstance(opening, list)
        return {
            "result": self.result_sentence(words, names),
            "options": [[label, value] for label, value in rows],
            "seats": [
                {"colour": words.seats[s].colour, "colour_name": words.seats[s].name}
                if s < len(words.seats)
                else None
                for s in range(len(names))
            ],
            "specs": [str(spec) for spec in specs] if isinstance(specs, list) else None,
            "first_ply": len(opening) if opening else self._first_ply(),
            "opening": opening,
        }

    def result_sentence(self, words: Words, names: Sequence[str]) -> str:
        """How the game ended, in the game's words (``no result`` for a replay that stops early)."""
        result = self.replay.result
        if not isinstance(result, Mapping) or not isinstance(result.get("returns"), list):
            return "no result: the replay stops before the end"
        info = result.get("info")
        if not isinstance(info, Mapping):  # replays before the result kept them: ask the final state
            last = self.states[-1] if self.states and len(self.states) == self.plies + 1 else None
            info = last.result_info() if last is not None and last.is_terminal() else {}
        try:
            outcome = Outcome.from_json(result)
        except (TypeError, ValueError, KeyError):
            return "the replay's result cannot be read"
        return describe(words, Ending(outcome, tuple(names), info))

    def _first_ply(self) -> int:
        """Plies played before the first stored one, as the board counts them (its ``data-ply``)."""
        if self.game is None or not self.states or not has_renderer(self.game.name):
            return 0
        found = re.search(r'data-ply="(\d+)"', self.frame(0))
        return int(found.group(1)) if found else 0


def view_of(replay: Replay, game: Game[Any] | None = None) -> ReplayView:
    """Rebuild every position of ``replay`` with the engine, as far as the engine agrees with it
    (``game``: the replay's game, already built; by default the header's, with ``make``)."""
    positions = replay_positions(replay, game)
    return ReplayView(replay, positions.game, positions.states, positions.actions, positions.problem)


class HeaderRefused(GridArenaError):
    """A replay whose header names a game the request-safe constructor refuses (a file on the disk, ...)."""


def request_game(header: Mapping[str, JSON]) -> Game[Any]:
    """The game of a replay's header, built only through the registry's request-safe constructor, as
    if a request had named it: a header that names a file on the server is refused, never followed.

    >>> request_game({"game": "isolation", "options": {"width": 5, "height": 5}}).params["width"]
    5
    """
    name, options = header.get("game"), header.get("options") or {}
    try:
        if not isinstance(name, str) or not isinstance(options, Mapping):
            raise GridArenaError('the header needs "game" (a spec) and "options" (an object)')
        base, params = parse_spec(name)
        return make_for_request(base, **{**params, **options})
    except (GridArenaError, RecursionError, MemoryError, ValueError, TypeError) as exc:
        raise HeaderRefused(f"the replay's game cannot be rebuilt here: {exc}") from None


def finite_replay(replay: Replay) -> Replay:
    """``replay`` with every NaN and infinity (which JSON has not, though Python's reader takes them) as null.

    >>> finite_replay(Replay({"x": float("nan")}, [{"wall_ms": float("inf")}])).to_json()
    {'header': {'x': None}, 'turns': [{'wall_ms': None}], 'result': None}
    """
    text = json.dumps(replay.to_json())  # writes NaN and Infinity as bare words, which parse_constant maps
    data = json.loads(text, parse_constant=lambda _: None)
    return Replay(data["header"], data["turns"], data["result"])


def approx_bytes(value: object, seen: set[int], depth: int = 8) -> int:
    """Memory held by ``value`` and what it refers to (containers, slots, attributes), ``depth`` levels
    down; objects in ``seen`` are not counted again (so a game shared by every position counts once)."""
    if id(value) in seen or depth < 0:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, str | bytes | int | float):
        return size
    if isinstance(value, Mapping):
        parts: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple | set | frozenset):
        parts = list(value)
    else:
        names = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
        parts = [getattr(value, n, None) for n in names] + list(getattr(value, "__dict__", {}).values())
    return size + sum(approx_bytes(part, seen, depth - 1) for part in parts)


def _sample(items: list[Any]) -> list[Any]:
    step = max(1, len(items) // SAMPLED)
    return items[::step][:SAMPLED]


def view_bytes(view: ReplayView) -> int:
    """An estimate of the memory ``view`` holds: measured on a sample of its positions and turns."""
    total = 0
    for items in (view.states, view.replay.turns, view.actions):
        sample = _sample(items)
        if sample:
            seen: set[int] = set()
            total += sum(approx_bytes(item, seen) for item in sample) * len(items) // len(sample)
    return total + approx_bytes(view.replay.header, set())


class ViewCache:
    """Rebuilt replays kept within an estimated byte budget, one version per file (a game in progress
    rewrites its replay at every ply: its new version replaces the old one), least recently used out first.
    A view larger than the whole budget is built for its request and not kept."""

    def __init__(self, budget: int = VIEW_CACHE_BYTES) -> None:
        self.budget = budget
        self.held = 0
        self._views: OrderedDict[str, tuple[tuple[int, int], ReplayView, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, path: Path, build: Callable[[Path], ReplayView]) -> ReplayView:
        """The view of the file at ``path``, rebuilt with ``build`` only when the file changed."""
        stat = os.stat(path)
        version, key = (stat.st_mtime_ns, stat.st_size), str(path)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None and kept[0] == version:
                self._views.move_to_end(key)
                return kept[1]
        view = build(path)
        size = view_bytes(view)
        with self._lock:
            old = self._views.pop(key, None)
            self.held -= old[2] if old else 0
            if size <= self.budget:
                self._views[key] = (version, view, size)
                self.held += size
            while self.held > self.budget:
                _, (_, _, dropped) = self._views.popitem(last=False)
                self.held -= dropped
        return view


def text_svg(text: str, game: str, ply: int) -> str:
    """A position's text as an SVG picture: the frame of a game that has no renderer.

    >>> 'data-ply="3"' in text_svg("a\\nb", "toy", 3)
    True
    """
    lines = text.splitlines() or [""]
    width = 16 + 9 * max(len(line) for line in lines)
    height = 16 + 18 * len(lines)
    spans = "".join(
        f'<tspan x="8" dy="{18 if i else 14}">{escape(line) or " "}</tspan>' for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board text-board" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" data-game={quoteattr(game)} data-ply="{ply}" '
        f"data-text={quoteattr(text)}>"
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
        f'<text y="0" font-family="monospace" font-size="15" xml:space="preserve">{spans}</text></svg>'
    )


def move_limit_ms(control: JSON) -> float | None:
    """The per-move limit in milliseconds of a ``--time`` text (None for other controls or none).

    >>> move_limit_ms("150ms"), move_limit_ms("total:300"), move_limit_ms(None)
    (150.0, None, None)
    """
    if control is None:
        return None
    try:
        spec = TimeSpec.parse(str(control))
    except TimeSpecError:
        return None
    return spec.per_move * 1000.0 if spec.kind == "move" else None


def player_names(header: Mapping[str, JSON]) -> list[str]:
    """The players' names by seat, as the replay's header recorded them."""
    players = header.get("players") or []
    if not isinstance(players, list):
        return []
    return [str(p.get("name")) for p in players if isinstance(p, Mapping)]


def _options(header: Mapping[str, JSON]) -> dict[str, JSON]:
    found = header.get("options")
    return dict(found) if isinstance(found, Mapping) else {}


def header_summary(header: Mapping[str, JSON]) -> str:
    """One line naming the game and its players, for page titles."""
    return f"{header.get('game')}: {' vs '.join(player_names(header))}"
