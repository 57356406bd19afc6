"""The sliding puzzle's solvers: heuristics (distances, conflicts, PDB sums), BFS/A*/IDA* and the solver bot."""
