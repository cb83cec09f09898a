"""Every shell command shown in README.md and docs/**/*.md is run, and its output compared.

A fenced block whose first line starts with ``$ `` is a terminal transcript: each ``$ ``
line is a command and the lines up to the next ``$ `` (or the end of the block) are what
it prints.  ``plies`` runs in-process (:func:`plies.cli.main`), in a scratch directory that
sees the repository's ``src/`` and ``tests/`` (so ``tests/data/gdl/nim1.kif`` and
``src/plies/games/trees/...`` resolve) and has an empty ``docs/images/``, so nothing in the
repository is overwritten.  The console is 100 columns wide, as the docs were written, and
``os.cpu_count()`` is 2 (the "2 workers" the docs show).

Understood in a transcript (a small shell, enough for the docs; anything else fails and
must be given a treatment in :data:`SPECIAL`):

* pipes into ``head -N``, ``tail -N``, ``grep TEXT`` and ``python3 -c CODE`` (run for real);
  ``printf '...' | plies ...`` feeds ``plies play`` its input; ``> FILE`` redirects;
* ``NAME="..."`` sets a variable for the later commands of that file (``$NAME``);
* ``cat FILE``: the lines shown are the file's content, and later commands read it;
* a line ``...`` stands for any number of output lines (an excerpt);
* ``[exit status N]`` as the last line: the exit status; otherwise it is 2 when the output
  shows ``plies: error:`` and 0 when it does not;
* ``.venv/bin/python SCRIPT.py``: runs the ``python`` block just above the transcript;
* ``curl`` against ``plies ggp serve`` or ``plies web``: sent to a real server of that kind
  on a free port (the transcript's port is mapped to it).

What legitimately differs from run to run is normalised, and nothing else: durations
(``0.069s``, ``(1.50s)``, ``0.8 s``), the ``nodes/s`` column and a rate in text (``12,345
nodes/s``), JSON ``elapsed``/``nps``, HTTP ``Date``/``Server`` headers; since those change
the width of a Rich table, tables are compared cell by cell (borders by their junctions,
titles without their centring).  Node counts, values, moves and messages must match exactly.

``PLIES_UPDATE_DOCS=1 pytest tests/test_docs.py`` rewrites, in place, every transcript
whose output no longer matches with the real output (a transcript that still matches is
left as written, with its old times); excerpts (``...``) and special cases are not
rewritten and still fail, to be fixed by hand.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from plies.cli import main

REPO = Path(__file__).resolve().parents[1]
# Every page of the site, tutorials and how-tos included (not generated or copied files).
DOCS = [
    REPO / "README.md",
    *sorted(
        page
        for page in (REPO / "docs").rglob("*.md")
        if not page.relative_to(REPO / "docs").parts[0].startswith("_")
    ),
]
UPDATE = os.environ.get("PLIES_UPDATE_DOCS") == "1"

# Files a transcript uses without showing them (their content is what the docs describe).
FILES = {
    "bad.tree": "max(\n    min(3 12 8\n",  # "missing ')' to close the min node ... line 2"
    "ttt.txt": "# tic-tac-toe positions\n-\n5\n5 1 9\n1 2 3 4 5 6 7\n",
    "bad.txt": "1\n5 5\n",  # line 2 is "5 5"
}


# --- reading the transcripts ------------------------------------------------------------------


@dataclass
class Command:
    """One ``$ `` command of a transcript and the output shown under it."""

    path: Path
    line: int  # 1-based line of the "$ " line
    text: str  # the command, continuation lines joined
    expected: list[str]
    end: int  # 0-based index just past the last output line
    script: str | None = None  # the python block just above the transcript, if any
    indent: int = 0  # the block's indentation (a transcript inside a list item)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def _complete(text: str) -> bool:
    """Whether ``text`` is a whole shell command (no open quote, no trailing backslash)."""
    if text.endswith("\\"):
        return False
    try:
        shlex.split(text, comments=True)
    except ValueError:
        return False
    return True


def transcripts(path: Path) -> list[Command]:
    """The commands of every ``$ `` block of ``path``, in document order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    i, last_python = 0, None
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```"):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        body = lines[i + 1 : j]
        if fence == "```python":
            last_python = "\n".join(body) + "\n"
            after = j + 1  # a plain block right after a script is what the script prints
            if (
                not any(line.startswith(">>>") for line in body)
                and after < len(lines) and lines[after].strip() == "```"
            ):
                k = after + 1
                while k < len(lines) and not lines[k].strip().startswith("```"):
                    k += 1
                text = f".venv/bin/python {path.stem}-{i + 1}.py"
                commands.append(Command(path, i + 1, text, lines[after + 1 : k], k, last_python))
                j = k
        elif body and body[0].lstrip().startswith("$ "):
            # A block inside a list item is indented: read it without the indentation.
            indent = len(lines[i]) - len(lines[i].lstrip())
            body = [line[indent:] if line[:indent].isspace() else line for line in body]
            k = 0
            while k < len(body):
                start, text = k, body[k][2:]
                k += 1
                while not _complete(text) and k < len(body):
                    text = text.removesuffix("\\") + "\n" + body[k]
                    k += 1
                out_start = k
                while k < len(body) and not body[k].startswith("$ "):
                    k += 1
                commands.append(Command(
                    path, i + 2 + start, text, body[out_start:k], i + 1 + k, last_python, indent
                ))
        i = j + 1
    return commands


