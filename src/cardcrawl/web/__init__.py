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
from cardcrawl.web._routes import build_app  # noqa: E402
from cardcrawl.web._tables import PERSON, Tables  # noqa: E402

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "PERSON", "create_app", "serve"]

#: Where the server listens unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Seconds a bot waits before each move by default, so that people can follow it.
DEFAULT_BOT_DELAY = 0.8
_LOOPBACK = ("127.0.0.1", "localhost")


def create_app(
    *,
    bot_delay: float = DEFAULT_BOT_DELAY,
    records_dir: str | Path | None = None,
    allowed_hosts: list[str] | None = None,
) -> Any:
    """The web application (an ASGI app, a Starlette instance) for any ASGI server.

    Args:
        bot_delay: seconds a bot waits before each move (0 in tests).
        records_dir: a folder where each finished game's record is written as
            ``GAME-TABLE.json``; ``None``: records are only offered for download.
        allowed_hosts: the host names a request may be addressed to (the ``Host``
            header), against DNS rebinding; default ``127.0.0.1`` and ``localhost``.
            ``["*"]`` allows any.

    Returns:
        The application, with no table yet.

    Raises:
        OptionsError: ``bot_delay`` is negative or not a number, or ``records_dir``
            is not a folder.

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
    tables = Tables(bot_delay=float(bot_delay), records_dir=folder)
    hosts = list(_LOOPBACK) if allowed_hosts is None else list(allowed_hosts)
    return build_app(tables, allowed_hosts=hosts)


def serve(
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    bot_delay: float = DEFAULT_BOT_DELAY,
    records_dir: str | Path | None = None,
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
        log_level: uvicorn's log level.
        ready: called with the address to open (``http://127.0.0.1:8000/``) once the
            port is bound, before the first request is served.

    Raises:
        MissingExtraError: uvicorn is not installed.
        OptionsError: as for :func:`create_app`.
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
    app = create_app(bot_delay=bot_delay, records_dir=records_dir, allowed_hosts=hosts)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Bound here, not by uvicorn, so that port 0 can tell which port it got.
    listener = socket.create_server((host, port), family=family)
    shown = f"[{host}]" if ":" in host else host
    if ready is not None:
        ready(f"http://{shown}:{listener.getsockname()[1]}/")
    config = uvicorn.Config(app, log_level=log_level, ws="websockets-sansio")
    with listener:
        uvicorn.Server(config).run(sockets=[listener])
