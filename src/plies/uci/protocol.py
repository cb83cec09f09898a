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

The options are the table of :mod:`plies.uci.options`; what one ``go`` searches
(MultiPV lines, ``searchmoves``, ``mate``, a weakened level) is :mod:`plies.uci.think`.
The clock (less the ``Move Overhead``) runs from ``go``, or from ``ponderhit`` for
``go ponder``; it ends the search by setting the stop signal ``stop`` sets.

Contracts:

- The engine never dies on input: an unknown command, a malformed one, an illegal move
  or a bad FEN is answered with ``info string <what was wrong>``, and the engine keeps
  the last good position.
- Every ``go`` ends with exactly one ``bestmove`` (with ``ponder`` and the expected
  reply when the line has one): the search's move, the first legal move if the search
  had not finished an iteration, or ``0000`` when there is no legal move.  After ``go
  infinite`` it waits for ``stop``, after ``go ponder`` for ``stop`` or ``ponderhit``
  (as UCI asks).
- ``go nodes N`` budgets every node, quiescence nodes included.
- ``info`` after every completed iteration: ``depth``, ``seldepth`` (the deepest ply
  reached, quiescence and extensions included), ``multipv`` (with ``MultiPV`` above 1),
  ``score cp`` (centipawns from the side to move) or ``score mate N`` (N moves,
  negative when the engine is mated), ``nodes``, ``nps``, ``hashfull`` (per mille of
  the kept table's slots in use), ``time`` (ms) and ``pv``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any, Final

from plies import games
from plies.errors import GameFormatError, OptionError, PliesError, quoted
from plies.game import hook
from plies.policy import QUIESCENCE, play_defaults
from plies.search.craft import ENTRY_BYTES, MAX_TABLE_SLOTS, TranspositionTable
from plies.uci import options
from plies.uci.clock import Go, parse_go, table_slots, think_time
from plies.uci.options import HASH_DEFAULT, HASH_MAX, QUIESCENCE_MAX, SWITCHES
from plies.uci.strength import strength
from plies.uci.think import Ask, Line, Think

NAME: Final = "plies"
AUTHOR: Final = "the plies authors"
MAX_DEPTH: Final = 64
"""The deepest iteration of a search without a ``depth``: the clock or ``stop`` ends it."""
QUIESCENCE_DEFAULT: Final = QUIESCENCE
"""Captures and promotions searched past the depth limit (the ``Quiescence`` option)."""
MATE_OFF: Final = ("null_move", "reductions")
"""The selective switches ``go mate`` turns off: either could prune the mate away."""


class Thinking:
    """One ``go`` on its way: the events its thread and the commands share.

    ``stop`` ends the search (``stop``, the clock, a proved mate); ``release`` lets the
    ``bestmove`` go out (at once for a plain ``go``; for ``go infinite`` at ``stop``; for
    ``go ponder`` at ``stop`` or ``ponderhit``); ``answered`` is set once it went out.
    ``waiting`` is True until the GUI asks for the move (infinite, pondering).
    """

    def __init__(self, seconds: float | None, waiting: bool) -> None:
        self.stop = threading.Event()
        self.release = threading.Event()
        self.answered = threading.Event()
        self.seconds = seconds
        self.waiting = waiting
        self.pondering = False
        self.timer: threading.Timer | None = None
        if not waiting:
            self.release.set()
            self.start_clock()

    def start_clock(self) -> None:
        """Start the search's clock: the stop signal is set when its time is up."""
        if self.seconds is not None:
            self.timer = threading.Timer(self.seconds, self.stop.set)
            self.timer.daemon = True
            self.timer.start()

    def end(self) -> None:
        self.stop.set()
        self.release.set()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()


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

    def __init__(self, send: Callable[[str], None], seed: int | None = None) -> None:
        self._send = send
        self._lock = threading.Lock()  # one line at a time from both threads
        self.output_closed = False  # the GUI is gone: nothing more can be said
        self.game: Any = games.load("chess")
        self.state: Any = self.game.initial_state()
        self.values: dict[str, Any] = options.defaults()
        """Every option's value by its name (:data:`plies.uci.options.OPTIONS`)."""
        self.table = TranspositionTable(table_slots(HASH_DEFAULT, ENTRY_BYTES, MAX_TABLE_SLOTS))
        self.debug = False
        self.rng = random.Random(seed)  # a weakened level's choices
        self._thinking = Thinking(None, False)
        self._thinking.answered.set()
        self._worker: threading.Thread | None = None
        self._sized: tuple[int, Any] = (0, None)  # the compiled engine whose table fits Hash
        self._use_backend(str(self.values["Backend"]))
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
        return self._worker is not None and not self._thinking.answered.is_set()

    @property
    def quiescence(self) -> int:
        """The ``Quiescence`` option: plies of captures searched past the depth limit."""
        return int(self.values["Quiescence"])

    # --- commands ---------------------------------------------------------------------------

    def _uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        for option in options.OPTIONS:
            self.send(option.line())
        self.send("uciok")

    def _isready(self, args: list[str]) -> None:
        self.send("readyok")

    def _debug(self, args: list[str]) -> None:
        if args not in (["on"], ["off"]):
            self.info_string(f"debug takes on or off, got {' '.join(args) or 'nothing'}")
            return
        self.debug = args == ["on"]

    def _ponderhit(self, args: list[str]) -> None:
        thinking = self._thinking
        if not self.searching or not thinking.pondering:
            self.info_string("ponderhit without a go ponder running; ignored")
            return
        # The GUI's move was the expected one: the search goes on, on the clock from now.
        thinking.pondering = thinking.waiting = False
        thinking.start_clock()
        thinking.release.set()

    def _ucinewgame(self, args: list[str]) -> None:
        self._stop_search([])
        self._clear_tables()

    def _clear_tables(self) -> None:
        """Forget what earlier searches learnt: the generic engine's table and, once made,
        the compiled engine's."""
        self.table.clear()
        compiled = self._compiled()
        if compiled is not None:
            compiled.clear()

    def _compiled(self) -> Any:
        """The game's compiled engine under the ``Backend`` option, or None (none made
        yet, or the backend is ``python``); its table sized as the ``Hash`` option says."""
        make = hook(self.game, "compiled_search")
        engine = None if make is None else make(self.values["Backend"])
        if engine is not None and self._sized != (id(engine), self.values["Hash"]):
            engine.resize(int(self.values["Hash"]))
            self._sized = (id(engine), self.values["Hash"])
        return engine

    def _use_backend(self, backend: str) -> None:
        """Search with ``backend`` (the ``Backend`` option): the game's compiled engine
        (its ``compiled_search`` hook) under ``numba``, once ready under ``auto`` (its
        compilation starts at the first ``go``, in the background; the generic engine
        plays meanwhile), never under ``python``.  ``numba`` waits for the compilation,
        so the ``readyok`` after it means the engine is ready."""
        self.game.backend = backend
        if backend == "numba":
            self._compiled()

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            self.info_string("setoption needs: setoption name <id> [value <x>]")
            return
        if "value" in args:
            at = args.index("value")
            name, text = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, text = " ".join(args[1:]), ""
        try:
            option = options.find(name)
            value = option.read(text)
        except OptionError as err:
            self.info_string(str(err))
            return
        if self.searching:
            self.info_string(f"setoption {option.name} during a search: send stop first")
            return
        if isinstance(option, options.Button):  # Clear Hash, the one button
            self._clear_tables()
            return
        self.values[option.name] = value
        if option.name == "Backend":
            self._use_backend(str(value))
        if option.name == "Hash":
            self.table = TranspositionTable(table_slots(int(text), ENTRY_BYTES, MAX_TABLE_SLOTS))
            self._compiled()

    def craft(self, go: Go | None = None) -> dict[str, Any]:
        """Chess's engine craft (its play defaults) with the selective switches the options
        leave on (see :data:`SWITCHES`), the ``Quiescence`` option's depth, and for ``go
        mate`` neither null moves nor reductions."""
        defaults = play_defaults(self.game)
        craft = {} if defaults is None else dict(defaults.craft)
        craft["quiescence"] = self.quiescence
        for label, switch in SWITCHES.items():
            if not self.values[label]:
                craft.pop(switch, None)
        if go is not None and go.mate is not None:
            for switch in MATE_OFF:
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
            move = self._legal(state, text)
            if move is None:
                self.info_string(
                    f"position: move {i + 1}, {text!r}, is not a legal move in "
                    f"{game.write_position(state)}; the position is left unchanged"
                )
                return
            state = game.result(state, move)
        self.state = state

    @staticmethod
    def _legal(state: Any, text: str) -> Any:
        """The legal move ``text`` (UCI notation) at ``state``, or None."""
        try:
            move = state.board.parse_uci(text)
        except ValueError:
            return None
        return move if move in state.board.legal_moves else None

    def _go(self, args: list[str]) -> None:
        if self.searching:
            self.info_string("go while searching: send stop first")
            return
        go = parse_go(args)
        for problem in go.problems:
            self.info_string(problem)
        state = self.state
        ask = self._ask(state, go)
        waiting = go.infinite or go.ponder
        overhead = self.values["Move Overhead"] / 1000
        seconds = None if go.infinite else think_time(
            go, white=bool(state.board.turn), overhead=overhead
        )
        if self.debug:
            planned = "no clock" if seconds is None else f"{seconds:.3f} s"
            self.info_string(f"time planned: {planned}")
        self.wait()  # the last search has answered; its thread is ending
        thinking = Thinking(seconds, waiting)
        thinking.pondering = go.ponder
        ask.waiting = lambda: thinking.waiting
        self._thinking = thinking
        self._worker = threading.Thread(
            target=self._think, args=(state, ask, thinking), name="plies-uci-search",
            daemon=True,
        )
        self._worker.start()

    def _ask(self, state: Any, go: Go) -> Ask:
        """What ``go`` asks at ``state``, with the options applied."""
        depth = MAX_DEPTH if go.depth is None else max(1, min(go.depth, MAX_DEPTH))
        nodes = None if go.infinite or not go.nodes else go.nodes
        if go.mate is not None:
            depth = min(depth, max(1, 2 * go.mate - 1))
        moves: list[Any] | None = None
        if go.searchmoves:
            moves = []
            for text in go.searchmoves:
                move = self._legal(state, text)
                if move is None:
                    self.info_string(f"go searchmoves: {text!r} is not a legal move here; "
                                     "ignored")
                else:
                    moves.append(move)
            if not moves:
                self.info_string("go searchmoves: no legal move named; searching every move")
                moves = None
        level = None
        if self.values["UCI_LimitStrength"]:
            level = strength(int(self.values["UCI_Elo"]))
            nodes = level.nodes if nodes is None else min(nodes, level.nodes)
        return Ask(
            depth=depth, nodes=nodes, lines=int(self.values["MultiPV"]), moves=moves,
            mate=go.mate, craft=self.craft(go), strength=level,
            stop_at_mate=go.depth is None, waiting=lambda: False,
        )

    def _stop_search(self, args: list[str]) -> None:
        self._thinking.end()
        self.wait()

    # --- the search -------------------------------------------------------------------------

    def _think(self, state: Any, ask: Ask, thinking: Thinking) -> None:
        """The search thread: ``info`` per iteration, then exactly one ``bestmove``."""
        line: Line | None = None
        self._compiled()  # once made (under auto: once compiled), sized as Hash says
        think = Think(self.game, state, ask, self.table, thinking.stop, self.send, self.rng)
        try:
            line = think.run()
        except Exception as err:
            self.info_string(f"search failed: {type(err).__name__}: {err}")
        thinking.close()
        thinking.release.wait()  # UCI: after go infinite or ponder, bestmove on stop/ponderhit
        if self.debug and think.chosen:
            self.info_string(f"searched with {think.chosen}")
        text = self._bestmove_text(state, line)
        thinking.answered.set()  # before the line: the GUI may answer it with the next go
        self.send(text)

    def _bestmove_text(self, state: Any, line: Line | None) -> str:
        board = state.board
        if line is not None and line.move in board.legal_moves:
            text = f"bestmove {line.move.uci()}"
            if len(line.pv) > 1 and line.pv[0] == line.move:
                after = board.copy(stack=False)
                after.push(line.move)
                if line.pv[1] in after.legal_moves:
                    text += f" ponder {line.pv[1].uci()}"
            return text
        for move in board.legal_moves:  # the search found nothing: any legal move
            return f"bestmove {move.uci()}"
        return "bestmove 0000"


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
    "QUIESCENCE_MAX", "SWITCHES", "Thinking", "UciEngine", "serve",
]
