"""Linear evaluations: ``evaluate`` as a weighted sum of named features, and weight files.

A game whose heuristic is ``w1·f1 + ... + wn·fn`` says so by implementing
:class:`LinearEvaluation` (structurally: no base class to inherit).  Then its weights
can be learned (``plies learn``, :mod:`plies.learn`), saved in a file, and loaded back
into a game that evaluates with them (``with_weights``), which is how a tournament pits
learned weights against the hand-set ones on the same rules.

The contract of the protocol:

- ``feature_names``: the features, in a fixed order;
- ``features(state, player)``: their values seen by ``player`` (in that order); a
  feature is "good for ``player``" when its weight is positive;
- ``feature_weights()``: the weights the game evaluates with now, one per name;
- ``with_weights(weights)``: a game with the same rules whose ``evaluate`` is the
  weighted sum with these weights (a game may squash the sum into its evaluation range,
  monotonically, as its docstring says: Othello maps ``x`` to ``64 x / (|x| + s)``).
  A name the game does not have raises :class:`~plies.errors.OptionError` listing the
  accepted ones; a missing name keeps its weight.

A game whose evaluation has named weights but no feature vector (chess: its pawn and rook
terms are weights of an evaluation that is not computed as one vector) declares only
``feature_names``, ``feature_weights()`` and ``with_weights(weights)``
(:func:`has_weights`): its weights can be tuned by matches (:mod:`plies.learn.spsa`),
saved and loaded by agents, but not fitted to self-play positions.

The file (JSON, one object)::

    {"format": "plies-weights", "version": 1, "game": "othello",
     "weights": {"mobility": 10.0, ...},
     "training": {"method": "logistic", "games": 400, "depth": 2, "seed": 1,
                  "date": "2026-11-24T05:00:00Z", "plies": "0.1.0", ...}}

This module is layer 0 (beside :mod:`plies.game`): it imports nothing but the errors,
the capped reader (:func:`plies.budget.read_text`) and :mod:`plies.outputs`.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "w.json")
>>> save_weights(path, "othello", {"corners": 80.0}, {"method": "logistic"})
>>> load_weights(path)
{'corners': 80.0}
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Protocol, Self, runtime_checkable

from plies.budget import InputTooLarge, read_text
from plies.errors import OptionError, OutputFileError, WeightsFileError, bounded, quoted
from plies.outputs import write_text

FORMAT: Final = "plies-weights"
VERSION: Final = 1
SIGNATURE: Final = b'"format": "plies-weights"'
"""What the head of every weights file plies writes holds: how ``plies learn --out``
recognises a file it may replace without ``--force`` (:func:`plies.outputs.check_target`)."""


@runtime_checkable
class LinearEvaluation(Protocol):
    """A game whose ``evaluate`` is a weighted sum of named features (module docstring)."""

    feature_names: tuple[str, ...]

    def features(self, state: Any, player: int) -> tuple[float, ...]:
        """The features of ``state`` seen by ``player``, in the order of ``feature_names``."""
        ...

    def feature_weights(self) -> dict[str, float]:
        """The weight of every feature, as this game evaluates now."""
        ...

    def with_weights(self, weights: Mapping[str, float]) -> Self:
        """The same game evaluating with ``weights`` (missing names keep their weight).

        Raises:
            OptionError: a name that is not a feature; the message lists the features.
        """
        ...


def is_linear(game: object) -> bool:
    """True when ``game`` implements :class:`LinearEvaluation`.

    >>> from plies.games import load
    >>> is_linear(load("othello")), is_linear(load("nim"))
    (True, False)
    """
    return (
        isinstance(getattr(game, "feature_names", None), tuple)
        and callable(getattr(game, "features", None))
        and callable(getattr(game, "feature_weights", None))
        and callable(getattr(game, "with_weights", None))
    )


def has_weights(game: object) -> bool:
    """True when ``game``'s evaluation has named weights that can be read and replaced:
    ``feature_names``, ``feature_weights()`` and ``with_weights()`` (every linear game).

    >>> from plies.games import load
    >>> has_weights(load("empire")), has_weights(load("nim"))
    (True, False)
    """
    return (
        isinstance(getattr(game, "feature_names", None), tuple)
        and callable(getattr(game, "feature_weights", None))
        and callable(getattr(game, "with_weights", None))
    )


def check_names(names: tuple[str, ...], weights: Mapping[str, float], game: str) -> None:
    """Refuse a weight whose name is not in ``names`` (a helper for ``with_weights``).

    Raises:
        OptionError: the unknown names, and the accepted ones.
    """
    unknown = [name for name in weights if name not in names]
    if unknown:
        shown = ", ".join(quoted(str(name)) for name in unknown)
        raise OptionError(
            f"{game} has no feature {shown}; its features: {', '.join(names)}"
        )


def weighted(game: Any, weights: Mapping[str, float]) -> Any:
    """``game.with_weights(weights)``, or a one-line error when the game is not linear.

    Raises:
        OptionError: ``game`` has no linear evaluation, or a name is not a feature.
    """
    if not has_weights(game):
        name = getattr(game, "name", type(game).__name__)
        raise OptionError(
            f"{name} has no linear evaluation (feature weights); weights apply to games "
            f"whose evaluation has named weights (plies.linear), e.g. othello, empire, chess"
        )
    return game.with_weights(weights)


def save_weights(
    path: str | Path,
    game: str,
    weights: Mapping[str, float],
    training: Mapping[str, Any] | None = None,
) -> None:
    """Write ``weights`` for the game named ``game`` to ``path`` (see the module docstring).

    ``training`` says how they were made (method, games, depth, seed, date, plies
    version, ...); it must be JSON-able.

    The file is replaced atomically (:func:`plies.outputs.write_text`): a failed write
    leaves an existing file as it was.

    Raises:
        WeightsFileError: a weight that is not a finite number, or the file cannot be
            written.
    """
    clean: dict[str, float] = {}
    for name, value in weights.items():
        number = float(value)
        if not math.isfinite(number):
            raise WeightsFileError(f"weight {name!r} is {value!r}; weights must be finite")
        clean[str(name)] = number
    data = {
        "format": FORMAT, "version": VERSION, "game": game, "weights": clean,
        "training": dict(training or {}),
    }
    try:
        write_text(path, json.dumps(data, indent=2) + "\n", label="weights file")
    except OutputFileError as err:
        raise WeightsFileError(str(err)) from None


def read_weights_file(path: str | Path, *, stdin: bool = False) -> dict[str, Any]:
    """The whole weights file at ``path``, checked: ``game``, ``weights``, ``training``.

    The file is read by :func:`plies.budget.read_text`: a regular file of at most
    :data:`~plies.budget.MAX_INPUT_BYTES`; with ``stdin``, ``-`` is standard input (for a
    command that reads the file once; a tournament's agents read theirs more than once).

    Raises:
        WeightsFileError: the file is missing or unreadable, not JSON, not a plies
            weights file, or a weight is not a finite number.
    """
    where = quoted(str(path), 80)
    try:
        # At most MAX_INPUT_BYTES of a regular file (or of stdin as "-"): a FIFO, a
        # device or a directory is refused without being read.
        text = read_text(path, stdin=stdin)
    except FileNotFoundError:
        raise WeightsFileError(f"no weights file {where}") from None
    except InputTooLarge as err:
        raise WeightsFileError(f"weights file {where}: {err}") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or "not UTF-8 text"
        raise WeightsFileError(f"cannot read weights file {where}: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise WeightsFileError(
            f"weights file {where} is not JSON (line {err.lineno}, column {err.colno}: "
            f"{err.msg})"
        ) from None
    except ValueError:  # an integer of more than 4,300 digits (int's own limit)
        raise WeightsFileError(
            f"weights file {where} holds a number of more than 4,300 digits; weights are "
            "finite numbers"
        ) from None
    except RecursionError:
        raise WeightsFileError(
            f"weights file {where} is nested too deeply to be a plies weights file"
        ) from None
    expected = (
        'expected {"format": "plies-weights", "game": NAME, "weights": {FEATURE: NUMBER, '
        '...}} as plies learn writes it'
    )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise WeightsFileError(f"{where} is not a plies weights file; {expected}")
    game, weights = data.get("game"), data.get("weights")
    if not isinstance(game, str) or not isinstance(weights, dict) or not weights:
        raise WeightsFileError(f"weights file {where} lacks its game or weights; {expected}")
    for name, value in weights.items():
        if not _finite(value):
            raise WeightsFileError(
                f"weights file {where}: weight {quoted(name)} is {bounded(repr(value), 40)}, "
                "not a finite number"
            )
    training = data.get("training", {})
    return {
        "game": game,
        "weights": {name: float(value) for name, value in weights.items()},
        "training": training if isinstance(training, dict) else {},
    }


def _finite(value: Any) -> bool:
    """Whether ``value`` (decoded JSON) is a finite number: not a bool, not 1e400 (read as
    inf), not an integer too large for a float (``math.isfinite`` raises on those)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def load_weights(path: str | Path, game: Any = None, *, stdin: bool = False) -> dict[str, float]:
    """The feature weights in the file at ``path``.

    With ``game``, the file must be for a game of that name, and every feature must be
    one of the game's (so a typo fails here, not in the middle of a tournament).

    Raises:
        WeightsFileError: see :func:`read_weights_file`; the file is for another game,
            or ``game`` has no linear evaluation.
        OptionError: a feature name that ``game`` does not have (the message lists its
            features).
    """
    data = read_weights_file(path, stdin=stdin)
    weights: dict[str, float] = data["weights"]
    if game is not None:
        name = getattr(game, "name", None)
        where = quoted(str(path), 80)
        if name is not None and name != data["game"]:
            raise WeightsFileError(
                f"weights file {where} is for {quoted(data['game'])}, not for {name!r}"
            )
        if not has_weights(game):
            raise WeightsFileError(
                f"weights file {where}: {name or 'this game'} has no linear evaluation"
            )
        check_names(game.feature_names, weights, f"{name or 'the game'} (weights file {where})")
    return weights


__all__ = [
    "FORMAT", "VERSION", "LinearEvaluation", "WeightsFileError", "check_names", "has_weights",
    "is_linear",
    "load_weights", "read_weights_file", "save_weights", "weighted",
]
