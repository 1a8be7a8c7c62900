"""The Haydes lookahead bot: legal, deterministic, observation-only, registered."""

from __future__ import annotations

import cardcrawl
from cardcrawl import rng_derive
from cardcrawl.bots import make_bot
from cardcrawl.haydes._bots import HaydesLookaheadBot


def _play(game, seed, names):  # type: ignore[no-untyped-def]
    bots = [make_bot(n, game, seed, s) for s, n in enumerate(names)]
    state = game.initial_state(seed=seed)
    choices = []
    while game.current_player(state) >= 0:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.observe(state, seat), legal)
        assert action in legal
        choices.append(action)
        state = game.step(state, action)
    return choices, tuple(game.returns(state))


def test_registered_for_every_haydes_variant() -> None:
    for name in ("escape-from-haydes-solo-timer", "escape-from-haydes-tuybe"):
        game = cardcrawl.load(name, max_rounds=10)
        assert isinstance(make_bot("lookahead", game, 1), HaydesLookaheadBot)


def test_legal_and_deterministic_solo_and_with_others() -> None:
    solo = cardcrawl.load("escape-from-haydes-solo-timer")
    for seed in (1, 2):
        assert _play(solo, seed, ["lookahead"]) == _play(solo, seed, ["lookahead"])
    duo = cardcrawl.load("escape-from-haydes", players=2, max_rounds=15)
    assert _play(duo, 3, ["lookahead", "heuristic"]) == _play(duo, 3, ["lookahead", "heuristic"])


def test_plays_from_the_observation_only() -> None:
    """Two states with the same observation but different generators get one choice."""
    game = cardcrawl.load("escape-from-haydes-solo-timer")
    state = game.initial_state(seed=5)
    other = game.determinize(state, 0, 77)
    bot = make_bot("lookahead", game, 5)
    legal = game.legal_actions(state)
    assert bot.choose(game, game.observe(state, 0), legal) == bot.choose(
        game, game.observe(other, 0), legal
    )


def test_options_change_its_play() -> None:
    """A tiny fixed-seed sanity check: its options are used (no strength claim)."""
    game = cardcrawl.load("escape-from-haydes-solo-timer")
    seeds = [rng_derive(1, i) for i in range(6)]
    default = [_play(game, s, ["lookahead"])[0] for s in seeds]
    bots = [make_bot("lookahead", game, s, escape=0.0, go_on=0.0, stand=0.0) for s in seeds]
    assert all(isinstance(b, HaydesLookaheadBot) and b.escape == 0.0 for b in bots)
    timid = []
    for s in seeds:
        bot = make_bot("lookahead", game, s, start=100.0)
        state = game.initial_state(seed=s)
        legal = game.legal_actions(state)
        timid.append(bot.choose(game, game.observe(state, 0), legal))
    assert all(game.format_action(a) == "end" or "end" in game.format_action(a) for a in timid)
    assert default[0][0] != timid[0]
