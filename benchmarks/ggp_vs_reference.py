#!/usr/bin/env python3
"""plies against a reference GGP player, judged by a real game manager.

    PYTHONPATH=src python benchmarks/ggp_vs_reference.py [--plan first|final|quick]
        [--games ticTacToe,chess] [--clocks 10/2,10/5] [--roles first|all]
        [--judge ggp-base|plies] [--opponent montecarlo|sancho] [--out FILE.json]
        [--budget SECONDS]
    python benchmarks/ggp_vs_reference.py --report FILE.json

Every match runs with fresh processes, one match at a time, all on 127.0.0.1:

* plies: ``python -m plies ggp serve --port P --seed S`` from this tree's ``src``, its log
  kept (the reasoner it chose for the game is read from it);
* the opponent in every other role (``--opponent``, see ``OPPONENTS``): ggp-base's
  ``SampleMonteCarloGamer`` (the reference toolkit's sample Monte Carlo player: flat random
  playouts, stops one second before the play clock), started with ``RefPlayer``
  (``benchmarks/ggp_reference/RefPlayer.java``: ggp-base's ``GamePlayer`` on a fixed port),
  or Sancho (the 2014 International GGP Competition winner, built from its public source
  into ``$SANCHO``, default /work/tools/sancho: ``classpath.txt`` there), started with
  ``RefPlayer`` in the match's working directory (``benchmarks/ggp_vs_sancho.py``);
* the judge: ggp-base's own ``GameServer`` (``RefMatch.java``: its ``ProverStateMachine``
  applies the rules; a reply after the play clock plus one second, an illegal or
  unreadable one, or a failed connection is logged and replaced by a random legal move),
  or ``plies ggp match`` (``--judge plies``: a reply after the play clock itself is late).

ggp-base is built once by ``benchmarks/ggp_reference/build.sh`` into /work/tools/ggp-base
(or ``$GGP_BASE``); games come from the GGP game repository's mirror
(``$GGP_REPOSITORY``, a bare git repository).  Results: one JSON record per match, appended
to ``--out`` as the run goes (a run cut short keeps what it played); ``--report`` turns
them into the Markdown table of benchmarks/results/ggp_vs_reference.md and docs/ggp.md.

Not part of the test suite: it needs Java and takes real minutes per match.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GGP_BASE = Path(os.environ.get("GGP_BASE", "/work/tools/ggp-base"))
REPOSITORY = Path(
    os.environ.get("GGP_REPOSITORY", "/work/.mirror/ggp-org+ggp-repository/repo")
)
MONTE_CARLO = "org.ggp.base.player.gamer.statemachine.sample.SampleMonteCarloGamer"


@dataclass(frozen=True)
class GameSpec:
    name: str
    path: str  # inside the repository
    roles: int
    note: str = ""


GAMES = {
    g.name: g
    for g in [
        GameSpec("ticTacToe", "war/root/games/ticTacToe/ticTacToe.kif", 2),
        GameSpec("connectFour", "war/root/games/connectFour/connectFour.kif", 2),
        GameSpec("breakthrough", "war/root/games/breakthrough/breakthrough.kif", 2),
        GameSpec("nim1", "war/root/games/nim1/nim1.kif", 2),
        GameSpec("roshambo2", "war/root/games/roshambo2/roshambo2.kif", 2, "simultaneous"),
        GameSpec("blocker", "war/root/games/blocker/blocker.kif", 2, "simultaneous"),
        GameSpec("3pConnectFour", "war/root/games/3pConnectFour/3pConnectFour.kif", 3),
        GameSpec("checkers", "war/root/games/checkers/checkers.kif", 2),
        GameSpec("chess", "war/root/games/chess/chess.kif", 2,
                 "no goal at the 200-step limit: ggp-base's server ends without goals"),
        GameSpec("chess_200", "war/root/games/chess_200/chess_200.kif", 2),
        GameSpec("amazons", "war/root/games/amazons/amazons.kif", 2),
        GameSpec("hexPie", "war/root/games/hexPie/hex.kif", 2),
        GameSpec("futoshiki4", "war/root/games/futoshiki4/futoshiki.kif", 1, "puzzle"),
        GameSpec("pentago", "war/root/games/pentago/pentago.kif", 2,
                 "ill-defined: both roles can complete a line at once, and then a role has "
                 "two goal values (ggp-base's server stops without goals)"),
        GameSpec("knightThrough", "war/root/games/knightThrough/knightThrough.kif", 2),
        GameSpec("connectFourSimultaneous",
                 "war/root/games/connectFourSimultaneous/connectFourSimultaneous.kif", 2,
                 "simultaneous"),
    ]
}

# (game, clocks, roles) in the order they are played; "first" plays plies as the first
# role only, "all" in every role, "rest" in every role but the first.  The final plan took
# 23 minutes of a shared machine.
PLANS: dict[str, list[tuple[str, str, str]]] = {
    "quick": [("ticTacToe", "10/2", "first"), ("nim1", "10/2", "first")],
    "first": [
        ("ticTacToe", "10/2", "first"), ("nim1", "10/2", "first"),
        ("roshambo2", "10/2", "first"), ("connectFour", "10/2", "first"),
        ("checkers", "10/2", "first"), ("chess", "10/2", "first"),
        ("hexPie", "10/2", "first"), ("amazons", "10/2", "first"),
        ("breakthrough", "10/2", "first"), ("3pConnectFour", "10/2", "first"),
        ("blocker", "10/2", "first"), ("futoshiki4", "10/2", "first"),
        ("ticTacToe", "10/5", "first"), ("nim1", "10/5", "first"),
    ],
    "final": [
        ("ticTacToe", "10/2", "all"), ("nim1", "10/2", "all"),
        ("roshambo2", "10/2", "all"), ("chess_200", "10/2", "first"),
        ("amazons", "10/2", "first"), ("hexPie", "10/2", "first"),
        ("futoshiki4", "10/2", "first"), ("checkers", "10/2", "first"),
        ("connectFour", "10/2", "all"), ("breakthrough", "10/2", "first"),
        ("3pConnectFour", "10/2", "first"), ("blocker", "10/2", "first"),
        ("ticTacToe", "10/5", "first"), ("nim1", "10/5", "first"),
        ("roshambo2", "10/5", "first"), ("connectFour", "10/5", "first"),
    ],
    "final-extra": [  # after "final", with the time left: the other roles, longer clocks
        ("3pConnectFour", "10/2", "rest"), ("blocker", "10/2", "rest"),
        ("breakthrough", "10/2", "rest"), ("hexPie", "10/2", "rest"),
        ("checkers", "10/2", "rest"), ("breakthrough", "10/5", "first"),
        ("checkers", "10/5", "first"),
    ],
    "final-plies-judge": [
        ("ticTacToe", "10/2", "first"), ("connectFour", "10/2", "first"),
        ("roshambo2", "10/2", "first"),
    ],
}


def classpath() -> str:
    path = GGP_BASE / "classpath.txt"
    if not path.exists():
        raise SystemExit(f"no ggp-base build at {GGP_BASE}: run benchmarks/ggp_reference/build.sh")
    return path.read_text().strip()


SANCHO = Path(os.environ.get("SANCHO", "/work/tools/sancho"))
# Sancho reads data/cfg/$HOSTNAME.properties from its working directory.  Its competition
# defaults, except: no learning carried from one match to the next (each match starts from
# nothing, as plies does), no thread pinning, and plies' own 1 s margin instead of 2.5 s
# (which would leave nothing of a 2 s play clock).  One CPU-intensive thread is its own
# default on a 2-CPU machine; it is written down so that the setting does not change with
# the machine.  Its tlk.io chat client cannot be switched off (the setting is compared by
# identity): the JVM's proxy settings send it to a closed port on loopback, it logs that the
# login failed and drops its messages.
SANCHO_CONFIG = {
    "DISABLE_LEARNING": "true",
    "USE_AFFINITY": "false",
    "CPU_INTENSIVE_THREADS": "1",
    "SAFETY_MARGIN": "1000",
}
SANCHO_HOST = "plies-bench"


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    cwd: Path | None = None
    env: dict[str, str] | None = None


def monte_carlo(port: int, work: Path, role: int) -> Launch:
    return Launch(["java", "-cp", classpath(), "RefPlayer", str(port), MONTE_CARLO])


def sancho(port: int, work: Path, role: int) -> Launch:
    """Sancho's gamer in a fresh working directory under the match's, where its
    configuration is written and its logs go (``logs/<match>.txt``)."""
    path = SANCHO / "classpath.txt"
    if not path.exists():
        raise SystemExit(f"no Sancho build at {SANCHO} (set $SANCHO to the directory of its "
                         "classes and classpath.txt)")
    home = work / f"sancho{role}"
    (home / "data" / "cfg").mkdir(parents=True, exist_ok=True)
    (home / "data" / "games").mkdir(exist_ok=True)  # its learning directory: must exist
    (home / "logs").mkdir(exist_ok=True)
    (home / "data" / "cfg" / f"{SANCHO_HOST}.properties").write_text(
        "".join(f"{k}={v}\n" for k, v in SANCHO_CONFIG.items()))
    argv = ["java", "-Xmx3g", "-XX:+UseG1GC",
            # anything it would send off the machine goes to a closed port on loopback
            "-Dhttp.proxyHost=127.0.0.1", "-Dhttp.proxyPort=9",
            "-Dhttps.proxyHost=127.0.0.1", "-Dhttps.proxyPort=9",
            # RefPlayer (compiled against ggp-base: Sancho's fork has the same GamePlayer)
            # because PlayerRunner's classpath scan finds no gamer on Java 17
            "-cp", f"{path.read_text().strip()}:{GGP_BASE / 'driver'}", "RefPlayer", str(port),
            "org.ggp.base.player.gamer.statemachine.sancho.Sancho"]
    return Launch(argv, home, {**os.environ, "HOSTNAME": SANCHO_HOST})


OPPONENTS = {"montecarlo": monte_carlo, "sancho": sancho}


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


PLIES_PROFILE = re.compile(
    r"playing \S+ on (\S+); (\d+) playouts, (\d+) states/s, length ([0-9.]+)")


PLIES_MOVE = re.compile(r" by (\w+) on \S+, (?:[^,]*?, )?(\d+) (?:iterations|playouts)\b")
PLIES_STRATEGY = re.compile(r"step \d+: .*? by (\w+) on ")


def plies_speed(log: str) -> dict[str, Any]:
    """What plies' metagaming measured (its log's ``playing ROLE on KIND; N playouts,
    S states/s, length L``): random-playout states per second on the reasoner it chose
    (its scalar probe, not the compiled tree's rate) and the playouts per second they
    make (states over mean length); and from its moves (``step K: MOVE by mcts on KIND,
    N iterations`` or ``by mixed ..., N playouts``) the median of N over the moves it
    searched that way (``iterations_per_move``) and the strategies its moves name (but
    ``forced``)."""
    found = PLIES_PROFILE.findall(log)
    if not found:
        return {}
    kind, playouts, states, length = found[-1]
    rate = float(states)
    moves = PLIES_MOVE.findall(log)
    return {"reasoner": kind, "playouts": int(playouts), "states_per_s": rate,
            "playouts_per_s": rate / float(length) if float(length) else None,
            "iterations_per_move": median([float(n) for _, n in moves]) if moves else None,
            "strategies": sorted(set(PLIES_STRATEGY.findall(log)) - {"forced"})}


def sancho_speed(home: Path) -> dict[str, Any]:
    """What Sancho's match log (``logs/<match>.txt`` in its working directory) says: how
    long its propnet took to build (None: not built before the match ended), the lowest
    and highest goal its metagaming's random games gave it (equal: no discrimination, and
    its search then sees every playout score the same), how many heuristic sample games
    it played and whether it searched blind (``blind``: its unvalidated emulated goals
    calculator replaced the game's goals, see ``results/ggp_vs_sancho.md``), the random
    simulations (playouts) per second it measured while metagaming, the mean game length
    of its sample games (so states per second = simulations x length), and the median
    MCTS iterations of the turns where it searched."""
    texts = [p.read_text(errors="replace") for p in sorted((home / "logs").glob("*.txt"))
             if not p.name.startswith("$")]
    log = "\n".join(texts)
    if not log:
        return {}
    built = re.search(r"^(\S+ \S+) .*Building propnet$.*?^(\S+ \S+) .*Num components: ",
                      log, re.M | re.S)
    out: dict[str, Any] = {
        "reasoner": "propnet" if built else "none",
        "build_s": (sancho_time(built[2]) - sancho_time(built[1])) if built else None}
    if sims := re.findall(r"(\d+) simulations/second performed", log):
        out["playouts_per_s"] = float(sims[-1])
        if turns := re.findall(r"Average num turns:\s+([0-9.]+)", log):
            out["states_per_s"] = float(sims[-1]) * float(turns[-1])
    if goals := re.findall(r"Min raw score = (-?\d+), max = (-?\d+)", log):
        out["goal_range"] = [int(goals[-1][0]), int(goals[-1][1])]
    if samples := re.findall(r"Performed (\d+) simulations to calculate heuristics", log):
        out["heuristic_samples"] = int(samples[-1])
    # With too few heuristic samples an unpatched Sancho installs its emulated goals
    # calculator unchecked (a fixed-sum total of -1): every playout then scores the same.
    out["blind"] = bool(re.search(r"Terminal goals are fixed sum with total value: -1", log)
                        and "Not using any emulated goals calculator" not in log)
    iterations = [int(n) for n in re.findall(r"MCTS iterations last turn = (\d+)", log)]
    out["iterations_per_turn"] = median([n for n in iterations if n > 0])
    return out


def sancho_time(stamp: str) -> float:
    """Seconds since midnight of a Sancho log time stamp (``2026-11-28 13:34:04,921``)."""
    hours, minutes, seconds = stamp.split(" ")[1].replace(",", ".").split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def opponent_speed(opponent: str, work: Path, role: int) -> dict[str, Any]:
    return sancho_speed(work / f"sancho{role}") if opponent == "sancho" else {}


def game_text(spec: GameSpec) -> str:
    return subprocess.run(
        ["git", "-C", str(REPOSITORY), "show", f"HEAD:{spec.path}"],
        check=True, capture_output=True, text=True,
    ).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def info(port: int, timeout: float = 2.0) -> str | None:
    """The body of an INFO reply, or None if nothing answers."""
    body = b"(info)"
    head = (
        f"POST / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nSender: GAMESERVER\r\n"
        f"Receiver: p\r\nContent-Type: text/acl\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(head + body)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    return data.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


@contextmanager
def process(argv: Sequence[str], log: Path, port: int, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A player process listening on ``port``; terminated (then killed) afterwards."""
    with log.open("wb") as out:
        proc = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=cwd)
        try:
            deadline = time.monotonic() + 60
            while info(port, 1.0) is None:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{argv[:4]} did not start: {log.read_text()[-500:]}")
                time.sleep(0.2)
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


