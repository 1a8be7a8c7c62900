"""The tables of a ``cardcrawl serve`` server: matches with their seats, views and bots.

Nothing here knows HTTP: the routes (:mod:`cardcrawl.web._routes`) turn requests into
calls of :class:`Tables` and :class:`Table`, and a :class:`RequestError` into a 4xx
answer. Everything is written against the :class:`~cardcrawl.Game` protocol, so every
registered game and variant plays.

**What a seat is shown.** A seat's view is made from what that seat may know and
nothing else. Its picture, its status line and the legal-action highlights are drawn
from ``game.determinize(state, seat, seed)``: a state the seat cannot tell from the
true one, every hidden thing in it (deck order, face-down cards, the generator) drawn
afresh from a fixed seed, so the picture holds nothing the seat's observation does not
(a test draws it from two seeds and finds the same text). The narration is each
step's events as ``game.observe(step_state, seat)`` gives them, the legal actions are
listed only to the seat that chooses, and no view carries the seed, a generator value
or a record. The record and the replay (which hold the seed) are served once the game
is over, and undo stops there too, so that what they tell cannot be used at the table.

**What a spectator is shown.** The state determinized for every seat in turn, so that
whatever any seat cannot see is drawn afresh, and of each step's events those that
every seat observes: never more than any seat may know.

**Tables last.** Every table is stored as it is played (see
:mod:`cardcrawl.web._storage`): a restarted server reads it back on the first request
that names it, at the same step and version, with the same seat and spectator links.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import secrets
import time
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

import attrs

from cardcrawl.bots._base import bot_names, make_bot
from cardcrawl.core._notation import MAX_NOTATION
from cardcrawl.core._protocol import TERMINAL
from cardcrawl.core._registry import get_spec, load, tools_for
from cardcrawl.errors import CardcrawlError, UnknownGameError
from cardcrawl.kit._grid import cell_code
from cardcrawl.kit._svg import find_renderer
from cardcrawl.play._match import Match, MatchEntry
from cardcrawl.play._record import Record
from cardcrawl.web._errors import RequestError, StorageError
from cardcrawl.web._storage import SqliteStorage, Step, Storage, StoredTable

__all__ = ["PERSON", "RequestError", "Table", "Tables"]

_T = TypeVar("_T")

#: The player of a seat that a person plays, in a browser.
PERSON = "person"
#: What a table's listeners are told when that copy of the table is no more.
GONE = -1
# determinize() needs a seed for the hidden things it draws afresh; they are never
# shown, so any fixed seed will do, and a fixed one keeps the pictures stable.
_VIEW_SEED = 0
# The most a record sent to be played on may weigh, and the longest text of an action.
MAX_RECORD_CHARS = 2_000_000
_MAX_ACTION_CHARS = 200
#: The most steps a table holds, a record played on included: reading a table back
#: plays them all again, which must stay short.
MAX_STEPS = 5_000
# Digits of the longest seat, version and seed a request may write.
_SEAT_DIGITS = 4
_VERSION_DIGITS = 12
_SEED_DIGITS = 20
_ASCII_DIGITS = re.compile(r"[0-9]+")


# A page may not seat the "engine" bot: it runs a program, and a request must never
# name a program for the server to start.
_NOT_FROM_A_PAGE = frozenset({"engine"})


def ascii_int(value: Any, digits: int) -> int | None:
    """``value`` as an integer when it is a JSON integer (not a boolean) or text of
    1 to ``digits`` ASCII digits; ``None`` for anything else.

    Signs, spaces, fractions (``0.0``) and other scripts' digits (``"²"``, ``"٠"``)
    are refused, and so is text too long to be read at once.

    Examples:
        >>> ascii_int("07", 4), ascii_int(7, 4), ascii_int("٠", 4), ascii_int(0.0, 4)
        (7, 7, None, None)
        >>> ascii_int("9" * 5000, 20) is None
        True
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if (
        isinstance(value, str)
        and 0 < len(value) <= digits
        and value.isascii()
        and _ASCII_DIGITS.fullmatch(value)
    ):
        return int(value)
    return None


def _bots_for(game: Any) -> tuple[str, ...]:
    """The bots that can take a seat of ``game`` with no options of their own."""
    found = []
    for name in bot_names(game):
        if name in _NOT_FROM_A_PAGE:
            continue
        try:
            make_bot(name, game, seed=0, seat=0)
        except (CardcrawlError, TypeError, ValueError, OSError):
            continue  # such as "engine", which needs a command to run
        found.append(name)
    return tuple(found)


def _random_seed() -> int:
    return secrets.randbits(64)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def title_of(game: Any) -> str:
    """The name a person reads for ``game``: its title, else its registry name.

    Examples:
        >>> import cardcrawl
        >>> title_of(cardcrawl.load("mapless-house"))
        'The Mapless House'
    """
    return str(getattr(game, "title", "") or game.name)


def _option_kind(hint: Any) -> str:
    text = str(hint).replace("typing.", "")
    if text in ("int", "<class 'int'>"):
        return "int"
    if text in ("int | None", "Optional[int]", "Union[int, NoneType]"):
        return "optional-int"
    if text in ("bool", "<class 'bool'>"):
        return "bool"
    return "json"


def options_form(game: Any) -> list[dict[str, Any]]:
    """The fields of the form that sets ``game``'s options, read from its options
    class (an attrs class): each field's name, kind (``int``, ``optional-int``,
    ``bool`` or ``json``) and value now.

    Examples:
        >>> import cardcrawl
        >>> options_form(cardcrawl.load("mapless-house"))[0]
        {'name': 'max_turns', 'kind': 'optional-int', 'value': None}
    """
    cls = type(game.options)
    hints = typing.get_type_hints(cls)
    data = game.options.to_data()
    return [
        {"name": f.name, "kind": _option_kind(hints.get(f.name)), "value": data[f.name]}
        for f in attrs.fields(cls)
        if f.init and not f.name.startswith("_") and f.name in data
    ]


