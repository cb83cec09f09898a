"""Hostile GGP messages at the player (in-process server on 127.0.0.1): malformed ones,
absurd clocks, unknown matches, out-of-order and re-sent PLAYs, seeded mutants of real
messages, a 2 MiB body.

The promise: every message gets an HTTP answer below 500, and the player still answers
INFO; a START with an absurd clock is refused and leaves the player available; a re-sent
PLAY gets the same move and leaves the player in step.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
from tests.ggp.helpers import FAST, serving
from tests.hostile.corpus import DIGITS, ggp_messages, ggp_post

MESSAGES = ggp_messages(40)
AVAILABLE = "((name plies) (status available))"


@pytest.fixture(scope="module")
def player() -> Iterator[GgpServer]:
    with serving(fast_player()) as server:
        yield server


def fast_player() -> GgpPlayer:
    """A seeded player that thinks 0.3 s on a 1 s clock (:data:`tests.ggp.helpers.FAST`)."""
    return GgpPlayer(seed=1, margin=FAST["margin"], metagame_cap=FAST["metagame_cap"])


def send(server: GgpServer, message: str) -> tuple[int, str]:
    return ggp_post(server.host, server.port, message)


@pytest.mark.parametrize("message", MESSAGES, ids=[name for name, _ in MESSAGES])
def test_hostile_message_is_answered_and_the_player_keeps_serving(
    player: GgpServer, message: tuple[str, str]
) -> None:
    name, text = message
    status, body = send(player, text)
    assert status < 500, f"{name}: {status} {body[:300]!r}"
    assert send(player, "(info)")[0] == 200


@pytest.mark.parametrize("clock", ["1e300", "nan", "-5", "0", DIGITS])
def test_start_with_an_absurd_clock_is_refused_and_leaves_the_player_available(
    clock: str,
) -> None:
    rules = dict(MESSAGES)["start-valid"].split(" ", 3)[3].rsplit(" ", 2)[0]
    with serving(fast_player()) as server:
        status, body = send(server, f"(start absurd xplayer {rules} {clock} {clock})")
        assert 400 <= status < 500, f"{status} {body[:200]!r}"
        assert send(server, "(info)") == (200, AVAILABLE)


def test_a_resent_play_gets_the_same_move_and_keeps_the_player_in_step() -> None:
    rules = dict(MESSAGES)["start-valid"].split(" ", 3)[3].rsplit(" ", 2)[0]
    mark = re.compile(r"\(mark (\d) (\d)\)")
    with serving(fast_player()) as server:
        assert send(server, f"(start resend xplayer {rules} 5 2)") == (200, "ready")
        first = send(server, "(play resend nil)")
        assert first[0] == 200 and mark.fullmatch(first[1].strip()), first
        assert send(server, "(play resend nil)") == first  # the manager retried
        x = first[1].strip()
        taken = {mark.fullmatch(x).groups()}  # type: ignore[union-attr]
        second = send(server, f"(play resend ({x} noop))")
        assert second[0] == 200 and second[1].strip().lower() == "noop", second
        assert send(server, f"(play resend ({x} noop))") == second  # retried again
        o = next(f"(mark {i} {j})" for i in "123" for j in "123" if (i, j) not in taken)
        taken.add(mark.fullmatch(o).groups())  # type: ignore[union-attr]
        status, reply = send(server, f"(play resend (noop {o}))")
        found = mark.fullmatch(reply.strip())
        assert status == 200 and found and found.groups() not in taken, reply
        send(server, "(abort resend)")
