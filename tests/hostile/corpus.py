"""The hostile corpus: seeded inputs for every surface of plies, and the judge of a run.

An attacker's and a clumsy user's inputs, for the CLI (all its commands, odd files,
absurd numbers, Ctrl-C), the web app, the GGP player, the UCI engine and the GDL reader.
Everything is made from a fixed seed (:data:`SEED`), so a failing case is named and
reproducible: ``cli_cases()`` gives the same list on every run.

The promise every case checks: a run ends (within its timeout) with an accepted exit code,
at most one line of at most :data:`MAX_MESSAGE` characters on stderr and no traceback; a
server answers 4xx, not 5xx, with a bounded body, and keeps serving.

This module imports nothing of plies: ``benchmarks/hostile.py`` uses it to run the same
cases against any source tree (``--src``), the tests of this directory against this one.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SEED = 22
MAX_MESSAGE = 500
"""Characters of an error line beyond which it is a "long message" (a few hundred allowed)."""
MAX_BODY = 4096
"""Bytes of a 4xx body (web or GGP) beyond which it is a "long message"."""
GDL_DATA = Path(__file__).resolve().parents[1] / "data" / "gdl"
DIGITS = "9" * 5000
"""Past Python's 4,300-digit limit of int(str)."""
ABSURD = ("0", "-1", "1e309", "inf", "-inf", "nan", "1e308", DIGITS, "0x10", "", "\uff11\uff12",
          "1_000", "-0", "4.5", "1e-320", "--", "18446744073709551617")
"""Values thrown at numeric options."""
ODD_SPECS = ("sys:exit", "os:getcwd", "boom:Game", "{boom.py}:Game", "factory:make",
             "nosuchmodule:Game", ":", "x" * 5000, "openspiel:", "{dir.kif}/x.py:G",
             "{billion.json}", "{fifo.tree}", "{zero.kif}", "{binary.kif}", "{deep.json}")
"""Values thrown where a game spec goes ({name} is a file of :func:`make_files`)."""
ODD_FILES = ("{empty.tree}", "{binary.tree}", "{digits.tree}", "{deep.tree}", "{fifo.tree}",
             "{dir.tree}", "{zero.tree}", "{empty.json}", "{digits.json}", "{deep.json}",
             "{billion.json}", "{empty.kif}", "{binary.kif}", "{fifo.kif}", "{dir.kif}",
             "{zero.kif}", "{urandom.kif}", "/dev/zero", "/nonexistent/x.tree")
"""Odd files where a game file goes."""
ODD_WEIGHTS = ("{empty.weights.json}", "{binary.weights.json}", "{digits.weights.json}",
               "{deep.weights.json}", "{fifo.weights.json}", "{dir.tree}", "/dev/zero",
               "{urandom.kif}")
"""Odd files where a weights file goes."""


# --- files ---------------------------------------------------------------------------------


def make_files(where: Path, *, big: bool = False) -> dict[str, str]:
    """Create the odd files in ``where``; their paths by name (``{name}`` in a case).

    ``big`` adds ``big.tree``: a 15 MiB tree text (under the 16 MiB read cap), the issue's
    worst memory case.
    """
    rng = random.Random(SEED)
    made: dict[str, str] = {}

    def put(name: str, data: str | bytes) -> None:
        path = where / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        made[name] = str(path)

    noise = bytes(rng.randrange(256) for _ in range(4096))
    for suffix in ("tree", "json", "kif", "weights.json"):
        put(f"empty.{suffix}", b"")
        put(f"binary.{suffix}", noise)
    put("digits.tree", f"max({DIGITS} 1)")
    put("digits.json", f'{{"players": 2, "root": {{"type": "max", "children": [{DIGITS}, 1]}}}}')
    put("digits.weights.json",
        f'{{"format": "plies-weights", "game": "othello", "weights": {{"mobility": {DIGITS}}}}}')
    put("deep.json", "[" * 100_000 + "]" * 100_000)
    put("deep.weights.json", '{"format": "plies-weights", "weights": ' + "[" * 100_000
        + "]" * 100_000 + "}")
    put("deep.tree", "max(" * 3000 + "1" + ")" * 3000)
    # 62 bytes declaring a billion players
    put("billion.json", '{"players": 1000000000, "root": {"type":"max","children":[1]}}')
    put("good.kif", (GDL_DATA / "ticTacToe.kif").read_bytes())
    put("good.weights.json", json.dumps({"format": "plies-weights", "version": 1,
                                         "game": "othello", "weights": {"mobility": 10.0}}))
    put("boom.py", "raise RuntimeError('boom at import')\n")
    put("factory.py", "def make(**options):\n    raise ValueError('the factory refuses')\n")
    put("positions.txt", "1\n5\n")
    for name in ("fifo.tree", "fifo.kif", "fifo.weights.json", "fifo.txt"):
        os.mkfifo(where / name)
        made[name] = str(where / name)
    for name in ("dir.tree", "dir.kif"):
        (where / name).mkdir()
        made[name] = str(where / name)
    for name, target in (("zero.tree", "/dev/zero"), ("zero.kif", "/dev/zero"),
                         ("urandom.kif", "/dev/urandom")):
        (where / name).symlink_to(target)
        made[name] = str(where / name)
    for name, text in [*NAMED_GDL.items(), *gdl_mutants(GDL_MUTANTS)]:
        put(f"{name}.kif", text)
    made["out.svg"] = str(where / "out.svg")
    made["out.json"] = str(where / "out.json")
    if big:
        with (where / "big.tree").open("w") as file:
            file.write("max(")
            file.write("1 " * 7_800_000)
            file.write(")\n")
        made["big.tree"] = str(where / "big.tree")
    return made


