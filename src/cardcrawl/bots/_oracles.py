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

from typing import Any

from cardcrawl.bots._base import game_family
from cardcrawl.core._registry import specs, tools_for
from cardcrawl.errors import UnknownBotError

__all__ = ["make_oracle", "oracle_names"]


def oracle_names(game: Any = None) -> tuple[str, ...]:
    """The oracles' names, sorted: those of ``game``'s tools if one is given, else of
    every registered game's."""
    if game is not None:
        return tuple(sorted(tools_for(game).oracles))
    return tuple(sorted({name for spec in specs() for name in spec.tools.oracles}))


def make_oracle(name: str, game: Any, seed: int, seat: int = 0, **options: Any) -> Any:
    """A new oracle for one game, by the name its tools give it.

    Raises:
        UnknownBotError: the game's tools name no oracle ``name``.
    """
    factory = tools_for(game).oracles.get(name)
    if factory is None:
        known = ", ".join(oracle_names(game)) or "none"
        raise UnknownBotError(
            f"no oracle {name!r} plays {game_family(game)}; oracles for it: {known}"
        )
    return factory(game, seed, seat, **options)
