"""Sets of small integers held in one Python integer (bit ``i`` set: ``i`` is a member)."""

from __future__ import annotations


def members(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first, in one step per set bit."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
