"""Hypothesis strategies of game and pair counts, shared by the statistics tests."""

from __future__ import annotations

from hypothesis import strategies as st

from gridarena.arena.counts import Pentanomial, Trinomial

counts = st.integers(0, 400)


@st.composite
def trinomials(draw: st.DrawFn) -> Trinomial:
    w, lo, d = draw(counts), draw(counts), draw(counts)
    if w + lo + d == 0:
        d = 1
    return Trinomial(w, lo, d)


@st.composite
def pentanomials(draw: st.DrawFn) -> Pentanomial:
    values = [draw(st.integers(0, 200)) for _ in range(5)]
    if sum(values) == 0:
        values[2] = 1
    wl = draw(st.none() | st.integers(0, values[2]))
    ll, ld, dd, wd, ww = values
    return Pentanomial(ll, ld, dd, wd, ww, wl=wl)