def fill(argv: Sequence[str], files: dict[str, str]) -> list[str]:
    """``argv`` with each ``{name}`` replaced by the path of that file."""
    out = []
    for arg in argv:
        for name, path in files.items():
            arg = arg.replace("{" + name + "}", path)
        out.append(arg)
    return out


# --- CLI cases -----------------------------------------------------------------------------

OK_EXITS = frozenset({0, 2})
INTERRUPTED_EXITS = frozenset({0, 2, 130, -signal.SIGINT})
"""A Ctrl-C may also land before Python handles SIGINT (killed by it, quietly) or after
the command ended."""


@dataclass(frozen=True)
class Case:
    """``plies ARGV`` with ``stdin``; ``interrupt``: seconds after the start to press Ctrl-C
    (SIGINT to the process group, as a terminal does)."""

    surface: str
    name: str
    argv: tuple[str, ...]
    stdin: bytes = b""
    timeout: float = 30.0
    interrupt: float | None = None
    exits: frozenset[int] = OK_EXITS

    def command(self, files: dict[str, str] | None = None) -> str:
        """The shell command that reproduces the case."""
        argv = fill(self.argv, files) if files is not None else list(self.argv)
        shown = [a if len(a) < 300 else a[:20] + f"...({len(a)} chars)" for a in argv]
        return "plies " + " ".join(shlex.quote(a) for a in shown)


def _case(name: str, *argv: str, **kw: object) -> Case:
    return Case("cli", name, tuple(argv), **kw)  # type: ignore[arg-type]


