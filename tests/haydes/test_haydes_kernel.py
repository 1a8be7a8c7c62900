"""The rollout kernel of Escape from Haydes plays the public path's games, seed by seed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.errors import ConformanceError
from cardcrawl.haydes import EscapeFromHaydes, HaydesOptions, _kernel, _play
from cardcrawl.haydes._actions import Guess
from cardcrawl.simulate import simulate
from cardcrawl.testing import check_kernel

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import plain_haydes
from variant_kernel import Backwards, EqualCounts  # the benchmark's variants: the same

# Where the kernel is compiled, its own calls to _run never look the name up again, so a
# patched _run would go unseen: these faults are planted in the pure-Python kernel only.
python_kernel_only = pytest.mark.skipif(
    "escape-from-haydes" in cardcrawl.compiled_kernels(), reason="the kernel is compiled"
)


def _haydes(**options: Any) -> Any:
    return cardcrawl.load("escape-from-haydes", **options)


@pytest.mark.parametrize(
    ("options", "seeds"),
    [
        ({"players": 1}, 1000),
        ({"players": 2}, 300),
        ({"players": 3}, 200),
        ({"players": 4}, 200),
        ({"players": 1, "max_rounds": 3}, 300),
        ({"players": 4, "max_rounds": 2}, 200),
        ({"players": 2, "max_rounds": 300}, 200),
        ({"players": 2, "splits": [(7, 9), (9, 7)]}, 150),
        ({"players": 3, "creatures": "denizens"}, 150),
    ],
)
def test_the_kernel_plays_the_public_games(options: dict[str, Any], seeds: int) -> None:
    assert check_kernel(_haydes(**options), seeds=range(seeds)) == seeds


@pytest.mark.slow
@pytest.mark.parametrize(("decks", "players"), [(2, 1), (2, 4), (16, 1), (16, 3)])
def test_the_kernel_plays_other_boards(decks: int, players: int) -> None:
    # Two decks run the Replacement deck and the discard pile low (H-12), with Red
    # Jokers shuffled back in (H-10); sixteen make the 418-cell board of the benchmarks.
    game = _haydes(players=players, deck_count=decks, layout=plain_haydes.rect_layout(decks))
    assert check_kernel(game, seeds=range(150)) == 150


@pytest.mark.slow
def test_the_kernel_reaches_the_rules_rare_branches() -> None:
    """The mixes (H-10) and the deals that reshuffle (H-12) come up in the games checked
    on a two-deck board: the kernel plays them with the very rules of the public path."""
    reached: dict[str, int] = {"_deal": 0, "apply_reveal": 0}

    def counted(owner: Any, name: str) -> Any:
        original = getattr(owner, name)

        def call(*args: Any) -> Any:
            reached[name] += 1
            return original(*args)

        return call

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_play.Rules, "_deal", counted(_play.Rules, "_deal"))
        patch.setattr(_play, "apply_reveal", counted(_play, "apply_reveal"))
        game = _haydes(players=4, deck_count=2, layout=plain_haydes.rect_layout(2))
        assert check_kernel(game, seeds=range(300)) == 300
    assert all(reached.values()), reached


def test_games_cut_off_by_max_decisions_are_left_to_the_public_path() -> None:
    game = _haydes(players=2)
    assert check_kernel(game, seeds=range(150), max_decisions=40) == 150
    kernel = _kernel.rollout_kernel(game)
    cut = {kernel.play(seed, 40) is None for seed in range(150)}
    assert cut == {True, False}


class Generous(EscapeFromHaydes):
    """Every guess is right (H-7 overridden)."""

    rules_version = f"{EscapeFromHaydes.rules_version}-generous.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        return True


class HigherEscapes(EscapeFromHaydes):
    """Either guess onto the Red Joker escapes from a card worth 2 or more (H-9)."""

    def is_escape(self, guess: Guess, from_value: int) -> bool:
        return from_value >= 2


class Fierce(EscapeFromHaydes):
    """A creature is overcome only by a roll below the value (H-8)."""

    def overcomes(self, creature: Any, value: int, total: int) -> bool:
        return total + creature.modifier < value


class Draining(EscapeFromHaydes):
    """An encounter lost costs twice the creature's cost (H-8, H-11)."""

    def characteristic_after(self, creature: Any, value: int, overcome: bool) -> int:
        return max(0, value - (creature.cost if overcome else 2 * creature.cost))


class Lingering(EscapeFromHaydes):
    """Creatures' cards stay face up at the end of a turn (H-12), as do occupied ones."""

    def stays_face_up(self, cell: Any, card: cardcrawl.Card, occupied: bool) -> bool:
        return occupied or (not card.is_joker and card.rank >= 11)


