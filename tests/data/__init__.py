"""Where the tests' data files live: in the repository, so a fresh clone needs nothing beside it.

Each file's source and licence are in ``tests/data/README.md``.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent
GDL_DATA = DATA / "gdl"
"""GDL game descriptions (KIF): 13 games, ``invalid/`` and ``prover_cases/``."""
CONNECT4_DATA = DATA / "connect4"
"""Pascal Pons' six Connect Four benchmark sets (``Test_L*_R*``), 1,000 positions each."""
OTHELLO_DATA = DATA / "othello"
"""The FFO endgame positions #40-#49 (``fforum-40-49.obf``) with their published values."""
