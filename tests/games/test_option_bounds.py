"""The bounds of the built-in games' numeric options: declared, consistent, checked up front."""

from __future__ import annotations

import pytest

from plies.errors import GameFormatError
from plies.games import INT, INTS, OPTIONAL_INT, Option, info, load, names, parse_options
from plies.games.connect4 import Connect4
from tests.clirun import fail, plain_pipe  # noqa: F401  (plain_pipe: an autouse fixture)

NUMERIC = (INT, INTS, OPTIONAL_INT)
OPTIONS = [
    (name, option) for name in names() for option in info(name).options
    if option.type in NUMERIC
]


def test_solve_connect4_width_100_is_refused_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    # `plies solve connect4 -o width=100` spun forever
    assert fail(capsys, "solve", "connect4", "-o", "width=100") == (
        "option width=100 is out of range: connect4 accepts width 4..16"
    )
    assert fail(capsys, "solve", "connect4", "-o", "height=3") == (
        "option height=3 is out of range: connect4 accepts height 4..16"
    )


@pytest.mark.parametrize(("name", "option"), OPTIONS, ids=[f"{n}-{o.name}" for n, o in OPTIONS])
def test_every_numeric_option_declares_bounds_the_game_accepts(name: str, option: Option) -> None:
    assert option.bounds is not None, f"{name} {option.name} has no bounds"
    low, high = option.bounds
    option.check(option.default, name)  # the default is within the bounds
    if option.type is INTS:
        assert option.count is not None
        edges = [f"{high}", ",".join(["1"] * option.count[1]), f"{low},1"]
    else:
        edges = [str(low), str(high)]
    for text in edges:  # the game itself accepts every value at the edges
        load(name, **parse_options(name, [f"{option.name}={text}"]))
    for text in (str(low - 1), str(high + 1)):
        with pytest.raises(GameFormatError) as caught:
            parse_options(name, [f"{option.name}={text}"])
        message = str(caught.value)
        assert message.startswith(f"option {option.name}={text} is out of range: {name} accepts")
        assert f"{low}..{high}" in message and "\n" not in message


def test_list_options_bound_how_many_numbers_they_hold() -> None:
    with pytest.raises(GameFormatError) as caught:
        parse_options("nim", ["piles=" + ",".join(["1"] * 9)])
    assert str(caught.value) == (
        "option piles=1,1,1,1,1,1,1,1,1 has 9 numbers: "
        "nim accepts piles as 1..8 numbers of 0..64 each"
    )
    with pytest.raises(GameFormatError, match=r"piles as 1\.\.8 numbers of 0\.\.64 each"):
        parse_options("nim", ["piles=3,65"])


def test_none_stays_accepted_where_an_option_may_be_open() -> None:
    assert parse_options("pig", ["max_turns=none"]) == {"max_turns": None}
    assert parse_options("nim", ["max_take=none"]) == {"max_take": None}
    with pytest.raises(GameFormatError, match=r"pig accepts max_turns 1\.\.50 or none$"):
        parse_options("pig", ["max_turns=0"])


def test_text_given_to_load_is_bounded_but_typed_python_values_are_not() -> None:
    with pytest.raises(GameFormatError, match=r"connect4 accepts width 4\.\.16"):
        load("connect4", width="100")
    wide = load("connect4", width=20)  # an experiment from Python: the game can play it
    assert isinstance(wide, Connect4) and wide.width == 20
