#!/usr/bin/env python3
"""Strength: ``plies uci`` plays matches against sunfish and Stockfish (issue 12, part 3).

    .venv/bin/python benchmarks/chess_match.py --opponent sunfish --games 20 --movetime 0.5
    .venv/bin/python benchmarks/chess_match.py --opponent stockfish --elo 1350 --elo 1600 \\
        --games 10 --movetime 0.5 --pgn stockfish.pgn
    .venv/bin/python benchmarks/chess_match.py --opponent stockfish --skill 0 --games 10
    .venv/bin/python benchmarks/chess_match.py --help

Not part of ``make bench`` or ``make test`` (a match of 20 games at 0.5 s a move takes
about half an hour on two cores); ``tests/benchmarks/test_chess_match.py`` plays one short
game with each opponent to keep the runner working.

The engines, each driven by python-chess (``chess.engine.SimpleEngine.popen_uci``):

- **plies**: ``python -m plies uci`` of *this checkout* (its ``src/`` comes first on the
  path of this script and of the engine's process, whatever plies the venv has installed).
  ``--plies-option NAME=VALUE`` sends ``setoption`` (``Hash``, ``Quiescence``, ...).
- **sunfish**: the PyPI package (``python -m sunfish``, the same entry point as its
  ``sunfish-uci`` script: ``sunfish.main`` runs ``sunfish_ui.uci``).  It pins
  ``chess==1.9.4``, which plies' chess extra cannot share, so it is installed with
  ``pip install --no-deps sunfish``: its engine and UCI loop import nothing but the
  standard library (only its terminal UI needs python-chess).
- **stockfish**: the Debian package (``apt-get install stockfish``, ``/usr/games/stockfish``;
  Debian 12 ships 15.1), with ``Threads=1`` and ``Hash=16``, weakened either by
  ``UCI_LimitStrength=true`` + ``UCI_Elo=N`` (``--elo N``, repeatable; Stockfish 15.1
  accepts 1350..2850, 16 and later 1320..3190) or by ``Skill Level=N`` (``--skill N``,
  0..20, repeatable; not calibrated to Elo by Stockfish).  One match per level.

The match: ``--games`` games per level; game ``2k`` and ``2k+1`` start from the same
opening of :data:`OPENINGS` (balanced, well-known lines of 4 to 8 plies) with colours
swapped, so each opening is played once by each side; openings are taken in order
(``--openings N`` uses the first N; ``--seed S`` shuffles them first).  Both sides get the
same fixed time per move (``chess.engine.Limit(time=movetime)``, i.e. ``go movetime``),
never ponder, and only one engine thinks at a time.  A game ends by the rules
(``board.outcome(claim_draw=True)``: mate, stalemate, insufficient material, threefold
repetition, the fifty-move rule), as a draw at ``--max-plies`` (default 200, openings
included), or by adjudication: when both engines' own scores have agreed for
``--adjudicate-moves`` consecutive moves each (default 3) that the same side is ahead by
at least ``--adjudicate-cp`` centipawns (default 1000; mate scores count; 0 turns it
off), that side wins.  It saves the time of playing out lost positions and never
overrides a side that still sees play.

The report: one Markdown row per level with games, wins/draws/losses and score of plies,
the Elo difference plies minus opponent with its 95% interval, the time per move (the
mean wall time from ``go`` to ``bestmove``, each side), nodes per second of each side and
the mean depth each reached.  The Elo difference comes from :func:`plies.tournament.fit_elo`
(the Bradley-Terry fit of ``plies tournament``): with two players and no prior it is
``-400 log10(1/s - 1)`` for score fraction ``s``, and its interval is the Laplace one,
``1.96`` standard errors, draws counted as half points (so the interval is a little wider
than one from the observed per-game variance when there are many draws).  A match won or
lost outright has no finite maximum-likelihood Elo; its row uses the fit with one virtual
draw (BayesElo's prior) and is marked ``*``.

Nodes per second are the engines' own: the ``nodes`` and ``time`` of each move's last
``info`` line (the last completed iteration), summed over the match, nodes over time.
Each engine counts nodes its own way (plies: every position its search visits,
quiescence included; sunfish: every call of its ``bound`` search; Stockfish: every
position), so the ratio is indicative, not exact.

Output: the table on stdout (``--json`` prints the same data as JSON instead), one line
per game on stderr, and with ``--pgn FILE`` every game in PGN.  Bad input (an unknown
opponent, a missing engine, an option an engine does not have) is a one-line error and
exit status 2.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
sys.path.insert(0, str(SRC))  # measure this checkout's plies, not whichever is installed

OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez, Morphy Defence", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Sicilian, Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6"),
    ("Nimzo-Indian Defence", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("Italian Game, Giuoco Piano", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Slav Defence", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("French, Classical", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("King's Indian Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Caro-Kann, Classical", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("English, Reversed Sicilian", "c2c4 e7e5 b1c3 g8f6"),
    ("Petrov Defence", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4"),
    ("Queen's Indian Defence", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6"),
    ("Gruenfeld Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Scotch Game", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4"),
    ("Catalan", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5"),
    ("Reti Opening", "g1f3 d7d5 c2c4 e7e6"),
)
"""Balanced openings by name, as UCI moves from the start position."""

MATE_CP = 100_000  # a mate score, in centipawns, for adjudication
STOCKFISH_HASH_MB = 16
EXIT_BAD_INPUT = 2


class MatchError(Exception):
    """Bad input or an engine that cannot be started: reported in one line, exit 2."""


@dataclass
class Side:
    """What one engine did over a match (moves it played, not the opening's)."""

    moves: int = 0
    wall: float = 0.0  # seconds from go to bestmove, summed
    nodes: int = 0  # from the last info line of each move that had nodes and time
    info_time: float = 0.0
    depth: int = 0  # summed over moves with a depth
    depth_moves: int = 0

    def add(self, wall: float, info: dict[str, Any]) -> None:
        self.moves += 1
        self.wall += wall
        if "nodes" in info and "time" in info and info["time"] > 0:
            self.nodes += int(info["nodes"])
            self.info_time += float(info["time"])
        if "depth" in info:
            self.depth += int(info["depth"])
            self.depth_moves += 1

    @property
    def nps(self) -> float | None:
        return self.nodes / self.info_time if self.info_time > 0 else None

    @property
    def mean_depth(self) -> float | None:
        return self.depth / self.depth_moves if self.depth_moves else None

    @property
    def time_per_move(self) -> float | None:
        return self.wall / self.moves if self.moves else None


@dataclass
class GameRecord:
    """One game: who had white, how it ended, plies' score (1, 1/2, 0)."""

    number: int
    opening: str
    plies_white: bool
    result: str  # "1-0", "0-1", "1/2-1/2"
    reason: str
    length: int  # plies on the board at the end, opening included
    score: float  # plies' points


@dataclass
class Level:
    """One opponent configuration and the match played against it."""

    name: str
    options: dict[str, str | int | bool]
    games: list[GameRecord] = field(default_factory=list)
    plies: Side = field(default_factory=Side)
    opponent: Side = field(default_factory=Side)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise MatchError(message)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = _Parser(prog="chess_match.py", description=__doc__.split("\n", 1)[0])
    p.add_argument("--opponent", required=True, help="sunfish or stockfish")
    p.add_argument("--elo", type=int, action="append", default=[],
                   help="Stockfish UCI_Elo (UCI_LimitStrength); repeatable, one match each")
    p.add_argument("--skill", type=int, action="append", default=[],
                   help="Stockfish Skill Level 0..20; repeatable, one match each")
    p.add_argument("--games", type=int, default=20, help="games per level (default 20)")
    p.add_argument("--movetime", type=float, default=0.5,
                   help="seconds per move, both sides (default 0.5)")
    p.add_argument("--openings", type=int, default=len(OPENINGS),
                   help=f"use the first N openings (1..{len(OPENINGS)})")
    p.add_argument("--seed", type=int, default=None, help="shuffle the openings first")
    p.add_argument("--max-plies", type=int, default=200,
                   help="a game still going at this many plies is a draw (default 200)")
    p.add_argument("--adjudicate-cp", type=int, default=1000,
                   help="both engines' scores agree on at least this lead: a win (0: off)")
    p.add_argument("--adjudicate-moves", type=int, default=3,
                   help="... for this many consecutive moves of each side (default 3)")
    p.add_argument("--plies-option", action="append", default=[], metavar="NAME=VALUE",
                   help="setoption for plies (repeatable)")
    p.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE",
                   help="setoption for the opponent (repeatable)")
    p.add_argument("--stockfish", default=None,
                   help="the Stockfish binary (default: stockfish on PATH, /usr/games/stockfish)")
    p.add_argument("--pgn", metavar="FILE", help="write the games to FILE in PGN")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args(argv)
    if args.opponent not in ("sunfish", "stockfish"):
        raise MatchError(
            f"unknown opponent {args.opponent!r}; the opponents are sunfish, stockfish"
        )
    if args.opponent == "sunfish" and (args.elo or args.skill):
        raise MatchError("--elo and --skill are Stockfish options; sunfish has one strength")
    if args.games < 1:
        raise MatchError(f"--games must be at least 1, got {args.games}")
    if args.movetime <= 0:
        raise MatchError(f"--movetime must be positive seconds, got {args.movetime}")
    if not 1 <= args.openings <= len(OPENINGS):
        raise MatchError(f"--openings must be 1..{len(OPENINGS)}, got {args.openings}")
    if args.max_plies < 1 or args.adjudicate_cp < 0 or args.adjudicate_moves < 1:
        raise MatchError("--max-plies and --adjudicate-moves must be >= 1, --adjudicate-cp >= 0")
    for skill in args.skill:
        if not 0 <= skill <= 20:
            raise MatchError(f"--skill must be 0..20, got {skill}")
    args.plies_option = [_option(text, "--plies-option") for text in args.plies_option]
    args.opponent_option = [_option(text, "--opponent-option") for text in args.opponent_option]
    return args