def rules_of(game: Any) -> str:
    """The rules in short of ``game`` (as ``cardcrawl play`` tells them), or ``""``."""
    terminal = tools_for(game).terminal
    return str(getattr(terminal, "rules", "") or "")


def game_summary(name: str) -> dict[str, Any]:
    """What the lobby shows of a registered game: its title, description, options
    (and the form that sets them), number of seats and bots.

    Examples:
        >>> summary = game_summary("mapless-house")
        >>> summary["players"], summary["title"]
        (1, 'The Mapless House')
    """
    spec = get_spec(name)
    game = load(name)
    title = title_of(game)
    description = spec.description or ""
    # A variant's description starts with its own name ("Escape from Haydes with the
    # Tuybe: ..."): that names it in the list of games.
    head = description.split(":")[0].strip()
    label = head if head.startswith(title) and len(head) <= 80 else title
    return {
        "name": name,
        "title": title,
        "label": label,
        "description": spec.description or "",
        "base": spec.base,
        "options": game.options.to_data(),
        "form": options_form(game),
        "players": game.num_players,
        "bots": list(_bots_for(game)),
        "picture": find_renderer(game) is not None,
        "rules": bool(rules_of(game)),
    }


def _error_text(exc: BaseException) -> str:
    text = str(exc.args[0]) if exc.args else str(exc)
    return text or type(exc).__name__


class Seat:
    """One seat of a table: who plays it, its token's digest, and its bot if any.

    The token itself is told once, to whoever makes the table or takes the seat; the
    table keeps its SHA-256 digest only. An open seat (listed in the lobby) has no
    token until someone takes it.
    """

    def __init__(
        self, number: int, player: str, bot: Any | None, *, bot_seed: int = 0, free: bool = False
    ) -> None:
        self.number = number
        self.player = player
        self.bot = bot
        self.bot_seed = bot_seed
        self.token: str | None = None
        self.digest: str | None = None
        if not free:
            self.new_token()

    def new_token(self) -> str:
        """Give the seat a new token (told once) and keep its digest."""
        self.token = secrets.token_urlsafe(16)
        self.digest = _digest(self.token)
        return self.token

    @property
    def is_person(self) -> bool:
        """True when a person plays the seat."""
        return self.bot is None

    @property
    def free(self) -> bool:
        """True while a person's seat waits for someone to take it from the lobby."""
        return self.digest is None

    def holds(self, token: Any) -> bool:
        """True when ``token`` is this seat's."""
        return (
            isinstance(token, str)
            and self.digest is not None
            and secrets.compare_digest(_digest(token), self.digest)
        )


def _start_record(match: Match[Any]) -> str:
    # The match's start without its actions: the steps are stored one by one.
    record = match.to_record()
    empty = attrs.evolve(record, actions=(), claims=None, seconds=(), comments={}, result=None)
    return empty.to_json()


def _match_at(start: str, steps: Sequence[Step]) -> Match[Any]:
    match = Match.from_record(Record.from_json(start))
    for step in steps:
        match.play(step.action, comment=step.comment)
    return match


