"""What every compiled (Numba) path of plies shares: the backend names and whether Numba
is there.

A compiled path is one more implementation behind the same hook as the plain Python one,
which stays the oracle and the fallback: ``auto`` picks Numba when it is installed (the
``fast`` extra), ``python`` otherwise, and an explicit ``numba`` without it is an
:class:`~plies.errors.OptionError`.  Numba itself is imported only by the code that
compiles.
"""

from __future__ import annotations

import importlib.util
from typing import Final

from plies.errors import OptionError

BACKENDS: Final = ("auto", "numba", "python")
"""``auto``: Numba when it is installed, else Python."""


def numba_available() -> bool:
    """True when Numba is installed (the ``fast`` extra); found, not imported: importing
    Numba takes longer than building a small game's reasoner."""
    return importlib.util.find_spec("numba") is not None


def resolve_backend(backend: str, what: str) -> str:
    """``"numba"`` or ``"python"`` for the ``backend`` asked of ``what`` (``"solver"``,
    ``"reasoner"``: it names the thing in the error).

    Raises:
        OptionError: an unknown backend, or ``numba`` without Numba.
    """
    if backend not in BACKENDS:
        raise OptionError(f"unknown {what} backend {backend!r}; use one of: "
                          f"{', '.join(BACKENDS)}")
    if backend == "auto":
        return "numba" if numba_available() else "python"
    if backend == "numba" and not numba_available():
        raise OptionError("the numba backend needs Numba: pip install 'plies[fast]'")
    return backend
