"""ReversiXT (RWTH / OTH Regensburg course): maps, reference rules, traces and pictures."""