def fixed_cli_cases() -> list[Case]:
    """The named hostile inputs, every command at least once (the issue's among them)."""
    cases = [
        _case("games-extra-argument", "games", "--openspiel", "extra"),
        _case("algorithms-extra-argument", "algorithms", "extra"),
        _case("demo-unknown-option", "demo", "--fast"),
        _case("solve-billion-players", "solve", "{billion.json}"),
        _case("solve-time-inf", "solve", "tictactoe", "--time", "inf"),
        _case("solve-time-1e309", "solve", "tictactoe", "--time", "1e309"),
        _case("solve-time-nan", "solve", "tictactoe", "--time", "nan"),
        _case("solve-depth-5000-digits", "solve", "tictactoe", "--depth", DIGITS),
        _case("solve-sys-exit", "solve", "sys:exit"),
        _case("solve-module-raising", "solve", "boom:Game"),
        _case("solve-file-module-raising", "solve", "{boom.py}:Game"),
        _case("solve-factory-raising", "solve", "factory:make"),
        _case("solve-not-a-game", "solve", "os:getcwd"),
        _case("solve-10000-moves", "solve", "tictactoe", "--moves", "1," * 10000),
        _case("analyze-fifo-positions", "analyze", "nim", "--file", "{fifo.txt}",
              "--workers", "1", timeout=30),
        _case("analyze-huge-workers", "analyze", "nim", "--file", "{positions.txt}",
              "--workers", DIGITS),
        _case("trace-negative-lines", "trace", "tictactoe", "--max-lines", "-1"),
        _case("trace-billion-players", "trace", "{billion.json}"),
        _case("play-garbage-stdin", "play", "tictactoe", "--human", "0", "--depth", "1",
              stdin=b"\x00\xff\xfe\nzz\n" + DIGITS.encode() + b"\n"),
        _case("play-huge-worlds", "play", "kuhn", "--human", "none", "--worlds", DIGITS),
        _case("tree-output-a-directory", "tree", "tictactoe", "--depth", "1", "--out",
              "{dir.tree}"),
        _case("tree-output-dev-full", "tree", "tictactoe", "--depth", "1", "--out",
              "/dev/full"),
        _case("tree-deep-json", "tree", "{deep.json}", "--out", "{out.svg}"),
        _case("web-port-huge", "web", "--no-browser", "--port", DIGITS),
        _case("web-game-dev-zero", "web", "--no-browser", "--port", "0", "--game",
              "{zero.kif}", timeout=30),
        _case("web-game-module-raising", "web", "--no-browser", "--port", "0", "--game",
              "boom:Game", timeout=30),
        _case("tournament-huge-games", "tournament", "nim", "-o", "piles=1,2", "--agent",
              "random", "--agent", "random", "--games", DIGITS),
        _case("tournament-agent-time-inf", "tournament", "nim", "-o", "piles=1,2",
              "--agent", "alphabeta:time=inf", "--agent", "random", "--games", "1",
              "--workers", "1"),
        _case("check-module-raising", "check", "boom:Game"),
        _case("check-sys-exit", "check", "sys:exit"),
        _case("check-factory-raising", "check", "factory:make"),
        _case("uci-garbage-then-eof", "uci", stdin=b"\xff\xfe\ngo depth " + DIGITS.encode()
              + b"\nposition fen x\n"),
        _case("learn-alpha-1e308", "learn", "othello", "--method", "td", "--alpha", "1e308",
              "--games", "1", "--depth", "1", "--out", "{out.json}", timeout=60),
        _case("learn-out-a-directory", "learn", "othello", "--games", "1", "--depth", "1",
              "--out", "{dir.tree}", timeout=60),
        _case("learn-weights-dev-zero", "learn", "othello", "--games", "1", "--depth", "1",
              "--weights", "/dev/zero", "--out", "{out.json}", timeout=30),
        _case("ggp-match-fifo-game", "ggp", "match", "{fifo.kif}", "--player", "random",
              "--player", "random", timeout=30),
        _case("ggp-match-dev-zero-game", "ggp", "match", "{zero.kif}", "--player", "random",
              "--player", "random", timeout=30),
        _case("ggp-match-bad-ipv6-url", "ggp", "match", "{good.kif}", "--player",
              "http://[::1/", "--player", "random"),
        _case("ggp-match-start-inf", "ggp", "match", "{good.kif}", "--player", "random",
              "--player", "random", "--start", "inf", "--quiet", timeout=60),
        _case("ggp-serve-margin-nan", "ggp", "serve", "--port", "0", "--margin", "nan",
              timeout=30),
    ]
    for weights in ODD_WEIGHTS:
        name = weights.strip("{}").replace("/", "-").strip("-")
        cases.append(_case(f"solve-weights-{name}", "solve", "othello", "--depth", "1",
                           "--weights", weights, timeout=30))
    for path in ODD_FILES:
        name = path.strip("{}").replace("/", "-").strip("-")
        cases.append(_case(f"solve-game-file-{name}", "solve", path, "--depth", "2",
                           "--time", "5", timeout=30))
    return cases


TEMPLATES: dict[str, tuple[tuple[str, ...], ...]] = {
    "games": (("games",),),
    "algorithms": (("algorithms",),),
    "solve": (("solve", "tictactoe", "--moves", "1,5", "--depth", "3"),
              ("solve", "nim", "-o", "piles=1,2", "--algorithm", "minimax"),
              ("solve", "othello", "--depth", "1", "--weights", "{good.weights.json}")),
    "analyze": (("analyze", "nim", "-o", "piles=1,2", "--depth", "4"),
                ("analyze", "tictactoe", "--file", "{positions.txt}", "--workers", "1")),
    "trace": (("trace", "tictactoe", "--moves", "1,5,9", "--depth", "2", "--max-lines",
               "20"),),
    "play": (("play", "tictactoe", "--human", "none", "--depth", "1"),),
    "tree": (("tree", "tictactoe", "--moves", "1,5,9", "--depth", "2", "-o", "{out.svg}",
              "--max-nodes", "50"),),
    "tournament": (("tournament", "nim", "-o", "piles=1,2", "--agent", "random", "--agent",
                    "alphabeta:depth=2", "--games", "1", "--workers", "1"),),
    "check": (("check", "tictactoe", "--playouts", "2", "--max-steps", "20"),),
    "learn": (("learn", "othello", "--games", "1", "--depth", "1", "--out", "{out.json}"),),
    "ggp": (("ggp", "match", "{good.kif}", "--player", "random", "--player", "random",
             "--start", "5", "--play", "2", "--quiet"),),
    "web": (("web", "--no-browser", "--port", "-5", "--workers", "1"),),
    "uci": (("uci",),),
}
"""Valid commands (web and uci made invalid or closed, as they would run forever)."""
EXTRA_FLAGS = ("--depth", "--time", "--nodes", "--seed", "--player", "--moves", "-o",
               "--workers", "--games", "--playouts", "--max-steps", "--max-lines", "--alpha",
               "--epsilon", "--weights", "--file", "--start", "--play", "--json")
GAME_COMMANDS = frozenset({"solve", "analyze", "trace", "play", "tree", "tournament", "check",
                           "learn", "ggp"})
