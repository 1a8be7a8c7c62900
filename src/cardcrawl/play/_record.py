"""Game records: a whole game as options, seed and actions, replayed and verified.

A record is the smallest faithful account of a game: everything else follows from the
rules. In explicit-chance play the chance outcomes are actions too, so they are recorded
in sequence with the decisions.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from cardcrawl.core._codec import encode
from cardcrawl.core._engine import FORMAT_VERSION
from cardcrawl.core._registry import load
from cardcrawl.errors import CardcrawlError, RecordError, SerializationError

__all__ = ["Record"]


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


@attrs.frozen
class Record:
    """A saved game: which game, its options, its seed and every action in order.

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
        >>> again.replay() == state
        True

    Attributes:
        game: the registry name of the game or variant.
        options: the options as JSON-compatible data.
        seed: the generator seed.
        actions: each action's text form, in order.
        rules_version: the game's rules version when the record was made.
        explicit_chance: the game was played with explicit chance (outcomes recorded).
        stack: the stacked chance outcomes the game started with, as JSON-compatible
            data by source name (see the game's ``initial_state``), or ``None``.
    """

    game: str
    options: Mapping[str, Any] = attrs.field(converter=_frozen_mapping)
    seed: int
    actions: tuple[str, ...] = attrs.field(converter=tuple)
    rules_version: str
    explicit_chance: bool = False
    stack: Mapping[str, tuple[Any, ...]] | None = attrs.field(default=None, converter=_frozen_stack)

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

        Args:
            game: the game played (its name, options and rules version are recorded).
            seed: the seed the game started from.
            actions: the actions in order, as values or in their text form; in
                explicit-chance play, the chance outcomes too.
            explicit_chance: the game was played with explicit chance.
            stack: the stacked chance outcomes the game started with, as given to
                ``initial_state``, or ``None``.

        Returns:
            The record (not yet replayed: :meth:`replay` checks it).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house", max_turns=50)
            >>> record = cardcrawl.Record.of(
            ...     game, seed=3, actions=["place 1,0"], stack={"mind": "2H"})
            >>> record.game, record.options["max_turns"], record.actions, dict(record.stack)
            ('mapless-house', 50, ('place 1,0',), {'mind': ('2H',)})
        """
        return cls(
            game=game.name,
            options=game.options.to_data(),
            seed=seed,
            actions=tuple(game.format_action(a) for a in actions),
            rules_version=game.rules_version,
            explicit_chance=explicit_chance,
            stack=stack,
        )

    def load_game(self) -> Any:
        """The game this record was played with.

        The name is looked up as :func:`~cardcrawl.load` looks it up, so the games and
        variants of installed plug-ins are found too (see :func:`~cardcrawl.load_plugins`).

        Returns:
            The game, loaded by name with the recorded options.

        Raises:
            RecordError: the game is unknown, its options are invalid, or the record was
                made under another rules version.
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

    def states(self) -> Iterator[Any]:
        """Every state of the game, from the initial state to the last, verified.

        Yields:
            The initial state, then the state after each action in turn.

        Raises:
            RecordError: naming the first entry that is malformed or illegal.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> record = cardcrawl.Record.of(game, seed=3, actions=["place 1,0", "place 2,0"])
            >>> states = list(record.states())
            >>> len(states), states[0] == game.initial_state(seed=3)
            (3, True)
        """
        game = self.load_game()
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

    def replay(self) -> Any:
        """The final state, after verifying every entry (see :meth:`states`).

        Raises:
            RecordError: naming the first entry that is malformed or illegal.
        """
        *_, last = self.states()
        return last

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-compatible data."""
        return {
            "format": FORMAT_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seed": self.seed,
            "explicit_chance": self.explicit_chance,
            "actions": list(self.actions),
            "stack": None if self.stack is None else {k: list(v) for k, v in self.stack.items()},
        }

    @classmethod
    def from_data(cls, data: Any) -> Record:
        """A record from :meth:`to_data` output, checked for shape (not yet replayed).

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
        keys = {"format", "game", "rules_version", "options", "seed", "explicit_chance", "actions"}
        # "stack" is optional: records of unstacked games may leave it out.
        if not isinstance(data, dict) or set(data) - {"stack"} != keys:
            found = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise SerializationError(
                f"a record is an object with keys {sorted(keys)}; found {found}"
            )
        if type(data["format"]) is not int or data["format"] != FORMAT_VERSION:
            raise SerializationError(
                f"record format {data['format']!r} is not {FORMAT_VERSION}, "
                "the one this library reads"
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
        _check_depth(data)
        return cls(
            game=data["game"],
            options=data["options"],
            seed=data["seed"],
            actions=data["actions"],
            rules_version=data["rules_version"],
            explicit_chance=data["explicit_chance"],
            stack=data.get("stack"),
        )

    def to_json(self) -> str:
        """The record as a JSON document."""
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
