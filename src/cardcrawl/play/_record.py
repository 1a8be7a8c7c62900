"""Game records: a whole game as options, seed and actions, replayed and verified.

A record is the smallest faithful account of a game: everything else follows from the
rules. In explicit-chance play the chance outcomes are actions too, so they are recorded
in sequence with the decisions.

A record also carries *claims* about what its actions lead to: how many there are, how
the game ended, and a digest of every state along the way. Replaying checks them, so a
record cut short, or with its seed or one decision changed to another legal one, is
refused, and the message names the first entry whose state is not the one recorded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from cardcrawl.core._codec import encode
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError, RecordError, RecordFileError, SerializationError

__all__ = ["Record", "RecordClaims"]


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


# How deeply lists and objects may nest in a record's data. A real record nests a few
# levels (options holding a table, a stack of cells); the limit keeps hostile data from
# reaching the recursion limit in the code that reads it.
_MAX_DEPTH = 100


def _unreadable(exc: RecursionError | ValueError) -> str:
    """Why ``json.loads`` refused text that is JSON, but not JSON Python can hold."""
    # The decoder recurses once per level of nesting, so hostile text ("[" * 10**5)
    # reaches the recursion limit; and Python refuses to read integers of more than
    # sys.get_int_max_str_digits() digits, with a plain ValueError.
    if isinstance(exc, RecursionError):
        return "it nests lists or objects too deeply to read"
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit and "integer string conversion" in str(exc):
        return f"it holds an integer of more than {limit} digits, which Python does not read"
    return str(exc)


def _check_depth(data: Any) -> None:
    """Raise SerializationError if lists and dicts in ``data`` nest over _MAX_DEPTH."""
    # Iterative, so that checking deep data cannot itself exceed the recursion limit.
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            continue
        if depth > _MAX_DEPTH:
            raise SerializationError(
                f"a record nests lists and objects at most {_MAX_DEPTH} levels deep; "
                "this one nests deeper"
            )
        pending.extend((child, depth + 1) for child in children)


# --------------------------------------------------------------------- claims
#: The record format this library writes: format 2, a record with its claims.
RECORD_FORMAT = 2
# Format 1 is a record without claims. It is still read, and replays unverified; a
# record built without claims is written in it, so that it reads back as what it is.
_UNCLAIMED_FORMAT = 1
# Hex digits kept of each state's digest in the trail: 64 bits tell a changed state
# from the recorded one as surely as the full 256 would (the final state keeps all
# 64 digits), at a quarter of the size.
_PREFIX = 16
_HEX_DIGITS = frozenset("0123456789abcdef")

Ending = tuple[str, tuple[float, ...]]


def _canonical_digest(data: Any) -> str:
    """The SHA-256, in hex, of ``data`` as canonical JSON (sorted keys, no spaces)."""
    try:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError) as exc:
        # An integer too long for text, or data nested too deep, cannot be a record's.
        raise RecordError(f"the record holds data that JSON text cannot: {_shown(exc)}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _state_data(game: Any, state: Any) -> tuple[int | None, Any]:
    """(the format of the game's saved states, the data of ``state`` that is digested)."""
    data = game.state_to_data(state)
    # The state alone, without the tags that name its game and versions: the record
    # holds those itself, and load_game() checks the rules version before replaying.
    fmt = data.get("format")
    return (fmt if type(fmt) is int else None), data.get("state", data)


def _ending(game: Any, state: Any) -> Ending | None:
    """(label, returns) of a finished game, or ``None`` while it goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    return (outcome.label, tuple(float(r) for r in outcome.returns))


def _told(length: int, ending: Ending | None, digest: str) -> str:
    """A length, an ending and a final digest, in words."""
    actions = f"{length} action{'' if length == 1 else 's'}"
    if ending is None:
        over = "a game not over"
    else:
        over = f"a game ended {ending[0]!r} with returns {ending[1]}"
    return f"{actions}, {over} and a final state whose digest begins {digest[:_PREFIX]}"


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class RecordClaims:
    """What a record says its actions lead to; replaying the record checks every claim.

    A state's digest is the SHA-256 of its data, ``game.state_to_data(state)["state"]``,
    as canonical JSON: ``json.dumps(data, sort_keys=True, separators=(",", ":"))``,
    encoded in UTF-8. The claims catch a record that was cut, edited or corrupted; they
    are no signature, since anyone can replay a record and write its claims afresh.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house")
        >>> claims = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).claims
        >>> claims.length, claims.ending, len(claims.digest), len(claims.trail[0])
        (1, None, 64, 16)
        >>> claims.trail[-1] == claims.digest[:16]
        True

    Attributes:
        length: how many actions the record holds.
        ending: the finished game's outcome as its label and returns, such as
            ``("escaped", (1.0,))``; ``None`` for a game not over.
        digest: the digest of the last state, 64 hex digits.
        start: the first 16 hex digits of the digest of the game's start: the record's
            options, seed, explicit chance and stack with the initial state's data,
            ``{"explicit_chance": ..., "options": ..., "seed": ..., "stack": ...,
            "state": ...}``.
        trail: for each action in turn, the first 16 hex digits of the digest of the
            state after it; ``trail[-1]`` is the start of ``digest``.
        state_format: the ``format`` of the game's saved states that the digests were
            made from (``None`` if its saved states name none).
    """

    length: int
    ending: Ending | None
    digest: str
    start: str
    trail: tuple[str, ...] = attrs.field(converter=_strings)
    state_format: int | None


def _claims_of(record: Record, game: Any, states: Sequence[Any]) -> RecordClaims:
    """The claims of ``record``, whose states (the initial one first) are ``states``."""
    saved = [_state_data(game, s) for s in states]
    digests = [_canonical_digest(data) for _, data in saved]
    return RecordClaims(
        length=len(states) - 1,
        ending=_ending(game, states[-1]),
        digest=digests[-1],
        start=record._start_digest(saved[0][1]),
        trail=tuple(d[:_PREFIX] for d in digests[1:]),
        state_format=saved[0][0],
    )


def _shown(value: Any) -> str:
    """``repr(value)``, short, for a message about data that may be hostile."""
    # Python refuses to write integers of over 4300 digits as text (ValueError), and
    # the repr of lists nested thousands deep reaches the recursion limit.
    if type(value) is int and value.bit_length() > 64:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _is_hex(value: Any, digits: int) -> bool:
    return isinstance(value, str) and len(value) == digits and set(value) <= _HEX_DIGITS


def _is_ending(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and set(value) == {"label", "returns"}
        and isinstance(value["label"], str)
        and isinstance(value["returns"], list)
        # An integer return must fit a float exactly; the claim holds returns as floats.
        and all(
            type(r) is float or (type(r) is int and r.bit_length() <= 53) for r in value["returns"]
        )
    )


def _claims_from_data(data: Any) -> RecordClaims:
    """The claims of a record's data, checked for shape."""
    keys = {"length", "ending", "digest", "start", "trail", "state_format"}
    if not isinstance(data, dict) or set(data) != keys:
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise SerializationError(
            f"a record's claims are an object with keys {sorted(keys)}; found {found}"
        )
    length = data["length"]
    trail = data["trail"]
    expected = {
        "length": ("a count of actions, an integer from 0", _is_count(length)),
        "ending": (
            'null, or an object {"label": text, "returns": [numbers]}',
            _is_ending(data["ending"]),
        ),
        "digest": ("64 hex digits (0-9, a-f)", _is_hex(data["digest"], 64)),
        "start": (f"{_PREFIX} hex digits (0-9, a-f)", _is_hex(data["start"], _PREFIX)),
        "trail": (
            f"a list of {_shown(length) if _is_count(length) else 'claims.length'} strings of "
            f"{_PREFIX} hex digits, one per action",
            isinstance(trail, list)
            and all(_is_hex(d, _PREFIX) for d in trail)
            and (not _is_count(length) or len(trail) == length),
        ),
        "state_format": (
            "an integer or null",
            data["state_format"] is None or type(data["state_format"]) is int,
        ),
    }
    bad = [f"claims.{name} (expected {what})" for name, (what, ok) in expected.items() if not ok]
    if bad:
        raise SerializationError(f"record has malformed {', '.join(bad)}")
    ending = data["ending"]
    return RecordClaims(
        length=length,
        ending=None if ending is None else (ending["label"], tuple(map(float, ending["returns"]))),
        digest=data["digest"],
        start=data["start"],
        trail=trail,
        state_format=data["state_format"],
    )