KINDS = ("propnet", "topdown", "prover")


def reasoner_of(log: str) -> str:
    """The reasoner(s) the plies player used, in the order its log names them (e.g.
    ``topdown>propnet`` when it played from the top-down prover until the propnet was
    built)."""
    seen: list[str] = []
    kinds = "|".join(KINDS)
    patterns = [rf"\bon ({kinds})\b", rf"switched from ({kinds}) to ({kinds})",
                rf"\b(?:reasoner|kind)\W+({kinds})\b"]
    for line in log.splitlines():
        hits = sorted((m.start(g), m.group(g)) for p in patterns
                      for m in re.finditer(p, line) for g in range(1, (m.lastindex or 0) + 1))
        for _, kind in hits:
            if kind not in seen:
                seen.append(kind)
    if seen:
        return ">".join(seen)
    if "cannot be played" in log or "refused" in log:
        return "none"
    if re.search(r"match \S+: playing ", log):
        return "propnet"  # before issue 14 the compiled propnet was the only reasoner
    return "?"


STEP_TIME = re.compile(r"^match \S+ step \d+: .*?\((\d+\.\d+)s\)", re.M)


def max_reply(log: str) -> float | None:
    """The longest PLAY reply time plies logged (its own clock: from the request's
    arrival to the reply), or None if it logged none."""
    times = [float(t) for t in STEP_TIME.findall(log)]
    return max(times) if times else None


