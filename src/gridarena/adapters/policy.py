"""A trained policy as a numpy file, played with numpy alone (no torch at play time).

The file is a ``.npz`` archive written by :func:`write_policy`: a multilayer perceptron over the
flattened observation planes of a game's view, ``h = act(h @ W + b)`` for every hidden layer and
logits from the last, with a JSON ``meta`` record (format, game spec, shapes, activation, and what the
trainer wants kept: command, seed, steps, time, results). It is loaded with ``allow_pickle=False``
and every shape is checked against the game's view before a move is played.

>>> import tempfile, pathlib
>>> from gridarena.adapters.views import make_view
>>> view = make_view("isolation(width=3,height=3)")
>>> rng = np.random.default_rng(0)
>>> layers = [(rng.normal(size=(27, 8)), np.zeros(8)), (rng.normal(size=(8, 9)), np.zeros(9))]
>>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.npz"
>>> write_policy(path, "isolation(width=3,height=3)", layers, {"note": "random weights"})
>>> policy = read_policy(path)
>>> policy.meta["trained"]["note"], policy.logits(np.zeros((3, 3, 3), np.float32)).shape
('random weights', (9,))
"""

from __future__ import annotations

import io
import json
import math
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from gridarena.adapters.views import Mask, Planes, View, make_view
from gridarena.core.errors import GridArenaError
from gridarena.core.files import LIMITS, read_bytes, size_text
from gridarena.core.specs import parse_spec

FORMAT: Final = "gridarena-policy"
VERSION: Final = 1
MAX_FILE_BYTES: Final = LIMITS["policy"]
"""A policy file larger than this is refused before it is read, and so are arrays larger once
decompressed (64 MiB: the one reader's limit for a policy)."""

ACTIVATIONS: Final[dict[str, Callable[[NDArray[np.float32]], NDArray[np.float32]]]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


class PolicyFileError(GridArenaError):
    """A policy file that cannot be played: missing, not a policy, or not for this game."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True)
class Policy:
    """A loaded policy: its layers ``(W, b)``, activation and meta record."""

    layers: tuple[tuple[NDArray[np.float32], NDArray[np.float32]], ...]
    activation: str
    meta: Mapping[str, Any]

    def logits(self, planes: Planes) -> NDArray[np.float32]:
        """The network's logits for one observation."""
        act = ACTIVATIONS[self.activation]
        h = planes.reshape(-1).astype(np.float32)
        for w, b in self.layers[:-1]:
            h = act(h @ w + b)
        w, b = self.layers[-1]
        return np.asarray(h @ w + b, dtype=np.float32)

    def probabilities(self, planes: Planes, mask: Mask) -> NDArray[np.float64]:
        """The masked softmax of the logits (zero off the mask); the mask must allow something."""
        logits = self.logits(planes).astype(np.float64)
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum())

    def check_view(self, view: View, path: Path | str) -> None:
        """Refuse a policy whose game or shapes do not match ``view``."""
        name, _ = parse_spec(str(self.meta.get("game", "")))
        if name != view.game.name:
            raise PolicyFileError(path, f"a policy for {name!r}, not for {view.game.name}")
        inputs = len(view.plane_names) * view.shape[0] * view.shape[1]
        if self.layers[0][0].shape[0] != inputs or self.layers[-1][0].shape[1] != view.num_actions:
            raise PolicyFileError(
                path,
                f"the network maps {self.layers[0][0].shape[0]} inputs to {self.layers[-1][0].shape[1]} "
                f"actions; {view.game.name} with {dict(view.game.params)} has {inputs} and {view.num_actions}",
            )


def write_policy(
    path: Path | str,
    game: str,
    layers: Sequence[tuple[NDArray[Any], NDArray[Any]]],
    trained: Mapping[str, Any],
    activation: str = "tanh",
) -> None:
    """Write a policy: ``layers`` as ``(W, b)`` with ``W`` of shape (inputs, outputs), last = logits."""
    view = make_view(game)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "activation": activation,
        "planes": list(view.plane_names),
        "shape": list(view.shape),
        "num_actions": view.num_actions,
        "trained": dict(trained),
    }
    arrays: dict[str, NDArray[Any]] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    with open(path, "wb") as out:
        np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    policy = read_policy(path)
    policy.check_view(view, path)


def read_policy(path: Path | str) -> Policy:
    """Load a policy file; :class:`PolicyFileError` names the file and what is wrong."""
    arrays = _read_arrays(path)
    try:
        meta = json.loads(str(arrays["meta"]))
        count = sum(1 for key in arrays if key.startswith("w"))
        layers = tuple((arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count))
    except (ValueError, KeyError, RecursionError) as error:
        raise PolicyFileError(path, f"not a gridarena policy file ({error!r})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise PolicyFileError(path, f"not a {FORMAT} file of version {VERSION}")
    if meta.get("activation") not in ACTIVATIONS or not layers:
        raise PolicyFileError(path, f"needs layers and an activation of {sorted(ACTIVATIONS)}")
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or b.shape != (w.shape[1],) or (i and layers[i - 1][0].shape[1] != w.shape[0]):
            raise PolicyFileError(path, f"layer {i} has shapes {w.shape} and {b.shape}, which do not chain")
    return Policy(layers, meta["activation"], meta)


def _read_arrays(path: Path | str) -> dict[str, NDArray[Any]]:
    """The arrays of a ``.npz`` file, read through the one bounded reader (at most
    :data:`MAX_FILE_BYTES` on disk and as many once decompressed), each checked before it is made."""
    raw = read_bytes(path, "policy")
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = archive.infolist()
            total = sum(member.file_size for member in members)
            if total > MAX_FILE_BYTES:  # zipfile stops each member at its declared size
                raise PolicyFileError(
                    path, f"its arrays take {size_text(total)}, more than {size_text(MAX_FILE_BYTES)}"
                )
            return {
                member.filename.removesuffix(".npy"): _array(path, member.filename, archive.read(member))
                for member in members
            }
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as error:
        if isinstance(error, GridArenaError):
            raise
        raise PolicyFileError(path, f"not a gridarena policy file ({error})") from None


def _array(path: Path | str, name: str, data: bytes) -> NDArray[Any]:
    """One ``.npy`` member, its header's shape checked against its bytes before numpy allocates it."""
    stream = io.BytesIO(data)
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
    elif version == (2, 0):
        shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
    else:
        raise PolicyFileError(path, f"not a gridarena policy file ({name}: npy format version {version})")
    if dtype.hasobject:
        raise PolicyFileError(path, f"not a gridarena policy file ({name} holds Python objects)")
    if math.prod(shape) * dtype.itemsize != len(data) - stream.tell():
        raise PolicyFileError(
            path, f"not a gridarena policy file ({name}: a {shape} {dtype} array in {len(data)} bytes)"
        )
    stream.seek(0)
    return np.lib.format.read_array(stream, allow_pickle=False)


def policy_view(path: Path | str) -> tuple[Policy, View]:
    """A policy file and the view of the game it was trained for (its ``game`` spec)."""
    policy = read_policy(path)
    view = make_view(str(policy.meta["game"]))
    policy.check_view(view, path)
    return policy, view
