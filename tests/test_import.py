"""``import plies`` stays light: the core pulls in no heavy or UI dependency."""

from __future__ import annotations

import subprocess
import sys

HEAVY = [
    "scipy", "numpy", "numba", "ray", "rich", "chess", "starlette", "uvicorn", "playwright",
]


def test_import_plies_loads_nothing_heavy() -> None:
    code = (
        "import sys, plies\n"
        "plies.games.load('connect4', scoring='pons')\n"  # the solver stays unloaded too
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


def test_import_plies_imports_no_game_rules_nor_sources() -> None:
    """The games are listed by name and imported when first loaded; the file formats and
    adapters when a spec needs them."""
    code = (
        "import sys, plies\n"
        "assert 'nim' in plies.games.names()\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(('plies.games', "
        "'plies.sources', 'plies.gdl')))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["plies.games", "plies.games.loader", "plies.games.registry", "plies.sources"]


def test_public_api_names() -> None:
    import plies

    for name in (
        "Game", "CHANCE", "SIMULTANEOUS", "Limit", "SearchResult", "minimax", "alphabeta",
        "expectiminimax", "maxn", "analyze", "bounded_minimax", "games",
        "determinize", "Observable", "ImperfectInformation",
    ):
        assert hasattr(plies, name), name
    assert callable(plies.games.load) and callable(plies.games.names)
