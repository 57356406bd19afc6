"""The sliding puzzle's numba kernels: the IDA* iteration, incremental heuristics, PDB indexing and building.

Each has a readable twin that the tests hold it to (``*_ref`` functions, the BFS oracles).
"""
