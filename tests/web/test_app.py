"""The web app through Starlette's TestClient: its API, its answers to bad requests, its
bots, records and replays, and that no seat is ever sent what it may not know."""

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
from cardcrawl.cli._main import main
from cardcrawl.web import create_app
from conftest import leaks, never_shown_cards, secret_numbers

MAPLESS = {"game": "mapless-house", "options": {"max_turns": 3}, "seed": 11}
JSON = {"content-type": "application/json"}
HAYDES = {
    "game": "escape-from-haydes",
    "options": {"players": 2, "max_rounds": 2},
    "seed": 4,
    "seats": ["person", "person"],
}


def new_table(client: TestClient, request: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/tables", json=request)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def view_of(client: TestClient, made: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    token = made["seats"][seat]["token"]
    answer = client.get(f"/api/tables/{made['table']}/view", params={"seat": seat, "token": token})
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def act(
    client: TestClient, made: dict[str, Any], seat: int, action: Any, version: Any = None
) -> Any:
    """Play ``action``; on the table's current version unless ``version`` is given."""
    token = made["seats"][seat]["token"]
    if version is None:
        version = the_table(client, made).version
    return client.post(
        f"/api/tables/{made['table']}/act",
        json={"seat": seat, "token": token, "action": action, "version": version},
    )


def wait_until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def the_table(client: TestClient, made: dict[str, Any]) -> Any:
    return client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]


# ------------------------------------------------------------ playing
def test_a_whole_mapless_game_through_the_api(client: TestClient) -> None:
    made = new_table(client, MAPLESS)
    assert [s["player"] for s in made["seats"]] == ["person"]
    game = cardcrawl.load("mapless-house", max_turns=3)
    match = Match.start(game, MAPLESS["seed"])
    view = view_of(client, made)
    while not view["over"]:
        legal = [a["text"] for a in view["legal"]]
        assert legal == [game.format_action(a) for a in game.legal_actions(match.state)]
        assert view["status"] == game.describe(match.state)
        match.play(legal[0])
        answer = act(client, made, 0, legal[0])
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["log"][-1]["events"] == [str(e) for e in match.state.events]
    assert view["outcome"]["label"] == game.outcome(match.state).label
    assert view["status"].startswith("Game over: ")
    assert [e["action"] for e in view["log"]] == [game.format_action(a) for a in match.actions]
    # The record and the replay, once it is over.
    token = made["seats"][0]["token"]
    record = client.get(f"/api/tables/{made['table']}/record", params={"seat": 0, "token": token})
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    saved = Record.from_json(record.text)
    assert saved.verified
    assert Match.from_record(saved).state == match.state
    replay = client.get(f"/table/{made['table']}/replay", params={"seat": 0, "token": token})
    assert replay.status_code == 200
    assert replay.text == match.to_html()


def test_every_seat_sees_its_own_view_and_only_the_seat_to_move_acts(client: TestClient) -> None:
    made = new_table(client, HAYDES)
    table = the_table(client, made)
    current = table.game.current_player(table.match.state)
    views = [view_of(client, made, seat) for seat in (0, 1)]
    assert [v["seat"] for v in views] == [0, 1]
    assert [bool(v["legal"]) for v in views] == [current == 0, current == 1]
    # The pictures are the same (nobody in Haydes holds private cards), the lists not.
    assert views[0]["board"] == views[1]["board"]
    assert all(a["cell"] is None or a["text"].endswith(a["cell"]) for a in views[current]["legal"])
    other = 1 - current
    before = table.match.state
    answer = act(client, made, other, views[current]["legal"][0]["text"])
    assert answer.status_code == 409
    assert "not seat" in answer.json()["error"]
    assert table.match.state is before


def test_bots_play_their_seats_to_the_end(client: TestClient, tmp_path: Path) -> None:
    made = new_table(
        client,
        {**HAYDES, "seats": ["heuristic", "random"], "options": {"players": 2, "max_rounds": 3}},
    )
    assert [s["player"] for s in made["seats"]] == ["heuristic", "random"]
    wait_until(lambda: view_of(client, made, 1)["over"])
    view = view_of(client, made, 0)
    assert view["legal"] == []
    assert {e["player"] for e in view["log"]} == {0, 1}
    table = the_table(client, made)
    assert view["outcome"]["label"] == table.game.outcome(table.match.state).label