def result_of(goals: Sequence[int], role: int) -> str:
    if not goals:
        return "unfinished"
    if len(goals) == 1:
        return f"goal {goals[0]}"
    mine, best_other = goals[role], max(g for i, g in enumerate(goals) if i != role)
    return "win" if mine > best_other else "draw" if mine == best_other else "loss"


def play_one(spec: GameSpec, kif: Path, start: int, play: int, role: int, judge: str,
             seed: int, work: Path, plies_src: Path, opponent: str = "montecarlo"
             ) -> dict[str, Any]:
    cp = classpath()
    ports = [free_port() for _ in range(spec.roles)]
    env = {**os.environ, "PYTHONPATH": str(plies_src), "COLUMNS": "200"}
    plies_log = work / "plies.log"
    players: list[Any] = []
    load = uptime()
    t0 = time.monotonic()
    with contextmanager_stack() as stack:
        for r in range(spec.roles):
            if r == role:
                argv = [sys.executable, "-m", "plies", "ggp", "serve", "--port",
                        str(ports[r]), "--seed", str(seed)]
                players.append(stack.enter(process(argv, plies_log, ports[r], env)))
            else:
                launch = OPPONENTS[opponent](ports[r], work, r)
                players.append(stack.enter(process(launch.argv, work / f"opponent{r}.log",
                                                   ports[r], launch.env, launch.cwd)))
        out = work / "match.json"
        with suppress(FileNotFoundError):
            out.unlink()
        cap = start + 400 * (play + 1) + 60
        if judge == "ggp-base":
            argv = ["java", "-cp", cp, "RefMatch", str(kif), str(start), str(play), str(out),
                    *[f"127.0.0.1:{p}" for p in ports]]
        else:
            argv = [sys.executable, "-m", "plies", "ggp", "match", str(kif), "--start",
                    str(start), "--play", str(play), "--json", str(out), "--seed", str(seed),
                    *[a for p in ports for a in ("--player", f"http://127.0.0.1:{p}/")]]
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=cap)
        (work / "judge.log").write_text(done.stdout + done.stderr)
    elapsed = time.monotonic() - t0
    record: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    roles = record.get("roles", [])
    goals = record.get("goals") or []
    events = normalise_events(record, judge)
    mine = [e for e in events if e["role_index"] == role]
    log = plies_log.read_text(errors="replace")
    return {
        "game": spec.name, "note": spec.note, "judge": judge, "opponent": opponent,
        "start": start, "play": play,
        "plies_role": roles[role] if roles else str(role), "plies_role_index": role,
        "roles": roles, "goals": goals, "result": result_of(goals, role),
        "steps": record.get("steps"), "plies_faults": len(mine),
        "plies_fault_kinds": sorted({e["kind"] for e in mine}),
        "opponent_faults": len(events) - len(mine), "events": events,
        "reasoner": reasoner_of(log), "plies_max_reply": max_reply(log),
        "plies_speed": plies_speed(log),
        "opponent_speed": [opponent_speed(opponent, work, r) for r in range(spec.roles)
                           if r != role],
        "seconds": round(elapsed, 1), "uptime": load,
        "judge_exit": done.returncode, "plies_log_tail": log[-3000:],
        "plies_log_head": log[:3000],
    }


