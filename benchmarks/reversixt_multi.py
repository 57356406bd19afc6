"""ReversiXT with 3 to 8 players: a candidate against mixed fields on every multi-player competition map.

For a map of p players the games come in blocks of p: one random opening (``--plies`` plies), the
candidate and p - 1 opponents from ``--field`` (cycled over the blocks so that every opponent plays
equally often; repeated, under names ``trivial-2``, ..., when the field has fewer than p - 1), and
the p games of a block rotate the seats cyclically, so each bot plays every seat once. Budgets as in
``reversixt.py``'s sparring: ``best#0.05s`` CPU seconds of the thread a move, ``#N`` nodes (playouts
for mcts), ``#dN`` plies, ``#aX`` an account on the CPU clock that carries over.

``--server SECONDS`` plays the same fields on our server instead, each seat a real client process on
the wall clock (the reference server's account, SECONDS a move, depth 0); a field entry
``cmd:PROGRAM ARGS`` with ``{port}`` joins as another program, e.g. the course's reference AI,
``'cmd:/work/ext/rxt-ref/ai_trivial -q -s 127.0.0.1:{port}'`` (named ``ai_trivial``). There a late
answer, an illegal move or a broken connection disqualifies (ranked last).

Per map and bot the table gives the games, the first places (a shared first counts for each), their
share of the bot's games, and the mean rank with a 95 % interval; for the candidate also the margin:
the mean rank of the other seats of a game minus the candidate's, averaged over games, with its
interval; and per map, from the games that recorded the stone counts when phase 1 ended, how often
the leader then finished first (what the bombs changed). Intervals are percentile bootstrap
intervals over games (each game's value resampled with replacement, 10,000 resamples, a fixed seed):
the p games of a block share an opening, but each puts every bot in another seat among other
neighbours, and a run has too few blocks (2-8) to resample them whole. The verdict line: does the
candidate take a larger share of first places than every other bot, and is the margin's interval
above 0 (the mean rank better than the field's by more than its interval)?

    python benchmarks/reversixt_multi.py --candidate 'best#0.05s' \\
        --field 'best_v1,paranoid,brs,mcts,trivial' --blocks 4 [--maps NAME,...] [--out games.jsonl]

``--out`` keeps every game as a line of JSON, with the candidate and the seed; run again with the
same file, candidate and seed and the games in it are not played again (a long run survives a
restart), and ``--report`` prints the tables of the candidate's games in it alone (files of several
runs may be joined with ``cat``; a file with no game of the candidate is one line naming those it has).
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import reversixt_base
from reversixt import SHARED, Player, net_game, opening, seated

from gridarena.games.reversixt.rules import ReversiXT

#: Every competition map of 3 to 8 players in the shared data: (name, players, path below ``SHARED``).
#: There is no 3-player map named "comp"; ``2012_Map_fuenf`` is the 3-player map of the course's
#: competition folder (``fightclub``).
MAPS_MULTI: tuple[tuple[str, int, str], ...] = (
    ("2012_Map_fuenf", 3, "semmelsamu-reversixt-bot/maps/fightclub/2012_Map_fuenf.map"),
    ("comp2020_02_4p", 4, "semmelsamu-reversixt-bot/maps/fightclub/comp2020_02_4p.map"),
    ("2019_comp_07_4p", 4, "semmelsamu-reversixt-bot/maps/fightclub/2019_comp_07_4p.map"),
    ("2014_comp_1_4p", 4, "semmelsamu-reversixt-bot/maps/fightclub/2014_comp_1_4p.map"),
    ("2023_comp_5_4p", 4, "olekuhlmann-Advanced-Reversi-AI/2023_comp_5_4p.map"),
    ("comp2024_04_4p", 4, "semmelsamu-reversixt-bot/compMaps/comp2024_04_4p.map"),
    ("2023_comp_5_8p", 8, "olekuhlmann-Advanced-Reversi-AI/2023_comp_5_8p.map"),
    ("comp2024_04_8p", 8, "semmelsamu-reversixt-bot/compMaps/comp2024_04_8p.map"),
    (
        "rwth-2020_comp_07_8p",
        8,
        "semmelsamu-reversixt-bot/maps/matchpoint/frequentlyPlayed/rwth-2020_comp_07_8p.map",
    ),
)
RESAMPLES = 10_000


@dataclass(frozen=True)
class Entrant:
    """A seat's bot: its label in the tables, and either an in-process bot (``player``) or, on the
    server, a client command (``command``: ``cmd:...`` or a bot spec for our client)."""

    label: str
    player: Player


def label_of(spec: str) -> str:
    """A short name: ``cmd:/x/ai_trivial -q ...`` is ``ai_trivial``; a bot spec is itself."""
    if spec.startswith("cmd:"):
        return Path(shlex.split(spec[4:])[0]).name
    return spec


def field_for(candidate: Player, others: Sequence[Player], players: int, block: int) -> list[Entrant]:
    """The block's seats before rotation: the candidate, then ``players - 1`` of ``others`` taken in
    turn from where the previous block stopped (so each plays equally often); repeats get ``-2``, ``-3``."""
    need = players - 1
    chosen = [others[(block * need + j) % len(others)] for j in range(need)]
    seen: dict[str, int] = {}
    out = [Entrant(label_of(candidate.spec), candidate)]
    for p in chosen:
        base = label_of(p.spec)
        seen[base] = seen.get(base, 0) + 1
        out.append(Entrant(base if seen[base] == 1 else f"{base}-{seen[base]}", p))
    return out


@dataclass(frozen=True)
class GameRow:
    """One played game: the map, block and rotation, the seats' labels in seat order, their scores,
    ranks and statuses (``ok``, or why the seat was disqualified), the seconds it took, and the stone
    counts when phase 1 ended, before the bombs (None where not known: a game on the server, a file of
    an older run); the candidate's label and the run's ``--seed`` (None in a file of an older run)."""

    map: str
    block: int
    rotation: int
    labels: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    statuses: tuple[str, ...]
    seconds: float
    phase1: tuple[int, ...] | None = None
    candidate: str | None = None
    seed: int | None = None

    def of(self, candidate: str, seed: int) -> bool:
        """Whether this is a game of ``candidate``'s run with ``seed`` (one the run need not play again).
        A row of an older file names neither: its seed is unknown, so it is played again."""
        return self.candidate == candidate and self.seed == seed

    def played_by(self, candidate: str) -> bool:
        """Whether ``candidate`` was this game's candidate (in a file of an older run, which does not
        say: whether it played in it)."""
        return self.candidate == candidate if self.candidate is not None else candidate in self.labels


def ranks_of(scores: Sequence[int], statuses: Sequence[str]) -> tuple[int, ...]:
    """Ranks as the rules give them: higher score first, ties share the better rank, disqualified last."""
    key = [s if ok == "ok" else -1 for s, ok in zip(scores, statuses, strict=True)]
    return tuple(1 + sum(1 for other in key if other > mine) for mine in key)


def play_local(
    game: ReversiXT, seats: Sequence[Entrant], moves: Sequence[Any], seed: int
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...] | None]:
    """One game in this process after the opening ``moves``: the scores, statuses and phase-1 stone
    counts by seat. On an account (``aX``) an answer after the account is spent disqualifies the seat
    (the game goes on)."""
    bots, state = seated(game, [e.player for e in seats], moves, seed)
    accounts = [0.0] * len(seats)
    while not state.is_terminal():
        seat = state.current_player()
        player = seats[seat].player
        accounts[seat] += player.increment or 0.0
        start = time.thread_time()
        decision = bots[seat].act(state, player.clock(accounts[seat]))
        accounts[seat] -= time.thread_time() - start
        if player.increment is not None and accounts[seat] < 0:
            state = state.forfeit(seat, "timeout", "time account spent")
            continue
        state = state.apply_action(decision.action)
    statuses = tuple("ok" if d is None else str(d) for d in state.disqualified)
    phase1 = None if state.phase1_scores is None else tuple(state.phase1_scores)
    return tuple(int(s) for s in state.scores()), statuses, phase1


def play_server(
    path: Path, seats: Sequence[Entrant], seconds: float, workdir: Path
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """One game on our server (:func:`reversixt.net_game`): each seat a client process, player 1 first."""
    commands = tuple(e.player.spec for e in seats)
    played = net_game(path, commands, seconds, workdir)
    return played.scores, played.statuses


def schedule(
    maps: Iterable[tuple[str, int, Path]], candidate: Player, others: Sequence[Player], blocks: int, seed: int
) -> list[tuple[str, int, Path, int, int, list[Entrant]]]:
    """Every game to play, block by block and map by map (round robin, so a cut-off run covers every
    map): (map, players, path, block, rotation, seats in seat order)."""
    games = []
    listed = list(maps)
    for block in range(blocks):
        for name, players, path in listed:
            field = field_for(candidate, others, players, block)
            for rotation in range(players):
                seats = field[-rotation:] + field[:-rotation] if rotation else list(field)
                games.append((name, players, path, block, rotation, seats))
    return games


def run(
    maps: list[tuple[str, int, Path]], candidate: Player, others: Sequence[Player], blocks: int, plies: int,
    seed: int, server: float | None, out: Path | None,
) -> list[GameRow]:  # fmt: skip
    """Play the schedule (skipping the games of this candidate and seed already in ``out``) and return
    every game's row, those of ``out`` included (other candidates' too: :func:`report` picks)."""
    rows: list[GameRow] = []
    done: set[tuple[str, int, int]] = set()
    label = label_of(candidate.spec)
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                data = json.loads(line)
                row = GameRow(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})
                rows.append(row)
                if row.of(label, seed):
                    done.add((row.map, row.block, row.rotation))
    with tempfile.TemporaryDirectory() as workdir:
        for name, _, path, block, rotation, seats in schedule(maps, candidate, others, blocks, seed):
            if (name, block, rotation) in done:
                continue
            start = time.perf_counter()
            game_seed = seed * 100_000 + block
            if server is None:
                game = ReversiXT(str(path))
                scores, statuses, phase1 = play_local(game, seats, opening(game, plies, game_seed), game_seed)
            else:
                scores, statuses = play_server(path, seats, server, Path(workdir))
                phase1 = None
            row = GameRow(
                name, block, rotation, tuple(e.label for e in seats), scores, ranks_of(scores, statuses),
                statuses, round(time.perf_counter() - start, 1), phase1, label, seed,
            )  # fmt: skip
            rows.append(row)
            if out is not None:
                with out.open("a") as f:
                    f.write(json.dumps(asdict(row)) + "\n")
            first = [label for label, r in zip(row.labels, row.ranks, strict=True) if r == 1]
            print(
                f"  {name} block {block} rotation {rotation}: first {', '.join(first)}; "
                f"ranks {dict(zip(row.labels, row.ranks, strict=True))} ({row.seconds:.0f} s)",
                flush=True,
            )
    return rows


def bootstrap(values: Sequence[float], rng: random.Random) -> tuple[float, float, float]:
    """The mean of ``values`` (one per game) and its 95 % percentile bootstrap interval
    (:data:`RESAMPLES` resamples of the games with replacement)."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, mean, mean
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(RESAMPLES))
    return mean, means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1]