class AcesHigh(EscapeFromHaydes):
    """Aces are worth 14 (H-1)."""

    def card_value(self, card: cardcrawl.Card) -> int:
        return 14 if not card.is_joker and card.rank == 1 else super().card_value(card)


class Diagonal(EscapeFromHaydes):
    """Figures move diagonally too (H-6): eight touching cells, up to 17 actions."""

    def touching_cells(self, cell: Any) -> list[Any]:
        x, y = cell
        return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


class OneDie(EscapeFromHaydes):
    """An encounter is rolled on one die (H-8)."""

    def roll_weights(self) -> tuple[tuple[int, int], ...]:
        return tuple((total, 1) for total in range(1, 7))


class Everything(Backwards, Draining, Lingering, Diagonal, OneDie, EqualCounts):
    """Several hooks changed at once."""


HOOKED = [
    Generous, EqualCounts, Backwards, HigherEscapes, Fierce, Draining, Lingering,
    AcesHigh, Diagonal, OneDie, Everything,
]  # fmt: skip


def _public(game: Any, seed: int) -> tuple[str, int, int]:
    """One random game through legal_actions and step: outcome, decisions, rounds."""
    state, decisions = game.initial_state(seed), 0
    bots = [RandomBot(game, seed, seat) for seat in range(game.num_players)]
    while not game.is_terminal(state):
        bot = bots[game.current_player(state)]
        state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
        decisions += 1
    return game.outcome(state).label, decisions, state.round


@pytest.mark.slow
@pytest.mark.parametrize("variant", HOOKED, ids=lambda v: v.__name__)
@pytest.mark.parametrize("players", [1, 3])
def test_the_kernel_plays_a_variants_hooks(variant: type[EscapeFromHaydes], players: int) -> None:
    """A variant that changes rule hooks keeps the kernel, which plays its games exactly."""
    game = variant(_haydes(players=players, max_rounds=25).options)
    assert check_kernel(game, seeds=range(120)) == 120


@pytest.mark.slow
def test_the_variants_hooks_change_the_games() -> None:
    """Each variant above plays other games than the stock one, so the proof is of its
    own rules, not of the stock rules again."""
    stock = [_public(_haydes(players=3, max_rounds=25), seed) for seed in range(60)]
    for variant in HOOKED:
        game = variant(_haydes(players=3, max_rounds=25).options)
        assert [_public(game, seed) for seed in range(60)] != stock, variant.__name__


def test_the_wide_characters_variant_keeps_the_kernel() -> None:
    """An options subclass (the splits of H-2) changes the setup only."""

    class WideOptions(HaydesOptions):
        max_characteristic = 10
        splits_described = "two values adding up to 16, neither above 10"

        @classmethod
        def split_is_valid(cls, split: tuple[int, int]) -> bool:
            return sum(split) == 16 and max(split) <= 10

    class Wide(EscapeFromHaydes):
        options_type = WideOptions

    game = Wide(WideOptions(players=2, splits=[(10, 6), (6, 10)], max_rounds=25))
    assert check_kernel(game, seeds=range(100)) == 100


def test_the_tuybe_is_played_on_the_kernel() -> None:
    assert check_kernel(_haydes(players=2, tuybe=True, max_rounds=25), seeds=range(100)) == 100


def test_a_variant_that_overrides_a_rule_step_keeps_the_kernel_and_its_step() -> None:
    """The rule steps are the rules' own (cardcrawl.haydes._play): a variant changes a
    rule through its hook, and whatever it changes, every path plays it."""

    class Replayed(EscapeFromHaydes):
        def _advance(self, state: Any, action: Any) -> Any:
            return super()._advance(state, action)

    game = Replayed(_haydes(players=3, max_rounds=20).options)
    assert check_kernel(game, seeds=range(20)) == 20


def test_simulate_plays_a_variant_on_the_kernel_with_its_own_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stock = _haydes(players=1, max_rounds=20)
    ours = simulate(Generous(stock.options), "random", games=40, seed=3, workers=1).results
    theirs = simulate(stock, "random", games=40, seed=3, workers=1).results
    assert [r.figure("correct") for r in ours] != [r.figure("correct") for r in theirs]
    assert all(r.figure("correct") == r.figure("guesses") for r in ours)
    # And the kernel played them: without it, the same results.
    monkeypatch.setattr(_kernel.HaydesKernel, "summary", lambda kernel, *args: None)
    slow = simulate(Generous(stock.options), "random", games=40, seed=3, workers=1).results
    assert slow == ours


