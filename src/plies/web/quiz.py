"""``POST /api/quiz``: "is this a good move?" in the web app (:mod:`plies.policy.quiz`).

Without ``answer`` the reply is the question: ``{"question", "kind", "player",
"moves"}``.  With ``answer`` (a move's text, or a number for ``"ask": "value"``) it is
graded: ``{"verdict": {"right", "answer", "best", "value", "values": [{"move",
"value", "score"}], "text"}}``: ``values`` best first, each ``score`` the value as people
read it (in the game's unit: ``+33 cp``, ``mate in 2``).  The engine's search is the one
the request's settings describe (``algorithm``, ``depth``, ``time``, ... as for
``/api/analyze``), within the server's caps; the answer is never sent before the
student's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from plies.errors import PliesError
from plies.game import format_action
from plies.policy import SearchSession
from plies.policy.quiz import KINDS, Kind, Question, move_texts, prompt, viewer_of
from plies.policy.text import number
from plies.viz.tree import number as json_number
from plies.web.api import (
    ENDPOINTS,
    ApiError,
    _get,
    _word,
    keep_hidden,
    load_position,
    settings,
)
from plies.web.view import view


def quiz(body: Mapping[str, Any]) -> dict[str, Any]:
    """The question at the position, or the grade of ``answer`` (module doc)."""
    position = load_position(body)
    game, here = position.game, position.state
    kind = cast(Kind, _word(body, "ask", KINDS, "move"))
    answer = _get(body, "answer", str, "a move's text or a number")
    if game.is_terminal(here):
        raise ApiError("the game is over here: there is no move to ask about")
    keep_hidden(body, position, "a quiz graded by its search")
    mover = game.to_move(here)
    if mover < 0:
        raise ApiError("nobody chooses alone here (chance, or everyone at once): a quiz asks "
                       "where one player is to move")
    viewer = viewer_of(game, mover)  # MAX's values in a two-player zero-sum game
    shown = view(game, here, position.moves, position.before)
    if answer is None:  # the question only: nothing is searched before the answer
        return {"state": shown, "question": prompt(game, here, mover, kind, viewer),
                "kind": kind,
                "player": shown.get("to_move_name"), "moves": move_texts(game, here)}
    chosen = settings(body, game, here, all_values=True, player=viewer)
    result = chosen.run(game, here)
    reader = chosen.session if chosen.session is not None else SearchSession(game)
    scores = {a: s.signed for a, s in reader.action_scores(result).items()} \
        if reader.tuned else {}  # in the game's unit: "+33 cp", "mate in 2"
    question = Question(game, here, mover, kind, result, scores, viewer)
    try:
        verdict = question.grade(answer)
    except PliesError as err:
        raise ApiError(str(err)) from None
    texts = {format_action(game, here, a): text for a, text in scores.items()}
    sign = 1 if viewer == mover else -1  # MIN's best is MAX's lowest
    ranked = sorted(verdict.values.items(), key=lambda mv: -sign * mv[1])  # the mover's best first
    return {"state": shown, "verdict": {
        "right": verdict.right, "answer": verdict.answer, "best": list(verdict.best),
        "value": json_number(verdict.value),
        "values": [{"move": m, "value": json_number(v), "score": texts.get(m, number(v))}
                   for m, v in ranked],
        "text": verdict.text,
    }}


ENDPOINTS["quiz"] = quiz  # served where the app and its workers serve the others

__all__ = ["quiz"]