def base_label(label: str) -> str:
    """``trivial-2`` counts as ``trivial`` in the tables."""
    head, dash, tail = label.rpartition("-")
    return head if dash and tail.isdigit() else label


@dataclass(frozen=True)
class MapFigures:
    """One map's figures: per bot (games, first places, mean rank, its interval), the candidate's margin
    over the field (mean, interval), and the verdict of the must-hold."""

    name: str
    games: int
    bots: dict[str, tuple[int, int, float, float, float]]
    margin: tuple[float, float, float]
    most_firsts: bool
    margin_holds: bool
    forfeits: list[str]


def map_figures(name: str, rows: Sequence[GameRow], candidate: str, seed: int = 1) -> MapFigures:
    """The figures of one map's games (see :class:`MapFigures`)."""
    rng = random.Random(seed)
    labels = sorted(
        {base_label(lab) for row in rows for lab in row.labels}, key=lambda s: (s != candidate, s)
    )
    bots: dict[str, tuple[int, int, float, float, float]] = {}
    for label in labels:
        ranks = [
            float(r)
            for row in rows
            for lab, r in zip(row.labels, row.ranks, strict=True)
            if base_label(lab) == label
        ]
        bots[label] = (len(ranks), sum(1 for r in ranks if r == 1), *bootstrap(ranks, rng))
    margins = []
    for row in rows:
        mine = [r for lab, r in zip(row.labels, row.ranks, strict=True) if lab == candidate]
        rest = [r for lab, r in zip(row.labels, row.ranks, strict=True) if lab != candidate]
        if mine and rest:
            margins.append(sum(rest) / len(rest) - mine[0])
    margin = bootstrap(margins, rng) if margins else (0.0, 0.0, 0.0)
    share = {k: v[1] / v[0] for k, v in bots.items() if v[0]}
    most = candidate in share and all(share[candidate] > s for k, s in share.items() if k != candidate)
    forfeits = [
        f"{row.map} block {row.block} rotation {row.rotation}: {lab} {st}"
        for row in rows
        for lab, st in zip(row.labels, row.statuses, strict=True)
        if st != "ok"
    ]
    return MapFigures(name, len(rows), bots, margin, most, margin[1] > 0, forfeits)


