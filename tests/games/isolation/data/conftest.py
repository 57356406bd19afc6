"""The AIND agent files here import ``isolation`` and ``sample_players`` as the 2017 project did.

They are data for the loader, not modules of this package: ``--doctest-modules`` must not import
them outside :func:`gridarena.games.isolation.aind.load_agent_module`.
"""

collect_ignore_glob = ["aind_*/*.py"]
