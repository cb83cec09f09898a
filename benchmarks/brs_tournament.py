"""Paranoid, max^n and Best-Reply Search in a round robin at equal time per move, with Elo.

    PYTHONPATH=src python benchmarks/brs_tournament.py tests/data/gdl/large/chineseCheckers3.kif \\
        --time 0.3 --games 4 --seed 1
    PYTHONPATH=src python benchmarks/brs_tournament.py empire -o turns=30 --time 0.2 \
        --games 4 --seed 1

GAME is a built-in game name or a ``.kif`` file.  The agents (``--agents``, default
``paranoid,maxn,brs+`` and ``brs`` too when the game has the ``pass_turn_to`` hook) each
search ``--time`` seconds per move (iterative deepening).  A GDL game has no evaluation
of its own (every cut-off would score 50, the middle of 0..100), so it is scored as the
GGP player scores it, by the goal value the rules give the state
(:class:`plies.ggp.strategy.GoalEvaluated`; 50 where the rules give none).  Chinese
checkers' goals stay 0 until a piece reaches the far corner, which leaves every move of
the opening equal; ``--eval progress`` scores it instead by how far the pieces have come
(:class:`CheckersProgress`, written for this benchmark from the rules' own move graph).
Games run in this process (one worker), seats rotated, ``--games`` times per group; the
tables are those of ``plies tournament``, and ``--json FILE`` saves the whole result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from rich.console import Console

from plies.cli.tournament import print_tournament
from plies.game import hook
from plies.games import load as load_game
from plies.gdl.game import GdlGame
from plies.gdl.source import is_gdl_path
from plies.ggp.strategy import GoalEvaluated
from plies.parallel.backends import LocalBackend
from plies.tournament import fit_elo, tournament
from plies.wrappers import GameWrapper


class CheckersProgress(GameWrapper[Any, Any]):
    """chineseCheckers3.kif scored at a cut-off by each player's progress.

    A piece's distance is the fewest single steps from its cell to its player's target
    corner along the player's own move relation (the rules' ``car``/``cdr`` facts:
    ``carred`` forwards for red, ``carmagenta`` backwards for green, ``caryellow``
    backwards for blue).  ``evaluate`` is ``99 * (1 - distance now / distance at the
    start)`` (so inside 0..100 and below a win), the utility at terminal states.
    """

    RELATIONS: Final = {
        "red": (("carred", "cdrred"), False),
        "green": (("carmagenta", "cdrmagenta"), True),
        "blue": (("caryellow", "cdryellow"), True),
    }
    TARGETS: Final = {"red": ("h1", "h2", "i1"), "green": ("c1", "c2", "d1"),
                      "blue": ("c6", "c7", "d6")}

    def __init__(self, game: GdlGame) -> None:
        super().__init__(game)
        self.gdl = game
        self.utility_range = (0.0, 100.0)
        facts = [r.head for r in game.description.rules if not r.body]
        self.distance: dict[str, dict[str, int]] = {}
        for role, (names, backwards) in self.RELATIONS.items():
            steps = [(f[2], f[1]) if backwards else (f[1], f[2]) for f in facts
                     if isinstance(f, tuple) and f[0] in names]
            dist = dict.fromkeys(self.TARGETS[role], 0)
            frontier = list(dist)
            while frontier:  # breadth first, backwards from the target corner
                cell = frontier.pop(0)
                for before, after in steps:
                    if after == cell and before not in dist:
                        dist[before] = dist[cell] + 1
                        frontier.append(before)
            self.distance[role] = dist
        self.start = [self.total(game.initial_state(), p) for p in range(game.num_players)]

    def total(self, state: Any, player: int) -> int:
        role = self.gdl.roles[player]
        dist = self.distance[role]
        return sum(dist.get(f[1], 99) for f in self.gdl.reasoner.fluents(state)
                   if f[0] == "cell" and f[2] == role)

    def evaluate(self, state: Any, player: int) -> float:
        if self.gdl.is_terminal(state):
            return float(self.gdl.utility(state, player))
        return 99.0 * (1.0 - self.total(state, player) / self.start[player])


def game_for(spec: str, evaluation: str = "goal", options: Sequence[str] = ()) -> Any:
    """The game named ``spec`` (with ``options``, ``["k=v", ...]``); a GDL game scored by
    its goal values at a cut-off (``evaluation="progress"``: by :class:`CheckersProgress`)."""
    game = load_game(spec, options)
    if not is_gdl_path(spec):
        return game
    if evaluation == "progress":
        return CheckersProgress(game)
    return GoalEvaluated(game, game.reasoner, informative=True)


def combine(paths: Sequence[str]) -> str:
    """Elo (95%) and pairwise scores of the games of several ``--json`` files together.

    The files must have the same agents in the same order (runs with different seeds).
    """
    runs = [json.loads(Path(p).read_text()) for p in paths]
    agents = runs[0]["agents"]
    if any(run["agents"] != agents for run in runs):
        raise SystemExit("the runs do not have the same agents")
    results = []
    for run in runs:
        for record in run["records"]:
            u, seats = record["utilities"], record["seats"]
            for p in range(len(seats)):
                for q in range(p + 1, len(seats)):
                    score = 1.0 if u[p] > u[q] else 0.5 if u[p] == u[q] else 0.0
                    results.append((seats[p], seats[q], score))
    fit = fit_elo(len(agents), results)
    games = sum(len(run["records"]) for run in runs)
    lines = [f"{games} games from {len(runs)} runs; Elo with 95% intervals:"]
    for i in sorted(range(len(agents)), key=lambda i: -fit.ratings[i]):
        low, high = fit.interval(i)
        lines.append(f"  {agents[i]:20} {fit.ratings[i]:+5.0f} ± {(high - low) / 2:.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help="a built-in game name or a .kif file")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. turns=30 (repeatable)")
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move (0.3)")
    parser.add_argument("--games", type=int, default=2, help="games per group and seat order")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default=None, help="comma-separated algorithms")
    parser.add_argument("--eval", choices=("goal", "progress"), default="goal",
                        help="a GDL game's cut-off score (progress: chineseCheckers3 only)")
    parser.add_argument("--json", metavar="FILE", help="save the whole result as JSON")
    parser.add_argument("--combine", nargs="+", metavar="FILE",
                        help="play nothing: fit Elo to the games of these --json files")
    args = parser.parse_args(argv)
    if args.combine:
        print(combine(args.combine))
        return 0
    if args.game is None:
        parser.error("give a GAME (or --combine FILE...)")
    game = game_for(args.game, args.eval, args.option)
    if args.agents is None:
        names = ["paranoid", "maxn", "brs+"]
        if hook(game, "pass_turn_to") is not None:
            names.append("brs")
    else:
        names = args.agents.split(",")
    agents = [f"{name}:time={args.time:g}" for name in names]
    load = os.getloadavg()
    result = tournament(
        game, agents, rounds=args.games, seed=args.seed, backend=LocalBackend(workers=1),
        progress=lambda k: print(".", end="", file=sys.stderr, flush=True),
    )
    print(file=sys.stderr)
    console = Console(width=120)
    print_tournament(console, result)
    after = os.getloadavg()
    console.print(f"load average (1 min) before {load[0]:.2f}, after {after[0]:.2f}")
    if args.json:
        data = result.as_dict()
        data["load_before"], data["load_after"] = list(load), list(after)
        data["command"] = " ".join(["benchmarks/brs_tournament.py", *(argv or sys.argv[1:])])
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
