"""Best-Reply Search: of all the opponents, only the strongest one replies.

Paranoid search (:func:`plies.alphabeta` with more than two players) lets every opponent
move against the searching player, so in a game of N players it sees only about
``d / N`` of its own turns at depth ``d``; max^n (:func:`plies.maxn`) cannot prune.
Best-Reply Search (Schadd and Winands, "Best Reply Search for Multiplayer Games", IEEE
TCIAIG 3(1), 2011) searches a two-layer game instead: a MAX layer, the searching
player's turn, and a MIN layer in which the moves of *all* opponents are pooled and only
the single best reply among them is played, the other opponents passing.  MAX then moves
again, so the searching player sees every other layer, and alpha-beta applies unchanged.

Two members, for two kinds of games:

``brs`` (:func:`brs`), the original.  Passing is usually illegal, so it needs the game's
out-of-turn hook ``pass_turn_to(state, player)`` (see :class:`plies.Game`): the replier
gets the state in which it starts its turn, the opponents before it skipped, and after
its turn the searching player gets the turn back the same way.  Its lines are therefore
not legal lines of the game.  A game of three or more players without the hook is
refused (two players never need it: the one opponent always replies in turn).

``brs+`` (:func:`brs_plus`) is BRS+ (Esser, Gras, Winands, Schadd and Lanctot,
"Improving Best-Reply Search", Computers and Games 2013): the opponents who do not reply
play a fixed move instead of passing, the first of their actions in the game's move
ordering (``order_hint`` when the game has one, else ``actions()`` order).  Every line is
then a legal line, and any sequential game works without a hook (GDL games included).
Within one opponents' segment the opponents move in their turn order; the segment
branches over which of them replies and how, the ones before the replier having played
their fixed moves.

Several moves per turn (:class:`plies.MultiMoveTurns`): a turn belongs to one layer.
The searching player's turn is a stack of MAX nodes, the replier's whole turn a stack of
MIN nodes, and the other opponents pass (``brs``) or play fixed moves for every move of
their turns (``brs+``).

Depth.  ``unit="ply"`` (the default) counts every searched move: the searching player's
and the replier's, not the passes nor ``brs+``'s fixed moves.  With one move per turn a
ply is one of the papers' layers (MAX or MIN), so ``Limit(depth=d)`` is their depth
``d``, and with two players both members are exactly alpha-beta at every depth.  With
several moves per turn a cut-off may fall inside a turn, as in alpha-beta, which keeps
iterative deepening under a clock fine-grained.  ``unit="round"`` counts whole layers, the
papers' way carried over to turns of several moves: a round is a MAX layer (the
searching player's whole turn) and a MIN layer (one opponents' segment with the
replier's whole turn), so depth ``d`` is ``2d`` layers; with an opponent to move at the
root, that first segment belongs to round 0, as in alpha-beta's round count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from plies.errors import OptionError, UnsupportedGameError
from plies.game import Game, hook
from plies.search.common import (
    INF,
    NOBODY,
    Limit,
    Searcher,
    SearchResult,
    StopSignal,
    Trace,
    search_with,
)

PASS_HOOK = "pass_turn_to"

__all__ = ["BrsPlusSearcher", "BrsSearcher", "brs", "brs_plus"]


class BrsSearcher(Searcher):
    """Best-Reply Search (``brs``) with a fail-soft alpha-beta window.

    The recursion keeps, besides the depth, the *replier*: :data:`NOBODY`
    while the searching player moves and at the start of an opponents' segment (the
    pooled MIN node, :meth:`best_reply`), else the one opponent whose reply is being
    searched.  ``pruning=False`` searches the same tree without cutting anything off
    (the reference that the pruned search is tested against).
    """

    algorithm = "brs"
    windowed = True
    plus: ClassVar[bool] = False
    pruning: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        self.by_layer = self.unit == "round"
        if self.by_layer and self.max_depth is not None:
            self.max_depth *= 2  # a round is a MAX and a MIN layer
        self.rounds, self.ply_step = False, 0  # depth is counted here, not by Searcher
        self.pass_turn: Callable[[Any, int], Any] | None = hook(self.game, PASS_HOOK)
        self.order_hint: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = hook(
            self.game, "order_hint"
        )

    @classmethod
    def refuse(cls, game: Any) -> None:
        """Also refuse ``brs`` on a game of 3+ players without ``pass_turn_to``."""
        super().refuse(game)
        if not cls.plus and int(game.num_players) > 2 and hook(game, PASS_HOOK) is None:
            name = getattr(game, "name", None) or type(game).__name__
            raise UnsupportedGameError(
                f"brs lets one opponent reply out of turn, which needs the game hook "
                f"pass_turn_to(state, player); {name} has none: use brs+ (the other "
                f"opponents play their first ordered move instead of passing)"
            )

    def root(
        self,
        state: Any,
        *,
        tie: str = "first",
        rng: Any = None,
        all_values: bool = False,
    ) -> tuple[float, Any, list[Any], dict[Any, float] | None]:
        """Search the root (see :meth:`Searcher.search_root`).

        With ``unit="round"`` and an opponent to move at the root, that opponents'
        segment belongs to round 0, as in :func:`plies.alphabeta`'s round count.
        """
        ops = self.ops
        if (
            self.unit == "round" and self.max_depth and not ops.is_terminal(state)
            and ops.to_move(state) != self.player
        ):
            self.max_depth += 1
        return super().root(state, tie=tie, rng=rng, all_values=all_values)

    # -- the layers ------------------------------------------------------------------------

    def node_value(
        self, state: Any, depth: int, last: int, ply: int, alpha: float, beta: float
    ) -> float:
        """Fail-soft value of ``state`` for ``self.player`` in the BRS tree.

        ``last`` is the replier (see the class docstring).  If ``alpha < v < beta``,
        ``v`` is the BRS value; ``v <= alpha``: the value is at most ``v``; ``v >= beta``:
        at least ``v``.
        """
        replier = last
        if self.plus and replier != NOBODY and self.is_fixed(state, replier):
            return self.fixed_node(state, depth, replier, ply, alpha, beta)
        mover, depth, value = self.arrive(state, depth, replier, ply, alpha, beta)
        if value is not None:
            return value
        if mover == self.player or mover == replier:
            return self.turn_node(state, depth, mover, replier, ply, alpha, beta)
        if replier == NOBODY:
            return self.best_reply(state, depth, ply, alpha, beta)
        raise UnsupportedGameError(
            f"{self.algorithm}: player {mover} moves in the middle of player "
            f"{replier}'s reply (does pass_turn_to hand the turn to the right player?)"
        )

    def is_fixed(self, state: Any, replier: int) -> bool:
        """True at a ``brs+`` node where an opponent other than the replier moves."""
        ops = self.ops
        return not ops.is_terminal(state) and ops.to_move(state) not in (self.player, replier)

    def fixed_node(
        self, state: Any, depth: int, replier: int, ply: int, alpha: float, beta: float
    ) -> float:
        """``brs+``: an opponent who does not reply plays its fixed move.

        No cut-off here: the opponents' segment is one layer, cut off (if at all) where it
        starts, so a depth limit never leaves an opponent's fixed move unplayed.
        """
        self.enter(ply)
        mover = self.ops.to_move(state)
        self.check_mover(mover)
        if self.trace is not None:
            self.emit("enter", state, depth, mover, alpha=alpha, beta=beta)
            self.emit("expand", state, depth, mover, alpha=alpha, beta=beta)
        action = self.fixed_move(state)
        value = self.after(state, action, depth, mover, replier, ply, alpha, beta)
        self.pv[ply] = [action, *self.pv[ply + 1]]
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value, alpha, beta)
        return value

    def turn_node(
        self, state: Any, depth: int, mover: int, replier: int, ply: int,
        alpha: float, beta: float,
    ) -> float:
        """A node of the searching player's turn (MAX) or of the replier's (MIN)."""
        maximizing = mover == self.player
        value = -INF if maximizing else INF
        actions = self.legal(state)
        for i, action in enumerate(actions):
            v = self.after(state, action, depth, mover, replier, ply, alpha, beta)
            if maximizing:
                if v <= value:
                    continue
                value = v
                if self.pruning:
                    alpha = max(alpha, v)
            else:
                if v >= value:
                    continue
                value = v
                if self.pruning:
                    beta = min(beta, v)
            self.pv[ply] = [action, *self.pv[ply + 1]]
            if alpha >= beta:
                if i + 1 < len(actions):
                    self.prune(state, depth, mover, value, alpha, beta, actions[i + 1 :])
                break
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value, alpha, beta)
        return value

    def best_reply(self, state: Any, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The pooled MIN node: the least value over every opponent's every reply.

        Opponents are tried in turn order from the mover; alpha-beta prunes across them
        (a cutoff skips the remaining replies of every opponent).  An opponent who gets
        no turn before the searching player's (the game ends first, or it is out of the
        game) has no reply.  If none has, the state is scored as a cut-off.
        """
        mover = self.ops.to_move(state)
        value = INF
        starts = self.reply_starts(state, mover)
        for k, (replier, start, prefix) in enumerate(starts):
            actions = self.legal(start)
            for i, action in enumerate(actions):
                v = self.after(start, action, depth, replier, replier, ply, alpha, beta)
                if v >= value:
                    continue
                value = v
                if self.pruning:
                    beta = min(beta, v)
                self.pv[ply] = [*prefix, action, *self.pv[ply + 1]]
                if alpha >= beta:
                    if i + 1 < len(actions) or k + 1 < len(starts):
                        # Pruned: this replier's other moves, and every later replier's.
                        rest = list(actions[i + 1 :])
                        if self.trace is not None:
                            rest += [a for _, s, _ in starts[k + 1 :] for a in self.legal(s)]
                        self.prune(state, depth, mover, value, alpha, beta, rest)
                    if self.trace is not None:
                        self.emit("backup", state, depth, mover, value, alpha, beta)
                    return value
        if value == INF:  # nobody could reply: score the position as it stands
            value = float(self.ops.evaluate(state, self.player))
            self.stats.evals += 1
            self.heuristic = True
            self.pv[ply] = []
        if self.trace is not None:
            self.emit("backup", state, depth, mover, value, alpha, beta)
        return value

    # -- moving between layers ---------------------------------------------------------

    def after(
        self, state: Any, action: Any, depth: int, mover: int, replier: int, ply: int,
        alpha: float, beta: float,
    ) -> float:
        """The value of the child reached by ``mover``'s ``action`` (window as given).

        A turn of the searching player that ends starts a new (MIN) layer, and so does
        the end of the segment (the searching player to move again); in ``brs`` the
        replier's turn ends the segment, the searching player getting the turn back by
        ``pass_turn_to``.  Depth grows by one per searched move (``unit="ply"``: the
        searching player's and the replier's moves, not passes nor ``brs+``'s fixed
        moves) or per layer (``unit="round"``).
        """
        ops = self.ops
        child = ops.result(state, action)
        searched = mover == self.player or mover == replier
        layer = 0
        if not ops.is_terminal(child):
            nxt = ops.to_move(child)
            if mover == self.player:
                layer = int(nxt != self.player)
            elif nxt == self.player:
                layer, replier = 1, NOBODY
            elif not self.plus and nxt != replier:
                passed = self.pass_to(child, self.player)
                if passed is not None:
                    child = passed
                    layer, replier = 1, NOBODY
                # else the searching player has no turn to take: the child is scored below
        depth += layer if self.by_layer else int(searched)
        if self.trace is None:
            return self.node_value(child, depth, replier, ply + 1, alpha, beta)
        self.path.append(action)
        try:
            return self.node_value(child, depth, replier, ply + 1, alpha, beta)
        finally:
            self.path.pop()

    def child_value(
        self, state: Any, action: Any, depth: int, last: int, ply: int,
        alpha: float = -INF, beta: float = INF,
    ) -> float:
        """A root child: the root is the searching player's turn, or else the mover's reply."""
        mover = self.ops.to_move(state)
        replier = NOBODY if mover == self.player else mover
        return self.after(state, action, 0, mover, replier, ply, alpha, beta)

    def reply_starts(self, state: Any, mover: int) -> list[tuple[int, Any, list[Any]]]:
        """``(opponent, the state where its reply starts, the moves before it)`` for each
        opponent that can reply in the segment starting at ``state``, in turn order.

        ``brs``: the mover at ``state``, then every other opponent (in player order
        from the mover) through ``pass_turn_to``.  ``brs+``: the fixed moves are played
        from ``state`` up to the searching player's turn; each opponent starts where it
        first moves on that line.
        """
        ops, n = self.ops, self.ops.num_players
        starts: list[tuple[int, Any, list[Any]]] = [(mover, state, [])]
        if not self.plus:
            for k in range(1, n):
                q = (mover + k) % n
                if q == self.player:
                    continue
                start = self.pass_to(state, q)
                if start is not None and not ops.is_terminal(start) and ops.to_move(start) == q:
                    starts.append((q, start, []))
            return starts
        seen, line, s = {mover}, [], state
        while True:
            action = self.fixed_move(s)
            line.append(action)
            s = ops.result(s, action)
            if ops.is_terminal(s):
                return starts
            q = ops.to_move(s)
            if q == self.player:
                return starts
            if q not in seen:
                seen.add(q)
                starts.append((q, s, list(line)))

    def pass_to(self, state: Any, player: int) -> Any:
        """``pass_turn_to(state, player)``, or None when ``player`` has no turn to take."""
        if self.pass_turn is None:
            if self.ops.num_players <= 2:
                return None  # two players: the lone opponent never waits for its turn
            raise UnsupportedGameError(f"brs needs the game hook {PASS_HOOK}; use brs+")
        try:
            return self.pass_turn(state, player)
        except ValueError:  # the hook's way to say: that player is out of the game
            return None

    def fixed_move(self, state: Any) -> Any:
        """The move a non-replying opponent plays in ``brs+``: the first ordered action."""
        actions = self.legal(state)
        if self.order_hint is not None:
            actions = self.order_hint(state, actions)
        return actions[0]

    def prune(
        self, state: Any, depth: int, mover: int, value: float, alpha: float, beta: float,
        rest: Sequence[Any],
    ) -> None:
        self.stats.cutoffs += 1
        if self.trace is not None:
            self.emit("prune", state, depth, mover, value, alpha, beta, rest)


