"""The sliding puzzle's numba kernels: the IDA* iteration, incremental heuristics, PDB indexing and building.

Each has a readable twin that the tests hold it to (``*_ref`` functions, the BFS oracles).
"""

from gridarena.core import kernelcache  # noqa: F401  (first: every file of the game stamps its kernels)
