"""A search bot over the real rules, generic over the protocol given a search model.

The bot only sees observations, but searching needs states. A :class:`SearchModel`
supplies what the :class:`~cardcrawl.Game` protocol lacks: a state consistent with an
observation (drawn from what the player may believe: a *determinization*), the actions
worth comparing at a decision, and a value for positions where a search must stop.

With those, :class:`SearchBot` compares the candidate actions by how games go on after
them, played out by the base bot (rollouts) on states sampled from the observation.
Right after the action, chance is followed exactly (explicit chance, every outcome
weighted by its probability) when the tree up to the next decision is small, and the
rollouts are shared among its leaves; otherwise each rollout samples its own chance.
Every action is tried on the same sampled states with the same generators (common random
numbers), so that actions are compared on the same luck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from cardcrawl.bots._base import Bot, BotFactory, game_family, make_bot
from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.core._random import rng_derive
from cardcrawl.core._registry import _set_slot_deprecated, specs, tools_for
from cardcrawl.errors import OptionsError, UnknownBotError

__all__ = ["SearchBot", "SearchModel", "register_search_model", "search_model"]


class SearchModel(Protocol):
    """What :class:`SearchBot` needs to know about one game beyond the protocol.

    Examples:
        The Mapless House's model, asked about the first placement of a game (too
        early for anything worth searching) and for its quicker rollout bot:

        >>> import cardcrawl
        >>> from cardcrawl.bots import search_model
        >>> game = cardcrawl.load("mapless-house")
        >>> model = search_model(game)
        >>> state = game.initial_state(seed=1)
        >>> observation, legal = game.observe(state, 0), game.legal_actions(state)
        >>> model.candidates(game, observation, legal)
        []
        >>> sampled = model.sample_state(game, observation, 0, 7, explicit_chance=False)
        >>> game.observe(sampled, 0) == observation
        True
        >>> model.rollout_bot(game, 1, 0).choose(game, observation, legal) in legal
        True
    """

    def sample_state(
        self, game: Any, observation: Any, seat: int, seed: int, *, explicit_chance: bool
    ) -> Any:
        """A state that ``seat`` cannot tell from the one observed, hidden information
        drawn with ``seed``."""

    def evaluate(self, game: Any, observation: Any, seat: int) -> float:
        """The value for ``seat`` of the observed position (its expected return), for
        rollouts cut short."""

    def candidates(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> list[Any]:
        """The actions worth comparing by search at this decision. Fewer than two: no
        search, the base bot decides."""

    def rollout_bot(self, game: Any, seed: int, seat: int) -> Bot:
        """The player of every seat in a rollout (typically a quicker base bot)."""


# Models given to register_search_model for games not registered, kept for one release
# while it is deprecated.
_MODELS: dict[str, SearchModel] = {}


def register_search_model(family: str, model: SearchModel) -> None:
    """Deprecated: declare the model where the game registers, as the ``search_model``
    slot of its :class:`~cardcrawl.GameTools`
    (``register_game(..., tools=GameTools(search_model=...))``).

    Makes :class:`SearchBot` able to play the games of ``family`` (a base game name):
    the model is set in the tools of the registered game ``family`` and its variants.

    Args:
        family: the base game's name, such as ``"mapless-house"``.
        model: the game's search model; it replaces any model it had.

    Examples:
        >>> import warnings, cardcrawl
        >>> from cardcrawl.bots import search_model
        >>> from cardcrawl.bots._search import register_search_model
        >>> game = cardcrawl.load("mapless-house")
        >>> model = search_model(game)
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     register_search_model("mapless-house", model)
        >>> search_model(game) is model, caught[0].category.__name__
        (True, 'DeprecationWarning')
    """
    _set_slot_deprecated(
        "cardcrawl.bots.register_search_model", "model", family, "search_model", model, _MODELS
    )


def search_model(game: Any) -> SearchModel:
    """The search model of ``game``: the ``search_model`` slot of its
    :class:`~cardcrawl.GameTools` (variants share their base game's).

    Args:
        game: the game to search.

    Returns:
        The model.

    Raises:
        UnknownBotError: the game has no search model.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import search_model
        >>> type(search_model(cardcrawl.load("mapless-house"))).__name__
        'MaplessSearchModel'
        >>> search_model(cardcrawl.load("escape-from-haydes"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.UnknownBotError: the search bot cannot play escape-from-haydes: ...
    """
    model: SearchModel | None = tools_for(game).search_model or _MODELS.get(game_family(game))
    if model is None:
        known = sorted({s.base or s.name for s in specs() if s.tools.search_model is not None})
        raise UnknownBotError(
            f"the search bot cannot play {game.name}: it has no search model "
            f"(games: {', '.join(known) or 'none'}); a game declares one where it "
            "registers, GameTools(search_model=...)"
        )
    return model


def chance_leaves(game: Any, state: Any, budget: int) -> list[tuple[Any, Fraction]] | None:
    """Every state the chance events from ``state`` can lead to before the next decision
    (or the end), with its exact probability; ``None`` when there are more than
    ``budget``. ``state`` is in explicit-chance mode (or not at a chance event).

    Examples:
        >>> from fractions import Fraction
        >>> import cardcrawl
        >>> from cardcrawl import Card
        >>> from cardcrawl.bots._search import chance_leaves
        >>> from cardcrawl.mapless import Draw
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, explicit_chance=True)  # the first draw
        >>> [a for a, _ in game.chance_outcomes(state)][:2]
        [Draw(card=Card.parse('2S')), Draw(card=Card.parse('3S'))]
        >>> decision = game.step(state, Draw(Card.parse("2S")))
        >>> chance_leaves(game, decision, budget=1) == [(decision, Fraction(1))]
        True

        A ♥A drawn this early would only be shuffled back (M-10), so the first draw
        leads to one of the 24 other cards, each a decision:

        >>> len(chance_leaves(game, state, budget=100))
        24
        >>> chance_leaves(game, state, budget=10) is None
        True
    """
    if game.current_player(state) != CHANCE:
        return [(state, Fraction(1))]
    outcomes = game.chance_outcomes(state)
    if len(outcomes) > budget:
        return None
    share = budget // len(outcomes)
    leaves: list[tuple[Any, Fraction]] = []
    for outcome, probability in outcomes:
        below = chance_leaves(game, game.step(state, outcome), share)
        if below is None:
            return None
        leaves.extend((leaf, probability * p) for leaf, p in below)
    return leaves


class SearchBot:
    """Compares the promising actions by playing the game out from each, with its base bot.

    At each decision, the game's :class:`SearchModel` names the candidate actions (for
    The Mapless House: the Exit's placement and the hunt's Moves that its planner cannot
    tell apart). Each candidate is valued by ``rollouts`` games played to the end by the
    rollout bot (by default the model's, a quicker version of the base bot) in every
    seat, from states sampled from the observation (the exact posterior for The Mapless
    House, whose decks have no order until drawn). When the
    chance events right after the action have at most ``exact_limit`` outcomes in all,
    they are enumerated with their exact probabilities (explicit chance) and the rollouts
    are spread over them, so that the next draws count exactly as likely as they are.
    A rollout still going after ``rollout_limit`` decisions is valued by the model. The
    base bot's own choice is tried first and wins ties, so the search only departs from
    it on evidence. Other decisions go to the base bot.

    Deterministic: every sampled state and rollout is seeded from the bot's seed, seat and
    decision number.

    Args:
        game: the game it plays (one with a search model).
        seed: its seed; the same seed plays the same.
        seat: the seat it plays.
        base: the bot (registered name or factory) for the decisions not searched.
        rollout: the bot (registered name or factory) that plays every seat in the
            rollouts; by default the model's ``rollout_bot``.
        rollouts: rollouts per candidate action.
        exact_limit: the most chance outcomes after an action that are enumerated exactly.
        rollout_limit: the most decisions a rollout plays before the model values it.

    Raises:
        UnknownBotError: the game has no search model, or no ``base`` bot.
        OptionsError: ``rollouts`` or ``rollout_limit`` is below 1, or ``exact_limit``
            below 0.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots import SearchBot
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> state = game.initial_state(seed=1)
        >>> bot = SearchBot(game, seed=1, rollouts=4)
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
        base: str | BotFactory = "heuristic",
        rollout: str | BotFactory | None = None,
        rollouts: int = 24,
        exact_limit: int = 32,
        rollout_limit: int = 400,
    ) -> None:
        if rollouts < 1 or rollout_limit < 1 or exact_limit < 0:
            raise OptionsError(
                "rollouts and rollout_limit are integers >= 1 and exact_limit an integer "
                f">= 0, not {rollouts}, {rollout_limit} and {exact_limit}"
            )
        self._model = search_model(game)
        self._rollout_bot: BotFactory = (
            self._model.rollout_bot
            if rollout is None
            else (lambda g, s, p: make_bot(rollout, g, s, p))
        )
        self._base: Bot = make_bot(base, game, seed, seat)
        self._seed = seed
        self._seat = seat
        self._rollouts = rollouts
        self._exact_limit = exact_limit
        self._rollout_limit = rollout_limit
        self._decisions = 0
        #: Decisions searched so far (for reports and tests).
        self.searched = 0

    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The candidate whose rollouts fare best, or the base bot's choice."""
        self._decisions += 1
        first = self._base.choose(game, observation, legal_actions)
        if len(legal_actions) == 1:
            return first
        candidates = self._model.candidates(game, observation, legal_actions)
        if len(candidates) < 2:
            return first
        self.searched += 1
        seed = rng_derive(self._seed, self._seat, self._decisions)
        if first not in candidates:
            candidates = [first, *candidates]
        best, best_value = first, -math.inf
        # The base bot's choice goes first, so that it wins every tie.
        for action in (first, *(a for a in candidates if a != first)):
            value = self.action_value(game, observation, action, seed)
            if value > best_value:
                best, best_value = action, value
        return best

    def action_value(self, game: Any, observation: Any, action: Any, seed: int) -> float:
        """The mean return for the bot's seat of ``rollouts`` games played on from
        ``action``, on states drawn with ``seed`` (the same for every action)."""
        model, seat, n = self._model, self._seat, self._rollouts
        root = model.sample_state(game, observation, seat, seed, explicit_chance=True)
        leaves = chance_leaves(game, game.step(root, action), self._exact_limit)
        if leaves is None:
            # Too many outcomes to enumerate: each rollout samples its own chance.
            total = 0.0
            for k in range(n):
                state = model.sample_state(
                    game, observation, seat, rng_derive(seed, k), explicit_chance=False
                )
                total += self._rollout(game, game.step(state, action), rng_derive(seed, k))
            return total / n
        live = sum(1 for leaf, _ in leaves if game.current_player(leaf) != TERMINAL)
        per_leaf = max(1, math.ceil(n / live)) if live else 0
        value = 0.0
        for i, (leaf, probability) in enumerate(leaves):
            if game.current_player(leaf) == TERMINAL:
                value += float(probability) * float(game.returns(leaf)[seat])
                continue
            seen = game.observe(leaf, seat)
            total = 0.0
            for k in range(per_leaf):
                key = rng_derive(seed, i, k)
                state = model.sample_state(game, seen, seat, key, explicit_chance=False)
                total += self._rollout(game, state, key)
            value += float(probability) * total / per_leaf
        return value

    def _rollout(self, game: Any, state: Any, seed: int) -> float:
        """The return for the bot's seat of the game played on from ``state`` by the base
        bot in every seat (valued by the model if still going after the limit)."""
        bots = [self._rollout_bot(game, seed, s) for s in range(game.num_players)]
        current_player, legal_actions, observe, step = (
            game.current_player,
            game.legal_actions,
            game.observe,
            game.step,
        )
        for _ in range(self._rollout_limit):
            seat = current_player(state)
            if seat == TERMINAL:
                return float(game.returns(state)[self._seat])
            legal = legal_actions(state)
            state = step(state, bots[seat].choose(game, observe(state, seat), legal))
        return self._model.evaluate(game, observe(state, self._seat), self._seat)
