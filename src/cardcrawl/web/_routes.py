"""The web application: pages, a JSON API and a websocket per seat, on Starlette.

Every answer to a bad request is JSON ``{"error": "..."}`` with a 4xx status, made
before anything changes: an unknown table or route (404), malformed JSON or fields
(400; a seat, a version or a seed is a JSON integer or text of ASCII digits, nothing
else), a wrong seat or spectator token (403), an action out of turn, an undo that fair
undo refuses, or a change asked of a version the table has left (a repeated request:
409), a table stored but no longer playable (410), a body too large or a record of too
many actions (413) or not JSON (415), an illegal action or options the game refuses
(422), a server that holds its most tables (503). A page the browser opens (a table
that is not there) is answered with a page, not JSON. An unexpected failure is a 500
with a sentence, never a traceback.

A websocket whose page comes from another site (its ``Origin`` is not this server's
address) is refused before the handshake, with close code 4403.

**What a websocket sends.** The first message is the whole view; each next one says
what changed: the picture as a patch of the last one sent (``board.patch``: runs of the
old picture's pieces, cut at each ``>``, and new pieces), and the story from the first
step that changed (``log_from``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcrawl._version import __version__
from cardcrawl.core._registry import PluginError, game_names, load
from cardcrawl.errors import CardcrawlError
from cardcrawl.web._errors import RequestError, StorageError
from cardcrawl.web._tables import (
    GONE,
    MAX_RECORD_CHARS,
    Table,
    Tables,
    _bots_for,
    game_summary,
    parse_json,
    rules_of,
    title_of,
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
    """``endpoint`` with its :class:`RequestError` turned into a JSON 4xx answer, and
    a failing database into a 503."""

    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except RequestError as exc:
            return _error(exc.status, str(exc))
        except StorageError as exc:
            return _error(503, str(exc))

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


def svg_patch(old: Sequence[str], new: Sequence[str]) -> list[Any]:
    """How to make the pieces ``new`` from the pieces ``old``: ``[start, count]`` copies
    a run of old pieces, text adds new pieces (joined by ``>``).

    Examples:
        >>> svg_patch(["<a", "<b", "<c"], ["<a", "<x", "<b", "<c"])
        [[0, 1], '<x', [1, 2]]
        >>> svg_patch(["<a", "<b", "<c", "<d"], ["<a", "<x", "<y", "<d", "<b"])
        [[0, 1], '<x><y', [3, 1], [1, 1]]
    """
    # Where each piece first is (the dictionary is built from the end, so the first
    # place wins).
    first = dict(zip(reversed(old), range(len(old) - 1, -1, -1), strict=True))
    ops: list[Any] = []
    fresh: list[str] = []
    at, end, size, follow = 0, len(new), len(old), 0
    while at < end:
        piece = new[at]
        # A picture changes in place: after new pieces, the old ones go on as many
        # pieces further (pieces replaced) or where they stopped (pieces added); a
        # piece found neither way is looked for where it first is.
        begin = follow + len(fresh)
        if begin >= size or old[begin] != piece:
            begin = follow
            if begin >= size or old[begin] != piece:
                begin = first.get(piece, -1)
                if begin < 0:
                    fresh.append(piece)
                    at += 1
                    continue
        length, longest = 1, min(size - begin, end - at)
        while length < longest and old[begin + length] == new[at + length]:
            length += 1
        if fresh:
            ops.append(">".join(fresh))
            fresh = []
        ops.append([begin, length])
        at += length
        follow = begin + length
    if fresh:
        ops.append(">".join(fresh))
    return ops


class _Sent:
    """What one websocket has sent: the picture's pieces and the story's steps."""

    def __init__(self) -> None:
        self.pieces: list[str] | None = None
        self.log: list[Any] = []

    def message(self, view: dict[str, Any]) -> dict[str, Any]:
        board = view.get("board") or {}
        svg = board.get("svg")
        if svg is not None:
            pieces = svg.split(">")
            if self.pieces is not None:
                view["board"] = {"patch": svg_patch(self.pieces, pieces)}
            self.pieces = pieces
        log = view["log"]
        same = 0
        while same < len(log) and same < len(self.log) and log[same] == self.log[same]:
            same += 1
        self.log = log
        view["log_from"] = same
        view["log"] = log[same:]
        return view


def _same_origin(origin: str | None, host: str | None) -> bool:
    if origin is None:
        return True  # not a browser: no page of another site is asking
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def _page(title: str, text: str, *, status: int = 200, preformatted: bool = False) -> HTMLResponse:
    body = f"<pre>{html.escape(text)}</pre>" if preformatted else f"<p>{html.escape(text)}</p>"
    return HTMLResponse(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} · cardcrawl</title>"
        '<link rel="stylesheet" href="/static/style.css"></head>'
        f'<body class="plain"><header><h1>{html.escape(title)}</h1></header>'
        f'<main>{body}<p><a href="/">The start page</a></p></main></body></html>',
        status_code=status,
        headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-store"},
    )


def build_app(
    tables: Tables, *, allowed_hosts: Sequence[str] | None = None, debug: bool = False
) -> Starlette:
    """The Starlette application serving ``tables`` (see :func:`cardcrawl.web.create_app`)."""
    endpoints = _Endpoints(tables)
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await tables.close()

    app = Starlette(
        debug=debug,
        routes=endpoints.routes(),
        middleware=middleware,
        exception_handlers={HTTPException: _not_found, Exception: _failure},
        lifespan=lifespan,
    )
    # The tables, for a program that serves the app and wants to look at them.
    app.state.tables = tables
    return app


async def _not_found(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        detail = exc.detail if exc.status_code != 404 else f"no page {request.url.path!r}"
        return _error(exc.status_code, str(detail))
    return _error(500, "internal error")  # pragma: no cover


async def _failure(request: Request, exc: Exception) -> Response:
    return _error(500, f"internal error: {type(exc).__name__}")


class _Endpoints:
    """The app's pages, API and websocket, over one set of tables: one method a route."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.pages = {name: _asset(name) for name in _PAGES}
        self.static = {name: _asset(name) for name in _STATIC}

    def routes(self) -> list[BaseRoute]:
        """Each route with its endpoint; a request's refusal answers as JSON."""
        post = ["POST"]
        return [
            Route("/", _answers(self.index)),
            Route("/table/{table}", _answers(self.table_page)),
            Route("/table/{table}/replay", _answers(self.replay)),
            Route("/rules/{game}", _answers(self.rules)),
            Route("/static/{name}", _answers(self.asset)),
            Route("/api/games", _answers(self.games)),
            Route("/api/check", _answers(self.check), methods=post),
            Route("/api/tables", _answers(self.create), methods=post),
            Route("/api/tables", _answers(self.lobby), methods=["GET"]),
            Route("/api/tables/{table}/view", _answers(self.view)),
            Route("/api/tables/{table}/join", _answers(self.join), methods=post),
            Route("/api/tables/{table}/act", _answers(self.changing(_act)), methods=post),
            Route("/api/tables/{table}/undo", _answers(self.changing(_undo)), methods=post),
            Route(
                "/api/tables/{table}/takeback",
                _answers(self.changing(_take_back)),
                methods=post,
            ),
            Route("/api/tables/{table}/record", _answers(self.record)),
            WebSocketRoute("/ws/tables/{table}", self.live),
        ]

    def page(self, name: str) -> HTMLResponse:
        return HTMLResponse(
            self.pages[name].replace("{{version}}", __version__),
            headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-store"},
        )

    async def index(self, request: Request) -> Response:
        return self.page("index.html")

    async def table_page(self, request: Request) -> Response:
        try:
            await self.tables.fetch(request.path_params["table"])
        except RequestError as exc:
            return _page("No such table", str(exc), status=exc.status)
        return self.page("table.html")

    async def rules(self, request: Request) -> Response:
        name = request.path_params["game"]
        try:
            game = load(name) if name in game_names() else None
        except (CardcrawlError, TypeError, ValueError):
            game = None
        text = rules_of(game) if game is not None else ""
        if not text:
            return _page("No rules here", f"no rules in short for {name[:60]!r}", status=404)
        return _page(f"{title_of(game)}: the rules in short", text, preformatted=True)

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.static:
            raise RequestError(status=404, message=f"no file {name!r} here")
        return Response(self.static[name], media_type=_STATIC[name])

    async def games(self, request: Request) -> Response:
        try:
            names = game_names()
        except PluginError as exc:
            raise RequestError(status=422, message=str(exc)) from None
        return JSONResponse({"version": __version__, "games": [game_summary(n) for n in names]})

    async def check(self, request: Request) -> Response:
        data = await _json_body(request)
        checking = {**data, "seed": 0} if "record" not in data else data
        match = await self.tables.match_async(checking)
        game = match.game
        return JSONResponse(
            {
                "game": game.name,
                "title": title_of(game),
                "players": game.num_players,
                "bots": list(_bots_for(game)),
                "over": bool(game.is_terminal(match.state)),
            }
        )

    async def create(self, request: Request) -> Response:
        data = await _json_body(request)
        table = await self.tables.create_async(data)
        self.tables.kick(table)
        return JSONResponse(
            {
                "table": table.id,
                "game": table.game.name,
                "title": title_of(table.game),
                "url": f"/table/{table.id}",
                "watch": table.watch,
                "seats": [
                    {"seat": s.number, "player": s.player, "token": s.token} for s in table.seats
                ],
            },
            status_code=201,
        )

    async def lobby(self, request: Request) -> Response:
        return JSONResponse({"tables": self.tables.lobby()})

    async def join(self, request: Request) -> Response:
        table = await self.tables.fetch(request.path_params["table"])
        data = await _json_body(request)
        async with table.lock:
            token = table.take_seat(data.get("seat"))
            number = int(data["seat"])
        return JSONResponse(
            {"table": table.id, "seat": number, "token": token, "url": f"/table/{table.id}"}
        )

    async def viewer(self, request: Request) -> tuple[Table, int | None]:
        table = await self.tables.fetch(request.path_params["table"])
        return table, table.viewer(request.query_params)

    async def view(self, request: Request) -> Response:
        table, seat = await self.viewer(request)
        async with table.lock:
            return JSONResponse(table.view(seat))

    def changing(self, change: Callable[[Table, Any, dict[str, Any]], None]) -> Endpoint:
        """The endpoint of a seat's change to a table: ``change(table, seat, data)``."""

        async def endpoint(request: Request) -> Response:
            table = await self.tables.fetch(request.path_params["table"])
            data = await _json_body(request)
            seat = table.seat(data.get("seat"), data.get("token"))
            async with table.lock:
                change(table, seat, data)
                # The picture comes by the websocket: the answer stays small.
                answer = table.view(seat.number, board=False)
            self.tables.kick(table)
            return JSONResponse(answer)

        endpoint.__name__ = change.__name__
        return endpoint

    async def record(self, request: Request) -> Response:
        table, _ = await self.viewer(request)
        async with table.lock:
            text = await asyncio.to_thread(table.record_json)
        name = f"{table.game.name}-{table.id}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(self, request: Request) -> Response:
        table, _ = await self.viewer(request)
        async with table.lock:
            text = await asyncio.to_thread(table.replay_html)
        # The replay is a page of its own, with its script inline.
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    async def live(self, websocket: WebSocket) -> None:
        """Follow a table: its whole view first, then what changed at each change."""
        opened = await self.open_live(websocket)
        if opened is None:
            return
        table, seat = opened
        queue = table.listen()
        try:
            await _follow(websocket, table, seat, queue)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            table.forget(queue)

    async def open_live(self, websocket: WebSocket) -> tuple[Table, int | None] | None:
        """The table and seat a websocket follows, accepted; or ``None``, refused."""
        try:
            if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
                raise RequestError(
                    status=403, message="a page of another site may not follow a table"
                )
            table = await self.tables.fetch(websocket.path_params["table"])
            seat = table.viewer(websocket.query_params)
        except (RequestError, StorageError) as exc:
            # Refused before the handshake: the browser sees an HTTP 403.
            status = exc.status if isinstance(exc, RequestError) else 503
            await websocket.close(code=4000 + status, reason=str(exc)[:120])
            return None
        await websocket.accept()
        return table, seat


