"""Whatever a client sends for a seat, a version, a seed, an answer or an action, the app
answers with a 2xx or a 4xx and a sentence, never a 500, and no game is corrupted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from cardcrawl.web import create_app

# Values that read as numbers somewhere but not here, and ones that do not read at all.
_TRICKY = st.sampled_from(
    ["²", "٠", "０", "1e400", "-0", "+1", " 1", "1 ", "0x1", "9" * 5000, "", "NaN", "∞"]
)
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | _TRICKY,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0), base_url="http://127.0.0.1") as test_client:
        yield test_client


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    what=st.sampled_from(["act", "undo", "takeback", "join"]),
    seat=_VALUES,
    version=_VALUES,
    extra=_VALUES,
    use_token=st.booleans(),
)
def test_no_change_request_gets_a_500(
    client: TestClient, what: str, seat: Any, version: Any, extra: Any, use_token: bool
) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "escape-from-haydes", "options": {"players": 2}, "seed": 1, "open": [1]},
    ).json()
    table = client.app.state.tables.get(made["table"])  # type: ignore[attr-defined]
    before = (table.match.state, table.version)
    token = made["seats"][0]["token"] if use_token else extra
    body = {"seat": seat, "token": token, "version": version, "action": extra, "answer": extra}
    answer = client.post(f"/api/tables/{made['table']}/{what}", json=body)
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert len(answer.json()["error"]) > 5
        assert (table.match.state, table.version) == before


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(seed=_VALUES, seats=_VALUES, opened=_VALUES, options=_VALUES)
def test_no_new_table_gets_a_500(
    client: TestClient, seed: Any, seats: Any, opened: Any, options: Any
) -> None:
    body = {"game": "mapless-house", "seed": seed, "seats": seats, "open": opened}
    if isinstance(options, dict):
        body["options"] = options
    answer = client.post("/api/tables", json=body)
    assert answer.status_code < 500, answer.text


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(seat=st.text(max_size=6) | _TRICKY, token=st.text(max_size=6), watch=st.booleans())
def test_no_view_gets_a_500(client: TestClient, seat: str, token: str, watch: bool) -> None:
    made = client.post("/api/tables", json={"game": "mapless-house", "seed": 1}).json()
    params = {"watch": token} if watch else {"seat": seat, "token": token}
    for path in ("view", "record"):
        answer = client.get(f"/api/tables/{made['table']}/{path}", params=params)
        assert answer.status_code in (400, 403, 404, 409), answer.text
