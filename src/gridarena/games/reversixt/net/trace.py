"""Reference-server logs: read them and replay them move by move against the clear rules.

The reference server (server_nogl) prints a complete game as text: the
initial board, then for every move the mover's counts, the request, the answer and the board after
it, with the next player's valid moves marked by an apostrophe; the phase change ("Terminal state
reached.") and two score blocks. The RWTH tournament server prints the same lines with plainer
boards (``Board:`` and one symbol string per row, no marks). Both are read
here into :class:`Event` records, and :func:`verify` replays them: after every move it compares the
board, the next player and his override and bomb counts, his valid moves (where marked), the phase
and the scores, and stops at the first divergence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gridarena.core.errors import GridArenaError, IllegalActionError
from gridarena.core.files import read_bytes
from gridarena.games.reversixt.formats import CODES, SYMBOLS, ReversiMap
from gridarena.games.reversixt.net.console import board_rows, expected_marks, reference_board, reference_log
from gridarena.games.reversixt.rules import (
    PHASE_BOMBS,
    PHASE_OVER,
    PHASE_STONES,
    ReversiState,
    ReversiXT,
    wire_move,
)

__all__ = ["TraceFormatError", "parse_trace", "read_trace_text", "reference_board", "reference_log", "verify"]


class TraceFormatError(GridArenaError, ValueError):
    """A log that cannot be read, or that does not belong to the map it is checked against."""


@dataclass(frozen=True, slots=True)
class Board:
    """A board printed in the log: rows of symbols and the marked cells (None: the format has no marks)."""

    line: int
    rows: tuple[str, ...]
    marks: frozenset[tuple[int, int]] | None
    count: int | None  # "valid positions: n"


@dataclass(frozen=True, slots=True)
class Event:
    """One line (or block) of the log that the replay checks: ``kind`` and its values."""

    kind: str  # board, counts, request, answer, phase1_end, final, scores, disqualified
    line: int
    player: int = 0
    values: tuple[int, ...] = ()
    board: Board | None = None
    scores: tuple[tuple[int, int | None], ...] = ()


# Numbers of at most nine digits: a longer one leaves the line unrecognised instead of
# reaching int(), which refuses 4,301 digits with a ValueError.
_STAMP = re.compile(r"^\[\d\d:\d\d:\d\d\]\s*")
_ROW = re.compile(r"^\s*(\d{1,9}) \| ?(.*)$")
_COUNTS = re.compile(r"^Player (\d{1,9}) has (\d{1,9}) overrides and (\d{1,9}) bombs\.$")
_REQUEST = re.compile(
    r"^Sending move request to player (\d{1,9}) with depth (\d{1,9}), time left: (\d{1,9}) msecs\.$"
)
_ANSWER = re.compile(
    r"^Answer from player (\d{1,9}) for move (\d{1,9}) was \(x,y,c\) = \((\d{1,9}),(\d{1,9}),(\d{1,9})\); time left: (-?\d+) msecs\.$"
)
_SCORE = re.compile(r"^Player (\d{1,9}): (?:(\d{1,9}) points|disqualified)$")
_DISQUALIFIED = re.compile(r"^Player (\d{1,9}) (?:is |was |has been )?disqualified\b.*$", re.IGNORECASE)
_PLAYERS = re.compile(r"^This is a (\d{1,9})-player map\.$")
_VALID = re.compile(r"^valid positions: (\d{1,9})$")


def read_trace_text(path: str | Path) -> str:
    """The text of a log file (gzip allowed); a file that cannot be read is one FileReadError line."""
    data = read_bytes(path, "trace", gunzip=True)  # the project's one reading path
    return data.decode("latin-1")


def parse_trace(text: str, source: str = "<trace>") -> tuple[int | None, list[Event]]:
    """The map's player count as the log states it (or None) and the log's events in order."""
    lines = [_STAMP.sub("", raw.rstrip("\r\n")) for raw in text.split("\n")]
    players: int | None = None
    events: list[Event] = []
    n = 0
    while n < len(lines):
        line, number = lines[n], n + 1
        stripped = line.strip()
        n += 1
        if m := _PLAYERS.match(stripped):
            players = int(m.group(1))
        elif stripped == "Board:":
            rows = []
            while n < len(lines) and lines[n].strip() and all(ch in CODES for ch in lines[n].strip()):
                rows.append(lines[n].strip())
                n += 1
            events.append(Event("board", number, board=Board(number + 1, tuple(rows), None, None)))
        elif _ROW.match(line) and n >= 2 and lines[n - 2].lstrip().startswith("/"):
            board, n = _marked_board(lines, n - 1, source)
            events.append(Event("board", number, board=board))
        elif m := _COUNTS.match(stripped):
            events.append(Event("counts", number, int(m.group(1)), (int(m.group(2)), int(m.group(3)))))
        elif m := _REQUEST.match(stripped):
            events.append(Event("request", number, int(m.group(1)), (int(m.group(2)), int(m.group(3)))))
        elif m := _ANSWER.match(stripped):
            values = tuple(int(v) for v in m.group(2, 3, 4, 5))
            events.append(Event("answer", number, int(m.group(1)), values))
        elif stripped == "Terminal state reached.":
            events.append(Event("phase1_end", number))
        elif stripped == "Final state reached.":
            events.append(Event("final", number))
        elif stripped == "Scores:":
            scores = []
            while n < len(lines) and (m := _SCORE.match(lines[n].strip())):
                scores.append((int(m.group(1)), None if m.group(2) is None else int(m.group(2))))
                n += 1
            events.append(Event("scores", number, scores=tuple(scores)))
        elif m := _DISQUALIFIED.match(stripped):
            events.append(Event("disqualified", number, int(m.group(1))))
    return players, events


def _marked_board(lines: list[str], n: int, source: str) -> tuple[Board, int]:
    """A reference board block starting at row line ``n``: cells, apostrophe marks, the count line."""
    start = n
    rows: list[str] = []
    marks: set[tuple[int, int]] = set()
    while n < len(lines) and (m := _ROW.match(lines[n])):
        y, body = int(m.group(1)), m.group(2)
        if y != len(rows):
            raise TraceFormatError(f"{source}:{n + 1}: board row {y} where row {len(rows)} was expected")
        cells = []
        for x in range(0, len(body.rstrip()) + 1, 2):
            pair = body[x : x + 2]
            if not pair.strip():
                continue
            if pair[0] not in CODES or (len(pair) > 1 and pair[1] not in " '"):
                raise TraceFormatError(f"{source}:{n + 1}: {pair!r} is not a board cell")
            if pair[1:] == "'":
                marks.add((x // 2, y))
            cells.append(pair[0])
        rows.append("".join(cells))
        n += 1
    count = None
    if n < len(lines) and (m := _VALID.match(lines[n].strip())):
        count = int(m.group(1))
        n += 1
    return Board(start + 1, tuple(rows), frozenset(marks), count), n


@dataclass
class Divergence:
    """The first place where the log and the rules disagree."""

    move: int  # the move concerned, counting answers from 0 (the log's counter, bomben01's quirk aside)
    line: int
    what: str
    ours: str = ""
    theirs: str = ""
    after: bool = False  # True: the board printed after ``move`` differs; -1 with it: the initial board

    def to_text(self, source: str = "") -> str:
        """The divergence in a few lines: where, what, and both boards side by side."""
        where = f"{source}:{self.line}" if source else f"line {self.line}"
        if self.after:
            at = "the initial board" if self.move < 0 else f"after move {self.move}"
        else:
            at = f"move {self.move}"
        head = f"{at} ({where}): {self.what}"
        if not self.ours and not self.theirs:
            return head
        left, right = self.ours.splitlines(), self.theirs.splitlines()
        width = max((len(s) for s in left), default=0)
        body = [f"{'ours':<{width}}   reference"]
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            body.append(f"{a:<{width}}   {b}")
        return "\n".join([head, *body])


@dataclass
class TraceReport:
    """What a replay found: the moves checked, the phases seen, and the divergence if any."""

    moves: int = 0
    bombs: int = 0
    boards: int = 0
    final: bool = False
    divergence: Divergence | None = None
    scores: tuple[int | None, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        """True when the whole game agreed and reached its end."""
        return self.divergence is None and self.final


def _their_rows(board: Board) -> str:
    marks = board.marks or frozenset()
    return "\n".join(
        f"{y:>3} | " + "".join(ch + ("'" if (x, y) in marks else " ") for x, ch in enumerate(row))
        for y, row in enumerate(board.rows)
    )


def verify(board_map: ReversiMap, text: str, source: str = "<trace>") -> TraceReport:
    """Replay a log on ``board_map`` and compare everything it prints; stop at the first divergence.

    Raises :class:`TraceFormatError` (one line) when the log does not belong to the map at all
    (another player count or board size); every other disagreement is a :class:`Divergence`.
    """
    players, events = parse_trace(text, source)
    if players is not None and players != board_map.players:
        raise TraceFormatError(
            f"{source}: the trace is a {players}-player game but the map {board_map.name or '<map>'} "
            f"has {board_map.players} players"
        )
    boards = [e.board for e in events if e.board is not None]
    if not boards:
        raise TraceFormatError(f"{source}: no board found: not a reference-server log")
    first = boards[0]
    if len(first.rows) != board_map.height or any(len(r) != board_map.width for r in first.rows):
        size = f"{len(first.rows)}x{len(first.rows[0]) if first.rows else 0}"
        raise TraceFormatError(
            f"{source}:{first.line}: the trace's board is {size} (rows x columns) but the map "
            f"{board_map.name or '<map>'} is {board_map.height}x{board_map.width}"
        )
    return _replay(ReversiXT.from_map(board_map), events)


def _replay(game: ReversiXT, events: list[Event]) -> TraceReport:
    state = game.new_initial_state()
    report = TraceReport()
    phase_seen = PHASE_STONES
    scores_expected: str | None = None

    def diverge(event: Event, what: str, theirs: Board | None = None) -> TraceReport:
        ours = board_rows(state, expected_marks(state))
        done = report.moves + report.bombs
        report.divergence = Divergence(
            done - 1 if theirs is not None else done,
            event.line,
            what,
            ours,
            "" if theirs is None else _their_rows(theirs),
            after=theirs is not None,
        )
        return report

    for event in events:
        if event.kind == "board":
            assert event.board is not None
            report.boards += 1
            problem, row = _compare_board(state, event.board)
            if problem:
                report = diverge(event, problem, event.board)
                assert report.divergence is not None
                report.divergence.line = event.board.line + row
                return report
        elif event.kind in ("counts", "request", "answer"):
            if state.phase == PHASE_OVER:
                return diverge(event, f"the reference asks player {event.player}, but our game is over")
            if state.phase != phase_seen:
                return diverge(
                    event, f"the reference is in phase {phase_seen}, we are in phase {state.phase}"
                )
            if state.mover != event.player:
                return diverge(
                    event, f"the next player is {event.player} in the reference, {state.mover} in our rules"
                )
            k = event.player
            if event.kind == "counts":
                stock = (state.overrides[k - 1], state.bombs[k - 1])
                if stock != event.values:
                    return diverge(
                        event,
                        f"player {k} has {event.values[0]} overrides and {event.values[1]} bombs in the "
                        f"reference, {stock[0]} and {stock[1]} in our rules",
                    )
            elif event.kind == "answer":
                _, x, y, c = event.values
                move = wire_move(state, x, y, c)
                try:
                    after = state.apply_action(move)
                except IllegalActionError as e:
                    return diverge(event, f"the reference accepted ({x},{y},{c}), our rules refuse it: {e}")
                if state.phase == PHASE_BOMBS:
                    report.bombs += 1
                else:
                    report.moves += 1
                state = after
        elif event.kind == "disqualified":
            state = state.forfeit(event.player - 1, "illegal", "disqualified in the trace")
        elif event.kind == "phase1_end":
            if state.phase == PHASE_STONES:
                return diverge(event, "the reference ends phase 1, our rules do not")
            phase_seen, scores_expected = PHASE_BOMBS, "phase 1"
        elif event.kind == "final":
            if state.phase != PHASE_OVER:
                return diverge(event, f"the reference ends the game, our rules are in phase {state.phase}")
            phase_seen, scores_expected = PHASE_OVER, "final"
            report.final = True
        elif event.kind == "scores":
            if scores_expected is None:
                return diverge(event, "a score block where none was expected")
            p = game.num_players
            ours: tuple[int | None, ...]
            if scores_expected == "phase 1":
                counts = state.phase1_scores or (0,) * p
                ours = tuple(None if state.disqualified[i] else s for i, s in enumerate(counts))
            else:
                ours = state.scores()
            theirs: list[int | None] = [None] * p
            for k, s in event.scores:
                if 1 <= k <= p:
                    theirs[k - 1] = s
            if tuple(theirs) != ours:
                return diverge(
                    event, f"{scores_expected} scores {tuple(theirs)} in the reference, {ours} in ours"
                )
            report.scores = ours
            scores_expected = None
    if not report.final and report.divergence is None:
        if state.phase != PHASE_OVER:
            report.divergence = Divergence(
                report.moves + report.bombs,
                events[-1].line if events else 0,
                f"the trace ends before the game does (our rules are in phase {state.phase})",
            )
        else:
            report.divergence = Divergence(
                report.moves + report.bombs, events[-1].line if events else 0, "the trace has no final state"
            )
    return report


def _compare_board(state: ReversiState, board: Board) -> tuple[str, int]:
    """What differs between our state and a printed board ("" when nothing), and in which row."""
    m = state.game.board
    if len(board.rows) != m.height:
        return f"the reference prints a board of {len(board.rows)} rows, the map has {m.height}", 0
    for y, row in enumerate(board.rows):
        if len(row) != m.width:
            return f"row {y} of the reference's board has {len(row)} cells, the map has {m.width} columns", y
    cells = "".join(board.rows)
    for i, ch in enumerate(cells):
        if SYMBOLS[state.cells[i]] != ch:
            x, y = m.xy(i)
            return f"cell ({x},{y}) is {ch!r} in the reference, {SYMBOLS[state.cells[i]]!r} in our rules", y
    if board.marks is not None:
        ours = expected_marks(state)
        if ours != board.marks:
            extra = sorted(ours - board.marks)
            missing = sorted(board.marks - ours)
            first = min(extra + missing, key=lambda xy: (xy[1], xy[0]))
            return (
                f"valid moves of player {state.mover} differ: only in ours {extra}, only in the reference {missing}",
                first[1],
            )
        if board.count is not None and board.count != len(ours):
            return f"the reference counts {board.count} valid positions, we find {len(ours)}", len(board.rows)
    return "", 0


def iter_trace_files(folder: Path) -> Iterator[Path]:
    """The golden traces of a folder, sorted."""
    yield from sorted(folder.glob("*.server.log.gz"))
