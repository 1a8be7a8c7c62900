"""The Haydes pictures and bots ask the game's hooks, never a rank or a rule of their own:
the text map and the SVG show the creatures the ``creature`` hook makes (H-1, H-8), and
the heuristic weighs ``overcomes`` (H-8)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import attrs

import cardcrawl
from cardcrawl.bots import RandomBot, make_bot
from cardcrawl.haydes import Creature, EscapeFromHaydes, Move
from cardcrawl.testing import check_kernel

_SVG = "{http://www.w3.org/2000/svg}"


class TensAreCreatures(EscapeFromHaydes):
    """Jacks are plain ground and tens are creatures (H-1, H-8 changed)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-tens.1"

    def creature(self, card: cardcrawl.Card) -> Creature | None:
        if card.is_joker:
            return None
        if card.rank == 10:
            return Creature("ten")
        if card.rank == 11:
            return None
        return super().creature(card)


class Unbeatable(EscapeFromHaydes):
    """No roll ever overcomes a creature (H-8 changed)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-unbeatable.1"

    def overcomes(self, creature: Creature, value: int, total: int) -> bool:
        return False


def _onto(game: EscapeFromHaydes, card: str) -> Any:
    """The state after moving onto ``card``, turned at (1, 0)."""
    state = game.initial_state(seed=1, stack={"build": [card]})
    return game.step(state, game.parse_action("higher 1,0"))


def _cell_classes(svg: str, code: str) -> set[str]:
    root = ET.fromstring(svg)
    for group in root.iter(f"{_SVG}g"):
        if group.get("data-cell") == code and "card" in group.get("class", "").split():
            return set(group.get("class", "").split())
    raise AssertionError(f"no card drawn at {code}")


def test_the_text_map_shows_the_variants_creatures() -> None:
    game = TensAreCreatures()
    ten = _onto(game, "10S")
    assert game.current_player(ten) == 0
    assert "held by 10♠" in game.render(ten)
    jack = _onto(game, "JS")
    assert "held by" not in game.render(jack)
    # The stock game: the other way round.
    stock = cardcrawl.load("escape-from-haydes")
    assert "held by" not in stock.render(_onto(stock, "10S"))
    assert "held by J♠" in stock.render(_onto(stock, "JS"))


def test_the_svg_shows_the_variants_creatures() -> None:
    game = TensAreCreatures()
    ten = str(cardcrawl.svg(game, _onto(game, "10S")))
    assert "creature" in _cell_classes(ten, "1,0")
    assert "facing 10♠" in ten
    jack = str(cardcrawl.svg(game, _onto(game, "JS")))
    assert "creature" not in _cell_classes(jack, "1,0")
    assert "J♠" in jack
    assert "facing" not in jack
    assert "held by" not in jack
    stock = cardcrawl.load("escape-from-haydes")
    assert "creature" in _cell_classes(str(cardcrawl.svg(stock, _onto(stock, "JS"))), "1,0")
    assert "creature" not in _cell_classes(str(cardcrawl.svg(stock, _onto(stock, "10S"))), "1,0")


def test_the_variants_are_played_alike_on_every_path() -> None:
    for variant in (TensAreCreatures, Unbeatable):
        game = variant(cardcrawl.load("escape-from-haydes", players=2, max_rounds=25).options)
        assert check_kernel(game, seeds=range(30)) == 30


def _creature_chance(game: Any, state: Any, action: Any) -> float:
    """The chance that ``action`` meets a creature (0 for the end of the turn)."""
    if not isinstance(action, Move):
        return 0.0
    explicit = attrs.evolve(state, explicit_chance=True)
    turned = game.chance_outcomes(game.step(explicit, action))
    return float(sum(p for outcome, p in turned if game.creature(outcome.card) is not None))


def test_the_heuristic_weighs_overcomes() -> None:
    """Where no creature can be overcome, meeting one holds the player until out (H-8,
    H-11): the heuristic, which weighs the game's ``overcomes``, no longer risks the
    moves it takes in the stock game."""
    options = cardcrawl.load("escape-from-haydes", max_rounds=30).options
    stock, unbeatable = EscapeFromHaydes(options), Unbeatable(options)
    changed = 0
    for seed in range(6):
        state = unbeatable.initial_state(seed)
        bot = RandomBot(unbeatable, seed, 0)
        while not unbeatable.is_terminal(state) and state.round <= 8:
            legal = unbeatable.legal_actions(state)
            seen = unbeatable.observe(state, state.current)
            ours = make_bot("heuristic", unbeatable, seed=0).choose(unbeatable, seen, legal)
            theirs = make_bot("heuristic", stock, seed=0).choose(stock, seen, legal)
            if ours != theirs:
                changed += 1
                # The stock choice risks a creature that cannot be overcome; the
                # variant's risks less.
                assert isinstance(theirs, Move)
                assert _creature_chance(unbeatable, state, ours) < _creature_chance(
                    unbeatable, state, theirs
                )
            state = unbeatable.step(state, bot.choose(unbeatable, None, legal))
    assert changed > 0
