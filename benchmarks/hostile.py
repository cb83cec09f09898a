"""The hostile corpus against one source tree: what broke, surface by surface.

Runs the cases of ``tests/hostile/corpus.py`` (more of them than the tests do), plus the
worst inputs named in issue 22, against the plies in ``--src`` (run as
``PYTHONPATH=SRC python -m plies``), every process in its own process group under a
timeout and an address-space cap (as ``prlimit --as``), and classifies each case:

- **ok**: exit 0 or 2 (130 after a Ctrl-C), at most one line on stderr, no traceback;
  a server's answer below 500 with a 4xx body of at most 4 KiB, and it keeps serving;
- **python start-up**: a traceback of a Ctrl-C that landed in Python's own start-up
  (runpy and importlib finding plies, before its first line installs a quiet handler);
- **traceback**, **hang** (killed at its timeout; after a Ctrl-C, still running
  ``--settle`` seconds later; a server that stops answering), **wrong exit**, **long
  message** (several lines, or a line over 500 characters, or a 4xx body over 4 KiB),
  **5xx**, **memory** (a ``MemoryError`` or killed under the cap).

Prints a Markdown table (surface | cases | python start-up | traceback | hang | wrong exit
| long message | 5xx | memory), the worst case of each surface by peak RSS and by wall
time, and every failed case with its verdict.

    /work/main/.venv/bin/python benchmarks/hostile.py --src /work/wt/base/src
    /work/main/.venv/bin/python benchmarks/hostile.py --src src --quick

Surfaces: ``cli`` (every command: odd files, absurd numbers, broken specs, the issue's
named inputs, seeded mutants of valid commands), ``ctrl-c`` (SIGINT to the process group
at offsets into long commands), ``gdl`` (named texts and seeded mutants of the test games,
loaded by ``plies solve``), ``web`` (requests to ``plies web`` with one worker), ``ggp``
(messages to ``plies ggp serve``, and a re-sent PLAY), ``uci`` (garbage lines to
``plies uci``, ``isready`` after every 25).  Not part of ``make bench``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile import corpus  # noqa: E402
from tests.hostile.corpus import Case, Request, Run, Tally  # noqa: E402
from tests.procs import family_rss  # noqa: E402

COLUMNS = ("python start-up", "traceback", "hang", "wrong exit", "long message", "5xx", "memory")


def environment(src: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(src)
    env["COLUMNS"] = "100"
    return env


class Bench:
    def __init__(self, args: argparse.Namespace, files: dict[str, str], workdir: Path) -> None:
        self.args = args
        self.files = files
        self.cwd = str(workdir)
        self.env = environment(args.src)
        self.tallies: dict[str, Tally] = {}

    def tally(self, surface: str) -> Tally:
        return self.tallies.setdefault(surface, Tally())

    # --- processes ---------------------------------------------------------------------

    def run_cases(self, cases: list[Case]) -> None:
        def one(case: Case) -> tuple[Case, Run]:
            return case, corpus.run_case(case, self.files, python=self.args.python,
                                         env=self.env, cwd=self.cwd, memory=self.args.memory)

        with ThreadPoolExecutor(self.args.jobs) as pool:
            for case, run in pool.map(one, cases):
                outcome = corpus.verdict(case, run)
                seconds = run.stopped if run.stopped is not None else run.seconds
                self.tally(case.surface).add(f"{case.name}: `{case.command()}`",
                                             outcome, peak_kb=run.peak_kb, seconds=seconds)
                if outcome != "ok":
                    self.tally(case.surface).failed[-1] += (
                        f" (exit {run.code}, {run.seconds:.1f} s, "
                        f"{_last_line(run.err)!r})")
                print(f"{case.surface:7} {outcome:12} {run.seconds:6.1f} s "
                      f"{run.peak_kb // 1024:6} MB  {case.name}", file=sys.stderr)

    # --- servers -----------------------------------------------------------------------

    def serve(self, argv: list[str]) -> tuple[subprocess.Popen[bytes], int]:
        port = corpus.free_port()
        proc = subprocess.Popen(
            [self.args.python, "-m", "plies", *argv, "--port", str(port)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=self.env, cwd=self.cwd, start_new_session=True,
            preexec_fn=lambda: corpus.limit_memory(self.args.memory))
        corpus.wait_listening(port, proc)
        return proc, port

    def server_cases(self, surface: str, argv: list[str],
                     cases: list[tuple[str, Callable[[int], str]]],
                     alive: Callable[[int], bool]) -> None:
        """Each case sends its message(s) and returns a verdict; after it the server must
        still answer (``alive``), else the case is a hang and the server is restarted."""
        tally = self.tally(surface)
        proc, port = self.serve(argv)
        try:
            for name, case in cases:
                start = time.monotonic()
                try:
                    outcome = case(port)
                except OSError as err:
                    outcome = "hang"
                    name += f" ({type(err).__name__})"
                seconds = time.monotonic() - start
                if outcome == "ok" and not _answers(alive, port):
                    outcome = "hang"
                    name += " (the server stopped answering)"
                peak = family_rss(proc.pid) // 1024
                tally.add(name, outcome, peak_kb=peak, seconds=seconds)
                print(f"{surface:7} {outcome:12} {seconds:6.1f} s {peak // 1024:6} MB  {name}",
                      file=sys.stderr)
                if outcome == "hang" or proc.poll() is not None:
                    corpus._signal_group(proc.pid, 9)
                    proc.wait()
                    proc, port = self.serve(argv)
        finally:
            corpus._signal_group(proc.pid, 9)
            proc.wait()

    def web(self, count: int) -> None:
        def case(request: Request) -> Callable[[int], str]:
            def send(port: int) -> str:
                status, body = corpus.http("127.0.0.1", port, request, timeout=90)
                if status >= 500:
                    return "5xx"
                if status >= 400 and len(body) > corpus.MAX_BODY:
                    return "long message"
                return "ok"
            return send

        cheap = Request("cheap", "POST", "/api/state", b'{"game": "tictactoe", "moves": ["5"]}')
        self.server_cases(
            "web", ["web", "--no-browser", "--workers", "1"],
            [(r.name, case(r)) for r in corpus.web_requests(count)],
            lambda port: corpus.http("127.0.0.1", port, cheap, timeout=60)[0] == 200)

    def ggp(self, count: int) -> None:
        def case(name: str, text: str) -> Callable[[int], str]:
            def send(port: int) -> str:
                status, body = corpus.ggp_post("127.0.0.1", port, text, timeout=60)
                if status >= 500:
                    return "5xx"
                if name.startswith("start-clock") and status < 400:
                    return "wrong exit"  # an absurd clock accepted
                if len(body) > corpus.MAX_BODY:
                    return "long message"
                return "ok"
            return send

        # the re-sent PLAY goes first: a valid START among the hostile messages leaves the
        # player rightly busy with that match until its clocks run out
        cases = [("resent-play-keeps-the-player-in-step", resent_play)]
        cases += [(name, case(name, text)) for name, text in corpus.ggp_messages(count)]
        self.server_cases(
            "ggp", ["ggp", "serve", "--quiet", "--seed", "1"], cases,
            lambda port: corpus.ggp_post("127.0.0.1", port, "(info)", timeout=60)[0] == 200)

    def uci(self, count: int) -> None:
        tally = self.tally("uci")
        proc = subprocess.Popen(
            [self.args.python, "-m", "plies", "uci"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, cwd=self.cwd,
            start_new_session=True, preexec_fn=lambda: corpus.limit_memory(self.args.memory))
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        import queue
        import threading

        lines: queue.Queue[bytes] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(b"")

        threading.Thread(target=read, daemon=True).start()
        batches = list(corpus.chunks(corpus.uci_lines(count), 25))
        for i, batch in enumerate(batches):
            start = time.monotonic()
            name = f"lines {i * 25}-{i * 25 + len(batch) - 1}"
            try:
                proc.stdin.write(b"".join(line + b"\n" for line in batch) + b"isready\n")
                proc.stdin.flush()
                outcome = "hang"
                while True:
                    line = lines.get(timeout=60)
                    if line.strip() == b"readyok":
                        outcome = "ok"
                        break
                    if not line:
                        break
            except (OSError, queue.Empty):
                outcome = "hang"
            tally.add(name, outcome, peak_kb=family_rss(proc.pid) // 1024,
                      seconds=time.monotonic() - start)
            if outcome != "ok":
                break
        try:
            proc.stdin.write(b"stop\nquit\n")
            proc.stdin.close()
        except OSError:
            pass
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            corpus._signal_group(proc.pid, 9)
            code = proc.wait()
        err = proc.stderr.read().decode("utf-8", "replace")
        outcome = ("traceback" if "Traceback" in err else "wrong exit" if code != 0 else
                   "long message" if len(err.strip().splitlines()) > 1 else "ok")
        tally.add("quit after the garbage", outcome)
        closed = Case("uci", "output-closed", ("uci",),
                      stdin=b"uci\nisready\ngo depth 2\nquit\n", timeout=60)
        self.run_closed_output(closed)

    def run_closed_output(self, case: Case) -> None:
        """``plies uci`` whose stdout reader went away (a closed pipe)."""
        read, write = os.pipe()
        os.close(read)
        start = time.monotonic()
        proc = subprocess.Popen([self.args.python, "-m", "plies", *case.argv],
                                stdin=subprocess.PIPE, stdout=write, stderr=subprocess.PIPE,
                                env=self.env, cwd=self.cwd)
        os.close(write)
        try:
            _, err = proc.communicate(case.stdin, timeout=case.timeout)
            run = Run(proc.returncode, err.decode("utf-8", "replace"), len(err),
                      time.monotonic() - start, 0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            run = Run(None, "", 0, time.monotonic() - start, 0)
        outcome = corpus.verdict(case, run)
        self.tally("uci").add(f"{case.name}: `plies uci` with stdout closed", outcome,
                              seconds=run.seconds)


def resent_play(port: int) -> str:
    """A manager re-sends the same PLAY twice: the same answer each time, and the player's
    next move is legal (a cell not yet marked)."""
    rules = corpus._rules("ticTacToe")
    mark = re.compile(r"\(mark (\d) (\d)\)")

    def send(text: str) -> tuple[int, str]:
        status, body = corpus.ggp_post("127.0.0.1", port, text, timeout=60)
        return status, body.strip()

    if send(f"(start resend xplayer {rules} 10 2)") != (200, "ready"):
        return "wrong exit"
    first = send("(play resend nil)")
    found = mark.fullmatch(first[1])
    if first[0] != 200 or not found or send("(play resend nil)") != first:
        return "wrong exit"
    taken = {found.groups()}
    second = send(f"(play resend ({first[1]} noop))")
    if second != (200, "noop") or send(f"(play resend ({first[1]} noop))") != second:
        send("(abort resend)")
        return "wrong exit"
    o = next((i, j) for i in "123" for j in "123" if (i, j) not in taken)
    taken.add(o)
    third = send(f"(play resend (noop (mark {o[0]} {o[1]})))")
    send("(abort resend)")
    found = mark.fullmatch(third[1])
    return "ok" if third[0] == 200 and found and found.groups() not in taken else "wrong exit"


def _answers(alive: Callable[[int], bool], port: int) -> bool:
    try:
        return alive(port)
    except OSError:
        return False


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:160] if lines else ""


# --- the report ----------------------------------------------------------------------------


def table(tallies: dict[str, Tally]) -> list[str]:
    out = ["| surface | cases | " + " | ".join(COLUMNS) + " | broke | worst peak RSS | "
           "worst wall time |",
           "|---|---:|" + "---:|" * len(COLUMNS) + "---:|---|---|"]
    total = Tally()
    for surface, t in tallies.items():
        broke = sum(t.broke.values())
        total.cases += t.cases
        for k, v in t.broke.items():
            total.broke[k] = total.broke.get(k, 0) + v
        out.append(f"| {surface} | {t.cases} | "
                   + " | ".join(str(t.broke.get(c, 0)) for c in COLUMNS)
                   + f" | {broke} | {t.peak_kb / 1024:,.0f} MB ({_short(t.peak_case)}) | "
                   f"{t.seconds:.1f} s ({_short(t.slow_case)}) |")
    out.append(f"| **all** | {total.cases} | "
               + " | ".join(str(total.broke.get(c, 0)) for c in COLUMNS)
               + f" | {sum(total.broke.values())} | | |")
    return out


def _short(name: str) -> str:
    name = name.split(" (exit")[0]
    return name if len(name) < 110 else name[:107] + "..."


def report(args: argparse.Namespace, tallies: dict[str, Tally], seconds: float) -> str:
    load = os.getloadavg()
    lines = [
        f"hostile corpus against `{args.src}` "
        f"({_commit(args.src)}), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, load after "
        f"{load[0]:.1f}, {seconds / 60:.1f} min; cap {args.memory / 1e9:g} GB a process, "
        f"Ctrl-C must end within {args.settle:g} s",
        "",
        f"command: `{' '.join(sys.argv)}`",
        "",
        *table(tallies),
        "",
        "For ctrl-c the wall time is from the Ctrl-C to the end.  Failed cases (`{name}` is "
        "a file `tests/hostile/corpus.py:make_files` writes; `--keep DIR` keeps them):",
        "",
    ]
    for surface, t in tallies.items():
        for failed in t.failed:
            lines.append(f"- {surface}: {failed}")
    return "\n".join(lines) + "\n"


def _commit(src: Path) -> str:
    try:
        done = subprocess.run(["git", "-C", str(src), "log", "-1", "--format=%h"],
                              capture_output=True, text=True, check=True)
        return "commit " + done.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "no git"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the src directory of the plies to test (default: this one)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter (its environment must have plies' extras)")
    parser.add_argument("--quick", action="store_true", help="fewer cases of each surface")
    parser.add_argument("--only", default="cli,ctrl-c,gdl,web,ggp,uci",
                        help="surfaces, comma-separated")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    parser.add_argument("--memory", type=int, default=4_000_000_000,
                        help="address-space cap of each process in bytes (default 4e9)")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds a command may take to stop after Ctrl-C (default 5)")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--keep", type=Path, help="write the odd files here and keep them")
    args = parser.parse_args()
    args.src = args.src.resolve()
    surfaces = args.only.split(",")
    quick = args.quick
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        files = corpus.make_files(workdir, big=True)
        bench = Bench(args, files, workdir)
        if "cli" in surfaces:
            big = Case("cli", "solve-15-mib-tree-under-time-3",
                       ("solve", "{big.tree}", "--time", "3"), timeout=240)
            bench.run_cases([*corpus.fixed_cli_cases(), big,
                             *corpus.mutated_cli_cases(3 if quick else 12)])
        if "ctrl-c" in surfaces:
            offsets = (0.05, 0.5, 1.5) if quick else (0.05, 0.2, 0.5, 1.0, 1.5)
            bench.run_cases(corpus.ctrl_c_cases(offsets, settle=args.settle))
        if "gdl" in surfaces:
            bench.run_cases(corpus.gdl_cases(30 if quick else corpus.GDL_MUTANTS))
        if "web" in surfaces:
            bench.web(40 if quick else 200)
        if "ggp" in surfaces:
            bench.ggp(40 if quick else 150)
        if "uci" in surfaces:
            bench.uci(300 if quick else 2000)
    text = report(args, bench.tallies, time.monotonic() - started)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
