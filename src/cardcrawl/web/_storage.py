"""Where the tables of a ``cardcrawl serve`` server are kept: one small interface, and
SQLite (the standard library's :mod:`sqlite3`) behind it.

A table is stored as it is played: its start (written once, when it is made) and its
steps, each change (an action, an undo, a take-back, a seat taken) written in one
transaction, so that a crash or a restart loses nothing. A server reads a table back
on its first request after a restart, and plays its steps again from the start.

What is stored never holds a seat's token, only its SHA-256 digest: the database
alone opens no seat. It does hold the seed, like a record does.

:class:`Storage` is the interface; a deployment may put another database behind it.
:class:`SqliteStorage` is the one that ships, and :func:`default_db_path` says where
``cardcrawl serve`` keeps its file unless ``--db`` names another.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from cardcrawl.web._errors import StorageError

__all__ = ["SqliteStorage", "Step", "Storage", "StoredTable", "default_db_path"]


@attrs.frozen
class Step:
    """One step of a stored table: the action's text and its comment (or ``None``).

    Examples:
        >>> from cardcrawl.web import Step
        >>> Step("place 1,0"), Step("end", "a note").comment
        (Step(action='place 1,0', comment=None), 'a note')
    """

    action: str
    comment: str | None = None


def _tuple_of_steps(steps: Iterable[Step]) -> tuple[Step, ...]:
    return tuple(steps)


@attrs.frozen
class StoredTable:
    """A table as it is stored.

    Attributes:
        id: the table's id.
        game: the registry name of its game (for the lobby; ``start`` says it too).
        start: what never changes once the table is made, as JSON-compatible data
            (the match's start, its seats and their bots).
        meta: what changes as it is played, as JSON-compatible data (the version,
            the seats taken, a take-back asked for).
        steps: every step from the start to the current state.
        listed: True while the lobby lists it (it has a seat free).
        over: True once the game has ended.
        touched: when it last changed, in seconds since the epoch.

    Examples:
        >>> from cardcrawl.web import Step, StoredTable
        >>> table = StoredTable("t1", "mapless-house", {}, {"version": 0}, [Step("place 1,0")])
        >>> table.steps, table.listed, table.over
        ((Step(action='place 1,0', comment=None),), False, False)
    """

    id: str
    game: str
    start: dict[str, Any]
    meta: dict[str, Any]
    steps: tuple[Step, ...] = attrs.field(converter=_tuple_of_steps)
    listed: bool = False
    over: bool = False
    touched: float = 0.0


class Storage(Protocol):
    """What a server needs of a database: make, change, read, list and expire tables.

    Each method is one transaction: it is done whole or not at all.
    :class:`SqliteStorage` is the one the server uses unless given another.

    Examples:
        >>> from cardcrawl.web import SqliteStorage, Storage
        >>> storage: Storage = SqliteStorage(":memory:")
        >>> storage.count_open(), storage.load("no such table")
        (0, None)
    """

    def create(self, table: StoredTable) -> None:
        """Store a new table, its steps included."""

    def save(
        self,
        table_id: str,
        *,
        keep: int,
        added: Sequence[Step],
        meta: dict[str, Any],
        listed: bool,
        over: bool,
    ) -> None:
        """Keep the first ``keep`` steps of the table, add ``added`` after them, and
        store its new ``meta``: one action, one undo or one take-back."""

    def load(self, table_id: str) -> StoredTable | None:
        """The table, or ``None`` when there is none by that id."""

    def listed(self, limit: int) -> list[StoredTable]:
        """The tables the lobby lists (without their steps), the newest first."""

    def count_open(self) -> int:
        """How many tables are not over."""

    def expire(self, before: float) -> list[str]:
        """Remove the tables untouched since ``before`` (seconds since the epoch);
        their ids."""

    def close(self) -> None:
        """Let the database go."""


def default_db_path() -> Path:
    """Where ``cardcrawl serve`` keeps its tables by default: ``tables.sqlite3`` in
    the user's data folder (``$XDG_DATA_HOME/cardcrawl``, else
    ``~/.local/share/cardcrawl``; ``%LOCALAPPDATA%\\cardcrawl`` on Windows).

    Examples:
        >>> default_db_path().name
        'tables.sqlite3'
    """
    if os.name == "nt":  # pragma: no cover - not tested on Windows
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        data = os.environ.get("XDG_DATA_HOME")
        base = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local/share"
    return base / "cardcrawl" / "tables.sqlite3"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    start TEXT NOT NULL,
    meta TEXT NOT NULL,
    listed INTEGER NOT NULL,
    over INTEGER NOT NULL,
    created REAL NOT NULL,
    touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    comment TEXT,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX IF NOT EXISTS tables_touched ON tables(touched);
"""


