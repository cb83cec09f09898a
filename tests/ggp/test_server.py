"""The GGP player over real HTTP: every message form, every transport form, bad requests."""

from __future__ import annotations

import http.client
import socket
import threading
import time

from plies.gdl.parser import parse, parse_term
from plies.gdl.terms import to_kif
from plies.ggp.manager import HttpReply, parse_response, post, raw_request
from plies.ggp.player import GgpPlayer
from plies.ggp.server import GgpServer
from tests.ggp.helpers import GDL, rules, serving

AVAILABLE = "((name plies) (status available))"
BUSY = "((name plies) (status busy))"


def rules_list(name: str) -> str:
    """A game's rules as the one-line list a START carries."""
    desc = parse(rules(name))
    return "(" + " ".join(to_kif(rule) for rule in desc.rules) + ")"


def send(server: GgpServer, message: str, **kw: float) -> HttpReply:
    return post(server.host, server.port, message, **kw)


def raw(server: GgpServer, data: bytes) -> HttpReply:
    answer, latency = raw_request(server.host, server.port, data)
    return parse_response(answer, latency)


def assert_available(server: GgpServer) -> None:
    reply = send(server, "(info)")
    assert (reply.status, reply.body) == (200, AVAILABLE)


# --- INFO in every form, and the HTTP around it ---------------------------------------------


def test_info_new_form_with_headers(server: GgpServer) -> None:
    reply = send(server, "( INFO )")
    assert reply.status == 200
    assert reply.body == AVAILABLE
    assert reply.headers["content-type"] == "text/acl"
    assert reply.headers["content-length"] == str(len(AVAILABLE))
    assert reply.headers["access-control-allow-origin"] == "*"
    assert "POST" in reply.headers["access-control-allow-methods"]


def test_info_keyword_is_case_insensitive_and_parentheses_optional(server: GgpServer) -> None:
    for text in ("(info)", "(Info)", "INFO", "  (info)\n"):
        assert send(server, text).body == AVAILABLE, text


def test_ping_is_the_oldest_info(server: GgpServer) -> None:
    reply = send(server, "(PING)")
    assert (reply.status, reply.body) == (200, "ready")


def test_get_form_url_encoded(server: GgpServer) -> None:
    for path in ("/(info)", "/%28info%29", "/%28%20INFO%20%29"):
        reply = raw(server, f"GET {path} HTTP/1.0\r\n\r\n".encode())
        assert (reply.status, reply.body) == (200, AVAILABLE), path
        assert reply.headers["access-control-allow-origin"] == "*"


def test_get_form_of_a_whole_start_with_variables(server: GgpServer) -> None:
    # Unencoded "?" (GDL variables) must stay part of the message, not start a query.
    reply = raw(server, (
        b"GET /(start%20m1%20robot%20((role%20robot)%20(<=%20(legal%20?r%20a)%20(role%20?r))"
        b"%20(<=%20(next%20done)%20(does%20robot%20a))%20(<=%20terminal%20(true%20done))"
        b"%20(goal%20robot%20100))%205%201) HTTP/1.0\r\n\r\n"
    ))
    assert (reply.status, reply.body) == (200, "ready")
    assert raw(server, b"GET /(play+m1+nil) HTTP/1.0\r\n\r\n").body == "a"


def test_get_without_a_message_is_refused(server: GgpServer) -> None:
    reply = raw(server, b"GET / HTTP/1.0\r\n\r\n")
    assert reply.status == 400 and "empty message" in reply.body
    assert_available(server)


def test_options_preflight(server: GgpServer) -> None:
    reply = raw(
        server,
        b"OPTIONS / HTTP/1.1\r\nHost: x\r\nOrigin: http://example.org\r\n"
        b"Access-Control-Request-Method: POST\r\n"
        b"Access-Control-Request-Headers: content-type\r\n\r\n",
    )
    assert reply.status == 200
    assert reply.body == ""
    assert reply.headers["content-length"] == "0"
    assert reply.headers["access-control-allow-origin"] == "*"
    assert "POST" in reply.headers["access-control-allow-methods"]
    assert "Content-Type" in reply.headers["access-control-allow-headers"]


def test_http10_replies_are_http10(server: GgpServer) -> None:
    answer, _ = raw_request(
        server.host, server.port,
        b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 6\r\n\r\n(info)",
    )
    assert answer.startswith(b"HTTP/1.0 200")


