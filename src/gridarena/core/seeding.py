"""Seeds derived by hashing, never by Python's salted ``hash`` or a shared RNG stream."""

from __future__ import annotations

import hashlib


def seed_from_label(label: str) -> int:
    """The unsigned 64-bit seed of a label: the first 8 bytes of its SHA-256, big-endian.

    >>> seed_from_label("gridarena-block:7:0")
    15188375588101485782
    """
    return int.from_bytes(hashlib.sha256(label.encode("utf-8")).digest()[:8], "big")


def derive_seed(kind: str, *parts: object) -> int:
    """The seed of ``"gridarena-<kind>:<part>:<part>..."`` (the arena's derivation).

    >>> derive_seed("block", 7, 0)
    15188375588101485782
    """
    return seed_from_label(f"gridarena-{kind}:" + ":".join(str(p) for p in parts))
