"""Tables that last, spectators, the lobby, take-backs by consent and the limits of a
server opened to others, through Starlette's TestClient."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cardcrawl
from cardcrawl import Match, Record
from cardcrawl.web import SqliteStorage, create_app
from cardcrawl.web._routes import svg_patch
from cardcrawl.web._tables import MAX_STEPS
from conftest import leaks, never_shown_cards, secret_numbers

HAYDES = {
    "game": "escape-from-haydes",
    "options": {"players": 2, "max_rounds": 2},
    "seed": 4,
    "seats": ["person", "person"],
}
HOST = {"host": "127.0.0.1"}


def app_client(db: Path | str | None = None, **options: Any) -> TestClient:
    return TestClient(create_app(bot_delay=0, db=db, **options), base_url="http://127.0.0.1")


def new_table(client: TestClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/tables", json=request)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def view(client: TestClient, made: dict[str, Any], seat: int | None) -> dict[str, Any]:
    params = (
        {"watch": made["watch"]}
        if seat is None
        else {"seat": seat, "token": made["seats"][seat]["token"]}
    )
    answer = client.get(f"/api/tables/{made['table']}/view", params=params)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def post(client: TestClient, made: dict[str, Any], what: str, seat: int, **body: Any) -> Any:
    token = made["seats"][seat]["token"]
    return client.post(
        f"/api/tables/{made['table']}/{what}", json={"seat": seat, "token": token, **body}
    )


def play_first(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    """The seat to move plays its first legal action; its answer."""
    seen = view(client, made, 0)
    seat = seen["current"]
    legal = view(client, made, seat)["legal"]
    answer = post(client, made, "act", seat, action=legal[0]["text"], version=seen["version"])
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


# ------------------------------------------------------------ a restart loses nothing
def test_a_restart_keeps_every_table_link_and_step(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with app_client(db) as client:
        made = new_table(client, HAYDES)
        for _ in range(5):
            play_first(client, made)
        before = [view(client, made, seat) for seat in (0, 1, None)]
    # A new server on the same file: every link works again, at the same step.
    with app_client(db) as client:
        after = [view(client, made, seat) for seat in (0, 1, None)]
        assert after == before
        assert after[0]["version"] == 5
        while not view(client, made, 0)["over"]:
            play_first(client, made)
        table = client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]
        done = table.match
    # Played again from its start, the stored game is the one played.
    again = Match.start(cardcrawl.load("escape-from-haydes", **HAYDES["options"]), HAYDES["seed"])
    for action in done.actions:
        again.play(action)
    assert again.state == done.state
    with app_client(db) as client:
        token = made["seats"][0]["token"]
        record = client.get(
            f"/api/tables/{made['table']}/record", params={"seat": 0, "token": token}
        )
        assert Record.from_json(record.text).verified


def test_the_database_holds_no_token(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with app_client(db) as client:
        made = new_table(client, HAYDES)
    stored = db.read_bytes() + (tmp_path / "tables.sqlite3-wal").read_bytes()
    assert made["table"].encode() in stored
    for seat in made["seats"]:
        assert seat["token"].encode() not in stored


def test_abandoned_tables_expire_and_live_tables_are_capped(tmp_path: Path) -> None:
    with app_client(tmp_path / "t.sqlite3", max_tables=2, expire_after=3600) as client:
        tables = client.app.state.tables  # type: ignore[attr-defined]
        first = new_table(client, HAYDES)
        new_table(client, HAYDES)
        refused = client.post("/api/tables", json=HAYDES)
        assert refused.status_code == 503
        assert "most tables" in refused.json()["error"]
        # Two hours later, nobody having touched them, they are gone.
        assert len(tables.sweep(now=time.time() + 7200)) == 2
        assert client.get(f"/api/tables/{first['table']}/view").status_code == 404
        new_table(client, HAYDES)


# ------------------------------------------------------------ spectators and the lobby
def test_a_spectator_sees_the_public_view_and_no_face_down_card() -> None:
    with app_client() as client:
        request = {"game": "mapless-house", "options": {"max_turns": 3}, "seed": 21}
        made = new_table(client, request)
        table = client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]
        received = []
        address = f"/ws/tables/{made['table']}?watch={made['watch']}"
        with client.websocket_connect(address, headers=HOST) as live:
            received.append(json.dumps(live.receive_json()))
            while not table.over:
                seen = play_first(client, made)
                while True:
                    message = live.receive_json()
                    received.append(json.dumps(message))
                    if message["version"] == seen["version"]:
                        break
                assert message["legal"] == []
                assert message["undo"] is False
        spectated = view(client, made, None)
        assert spectated["seat"] is None
        # The narration is the seat's (this game has one seat, who sees all it hears).
        assert [e["events"] for e in spectated["log"]] == [
            e["events"] for e in view(client, made, 0)["log"]
        ]
    states = table.match.states
    hidden = never_shown_cards(table.game, states)
    assert len(hidden) >= 10
    assert leaks(received, hidden, secret_numbers(states, 21)) == []
    # A wrong spectator token is refused.
    with app_client() as client:
        made = new_table(client, request)
        answer = client.get(f"/api/tables/{made['table']}/view", params={"watch": "nope"})
        assert answer.status_code == 403


def test_the_lobby_lists_open_tables_and_a_seat_is_taken_from_it() -> None:
    with app_client() as client:
        made = new_table(client, {**HAYDES, "open": [1]})
        assert made["seats"][1]["token"] is None
        closed = new_table(client, HAYDES)
        listed = client.get("/api/tables").json()["tables"]
        assert [t["table"] for t in listed] == [made["table"]]
        assert listed[0]["title"] == "Escape from Haydes"
        assert [s["free"] for s in listed[0]["seats"]] == [False, True]
        assert closed["table"] not in json.dumps(listed)
        path = f"/api/tables/{made['table']}/join"
        taken = client.post(path, json={"seat": 1})
        assert taken.status_code == 200, taken.text
        token = taken.json()["token"]
        assert client.post(path, json={"seat": 1}).status_code == 409
        assert client.post(path, json={"seat": 0}).status_code == 409
        assert client.post(path, json={"seat": "²"}).status_code == 400
        assert client.get("/api/tables").json()["tables"] == []
        seen = client.get(f"/api/tables/{made['table']}/view", params={"seat": 1, "token": token})
        assert seen.status_code == 200
        # Only a person's seat may be left open.
        bots = {**HAYDES, "seats": ["person", "random"], "open": [1]}
        assert client.post("/api/tables", json=bots).status_code == 422


# ------------------------------------------------------------ take-back by consent
def test_a_take_back_happens_only_when_every_other_person_accepts() -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        table = client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]
        # Play until a step that revealed a card, which fair undo refuses.
        while not (table.match.history and table.match.history[-1].revealed):
            play_first(client, made)
        mover = table.match.history[-1].player
        other = 1 - mover
        steps = len(table.match.history)
        before = table.match.states[-2]
        assert view(client, made, mover)["takeback"]["can_ask"] is True
        version = table.version
        assert post(client, made, "undo", mover, version=version).status_code == 409
        asked = post(client, made, "takeback", mover, answer="ask", version=version)
        assert asked.status_code == 200, asked.text
        assert len(table.match.history) == steps  # nothing yet
        shown = view(client, made, other)["takeback"]["asked"]
        assert shown["seat"] == mover
        assert shown["waiting"] == [other]
        # The asker cannot accept for the others; a repeated answer is refused.
        assert (
            post(client, made, "takeback", mover, answer="accept", version=table.version)
        ).status_code == 409
        accepted = post(client, made, "takeback", other, answer="accept", version=table.version)
        assert accepted.status_code == 200, accepted.text
        assert (
            post(client, made, "takeback", other, answer="accept", version=version + 1)
        ).status_code == 409
        assert len(table.match.history) == steps - 1
        assert table.match.state == before
        # The record says so, on the step that follows.
        play_first(client, made)
        comment = table.match.history[-1].comment
        assert comment is not None
        assert "take-back by consent" in comment
        assert f"seat {mover}" in comment
        assert f"accepted by seat {other}" in comment
        # A refused take-back changes nothing.
        while not (table.match.history and table.match.history[-1].revealed):
            play_first(client, made)
        mover = table.match.history[-1].player
        steps = len(table.match.history)
        post(client, made, "takeback", mover, answer="ask", version=table.version)
        refused = post(client, made, "takeback", 1 - mover, answer="refuse", version=table.version)
        assert refused.status_code == 200
        assert len(table.match.history) == steps
        assert view(client, made, mover)["takeback"]["asked"] is None


# ------------------------------------------------------------ a server opened to others
HOSTILE_SEATS = ["²", "٠", "9" * 5000, " 0", "+0", "-0", "0.0", "", "0x0"]


@pytest.mark.parametrize("seat", HOSTILE_SEATS)
def test_hostile_seats_get_400_everywhere(seat: str) -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        token = made["seats"][0]["token"]
        table = made["table"]
        answers = [
            client.get(f"/api/tables/{table}/view", params={"seat": seat, "token": token}),
            client.get(f"/api/tables/{table}/record", params={"seat": seat, "token": token}),
            client.get(f"/table/{table}/replay", params={"seat": seat, "token": token}),
            client.post(
                f"/api/tables/{table}/act",
                json={"seat": seat, "token": token, "action": "end", "version": 0},
            ),
            client.post(
                f"/api/tables/{table}/undo", json={"seat": seat, "token": token, "version": 0}
            ),
        ]
        assert [a.status_code for a in answers] == [400] * len(answers)
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"/ws/tables/{table}?seat={seat}&token={token}", headers=HOST),
        ):
            pass
        assert refused.value.code == 4400


def test_seats_seeds_and_versions_are_read_one_way() -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        token = made["seats"][0]["token"]
        path = f"/api/tables/{made['table']}/view"
        # A JSON integer and ASCII digits are the same seat; a float is not a seat.
        assert client.get(path, params={"seat": "0", "token": token}).status_code == 200
        assert client.get(path, params={"seat": "00", "token": token}).status_code == 200
        act = f"/api/tables/{made['table']}/act"
        for seat, status in ((0.0, 400), (True, 400), ("0", 409), (0, 409)):
            body = {"seat": seat, "token": token, "action": "nothing", "version": 99}
            assert client.post(act, json=body).status_code == status, seat
        for seed, status in (("٠", 422), ("²", 422), ("9" * 5000, 422), (2**64, 422), ("7", 201)):
            answer = client.post("/api/tables", json={**HAYDES, "seed": seed})
            assert answer.status_code == status, (seed, answer.text)
        huge = b'{"game": "mapless-house", "seed": ' + b"9" * 5000 + b"}"
        answer = client.post(
            "/api/tables", content=huge, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 400


def test_a_repeated_action_is_refused_not_played_twice() -> None:
    with app_client() as client:
        made = new_table(client, {"game": "mapless-house", "seed": 3})
        token = made["seats"][0]["token"]
        body = {"seat": 0, "token": token, "action": "place -1,0", "version": 0}
        path = f"/api/tables/{made['table']}/act"
        assert client.post(path, json=body).status_code == 200
        again = client.post(path, json=body)
        assert again.status_code == 409
        assert "version 1" in again.json()["error"]
        missing = client.post(path, json={k: v for k, v in body.items() if k != "version"})
        assert missing.status_code == 400
        assert len(view(client, made, 0)["log"]) == 1


def test_a_socket_from_another_site_is_refused() -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        token = made["seats"][0]["token"]
        address = f"/ws/tables/{made['table']}?seat=0&token={token}"
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(address, headers={**HOST, "origin": "http://evil.example"}),
        ):
            pass
        assert refused.value.code == 4403
        with client.websocket_connect(
            address, headers={**HOST, "origin": "http://127.0.0.1"}
        ) as live:
            assert live.receive_json()["version"] == 0


def test_a_record_too_long_is_refused_and_a_long_one_replays_off_the_loop() -> None:
    game = cardcrawl.load("mapless-house")
    record = Record(
        game="mapless-house",
        options={},
        seed=1,
        actions=["end"] * (MAX_STEPS + 1),
        rules_version=game.rules_version,
    )
    with app_client() as client:
        answer = client.post("/api/tables", json={"record": record.to_json()})
        assert answer.status_code == 413
        assert str(MAX_STEPS) in answer.json()["error"]


def test_a_socket_sends_the_picture_once_then_patches() -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        token = made["seats"][0]["token"]
        address = f"/ws/tables/{made['table']}?seat=0&token={token}"
        with client.websocket_connect(address, headers=HOST) as live:
            first = live.receive_json()
            pieces = first["board"]["svg"].split(">")
            log = first["log"]
            for _ in range(4):
                play_first(client, made)
                message = live.receive_json()
                patched: list[str] = []
                for op in message["board"]["patch"]:
                    if isinstance(op, str):
                        patched.extend(op.split(">"))
                    else:
                        patched.extend(pieces[op[0] : op[0] + op[1]])
                pieces = patched
                log = log[: message["log_from"]] + message["log"]
                full = view(client, made, 0)
                assert ">".join(pieces) == full["board"]["svg"]
                assert log == full["log"]
                assert len(json.dumps(message["board"])) < len(full["board"]["svg"]) / 3


def test_svg_patch_rebuilds_any_change() -> None:
    old = ["<a", "<b", "<c", "<d", "<b"]
    for new in (["<b", "<c"], ["<x"], [], old, ["<d", "<a", "<b", "<c", "<b", "<y"]):
        ops = svg_patch(old, new)
        rebuilt: list[str] = []
        for op in ops:
            rebuilt.extend(op.split(">") if isinstance(op, str) else old[op[0] : op[0] + op[1]])
        assert rebuilt == new


def test_the_storage_keeps_each_change_in_one_transaction(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "s.sqlite3")
    with app_client(storage) as client:
        made = new_table(client, HAYDES)
        play_first(client, made)
        play_first(client, made)
    stored = storage.load(made["table"])
    assert stored is not None
    assert len(stored.steps) == 2
    assert stored.meta["version"] == 2


def test_alone_at_the_table_there_is_no_take_back() -> None:
    with app_client() as client:
        made = new_table(client, {"game": "mapless-house", "seed": 3})
        play_first(client, made)
        assert view(client, made, 0)["takeback"]["can_ask"] is False
        asked = post(client, made, "takeback", 0, answer="ask", version=1)
        assert asked.status_code == 409
        assert "another person" in asked.json()["error"]


def test_bots_take_up_their_seats_again_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    request = {**HAYDES, "seats": ["person", "random"]}
    # The bot is slow on the first server: it is stopped before the bot moves.
    with TestClient(create_app(bot_delay=60, db=db), base_url="http://127.0.0.1") as client:
        made = new_table(client, request)
        seen = view(client, made, 0)
        if seen["current"] == 0:
            ended = post(client, made, "act", 0, action="end", version=seen["version"])
            assert ended.status_code == 200, ended.text
        seen = view(client, made, 0)
        assert seen["current"] == 1
        steps = len(seen["log"])
    with app_client(db) as client:
        # The first request reads the table back, and the bot plays on by itself.
        deadline = time.monotonic() + 10
        while view(client, made, 0)["current"] == 1:
            assert time.monotonic() < deadline, "the bot did not play after the restart"
            time.sleep(0.01)
        assert len(view(client, made, 0)["log"]) > steps


def test_a_stored_table_the_rules_no_longer_play_is_gone_with_a_reason(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "tables.sqlite3"
    with app_client(db) as client:
        made = new_table(client, HAYDES)
        play_first(client, made)
    # As if the rules had changed since: the stored start names another rules version.
    with sqlite3.connect(db) as connection:
        (start,) = connection.execute(
            "SELECT start FROM tables WHERE id = ?", (made["table"],)
        ).fetchone()
        data = json.loads(start)
        record = json.loads(data["record"])
        record["rules_version"] = "0"
        data["record"] = json.dumps(record)
        connection.execute(
            "UPDATE tables SET start = ? WHERE id = ?", (json.dumps(data), made["table"])
        )
    with app_client(db) as client:
        answer = client.get(
            f"/api/tables/{made['table']}/view",
            params={"seat": 0, "token": made["seats"][0]["token"]},
        )
        assert answer.status_code == 410
        assert "can no longer be played" in answer.json()["error"]
        page = client.get(f"/table/{made['table']}")
        assert page.status_code == 410
        assert page.headers["content-type"].startswith("text/html")


def test_seats_shown_the_same_state_share_one_drawing() -> None:
    with app_client() as client:
        made = new_table(client, HAYDES)
        play_first(client, made)
        table = client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]
        pictures = [view(client, made, seat)["board"] for seat in (0, 1, None)]
        # Nobody holds private cards in Escape from Haydes: one picture for all three.
        assert pictures[0] == pictures[1] == pictures[2]
        # Drawn once: the three viewers are given the one picture drawn.
        drawn = [table.board(seat) for seat in (0, 1, None)]
        assert drawn[0] is drawn[1] is drawn[2]
        mapless = new_table(client, {"game": "mapless-house", "seed": 2})
        assert view(client, mapless, 0)["board"] != pictures[0]


def test_a_change_the_database_refuses_is_not_kept(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "s.sqlite3")
    with app_client(storage) as client:
        made = new_table(client, HAYDES)
        play_first(client, made)
        before = view(client, made, 0)
        failing = storage.save

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise cardcrawl.web.StorageError("the disk is full")

        token = made["seats"][0]["token"]
        address = f"/ws/tables/{made['table']}?seat=0&token={token}"
        with client.websocket_connect(address, headers=HOST) as live:
            assert live.receive_json()["version"] == before["version"]
            storage.save = refuse  # type: ignore[method-assign]
            seat = before["current"]
            legal = view(client, made, seat)["legal"]
            answer = post(
                client, made, "act", seat, action=legal[0]["text"], version=before["version"]
            )
            assert answer.status_code == 503
            assert "disk is full" in answer.json()["error"]
            # The page's socket is closed, for the page to connect again.
            with pytest.raises(WebSocketDisconnect) as closed:
                live.receive_json()
            assert closed.value.code == 1012
        storage.save = failing  # type: ignore[method-assign]
        # The table is what was stored last.
        assert view(client, made, 0) == before