def test_http10_body_without_content_length(server: GgpServer) -> None:
    # The s-expression closes: no need to wait for the client to close its side.
    reply = raw(server, b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\n\r\n( info )")
    assert (reply.status, reply.body) == (200, AVAILABLE)


def test_body_without_length_read_until_the_client_half_closes(server: GgpServer) -> None:
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall(b"POST / HTTP/1.0\r\n\r\nINFO")
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
    assert parse_response(data).body == AVAILABLE


def test_chunked_body(server: GgpServer) -> None:
    reply = raw(
        server,
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"3\r\n(in\r\n3\r\nfo)\r\n0\r\n\r\n",
    )
    assert (reply.status, reply.body) == (200, AVAILABLE)


def test_http11_client(server: GgpServer) -> None:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5)
    try:
        conn.request("POST", "/", body="(info)", headers={"Content-Type": "text/acl"})
        response = conn.getresponse()
        assert response.status == 200
        assert response.read().decode() == AVAILABLE
    finally:
        conn.close()


# --- bad requests: a clear 400, and the player keeps serving --------------------------------


def test_malformed_requests_get_400_and_the_server_keeps_serving(server: GgpServer) -> None:
    cases = {
        "garbage": "unknown message",
        "%%% !!": "expected one message",
        "(play m1": "never closed",
        "(info))": "unexpected ')'",
        "(dance m1)": "unknown message 'dance'",
        "(start m1 robot)": "start takes 5 argument(s)",
        "(start m1 robot ((role robot)) soon 1)": "start clock must be a number",
        "(play m1 nil extra)": "play takes 2 argument(s)",
        "(play m1 1 nil nil)": "GDL-II",
        "(info) (info)": "expected one message",
        "": "empty message",
    }
    for text, expected in cases.items():
        reply = send(server, text)
        assert reply.status == 400, text
        assert reply.body.startswith("error: "), text
        assert expected in reply.body, (text, reply.body)
        assert reply.headers["access-control-allow-origin"] == "*"
    assert_available(server)


def test_bad_content_length_and_binary_garbage(server: GgpServer) -> None:
    reply = raw(server, b"POST / HTTP/1.0\r\nContent-Length: lots\r\n\r\n(info)")
    assert reply.status == 400 and "Content-Length" in reply.body
    reply = raw(server, b"POST / HTTP/1.0\r\nContent-Length: 4\r\n\r\n\xff\xfe\x00(")
    assert reply.status == 400
    assert_available(server)


def test_messages_for_no_match_are_busy(server: GgpServer) -> None:
    for text in ("(play m1 nil)", "(stop m1 nil)", "(abort m1)"):
        reply = send(server, text)
        assert (reply.status, reply.body) == (200, "busy"), text
    assert_available(server)


def test_bad_rules_in_start_get_400_naming_the_problem(server: GgpServer) -> None:
    bad = "(" + (GDL / "invalid" / "notsafe.kif").read_text() + ")"
    reply = send(server, f"(start m1 robot {bad} 5 1)")
    assert reply.status == 400
    assert "cannot play these rules" in reply.body and "?y" in reply.body
    reply = send(server, "(start m2 robot ((role robot) (legal robot x)) 5 1)")
    assert reply.status == 400 and "terminal" in reply.body  # no terminal, no goal
    assert_available(server)
    reply = send(server, f"(start m3 robot {rules_list('buttons')} 5 1)")  # still works
    assert (reply.status, reply.body) == (200, "ready")


def test_unknown_role_gets_400(server: GgpServer) -> None:
    reply = send(server, f"(start m1 nobody {rules_list('buttons')} 5 1)")
    assert reply.status == 400 and "'nobody' is not a role" in reply.body
    assert_available(server)


def test_preview_is_ready(server: GgpServer) -> None:
    reply = send(server, f"( PREVIEW {rules_list('buttons')} 5 )")
    assert (reply.status, reply.body) == (200, "ready")
    assert_available(server)


# --- a match's messages ------------------------------------------------------------------------


def test_one_match_message_by_message(server: GgpServer) -> None:
    buttons = rules_list("buttons")
    assert send(server, f"( START local.42 robot {buttons} 5 1 )").body == "ready"
    assert send(server, "(info)").body == BUSY
    assert send(server, "(ping)").body == "busy"
    assert send(server, f"(START other robot {buttons} 5 1)").body == "busy"
    assert send(server, "(PLAY other NIL)").body == "busy"  # wrong match id
    reply = send(server, "( PLAY local.42 NIL )")
    assert reply.status == 200
    assert parse_term(reply.body) in ("a", "b", "c")
    reply = send(server, "(play local.42 (b))")
    assert parse_term(reply.body) in ("a", "b", "c")
    answered = reply.body
    # Two moves for one role cannot be applied: the step still counts, with our own
    # answer as the best guess of what robot played (see plies.ggp.sync).
    assert send(server, "(play local.42 (a b))").status == 200
    assert send(server, "(play local.42 (c))").status == 200  # the match goes on
    assert send(server, "( STOP local.42 (a) )").body == "done"
    assert send(server, "(info)").body == AVAILABLE
    # That match is over: a STOP sent again gets the same answer, and changes nothing.
    assert send(server, "(stop local.42 (a))").body == "done"
    assert send(server, "(play local.42 (a))").body == "busy"
    player = server.player
    assert player.last is not None
    moves = [to_kif(m) for joint in player.last.moves for m in joint]
    assert moves == ["b", answered, "c", "a"]


