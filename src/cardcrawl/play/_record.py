"""Game records: a whole game as options, seed (or position) and actions, replayed and verified.

A record is the smallest faithful account of a game: everything else follows from the
rules. In explicit-chance play the chance outcomes are actions too, so they are recorded
in sequence with the decisions.

A record also carries *claims* about what its actions lead to (see
:mod:`cardcrawl.play._claims`). Its shape is the types of :class:`Record`'s fields: the
codec reads a record by them, bounds included, and the JSON Schema is generated from
them (see :mod:`cardcrawl.play._formats`, which also reads the older formats).
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Annotated, Any, ClassVar

import attrs

from cardcrawl.core._codec import decode, encode
from cardcrawl.core._limits import OMITTED_WHEN_DEFAULT, Limits, untagged
from cardcrawl.core._notation import MAX_NOTATION
from cardcrawl.core._protocol import MAX_SEATS, Game, GameState, Outcome
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError, RecordError, SerializationError, short_repr
from cardcrawl.play import _claims, _files
from cardcrawl.play._agent import Agent
from cardcrawl.play._claims import PREFIX, RecordClaims, canonical_digest, check_fields, state_data
from cardcrawl.play._formats import FORMAT, TRACE_KEYS, check_depth, schema_of, unreadable, upgraded

__all__ = ["Agent", "Record", "RecordClaims"]

# ISO 8601 in UTC, to the second or finer: 2026-12-02T07:20:43Z, 2026-12-02T07:20:43.5Z.
_STARTED = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]{1,6})?Z"

#: When a game started: ISO 8601 text in UTC.
Started = Annotated[str, Limits(pattern=_STARTED)]
#: The seconds an action took to choose.
Seconds = Annotated[float, Limits(minimum=0)]
#: A comment on an action.
Comment = Annotated[str, Limits(min_length=1, max_length=2000)]
#: A generator seed.
Seed = Annotated[int, Limits(minimum=0, maximum=2**64 - 1)]
#: A position's notation: untrusted text, bounded before any game reads it.
Position = Annotated[str, Limits(min_length=1, max_length=MAX_NOTATION)]


def problem(tp: Any, value: Any) -> str | None:
    """Why ``value`` is not of the field type ``tp`` (``"expected ..., found ..."``), or
    ``None``.

    Examples:
        >>> problem(Comment, ""), problem(Comment, "a risky step")
        ("expected text of 1 to 2000 characters, found ''", None)
    """
    try:
        decode(tp, encode(value), "value")
    except CardcrawlError as exc:
        return str(exc).split(": ", 1)[1]
    except TypeError:
        return f"expected a value of a kind a record holds, found {short_repr(value)}"
    return None


def _frozen_stack(stack: Mapping[str, Any] | None) -> Mapping[str, tuple[Any, ...]] | None:
    if stack is None:
        return None
    # A source may be given as card text ("KS 2S"), as initial_state accepts it.
    return MappingProxyType(
        {
            str(k): tuple(encode(v.replace(",", " ").split() if isinstance(v, str) else list(v)))
            for k, v in stack.items()
        }
    )


def _frozen_mapping(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


def _normal_result(outcome: Any) -> Any:
    """``outcome`` with its returns as floats and its fields as tuples, as a record holds it."""
    if not isinstance(outcome, Outcome):
        return outcome
    try:
        return Outcome(
            label=outcome.label,
            returns=tuple(float(r) for r in outcome.returns),
            scores=None if outcome.scores is None else tuple(outcome.scores),
            winners=tuple(outcome.winners),
        )
    except (TypeError, ValueError, OverflowError):
        return outcome  # left as it is, for the check of its fields to name


def _result_of(game: Any, state: Any) -> Outcome | None:
    """The outcome of ``state`` as a record holds it, or ``None`` for a game not over."""
    outcome = game.outcome(state)
    return None if outcome is None else _normal_result(outcome)


def _result_told(result: Outcome | None) -> str:
    if result is None:
        return "a game not over"
    scores = "" if result.scores is None else f", scores {list(result.scores)}"
    return (
        f"the ending {result.label!r} with returns {list(result.returns)}{scores} "
        f"and winners {list(result.winners)}"
    )


def started_text(value: Any) -> Any:
    """A start time as the record holds it: ISO 8601 text in UTC, ``...Z``."""
    if not isinstance(value, datetime.datetime):
        return value
    offset = value.utcoffset()
    if offset is None or offset:
        raise RecordError(
            f"a record's start time is in UTC; {value.isoformat()} is "
            f"{'a local time with no zone' if offset is None else 'in another zone'}: "
            "give datetime.now(datetime.timezone.utc), or convert it with "
            ".astimezone(datetime.timezone.utc)"
        )
    fraction = f".{value.microsecond:06d}" if value.microsecond else ""
    return f"{value.strftime('%Y-%m-%dT%H:%M:%S')}{fraction}Z"


def started_problem(value: Any) -> str | None:
    """Why ``value`` is not a start time, or ``None``."""
    if value is None:
        return None
    why = problem(Started, value)
    if why is not None:
        return f"ISO 8601 text in UTC, such as '2026-12-02T07:20:43Z', or null: {why}"
    try:
        # The pattern holds; this checks the month, day and hour are real ones (in a
        # way Python 3.10 reads too: its fromisoformat knows no "Z").
        datetime.datetime.strptime(value[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return f"ISO 8601 text in UTC: {value!r} is no such time"
    return None


def _float_seconds(values: Iterable[Any]) -> tuple[Any, ...]:
    # An integer (from JSON, or typed as 2) counts as that many seconds.
    return tuple(float(v) if type(v) is int and v.bit_length() <= 53 else v for v in values)


def _texts(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


def _agents(values: Iterable[Agent]) -> tuple[Agent, ...]:
    return tuple(values)


def _frozen_comments(comments: Mapping[int, str] | None) -> Mapping[int, str]:
    return MappingProxyType({} if comments is None else dict(sorted(comments.items(), key=_key)))


def _key(item: tuple[Any, Any]) -> tuple[bool, Any]:
    # Sorted by index; a key that is no index sorts last, for the checks to name.
    index = item[0]
    return (type(index) is not int, index if type(index) is int else 0)


def _across_fields(record: Record) -> tuple[str, str] | None:
    """(field, what it should be) for what the types of the fields alone cannot say:
    one start, agents seat by seat, a real start time, seconds and comments of actions
    the record holds; or ``None``."""
    if record.position is None and record.seed is None:
        return "seed", "an integer, or a position to start from instead"
    if record.position is not None and record.seed is not None:
        return "seed", "null in a record that starts from a position, which holds the generator"
    if record.position is not None and record.stack is not None:
        return "stack", "null in a record that starts from a position, which holds the stacks"
    for i, agent in enumerate(record.agents):
        if agent.seat != i:
            return f"agents[{i}]", f"the Agent of seat {i} (agents are given seat by seat)"
    why = started_problem(record.started)
    if why is not None:
        return "started", why
    length = len(record.actions)
    if record.seconds and len(record.seconds) != length:
        return "seconds", f"one entry per action, {length}, not {len(record.seconds)}"
    for index in record.comments:
        if not 0 <= index < length:
            return "comments", f"the indices of actions, 0 to {length - 1}, not {short_repr(index)}"
    return None


def _position_explicit(game: Any, position: str) -> bool:
    """Whether the position ``position`` of ``game`` plays with explicit chance."""
    try:
        return bool(game.position(position).explicit_chance)
    except CardcrawlError as exc:
        raise RecordError(f"record cannot start from its position: {exc}") from exc


# --------------------------------------------------------------------- record
@untagged
@attrs.frozen
class Record:
    """A saved game: which game, its options, its seed, every action in order, and
    claims about where those actions lead.

    Records made by :meth:`of`, :meth:`cardcrawl.Match.to_record` and ``cardcrawl play
    --record`` carry ``RecordClaims``; replaying checks them, and refuses a record
    whose claims fail. A record without claims (one built with ``Record(...)``, or one
    saved before records had claims) replays too, unchecked: :attr:`verified` is
    ``False`` for it.

    **The format** is a JSON object; :meth:`json_schema` gives its JSON Schema, made from
    the types of this class's fields, as the reading of records is. Its keys, those
    marked optional left out when they say nothing:

    * ``format``: 3, the format every record is written in. Records of formats 2 (no
      trace, no position) and 1 (no claims either) are still read;
    * ``game``, ``rules_version``: the game's registry name and rules version;
    * ``options``: the game's options as an object;
    * ``seed``: the generator seed, an integer from 0 to 2**64 - 1; ``null`` in a record
      that starts from a position;
    * ``position``: the position the game started from, in the game's position notation
      (see :meth:`~cardcrawl.GameBase.position`), at most 10,000 characters; optional.
      It holds the generator and the stacked tops, so such a record has no seed and no
      stack;
    * ``explicit_chance``: ``true`` when chance outcomes are recorded as actions;
    * ``actions``: each action's text form, in order;
    * ``stack``: the stacked chance outcomes by source name (optional);
    * ``claims`` (optional): an object with ``length`` (the number of actions), ``ending``
      (``{"label": ..., "returns": [...]}`` for a finished game, else ``null``),
      ``digest`` (the last state's SHA-256, 64 hex digits), ``state_format`` (the
      format of the saved states digested), ``start`` (16 hex digits for the start of
      the game) and ``trail`` (16 hex digits for the state after each action). See
      ``RecordClaims``.

    A match trace says what the recorder saw besides the actions, each key optional:

    * ``agents``: who played, seat by seat, one per seat: ``{"seat", "name", "kind"
      ("human", "bot" or "engine"), "version", "settings"}`` (see :class:`Agent`);
    * ``result``: the outcome of a finished game, ``{"label", "returns", "scores",
      "winners"}``, as :meth:`~cardcrawl.Game.outcome` gives it;
    * ``started``: when the game started, ISO 8601 text in UTC
      (``"2026-12-02T07:20:43Z"``);
    * ``seconds``: for each action, the seconds taken to choose it, or ``null``;
    * ``comments``: comments (1 to 2,000 characters) by the index of their action,
      ``{"3": "a risky step"}``.

    Replaying checks the ``result`` (and that there is one agent per seat); the agents,
    the times and the comments are the recorder's word, unchecked.

    With the claims a record grows by about 250 bytes, and 23 more per action in
    :meth:`to_json`'s layout: a game of 35 actions takes some 1.8 kB instead of 0.8.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> state = game.initial_state(seed=5)
        >>> actions = []
        >>> while not game.is_terminal(state):
        ...     action = game.legal_actions(state)[-1]
        ...     actions.append(action)
        ...     state = game.step(state, action)
        >>> record = cardcrawl.Record.of(game, seed=5, actions=actions)
        >>> again = cardcrawl.Record.from_json(record.to_json())
        >>> again.replay() == state, again.verified, again.claims.ending
        (True, True, Ending(label='consumed', returns=(0.0,)))

    Attributes:
        game: the registry name of the game or variant.
        options: the options as JSON-compatible data.
        seed: the generator seed; ``None`` for a record that starts from a position.
        actions: each action's text form, in order.
        rules_version: the game's rules version when the record was made.
        explicit_chance: the game was played with explicit chance (outcomes recorded).
        stack: the stacked chance outcomes the game started with, as JSON-compatible
            data by source name (see the game's ``initial_state``), or ``None``.
        claims: what the actions lead to, checked by :meth:`replay`; ``None`` for a
            record without claims.
        agents: who played each seat, in seat order; empty when not recorded.
        result: the outcome of the finished game, checked by :meth:`replay`; ``None``
            when not recorded or the game is not over.
        started: when the game started, ISO 8601 text in UTC, or ``None``.
        seconds: the seconds each action took to choose (``None`` for one not timed);
            empty when none was timed.
        comments: comments on actions, by the action's index.
        position: the notation of the position the game started from (see
            :meth:`~cardcrawl.GameBase.position`), or ``None`` for a game that started
            from its seed. Replaying starts from ``game.position(position)``.

    Raises:
        RecordError: a field is malformed or out of bounds, or the record names no one
            start (a seed, or a position without seed and stack); the message names the
            field.
    """

    #: The format :meth:`to_data` writes (3); formats 2 and 1 are read too.
    FORMAT: ClassVar[int] = FORMAT
    #: The keys a match trace may add to a record's data (see :meth:`to_data`).
    TRACE_KEYS: ClassVar[frozenset[str]] = TRACE_KEYS

    game: str
    options: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    seed: Seed | None
    actions: tuple[str, ...] = attrs.field(converter=_texts)
    rules_version: str
    explicit_chance: bool = False
    stack: Mapping[str, tuple[Any, ...]] | None = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, default=None, converter=_frozen_stack
    )
    claims: RecordClaims | None = attrs.field(metadata=OMITTED_WHEN_DEFAULT, default=None)
    agents: Annotated[tuple[Agent, ...], Limits(max_length=MAX_SEATS)] = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, default=(), converter=_agents
    )
    result: Outcome | None = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, default=None, converter=_normal_result
    )
    started: Started | None = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, default=None, converter=started_text
    )
    seconds: tuple[Seconds | None, ...] = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, default=(), converter=_float_seconds
    )
    comments: Mapping[int, Comment] = attrs.field(
        metadata=OMITTED_WHEN_DEFAULT, factory=dict, converter=_frozen_comments
    )
    position: Position | None = attrs.field(metadata=OMITTED_WHEN_DEFAULT, default=None)

    def __attrs_post_init__(self) -> None:
        check_fields(self, "record")
        problem = _across_fields(self)
        if problem is not None:
            raise RecordError(f"record has malformed {problem[0]} (expected {problem[1]})")

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only views of options, stack and comments (MappingProxyType) cannot
        # be pickled or deep-copied: a record is rebuilt from plain dicts, which the
        # converters freeze again.
        stack = None if self.stack is None else dict(self.stack)
        fields = (self.game, dict(self.options), self.seed, self.actions, self.rules_version)
        trace = (self.agents, self.result, self.started, self.seconds, dict(self.comments))
        start = (self.explicit_chance, stack, self.claims)
        return (type(self), (*fields, *start, *trace, self.position))

    @property
    def is_trace(self) -> bool:
        """True when the record says more than the game: who played (:attr:`agents`),
        when it started, how long each action took or comments on actions.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> record.is_trace, "comments" in record.to_data()
            (False, False)
            >>> trace = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], comments={0: "a safe start"})
            >>> trace.is_trace, trace.to_data()["comments"]
            (True, {'0': 'a safe start'})
        """
        return bool(self.agents or self.started is not None or self.seconds or self.comments) or (
            self.result is not None
        )

    @classmethod
    def of(
        cls,
        game: Game[Any, Any, Any],
        seed: int | None = None,
        actions: Sequence[Any] = (),
        *,
        position: str | None = None,
        explicit_chance: bool | None = None,
        stack: Mapping[str, Sequence[Any]] | None = None,
        agents: Sequence[Agent] = (),
        started: str | datetime.datetime | None = None,
        seconds: Sequence[float | None] = (),
        comments: Mapping[int, str] | None = None,
    ) -> Record:
        """The record of a game played from ``game.initial_state(seed)``, or from
        ``game.position(position)``, with ``actions``.

        The actions are replayed, from their text form, to write the record's claims.
        Given any of ``agents``, ``started``, ``seconds`` or ``comments``, the record is
        a *match trace*: it names the result of a finished game too (:attr:`result`).

        Args:
            game: the game played (its name, options and rules version are recorded).
            seed: the seed the game started from; ``None`` with a ``position``.
            actions: the actions in order, as values or in their text form; in
                explicit-chance play, the chance outcomes too.
            position: the notation of the position the game started from, instead of
                a seed (it holds the generator, the stacked tops and explicit chance).
            explicit_chance: the game was played with explicit chance (default: as the
                position says, else ``False``).
            stack: the stacked chance outcomes the game started with, as given to
                ``initial_state``, or ``None``.
            agents: who played, one :class:`Agent` per seat in seat order.
            started: when the game started: an aware :class:`~datetime.datetime` in UTC,
                or ISO 8601 text such as ``"2026-12-02T07:20:43Z"``.
            seconds: for each action, the seconds it took to choose (``None`` for one
                not timed, such as a chance outcome); empty for none timed.
            comments: comments by the index of the action they are about.

        Returns:
            The record, with its claims.

        Raises:
            RecordError: the game cannot start from ``seed`` and ``stack`` or from
                ``position`` (the notation's error, naming its field, is the cause), an
                action does not replay (the message names the first that fails), or a
                field is malformed or out of bounds (the message names it).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=50)
            >>> record = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], stack={"mind": "2H"})
            >>> record.game, record.options["max_turns"], record.actions, dict(record.stack)
            ('mapless-house', 50, ('place 1,0',), {'mind': ('2H',)})
            >>> record.claims.length, record.verified
            (1, True)

            From a position (see the documentation's page *Position notation*):

            >>> text = "AD phase=place:KS player=0,0 rng=0000000000000001"
            >>> record = cardcrawl.Record.of(game, position=text, actions=["place 1,0"])
            >>> record.seed, record.to_data()["position"] == text
            (None, True)
        """
        if explicit_chance is None:
            explicit_chance = position is not None and _position_explicit(game, position)
        record = cls._unclaimed(
            game,
            seed,
            actions,
            explicit_chance=explicit_chance,
            stack=stack,
            agents=agents,
            started=started,
            seconds=seconds,
            comments=comments,
            position=position,
        )
        return record._claimed(game, list(record._replay(game)))

    @classmethod
    def _of_play(
        cls,
        game: Any,
        seed: int | None,
        actions: Sequence[Any],
        states: Sequence[Any],
        **fields: Any,
    ) -> Record:
        """:meth:`of` without replaying, for a caller that holds every state the actions
        made (the initial one first), such as :class:`~cardcrawl.Match`."""
        return cls._unclaimed(game, seed, actions, **fields)._claimed(game, states)

    @classmethod
    def _unclaimed(
        cls, game: Any, seed: int | None, actions: Sequence[Any], **fields: Any
    ) -> Record:
        """The record of ``actions`` played in ``game`` from ``seed``, without claims."""
        return cls(
            game=game.name,
            options=game.options.to_data(),
            seed=seed,
            actions=tuple(game.format_action(a) for a in actions),
            rules_version=game.rules_version,
            **fields,
        )

    def _claimed(self, game: Any, states: Sequence[Any]) -> Record:
        """This record with the claims of ``states``, the states its actions make, and
        for a trace its result."""
        self._check_agents(game)
        result = _result_of(game, states[-1]) if self.is_trace else None
        start = self._start_digest(state_data(game, states[0])[1])
        return attrs.evolve(self, claims=_claims.claims_of(start, game, states), result=result)

    @property
    def verified(self) -> bool:
        """True when the record carries claims, which replaying it checks.

        A record with claims that replays without a :class:`~cardcrawl.RecordError` is
        the game that was recorded: no entry cut off, added or changed. A record
        without claims (one built with ``Record(...)``, or saved before records had
        claims) replays as well, but unverified: a cut or an edited action that stays
        legal would go unseen.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> data = record.to_data()
            >>> del data["claims"]
            >>> old = cardcrawl.Record.from_data({**data, "format": 1})
            >>> record.verified, old.verified, old.replay() == record.replay()
            (True, False, True)
        """
        return self.claims is not None

    def load_game(self) -> Game[Any, Any, Any]:
        """The game this record was played with.

        The name is looked up as :func:`~cardcrawl.load` looks it up, so the games and
        variants of installed plug-ins are found too (see :func:`~cardcrawl.load_plugins`).

        Returns:
            The game, loaded by name with the recorded options.

        Raises:
            RecordError: the game is unknown, its options are invalid, or the record was
                made under another rules version.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=40)
            >>> cardcrawl.Record.of(game, seed=3, actions=[]).load_game() == game
            True
        """
        try:
            game: Game[Any, Any, Any] = load(self.game, **self.options)
        except CardcrawlError as exc:
            # Chained: the command line tells an unknown game (hint: --import) apart.
            raise RecordError(f"record cannot load its game: {exc}") from exc
        if game.rules_version != self.rules_version:
            raise RecordError(
                f"record was made under rules version {self.rules_version!r} of {self.game}; "
                f"this library plays version {game.rules_version!r} and will not replay it wrongly"
            )
        return game

    def _start(self, game: Any) -> Any:
        """The initial state: from the seed and stack, or read from the position."""
        if self.position is None:
            try:
                return game.initial_state(
                    self.seed, explicit_chance=self.explicit_chance, stack=self.stack
                )
            except CardcrawlError as exc:
                raise RecordError(f"record cannot start its game: {exc}") from None
        try:
            state = game.position(self.position)
        except CardcrawlError as exc:
            # Chained: the NotationError names the field of the position at fault.
            raise RecordError(f"record cannot start from its position: {exc}") from exc
        if bool(state.explicit_chance) != self.explicit_chance:
            flag = "has" if state.explicit_chance else "lacks"
            raise RecordError(
                f"record's explicit_chance is {str(self.explicit_chance).lower()}, but its "
                f"position {flag} the explicit_chance flag: the two must agree"
            )
        return state

    def _replay(self, game: Any) -> Iterator[Any]:
        """The initial state, then the state after each action, each action checked."""
        state = self._start(game)
        yield state
        for i, text in enumerate(self.actions):
            try:
                action = game.parse_action(text)
                state = game.step(state, action)
            except CardcrawlError as exc:
                raise RecordError(f"record entry {i} ({text!r}) does not replay: {exc}") from None
            yield state

    def _check_agents(self, game: Any) -> None:
        if self.agents and len(self.agents) != game.num_players:
            raise RecordError(
                f"record's agents claim fails: it names {len(self.agents)} agents, one per "
                f"seat, for a game of {self.game} that seats {game.num_players}"
            )

    def _start_digest(self, initial: Any) -> str:
        """The claim ``start`` for this record, whose initial state's data is ``initial``."""
        start = {
            "explicit_chance": self.explicit_chance,
            "options": dict(self.options),
            "seed": self.seed,
            "stack": self._stack_data(),
            "state": initial,
        }
        if self.position is not None:
            # Only then: a record without a position digests as it always has.
            start["position"] = self.position
        return canonical_digest(start)[:PREFIX]

    def _stack_data(self) -> dict[str, list[Any]] | None:
        return None if self.stack is None else {k: list(v) for k, v in self.stack.items()}

    def _check_start(self, game: Any, initial: Any, claims: RecordClaims) -> None:
        state_format, data = state_data(game, initial)
        _claims.check_state_format(game, self.game, state_format, claims)
        found = self._start_digest(data)
        if found == claims.start:
            return
        if self.position is not None:
            raise RecordError(
                f"record's start claim fails: it claims a start with digest {claims.start}; "
                f"its position with its options and explicit_chance gives {found}. The "
                "position, an option or explicit_chance is not the one the game was played with"
            )
        raise RecordError(
            f"record's start claim fails: it claims a start with digest {claims.start}; "
            f"seed {self.seed} with its options, stack and explicit_chance gives {found}. "
            "The seed, an option, the stack or explicit_chance is not the one the game "
            "was played with"
        )

    def states(self) -> Iterator[GameState]:
        """Every state of the game, from the initial state to the last, verified.

        Each state is checked against the record's claims before it is given: the start
        first, then the state after each action against the trail. The claims about the
        end (length, ending, final digest) are checked after the last state is given,
        so reading every state, as :meth:`replay` does, checks them all.

        Yields:
            The initial state, then the state after each action in turn.

        Raises:
            RecordError: naming the first entry that is malformed, illegal, or makes a
                state other than the one recorded, or the claim that fails.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0", "place 2,0"])
            >>> states = list(record.states())
            >>> len(states), states[0] == game.initial_state(seed=3)
            (3, True)
        """
        game = self.load_game()
        self._check_agents(game)
        claims = self.claims
        replayed = self._replay(game)
        last = next(replayed)
        if claims is not None:
            self._check_start(game, last, claims)
        yield last
        for i, state in enumerate(replayed):
            if claims is not None:
                _claims.check_entry(game, i, self.actions[i], state, claims)
            yield state
            last = state
        if claims is not None:
            digest = canonical_digest(state_data(game, last)[1])
            _claims.check_end(game, len(self.actions), last, digest, claims)
        if self.result is not None:
            found = _result_of(game, last)
            if found != self.result:
                raise RecordError(
                    f"record's result claim fails: it claims {_result_told(self.result)}; "
                    f"replaying gives {_result_told(found)}"
                )

    def replay(self) -> GameState:
        """The final state, after verifying every entry and claim (see :meth:`states`).

        Raises:
            RecordError: naming the first entry that is malformed, illegal, or makes a
                state other than the one recorded, or the claim that fails.

        Examples:
            >>> import attrs, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0", "place 2,0"])
            >>> attrs.evolve(record, seed=4).replay()  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordError: record's start claim fails: ...
            >>> attrs.evolve(record, actions=record.actions[:1]).replay()  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordError: record fails its length and final digest claims: ...
        """
        *_, last = self.states()
        return last

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of records, made from the types of this class's
        fields: the schema of format 3, which formats 2 and 1 meet too (each without
        some keys).

        It ships in the package as ``cardcrawl/play/record.schema.json``.
        :meth:`from_data` checks a little more than a schema can say: that the trail
        holds one digest per action, that a record from a position has no seed, that
        seconds and comments are about actions the record holds, that agents come seat
        by seat, that a start time is a real one, and that records nest at most 100
        levels deep.

        Examples:
            >>> import cardcrawl
            >>> schema = cardcrawl.Record.json_schema()
            >>> schema["properties"]["format"]["enum"], "claims" in schema["properties"]
            ([1, 2, 3], True)
            >>> schema["properties"]["comments"]["additionalProperties"]
            {'type': 'string', 'minLength': 1, 'maxLength': 2000}
        """
        return schema_of(cls)

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-compatible data, in format 3: the keys that say nothing (no
        stack, no claims, no trace, no position) are left out.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).to_data()
            >>> data["format"], list(data)[-1], sorted(data["claims"])
            (3, 'claims', ['digest', 'ending', 'length', 'start', 'state_format', 'trail'])
        """
        data: dict[str, Any] = {"format": FORMAT, **encode(self)}
        return data

    @classmethod
    def from_data(cls, data: Any) -> Record:
        """A record from :meth:`to_data` output, checked for shape (not yet replayed).

        Records of format 2 (without a trace) and of format 1 (without claims either)
        are read too, as the format 3 records they are; a record without claims replays
        unverified (see :attr:`verified`).

        Args:
            data: the record as JSON-compatible data.

        Returns:
            The record.

        Raises:
            SerializationError: malformed data (the message names the field and what it
                should be), a field out of bounds, or lists and objects nested more than
                100 levels deep.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).to_data()
            >>> cardcrawl.Record.from_data(data).actions
            ('place 1,0',)
            >>> cardcrawl.Record.from_data({**data, "seed": "3"})
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: record.seed: expected an integer, found '3'
        """
        fields = upgraded(data)
        check_depth(fields)
        try:
            record: Record = decode(cls, fields, "record")
        except SerializationError as exc:
            if isinstance(exc.__cause__, RecordError):
                # A rule across fields, which the record's own checks name in full.
                raise SerializationError(str(exc.__cause__)) from None
            raise
        return record

    def to_json(self) -> str:
        """The record as a JSON document.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> cardcrawl.Record.from_json(record.to_json()) == record
            True
        """
        return json.dumps(self.to_data(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """A record from :meth:`to_json` output.

        Args:
            text: the JSON document.

        Returns:
            The record (not yet replayed: :meth:`replay` checks it).

        Raises:
            SerializationError: the text is not JSON, or not a record; JSON nested
                too deeply or with a number too long to read counts as not JSON.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Record.from_json("[" * 100_000)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: a record is JSON text: it nests ... too deeply ...
        """
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise SerializationError(f"a record is JSON text: {exc}") from None
        except (RecursionError, ValueError) as exc:
            raise SerializationError(f"a record is JSON text: {unreadable(exc)}") from None
        return cls.from_data(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to the file ``path`` as its JSON document (:meth:`to_json`).

        The document is written in UTF-8 to a temporary file beside ``path``, which then
        replaces ``path`` in one step: a reader never finds half a record, and a failed
        save leaves any file that was there as it was.

        Args:
            path: where to write; the folder must exist.

        Raises:
            RecordFileError: the file cannot be written (no such folder, no permission).

        Examples:
            >>> import pathlib, tempfile, cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"])
            >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
            >>> record.save(path)
            >>> cardcrawl.Record.load(path) == record
            True
        """
        _files.write_text(path, self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """The record in the file ``path``, as :meth:`save` writes it.

        The file is read as UTF-8 and checked as :meth:`from_json` checks text; like
        it, this does not replay the record (:meth:`replay` does).

        Args:
            path: the record file.

        Returns:
            The record.

        Raises:
            RecordFileError: there is no such file, or it cannot be read (a folder, no
                permission, not UTF-8 text).
            SerializationError: the file holds no record: not JSON, or JSON that is
                not a record (the message names the file).

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Record.load("no-such-record.json")
            Traceback (most recent call last):
            ...
            cardcrawl.errors.RecordFileError: no record file at 'no-such-record.json'
        """
        text = _files.read_text(path)
        try:
            return cls.from_json(text)
        except SerializationError as exc:
            raise SerializationError(f"{os.fspath(path)}: {exc}") from None
