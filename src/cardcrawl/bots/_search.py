"""A search bot over the real rules, generic over the protocol given a search model.

The bot only sees observations, but searching needs states. A :class:`SearchModel`
supplies what the :class:`~cardcrawl.Game` protocol lacks: a state consistent with an
observation (drawn from what the player may believe), and a value for positions where
the search stops. With those, :class:`SearchBot` looks one decision ahead through the
real ``step``: exactly, over every chance outcome with its probability, when the tree
up to the next decision is small; otherwise by averaging over sampled states (the same
samples for every action, so that actions are compared on the same luck).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardcrawl._protocol import CHANCE, TERMINAL
from cardcrawl._random import rng_derive
from cardcrawl.bots._base import Bot, UnknownBotError, game_family, make_bot

__all__ = ["SearchBot", "SearchModel", "register_search_model", "search_model"]


class SearchModel(Protocol):
    """What :class:`SearchBot` needs to know about one game beyond the protocol."""

    def sample_state(
        self, game: Any, observation: Any, seat: int, seed: int, *, explicit_chance: bool
    ) -> Any:
        """A state that ``seat`` cannot tell from the one observed, hidden information
        drawn with ``seed``."""

    def evaluate(self, game: Any, observation: Any, seat: int) -> float:
        """The value for ``seat`` of the observed position (its expected return)."""

    def should_search(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> bool:
        """True at the decisions worth searching (the others go to the base bot)."""


_MODELS: dict[str, SearchModel] = {}


def register_search_model(family: str, model: SearchModel) -> None:
    """Make :class:`SearchBot` able to play the games of ``family`` (a base game name)."""
    _MODELS[family] = model


def search_model(game: Any) -> SearchModel:
    """The search model of ``game``'s family.

    Raises:
        UnknownBotError: the game has no search model.
    """
    try:
        return _MODELS[game_family(game)]
    except KeyError:
        known = ", ".join(sorted(_MODELS)) or "none"
        raise UnknownBotError(
            f"the search bot cannot play {game.name}: it has no search model (games: {known})"
        ) from None


class SearchBot:
    """Looks one decision ahead through the real rules, on states sampled from its beliefs.

    At each decision its game's :class:`SearchModel` marks as worth it, every legal action
    is tried on states consistent with the observation; chance is followed to the next
    decision exactly (explicit chance, every outcome weighted by its probability) when that
    takes at most ``exact_limit`` leaves, else sampled ``samples`` times, and the positions
    reached are valued by the model. Other decisions go to the ``base`` bot.

    Args:
        game: the game it plays (one with a search model).
        seed: its seed; sampled states are drawn from it, so the same seed plays the same.
        seat: the seat it plays.
        base: the bot (registered name) for the decisions not searched.
        samples: sampled states per decision when the exact tree is too big.
        exact_limit: the most leaves an exact expectation may have.

    Raises:
        UnknownBotError: the game has no search model, or no ``base`` bot.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import SearchBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=1)
        >>> bot = SearchBot(game, seed=1)
        >>> while not game.is_terminal(state):
        ...     legal = game.legal_actions(state)
        ...     state = game.step(state, bot.choose(game, game.observe(state, 0), legal))
        >>> game.outcome(state).label
        'escaped'
    """

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        base: str = "heuristic",
        samples: int = 4,
        exact_limit: int = 32,
    ) -> None:
        self._model = search_model(game)
        self._base: Bot = make_bot(base, game, seed, seat)
        self._seed = seed
        self._seat = seat
        self._samples = samples
        self._exact_limit = exact_limit
        self._decisions = 0

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The action of highest expected value, or the base bot's choice."""
        self._decisions += 1
        model = self._model
        if len(legal_actions) == 1 or not model.should_search(game, observation, legal_actions):
            return self._base.choose(game, observation, legal_actions)
        seeds = [rng_derive(self._seed, self._seat, self._decisions, k) for k in range(2)]
        exact_root = model.sample_state(
            game, observation, self._seat, seeds[0], explicit_chance=True
        )
        sampled: list[Any] | None = None
        # The base bot's choice goes first, so that it wins every tie.
        first = self._base.choose(game, observation, legal_actions)
        best, best_value = first, -1.0
        for action in (first, *(a for a in legal_actions if a != first)):
            value = self._exact(game, game.step(exact_root, action), self._exact_limit)
            if value is None:
                if sampled is None:
                    sampled = [
                        model.sample_state(
                            game,
                            observation,
                            self._seat,
                            rng_derive(seeds[1], k),
                            explicit_chance=False,
                        )
                        for k in range(self._samples)
                    ]
                value = sum(self._leaf(game, game.step(s, action)) for s in sampled) / len(sampled)
            if value > best_value:
                best, best_value = action, value
        return best

    def _leaf(self, game: Any, state: Any) -> float:
        if game.current_player(state) == TERMINAL:
            return float(game.returns(state)[self._seat])
        return self._model.evaluate(game, game.observe(state, self._seat), self._seat)

    def _exact(self, game: Any, state: Any, budget: int) -> float | None:
        """The expected leaf value over every chance outcome up to the next decision, or
        ``None`` when that would take more than ``budget`` leaves."""
        if game.current_player(state) != CHANCE:
            return self._leaf(game, state)
        outcomes = game.chance_outcomes(state)
        if len(outcomes) > budget:
            return None
        share = budget // len(outcomes)
        total = 0.0
        for outcome, probability in outcomes:
            value = self._exact(game, game.step(state, outcome), share)
            if value is None:
                return None
            total += float(probability) * value
        return total
