"""Every game as reinforcement-learning libraries expect it: PettingZoo, Gymnasium and OpenSpiel views.

The adapters are thin: a game's :class:`~gridarena.adapters.views.View` (a fixed integer action space,
a legal-action mask and observation planes, in ``views/``) is read off the game API and the registry,
and the three library modules drive it. No rule is written here a second time.

* :mod:`gridarena.adapters.pettingzoo`: ``env(spec)`` / ``raw_env(spec)``, AEC environments of the
  games with two or more players;
* :mod:`gridarena.adapters.gymnasium`: single-agent environments ``gridarena/<game>-v0`` (a puzzle,
  Pentocity, or a seat against fixed gridarena bots);
* :mod:`gridarena.adapters.openspiel`: every game as an OpenSpiel game ``gridarena_<game>``;
* :mod:`gridarena.adapters.bots`: the ``policy(file=...)`` and ``openspiel(bot=mcts)`` bots.

The libraries come with the optional extra ``rl`` (``pip install 'gridarena[rl]'``); the views and
the ``policy`` bot need numpy alone.
"""
