"""A complete gridarena bot in another process: the jsonl protocol, playing uniformly at random.

Run it in a tournament with --players "external(cmd='python3 examples/random_bot.py',name=rnd),greedy".
"""

import json
import random
import sys

rng = random.Random()
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":  # game, options, seat, seed, time_control
        rng.seed(message["seed"])
        reply: dict[str, object] = {"type": "ready", "name": "random-example"}
    elif kind == "ping":
        reply = {"type": "pong"}
    elif kind == "turn":  # state, legal (actions as text), player, time_left_ms
        reply = {"action": rng.choice(message["legal"]), "info": {"choices": len(message["legal"])}}
    else:  # "end": the result is in message["result"]
        break
    print(json.dumps(reply), flush=True)