def _option(text: str, flag: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise MatchError(f"{flag} takes NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def plies_command() -> tuple[list[str], dict[str, str]]:
    """``python -m plies uci`` of this checkout, and its environment."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    return [sys.executable, "-m", "plies", "uci"], env


def opponent_command(args: argparse.Namespace) -> list[str]:
    """The opponent's command line; MatchError when it is not installed."""
    if args.opponent == "sunfish":
        import importlib.util

        if importlib.util.find_spec("sunfish") is None:
            raise MatchError(
                f"sunfish is not installed in {sys.executable}: pip install --no-deps sunfish"
            )
        return [sys.executable, "-m", "sunfish"]
    binary = args.stockfish or shutil.which("stockfish") or "/usr/games/stockfish"
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise MatchError(
            f"Stockfish not found at {binary}: apt-get install stockfish, or pass --stockfish PATH"
        )
    return [binary]


def levels(args: argparse.Namespace) -> list[Level]:
    """One Level per requested strength (sunfish: one)."""
    if args.opponent == "sunfish":
        return [Level("sunfish", {})]
    base: dict[str, str | int | bool] = {"Threads": 1, "Hash": STOCKFISH_HASH_MB}
    found = [
        Level(f"Stockfish UCI_Elo {elo}", {**base, "UCI_LimitStrength": True, "UCI_Elo": elo})
        for elo in args.elo
    ] + [
        Level(f"Stockfish Skill {s}", {**base, "UCI_LimitStrength": False, "Skill Level": s})
        for s in args.skill
    ]
    if not found:
        raise MatchError("--opponent stockfish needs at least one --elo N or --skill N")
    return found


def openings(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The openings used, in the order played."""
    chosen = list(OPENINGS)
    if args.seed is not None:
        random.Random(args.seed).shuffle(chosen)
    return chosen[: args.openings]


def configure(engine: Any, options: Iterable[tuple[str, Any]], who: str) -> None:
    """Send each option; MatchError naming the engine's options for an unknown one."""
    import chess.engine

    for name, value in options:
        if name not in engine.options:
            known = ", ".join(sorted(engine.options))
            raise MatchError(f"{who} has no option {name!r}; its options are: {known}")
        option = engine.options[name]
        if option.type == "spin":
            try:
                number = int(value)
            except ValueError:
                raise MatchError(f"{who} option {name} takes an integer, got {value!r}") from None
            if (option.min is not None and number < option.min) or (
                option.max is not None and number > option.max
            ):
                raise MatchError(
                    f"{who} option {name} must be {option.min}..{option.max}, got {number}"
                )
            value = number
        try:
            engine.configure({name: value})
        except chess.engine.EngineError as error:
            raise MatchError(f"{who} option {name}={value!r}: {error}") from None


def mover_score(info: dict[str, Any], white: bool) -> int | None:
    """The engine's score of its last iteration, from white's point of view, in cp."""
    import chess

    score = info.get("score")
    if score is None:
        return None
    return int(score.pov(chess.WHITE if white else chess.BLACK).score(mate_score=MATE_CP))


def adjudicate(scores: Sequence[int], threshold: int, moves: int) -> str | None:
    """``"1-0"`` or ``"0-1"`` when the last ``2 * moves`` scores (white's point of view,
    one per move, the two engines alternating) all give the same side at least
    ``threshold`` centipawns; else None.

    >>> adjudicate([1200, 1500, 1100, 1300], 1000, 2)
    '1-0'
    >>> adjudicate([1200, 900, 1100, 1300], 1000, 2) is None
    True
    >>> adjudicate([-1000, -100_000], 1000, 1)
    '0-1'
    """
    last = scores[-2 * moves:]
    if len(last) < 2 * moves:
        return None
    if all(s >= threshold for s in last):
        return "1-0"
    if all(s <= -threshold for s in last):
        return "0-1"
    return None


def play_game(
    number: int, opening: tuple[str, str], plies_white: bool, engines: dict[str, Any],
    level: Level, args: argparse.Namespace,
) -> tuple[GameRecord, Any]:
    """Play one game from ``opening``; return its record and the PGN game."""
    import chess
    import chess.engine
    import chess.pgn

    board = chess.Board()
    for uci in opening[1].split():
        board.push_uci(uci)
    key = object()  # a new game for python-chess: it sends ucinewgame to both engines
    limit = chess.engine.Limit(time=args.movetime)
    streak: list[int] = []  # white-POV scores of the last moves, both sides
    reason = ""
    result = "*"
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, reason = outcome.result(), outcome.termination.name.lower().replace("_", " ")
            break
        if board.ply() >= args.max_plies:
            result, reason = "1/2-1/2", f"move cap ({args.max_plies} plies)"
            break
        white = board.turn == chess.WHITE
        name = "plies" if white == plies_white else "opponent"
        start = time.perf_counter()
        try:
            played = engines[name].play(board, limit, info=chess.engine.INFO_ALL, game=key)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise RuntimeError(f"{name} failed in game {number}: {error}") from None
        wall = time.perf_counter() - start
        (level.plies if name == "plies" else level.opponent).add(wall, dict(played.info))
        if played.move is None:
            raise RuntimeError(f"{name} returned no move in game {number} at {board.fen()}")
        board.push(played.move)
        if args.adjudicate_cp:
            cp = mover_score(dict(played.info), True)
            streak = [*streak, cp] if cp is not None else []  # a move without a score resets
            verdict = adjudicate(streak, args.adjudicate_cp, args.adjudicate_moves)
            if verdict is not None:
                result, reason = verdict, "adjudication"
                break
    points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    score = points if plies_white else 1.0 - points
    record = GameRecord(number, opening[0], plies_white, result, reason, board.ply(), score)
    pgn = chess.pgn.Game.from_board(board)
    pgn.headers.update({
        "Event": f"plies vs {level.name}, {args.movetime:g} s/move",
        "Site": platform.node() or "?",
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(number),
        "White": "plies" if plies_white else level.name,
        "Black": level.name if plies_white else "plies",
        "Result": result,
        "Opening": opening[0],
        "Termination": reason,
    })
    return record, pgn


def elo(games: Sequence[GameRecord]) -> dict[str, Any]:
    """plies' Elo difference over the opponent with its 95% interval (see the docstring)."""
    from plies.tournament import fit_elo

    results = [(0, 1, g.score) for g in games]
    total = sum(g.score for g in games)
    outright = total in (0.0, float(len(games)))
    fit = fit_elo(2, results, prior=1.0 if outright else 0.0)
    # two players, mean 0: r1 = -r0, so the difference is 2 r0 with twice the error
    diff, half = 2 * fit.ratings[0], 2 * (fit.interval(0)[1] - fit.ratings[0])
    return {"elo": diff, "low": diff - half, "high": diff + half, "prior": fit.prior}


def summary(level: Level) -> dict[str, Any]:
    games = level.games
    wins = sum(g.score == 1.0 for g in games)
    draws = sum(g.score == 0.5 for g in games)
    losses = sum(g.score == 0.0 for g in games)
    row: dict[str, Any] = {
        "opponent": level.name,
        "options": level.options,
        "games": len(games),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": sum(g.score for g in games) / len(games),
        **elo(games),
    }
    row["sides"] = {}
    for name, side in (("plies", level.plies), ("opponent", level.opponent)):
        row["sides"][name] = {
            "moves": side.moves,
            "time_per_move": side.time_per_move,
            "nps": side.nps,
            "mean_depth": side.mean_depth,
            "nodes": side.nodes,
            "info_time": side.info_time,
        }
    row["reasons"] = {}
    for g in games:
        row["reasons"][g.reason] = row["reasons"].get(g.reason, 0) + 1
    row["game_list"] = [asdict(g) for g in games]
    return row


def markdown(rows: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    def num(x: float | None, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    load = ""
    if "load_average" in meta:  # a report of an earlier version may lack it
        before, after = meta["load_average"]["before"], meta["load_average"]["after"]
        load = f", load average {before:.2f} before, {after:.2f} after"
    lines = [
        f"plies vs {meta['opponent_id']}: "
        f"{meta['movetime']:g} s/move each, {meta['date']}, plies {meta['commit']}, "
        f"{meta['machine']}{load}",
        "",
        "| opponent | games | W-D-L (plies) | score | Elo diff, 95% | s/move plies/opp "
        "| nps plies | nps opp | depth plies/opp |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        p, o = r["sides"]["plies"], r["sides"]["opponent"]
        star = "*" if r["prior"] else ""
        lines.append(
            f"| {r['opponent']} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} "
            f"| {100 * r['score']:.1f}% "
            f"| {r['elo']:+.0f}{star} [{r['low']:+.0f}, {r['high']:+.0f}] "
            f"| {num(p['time_per_move'], '.2f')}/{num(o['time_per_move'], '.2f')} "
            f"| {num(p['nps'], ',.0f')} | {num(o['nps'], ',.0f')} "
            f"| {num(p['mean_depth'], '.1f')}/{num(o['mean_depth'], '.1f')} |"
        )
    lines.append("")
    for r in rows:
        ends = ", ".join(f"{n} {k}" for k, n in sorted(r["reasons"].items()))
        lines.append(f"{r['opponent']}: games ended by {ends}.")
    if any(r["prior"] for r in rows):
        lines.append("* won or lost every game: Elo from the fit with one virtual draw.")
    lines.append(f"command: {meta['command']}")
    return "\n".join(lines)


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO), "describe", "--always", "--dirty"],
            capture_output=True, text=True, check=True, timeout=10,
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run(
    args: argparse.Namespace, argv: Sequence[str]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play every level's match; return the summaries and the run's facts."""
    try:
        import chess.engine
        import chess.pgn
    except ImportError:
        raise MatchError("python-chess is missing: pip install 'plies[chess]'") from None
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    version, load_before = commit(), os.getloadavg()
    command, env = plies_command()
    other = opponent_command(args)
    todo = levels(args)
    lines = openings(args)
    pgns: list[Any] = []
    summaries = []
    try:
        plies_engine = chess.engine.SimpleEngine.popen_uci(command, env=env, timeout=60)
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
        raise MatchError(f"plies uci did not start: {error}") from None
    try:
        opponent_engine = chess.engine.SimpleEngine.popen_uci(other, timeout=60)
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
        plies_engine.quit()
        raise MatchError(f"{' '.join(other)} did not start: {error}") from None
    with plies_engine, opponent_engine:
        configure(plies_engine, args.plies_option, "plies")
        engines = {"plies": plies_engine, "opponent": opponent_engine}
        opponent_id = opponent_engine.id.get("name", args.opponent)
        for level in todo:
            configure(opponent_engine, level.options.items(), opponent_id)
            configure(opponent_engine, args.opponent_option, opponent_id)
            for number in range(1, args.games + 1):
                opening = lines[((number - 1) // 2) % len(lines)]
                plies_white = number % 2 == 1
                record, pgn = play_game(number, opening, plies_white, engines, level, args)
                level.games.append(record)
                pgns.append(pgn)
                print(
                    f"{level.name} game {number}/{args.games}: {opening[0]}, plies "
                    f"{'white' if plies_white else 'black'}: {record.result} ({record.reason}, "
                    f"{record.length} plies)", file=sys.stderr, flush=True,
                )
            summaries.append(summary(level))
    if args.pgn:
        with open(args.pgn, "w", encoding="utf-8") as handle:
            for pgn in pgns:
                print(pgn, file=handle, end="\n\n")
    meta = {
        "date": started,
        "commit": version,
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average": {"before": load_before[0], "after": os.getloadavg()[0]},
        "opponent_id": opponent_id,
        "movetime": args.movetime,
        "max_plies": args.max_plies,
        "adjudicate_cp": args.adjudicate_cp,
        "adjudicate_moves": args.adjudicate_moves,
        "plies_options": dict(args.plies_option),
        "openings": [name for name, _ in lines],
        "command": " ".join(["benchmarks/chess_match.py", *argv]),
    }
    return summaries, meta


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        args = parse_args(argv)
        rows, meta = run(args, argv)
    except MatchError as error:
        print(f"chess_match: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RuntimeError as error:  # an engine died or misbehaved mid-match
        print(f"chess_match: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"meta": meta, "matches": rows}, indent=2))
    else:
        print(markdown(rows, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
