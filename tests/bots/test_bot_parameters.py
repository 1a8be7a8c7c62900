"""The heuristic bots' declared parameters: real weights of their decisions, whose
defaults are the hand-tuned values the bots played with before they could be tuned."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import bot_parameters, get_bot_spec, make_bot

#: (game, options, seeds, bots, player): positions of seeded games played by ``player``
#: (the random bot, or each bot itself: "self"), for each bot that declares parameters.
CASES = [
    ("escape-from-haydes", {"max_rounds": 30}, range(12), ("heuristic", "lookahead"), "random"),
    ("escape-from-haydes", {"players": 2, "max_rounds": 20}, range(6), ("heuristic", "lookahead"),
     "random"),
    ("mapless-house", {"max_turns": 100}, range(10), ("heuristic", "planner"), "random"),
    ("escape-from-haydes", {"max_rounds": 30}, range(12), ("heuristic", "lookahead"), "self"),
    ("mapless-house", {"max_turns": 100}, range(15), ("heuristic", "planner"), "self"),
]  # fmt: skip
#: The digest of each bot's choices over those positions, as the bots chose before they
#: declared parameters (their weights were constants then, and the hunt planner stepped
#: to touching cards without asking ``move_cells``): the defaults must choose exactly
#: so, or every measured strength and golden game of the bots would change.
UNTUNED = {
    ("escape-from-haydes", 1, "heuristic", "random"): "86db5a86345fa16f",
    ("escape-from-haydes", 1, "lookahead", "random"): "abfda771ebef8b57",
    ("escape-from-haydes", 2, "heuristic", "random"): "700de2bbfe2b2e9c",
    ("escape-from-haydes", 2, "lookahead", "random"): "22ca0b2bf9418376",
    ("mapless-house", 1, "heuristic", "random"): "9cbb001f70b7374c",
    ("mapless-house", 1, "planner", "random"): "ebd8c95c6d6a0de6",
    ("escape-from-haydes", 1, "heuristic", "self"): "f6ad4718bc89e971",
    ("escape-from-haydes", 1, "lookahead", "self"): "bd83bfff7ecbe6be",
    ("mapless-house", 1, "heuristic", "self"): "e48b34c13a2585d5",
    ("mapless-house", 1, "planner", "self"): "425c4a820cd1cfb3",
}


@functools.cache
def _positions(
    name: str, options: tuple[tuple[str, Any], ...], seeds: range, player: str = "random"
) -> Any:
    """The game and its decisions with a choice, in seeded games of ``player``."""
    game = cardcrawl.load(name, **dict(options))
    found = []
    for seed in seeds:
        state = game.initial_state(seed)
        bots = [make_bot(player, game, seed, seat) for seat in range(game.num_players)]
        for _ in range(400):
            if game.is_terminal(state):
                break
            seat = game.current_player(state)
            legal = game.legal_actions(state)
            if len(legal) > 1:
                found.append((game.observe(state, seat), legal))
            state = game.step(state, bots[seat].choose(game, game.observe(state, seat), legal))
    return game, tuple(found)


def _choices(game: Any, positions: Any, bot: str, **values: Any) -> list[str]:
    return [
        game.format_action(make_bot(bot, game, seed=0, **values).choose(game, seen, legal))
        for seen, legal in positions
    ]


def _digest(choices: list[str]) -> str:
    return hashlib.sha256("".join(f"{c};" for c in choices).encode()).hexdigest()[:16]


_BOT_CASES = [
    pytest.param(
        name, options, seeds, bot, player, id=f"{name}-{options.get('players', 1)}-{bot}-{player}"
    )
    for name, options, seeds, bots, player in CASES
    for bot in bots
]


@pytest.mark.parametrize(("name", "options", "seeds", "bot", "player"), _BOT_CASES)
def test_the_defaults_choose_as_the_untuned_bot(
    name: str, options: dict[str, Any], seeds: range, bot: str, player: str
) -> None:
    by = bot if player == "self" else player
    game, positions = _positions(name, tuple(options.items()), seeds, by)
    assert len(positions) > 300
    declared = bot_parameters(get_bot_spec(bot, game).factory)
    assert declared, f"{bot} declares no parameters"
    untuned = _choices(game, positions, bot)
    assert _digest(untuned) == UNTUNED[name, game.num_players, bot, player]
    # Every parameter given at its default, as a parameter file gives it: the same.
    given = _choices(game, positions, bot, **{p.name: p.default for p in declared})
    assert given == untuned


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options", "seeds", "bot", "player"),
    [
        pytest.param("escape-from-haydes", {"max_rounds": 30}, range(12), "heuristic", "heuristic"),
        pytest.param("escape-from-haydes", {"max_rounds": 30}, range(12), "lookahead", "random"),
        # The building plan's weights matter in the houses the plan builds.
        pytest.param("mapless-house", {"max_turns": 100}, range(25), "heuristic", "heuristic"),
    ],
)
def test_every_parameter_weighs_in_some_decision(
    name: str, options: dict[str, Any], seeds: range, bot: str, player: str
) -> None:
    """A declared parameter is a weight the bot decides by: moved to an end of its
    range, it changes some of the bot's choices (in positions of games ``player``
    played)."""
    game, positions = _positions(name, tuple(options.items()), seeds, player)
    untuned = _choices(game, positions, bot)
    for parameter in bot_parameters(get_bot_spec(bot, game).factory):
        for end in (parameter.low, parameter.high):
            value = int(end) if parameter.integer else end
            tuned = _choices(game, positions, bot, **{parameter.name: value})
            if tuned != untuned:
                break
        else:
            pytest.fail(f"{bot}'s {parameter.name} changes no choice at either end")
