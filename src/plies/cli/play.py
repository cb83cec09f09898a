"""``plies play``: a game in the terminal, human against engine or engine against engine.

A human types a move at the prompt, or one of the commands:

- ``?`` or ``hint``: the engine's value of every legal move for the player to move, best
  first (the same search as the engine's own move);
- ``help``: how to write a move, and these commands;
- ``q``, ``quit`` or ``exit`` (or the end of input): stop.

An illegal or unreadable move gets one line (what was wrong, how to write a move, the
legal moves) and the prompt again; the game goes on.

The position is shown as the game's board (its ``board`` hook, the last move marked; in
colour on a colour terminal), or as its text picture for a game without one.

A game with play defaults (its ``play_defaults`` hook: chess, Othello) plays with them
(:func:`plies.policy.play_defaults`): two seconds a move unless ``--depth``, ``--time``
or ``--nodes`` says otherwise, engine craft, and for chess quiescence and mate scores.
The engine's move is shown with its value ("35 cp", "mate in 2"), its principal
variation and the search statistics (depth, nodes, time, nodes per second), and a
terminal shows each finished iteration while it thinks.  Other games show the value,
the depth and the nodes of the plain request.

Games with hidden information (information sets, :mod:`plies.imperfect`: ``kuhn``,
``leduc``) are shown to a human as that human sees them (its own card, not the
engine's: :func:`plies.imperfect.render_for`), chance says only that it dealt, and the
cards are turned face up when the hand is over.  The engine plays them fairly, by
determinization (:func:`plies.determinize`, ``--worlds`` sampled worlds, each searched
with expectiminimax): with ``--algorithm auto`` it never reads the cards it cannot see.
Another ``--algorithm`` searches the full state, every card face up.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final

from rich.console import Console

from plies.cli.args import game_of, limit_of, player_of, position_of, say, show
from plies.cli.progress import watch
from plies.errors import IllegalActionError, OptionError, quoted
from plies.game import (
    CHANCE,
    SIMULTANEOUS,
    format_action,
    format_player_action,
    legal_actions,
    parse_action,
)
from plies.game.text import result_text
from plies.imperfect import is_imperfect, render_for
from plies.policy import (
    SearchRequest,
    SearchSession,
    number,
    plan,
    player_name,
    pv_text,
)
from plies.search import Limit, SearchResult, determinize


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add the ``play`` sub-command to the ``plies`` argument parser."""
    p = sub.add_parser("play", parents=[common], help="play in the terminal")
    p.add_argument(
        "--human", default="0",
        help="comma-separated human players (numbers or names), or 'none' for engine vs engine",
    )
    p.add_argument(
        "--worlds", metavar="N",
        help="hidden cards (kuhn, leduc): worlds the engine samples a move, or 'all' "
        "(default 20)",
    )


def run(console: Console, args: argparse.Namespace) -> int:
    """Play until the game ends or a human quits; returns the exit code."""
    return cmd_play(console, args)


QUIT: Final = frozenset({"q", "quit", "exit"})
HINT: Final = frozenset({"?", "hint"})
HELP: Final = frozenset({"help"})


