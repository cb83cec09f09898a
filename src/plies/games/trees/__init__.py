"""The built-in game trees: the textbook's figures, as tree files beside this module.

Each is a factory that reads its file (:class:`~plies.sources.tree.TreeGame`); the
registry lists them as ``aima-5-2``, ``aima-5-4`` and ``chance-demo``.

>>> aima_5_2().name, aima_5_2.description
('aima-5-2', 'AIMA Figure 5.2: the two-ply minimax tree (value 3)')
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Final

from plies.game.options import Option
from plies.sources.tree import TreeGame


@dataclass(frozen=True, slots=True)
class BuiltinTree:
    """A factory of the tree in the file ``filename`` here, named ``name``."""

    filename: str
    name: str
    description: str
    options: tuple[Option, ...] = ()

    def __call__(self) -> TreeGame:
        text = resources.files(__name__).joinpath(self.filename).read_text("utf-8")
        source = f"plies/games/trees/{self.filename}"
        if self.filename.endswith(".json"):
            return TreeGame.from_json(text, source=source, name=self.name)
        return TreeGame.from_text(text, source=source, name=self.name)


aima_5_2: Final = BuiltinTree(
    "aima-fig-5-2.tree", "aima-5-2", "AIMA Figure 5.2: the two-ply minimax tree (value 3)"
)
aima_5_4: Final = BuiltinTree(
    "aima-fig-5-4.tree", "aima-5-4",
    "AIMA Figure 5.4: three players with utility vectors (value (1, 2, 6))",
)
chance_demo: Final = BuiltinTree(
    "chance-demo.tree", "chance-demo",
    "Expectiminimax tree after AIMA's order-preserving figure (value 2.1)",
)

__all__ = ["BuiltinTree", "aima_5_2", "aima_5_4", "chance_demo"]