class Table:
    """One match being played, its seats, its spectators and the browsers watching it.

    Every change (an action, an undo, a take-back, a seat taken) raises
    :attr:`version`, is stored, and wakes each listener (a websocket), which then
    sends its view.
    """

    def __init__(
        self,
        table_id: str,
        match: Match[Any],
        seats: Sequence[Seat],
        *,
        start: str,
        watch: str,
        storage: Storage,
        records_dir: Path | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.id = table_id
        self.match = match
        self.seats = tuple(seats)
        self.start = start
        self.watch = watch
        meta = dict(meta or {})
        self.version: int = int(meta.get("version", 0))
        self.takeback: dict[str, Any] | None = meta.get("takeback")
        self.note: str | None = meta.get("note")
        self.problem: str | None = meta.get("problem")
        self.lock = asyncio.Lock()
        self.saved: Path | None = None
        self._storage = storage
        self._records_dir = records_dir
        self._listeners: set[asyncio.Queue[int]] = set()
        self._told: dict[tuple[int, int | None], tuple[MatchEntry[Any], dict[str, Any]]] = {}
        # What a version shows (see _now): nothing changes the match but a new version.
        self._now: dict[tuple[str, int | None], Any] = {}
        self._now_version = -1
        self.bot_task: asyncio.Task[None] | None = None
        self.stale = False
        self._save_if_over()

    # ------------------------------------------------------------ storing
    def meta(self) -> dict[str, Any]:
        """What changes as the table is played, as JSON-compatible data."""
        return {
            "version": self.version,
            "digests": [s.digest for s in self.seats],
            "takeback": self.takeback,
            "note": self.note,
            "problem": self.problem,
        }

    def stored(self) -> StoredTable:
        """The table as :class:`~cardcrawl.web._storage.Storage` keeps it."""
        start = {
            "record": self.start,
            "watch": self.watch,
            "seats": [{"player": s.player, "bot_seed": s.bot_seed} for s in self.seats],
        }
        return StoredTable(
            self.id,
            self.game.name,
            start,
            self.meta(),
            self._steps(0),
            listed=self.listed,
            over=self.over,
            touched=time.time(),
        )

    def _steps(self, first: int) -> list[Step]:
        game = self.game
        return [Step(game.format_action(e.action), e.comment) for e in self.match.history[first:]]

    def _store(self, keep: int) -> None:
        self._storage.save(
            self.id,
            keep=keep,
            added=self._steps(keep),
            meta=self.meta(),
            listed=self.listed,
            over=self.over,
        )

    # ------------------------------------------------------------ reading
    @property
    def game(self) -> Any:
        """The game played."""
        return self.match.game

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return bool(self.game.is_terminal(self.match.state))

    @property
    def listed(self) -> bool:
        """True while the lobby lists the table: a seat is free and the game goes on."""
        return not self.over and any(s.free for s in self.seats)

    def seat(self, number: Any, token: Any) -> Seat:
        """The seat ``number``, once ``token`` proves the caller holds it.

        A seat is a JSON integer or text of ASCII digits (a query string's).

        Raises:
            RequestError: 400 for a seat that is not such a number, 404 for one the
                table does not have, 403 for a wrong token.
        """
        found = ascii_int(number, _SEAT_DIGITS)
        if found is None:
            raise RequestError(
                status=400,
                message=f"a seat is a number written in ASCII digits, not {str(number)[:40]!r}",
            )
        if not 0 <= found < len(self.seats):
            raise RequestError(
                status=404,
                message=f"table {self.id} has no seat {found}: "
                f"its seats are 0 to {len(self.seats) - 1}",
            )
        seat = self.seats[found]
        if not seat.holds(token):
            raise RequestError(
                status=403, message=f"wrong token for seat {found} of table {self.id}"
            )
        return seat

    def viewer(self, params: Mapping[str, Any]) -> int | None:
        """Whose view a request asks for: a seat number (``seat`` and ``token``), or
        ``None`` for a spectator (``watch``, the table's spectator token).

        Raises:
            RequestError: as for :meth:`seat`; 403 for a wrong spectator token.
        """
        if "watch" in params and "seat" not in params:
            token = params["watch"]
            if not isinstance(token, str) or not secrets.compare_digest(
                token.encode("utf-8", "replace"), self.watch.encode()
            ):
                raise RequestError(status=403, message=f"wrong spectator token for table {self.id}")
            return None
        return self.seat(params.get("seat"), params.get("token")).number

    def check_version(self, expected: Any) -> None:
        """Refuse a change asked of another version than the current one.

        Raises:
            RequestError: 400 without a version (ASCII digits or a JSON integer), 409
                when the table has changed since (the request was repeated, or another
                seat moved first).
        """
        found = ascii_int(expected, _VERSION_DIGITS)
        if found is None:
            raise RequestError(
                status=400,
                message="say which version of the table the change is for: version, the "
                "number the last view gave",
            )
        if found != self.version:
            raise RequestError(
                status=409,
                message=f"the table has changed: it is at version {self.version}, the request "
                f"was for version {found}; nothing was done (look at the table again)",
            )

    def _told_step(self, index: int, entry: MatchEntry[Any], seat: int | None) -> dict[str, Any]:
        # Each step as the seat heard it, kept: it never changes, and an undo drops
        # only the last ones (which the identity check finds).
        key = (index, seat)
        kept = self._told.get(key)
        if kept is not None and kept[0] is entry:
            return kept[1]
        game = self.game
        if seat is not None:
            lines = [str(e) for e in game.observe(entry.state, seat).events]
        else:
            # A spectator hears what every seat hears.
            told = [
                [str(e) for e in game.observe(entry.state, s).events]
                for s in range(len(self.seats))
            ]
            lines = [line for line in told[0] if all(line in other for other in told[1:])]
        step = {
            "step": index + 1,
            "player": entry.player,
            "action": game.format_action(entry.action),
            "events": lines,
        }
        self._told[key] = (entry, step)
        return step

    def _now_kept(self, what: str, seat: int | None, make: Callable[[], _T]) -> _T:
        """``make()``, made once per version and viewer: the answer to an action, the
        websocket's push and every other view of one version share it."""
        if self._now_version != self.version:
            self._now.clear()
            self._now_version = self.version
        key = (what, seat)
        if key not in self._now:
            self._now[key] = make()
        return typing.cast("_T", self._now[key])

    def _shown(self, seat: int | None) -> Any:
        return self._now_kept("shown", seat, lambda: self._determinized(seat))

    def _determinized(self, seat: int | None) -> Any:
        game, state = self.game, self.match.state
        if seat is not None:
            return game.determinize(state, seat, _VIEW_SEED)
        for each in range(len(self.seats)):
            state = game.determinize(state, each, _VIEW_SEED)
        return state

    def _actions(self) -> dict[str, Any]:
        """The legal actions now by their text, in the game's order."""
        game = self.game
        return self._now_kept(
            "actions",
            None,
            lambda: {game.format_action(a): a for a in game.legal_actions(self.match.state)},
        )

    def _back_depth(self, seat: int, *, fair: bool) -> int:
        if self.over or not self.seats[seat].is_person:
            return 0
        for depth, entry in enumerate(reversed(self.match.history), start=1):
            if fair and entry.revealed:
                return 0
            if entry.player == seat:
                return depth
            if not (0 <= entry.player < len(self.seats) and not self.seats[entry.player].is_person):
                return 0
        return 0

    def undo_depth(self, seat: int) -> int:
        """How many steps an undo by ``seat`` takes back (its last action and the bots'
        after it), or 0 when it may not undo.

        Fair undo (see :class:`~cardcrawl.Match`): no step that revealed chance is taken
        back, nor another person's action, nor anything once the game is over.
        """
        return self._back_depth(seat, fair=True)

    def takeback_depth(self, seat: int) -> int:
        """How many steps a take-back by consent asked by ``seat`` would take back: its
        last action and the bots' after it, revealed or not; 0 when there is none."""
        return self._back_depth(seat, fair=False)

    def board(self, seat: int | None) -> dict[str, str]:
        """The picture ``seat`` (``None``: a spectator) is shown now.

        The picture is a function of the state drawn, so it is drawn once per version
        for every seat and spectator shown the same state (at Escape from Haydes, where
        nobody holds private cards, all of them).
        """
        return self._now_kept("board", seat, lambda: self._draw(seat))

    def _draw(self, seat: int | None) -> dict[str, str]:
        shown = self._shown(seat)
        # Another viewer of this version may have been shown the same state: compared
        # here, not hashed, since a state's hash is as dear as the comparison and
        # most versions are drawn for one viewer only.
        for (what, other), picture in list(self._now.items()):
            if what == "board" and other != seat and _same(self._shown(other), shown):
                return typing.cast("dict[str, str]", picture)
        game = self.game
        renderer = find_renderer(game)
        return (
            {"svg": renderer(game, shown)} if renderer is not None else {"text": game.render(shown)}
        )

    def log(self, seat: int | None) -> list[dict[str, Any]]:
        """The story so far, step by step, as ``seat`` heard it."""
        return self._now_kept("log", seat, lambda: self._story(seat))

    def _story(self, seat: int | None) -> list[dict[str, Any]]:
        return [
            self._told_step(index, entry, seat) for index, entry in enumerate(self.match.history)
        ]

    def _legal(self) -> list[dict[str, Any]]:
        return self._now_kept(
            "legal",
            None,
            lambda: [
                {
                    "text": text,
                    "cell": cell_code(cell)
                    if _is_cell(cell := getattr(action, "cell", None))
                    else None,
                }
                for text, action in self._actions().items()
            ],
        )

    def view(self, seat: int | None, *, board: bool = True) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) is shown now, as JSON-compatible data
        (see the module); without the picture unless ``board``."""
        game = self.game
        state = self.match.state
        current = game.current_player(state)
        over = self.over
        choosing = seat is not None and current == seat and self.seats[seat].is_person and not over
        legal = self._legal() if choosing else []
        outcome = game.outcome(state)
        asked = self.takeback
        return {
            "type": "view",
            "table": self.id,
            "game": game.name,
            "title": title_of(game),
            "rules": f"/rules/{game.name}" if rules_of(game) else None,
            "seat": seat,
            "version": self.version,
            "seats": [{"seat": s.number, "player": s.player, "free": s.free} for s in self.seats],
            "current": current if current != TERMINAL else None,
            "status": self._now_kept(
                "status", seat, lambda: _status(game, self._shown(seat), outcome)
            ),
            "over": outcome is not None,
            "outcome": None
            if outcome is None
            else {
                "label": outcome.label,
                "returns": list(outcome.returns),
                "scores": None if outcome.scores is None else list(outcome.scores),
                "winners": list(outcome.winners),
            },
            "legal": legal,
            "undo": seat is not None and self.undo_depth(seat) > 0,
            "takeback": {
                "can_ask": seat is not None
                and asked is None
                and bool(self._consenting(seat))
                and self.takeback_depth(seat) > 0
                and self.undo_depth(seat) == 0,
                "asked": None
                if asked is None
                else {
                    "seat": asked["seat"],
                    "actions": asked["actions"],
                    "accepted": asked["accepted"],
                    "waiting": [
                        s for s in self._consenting(asked["seat"]) if s not in asked["accepted"]
                    ],
                },
            },
            "board": self.board(seat) if board else None,
            "log": self.log(seat),
            "problem": self.problem,
            "saved": None if self.saved is None else self.saved.name,
        }

    # ------------------------------------------------------------ changing
    def listen(self) -> asyncio.Queue[int]:
        """A queue that receives the new version at every change (:data:`GONE` when
        this copy of the table is no more)."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.add(queue)
        return queue

    def forget(self, queue: asyncio.Queue[int]) -> None:
        """Stop telling ``queue`` of changes."""
        self._listeners.discard(queue)

    @property
    def watched(self) -> bool:
        """True while a browser listens."""
        return bool(self._listeners)

    def _changed(self, keep: int) -> None:
        self.version += 1
        self._save_if_over()
        try:
            self._store(keep)
        except StorageError:
            # The change is played here but not stored: this copy is no longer the
            # table, which is read back from the storage (its last change stored) at
            # the next request.
            self.stale = True
            for queue in self._listeners:
                queue.put_nowait(GONE)  # its pages connect again, to the table read back
            raise
        for queue in self._listeners:
            queue.put_nowait(self.version)

    def _save_if_over(self) -> None:
        if self._records_dir is None or self.saved is not None or not self.over:
            return
        path = self._records_dir / f"{self.game.name}-{self.id}.json"
        try:
            self.match.to_record().save(path)
        except OSError as exc:
            self.problem = f"the record could not be saved to {path}: {exc}"
        else:
            self.saved = path

    def _play(self, action: Any) -> None:
        if len(self.match.history) >= MAX_STEPS:
            raise RequestError(
                status=409,
                message=f"this table has played the {MAX_STEPS} steps a table may hold",
            )
        # A take-back asked for is about the last step: a new one ends the question,
        # and a take-back that happened is said on the step that follows it.
        note, self.note, self.takeback = self.note, None, None
        self.match.play(action, comment=note)

    def act(self, seat: Seat, text: Any, expected: Any = None) -> None:
        """Play the action named ``text`` for ``seat``, if the table is at version
        ``expected``.

        Raises:
            RequestError: 400 for an action that is not text or no version, 409 when
                the table has changed since ``expected``, when it is not the seat's
                turn (or the game is over), 422 for text that names no legal action;
                the match is unchanged.
        """
        if not isinstance(text, str) or not text.strip() or len(text) > _MAX_ACTION_CHARS:
            raise RequestError(
                status=400, message="an action is the text of a legal action, such as 'end'"
            )
        self.check_version(expected)
        if not seat.is_person:
            raise RequestError(
                status=409, message=f"seat {seat.number} is played by the {seat.player} bot"
            )
        game = self.game
        state = self.match.state
        if self.over:
            raise RequestError(status=409, message="the game is over")
        current = game.current_player(state)
        if current != seat.number:
            raise RequestError(
                status=409, message=f"it is not seat {seat.number}'s turn: seat {current} plays"
            )
        legal = self._actions()
        action = legal.get(text.strip())
        if action is None:
            try:
                parsed = game.parse_action(text.strip())
            except (CardcrawlError, ValueError):
                parsed = None
            action = parsed if parsed is not None and game.is_legal(state, parsed) else None
        if action is None:
            raise RequestError(
                status=422,
                message=f"{text.strip()!r} is not a legal action now; legal: {', '.join(legal)}",
            )
        self._play(action)
        self._changed(len(self.match.history) - 1)

    def undo(self, seat: Seat, expected: Any = None) -> int:
        """Take back ``seat``'s last action and the bots' after it; how many steps.

        Raises:
            RequestError: 400 without a version, 409 when the table has changed since
                ``expected`` or fair undo does not allow it (see :meth:`undo_depth`);
                the match is unchanged.
        """
        self.check_version(expected)
        depth = self.undo_depth(seat.number)
        if depth == 0:
            raise RequestError(
                status=409,
                message="nothing to undo: fair undo takes back only your own last action (and the "
                "bots' after it) when it revealed no card or roll, and nothing once the "
                "game is over",
            )
        for _ in range(depth):
            self.match.undo()
        self.takeback = None
        self._changed(len(self.match.history))
        return depth

    def _consenting(self, asker: int) -> list[int]:
        return [s.number for s in self.seats if s.is_person and s.number != asker]

    def take_back(self, seat: Seat, answer: Any, expected: Any = None) -> str:
        """Ask for a take-back by consent (``"ask"``), or answer one (``"accept"``,
        ``"refuse"``); what happened: ``"asked"``, ``"accepted"``, ``"refused"`` or
        ``"taken back"``.

        A person may ask to take back their last action (and the bots' after it) even
        when it revealed a card; it is taken back only once every other person at the
        table accepts (so never at a table of one person), and the record says so in a
        comment on the step that follows.
        Anyone asked may refuse (the one who asked may withdraw), and any new step
        ends the question.

        Raises:
            RequestError: 400 for an answer that is none of those or no version, 409
                when the table has changed since ``expected``, there is nothing to take
                back, a question is already asked, or there is none to answer.
        """
        if answer not in ("ask", "accept", "refuse"):
            raise RequestError(
                status=400, message="answer is 'ask', 'accept' or 'refuse' (a take-back)"
            )
        self.check_version(expected)
        asked = self.takeback
        if answer == "ask":
            if asked is not None:
                raise RequestError(status=409, message="a take-back is already asked for")
            depth = self.takeback_depth(seat.number)
            if depth == 0:
                raise RequestError(
                    status=409,
                    message="nothing to take back: only your own last action (and the bots' "
                    "after it) can be taken back, before anyone else moves and while the game "
                    "goes on",
                )
            if not self._consenting(seat.number):
                # Consent is given by someone else: alone at the table, fair undo it is.
                raise RequestError(
                    status=409,
                    message="a take-back needs another person at the table to accept it; "
                    "alone, fair undo is all there is",
                )
            game = self.game
            actions = [game.format_action(e.action) for e in self.match.history[-depth:]]
            self.takeback = {
                "seat": seat.number,
                "depth": depth,
                "steps": len(self.match.history),
                "actions": actions,
                "accepted": [],
            }
            self._changed(len(self.match.history))
            return "asked"
        if asked is None:
            raise RequestError(status=409, message="no take-back is asked for")
        if answer == "refuse":
            if seat.number != asked["seat"] and seat.number not in self._consenting(asked["seat"]):
                raise RequestError(status=409, message="only a person at the table answers")
            self.takeback = None
            self._changed(len(self.match.history))
            return "refused"
        if seat.number not in self._consenting(asked["seat"]):
            raise RequestError(
                status=409, message="the take-back is accepted by the other people at the table"
            )
        if seat.number not in asked["accepted"]:
            asked["accepted"] = sorted([*asked["accepted"], seat.number])
        if any(s not in asked["accepted"] for s in self._consenting(asked["seat"])):
            self._changed(len(self.match.history))
            return "accepted"
        return self._take_back()

    def _take_back(self) -> str:
        asked = self.takeback
        assert asked is not None
        keep = asked["steps"] - asked["depth"]
        steps = self._steps(0)[:keep]
        # Fair undo stays on; the match is played again up to the step kept.
        self.match = _match_at(self.start, steps)
        others = asked["accepted"]
        consent = f"accepted by seat{'s' if len(others) > 1 else ''} {', '.join(map(str, others))}"
        self.note = (
            f"take-back by consent: seat {asked['seat']} took back "
            f"{', '.join(asked['actions'])} ({consent})"
        )
        self.takeback = None
        self._told.clear()
        self._changed(keep)
        return "taken back"

    def bot_to_move(self) -> Seat | None:
        """The seat whose bot chooses now, if any."""
        if self.over or self.problem is not None or self.stale:
            return None
        current = self.game.current_player(self.match.state)
        if not 0 <= current < len(self.seats):
            return None
        seat = self.seats[current]
        return None if seat.is_person else seat

    def play_bot(self, seat: Seat, action: Any) -> None:
        """Play the bot's choice, or stop the bots with a problem if it is illegal."""
        try:
            self._play(action)
        except (CardcrawlError, ValueError) as exc:
            self.problem = f"the {seat.player} bot of seat {seat.number} failed: {exc}"
            self._changed(len(self.match.history))
            return
        self._changed(len(self.match.history) - 1)

    def bot_failed(self, seat: Seat, exc: BaseException) -> None:
        """Stop the bots: ``seat``'s bot raised ``exc``."""
        self.problem = f"the {seat.player} bot of seat {seat.number} failed: {_error_text(exc)}"
        self._changed(len(self.match.history))

    def take_seat(self, number: Any) -> str:
        """Take the free seat ``number`` (from the lobby); its new token.

        Raises:
            RequestError: 400 for a seat that is not a number, 404 for one the table
                does not have, 409 when it is not free.
        """
        found = ascii_int(number, _SEAT_DIGITS)
        if found is None or not 0 <= found < len(self.seats):
            raise RequestError(
                status=400 if found is None else 404,
                message=f"table {self.id} has seats 0 to {len(self.seats) - 1}, "
                f"not {str(number)[:40]!r}",
            )
        seat = self.seats[found]
        if not seat.free or self.over:
            raise RequestError(status=409, message=f"seat {found} of table {self.id} is taken")
        token = seat.new_token()
        self._changed(len(self.match.history))
        return token

    def record_json(self) -> str:
        """The record of the finished game, as JSON text.

        Raises:
            RequestError: 409 while the game goes on.
        """
        self._require_over("record")
        return self.match.to_record().to_json()

    def replay_html(self) -> str:
        """The HTML replay of the finished game.

        Raises:
            RequestError: 409 while the game goes on.
        """
        self._require_over("replay")
        return self.match.to_html()

    def _require_over(self, what: str) -> None:
        if not self.over:
            raise RequestError(
                status=409, message=f"the {what} is given once the game is over: it holds the seed"
            )


