"""The web application: pages, a JSON API and a websocket per seat, on Starlette.

Every answer to a bad request is JSON ``{"error": "..."}`` with a 4xx status, made
before anything changes: an unknown table or route (404), malformed JSON or fields
(400), a wrong seat token (403), an action out of turn or an undo that fair undo
refuses (409), a body too large (413) or not JSON (415), an illegal action or options
the game refuses (422). An unexpected failure is a 500 with a sentence, never a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcrawl._version import __version__
from cardcrawl.core._registry import PluginError, game_names
from cardcrawl.web._tables import (
    MAX_RECORD_CHARS,
    RequestError,
    Table,
    Tables,
    _bots_for,
    game_summary,
    match_of,
    parse_json,
)

__all__ = ["build_app"]

# A record is the largest body the API takes; a little room for the JSON around it.
_MAX_BODY = MAX_RECORD_CHARS * 4 + 10_000
_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
_PAGES = ("index.html", "table.html")
# The page may run its own script and style and talk to this server, nothing else.
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

Endpoint = Callable[[Request], Awaitable[Response]]


def _asset(name: str) -> str:
    return resources.files("cardcrawl.web").joinpath("static").joinpath(name).read_text("utf-8")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _answers(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` with its :class:`RequestError` turned into a JSON 4xx answer."""

    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except RequestError as exc:
            return _error(exc.status, str(exc))

    wrapped.__name__ = endpoint.__name__
    return wrapped


async def _json_body(request: Request) -> Any:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(
            status=415, message="send the request body as JSON (Content-Type: application/json)"
        )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > _MAX_BODY:
        raise RequestError(status=413, message=f"the request body is larger than {_MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > _MAX_BODY:
            raise RequestError(
                status=413, message=f"the request body is larger than {_MAX_BODY} bytes"
            )
    data = parse_json(bytes(body))
    if not isinstance(data, dict):
        raise RequestError(status=400, message="the request body is a JSON object")
    return data


def build_app(
    tables: Tables, *, allowed_hosts: Sequence[str] | None = None, debug: bool = False
) -> Starlette:
    """The Starlette application serving ``tables`` (see :func:`cardcrawl.web.create_app`)."""
    pages = {name: _asset(name) for name in _PAGES}
    static = {name: _asset(name) for name in _STATIC}

    def page(name: str) -> HTMLResponse:
        return HTMLResponse(
            pages[name].replace("{{version}}", __version__),
            headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-store"},
        )

    async def index(request: Request) -> Response:
        return page("index.html")

    async def table_page(request: Request) -> Response:
        tables.get(request.path_params["table"])
        return page("table.html")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise RequestError(status=404, message=f"no file {name!r} here")
        return Response(static[name], media_type=_STATIC[name])

    async def games(request: Request) -> Response:
        try:
            names = game_names()
        except PluginError as exc:
            raise RequestError(status=422, message=str(exc)) from None
        return JSONResponse({"version": __version__, "games": [game_summary(n) for n in names]})

    async def check(request: Request) -> Response:
        data = await _json_body(request)
        match = match_of({**data, "seed": 0} if "record" not in data else data)
        game = match.game
        return JSONResponse(
            {
                "game": game.name,
                "players": game.num_players,
                "bots": list(_bots_for(game)),
                "over": bool(game.is_terminal(match.state)),
            }
        )

    async def create(request: Request) -> Response:
        data = await _json_body(request)
        table = tables.create(data)
        tables.kick(table)
        return JSONResponse(
            {
                "table": table.id,
                "game": table.game.name,
                "url": f"/table/{table.id}",
                "seats": [
                    {"seat": s.number, "player": s.player, "token": s.token} for s in table.seats
                ],
            },
            status_code=201,
        )

    def _seat_of_query(request: Request) -> tuple[Table, int]:
        table = tables.get(request.path_params["table"])
        seat = table.seat(request.query_params.get("seat"), request.query_params.get("token"))
        return table, seat.number

    async def view(request: Request) -> Response:
        table, seat = _seat_of_query(request)
        async with table.lock:
            return JSONResponse(table.view(seat))

    async def act(request: Request) -> Response:
        table = tables.get(request.path_params["table"])
        data = await _json_body(request)
        seat = table.seat(data.get("seat"), data.get("token"))
        async with table.lock:
            table.act(seat, data.get("action"))
            answer = table.view(seat.number)
        tables.kick(table)
        return JSONResponse(answer)

    async def undo(request: Request) -> Response:
        table = tables.get(request.path_params["table"])
        data = await _json_body(request)
        seat = table.seat(data.get("seat"), data.get("token"))
        async with table.lock:
            table.undo(seat)
            answer = table.view(seat.number)
        tables.kick(table)
        return JSONResponse(answer)

    async def record(request: Request) -> Response:
        table, _ = _seat_of_query(request)
        async with table.lock:
            text = table.record_json()
        name = f"{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(request: Request) -> Response:
        table, _ = _seat_of_query(request)
        async with table.lock:
            text = table.replay_html()
        # The replay is a page of its own, with its script inline.
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    async def live(websocket: WebSocket) -> None:
        try:
            table = tables.get(websocket.path_params["table"])
            seat = table.seat(
                websocket.query_params.get("seat"), websocket.query_params.get("token")
            )
        except RequestError as exc:
            # Refused before the handshake: the browser sees an HTTP 403.
            await websocket.close(code=4000 + exc.status, reason=str(exc)[:120])
            return
        await websocket.accept()
        queue = table.listen()
        receiving: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
        try:
            while True:
                async with table.lock:
                    message = table.view(seat.number)
                await websocket.send_json(message)
                waiting = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait(
                    {receiving, waiting}, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving in done:
                    # The page sends nothing but may close: then stop.
                    if receiving.result().get("type") == "websocket.disconnect":
                        waiting.cancel()
                        return
                    receiving = asyncio.ensure_future(websocket.receive())
                    if waiting not in done:
                        waiting.cancel()
                        continue
                while not queue.empty():  # several changes at once: one view says them all
                    queue.get_nowait()
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            receiving.cancel()
            table.forget(queue)

    async def not_found(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            detail = exc.detail if exc.status_code != 404 else f"no page {request.url.path!r}"
            return _error(exc.status_code, str(detail))
        return _error(500, "internal error")  # pragma: no cover

    async def failure(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error: {type(exc).__name__}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await tables.close()

    routes = [
        Route("/", _answers(index)),
        Route("/table/{table}", _answers(table_page)),
        Route("/table/{table}/replay", _answers(replay)),
        Route("/static/{name}", _answers(asset)),
        Route("/api/games", _answers(games)),
        Route("/api/check", _answers(check), methods=["POST"]),
        Route("/api/tables", _answers(create), methods=["POST"]),
        Route("/api/tables/{table}/view", _answers(view)),
        Route("/api/tables/{table}/act", _answers(act), methods=["POST"]),
        Route("/api/tables/{table}/undo", _answers(undo), methods=["POST"]),
        Route("/api/tables/{table}/record", _answers(record)),
        WebSocketRoute("/ws/tables/{table}", live),
    ]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(
        debug=debug,
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: not_found, Exception: failure},
        lifespan=lifespan,
    )
    # The tables, for a program that serves the app and wants to look at them.
    app.state.tables = tables
    return app
