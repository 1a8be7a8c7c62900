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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeGuard

from cardcrawl.bots._base import bot_names, make_bot
from cardcrawl.core._notation import MAX_NOTATION
from cardcrawl.core._protocol import TERMINAL
from cardcrawl.core._registry import get_spec, load
from cardcrawl.errors import CardcrawlError, RequestError, UnknownGameError
from cardcrawl.kit._grid import cell_code
from cardcrawl.kit._svg import find_renderer
from cardcrawl.play._match import Match, MatchEntry
from cardcrawl.play._record import Record

__all__ = ["PERSON", "RequestError", "Table", "Tables"]

#: The player of a seat that a person plays, in a browser.
PERSON = "person"
# determinize() needs a seed for the hidden things it draws afresh; they are never
# shown, so any fixed seed will do, and a fixed one keeps the pictures stable.
_VIEW_SEED = 0
# The most a record sent to be played on may weigh, and the longest text of an action.
MAX_RECORD_CHARS = 2_000_000
_MAX_ACTION_CHARS = 200


# A page may not seat the "engine" bot: it runs a program, and a request must never
# name a program for the server to start.
_NOT_FROM_A_PAGE = frozenset({"engine"})


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


def game_summary(name: str) -> dict[str, Any]:
    """What the lobby shows of a registered game: its description, default options,
    number of seats and bots.

    Examples:
        >>> game_summary("mapless-house")["players"]
        1
    """
    spec = get_spec(name)
    game = load(name)
    return {
        "name": name,
        "description": spec.description or "",
        "base": spec.base,
        "options": game.options.to_data(),
        "players": game.num_players,
        "bots": list(_bots_for(game)),
        "picture": find_renderer(game) is not None,
    }


def _error_text(exc: BaseException) -> str:
    text = str(exc.args[0]) if exc.args else str(exc)
    return text or type(exc).__name__


class Seat:
    """One seat of a table: who plays it, its secret token, and its bot if any."""

    def __init__(self, number: int, player: str, bot: Any | None) -> None:
        self.number = number
        self.player = player
        self.bot = bot
        self.token = secrets.token_urlsafe(16)

    @property
    def is_person(self) -> bool:
        """True when a person plays the seat."""
        return self.bot is None


