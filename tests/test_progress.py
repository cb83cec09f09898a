"""A running search is shown while it runs: the library's Progress and the CLI's line."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import plies
from plies.cli import main, progress
from plies.games import load
from plies.search import Progress, ProgressReport
from tests.clirun import plain_pipe  # noqa: F401  (autouse: output as in a pipe)


def test_progress_reports_every_node_of_every_pass_of_a_deepening_search() -> None:
    seen: list[ProgressReport] = []
    game = load("tictactoe")
    result = plies.alphabeta(game, game.initial_state(), plies.Limit(depth=6), tt=True,
                             ordering=True, stop=Progress(seen.append, every=0))
    assert seen, "no report"
    assert [r.nodes for r in seen] == sorted(r.nodes for r in seen)  # never counts back
    assert seen[-1].nodes <= result.stats.nodes
    assert seen[-1].passes >= 2  # iterative deepening: several passes counted together
    assert all(r.elapsed >= 0 and r.nps >= 0 for r in seen)


def test_a_progress_without_a_stop_does_not_end_a_search_nor_make_mcts_endless() -> None:
    game = load("tictactoe")
    quiet = Progress(lambda r: None)
    assert not quiet.is_set() and not quiet.can_stop
    r = plies.mcts(game, game.initial_state(), stop=quiet, seed=1)
    assert r.action is not None and r.stats.nodes > 0


def test_progress_passes_a_stop_through() -> None:
    class Always:
        def is_set(self) -> bool:
            return True

    game = load("connect4")
    r = plies.alphabeta(game, game.initial_state(), plies.Limit(depth=12),
                        stop=Progress(lambda r: None, stop=Always()))
    assert r.stopped


def test_the_terminal_line_names_nodes_rate_time_and_depth() -> None:
    report = ProgressReport(nodes=1_234_567, elapsed=10.26, nps=120_331.5, passes=3, deepest=9)
    assert progress.line("searching with alphabeta", report, 5) == (
        "searching with alphabeta: 1,234,567 nodes, 120,332 nodes/s, 10.3 s, depth 5 done"
    )


def test_a_long_exact_search_hints_at_depth_time_and_engine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "HINT_AFTER", 0.0)
    monkeypatch.setattr(progress, "EVERY", 0.0)
    assert main(["solve", "kalah", "-o", "pits=3", "-o", "seeds=2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == progress.HINT  # once, on stderr: stdout stays JSON
    assert out.lstrip().startswith("{")
    assert main(["solve", "kalah", "-o", "pits=3", "-o", "seeds=2", "--depth", "3"]) == 0
    assert capsys.readouterr().err == ""  # a depth-limited search gets no hint


def test_on_a_terminal_the_status_shows_the_count_and_the_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress, "HINT_AFTER", 0.0)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=200)
    lines: list[str] = []

    class Status:
        def update(self, text: str) -> None:
            lines.append(text)

    watch = progress.watch(console, Status(), "searching with alphabeta",  # type: ignore[arg-type]
                           exact=True)
    watch.every = watch.next_report = 0
    game = load("kalah", options=["pits=3", "seeds=2"])
    plies.alphabeta(game, game.initial_state(), stop=watch)
    assert lines and lines[-1].startswith("searching with alphabeta: ")
    assert " nodes/s, " in lines[-1]
    assert progress.HINT in buffer.getvalue()


def test_an_exact_search_reports_how_deep_it_has_gone() -> None:
    seen: list[ProgressReport] = []
    game = load("kalah", options=["pits=3", "seeds=2"])
    result = plies.alphabeta(game, game.initial_state(), stop=Progress(seen.append, every=0))
    assert seen and 0 < seen[-1].deepest <= result.stats.seldepth
    assert progress.line("searching", seen[-1]).endswith(f", {seen[-1].deepest} plies deep")
    ttt = load("tictactoe")  # a search of the textbook kind (node_value) reports it too
    plain: list[ProgressReport] = []
    plies.maxn(ttt, ttt.initial_state(), plies.Limit(depth=3), stop=Progress(plain.append, every=0))
    assert plain and 1 <= plain[-1].deepest <= 3