ALL = [c for path in DOCS for c in transcripts(path)]


# --- normalising ------------------------------------------------------------------------------

BOX = "─━│┃┌┐└┘├┤┬┴┼┏┓┗┛┡┩┳┻╇╋"
TIME = re.compile(r"\b\d+(?:\.\d+)? ?s\b(?!/)")
JSON_CLOCK = re.compile(r'("(?:elapsed|nps)"): -?[0-9.e+-]+')
RATE = re.compile(r"\b[0-9][0-9,]* nodes/s\b")  # a rate in running text (plies play)
HEADER = re.compile(r"^(Date|Server): .*")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split("[│┃]", line)[1:-1]]


def normalise(lines: list[str]) -> list[str]:
    """The lines with what legitimately varies replaced, tables compared cell by cell."""
    out: list[str] = []
    rate_column: int | None = None
    for n, raw in enumerate(lines):
        line = raw.rstrip()
        line = JSON_CLOCK.sub(r"\1: <clock>", line)
        line = RATE.sub("<rate> nodes/s", line)
        line = HEADER.sub(r"\1: <varies>", line)
        line = TIME.sub("<time>", line)
        stripped = line.strip()
        if stripped and all(ch in BOX + " " for ch in stripped):  # a border: its junctions
            out.append("".join(ch for ch in stripped if ch not in "─━ "))
            if stripped[0] in "┏┌":
                rate_column = None
            continue
        if stripped[:1] in ("│", "┃") and stripped[-1:] in ("│", "┃"):
            cells = _cells(stripped)
            if "nodes/s" in cells:
                rate_column = cells.index("nodes/s")
            elif rate_column is not None and rate_column < len(cells) and cells[rate_column]:
                cells[rate_column] = "<rate>"
            out.append(f"{stripped[0]} {' | '.join(cells)} {stripped[-1]}")
            continue
        following = lines[n + 1].strip()[:1] if n + 1 < len(lines) else ""
        out.append(stripped if following in ("┏", "┌") else line)  # a title: no centring
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual == expected``, where a line ``...`` of ``expected`` stands for any lines."""
    chunks: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(line)
    if len(chunks) == 1:
        return actual == expected
    first, *middle, last = chunks
    if actual[: len(first)] != first:
        return False
    position = len(first)
    end = len(actual) - len(last)
    if end < position or (last and actual[end:] != last):
        return False
    for chunk in middle:
        while position + len(chunk) <= end and actual[position : position + len(chunk)] != chunk:
            position += 1
        if position + len(chunk) > end:
            return False
        position += len(chunk)
    return True


# --- running ----------------------------------------------------------------------------------


@dataclass
class Session:
    """The scratch directory and shell variables of one document's transcripts."""

    cwd: Path
    variables: dict[str, str] = field(default_factory=dict)
    servers: dict[str, str] = field(default_factory=dict)  # "127.0.0.1:9147" -> real address
    stoppers: list[Callable[[], None]] = field(default_factory=list)


