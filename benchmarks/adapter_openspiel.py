"""OpenSpiel's Python search algorithms (``open_spiel.python.algorithms.minimax``).

OpenSpiel searches only its own ``pyspiel`` states, so it cannot be handed the shared game
objects: tic-tac-toe and Connect Four are its native C++ games (``tic_tac_toe``,
``connect_four``; legal actions ascending, i.e. the same natural order, and the same
utilities +1/-1/0), and the synthetic tree is registered with pyspiel as a Python game
whose leaves use :func:`workloads.leaf_value`.  The W2 evaluation is
:func:`workloads.connect4_score` of ``state.history()``: the same code as every other
library's.

Algorithms: ``alpha_beta_search`` (fail-soft, root window updated after every child, like
the others) and, for plain minimax, ``expectiminimax``, which on a deterministic game is
exactly minimax.  Both clone the state for every child.

Counting nodes: wrapping a C++ state in a Python proxy would slow OpenSpiel down several
times over, so ``run()`` searches the bare pyspiel states and ``count()`` repeats the search
once, untimed, through :class:`CountingState`, which counts every ``apply_action`` (one per
generated child); the root adds one.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

from adapters import Search, Unavailable
from bare import Outcome
from workloads import BRANCHING, DEPTH, connect4_score, leaf_value, tree_depth

NATIVE = {"tictactoe": "tic_tac_toe", "connect4": "connect_four"}


def install_failure() -> str | None:
    """What ``setup_env.sh`` recorded when ``pip install open_spiel`` failed, if it did."""
    marker = Path(sys.prefix) / "open_spiel.failed"
    if marker.is_file():
        text = " ".join(marker.read_text().split())
        return text[-300:] or "pip install open_spiel failed"
    return None


class CountingState:
    """A pyspiel state look-alike that counts the children generated from it."""

    __slots__ = ("counter", "inner")

    def __init__(self, inner: Any, counter: list[int]) -> None:
        self.inner = inner
        self.counter = counter

    def clone(self) -> CountingState:
        return CountingState(self.inner.clone(), self.counter)

    def apply_action(self, action: int) -> None:
        self.counter[0] += 1
        self.inner.apply_action(action)

    def is_terminal(self) -> bool:
        return bool(self.inner.is_terminal())

    def is_chance_node(self) -> bool:
        return bool(self.inner.is_chance_node())

    def player_return(self, player: int) -> float:
        return float(self.inner.player_return(player))

    def current_player(self) -> int:
        return int(self.inner.current_player())

    def legal_actions(self) -> list[int]:
        return list(self.inner.legal_actions())

    def history(self) -> list[int]:
        return list(self.inner.history())


@cache
def _tree_game() -> Any:
    """The synthetic tree as a pyspiel Python game (built once, on first use)."""
    import pyspiel

    game_type = pyspiel.GameType(
        short_name="plies_bench_tree",
        long_name="plies benchmark synthetic tree",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=BRANCHING,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1000.0,
        max_utility=1000.0,
        utility_sum=0.0,
        max_game_length=DEPTH,
    )
    actions = list(range(BRANCHING))

    class TreeState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.code = 1

        def current_player(self) -> int:
            depth = tree_depth(self.code)
            return int(pyspiel.PlayerId.TERMINAL) if depth == DEPTH else depth & 1

        def _legal_actions(self, player: int) -> list[int]:
            return actions

        def _apply_action(self, action: int) -> None:
            self.code = (self.code << 3) | action

        def is_terminal(self) -> bool:
            return tree_depth(self.code) == DEPTH

        def returns(self) -> list[float]:
            v = float(leaf_value(self.code))
            return [v, -v]

        def __str__(self) -> str:
            return oct(self.code)

    class TreeGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> Any:
            return TreeState(self)

    return TreeGame()


def make_openspiel(name: str, algorithm: str, depth: int | None) -> Search:
    try:
        import pyspiel
        from open_spiel.python.algorithms.minimax import alpha_beta_search, expectiminimax
    except ImportError as exc:
        raise Unavailable(install_failure() or f"not installed ({exc})") from exc
    game = pyspiel.load_game(NATIVE[name]) if name in NATIVE else _tree_game()
    plies_deep = depth if depth is not None else int(game.max_game_length())

    def value_function(state: Any) -> float:
        if name != "connect4":
            raise AssertionError("a search to the end never evaluates")
        return connect4_score(state.history(), 0)

    def search(state: Any) -> tuple[float, int]:
        if algorithm == "minimax":
            value, action = expectiminimax(state, plies_deep, value_function, 0)
        else:
            value, action = alpha_beta_search(
                game, state, value_function, maximum_depth=plies_deep, maximizing_player_id=0
            )
        return float(value), int(action)

    def run() -> Outcome:
        value, action = search(game.new_initial_state())
        return Outcome(value + 0.0, action, None)

    def count() -> int:
        counter = [1]  # the root
        search(CountingState(game.new_initial_state(), counter))
        return counter[0]

    kind = "native C++ game" if name in NATIVE else "Python-registered pyspiel game"
    return Search(run, count, note=f"{kind}; nodes counted in an extra untimed pass")
