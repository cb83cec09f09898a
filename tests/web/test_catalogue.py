"""The web app's catalogue: every game with its own name, description and options."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.game.declaration import declared_name
from plies.web import api

TAKEAWAY = '''
from plies.game import Game


class Takeaway(Game):
    """Take 1 or 2 from a pile; who takes the last wins."""

    num_players = 2

    def __init__(self, start: int = 5) -> None:
        self.start = start

    def initial_state(self): return (self.start, 0)
    def to_move(self, s): return s[1]
    def actions(self, s): return [a for a in (1, 2) if a <= s[0]]
    def result(self, s, a): return (s[0] - a, 1 - s[1])
    def is_terminal(self, s): return s[0] == 0
    def utility(self, s, p): return 1 if s[1] != p else -1
'''


def test_a_served_user_game_keeps_its_class_name_and_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Game subclass that names nothing inherits the base's placeholder "game".
    (tmp_path / "takeaway.py").write_text(TAKEAWAY)
    monkeypatch.setattr(api, "SERVED", {})
    (name,) = api.serve_games([f"{tmp_path / 'takeaway.py'}:Takeaway"])
    assert name == "Takeaway"
    entry = next(g for g in api.catalogue()["games"] if g["name"] == name)
    assert entry["description"].startswith("Take 1 or 2 from a pile")
    assert [(o["name"], o["default"]) for o in entry["options"]] == [("start", "5")]
    game = api.load_game({"game": name, "options": {"start": 7}})
    assert game.initial_state() == (7, 0)


def test_declared_name_skips_only_the_base_classes_placeholder() -> None:
    from plies.game import Game

    class Plain(Game):  # type: ignore[misc]
        pass

    class Named(Game):  # type: ignore[misc]
        name = "named"

    assert declared_name(Plain) == "Plain"
    assert declared_name(Named) == "named"
    assert declared_name(Game) == "Game"
