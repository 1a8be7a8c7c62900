"""The uniformly random bot, for every game."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from cardcrawl.core._random import rng_below, rng_derive

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions, with a SplitMix64 generator of its own.

    Its generator starts at ``rng_derive(seed, seat)`` and draws with
    :func:`cardcrawl.rng_below`, never Python's ``random``, so the same seed plays the
    same game on every platform; it chooses exactly as the random bot of
    ``cardcrawl play --bot random`` does with the same seed.

    Args:
        game: the game it plays (any game).
        seed: its seed.
        seat: the seat it plays; each seat gets a generator of its own.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import RandomBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=3)
        >>> bot = RandomBot(game, seed=3, seat=0)
        >>> legal = game.legal_actions(state)
        >>> bot.choose(game, game.observe(state, 0), legal) in legal
        True
    """

    #: It chooses from the legal actions alone, so a caller may pass ``None`` for the
    #: observation and save building one (:func:`cardcrawl.simulate.play_game` does).
    reads_observation = False

    def __init__(self, game: Any, seed: int, seat: int = 0) -> None:
        self._rng = rng_derive(seed, seat)

    def action_probabilities(
        self, game: Any, observation: Any, legal_actions: Sequence[Any]
    ) -> tuple[tuple[Any, Fraction], ...]:
        """The chance of each legal action: the same for all (what :meth:`choose`
        samples). The exact solver plays the bot so (see
        :func:`cardcrawl.solve.best_response_gains`).

        Examples:
            >>> from cardcrawl.bots import RandomBot
            >>> RandomBot(None, seed=1).action_probabilities(None, None, ["a", "b"])
            (('a', Fraction(1, 2)), ('b', Fraction(1, 2)))
        """
        share = Fraction(1, len(legal_actions))
        return tuple((action, share) for action in legal_actions)

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """A uniformly random one of ``legal_actions``; ``observation`` is not read."""
        self._rng, index = rng_below(self._rng, len(legal_actions))
        return legal_actions[index]
