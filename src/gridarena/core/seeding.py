"""Seeds derived by hashing, never by Python's salted ``hash`` or a shared RNG stream."""

from __future__ import annotations

import hashlib


def derive_seed(kind: str, *parts: object) -> int:
    """A 64-bit seed from ``sha256("gridarena-<kind>:<part>:<part>...")`` (the arena's derivation).

    >>> derive_seed("block", 7, 0)
    15188375588101485782
    """
    text = f"gridarena-{kind}:" + ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
