"""``cardcrawl serve``: a local web app to play any registered game in a browser.

Every game and variant in the registry plays, user games included: the page is
written against the :class:`~cardcrawl.Game` protocol. Each seat is a person or any
bot that plays the game. People share one browser (hot seat) or each open their own
seat's address, in as many browsers; each seat sees only what its observation holds
(see :mod:`cardcrawl.web._tables`). The board is the game's SVG picture
(:func:`cardcrawl.svg`) with the legal actions highlighted and clickable, undo shows
when fair undo allows it, events are told as they happen and bots move at a readable
pace. A table starts from a game, its options and a seed, or from a record; once the
game is over its record can be saved and its replay opened.

Tables last: each is stored as it is played (SQLite by default, see
:class:`SqliteStorage`), so that a restarted server serves every table, seat link and
spectator link again at the same step. A spectator link shows the public view, the
start page lists the tables with a free seat, and a person may ask the others to
accept a take-back.

It needs the ``web`` extra (Starlette, uvicorn and websockets), which the core never
imports: ``pip install 'cardcrawl[web]'``. Without it, importing this module raises
:class:`~cardcrawl.errors.MissingExtraError`.

Examples:
    >>> from starlette.testclient import TestClient
    >>> from cardcrawl.web import create_app
    >>> client = TestClient(create_app(bot_delay=0), base_url="http://127.0.0.1")
    >>> made = client.post("/api/tables", json={"game": "mapless-house", "seed": 3}).json()
    >>> seat = made["seats"][0]
    >>> view = client.get(f"/api/tables/{made['table']}/view",
    ...                   params={"seat": 0, "token": seat["token"]}).json()
    >>> view["legal"][0]["text"], view["board"]["svg"].startswith("<svg")
    ('place -1,0', True)
    >>> answer = client.post(f"/api/tables/{made['table']}/act", json={
    ...     "seat": 0, "token": seat["token"], "action": "place -1,0", "version": 0})
    >>> answer.json()["version"]
    1
    >>> client.post(f"/api/tables/{made['table']}/act", json={  # the same request again
    ...     "seat": 0, "token": seat["token"], "action": "place -1,0", "version": 0}).status_code
    409
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardcrawl.errors import MissingExtraError, OptionsError

_HINT = "cardcrawl serve needs the web extra: pip install 'cardcrawl[web]'"

try:
    import starlette  # noqa: F401  (only to tell a missing extra by its name)
except ImportError as exc:
    raise MissingExtraError(f"{_HINT} (missing: {exc.name})", name=exc.name) from None

# After the check above, so that a missing extra is told as such.
from cardcrawl.web._errors import RequestError, StorageError  # noqa: E402
from cardcrawl.web._routes import build_app  # noqa: E402
from cardcrawl.web._storage import (  # noqa: E402
    SqliteStorage,
    Step,
    Storage,
    StoredTable,
    default_db_path,
)
from cardcrawl.web._tables import (  # noqa: E402
    DEFAULT_EXPIRE_SECONDS,
    DEFAULT_MAX_TABLES,
    PERSON,
    Tables,
)

__all__ = [
    "DEFAULT_EXPIRE_SECONDS",
    "DEFAULT_HOST",
    "DEFAULT_MAX_TABLES",
    "DEFAULT_PORT",
    "PERSON",
    "RequestError",
    "SqliteStorage",
    "Step",
    "Storage",
    "StorageError",
    "StoredTable",
    "create_app",
    "default_db_path",
    "serve",
]

#: Where the server listens unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"
#: The port the server listens on unless told otherwise.
DEFAULT_PORT = 8000
#: Seconds a bot waits before each move by default, so that people can follow it.
DEFAULT_BOT_DELAY = 0.8
_LOOPBACK = ("127.0.0.1", "localhost")


def create_app(
    *,
    bot_delay: float = DEFAULT_BOT_DELAY,
    records_dir: str | Path | None = None,
    allowed_hosts: list[str] | None = None,
    db: str | Path | Storage | None = None,
    max_tables: int = DEFAULT_MAX_TABLES,
    expire_after: float = DEFAULT_EXPIRE_SECONDS,
) -> Any:
    """The web application (an ASGI app, a Starlette instance) for any ASGI server.

    Args:
        bot_delay: seconds a bot waits before each move (0 in tests).
        records_dir: a folder where each finished game's record is written as
            ``GAME-TABLE.json``; ``None``: records are only offered for download.
        allowed_hosts: the host names a request may be addressed to (the ``Host``
            header), against DNS rebinding; default ``127.0.0.1`` and ``localhost``.
            ``["*"]`` allows any.
        db: where the tables are kept: an SQLite file (made if missing), any
            :class:`Storage`, or ``None`` for an SQLite database in memory, which the
            app loses when it stops (``cardcrawl serve`` gives
            :func:`default_db_path`).
        max_tables: the most tables not yet over; beyond, a new table is refused.
        expire_after: seconds after which a table nobody touched is removed.

    Returns:
        The application, with the tables the storage holds.

    Raises:
        OptionsError: ``bot_delay`` is negative or not a number, ``records_dir`` is
            not a folder, ``max_tables`` is not a positive integer or
            ``expire_after`` not a positive number of seconds.
        StorageError: the database cannot be opened.

    Examples:
        >>> from starlette.testclient import TestClient
        >>> client = TestClient(create_app(bot_delay=0), base_url="http://127.0.0.1")
        >>> answer = client.post("/api/tables", json={"game": "chess"})
        >>> answer.status_code, "'chess'" in answer.json()["error"]
        (404, True)
    """
    if (
        isinstance(bot_delay, bool)
        or not isinstance(bot_delay, (int, float))
        or not 0 <= bot_delay < 3600
    ):
        raise OptionsError(f"bot_delay is a number of seconds from 0 to 3600, not {bot_delay!r}")
    folder = None if records_dir is None else Path(records_dir)
    if folder is not None and not folder.is_dir():
        raise OptionsError(f"records_dir {str(folder)!r} is not a folder")
    if isinstance(max_tables, bool) or not isinstance(max_tables, int) or max_tables < 1:
        raise OptionsError(f"max_tables is a positive integer, not {max_tables!r}")
    if (
        isinstance(expire_after, bool)
        or not isinstance(expire_after, (int, float))
        or not 0 < expire_after < 1e10
    ):
        raise OptionsError(f"expire_after is a positive number of seconds, not {expire_after!r}")
    storage: Storage
    if db is None or isinstance(db, (str, Path)):
        storage = SqliteStorage(":memory:" if db is None else db)
    else:
        storage = db
    tables = Tables(
        bot_delay=float(bot_delay),
        records_dir=folder,
        storage=storage,
        max_tables=max_tables,
        expire_after=float(expire_after),
    )
    hosts = list(_LOOPBACK) if allowed_hosts is None else list(allowed_hosts)
    return build_app(tables, allowed_hosts=hosts)


def serve(
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    bot_delay: float = DEFAULT_BOT_DELAY,
    records_dir: str | Path | None = None,
    db: str | Path | None = None,
    max_tables: int = DEFAULT_MAX_TABLES,
    expire_after: float = DEFAULT_EXPIRE_SECONDS,
    log_level: str = "warning",
    ready: Callable[[str], object] | None = None,
) -> None:
    """Serve the app with uvicorn until interrupted (what ``cardcrawl serve`` runs).

    Args:
        host: the address to listen on; the default, ``127.0.0.1``, is reachable from
            this machine only.
        port: the TCP port (0: any free one).
        bot_delay: as for :func:`create_app`.
        records_dir: as for :func:`create_app`.
        db: the SQLite file of the tables (default :func:`default_db_path`).
        max_tables: as for :func:`create_app`.
        expire_after: as for :func:`create_app`.
        log_level: uvicorn's log level.
        ready: called with the address to open (``http://127.0.0.1:8000/``) once the
            port is bound, before the first request is served.

    Raises:
        MissingExtraError: uvicorn is not installed.
        OptionsError: as for :func:`create_app`.
        StorageError: the database cannot be opened.
        OSError: the address cannot be bound (say, the port is taken).

    Examples:
        >>> serve(bot_delay=-1)  # refused before anything listens
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: bot_delay is a number of seconds from 0 to 3600, not -1
    """
    try:
        import uvicorn  # put off: only serving needs it, not the app
    except ImportError as exc:
        raise MissingExtraError(f"{_HINT} (missing: {exc.name})", name=exc.name) from None
    hosts = None if host in _LOOPBACK else ["*"]
    app = create_app(
        bot_delay=bot_delay,
        records_dir=records_dir,
        allowed_hosts=hosts,
        db=default_db_path() if db is None else db,
        max_tables=max_tables,
        expire_after=expire_after,
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Bound here, not by uvicorn, so that port 0 can tell which port it got.
    listener = socket.create_server((host, port), family=family)
    # Answers go out at once: without this, a keep-alive connection waits some 40 ms
    # for each answer sent in two parts (asyncio sets it only on sockets it made).
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    shown = f"[{host}]" if ":" in host else host
    if ready is not None:
        ready(f"http://{shown}:{listener.getsockname()[1]}/")
    config = uvicorn.Config(app, log_level=log_level, ws="websockets-sansio")
    with listener:
        uvicorn.Server(config).run(sockets=[listener])
