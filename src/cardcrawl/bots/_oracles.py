"""Oracles: players that cheat, kept apart from the bots, to measure an upper bound.

An oracle is given the true state, generator included, instead of its seat's
observation, so it knows what every chance event will be. No fair player can know
that, so an oracle's results only bound from above what a bot could do; they never
belong beside the bots' own. That is why oracles have a registry of their own: none is
listed by :func:`~cardcrawl.bots.bot_names`, offered by ``cardcrawl simulate``, a
tournament or a web table, or built by :func:`~cardcrawl.bots.make_bot`. Those who play
them (``benchmarks/strength.py``) look for the ``sees_state`` class attribute and pass
``game.step``'s state where a bot would be given its observation; an oracle given an
observation refuses to choose.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.bots import bot_names
    >>> from cardcrawl.bots._oracles import make_oracle, oracle_names
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> oracle_names(game)
    ('oracle',)
    >>> "oracle" in bot_names(game)
    False
    >>> oracle = make_oracle("oracle", game, seed=1)
    >>> oracle.sees_state
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardcrawl.bots._base import BotFactory, BotSpec, game_family
from cardcrawl.errors import OptionsError, UnknownBotError

__all__ = ["make_oracle", "oracle_names", "register_oracle"]

_ORACLES: dict[str, list[BotSpec]] = {}


def register_oracle(
    name: str, factory: BotFactory, *, games: Iterable[str], description: str
) -> BotSpec:
    """Register an oracle (a player shown the true state) for some game families.

    Args:
        name: its name, without spaces.
        factory: builds it, ``factory(game, seed, seat)``; its class says
            ``sees_state = True``.
        games: the game families it plays.
        description: one line, which should say that it cheats.

    Raises:
        OptionsError: the name is malformed or taken for one of these games, or the
            factory does not say that it sees the state.
    """
    if not isinstance(name, str) or not name or " " in name:
        raise OptionsError(f"an oracle's name is a non-empty string without spaces, not {name!r}")
    if getattr(factory, "sees_state", False) is not True:
        raise OptionsError(
            f"oracle {name!r} must declare sees_state = True, so that whoever plays it "
            "knows to pass it the state rather than an observation"
        )
    spec = BotSpec(name, factory, frozenset(games), description)
    entries = _ORACLES.setdefault(name, [])
    assert spec.games is not None
    if any(old.games is not None and old.games & spec.games for old in entries):
        raise OptionsError(f"oracle {name!r} is already registered for one of {sorted(spec.games)}")
    entries.append(spec)
    return spec


def oracle_names(game: Any = None) -> tuple[str, ...]:
    """The registered oracles' names, sorted; only those for ``game`` if one is given."""
    return tuple(
        sorted(
            name
            for name, entries in _ORACLES.items()
            if game is None or any(s.plays(game) for s in entries)
        )
    )


def make_oracle(name: str, game: Any, seed: int, seat: int = 0, **options: Any) -> Any:
    """A new oracle for one game, by registered name.

    Raises:
        UnknownBotError: no oracle of that name plays that game's family.
    """
    for spec in _ORACLES.get(name, ()):
        if spec.plays(game):
            return spec.factory(game, seed, seat, **options)
    known = ", ".join(oracle_names(game)) or "none"
    raise UnknownBotError(f"no oracle {name!r} plays {game_family(game)}; oracles for it: {known}")