def test_a_finished_game_is_saved_to_the_records_folder(tmp_path: Path) -> None:
    app = create_app(bot_delay=0, records_dir=tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = new_table(client, {**MAPLESS, "seats": ["heuristic"]})
        wait_until(lambda: view_of(client, made)["over"])
        view = view_of(client, made)
    path = tmp_path / f"mapless-house-{made['table']}.json"
    assert view["saved"] == path.name
    record = Record.load(path)
    assert [e["action"] for e in view["log"]] == list(record.actions)


def test_a_table_starts_from_a_record_and_plays_on(client: TestClient) -> None:
    game = cardcrawl.load("mapless-house", max_turns=3)
    match = Match.start(game, 5)
    for _ in range(4):
        match.play(game.legal_actions(match.state)[-1])
    made = new_table(client, {"record": match.to_record().to_json()})
    view = view_of(client, made)
    assert [e["action"] for e in view["log"]] == [game.format_action(a) for a in match.actions]
    assert [a["text"] for a in view["legal"]] == [
        game.format_action(a) for a in game.legal_actions(match.state)
    ]
    assert act(client, made, 0, view["legal"][0]["text"]).status_code == 200
    # A record that does not replay is refused.
    broken = json.loads(match.to_record().to_json())
    broken["actions"][1] = "place 9,9"
    answer = client.post("/api/tables", json={"record": json.dumps(broken)})
    assert answer.status_code == 422
    assert "cannot be played" in answer.json()["error"]


def test_fair_undo_is_offered_only_when_allowed(client: TestClient) -> None:
    made = new_table(client, {**MAPLESS, "options": {"max_turns": 30}})
    table = the_table(client, made)
    token = made["seats"][0]["token"]
    undo = f"/api/tables/{made['table']}/undo"
    view = view_of(client, made)
    assert view["undo"] is False
    # Placing a card draws the next one: that step may not be undone.
    view = act(client, made, 0, view["legal"][0]["text"]).json()
    assert view["undo"] is False
    refused = client.post(undo, json={"seat": 0, "token": token, "version": table.version})
    assert refused.status_code == 409
    assert "fair undo" in refused.json()["error"]
    # Choosing the Exit's cell reveals nothing: undo is offered and takes it back.
    while not view["legal"][0]["text"].startswith("exit"):
        view = act(client, made, 0, view["legal"][0]["text"]).json()
    before = table.match.state
    view = act(client, made, 0, view["legal"][0]["text"]).json()
    if view["undo"]:
        after = client.post(undo, json={"seat": 0, "token": token, "version": table.version})
        assert after.status_code == 200
        assert after.json()["undo"] is False
        assert table.match.state is before
        assert after.json()["log"] == view["log"][:-1]
    else:
        assert table.match.history[-1].revealed


def test_the_lobby_lists_every_game_with_its_bots(client: TestClient) -> None:
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert names == list(cardcrawl.game_names())
    mapless = next(g for g in data["games"] if g["name"] == "mapless-house")
    assert {"heuristic", "random"} <= set(mapless["bots"])
    assert "engine" not in mapless["bots"]  # it needs a command to run
    checked = client.post(
        "/api/check", json={"game": "escape-from-haydes", "options": HAYDES["options"]}
    )
    assert checked.json()["players"] == 2
    for page in ("/", f"/table/{new_table(client, MAPLESS)['table']}"):
        answer = client.get(page)
        assert answer.status_code == 200
        assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


# ------------------------------------------------------------ nothing hidden is sent
def texts_of_a_game(client: TestClient, request: dict[str, Any]) -> tuple[list[str], Any]:
    """Every body and websocket message one seat receives while playing a whole game,
    and the table."""
    made = new_table(client, request)
    received = [json.dumps(made)]
    token = made["seats"][0]["token"]
    table = the_table(client, made)
    address = f"/ws/tables/{made['table']}?seat=0&token={token}"
    # The test client names its host "testserver" in a handshake, whatever its base.
    with client.websocket_connect(address, headers={"host": "127.0.0.1"}) as live:
        view = live.receive_json()
        received.append(json.dumps(view))
        while not view["over"]:
            answer = act(client, made, 0, view["legal"][-1]["text"])
            received.append(answer.text)
            view = live.receive_json()
            while view["version"] < table.version:
                received.append(json.dumps(view))
                view = live.receive_json()
            received.append(json.dumps(view))
    return received, table


def test_no_face_down_card_or_generator_value_is_sent(client: TestClient) -> None:
    received, table = texts_of_a_game(client, {**MAPLESS, "seed": 21})
    game, states = table.game, table.match.states
    hidden = never_shown_cards(game, states)
    numbers = secret_numbers(states, 21)
    assert len(hidden) >= 10  # enough cards stayed in the decks for the search to mean much
    assert leaks(received, hidden, numbers) == []
    # The search finds them where they are: in the true states' own data.
    truth = [json.dumps(game.state_to_data(s)) for s in states]
    assert leaks(truth, hidden, numbers) != []


def test_a_seats_picture_does_not_depend_on_what_it_cannot_see() -> None:
    from cardcrawl.kit._svg import svg

    for name, options in (
        ("mapless-house", {"max_turns": 5}),
        ("escape-from-haydes", {"players": 2}),
    ):
        game = cardcrawl.load(name, **options)
        state = game.initial_state(seed=3)
        for _ in range(12):
            if game.is_terminal(state):
                break
            for seat in range(game.num_players):
                pictures = {svg(game, game.determinize(state, seat, s)).text for s in (0, 1, 99)}
                assert len(pictures) == 1
            state = game.step(state, game.legal_actions(state)[0])


# ------------------------------------------------------------ bad requests
def bad_requests(made: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], int]]:
    table, token = made["table"], made["seats"][0]["token"]
    other = made["seats"][1]["token"]
    act_path = f"/api/tables/{table}/act"
    v = 0  # the version of a new table
    return [
        ("GET", "/api/tables/nope/view", {"params": {"seat": 0, "token": token}}, 404),
        (
            "POST",
            "/api/tables/nope/act",
            {"json": {"seat": 0, "token": token, "action": "end", "version": v}},
            404,
        ),
        ("GET", f"/api/tables/{table}/view", {"params": {"seat": 0, "token": "wrong"}}, 403),
        ("GET", f"/api/tables/{table}/view", {"params": {"seat": 0, "token": other}}, 403),
        ("GET", f"/api/tables/{table}/view", {"params": {"seat": 7, "token": token}}, 404),
        ("GET", f"/api/tables/{table}/view", {"params": {"seat": "x", "token": token}}, 400),
        ("GET", f"/api/tables/{table}/view", {}, 400),
        (
            "POST",
            act_path,
            {"content": b"{oops", "headers": {"content-type": "application/json"}},
            400,
        ),
        (
            "POST",
            act_path,
            {"content": b"[1, 2]", "headers": {"content-type": "application/json"}},
            400,
        ),
        (
            "POST",
            act_path,
            {"content": b"\xff\xfe", "headers": {"content-type": "application/json"}},
            400,
        ),
        ("POST", act_path, {"data": {"seat": "0"}}, 415),
        (
            "POST",
            act_path,
            {"json": {"seat": 0, "token": "wrong", "action": "end", "version": v}},
            403,
        ),
        (
            "POST",
            act_path,
            {"json": {"seat": 0, "token": token, "action": "fly 1,2", "version": v}},
            422,
        ),
        (
            "POST",
            act_path,
            {"json": {"seat": 0, "token": token, "action": "higher 9,9", "version": v}},
            422,
        ),
        ("POST", act_path, {"json": {"seat": 0, "token": token, "action": 12, "version": v}}, 400),
        (
            "POST",
            act_path,
            {"json": {"seat": 0, "token": token, "action": "x" * 5000, "version": v}},
            400,
        ),
        ("POST", act_path, {"json": {"seat": 0, "token": token}}, 400),
        (
            "POST",
            f"/api/tables/{table}/undo",
            {"json": {"seat": 0, "token": token, "version": v}},
            409,
        ),
        ("GET", f"/api/tables/{table}/record", {"params": {"seat": 0, "token": token}}, 409),
        ("GET", f"/table/{table}/replay", {"params": {"seat": 0, "token": token}}, 409),
        ("GET", f"/api/tables/{table}/record", {"params": {"seat": 0, "token": "no"}}, 403),
        ("GET", "/table/nope", {}, 404),
        ("GET", "/static/../__init__.py", {}, 404),
        ("GET", "/static/secret.txt", {}, 404),
        ("GET", "/no/such/page", {}, 404),
        ("DELETE", act_path, {}, 405),
        ("POST", "/api/tables", {"json": {"game": "chess"}}, 404),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "options": {"colour": 1}}}, 422),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "options": [1]}}, 400),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "seed": -1}}, 422),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "seed": 2**64}}, 422),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "seats": ["person"] * 2}}, 422),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "seats": ["genius"]}}, 422),
        ("POST", "/api/tables", {"json": {"game": "mapless-house", "seats": "person"}}, 400),
        ("POST", "/api/tables", {"json": {"seed": 3}}, 400),
        ("POST", "/api/tables", {"json": {"record": "{not json"}}, 422),
        ("POST", "/api/tables", {"json": {"record": 5}}, 400),
        (
            "POST",
            "/api/check",
            {"json": {"game": "mapless-house", "options": {"max_turns": 0}}},
            422,
        ),
    ]


