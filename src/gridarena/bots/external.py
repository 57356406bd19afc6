"""External bots: a program in any language plays over ``jsonl`` (docs/arena.md) or ``codingame``.

One JSON object per line each way, on the program's stdin and stdout:

====================================================================  ===========================================
arena sends                                                           program answers
====================================================================  ===========================================
``{"type": "start", "game", "options", "seat", "seed", "time_control"}``  ``{"type": "ready", "name": "..."}``
``{"type": "ping"}``                                                  ``{"type": "pong"}``
``{"type": "turn", "state", "legal", "player", "ply", "time_left_ms"}``   ``{"action": "d4", "info": {...}}``
``{"type": "end", "result"}``                                         nothing; the program exits
====================================================================  ===========================================

``state`` is the game's JSON form, ``legal`` the legal actions as text (for a game that cannot list
them, the bounded selection its state offers, :class:`~gridarena.core.types.OffersLegalTexts`), ``time_left_ms`` the time until the bot's deadline (``null`` when untimed). stderr is the
bot's own log; its last 2 KiB go into the detail of a forfeit.

``protocol=codingame`` speaks the original text of a CodinGame game instead, for games whose states
offer ``codingame_init(player)`` (the initial input, sent once before the first turn) and
``codingame_turn(player)`` (the turn's input): there is no handshake and no end message; each turn the
arena writes the text and reads exactly **one** line, the whole answer, which the game parses with
``string_to_action`` (an unreadable line is a ``protocol`` forfeit: the player loses, as on CodinGame).
Extra lines stay in the pipe and answer the following turns, as they do on CodinGame. What the program
writes to stderr during a turn goes into that turn's ``info`` (``stderr``, its last 2 KiB), so replays
keep it; the 1000 ms / 50 ms limits are the game clock's (``--time 1/0.05``).

The program runs under a keeper (:mod:`gridarena.bots.program`): when it exits, is closed or
forfeits, every process it started is killed and reaped, including those that left its process
group. Reading is non-blocking with a deadline, so a hung bot cannot hang the arena: a timeout, a
crash (exit or closed output), a protocol error (unparsable output, a failed handshake, a line longer
than :data:`MAX_LINE` bytes, found as it is read) forfeits the game with that reason. stderr is read
as it comes and only its last :data:`~gridarena.bots.program.STDERR_TAIL` bytes are kept.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from gridarena.bots.program import Program
from gridarena.core.bot import BotForfeit, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.numbers import JsonLimitError, load_json
from gridarena.core.types import JSON, Game, GameState, Outcome, Player, legal_texts

STARTUP_TIMEOUT: Final = 10.0
"""Seconds a program may take to answer ``start`` (untimed, like Pentocity's ``init()``)."""

UNTIMED_TIMEOUT: Final = 60.0
"""Seconds the arena waits for an answer in an untimed game before it gives up on the bot."""

MAX_LINE: Final = 1 << 20
"""Bytes of one line a program may write (an answer, a handshake reply): a longer one is a ``protocol``
forfeit as soon as that many bytes have come without a newline, timed game or not."""

MAX_NESTING: Final = 16
"""Levels of nesting an answer may have (``{"action": ..., "info": {...}}`` needs two): a deeper one is a
``protocol`` forfeit, as is an integer of more than 4,300 digits."""

MAX_INFO: Final = 4096
"""Bytes of an answer's ``info`` that go into the replay; a larger one is replaced by a note."""

PROTOCOLS: Final = ("jsonl", "codingame")
"""The languages an external program may speak: gridarena's JSON lines, or a CodinGame game's own text."""


class ExternalBot:
    """A bot that is a separate program speaking ``jsonl``; a fresh process per game."""

    def __init__(
        self,
        cmd: str | Sequence[str],
        *,
        name: str = "external",
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        timeout: float = UNTIMED_TIMEOUT,
        time_control: str | None = None,
        protocol: str = "jsonl",
    ) -> None:
        self.argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        if not self.argv:
            raise SpecError("external bot: cmd is empty; give the program, e.g. cmd='python3 bot.py'")
        if protocol not in PROTOCOLS:
            raise SpecError(
                f"external bot protocol {protocol!r} is not supported; use one of {', '.join(PROTOCOLS)}"
            )
        self.protocol = protocol
        self.name, self.cwd, self.env = name, cwd, dict(env) if env else None
        self.startup_timeout, self.timeout, self.time_control = startup_timeout, timeout, time_control
        self.program: Program | None = None
        self.latency_ms: list[float] = []
        self.last_move_cpu: float | None = None
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no newline
        self._failure: BotForfeit | None = None
        self._turns = 0  # answers read in this game (codingame: the first turn also gets the initial input)
        self._stderr_seen = 0  # bytes of stderr already handed out in a turn's info

    # -- process management ---------------------------------------------------------------------

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The program's keeper, whose exit code is the program's (None when no program runs)."""
        return None if self.program is None else self.program.process

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        """Start a fresh process and do the handshake; a failure is kept and forfeits the first move."""
        self.close()
        self._failure = None
        self._turns = self._stderr_seen = 0
        try:
            self.program = Program(
                self.argv, cwd=self.cwd, env=self.env, startup_timeout=self.startup_timeout
            )
        except BotForfeit as failure:
            self._failure = failure
            return
        if self.protocol == "codingame":
            return  # no handshake: the first turn's input is the first thing the program reads
        start = {
            "type": "start",
            "game": game.name,
            "options": dict(game.params),
            "seat": seat,
            "seed": seed,
            "time_control": self.time_control,
        }
        try:
            reply = self._request(start, time.perf_counter() + self.startup_timeout, "start-up")
            if reply.get("type") != "ready":
                raise self._fail("protocol", f"expected a ready message at start-up, got {reply!r}")
            self._measure_latency()
        except BotForfeit as failure:
            self._failure = failure

    def _measure_latency(self, pings: int = 3) -> None:
        for _ in range(pings):
            sent = time.perf_counter()
            reply = self._request({"type": "ping"}, sent + self.startup_timeout, "ping")
            if reply.get("type") != "pong":
                raise self._fail("protocol", f"expected pong, got {reply!r}")
            self.latency_ms.append((time.perf_counter() - sent) * 1000.0)

    def stderr_tail(self) -> str:
        """The last 2 KiB the program wrote to stderr."""
        if self.program is None:
            return ""
        return self.program.stderr.tail().decode("utf-8", "replace").strip()

    def _new_stderr(self) -> str:
        """What the program wrote to stderr since the last call (its last 2 KiB)."""
        if self.program is None:
            return ""
        data, self._stderr_seen = self.program.stderr.since(self._stderr_seen)
        return data.decode("utf-8", "replace")

    def _kill(self) -> None:
        if self.program is not None:
            self.program.kill()

    def _fail(self, termination: str, detail: str) -> BotForfeit:
        """Kill the program and describe why, with the tail of its stderr."""
        self._kill()
        tail = self.stderr_tail()
        return BotForfeit(termination, f"{detail}; stderr: {tail}" if tail else detail)

    def close(self) -> None:
        """Kill every process of the program if any still runs, and release the pipes."""
        self._kill()
        self.program = None
        self._buffer = bytearray()
        self._scanned = 0

    def end(self, outcome: Outcome) -> None:
        """Tell the program the result, give it a moment to exit, then clean up."""
        program = self.program
        if self.protocol == "codingame":  # CodinGame stops the program without a word
            self.close()
            return
        if program is not None and program.process.poll() is None:
            try:
                self._send({"type": "end", "result": outcome.to_json()}, time.perf_counter() + 0.5, "end")
                program.exit_code(timeout=0.5)
            except BotForfeit:
                pass
        self.close()

    # -- the protocol -----------------------------------------------------------------------------

    def _send(self, message: Mapping[str, JSON], deadline: float, what: str) -> None:
        """Write one JSON line before ``deadline``."""
        self._write(json.dumps(message, separators=(",", ":")).encode() + b"\n", deadline, what)

    def _write(self, data: bytes, deadline: float, what: str) -> None:
        """Write ``data`` before ``deadline``: a program that stops reading cannot block the arena."""
        program = self.program
        assert program is not None
        fd = program.stdin
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise self._fail(
                        "timeout", f"the program stopped reading its input during {what}; killed"
                    )
                if not selector.select(left):
                    continue
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    continue
                except OSError:  # a program that closed its input has usually exited: name its exit code
                    raise self._fail("crash", self._gone("input", program, what)) from None

    def _readline(self, deadline: float, what: str) -> bytes:
        """One line (without its newline) before ``deadline``, at most :data:`MAX_LINE` bytes long."""
        program = self.program
        assert program is not None
        with selectors.DefaultSelector() as selector:
            selector.register(program.stdout, selectors.EVENT_READ)
            while (end := self._buffer.find(b"\n", self._scanned)) < 0:
                self._scanned = len(self._buffer)
                if self._scanned > MAX_LINE:
                    raise self._fail("protocol", f"a line longer than {MAX_LINE} bytes during {what}")
                left = deadline - time.perf_counter()
                if left <= 0 or not selector.select(left):
                    if time.perf_counter() < deadline:
                        continue
                    raise self._fail("timeout", f"no answer to {what} in time; killed")
                chunk = os.read(program.stdout, 65536)
                if not chunk:
                    raise self._fail("crash", self._gone("output", program, what))
                self._buffer += chunk
        if end > MAX_LINE:
            raise self._fail("protocol", f"a line longer than {MAX_LINE} bytes during {what}")
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        self._scanned = 0
        return line

    @staticmethod
    def _gone(pipe: str, program: Program, what: str) -> str:
        """What happened to a program whose ``pipe`` (input or output) closed during ``what``: it exited
        (its code; negative: the signal that killed it), or it closed the pipe and runs on."""
        code = program.exit_code(timeout=1.0)
        if code is None:
            return f"the program closed its {pipe} during {what} (still running)"
        return f"the program exited during {what} (exit code {code})"

    def _request(self, message: Mapping[str, JSON], deadline: float, what: str) -> dict[str, JSON]:
        self._send(message, deadline, what)
        line = self._readline(deadline, what)
        try:
            # Bounded like a file: an integer's digits, the nesting (NaN and the infinities kept as text).
            reply = load_json(line, max_depth=MAX_NESTING, constants=True)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            why = f"{exc}: " if isinstance(exc, JsonLimitError) else ""
            raise self._fail("protocol", f"unparsable output during {what}: {why}{line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise self._fail("protocol", f"expected a JSON object during {what}, got {line[:200]!r}")
        return reply

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Send the turn and read one action before the referee's hard deadline."""
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        if self.program is None:
            raise BotForfeit("crash", "the program is not running")
        hard = getattr(clock, "hard_deadline", None)
        now = time.perf_counter()
        deadline = hard if hard is not None else now + self.timeout
        if self.protocol == "codingame":
            return self._act_codingame(state, deadline)
        left = clock.time_left()
        latency = statistics.median(self.latency_ms) if self.latency_ms else 0.0
        turn = {
            "type": "turn",
            "state": state.to_json(),
            "legal": legal_texts(state),
            "player": state.current_player(),
            "time_left_ms": None if left == float("inf") else max(0.0, left * 1000.0 - latency),
        }
        assert self.program is not None
        cpu0 = self.program.cpu_seconds()
        reply = self._request(turn, deadline, "a turn")
        cpu1 = self.program.cpu_seconds()
        self.last_move_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
        action = reply.get("action")
        if not isinstance(action, str):
            raise self._fail("protocol", f"expected {{'action': text}}, got {json.dumps(reply)[:200]}")
        info = reply.get("info")
        if not isinstance(info, dict):
            info = {}
        elif len(encoded := json.dumps(info)) > MAX_INFO:  # kept in every replay: a bot cannot flood them
            info = {"info_dropped": f"{len(encoded)} bytes, more than {MAX_INFO}"}
        return Decision(action, info)

    def _act_codingame(self, state: GameState[Any], deadline: float) -> Decision:
        """One CodinGame turn: write the input (the initial input first), read one line, keep stderr."""
        player = state.current_player()
        try:
            text = state.codingame_turn(player)  # type: ignore[attr-defined]
            if self._turns == 0:
                text = state.codingame_init(player) + text  # type: ignore[attr-defined]
        except AttributeError:
            raise SpecError(
                f"external bot protocol codingame: {state.game.name} has no CodinGame input "
                "(codingame_init/codingame_turn); use protocol=jsonl"
            ) from None
        assert self.program is not None
        cpu0 = self.program.cpu_seconds()
        self._write(text.encode(), deadline, "a turn")
        line = self._readline(deadline, "a turn")
        cpu1 = self.program.cpu_seconds()
        self.last_move_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
        self._turns += 1
        # Java's readLine ends a line at "\n" or "\r\n"; the game's parser gets the rest untouched.
        answer = line[:-1] if line.endswith(b"\r") else line
        stderr = self._new_stderr()
        return Decision(answer.decode("utf-8", "replace"), {"stderr": stderr} if stderr else {})


def make_external_bot(
    game: Game[Any],
    seed: int | None = None,
    *,
    cmd: str | Sequence[str],
    protocol: str = "jsonl",
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    startup_timeout: float = STARTUP_TIMEOUT,
    timeout: float = UNTIMED_TIMEOUT,
) -> ExternalBot:
    """Registry factory: ``external(cmd='python3 bot.py',protocol=jsonl,name=mine)`` (the registry sets the name).

    ``protocol=codingame`` plays a game that offers CodinGame text hooks over its original stdin/stdout.
    """
    return ExternalBot(
        cmd, cwd=cwd, env=env, startup_timeout=startup_timeout, timeout=timeout, protocol=protocol
    )
