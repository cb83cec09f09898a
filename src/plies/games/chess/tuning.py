"""Chess's hand-set weights by name: what tuning by matches reads and replaces.

The pawn-structure, rook-file and bishop-pair terms of :class:`Weights` are hand-set
(the piece values and tables are PeSTO's, tuned elsewhere), so they are the evaluation's
named weights (:func:`plies.linear.has_weights`): ``doubled_mg``, ``doubled_eg``,
``isolated_mg``, ... , ``passed_mg_2`` .. ``passed_mg_7`` (a passed pawn's bonus on its
second .. seventh rank), ``passed_eg_2`` .. ``passed_eg_7``, ``mobility_knight_mg`` ..
``mobility_queen_eg`` (per attacked square), ``king_attack_mg``, ``king_attack_eg``,
``shelter_none`` and ``shelter_2`` .. ``shelter_7`` (a king's shelter by the rank of the
pawn in front of it), in centipawns.
:class:`NamedWeights` gives :class:`~plies.games.chess.Chess` the three members:
``feature_names``, ``feature_weights()`` and ``with_weights()``; the values are rounded
to whole centipawns, as the evaluation counts.  Chess has no feature vector
(:func:`plies.linear.is_linear` is false): its weights are tuned by matches
(``plies tune chess``), not fitted to positions.

>>> from plies.games.chess.evaluation import WEIGHTS
>>> named(WEIGHTS)["rook_open_mg"], named(WEIGHTS)["passed_eg_7"]
(20.0, 80.0)
>>> replaced(WEIGHTS, {"doubled_eg": -25.4}).doubled
(-10, -25)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, Self

from plies.errors import OptionError
from plies.games.chess.evaluation import Weights

PAIRS: Final = (
    "doubled", "isolated", "rook_open", "rook_half_open", "bishop_pair", "king_attack"
)
"""The (mg, eg) fields of :class:`Weights` that are named weights."""
RANKS: Final = range(1, 7)  # the ranks a pawn can be on, 0-based from its own side
PIECES: Final = ("knight", "bishop", "rook", "queen")  # the order of the mobility weights

NAMES: Final = (
    *(f"{field}_{phase}" for field in PAIRS for phase in ("mg", "eg")),
    *(f"passed_{phase}_{rank + 1}" for phase in ("mg", "eg") for rank in RANKS),
    *(f"mobility_{piece}_{phase}" for piece in PIECES for phase in ("mg", "eg")),
    "shelter_none", *(f"shelter_{rank + 1}" for rank in RANKS),
)


def named(weights: Weights) -> dict[str, float]:
    """The named weights of ``weights`` (see the module docstring)."""
    out: dict[str, float] = {}
    for field in PAIRS:
        mg, eg = getattr(weights, field)
        out[f"{field}_mg"], out[f"{field}_eg"] = float(mg), float(eg)
    for phase in ("mg", "eg"):
        table = getattr(weights, f"passed_{phase}")
        for rank in RANKS:
            out[f"passed_{phase}_{rank + 1}"] = float(table[rank])
    for i, piece in enumerate(PIECES):
        for phase in ("mg", "eg"):
            out[f"mobility_{piece}_{phase}"] = float(getattr(weights, f"mobility_{phase}")[i])
    out["shelter_none"] = float(weights.shelter[0])
    for rank in RANKS:
        out[f"shelter_{rank + 1}"] = float(weights.shelter[rank])
    return out


def replaced(weights: Weights, values: Mapping[str, float]) -> Weights:
    """``weights`` with the named ``values`` (rounded to whole centipawns).

    Raises:
        OptionError: a name that is not a named weight; the message lists them.
    """
    unknown = [name for name in values if name not in NAMES]
    if unknown:
        raise OptionError(
            f"chess has no weight {', '.join(map(repr, unknown))}; its weights: "
            f"{', '.join(NAMES)}"
        )
    changes: dict[str, Any] = {}
    for field in PAIRS:
        mg, eg = getattr(weights, field)
        mg = round(values.get(f"{field}_mg", mg))
        eg = round(values.get(f"{field}_eg", eg))
        changes[field] = (mg, eg)
    for phase in ("mg", "eg"):
        table = list(getattr(weights, f"passed_{phase}"))
        for rank in RANKS:
            table[rank] = round(values.get(f"passed_{phase}_{rank + 1}", table[rank]))
        changes[f"passed_{phase}"] = tuple(table)
        mobility = list(getattr(weights, f"mobility_{phase}"))
        for i, piece in enumerate(PIECES):
            mobility[i] = round(values.get(f"mobility_{piece}_{phase}", mobility[i]))
        changes[f"mobility_{phase}"] = tuple(mobility)
    shelter = list(weights.shelter)
    shelter[0] = round(values.get("shelter_none", shelter[0]))
    for rank in RANKS:
        shelter[rank] = round(values.get(f"shelter_{rank + 1}", shelter[rank]))
    changes["shelter"] = tuple(shelter)
    return replace(weights, **changes)


class NamedWeights:
    """The named-weights members of :class:`~plies.games.chess.Chess` (a mixin: the
    game keeps ``fen``, ``max_plies``, ``weights`` and ``backend``)."""

    feature_names: tuple[str, ...] = NAMES
    fen: str
    max_plies: int | None
    weights: Weights
    backend: str

    def feature_weights(self) -> dict[str, float]:
        """The named weights this game evaluates with."""
        return named(self.weights)

    def with_weights(self, weights: Mapping[str, float]) -> Self:
        """The same game (position, ply limit, backend) evaluating with ``weights``
        (names not given keep theirs).

        Raises:
            OptionError: a name that is not a named weight.
        """
        new = replaced(self.weights, weights)
        return type(self)(self.fen, self.max_plies, new, self.backend)  # type: ignore[call-arg]