def test_bad_requests_get_a_clear_4xx_and_change_nothing(client: TestClient) -> None:
    made = new_table(client, HAYDES)
    table = the_table(client, made)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    count = len(tables)
    before = (table.match.state, table.version, len(table.match.history))
    view_before = view_of(client, made, 0)
    for method, path, arguments, status in bad_requests(made):
        answer = client.request(method, path, **arguments)
        assert answer.status_code == status, (method, path, arguments, answer.text)
        if answer.headers["content-type"].startswith("text/html"):
            # A page the browser opens is answered with a page that says why.
            assert path.startswith("/table/")
            message = answer.text.split("<p>")[1]
        else:
            message = answer.json()["error"]
        assert isinstance(message, str)
        assert len(message) > 5
        assert "Traceback" not in answer.text
        assert (table.match.state, table.version, len(table.match.history)) == before
    assert len(tables) == count
    assert view_of(client, made, 0) == view_before


def test_a_bad_host_a_big_body_and_a_bad_socket_are_refused(client: TestClient) -> None:
    made = new_table(client, HAYDES)
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    huge = b'{"record": "' + b"x" * 9_000_000 + b'"}'
    answer = client.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    address = f"/ws/tables/{made['table']}?seat=0&token=wrong"
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(address, headers={"host": "127.0.0.1"}),
    ):
        pass
    assert refused.value.code == 4403  # 4000 + the HTTP status


