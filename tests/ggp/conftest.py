"""Fixtures of the GGP tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from plies.ggp.server import GgpServer
from tests.ggp.helpers import serving


@pytest.fixture
def server() -> Iterator[GgpServer]:
    """A player with a fixed seed, listening on a free port of 127.0.0.1."""
    with serving(seed=1) as s:
        yield s