def test_abort_frees_the_player(server: GgpServer) -> None:
    assert send(server, f"(start m1 robot {rules_list('buttons')} 5 1)").body == "ready"
    assert send(server, "(play m1 nil)").status == 200
    assert send(server, "(abort m1)").body == "aborted"
    assert_available(server)
    assert send(server, "(play m1 (a))").body == "busy"


def test_play_after_the_end_in_our_view_is_still_answered(server: GgpServer) -> None:
    # The manager decides when the match is over: a PLAY after what the player thinks is
    # the end gets a move the rules know, not an error, and the player stays in step.
    assert send(server, f"(start m1 robot {rules_list('buttons')} 5 1)").body == "ready"
    for move in ("a", "b", "c", "a", "b", "c"):  # six steps: buttons ends at step 7
        send(server, f"(play m1 ({move}))")
    reply = send(server, "(play m1 (a))")
    assert reply.status == 200 and parse_term(reply.body) in ("a", "b", "c")
    assert send(server, "(stop m1 (b))").body == "done"
    assert server.player.last is not None and len(server.player.last.moves) == 8
    assert_available(server)


def test_info_is_answered_while_a_move_is_being_computed() -> None:
    # Monte Carlo never stops early, so the PLAY takes its whole budget (0.5 s).
    with serving(GgpPlayer(mode="montecarlo", seed=3)) as server:
        game = rules_list("ticTacToe")
        assert send(server, f"(start m1 xplayer {game} 3 1)").body == "ready"
        done: dict[str, float] = {}
        replies: dict[str, HttpReply] = {}

        def play() -> None:
            replies["play"] = send(server, "(play m1 nil)")
            done["play"] = time.perf_counter()

        thinker = threading.Thread(target=play)
        thinker.start()
        while not _thinking(server.player):
            time.sleep(0.01)
        replies["info"] = send(server, "(info)")
        done["info"] = time.perf_counter()
        thinker.join()
        assert replies["info"].body == BUSY
        assert done["info"] < done["play"]
        assert parse_term(replies["play"].body)[0] == "mark"


def _thinking(player: GgpPlayer) -> bool:
    return any(t.name.startswith("ggp-think-m1") for t in threading.enumerate())


def test_start_answers_within_its_clock_while_the_reasoner_is_still_built() -> None:
    # 3-player tic-tac-toe takes longer to compile than a quarter of a second: START is
    # answered at its deadline, and the first PLAY waits for the reasoner.
    with serving(GgpPlayer(margin=0.75, seed=1)) as server:
        game = rules_list("tictactoe_3player")
        start = send(server, f"(start m1 zplayer {game} 1 3)")
        assert (start.status, start.body) == (200, "ready")
        assert start.latency < 1
        reply = send(server, "(play m1 nil)")
        assert (reply.status, reply.body) == (200, "noop")  # xplayer moves first
        reply = send(server, "(play m1 ((mark 1 1) noop noop))")
        assert (reply.status, reply.body) == (200, "noop")  # now oplayer
        assert send(server, "(abort m1)").body == "aborted"
        assert server.player.last is not None
        assert server.player.last.moves == [(("mark", "1", "1"), "noop", "noop")]


def test_play_without_a_reasoner_by_the_deadline_answers_a_move_the_rules_name() -> None:
    # Before, such a PLAY was answered 503 (and a manager substituted a random move).
    # tic-tac-toe has no move legal in every state; (legal xplayer noop) is the one
    # ground move its rules name for xplayer.
    player = GgpPlayer(margin=0.9)
    desc = parse(rules("ticTacToe"))
    import random

    from plies.ggp.player import Match

    player.match = Match("m1", "xplayer", 0, desc, 5, 1, random.Random(0))  # never prepared
    reply = player.handle("(play m1 nil)")
    assert (reply.status, reply.body) == (200, "noop")
    assert player.handle("(play m1 ((mark 1 1) noop))").status == 200
    assert player.match.pending == [(("mark", "1", "1"), "noop")]  # kept for the reasoner
    assert player.handle("(abort m1)").body == "aborted"


def test_a_request_that_is_not_http_gets_400_and_the_server_keeps_serving(
    server: GgpServer,
) -> None:
    reply = raw(server, b"HELLO THERE\r\n\r\n")
    assert reply.status == 400 and reply.body.startswith("error: ")
    assert reply.headers["access-control-allow-origin"] == "*"
    reply = raw(server, b"DELETE / HTTP/1.0\r\n\r\n")
    assert reply.status == 501 and "DELETE" in reply.body
    assert_available(server)