def _is_cell(value: Any) -> TypeGuard[tuple[int, int]]:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _same(one: Any, other: Any) -> bool:
    # A user's game may hold states that do not compare to a truth value.
    try:
        return bool(one == other)
    except (TypeError, ValueError):
        return False


def _status(game: Any, shown: Any, outcome: Any) -> str:
    if outcome is None:
        return str(game.describe(shown))
    parts = [f"Game over: {outcome.label}"]
    if outcome.scores is not None:
        parts.append("score " + " / ".join(str(s) for s in outcome.scores))
    if outcome.winners:
        parts.append("won by seat " + " and ".join(str(w) for w in outcome.winners))
    return " · ".join(parts)


#: A table untouched this long is removed, by default: 30 days.
DEFAULT_EXPIRE_SECONDS = 30 * 24 * 3600
#: The most tables not yet over that a server keeps, by default.
DEFAULT_MAX_TABLES = 1000


class Tables:
    """Every table of one server, where they are stored, and the bots that play at them.

    Args:
        bot_delay: seconds a bot waits before each move, so people can follow.
        records_dir: where each finished game's record is written (none: not saved).
        storage: where the tables are kept (default: SQLite in memory, which a
            restart loses; ``cardcrawl serve`` gives a file).
        max_tables: the most tables not yet over; a new one beyond is refused (503).
        expire_after: seconds after which an untouched table is removed.
    """

    def __init__(
        self,
        *,
        bot_delay: float = 0.8,
        records_dir: Path | None = None,
        storage: Storage | None = None,
        max_tables: int = DEFAULT_MAX_TABLES,
        expire_after: float = DEFAULT_EXPIRE_SECONDS,
    ) -> None:
        self.bot_delay = bot_delay
        self.records_dir = records_dir
        self.storage: Storage = SqliteStorage(":memory:") if storage is None else storage
        self.max_tables = max_tables
        self.expire_after = expire_after
        self._tables: dict[str, Table] = {}
        self._swept = 0.0
        # Reading a table back or playing a record on replays it: in threads, two at
        # a time, so that the server keeps answering meanwhile.
        self._replays = asyncio.Semaphore(2)

    def __len__(self) -> int:
        return len(self._tables)

    def _from_storage(self, stored: StoredTable) -> Table:
        try:
            start = stored.start
            match = _match_at(start["record"], stored.steps)
            game = match.game
            seats = []
            digests = stored.meta.get("digests") or [None] * len(start["seats"])
            for number, (data, digest) in enumerate(zip(start["seats"], digests, strict=True)):
                player, bot_seed = data["player"], int(data["bot_seed"])
                bot = None if player == PERSON else make_bot(player, game, bot_seed, number)
                seat = Seat(number, player, bot, bot_seed=bot_seed, free=True)
                seat.digest = digest
                seats.append(seat)
        except (CardcrawlError, ValueError, TypeError, KeyError, RecursionError) as exc:
            raise RequestError(
                status=410,
                message=f"table {stored.id} is stored but can no longer be played here "
                f"(the rules may have changed since): {_error_text(exc)}",
            ) from None
        return Table(
            stored.id,
            match,
            seats,
            start=start["record"],
            watch=start["watch"],
            storage=self.storage,
            records_dir=self.records_dir,
            meta=stored.meta,
        )

    def get(self, table_id: Any) -> Table:
        """The table ``table_id``, read back from storage if this server has not
        seen it yet.

        Raises:
            RequestError: 404, no such table; 410, a stored table that no longer plays.
        """
        table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if table is not None and not table.stale:
            return table
        if table is not None:
            del self._tables[table_id]
        stored = (
            self.storage.load(table_id)
            if isinstance(table_id, str) and len(table_id) <= 40
            else None
        )
        if stored is None:
            raise RequestError(
                status=404, message=f"no table {str(table_id)[:40]!r} on this server"
            )
        table = self._tables.get(table_id)
        if table is None:  # another thread may have read it meanwhile
            table = self._tables.setdefault(table_id, self._from_storage(stored))
        return table

    async def fetch(self, table_id: Any) -> Table:
        """:meth:`get`, reading a stored table back in a thread."""
        table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if table is not None and not table.stale:
            return table
        async with self._replays:
            table = await asyncio.to_thread(self.get, table_id)
        self.kick(table)
        return table

    def prepare(self, request: Any) -> tuple[Match[Any], list[Seat]]:
        """The match and seats of a new table (see :meth:`create`), made but not kept."""
        if not isinstance(request, Mapping):
            raise RequestError(
                status=400, message="a new table is a JSON object: {game, options, seed, seats}"
            )
        match = match_of(request)
        game = match.game
        players = request.get("seats", [PERSON] * game.num_players)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RequestError(
                status=400, message="seats is a list of 'person' or bot names, one per seat"
            )
        if len(players) != game.num_players:
            raise RequestError(
                status=422,
                message=f"{game.name} has {game.num_players} seats; {len(players)} were given",
            )
        opened = request.get("open", [])
        numbers = [ascii_int(n, _SEAT_DIGITS) for n in opened] if isinstance(opened, list) else None
        if numbers is None or None in numbers:
            raise RequestError(
                status=400, message="open is a list of seat numbers left free for the lobby"
            )
        known = _bots_for(game)
        seats = []
        for number, player in enumerate(players):
            if player == PERSON:
                seats.append(Seat(number, PERSON, None, free=number in numbers))
                continue
            if player not in known:
                raise RequestError(
                    status=422,
                    message=f"seat {number}: {player!r} is neither 'person' nor a bot that plays "
                    f"{game.name} ({', '.join(known)})",
                )
            bot_seed = _random_seed()
            bot = make_bot(player, game, seed=bot_seed, seat=number)
            seats.append(Seat(number, player, bot, bot_seed=bot_seed))
        wrong = [
            n for n in numbers if n is not None and not (0 <= n < len(seats) and seats[n].is_person)
        ]
        if wrong:
            raise RequestError(
                status=422, message=f"only a person's seat can be left open, not seat {wrong[0]}"
            )
        return match, seats

    def add(self, match: Match[Any], seats: list[Seat]) -> Table:
        """Keep a new table of ``match`` and ``seats`` (see :meth:`prepare`).

        Raises:
            RequestError: 503 when the server holds its most tables.
        """
        self.sweep()
        if self.storage.count_open() >= self.max_tables:
            raise RequestError(
                status=503,
                message=f"this server holds its most tables ({self.max_tables}); "
                "try again once some are over or expired",
            )
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables or self.storage.load(table_id) is not None:
            table_id = secrets.token_urlsafe(6)  # pragma: no cover - 48 random bits
        table = Table(
            table_id,
            match,
            seats,
            start=_start_record(match),
            watch=secrets.token_urlsafe(12),
            storage=self.storage,
            records_dir=self.records_dir,
        )
        self.storage.create(table.stored())
        self._tables[table_id] = table
        return table

    def create(self, request: Any) -> Table:
        """A new table from a request's data: :func:`match_of`'s, ``seats`` (one
        player per seat: ``"person"`` or a bot's name) and ``open`` (the people's
        seats left free for the lobby to offer).

        Raises:
            RequestError: 400 for malformed data, 404 for an unknown game, 422 for
                options, seeds, records or seats the game refuses, 503 when the
                server holds its most tables.
        """
        return self.add(*self.prepare(request))

    async def match_async(self, request: Mapping[str, Any]) -> Match[Any]:
        """:func:`match_of`, in a thread (a record may be long)."""
        async with self._replays:
            return await asyncio.to_thread(match_of, request)

    async def create_async(self, request: Any) -> Table:
        """:meth:`create`, with the match (a record may be long) made in a thread."""
        async with self._replays:
            match, seats = await asyncio.to_thread(self.prepare, request)
        return self.add(match, seats)

    def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """The open tables with a free seat, the newest first, for the start page."""
        self.sweep()
        found = []
        for stored in self.storage.listed(limit):
            seats = stored.start.get("seats", [])
            digests = stored.meta.get("digests") or [None] * len(seats)
            try:
                title = title_of(load(stored.game))
            except (CardcrawlError, TypeError, ValueError):
                title = stored.game
            found.append(
                {
                    "table": stored.id,
                    "game": stored.game,
                    "title": title,
                    "url": f"/table/{stored.id}",
                    "watch": stored.start.get("watch"),
                    "seats": [
                        {
                            "seat": n,
                            "player": s.get("player"),
                            "free": s.get("player") == PERSON and d is None,
                        }
                        for n, (s, d) in enumerate(zip(seats, digests, strict=False))
                    ],
                }
            )
        return found

    def sweep(self, *, now: float | None = None) -> list[str]:
        """Remove the tables untouched for :attr:`expire_after` seconds (at most once a
        minute unless ``now`` is given); their ids."""
        clock = time.time() if now is None else now
        if now is None and clock - self._swept < 60:
            return []
        self._swept = clock
        gone = self.storage.expire(clock - self.expire_after)
        for table_id in gone:
            table = self._tables.pop(table_id, None)
            if table is not None and table.bot_task is not None:
                table.bot_task.cancel()
        # A finished table nobody watches is read back if asked for again.
        for table_id, table in list(self._tables.items()):
            if table.over and not table.watched:
                del self._tables[table_id]
        return gone

    def kick(self, table: Table) -> None:
        """Start the table's bots if one is to move and they are not running."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        if table.bot_to_move() is None:
            return
        table.bot_task = asyncio.ensure_future(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        game = table.game
        while True:
            async with table.lock:
                seat = table.bot_to_move()
                if seat is None:
                    return
                version = table.version
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with table.lock:
                if table.version != version or table.bot_to_move() is not seat:
                    continue
                state = table.match.state
                observation = game.observe(state, seat.number)
                legal = game.legal_actions(state)
                bot = seat.bot
            if bot is None:  # pragma: no cover - bot_to_move() gives bots' seats only
                return
            try:
                # Bots see the seat's observation and the legal actions, never the state;
                # a slow one (a search) thinks in a thread so the server keeps answering.
                action = await asyncio.to_thread(bot.choose, game, observation, legal)
            except Exception as exc:  # a bot is the user's code too: report, never crash
                async with table.lock:
                    table.bot_failed(seat, exc)
                return
            async with table.lock:
                if table.version != version:
                    continue
                try:
                    table.play_bot(seat, action)
                except (RequestError, StorageError) as exc:
                    table.problem = str(exc)
                    return

    async def close(self) -> None:
        """Stop every table's bots and let the storage go."""
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _seed_of(value: Any) -> int:
    if value is None or value == "":
        return _random_seed()
    found = ascii_int(value, _SEED_DIGITS)
    if found is None or not 0 <= found < 2**64:
        raise RequestError(
            status=422,
            message="a seed is an integer from 0 to 2**64 - 1 (ASCII digits), "
            f"not {str(value)[:40]!r}",
        )
    return found