def normalise_events(record: dict[str, Any], judge: str) -> list[dict[str, Any]]:
    roles = record.get("roles", [])
    out = []
    if judge == "ggp-base":
        for e in record.get("events", []):
            out.append({**e, "role_index": roles.index(e["role"]) if e["role"] in roles else -1})
    else:
        for f in record.get("faults", []):
            out.append({"phase": f["phase"], "step": f["step"], "role": f["role"],
                        "kind": f["kind"], "detail": f.get("detail", ""),
                        "role_index": roles.index(f["role"]) if f["role"] in roles else -1})
    return out


class contextmanager_stack:
    def __enter__(self) -> contextmanager_stack:
        from contextlib import ExitStack

        self._stack = ExitStack().__enter__()
        return self

    def enter(self, cm: Any) -> Any:
        return self._stack.enter_context(cm)

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)


def matches_of(plan: list[tuple[str, str, str]]) -> Iterator[tuple[GameSpec, int, int, int]]:
    for name, clocks, roles in plan:
        spec = GAMES[name]
        start, play = (int(x) for x in clocks.split("/"))
        chosen = {"all": range(spec.roles), "first": range(1), "rest": range(1, spec.roles)}
        for role in chosen[roles]:
            yield spec, start, play, role


def run(args: argparse.Namespace, plans: dict[str, list[tuple[str, str, str]]] = PLANS) -> None:
    if args.games:
        plan = [(g, c, args.roles) for g in args.games.split(",") for c in args.clocks.split(",")]
    else:
        plan = plans[args.plan]
    out = Path(args.out)
    results: list[dict[str, Any]] = json.loads(out.read_text()) if out.exists() else []
    commit = subprocess.run(["git", "-C", args.plies_src, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    deadline = time.monotonic() + args.budget if args.budget else None
    for i, (spec, start, play, role) in enumerate(matches_of(plan)):
        if deadline is not None and time.monotonic() > deadline:
            print(f"budget spent: skipping {spec.name} {start}/{play} role {role}", flush=True)
            continue
        with tempfile.TemporaryDirectory(prefix="ggpref") as tmp:
            work = Path(tmp)
            kif = work / f"{spec.name}.kif"
            kif.write_text(game_text(spec))
            print(f"{time.strftime('%H:%M:%S')} {spec.name} {start}/{play} plies as role "
                  f"{role} against {args.opponent} ({args.judge} judge) ...", flush=True)
            try:
                row = play_one(spec, kif, start, play, role, args.judge, args.seed + i, work,
                               Path(args.plies_src).resolve(), args.opponent)
            except (RuntimeError, subprocess.TimeoutExpired) as err:
                row = {"game": spec.name, "judge": args.judge, "start": start, "play": play,
                       "plies_role_index": role, "result": "error", "error": str(err)[-500:]}
            if args.keep_logs:
                dest = Path(args.keep_logs) / f"{spec.name}_{start}_{play}_{role}"
                shutil.copytree(work, dest, dirs_exist_ok=True)
        row["commit"] = commit
        results.append(row)
        out.write_text(json.dumps(results, indent=1) + "\n")
        print(f"   -> {row.get('result')} goals {row.get('goals')} plies faults "
              f"{row.get('plies_faults')} {row.get('plies_fault_kinds', '')} opponent faults "
              f"{row.get('opponent_faults')} reasoner {row.get('reasoner')} "
              f"{row.get('seconds')}s", flush=True)


def report(rows: list[dict[str, Any]]) -> str:
    """The Markdown table: one line per game, clocks and judge, over plies' roles."""
    groups: dict[tuple[str, int, int, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["game"], row["start"], row["play"], row.get("judge", "")),
                          []).append(row)
    lines = [
        "| game | clocks | judge | plies as | W | D | L | plies' goals | plies: late / illegal"
        " / error status / failed | opponent: same | plies' max reply (s) | reasoner | steps"
        " | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (game, start, play, judge), group in groups.items():
        w = sum(r["result"] == "win" for r in group)
        d = sum(r["result"] == "draw" for r in group)
        lo = sum(r["result"] == "loss" for r in group)
        goals = ", ".join(
            str(r["goals"][r["plies_role_index"]]) if r.get("goals") else
            str(r.get("result", "?")) for r in group
        )
        mine = [0, 0, 0, 0]
        theirs = [0, 0, 0, 0]
        for r in group:
            for e in r.get("events", []):
                side = mine if e.get("role_index") == r.get("plies_role_index") else theirs
                side[kind_of(e)] += 1
        roles = ", ".join(str(r.get("plies_role", r.get("plies_role_index"))) for r in group)
        reasoners = ", ".join(dict.fromkeys(
            reasoner_of(r.get("plies_log_head", "") + "\n" + r.get("plies_log_tail", ""))
            for r in group))
        steps = ", ".join(str(r.get("steps")) for r in group)
        loads = ", ".join(load_of(r.get("uptime", "")) for r in group)
        replies = [r.get("plies_max_reply") for r in group]
        known = [t for t in replies if t is not None]
        longest = "?" if len(known) < len(replies) or not known else f"{max(known):.2f}"
        lines.append(
            f"| {game} | {start}/{play} | {judge} | {roles} | {w} | {d} | {lo} | {goals} | "
            f"{' / '.join(map(str, mine))} | {' / '.join(map(str, theirs))} | {longest} | "
            f"{reasoners} | "
            f"{steps} | {loads} |"
        )
    return "\n".join(lines) + "\n"


def kind_of(event: dict[str, Any]) -> int:
    """0 late, 1 illegal (or unreadable), 2 an error status (HTTP 400/503: ggp-base reads
    the body, ``error: ...``, as an illegal move), 3 failed connection (or no ready/done)."""
    kind = event["kind"]
    if kind in ("timeout", "late"):
        return 0
    if kind == "http" or (kind == "illegal" and str(event.get("move", "")).startswith("error")):
        return 2
    if kind in ("illegal", "unreadable"):
        return 1
    return 3


def load_of(text: str) -> str:
    found = re.search(r"load average: ([0-9.]+)", text)
    return found.group(1) if found else "?"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", choices=sorted(PLANS), default="quick")
    parser.add_argument("--games", help="comma-separated games (overrides --plan)")
    parser.add_argument("--clocks", default="10/2", help="with --games: e.g. 10/2,10/5")
    parser.add_argument("--roles", choices=["first", "all"], default="first")
    parser.add_argument("--judge", choices=["ggp-base", "plies"], default="ggp-base")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="montecarlo",
                        help="who plays the other roles (sancho: see benchmarks/ggp_vs_sancho.py)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None,
                        help="stop starting new matches after this many seconds")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/ggp_vs_reference.json"))
    parser.add_argument("--plies-src", default=str(ROOT / "src"))
    parser.add_argument("--keep-logs", default=None, help="copy every match's logs here")
    parser.add_argument("--report", metavar="JSON", help="print the table of a results file")
    parser.add_argument(
        "--backfill-logs", metavar="DIR",
        help="with --out and --judge: set plies_max_reply of that judge's rows from the "
        "logs kept with --keep-logs DIR",
    )
    args = parser.parse_args(argv)
    # A background run ignores SIGINT: let SIGTERM end it through the finally blocks
    # that stop its player processes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.report:
        print(report(json.loads(Path(args.report).read_text())), end="")
        return
    if args.backfill_logs:
        out = Path(args.out)
        rows = json.loads(out.read_text())
        for row in rows:
            log = (Path(args.backfill_logs) / f"{row['game']}_{row['start']}_{row['play']}_"
                   f"{row['plies_role_index']}" / "plies.log")
            if row.get("judge") == args.judge and log.exists():
                row["plies_max_reply"] = max_reply(log.read_text(errors="replace"))
        out.write_text(json.dumps(rows, indent=1) + "\n")
        return
    run(args)


if __name__ == "__main__":
    main()