VALUE_FLAGS = frozenset(EXTRA_FLAGS) | {"--out", "--agent", "--algorithm", "--human",
                                       "--max-nodes", "--port"}


def mutate(argv: Sequence[str], rng: random.Random) -> list[str]:
    """One random mutation of a command line (a new list)."""
    out = list(argv)
    kind = rng.choice(["number", "number", "file", "spec", "drop", "duplicate", "insert",
                       "garbage"])
    first = 2 if out[0] == "ggp" else 1  # the command (and ggp's subcommand) stay
    values = [i for i in range(first, len(out)) if out[i - 1] in VALUE_FLAGS]
    if kind == "number" and values:
        out[rng.choice(values)] = rng.choice(ABSURD)
    elif kind == "file" and values:
        out[rng.choice(values)] = rng.choice(ODD_FILES + ODD_WEIGHTS)
    elif kind == "spec" and out[0] in GAME_COMMANDS:
        out[first] = rng.choice(ODD_SPECS)
    elif kind == "drop" and len(out) > first:
        del out[rng.randrange(first, len(out))]
    elif kind == "duplicate" and values:
        i = rng.choice(values)
        out += [out[i - 1], rng.choice(ABSURD)]
    elif kind == "insert":
        out += [rng.choice(EXTRA_FLAGS), rng.choice(ABSURD + ODD_FILES)]
    else:
        out.insert(rng.randrange(first, len(out) + 1),
                   rng.choice(["\u202e", "-", "--", "%s%n", "\\x00", "é" * 300, "-oo=",
                               "--help=1", DIGITS]))
    return out


def mutated_cli_cases(per_command: int, seed: int = SEED) -> list[Case]:
    """``per_command`` seeded mutants of each command's valid templates."""
    rng = random.Random(seed)
    cases = []
    for command, templates in TEMPLATES.items():
        for k in range(per_command):
            argv = list(rng.choice(templates))
            for _ in range(rng.choice((1, 1, 2))):
                argv = mutate(argv, rng)
            if command == "web":
                argv += ["--port", "-5"]  # a valid web command would serve for ever
            stdin = b"quit\n" if command == "uci" else b""
            cases.append(Case("cli", f"{command}-mutant-{k}", tuple(argv), stdin=stdin,
                              timeout=45))
    return cases


CTRL_C_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("solve", "connect4"),
    ("analyze", "chess", "--time", "30"),
    ("tournament", "tictactoe", "--agent", "alphabeta", "--agent", "mcts:nodes=20000",
     "--games", "50", "--workers", "2"),
    ("learn", "othello", "--games", "200", "--depth", "2", "--out", "{out.json}"),
    ("check", "chess", "--playouts", "500"),
    ("ggp", "match", "{good.kif}", "--player", "random", "--player", "random", "--play",
     "30", "--start", "30"),
    ("solve", "{big.tree}", "--time", "30"),
)
"""Long commands to press Ctrl-C in (``{big.tree}`` only where ``make_files(big=True)``)."""


def ctrl_c_cases(offsets: Sequence[float], commands: Sequence[Sequence[str]] = CTRL_C_COMMANDS,
                 *, settle: float = 20.0) -> list[Case]:
    """Every command interrupted at every offset; ``settle``: seconds it may take to stop."""
    return [Case("ctrl-c", f"{argv[0]}-{i}-at-{offset:g}s", tuple(argv), interrupt=offset,
                 timeout=offset + settle, exits=INTERRUPTED_EXITS)
            for i, argv in enumerate(commands) for offset in offsets]


# --- running one case ----------------------------------------------------------------------


@dataclass
class Run:
    """What a run of a case did: ``code`` None when it was killed at its timeout."""

    code: int | None
    err: str
    err_bytes: int
    seconds: float
    peak_kb: int
    stopped: float | None = None
    """Seconds from the Ctrl-C to the end."""