def test_hooks_are_bound_when_the_game_is_built() -> None:
    """A hook is read once, when the game is built (the stock method or the variant's
    override): a subclass changes it; an attribute set on a built game does not."""
    game = _haydes(players=2, max_rounds=20)
    stock = [_public(game, seed) for seed in range(20)]
    game.guess_is_correct = lambda guess, from_value, value: True  # type: ignore[method-assign]
    assert [_public(game, seed) for seed in range(20)] == stock
    assert check_kernel(game, seeds=range(20)) == 20


def test_a_class_patched_before_its_first_game_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EscapeFromHaydes, "guess_is_correct", Generous.guess_is_correct)
    game = _haydes(players=1, max_rounds=20)
    played = _kernel.rollout_kernel(game).play(1, 100_000)
    assert played is not None
    assert all(event.correct for event in played[0].events if hasattr(event, "correct"))
    assert check_kernel(game, seeds=range(40)) == 40


@python_kernel_only
def test_a_kernel_whose_last_events_differ_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = _kernel._run

    def reversed_events(*args: Any) -> Any:
        played = original(*args)
        if played is not None and played[0].events:
            played[0].events.reverse()
        return played

    monkeypatch.setattr(_kernel, "_run", reversed_events)
    with pytest.raises(ConformanceError, match="events differ"):
        check_kernel(_haydes(players=2), seeds=range(50))


@python_kernel_only
def test_a_kernel_that_draws_in_another_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = _kernel._run

    def shifted(game: Any, seed: int, *rest: Any) -> Any:
        # The bots' generators one seed on: other choices, other games.
        return original(game, seed + 1, *rest)

    monkeypatch.setattr(_kernel, "_run", shifted)
    with pytest.raises(ConformanceError, match="seed 0"):
        check_kernel(_haydes(players=2), seeds=range(5))


@python_kernel_only
def test_a_kernel_that_tells_simulate_other_figures_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = _kernel._run

    def miscounted(*args: Any) -> Any:
        played = original(*args)
        if args[-1] or played is None:  # build: the state is compared, not this
            return played
        position, decisions, figures = played
        return position, decisions, (*figures[:-1], ("out", figures[-1][1] + 1))

    monkeypatch.setattr(_kernel, "_run", miscounted)
    with pytest.raises(ConformanceError, match="gives simulate"):
        check_kernel(_haydes(players=1), seeds=range(5))


@pytest.mark.parametrize("players", [1, 4])
def test_simulate_gives_the_public_paths_results(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    game = _haydes(players=players, max_rounds=40)
    used = []
    original = _kernel.HaydesKernel.summary

    def spy(kernel: Any, *args: Any) -> Any:
        played = original(kernel, *args)
        used.append(played is not None)
        return played

    monkeypatch.setattr(_kernel.HaydesKernel, "summary", spy)
    fast = simulate(game, "random", games=120, seed=9, workers=1).results
    assert used
    assert all(used)  # the kernel played every game
    monkeypatch.setattr(_kernel.HaydesKernel, "summary", lambda kernel, *args: None)
    assert simulate(game, "random", games=120, seed=9, workers=1).results == fast


def test_simulate_with_another_bot_plays_the_public_way(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _haydes(players=2, max_rounds=20)

    def refuse(*args: Any) -> Any:
        raise AssertionError("the kernel was asked to play")

    monkeypatch.setattr(_kernel, "_run", refuse)
    simulate(game, ["random", "heuristic"], games=3, seed=1, workers=1)
    position = game.notation(game.initial_state(4))
    simulate(game, "random", games=3, seed=1, workers=1, position=position)


@pytest.mark.parametrize("players", [1, 3])
def test_many_touching_cells_with_the_tuybe_give_the_right_legal_actions(players: int) -> None:
    """Eight touching cells and eight cells two away: each turn's legal moves aim at the
    face-down cells among them and steps at the face-up ones, on every path (the legal
    actions are kept by which of a cell's sixteen neighbours are face down)."""
    game = Diagonal(_haydes(players=players, max_rounds=25, tuybe=True).options)
    for seed in range(25):
        state = game.initial_state(seed)
        bots = [RandomBot(game, seed, seat) for seat in range(game.num_players)]
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            for action in legal:
                cell = getattr(action, "cell", None)
                if cell is not None:
                    face_up = state.face_up[game._index[cell]] is not None
                    assert face_up == (type(action).__name__ == "Step"), (seed, action)
            state = game.step(state, bots[game.current_player(state)].choose(game, None, legal))
    assert check_kernel(game, seeds=range(25)) == 25
