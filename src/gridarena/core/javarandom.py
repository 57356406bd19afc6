"""A bit-exact port of ``java.util.Random`` (the 48-bit linear congruential generator).

Games ported from Java referees draw from ``java.util.Random`` (the Pentocity sequencers, Ice and
Fire's map generator); given the same seed this class returns the same numbers in the same order, so a
Python port emits exactly the Java stream.

>>> rng = JavaRandom(42)
>>> [rng.next_int(100) for _ in range(5)]
[30, 63, 48, 84, 70]
>>> JavaRandom(869).next_double()
0.6989872586122552
"""

from __future__ import annotations

import math
import struct
from typing import Final

MULTIPLIER: Final = 0x5DEECE66D
ADDEND: Final = 0xB
MASK: Final = (1 << 48) - 1
_DOUBLE_UNIT: Final = 1.0 / (1 << 53)


def _signed32(value: int) -> int:
    """``value`` (taken modulo 2^32) read as a signed 32-bit integer.

    >>> _signed32(0xFFFFFFFF), _signed32(5)
    (-1, 5)
    """
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _signed64(value: int) -> int:
    """``value`` (taken modulo 2^64) read as a signed 64-bit integer."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def scramble(seed: int) -> int:
    """The 48-bit state that ``new Random(seed)`` starts from (negative seeds work as in Java).

    >>> scramble(0) == MULTIPLIER
    True
    """
    return (seed ^ MULTIPLIER) & MASK


class JavaRandom:
    """``java.util.Random``: seeded with a signed 64-bit integer, mutable like the original.

    The whole generator is the 48-bit ``state`` (plus the cached Gaussian), so immutable owners keep the
    integer and rebuild a generator with :meth:`from_state` when they draw.
    """

    __slots__ = ("_gaussian", "state")

    def __init__(self, seed: int) -> None:
        self.state = scramble(seed)
        self._gaussian: float | None = None

    @classmethod
    def from_state(cls, state: int) -> JavaRandom:
        """A generator whose internal 48-bit state is ``state`` (no scrambling).

        >>> a = JavaRandom(7); _ = a.next_int(); b = JavaRandom.from_state(a.state)
        >>> a.next_double() == b.next_double()
        True
        """
        rng = cls.__new__(cls)
        rng.state = state & MASK
        rng._gaussian = None
        return rng

    def __repr__(self) -> str:
        return f"JavaRandom.from_state({self.state:#x})"

    def set_seed(self, seed: int) -> None:
        """Java's ``setSeed``: the state of ``new Random(seed)``, with the cached Gaussian cleared."""
        self.state = scramble(seed)
        self._gaussian = None

    def next(self, bits: int) -> int:
        """Java's protected ``next(bits)``: the top ``bits`` bits of the advanced state, signed 32-bit."""
        if not 1 <= bits <= 32:
            raise ValueError(f"bits must be in 1..32, got {bits}")
        self.state = (self.state * MULTIPLIER + ADDEND) & MASK
        return _signed32(self.state >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any signed 32-bit value) or ``nextInt(bound)`` (uniform in ``[0, bound)``).

        >>> rng = JavaRandom(0)
        >>> [rng.next_int(16) for _ in range(5)]
        [11, 13, 3, 9, 10]
        """
        if bound is None:
            return self.next(32)
        if bound <= 0 or bound >= 1 << 31:
            raise ValueError(f"bound must be a positive 32-bit int, got {bound}")
        r = self.next(31)
        if bound & (bound - 1) == 0:
            return (bound * r) >> 31
        u = r
        r = u % bound
        # Java rejects draws from the last, incomplete block: u - r + bound - 1 overflows an int there.
        while u - r + bound - 1 >= 1 << 31:
            u = self.next(31)
            r = u % bound
        return r

    def next_long(self) -> int:
        """``nextLong()``: two draws combined in 64-bit two's complement."""
        high = self.next(32)
        low = self.next(32)
        return _signed64((high << 32) + low)

    def next_boolean(self) -> bool:
        """``nextBoolean()``: one bit."""
        return self.next(1) != 0

    def next_float(self) -> float:
        """``nextFloat()``: 24 random bits scaled to ``[0, 1)``, as a 32-bit float widened to a Python float."""
        value = self.next(24) / float(1 << 24)
        return float(struct.unpack("f", struct.pack("f", value))[0])

    def next_double(self) -> float:
        """``nextDouble()``: 53 random bits from two draws, scaled to ``[0, 1)``.

        >>> rng = JavaRandom(42)
        >>> rng.next_double(), rng.next_double()
        (0.7275636800328681, 0.6832234717598454)
        """
        high = self.next(26)
        low = self.next(27)
        return ((high << 27) + low) * _DOUBLE_UNIT

    def next_gaussian(self) -> float:
        """``nextGaussian()``: Marsaglia's polar method with fdlibm's ``log``, one value cached."""
        if self._gaussian is not None:
            value, self._gaussian = self._gaussian, None
            return value
        while True:
            v1 = 2 * self.next_double() - 1
            v2 = 2 * self.next_double() - 1
            s = v1 * v1 + v2 * v2
            if 0 < s < 1:
                break
        multiplier = math.sqrt(-2 * fdlibm_log(s) / s)
        self._gaussian = v2 * multiplier
        return v1 * multiplier


_LN2_HI: Final = 6.93147180369123816490e-01
_LN2_LO: Final = 1.90821492927058770002e-10
_TWO54: Final = 1.80143985094819840000e16
_LG: Final = (
    6.666666666666735130e-01,
    3.999999999940941908e-01,
    2.857142874366239149e-01,
    2.222219843214978396e-01,
    1.818357216161805012e-01,
    1.531383769920937332e-01,
    1.479819860511658591e-01,
)


def _words(x: float) -> tuple[int, int]:
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    return _signed32(bits >> 32), bits & 0xFFFFFFFF


def _with_high_word(x: float, high: int) -> float:
    low = _words(x)[1]
    return float(struct.unpack("<d", struct.pack("<Q", ((high & 0xFFFFFFFF) << 32) | low))[0])


def fdlibm_log(x: float) -> float:
    """Natural logarithm exactly as fdlibm's ``__ieee754_log`` (Java's ``StrictMath.log``).

    The C library's ``log`` is off in the last bit for some inputs, which changes ``nextGaussian``.

    >>> fdlibm_log(1.0), fdlibm_log(math.e) == 1.0
    (0.0, True)
    """
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx = _words(x)[0]
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _with_high_word(x, hx | (i ^ 0x3FF00000))
    k += i >> 20
    f = x - 1.0
    dk = float(k)
    if (0x000FFFFF & (2 + hx)) < 3:
        return _log_near_one(f, k, dk)
    s = f / (2.0 + f)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG[1] + w * (_LG[3] + w * _LG[5]))
    t2 = z * (_LG[0] + w * (_LG[2] + w * (_LG[4] + w * _LG[6])))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


def _log_near_one(f: float, k: int, dk: float) -> float:
    """fdlibm's branch for ``|f| < 2^-20`` after range reduction."""
    if f == 0.0:
        return 0.0 if k == 0 else dk * _LN2_HI + dk * _LN2_LO
    r = f * f * (0.5 - 0.33333333333333333 * f)
    if k == 0:
        return f - r
    return dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