def limit_memory(cap: int | None) -> None:
    """In the child: an address-space cap (as ``prlimit --as``), and Ctrl-C as in a
    terminal (a shell starts background jobs with SIGINT ignored, and so their children)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run_case(case: Case, files: dict[str, str], *, python: str, env: dict[str, str],
             cwd: str, memory: int | None = 2 * 2**30) -> Run:
    """Run ``python -m plies`` on ``case`` in its own process group, capped in memory and
    time (the group is killed at the timeout); stdout is discarded, stderr kept (its head)."""
    argv = [python, "-m", "plies", *fill(case.argv, files)]
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as stdin:
        stdin.write(case.stdin)
        stdin.seek(0)
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=err,
                                cwd=cwd, env=env, start_new_session=True,
                                preexec_fn=lambda: limit_memory(memory))
        interrupted: float | None = None
        code: int | None = None
        peak = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            now = time.monotonic() - start
            if pid:
                code = os.waitstatus_to_exitcode(status)
                peak = usage.ru_maxrss
                proc.returncode = code
                break
            if case.interrupt is not None and interrupted is None and now >= case.interrupt:
                _signal_group(proc.pid, signal.SIGINT)
                interrupted = now
            if now > case.timeout:
                _signal_group(proc.pid, signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                peak = usage.ru_maxrss
                break
            time.sleep(0.01)
        seconds = time.monotonic() - start
        _signal_group(proc.pid, signal.SIGKILL)  # whatever it left behind
        size = err.tell()
        err.seek(0)
        head = err.read(64 * 1024).decode("utf-8", "replace")
    stopped = None if interrupted is None or code is None else seconds - interrupted
    return Run(code, head, size, seconds, peak, stopped)


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


VERDICTS = ("ok", "python start-up", "traceback", "hang", "wrong exit", "long message", "memory",
            "5xx")

STARTUP_FRAMES = ("<frozen ", "plies/_startup.py", "plies/__init__.py\", line 9,",
                  "/__editable__", "File \"<string>\", line 1, in <module>",
                  "/bin/plies\", line 3, in <module>")
"""Where a traceback comes from when a Ctrl-C lands in Python's own start-up, before plies'
first line has put its handler in place (the site module running the ``.pth`` lines of
site-packages, an editable install's finder, the ``plies`` script's import line, runpy
and importlib finding plies: about the first 20-50 ms, longer under load): a Python
package cannot catch it."""

SITE_FAILED = "Fatal Python error: init_import_site"
"""What Python prints when a Ctrl-C stops its site module, before any package runs."""
RUNPY_FAILED = "Could not import runpy module"
"""What ``python -m`` prints when a Ctrl-C stops its import of runpy (and the standard
modules runpy imports), before any package runs."""


def in_python_startup(err: str) -> bool:
    """Whether every frame of the traceback in ``err`` is Python's start-up (or plies'
    first line, which installs the quiet Ctrl-C handler)."""
    if SITE_FAILED in err or err.startswith(RUNPY_FAILED):
        return True
    frames = [line.strip() for line in err.splitlines() if line.strip().startswith("File ")]
    return bool(frames) and all(
        any(mark in frame for mark in STARTUP_FRAMES) for frame in frames)


def verdict(case: Case, run: Run) -> str:
    """``ok`` or what broke, the worst first: memory, traceback, hang, wrong exit, long
    message (more than one line, or a line over :data:`MAX_MESSAGE` characters)."""
    if "MemoryError" in run.err or (run.code == -signal.SIGKILL and run.seconds < case.timeout):
        return "memory"
    if "Traceback" in run.err:
        return "python start-up" if in_python_startup(run.err) else "traceback"
    if run.code is None or run.seconds >= case.timeout:
        return "hang"
    if run.code not in case.exits:
        return "wrong exit"
    lines = [line for line in run.err.splitlines() if line.strip()]
    if len(lines) > 1 or run.err_bytes > len(run.err.encode()) or any(
        len(line) > MAX_MESSAGE for line in lines
    ):
        return "long message"
    return "ok"


def explain(case: Case, run: Run, files: dict[str, str] | None = None) -> str:
    """One line for a failed assertion: the verdict, the command, what it printed."""
    tail = run.err.strip().splitlines()[-1:] or [""]
    frames = [line.strip() for line in run.err.splitlines() if line.strip().startswith("File ")
              and not any(mark in line for mark in STARTUP_FRAMES)]
    where = f", frames outside Python's start-up: {frames[-3:]}" if frames else ""
    return (f"{verdict(case, run)}: {case.command(files)} -> exit {run.code} after "
            f"{run.seconds:.1f} s, {run.err_bytes} bytes on stderr, last: {tail[0][:200]!r}"
            f"{where}")


# --- web requests --------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """An HTTP request to the web app."""

    name: str
    method: str
    path: str
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("content-type", "application/json"),)


BILLION_TREE = '{"players": 1000000000, "root": {"type":"max","children":[1]}}'
VALID_BODIES: tuple[tuple[str, dict[str, object]], ...] = (
    ("state", {"game": "tictactoe", "moves": ["5"]}),
    ("move", {"game": "nim", "options": {"piles": [1, 2]}, "depth": 3}),
    ("analyze", {"game": "tictactoe", "moves": ["1", "5"], "depth": 2}),
    ("tree", {"game": "tictactoe", "moves": ["1", "5", "9"], "depth": 2}),
    ("state", {"tree": "A: max(B: min(3 12 8) C: min(2 4 6))"}),
    ("state", {"gdl": (GDL_DATA / "ticTacToe.kif").read_text()}),
)
ABSURD_JSON: tuple[object, ...] = (
    None, True, -1, 0, 1e308, "x" * 10_000, [], {}, [[[[[]]]]], 2**64, "nan",
    "../../etc/passwd", "1e309", {"__proto__": 1}, ["5"] * 5000,
)


def _raw_json_values() -> tuple[str, ...]:
    """JSON that Python's json module chokes on, as text."""
    return (DIGITS, "1e999", "NaN", "-Infinity", "[" * 100_000 + "]" * 100_000,
            f'"{BILLION_TREE}"'.replace('"{', '"{').replace('}"', '}"'))


