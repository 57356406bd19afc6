"""Pictures for ``render_mode="rgb_array"``: observation planes painted cell by cell, numpy alone.

Each cell takes the colour of its first plane that is set (the observer's pieces come first), 16
pixels a side, with a one-pixel grid; cells where no plane is set stay light grey.

>>> planes = np.zeros((2, 2, 3), dtype=np.float32); planes[0, 0, 0] = planes[1, 1, 2] = 1
>>> image = planes_picture(planes)
>>> image.shape, image.dtype, image[8, 8].tolist(), image[8, 40].tolist()
((32, 48, 3), dtype('uint8'), [31, 119, 180], [230, 230, 230])
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

CELL: Final = 16
BACKGROUND: Final = (230, 230, 230)

GRID: Final = (160, 160, 160)
PALETTE: Final = np.array(
    [
        (31, 119, 180),
        (214, 39, 40),
        (90, 90, 90),
        (44, 160, 44),
        (255, 127, 14),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (188, 189, 34),
        (23, 190, 207),
    ],
    dtype=np.uint8,
)


RENDER_MODES: Final = ("ansi", "rgb_array")
"""What ``render()`` gives: the state's text, or the planes painted as an image."""


def render_mode_refused(mode: object) -> str:
    """The one line that refuses a render mode.

    >>> render_mode_refused("human")
    "render_mode 'human' is not offered (gridarena's environments open no window): use 'ansi' (the state's text, print(env.render())) or 'rgb_array' (an image)"
    """
    return (
        f"render_mode {mode!r} is not offered (gridarena's environments open no window): use 'ansi' "
        "(the state's text, print(env.render())) or 'rgb_array' (an image)"
    )


def planes_picture(planes: NDArray[np.float32]) -> NDArray[np.uint8]:
    """An RGB image ``(rows * 16, cols * 16, 3)`` of the planes ``(channels, rows, cols)``."""
    set_planes = planes > 0
    first = np.argmax(set_planes, axis=0)
    colours = PALETTE[first % len(PALETTE)]
    colours[~set_planes.any(axis=0)] = BACKGROUND
    image = np.repeat(np.repeat(colours, CELL, axis=0), CELL, axis=1)
    image[::CELL, :] = GRID
    image[:, ::CELL] = GRID
    return np.ascontiguousarray(image)
