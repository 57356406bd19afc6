"""Pentocity strategy: the course's two players (``simple``) and placement features over the whole grid, then a policy.

``simple`` holds the course's ``example`` and ``rowbyrow`` players and the road helpers;
``candidates`` scores every placement of a request (all rotations, all locations) with numpy;
``plans`` lays the road, water and parks of a chosen placement; ``greedy`` holds the players:
``diagonal``, ``jigsaw``, ``components``, ``shortroad``, ``group1`` (group 1's final algorithm) and
``packer`` (ours); ``bands`` (the packer with a layout planned in advance for streams of I pentominoes
and 1 × 1 factories, registered as ``best``). The registry (:mod:`gridarena.core.registry`) is the one
list of their names; build them with ``make_bot(game, "packer(shortlist=4)")``.

>>> from gridarena import make, make_bot
>>> make_bot(make("pentocity"), "packer(shortlist=4)").shortlist
4
"""