def web_requests(count: int, seed: int = SEED) -> list[Request]:
    """Named hostile requests, then ``count`` seeded mutants of the valid bodies."""
    rng = random.Random(seed)
    billion = json.dumps({"tree": BILLION_TREE}).encode()
    out = [
        Request("billion-player-tree", "POST", "/api/state", billion),
        Request("billion-player-tree-json-form", "POST", "/api/state",
                json.dumps({"tree": BILLION_TREE, "name": "t.json"}).encode()),
        Request("5000-digit-depth", "POST", "/api/move",
                b'{"game": "tictactoe", "depth": ' + DIGITS.encode() + b"}"),
        Request("5000-digit-tree-leaf", "POST", "/api/state",
                json.dumps({"tree": f"max({DIGITS} 1)"}).encode()),
        Request("5000-digit-json-tree-leaf", "POST", "/api/state",
                json.dumps({"tree": f'{{"root": [{DIGITS}, 1]}}', "name": "t.json"}).encode()),
        Request("deep-json-body", "POST", "/api/state", b"[" * 100_000 + b"]" * 100_000),
        Request("deep-json-in-tree", "POST", "/api/state",
                json.dumps({"tree": "[" * 50_000 + "]" * 50_000, "name": "t.json"}).encode()),
        Request("not-json", "POST", "/api/state", b"\xff\xfe{"),
        Request("wrong-content-type", "POST", "/api/state", b"{}",
                (("content-type", "text/plain"),)),
        Request("oversized-body", "POST", "/api/state", b" " * (300 * 1024) + b"{}"),
        Request("unknown-endpoint", "POST", "/api/../../etc/passwd", b"{}"),
        Request("get-an-endpoint", "GET", "/api/state"),
        Request("static-traversal", "GET", "/static/..%2f..%2fapi.py"),
        Request("deep-gdl", "POST", "/api/state",
                json.dumps({"gdl": "(role a) (init " + "(f " * 200 + "x" + ")" * 200
                            + ")"}).encode()),
    ]
    raw = _raw_json_values()
    for k in range(count):
        endpoint, body = rng.choice(VALID_BODIES)
        body = dict(body)
        key = rng.choice([*body, "depth", "time", "nodes", "algorithm", "moves", "options",
                          "player", "seed"])
        if rng.random() < 0.3:
            text = json.dumps({**body, key: "@RAW@"}).replace('"@RAW@"', rng.choice(raw))
            out.append(Request(f"mutant-{k}-{endpoint}-{key}-raw", "POST", f"/api/{endpoint}",
                               text.encode()))
        else:
            body[key] = rng.choice(ABSURD_JSON)
            out.append(Request(f"mutant-{k}-{endpoint}-{key}", "POST", f"/api/{endpoint}",
                               json.dumps(body).encode()))
    return out


def http(host: str, port: int, request: Request, timeout: float = 60.0) -> tuple[int, bytes]:
    """Send ``request``; (status, body).  Raises OSError when the server does not answer."""
    import http.client

    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = dict(request.headers)
        headers.setdefault("host", f"127.0.0.1:{port}")
        connection.request(request.method, request.path, body=request.body or None,
                           headers=headers)
        response = connection.getresponse()
        return response.status, response.read(1 << 20)
    finally:
        connection.close()


# --- GGP messages --------------------------------------------------------------------------


def _rules(name: str) -> str:
    text = (GDL_DATA / f"{name}.kif").read_text(encoding="utf-8")
    lines = [line.split(";", 1)[0] for line in text.splitlines()]
    return "(" + " ".join(" ".join(lines).split()) + ")"


