"""The positions the solver's tests solve, and a deliberately naive expectimax to check it.

:func:`naive_value` is written from the definition and nothing else: plain recursion
over every chance outcome and every decision, no table, no key, no explicit stack, no
budget. It shares no code with :mod:`cardcrawl.solve`, so that an error in the solver's
memo key, its stack or its folding of values shows as a disagreement.

The positions are small enough for it:

- Twenty-one (tests/core/twentyone.py) with a low target, from the first decision;
- The Mapless House late in the hunt: every deck stacked for the first turns (so that
  the stacks are spent when the position is reached and nothing is hidden), the player
  dithering near the Entrance, then one or two turns left (M-22's ``max_turns``);
- The Mapless House with a clairvoyant Narrative deck: the whole deck stacked, the
  player two steps from the Exit with two turns left, so that only the Encounters are
  chance (M-15, M-16);
- Escape from Haydes in its last round (H-13's ``max_rounds``) with the Build deck
  stacked: a creature then the Red Joker, so that the roll is the chance (H-8, H-9);
  for two players, seat 1 (the heuristic bot) moves first, and the cards it turned are
  replaced from a stacked Replacement deck.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import cardcrawl
from cardcrawl import CHANCE, TERMINAL
from cardcrawl.bots import make_bot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
import twentyone

SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
CLUBS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
HEARTS_HIGH_FIRST = [c.replace("C", "H") for c in CLUBS][::-1]
DIAMONDS_HIGH_FIRST = [c.replace("C", "D") for c in CLUBS][::-1]


def naive_value(
    game: Any,
    state: Any,
    utility: Callable[[Any], Any],
    *,
    player: int = 0,
    policies: Mapping[int, Callable[[Any], Any]] | None = None,
    uniform: bool = False,
) -> Fraction:
    """Expectimax by plain recursion: the value of the action a seat's policy picks,
    else at the player's decisions the maximum (or, when ``uniform``, the mean over the
    legal actions: a uniformly random player), the weighted mean at chance events, and
    the utility at the end."""
    policies = policies or {}

    def value(state: Any) -> Fraction:
        to_move = game.current_player(state)
        if to_move == TERMINAL:
            return Fraction(utility(state))
        if to_move == CHANCE:
            return sum(
                (p * value(game.step(state, o)) for o, p in game.chance_outcomes(state)),
                Fraction(0),
            )
        if to_move in policies:
            return value(game.step(state, policies[to_move](state)))
        assert to_move == player, f"seat {to_move} decides and has no policy"
        values = [value(game.step(state, a)) for a in game.legal_actions(state)]
        return sum(values, Fraction(0)) / len(values) if uniform else max(values)

    return value(state)


def bot_policy(name: str, game: Any, seat: int = 0, seed: int = 1) -> Callable[[Any], Any]:
    """A bot as a policy of the state: a new bot (same name, seed and seat) for every
    decision, shown only the seat's observation. A bot keeps a generator between its
    choices; a fresh one each time makes its choice a function of the state alone, as
    the solver needs (it asks a policy once per state, in an order of its own)."""

    def policy(state: Any) -> Any:
        bot = make_bot(name, game, seed=seed, seat=seat)
        return bot.choose(game, game.observe(state, seat), game.legal_actions(state))

    return policy


def twenty_one(target: int = 10) -> tuple[Any, Any, Callable[[Any], Fraction]]:
    """Twenty-one to ``target``, at its first decision, with its exact utility (the
    total over the target, 0 when bust: the game's float return, made exact)."""
    game = twentyone.TwentyOne({"target": target})

    def utility(state: Any) -> Fraction:
        return Fraction(state.total, target) if state.total <= target else Fraction(0)

    return game, game.initial_state(seed=1, explicit_chance=True), utility


def _dither(home: int) -> Callable[[Any, Any], Any]:
    """Place every card on the last legal cell; move toward the cell (home, 0)."""

    def choose(game: Any, state: Any) -> Any:
        legal = game.legal_actions(state)
        if state.is_hunting and state.phase.value == "move":
            return min(legal, key=lambda m: abs(m.cell[0] - home) + abs(m.cell[1]))
        return legal[-1]

    return choose


@cache
def late_hunt(turns: int = 10, left: int = 2) -> tuple[Any, Any]:
    """A Mapless position at the start of turn ``turns + 1``, with ``left`` turns to go.

    The Narrative deck is stacked with the twelve spades, the Exit, then ``turns``
    clubs; the Mind and Body decks with their ``turns`` highest cards. Every stacked
    card is spent by then: the position hides nothing, and its chance events (the next
    Narrative, Mind and Body cards) are the honest draws from what is left.
    """
    game = cardcrawl.load("mapless-house", max_turns=turns + left)
    stack = {
        "narrative": [*SPADES, "AH", *CLUBS[:turns]],
        "mind": HEARTS_HIGH_FIRST[:turns],
        "body": DIAMONDS_HIGH_FIRST[:turns],
    }
    state = game.initial_state(seed=3, explicit_chance=True, stack=stack)
    choose = _dither(1)
    while game.current_player(state) == 0:
        state = game.step(state, choose(game, state))
    assert game.current_player(state) == CHANCE
    assert state.turn == turns + 1
    assert not state.narrative.stacked
    assert not state.mind.stacked
    assert not state.body.stacked
    return game, state


@cache
def near_exit() -> tuple[Any, Any]:
    """A Mapless position two steps from the Exit with two turns to go, the whole
    Narrative deck stacked (so only hidden=True solves it).

    The house is built by the heuristic bot from a stacked deck (three rooms first),
    and the player stands on the 5♠, the 10♠ then the Exit ahead: the Encounter on the
    10♠ (a threshold of 10, M-15) decides whether the player is held (M-16) and so
    misses the last Move.
    """
    game = cardcrawl.load("mapless-house", max_turns=5)
    narrative = ["KS", "QS", "JS", *SPADES[:-3], "AH", *CLUBS]
    stack = {"narrative": narrative, "mind": "KH QH JH", "body": "KD QD JD"}
    state = game.initial_state(seed=3, explicit_chance=True, stack=stack)
    bot = make_bot("heuristic", game, seed=1)
    while game.current_player(state) == 0:
        state = game.step(
            state, bot.choose(game, game.observe(state, 0), game.legal_actions(state))
        )
    assert game.current_player(state) == CHANCE
    assert state.turn == 4
    return game, state


def haydes_last_round(
    build: str = "5S QH 2C RJ",
    players: int = 1,
    first: int = 0,
    replacement: str = "",
    name: str = "escape-from-haydes",
) -> tuple[Any, Any]:
    """Escape from Haydes (or a variant) in its only round (max_rounds 1), the Build
    deck stacked (and, for the cells replaced at the end of a turn, the Replacement
    deck, H-12)."""
    game = cardcrawl.load(name, players=players, max_rounds=1)
    stack: dict[str, Any] = {"build": build.split(), "first_player": first}
    if replacement:
        stack["replacement"] = replacement.split()
    return game, game.initial_state(seed=1, explicit_chance=True, stack=stack)