class Session:
    """A game being played: the engine, the limit and the random source."""

    def __init__(self, game: Any, args: argparse.Namespace) -> None:
        self.game = game
        self.args = args
        self.engine = SearchSession(game)
        self.rng = random.Random(args.seed)
        # Chess and Othello: the engine's own limit (a time a move, or the user's);
        # other games keep the plain request's default of two seconds.
        self.given = any(getattr(args, k, None) is not None for k in ("depth", "time", "nodes"))
        self.plain_limit = None if self.engine.tuned else limit_of(args, default_time=2.0)
        # Hidden cards: the engine plays by determinization unless told otherwise.
        self.hidden = is_imperfect(game)
        self.fair = self.hidden and args.algorithm == "auto"
        self.worlds = worlds_of(getattr(args, "worlds", None))

    def limit(self, state: Any) -> Limit | None:
        """The limit of one search at ``state``."""
        if not self.engine.tuned:
            return self.plain_limit
        a = self.args
        if not self.given and a.unit == "ply":
            return self.engine.limit(state=state)
        return self.engine.limit(a.depth, a.time, a.nodes, a.unit)

    @property
    def moves_help(self) -> str:
        d = self.engine.defaults
        return d.moves_help if d is not None and d.moves_help else ""


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    """``plies play``: play until the game ends or a human quits; returns the exit code."""
    game = game_of(args)
    state, _ = position_of(args, game)
    humans = set() if args.human.strip().lower() == "none" else {
        player_of(game, state, token) for token in args.human.split(",") if token.strip()
    }
    table = Session(game, args)
    rng = table.rng
    last: Any = None  # the action that led to the position shown (marked on a board)
    while not game.is_terminal(state):
        mover = game.to_move(state)
        viewer = _viewer(table, humans, mover)
        if viewer is None:
            show(console, game, state, last)
        else:
            say(console, render_for(game, state, viewer))
        if mover == SIMULTANEOUS:
            joint = _joint_move(console, game, state, humans, table.plain_limit, rng)
            if joint is None:
                say(console, "bye")
                return 0
            state, last = game.result(state, joint), joint
            continue
        if mover == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            if viewer is None:
                say(console, f"chance: {format_action(game, state, action)}")
            else:  # a deal may hold a card the human must not see; the next view shows
                say(console, "chance: dealt")  # what the human does see
        elif mover in humans:
            action = _ask(console, game, state, mover, table=table)
            if action is None:
                say(console, "bye")
                return 0
            if table.engine.tuned:  # the move as the game writes it (e2e4 -> e4)
                say(console, f"{player_name(game, mover)} plays "
                             f"{format_action(game, state, action)}")
        else:
            action = _engine_move(console, table, state, mover)
        state, last = game.result(state, action), action
    show(console, game, state, last)
    scores = ", ".join(
        f"{player_name(game, p)} {number(game.utility(state, p))}"
        for p in range(game.num_players)
    )
    outcome = getattr(game, "outcome", None)
    if callable(outcome):
        result = f"{outcome(state)} ({scores})"
    elif game.num_players == 1:
        result = scores
    else:
        utilities = [game.utility(state, p) for p in range(game.num_players)]
        result = f"{result_text(game, utilities)} ({scores})"
    say(console, f"game over: {result}")
    return 0


def worlds_of(text: str | None) -> int | None:
    """``--worlds``: an int >= 1, or ``all`` (None: every world, listed exactly).

    Without the option, 20 worlds.
    """
    if text is None:
        return 20
    if text.strip().lower() == "all":
        return None
    try:
        worlds = int(text)
    except ValueError:
        worlds = 0
    if worlds < 1:
        raise OptionError(f"bad --worlds {quoted(text)}: use an int >= 1 or all")
    return worlds


def _viewer(table: Session, humans: set[int | None], mover: int) -> int | None:
    """Whose view to show in a game with hidden cards: the human to move, else the first
    human; None (the referee's full view) without hidden cards or humans."""
    if not table.hidden or not humans:
        return None
    if mover in humans:
        return mover
    return min(p for p in humans if p is not None)


def _determinized(table: Session, state: Any, mover: int, seed: int) -> SearchResult:
    """Determinization for ``mover``: the engine's search in a game with hidden cards."""
    return determinize(
        table.game, state, table.worlds, table.plain_limit, player=mover, seed=seed
    )


def _fair_name(table: Session) -> str:
    worlds = "every world" if table.worlds is None else f"{table.worlds} worlds"
    return f"determinize, {worlds}"