def ggp_messages(count: int, seed: int = SEED) -> list[tuple[str, str]]:
    """Named hostile GGP messages, then ``count`` seeded mutants of real ones; (name, text).

    Sent one after the other to one player: every reply must be a status below 500 and the
    player must still answer INFO.  Matches are started with ids ``h<k>`` and a small clock.
    """
    rng = random.Random(seed)
    ttt = _rules("ticTacToe")
    out = [
        ("garbage", "\x00\xff not a message"),
        ("empty", ""),
        ("unbalanced", "(start m0 xplayer ((role xplayer)"),
        ("start-clock-1e300", f"(start c1 xplayer {ttt} 1e300 1e300)"),
        ("start-clock-nan", f"(start c2 xplayer {ttt} nan nan)"),
        ("start-clock-negative", f"(start c3 xplayer {ttt} -5 -5)"),
        ("start-clock-zero", f"(start c4 xplayer {ttt} 0 0)"),
        ("start-clock-5000-digits", f"(start c5 xplayer {ttt} {DIGITS} 1)"),
        ("start-unknown-role", f"(start c6 nobody {ttt} 5 1)"),
        ("play-unknown-match", "(play nosuch nil)"),
        ("stop-unknown-match", "(stop nosuch nil)"),
        ("abort-unknown-match", "(abort nosuch)"),
        ("start-deep-term", f"(start c7 xplayer ((role xplayer) (init {'(f ' * 200}x"
                            f"{')' * 200})) 5 1)"),
        ("start-valid", f"(start h0 xplayer {ttt} 5 1)"),
        ("play-out-of-order-moves", "(play h0 ((mark 9 9) noop))"),
        ("play-valid", "(play h0 nil)"),
        ("play-resent", "(play h0 nil)"),
        ("play-garbled", "(play h0 ((((( noop)"),
        ("stop-before-end", "(stop h0 nil)"),
        ("play-after-stop", "(play h0 nil)"),
        ("abort-after-stop", "(abort h0)"),
        ("huge-body", "(info " + "x" * (2 * 2**20) + ")"),
    ]
    real = [f"(start h{{k}} xplayer {ttt} 5 1)", "(play h{k} nil)",
            "(play h{k} ((mark 1 1) noop))", "(stop h{k} ((mark 1 1) noop))", "(abort h{k})",
            "(info)"]
    for k in range(1, count + 1):
        text = rng.choice(real).replace("{k}", str(k))
        tokens = text.replace("(", " ( ").replace(")", " ) ").split()
        for _ in range(rng.choice((1, 2, 3))):
            i = rng.randrange(len(tokens))
            kind = rng.choice(["drop", "dup", "absurd", "paren", "swap"])
            if kind == "drop":
                del tokens[i]
            elif kind == "dup":
                tokens.insert(i, tokens[i])
            elif kind == "absurd":
                tokens[i] = rng.choice((*ABSURD[:9], "?x", "(", ")", "distinct", "nil"))
            elif kind == "paren":
                tokens.insert(i, rng.choice("()"))
            else:
                j = rng.randrange(len(tokens))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            if not tokens:
                tokens = ["("]
        out.append((f"mutant-{k}", " ".join(tokens)))
    out.append(("abort-all", "(abort h0)"))
    return out


def ggp_post(host: str, port: int, message: str, timeout: float = 30.0) -> tuple[int, str]:
    """POST ``message`` as ggp-base's manager does; (status, body).  OSError if no answer."""
    body = message.encode("utf-8")
    head = (f"POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: {host}:{port}\r\n"
            f"Sender: GAMESERVER\r\nReceiver: player\r\nContent-Type: text/acl\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(head + body)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks)
    first, _, rest = raw.partition(b"\r\n")
    parts = first.split()
    if len(parts) < 2 or not parts[1].isdigit():
        raise ConnectionError(f"not an HTTP reply: {first[:80]!r}")
    return int(parts[1]), rest.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


# --- UCI lines -----------------------------------------------------------------------------

FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
UCI_VALID = ("uci", "isready", "ucinewgame", "position startpos", "position startpos moves e2e4",
             f"position fen {FEN}", "go depth 1", "go movetime 50", "go nodes 200", "stop",
             "setoption name Hash value 8", "setoption name Quiescence value 2", "debug on")


def uci_lines(count: int, seed: int = SEED) -> list[bytes]:
    """``count`` seeded lines: valid commands mutated, random bytes, absurd numbers."""
    rng = random.Random(seed)
    named = [b"go depth " + DIGITS.encode(), b"go movetime -5", b"go wtime 1e309 btime nan",
             b"setoption name Hash value " + DIGITS.encode(), b"go nodes 99999999999999999999",
             b"position fen " + b"/" * 5000, b"position startpos moves " + b"e2e4 " * 5000,
             b"x" * (1 << 20), b"\xff\xfe\x00", b"go infinite", b"stop", b"go searchmoves zz"]
    out = list(named)
    for _ in range(count - len(named)):
        pick = rng.random()
        if pick < 0.2:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
                       .replace(b"\n", b" "))
            continue
        words = rng.choice(UCI_VALID).split()
        for _ in range(rng.choice((1, 2))):
            i = rng.randrange(len(words))
            kind = rng.choice(["absurd", "drop", "dup", "swap"])
            if kind == "absurd":
                words[i] = rng.choice((*ABSURD, "e9e9", "a1a1", "8/8/8", "0000"))
            elif kind == "drop" and len(words) > 1:
                del words[i]
            elif kind == "dup":
                words.insert(i, words[i])
            else:
                j = rng.randrange(len(words))
                words[i], words[j] = words[j], words[i]
        out.append(" ".join(words).encode())
    return out


# --- GDL mutants ---------------------------------------------------------------------------