def _match_from_position(game: Any, position: Any, seed: Any) -> Match[Any]:
    if seed is not None and seed != "":
        raise RequestError(status=400, message="a table starts from a seed or a position, not both")
    if not isinstance(position, str) or not 0 < len(position) <= MAX_NOTATION:
        raise RequestError(
            status=400,
            message=f"position is a position's notation, text of 1 to {MAX_NOTATION} characters",
        )
    try:
        match = Match.start(game, position=position)
    except (CardcrawlError, ValueError) as exc:
        raise RequestError(
            status=422, message=f"the position cannot be played: {_error_text(exc)}"
        ) from None
    if match.explicit_chance:
        raise RequestError(
            status=422,
            message="the position cannot be played: explicit_chance: the tables play sampled "
            "chance; write the position without the explicit_chance flag",
        )
    return match


def match_of(request: Mapping[str, Any]) -> Match[Any]:
    """The match a new table plays: ``{"game", "options", "seed"}``, ``{"game",
    "options", "position"}`` (a position in the game's notation, in place of the seed)
    or ``{"record"}`` (a record's JSON text, played on from its last state).

    A seed is a JSON integer or text of ASCII digits; a record holds at most
    :data:`MAX_STEPS` actions.

    Raises:
        RequestError: 400 for malformed data (a seed and a position both given), 404
            for an unknown game, 413 for a record of too many actions, 422 for options,
            a seed, a position or a record that the game refuses (a position's message
            names the notation's field at fault; the tables play sampled chance, so a
            position with explicit chance is one).
    """
    record_text = request.get("record")
    if record_text is not None:
        if not isinstance(record_text, str) or len(record_text) > MAX_RECORD_CHARS:
            raise RequestError(status=400, message="record is the text of a record file (JSON)")
        try:
            record = Record.from_json(record_text)
        except (CardcrawlError, ValueError, RecursionError) as exc:
            raise RequestError(
                status=422, message=f"the record cannot be played: {_error_text(exc)}"
            ) from None
        if len(record.actions) > MAX_STEPS:
            raise RequestError(
                status=413,
                message=f"the record holds {len(record.actions)} actions; a table holds at "
                f"most {MAX_STEPS}",
            )
        try:
            return Match.from_record(record)
        except (CardcrawlError, ValueError, RecursionError) as exc:
            raise RequestError(
                status=422, message=f"the record cannot be played: {_error_text(exc)}"
            ) from None
    name = request.get("game")
    if not isinstance(name, str) or not name:
        raise RequestError(
            status=400, message="name the game to play (game), or send a record (record)"
        )
    options = request.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RequestError(
            status=400, message="options is a JSON object of option names and values"
        )
    try:
        game = load(name, **dict(options))
    except UnknownGameError as exc:
        raise RequestError(status=404, message=_error_text(exc)) from None
    except (CardcrawlError, TypeError, ValueError) as exc:
        raise RequestError(
            status=422, message=f"bad options for {name}: {_error_text(exc)}"
        ) from None
    position = request.get("position")
    if position is not None:
        return _match_from_position(game, position, request.get("seed"))
    seed = _seed_of(request.get("seed"))
    try:
        return Match.start(game, seed)
    except (CardcrawlError, ValueError) as exc:  # pragma: no cover - the seed is checked
        raise RequestError(status=422, message=_error_text(exc)) from None


def parse_json(body: bytes) -> Any:
    """A request body read as JSON.

    Raises:
        RequestError: 400, the body is not JSON.

    Examples:
        >>> parse_json(b'{"seat": 0}')
        {'seat': 0}
        >>> parse_json(b"{oops")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.web.RequestError: the request body is not JSON: ...
    """
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise RequestError(status=400, message=f"the request body is not JSON: {exc}") from None