def _engine_move(console: Console, table: Session, state: Any, mover: int) -> Any:
    """The engine's move for ``mover``, announced with its value and statistics."""
    game, args, engine = table.game, table.args, table.engine
    seed = table.rng.randrange(2**32)
    if table.fair:
        result = _determinized(table, state, mover, seed)
        action = _chosen(game, mover, result.action)
        say(
            console,
            f"{player_name(game, mover)} ({_fair_name(table)}) plays "
            f"{format_action(game, state, action)}: value {number(result.value)}, "
            f"{result.stats.nodes:,} nodes in {result.stats.elapsed:.2f}s",
        )
        return action
    if not engine.tuned:
        request = SearchRequest(
            algorithm=args.algorithm, limit=table.plain_limit, player=mover, tie=args.tie,
            seed=seed, engine=args.engine, strict_cutoffs=args.strict_cutoffs,
        )
        chosen = plan(game, state, request)
        with console.status(f"{chosen.name} is thinking...", spinner="dots") as status:
            progress = watch(console, status, f"{chosen.name} is thinking",
                             exact=table.plain_limit is None)
            result = chosen.run(game, state, stop=progress)
        action = _chosen(game, mover, result.action)
        say(
            console,
            f"{player_name(game, mover)} ({chosen.name}) plays "
            f"{format_action(game, state, action)}: value {number(result.value)}, "
            f"depth {result.stats.depth}, {result.stats.nodes:,} nodes in "
            f"{result.stats.elapsed:.2f}s",
        )
        return action
    with console.status("thinking...", spinner="dots") as status:
        def on_iteration(r: SearchResult) -> None:
            if r.action is not None:
                status.update(f"thinking: depth {r.stats.depth}, {engine.score(r)}, pv "
                              f"{' '.join(pv_text(game, state, r.pv))}, {r.stats.nodes:,} nodes")

        result = engine.run(
            state, table.limit(state), algorithm=args.algorithm, player=mover, tie=args.tie,
            seed=seed, on_iteration=on_iteration,
        )
    action = _chosen(game, mover, result.action)
    name = engine.plan.name if engine.plan is not None else args.algorithm
    say(
        console,
        f"{player_name(game, mover)} ({name}) plays {format_action(game, state, action)}: "
        f"value {engine.score(result)}, pv {' '.join(pv_text(game, state, result.pv))} "
        f"({_stats(result)})",
    )
    return action


def signed(value: float) -> str:
    """A move's value for people, with its sign: ``+2``, ``0``, ``-4``."""
    text = number(value)
    return f"+{text}" if value > 0 else text


def _chosen(game: Any, mover: int, action: Any) -> Any:
    if action is None:  # e.g. --depth 0: a value, but no move was compared
        raise OptionError(
            f"the engine chose no move for {player_name(game, mover)} within the "
            "limit; give it --depth 1 or more, or --time"
        )
    return action


def _stats(result: SearchResult) -> str:
    s = result.stats
    exact = ", exact" if result.exact else ""
    return (f"depth {s.depth}{exact}, {s.nodes:,} nodes in {s.elapsed:.2f}s, "
            f"{s.nps:,.0f} nodes/s")


def _hint(console: Console, table: Session, state: Any, mover: int) -> None:
    """The engine's value of every legal move for ``mover``, best first."""
    game, args, engine = table.game, table.args, table.engine
    seed = table.rng.randrange(2**32)
    with console.status("weighing every move...", spinner="dots"):
        if table.fair:
            result = _determinized(table, state, mover, seed)
            shown = {a: signed(v) for a, v in (result.action_values or {}).items()}
            name = _fair_name(table)
        elif engine.tuned:
            result = engine.run(
                state, table.limit(state), algorithm=args.algorithm, player=mover,
                tie=args.tie, seed=seed, all_values=True,
            )
            shown = {a: str(s) for a, s in engine.action_scores(result).items()}
            name = engine.plan.name if engine.plan is not None else args.algorithm
        else:
            request = SearchRequest(
                algorithm=args.algorithm, limit=table.plain_limit, player=mover,
                tie=args.tie, seed=seed, engine=args.engine, all_values=True,
                strict_cutoffs=args.strict_cutoffs,
            )
            chosen = plan(game, state, request)
            result = chosen.run(game, state)
            shown = {a: signed(v) for a, v in (result.action_values or {}).items()}
            name = chosen.name
    values = result.action_values or {}
    order = sorted(values, key=lambda a: -values[a])  # stable: ties keep the game's order
    moves = ", ".join(f"{format_action(game, state, a)}: {shown[a]}" for a in order)
    say(console, f"value of every move for {player_name(game, mover)}, best first "
                 f"({name}, {_stats(result)}): {moves or '-'}")