def phase1_line(name: str, rows: Sequence[GameRow], candidate: str) -> str | None:
    """What the bomb phase changed on one map, over the games whose phase-1 counts are known: how often
    the leader after phase 1 (a shared lead counts for each) finished first, how often the candidate led
    and then finished first, and the share of the stones the bombs took. None without such games."""
    known = [(r, r.phase1) for r in rows if r.phase1 and any(r.phase1)]
    if not known:
        return None
    held = led = won = 0
    before = after = 0
    for row, phase1 in known:
        top = max(phase1)
        leaders = [i for i, s in enumerate(phase1) if s == top]
        held += any(row.ranks[i] == 1 for i in leaders)
        for i, lab in enumerate(row.labels):
            if lab == candidate and i in leaders:
                led += 1
                won += row.ranks[i] == 1
        before += sum(phase1)
        after += sum(row.scores)
    taken = 100 * (before - after) / max(before, 1)
    return (
        f"{name:<21} {len(known):>5} games: the leader after phase 1 finished first in {held}; {candidate} "
        f"led after phase 1 in {led} and finished first in {won} of them; the bombs took {taken:.0f} % of the stones"
    )


def report(rows: Sequence[GameRow], candidate: str, order: Sequence[str]) -> str:
    """The tables: per map and bot, then the candidate's margin and the verdict per map."""
    lines = [
        f"{'map':<21} {'bot':<34} {'games':>5} {'first':>5} {'share':>6} {'mean rank (95 %)':>22}",
    ]
    verdicts, bombs = [], []
    names = [n for n in order if any(r.map == n for r in rows)]
    for name in names:
        here = [r for r in rows if r.map == name]
        line = phase1_line(name, here, candidate)
        if line is not None:
            bombs.append(line)
        f = map_figures(name, here, candidate)
        for label, (games, firsts, mean, low, high) in f.bots.items():
            lines.append(
                f"{name:<21} {label[:34]:<34} {games:>5} {firsts:>5} {100 * firsts / games:>5.0f}% "
                f"{mean:>8.2f} [{low:.2f}, {high:.2f}]"
            )
        m, lo, hi = f.margin
        verdicts.append(
            f"{name:<21} {f.games:>5} games: margin {m:+.2f} [{lo:+.2f}, {hi:+.2f}]; most first places: "
            f"{'yes' if f.most_firsts else 'NO'}; margin above its interval: {'yes' if f.margin_holds else 'NO'}; "
            f"disqualifications: {len(f.forfeits)}"
            + (" (" + "; ".join(f.forfeits[:4]) + ")" if f.forfeits else "")
        )
    lines.append("")
    lines.append(f"{candidate}: the field's mean rank minus its own (95 % bootstrap over games)")
    lines.extend(verdicts)
    if bombs:
        lines += ["", "phase 1 and the bombs (games that recorded the counts when phase 1 ended)", *bombs]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--candidate", default="best#0.05s", help="the bot under test, spec#budget")
    parser.add_argument(
        "--field",
        default="best_v1,paranoid,brs,mcts,trivial",
        help="its opponents, spec#budget, separated by ';' or ','",
    )
    parser.add_argument("--budget", default="0.05s", help="the budget of a spec without one")
    parser.add_argument(
        "--blocks", type=int, default=4, help="openings per map (each played in every seat rotation)"
    )
    parser.add_argument("--plies", type=int, default=4, help="random opening plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--maps", help="only these maps (comma-separated names of MAPS_MULTI)")
    parser.add_argument("--server", type=float, help="play on our server at SECONDS a move (wall clock)")
    parser.add_argument(
        "--out", type=Path, help="games as JSON lines; games already there are not played again"
    )
    parser.add_argument("--report", action="store_true", help="only print the tables of --out")
    parser.add_argument(
        "--base", type=Path, help="the src folder of another checkout, whose bots are named base:SPEC"
    )
    args = parser.parse_args(argv)
    reversixt_base.BASE = args.base
    candidate = Player.parse(args.candidate, args.budget)
    if (
        args.server is None
        and any(s.startswith("cmd:") for s in (args.candidate, args.field))
        and "cmd:" in args.field + args.candidate
    ):
        parser.error("cmd: entries (other programs) play only on our server: add --server SECONDS")
    sep = ";" if ";" in args.field else ","
    others = [Player.parse(s.strip(), args.budget) for s in args.field.split(sep) if s.strip()]
    wanted = None if args.maps is None else {m.strip() for m in args.maps.split(",")}
    maps = [
        (n, p, SHARED / rel)
        for n, p, rel in MAPS_MULTI
        if (SHARED / rel).exists() and (wanted is None or n in wanted)
    ]
    if not maps:
        print(f"no multi-player maps found at {SHARED}")
        return
    if args.report:
        if args.out is None or not args.out.exists():
            print("--report needs --out FILE with games in it")
            return
        rows = run([], candidate, others, 0, args.plies, args.seed, None, args.out)
        label = label_of(candidate.spec)
        if not any(row.played_by(label) for row in rows):
            named = sorted({row.candidate for row in rows if row.candidate})
            seats = sorted({base_label(lab) for row in rows for lab in row.labels})
            sys.exit(
                f"{args.out}: no game of the candidate {label!r} (--candidate SPEC#BUDGET names it); "
                + (f"the file's candidates: {', '.join(named)}" if named else f"its bots: {', '.join(seats)}")
            )
    else:
        clock = f"our server, {args.server:g} s a move (wall clock)" if args.server else "in process"
        print(
            f"{args.candidate} against {', '.join(p.spec for p in others)} ({clock}): {len(maps)} maps, "
            f"{args.blocks} blocks of every seat rotation, {args.plies} random opening plies"
            + ("" if args.server else f", budget {args.budget} unless given"),
            flush=True,
        )
        rows = run(maps, candidate, others, args.blocks, args.plies, args.seed, args.server, args.out)
    label = label_of(candidate.spec)
    print(report([r for r in rows if r.played_by(label)], label, [n for n, _, _ in maps]))


if __name__ == "__main__":
    main()
