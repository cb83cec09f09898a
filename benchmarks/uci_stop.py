"""How long ``plies uci`` takes from ``stop`` to ``bestmove`` (in-process, no pipe).

    PYTHONPATH=src python benchmarks/uci_stop.py

For three positions (the start, a quiet middlegame, Kiwipete) and six waits, it sends
``go infinite``, waits, sends ``stop`` and times the ``bestmove``.  The issue asks for
10 ms at most.
"""

from __future__ import annotations

import threading
import time

from plies.uci import UciEngine

POSITIONS = {
    "start": "startpos",
    "middlegame": "fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQ - 0 8",
    "kiwipete": "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}
WAITS = (0.1, 0.3, 0.7, 1.0, 1.5, 2.0)


def main() -> None:
    answered = threading.Event()
    lines: list[str] = []

    def send(line: str) -> None:
        lines.append(line)
        if line.startswith("bestmove"):
            answered.set()

    engine = UciEngine(send)
    worst = 0.0
    for name, position in POSITIONS.items():
        for wait in WAITS:
            answered.clear()
            engine.handle("position " + position)
            engine.handle("go infinite")
            time.sleep(wait)
            start = time.perf_counter()
            engine.handle("stop")
            answered.wait()
            ms = (time.perf_counter() - start) * 1000
            worst = max(worst, ms)
            depth = [line for line in lines if line.startswith("info depth")][-1].split()[2]
            print(f"{name:11} stop after {wait:.1f}s: bestmove in {ms:5.2f} ms (depth {depth})")
    print(f"worst: {worst:.2f} ms")


if __name__ == "__main__":
    main()