def run_plies(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, int]:
    """``plies argv`` in-process with ``stdin`` as its input: (stdout, stderr, exit status)."""
    out, err = io.StringIO(), io.StringIO()
    with monkeypatch.context() as m:
        m.setattr(sys, "stdin", io.StringIO(stdin))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    return out.getvalue(), err.getvalue(), code


def pipeline(words: list[str]) -> tuple[list[list[str]], str | None]:
    """The stages of a pipeline and the file of a final ``> FILE``."""
    stages: list[list[str]] = [[]]
    target = None
    it = iter(words)
    for word in it:
        if word == "|":
            stages.append([])
        elif word == ">":
            target = next(it)
        else:
            stages[-1].append(word)
    return stages, target


def filter_stage(stage: list[str], text: str, cwd: Path) -> str:
    """``head``, ``tail``, ``grep`` or ``python -c`` on ``text``."""
    name, *args = stage
    lines = text.splitlines(keepends=True)
    if name == "head" and len(args) == 1 and args[0].startswith("-"):
        return "".join(lines[: int(args[0][1:])])
    if name == "tail" and len(args) == 1 and args[0].startswith("-"):
        return "".join(lines[-int(args[0][1:]) :])
    if name == "grep" and len(args) == 1:
        return "".join(line for line in lines if args[0] in line)
    if name in ("python", "python3") and len(args) == 2 and args[0] == "-c":
        done = subprocess.run(
            [sys.executable, "-c", args[1]], input=text, capture_output=True, text=True,
            cwd=cwd, check=False, timeout=600,
        )
        return done.stdout + done.stderr
    raise AssertionError(f"the doc test cannot run {shlex.join(stage)!r}: give it a treatment")


