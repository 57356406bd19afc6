"""Additive pattern databases: a numba builder, an on-disk format, memory-mapped loading, named partitions.

A PDB for pattern P stores, for every placement of P's tiles on the movable cells, the least number
of slides *of P's tiles* that bring them home, when every other tile is indistinguishable and moves
for free. Each slide moves one tile, so the values of disjoint patterns add up admissibly. The stored
value is the minimum over the blank arrangements (Korf and Felner's style), or, in a region-keyed
table (storage ``r4``), also the excess of each arrangement of the blanks' regions.

``build.py`` (a table built in memory by the numba builder of ``fast/pdbbuild.py``), ``table.py``
(:class:`PatternDatabase`; its indexing is ``fast/indexing.py``), ``fileformat.py`` (the checked file
format) and ``partitions.py`` (named boards and partitions, file names, the cache, sets). The names most callers
need are importable from this package.
"""

from gridarena.games.slidingpuzzle.formats import PdbError
from gridarena.games.slidingpuzzle.pdb.build import build_pdb
from gridarena.games.slidingpuzzle.pdb.fileformat import PdbFileError, load_pdb, save_pdb
from gridarena.games.slidingpuzzle.pdb.partitions import (
    BuildProgress,
    TableJob,
    board_by_name,
    build_set,
    build_tables,
    default_cache_dir,
    default_partition,
    load_set,
    partition,
    pattern_sets,
    pdb_filename,
    table_jobs,
)
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase

__all__ = [
    "BuildProgress",
    "PatternDatabase",
    "PdbError",
    "PdbFileError",
    "TableJob",
    "board_by_name",
    "build_pdb",
    "build_set",
    "build_tables",
    "default_cache_dir",
    "default_partition",
    "load_pdb",
    "load_set",
    "partition",
    "pattern_sets",
    "pdb_filename",
    "save_pdb",
    "table_jobs",
]