class Table:
    """One match being played, its seats, and the browsers watching it.

    Every change (an action, an undo) raises :attr:`version` and wakes each listener
    (a websocket of a seat), which then sends its seat's new view.
    """

    def __init__(
        self,
        table_id: str,
        match: Match,
        seats: Sequence[Seat],
        *,
        records_dir: Path | None = None,
    ) -> None:
        self.id = table_id
        self.match = match
        self.seats = tuple(seats)
        self.version = 0
        self.lock = asyncio.Lock()
        self.problem: str | None = None
        self.saved: Path | None = None
        self._records_dir = records_dir
        self._listeners: set[asyncio.Queue[int]] = set()
        self._told: dict[tuple[int, int], tuple[MatchEntry, list[str]]] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self._save_if_over()

    # ------------------------------------------------------------ reading
    @property
    def game(self) -> Any:
        """The game played."""
        return self.match.game

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return bool(self.game.is_terminal(self.match.state))

    def seat(self, number: Any, token: Any) -> Seat:
        """The seat ``number``, once ``token`` proves the caller holds it.

        Raises:
            RequestError: 400 for a seat that is not a number, 404 for one the table
                does not have, 403 for a wrong token.
        """
        if isinstance(number, str) and number.strip().lstrip("-").isdigit():
            number = int(number)
        if isinstance(number, bool) or not isinstance(number, int):
            raise RequestError(status=400, message=f"a seat is a number, not {number!r}")
        if not 0 <= number < len(self.seats):
            raise RequestError(
                status=404,
                message=f"table {self.id} has no seat {number}: "
                f"its seats are 0 to {len(self.seats) - 1}",
            )
        seat = self.seats[number]
        if not isinstance(token, str) or not secrets.compare_digest(
            token.encode("utf-8", "replace"), seat.token.encode()
        ):
            raise RequestError(
                status=403, message=f"wrong token for seat {number} of table {self.id}"
            )
        return seat

    def _narration(self, index: int, entry: MatchEntry, seat: int) -> list[str]:
        # Each step's events as the seat observes them, kept: they never change, and
        # an undo drops only the last ones (which the identity check finds).
        key = (index, seat)
        kept = self._told.get(key)
        if kept is not None and kept[0] is entry:
            return kept[1]
        lines = [str(e) for e in self.game.observe(entry.state, seat).events]
        self._told[key] = (entry, lines)
        return lines

    def undo_depth(self, seat: int) -> int:
        """How many steps an undo by ``seat`` takes back (its last action and the bots'
        after it), or 0 when it may not undo.

        Fair undo (see :class:`~cardcrawl.Match`): no step that revealed chance is taken
        back, nor another person's action, nor anything once the game is over.
        """
        if self.over or not self.seats[seat].is_person:
            return 0
        history = self.match.history
        for depth, entry in enumerate(reversed(history), start=1):
            if entry.revealed:
                return 0
            if entry.player == seat:
                return depth
            if not (0 <= entry.player < len(self.seats) and not self.seats[entry.player].is_person):
                return 0
        return 0

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` is shown now, as JSON-compatible data (see the module)."""
        game = self.game
        state = self.match.state
        shown = game.determinize(state, seat, _VIEW_SEED)
        current = game.current_player(state)
        choosing = current == seat and self.seats[seat].is_person and not self.over
        legal: list[dict[str, Any]] = []
        if choosing:
            for action in game.legal_actions(state):
                cell = getattr(action, "cell", None)
                legal.append(
                    {
                        "text": game.format_action(action),
                        "cell": cell_code(cell) if _is_cell(cell) else None,
                    }
                )
        renderer = find_renderer(game)
        board: dict[str, str] = (
            {"svg": renderer(game, shown)} if renderer is not None else {"text": game.render(shown)}
        )
        outcome = game.outcome(state)
        log = [
            {
                "step": index + 1,
                "player": entry.player,
                "action": game.format_action(entry.action),
                "events": self._narration(index, entry, seat),
            }
            for index, entry in enumerate(self.match.history)
        ]
        return {
            "type": "view",
            "table": self.id,
            "game": game.name,
            "seat": seat,
            "version": self.version,
            "seats": [{"seat": s.number, "player": s.player} for s in self.seats],
            "current": current if current != TERMINAL else None,
            "status": _status(game, shown, outcome),
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
            "undo": self.undo_depth(seat) > 0,
            "board": board,
            "log": log,
            "problem": self.problem,
            "saved": None if self.saved is None else self.saved.name,
        }

    # ------------------------------------------------------------ changing
    def listen(self) -> asyncio.Queue[int]:
        """A queue that receives the new version at every change."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.add(queue)
        return queue

    def forget(self, queue: asyncio.Queue[int]) -> None:
        """Stop telling ``queue`` of changes."""
        self._listeners.discard(queue)

    def _changed(self) -> None:
        self.version += 1
        for queue in self._listeners:
            queue.put_nowait(self.version)
        self._save_if_over()

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

    def act(self, seat: Seat, text: Any) -> None:
        """Play the action named ``text`` for ``seat``.

        Raises:
            RequestError: 400 for an action that is not text, 409 when it is not the
                seat's turn (or the game is over), 422 for text that names no legal
                action; the match is unchanged.
        """
        if not isinstance(text, str) or not text.strip() or len(text) > _MAX_ACTION_CHARS:
            raise RequestError(
                status=400, message="an action is the text of a legal action, such as 'end'"
            )
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
        legal = {game.format_action(a): a for a in game.legal_actions(state)}
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
        self.match.play(action)
        self._changed()

    def undo(self, seat: Seat) -> int:
        """Take back ``seat``'s last action and the bots' after it; how many steps.

        Raises:
            RequestError: 409 when fair undo does not allow it (see
                :meth:`undo_depth`); the match is unchanged.
        """
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
        self._changed()
        return depth

    def bot_to_move(self) -> Seat | None:
        """The seat whose bot chooses now, if any."""
        if self.over or self.problem is not None:
            return None
        current = self.game.current_player(self.match.state)
        if not 0 <= current < len(self.seats):
            return None
        seat = self.seats[current]
        return None if seat.is_person else seat

    def play_bot(self, seat: Seat, action: Any) -> None:
        """Play the bot's choice, or stop the bots with a problem if it is illegal."""
        try:
            self.match.play(action)
        except (CardcrawlError, ValueError) as exc:
            self.problem = f"the {seat.player} bot of seat {seat.number} failed: {exc}"
        self._changed()

    def bot_failed(self, seat: Seat, exc: BaseException) -> None:
        """Stop the bots: ``seat``'s bot raised ``exc``."""
        self.problem = f"the {seat.player} bot of seat {seat.number} failed: {_error_text(exc)}"
        self._changed()

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


def _status(game: Any, shown: Any, outcome: Any) -> str:
    if outcome is None:
        return str(game.describe(shown))
    parts = [f"Game over: {outcome.label}"]
    if outcome.scores is not None:
        parts.append("score " + " / ".join(str(s) for s in outcome.scores))
    if outcome.winners:
        parts.append("won by seat " + " and ".join(str(w) for w in outcome.winners))
    return " · ".join(parts)


class Tables:
    """Every table of one server, and the bots that play at them.

    Args:
        bot_delay: seconds a bot waits before each move, so people can follow.
        records_dir: where each finished game's record is written (none: not saved).
    """

    def __init__(self, *, bot_delay: float = 0.8, records_dir: Path | None = None) -> None:
        self.bot_delay = bot_delay
        self.records_dir = records_dir
        self._tables: dict[str, Table] = {}

    def __len__(self) -> int:
        return len(self._tables)

    def get(self, table_id: Any) -> Table:
        """The table ``table_id``.

        Raises:
            RequestError: 404, no such table.
        """
        table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise RequestError(status=404, message=f"no table {table_id!r} on this server")
        return table

    def create(self, request: Any) -> Table:
        """A new table from a request's data (see :func:`match_of` and the seats).

        Raises:
            RequestError: 400 for malformed data, 404 for an unknown game, 422 for
                options, seeds, records or seats the game refuses.
        """
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
        known = _bots_for(game)
        seats = []
        for number, player in enumerate(players):
            if player == PERSON:
                seats.append(Seat(number, PERSON, None))
                continue
            if player not in known:
                raise RequestError(
                    status=422,
                    message=f"seat {number}: {player!r} is neither 'person' nor a bot that plays "
                    f"{game.name} ({', '.join(known)})",
                )
            bot = make_bot(player, game, seed=_random_seed(), seat=number)
            seats.append(Seat(number, player, bot))
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables:  # pragma: no cover - 48 random bits
            table_id = secrets.token_urlsafe(6)
        table = Table(table_id, match, seats, records_dir=self.records_dir)
        self._tables[table_id] = table
        return table

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
                table.play_bot(seat, action)

    async def close(self) -> None:
        """Stop every table's bots."""
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _seed_of(value: Any) -> int:
    if value is None or value == "":
        return _random_seed()
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        raise RequestError(
            status=422, message=f"a seed is an integer from 0 to 2**64 - 1, not {value!r}"
        )
    return value


def _match_from_position(game: Any, position: Any, seed: Any) -> Match:
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


def match_of(request: Mapping[str, Any]) -> Match:
    """The match a new table plays: ``{"game", "options", "seed"}``, ``{"game",
    "options", "position"}`` (a position in the game's notation, in place of the seed)
    or ``{"record"}`` (a record's JSON text, played on from its last state).

    Raises:
        RequestError: 400 for malformed data (a seed and a position both given), 404
            for an unknown game, 422 for options, a seed, a position or a record that
            the game refuses (a position's message names the notation's field at fault;
            the tables play sampled chance, so a position with explicit chance is one).
    """
    record_text = request.get("record")
    if record_text is not None:
        if not isinstance(record_text, str) or len(record_text) > MAX_RECORD_CHARS:
            raise RequestError(status=400, message="record is the text of a record file (JSON)")
        try:
            record = Record.from_json(record_text)
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
        cardcrawl.errors.RequestError: the request body is not JSON: ...
    """
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise RequestError(status=400, message=f"the request body is not JSON: {exc}") from None
