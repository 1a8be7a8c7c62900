"""A game's states, actions and observations as JSON-compatible data, and their schemas.

:class:`SavingMixin` gives :class:`~cardcrawl.GameBase` its saving and loading
(``state_to_data`` and ``state_from_data``, the same for actions and observations) and
the JSON Schemas of what it writes. Everything is read through the type-directed codec
(:mod:`cardcrawl.core._codec`), so a game writes no saving code of its own; the schemas
are generated from the same types (:mod:`cardcrawl.core._schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from cardcrawl.core._codec import decode, encode
from cardcrawl.errors import ParseError, SerializationError, short_repr

__all__ = ["FORMAT_VERSION", "MAX_SAVED_DEPTH", "SavingMixin", "checked_body"]

#: The version of the saved-data layout written by :meth:`SavingMixin.state_to_data`.
FORMAT_VERSION = 1

S = TypeVar("S")
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741


class SavingMixin(Generic[S, A, O]):
    """The saving, loading and schemas of :class:`~cardcrawl.GameBase` (see there).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.core._saving import SavingMixin
        >>> game = cardcrawl.load("mapless-house")
        >>> isinstance(game, SavingMixin), game.state_to_data(game.initial_state(seed=1))["game"]
        (True, 'mapless-house')
    """

    if TYPE_CHECKING:
        # What saving asks of the game it is mixed into (GameBase has them all).
        name: str
        rules_version: ClassVar[str]
        state_type: ClassVar[type[Any]]
        renamed_types: ClassVar[Mapping[str, str]]

        def _check_invariants(self, state: S, what: str) -> None:
            raise NotImplementedError

        def format_action(self, action: A) -> str:
            raise NotImplementedError

        def parse_action(self, text: str) -> A:
            raise NotImplementedError

    def state_to_data(self, state: S) -> dict[str, Any]:
        """The state as JSON-compatible data, tagged with game, rules and format version.

        Args:
            state: a state of this game.

        Returns:
            A dict with the keys ``format``, ``game``, ``rules_version`` and ``state``;
            :meth:`state_from_data` reads it back.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> state = game.initial_state(seed=1)
            >>> data = game.state_to_data(state)
            >>> data["format"], data["game"], data["rules_version"]
            (1, 'mapless-house', '2')
            >>> game.state_from_data(data) == state
            True
        """
        return {
            "format": FORMAT_VERSION,
            "game": self.name,
            "rules_version": self.rules_version,
            "state": encode(state),
        }

    def state_from_data(self, data: Any) -> S:
        """The state saved by :meth:`state_to_data`, validated field by field.

        Args:
            data: what :meth:`state_to_data` returned, perhaps through JSON.

        Returns:
            The state, equal to the one saved.

        Raises:
            SerializationError: the data is malformed, from another game, format or
                rules version, or breaks an invariant of the rules (such as a card
                missing or counted twice).

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = game.state_to_data(game.initial_state(seed=1))
            >>> game.state_from_data({**data, "rules_version": "0"})  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: saved state has rules_version '0'; ...
        """
        expected = {
            "format": FORMAT_VERSION,
            "game": self.name,
            "rules_version": self.rules_version,
        }
        saved = checked_body(data, expected, "state", ("a saved state", "saved state"))
        if self.renamed_types:
            saved = _renamed(saved, self.renamed_types)
        state: S = decode(self.state_type, saved, "state")
        self._check_invariants(state, "saved state")
        return state

    def action_to_data(self, action: A) -> str:
        """The action as JSON-compatible data (its text form).

        Args:
            action: an action of this game.

        Returns:
            The action's text form; :meth:`action_from_data` reads it back.
        """
        return self.format_action(action)

    def action_from_data(self, data: Any) -> A:
        """The action saved by :meth:`action_to_data`.

        Args:
            data: what :meth:`action_to_data` returned.

        Returns:
            The action.

        Raises:
            SerializationError: ``data`` names no action of this game.
        """
        if not isinstance(data, str):
            raise SerializationError(f"a saved action is a string, not {data!r}")
        try:
            return self.parse_action(data)
        except ParseError as exc:
            raise SerializationError(str(exc)) from None

    # ------------------------------------------------------- interchange
    # Observations as versioned JSON and the JSON Schemas of saved data; the logic is
    # in cardcrawl.core._schema, generated from the attrs types by the codec's rules.
    # It is imported when called: it imports this module's header check at its top.
    @property
    def observation_type(self) -> type:
        """The class of this game's observations, as ``observe`` returns them.

        A game may set it as a class attribute; else it is the third type argument of
        its ``GameBase[S, A, O]`` base, else the type of an observation of its setup.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.load("mapless-house").observation_type.__name__
            'MaplessObservation'
        """
        from cardcrawl.core._schema import observation_type_of

        return observation_type_of(self)

    def observation_to_data(self, observation: O) -> dict[str, Any]:
        """The observation as JSON-compatible data, tagged like a saved state.

        Args:
            observation: what :meth:`observe` returned for a seat of this game.

        Returns:
            A dict with the keys ``format`` (the observation format, 1), ``kind``
            (``"observation"``), ``game``, ``rules_version`` and ``observation``;
            :meth:`observation_from_data` reads it back, and :meth:`observation_schema`
            describes it.

        Raises:
            SerializationError: ``observation`` is not an observation of this game.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> seen = game.observe(game.initial_state(seed=1, stack={"narrative": ["KS"]}), 0)
            >>> data = game.observation_to_data(seen)
            >>> data["kind"], data["format"], data["observation"]["drawn"]
            ('observation', 1, 'KS')
            >>> game.observation_from_data(data) == seen
            True
        """
        from cardcrawl.core._schema import observation_to_data

        return observation_to_data(self, observation)

    def observation_from_data(self, data: Any) -> O:
        """The observation written by :meth:`observation_to_data`, validated field by field.

        Args:
            data: what :meth:`observation_to_data` returned, perhaps through JSON.

        Returns:
            The observation, equal to the one written.

        Raises:
            SerializationError: the data is malformed, or from another game, format or
                rules version; the message names the path of the bad value.

        Examples:
            >>> import cardcrawl
            >>> game = cardcrawl.load("mapless-house")
            >>> data = game.observation_to_data(game.observe(game.initial_state(seed=1), 0))
            >>> game.observation_from_data({**data, "kind": "state"})  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            cardcrawl.errors.SerializationError: observation has kind 'state'; ...
        """
        from cardcrawl.core._schema import observation_from_data

        names = self.renamed_types
        renamed = (lambda saved: _renamed(saved, names)) if names else None
        observation: O = observation_from_data(self, data, renamed)
        return observation

    def observation_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of :meth:`observation_to_data`'s data.

        Generated from the observation's attrs classes by the codec's own rules, so it
        cannot drift from the code. A few checks the schema cannot state (a cell twice
        in a grid, a class's own validators) are left to :meth:`observation_from_data`.

        Returns:
            The schema, one ``$defs`` entry per class.

        Examples:
            >>> import cardcrawl
            >>> schema = cardcrawl.load("mapless-house").observation_schema()
            >>> schema["properties"]["kind"], schema["properties"]["observation"]
            ({'const': 'observation'}, {'$ref': '#/$defs/MaplessObservation'})
        """
        from cardcrawl.core._schema import observation_schema

        return observation_schema(self)

    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of :meth:`state_to_data`'s data.

        Generated like :meth:`observation_schema`; the rules' invariants, which
        :meth:`state_from_data` checks too, are beyond it.

        Returns:
            The schema, one ``$defs`` entry per class.

        Examples:
            >>> import cardcrawl
            >>> schema = cardcrawl.load("escape-from-haydes").state_schema()
            >>> schema["properties"]["state"]
            {'$ref': '#/$defs/HaydesState'}
        """
        from cardcrawl.core._schema import state_schema

        return state_schema(self)


def checked_body(data: Any, expected: Mapping[str, Any], body: str, names: tuple[str, str]) -> Any:
    """``data[body]``, once ``data`` is an object of exactly the ``expected`` header
    values and ``body``: the check of saved data's header, for states and observations.

    Args:
        data: what was read, perhaps through JSON.
        expected: each header key with the value this library writes.
        body: the key of what the header tags (``"state"``).
        names: how messages name the data, with and without its article.

    Returns:
        The body, not yet read.

    Raises:
        SerializationError: ``data`` is not an object, a header value differs (in type
            too), or a key is missing or extra.

    Examples:
        >>> from cardcrawl.core._saving import checked_body
        >>> checked_body({"format": 1, "state": 5}, {"format": 1}, "state", ("a", "it"))
        5
        >>> checked_body({"format": True, "state": 5}, {"format": 1}, "state", ("a", "it"))
        Traceback (most recent call last):
        ...
        cardcrawl.errors.SerializationError: it has format True; this library reads 1
    """
    article, name = names
    if not isinstance(data, dict):
        raise SerializationError(f"{article} is an object, not {type(data).__name__}")
    for key, want in expected.items():
        # Compare types too: JSON true or 1.0 is not format version 1.
        if type(data.get(key)) is not type(want) or data.get(key) != want:
            raise SerializationError(
                f"{name} has {key} {short_repr(data.get(key))}; this library reads {want!r}"
            )
    if set(data) != {*expected, body}:
        raise SerializationError(
            f"{name} has keys {sorted(data)}; expected {sorted({*expected, body})}"
        )
    return data[body]


#: How deep saved data may nest. Every built-in state nests a few levels; this bound
#: keeps the walks over untrusted data far from Python's recursion limit.
MAX_SAVED_DEPTH = 64


def _renamed(data: Any, names: Mapping[str, str], depth: int = 0) -> Any:
    """Saved data with every object's old ``type`` name replaced by its new one."""
    if depth > MAX_SAVED_DEPTH and isinstance(data, (list, dict)):
        raise SerializationError(
            f"saved data nests deeper than {MAX_SAVED_DEPTH} levels; a saved state nests a few"
        )
    if isinstance(data, list):
        return [_renamed(item, names, depth + 1) for item in data]
    if isinstance(data, dict):
        renamed = {key: _renamed(value, names, depth + 1) for key, value in data.items()}
        kind = renamed.get("type")
        if isinstance(kind, str) and kind in names:
            renamed["type"] = names[kind]
        return renamed
    return data
