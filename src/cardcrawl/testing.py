"""A public conformance checker for any game that implements the protocol.

Every built-in game runs it in its own tests, and so should every variant and every
third-party game: it plays seeded random games, in sampled and in explicit-chance
play, and checks at each step the promises of :class:`cardcrawl.Game`.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.testing import check_game
    >>> report = check_game(cardcrawl.load("mapless-house", max_turns=60), games=2)
    >>> report.games, report.terminal
    (4, 4)
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import attrs

from cardcrawl.core._engine import GameBase
from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.core._random import rng_below, rng_derive
from cardcrawl.errors import CardcrawlError, ConformanceError, IllegalActionError

__all__ = ["ConformanceError", "ConformanceReport", "check_game", "check_state"]


@attrs.frozen
class ConformanceReport:
    """What :func:`check_game` played.

    Attributes:
        games: games played (sampled and explicit together).
        steps: actions and chance outcomes applied.
        chance_events: chance events met in explicit-chance play.
        terminal: games that reached their end within ``max_steps``.
        outcomes: how many games ended with each outcome label.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_game
        >>> report = check_game(cardcrawl.load("mapless-house", max_turns=60), games=2, seed=3)
        >>> report.games, report.steps, report.chance_events, report.terminal, report.outcomes
        (4, 212, 76, 4, {'consumed': 4})
    """

    games: int
    steps: int
    chance_events: int
    terminal: int
    outcomes: dict[str, int]


def _fail(where: str, what: str) -> ConformanceError:
    return ConformanceError(f"{where}: {what}")


def check_state(game: Any, state: Any, where: str = "state") -> None:
    """Check every promise that concerns a single state (not the step from it).

    Args:
        game: any object implementing :class:`cardcrawl.Game`.
        state: a state of that game.
        where: a label for messages.

    Raises:
        ConformanceError: naming the broken promise.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_state
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> check_state(game, state)  # a chance event: checks its probabilities too
        >>> check_state(game, game.step(state, game.chance_outcomes(state)[0][0]))
    """
    to_move = game.current_player(state)
    legal = game.legal_actions(state)
    chances = game.chance_outcomes(state)
    if to_move >= 0:
        if not legal:
            raise _fail(where, f"player {to_move} must decide but no action is legal")
        if list(legal) != sorted(legal) or len(set(legal)) != len(legal):
            raise _fail(where, "legal actions are not distinct and sorted")
        if chances:
            raise _fail(where, "a decision point lists chance outcomes")
    elif legal:
        raise _fail(where, f"actions are legal although current_player is {to_move}")
    if to_move == CHANCE:
        probs = [p for _, p in chances]
        if not chances or any(not isinstance(p, Fraction) or p <= 0 for p in probs):
            raise _fail(where, "chance outcomes need positive Fraction probabilities")
        if sum(probs) != 1:
            raise _fail(where, f"chance probabilities sum to {sum(probs)}, not 1")
        if len({a for a, _ in chances}) != len(chances):
            raise _fail(where, "a chance outcome is listed twice")
    if (to_move == TERMINAL) != game.is_terminal(state):
        raise _fail(where, "is_terminal disagrees with current_player")
    outcome = game.outcome(state)
    if (outcome is not None) != (to_move == TERMINAL):
        raise _fail(where, "an outcome must exist exactly when the game is over")
    if len(game.returns(state)) != game.num_players:
        raise _fail(where, "returns must have one entry per player")

    for action in legal:
        text = game.format_action(action)
        if game.parse_action(text) != action:
            raise _fail(where, f"action {action!r} does not survive its text form {text!r}")
    data = json.loads(json.dumps(game.state_to_data(state)))
    loaded = game.state_from_data(data)
    if loaded != state:
        raise _fail(where, "the state does not survive a JSON round trip")
    # The loaded copy carries nothing derived: its legal actions are found afresh, so
    # legal actions that a rule step filled in ahead must be exactly those.
    if tuple(game.legal_actions(loaded)) != tuple(legal):
        raise _fail(where, "legal actions filled in by a rule step differ from those found afresh")
    validate = getattr(game, "validate", None)
    if validate is not None:
        try:
            validate(state)
        except CardcrawlError as exc:
            raise _fail(where, f"validate refuses a state of play: {exc}") from None

    for player in range(game.num_players):
        seen = game.observe(state, player)
        for k in (1, 2):
            if game.observe(game.determinize(state, player, k), player) != seen:
                raise _fail(where, f"determinize({k}) changes what player {player} observes")
        if attrs.has(type(state)) and hasattr(state, "rng"):
            other = attrs.evolve(state, rng=(state.rng + 1) % (1 << 64))
            if game.observe(other, player) != seen:
                raise _fail(where, "the observation depends on the generator")
        if hasattr(seen, "rng"):
            raise _fail(where, "the observation carries the generator")


def _census(game: Any, state: Any) -> Counter[Any]:
    return Counter(c for cards in game.card_census(state).values() for c in cards)


def _reference_step(game: Any) -> Any:
    """``GameBase.step``, when ``game`` is a GameBase that overrides ``step``; else None."""
    if isinstance(game, GameBase) and type(game).step is not GameBase.step:
        return GameBase.step
    return None


def _same_but_events(game: Any, state: Any, after: Any) -> bool:
    """Whether ``after`` is ``state`` again, apart from the events that led there."""
    if not attrs.has(type(state)) or not hasattr(state, "events"):
        return False
    return bool(attrs.evolve(after, events=state.events) == state)


def _play(game: Any, seed: int, explicit: bool, max_steps: int, report: dict[str, Any]) -> None:
    mode = "explicit" if explicit else "sampled"
    reference_step = _reference_step(game)
    state = game.initial_state(seed, explicit_chance=explicit)
    cards = _census(game, state)
    choice_rng = rng_derive(seed, 0xC4EC)
    states = [state]
    actions = []
    for step in range(max_steps):
        where = f"{game.name} seed {seed} ({mode} chance), step {step}"
        check_state(game, state, where)
        if _census(game, state) != cards:
            raise _fail(where, "cards are not conserved")
        to_move = game.current_player(state)
        if to_move == TERMINAL:
            report["terminal"] += 1
            label = game.outcome(state).label
            report["outcomes"][label] = report["outcomes"].get(label, 0) + 1
            break
        if to_move == CHANCE and not explicit:
            raise _fail(where, "sampled play stopped at a chance event")
        if to_move == CHANCE:
            report["chance"] += 1
            options = [a for a, _ in game.chance_outcomes(state)]
        else:
            options = list(game.legal_actions(state))
        choice_rng, i = rng_below(choice_rng, len(options))
        before = json.dumps(game.state_to_data(state), sort_keys=True)
        try:
            game.step(state, object())
        except IllegalActionError:
            pass
        else:
            raise _fail(where, "step accepted an object that is no action")
        nxt = game.step(state, options[i])
        if json.dumps(game.state_to_data(state), sort_keys=True) != before:
            raise _fail(where, "step changed its input state")
        if reference_step is not None and reference_step(game, state, options[i]) != nxt:
            raise _fail(where, f"{type(game).__name__}.step differs from GameBase.step")
        if explicit and to_move == CHANCE and _same_but_events(game, state, nxt):
            raise _fail(where, "a chance outcome leads back to the same state (a loop)")
        actions.append(options[i])
        states.append(nxt)
        state = nxt
        report["steps"] += 1
    report["games"] += 1

    # The same seed and actions must give the same game, state for state.
    again = game.initial_state(seed, explicit_chance=explicit)
    for i, action in enumerate(actions):
        if again != states[i]:
            raise _fail(f"{game.name} seed {seed} ({mode})", f"replay differs at step {i}")
        again = game.step(again, action)
    if again != states[-1]:
        raise _fail(f"{game.name} seed {seed} ({mode})", "replay differs at the end")


def check_game(
    game: Any,
    *,
    games: int = 10,
    seed: int = 0,
    max_steps: int = 5_000,
    explicit_chance: tuple[bool, ...] = (False, True),
) -> ConformanceReport:
    """Play seeded random games and check every promise of the game protocol.

    At every state: legal actions exist exactly when a player must decide, sorted and
    distinct; chance probabilities are exact Fractions summing to 1; the outcome exists
    exactly at the end; actions and states survive their text and JSON round trips;
    observations are unchanged by :meth:`~cardcrawl.Game.determinize` and by the
    generator; legal actions a rule step filled in ahead are those found afresh; and
    ``validate`` accepts the state. At every step: the input state never changes, a
    non-action is refused with :class:`~cardcrawl.IllegalActionError`, cards are
    conserved, a game that overrides ``step`` (to go faster) gives exactly what
    :meth:`cardcrawl.GameBase.step` gives, and in explicit-chance play no chance outcome
    leads back to the state it came from (which would make the chance tree infinite).
    After every game: the same seed and actions replay the same states.

    Args:
        game: any object implementing :class:`cardcrawl.Game`; give it a turn or round
            limit, since random play may otherwise wander for a long time.
        games: games per chance mode.
        seed: the first game's seed; the others follow it.
        max_steps: steps after which a game is abandoned (not an error).
        explicit_chance: which chance modes to play.

    Returns:
        A :class:`ConformanceReport` of what was played.

    Raises:
        ConformanceError: naming the game, seed, step and broken promise.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_game
        >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
        >>> report = check_game(game, games=1)
        >>> report.games, report.terminal == report.games, report.chance_events > 0
        (2, True, True)
    """
    report: dict[str, Any] = {"games": 0, "steps": 0, "chance": 0, "terminal": 0, "outcomes": {}}
    for explicit in explicit_chance:
        for k in range(games):
            _play(game, seed + k, explicit, max_steps, report)
    return ConformanceReport(
        games=report["games"],
        steps=report["steps"],
        chance_events=report["chance"],
        terminal=report["terminal"],
        outcomes=report["outcomes"],
    )
