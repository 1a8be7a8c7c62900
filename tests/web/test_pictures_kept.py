"""What makes a push cheap, checked against doing it the long way: pictures drawn from
kept pieces are the pictures drawn afresh, the pieces follow the game's hooks, and a
patch rebuilds any picture from the last one sent."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import cardcrawl
from cardcrawl.haydes import Creature, EscapeFromHaydes
from cardcrawl.haydes import _svg as haydes_svg
from cardcrawl.mapless import _svg as mapless_svg

pytest.importorskip("starlette", reason="the web extra is not installed")

from cardcrawl.web._routes import svg_patch


def _forget(module: ModuleType) -> None:
    """Empty every piece a picture module keeps."""
    for value in vars(module).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def _played(name: str, seed: int, steps: int, **options: Any) -> Iterator[Any]:
    game = cardcrawl.load(name, **options)
    rng = random.Random(seed)
    state = game.initial_state(seed=seed)
    for _ in range(steps):
        yield state
        if game.is_terminal(state):
            return
        state = game.step(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize(
    ("name", "options", "module"),
    [
        ("mapless-house", {}, mapless_svg),
        ("escape-from-haydes", {"players": 3}, haydes_svg),
        ("escape-from-haydes-tuybe", {"players": 2}, haydes_svg),
    ],
)
def test_a_picture_from_kept_pieces_is_the_picture_drawn_afresh(
    name: str, options: dict[str, Any], module: ModuleType
) -> None:
    game = cardcrawl.load(name, **options)
    states = [s for seed in (1, 2) for s in _played(name, seed, 60, **options)]
    # Drawn in the order played, as a server does, each from the pieces kept so far.
    kept = [str(cardcrawl.svg(game, s)) for s in states]
    assert len(set(kept)) > len(states) // 2
    for index in range(0, len(states), 7):
        _forget(module)
        assert str(cardcrawl.svg(game, states[index])) == kept[index]


class _TensAreCreatures(EscapeFromHaydes):
    """Jacks are plain ground and tens are creatures."""

    rules_version = f"{EscapeFromHaydes.rules_version}-tens-kept.1"

    def creature(self, card: cardcrawl.Card) -> Creature | None:
        if not card.is_joker and card.rank == 10:
            return Creature("ten")
        if not card.is_joker and card.rank == 11:
            return None
        return super().creature(card)


def test_kept_pieces_show_what_each_games_hooks_answer() -> None:
    stock, tens = cardcrawl.load("escape-from-haydes"), _TensAreCreatures()
    states = [
        game.step(
            game.initial_state(seed=1, stack={"build": [card]}),
            game.parse_action("higher 1,0"),
        )
        for game in (stock, tens)
        for card in ("10S", "JS")
    ]
    # The same cells drawn for both games, one after the other: a piece kept for one
    # game's answer is never shown for the other's.
    for _ in range(2):
        pictures = [str(cardcrawl.svg(game, s)) for game in (stock, tens) for s in states]
        stock_ten, stock_jack, tens_ten, tens_jack = (
            pictures[0],
            pictures[1],
            pictures[6],
            pictures[7],
        )
        assert "a creature" not in _title_at(stock_ten, "1,0")
        assert "a creature" in _title_at(stock_jack, "1,0")
        assert "a creature (ten)" in _title_at(tens_ten, "1,0")
        assert "a creature" not in _title_at(tens_jack, "1,0")


def _title_at(svg: str, code: str) -> str:
    start = svg.index(f'data-cell="{code}"><title>')
    return svg[start : svg.index("</title>", start)]


def _rebuilt(old: list[str], ops: list[Any]) -> list[str]:
    pieces: list[str] = []
    for op in ops:
        pieces.extend(op.split(">") if isinstance(op, str) else old[op[0] : op[0] + op[1]])
    return pieces


def test_a_patch_rebuilds_random_changes() -> None:
    rng = random.Random(32)
    alphabet = ["<g", "</g", "<a", "<b", "<c x", "text</title", "<rect/"]
    for _ in range(2000):
        old = [rng.choice(alphabet) for _ in range(rng.randrange(0, 30))]
        new = list(old)
        for _ in range(rng.randrange(0, 6)):
            where = rng.randrange(0, len(new) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                new.insert(where, rng.choice([*alphabet, "<fresh"]))
            elif new and kind == 1:
                del new[min(where, len(new) - 1)]
            elif new:
                new[min(where, len(new) - 1)] = rng.choice([*alphabet, "<fresh"])
        ops = svg_patch(old, new)
        assert _rebuilt(old, ops) == new
        assert all(
            isinstance(op, str) or (op[1] > 0 and op[0] >= 0 and op[0] + op[1] <= len(old))
            for op in ops
        )


def test_a_patch_between_pictures_of_two_steps_is_small() -> None:
    game = cardcrawl.load("mapless-house")
    pictures = [str(cardcrawl.svg(game, s)).split(">") for s in _played("mapless-house", 4, 40)]
    for old, new in itertools.pairwise(pictures):
        ops = svg_patch(old, new)
        assert _rebuilt(old, ops) == new
        sent = sum(len(op) if isinstance(op, str) else 12 for op in ops)
        assert sent < len(">".join(new)) / 3
