"""ReversiXT strategy: the search bots over the fast engine (:mod:`.search`: paranoid, BRS and ``best``,
with the constants that choose their search and the parser of the evaluation's weights) and the MCTS
sparring bot (:mod:`.mcts`); the registry's factories are in ``bots.py``.
"""