def _claims_to_data(claims: RecordClaims) -> dict[str, Any]:
    ending = claims.ending
    return {
        "length": claims.length,
        "ending": None if ending is None else {"label": ending[0], "returns": list(ending[1])},
        "digest": claims.digest,
        "state_format": claims.state_format,
        "start": claims.start,
        "trail": list(claims.trail),
    }


# --------------------------------------------------------------------- record
@attrs.frozen
class Record:
    """A saved game: which game, its options, its seed, every action in order, and
    claims about where those actions lead.

    Records made by :meth:`of`, :meth:`cardcrawl.Match.to_record` and ``cardcrawl play
    --record`` carry :class:`RecordClaims`; replaying checks them, and refuses a record
    whose claims fail. A record without claims (one of format 1, or one built with
    ``Record(...)``) replays too, unchecked: :attr:`verified` is ``False`` for it.

    **The format** (:attr:`FORMAT`, 2) is a JSON object; :meth:`json_schema` gives its
    JSON Schema. Its keys:

    * ``format``: 2 (1 for a record without claims, which has no ``claims`` key);
    * ``game``, ``rules_version``: the game's registry name and rules version;
    * ``options``: the game's options as an object;
    * ``seed``: the generator seed, an integer from 0 to 2**64 - 1;
    * ``explicit_chance``: ``true`` when chance outcomes are recorded as actions;
    * ``actions``: each action's text form, in order;
    * ``stack``: the stacked chance outcomes by source name, or ``null`` (optional);
    * ``claims``: an object with ``length`` (the number of actions), ``ending``
      (``{"label": ..., "returns": [...]}`` for a finished game, else ``null``),
      ``digest`` (the last state's SHA-256, 64 hex digits), ``state_format`` (the
      format of the saved states digested), ``start`` (16 hex digits for the start of
      the game) and ``trail`` (16 hex digits for the state after each action). See
      :class:`RecordClaims`.

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
        (True, True, ('consumed', (0.0,)))

    Attributes:
        game: the registry name of the game or variant.
        options: the options as JSON-compatible data.
        seed: the generator seed.
        actions: each action's text form, in order.
        rules_version: the game's rules version when the record was made.
        explicit_chance: the game was played with explicit chance (outcomes recorded).
        stack: the stacked chance outcomes the game started with, as JSON-compatible
            data by source name (see the game's ``initial_state``), or ``None``.
        claims: what the actions lead to, checked by :meth:`replay`; ``None`` for a
            record without claims.
    """

    #: The format of a record with claims, the one :meth:`to_data` writes.
    FORMAT: ClassVar[int] = RECORD_FORMAT

    game: str
    options: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    seed: int
    actions: tuple[str, ...] = attrs.field(converter=tuple)
    rules_version: str
    explicit_chance: bool = False
    stack: Mapping[str, tuple[Any, ...]] | None = attrs.field(default=None, converter=_frozen_stack)
    claims: RecordClaims | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only views of options and stack (MappingProxyType) cannot be pickled
        # or deep-copied: a record is rebuilt from plain dicts, which the converters
        # freeze again.
        stack = None if self.stack is None else dict(self.stack)
        fields = (self.game, dict(self.options), self.seed, self.actions, self.rules_version)
        return (type(self), (*fields, self.explicit_chance, stack, self.claims))

    @classmethod
    def of(
        cls,
        game: Any,
        seed: int,
        actions: Sequence[Any],
        *,
        explicit_chance: bool = False,
        stack: Mapping[str, Sequence[Any]] | None = None,
    ) -> Record:
        """The record of a game played from ``game.initial_state(seed)`` with ``actions``.

        The actions are replayed, from their text form, to write the record's claims.

        Args:
            game: the game played (its name, options and rules version are recorded).
            seed: the seed the game started from.
            actions: the actions in order, as values or in their text form; in
                explicit-chance play, the chance outcomes too.
            explicit_chance: the game was played with explicit chance.
            stack: the stacked chance outcomes the game started with, as given to
                ``initial_state``, or ``None``.

        Returns:
            The record, with its claims.

        Raises:
            RecordError: the game cannot start from ``seed`` and ``stack``, or an action
                does not replay; the message names the first that fails.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=50)
            >>> record = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], stack={"mind": "2H"})
            >>> record.game, record.options["max_turns"], record.actions, dict(record.stack)
            ('mapless-house', 50, ('place 1,0',), {'mind': ('2H',)})
            >>> record.claims.length, record.verified
            (1, True)
        """
        record = cls(
            game=game.name,
            options=game.options.to_data(),
            seed=seed,
            actions=tuple(game.format_action(a) for a in actions),
            rules_version=game.rules_version,
            explicit_chance=explicit_chance,
            stack=stack,
        )
        return record._claimed(game, list(record._replay(game)))

    def _claimed(self, game: Any, states: Sequence[Any]) -> Record:
        """This record with the claims of ``states``, the states its actions make."""
        return attrs.evolve(self, claims=_claims_of(self, game, states))

    @property
    def verified(self) -> bool:
        """True when the record carries claims, which replaying it checks.

        A record with claims that replays without a :class:`~cardcrawl.RecordError` is
        the game that was recorded: no entry cut off, added or changed. A record
        without claims (format 1) replays as well, but unverified: a cut or an edited
        action that stays legal would go unseen.

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

    def load_game(self) -> Any:
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
            game = load(self.game, **self.options)
        except CardcrawlError as exc:
            # Chained: the command line tells an unknown game (hint: --import) apart.
            raise RecordError(f"record cannot load its game: {exc}") from exc
        if game.rules_version != self.rules_version:
            raise RecordError(
                f"record was made under rules version {self.rules_version!r} of {self.game}; "
                f"this library plays version {game.rules_version!r} and will not replay it wrongly"
            )
        return game

    def _replay(self, game: Any) -> Iterator[Any]:
        """The initial state, then the state after each action, each action checked."""
        try:
            state = game.initial_state(
                self.seed, explicit_chance=self.explicit_chance, stack=self.stack
            )
        except CardcrawlError as exc:
            raise RecordError(f"record cannot start its game: {exc}") from None
        yield state
        for i, text in enumerate(self.actions):
            try:
                action = game.parse_action(text)
                state = game.step(state, action)
            except CardcrawlError as exc:
                raise RecordError(f"record entry {i} ({text!r}) does not replay: {exc}") from None
            yield state

    def _start_digest(self, initial: Any) -> str:
        """The claim ``start`` for this record, whose initial state's data is ``initial``."""
        start = {
            "explicit_chance": self.explicit_chance,
            "options": dict(self.options),
            "seed": self.seed,
            "stack": self._stack_data(),
            "state": initial,
        }
        return _canonical_digest(start)[:_PREFIX]

    def _check_start(self, game: Any, initial: Any, claims: RecordClaims) -> None:
        state_format, data = _state_data(game, initial)
        if state_format != claims.state_format:
            raise RecordError(
                f"record's digests were made from {self.game} states saved in format "
                f"{_shown(claims.state_format)}; this library saves them in format {state_format}, "
                "so it cannot check them"
            )
        found = self._start_digest(data)
        if found != claims.start:
            raise RecordError(
                f"record's start claim fails: it claims a start with digest {claims.start}; "
                f"seed {self.seed} with its options, stack and explicit_chance gives {found}. "
                "The seed, an option, the stack or explicit_chance is not the one the game "
                "was played with"
            )

    def _check_entry(self, game: Any, i: int, state: Any, claims: RecordClaims) -> str:
        """The digest of ``state``, made by entry ``i``, checked against the trail."""
        digest = _canonical_digest(_state_data(game, state)[1])
        text = self.actions[i]
        if i >= len(claims.trail):
            raise RecordError(
                f"record entry {i} ({text!r}) was added: the record claims "
                f"{claims.length} actions, so this entry and any after it are not the game's"
            )
        if digest[:_PREFIX] != claims.trail[i]:
            raise RecordError(
                f"record entry {i} ({text!r}) is not the action recorded: the record claims "
                f"the state after it has digest {claims.trail[i]}; replaying gives "
                f"{digest[:_PREFIX]}. Every state before it is the one recorded, so this "
                "entry (or its claim in the trail) was changed"
            )
        return digest

    def _check_end(self, game: Any, last: Any, digest: str, claims: RecordClaims) -> None:
        length = len(self.actions)
        ending = _ending(game, last)
        checks = [
            ("length", length == claims.length),
            ("ending", ending == claims.ending),
            ("final digest", digest == claims.digest),
        ]
        failed = [name for name, ok in checks if not ok]
        if not failed:
            return
        if length < claims.length:
            missing = claims.length - length
            why = (
                f"the record was cut short: {missing} of its {claims.length} entries "
                f"{'is' if missing == 1 else 'are'} missing, after entry {length - 1}"
                if length
                else f"the record was cut short: all {claims.length} of its entries are missing"
            )
        else:
            why = "its states are the ones recorded, so the claims themselves were changed"
        raise RecordError(
            f"record fails its {_listed(failed)} claim{'s' if len(failed) > 1 else ''}: "
            f"the record claims {_told(claims.length, claims.ending, claims.digest)}; "
            f"replaying gives {_told(length, ending, digest)}. {why[0].upper()}{why[1:]}"
        )

    def states(self) -> Iterator[Any]:
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
        claims = self.claims
        replayed = self._replay(game)
        last = next(replayed)
        if claims is not None:
            self._check_start(game, last, claims)
        yield last
        for i, state in enumerate(replayed):
            if claims is not None:
                self._check_entry(game, i, state, claims)
            yield state
            last = state
        if claims is not None:
            digest = _canonical_digest(_state_data(game, last)[1])
            self._check_end(game, last, digest, claims)

    def replay(self) -> Any:
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
        """The JSON Schema (draft 2020-12) of records, of format 2 and of format 1.

        The schema is shipped in the package as ``cardcrawl/play/record.schema.json``.
        :meth:`from_data` checks a little more than it can say: that the trail holds
        one digest per action, and that records nest at most 100 levels deep.

        Examples:
            >>> import cardcrawl
            >>> schema = cardcrawl.Record.json_schema()
            >>> schema["properties"]["format"]["enum"], "claims" in schema["properties"]
            ([1, 2], True)
        """
        text = resources.files(__package__).joinpath("record.schema.json").read_text("utf-8")
        schema: dict[str, Any] = json.loads(text)
        return schema

    def _stack_data(self) -> dict[str, list[Any]] | None:
        return None if self.stack is None else {k: list(v) for k, v in self.stack.items()}

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-compatible data: format 2, or 1 for a record without claims.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = cardcrawl.Record.of(game, seed=3, actions=["place 1,0"]).to_data()
            >>> data["format"], list(data)[-1], sorted(data["claims"])
            (2, 'claims', ['digest', 'ending', 'length', 'start', 'state_format', 'trail'])
        """
        data = {
            "format": _UNCLAIMED_FORMAT if self.claims is None else RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seed": self.seed,
            "explicit_chance": self.explicit_chance,
            "actions": list(self.actions),
            "stack": self._stack_data(),
        }
        if self.claims is not None:
            data["claims"] = _claims_to_data(self.claims)
        return data

    @classmethod
    def from_data(cls, data: Any) -> Record:
        """A record from :meth:`to_data` output, checked for shape (not yet replayed).

        Records of format 1, which have no claims, are read too: they replay
        unverified (see :attr:`verified`).

        Args:
            data: the record as JSON-compatible data.

        Returns:
            The record.

        Raises:
            SerializationError: malformed data, or lists and objects nested more than
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
            cardcrawl.errors.SerializationError: record has malformed seed
        """
        if not isinstance(data, dict):
            raise SerializationError(
                f"a record is an object with keys {sorted(_KEYS)}; found {type(data).__name__}"
            )
        fmt = data.get("format")
        # Compared as an int only: JSON true is no format, though True == 1 in Python.
        known = fmt if type(fmt) is int else None
        if known is not None and known not in (_UNCLAIMED_FORMAT, RECORD_FORMAT):
            raise SerializationError(
                f"record format {_shown(fmt)} is not one this library reads: it reads format "
                f"{RECORD_FORMAT}, and format {_UNCLAIMED_FORMAT}, which has no claims"
            )
        keys = _KEYS - {"claims"} if known == _UNCLAIMED_FORMAT else _KEYS
        # "stack" is optional: records of unstacked games may leave it out.
        if set(data) - {"stack"} != keys:
            of = "" if known is None else f" of format {known}"
            raise SerializationError(
                f"a record{of} is an object with keys {sorted(keys)}; found {sorted(data)}"
            )
        if known is None:
            raise SerializationError(
                f"record format {_shown(fmt)} is not {RECORD_FORMAT} or {_UNCLAIMED_FORMAT}, "
                "the ones this library reads"
            )
        checks = {
            "game": isinstance(data["game"], str),
            "rules_version": isinstance(data["rules_version"], str),
            "options": isinstance(data["options"], dict),
            "seed": isinstance(data["seed"], int) and not isinstance(data["seed"], bool),
            "explicit_chance": isinstance(data["explicit_chance"], bool),
            "actions": isinstance(data["actions"], list)
            and all(isinstance(a, str) for a in data["actions"]),
            "stack": data.get("stack") is None
            or (
                isinstance(data["stack"], dict)
                and all(isinstance(v, list) for v in data["stack"].values())
            ),
        }
        bad = [k for k, ok in checks.items() if not ok]
        if bad:
            raise SerializationError(f"record has malformed {', '.join(bad)}")
        claims = None if known == _UNCLAIMED_FORMAT else _claims_from_data(data["claims"])
        _check_depth(data)
        return cls(
            game=data["game"],
            options=data["options"],
            seed=data["seed"],
            actions=data["actions"],
            rules_version=data["rules_version"],
            explicit_chance=data["explicit_chance"],
            stack=data.get("stack"),
            claims=claims,
        )

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
            raise SerializationError(f"a record is JSON text: {_unreadable(exc)}") from None
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
        text = self.to_json() + "\n"
        target = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(target))
        try:
            handle, temporary = tempfile.mkstemp(
                prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
            )
        except OSError as exc:
            raise RecordFileError(
                f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
            ) from None
        try:
            # mkstemp makes the file private (0o600); a record is as readable as any
            # file written in place, or keeps the mode of the file it replaces.
            try:
                mode = stat.S_IMODE(os.stat(target).st_mode)
            except OSError:
                mode = 0o644
            os.chmod(temporary, mode)
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise RecordFileError(
                f"cannot write a record to {target!r}: {exc.strerror or exc}", path=target
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

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
        source = os.fspath(path)
        try:
            with open(source, encoding="utf-8") as stream:
                text = stream.read()
        except FileNotFoundError:
            raise RecordFileError(f"no record file at {source!r}", path=source) from None
        except UnicodeDecodeError as exc:
            raise RecordFileError(
                f"cannot read the record file {source!r}: it is not UTF-8 text ({exc.reason} "
                f"at byte {exc.start})",
                path=source,
            ) from None
        except OSError as exc:
            raise RecordFileError(
                f"cannot read the record file {source!r}: {exc.strerror or exc}", path=source
            ) from None
        try:
            return cls.from_json(text)
        except SerializationError as exc:
            raise SerializationError(f"{source}: {exc}") from None


# The keys of a record of format 2, "stack" aside (it may be left out).
_KEYS = frozenset(
    {"format", "game", "rules_version", "options", "seed", "explicit_chance", "actions", "claims"}
)


def _record_of_play(
    game: Any,
    seed: int,
    actions: Sequence[Any],
    states: Sequence[Any],
    *,
    explicit_chance: bool,
    stack: Mapping[str, Sequence[Any]] | None,
) -> Record:
    """The record of a game whose states (the initial one first) are already known.

    :meth:`Record.of` without replaying: for :class:`~cardcrawl.Match`, which holds
    every state its actions made.
    """
    record = Record(
        game=game.name,
        options=game.options.to_data(),
        seed=seed,
        actions=tuple(game.format_action(a) for a in actions),
        rules_version=game.rules_version,
        explicit_chance=explicit_chance,
        stack=stack,
    )
    return record._claimed(game, states)