def _joint_move(
    console: Console, game: Any, state: Any, humans: set[int | None], limit: Limit | None,
    rng: random.Random,
) -> tuple[Any, ...] | None:
    """Everyone's move at a simultaneous node: humans type, engines draw from the
    mixed strategy of :func:`plies.simultaneous`.  None when a human quits."""
    joint: list[Any] = []
    for p in range(game.num_players):
        choices = list(game.player_actions(state, p))
        if p in humans and len(choices) > 1:
            action = _ask(console, game, state, p, choices)
            if action is None:
                return None
        elif len(choices) == 1:
            action = choices[0]
        else:
            request = SearchRequest("simultaneous", limit, player=p, seed=rng.randrange(2**32))
            result = plan(game, state, request).run(game, state)
            strategy = result.strategy or {result.action: 1.0}
            action = rng.choices(list(strategy), list(strategy.values()))[0]
            mix = ", ".join(
                f"{format_player_action(game, state, p, a)} {q:.2f}"
                for a, q in strategy.items() if q
            )
            say(console, f"{player_name(game, p)} (simultaneous, mix {mix}) plays "
                          f"{format_player_action(game, state, p, action)}")
        joint.append(action)
    return tuple(joint)


def _ask(
    console: Console, game: Any, state: Any, mover: int, choices: Sequence[Any] | None = None,
    *, table: Session | None = None,
) -> Any:
    """A move typed by ``mover``: one of ``choices`` (at a simultaneous node) or legal.

    With a ``table`` (an ordinary turn), ``?``/``hint`` and ``help`` are answered too.
    """
    actions = list(legal_actions(game, state) if choices is None else choices)
    if choices is None:
        legal = [format_action(game, state, a) for a in actions]
    else:
        legal = [format_player_action(game, state, mover, a) for a in actions]
    tuned = table is not None and table.engine.tuned
    extra = "? for the value of every move, help, q to quit" if tuned else "q to quit"
    commands: dict[frozenset[str], Callable[[], None]] = {}
    if table is not None:
        commands[HINT] = lambda: _hint(console, table, state, mover)
        commands[HELP] = lambda: say(console, _help_text(table))
    while True:
        say(console, f"{player_name(game, mover)} to move; legal: {', '.join(legal)} ({extra})")
        try:
            text = input("> ")
        except EOFError:
            say(console)  # the prompt line was not ended by the user's Enter
            return None
        if not sys.stdin.isatty():  # piped input: echo it so the transcript reads well
            say(console, text)
        word = text.strip().lower()
        if word in QUIT:
            return None
        command = next((run for words, run in commands.items() if word in words), None)
        if command is not None and word not in (m.lower() for m in legal):  # a move wins
            command()
            continue
        if choices is not None:
            typed = " ".join(text.split()).lower()
            for action, shown in zip(actions, legal, strict=True):
                if shown.lower() == typed:
                    return action
            say(console, f"not a move of {player_name(game, mover)}: {text!r}", style="red")
            continue
        try:
            return parse_action(game, state, text)
        except IllegalActionError as err:
            if tuned and table is not None:
                say(console, f"illegal move {text.strip()!r}: {table.moves_help}; legal here: "
                             f"{', '.join(err.legal) or 'none'}", style="red")
            else:
                say(console, str(err), style="red")


def _help_text(table: Session) -> str:
    how = table.moves_help or "type a move as the legal list writes it"
    return (f"{how[0].upper()}{how[1:]}. Commands: ? or hint (the engine's value of every "
            f"legal move), help, q (quit).")


__all__ = ["HELP", "HINT", "QUIT", "Session", "cmd_play", "worlds_of"]