class SqliteStorage:
    """The tables in one SQLite file (or in memory, for ``":memory:"``).

    The file is in WAL mode with ``synchronous=NORMAL``: a change survives the server
    crashing or being stopped the moment it is answered; a power cut may lose the last
    changes, never corrupt the file.

    Args:
        path: the database file (made with its folder if missing), or ``":memory:"``.

    Raises:
        StorageError: the file cannot be opened or is not a database of tables.

    Examples:
        >>> storage = SqliteStorage(":memory:")
        >>> storage.create(StoredTable("t1", "mapless-house", {"a": 1}, {"version": 0},
        ...                            [Step("place 1,0")], listed=True))
        >>> storage.save("t1", keep=1, added=[Step("end", "a note")], meta={"version": 1},
        ...              listed=True, over=False)
        >>> [s.action for s in storage.load("t1").steps], storage.count_open()
        (['place 1,0', 'end'], 1)
        >>> [t.id for t in storage.listed(10)], storage.expire(time.time() + 1)
        (['t1'], ['t1'])
        >>> storage.load("t1") is None
        True
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # One connection, used by the event loop and by the threads that read a
            # table back; the lock keeps them one at a time.
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open the tables' database {self.path}: {exc}") from None
        self._lock = threading.Lock()

    def _run(self, work: Any) -> Any:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
            except sqlite3.Error as exc:
                raise StorageError(f"the tables' database {self.path} failed: {exc}") from None

    def create(self, table: StoredTable) -> None:
        """Store a new table (see :class:`Storage`)."""
        now = table.touched or time.time()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.game,
                    json.dumps(table.start),
                    json.dumps(table.meta),
                    int(table.listed),
                    int(table.over),
                    now,
                    now,
                ),
            )
            db.executemany(
                "INSERT INTO steps VALUES (?, ?, ?, ?)",
                [(table.id, n, s.action, s.comment) for n, s in enumerate(table.steps)],
            )

        self._run(work)

    def save(
        self,
        table_id: str,
        *,
        keep: int,
        added: Sequence[Step],
        meta: dict[str, Any],
        listed: bool,
        over: bool,
    ) -> None:
        """Change a stored table (see :class:`Storage`)."""

        def work(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM steps WHERE table_id = ? AND n >= ?", (table_id, keep))
            db.executemany(
                "INSERT INTO steps VALUES (?, ?, ?, ?)",
                [(table_id, keep + i, s.action, s.comment) for i, s in enumerate(added)],
            )
            db.execute(
                "UPDATE tables SET meta = ?, listed = ?, over = ?, touched = ? WHERE id = ?",
                (json.dumps(meta), int(listed), int(over), time.time(), table_id),
            )

        self._run(work)

    @staticmethod
    def _table(row: Any, steps: Sequence[Step] = ()) -> StoredTable:
        return StoredTable(
            id=row[0],
            game=row[1],
            start=json.loads(row[2]),
            meta=json.loads(row[3]),
            steps=steps,
            listed=bool(row[4]),
            over=bool(row[5]),
            touched=row[6],
        )

    _COLUMNS = "id, game, start, meta, listed, over, touched"

    def load(self, table_id: str) -> StoredTable | None:
        """The stored table (see :class:`Storage`)."""

        def work(db: sqlite3.Connection) -> StoredTable | None:
            row = db.execute(
                f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            steps = db.execute(
                "SELECT action, comment FROM steps WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            return self._table(row, [Step(a, c) for a, c in steps])

        result: StoredTable | None = self._run(work)
        return result

    def listed(self, limit: int) -> list[StoredTable]:
        """The tables the lobby lists (see :class:`Storage`)."""

        def work(db: sqlite3.Connection) -> list[StoredTable]:
            rows = db.execute(
                f"SELECT {self._COLUMNS} FROM tables WHERE listed = 1 AND over = 0 "
                "ORDER BY touched DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return [self._table(row) for row in rows]

        result: list[StoredTable] = self._run(work)
        return result

    def count_open(self) -> int:
        """How many tables are not over (see :class:`Storage`)."""
        result: int = self._run(
            lambda db: db.execute("SELECT count(*) FROM tables WHERE over = 0").fetchone()[0]
        )
        return result

    def expire(self, before: float) -> list[str]:
        """Remove the tables untouched since ``before`` (see :class:`Storage`)."""

        def work(db: sqlite3.Connection) -> list[str]:
            ids = [r[0] for r in db.execute("SELECT id FROM tables WHERE touched < ?", (before,))]
            db.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in ids])
            return ids

        result: list[str] = self._run(work)
        return result

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