# ------------------------------------------------------------ the command
def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["serve", "--port", "-1"]) == 2
    assert main(["serve", "--bot-delay", "-2"]) == 2
    assert main(["serve", "--records", str(tmp_path / "missing")]) == 2
    assert main(["serve", "--expire-days", "0"]) == 2
    assert main(["serve", "--max-tables", "0"]) == 2
    # A database that cannot be opened is said before anything listens.
    assert main(["serve", "--db", str(tmp_path), "--port", "0"]) == 1
    err = capsys.readouterr().err
    for flag in ("--port", "--bot-delay", "--records", "--expire-days", "--max-tables"):
        assert flag in err


def test_create_app_refuses_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(cardcrawl.OptionsError, match="bot_delay"):
        create_app(bot_delay=-1)
    with pytest.raises(cardcrawl.OptionsError, match="records_dir"):
        create_app(records_dir=tmp_path / "missing")
    with pytest.raises(cardcrawl.OptionsError, match="max_tables"):
        create_app(max_tables=0)
    with pytest.raises(cardcrawl.OptionsError, match="expire_after"):
        create_app(expire_after=-1)
    (tmp_path / "folder.sqlite3").mkdir()
    with pytest.raises(cardcrawl.web.StorageError, match="cannot open"):
        create_app(db=tmp_path / "folder.sqlite3")
