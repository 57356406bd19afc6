"""The web viewer: results, replays of every game, live tournaments and play against bots.

``frames`` rebuilds a replay and draws its plies with each game's ``render_svg``; ``export`` writes a
replay as one self-contained HTML file; ``app`` is the Starlette application behind ``gridarena
serve`` (the ``web`` extra); ``static/`` holds the plain ES modules and styles, shipped in the package.
"""
