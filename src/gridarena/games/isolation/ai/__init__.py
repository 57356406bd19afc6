"""Isolation strategy: heuristics, the one-ply greedy bot and ``best`` (the fast engine's player)."""
