"""The UCI protocol: a chess GUI (or python-chess) talks, plies searches and answers.

:class:`UciEngine` takes one line of input at a time (:meth:`UciEngine.handle`) and
writes its answers through a ``send`` callable, one line each.  ``go`` starts the search
in a worker thread, so ``stop``, ``isready`` and ``quit`` are answered while it thinks;
``stop`` sets the :class:`threading.Event` the search polls about once a millisecond.

The search is the policy layer's (:func:`plies.policy.plan` with ``engine=True``:
alpha-beta with the transposition table kept between moves, move ordering, PVS and
iterative deepening) with the selective switches chess declares in its play defaults
(its ``play_defaults`` hook): quiescence over captures and promotions inside the
search's window (no leaf is scored in the middle of an exchange), check extensions,
singular extensions, null-move pruning and late-move reductions, each a UCI option.  The
game is chess wrapped in :class:`~plies.search.mate.MateDistance`, so the shortest mate is
preferred and reported as ``score mate N``.  Positions come in through chess's
``read_position`` hook (FEN).  Moves are legal by the rules of chess, which the GUI
adjudicates: a position plies scores as drawn (threefold repetition, the fifty-move
rule, insufficient material) still takes the moves python-chess allows there, read from
the python-chess board the state carries (``state.board``).  A draw the side to move may
claim (threefold repetition in the ``moves`` history, a halfmove clock of 100) is the
GUI's or the player's claim, not the end of the game: the search starts from chess's
``unclaimed`` state and plays the best move (a mate where there is one).

Contracts:

- The engine never dies on input: an unknown command, a malformed one, an illegal move
  or a bad FEN is answered with ``info string <what was wrong>``, and the engine keeps
  the last good position.
- Every ``go`` ends with exactly one ``bestmove``: the search's move, the first legal
  move if the search had not finished an iteration, or ``0000`` when there is no legal
  move.  After ``go infinite`` it waits for ``stop`` (as UCI asks).
- ``go nodes N`` budgets every node, quiescence nodes included.
- ``info`` after every completed iteration: ``depth``, ``seldepth`` (the deepest ply
  reached, quiescence and extensions included), ``score cp`` (centipawns from the side
  to move) or ``score mate N`` (N moves, negative when the engine is mated), ``nodes``,
  ``nps``, ``hashfull`` (per mille of the kept table's slots in use), ``time`` (ms) and
  ``pv``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Final

from plies import games
from plies.errors import GameFormatError, PliesError, quoted
from plies.game import hook
from plies.policy import QUIESCENCE, SearchRequest, plan, play_defaults
from plies.policy.session import mate_moves
from plies.search import Limit, SearchResult
from plies.search.craft import ENTRY_BYTES, MAX_TABLE_SLOTS, TranspositionTable
from plies.search.mate import MateDistance
from plies.uci.clock import Go, parse_go, table_slots, think_time

NAME: Final = "plies"
AUTHOR: Final = "the plies authors"
MAX_DEPTH: Final = 64
"""The deepest iteration of a search without a ``depth``: the clock or ``stop`` ends it."""
QUIESCENCE_DEFAULT: Final = QUIESCENCE
"""Captures and promotions searched past the depth limit (the ``Quiescence`` option)."""
SWITCHES: Final = {
    "CheckExtensions": "extensions", "SingularExtensions": "singular",
    "NullMove": "null_move", "LateMoveReductions": "reductions",
}
"""The ``check`` options, each a selective switch of the search (all on by default)."""
QUIESCENCE_MAX: Final = 16
HASH_DEFAULT: Final = 16
HASH_MAX: Final = MAX_TABLE_SLOTS * ENTRY_BYTES >> 20
"""The largest ``Hash`` (MB): the transposition table's cap of slots at the measured
bytes of an entry."""


class UciEngine:
    """A UCI engine speaking through ``send`` (one line per call, no newline).

    >>> lines: list[str] = []
    >>> engine = UciEngine(lines.append)
    >>> for line in ("uci", "isready", "position startpos moves e2e4", "go depth 1"):
    ...     _ = engine.handle(line)
    >>> engine.wait()
    >>> lines[-1].startswith("bestmove"), "readyok" in lines
    (True, True)
    """

    def __init__(self, send: Callable[[str], None]) -> None:
        self._send = send
        self._lock = threading.Lock()  # one line at a time from both threads
        self.output_closed = False  # the GUI is gone: nothing more can be said
        self.game: Any = games.load("chess")
        self.state: Any = self.game.initial_state()
        self.hash_mb = HASH_DEFAULT
        self.table = TranspositionTable(table_slots(self.hash_mb, ENTRY_BYTES, MAX_TABLE_SLOTS))
        self.quiescence = QUIESCENCE_DEFAULT
        self.switches = dict.fromkeys(SWITCHES, True)
        self.debug = False
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        self._answered = threading.Event()  # set once the running search sent bestmove
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "uci": self._uci, "isready": self._isready, "ucinewgame": self._ucinewgame,
            "position": self._position, "go": self._go, "stop": self._stop_search,
            "setoption": self._setoption, "debug": self._debug, "ponderhit": self._ponderhit,
            "register": lambda words: None,  # nothing to register
        }

    # --- input ------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line of input; False once it was ``quit`` (the caller stops reading).

        Never raises for any input: what cannot be understood becomes an ``info string``.
        False too once the output is closed (the GUI went away): nobody reads the answers.
        """
        if self.output_closed:
            return False
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self._stop_search([])
            return False
        action = self._commands.get(command)
        if action is None:
            self.info_string(f"unknown command {command!r}")
            return True
        try:
            action(args)
        except PliesError as err:
            self.info_string(f"{command}: {err}")
        except Exception as err:
            self.info_string(f"{command}: internal error: {type(err).__name__}: {err}")
        return not self.output_closed

    def send(self, line: str) -> None:
        """Write one line; once the output is closed (a broken pipe), drop it quietly and
        let :meth:`handle` end the session."""
        with self._lock:
            if self.output_closed:
                return
            try:
                self._send(line)
            except OSError:  # BrokenPipeError, or any other end of the output
                self.output_closed = True

    def info_string(self, text: str) -> None:
        self.send("info string " + " ".join(text.split()))

    def wait(self) -> None:
        """Wait until the running search (if any) has sent its ``bestmove``."""
        worker = self._worker
        if worker is not None:
            worker.join()

    @property
    def searching(self) -> bool:
        """True from ``go`` until its ``bestmove`` is sent (the thread may live a moment
        longer; the next ``go`` joins it)."""
        return self._worker is not None and not self._answered.is_set()

    # --- commands ---------------------------------------------------------------------------

    def _uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(f"option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}")
        self.send(
            f"option name Quiescence type spin default {QUIESCENCE_DEFAULT} min 0 "
            f"max {QUIESCENCE_MAX}"
        )
        for name in SWITCHES:
            self.send(f"option name {name} type check default true")
        self.send("uciok")

    def _isready(self, args: list[str]) -> None:
        self.send("readyok")

    def _debug(self, args: list[str]) -> None:
        if args not in (["on"], ["off"]):
            self.info_string(f"debug takes on or off, got {' '.join(args) or 'nothing'}")
            return
        self.debug = args == ["on"]

    def _ponderhit(self, args: list[str]) -> None:
        self.info_string("pondering is not supported (no Ponder option); ponderhit ignored")

    def _ucinewgame(self, args: list[str]) -> None:
        self._stop_search([])
        self.table.clear()

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            self.info_string("setoption needs: setoption name <id> [value <x>]")
            return
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        spin = {"hash": ("Hash", 1, HASH_MAX), "quiescence": ("Quiescence", 0, QUIESCENCE_MAX)}
        checks = {switch.lower(): switch for switch in SWITCHES}
        if name.lower() in checks:
            self._set_check(checks[name.lower()], value)
            return
        if name.lower() not in spin:
            self.info_string(
                f"unknown option {name!r}; the options are: Hash, Quiescence, "
                f"{', '.join(SWITCHES)}"
            )
            return
        label, low, high = spin[name.lower()]
        try:
            number = int(value)
        except ValueError:
            self.info_string(f"{label} takes a whole number, got {value!r}")
            return
        if not low <= number <= high:
            self.info_string(f"{label} must be {low}..{high}, got {number}")
            return
        if self.searching:
            self.info_string(f"setoption {label} during a search: send stop first")
            return
        if label == "Quiescence":
            self.quiescence = number
            return
        self.hash_mb = number
        self.table = TranspositionTable(table_slots(number, ENTRY_BYTES, MAX_TABLE_SLOTS))

    def _set_check(self, label: str, value: str) -> None:
        if value.lower() not in ("true", "false"):
            self.info_string(f"{label} takes true or false, got {value!r}")
            return
        if self.searching:
            self.info_string(f"setoption {label} during a search: send stop first")
            return
        self.switches[label] = value.lower() == "true"

    def craft(self) -> dict[str, Any]:
        """Chess's engine craft (its play defaults) with the selective switches the options
        leave on (see :data:`SWITCHES`) and the ``Quiescence`` option's depth."""
        defaults = play_defaults(self.game)
        craft = {} if defaults is None else dict(defaults.craft)
        craft["quiescence"] = self.quiescence
        for label, switch in SWITCHES.items():
            if not self.switches[label]:
                craft.pop(switch, None)
        return craft

    def _position(self, args: list[str]) -> None:
        if not args:
            self.info_string("position needs startpos or fen <fen>")
            return
        moves_at = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:moves_at], args[moves_at + 1:]
        game = self.game
        if head == ["startpos"]:
            state = game.initial_state()
        elif len(head) > 1 and head[0] == "fen":
            fen = " ".join(head[1:])
            written = game.read_position(fen)  # GameFormatError -> info string
            if written is None:
                raise GameFormatError(f"{quoted(fen)} is not a FEN")
            state = written.state
        else:
            self.info_string(f"position: expected startpos or fen <fen>, got {' '.join(head)!r}")
            return
        for i, text in enumerate(moves):
            legal = state.board.legal_moves
            try:
                move = state.board.parse_uci(text)
            except ValueError:
                move = None
            if move is None or move not in legal:
                self.info_string(
                    f"position: move {i + 1}, {text!r}, is not a legal move in "
                    f"{game.write_position(state)}; the position is left unchanged"
                )
                return
            state = game.result(state, move)
        self.state = state

    def _go(self, args: list[str]) -> None:
        if self.searching:
            self.info_string("go while searching: send stop first")
            return
        go = parse_go(args)
        for problem in go.problems:
            self.info_string(problem)
        if go.searchmoves:
            self.info_string("go searchmoves is not supported; searching every move")
        if go.mate is not None:
            self.info_string("go mate is searched as an ordinary search")
        if go.ponder:
            self.info_string("pondering is not supported; searching as go infinite")
        self.wait()  # the last search has answered; its thread is ending
        self._stop = threading.Event()
        self._answered = threading.Event()
        state = self.state
        self._worker = threading.Thread(
            target=self._think, args=(state, go, self._stop, self._answered),
            name="plies-uci-search",
            daemon=True,
        )
        self._worker.start()

    def _stop_search(self, args: list[str]) -> None:
        self._stop.set()
        self.wait()

    # --- the search -------------------------------------------------------------------------

    def _think(
        self, state: Any, go: Go, stop: threading.Event, answered: threading.Event
    ) -> None:
        """The search thread: ``info`` per iteration, then exactly one ``bestmove``."""
        best: Any = None
        try:
            best = self._search(state, go, stop)
        except Exception as err:
            self.info_string(f"search failed: {type(err).__name__}: {err}")
        if go.infinite or go.ponder:
            stop.wait()  # UCI: after go infinite, bestmove only once stop comes
        line = f"bestmove {self._bestmove_text(state, best)}"
        answered.set()  # before the line: the GUI may answer it with the next go at once
        self.send(line)

    def _bestmove_text(self, state: Any, best: Any) -> str:
        board = state.board
        if best is not None and best in board.legal_moves:
            return str(best.uci())
        for move in board.legal_moves:  # the search found nothing: any legal move
            return str(move.uci())
        return "0000"

    def _search(self, state: Any, go: Go, stop: threading.Event) -> Any:
        infinite = go.infinite or go.ponder
        seconds = None if infinite else think_time(go, white=bool(state.board.turn))
        depth = MAX_DEPTH if go.depth is None else max(1, min(go.depth, MAX_DEPTH))
        nodes = None if infinite or not go.nodes else go.nodes
        mated = MateDistance(self.game)
        root = mated.root(state)
        unclaimed = hook(mated, "unclaimed")
        if unclaimed is not None:  # a draw the mover may claim is no reason not to play on
            root = unclaimed(root)
        if mated.is_terminal(root):  # mate, stalemate, a draw by rule with legal moves
            return None
        limit = Limit(depth=depth, time=seconds, nodes=nodes)
        request = SearchRequest(limit=limit, engine=True, craft=self.craft())
        chosen = plan(mated, root, request)
        start = time.perf_counter()
        best: list[Any] = [None]

        def on_iteration(r: SearchResult) -> None:
            if r.action is None:
                return
            best[0] = r.action
            elapsed = time.perf_counter() - start
            total = r.stats.nodes
            score, plies = self._score(mated, r)
            self.send(
                f"info depth {r.stats.depth} seldepth {r.stats.seldepth} score {score} "
                f"nodes {total} nps {int(total / elapsed) if elapsed > 0 else 0} "
                f"hashfull {len(self.table) * 1000 // self.table.modulus} "
                f"time {int(elapsed * 1000)} pv {' '.join(m.uci() for m in r.pv)}"
            )
            # A forced mate seen within the searched depth is final: stop deepening.
            if plies is not None and plies <= r.stats.depth and not infinite and go.depth is None:
                stop.set()

        result = chosen.run(mated, root, stop=stop, on_iteration=on_iteration, table=self.table)
        if result.action is not None:  # a stopped search may still have found a better move
            best[0] = result.action
        if self.debug:
            self.info_string(f"searched with {chosen.name} {sorted(chosen.options)}")
        return best[0]

    @staticmethod
    def _score(mated: MateDistance, r: SearchResult) -> tuple[str, int | None]:
        """``cp N`` or ``mate N`` for a result, and the plies to mate (None: no mate)."""
        moves = mate_moves(mated, r.value, len(r.pv))
        if moves is None:
            return f"cp {round(r.value)}", None
        if moves == 0:  # "mate 0" is no UCI score: the mate is on the next move
            moves = 1 if r.value > 0 else -1
        return f"mate {moves}", 2 * moves - 1 if moves > 0 else -2 * moves


def serve(lines: Any, send: Callable[[str], None]) -> None:
    """Run a :class:`UciEngine` over ``lines`` (e.g. ``sys.stdin``) until ``quit`` or
    the end of input; the running search is stopped before returning."""
    engine = UciEngine(send)
    for line in lines:
        if not engine.handle(line):
            break
    engine.handle("stop")


__all__ = [
    "AUTHOR", "HASH_DEFAULT", "HASH_MAX", "MAX_DEPTH", "NAME", "QUIESCENCE_DEFAULT",
    "QUIESCENCE_MAX", "SWITCHES", "UciEngine", "serve",
]