class BrsPlusSearcher(BrsSearcher):
    """BRS+ (``brs+``): the opponents who do not reply play their first ordered move."""

    algorithm = "brs+"
    plus = True


def _search(
    cls: type[BrsSearcher],
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None,
    player: int | None,
    tie: str,
    seed: int | None,
    trace: Trace | None,
    pruning: bool,
    stop: StopSignal | None,
    on_iteration: Callable[[SearchResult], None] | None,
) -> SearchResult:
    if not isinstance(pruning, bool):
        raise OptionError(f"pruning must be True or False, got {pruning!r}")

    def configure(searcher: Any) -> None:
        searcher.pruning = pruning

    return search_with(
        cls, game, state, limit, player, tie, seed, trace, configure, stop=stop,
        on_iteration=on_iteration,
    )


def brs(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    pruning: bool = True,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """Best-Reply Search (Schadd and Winands 2011; see the module docstring).

    ``value`` is ``player``'s value (default: the player to move) in the BRS tree: the
    searching player maximises over its whole turn, then only the best reply of all the
    opponents is played (minimising that value) while the others pass, and so on, with
    ``limit.depth`` counting the searched moves (``unit="round"``: pairs of layers; see
    the module docstring).  It is exact
    for that model when ``result.exact`` (no evaluation was needed), never the
    game-theoretic value of a game of three or more players: the opponents' passes are
    usually not legal.  In a game of two players it is alpha-beta's value and action.
    ``action`` is the first best root action in ``actions()`` order (``tie="random"``: a
    seeded random one among them); ``pv`` lists the moves searched, passes left out.
    ``pruning=False`` searches the same tree without alpha-beta cutoffs (same value and
    action, more nodes).  Games of 3+ players need the hook ``pass_turn_to``; others are
    refused with a message naming :func:`brs_plus`.  Chance and simultaneous moves are
    refused.  ``stop`` and ``on_iteration`` as in :func:`plies.minimax`.

    >>> from plies.games import load
    >>> ttt = load("tictactoe")
    >>> from plies.search import alphabeta
    >>> r = brs(ttt, ttt.initial_state(), Limit(depth=3))
    >>> a = alphabeta(ttt, ttt.initial_state(), Limit(depth=3))
    >>> (r.value, r.action, r.stats.nodes) == (a.value, a.action, a.stats.nodes)
    True
    """
    return _search(
        BrsSearcher, game, state, limit, player, tie, seed, trace, pruning, stop, on_iteration
    )


def brs_plus(
    game: Game[Any, Any],
    state: Any,
    limit: Limit | None = None,
    *,
    player: int | None = None,
    tie: str = "first",
    seed: int | None = None,
    trace: Trace | None = None,
    pruning: bool = True,
    stop: StopSignal | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
) -> SearchResult:
    """BRS+ (Esser et al. 2013): Best-Reply Search whose lines are legal lines.

    As :func:`brs`, except that the opponents who do not reply play their first move in
    the game's move ordering (``order_hint``, else ``actions()`` order) instead of
    passing, in their turn order around the replier, so no hook is needed.  ``value``
    is ``player``'s value in that tree (exact for the model when ``result.exact``, not
    the game-theoretic value with 3+ players; alpha-beta's value with two), ``pv`` a
    legal line with the fixed moves in it.

    >>> from plies.games import load
    >>> civ = load("civ")  # three players, three moves a turn
    >>> r = brs_plus(civ, civ.initial_state(), Limit(depth=1, unit="round"))
    >>> r.value, len(r.pv)  # Rome's turn, then Egypt's and China's (one replies)
    (-1.0, 9)
    """
    return _search(
        BrsPlusSearcher, game, state, limit, player, tie, seed, trace, pruning, stop,
        on_iteration,
    )
