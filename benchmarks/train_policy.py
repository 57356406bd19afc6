"""Train a policy with MaskablePPO on a gridarena Gymnasium environment, export it for the ``policy`` bot,
and rate it in the arena.

Needs the ``train`` extra (stable-baselines3, sb3-contrib and the CPU build of torch), which ``make
test`` does not install; run it in its own venv:

    python3 -m venv /tmp/train && /tmp/train/bin/pip install -e '.[train]'
    /tmp/train/bin/python benchmarks/train_policy.py train --steps 2000000 --out examples/policies/isolation-5x5.npz
    /tmp/train/bin/python benchmarks/train_policy.py evaluate examples/policies/isolation-5x5.npz --record

``train`` plays ``--envs`` environments side by side (the first ``--greedy`` of them against ``greedy``,
the others against ``random``), the agent's seat drawn at each reset and every game from a random
opening of ``--opening-plies`` plies, then writes the actor network (``W``, ``b`` per layer) with the
command, seed, steps and training time. Everything is seeded and torch runs on one thread with its
deterministic algorithms (that a second run writes the very same file has not been checked).
``evaluate`` plays the exported file with numpy alone, through the arena: against ``greedy`` with the
SPRT (elo0=0, elo1=50, alpha=beta=0.05) from random 2-ply openings, then fixed-length matches against
``random`` and ``ab_improved``; ``--record`` keeps the figures in the file's meta record.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from gridarena.adapters.gymnasium import GridArenaEnv
from gridarena.adapters.policy import read_policy, write_policy
from gridarena.arena.backends import InlineBackend
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament

GAME = "isolation(width=5,height=5)"


def train(args: argparse.Namespace) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    opening = f"random(plies={args.opening_plies})" if args.opening_plies else None

    def env_factory(i: int) -> Any:
        opponent = "greedy" if i < args.greedy else "random"
        return lambda: GridArenaEnv(args.game, opponent=opponent, seat="random", opening=opening)

    env = DummyVecEnv([env_factory(i) for i in range(args.envs)])
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        gamma=1.0,
        policy_kwargs={"net_arch": {"pi": args.layers, "vf": args.layers}},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps, progress_bar=False)
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    linear = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linear.append(model.policy.action_net)
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear]
    trained = {
        "command": " ".join(["python", "benchmarks/train_policy.py", *map(shlex.quote, sys.argv[1:])]),
        "algorithm": "sb3-contrib MaskablePPO 2.9.2, torch 2.13.0 (CPU, one thread)",
        "seed": args.seed,
        "steps": args.steps,
        "opponents": f"{args.greedy} of {args.envs} environments greedy, the rest random",
        "opening_plies": args.opening_plies,
        "train_wall_s": round(wall, 1),
        "train_cpu_s": round(cpu, 1),
    }
    write_policy(args.out, args.game, layers, trained)
    print(json.dumps(trained, indent=1))
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes)")


def match(game: str, policy: str, opponent: str, games: int, seed: int, **extra: Any) -> dict[str, Any]:
    """One two-entrant tournament in a scratch database; the report's standings and match figures."""
    config = TournamentConfig(
        game, (f"policy(file={policy},name=policy)", opponent), games=games, seed=seed, **extra
    )
    with tempfile.TemporaryDirectory() as scratch:
        report = run_tournament(config, Store(Path(scratch) / "eval.sqlite"), InlineBackend()).report
    mine = next(s for s in report["standings"] if s["player"] == "policy")
    result = {
        "opponent": opponent,
        "games": report["games"],
        "wins": mine["wins"],
        "losses": mine["losses"],
        "draws": mine["draws"],
        "score": round((mine["wins"] + 0.5 * mine["draws"]) / max(report["games"], 1), 4),
        "forfeits": report["forfeits"].get("policy", {}),
    }
    figures = report.get("match") or {}
    for key in ("elo", "elo_ci95", "los", "penta"):
        result[key] = figures.get(key)
    if figures.get("sprt"):
        result["sprt"] = {k: figures["sprt"][k] for k in ("llr", "bounds", "decision")}
    return result


def evaluate(args: argparse.Namespace) -> None:
    game = str(read_policy(args.policy).meta["game"])
    opening = "random(plies=2)"
    results = [
        match(
            game, args.policy, "greedy", args.sprt_games, args.seed, opening=opening, sprt="0,50,0.05,0.05"
        ),
        match(game, args.policy, "random", args.games, args.seed, opening=opening),
        match(
            game, args.policy, "ab_improved", args.games, args.seed, opening=opening, time="0.15", clock="cpu"
        ),
    ]
    for result in results:
        print(json.dumps(result))
    if args.record:
        policy = read_policy(args.policy)
        trained = dict(policy.meta["trained"])
        trained["evaluation"] = {
            "command": " ".join(["python", "benchmarks/train_policy.py", *map(shlex.quote, sys.argv[1:])]),
            "results": results,
        }
        write_policy(args.policy, game, policy.layers, trained, policy.activation)
        print(f"recorded in {args.policy}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train with MaskablePPO and export the policy")
    t.add_argument("--game", default=GAME)
    t.add_argument("--out", default="examples/policies/isolation-5x5.npz")
    t.add_argument("--steps", type=int, default=1_000_000)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--envs", type=int, default=8)
    t.add_argument("--greedy", type=int, default=6, help="environments against greedy (the rest: random)")
    t.add_argument("--opening-plies", type=int, default=2)
    t.add_argument("--layers", type=int, nargs="+", default=[128, 128])
    t.add_argument("--n-steps", type=int, default=256)
    t.add_argument("--batch-size", type=int, default=256)
    t.add_argument("--learning-rate", type=float, default=3e-4)
    t.add_argument("--ent-coef", type=float, default=0.01)
    e = sub.add_parser("evaluate", help="rate an exported policy in the arena")
    e.add_argument("policy")
    e.add_argument("--seed", type=int, default=26)
    e.add_argument("--sprt-games", type=int, default=2000, help="the SPRT's most games against greedy")
    e.add_argument("--games", type=int, default=200, help="games against random and against ab_improved")
    e.add_argument("--record", action="store_true", help="keep the figures in the policy file's meta")
    args = parser.parse_args(argv)
    np.set_printoptions(precision=3)
    train(args) if args.command == "train" else evaluate(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
