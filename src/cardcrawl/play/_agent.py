"""Who played a seat of a recorded game, as a match trace names it."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

import attrs

from cardcrawl._version import __version__
from cardcrawl.core._codec import decode, encode
from cardcrawl.core._limits import Limits, untagged
from cardcrawl.core._protocol import MAX_SEATS
from cardcrawl.play._claims import check_fields

__all__ = ["Agent", "AgentKind", "Setting"]

#: A name or a version: 1 to 100 characters.
Name = Annotated[str, Limits(min_length=1, max_length=100)]
#: A seat of a recorded game.
Seat = Annotated[int, Limits(minimum=0, maximum=MAX_SEATS - 1)]
#: What played a seat: a person, a bot, or a program speaking the engine protocol.
AgentKind = Literal["human", "bot", "engine"]
#: A setting's value: text (at most 200 characters), a number, true, false or null.
Setting = (
    Annotated[str, Limits(max_length=200)]
    | Annotated[int, Limits(minimum=-(2**64 - 1), maximum=2**64 - 1)]
    | Annotated[float, Limits()]
    | bool
    | None
)


def _frozen_settings(settings: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(settings))


@untagged
@attrs.frozen
class Agent:
    """Who played a seat of a recorded game: a person, a bot, or an engine program.

    A record's agents are what its recorder says; nothing in the game can check them
    (see :class:`~cardcrawl.Record`).

    Examples:
        >>> import cardcrawl
        >>> agent = cardcrawl.Agent.bot(0, "heuristic", {"depth": 2})
        >>> agent.kind, agent.version == cardcrawl.__version__, dict(agent.settings)
        ('bot', True, {'depth': 2})
        >>> cardcrawl.Agent(1, "Ada", kind="human").to_data()
        {'seat': 1, 'name': 'Ada', 'kind': 'human', 'version': None, 'settings': {}}
        >>> cardcrawl.Agent(0, "x" * 101)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.RecordError: agent has malformed name: expected text of 1 to 100 ...

    Attributes:
        seat: the seat played, from 0 to 63.
        name: the agent's name: a bot's registered name, a person's name or handle.
        kind: ``"human"``, ``"bot"`` or ``"engine"`` (a program speaking the engine
            protocol).
        version: the agent's version, or ``None``.
        settings: the agent's parameters by name (at most 32), each text (at most 200
            characters), a number, a boolean or ``None``.

    Raises:
        RecordError: a field is malformed or out of bounds (names and versions hold 1 to
            100 characters); the message names it.
    """

    seat: Seat
    name: Name
    kind: AgentKind = "bot"
    version: Name | None = None
    settings: Annotated[Mapping[Name, Setting], Limits(max_length=32)] = attrs.field(
        factory=dict, converter=_frozen_settings
    )

    def __attrs_post_init__(self) -> None:
        check_fields(self, "agent")

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only view of the settings cannot be pickled: rebuilt from a dict.
        return (type(self), (self.seat, self.name, self.kind, self.version, dict(self.settings)))

    @classmethod
    def bot(
        cls,
        seat: int,
        name: str,
        settings: Mapping[str, Setting] | None = None,
        *,
        version: str | None = __version__,
    ) -> Agent:
        """A bot of seat ``seat``, by default of this library's version (its stock bots
        ship with it).

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Agent.bot(1, "random").name
            'random'
        """
        return cls(seat, name, "bot", version, settings or {})

    @classmethod
    def human(cls, seat: int, name: str = "person") -> Agent:
        """A person playing seat ``seat``.

        Examples:
            >>> import cardcrawl
            >>> cardcrawl.Agent.human(0).kind
            'human'
        """
        return cls(seat, name, "human")

    def to_data(self) -> dict[str, Any]:
        """The agent as JSON-compatible data (see :meth:`from_data`)."""
        data: dict[str, Any] = encode(self)
        return data

    @classmethod
    def from_data(cls, data: Any) -> Agent:
        """An agent from :meth:`to_data` output.

        Raises:
            SerializationError: malformed data; the message names the field.

        Examples:
            >>> import cardcrawl
            >>> agent = cardcrawl.Agent.bot(0, "random")
            >>> cardcrawl.Agent.from_data(agent.to_data()) == agent
            True
        """
        agent: Agent = decode(cls, data, "agent")
        return agent
