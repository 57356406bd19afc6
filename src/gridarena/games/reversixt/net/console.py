"""The reference server's console output, written: its lines for our server's ``--trace``
and for :func:`reference_log`. :mod:`gridarena.games.reversixt.net.trace` reads them back and replays them.

Lines come without their time stamp; the writer puts ``[HH:MM:SS] `` before the ones the reference
stamps (:data:`STAMPED`).

>>> from gridarena.games.reversixt.rules import ReversiXT
>>> state = ReversiXT("othello8").new_initial_state()
>>> request_lines(state, depth=1, offered_ms=2000)[1]
'Sending move request to player 1 with depth 1, time left: 2000 msecs.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gridarena.games.reversixt.formats import SYMBOLS, Move
from gridarena.games.reversixt.rules import PHASE_STONES, ReversiState, ReversiXT

SKIPPED_FIRST: Final = "First player can not do first move... Oh well, skipping him."
BOMBING_ONLY: Final = "Bombing-only map..."


def board_rows(
    state: ReversiState, marks: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()
) -> str:
    """Our board in the log's style: a symbol and a mark (``'``) or blank per cell, one row a line."""
    m = state.game.board
    out = []
    for y in range(m.height):
        cells = state.cells[y * m.width : (y + 1) * m.width]
        out.append(
            f"{y:>3} | "
            + "".join(SYMBOLS[c] + ("'" if (x, y) in marks else " ") for x, c in enumerate(cells))
        )
    return "\n".join(out)


def expected_marks(state: ReversiState) -> frozenset[tuple[int, int]]:
    """The cells the reference server marks: valid phase-1 moves of the next player (none in phase 2)."""
    if state.phase != PHASE_STONES:
        return frozenset()
    m = state.game.board
    return frozenset(m.xy(i) for i in state.valid_cells())


def reference_board(state: ReversiState) -> list[str]:
    """A board block as the reference server prints it, marks and count included."""
    m = state.game.board
    marks = expected_marks(state)
    lines = ["     " + "".join(f"{x:2d}" for x in range(m.width)), "    /" + "--" * m.width]
    lines += board_rows(state, marks).splitlines()  # each cell ends with its blank or mark, as there
    lines.append(f"valid positions: {len(marks)}")
    return lines


def opening_lines(state: ReversiState) -> tuple[list[str], int]:
    """The (stamped) lines after "Game started." for the start ``state``, and the first move's number.

    When the first player is skipped at the start, the reference says so and counts moves from 1.
    """
    if state.phase != PHASE_STONES:
        return [SKIPPED_FIRST, BOMBING_ONLY], 1
    if state.current_player() != 0:
        return [SKIPPED_FIRST], 1
    return [], 0


def request_lines(state: ReversiState, depth: int, offered_ms: int) -> tuple[str, str]:
    """The two (stamped) lines before a move request to the player to move."""
    k = state.mover
    return (
        f"Player {k} has {state.overrides[k - 1]} overrides and {state.bombs[k - 1]} bombs.",
        f"Sending move request to player {k} with depth {depth}, time left: {offered_ms} msecs.",
    )


def answer_line(player: int, number: int, move: Move, left_ms: int) -> str:
    """The (stamped) line of an accepted answer; ``number`` counts the game's moves.

    >>> answer_line(2, 7, Move(3, 4, 0), 812)
    'Answer from player 2 for move 7 was (x,y,c) = (3,4,0); time left: 812 msecs.'
    """
    return (
        f"Answer from player {player} for move {number} was (x,y,c) = ({move.x},{move.y},{move.special}); "
        f"time left: {left_ms} msecs."
    )


def disqualified_line(player: int, status: str, detail: str) -> str:
    """The (stamped) line of a disqualification: the result file's status word and why."""
    return f"Player {player} disqualified ({status}): {detail}"


def score_lines(state: ReversiState) -> list[str]:
    """``Scores:`` and one line per player (``disqualified`` for a disqualified one)."""
    lines = ["Scores:"]
    for k, score in enumerate(state.scores(), start=1):
        lines.append(f"Player {k}: disqualified" if score is None else f"Player {k}: {score} points")
    return lines


def reference_log(game: ReversiXT, moves: Sequence[Move], name: str = "") -> str:
    """The reference server's console output of a game played with ``moves`` (the writer twin of
    :func:`~gridarena.games.reversixt.net.trace.parse_trace`): what ``verify`` reads. Time stamps, ports
    and group ids are fixed dummies.
    """
    stamp = "[00:00:00] "
    state = game.new_initial_state()
    out = [
        "Starting Server.",
        f'Loading board from file "maps/{name or game.board.name or "map"}.map"... OK',
        f"This is a {game.num_players}-player map.",
        stamp + "Game started.",
    ]
    opening, first = opening_lines(state)
    out += [stamp + line for line in opening]
    out += reference_board(state)
    ended1 = False
    for n, move in enumerate(moves, start=first):
        if state.phase != PHASE_STONES and not ended1:
            out += [stamp + "Terminal state reached.", "", *score_lines(state)]
            ended1 = True
        k = state.mover
        out += [stamp + line for line in request_lines(state, 2, 0)]
        out.append(stamp + answer_line(k, n, move, 0))
        state = state.apply_action(move)
        out += reference_board(state)
    if not ended1 and state.phase1_scores is not None:
        out += [stamp + "Terminal state reached.", "", *score_lines(state)]
    if state.is_terminal():
        out += [stamp + "Final state reached.", "", *score_lines(state), "bye bye."]
    return "\n".join(out) + "\n"