def _act(table: Table, seat: Any, data: dict[str, Any]) -> None:
    table.act(seat, data.get("action"), data.get("version"))


def _undo(table: Table, seat: Any, data: dict[str, Any]) -> None:
    table.undo(seat, data.get("version"))


def _take_back(table: Table, seat: Any, data: dict[str, Any]) -> None:
    table.take_back(seat, data.get("answer"), data.get("version"))


async def _follow(
    websocket: WebSocket,
    table: Table,
    seat: int | None,
    queue: asyncio.Queue[Any],
) -> None:
    """Send the view of ``seat`` at each change of ``table``, until the page closes or
    the table is gone."""
    sent = _Sent()
    receiving: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
    try:
        while True:
            async with table.lock:
                message = sent.message(table.view(seat))
            await websocket.send_json(message)
            waiting = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({receiving, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                # The page sends nothing but may close: then stop.
                if receiving.result().get("type") == "websocket.disconnect":
                    waiting.cancel()
                    return
                receiving = asyncio.ensure_future(websocket.receive())
                if waiting not in done:
                    waiting.cancel()
                    continue
            told = [waiting.result()]
            while not queue.empty():  # several changes at once: one view says them all
                told.append(queue.get_nowait())
            if GONE in told:
                await websocket.close(code=1012)  # the page connects again
                return
    finally:
        receiving.cancel()
