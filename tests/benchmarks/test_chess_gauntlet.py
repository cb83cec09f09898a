"""The self-play gauntlet's bookkeeping (``benchmarks/chess_gauntlet.py``): the pairs it
reads from its shards' files and the pentanomial counts its SPRT decides on.  No engine
is started here; ``test_chess_match.py`` plays the games end to end."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "chess_gauntlet.py"


def load() -> ModuleType:
    """The gauntlet as a module (it lives outside the package), loaded once."""
    if "chess_gauntlet" not in sys.modules:
        spec = importlib.util.spec_from_file_location("chess_gauntlet", SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["chess_gauntlet"] = module
        spec.loader.exec_module(module)
    return sys.modules["chess_gauntlet"]


def pair(index: int, *scores: float) -> dict[str, Any]:
    return {"pair": index, "opening": "x", "games": [{"score": s} for s in scores]}


def test_the_shards_files_are_read_as_far_as_they_are_written(tmp_path: Path) -> None:
    g = load()
    done = tmp_path / "run0.jsonl"
    done.write_text("\n".join(json.dumps(pair(i, 1.0, 0.5)) for i in (0, 2)) + "\n")
    writing = tmp_path / "run1.jsonl"
    # A finished pair, then a pair the other shard is still writing.
    writing.write_text(json.dumps(pair(1, 0.0, 0.0)) + "\n" + '{"pair": 3, "open')
    lines = g.read_pairs([str(done), str(writing), str(tmp_path / "not-yet.jsonl")])
    assert [d["pair"] for d in lines] == [0, 2, 1]
    assert g.pentanomial(lines) == [1, 0, 0, 2, 0]
    assert g.pentanomial([*lines, {"depth": [9.0, 9.0], "nps": [1, 1]}]) == [1, 0, 0, 2, 0]


def test_the_sprt_decides_on_the_pairs_of_every_shard(tmp_path: Path) -> None:
    g = load()
    from plies.tournament.sprt import parse_sprt

    test = parse_sprt("0,40")
    wins = [pair(i, 1.0, 0.5) for i in range(40)]  # 75%: far above H1
    own, other = wins[::2], wins[1::2]
    sibling = tmp_path / "run1.jsonl"
    sibling.write_text("".join(json.dumps(d) + "\n" for d in other))
    alone = test.decision(test.llr(g.pentanomial(own[:8])))
    together = test.decision(test.llr(g.pentanomial(own[:8] + g.read_pairs([str(sibling)]))))
    assert alone is None
    assert together == "H1"