def gdl_sources() -> list[Path]:
    """The repository's test games (small ones: mutants are built, not just parsed)."""
    return sorted(p for p in GDL_DATA.glob("*.kif") if p.stat().st_size < 20_000)


GDL_MUTANTS = 200
"""Mutants :func:`make_files` writes (``{<name>.kif}``)."""




def _nested(depth: int, inner: str = "x") -> str:
    """``(f0 (f1 (f2 (f0 ... x))))``, ``depth`` deep."""
    return "".join(f"(f{(depth - 1 - i) % 3} " for i in range(depth)) + inner + ")" * depth


_ONE_ROLE = "(role p) (init s) (legal p go) (next s) (goal p 100)"
NAMED_GDL = {
    # grounding refuses a term this deep, so the top-down prover compiles it (200 < 256)
    "nested-200-for-the-top-down-prover":
        f"{_ONE_ROLE} (c 1) (<= terminal (true t)) (<= (next {_nested(200, '?x')}) (c ?x))",
    "nested-255": f"{_ONE_ROLE} (<= terminal (true t)) (init {_nested(255)})",
    "join-bomb": (GDL_DATA.parent / "hostile" / "join-bomb.kif").read_text(encoding="utf-8"),
}
"""GDL texts named in issue 22 (written as ``{<name>.kif}`` by :func:`make_files`)."""


def gdl_cases(count: int) -> list[Case]:
    """The named GDL texts and the first ``count`` mutants, each loaded and searched one ply
    by the CLI within ``--time 3``."""
    names = [*NAMED_GDL, *(name for name, _ in gdl_mutants(count))]
    cases = [Case("gdl", name, ("solve", "{" + name + ".kif}", "--depth", "1", "--time", "3"),
                  timeout=30) for name in names]
    # the named ones have one role: a match judged by the top-down prover too
    return cases + [Case("gdl", f"{name}-topdown-match",
                         ("ggp", "match", "{" + name + ".kif}", "--reasoner", "topdown",
                          "--player", "random", "--max-steps", "2", "--start", "3", "--quiet"),
                         timeout=30) for name in NAMED_GDL]


def gdl_mutants(count: int, seed: int = SEED) -> list[tuple[str, str]]:
    """``count`` seeded mutants of the test games; (name, text)."""
    rng = random.Random(seed)
    sources = gdl_sources()
    out = []
    for k in range(count):
        source = rng.choice(sources)
        text = source.read_text(encoding="utf-8")
        text = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
        tokens = text.replace("(", " ( ").replace(")", " ) ").split()
        kinds = []
        for _ in range(rng.choice((1, 2, 3))):
            kind = rng.choice(["drop", "dup", "swap", "paren", "paren", "absurd", "deep",
                               "nest", "rule"])
            kinds.append(kind)
            i = rng.randrange(len(tokens))
            if kind == "drop":
                del tokens[i]
            elif kind == "dup":
                tokens.insert(i, tokens[i])
            elif kind == "swap":
                j = rng.randrange(len(tokens))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            elif kind == "paren":
                tokens.insert(i, rng.choice("()"))
            elif kind == "absurd":
                tokens[i] = rng.choice((DIGITS, "1" + "0" * 4300, "-1", "²", "?", "<=",
                                        "1e309", "nan"))
            elif kind == "deep":
                depth = rng.choice((200, 255, 300, 5000))
                tokens[i:i] = ["(", "init"] + ["(", "f"] * depth + ["x"] + [")"] * (depth + 1)
            elif kind == "nest":
                tokens[i:i] = ["(", "<=", "(", "p", "?x", ")", "(", "p", "(", "s", "?x", ")",
                               ")", ")"]
            else:
                tokens += ["(", "<=", "(", "legal", "?r", "?m", ")", "(", "role", "?r", ")",
                           "(", "legal", "?r", "?m", ")", ")"]
        out.append((f"{source.stem}-{k}-{'+'.join(kinds)}", " ".join(tokens)))
    return out


# --- helpers for servers started as processes ----------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait until something accepts connections on 127.0.0.1:``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server ended with exit {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


@dataclass
class Tally:
    """Counts of verdicts, and the worst case (peak memory, wall time)."""

    cases: int = 0
    broke: dict[str, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    peak_kb: int = 0
    peak_case: str = ""
    seconds: float = 0.0
    slow_case: str = ""

    def add(self, name: str, outcome: str, *, peak_kb: int = 0, seconds: float = 0.0) -> None:
        self.cases += 1
        if outcome != "ok":
            self.broke[outcome] = self.broke.get(outcome, 0) + 1
            self.failed.append(f"{name}: {outcome}")
        if peak_kb > self.peak_kb:
            self.peak_kb, self.peak_case = peak_kb, name
        if seconds > self.seconds:
            self.seconds, self.slow_case = seconds, name


def chunks(items: Sequence[bytes], size: int) -> Iterator[Sequence[bytes]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]