def run_command(command: Command, session: Session, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run one transcript command; its output lines (with ``[exit status N]`` if shown)."""
    text = command.text
    assignment = re.fullmatch(r"(\w+)=(.*)", text, re.DOTALL)
    if assignment:
        session.variables[assignment[1]] = shlex.split(assignment[2])[0]
        return []
    for name, value in session.variables.items():
        text = text.replace(f"${name}", value)
    lexer = shlex.shlex(text, posix=True, punctuation_chars="|>")
    lexer.whitespace_split = True
    stages, target = pipeline(list(lexer))
    first = stages[0]
    stdin, err, code = "", "", 0
    if first[0] == "printf":
        stdin = first[1].encode().decode("unicode_escape")
        stages = stages[1:]
        first = stages[0]
    if first[0] == "plies":
        out, err, code = run_plies(first[1:], stdin, monkeypatch)
    elif first[0] == "cat" and len(first) == 2:
        path = session.cwd / first[1]
        if not path.exists():  # the transcript shows the file: that is its content
            path.write_text("".join(line + "\n" for line in command.expected))
        out = path.read_text()
    elif first[0] in ("python", "python3") and len(first) == 3 and first[1] == "-c":
        out = filter_stage(first, "", session.cwd)
    elif first[0] == ".venv/bin/python" and first[1:] == [Path(first[1]).name]:
        assert command.script, f"{command.where}: no python block above to run as {first[1]}"
        (session.cwd / first[1]).write_text(command.script)
        done = subprocess.run(
            [sys.executable, first[1]], capture_output=True, text=True, cwd=session.cwd,
            env={**os.environ, "PYTHONPATH": str(REPO / "src")}, check=False, timeout=600,
        )
        out, err, code = done.stdout, done.stderr, done.returncode
    elif first[0] == "curl":
        out = curl(first[1:], session)
    else:
        raise AssertionError(f"the doc test cannot run {text!r}: give it a treatment")
    for stage in stages[1:]:
        out = filter_stage(stage, out, session.cwd)
    if target is not None:
        (session.cwd / target).write_text(out)
        out = ""
    lines = (out + err).splitlines()
    shown = [line for line in command.expected if line.startswith("[exit status ")]
    if shown:
        lines.append(f"[exit status {code}]")
    else:
        error_shown = any(line.startswith("plies: error:") for line in command.expected)
        assert code == (2 if error_shown else 0), f"{command.where}: exit status {code}\n{err}"
    return lines


# --- servers: what `plies ggp serve` and `plies web` answer to curl ----------------------------


def curl(args: list[str], session: Session) -> str:
    """``curl [-s] [-i] [-H H] [--data D] URL`` against the session's servers."""
    headers: dict[str, str] = {}
    data: str | None = None
    show_headers = False
    url = ""
    it = iter(args)
    for arg in it:
        if arg in ("-s", "--silent"):
            continue
        if arg == "-i":
            show_headers = True
        elif arg == "-H":
            key, _, value = next(it).partition(":")
            headers[key.strip()] = value.strip()
        elif arg in ("-d", "--data"):
            data = next(it)
        else:
            url = arg if "://" in arg else "http://" + arg
    address = url.split("/")[2]
    assert address in session.servers, f"no server for {address} in this document"
    url = url.replace(address, session.servers[address], 1)
    request = urllib.request.Request(
        url.replace(" ", "%20"), data=None if data is None else data.encode(), headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, reason, version = response.status, response.reason, response.version
            head, body = list(response.headers.items()), response.read().decode()
    except urllib.error.HTTPError as error:
        status, reason, version = error.code, error.reason, 11
        head, body = list(error.headers.items()), error.read().decode()
    if not show_headers:
        return body + ("" if body.endswith("\n") else "\n")
    lines = [f"HTTP/{version // 10}.{version % 10} {status} {reason}"]
    lines += [f"{key}: {value}" for key, value in head]
    return "\n".join(lines) + "\n\n" + body + "\n"


def start_ggp(session: Session) -> None:
    from plies.ggp.player import GgpPlayer
    from plies.ggp.server import GgpServer

    server = GgpServer(GgpPlayer(), "127.0.0.1", 0).start()
    session.servers["127.0.0.1:9147"] = f"127.0.0.1:{server.port}"
    session.stoppers.append(server.stop)


def start_web(session: Session) -> None:
    import uvicorn

    from plies.cli.web import listen
    from plies.web.app import LOOPBACK_HOSTS, create_app

    sock = listen("127.0.0.1", 0)
    server = uvicorn.Server(
        uvicorn.Config(create_app(allowed_hosts=LOOPBACK_HOSTS), log_level="warning")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    session.servers["localhost:8000"] = f"localhost:{sock.getsockname()[1]}"

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()

    session.stoppers.append(stop)


# --- the cases that are not run as shown --------------------------------------------------------


def serve_without_blocking(monkeypatch: pytest.MonkeyPatch) -> None:
    """``plies ggp serve`` and ``plies web`` start, print their first line, and return.

    Nothing listens on the documented port (it may be taken on a test machine): the GGP
    server binds a free port but reports the requested one, and the web command's socket
    is a stand-in; the blocking serve loops return at once.
    """
    import uvicorn

    from plies.cli import web as web_cli
    from plies.ggp.server import GgpServer

    def bind_free_port(self: GgpServer) -> None:
        requested = self.server_address
        self.socket.bind((str(requested[0]), 0))
        self.server_address = requested

    class Socket:
        def __init__(self, host: str, port: int) -> None:
            self.address = (host, port)

        def getsockname(self) -> tuple[str, int]:
            return self.address

        def close(self) -> None:
            """Nothing to close: the stand-in never opened a socket."""

    monkeypatch.setattr(GgpServer, "server_bind", bind_free_port)
    monkeypatch.setattr(GgpServer, "serve_forever", lambda self, poll_interval=0.5: None)
    monkeypatch.setattr(web_cli, "listen", Socket)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setattr(web_cli.webbrowser, "open", lambda url: True)


SPECIAL: dict[str, str] = {
    # command (as written) -> why it is not run exactly as shown, and what is checked instead
    "plies web": "a server: runs up to its 'serving on' line (serve loop and socket stubbed)",
    "plies ggp serve --port 9147": "a server: runs up to its 'listening' line (free port bound)",
    "RULES=": "a GGP match by hand: the player's moves are chosen under a play clock "
    "(Monte Carlo playouts), so they depend on machine speed; tests/ggp plays whole matches "
    "over HTTP instead.  The commands before and after it (info, ping) are run.",
    "curl -s localhost:8000/api/analyze": "the answer is shown shortened and re-spaced by "
    "hand: the facts it shows (value, exact, best move, PV, two move values) are checked",
    ".venv/bin/python benchmarks/parallel_speedup.py": "a benchmark of several minutes, "
    "timed, and its table is below it as Markdown: checked that it exists and takes "
    "--designs (its numbers are measurements, not test outputs)",
}


VARIES: dict[str, re.Pattern[str]] = {
    # command -> a part of its output that differs between runs, with the reason
    # parallel search: the node count depends on the order in which worker tasks finish
    ".venv/bin/python parallel_example.py": re.compile(r"(?<=nodes )[0-9,]+$"),
}


def needs(module: str, extra: str) -> None:
    """Fail, naming the extra to install, when an optional module is missing."""
    try:
        __import__(module)
    except ImportError:
        pytest.fail(f"{module} is missing: pip install '{extra}' (the test extra has it)")


def special(command: Command) -> str | None:
    for prefix, reason in SPECIAL.items():
        if command.text.startswith(prefix):
            return reason
    return None


def _in_ggp_match(command: Command) -> bool:
    """The commands of the GGP match by hand (from ``RULES=`` to the ABORT)."""
    return command.path.name == "ggp.md" and (
        "RULES" in command.text or "demo.1" in command.text
        or (command.text.endswith("--data '(info)'") and "-i" not in command.text)
    )


# --- the tests ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def without_plugins() -> Iterator[None]:
    """The docs show plies as installed alone: the test environment's plug-in
    (``tests/plugin``) is left out, as ``PLIES_DISABLE_PLUGINS=1`` does for anyone."""
    from plies import plugins

    before = os.environ.get(plugins.DISABLE)
    os.environ[plugins.DISABLE] = "1"
    plugins.refresh()
    yield
    if before is None:
        del os.environ[plugins.DISABLE]
    else:
        os.environ[plugins.DISABLE] = before
    plugins.refresh()


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[Path, Session]]:
    made: dict[Path, Session] = {}
    yield made
    for session in made.values():
        for stop in session.stoppers:
            stop()


def session_for(path: Path, made: dict[Path, Session], tmp: Path) -> Session:
    if path not in made:
        cwd = tmp / path.stem
        (cwd / "docs" / "images").mkdir(parents=True)
        for name in ("src", "tests"):
            (cwd / name).symlink_to(REPO / name)
        for name, content in FILES.items():
            (cwd / name).write_text(content)
        session = made[path] = Session(cwd)
        for command in ALL:  # the variables set anywhere in the document
            if command.path == path and re.match(r"\w+=", command.text):
                with contextlib.suppress(ValueError):
                    run_command(command, session, pytest.MonkeyPatch())
        if any(c.path == path and c.text.startswith("curl") and "9147" in c.text for c in ALL):
            start_ggp(session)
        if any(c.path == path and c.text.startswith("curl") and ":8000" in c.text for c in ALL):
            start_web(session)
    return made[path]


def test_every_transcript_is_found() -> None:
    """The parser sees the transcripts (a regression here would silently test nothing)."""
    assert {c.path.name for c in ALL} >= {"README.md", "tournaments.md", "tree-pictures.md"}
    assert any(c.text == "plies games" for c in ALL)
    assert all(c.text.split()[0] != "$" for c in ALL)


@pytest.mark.parametrize("command", ALL, ids=lambda c: f"{c.where} {c.text.splitlines()[0][:60]}")
def test_doc_transcript(
    command: Command,
    sessions: dict[Path, Session],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # the docs show "2 workers"
    session = session_for(command.path, sessions, tmp_path_factory.getbasetemp() / "docs")
    monkeypatch.chdir(session.cwd)
    serve_without_blocking(monkeypatch)

    if _in_ggp_match(command):
        return  # see SPECIAL["RULES="]: the moves depend on the machine's speed
    reason = special(command)
    if command.text.startswith(".venv/bin/python benchmarks/"):
        script = REPO / command.text.split()[1]
        done = subprocess.run(
            [sys.executable, str(script), "--help"], capture_output=True, text=True, check=False,
            env={**os.environ, "PYTHONPATH": str(REPO / "src")}, timeout=120,
        )
        assert done.returncode == 0 and "--designs" in done.stdout, (reason, done.stderr)
        return
    if command.text.startswith("curl -s localhost:8000/api/analyze"):
        answer = json.loads(run_command(command, session, monkeypatch)[0])["search"]
        assert (answer["value"], answer["exact"], answer["action"]) == (1.0, True, "3:2"), reason
        assert answer["pv"] == ["3:2", "1:1", "2:1", "2:1", "3:1", "2:1", "3:1"]
        values = {m["move"]: m["value"] for m in answer["move_values"]}
        assert (values["1:1"], values["3:2"]) == (-1.0, 1.0)
        return
    if "--ray" in command.text and "without Ray" not in command.text:
        needs("ray", "plies[ray]")
    if any("solver (numba)" in line for line in command.expected):
        needs("numba", "plies[fast]")  # and without it the 4453 solve takes 10 minutes

    if "# without Ray installed" in command.text:
        monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail

    actual = run_command(command, session, monkeypatch)
    expected = command.expected
    want, got = normalise(expected), normalise(actual)
    varies = VARIES.get(command.text)
    if varies is not None and command.path.name == "parallel-search.md":
        want = [varies.sub("<varies>", line) if n else line for n, line in enumerate(want)]
        got = [varies.sub("<varies>", line) if n else line for n, line in enumerate(got)]
    if matches(want, got):
        return
    if UPDATE and reason is None and rewrite(command, actual):
        return
    diff = "\n".join(
        difflib.unified_diff(
            want, got, f"{command.where} (as documented)", "real output", lineterm=""
        )
    )
    pytest.fail(f"{command.where}: `{command.text}` prints something else:\n{diff}", False)


_shift: dict[Path, int] = {}


def rewrite(command: Command, actual: list[str]) -> bool:
    """Put ``actual`` in place of the documented output (PLIES_UPDATE_DOCS=1).

    An excerpt that ends (or starts) with ``...`` keeps its length; one with ``...`` in
    the middle cannot be redone automatically: False.
    """
    dots = [n for n, line in enumerate(command.expected) if line.strip() == "..."]
    if dots == [len(command.expected) - 1]:
        actual = [*actual[: len(command.expected) - 1], "..."]
    elif dots == [0]:
        actual = ["...", *actual[len(actual) - len(command.expected) + 1 :]]
    elif dots:
        return False
    lines = command.path.read_text(encoding="utf-8").splitlines()
    end = command.end + _shift.get(command.path, 0)
    start = end - len(command.expected)
    pad = " " * command.indent
    lines[start:end] = [(pad + line).rstrip() for line in actual]
    command.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _shift[command.path] = _shift.get(command.path, 0) + len(actual) - len(command.expected)
    return True


# --- every runnable example is run ----------------------------------------------------------

RUNNABLE = {"python", "py", "pycon", "bash", "sh", "shell", "console"}


def unrun_blocks(path: Path) -> list[str]:
    """``page:line`` of each fenced block of ``path`` in a runnable language that nothing runs.

    A block runs when it is a transcript (first line ``$ ``), a doctest (a ``>>>`` line), or a
    ``python`` script that :func:`transcripts` runs (followed by its output block, or by a
    transcript running ``.venv/bin/python SCRIPT.py``).  Anything else that is not meant to
    run (output, install lines, long benchmark commands) is fenced as ``text``.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    scripts = {
        c.script for c in transcripts(path)
        if c.script is not None and c.text.startswith(".venv/bin/python ")
    }
    unrun: list[str] = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```"):
            i += 1
            continue
        language = fence.lstrip("`").strip().split(" ")[0].strip("{}")
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        body = lines[i + 1 : j]
        first = next((line.strip() for line in body if line.strip()), "")
        runnable = language in RUNNABLE or (not language and first.startswith("$ "))
        if runnable and not (
            first.startswith("$ ")
            or any(line.strip().startswith(">>>") for line in body)
            or "\n".join(body) + "\n" in scripts
        ):
            unrun.append(f"{path.relative_to(REPO)}:{i + 1}")
        i = j + 1
    return unrun


def test_every_example_runs() -> None:
    """Every python/shell block of every page is run by this file or as a doctest."""
    unrun = [where for path in DOCS for where in unrun_blocks(path)]
    assert not unrun, "examples nobody runs (make them a transcript or a doctest, or fence " \
        f"them as text): {unrun}"
