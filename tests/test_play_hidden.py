"""``plies play`` with hidden cards (kuhn, leduc): a human sees only its own card, chance
does not say what it dealt, and the engine plays by determinization."""

from __future__ import annotations

import io
import re

import pytest

from tests.clirun import fail, plain_pipe, run  # noqa: F401 (autouse fixture)

REVEAL = re.compile(r"^P0: (\S+)\s+P1: (\S+)$", re.MULTILINE)


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *argv: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return run(capsys, "play", *argv)


def hidden_part(out: str) -> tuple[str, str, str]:
    """(the output before the cards are turned up, P0's card, P1's card)."""
    reveal = REVEAL.search(out)
    assert reveal is not None, out
    return out[: reveal.start()], reveal.group(1), reveal.group(2)


@pytest.mark.parametrize("seed", range(6))
def test_a_human_at_kuhn_sees_only_its_own_card_until_the_hand_is_over(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    out = play(capsys, monkeypatch, "bet\nbet\n", "kuhn", "--seed", str(seed))
    before, mine, theirs = hidden_part(out)
    assert "P1: " not in before and "chance: dealt" in before
    views = re.findall(r"^your card (\S+);", before, re.MULTILINE)
    assert views and set(views) == {mine}  # (and "your card not dealt" before the deal)
    assert re.search(r"^P1 \(determinize, 20 worlds\) plays (pass|bet): value -?[\d.]+, "
                     r"[\d,]+ nodes in \d+\.\d\ds$", before, re.MULTILINE), before
    assert out.rstrip().splitlines()[-1].startswith("game over: ") and theirs != mine


@pytest.mark.parametrize("seed", range(4))
def test_a_human_at_leduc_as_p1_never_sees_the_engines_card(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    out = play(capsys, monkeypatch, "call\n" * 6, "leduc", "--human", "1", "--seed", str(seed),
               "--worlds", "5")
    before, theirs, mine = hidden_part(out)
    assert theirs not in before  # P0's card, the engine's, is never named
    assert re.findall(r"^your card (\S+);", before, re.MULTILINE) != []
    assert set(re.findall(r"^your card (\S+);", before, re.MULTILINE)) == {mine}
    assert "P0 (determinize, 5 worlds) plays" in before


def test_the_hint_weighs_the_moves_over_the_worlds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "?\nq\n", "kuhn", "--seed", "1", "--worlds", "all")
    hint = re.search(r"^value of every move for P0, best first \(determinize, every world, "
                     r".*\): (pass|bet): [+-]?[\d.]+, (pass|bet): [+-]?[\d.]+$", out, re.MULTILINE)
    assert hint, out
    assert out.rstrip().endswith("bye")


def test_engine_against_engine_shows_the_referees_view(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "", "kuhn", "--human", "none", "--seed", "2")
    assert re.search(r"^chance: [JQK][JQK]$", out, re.MULTILINE)
    assert out.count("(determinize, 20 worlds) plays") >= 2
    assert "your card" not in out


def test_a_named_algorithm_searches_the_cards_face_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "pass\npass\n", "kuhn", "--seed", "1",
               "--algorithm", "expectiminimax")
    assert "P1 (expectiminimax) plays" in out and "determinize" not in out


@pytest.mark.parametrize("worlds", ["0", "some"])
def test_bad_worlds_say_what_is_accepted(capsys: pytest.CaptureFixture[str], worlds: str) -> None:
    message = fail(capsys, "play", "kuhn", "--worlds", worlds)
    assert message == f"bad --worlds {worlds!r}: use an int >= 1 or all"
